// The TTIR program generator's shared state, private to fuzz/generator (users
// include Generator.h): the value model (element types, shapes, a live value
// with its tracked range, bound and error) and the ProgramGen class, whose
// op families are defined one file each:
//   ProgramGen.cpp      constants, the value pool, the kernel skeleton, the
//                       family dispatch and the launch spec;
//   GenArith.cpp        element-wise integer/float arithmetic, math,
//                       compares and selects, casts;
//   GenMemory.cpp       buffers, offsets and pointers, loads, output stores,
//                       atomics;
//   GenViews.cpp        shape ops (splat, expand_dims, broadcast, reshape,
//                       trans, join, split) and permutations (gather,
//                       histogram, cat);
//   GenReductions.cpp   tt.reduce (argmax/argmin included), tt.scan, tt.dot;
//   GenControlFlow.cpp  scf.for, scf.if, scf.while.
// The policy that weighs the families is GenPolicy.h.
//
// Each step picks an op family by the policy's weights, operands from the
// pool (or makes them), guards whatever could be undefined, and emits the op
// as text. The text is parsed and verified by the caller. Every choice comes
// from the ByteSource in program order, so moving code between these files
// must keep the order of the draws: the same bytes make the same program.
//
// UB-freedom by construction (oracles/cpu/SEMANTICS.md lists the UB kinds):
// - memory: every input buffer holds one slab of S elements per program;
//   offsets are in [0, S) (a linear index of a shape of at most S elements,
//   or a value masked with S-1), so every access is in bounds; stores use
//   injective offsets in the program's own slab, so no two elements race;
// - division and remainder: divisor (d & 127) | 1;
// - shifts: amount & (bits - 1);
// - float->int: the operand is clamped to the integer's range first;
// - loops: constant trip counts.
// Float values carry a bound |x| <= B; ops that would grow it past 2^14
// rescale by a power of two (exact), so nothing overflows and the GPU's
// rounding differences stay small. Each float value also carries an absolute
// error bound against the GPU (approximate math, contraction, reduction
// order), which becomes its output's tolerance.
#ifndef TGPU_FUZZ_GENERATOR_PROGRAMGENSTATE_H
#define TGPU_FUZZ_GENERATOR_PROGRAMGENSTATE_H

#include "fuzz/generator/Generator.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tgpu::gen::detail {

enum class Elem { I1, I8, I16, I32, I64, F16, BF16, F32, F64 };

inline bool isFloat(Elem e) {
  return e == Elem::F16 || e == Elem::BF16 || e == Elem::F32 || e == Elem::F64;
}
inline unsigned bitWidth(Elem e) {
  switch (e) {
  case Elem::I1:
    return 1;
  case Elem::I8:
    return 8;
  case Elem::I16:
  case Elem::F16:
  case Elem::BF16:
    return 16;
  case Elem::I32:
  case Elem::F32:
    return 32;
  case Elem::I64:
  case Elem::F64:
    return 64;
  }
  return 32;
}
inline const char *elemName(Elem e) {
  switch (e) {
  case Elem::I1:
    return "i1";
  case Elem::I8:
    return "i8";
  case Elem::I16:
    return "i16";
  case Elem::I32:
    return "i32";
  case Elem::I64:
    return "i64";
  case Elem::F16:
    return "f16";
  case Elem::BF16:
    return "bf16";
  case Elem::F32:
    return "f32";
  case Elem::F64:
    return "f64";
  }
  return "i32";
}
// Unit roundoff with slack (one ulp at the bound).
inline double epsOf(Elem e) {
  switch (e) {
  case Elem::F16:
    return 0x1p-10;
  case Elem::BF16:
    return 0x1p-7;
  case Elem::F64:
    return 0x1p-52;
  default:
    return 0x1p-23;
  }
}
// Largest magnitude a value of `e` may reach before rescale() brings it down.
// For f16, products of two such values plus one (mulf, math.fma) must stay
// below its largest finite value, 65504: 128 * 128 + 128 does (256 * 256
// overflowed to inf, and an inf reaching fptosi is undefined).
inline double boundLimit(Elem e) { return e == Elem::F16 ? 128 : 16384; }

using Shape = std::vector<int64_t>;

inline int64_t numel(const Shape &s) {
  int64_t n = 1;
  for (int64_t d : s)
    n *= d;
  return n;
}

struct VType {
  Elem elem = Elem::I32;
  Shape shape; // empty: scalar
  bool isPtr = false;
  bool operator==(const VType &o) const {
    return elem == o.elem && shape == o.shape && isPtr == o.isPtr;
  }
};

inline std::string shapePrefix(const Shape &s) {
  std::string out;
  for (int64_t d : s)
    out += std::to_string(d) + "x";
  return out;
}

inline std::string typeStr(const VType &t) {
  std::string e = t.isPtr ? std::string("!tt.ptr<") + elemName(t.elem) + ">"
                          : elemName(t.elem);
  if (t.shape.empty())
    return e;
  return "tensor<" + shapePrefix(t.shape) + e + ">";
}

struct Val {
  std::string name;
  VType type;
  // Integers: every element lies in [lo, hi] (signed view).
  int64_t lo = 0, hi = 0;
  // Floats: |x| <= bound; the GPU may differ from the reference by err.
  double bound = 0, err = 0;
  bool isConst = false;
  unsigned uses = 0;
};

inline int64_t typeMin(Elem e) {
  unsigned w = bitWidth(e);
  if (e == Elem::I1)
    return 0;
  return w >= 64 ? INT64_MIN : -(int64_t(1) << (w - 1));
}
inline int64_t typeMax(Elem e) {
  unsigned w = bitWidth(e);
  if (e == Elem::I1)
    return 1;
  return w >= 64 ? INT64_MAX : (int64_t(1) << (w - 1)) - 1;
}

// Saturating interval arithmetic in the type's signed range; an overflow
// widens to the whole range (the ops wrap, which is defined).
inline void setRange(Val &v, __int128 lo, __int128 hi) {
  Elem e = v.type.elem;
  if (lo < typeMin(e) || hi > typeMax(e)) {
    v.lo = typeMin(e), v.hi = typeMax(e);
    return;
  }
  v.lo = int64_t(lo), v.hi = int64_t(hi);
}

class ProgramGen {
public:
  ProgramGen(ByteSource &src, const GenPolicy &pol) : src(src), pol(pol) {}
  GeneratedProgram run();

private:
  // ---- emission ----
  std::string fresh(const char *hint = "v") {
    return "%" + std::string(hint) + std::to_string(counter++);
  }
  void line(const std::string &text) {
    body += std::string(2 * indent, ' ') + text + "\n";
    ++numOps;
  }
  Val &add(Val v) {
    pool.push_back(std::move(v));
    return pool.back();
  }
  Val emitValue(const std::string &rhs, const VType &t) {
    Val v;
    v.name = fresh();
    v.type = t;
    line(v.name + " = " + rhs);
    return v;
  }

  // ---- constants, pool, shapes, dispatch (ProgramGen.cpp) ----
  Val constInt(int64_t value, const VType &t);
  Val constFloat(double value, const VType &t);
  Val splatOf(const Val &scalar, const Shape &shape);
  Val *pick(const std::function<bool(const Val &)> &pred);
  // Safe to feed a discontinuous op (compare, float->int, floor, argmax):
  // always, unless gpuSafe asks for values the GPU computes exactly.
  bool isStable(const Val &v) const {
    return !pol.gpuSafe || !isFloat(v.type.elem) || v.err == 0;
  }
  Val materialize(const VType &t);
  Shape randomShape(unsigned minRank = 1);
  Shape pickShape();
  void genStep(unsigned depth);

  // ---- element-wise arithmetic, math, compares, casts (GenArith.cpp) ----
  void genIntArith();
  void genFloatArith();
  void genMath();
  void genCompare();
  void genCast();
  Val binary(const char *op, const Val &a, const Val &b, const VType &rt);
  Val unary(const char *op, const Val &a);
  Val rescale(Val v);
  Val clampFloat(const Val &v, double lo, double hi);
  Val castTo(const Val &v, Elem to);

  // ---- memory: buffers, loads, stores, atomics (GenMemory.cpp) ----
  void genLoad();
  void genAtomic();
  void genFloatAtomicAdd();
  void genAtomicCas();
  unsigned addOutputBuffer(const std::string &prefix, Elem e, bool aligned,
                           const std::string &launch);
  Val maskedBy(const Val &v, int64_t m);
  void emitAtomicRmw(const std::string &kind, const std::string &sem,
                     const Val &ptrs, const Val &val, bool masked);
  Val linearIndex(const Shape &shape, bool transposed);
  Val offsetsInSlab(const Shape &shape, bool injective, int64_t slab);
  Val pointersInto(unsigned bufferArg, const Val &offsets, bool perProgram);
  unsigned inputBuffer(Elem e);
  Val maskFor(const Shape &shape);
  void storeOutput(const Val &v);

  // ---- shape ops and permutations (GenViews.cpp) ----
  void genView();
  void genPermute();

  // ---- reductions, scans, dots (GenReductions.cpp) ----
  void genReduce();
  void genScan();
  Val combineAlong(const Val &a, unsigned axis, bool scan);
  void genDot();
  void genWgmmaDot(int64_t maxNumel);
  void genDotLoop(int64_t maxNumel);
  void genReduceLoop(int64_t maxNumel);
  Val programTilePointers(unsigned buffer, int64_t perProgram,
                          const Val &offsets, const VType &ptrType);
  Val tileOffsets(int64_t rows, int64_t cols, int64_t rowStride);
  unsigned dotOperandBuffer(Elem e, int64_t perProgram);
  void emitDot(Elem in, Elem acc, int64_t m, int64_t n, int64_t k, bool tf32,
               double cMax);

  // ---- control flow (GenControlFlow.cpp) ----
  void genFor(unsigned depth);
  void genIf(unsigned depth);
  void genWhile(unsigned depth);
  // The parts scf.for and scf.while share.
  struct LoopDraw {
    std::vector<Val> inits; // carried values from the pool
    int64_t trips = 0, lb = 0, step = 1;
    Val lbv, ubv, stv; // i32 constants lb, lb + trips * step, step
  };
  LoopDraw drawLoop(int64_t minTrips);
  Val carriedInBody(const Val &init, const std::string &name, int64_t trips);
  std::string yieldValue(const Val &carried);

  ByteSource &src;
  const GenPolicy &pol;
  std::string body;
  unsigned indent = 2;
  unsigned counter = 0;
  unsigned numOps = 0;
  std::vector<Val> pool;
  Val pid, slabBase, nArg;

  struct Arg {
    std::string name;
    std::string decl;   // "%in0: !tt.ptr<f32> {tt.divisibility = 16 : i32}"
    std::string launch; // "ptr:f32=rand:4096:7"
    Elem pointee = Elem::I32; // buffers only
  };
  std::vector<Arg> args;
  std::vector<std::pair<Elem, unsigned>> inputs; // elem -> arg index
  std::vector<OutputSpec> outputs;
  int64_t programs = 1, gridX = 1, gridY = 1;
  int64_t slab = 1024;
  int64_t nValue = 0;
};

} // namespace tgpu::gen::detail

#endif
