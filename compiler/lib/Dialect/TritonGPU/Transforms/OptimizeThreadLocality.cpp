// tritongpu-optimize-thread-locality: a loop's running reduction stays
// within each thread until after the loop; reshapes feeding reductions and
// gathers get layouts that keep their data within threads or warps.
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/Transforms/LayoutUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUOPTIMIZETHREADLOCALITY
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

SmallVector<unsigned> descendingDims(unsigned rank) {
  SmallVector<unsigned> dims;
  for (unsigned d = rank; d-- > 0;)
    dims.push_back(d);
  return dims;
}

// Shapes, lanes and warps as the IR may (mis)state them.
bool isPowerOfTwoCount(int64_t n) {
  return n > 0 && llvm::isPowerOf2_64(uint64_t(n));
}

bool hasPowerOfTwoShape(RankedTensorType type) {
  return llvm::all_of(type.getShape(), isPowerOfTwoCount);
}

// A reshape that may reorder elements and feeds reductions along one axis:
// lay its result out with that axis inside each thread (Triton's default
// blocked layout of one element per thread, the axis slowest), as long as
// the reshape stays a view of the registers, then convert back.
struct ThreadLocalReshapeForReduce : OpRewritePattern<tt::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tt::ReshapeOp view,
                                PatternRewriter &rewriter) const override {
    if (!view.getAllowReorder())
      return failure();
    std::optional<unsigned> axis;
    for (Operation *user : view->getUsers())
      if (auto reduce = dyn_cast<tt::ReduceOp>(user)) {
        if (axis && *axis != reduce.getAxis())
          return failure();
        axis = reduce.getAxis();
      }
    auto type = cast<RankedTensorType>(view.getType());
    auto srcType = cast<RankedTensorType>(view.getSrc().getType());
    unsigned rank = type.getRank();
    if (!axis || *axis >= rank || !type.getEncoding() ||
        !hasPowerOfTwoShape(type))
      return failure();
    if (auto blocked = dyn_cast<ttg::BlockedEncodingAttr>(type.getEncoding())) {
      if (!blocked.getCgaBases().empty())
        return failure();
      if (blocked.getThreadsPerWarp()[*axis] == 1 &&
          blocked.getWarpsPerCTA()[*axis] == 1)
        return failure(); // already within threads
    }
    SmallVector<unsigned> registers =
        mlir::tgpu::getInDimOrder(type, "register", descendingDims(rank));
    if (registers.empty())
      return failure();
    SmallVector<unsigned> order;
    for (unsigned d : registers)
      if (d != *axis)
        order.push_back(d);
    order.push_back(*axis);
    int warps = ttg::lookupNumWarps(view);
    int lanes = ttg::lookupThreadsPerWarp(view);
    if (!isPowerOfTwoCount(warps) || !isPowerOfTwoCount(lanes))
      return failure();
    SmallVector<unsigned> sizePerThread(rank, 1);
    Attribute encoding = ttg::getBlockedEncoding(
        getContext(), type.getShape(), sizePerThread, order, warps, lanes);
    if (encoding == type.getEncoding())
      return failure();
    auto newType = type.cloneWithEncoding(encoding);
    if (ttg::viewMovesData(srcType, newType))
      return failure();
    rewriter.modifyOpInPlace(view, [&] {
      view.getResult().setType(newType);
      view.setEfficientLayout(true);
    });
    rewriter.setInsertionPointAfter(view);
    auto back = ttg::ConvertLayoutOp::create(rewriter, view.getLoc(), type,
                                             view.getResult());
    rewriter.replaceAllUsesExcept(view.getResult(), back.getResult(), back);
    return success();
  }
};

// A gather gets a blocked layout in which the gathered axis lies within
// each warp (lanes first, then registers), so that the lowering can
// exchange the elements with warp shuffles: the other dims take the lanes
// left over in the source's lane order and the warps in its warp order;
// lanes and warps still left over repeat along the axis.
struct WarpLocalGather : OpRewritePattern<tt::GatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tt::GatherOp gather,
                                PatternRewriter &rewriter) const override {
    if (gather.getEfficientLayout())
      return failure();
    auto srcType = cast<RankedTensorType>(gather.getSrc().getType());
    auto idxType = cast<RankedTensorType>(gather.getIndices().getType());
    auto resultType = cast<RankedTensorType>(gather.getType());
    unsigned rank = srcType.getRank();
    unsigned axis = gather.getAxis();
    if (rank < 2 || axis >= rank || !hasPowerOfTwoShape(srcType))
      return failure();
    if (auto blocked =
            dyn_cast_or_null<ttg::BlockedEncodingAttr>(srcType.getEncoding());
        blocked && !blocked.getCgaBases().empty())
      return failure();
    SmallVector<unsigned> registers =
        mlir::tgpu::getInDimOrder(srcType, "register", descendingDims(rank));
    if (registers.empty())
      return failure();
    SmallVector<unsigned> lanesOrder =
        mlir::tgpu::getInDimOrder(srcType, "lane", registers);
    SmallVector<unsigned> warpsOrder =
        mlir::tgpu::getInDimOrder(srcType, "warp", registers);
    if (lanesOrder.empty() || warpsOrder.empty())
      return failure();
    ArrayRef<int64_t> shape = srcType.getShape();
    int64_t lanes = ttg::lookupThreadsPerWarp(gather);
    int64_t warps = ttg::lookupNumWarps(gather);
    if (!isPowerOfTwoCount(lanes) || !isPowerOfTwoCount(warps))
      return failure();
    SmallVector<unsigned> order{axis}, sizePerThread(rank, 1),
        threadsPerWarp(rank, 1), warpsPerCTA(rank, 1);
    threadsPerWarp[axis] = std::min(shape[axis], lanes);
    int64_t lanesLeft = lanes / threadsPerWarp[axis];
    for (unsigned d : lanesOrder) {
      if (d == axis)
        continue;
      order.push_back(d);
      threadsPerWarp[d] = std::min(shape[d], lanesLeft);
      lanesLeft /= threadsPerWarp[d];
    }
    int64_t warpsLeft = warps;
    for (unsigned d : warpsOrder) {
      if (d == axis)
        continue;
      warpsPerCTA[d] = std::min(shape[d] / threadsPerWarp[d], warpsLeft);
      warpsLeft /= warpsPerCTA[d];
    }
    sizePerThread[axis] = shape[axis] / threadsPerWarp[axis];
    threadsPerWarp[axis] *= lanesLeft;
    warpsPerCTA[axis] *= warpsLeft;
    auto encoding = ttg::BlockedEncodingAttr::get(getContext(), sizePerThread,
                                                  threadsPerWarp, warpsPerCTA,
                                                  order, ArrayRef<int32_t>{});
    Location loc = gather.getLoc();
    rewriter.setInsertionPoint(gather);
    Value src = ttg::ConvertLayoutOp::create(
        rewriter, loc, srcType.cloneWithEncoding(encoding), gather.getSrc());
    Value indices = ttg::ConvertLayoutOp::create(
        rewriter, loc, idxType.cloneWithEncoding(encoding),
        gather.getIndices());
    rewriter.setInsertionPointAfter(gather);
    auto back = ttg::ConvertLayoutOp::create(rewriter, loc, resultType,
                                             gather.getResult());
    rewriter.replaceAllUsesExcept(gather.getResult(), back.getResult(), back);
    rewriter.modifyOpInPlace(gather, [&] {
      gather.getSrcMutable().assign(src);
      gather.getIndicesMutable().assign(indices);
      gather.getResult().setType(resultType.cloneWithEncoding(encoding));
      gather.setEfficientLayout(true);
    });
    return success();
  }
};

// A loop-carried reduction `acc = acc (+) reduce(load, last axis)` with
// (+) one of addf, mulf, maximumf, maxnumf, minimumf, minnumf: what the
// rewrite needs to know about it.
struct RunningReduction {
  tt::ReduceOp reduce;
  Operation *combiner; // the op of the reduce's region
  Operation *update;   // acc (+) reduce
  scf::ForOp loop;
  unsigned iterArg; // the accumulator's iter_arg number
  int64_t elemsPerThread;
};

bool isFloatCombiner(Operation *op) {
  return isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MaxNumFOp,
             arith::MinimumFOp, arith::MinNumFOp>(op);
}

// Triton's conditions, plus the ones Triton only asserts (or assumes): one
// operand; the region combines its two arguments; the update is the same
// operation as the combiner, on the accumulator's own iter_arg (the
// rewrite reassociates the combiner, which is only right when the update
// is that combiner).
std::optional<RunningReduction> matchRunningReduction(tt::ReduceOp reduce) {
  if (reduce.getSrcs().size() != 1 || reduce->getNumResults() != 1)
    return std::nullopt;
  Block &block = reduce.getCombineOp().front();
  if (block.getOperations().size() != 2 || block.getNumArguments() != 2)
    return std::nullopt;
  Operation *combiner = &block.front();
  Value lhs = block.getArgument(0), rhs = block.getArgument(1);
  if (!isFloatCombiner(combiner) ||
      !((combiner->getOperand(0) == lhs && combiner->getOperand(1) == rhs) ||
        (combiner->getOperand(0) == rhs && combiner->getOperand(1) == lhs)) ||
      block.getTerminator()->getOperands() != combiner->getResults())
    return std::nullopt;
  auto type = cast<RankedTensorType>(reduce.getSrcs()[0].getType());
  auto blocked = dyn_cast_or_null<ttg::BlockedEncodingAttr>(type.getEncoding());
  unsigned rank = type.getRank();
  unsigned axis = reduce.getAxis();
  if (!blocked || !blocked.getCgaBases().empty() || rank < 2 ||
      axis != rank - 1 || !hasPowerOfTwoShape(type) ||
      !reduce.getSrcs()[0].getDefiningOp<tt::LoadOp>())
    return std::nullopt;
  SmallVector<int64_t> perThread = mlir::tgpu::getElemsPerThreadPerDim(type);
  if (perThread.size() != rank || perThread[axis] == 1 ||
      type.getDimSize(axis) % perThread[axis] != 0)
    return std::nullopt;
  if (!reduce->hasOneUse())
    return std::nullopt;
  Operation *update = *reduce->getUsers().begin();
  if (update->getName() != combiner->getName() ||
      update->getNumOperands() != 2 || !update->hasOneUse())
    return std::nullopt;
  auto loop = dyn_cast<scf::ForOp>(reduce->getParentOp());
  OpOperand &yielded = *update->getUses().begin();
  if (!loop || yielded.getOwner() != loop.getBody()->getTerminator())
    return std::nullopt;
  unsigned k = yielded.getOperandNumber();
  Value acc = update->getOperand(0) == reduce->getResult(0)
                  ? update->getOperand(1)
                  : update->getOperand(0);
  if (acc != loop.getRegionIterArgs()[k] ||
      !loop.getInitArgs()[k].getDefiningOp<arith::ConstantOp>() ||
      !loop.getResult(k).hasOneUse())
    return std::nullopt;
  return RunningReduction{reduce, combiner, update, loop, k, perThread[axis]};
}

// The identity of the combiner, in Triton's choice: +0.0 for addf (-0.0
// would be the exact identity; Triton starts from +0.0), 1.0, -inf for the
// maxima, +inf for the minima.
TypedAttr neutralElement(Operation *combiner, FloatType type) {
  const llvm::fltSemantics &sem = type.getFloatSemantics();
  llvm::APFloat value = llvm::APFloat::getZero(sem);
  if (isa<arith::MulFOp>(combiner))
    value = llvm::APFloat::getOne(sem);
  else if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combiner))
    value = llvm::APFloat::getInf(sem, /*Negative=*/true);
  else if (isa<arith::MinimumFOp, arith::MinNumFOp>(combiner))
    value = llvm::APFloat::getInf(sem, /*Negative=*/false);
  return FloatAttr::get(type, value);
}

// acc = acc (+) reduce(x, axis) becomes, with e = the elements a thread
// holds along the axis: x viewed as [..., n / e, e] with the e elements in
// each thread, partial = reduce(view, last axis) within threads,
// acc' = acc' (+) partial in a new iter_arg starting from the identity;
// after the loop, acc (+) convert(reduce(acc', axis)). The old reduce and
// update stay (dead) and the old iter_arg passes through, for canonicalize.
void makeThreadLocal(RunningReduction &r) {
  tt::ReduceOp reduce = r.reduce;
  MLIRContext *ctx = reduce.getContext();
  Location loc = reduce.getLoc();
  Value src = reduce.getSrcs()[0];
  auto type = cast<RankedTensorType>(src.getType());
  auto blocked = cast<ttg::BlockedEncodingAttr>(type.getEncoding());
  auto elementType = cast<FloatType>(type.getElementType());
  unsigned rank = type.getRank(), axis = reduce.getAxis();

  SmallVector<int64_t> viewShape(type.getShape());
  viewShape.push_back(r.elemsPerThread);
  viewShape[axis] /= r.elemsPerThread;
  SmallVector<unsigned> sizePerThread(blocked.getSizePerThread());
  sizePerThread.push_back(sizePerThread[axis]);
  sizePerThread[axis] = 1;
  SmallVector<unsigned> threadsPerWarp(blocked.getThreadsPerWarp());
  threadsPerWarp.push_back(1);
  SmallVector<unsigned> warpsPerCTA(blocked.getWarpsPerCTA());
  warpsPerCTA.push_back(1);
  SmallVector<unsigned> order{rank};
  llvm::append_range(order, blocked.getOrder());
  auto viewEncoding =
      ttg::BlockedEncodingAttr::get(ctx, sizePerThread, threadsPerWarp,
                                    warpsPerCTA, order, ArrayRef<int32_t>{});
  auto viewType = RankedTensorType::get(viewShape, elementType, viewEncoding);
  auto partialType = RankedTensorType::get(
      ArrayRef<int64_t>(viewShape).drop_back(), elementType,
      ttg::SliceEncodingAttr::get(ctx, rank, viewEncoding));

  Value oldInit = r.loop.getInitArgs()[r.iterArg];
  OpBuilder b(ctx);
  b.setInsertionPointAfter(oldInit.getDefiningOp());
  Value identity = arith::ConstantOp::create(
      b, loc, partialType,
      DenseElementsAttr::get(partialType,
                             neutralElement(r.combiner, elementType)));

  SmallVector<std::tuple<Value, Value>> replacements;
  scf::ForOp loop =
      mlir::tgpu::appendLoopIterArgs(b, r.loop, {identity}, replacements);
  for (auto [oldValue, newValue] : replacements)
    oldValue.replaceAllUsesWith(newValue);
  r.loop.erase();
  Value partialAcc = loop.getRegionIterArgs().back();

  b.setInsertionPointAfter(reduce);
  auto view = tt::ReshapeOp::create(b, loc, viewType, src);
  view.setAllowReorder(true);
  view.setEfficientLayout(true);
  IRMapping toView;
  toView.map(src, view.getResult());
  auto partial = cast<tt::ReduceOp>(b.clone(*reduce, toView));
  partial.setAxis(rank);
  partial->getResult(0).setType(partialType);
  IRMapping toPartial;
  toPartial.map(r.update->getOperand(0), partialAcc);
  toPartial.map(r.update->getOperand(1), partial->getResult(0));
  Operation *update = b.clone(*r.update, toPartial);
  update->getResult(0).setType(partialType);

  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<Value> yielded(yield.getOperands());
  yielded[r.iterArg] = loop.getRegionIterArgs()[r.iterArg];
  yielded.push_back(update->getResult(0));
  yield->setOperands(yielded);

  b.setInsertionPointAfter(loop);
  IRMapping toResult;
  toResult.map(src, loop.getResults().back());
  auto total = cast<tt::ReduceOp>(b.clone(*reduce, toResult));
  total->getResult(0).setType(RankedTensorType::get(
      ArrayRef<int64_t>(viewShape).take_front(rank - 1), elementType,
      ttg::SliceEncodingAttr::get(ctx, axis, partialType.getEncoding())));
  Value result = loop.getResult(r.iterArg);
  auto back = ttg::ConvertLayoutOp::create(b, loc, result.getType(),
                                           total->getResult(0));
  IRMapping toFinal;
  toFinal.map(r.update->getOperand(0), oldInit);
  toFinal.map(r.update->getOperand(1), back.getResult());
  Operation *final = b.clone(*r.update, toFinal);
  result.getUses().begin()->set(final->getResult(0));
}

struct OptimizeThreadLocalityPass
    : mlir::tgpu::impl::TritonGPUOptimizeThreadLocalityBase<
          OptimizeThreadLocalityPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    RewritePatternSet patterns(&getContext());
    patterns.add<ThreadLocalReshapeForReduce, WarpLocalGather>(&getContext());
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();

    SmallVector<tt::ReduceOp> reductions;
    module.walk([&](tt::ReduceOp reduce) {
      if (matchRunningReduction(reduce))
        reductions.push_back(reduce);
    });
    // One at a time: each rewrite replaces the loop, so the next one is
    // matched again on the loop as it is then.
    for (tt::ReduceOp reduce : reductions)
      if (std::optional<RunningReduction> r = matchRunningReduction(reduce))
        makeThreadLocal(*r);
  }
};

} // namespace
