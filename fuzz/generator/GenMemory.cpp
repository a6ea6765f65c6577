// Memory ops of the program generator: the input buffers (one slab per
// program each), in-bounds offsets and the pointers built from them, masks,
// loads (plain, masked, masked with `other`), the output stores and
// tt.atomic_rmw into a buffer of its own.
#include "fuzz/generator/ProgramGenState.h"

#include <algorithm>

namespace tgpu::gen::detail {

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
  a.launch = std::string("ptr:") + elemName(e) +
             "=rand:" + std::to_string(programs * slab) + ":" +
             std::to_string(idx + 1 + src.below(1000));
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
      r = emitValue("tt.expand_dims " + r.name +
                        " {axis = " + std::to_string(axis) + " : i32} : " +
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
Val ProgramGen::offsetsInSlab(const Shape &shape, bool injective,
                              int64_t slabSize) {
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
  static const Elem elems[] = {Elem::F32, Elem::F32,  Elem::F16, Elem::I32,
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
    v.lo = std::min<int64_t>(-8, other.lo),
    v.hi = std::max<int64_t>(7, other.hi);
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
    a.launch = std::string("ptr:") + elemName(e) +
               "=zeros:" + std::to_string(programs);
    args.push_back(a);
    Val p = emitValue("tt.addptr " + a.name + ", " + pid.name + " : " +
                          typeStr(sp) + ", i32",
                      sp);
    line("tt.store " + p.name + ", " + v.name + " : " + typeStr(sp));
  } else {
    a.launch = std::string("ptr:") + elemName(e) +
               "=zeros:" + std::to_string(programs * slab);
    args.push_back(a);
    Val off = offsetsInSlab(v.type.shape, true, slab);
    Val ptrs = pointersInto(idx, off, true);
    if (src.chance(1, 3)) {
      Val m = maskFor(v.type.shape);
      line("tt.store " + ptrs.name + ", " + v.name + ", " + m.name + " : " +
           typeStr(ptrs.type));
    } else {
      line("tt.store " + ptrs.name + ", " + v.name + " : " +
           typeStr(ptrs.type));
    }
  }
  outputs.push_back(spec);
}

void ProgramGen::genAtomic() {
  if (src.chance(1, 3))
    return genFloatAtomicAdd();
  if (src.chance(1, 4))
    return genAtomicCas();
  Shape shape = pickShape();
  VType t{Elem::I32, shape};
  Val val = materialize(t);
  // Its own buffer: programs collide on purpose, and commutative,
  // associative kinds make the result independent of the order.
  static const char *kinds[] = {"add",  "max", "min", "umax",
                                "umin", "and", "or",  "xor"};
  const char *kind = kinds[src.below(8)];
  int64_t size = int64_t(1) << src.range(2, 7);
  unsigned idx = addOutputBuffer("%acc", Elem::I32, false,
                                 "ptr:i32=rand:" + std::to_string(size) + ":" +
                                     std::to_string(args.size() + 1));
  // offsetsInSlab may have used a linear index larger than the buffer.
  Val off = maskedBy(offsetsInSlab(shape, false, size), size - 1);
  Val ptrs = pointersInto(idx, off, false);
  emitAtomicRmw(kind, "relaxed", ptrs, val, src.coin());
}

// A buffer the kernel writes, an output of the program: its argument (with
// tt.divisibility = 16 when `aligned`) and its launch initializer. Returns
// the argument's index.
unsigned ProgramGen::addOutputBuffer(const std::string &prefix, Elem e,
                                     bool aligned, const std::string &launch) {
  unsigned idx = unsigned(args.size());
  Arg a;
  a.name = prefix + std::to_string(outputs.size());
  a.pointee = e;
  a.decl = a.name + ": !tt.ptr<" + elemName(e) + ">" +
           (aligned ? " {tt.divisibility = 16 : i32}" : "");
  a.launch = launch;
  args.push_back(a);
  OutputSpec spec;
  spec.argIndex = idx;
  spec.elementType = elemName(e);
  outputs.push_back(spec);
  return idx;
}

// `v & m`, elementwise.
Val ProgramGen::maskedBy(const Val &v, int64_t m) {
  Val c = constInt(m, v.type);
  return emitValue(
      "arith.andi " + v.name + ", " + c.name + " : " + typeStr(v.type), v.type);
}

// `tt.atomic_rmw kind, sem, gpu` of `val` at `ptrs`, under a random mask
// when `masked`; the old values are not used (order-dependent).
void ProgramGen::emitAtomicRmw(const std::string &kind, const std::string &sem,
                               const Val &ptrs, const Val &val, bool masked) {
  const Shape &shape = val.type.shape;
  std::string operands = ptrs.name + ", " + val.name;
  std::string types = typeStr(ptrs.type) + ", " + typeStr(val.type);
  if (masked) {
    Val mask = maskFor(shape);
    operands += ", " + mask.name;
    types += ", " + typeStr(VType{Elem::I1, shape});
  }
  emitValue("tt.atomic_rmw " + kind + ", " + sem + ", gpu, " + operands +
                " : (" + types + ") -> " + typeStr(val.type),
            val.type);
}

// tt.atomic_rmw fadd of small non-negative integers (0..7) into a zeroed
// buffer aligned to 16 bytes (contiguous offsets become .v2/.v4/.v8 atomics
// on sm_90): every partial sum is an integer the type holds exactly, so the
// result does not depend on the order the adds land in. f32 takes colliding
// offsets like the integer kinds; f16 and bf16 (exact only up to 2048 and
// 256) take offsets injective within a program, so a slot sees at most one
// add per program.
void ProgramGen::genFloatAtomicAdd() {
  static const Elem types[] = {Elem::F32, Elem::F16, Elem::BF16};
  Elem e = types[src.below(3)];
  Shape shape = pickShape();
  VType it{Elem::I32, shape}, t{e, shape};
  Val small = maskedBy(materialize(it), 7);
  Val val = emitValue("arith.sitofp " + small.name + " : " + typeStr(it) +
                          " to " + typeStr(t),
                      t);
  bool injective = e != Elem::F32;
  int64_t size = int64_t(1) << src.range(2, 7);
  while (injective && size < numel(shape))
    size *= 2;
  unsigned idx = addOutputBuffer("%acc", e, true,
                                 std::string("ptr:") + elemName(e) +
                                     "=zeros:" + std::to_string(size));
  // Half the time plain row-major offsets, the contiguous runs that vector
  // atomics need.
  Val off = src.coin() ? linearIndex(shape, false)
                       : offsetsInSlab(shape, injective, size);
  if (!injective) // offsetsInSlab may have used a linear index past the buffer
    off = maskedBy(off, size - 1);
  Val ptrs = pointersInto(idx, off, false);
  std::string sem = src.coin() ? "relaxed" : "acq_rel";
  bool masked = src.coin();
  emitAtomicRmw("fadd", sem, ptrs, val, masked);
}

// tt.atomic_cas on i32 over injective offsets in the program's own slab: each
// element is compared and swapped once, so its old value is the buffer's
// initial one, in [-8, 7], and joins the pool. The compared values are
// masked into [0, 7], so some of the swaps happen.
void ProgramGen::genAtomicCas() {
  Shape shape = pickShape();
  VType t{Elem::I32, shape};
  std::string ty = typeStr(t);
  Val cmp = maskedBy(materialize(t), 7);
  Val val = materialize(t);
  unsigned idx =
      addOutputBuffer("%cas", Elem::I32, false,
                      "ptr:i32=rand:" + std::to_string(programs * slab) + ":" +
                          std::to_string(args.size() + 1));
  Val off = offsetsInSlab(shape, true, slab);
  Val ptrs = pointersInto(idx, off, true);
  std::string sem = src.coin() ? "relaxed" : "acq_rel";
  Val old =
      emitValue("tt.atomic_cas " + sem + ", gpu, " + ptrs.name + ", " +
                    cmp.name + ", " + val.name + " : (" + typeStr(ptrs.type) +
                    ", " + ty + ", " + ty + ") -> " + ty,
                t);
  old.lo = -8, old.hi = 7, old.bound = 1;
  add(old);
}

} // namespace tgpu::gen::detail
