// Element-wise computation: arith (integer and float ops, comparisons,
// casts, bitcasts), math, libdevice calls (tt.extern_elementwise) and inline
// PTX (tt.elementwise_inline_asm).
#include "InlineAsm.h"
#include "Program.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;

namespace tgpu::cpu::detail {

// The one-argument libm functions both precisions have, by name: for T =
// float these are the C library's float functions (erff, expf, ...), what
// MLIR's math folders compute for f32 constants, so a folded value is the
// reference's to the bit (std::erf rounded to float differs from erff by an
// ulp at some inputs).
template <typename T> using UnaryFnOf = T (*)(T);
template <typename T> UnaryFnOf<T> libmFunction(llvm::StringRef base) {
  return llvm::StringSwitch<UnaryFnOf<T>>(base)
      .Case("exp", [](T x) { return std::exp(x); })
      .Case("exp2", [](T x) { return std::exp2(x); })
      .Case("expm1", [](T x) { return std::expm1(x); })
      .Case("log", [](T x) { return std::log(x); })
      .Case("log2", [](T x) { return std::log2(x); })
      .Case("log10", [](T x) { return std::log10(x); })
      .Case("log1p", [](T x) { return std::log1p(x); })
      .Case("sqrt", [](T x) { return std::sqrt(x); })
      .Case("cbrt", [](T x) { return std::cbrt(x); })
      .Case("sin", [](T x) { return std::sin(x); })
      .Case("cos", [](T x) { return std::cos(x); })
      .Case("tan", [](T x) { return std::tan(x); })
      .Case("asin", [](T x) { return std::asin(x); })
      .Case("acos", [](T x) { return std::acos(x); })
      .Case("atan", [](T x) { return std::atan(x); })
      .Case("sinh", [](T x) { return std::sinh(x); })
      .Case("cosh", [](T x) { return std::cosh(x); })
      .Case("tanh", [](T x) { return std::tanh(x); })
      .Case("erf", [](T x) { return std::erf(x); })
      .Case("erfc", [](T x) { return std::erfc(x); })
      .Default(nullptr);
}

// The exact one-argument functions, by libm-style name (shared by math.*
// and the libdevice calls).
using UnaryFn = UnaryFnOf<double>;
UnaryFn unaryMathFunction(llvm::StringRef base) {
  if (UnaryFn fn = libmFunction<double>(base))
    return fn;
  return llvm::StringSwitch<UnaryFn>(base)
      .Case("exp10", [](double x) { return std::pow(10.0, x); })
      .Case("rsqrt", [](double x) { return 1.0 / std::sqrt(x); })
      .Case("fabs", [](double x) { return std::fabs(x); })
      .Case("floor", [](double x) { return std::floor(x); })
      .Case("ceil", [](double x) { return std::ceil(x); })
      .Case("trunc", [](double x) { return std::trunc(x); })
      .Case("round", [](double x) { return std::round(x); })
      .Case("rint", [](double x) { return std::nearbyint(x); })
      .Default(nullptr);
}

// f32 math: the float functions above. rsqrt and exp10 have no float libm
// function MLIR folds with, and the rounding functions are exact either
// way: nullptr, the double path.
using UnaryFnF32 = UnaryFnOf<float>;
UnaryFnF32 unaryMathFunctionF32(llvm::StringRef base) { return libmFunction<float>(base); }

// An integer (held exactly in a long double) rounded once to a float type.
double roundIntTo(const ElemType &t, long double v) {
  switch (t.bits) {
  case 16:
    if (t.bf16) {
      // Round to odd into float, then to nearest even into bf16: one
      // rounding overall.
      float f = float(v);
      if ((long double)f != v) {
        if (std::fabs((long double)f) > std::fabs(v))
          f = std::nextafter(f, 0.0f);
        uint32_t u;
        std::memcpy(&u, &f, 4);
        u |= 1;
        std::memcpy(&f, &u, 4);
      }
      return floatFromBF16Bits(bf16BitsFromFloat(f));
    }
    return double(static_cast<_Float16>(v));
  case 32:
    return double(float(v));
  default:
    return double(v);
  }
}

//===----------------------------------------------------------------------===//
// Integer and float arithmetic
//===----------------------------------------------------------------------===//

Error Program::execArith(Operation &op, llvm::StringRef name) {
  if (name == "arith.constant") {
    Expected<Tensor> r = fresh(op.getResult(0));
    if (!r)
      return r.takeError();
    Attribute value = op.getAttr("value");
    auto fill = [&](Attribute a, int64_t k) {
      if (auto i = dyn_cast<IntegerAttr>(a))
        r->i[k] = maskBits(i.getValue().getZExtValue(), r->type.bits);
      else if (auto f = dyn_cast<FloatAttr>(a))
        r->f[k] = f.getValue().convertToDouble();
      else if (auto b = dyn_cast<BoolAttr>(a))
        r->i[k] = b.getValue();
    };
    if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
      if (dense.isSplat()) {
        // One conversion, then copies (a splat is most constants).
        if (r->numel() > 0) {
          fill(dense.getSplatValue<Attribute>(), 0);
          if (r->type.isFloat())
            std::fill(r->f.begin() + 1, r->f.end(), r->f[0]);
          else
            std::fill(r->i.begin() + 1, r->i.end(), r->i[0]);
        }
      } else {
        int64_t k = 0;
        for (Attribute a : dense.getValues<Attribute>())
          fill(a, k++);
      }
    } else if (r->numel() > 0) {
      fill(value, 0);
      // One element, or every lane of a combine region run lane-wise.
      if (r->type.isFloat())
        std::fill(r->f.begin() + 1, r->f.end(), r->f[0]);
      else
        std::fill(r->i.begin() + 1, r->i.end(), r->i[0]);
    }
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  if (name == "arith.select") {
    const Tensor &c = get(op.getOperand(0)), &a = get(op.getOperand(1)),
                 &b = get(op.getOperand(2));
    Tensor r = a;
    bool scalarCond = c.shape.empty();
    for (int64_t k = 0; k < r.numel(); ++k) {
      bool take = c.i[scalarCond ? 0 : k] & 1;
      if (r.type.isFloat())
        r.f[k] = take ? a.f[k] : b.f[k];
      else
        r.i[k] = take ? a.i[k] : b.i[k];
    }
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (op.getNumOperands() == 1 && name == "arith.negf") {
    Tensor r = get(op.getOperand(0));
    for (double &x : r.f)
      x = -x;
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (op.getNumOperands() != 2)
    return unsupported(&op);
  const Tensor &a = get(op.getOperand(0)), &b = get(op.getOperand(1));
  int64_t n = a.numel();

  if (name == "arith.cmpi" || name == "arith.cmpf") {
    Expected<Tensor> r = freshLike(op.getResult(0), a);
    if (!r)
      return r.takeError();
    if (name == "arith.cmpi") {
      auto pred = cast<arith::CmpIOp>(op).getPredicate();
      unsigned bits = a.type.bits;
      for (int64_t k = 0; k < n; ++k) {
        uint64_t x = a.i[k], y = b.i[k];
        int64_t sx = sext(x, bits), sy = sext(y, bits);
        bool v = false;
        switch (pred) {
        case arith::CmpIPredicate::eq: v = x == y; break;
        case arith::CmpIPredicate::ne: v = x != y; break;
        case arith::CmpIPredicate::slt: v = sx < sy; break;
        case arith::CmpIPredicate::sle: v = sx <= sy; break;
        case arith::CmpIPredicate::sgt: v = sx > sy; break;
        case arith::CmpIPredicate::sge: v = sx >= sy; break;
        case arith::CmpIPredicate::ult: v = x < y; break;
        case arith::CmpIPredicate::ule: v = x <= y; break;
        case arith::CmpIPredicate::ugt: v = x > y; break;
        case arith::CmpIPredicate::uge: v = x >= y; break;
        }
        r->i[k] = v;
      }
    } else {
      auto pred = cast<arith::CmpFOp>(op).getPredicate();
      for (int64_t k = 0; k < n; ++k) {
        double x = a.f[k], y = b.f[k];
        bool unord = std::isnan(x) || std::isnan(y);
        bool v = false;
        using P = arith::CmpFPredicate;
        switch (pred) {
        case P::AlwaysFalse: v = false; break;
        case P::OEQ: v = !unord && x == y; break;
        case P::OGT: v = !unord && x > y; break;
        case P::OGE: v = !unord && x >= y; break;
        case P::OLT: v = !unord && x < y; break;
        case P::OLE: v = !unord && x <= y; break;
        case P::ONE: v = !unord && x != y; break;
        case P::ORD: v = !unord; break;
        case P::UEQ: v = unord || x == y; break;
        case P::UGT: v = unord || x > y; break;
        case P::UGE: v = unord || x >= y; break;
        case P::ULT: v = unord || x < y; break;
        case P::ULE: v = unord || x <= y; break;
        case P::UNE: v = unord || x != y; break;
        case P::UNO: v = unord; break;
        case P::AlwaysTrue: v = true; break;
        }
        r->i[k] = v;
      }
    }
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }

  Tensor r = a;
  if (a.type.isFloat()) {
    enum { Add, Sub, Mul, Div, Rem, MaxNum, MinNum, Maximum, Minimum } kind;
    auto k = llvm::StringSwitch<int>(name)
                 .Case("arith.addf", Add)
                 .Case("arith.subf", Sub)
                 .Case("arith.mulf", Mul)
                 .Case("arith.divf", Div)
                 .Case("arith.remf", Rem)
                 .Case("arith.maxnumf", MaxNum)
                 .Case("arith.minnumf", MinNum)
                 .Case("arith.maximumf", Maximum)
                 .Case("arith.minimumf", Minimum)
                 .Default(-1);
    if (k < 0)
      return unsupported(&op);
    kind = decltype(kind)(k);
    const ElemType &t = a.type;
    double *out = r.f.data();
    const double *x = a.f.data(), *y = b.f.data();
    // One loop per op: no dispatch per element.
    switch (kind) {
    case Add:
      for (int64_t i = 0; i < n; ++i)
        out[i] = roundTo(t, x[i] + y[i]);
      break;
    case Sub:
      for (int64_t i = 0; i < n; ++i)
        out[i] = roundTo(t, x[i] - y[i]);
      break;
    case Mul:
      for (int64_t i = 0; i < n; ++i)
        out[i] = roundTo(t, x[i] * y[i]);
      break;
    case Div:
      for (int64_t i = 0; i < n; ++i)
        out[i] = roundTo(t, x[i] / y[i]);
      break;
    case Rem:
      for (int64_t i = 0; i < n; ++i)
        out[i] = roundTo(t, std::fmod(x[i], y[i]));
      break;
    case MaxNum:
      for (int64_t i = 0; i < n; ++i)
        out[i] = std::fmax(x[i], y[i]);
      break;
    case MinNum:
      for (int64_t i = 0; i < n; ++i)
        out[i] = std::fmin(x[i], y[i]);
      break;
    case Maximum:
    case Minimum:
      for (int64_t i = 0; i < n; ++i) {
        double p = x[i], q = y[i];
        if (std::isnan(p) || std::isnan(q))
          out[i] = std::numeric_limits<double>::quiet_NaN();
        else if (p == q) // -0 < +0
          out[i] = kind == Maximum ? (std::signbit(p) ? q : p)
                                   : (std::signbit(p) ? p : q);
        else
          out[i] = kind == Maximum ? std::max(p, q) : std::min(p, q);
      }
      break;
    }
    set(op.getResult(0), std::move(r));
    return Error::success();
  }

  unsigned bits = a.type.bits;
  uint64_t *out = r.i.data();
  const uint64_t *x = a.i.data(), *y = b.i.data();
  auto each = [&](auto fn) -> Error {
    for (int64_t i = 0; i < n; ++i) {
      uint64_t v;
      if (Error e = fn(i, x[i], y[i], v))
        return e;
      out[i] = maskBits(v, bits);
    }
    return Error::success();
  };
  auto ok = [](uint64_t &dst, uint64_t v) {
    dst = v;
    return Error::success();
  };
  Error e = Error::success();
  if (name == "arith.addi")
    for (int64_t i = 0; i < n; ++i)
      out[i] = maskBits(x[i] + y[i], bits);
  else if (name == "arith.subi")
    for (int64_t i = 0; i < n; ++i)
      out[i] = maskBits(x[i] - y[i], bits);
  else if (name == "arith.muli")
    for (int64_t i = 0; i < n; ++i)
      out[i] = maskBits(x[i] * y[i], bits);
  else if (name == "arith.andi")
    for (int64_t i = 0; i < n; ++i)
      out[i] = x[i] & y[i];
  else if (name == "arith.ori")
    for (int64_t i = 0; i < n; ++i)
      out[i] = x[i] | y[i];
  else if (name == "arith.xori")
    for (int64_t i = 0; i < n; ++i)
      out[i] = x[i] ^ y[i];
  else if (name == "arith.divsi" || name == "arith.remsi" ||
           name == "arith.divui" || name == "arith.remui" ||
           name == "arith.floordivsi" || name == "arith.ceildivsi") {
    bool isSigned = !name.ends_with("ui");
    bool rem = name.starts_with("arith.rem");
    e = each([&](int64_t i, uint64_t p, uint64_t q, uint64_t &v) -> Error {
      if (q == 0)
        return ub(&op, "division-by-zero", "integer division by zero", &a, i);
      if (!isSigned)
        return ok(v, rem ? p % q : p / q);
      int64_t sp = sext(p, bits), sq = sext(q, bits);
      int64_t minv = bits >= 64 ? std::numeric_limits<int64_t>::min()
                                : -(int64_t(1) << (bits - 1));
      if (sp == minv && sq == -1)
        return ub(&op, "division-overflow",
                  "signed division of the minimum value by -1", &a, i);
      int64_t quo = sp / sq, rm = sp % sq;
      if (name == "arith.floordivsi" && rm != 0 && ((rm < 0) != (sq < 0)))
        --quo;
      if (name == "arith.ceildivsi" && rm != 0 && ((rm < 0) == (sq < 0)))
        ++quo;
      return ok(v, uint64_t(rem ? rm : quo));
    });
  } else if (name == "arith.shli" || name == "arith.shrsi" ||
             name == "arith.shrui") {
    e = each([&](int64_t i, uint64_t p, uint64_t q, uint64_t &v) -> Error {
      if (q >= bits)
        return ub(&op, "shift-too-large",
                  "shift by " + llvm::Twine(q) + " of a " + llvm::Twine(bits) +
                      "-bit integer",
                  &a, i);
      if (name == "arith.shli")
        return ok(v, p << q);
      if (name == "arith.shrui")
        return ok(v, p >> q);
      return ok(v, uint64_t(sext(p, bits) >> q));
    });
  } else if (name == "arith.maxsi" || name == "arith.minsi") {
    bool mx = name == "arith.maxsi";
    for (int64_t i = 0; i < n; ++i) {
      int64_t p = sext(x[i], bits), q = sext(y[i], bits);
      out[i] = maskBits(uint64_t(mx ? std::max(p, q) : std::min(p, q)), bits);
    }
  } else if (name == "arith.maxui" || name == "arith.minui") {
    bool mx = name == "arith.maxui";
    for (int64_t i = 0; i < n; ++i)
      out[i] = mx ? std::max(x[i], y[i]) : std::min(x[i], y[i]);
  } else if (name == "arith.mulhiui" || name == "arith.mulhisi") {
    for (int64_t i = 0; i < n; ++i) {
      __int128 p = name == "arith.mulhisi" ? __int128(sext(x[i], bits))
                                           : __int128(x[i]);
      __int128 q = name == "arith.mulhisi" ? __int128(sext(y[i], bits))
                                           : __int128(y[i]);
      out[i] = maskBits(uint64_t((p * q) >> bits), bits);
    }
  } else {
    return unsupported(&op);
  }
  if (e)
    return e;
  set(op.getResult(0), std::move(r));
  return Error::success();
}

Error Program::execCast(Operation &op, llvm::StringRef name) {
  if (name == "arith.bitcast")
    return execBitcast(op);
  const Tensor &a = get(op.getOperand(0));
  Expected<Tensor> r = freshLike(op.getResult(0), a);
  if (!r)
    return r.takeError();
  int64_t n = a.numel();
  unsigned from = a.type.bits, to = r->type.bits;
  if (name == "arith.extsi")
    for (int64_t k = 0; k < n; ++k)
      r->i[k] = maskBits(uint64_t(sext(a.i[k], from)), to);
  else if (name == "arith.extui" || name == "arith.trunci" ||
           name == "arith.index_castui")
    for (int64_t k = 0; k < n; ++k)
      r->i[k] = maskBits(a.i[k], to);
  else if (name == "arith.index_cast")
    for (int64_t k = 0; k < n; ++k)
      r->i[k] = maskBits(uint64_t(sext(a.i[k], from)), to);
  else if (name == "arith.sitofp" || name == "arith.uitofp")
    for (int64_t k = 0; k < n; ++k) {
      // The integer is exact in a long double (64-bit mantissa); round once.
      long double v = name == "arith.sitofp" ? (long double)sext(a.i[k], from)
                                             : (long double)a.i[k];
      r->f[k] = roundIntTo(r->type, v);
    }
  else if (name == "arith.fptosi" || name == "arith.fptoui") {
    bool isSigned = name == "arith.fptosi";
    for (int64_t k = 0; k < n; ++k) {
      double v = std::trunc(a.f[k]);
      long double lo = isSigned ? -std::ldexp(1.0L, to - 1) : 0.0L;
      long double hi = isSigned ? std::ldexp(1.0L, to - 1) : std::ldexp(1.0L, to);
      if (std::isnan(v) || (long double)v < lo || (long double)v >= hi)
        return ub(&op, "float-to-int-overflow",
                  "the value does not fit the integer type", &a, k);
      r->i[k] = maskBits(isSigned ? uint64_t(int64_t(v)) : uint64_t(v), to);
    }
  } else if (name == "arith.extf" || name == "arith.truncf")
    for (int64_t k = 0; k < n; ++k)
      r->f[k] = roundTo(r->type, a.f[k]);
  else
    return unsupported(&op);
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

Error Program::execMath(Operation &op, llvm::StringRef name) {
  const Tensor &a = get(op.getOperand(0));
  Tensor r = a;
  int64_t n = a.numel();
  if (a.type.isInt()) {
    unsigned bits = a.type.bits;
    for (int64_t k = 0; k < n; ++k) {
      uint64_t v = maskBits(a.i[k], bits);
      if (name == "math.absi")
        r.i[k] = maskBits(uint64_t(std::abs(sext(v, bits))), bits);
      else if (name == "math.ctpop")
        r.i[k] = llvm::popcount(v);
      else if (name == "math.ctlz")
        r.i[k] = v ? llvm::countl_zero(v) - (64 - bits) : bits;
      else if (name == "math.cttz")
        r.i[k] = v ? llvm::countr_zero(v) : bits;
      else
        return unsupported(&op);
    }
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  // math.X is the libm function X (absf = fabs, roundeven = rint).
  llvm::StringRef base = name.drop_front(strlen("math."));
  if (base == "absf")
    base = "fabs";
  else if (base == "roundeven")
    base = "rint";
  UnaryFn fn = unaryMathFunction(base);
  UnaryFnF32 fn32 = a.type.bits == 32 ? unaryMathFunctionF32(base) : nullptr;
  if (fn32) {
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = double(fn32(float(a.f[k])));
  } else if (fn) {
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = roundTo(a.type, fn(a.f[k]));
  } else if (name == "math.fma") {
    const Tensor &b = get(op.getOperand(1)), &c = get(op.getOperand(2));
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = roundTo(a.type, std::fma(a.f[k], b.f[k], c.f[k]));
  } else if (name == "math.powf" || name == "math.atan2") {
    const Tensor &b = get(op.getOperand(1));
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = roundTo(a.type, name == "math.powf" ? std::pow(a.f[k], b.f[k])
                                                   : std::atan2(a.f[k], b.f[k]));
  } else if (name == "math.copysign") {
    const Tensor &b = get(op.getOperand(1));
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = std::copysign(a.f[k], b.f[k]);
  } else {
    return unsupported(&op);
  }
  set(op.getResult(0), std::move(r));
  return Error::success();
}

// arith.bitcast / tt.bitcast: the same bits as another element type of one
// width (floats, integers, pointers).
Error Program::execBitcast(Operation &op) {
  const Tensor &a = get(op.getOperand(0));
  Expected<Tensor> r = freshLike(op.getResult(0), a);
  if (!r)
    return r.takeError();
  for (int64_t k = 0; k < a.numel(); ++k) {
    uint64_t bits =
        a.type.isFloat() ? bitsFromFloat(a.f[k], kindOfFloat(a.type)) : a.i[k];
    if (r->type.isFloat())
      r->f[k] = floatFromBits(bits, kindOfFloat(r->type));
    else
      r->i[k] = r->type.kind == ElemType::Ptr ? bits : maskBits(bits, r->type.bits);
  }
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

// libdevice functions by symbol (float and double variants): the value of the
// exact function, rounded to the result type.
Error Program::execExtern(Operation &op) {
  llvm::StringRef sym = op.getAttrOfType<StringAttr>("symbol").getValue();
  llvm::StringRef base = sym;
  base.consume_front("__nv_");
  if (base.size() > 1 && base.ends_with("f") && !base.ends_with("erf") &&
      base != "modf")
    base = base.drop_back(); // expf -> exp; erff -> erf is handled below
  if (sym == "__nv_erff" || sym == "__nv_erf")
    base = "erf";
  using F1 = double (*)(double);
  using F2 = double (*)(double, double);
  F1 f1 = unaryMathFunction(base);
  F2 f2 = llvm::StringSwitch<F2>(base)
              .Case("pow", [](double x, double y) { return std::pow(x, y); })
              .Case("atan2", [](double x, double y) { return std::atan2(x, y); })
              .Case("fmod", [](double x, double y) { return std::fmod(x, y); })
              .Case("hypot", [](double x, double y) { return std::hypot(x, y); })
              .Case("fmax", [](double x, double y) { return std::fmax(x, y); })
              .Case("fmin", [](double x, double y) { return std::fmin(x, y); })
              .Case("copysign",
                    [](double x, double y) { return std::copysign(x, y); })
              .Default(nullptr);
  const Tensor &a = get(op.getOperand(0));
  Expected<Tensor> r = freshLike(op.getResult(0), a);
  if (!r)
    return r.takeError();
  if (!r->type.isFloat() || (f1 && op.getNumOperands() != 1) ||
      (f2 && op.getNumOperands() != 2) || (!f1 && !f2))
    return unsupported(&op, "no reference for libdevice function '" + sym + "'");
  for (int64_t k = 0; k < a.numel(); ++k)
    r->f[k] = roundTo(r->type, f1 ? f1(a.f[k]) : f2(a.f[k], get(op.getOperand(1)).f[k]));
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

// Inline PTX over a small instruction subset (InlineAsm.h), one element at a
// time: inputs and outputs are the elements' raw bits.
Error Program::execInlineAsm(Operation &op) {
  auto packed = op.getAttrOfType<IntegerAttr>("packed_element");
  if (packed && packed.getInt() != 1)
    return unsupported(&op, "packed_element > 1");
  llvm::StringRef constraints =
      op.getAttrOfType<StringAttr>("constraints").getValue();
  llvm::SmallVector<llvm::StringRef, 8> cs;
  constraints.split(cs, ',');
  unsigned outputs = 0;
  for (llvm::StringRef c : cs)
    outputs += c.trim().starts_with("=");
  if (outputs != op.getNumResults() ||
      cs.size() != op.getNumResults() + op.getNumOperands())
    return unsupported(&op, "constraints '" + constraints +
                                "' do not match the operands");
  Expected<InlineAsmProgram> prog = InlineAsmProgram::parse(
      op.getAttrOfType<StringAttr>("asm_string").getValue(), cs.size());
  if (!prog)
    return unsupported(&op, llvm::toString(prog.takeError()));
  std::vector<Tensor> results;
  for (Value v : op.getResults()) {
    Expected<Tensor> r = fresh(v);
    if (!r)
      return r.takeError();
    results.push_back(std::move(*r));
  }
  int64_t n = results.empty() ? 0 : results[0].numel();
  std::vector<uint64_t> regs(cs.size());
  auto bitsOf = [](const Tensor &t, int64_t k) {
    return t.type.isFloat() ? bitsFromFloat(t.f[k], kindOfFloat(t.type)) : t.i[k];
  };
  for (int64_t k = 0; k < n; ++k) {
    std::fill(regs.begin(), regs.end(), 0);
    for (unsigned i = 0; i < op.getNumOperands(); ++i) {
      const Tensor &in = get(op.getOperand(i));
      regs[outputs + i] = bitsOf(in, in.shape.empty() ? 0 : k);
    }
    if (Error e = prog->run(regs))
      return unsupported(&op, llvm::toString(std::move(e)));
    for (unsigned o = 0; o < outputs; ++o) {
      Tensor &r = results[o];
      if (r.type.isFloat())
        r.f[k] = floatFromBits(regs[o], kindOfFloat(r.type));
      else
        r.i[k] = maskBits(regs[o], r.type.bits);
    }
  }
  for (auto [v, t] : llvm::zip(op.getResults(), results))
    set(v, std::move(t));
  return Error::success();
}

} // namespace tgpu::cpu::detail
