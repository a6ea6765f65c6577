// Ops of the program generator that combine many elements: tt.reduce (with
// a random associative, commutative combine, or an argmax/argmin over
// (value, index) pairs), tt.scan, and tt.dot on FMA-sized shapes and on
// shapes wgmma takes.
#include "fuzz/generator/ProgramGenState.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cmath>

namespace tgpu::gen::detail {

// Combine kinds are associative and commutative, so any order the GPU uses
// gives the same integers (and floats within the reduction bound).
static const char *combineOp(Elem e, unsigned kind) {
  if (isFloat(e)) {
    static const char *ops[] = {"arith.addf", "arith.maxnumf", "arith.minnumf",
                                "arith.maximumf", "arith.minimumf"};
    return ops[kind % 5];
  }
  if (e == Elem::I1) {
    static const char *ops[] = {"arith.andi", "arith.ori", "arith.xori"};
    return ops[kind % 3];
  }
  static const char *ops[] = {"arith.addi",  "arith.maxsi", "arith.minsi",
                              "arith.maxui", "arith.minui", "arith.andi",
                              "arith.ori",   "arith.xori",  "arith.muli"};
  return ops[kind % 9];
}

void ProgramGen::genReduce() {
  Val *pa = pick([](const Val &v) { return !v.type.shape.empty(); });
  if (!pa) {
    genLoad();
    return;
  }
  Val a = *pa;
  const Shape &s = a.type.shape;
  unsigned rank = unsigned(s.size());
  unsigned axis = unsigned(src.below(rank));
  Shape rs = s;
  rs.erase(rs.begin() + axis);
  Elem e = a.type.elem;
  VType rt{e, rs};
  std::string ax = std::to_string(axis);
  bool argmax = src.chance(1, 4) && isStable(a) && e != Elem::I1;
  if (argmax) {
    // (value, index) with ties to the lower index: max or min by value.
    Val idx = linearIndex(s, src.coin());
    VType it{Elem::I32, rs};
    std::string r0 = fresh(), r1 = fresh();
    std::string va = fresh("a"), ia = fresh("a"), vb = fresh("b"),
                ib = fresh("b");
    std::string et = elemName(e);
    line(r0 + ", " + r1 + " = \"tt.reduce\"(" + a.name + ", " + idx.name +
         ") <{axis = " + ax + " : i32}> ({");
    ++indent;
    body += std::string(2 * (indent - 1), ' ') + "^bb0(" + va + ": " + et +
            ", " + ia + ": i32, " + vb + ": " + et + ", " + ib + ": i32):\n";
    bool isMax = src.coin();
    std::string gt = fresh(), eq = fresh(), lt = fresh(), tie = fresh(),
                take = fresh(), v = fresh(), i = fresh();
    if (isFloat(e)) {
      line(gt + " = arith.cmpf " + (isMax ? "ogt" : "olt") + ", " + va + ", " +
           vb + " : " + et);
      line(eq + " = arith.cmpf oeq, " + va + ", " + vb + " : " + et);
    } else {
      line(gt + " = arith.cmpi " + (isMax ? "sgt" : "slt") + ", " + va + ", " +
           vb + " : " + et);
      line(eq + " = arith.cmpi eq, " + va + ", " + vb + " : " + et);
    }
    line(lt + " = arith.cmpi slt, " + ia + ", " + ib + " : i32");
    line(tie + " = arith.andi " + eq + ", " + lt + " : i1");
    line(take + " = arith.ori " + gt + ", " + tie + " : i1");
    line(v + " = arith.select " + take + ", " + va + ", " + vb + " : " + et);
    line(i + " = arith.select " + take + ", " + ia + ", " + ib + " : i32");
    line("tt.reduce.return " + v + ", " + i + " : " + et + ", i32");
    --indent;
    line("}) : (" + typeStr(a.type) + ", " + typeStr(VType{Elem::I32, s}) +
         ") -> (" + typeStr(rt) + ", " + typeStr(it) + ")");
    Val rv;
    rv.name = r0, rv.type = rt, rv.lo = a.lo, rv.hi = a.hi, rv.bound = a.bound,
    rv.err = a.err;
    Val ri;
    ri.name = r1, ri.type = it, ri.lo = 0, ri.hi = numel(s) - 1;
    add(rv);
    add(ri);
    return;
  }
  add(rescale(combineAlong(a, axis, /*scan=*/false)));
}

// One associative, commutative combine over `axis`: a tt.reduce (the axis
// removed) or a tt.scan (same shape), with the bounds of its result.
Val ProgramGen::combineAlong(const Val &a, unsigned axis, bool scan) {
  Elem e = a.type.elem;
  int64_t n = a.type.shape[axis];
  VType rt = a.type;
  if (!scan)
    rt.shape.erase(rt.shape.begin() + axis);
  const char *op = combineOp(e, unsigned(src.below(16)));
  const char *name = scan ? "tt.scan" : "tt.reduce";
  std::string et = elemName(e);
  std::string r = fresh(), ca = fresh("a"), cb = fresh("b"), c = fresh();
  std::string attrs = "axis = " + std::to_string(axis) + " : i32";
  if (scan)
    attrs += std::string(", reverse = ") + (src.coin() ? "true" : "false");
  line(r + " = \"" + name + "\"(" + a.name + ") <{" + attrs + "}> ({");
  ++indent;
  body += std::string(2 * (indent - 1), ' ') + "^bb0(" + ca + ": " + et + ", " +
          cb + ": " + et + "):\n";
  line(c + " = " + op + " " + ca + ", " + cb + " : " + et);
  line(std::string(name) + ".return " + c + " : " + et);
  --indent;
  line("}) : (" + typeStr(a.type) + ") -> " + typeStr(rt));
  Val rv;
  rv.name = r;
  rv.type = rt;
  llvm::StringRef ops(op);
  if (ops == "arith.addf") {
    rv.bound = a.bound * double(n);
    rv.err = double(n) * a.err + double(n) * double(n) * epsOf(e) * a.bound;
  } else {
    rv.bound = a.bound, rv.err = a.err;
  }
  // Partial sums of 1..n elements (a reduce's is the n-element one).
  if (ops == "arith.addi")
    setRange(rv, std::min<__int128>(__int128(a.lo) * n, a.lo),
             std::max<__int128>(__int128(a.hi) * n, a.hi));
  else if (ops == "arith.maxsi" || ops == "arith.minsi")
    rv.lo = a.lo, rv.hi = a.hi;
  else if (e == Elem::I1)
    rv.lo = 0, rv.hi = 1;
  else
    setRange(rv, typeMin(e), typeMax(e));
  return rv;
}

void ProgramGen::genScan() {
  Val *pa = pick([](const Val &v) {
    return !v.type.shape.empty() && v.type.elem != Elem::I1;
  });
  if (!pa) {
    genLoad();
    return;
  }
  Val a = *pa;
  unsigned axis = unsigned(src.below(a.type.shape.size()));
  add(rescale(combineAlong(a, axis, /*scan=*/true)));
}

void ProgramGen::genDot() {
  // 16..32 per dim (Triton's minimum is 16), every operand within the
  // largest tensor.
  int64_t maxNumel = int64_t(1) << pol.maxLog2Numel;
  if (maxNumel < 256) {
    genFloatArith();
    return;
  }
  // Half the time, when the largest tensor allows it, a shape wgmma takes
  // (M a multiple of 64, N of 8, 32 bytes of K per step): the TTIR
  // pipeline at cuda:90 puts it on wgmma, the TTGIR variant on random
  // #ttg.nvidia_mma v3 layouts.
  if (maxNumel >= 1024 && src.coin()) {
    genWgmmaDot(maxNumel);
    return;
  }
  int64_t m = int64_t(16) << src.below(2), nn = int64_t(16) << src.below(2),
          k = int64_t(16) << src.below(2);
  while (m * k > maxNumel || k * nn > maxNumel || m * nn > maxNumel) {
    if (k > 16)
      k /= 2;
    else if (m > 16)
      m /= 2;
    else
      nn /= 2;
  }
  static const Elem ins[] = {Elem::F16, Elem::F16,  Elem::F32,
                             Elem::F32, Elem::BF16, Elem::F64};
  Elem in = ins[src.below(6)];
  Elem acc = in == Elem::F64 ? Elem::F64 : Elem::F32;
  emitDot(in, acc, m, nn, k, /*tf32=*/in != Elem::F32 && in != Elem::F64,
          /*cMax=*/64);
}

void ProgramGen::genWgmmaDot(int64_t maxNumel) {
  // f16 into f32 or f16, bf16 into f32, f32 as tf32 into f32.
  static const Elem ins[] = {Elem::F16, Elem::F16, Elem::BF16, Elem::F32};
  Elem in = ins[src.below(4)];
  Elem acc = in == Elem::F16 && src.chance(1, 3) ? Elem::F16 : Elem::F32;
  int64_t kStep = in == Elem::F32 ? 8 : 16;
  // N = 8 is valid IR and tgpu's, but Triton's front end makes no dot
  // narrower than 16 and its wgmma lowering miscompiles some at n = 8
  // (docs/FINDINGS.md finding 16): not in Triton-safe programs.
  int64_t minN = pol.tritonSafe ? 16 : 8;
  int64_t m = int64_t(64) << src.below(2), nn = minN << src.below(5),
          k = kStep << src.below(3);
  while (m * k > maxNumel || k * nn > maxNumel || m * nn > maxNumel) {
    if (k > kStep)
      k /= 2;
    else if (nn > minN)
      nn /= 2;
    else if (m > 64)
      m /= 2;
    else
      break;
  }
  if (m * k > maxNumel || k * nn > maxNumel || m * nn > maxNumel) {
    genFloatArith();
    return;
  }
  emitDot(in, acc, m, nn, k, /*tf32=*/true,
          /*cMax=*/acc == Elem::F16 ? 16 : 64);
}

// a [m, k] * b [k, n] + c of fresh operands: a and b clamped to [-4, 4]
// so the sum over k stays tame, c to [-cMax, cMax].
void ProgramGen::emitDot(Elem in, Elem acc, int64_t m, int64_t n, int64_t k,
                         bool tf32, double cMax) {
  VType at{in, {m, k}}, bt{in, {k, n}}, ct{acc, {m, n}};
  Val a = materialize(at), b = materialize(bt);
  if (a.bound > 4)
    a = clampFloat(a, -4, 4);
  if (b.bound > 4)
    b = clampFloat(b, -4, 4);
  Val c = materialize(ct);
  if (c.bound > cMax)
    c = clampFloat(c, -cMax, cMax);
  Val r =
      emitValue("tt.dot " + a.name + ", " + b.name + ", " + c.name +
                    ", inputPrecision = " + (tf32 ? "tf32" : "ieee") + " : " +
                    typeStr(at) + " * " + typeStr(bt) + " -> " + typeStr(ct),
                ct);
  double kd = double(k);
  r.bound = kd * a.bound * b.bound + c.bound;
  // tf32 keeps 10 fraction bits of each f32 operand: a product may be off
  // by 2^-10 of its size (16-bit operands are exact in tf32).
  double operandEps = tf32 && in == Elem::F32 ? std::ldexp(1.0, -10) : 0.0;
  r.err = kd * (a.err * b.bound + b.err * a.bound) + c.err +
          kd * a.bound * b.bound * operandEps + kd * epsOf(acc) * r.bound;
  add(rescale(r));
}

} // namespace tgpu::gen::detail
