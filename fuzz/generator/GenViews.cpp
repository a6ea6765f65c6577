// Shape ops of the program generator (splat, expand_dims, broadcast,
// reshape, trans, join, split) and the ops that move elements by data or at
// the compiler's choice (gather, histogram, cat).
#include "fuzz/generator/ProgramGenState.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace tgpu::gen::detail {

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
    Val r = derived(emitValue(
        "tt.expand_dims " + a.name + " {axis = " + std::to_string(axis) +
            " : i32} : " + typeStr(a.type) + " -> " + typeStr(nt),
        nt));
    // Usually broadcast the new dim right away.
    if (src.chance(3, 4) && numel(s) * 2 <= (int64_t(1) << pol.maxLog2Numel)) {
      int64_t maxMul = (int64_t(1) << pol.maxLog2Numel) / numel(s);
      int64_t f = int64_t(1)
                  << src.range(1, std::max<int64_t>(1, llvm::Log2_64(maxMul)));
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
        add(derived(emitValue("tt.broadcast " + a.name + " : " +
                                  typeStr(a.type) + " -> " + typeStr(nt),
                              nt)));
        return;
      }
    break;
  }
  case 6: { // a scalar through rank-0 tensors, then splat to a shape
    // Triton 3.6's pipeline fails on rank-0 tensors: not under triton-safe.
    if (rank != 0 || a.type.isPtr || pol.tritonSafe)
      break;
    // Every step keeps the value: a splat, an identity with a rank-0
    // constant, a join with itself split back.
    std::string elem = elemName(a.type.elem);
    std::string r0 = "tensor<" + elem + ">";
    std::string cur = fresh();
    line(cur + " = tt.splat " + a.name + " : " + elem + " -> " + r0);
    if (src.coin()) {
      bool f = isFloat(a.type.elem), b1 = a.type.elem == Elem::I1;
      std::string k = fresh(), next = fresh();
      line(k + " = arith.constant dense<" +
           (f    ? "1.000000e+00"
            : b1 ? "true"
                 : "0") +
           "> : " + r0);
      line(next + " = " +
           (f    ? "arith.mulf "
            : b1 ? "arith.andi "
                 : "arith.addi ") +
           cur + ", " + k + " : " + r0);
      cur = next;
    }
    if (src.coin()) {
      std::string pair = "tensor<2x" + elem + ">", j = fresh(), l = fresh(),
                  r = fresh();
      line(j + " = tt.join " + cur + ", " + cur + " : " + r0 + " -> " + pair);
      line(l + ", " + r + " = tt.split " + j + " : " + pair + " -> " + r0);
      cur = src.coin() ? l : r;
    }
    VType nt = a.type;
    nt.shape = randomShape();
    add(derived(
        emitValue("tt.splat " + cur + " : " + r0 + " -> " + typeStr(nt), nt)));
    return;
  }
  default:
    break;
  }
  // Fallback: a make_range-based integer tensor of a fresh shape.
  Shape ns = randomShape();
  Val r = linearIndex(ns, src.coin());
  add(r);
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
    Val r = emitValue("tt.gather " + a.name + "[" + idx.name +
                          "] {axis = " + std::to_string(axis) + " : i32} : (" +
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
    unsigned log2 =
        std::min<unsigned>(4 + unsigned(src.below(4)), pol.maxLog2Numel);
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

} // namespace tgpu::gen::detail
