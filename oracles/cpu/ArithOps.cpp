// arith: constants, select, integer and float arithmetic, comparisons,
// casts and bitcasts; and the tt ops of the same kind (tt.bitcast,
// tt.fp_to_fp, tt.mulhiui).
#include "oracles/cpu/Program.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;

namespace tgpu::cpu::detail {

namespace {

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

} // namespace

// tt.fp_to_fp to or from an 8-bit float, as Triton's NVIDIA lowering does it
// on Hopper (SEMANTICS.md §4): from one, exactly (every f8E4M3FN and f8E5M2
// value is an f16, a bf16 and an f32); to one from f16, bf16 or f32, with
// PTX's cvt.rn.satfinite, and with rounding = rtz only f32 -> f8E5M2
// (cvt.rz.f16.f32, then the f16's high byte). The conversions Triton's
// lowering refuses are refused.
Error Program::fp8Conversion(Operation &op, const ElemType &from,
                             const ElemType &to, bool rtz, Tensor &r) {
  const Tensor &a = get(op.getOperand(0));
  if (from.bits == 8 && to.bits == 8) {
    if (from.e4m3 != to.e4m3)
      return unsupported(&op, "no conversion between 8-bit float types (Triton "
                              "has none either)");
    r.f = a.f;
    return Error::success();
  }
  if (from.bits == 8) { // widening: exact, NaN and infinity included
    r.f = a.f;
    return Error::success();
  }
  if (from.bits == 64)
    return unsupported(&op, "f64 to an 8-bit float (PTX has no such cvt; "
                            "Triton's lowering refuses it)");
  if (rtz && !(from.bits == 32 && !to.e4m3))
    return unsupported(&op, "rounding = rtz to an 8-bit float is only "
                            "supported from f32 to f8E5M2, as in Triton's "
                            "lowering");
  const Fp8Format &f = fp8FormatOf(to.e4m3);
  for (int64_t k = 0, n = a.numel(); k < n; ++k)
    r.f[k] = floatFromFp8Bits(fp8BitsFromDouble(a.f[k], f, rtz), f);
  return Error::success();
}

Error Program::execConstant(Operation &op, const OpHandler &) {
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

Error Program::execSelect(Operation &op, const OpHandler &) {
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

Error Program::execNegF(Operation &op, const OpHandler &) {
  Tensor r = get(op.getOperand(0));
  for (double &x : r.f)
    x = -x;
  set(op.getResult(0), std::move(r));
  return Error::success();
}

Error Program::execCmpI(Operation &op, const OpHandler &) {
  const Tensor &a = get(op.getOperand(0)), &b = get(op.getOperand(1));
  Expected<Tensor> r = freshLike(op.getResult(0), a);
  if (!r)
    return r.takeError();
  auto pred = cast<arith::CmpIOp>(op).getPredicate();
  unsigned bits = a.type.bits;
  for (int64_t k = 0, n = a.numel(); k < n; ++k) {
    uint64_t x = a.i[k], y = b.i[k];
    int64_t sx = sext(x, bits), sy = sext(y, bits);
    bool v = false;
    switch (pred) {
    case arith::CmpIPredicate::eq:
      v = x == y;
      break;
    case arith::CmpIPredicate::ne:
      v = x != y;
      break;
    case arith::CmpIPredicate::slt:
      v = sx < sy;
      break;
    case arith::CmpIPredicate::sle:
      v = sx <= sy;
      break;
    case arith::CmpIPredicate::sgt:
      v = sx > sy;
      break;
    case arith::CmpIPredicate::sge:
      v = sx >= sy;
      break;
    case arith::CmpIPredicate::ult:
      v = x < y;
      break;
    case arith::CmpIPredicate::ule:
      v = x <= y;
      break;
    case arith::CmpIPredicate::ugt:
      v = x > y;
      break;
    case arith::CmpIPredicate::uge:
      v = x >= y;
      break;
    }
    r->i[k] = v;
  }
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

Error Program::execCmpF(Operation &op, const OpHandler &) {
  const Tensor &a = get(op.getOperand(0)), &b = get(op.getOperand(1));
  Expected<Tensor> r = freshLike(op.getResult(0), a);
  if (!r)
    return r.takeError();
  auto pred = cast<arith::CmpFOp>(op).getPredicate();
  for (int64_t k = 0, n = a.numel(); k < n; ++k) {
    double x = a.f[k], y = b.f[k];
    bool unord = std::isnan(x) || std::isnan(y);
    bool v = false;
    using P = arith::CmpFPredicate;
    switch (pred) {
    case P::AlwaysFalse:
      v = false;
      break;
    case P::OEQ:
      v = !unord && x == y;
      break;
    case P::OGT:
      v = !unord && x > y;
      break;
    case P::OGE:
      v = !unord && x >= y;
      break;
    case P::OLT:
      v = !unord && x < y;
      break;
    case P::OLE:
      v = !unord && x <= y;
      break;
    case P::ONE:
      v = !unord && x != y;
      break;
    case P::ORD:
      v = !unord;
      break;
    case P::UEQ:
      v = unord || x == y;
      break;
    case P::UGT:
      v = unord || x > y;
      break;
    case P::UGE:
      v = unord || x >= y;
      break;
    case P::ULT:
      v = unord || x < y;
      break;
    case P::ULE:
      v = unord || x <= y;
      break;
    case P::UNE:
      v = unord || x != y;
      break;
    case P::UNO:
      v = unord;
      break;
    case P::AlwaysTrue:
      v = true;
      break;
    }
    r->i[k] = v;
  }
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

// addf subf mulf divf remf maxnumf minnumf maximumf minimumf.
Error Program::execFloatBinary(Operation &op, const OpHandler &h) {
  const Tensor &a = get(op.getOperand(0)), &b = get(op.getOperand(1));
  int64_t n = a.numel();
  Tensor r = a;
  const ElemType &t = a.type;
  double *out = r.f.data();
  const double *x = a.f.data(), *y = b.f.data();
  // One loop per op: no dispatch per element.
  switch (h.kind) {
  case OpKind::AddF:
    for (int64_t i = 0; i < n; ++i)
      out[i] = roundTo(t, x[i] + y[i]);
    break;
  case OpKind::SubF:
    for (int64_t i = 0; i < n; ++i)
      out[i] = roundTo(t, x[i] - y[i]);
    break;
  case OpKind::MulF:
    for (int64_t i = 0; i < n; ++i)
      out[i] = roundTo(t, x[i] * y[i]);
    break;
  case OpKind::DivF:
    for (int64_t i = 0; i < n; ++i)
      out[i] = roundTo(t, x[i] / y[i]);
    break;
  case OpKind::RemF:
    for (int64_t i = 0; i < n; ++i)
      out[i] = roundTo(t, std::fmod(x[i], y[i]));
    break;
  case OpKind::MaxNumF:
    for (int64_t i = 0; i < n; ++i)
      out[i] = std::fmax(x[i], y[i]);
    break;
  case OpKind::MinNumF:
    for (int64_t i = 0; i < n; ++i)
      out[i] = std::fmin(x[i], y[i]);
    break;
  default: { // MaximumF, MinimumF
    bool max = h.kind == OpKind::MaximumF;
    for (int64_t i = 0; i < n; ++i) {
      double p = x[i], q = y[i];
      if (std::isnan(p) || std::isnan(q))
        out[i] = std::numeric_limits<double>::quiet_NaN();
      else if (p == q) // -0 < +0
        out[i] = max ? (std::signbit(p) ? q : p) : (std::signbit(p) ? p : q);
      else
        out[i] = max ? std::max(p, q) : std::min(p, q);
    }
    break;
  }
  }
  set(op.getResult(0), std::move(r));
  return Error::success();
}

// addi subi muli andi ori xori, the divisions and remainders, shifts,
// maxsi minsi maxui minui.
Error Program::execIntBinary(Operation &op, const OpHandler &h) {
  const Tensor &a = get(op.getOperand(0)), &b = get(op.getOperand(1));
  int64_t n = a.numel();
  Tensor r = a;
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
  switch (h.kind) {
  case OpKind::AddI:
    for (int64_t i = 0; i < n; ++i)
      out[i] = maskBits(x[i] + y[i], bits);
    break;
  case OpKind::SubI:
    for (int64_t i = 0; i < n; ++i)
      out[i] = maskBits(x[i] - y[i], bits);
    break;
  case OpKind::MulI:
    for (int64_t i = 0; i < n; ++i)
      out[i] = maskBits(x[i] * y[i], bits);
    break;
  case OpKind::AndI:
    for (int64_t i = 0; i < n; ++i)
      out[i] = x[i] & y[i];
    break;
  case OpKind::OrI:
    for (int64_t i = 0; i < n; ++i)
      out[i] = x[i] | y[i];
    break;
  case OpKind::XOrI:
    for (int64_t i = 0; i < n; ++i)
      out[i] = x[i] ^ y[i];
    break;
  case OpKind::DivSI:
  case OpKind::RemSI:
  case OpKind::DivUI:
  case OpKind::RemUI:
  case OpKind::FloorDivSI:
  case OpKind::CeilDivSI: {
    OpKind kind = h.kind;
    bool isSigned = kind != OpKind::DivUI && kind != OpKind::RemUI;
    bool rem = kind == OpKind::RemSI || kind == OpKind::RemUI;
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
      if (kind == OpKind::FloorDivSI && rm != 0 && ((rm < 0) != (sq < 0)))
        --quo;
      if (kind == OpKind::CeilDivSI && rm != 0 && ((rm < 0) == (sq < 0)))
        ++quo;
      return ok(v, uint64_t(rem ? rm : quo));
    });
    break;
  }
  case OpKind::ShLI:
  case OpKind::ShRSI:
  case OpKind::ShRUI: {
    OpKind kind = h.kind;
    e = each([&](int64_t i, uint64_t p, uint64_t q, uint64_t &v) -> Error {
      if (q >= bits)
        return ub(&op, "shift-too-large",
                  "shift by " + llvm::Twine(q) + " of a " + llvm::Twine(bits) +
                      "-bit integer",
                  &a, i);
      if (kind == OpKind::ShLI)
        return ok(v, p << q);
      if (kind == OpKind::ShRUI)
        return ok(v, p >> q);
      return ok(v, uint64_t(sext(p, bits) >> q));
    });
    break;
  }
  case OpKind::MaxSI:
  case OpKind::MinSI: {
    bool mx = h.kind == OpKind::MaxSI;
    for (int64_t i = 0; i < n; ++i) {
      int64_t p = sext(x[i], bits), q = sext(y[i], bits);
      out[i] = maskBits(uint64_t(mx ? std::max(p, q) : std::min(p, q)), bits);
    }
    break;
  }
  default: { // MaxUI, MinUI
    bool mx = h.kind == OpKind::MaxUI;
    for (int64_t i = 0; i < n; ++i)
      out[i] = mx ? std::max(x[i], y[i]) : std::min(x[i], y[i]);
    break;
  }
  }
  if (e)
    return e;
  set(op.getResult(0), std::move(r));
  return Error::success();
}

// tt.mulhiui: the high half of the full product.
Error Program::execMulhiUI(Operation &op, const OpHandler &) {
  Tensor r = get(op.getOperand(0));
  const Tensor &b = get(op.getOperand(1));
  for (int64_t k = 0; k < r.numel(); ++k)
    r.i[k] =
        maskBits(uint64_t((unsigned __int128)r.i[k] * b.i[k] >> r.type.bits),
                 r.type.bits);
  set(op.getResult(0), std::move(r));
  return Error::success();
}

// The value-converting casts: integer widths, int <-> float, float widths.
Error Program::execCast(Operation &op, const OpHandler &h) {
  const Tensor &a = get(op.getOperand(0));
  Expected<Tensor> r = freshLike(op.getResult(0), a);
  if (!r)
    return r.takeError();
  int64_t n = a.numel();
  unsigned from = a.type.bits, to = r->type.bits;
  switch (h.kind) {
  case OpKind::ExtSI:
  case OpKind::IndexCast:
    for (int64_t k = 0; k < n; ++k)
      r->i[k] = maskBits(uint64_t(sext(a.i[k], from)), to);
    break;
  case OpKind::ExtUI:
  case OpKind::TruncI:
  case OpKind::IndexCastUI:
    for (int64_t k = 0; k < n; ++k)
      r->i[k] = maskBits(a.i[k], to);
    break;
  case OpKind::SIToFP:
  case OpKind::UIToFP: {
    bool isSigned = h.kind == OpKind::SIToFP;
    for (int64_t k = 0; k < n; ++k) {
      // The integer is exact in a long double (64-bit mantissa); round once.
      long double v =
          isSigned ? (long double)sext(a.i[k], from) : (long double)a.i[k];
      r->f[k] = roundIntTo(r->type, v);
    }
    break;
  }
  case OpKind::FPToSI:
  case OpKind::FPToUI: {
    bool isSigned = h.kind == OpKind::FPToSI;
    for (int64_t k = 0; k < n; ++k) {
      double v = std::trunc(a.f[k]);
      long double lo = isSigned ? -std::ldexp(1.0L, to - 1) : 0.0L;
      long double hi =
          isSigned ? std::ldexp(1.0L, to - 1) : std::ldexp(1.0L, to);
      if (std::isnan(v) || (long double)v < lo || (long double)v >= hi)
        return ub(&op, "float-to-int-overflow",
                  "the value does not fit the integer type", &a, k);
      r->i[k] = maskBits(isSigned ? uint64_t(int64_t(v)) : uint64_t(v), to);
    }
    break;
  }
  default: // ExtF, TruncF
    for (int64_t k = 0; k < n; ++k)
      r->f[k] = roundTo(r->type, a.f[k]);
    break;
  }
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

// arith.bitcast / tt.bitcast: the same bits as another element type of one
// width (floats, integers, pointers).
Error Program::execBitcast(Operation &op, const OpHandler &) {
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
      r->i[k] =
          r->type.kind == ElemType::Ptr ? bits : maskBits(bits, r->type.bits);
  }
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

// tt.fp_to_fp: a float conversion with a rounding mode (nearest even, or
// toward zero).
Error Program::execFpToFp(Operation &op, const OpHandler &) {
  const Tensor &a = get(op.getOperand(0));
  Expected<Tensor> r = freshLike(op.getResult(0), a);
  if (!r)
    return r.takeError();
  auto fp = cast<triton::FpToFpOp>(op);
  bool rtz = fp.getRounding() && *fp.getRounding() == triton::RoundingMode::RTZ;
  if (a.type.bits == 8 || r->type.bits == 8) {
    if (Error e = fp8Conversion(op, a.type, r->type, rtz, *r))
      return e;
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  ScalarKind toK = kindOfFloat(r->type);
  for (int64_t k = 0; k < a.numel(); ++k) {
    double v = roundTo(r->type, a.f[k]);
    if (rtz && std::isfinite(a.f[k]) && std::fabs(v) > std::fabs(a.f[k])) {
      // Rounded away from zero: take the neighbour one ulp toward zero
      // (sign-magnitude bits: one less in magnitude).
      v = floatFromBits(bitsFromFloat(v, toK) - 1, toK);
    }
    r->f[k] = v;
  }
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

} // namespace tgpu::cpu::detail
