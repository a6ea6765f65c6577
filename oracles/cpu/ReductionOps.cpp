// Ops that fold along an axis: tt.reduce and tt.scan (their combine region
// run element by element, or lane-wise on all lines at once) and tt.dot.
#include "oracles/cpu/Program.h"

#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "llvm/ADT/ScopeExit.h"

using namespace mlir;

namespace tgpu::cpu::detail {

// The K steps a float tt.dot rounds into its accumulator after (execDot).
constexpr int64_t kDotChunk = 8;

// tt.reduce, tt.scan.
Error Program::execReduce(Operation &op, const OpHandler &h) {
  bool scan = h.kind == OpKind::Scan;
  int axis = int(op.getAttrOfType<IntegerAttr>("axis").getInt());
  bool reverse = scan && op.getAttrOfType<BoolAttr>("reverse") &&
                 op.getAttrOfType<BoolAttr>("reverse").getValue();
  std::vector<const Tensor *> ins;
  for (Value v : op.getOperands())
    ins.push_back(&get(v));
  const FoldShape fold(ins[0]->shape, axis);
  const int64_t len = fold.len, inner = fold.inner, outer = fold.outer;
  std::vector<Tensor> outs;
  for (Value v : op.getResults()) {
    Expected<Tensor> r = fresh(v);
    if (!r)
      return r.takeError();
    outs.push_back(std::move(*r));
  }
  Region &region = op.getRegion(0);
  if (options.laneWiseCombine && fold.lines() > 1 && len > 1 &&
      isLaneWise(region)) {
    // All lines at once; should that fail (undefined behaviour, the step
    // budget), the line-by-line fold below runs from the same state and
    // reports the first failure in its order.
    uint64_t stepsBefore = steps;
    if (Error e = combineLanes(op, scan, reverse, fold, ins, outs)) {
      llvm::consumeError(std::move(e));
      steps = stepsBefore;
    } else {
      for (auto [v, t] : llvm::zip(op.getResults(), outs))
        set(v, std::move(t));
      return Error::success();
    }
  }
  // Left-to-right fold along the axis (right to left for a reverse scan).
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      std::vector<Tensor> acc;
      for (int64_t step = 0; step < len; ++step) {
        int64_t j = reverse ? len - 1 - step : step;
        int64_t src = fold.at(o, j, in);
        if (step == 0) {
          acc.clear();
          for (const Tensor *t : ins)
            acc.push_back(scalarOf(*t, src));
        } else {
          std::vector<Tensor> args = acc;
          for (const Tensor *t : ins)
            args.push_back(scalarOf(*t, src));
          Expected<std::vector<Tensor>> r = runRegion(region, std::move(args));
          if (!r)
            return r.takeError();
          acc = std::move(*r);
        }
        if (scan)
          for (size_t q = 0; q < outs.size(); ++q)
            copyElem(outs[q], src, acc[q], 0);
      }
      if (!scan)
        for (size_t q = 0; q < outs.size(); ++q)
          copyElem(outs[q], o * inner + in, acc[q], 0);
    }
  for (auto [v, t] : llvm::zip(op.getResults(), outs))
    set(v, std::move(t));
  return Error::success();
}

// A combine region runs lane-wise when it is one block of element-wise
// arith ops on the block's arguments and on each other: each op then
// computes every lane exactly as it would the scalar, and nothing else
// (memory, control flow, calls) happens. A region that reads a value from
// outside (a scalar of the function: valid IR, what a mutant or a
// hand-written combine may do) runs element by element, since that value
// has one lane.
bool Program::isLaneWise(Region &region) {
  auto [it, inserted] = laneWise.try_emplace(&region, false);
  if (!inserted)
    return it->second;
  if (!region.hasOneBlock())
    return false;
  for (Operation &op : region.front()) {
    for (Value operand : op.getOperands())
      if (operand.getParentRegion() != &region)
        return false;
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    OpKind kind = handlerOf(op).kind;
    if (kind < OpKind::FirstArith || kind > OpKind::LastArith ||
        op.getNumRegions() || op.getNumResults() != 1 ||
        isa<ShapedType>(op.getResult(0).getType()))
      return false;
  }
  it->second = true;
  return true;
}

// The reduction or scan of execReduce with the combine region run once per
// step along the axis on all lines (outer x inner) together, as 1-D tensors.
Error Program::combineLanes(Operation &op, bool scan, bool reverse,
                            const FoldShape &fold,
                            llvm::ArrayRef<const Tensor *> ins,
                            std::vector<Tensor> &outs) {
  const int64_t len = fold.len, lines = fold.lines();
  Region &region = op.getRegion(0);
  // The scalar fold counts one step per op and element.
  uint64_t extraSteps =
      uint64_t(lines - 1) * region.front().getOperations().size();
  auto column = [&](const Tensor &t, int64_t j) {
    Tensor c;
    c.type = t.type;
    c.shape = {lines};
    c.resize(lines);
    for (int64_t o = 0, k = 0; o < fold.outer; ++o)
      for (int64_t in = 0; in < fold.inner; ++in, ++k)
        copyElem(c, k, t, fold.at(o, j, in));
    return c;
  };
  auto scatter = [&](const std::vector<Tensor> &acc, int64_t j) {
    for (size_t q = 0; q < outs.size(); ++q)
      for (int64_t o = 0, k = 0; o < fold.outer; ++o)
        for (int64_t in = 0; in < fold.inner; ++in, ++k)
          copyElem(outs[q], scan ? fold.at(o, j, in) : k, acc[q], k);
  };
  std::vector<Tensor> acc;
  int64_t saved = lanes;
  lanes = lines;
  llvm::scope_exit restore([&] { lanes = saved; });
  for (int64_t step = 0; step < len; ++step) {
    int64_t j = reverse ? len - 1 - step : step;
    if (step == 0) {
      for (const Tensor *t : ins)
        acc.push_back(column(*t, j));
    } else {
      std::vector<Tensor> args = std::move(acc);
      for (const Tensor *t : ins)
        args.push_back(column(*t, j));
      steps += extraSteps;
      Expected<std::vector<Tensor>> r = runRegion(region, std::move(args));
      if (!r)
        return r.takeError();
      acc = std::move(*r);
      if (acc.size() != outs.size())
        return plainError("combine region returns the wrong number of values");
      for (const Tensor &t : acc)
        if (t.numel() != lines)
          return plainError("combine region result is not lane-wise");
    }
    if (scan)
      scatter(acc, j);
  }
  if (!scan)
    scatter(acc, 0);
  return Error::success();
}

// tt.dot, ttng.warp_group_dot.
Error Program::execDot(Operation &op, const OpHandler &) {
  const Tensor &a = get(op.getOperand(0)), &b = get(op.getOperand(1)),
               &c = get(op.getOperand(2));
  // Operands may be memdescs (warp_group_dot): read them out first. The
  // first element a pending async copy will still write, else the first
  // never written, is reported.
  bool unwritten = false;
  int64_t unwrittenAt = -1;
  uint32_t pending = 0;
  auto materialize = [&](const Tensor &t) -> Tensor {
    if (t.type.kind != ElemType::MemDesc)
      return t;
    Tensor r;
    r.type.kind = isFloatKind(t.type.pointee) ? ElemType::Float : ElemType::Int;
    r.type.bits = byteSize(t.type.pointee) * 8;
    r.type.bf16 = t.type.pointee == ScalarKind::BF16;
    r.type.e4m3 = t.type.pointee == ScalarKind::F8E4M3FN;
    r.shape = t.shape;
    r.resize(r.numel());
    SharedAlloc &al = shared[t.alloc];
    IndexWalker walk(t.shape);
    for (int64_t k = 0; k < r.numel(); ++k, walk.next()) {
      int64_t at = sharedIndex(t, walk.get());
      if (!pending && (pending = al.pendingAt(at)))
        unwrittenAt = k;
      if (!al.written[at] && !unwritten && !pending) {
        unwritten = true;
        unwrittenAt = k;
      }
      if (r.type.isFloat())
        r.f[k] = al.f[at];
      else
        r.i[k] = al.i[at];
    }
    return r;
  };
  Tensor A = materialize(a);
  if (pending)
    return pendingCopyUB(op, false, "operand A reads shared memory", pending,
                         &A, unwrittenAt);
  if (unwritten)
    return ub(&op, "uninitialized-shared-read",
              "operand A reads shared memory before it was written", &A,
              unwrittenAt);
  Tensor B = materialize(b);
  if (pending)
    return pendingCopyUB(op, false, "operand B reads shared memory", pending,
                         &B, unwrittenAt);
  if (unwritten)
    return ub(&op, "uninitialized-shared-read",
              "operand B reads shared memory before it was written", &B,
              unwrittenAt);
  Tensor r = c;
  // warp_group_dot's useC: false computes A * B alone (C is not read).
  bool useC = true;
  if (auto wgd = dyn_cast<triton::nvidia_gpu::WarpGroupDotOp>(op))
    if (Value flag = wgd.getUseC())
      useC = get(flag).i[0] != 0;
  size_t rank = c.shape.size();
  int64_t M = c.shape[rank - 2], N = c.shape[rank - 1], K = A.shape[rank - 1];
  int64_t batch = c.numel() / (M * N);
  for (int64_t bt = 0; bt < batch; ++bt)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        int64_t ci = (bt * M + m) * N + n;
        if (c.type.isFloat()) {
          // Exact products, summed in double a chunk of kDotChunk along K
          // at a time, each chunk's sum rounded into the accumulator's
          // type. A pass that splits the dot along K at multiples of the
          // chunk (tritongpu-prefetch's slices of 16 or 8) then computes
          // exactly the same sums and roundings, so every pass's output
          // can be compared bit for bit (tensor cores also round into the
          // accumulator per instruction step).
          double acc = useC ? c.f[ci] : 0.0;
          for (int64_t k0 = 0; k0 < K; k0 += kDotChunk) {
            double sum = acc;
            for (int64_t k = k0; k < std::min(K, k0 + kDotChunk); ++k)
              sum += A.f[(bt * M + m) * K + k] * B.f[(bt * K + k) * N + n];
            acc = roundTo(c.type, sum);
          }
          r.f[ci] = K ? acc : roundTo(c.type, acc);
        } else {
          uint64_t sum = useC ? c.i[ci] : 0;
          for (int64_t k = 0; k < K; ++k)
            sum += uint64_t(sext(A.i[(bt * M + m) * K + k], A.type.bits) *
                            sext(B.i[(bt * K + k) * N + n], B.type.bits));
          r.i[ci] = maskBits(sum, c.type.bits);
        }
      }
  set(op.getResult(0), std::move(r));
  return Error::success();
}

} // namespace tgpu::cpu::detail
