// Element-wise ops of the program generator: integer arithmetic (with
// guarded division and shifts), float arithmetic, math functions on tame
// domains, compares and selects, and casts between every pair of element
// types. Each tracks its result's range, or its bound and error against the
// GPU, from its operands'.
#include "fuzz/generator/ProgramGenState.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

namespace tgpu::gen::detail {

Val ProgramGen::binary(const char *op, const Val &a, const Val &b,
                       const VType &rt) {
  return emitValue(std::string(op) + " " + a.name + ", " + b.name + " : " +
                       typeStr(a.type),
                   rt);
}

Val ProgramGen::unary(const char *op, const Val &a) {
  return emitValue(std::string(op) + " " + a.name + " : " + typeStr(a.type),
                   a.type);
}

void ProgramGen::genIntArith() {
  static const Elem elems[] = {Elem::I32, Elem::I32, Elem::I32,
                               Elem::I64, Elem::I16, Elem::I8};
  Elem e = elems[src.below(6)];
  Val *pa = pick([&](const Val &v) { return v.type.elem == e; });
  VType t = pa ? pa->type : VType{e, pickShape()};
  Val a = pa ? *pa : materialize(t);
  Val b = materialize(t);
  unsigned bits = bitWidth(e);
  Val r;
  switch (src.below(12)) {
  case 0:
    r = binary("arith.addi", a, b, t);
    setRange(r, __int128(a.lo) + b.lo, __int128(a.hi) + b.hi);
    break;
  case 1:
    r = binary("arith.subi", a, b, t);
    setRange(r, __int128(a.lo) - b.hi, __int128(a.hi) - b.lo);
    break;
  case 2: {
    r = binary("arith.muli", a, b, t);
    __int128 c[] = {__int128(a.lo) * b.lo, __int128(a.lo) * b.hi,
                    __int128(a.hi) * b.lo, __int128(a.hi) * b.hi};
    setRange(r, *std::min_element(c, c + 4), *std::max_element(c, c + 4));
    break;
  }
  case 3:
  case 4: {
    static const char *ops[] = {"arith.andi", "arith.ori", "arith.xori"};
    r = binary(ops[src.below(3)], a, b, t);
    setRange(r, typeMin(e), typeMax(e));
    if (a.lo >= 0 && b.lo >= 0)
      r.lo = 0,
      r.hi = int64_t(llvm::NextPowerOf2(uint64_t(std::max(a.hi, b.hi)))) - 1;
    break;
  }
  case 5:
  case 6: { // guarded shift: amount & (bits - 1)
    Val m = constInt(bits - 1, t);
    Val amt = binary("arith.andi", b, m, t);
    static const char *ops[] = {"arith.shli", "arith.shrsi", "arith.shrui"};
    unsigned k = unsigned(src.below(3));
    r = binary(ops[k], a, amt, t);
    setRange(r, typeMin(e), typeMax(e));
    if (k == 1)
      r.lo = std::min<int64_t>(a.lo, 0), r.hi = std::max<int64_t>(a.hi, 0);
    break;
  }
  case 7:
  case 8: { // guarded division: (d & 127) | 1 is in [1, 127]
    Val m = constInt(127, t), one = constInt(1, t);
    Val d = binary("arith.andi", b, m, t);
    d = binary("arith.ori", d, one, t);
    static const char *ops[] = {"arith.divsi",      "arith.remsi",
                                "arith.divui",      "arith.remui",
                                "arith.floordivsi", "arith.ceildivsi"};
    unsigned k = unsigned(src.below(6));
    r = binary(ops[k], a, d, t);
    if (k == 0 || k >= 4)
      r.lo = std::min<int64_t>(a.lo, 0), r.hi = std::max<int64_t>(a.hi, 0);
    else if (k == 1)
      r.lo = -126, r.hi = 126;
    else if (k == 3)
      r.lo = 0, r.hi = 126;
    else
      setRange(r, typeMin(e), typeMax(e));
    if (k >= 4)
      r.lo = std::min<int64_t>(r.lo, -1), r.hi = std::max<int64_t>(r.hi, 1);
    break;
  }
  case 9: {
    static const char *ops[] = {"arith.maxsi", "arith.minsi", "arith.maxui",
                                "arith.minui"};
    unsigned k = unsigned(src.below(4));
    r = binary(ops[k], a, b, t);
    if (k < 2)
      r.lo = std::min(a.lo, b.lo), r.hi = std::max(a.hi, b.hi);
    else
      setRange(r, typeMin(e), typeMax(e));
    break;
  }
  case 10: {
    if (e == Elem::I64 || e == Elem::I32) {
      r = binary("tt.mulhiui", a, b, t);
      setRange(r, typeMin(e), typeMax(e));
      break;
    }
    r = unary("math.absi", a);
    setRange(r, 0, std::max<__int128>(__int128(a.hi), -__int128(a.lo)));
    break;
  }
  default: {
    static const char *ops[] = {"math.absi", "math.ctpop", "math.ctlz",
                                "math.cttz"};
    unsigned k = unsigned(src.below(4));
    if (pol.tritonSafe) // Triton 3.6 cannot lower the bit counts
      k = 0;
    r = unary(ops[k], a);
    if (k == 0)
      setRange(r, 0, std::max<__int128>(__int128(a.hi), -__int128(a.lo)));
    else
      r.lo = 0, r.hi = bits;
    break;
  }
  }
  add(r);
}

Val ProgramGen::clampFloat(const Val &v, double lo, double hi) {
  Val l = constFloat(lo, v.type), h = constFloat(hi, v.type);
  Val r = binary("arith.maximumf", v, l, v.type);
  r = binary("arith.minimumf", r, h, v.type);
  r.bound = std::min(v.bound, std::max(std::fabs(lo), std::fabs(hi)));
  r.err = v.err;
  return r;
}

// Keeps a float's bound at most boundLimit (2^14; 128 for f16) by an exact
// power-of-two scale.
Val ProgramGen::rescale(Val v) {
  double limit = boundLimit(v.type.elem);
  if (v.bound <= limit)
    return v;
  int k = int(std::ceil(std::log2(v.bound / limit)));
  Val s = constFloat(std::ldexp(1.0, -k), v.type);
  Val r = binary("arith.mulf", v, s, v.type);
  r.bound = std::ldexp(v.bound, -k);
  r.err = std::ldexp(v.err, -k);
  return r;
}

void ProgramGen::genFloatArith() {
  static const Elem elems[] = {Elem::F32, Elem::F32, Elem::F32,  Elem::F32,
                               Elem::F16, Elem::F16, Elem::BF16, Elem::F64};
  Elem e = elems[src.below(8)];
  Val *pa = pick([&](const Val &v) { return v.type.elem == e; });
  VType t = pa ? pa->type : VType{e, pickShape()};
  Val a = pa ? *pa : materialize(t);
  Val b = materialize(t);
  double eps = epsOf(e);
  Val r;
  switch (src.below(9)) {
  case 0:
  case 1: {
    bool sub = src.coin();
    r = binary(sub ? "arith.subf" : "arith.addf", a, b, t);
    r.bound = a.bound + b.bound;
    r.err = a.err + b.err + eps * r.bound;
    break;
  }
  case 2:
  case 3:
    r = binary("arith.mulf", a, b, t);
    r.bound = a.bound * b.bound;
    r.err = a.err * b.bound + b.err * a.bound + a.err * b.err + eps * r.bound;
    break;
  case 4: { // a / (|b| + 1): the divisor is at least 1
    if (pol.tritonSafe && bitWidth(e) == 16) {
      // Triton 3.6 cannot lower a 16-bit arith.divf ("Unsupported bitwidth").
      r = binary("arith.mulf", a, b, t);
      r.bound = a.bound * b.bound;
      r.err = a.err * b.bound + b.err * a.bound + a.err * b.err + eps * r.bound;
      break;
    }
    Val ab = unary("math.absf", b);
    Val one = constFloat(1.0, t);
    Val d = binary("arith.addf", ab, one, t);
    bool precise = e == Elem::F32 && src.chance(1, 3);
    r = binary(precise ? "tt.precise_divf" : "arith.divf", a, d, t);
    r.bound = a.bound;
    r.err = a.err + a.bound * b.err + 2 * eps * r.bound;
    break;
  }
  case 5: {
    Val c = materialize(t);
    r = emitValue("math.fma " + a.name + ", " + b.name + ", " + c.name + " : " +
                      typeStr(t),
                  t);
    r.bound = a.bound * b.bound + c.bound;
    r.err = a.err * b.bound + b.err * a.bound + a.err * b.err + c.err +
            eps * r.bound;
    break;
  }
  case 6: {
    static const char *ops[] = {"arith.maximumf", "arith.minimumf",
                                "arith.maxnumf", "arith.minnumf"};
    r = binary(ops[src.below(4)], a, b, t);
    r.bound = std::max(a.bound, b.bound);
    r.err = std::max(a.err, b.err);
    break;
  }
  case 7: {
    bool neg = src.coin() && !pol.tritonSafe; // Triton 3.6 has no arith.negf
    r = unary(neg ? "arith.negf" : "math.absf", a);
    r.bound = a.bound;
    r.err = a.err;
    break;
  }
  default: {
    double lo = -double(src.range(1, 8)) / 2, hi = double(src.range(1, 8)) / 2;
    if (src.coin()) {
      r = clampFloat(a, lo, hi);
    } else {
      Val l = constFloat(lo, t), h = constFloat(hi, t);
      r = emitValue("tt.clampf " + a.name + ", " + l.name + ", " + h.name +
                        ", propagateNan = none : " + typeStr(t),
                    t);
      r.bound = std::min(a.bound, std::max(-lo, hi));
      r.err = a.err;
    }
    break;
  }
  }
  add(rescale(r));
}

void ProgramGen::genMath() {
  Val *pa =
      pick([&](const Val &v) { return isFloat(v.type.elem) && !v.isConst; });
  if (!pa) {
    genLoad();
    return;
  }
  Val a = *pa;
  VType t = a.type;
  double eps = epsOf(t.elem);
  Val r;
  switch (src.below(8)) {
  case 0: { // exp on [-8, 8]
    Val x = a.bound > 8 ? clampFloat(a, -8, 8) : a;
    r = unary(src.coin() ? "math.exp" : "math.exp2", x);
    r.bound = std::exp(std::min(x.bound, 8.0)) + 1;
    r.err = r.bound * (x.err + 4 * eps);
    break;
  }
  case 1: { // log(|x| + 1)
    Val ab = unary("math.absf", a);
    Val one = constFloat(1.0, t);
    Val x = binary("arith.addf", ab, one, t);
    r = unary(src.coin() ? "math.log" : "math.log2", x);
    r.bound = std::log2(a.bound + 1) + 1;
    r.err = a.err + 4 * eps * r.bound + eps;
    break;
  }
  case 2: { // sqrt(|x|)
    Val ab = unary("math.absf", a);
    bool precise = t.elem == Elem::F32 && src.coin();
    r = unary(precise ? "tt.precise_sqrt" : "math.sqrt", ab);
    r.bound = std::sqrt(a.bound);
    r.err = std::sqrt(a.err) + 2 * eps * r.bound;
    break;
  }
  case 3:
  case 4: { // sin, cos on [-16, 16]
    Val x = a.bound > 16 ? clampFloat(a, -16, 16) : a;
    r = unary(src.coin() ? "math.sin" : "math.cos", x);
    r.bound = 1;
    r.err = x.err + 8 * eps;
    break;
  }
  case 5:
    // Triton 3.6 has no math.tanh: sin has the same range and error.
    r = unary(pol.tritonSafe ? "math.sin" : "math.tanh",
              a.bound > 16 ? clampFloat(a, -16, 16) : a);
    r.bound = 1;
    r.err = a.err + 8 * eps;
    break;
  case 6: { // floor/ceil/trunc jump at integers: not near an inexact value
    if (!isStable(a)) {
      r = unary("math.absf", a);
      r.bound = a.bound, r.err = a.err;
      break;
    }
    static const char *ops[] = {"math.floor", "math.ceil", "math.trunc",
                                "math.roundeven"};
    unsigned k = unsigned(src.below(4));
    if (pol.tritonSafe) // Triton 3.6 has floor and ceil only
      k &= 1;
    r = unary(ops[k], a);
    r.bound = a.bound + 1;
    r.err = 0;
    break;
  }
  default:
    r = unary("math.erf", a);
    r.bound = 1;
    r.err = a.err + 8 * eps;
    break;
  }
  add(rescale(r));
}

void ProgramGen::genCompare() {
  Val *pa = pick([&](const Val &v) { return isStable(v); });
  if (!pa) {
    genLoad();
    return;
  }
  Val a = *pa;
  VType t = a.type;
  VType bt{Elem::I1, t.shape};
  if (t.elem == Elem::I1) {
    Val b = materialize(t);
    static const char *ops[] = {"arith.andi", "arith.ori", "arith.xori"};
    Val r = binary(ops[src.below(3)], a, b, t);
    r.lo = 0, r.hi = 1;
    add(r);
    return;
  }
  Val b = materialize(t);
  if (!isStable(b))
    b = constFloat(0.5, t);
  Val c;
  if (isFloat(t.elem)) {
    static const char *preds[] = {"olt", "ole", "ogt", "oge", "oeq",
                                  "one", "ult", "uge", "une", "ord"};
    c = emitValue(std::string("arith.cmpf ") + preds[src.below(10)] + ", " +
                      a.name + ", " + b.name + " : " + typeStr(t),
                  bt);
  } else {
    static const char *preds[] = {"eq",  "ne",  "slt", "sle", "sgt",
                                  "sge", "ult", "ule", "ugt", "uge"};
    c = emitValue(std::string("arith.cmpi ") + preds[src.below(10)] + ", " +
                      a.name + ", " + b.name + " : " + typeStr(t),
                  bt);
  }
  c.lo = 0, c.hi = 1;
  add(c);
  if (src.coin()) {
    // select between two values of any type of this shape
    Val *x = pick([&](const Val &v) {
      return v.type.shape == t.shape && v.type.elem != Elem::I1;
    });
    VType st = x ? x->type : t;
    Val xv = x ? *x : a;
    Val y = materialize(st);
    Val s = emitValue("arith.select " + c.name + ", " + xv.name + ", " +
                          y.name + " : " + typeStr(bt) + ", " + typeStr(st),
                      st);
    s.lo = std::min(xv.lo, y.lo), s.hi = std::max(xv.hi, y.hi);
    s.bound = std::max(xv.bound, y.bound), s.err = std::max(xv.err, y.err);
    add(s);
  }
}

Val ProgramGen::castTo(const Val &v, Elem to) {
  Elem from = v.type.elem;
  VType rt = v.type;
  rt.elem = to;
  auto cast = [&](const char *op, const Val &x) {
    return emitValue(std::string(op) + " " + x.name + " : " + typeStr(x.type) +
                         " to " + typeStr(rt),
                     rt);
  };
  Val r;
  if (from == to)
    return v;
  if (!isFloat(from) && !isFloat(to)) {
    if (bitWidth(to) > bitWidth(from)) {
      bool sign = from != Elem::I1 && src.coin();
      r = cast(sign ? "arith.extsi" : "arith.extui", v);
      if (sign)
        r.lo = v.lo, r.hi = v.hi;
      else if (v.lo >= 0)
        r.lo = v.lo, r.hi = v.hi;
      else
        r.lo = 0, r.hi = bitWidth(from) >= 64
                             ? INT64_MAX
                             : (int64_t(1) << bitWidth(from)) - 1;
      if (r.hi > typeMax(to))
        r.lo = typeMin(to), r.hi = typeMax(to);
    } else {
      r = cast("arith.trunci", v);
      if (v.lo >= typeMin(to) && v.hi <= typeMax(to))
        r.lo = v.lo, r.hi = v.hi;
      else
        r.lo = typeMin(to), r.hi = typeMax(to);
    }
    return r;
  }
  if (!isFloat(from) && isFloat(to)) {
    bool unsignedCast = v.lo >= 0 && src.coin();
    r = cast(unsignedCast ? "arith.uitofp" : "arith.sitofp", v);
    double m = std::max(std::fabs(double(v.lo)), std::fabs(double(v.hi)));
    if (from == Elem::I1)
      m = 1;
    if (to == Elem::F16 && m > 60000) {
      // Keep f16 finite: go through f32 and rescale first.
      rt.elem = Elem::F32;
      Val f = cast(unsignedCast ? "arith.uitofp" : "arith.sitofp", v);
      f.bound = m;
      f.err = epsOf(Elem::F32) * m;
      f = rescale(f);
      return castTo(f, Elem::F16);
    }
    r.bound = m;
    r.err = epsOf(to) * m;
    return rescale(r);
  }
  if (isFloat(from) && !isFloat(to)) {
    // Clamp into the integer's range so the conversion is defined.
    double lim = to == Elem::I1 ? 1 : std::min(1024.0, double(typeMax(to)));
    Val x = v;
    if (v.bound > lim || to == Elem::I1)
      x = clampFloat(v, to == Elem::I1 ? 0 : -lim, lim);
    bool unsignedCast = to != Elem::I1 && src.chance(1, 4);
    if (unsignedCast && x.bound > 0)
      x = clampFloat(x, 0, lim);
    if (to == Elem::I1 && pol.tritonSafe) {
      // x is in [0, 1]: truncation gives 1 exactly at 1.0. Triton's fptoui
      // to i1 tests x against zero instead (docs/FINDINGS.md finding 1).
      Val one = constFloat(1.0, x.type);
      r = emitValue("arith.cmpf oge, " + x.name + ", " + one.name + " : " +
                        typeStr(x.type),
                    rt);
      r.lo = 0, r.hi = 1;
      return r;
    }
    r = cast(unsignedCast || to == Elem::I1 ? "arith.fptoui" : "arith.fptosi",
             x);
    r.lo = (unsignedCast || to == Elem::I1) ? 0 : -int64_t(lim);
    r.hi = int64_t(lim);
    return r;
  }
  // float <-> float
  if (bitWidth(to) == bitWidth(from)) // f16 <-> bf16: arith has no direct cast
    return castTo(castTo(v, Elem::F32), to);
  if (bitWidth(to) > bitWidth(from)) {
    r = cast("arith.extf", v);
    r.bound = v.bound, r.err = v.err;
  } else {
    Val x = v.bound > 60000 ? clampFloat(v, -60000, 60000) : v;
    r = cast("arith.truncf", x);
    r.bound = x.bound, r.err = x.err + epsOf(to) * x.bound;
  }
  return r;
}

void ProgramGen::genCast() {
  Val *pa = pick([&](const Val &v) { return isStable(v); });
  if (!pa) {
    genLoad();
    return;
  }
  Val a = *pa;
  if (src.chance(1, 6) &&
      (a.type.elem == Elem::F32 || a.type.elem == Elem::I32)) {
    // bitcast f32 -> i32 (never i32 -> f32: arbitrary bits are NaNs and
    // infinities)
    // Triton 3.6 cannot lower a tensor arith.bitcast.
    if (a.type.elem == Elem::F32 && isStable(a) &&
        !(pol.tritonSafe && !a.type.shape.empty())) {
      VType rt = a.type;
      rt.elem = Elem::I32;
      Val r = emitValue("arith.bitcast " + a.name + " : " + typeStr(a.type) +
                            " to " + typeStr(rt),
                        rt);
      r.lo = typeMin(Elem::I32), r.hi = typeMax(Elem::I32);
      add(r);
      return;
    }
  }
  static const Elem targets[] = {Elem::I1,  Elem::I8,   Elem::I16,
                                 Elem::I32, Elem::I64,  Elem::F16,
                                 Elem::F32, Elem::BF16, Elem::F64};
  Elem to = targets[src.below(9)];
  if (to == a.type.elem)
    to = isFloat(to) ? Elem::I32 : Elem::F32;
  add(castTo(a, to));
}

} // namespace tgpu::gen::detail
