// Float and integer functions: math.*, tt.precise_sqrt / precise_divf,
// tt.clampf, libdevice calls (tt.extern_elementwise) and inline PTX
// (tt.elementwise_inline_asm).
#include "oracles/cpu/InlineAsm.h"
#include "oracles/cpu/Program.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"

#include <cmath>
#include <cstdlib>

using namespace mlir;

namespace tgpu::cpu::detail {

namespace {

// The one-argument libm functions both precisions have: for T = float these
// are the C library's float functions (erff, expf, ...), what MLIR's math
// folders compute for f32 constants, so a folded value is the reference's
// to the bit (std::erf rounded to float differs from erff by an ulp at some
// inputs).
template <typename T> using UnaryFnOf = T (*)(T);
template <typename T> UnaryFnOf<T> libmFunction(LibmFn fn) {
  switch (fn) {
  case LibmFn::Exp:
    return [](T x) { return std::exp(x); };
  case LibmFn::Exp2:
    return [](T x) { return std::exp2(x); };
  case LibmFn::Expm1:
    return [](T x) { return std::expm1(x); };
  case LibmFn::Log:
    return [](T x) { return std::log(x); };
  case LibmFn::Log2:
    return [](T x) { return std::log2(x); };
  case LibmFn::Log10:
    return [](T x) { return std::log10(x); };
  case LibmFn::Log1p:
    return [](T x) { return std::log1p(x); };
  case LibmFn::Sqrt:
    return [](T x) { return std::sqrt(x); };
  case LibmFn::Cbrt:
    return [](T x) { return std::cbrt(x); };
  case LibmFn::Sin:
    return [](T x) { return std::sin(x); };
  case LibmFn::Cos:
    return [](T x) { return std::cos(x); };
  case LibmFn::Tan:
    return [](T x) { return std::tan(x); };
  case LibmFn::Asin:
    return [](T x) { return std::asin(x); };
  case LibmFn::Acos:
    return [](T x) { return std::acos(x); };
  case LibmFn::Atan:
    return [](T x) { return std::atan(x); };
  case LibmFn::Sinh:
    return [](T x) { return std::sinh(x); };
  case LibmFn::Cosh:
    return [](T x) { return std::cosh(x); };
  case LibmFn::Tanh:
    return [](T x) { return std::tanh(x); };
  case LibmFn::Erf:
    return [](T x) { return std::erf(x); };
  case LibmFn::Erfc:
    return [](T x) { return std::erfc(x); };
  default:
    return nullptr;
  }
}

// The exact one-argument functions (shared by math.* and the libdevice
// calls).
using UnaryFn = UnaryFnOf<double>;
UnaryFn unaryMathFunction(LibmFn fn) {
  if (UnaryFn f = libmFunction<double>(fn))
    return f;
  switch (fn) {
  case LibmFn::Exp10:
    return [](double x) { return std::pow(10.0, x); };
  case LibmFn::Rsqrt:
    return [](double x) { return 1.0 / std::sqrt(x); };
  case LibmFn::Fabs:
    return [](double x) { return std::fabs(x); };
  case LibmFn::Floor:
    return [](double x) { return std::floor(x); };
  case LibmFn::Ceil:
    return [](double x) { return std::ceil(x); };
  case LibmFn::Trunc:
    return [](double x) { return std::trunc(x); };
  case LibmFn::Round:
    return [](double x) { return std::round(x); };
  case LibmFn::Rint:
    return [](double x) { return std::nearbyint(x); };
  default:
    return nullptr;
  }
}

// f32 math: the float functions above. rsqrt and exp10 have no float libm
// function MLIR folds with, and the rounding functions are exact either
// way: nullptr, the double path.
using UnaryFnF32 = UnaryFnOf<float>;
UnaryFnF32 unaryMathFunctionF32(LibmFn fn) { return libmFunction<float>(fn); }

// A libdevice function's libm name (expf and exp are both "exp").
LibmFn libmByName(llvm::StringRef base) {
  return llvm::StringSwitch<LibmFn>(base)
      .Case("exp", LibmFn::Exp)
      .Case("exp2", LibmFn::Exp2)
      .Case("expm1", LibmFn::Expm1)
      .Case("log", LibmFn::Log)
      .Case("log2", LibmFn::Log2)
      .Case("log10", LibmFn::Log10)
      .Case("log1p", LibmFn::Log1p)
      .Case("sqrt", LibmFn::Sqrt)
      .Case("cbrt", LibmFn::Cbrt)
      .Case("sin", LibmFn::Sin)
      .Case("cos", LibmFn::Cos)
      .Case("tan", LibmFn::Tan)
      .Case("asin", LibmFn::Asin)
      .Case("acos", LibmFn::Acos)
      .Case("atan", LibmFn::Atan)
      .Case("sinh", LibmFn::Sinh)
      .Case("cosh", LibmFn::Cosh)
      .Case("tanh", LibmFn::Tanh)
      .Case("erf", LibmFn::Erf)
      .Case("erfc", LibmFn::Erfc)
      .Case("exp10", LibmFn::Exp10)
      .Case("rsqrt", LibmFn::Rsqrt)
      .Case("fabs", LibmFn::Fabs)
      .Case("floor", LibmFn::Floor)
      .Case("ceil", LibmFn::Ceil)
      .Case("trunc", LibmFn::Trunc)
      .Case("round", LibmFn::Round)
      .Case("rint", LibmFn::Rint)
      .Default(LibmFn::None);
}

} // namespace

// math.absi, ctpop, ctlz, cttz.
Error Program::execMathInt(Operation &op, const OpHandler &h) {
  const Tensor &a = get(op.getOperand(0));
  Tensor r = a;
  int64_t n = a.numel();
  unsigned bits = a.type.bits;
  for (int64_t k = 0; k < n; ++k) {
    uint64_t v = maskBits(a.i[k], bits);
    switch (h.kind) {
    case OpKind::AbsI:
      r.i[k] = maskBits(uint64_t(std::abs(sext(v, bits))), bits);
      break;
    case OpKind::CtPop:
      r.i[k] = llvm::popcount(v);
      break;
    case OpKind::CtLz:
      r.i[k] = v ? llvm::countl_zero(v) - (64 - bits) : bits;
      break;
    default: // CtTz
      r.i[k] = v ? llvm::countr_zero(v) : bits;
      break;
    }
  }
  set(op.getResult(0), std::move(r));
  return Error::success();
}

// The one-argument float functions of math.
Error Program::execMathUnary(Operation &op, const OpHandler &h) {
  const Tensor &a = get(op.getOperand(0));
  Tensor r = a;
  int64_t n = a.numel();
  UnaryFn fn = unaryMathFunction(h.libm);
  UnaryFnF32 fn32 = a.type.bits == 32 ? unaryMathFunctionF32(h.libm) : nullptr;
  if (fn32) {
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = double(fn32(float(a.f[k])));
  } else {
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = roundTo(a.type, fn(a.f[k]));
  }
  set(op.getResult(0), std::move(r));
  return Error::success();
}

// math.fma, powf, atan2, copysign.
Error Program::execMathFloat(Operation &op, const OpHandler &h) {
  const Tensor &a = get(op.getOperand(0)), &b = get(op.getOperand(1));
  Tensor r = a;
  int64_t n = a.numel();
  switch (h.kind) {
  case OpKind::Fma: {
    const Tensor &c = get(op.getOperand(2));
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = roundTo(a.type, std::fma(a.f[k], b.f[k], c.f[k]));
    break;
  }
  case OpKind::PowF:
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = roundTo(a.type, std::pow(a.f[k], b.f[k]));
    break;
  case OpKind::Atan2:
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = roundTo(a.type, std::atan2(a.f[k], b.f[k]));
    break;
  default: // CopySign
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = std::copysign(a.f[k], b.f[k]);
    break;
  }
  set(op.getResult(0), std::move(r));
  return Error::success();
}

// tt.precise_sqrt, tt.precise_divf: correctly rounded.
Error Program::execPrecise(Operation &op, const OpHandler &h) {
  Tensor r = get(op.getOperand(0));
  bool sqrt = h.kind == OpKind::PreciseSqrt;
  for (int64_t k = 0; k < r.numel(); ++k)
    r.f[k] = roundTo(r.type, sqrt ? std::sqrt(r.f[k])
                                  : r.f[k] / get(op.getOperand(1)).f[k]);
  set(op.getResult(0), std::move(r));
  return Error::success();
}

Error Program::execClampF(Operation &op, const OpHandler &) {
  Tensor r = get(op.getOperand(0));
  const Tensor &lo = get(op.getOperand(1)), &hi = get(op.getOperand(2));
  // propagateNan = all: a NaN input gives NaN; otherwise NaN is ignored
  // (maxNum/minNum).
  bool nanOut =
      cast<triton::ClampFOp>(op).getPropagateNan() == triton::PropagateNan::ALL;
  for (int64_t k = 0; k < r.numel(); ++k) {
    double x = r.f[k];
    r.f[k] = nanOut && std::isnan(x)
                 ? x
                 : std::fmin(std::fmax(x, lo.f[lo.shape.empty() ? 0 : k]),
                             hi.f[hi.shape.empty() ? 0 : k]);
  }
  set(op.getResult(0), std::move(r));
  return Error::success();
}

// libdevice functions by symbol (float and double variants): the value of the
// exact function, rounded to the result type.
Error Program::execExtern(Operation &op, const OpHandler &) {
  llvm::StringRef sym = op.getAttrOfType<StringAttr>("symbol").getValue();
  llvm::StringRef base = sym;
  base.consume_front("__nv_");
  if (base.size() > 1 && base.ends_with("f") && !base.ends_with("erf") &&
      base != "modf")
    base = base.drop_back(); // expf -> exp; erff -> erf is handled below
  if (sym == "__nv_erff" || sym == "__nv_erf")
    base = "erf";
  using F2 = double (*)(double, double);
  UnaryFn f1 = unaryMathFunction(libmByName(base));
  F2 f2 =
      llvm::StringSwitch<F2>(base)
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
    return unsupported(&op,
                       "no reference for libdevice function '" + sym + "'");
  for (int64_t k = 0; k < a.numel(); ++k)
    r->f[k] = roundTo(r->type,
                      f1 ? f1(a.f[k]) : f2(a.f[k], get(op.getOperand(1)).f[k]));
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

// Inline PTX over a small instruction subset (InlineAsm.h), one element at a
// time: inputs and outputs are the elements' raw bits.
Error Program::execInlineAsm(Operation &op, const OpHandler &) {
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
    return t.type.isFloat() ? bitsFromFloat(t.f[k], kindOfFloat(t.type))
                            : t.i[k];
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
