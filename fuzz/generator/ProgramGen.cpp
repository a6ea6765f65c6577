// TTIR program generation: a pool of typed live values with tracked ranges;
// each step picks an op family by the policy's weights, operands from the
// pool (or makes them), guards whatever could be undefined, and emits the op
// as text. The text is parsed and verified by the caller.
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
#include "Generator.h"
#include "RunArgs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>

namespace tgpu::gen {
namespace {

enum class Elem { I1, I8, I16, I32, I64, F16, BF16, F32, F64 };

bool isFloat(Elem e) {
  return e == Elem::F16 || e == Elem::BF16 || e == Elem::F32 || e == Elem::F64;
}
unsigned bitWidth(Elem e) {
  switch (e) {
  case Elem::I1: return 1;
  case Elem::I8: return 8;
  case Elem::I16: case Elem::F16: case Elem::BF16: return 16;
  case Elem::I32: case Elem::F32: return 32;
  case Elem::I64: case Elem::F64: return 64;
  }
  return 32;
}
const char *elemName(Elem e) {
  switch (e) {
  case Elem::I1: return "i1";
  case Elem::I8: return "i8";
  case Elem::I16: return "i16";
  case Elem::I32: return "i32";
  case Elem::I64: return "i64";
  case Elem::F16: return "f16";
  case Elem::BF16: return "bf16";
  case Elem::F32: return "f32";
  case Elem::F64: return "f64";
  }
  return "i32";
}
// Unit roundoff with slack (one ulp at the bound).
double epsOf(Elem e) {
  switch (e) {
  case Elem::F16: return 0x1p-10;
  case Elem::BF16: return 0x1p-7;
  case Elem::F64: return 0x1p-52;
  default: return 0x1p-23;
  }
}
// Largest magnitude a value of `e` may reach before rescale() brings it down.
double boundLimit(Elem e) { return e == Elem::F16 ? 256 : 16384; }

using Shape = std::vector<int64_t>;

int64_t numel(const Shape &s) {
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

std::string shapePrefix(const Shape &s) {
  std::string out;
  for (int64_t d : s)
    out += std::to_string(d) + "x";
  return out;
}

std::string typeStr(const VType &t) {
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

int64_t typeMin(Elem e) {
  unsigned w = bitWidth(e);
  if (e == Elem::I1)
    return 0;
  return w >= 64 ? INT64_MIN : -(int64_t(1) << (w - 1));
}
int64_t typeMax(Elem e) {
  unsigned w = bitWidth(e);
  if (e == Elem::I1)
    return 1;
  return w >= 64 ? INT64_MAX : (int64_t(1) << (w - 1)) - 1;
}

// Hex literal of a float constant: exact for every type.
std::string floatLiteral(double v, Elem e) {
  char buf[64];
  if (e == Elem::F64) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    std::snprintf(buf, sizeof buf, "0x%016llX", (unsigned long long)bits);
  } else if (e == Elem::F32) {
    float f = float(v);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    std::snprintf(buf, sizeof buf, "0x%08X", bits);
  } else if (e == Elem::BF16) {
    // The generator's constants have at most 8 significant bits, so the
    // upper half of the f32 is the bf16 exactly.
    float f = float(v);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    std::snprintf(buf, sizeof buf, "0x%04X", unsigned(bits >> 16));
  } else {
    _Float16 h = static_cast<_Float16>(v);
    uint16_t bits;
    std::memcpy(&bits, &h, 2);
    std::snprintf(buf, sizeof buf, "0x%04X", unsigned(bits));
  }
  return buf;
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

  // ---- constants ----
  Val constInt(int64_t value, const VType &t);
  Val constFloat(double value, const VType &t);
  Val splatOf(const Val &scalar, const Shape &shape);

  // ---- pool ----
  Val *pick(const std::function<bool(const Val &)> &pred);
  // Safe to feed a discontinuous op (compare, float->int, floor, argmax):
  // always, unless gpuSafe asks for values the GPU computes exactly.
  bool isStable(const Val &v) const {
    return !pol.gpuSafe || !isFloat(v.type.elem) || v.err == 0;
  }
  Val materialize(const VType &t);
  Val anyTensorOrScalar();

  // ---- families ----
  void genStep(unsigned depth);
  void genIntArith();
  void genFloatArith();
  void genMath();
  void genCompare();
  void genCast();
  void genView();
  void genLoad();
  void genReduce();
  void genScan();
  Val combineAlong(const Val &a, unsigned axis, bool scan);
  void genDot();
  void genAtomic();
  void genFor(unsigned depth);
  void genIf(unsigned depth);
  void genWhile(unsigned depth);
  // The parts scf.for and scf.while share.
  struct LoopDraw {
    std::vector<Val> inits;   // carried values from the pool
    int64_t trips = 0, lb = 0, step = 1;
    Val lbv, ubv, stv;        // i32 constants lb, lb + trips * step, step
  };
  LoopDraw drawLoop(int64_t minTrips);
  Val carriedInBody(const Val &init, const std::string &name, int64_t trips);
  std::string yieldValue(const Val &carried);
  void genPermute();

  // ---- helpers ----
  Val binary(const char *op, const Val &a, const Val &b, const VType &rt);
  Val unary(const char *op, const Val &a);
  Val rescale(Val v);
  Val clampFloat(const Val &v, double lo, double hi);
  Val castTo(const Val &v, Elem to);
  Val linearIndex(const Shape &shape, bool transposed);
  Val offsetsInSlab(const Shape &shape, bool injective, int64_t slab);
  Val pointersInto(unsigned bufferArg, const Val &offsets, bool perProgram);
  unsigned inputBuffer(Elem e);
  Val maskFor(const Shape &shape);
  Shape randomShape(unsigned minRank = 1);
  Shape pickShape();
  void storeOutput(const Val &v);

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

// ---------------------------------------------------------------------------
// Constants and pool
// ---------------------------------------------------------------------------

Val ProgramGen::constInt(int64_t value, const VType &t) {
  std::string lit = t.elem == Elem::I1 ? (value ? "true" : "false")
                                       : std::to_string(value);
  // A scalar i1 constant prints as `true`/`false` alone.
  std::string rhs = t.shape.empty()
                        ? "arith.constant " + lit +
                              (t.elem == Elem::I1 ? "" : " : " + typeStr(t))
                        : "arith.constant dense<" + lit + "> : " + typeStr(t);
  Val v = emitValue(rhs, t);
  v.lo = v.hi = value;
  v.isConst = true;
  return v;
}

Val ProgramGen::constFloat(double value, const VType &t) {
  std::string lit = floatLiteral(value, t.elem);
  std::string rhs = t.shape.empty()
                        ? "arith.constant " + lit + " : " + typeStr(t)
                        : "arith.constant dense<" + lit + "> : " + typeStr(t);
  Val v = emitValue(rhs, t);
  v.bound = std::fabs(value);
  v.isConst = true;
  return v;
}

Val ProgramGen::splatOf(const Val &scalar, const Shape &shape) {
  VType t = scalar.type;
  t.shape = shape;
  Val v = emitValue("tt.splat " + scalar.name + " : " + typeStr(scalar.type) +
                        " -> " + typeStr(t),
                    t);
  v.lo = scalar.lo, v.hi = scalar.hi, v.bound = scalar.bound,
  v.err = scalar.err, v.isConst = scalar.isConst;
  return v;
}

// A pool value satisfying `pred`: half the time among the 6 most recent
// (deep expression chains), otherwise any.
Val *ProgramGen::pick(const std::function<bool(const Val &)> &pred) {
  std::vector<size_t> ok;
  for (size_t i = 0; i < pool.size(); ++i)
    if (!pool[i].type.isPtr && pred(pool[i]))
      ok.push_back(i);
  if (ok.empty())
    return nullptr;
  size_t k = src.coin() ? ok.size() - 1 - src.below(std::min<size_t>(6, ok.size()))
                        : src.below(ok.size());
  Val *v = &pool[ok[k]];
  ++v->uses;
  return v;
}

// A value of exactly type `t`: from the pool, else built (a load, a splat of
// a scalar, a cast of a same-shaped value, or a constant).
Val ProgramGen::materialize(const VType &t) {
  if (!src.chance(1, 5))
    if (Val *v = pick([&](const Val &v) { return v.type == t; }))
      return *v;
  if (t.shape.empty()) {
    if (Val *v = pick([&](const Val &v) {
          return v.type.shape.empty() && isFloat(v.type.elem) == isFloat(t.elem);
        }))
      if (v->type.elem != t.elem)
        return castTo(*v, t.elem);
    return isFloat(t.elem) ? constFloat(double(src.range(-16, 16)) / 4, t)
                           : constInt(t.elem == Elem::I1 ? src.range(0, 1)
                                                         : src.range(-8, 8),
                                      t);
  }
  switch (src.below(4)) {
  case 0:
    if (t.elem != Elem::I1 && t.elem != Elem::I16 && t.elem != Elem::I64) {
      Val off = offsetsInSlab(t.shape, false, slab);
      Val ptrs = pointersInto(inputBuffer(t.elem), off, true);
      Val v = emitValue("tt.load " + ptrs.name + " : " + typeStr(ptrs.type), t);
      v.lo = t.elem == Elem::I1 ? 0 : -8;
      v.hi = t.elem == Elem::I1 ? 1 : 7;
      v.bound = 1;
      return add(v);
    }
    break;
  case 1:
    if (Val *s = pick([&](const Val &v) {
          return v.type.shape.empty() && v.type.elem == t.elem;
        }))
      return add(splatOf(*s, t.shape));
    break;
  case 2:
    if (Val *s = pick([&](const Val &v) {
          return v.type.shape == t.shape && v.type.elem != t.elem &&
                 (isStable(v) || isFloat(t.elem));
        }))
      return add(castTo(*s, t.elem));
    break;
  default:
    break;
  }
  if (isFloat(t.elem))
    return constFloat(double(src.range(-16, 16)) / 4, t);
  if (t.elem == Elem::I1)
    return constInt(src.range(0, 1), t);
  return constInt(src.range(-8, 8), t);
}

Shape ProgramGen::randomShape(unsigned minRank) {
  unsigned rank = unsigned(src.range(minRank, std::max(minRank, pol.maxRank)));
  // Total size 2^[4, max], split over the dims.
  unsigned total = unsigned(src.range(std::min(4u, pol.maxLog2Numel), pol.maxLog2Numel));
  Shape s(rank, 1);
  for (unsigned i = 0; i < total; ++i)
    s[src.below(rank)] *= 2;
  return s;
}

Shape ProgramGen::pickShape() {
  if (src.chance(3, 4))
    if (Val *v = pick([](const Val &v) { return !v.type.shape.empty(); }))
      return v->type.shape;
  return randomShape();
}

// ---------------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------------

unsigned ProgramGen::inputBuffer(Elem e) {
  for (auto &[elem, idx] : inputs)
    if (elem == e && src.chance(2, 3))
      return idx;
  unsigned idx = unsigned(args.size());
  Arg a;
  a.name = "%in" + std::to_string(inputs.size());
  a.pointee = e;
  a.decl = a.name + ": !tt.ptr<" + elemName(e) + ">";
  if (src.coin())
    a.decl += " {tt.divisibility = 16 : i32}";
  a.launch = std::string("ptr:") + elemName(e) + "=rand:" +
             std::to_string(programs * slab) + ":" + std::to_string(idx + 1 + src.below(1000));
  args.push_back(a);
  inputs.push_back({e, idx});
  return idx;
}

// i32 tensor 0..numel-1 over `shape`: row-major, or with the dims' strides
// reversed (a transposed walk).
Val ProgramGen::linearIndex(const Shape &shape, bool transposed) {
  unsigned rank = unsigned(shape.size());
  std::vector<int64_t> stride(rank, 1);
  if (!transposed)
    for (int d = int(rank) - 2; d >= 0; --d)
      stride[d] = stride[d + 1] * shape[d + 1];
  else
    for (unsigned d = 1; d < rank; ++d)
      stride[d] = stride[d - 1] * shape[d - 1];
  Val sum;
  bool have = false;
  for (unsigned d = 0; d < rank; ++d) {
    VType rt{Elem::I32, {shape[d]}};
    Val r = emitValue("tt.make_range {end = " + std::to_string(shape[d]) +
                          " : i32, start = 0 : i32} : " + typeStr(rt),
                      rt);
    // Expand to rank dims with size 1 everywhere but d.
    Shape cur = {shape[d]};
    for (unsigned e = 0; e < rank; ++e) {
      if (e == d)
        continue;
      unsigned axis = e < d ? e : unsigned(cur.size());
      Shape next = cur;
      next.insert(next.begin() + (e < d ? e : cur.size()), 1);
      // Positions before d are inserted in order: axis = e for e < d.
      VType nt{Elem::I32, next};
      r = emitValue("tt.expand_dims " + r.name + " {axis = " +
                        std::to_string(axis) + " : i32} : " +
                        typeStr(VType{Elem::I32, cur}) + " -> " + typeStr(nt),
                    nt);
      cur = next;
    }
    if (stride[d] != 1) {
      Val c = constInt(stride[d], VType{Elem::I32, cur});
      r = emitValue("arith.muli " + r.name + ", " + c.name + " : " +
                        typeStr(VType{Elem::I32, cur}),
                    VType{Elem::I32, cur});
    }
    if (cur != shape) {
      VType bt{Elem::I32, shape};
      r = emitValue("tt.broadcast " + r.name + " : " +
                        typeStr(VType{Elem::I32, cur}) + " -> " + typeStr(bt),
                    bt);
    }
    if (!have) {
      sum = r;
      have = true;
    } else {
      sum = emitValue("arith.addi " + sum.name + ", " + r.name + " : " +
                          typeStr(VType{Elem::I32, shape}),
                      VType{Elem::I32, shape});
    }
  }
  sum.lo = 0;
  sum.hi = numel(shape) - 1;
  return sum;
}

// Offsets in [0, slab) over `shape`; injective ones are a bijection of a
// linear index (xor, odd multiply or add modulo the slab), others may also be
// any pool integer masked into range (a gather).
Val ProgramGen::offsetsInSlab(const Shape &shape, bool injective, int64_t slabSize) {
  VType t{Elem::I32, shape};
  std::string ty = typeStr(t);
  Val base;
  if (!injective && src.chance(1, 4)) {
    if (Val *v = pick([&](const Val &v) {
          return v.type.shape == shape && v.type.elem == Elem::I32;
        })) {
      Val m = constInt(slabSize - 1, t);
      base = emitValue("arith.andi " + v->name + ", " + m.name + " : " + ty, t);
      base.lo = 0, base.hi = slabSize - 1;
      return base;
    }
  }
  base = linearIndex(shape, src.chance(1, 3));
  if (numel(shape) > slabSize) {
    // Only gathers get here (stores take shapes within the slab): wrap.
    Val m = constInt(slabSize - 1, t);
    base = emitValue("arith.andi " + base.name + ", " + m.name + " : " + ty, t);
    base.lo = 0, base.hi = slabSize - 1;
    return base;
  }
  switch (src.below(5)) {
  case 0: { // xor with a constant below the slab
    Val c = constInt(int64_t(src.below(uint64_t(slabSize))), t);
    base = emitValue("arith.xori " + base.name + ", " + c.name + " : " + ty, t);
    base.lo = 0, base.hi = slabSize - 1;
    break;
  }
  case 1: { // odd multiply (+ constant) modulo the slab
    Val c = constInt(int64_t(2 * src.below(64) + 1), t);
    base = emitValue("arith.muli " + base.name + ", " + c.name + " : " + ty, t);
    Val k = constInt(int64_t(src.below(uint64_t(slabSize))), t);
    base = emitValue("arith.addi " + base.name + ", " + k.name + " : " + ty, t);
    Val m = constInt(slabSize - 1, t);
    base = emitValue("arith.andi " + base.name + ", " + m.name + " : " + ty, t);
    base.lo = 0, base.hi = slabSize - 1;
    break;
  }
  default:
    break;
  }
  return base;
}

// Pointers to buffer argument `bufferArg` at `offsets` (+ this program's slab
// when perProgram), built either from a scalar base pointer or as a tensor.
Val ProgramGen::pointersInto(unsigned bufferArg, const Val &offsets,
                             bool perProgram) {
  const Arg &arg = args[bufferArg];
  Elem e = arg.pointee;
  VType scalarPtr{e, {}, true};
  VType tensorPtr{e, offsets.type.shape, true};
  std::string base = arg.name;
  Val off = offsets;
  if (perProgram) {
    if (src.coin()) {
      Val p = emitValue("tt.addptr " + base + ", " + slabBase.name + " : " +
                            typeStr(scalarPtr) + ", i32",
                        scalarPtr);
      base = p.name;
    } else {
      Val s = splatOf(slabBase, offsets.type.shape);
      off = emitValue("arith.addi " + offsets.name + ", " + s.name + " : " +
                          typeStr(offsets.type),
                      offsets.type);
    }
  }
  Val sp = emitValue("tt.splat " + base + " : " + typeStr(scalarPtr) + " -> " +
                         typeStr(tensorPtr),
                     tensorPtr);
  return emitValue("tt.addptr " + sp.name + ", " + off.name + " : " +
                       typeStr(tensorPtr) + ", " + typeStr(off.type),
                   tensorPtr);
}

Val ProgramGen::maskFor(const Shape &shape) {
  VType bt{Elem::I1, shape};
  if (src.coin())
    if (Val *m = pick([&](const Val &v) { return v.type == bt; }))
      return *m;
  // linear index < n: a ragged tail.
  Val idx = linearIndex(shape, false);
  Val n = splatOf(nArg, shape);
  return add(emitValue("arith.cmpi slt, " + idx.name + ", " + n.name + " : " +
                           typeStr(VType{Elem::I32, shape}),
                       bt));
}

void ProgramGen::genLoad() {
  static const Elem elems[] = {Elem::F32, Elem::F32, Elem::F16, Elem::I32,
                               Elem::I8,  Elem::BF16, Elem::F64};
  Elem e = elems[src.below(7)];
  Shape shape = pickShape();
  Val off = offsetsInSlab(shape, false, slab);
  Val ptrs = pointersInto(inputBuffer(e), off, true);
  VType t{e, shape};
  Val v;
  std::string ptrTy = typeStr(ptrs.type);
  switch (src.below(3)) {
  case 0:
    v = emitValue("tt.load " + ptrs.name + " : " + ptrTy, t);
    v.lo = -8, v.hi = 7, v.bound = 1;
    break;
  case 1: {
    Val m = maskFor(shape);
    v = emitValue("tt.load " + ptrs.name + ", " + m.name + " : " + ptrTy, t);
    v.lo = -8, v.hi = 7, v.bound = 1;
    break;
  }
  default: {
    Val m = maskFor(shape);
    Val other = isFloat(e) ? constFloat(double(src.range(-8, 8)) / 4, t)
                           : constInt(src.range(-8, 8), t);
    v = emitValue("tt.load " + ptrs.name + ", " + m.name + ", " + other.name +
                      " : " + ptrTy,
                  t);
    v.lo = std::min<int64_t>(-8, other.lo), v.hi = std::max<int64_t>(7, other.hi);
    v.bound = std::max(1.0, other.bound);
    break;
  }
  }
  add(v);
}

void ProgramGen::storeOutput(const Val &value) {
  Val v = value;
  if (v.type.elem == Elem::I1)
    v = castTo(v, Elem::I8);
  Elem e = v.type.elem;
  unsigned idx = unsigned(args.size());
  Arg a;
  a.name = "%out" + std::to_string(outputs.size());
  a.pointee = e;
  a.decl = a.name + ": !tt.ptr<" + std::string(elemName(e)) + ">";
  if (src.coin())
    a.decl += " {tt.divisibility = 16 : i32}";
  OutputSpec spec;
  spec.argIndex = idx;
  spec.elementType = elemName(e);
  spec.absTolerance = isFloat(e) ? v.err : 0;
  VType sp{e, {}, true};
  if (v.type.shape.empty()) {
    a.launch = std::string("ptr:") + elemName(e) + "=zeros:" + std::to_string(programs);
    args.push_back(a);
    Val p = emitValue("tt.addptr " + a.name + ", " + pid.name + " : " +
                          typeStr(sp) + ", i32",
                      sp);
    line("tt.store " + p.name + ", " + v.name + " : " + typeStr(sp));
  } else {
    a.launch = std::string("ptr:") + elemName(e) + "=zeros:" +
               std::to_string(programs * slab);
    args.push_back(a);
    Val off = offsetsInSlab(v.type.shape, true, slab);
    Val ptrs = pointersInto(idx, off, true);
    if (src.chance(1, 3)) {
      Val m = maskFor(v.type.shape);
      line("tt.store " + ptrs.name + ", " + v.name + ", " + m.name + " : " +
           typeStr(ptrs.type));
    } else {
      line("tt.store " + ptrs.name + ", " + v.name + " : " + typeStr(ptrs.type));
    }
  }
  outputs.push_back(spec);
}

void ProgramGen::genAtomic() {
  Shape shape = pickShape();
  VType t{Elem::I32, shape};
  Val val = materialize(t);
  // Its own buffer: programs collide on purpose, and commutative,
  // associative kinds make the result independent of the order.
  static const char *kinds[] = {"add", "max", "min", "umax", "umin", "and", "or", "xor"};
  const char *kind = kinds[src.below(8)];
  int64_t size = int64_t(1) << src.range(2, 7);
  unsigned idx = unsigned(args.size());
  Arg a;
  a.name = "%acc" + std::to_string(outputs.size());
  a.pointee = Elem::I32;
  a.decl = a.name + ": !tt.ptr<i32>";
  a.launch = "ptr:i32=rand:" + std::to_string(size) + ":" + std::to_string(idx + 1);
  args.push_back(a);
  OutputSpec spec;
  spec.argIndex = idx;
  spec.elementType = "i32";
  outputs.push_back(spec);
  Val off = offsetsInSlab(shape, false, size);
  // offsetsInSlab may have used a linear index larger than the buffer.
  Val m = constInt(size - 1, t);
  off = emitValue("arith.andi " + off.name + ", " + m.name + " : " + typeStr(t), t);
  Val ptrs = pointersInto(idx, off, false);
  std::string ptrTy = typeStr(ptrs.type);
  if (src.coin()) {
    Val mask = maskFor(shape);
    emitValue(std::string("tt.atomic_rmw ") + kind + ", relaxed, gpu, " + ptrs.name +
                  ", " + val.name + ", " + mask.name + " : (" + ptrTy + ", " +
                  typeStr(t) + ", " + typeStr(VType{Elem::I1, shape}) + ") -> " +
                  typeStr(t),
              t);
  } else {
    emitValue(std::string("tt.atomic_rmw ") + kind + ", relaxed, gpu, " + ptrs.name +
                  ", " + val.name + " : (" + ptrTy + ", " + typeStr(t) + ") -> " +
                  typeStr(t),
              t);
  }
}

// ---------------------------------------------------------------------------
// Arithmetic
// ---------------------------------------------------------------------------

Val ProgramGen::binary(const char *op, const Val &a, const Val &b, const VType &rt) {
  return emitValue(std::string(op) + " " + a.name + ", " + b.name + " : " +
                       typeStr(a.type),
                   rt);
}

Val ProgramGen::unary(const char *op, const Val &a) {
  return emitValue(std::string(op) + " " + a.name + " : " + typeStr(a.type), a.type);
}

// Saturating interval arithmetic in the type's signed range; an overflow
// widens to the whole range (the ops wrap, which is defined).
static void setRange(Val &v, __int128 lo, __int128 hi) {
  Elem e = v.type.elem;
  if (lo < typeMin(e) || hi > typeMax(e)) {
    v.lo = typeMin(e), v.hi = typeMax(e);
    return;
  }
  v.lo = int64_t(lo), v.hi = int64_t(hi);
}

void ProgramGen::genIntArith() {
  static const Elem elems[] = {Elem::I32, Elem::I32, Elem::I32, Elem::I64,
                               Elem::I16, Elem::I8};
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
      r.lo = 0, r.hi = int64_t(llvm::NextPowerOf2(uint64_t(std::max(a.hi, b.hi)))) - 1;
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
    static const char *ops[] = {"arith.divsi", "arith.remsi", "arith.divui",
                                "arith.remui", "arith.floordivsi", "arith.ceildivsi"};
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
    static const char *ops[] = {"arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui"};
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
    static const char *ops[] = {"math.absi", "math.ctpop", "math.ctlz", "math.cttz"};
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

// Keeps a float's bound at most 2^14 by an exact power-of-two scale.
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
  static const Elem elems[] = {Elem::F32, Elem::F32, Elem::F32, Elem::F32,
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
    r.err = a.err * b.bound + b.err * a.bound + a.err * b.err + c.err + eps * r.bound;
    break;
  }
  case 6: {
    static const char *ops[] = {"arith.maximumf", "arith.minimumf", "arith.maxnumf",
                                "arith.minnumf"};
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
  Val *pa = pick([&](const Val &v) { return isFloat(v.type.elem) && !v.isConst; });
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
    static const char *ops[] = {"math.floor", "math.ceil", "math.trunc", "math.roundeven"};
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
    static const char *preds[] = {"olt", "ole", "ogt", "oge", "oeq", "one",
                                  "ult", "uge", "une", "ord"};
    c = emitValue(std::string("arith.cmpf ") + preds[src.below(10)] + ", " +
                      a.name + ", " + b.name + " : " + typeStr(t),
                  bt);
  } else {
    static const char *preds[] = {"eq", "ne", "slt", "sle", "sgt", "sge",
                                  "ult", "ule", "ugt", "uge"};
    c = emitValue(std::string("arith.cmpi ") + preds[src.below(10)] + ", " +
                      a.name + ", " + b.name + " : " + typeStr(t),
                  bt);
  }
  c.lo = 0, c.hi = 1;
  add(c);
  if (src.coin()) {
    // select between two values of any type of this shape
    Val *x = pick([&](const Val &v) { return v.type.shape == t.shape && v.type.elem != Elem::I1; });
    VType st = x ? x->type : t;
    Val xv = x ? *x : a;
    Val y = materialize(st);
    Val s = emitValue("arith.select " + c.name + ", " + xv.name + ", " + y.name +
                          " : " + typeStr(bt) + ", " + typeStr(st),
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
        r.lo = 0, r.hi = bitWidth(from) >= 64 ? INT64_MAX
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
    r = cast(unsignedCast || to == Elem::I1 ? "arith.fptoui" : "arith.fptosi", x);
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
  if (src.chance(1, 6) && (a.type.elem == Elem::F32 || a.type.elem == Elem::I32)) {
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
  static const Elem targets[] = {Elem::I1,  Elem::I8,  Elem::I16,  Elem::I32,
                                 Elem::I64, Elem::F16, Elem::F32,  Elem::BF16,
                                 Elem::F64};
  Elem to = targets[src.below(9)];
  if (to == a.type.elem)
    to = isFloat(to) ? Elem::I32 : Elem::F32;
  add(castTo(a, to));
}

// ---------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------

void ProgramGen::genView() {
  Val *pa = pick([](const Val &v) { return true; });
  if (!pa) {
    genLoad();
    return;
  }
  Val a = *pa;
  const Shape &s = a.type.shape;
  unsigned rank = unsigned(s.size());
  auto derived = [&](Val r) {
    r.lo = a.lo, r.hi = a.hi, r.bound = a.bound, r.err = a.err;
    r.isConst = a.isConst;
    return r;
  };
  switch (src.below(7)) {
  case 0: { // splat a scalar, or expand_dims
    if (rank == 0) {
      add(splatOf(a, randomShape()));
      return;
    }
    if (rank >= pol.maxRank)
      break;
    unsigned axis = unsigned(src.below(rank + 1));
    Shape ns = s;
    ns.insert(ns.begin() + axis, 1);
    VType nt = a.type;
    nt.shape = ns;
    Val r = derived(emitValue("tt.expand_dims " + a.name + " {axis = " +
                                  std::to_string(axis) + " : i32} : " +
                                  typeStr(a.type) + " -> " + typeStr(nt),
                              nt));
    // Usually broadcast the new dim right away.
    if (src.chance(3, 4) && numel(s) * 2 <= (int64_t(1) << pol.maxLog2Numel)) {
      int64_t maxMul = (int64_t(1) << pol.maxLog2Numel) / numel(s);
      int64_t f = int64_t(1) << src.range(1, std::max<int64_t>(1, llvm::Log2_64(maxMul)));
      Shape bs = ns;
      bs[axis] = f;
      VType bt = a.type;
      bt.shape = bs;
      r = derived(emitValue("tt.broadcast " + r.name + " : " + typeStr(nt) +
                                " -> " + typeStr(bt),
                            bt));
    }
    add(r);
    return;
  }
  case 1: { // reshape to another split of the same size
    if (rank == 0)
      break;
    int64_t n = numel(s);
    unsigned nr = unsigned(src.range(1, pol.maxRank));
    Shape ns(nr, 1);
    for (int64_t k = n; k > 1; k /= 2)
      ns[src.below(nr)] *= 2;
    VType nt = a.type;
    nt.shape = ns;
    add(derived(emitValue("tt.reshape " + a.name + " : " + typeStr(a.type) +
                              " -> " + typeStr(nt),
                          nt)));
    return;
  }
  case 2: { // trans
    if (rank < 2)
      break;
    std::vector<unsigned> order(rank);
    for (unsigned i = 0; i < rank; ++i)
      order[i] = i;
    for (unsigned i = rank - 1; i > 0; --i)
      std::swap(order[i], order[src.below(i + 1)]);
    Shape ns(rank);
    std::string ord;
    for (unsigned i = 0; i < rank; ++i) {
      ns[i] = s[order[i]];
      ord += (i ? ", " : "") + std::to_string(order[i]);
    }
    VType nt = a.type;
    nt.shape = ns;
    add(derived(emitValue("tt.trans " + a.name + " {order = array<i32: " + ord +
                              ">} : " + typeStr(a.type) + " -> " + typeStr(nt),
                          nt)));
    return;
  }
  case 3: { // join
    if (rank == 0 || rank >= pol.maxRank ||
        numel(s) * 2 > (int64_t(1) << pol.maxLog2Numel))
      break;
    Val b = materialize(a.type);
    Shape ns = s;
    ns.push_back(2);
    VType nt = a.type;
    nt.shape = ns;
    Val r = emitValue("tt.join " + a.name + ", " + b.name + " : " +
                          typeStr(a.type) + " -> " + typeStr(nt),
                      nt);
    r.lo = std::min(a.lo, b.lo), r.hi = std::max(a.hi, b.hi);
    r.bound = std::max(a.bound, b.bound), r.err = std::max(a.err, b.err);
    add(r);
    return;
  }
  case 4: { // split (needs a minor dim of 2 and leaves a tensor: rank >= 2)
    if (rank < 2 || s.back() != 2)
      break;
    Shape ns(s.begin(), s.end() - 1);
    VType nt = a.type;
    nt.shape = ns;
    std::string lhs = fresh(), rhs = fresh();
    line(lhs + ", " + rhs + " = tt.split " + a.name + " : " + typeStr(a.type) +
         " -> " + typeStr(nt));
    Val l = derived(Val{}), r = derived(Val{});
    l.name = lhs, r.name = rhs, l.type = r.type = nt;
    add(l);
    add(r);
    return;
  }
  case 5: { // broadcast a size-1 dim
    for (unsigned d = 0; d < rank; ++d)
      if (s[d] == 1 && numel(s) * 2 <= (int64_t(1) << pol.maxLog2Numel)) {
        Shape ns = s;
        ns[d] = 2 << src.below(3);
        if (numel(ns) > (int64_t(1) << pol.maxLog2Numel))
          ns[d] = 2;
        VType nt = a.type;
        nt.shape = ns;
        add(derived(emitValue("tt.broadcast " + a.name + " : " + typeStr(a.type) +
                                  " -> " + typeStr(nt),
                              nt)));
        return;
      }
    break;
  }
  default:
    break;
  }
  // Fallback: a make_range-based integer tensor of a fresh shape.
  Shape ns = randomShape();
  Val r = linearIndex(ns, src.coin());
  add(r);
}

// ---------------------------------------------------------------------------
// Reductions, scans, dots
// ---------------------------------------------------------------------------

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
  static const char *ops[] = {"arith.addi", "arith.maxsi", "arith.minsi",
                              "arith.maxui", "arith.minui", "arith.andi",
                              "arith.ori",  "arith.xori",  "arith.muli"};
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
    std::string va = fresh("a"), ia = fresh("a"), vb = fresh("b"), ib = fresh("b");
    std::string et = elemName(e);
    line(r0 + ", " + r1 + " = \"tt.reduce\"(" + a.name + ", " + idx.name +
         ") <{axis = " + ax + " : i32}> ({");
    ++indent;
    body += std::string(2 * (indent - 1), ' ') + "^bb0(" + va + ": " + et + ", " +
            ia + ": i32, " + vb + ": " + et + ", " + ib + ": i32):\n";
    bool isMax = src.coin();
    std::string gt = fresh(), eq = fresh(), lt = fresh(), tie = fresh(),
                take = fresh(), v = fresh(), i = fresh();
    if (isFloat(e)) {
      line(gt + " = arith.cmpf " + (isMax ? "ogt" : "olt") + ", " + va + ", " + vb + " : " + et);
      line(eq + " = arith.cmpf oeq, " + va + ", " + vb + " : " + et);
    } else {
      line(gt + " = arith.cmpi " + (isMax ? "sgt" : "slt") + ", " + va + ", " + vb + " : " + et);
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
  Val *pa = pick([](const Val &v) { return !v.type.shape.empty() && v.type.elem != Elem::I1; });
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
  static const Elem ins[] = {Elem::F16, Elem::F16, Elem::F32, Elem::F32,
                             Elem::BF16, Elem::F64};
  Elem in = ins[src.below(6)];
  Elem acc = in == Elem::F64 ? Elem::F64 : Elem::F32;
  VType at{in, {m, k}}, bt{in, {k, nn}}, ct{acc, {m, nn}};
  Val a = materialize(at), b = materialize(bt);
  // Keep the operands small so the sum over k stays tame.
  if (a.bound > 4)
    a = clampFloat(a, -4, 4);
  if (b.bound > 4)
    b = clampFloat(b, -4, 4);
  Val c = materialize(ct);
  if (c.bound > 64)
    c = clampFloat(c, -64, 64);
  Val r = emitValue("tt.dot " + a.name + ", " + b.name + ", " + c.name +
                        ", inputPrecision = " +
                        (in == Elem::F32 || in == Elem::F64 ? "ieee" : "tf32") +
                        " : " + typeStr(at) + " * " + typeStr(bt) + " -> " +
                        typeStr(ct),
                    ct);
  double kd = double(k);
  r.bound = kd * a.bound * b.bound + c.bound;
  r.err = kd * (a.err * b.bound + b.err * a.bound) + c.err +
          kd * epsOf(acc) * r.bound;
  add(rescale(r));
}

// ---------------------------------------------------------------------------
// Control flow
// ---------------------------------------------------------------------------

// Loop-carried values (0-2 from the pool), then the trip count (at least
// minTrips) and the bounds: scf.for and scf.while draw them alike.
ProgramGen::LoopDraw ProgramGen::drawLoop(int64_t minTrips) {
  LoopDraw d;
  unsigned nCarried = unsigned(src.range(0, 2));
  for (unsigned i = 0; i < nCarried; ++i)
    if (Val *v = pick([](const Val &v) { return v.type.elem != Elem::I1; }))
      d.inits.push_back(*v);
  d.trips = src.range(minTrips, pol.maxTripCount);
  d.lb = src.range(-2, 2), d.step = src.range(1, 3);
  VType i32{Elem::I32, {}};
  d.lbv = constInt(d.lb, i32);
  d.ubv = constInt(d.lb + d.trips * d.step, i32);
  d.stv = constInt(d.step, i32);
  return d;
}

// A carried value as the body sees it, added to the pool: integers may wrap
// over iterations (any value of the type); floats keep a bound that yields
// are clamped to, and gather error per iteration.
Val ProgramGen::carriedInBody(const Val &init, const std::string &name,
                              int64_t trips) {
  Val c = init;
  c.name = name;
  c.isConst = false;
  if (!isFloat(c.type.elem)) {
    c.lo = typeMin(c.type.elem), c.hi = typeMax(c.type.elem);
  } else {
    c.bound = std::max(1.0, std::min(c.bound, 64.0));
    c.err = init.err * double(trips + 1) + 64 * epsOf(c.type.elem) * double(trips);
  }
  add(c);
  return c;
}

// The value yielded for a carried one: of its type, within its bound.
std::string ProgramGen::yieldValue(const Val &carried) {
  Val y = materialize(carried.type);
  if (isFloat(y.type.elem) && y.bound > carried.bound)
    y = clampFloat(y, -carried.bound, carried.bound);
  return y.name;
}

void ProgramGen::genFor(unsigned depth) {
  if (depth >= pol.maxDepth) {
    genFloatArith();
    return;
  }
  LoopDraw loop = drawLoop(1);
  const std::vector<Val> &inits = loop.inits;
  int64_t trips = loop.trips, lb = loop.lb, step = loop.step;
  const Val &lbv = loop.lbv, &ubv = loop.ubv, &stv = loop.stv;
  VType i32{Elem::I32, {}};
  std::string iv = fresh("iv");
  std::vector<std::string> resNames, argNames;
  std::string head;
  for (size_t i = 0; i < inits.size(); ++i) {
    resNames.push_back(fresh());
    argNames.push_back(fresh("it"));
  }
  std::string types;
  for (size_t i = 0; i < inits.size(); ++i)
    types += (i ? ", " : "") + typeStr(inits[i].type);
  if (!inits.empty()) {
    head = llvm::join(resNames, ", ") + " = ";
  }
  head += "scf.for " + iv + " = " + lbv.name + " to " + ubv.name + " step " +
          stv.name;
  if (!inits.empty()) {
    head += " iter_args(";
    for (size_t i = 0; i < inits.size(); ++i)
      head += (i ? ", " : "") + argNames[i] + " = " + inits[i].name;
    head += ") -> (" + types + ")";
  }
  head += " : i32 {";
  line(head);
  ++indent;
  size_t mark = pool.size();
  Val ivv;
  ivv.name = iv, ivv.type = i32, ivv.lo = lb, ivv.hi = lb + (trips - 1) * step;
  add(ivv);
  std::vector<Val> carried;
  for (size_t i = 0; i < inits.size(); ++i)
    carried.push_back(carriedInBody(inits[i], argNames[i], trips));
  unsigned steps = unsigned(src.range(1, 5));
  for (unsigned i = 0; i < steps; ++i)
    genStep(depth + 1);
  std::vector<std::string> yields;
  for (const Val &c : carried)
    yields.push_back(yieldValue(c));
  if (!yields.empty())
    line("scf.yield " + llvm::join(yields, ", ") + " : " + types);
  pool.resize(mark);
  --indent;
  line("}");
  for (size_t i = 0; i < carried.size(); ++i) {
    Val r = carried[i];
    r.name = resNames[i];
    // The init when the loop runs zero times never happens (trips >= 1), but
    // the bound must also cover it.
    r.bound = std::max(r.bound, inits[i].bound);
    add(r);
  }
}

void ProgramGen::genIf(unsigned depth) {
  if (depth >= pol.maxDepth) {
    genIntArith();
    return;
  }
  // A scalar condition: pid, n, or a scalar from the pool.
  Val cond;
  VType i1{Elem::I1, {}};
  VType i32{Elem::I32, {}};
  if (Val *c = pick([&](const Val &v) { return v.type == i1; })) {
    cond = *c;
  } else {
    Val k = constInt(src.range(0, 3), i32);
    static const char *preds[] = {"eq", "ne", "slt", "sgt"};
    cond = add(emitValue(std::string("arith.cmpi ") + preds[src.below(4)] + ", " +
                             (src.coin() ? pid.name : nArg.name) + ", " + k.name +
                             " : i32",
                         i1));
    cond.lo = 0, cond.hi = 1;
  }
  std::vector<VType> types;
  unsigned nres = unsigned(src.range(0, 2));
  for (unsigned i = 0; i < nres; ++i)
    if (Val *v = pick([](const Val &v) { return true; }))
      types.push_back(v->type);
  std::vector<std::string> names;
  std::string tys;
  for (size_t i = 0; i < types.size(); ++i) {
    names.push_back(fresh());
    tys += (i ? ", " : "") + typeStr(types[i]);
  }
  std::string head = names.empty() ? "" : llvm::join(names, ", ") + " = ";
  head += "scf.if " + cond.name;
  if (!types.empty())
    head += " -> (" + tys + ")";
  head += " {";
  line(head);
  std::vector<Val> results(types.size());
  for (unsigned branch = 0; branch < 2; ++branch) {
    if (branch == 1) {
      if (types.empty() && src.coin()) {
        // no else region
        break;
      }
      body += std::string(2 * (indent), ' ') + "} else {\n";
    }
    ++indent;
    size_t mark = pool.size();
    unsigned steps = unsigned(src.range(1, 4));
    for (unsigned i = 0; i < steps; ++i)
      genStep(depth + 1);
    std::vector<std::string> ys;
    for (size_t i = 0; i < types.size(); ++i) {
      Val y = materialize(types[i]);
      ys.push_back(y.name);
      if (branch == 0) {
        results[i] = y;
      } else {
        Val &r = results[i];
        r.lo = std::min(r.lo, y.lo), r.hi = std::max(r.hi, y.hi);
        r.bound = std::max(r.bound, y.bound), r.err = std::max(r.err, y.err);
        r.isConst = false;
      }
    }
    if (!ys.empty())
      line("scf.yield " + llvm::join(ys, ", ") + " : " + tys);
    pool.resize(mark);
    --indent;
  }
  line("}");
  for (size_t i = 0; i < types.size(); ++i) {
    Val r = results[i];
    r.name = names[i];
    r.type = types[i];
    r.uses = 0;
    // The condition may be a perturbed compare on the GPU only when gpuSafe
    // is off; then either branch's value is acceptable for the CPU oracle.
    add(r);
  }
}

// ---------------------------------------------------------------------------
// Driver
// ---------------------------------------------------------------------------

// scf.while counting an i32 from lb by step while it is below ub (0 to
// maxTripCount trips), carrying 0-2 values from the pool like genFor.
void ProgramGen::genWhile(unsigned depth) {
  if (depth >= pol.maxDepth) {
    genIntArith();
    return;
  }
  LoopDraw loop = drawLoop(0);
  const std::vector<Val> &inits = loop.inits;
  int64_t trips = loop.trips, lb = loop.lb, step = loop.step;
  const Val &lbv = loop.lbv, &ubv = loop.ubv, &stv = loop.stv;
  VType i32{Elem::I32, {}};
  std::string types = "i32";
  for (const Val &v : inits)
    types += ", " + typeStr(v.type);
  // Names: results, the before region's arguments, the after region's.
  std::vector<std::string> res, before, after;
  for (size_t i = 0; i <= inits.size(); ++i) {
    res.push_back(fresh());
    before.push_back(fresh("w"));
    after.push_back(fresh("d"));
  }
  std::string head = llvm::join(res, ", ") + " = scf.while (" + before[0] +
                     " = " + lbv.name;
  for (size_t i = 0; i < inits.size(); ++i)
    head += ", " + before[i + 1] + " = " + inits[i].name;
  line(head + ") : (" + types + ") -> (" + types + ") {");
  ++indent;
  std::string c = fresh();
  line(c + " = arith.cmpi slt, " + before[0] + ", " + ubv.name + " : i32");
  line("scf.condition(" + c + ") " + llvm::join(before, ", ") + " : " + types);
  --indent;
  line("} do {");
  ++indent;
  std::string header = "^bb0(" + after[0] + ": i32";
  for (size_t i = 0; i < inits.size(); ++i)
    header += ", " + after[i + 1] + ": " + typeStr(inits[i].type);
  body += std::string(2 * (indent - 1), ' ') + header + "):\n";
  size_t mark = pool.size();
  Val counter;
  counter.name = after[0], counter.type = i32, counter.lo = lb,
  counter.hi = lb + std::max<int64_t>(0, trips - 1) * step;
  add(counter);
  std::vector<Val> carried;
  for (size_t i = 0; i < inits.size(); ++i)
    carried.push_back(carriedInBody(inits[i], after[i + 1], trips));
  unsigned steps = unsigned(src.range(1, 4));
  for (unsigned i = 0; i < steps; ++i)
    genStep(depth + 1);
  std::string next = fresh();
  line(next + " = arith.addi " + after[0] + ", " + stv.name + " : i32");
  std::vector<std::string> yields = {next};
  for (const Val &c : carried)
    yields.push_back(yieldValue(c));
  line("scf.yield " + llvm::join(yields, ", ") + " : " + types);
  pool.resize(mark);
  --indent;
  line("}");
  Val count;
  count.name = res[0], count.type = i32;
  count.lo = count.hi = lb + trips * step;
  add(count);
  for (size_t i = 0; i < carried.size(); ++i) {
    Val r = carried[i];
    r.name = res[i + 1];
    r.bound = std::max(r.bound, inits[i].bound); // zero trips: the init
    r.err = std::max(r.err, inits[i].err);
    add(r);
  }
}

// Ops that move elements between positions by data or at the compiler's
// choice. tt.cat may order its result as it likes (Triton does), so a cat
// of 1-D tensors is folded at once by a commutative reduction, whose result
// does not depend on the order.
void ProgramGen::genPermute() {
  VType i32{Elem::I32, {}};
  switch (src.below(3)) {
  case 0: { // gather along an axis with indices masked into range
    Val *pa = pick([](const Val &v) {
      return !v.type.shape.empty() && !v.type.isPtr && v.type.elem != Elem::I1;
    });
    if (!pa)
      break;
    Val a = *pa;
    const Shape &s = a.type.shape;
    unsigned axis = unsigned(src.below(s.size()));
    // The indices' shape: the source's off the axis (Triton's rule), any
    // power of two along it (within the size limit).
    Shape is = s;
    is[axis] = int64_t(1) << src.below(5);
    while (numel(is) > (int64_t(1) << pol.maxLog2Numel))
      is[axis] /= 2;
    if (is[axis] == 0)
      is[axis] = 1;
    VType it{Elem::I32, is};
    Val raw = materialize(it);
    Val mask = constInt(s[axis] - 1, it);
    Val idx = binary("arith.andi", raw, mask, it);
    idx.lo = 0, idx.hi = s[axis] - 1;
    add(idx);
    VType rt = a.type;
    rt.shape = is;
    Val r = emitValue("tt.gather " + a.name + "[" + idx.name + "] {axis = " +
                          std::to_string(axis) + " : i32} : (" +
                          typeStr(a.type) + ", " + typeStr(it) + ") -> " +
                          typeStr(rt),
                      rt);
    r.lo = a.lo, r.hi = a.hi, r.bound = a.bound, r.err = a.err;
    add(r);
    return;
  }
  case 1: { // histogram of a 1-D i32 tensor, values masked into the bins
    Val *pa = pick([](const Val &v) {
      return v.type.shape.size() == 1 && v.type.elem == Elem::I32 &&
             !v.type.isPtr;
    });
    unsigned log2 = std::min<unsigned>(4 + unsigned(src.below(4)), pol.maxLog2Numel);
    Val a = pa ? *pa : materialize(VType{Elem::I32, {int64_t(1) << log2}});
    int64_t bins = int64_t(2) << src.below(7);
    Val mask = constInt(bins - 1, a.type);
    Val in = binary("arith.andi", a, mask, a.type);
    in.lo = 0, in.hi = bins - 1;
    add(in);
    VType rt{Elem::I32, {bins}};
    Val r = emitValue("tt.histogram " + in.name + " : " + typeStr(a.type) +
                          " -> " + typeStr(rt),
                      rt);
    r.lo = 0, r.hi = a.type.shape[0];
    add(r);
    return;
  }
  default: { // cat of two 1-D tensors, reduced
    Val *pa = pick([&](const Val &v) {
      return v.type.shape.size() == 1 && !v.type.isPtr &&
             v.type.shape[0] * 2 <= (int64_t(1) << pol.maxLog2Numel);
    });
    if (!pa)
      break;
    Val a = *pa;
    Val b = materialize(a.type);
    VType ct = a.type;
    ct.shape = {a.type.shape[0] * 2};
    Val c = emitValue("tt.cat " + a.name + ", " + b.name + " : " +
                          typeStr(a.type) + " -> " + typeStr(ct),
                      ct);
    c.lo = std::min(a.lo, b.lo), c.hi = std::max(a.hi, b.hi);
    c.bound = std::max(a.bound, b.bound), c.err = std::max(a.err, b.err);
    // Not added to the pool: only the reduction may see its order.
    add(rescale(combineAlong(c, 0, /*scan=*/false)));
    return;
  }
  }
  genView();
}

void ProgramGen::genStep(unsigned depth) {
  unsigned weights[] = {pol.wIntArith, pol.wFloatArith, pol.wMath,   pol.wCompare,
                        pol.wCast,     pol.wView,       pol.wLoad,   pol.wReduce,
                        pol.wScan,     pol.wDot,        pol.wAtomic, pol.wFor,
                        pol.wIf,       pol.wWhile,      pol.wPermute};
  switch (src.weighted(weights)) {
  case 0: genIntArith(); break;
  case 1: genFloatArith(); break;
  case 2: genMath(); break;
  case 3: genCompare(); break;
  case 4: genCast(); break;
  case 5: genView(); break;
  case 6: genLoad(); break;
  case 7: genReduce(); break;
  case 8: genScan(); break;
  case 9: genDot(); break;
  case 10: genAtomic(); break;
  case 11: genFor(depth); break;
  case 12: genIf(depth); break;
  case 13: genWhile(depth); break;
  case 14: genPermute(); break;
  }
}

GeneratedProgram ProgramGen::run() {
  gridX = src.range(1, 3);
  gridY = src.chance(1, 4) ? 2 : 1;
  programs = gridX * gridY;
  slab = int64_t(1) << pol.maxLog2Numel;
  nValue = src.range(0, slab);

  VType i32{Elem::I32, {}};
  Arg nA;
  nA.name = "%n";
  nA.decl = "%n: i32";
  nA.launch = "i32=" + std::to_string(nValue);
  args.push_back(nA);

  // pid = pid_y * num_programs_x + pid_x; slabBase = pid * S.
  Val px = emitValue("tt.get_program_id x : i32", i32);
  if (gridY > 1) {
    Val py = emitValue("tt.get_program_id y : i32", i32);
    Val nx = emitValue("tt.get_num_programs x : i32", i32);
    Val t = binary("arith.muli", py, nx, i32);
    pid = binary("arith.addi", t, px, i32);
  } else {
    pid = px;
  }
  pid.lo = 0, pid.hi = programs - 1;
  add(pid);
  Val s = constInt(slab, i32);
  slabBase = binary("arith.muli", pid, s, i32);
  slabBase.lo = 0, slabBase.hi = (programs - 1) * slab;
  nArg.name = "%n";
  nArg.type = i32;
  nArg.lo = nArg.hi = nValue;
  add(nArg);

  genLoad();
  // The program's own length, at most the policy's (swarm testing: short
  // programs are cheap and most bugs need few ops; long ones still come).
  unsigned steps = unsigned(src.range(std::max(1u, pol.maxOps / 4), pol.maxOps));
  for (unsigned i = 0; i < steps && numOps < pol.maxOps * 8; ++i)
    genStep(0);

  // Outputs: the latest unused values first (they end the longest chains),
  // then any.
  std::vector<size_t> candidates;
  for (size_t i = pool.size(); i-- > 0;)
    if (!pool[i].type.isPtr && !pool[i].isConst && pool[i].name != nArg.name &&
        pool[i].name != pid.name && numel(pool[i].type.shape) <= slab)
      candidates.push_back(i);
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](size_t a, size_t b) { return pool[a].uses < pool[b].uses; });
  unsigned nOut = unsigned(src.range(1, std::max(1u, pol.maxOutputs)));
  std::vector<Val> stored;
  for (size_t i = 0; i < candidates.size() && stored.size() < nOut; ++i)
    stored.push_back(pool[candidates[i]]);
  if (stored.empty())
    stored.push_back(pid);
  for (const Val &v : stored)
    storeOutput(v);
  line("tt.return");

  GeneratedProgram out;
  cpu::LaunchSpec spec;
  spec.grid = {gridX, gridY, 1};
  spec.numWarps = 4;
  for (const Arg &a : args)
    spec.args.push_back(a.launch);
  out.launch = spec.str();
  std::string sig;
  for (size_t i = 0; i < args.size(); ++i)
    sig += (i ? ", " : "") + args[i].decl;
  out.ttir = "module attributes {" + std::string(kLaunchAttrName) + " = \"" +
             out.launch + "\"} {\n  tt.func public @kernel(" + sig + ") {\n" +
             body + "  }\n}\n";
  out.outputs = outputs;
  out.numOps = numOps;
  return out;
}

} // namespace

GeneratedProgram generateProgram(ByteSource &src, const GenPolicy &policy) {
  ProgramGen gen(src, policy);
  return gen.run();
}

std::string launchOf(mlir::ModuleOp module) {
  if (auto s = module->getAttrOfType<mlir::StringAttr>(kLaunchAttrName))
    return s.getValue().str();
  return "";
}

} // namespace tgpu::gen
