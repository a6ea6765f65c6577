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
  // One time in six a running reduction over loaded tiles in a loop.
  int64_t maxNumel = int64_t(1) << pol.maxLog2Numel;
  if (maxNumel >= 128 && src.chance(1, 6)) {
    genReduceLoop(maxNumel);
    return;
  }
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
  // A third of the time the K loop of a matmul (operands loaded tile by
  // tile in the loop: what the software pipeliner works on).
  if (src.chance(1, 3)) {
    genDotLoop(maxNumel);
    return;
  }
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

// Halves k, then n, then m (none below its minimum) until every operand
// and the result hold at most maxNumel elements; whether they then do.
static bool shrinkDotToFit(int64_t &m, int64_t &n, int64_t &k, int64_t minM,
                           int64_t minN, int64_t minK, int64_t maxNumel) {
  auto fits = [&] {
    return m * k <= maxNumel && k * n <= maxNumel && m * n <= maxNumel;
  };
  while (!fits()) {
    if (k > minK)
      k /= 2;
    else if (n > minN)
      n /= 2;
    else if (m > minM)
      m /= 2;
    else
      return false;
  }
  return true;
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
  if (!shrinkDotToFit(m, nn, k, /*minM=*/64, minN, kStep, maxNumel)) {
    genFloatArith();
    return;
  }
  emitDot(in, acc, m, nn, k, /*tf32=*/true,
          /*cMax=*/acc == Elem::F16 ? 16 : 64);
}

// An input buffer of its own for a dot operand, `perProgram` elements a
// program, 16-byte aligned (as Triton's matmul arguments are declared).
unsigned ProgramGen::dotOperandBuffer(Elem e, int64_t perProgram) {
  unsigned idx = unsigned(args.size());
  Arg a;
  a.name = "%mm" + std::to_string(idx);
  a.pointee = e;
  a.decl =
      a.name + ": !tt.ptr<" + elemName(e) + "> {tt.divisibility = 16 : i32}";
  a.launch = std::string("ptr:") + elemName(e) +
             "=rand:" + std::to_string(programs * perProgram) + ":" +
             std::to_string(idx + 1 + src.below(1000));
  args.push_back(a);
  return idx;
}

// i32 [rows, cols]: row * rowStride + col (a row-major tile of a wider
// matrix).
Val ProgramGen::tileOffsets(int64_t rows, int64_t cols, int64_t rowStride) {
  VType r1{Elem::I32, {rows}}, c1{Elem::I32, {cols}};
  VType rCol{Elem::I32, {rows, 1}}, cRow{Elem::I32, {1, cols}};
  VType t{Elem::I32, {rows, cols}};
  // 0..n-1 along one dim of a 2-D tensor of size 1 in the other.
  auto range2d = [&](int64_t n, const VType &flat, const VType &wide,
                     int axis) {
    Val v = emitValue("tt.make_range {end = " + std::to_string(n) +
                          " : i32, start = 0 : i32} : " + typeStr(flat),
                      flat);
    return emitValue("tt.expand_dims " + v.name +
                         " {axis = " + std::to_string(axis) +
                         " : i32} : " + typeStr(flat) + " -> " + typeStr(wide),
                     wide);
  };
  Val r = range2d(rows, r1, rCol, 1);
  Val stride = constInt(rowStride, rCol);
  r = emitValue("arith.muli " + r.name + ", " + stride.name + " : " +
                    typeStr(rCol),
                rCol);
  r = emitValue("tt.broadcast " + r.name + " : " + typeStr(rCol) + " -> " +
                    typeStr(t),
                t);
  Val c = range2d(cols, c1, cRow, 0);
  c = emitValue("tt.broadcast " + c.name + " : " + typeStr(cRow) + " -> " +
                    typeStr(t),
                t);
  Val off =
      emitValue("arith.addi " + r.name + ", " + c.name + " : " + typeStr(t), t);
  off.lo = 0, off.hi = (rows - 1) * rowStride + cols - 1;
  return off;
}

// Pointers to a tile of this program's part of `buffer` (perProgram
// elements a program): base + pid * perProgram + offsets.
Val ProgramGen::programTilePointers(unsigned buffer, int64_t perProgram,
                                    const Val &offsets, const VType &ptrType) {
  VType scalarPtr{ptrType.elem, {}, true}, i32{Elem::I32, {}};
  Val per = constInt(perProgram, i32);
  Val start =
      emitValue("arith.muli " + pid.name + ", " + per.name + " : i32", i32);
  Val base = emitValue("tt.addptr " + args[buffer].name + ", " + start.name +
                           " : " + typeStr(scalarPtr) + ", i32",
                       scalarPtr);
  Val sp = emitValue("tt.splat " + base.name + " : " + typeStr(scalarPtr) +
                         " -> " + typeStr(ptrType),
                     ptrType);
  return emitValue("tt.addptr " + sp.name + ", " + offsets.name + " : " +
                       typeStr(ptrType) + ", " + typeStr(offsets.type),
                   ptrType);
}

// A running reduction, Triton's `acc = acc (+) tl.sum(tl.load(p), 1)` over
// `trips` row-major f32 tiles of a buffer of its own: the reduce of each
// loaded tile feeds the loop-carried value directly, the shape
// tritongpu-optimize-thread-locality keeps within threads until after the
// loop. The update is the reduce's own combine, or for sums one time in
// four a subtraction (acc - sum: what Triton 3.6's pass turned into
// acc + sum, docs/FINDINGS.md finding 25).
void ProgramGen::genReduceLoop(int64_t maxNumel) {
  int64_t rows = int64_t(4) << src.below(4), cols = int64_t(32) << src.below(3);
  while (rows * cols > maxNumel && cols > 32)
    cols /= 2;
  while (rows * cols > maxNumel && rows > 1)
    rows /= 2;
  if (rows * cols > maxNumel) {
    genFloatArith();
    return;
  }
  int64_t trips = int64_t(src.range(1, std::max(2u, pol.maxTripCount)));
  Elem e = Elem::F32;
  VType tile{e, {rows, cols}}, ptrs{e, {rows, cols}, true}, rt{e, {rows}};
  VType i32{Elem::I32, {}};
  unsigned buffer = dotOperandBuffer(e, rows * cols * trips);
  Val p0 = programTilePointers(buffer, rows * cols * trips,
                               tileOffsets(rows, cols, cols), ptrs);
  Val step = constInt(rows * cols, VType{Elem::I32, {rows, cols}});
  static const char *combines[] = {
      "arith.maxnumf", "arith.minnumf", "arith.maximumf", "arith.minimumf",
      "arith.addf",    "arith.addf",    "arith.mulf"};
  // Sums and products come out of a reassociating compiler rounded
  // differently; without gpuSafe the program may feed them to compares and
  // float->int casts, so only maxima and minima (exact in any order).
  std::string op = combines[pol.gpuSafe ? src.below(7) : src.below(4)];
  bool isSum = op == "arith.addf", isProduct = op == "arith.mulf";
  std::string update = isSum && src.chance(1, 4) ? "arith.subf" : op;
  // Products of up to `cols` factors of [-1, 1] stay within 1; a start of
  // 1 or 0.5 keeps them so.
  double start =
      isProduct ? (src.coin() ? 1.0 : 0.5) : double(int(src.below(5)) - 2) / 2;
  Val acc0 = constFloat(start, rt);
  Val lb = constInt(0, i32), ub = constInt(trips, i32), one = constInt(1, i32);
  std::string res = fresh(), iv = fresh("i"), accArg = fresh("acc"),
              pArg = fresh("p");
  std::string types = typeStr(rt) + ", " + typeStr(ptrs);
  line(res + ":2 = scf.for " + iv + " = " + lb.name + " to " + ub.name +
       " step " + one.name + " iter_args(" + accArg + " = " + acc0.name + ", " +
       pArg + " = " + p0.name + ") -> (" + types + ") : i32 {");
  ++indent;
  Val x = emitValue("tt.load " + pArg + " : " + typeStr(ptrs), tile);
  std::string r = fresh(), ca = fresh("a"), cb = fresh("b"), c = fresh();
  line(r + " = \"tt.reduce\"(" + x.name + ") <{axis = 1 : i32}> ({");
  ++indent;
  body += std::string(2 * (indent - 1), ' ') + "^bb0(" + ca + ": f32, " + cb +
          ": f32):\n";
  line(c + " = " + op + " " + ca + ", " + cb + " : f32");
  line("tt.reduce.return " + c + " : f32");
  --indent;
  line("}) : (" + typeStr(tile) + ") -> " + typeStr(rt));
  Val next =
      emitValue(update + " " + accArg + ", " + r + " : " + typeStr(rt), rt);
  Val p = emitValue("tt.addptr " + pArg + ", " + step.name + " : " +
                        typeStr(ptrs) + ", " + typeStr(step.type),
                    ptrs);
  line("scf.yield " + next.name + ", " + p.name + " : " + types);
  --indent;
  line("}");
  // Loaded values are within [-1, 1]. A sum (or difference) runs over
  // trips * cols of them plus the start, in an order each compiler picks
  // (the reassociating pass splits it across threads and iterations): in
  // any order at most N - 1 roundings, each within eps of the sum of the
  // magnitudes, N eps (sum of |x|).
  Val result;
  result.name = res + "#0";
  result.type = rt;
  double terms = double(trips * cols);
  if (isSum) {
    result.bound = std::fabs(start) + terms;
    result.err = (terms + 1) * epsOf(e) * result.bound;
  } else if (isProduct) {
    result.bound = std::fabs(start);
    result.err = (terms + 1) * 2 * epsOf(e);
  } else {
    result.bound = std::max(std::fabs(start), 1.0);
    result.err = 0;
  }
  add(rescale(result));
}

// The K loop of a matmul, Triton's shape: acc += A[:, t] * B[t, :] over
// `trips` tiles t, each tile loaded in the loop through loop-carried
// pointer tensors that advance a tile an iteration, from buffers of their
// own (A [m, k * trips] and B [k * trips, n] row-major, a program each).
// tritongpu-pipeline turns the loads into cp.async rings at num_stages >= 2,
// and accelerate-matmul puts the dot on wgmma at sm_90 when M is a
// multiple of 64 (half of these when the largest tensor allows).
void ProgramGen::genDotLoop(int64_t maxNumel) {
  static const Elem ins[] = {Elem::F16, Elem::F16, Elem::BF16, Elem::F32};
  Elem in = ins[src.below(4)];
  Elem acc = Elem::F32;
  bool wide = maxNumel >= 1024 && src.coin();
  int64_t m = wide ? int64_t(64) << src.below(2) : int64_t(16) << src.below(3);
  int64_t n = int64_t(16) << src.below(3), k = int64_t(16) << src.below(3);
  if (!shrinkDotToFit(m, n, k, /*minM=*/wide ? 64 : 16, /*minN=*/16,
                      /*minK=*/16, maxNumel)) {
    genFloatArith();
    return;
  }
  // At least two trips: a one-trip loop has nothing to pipeline.
  int64_t trips = int64_t(src.range(2, std::max(2u, pol.maxTripCount)));
  int64_t kTotal = k * trips;
  VType at{in, {m, k}}, bt{in, {k, n}}, ct{acc, {m, n}};
  VType aPtr{in, {m, k}, true}, bPtr{in, {k, n}, true};
  VType i32{Elem::I32, {}};
  unsigned aBuf = dotOperandBuffer(in, m * kTotal);
  unsigned bBuf = dotOperandBuffer(in, kTotal * n);
  Val pa0 =
      programTilePointers(aBuf, m * kTotal, tileOffsets(m, k, kTotal), aPtr);
  Val pb0 = programTilePointers(bBuf, kTotal * n, tileOffsets(k, n, n), bPtr);
  Val aStep = constInt(k, VType{Elem::I32, {m, k}});
  Val bStep = constInt(k * n, VType{Elem::I32, {k, n}});
  Val acc0 = constFloat(0, ct);
  Val lb = constInt(0, i32), ub = constInt(trips, i32), one = constInt(1, i32);
  std::string res = fresh(), iv = fresh("k"), accArg = fresh("acc"),
              paArg = fresh("pa"), pbArg = fresh("pb");
  std::string types = typeStr(ct) + ", " + typeStr(aPtr) + ", " + typeStr(bPtr);
  line(res + ":3 = scf.for " + iv + " = " + lb.name + " to " + ub.name +
       " step " + one.name + " iter_args(" + accArg + " = " + acc0.name + ", " +
       paArg + " = " + pa0.name + ", " + pbArg + " = " + pb0.name + ") -> (" +
       types + ") : i32 {");
  ++indent;
  Val a = emitValue("tt.load " + paArg + " : " + typeStr(aPtr), at);
  Val b = emitValue("tt.load " + pbArg + " : " + typeStr(bPtr), bt);
  bool tf32 = in != Elem::F32 || src.coin();
  Val d =
      emitValue("tt.dot " + a.name + ", " + b.name + ", " + accArg +
                    ", inputPrecision = " + (tf32 ? "tf32" : "ieee") + " : " +
                    typeStr(at) + " * " + typeStr(bt) + " -> " + typeStr(ct),
                ct);
  Val pa = emitValue("tt.addptr " + paArg + ", " + aStep.name + " : " +
                         typeStr(aPtr) + ", " + typeStr(aStep.type),
                     aPtr);
  Val pb = emitValue("tt.addptr " + pbArg + ", " + bStep.name + " : " +
                         typeStr(bPtr) + ", " + typeStr(bStep.type),
                     bPtr);
  line("scf.yield " + d.name + ", " + pa.name + ", " + pb.name + " : " + types);
  --indent;
  line("}");
  // Loaded values are within [-1, 1] (genLoad's bound); the sum runs over
  // kTotal products.
  Val r;
  r.name = res + "#0";
  r.type = ct;
  double kd = double(kTotal);
  r.bound = kd;
  double operandEps = tf32 && in == Elem::F32 ? std::ldexp(1.0, -10) : 0.0;
  r.err = kd * operandEps + kd * epsOf(acc) * r.bound;
  add(rescale(r));
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
