// The canonicalization patterns of tt ops (the folds are in Ops.cpp): masks
// that are constant, and chains of view ops that one op can express.
#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TensorEncoding.h"

using namespace mlir;
using namespace mlir::triton;

namespace {

// A mask known to be all true (or all false): a scalar or splat constant.
bool isConstantMask(Value mask, bool value) {
  return mask &&
         (value ? matchPattern(mask, m_One()) : matchPattern(mask, m_Zero()));
}

// load(p, true, x) reads every element: no mask, and no `other` to fall
// back on; load(p, false, x) reads nothing and is x (without an `other`
// its value is undefined, which is left as it is).
struct LoadWithConstantMask : OpRewritePattern<LoadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LoadOp load,
                                PatternRewriter &rewriter) const override {
    if (isConstantMask(load.getMask(), true)) {
      rewriter.replaceOpWithNewOp<LoadOp>(
          load, load.getType(), load.getPtr(), /*mask=*/Value(),
          /*other=*/Value(), load.getBoundaryCheckAttr(), load.getPaddingAttr(),
          load.getCacheAttr(), load.getEvictAttr(), load.getIsVolatileAttr());
      return success();
    }
    if (isConstantMask(load.getMask(), false) && load.getOther()) {
      rewriter.replaceOp(load, load.getOther());
      return success();
    }
    return failure();
  }
};

// store(p, v, true) writes everything; store(p, v, false) writes nothing.
struct StoreWithConstantMask : OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(StoreOp store,
                                PatternRewriter &rewriter) const override {
    if (isConstantMask(store.getMask(), true)) {
      rewriter.replaceOpWithNewOp<StoreOp>(
          store, store.getPtr(), store.getValue(), /*mask=*/Value(),
          store.getBoundaryCheckAttr(), store.getCacheAttr(),
          store.getEvictAttr());
      return success();
    }
    if (isConstantMask(store.getMask(), false)) {
      rewriter.eraseOp(store);
      return success();
    }
    return failure();
  }
};

// broadcast(splat x) -> splat x: every element is x either way.
struct BroadcastOfSplat : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};

// broadcast(broadcast x) -> broadcast x: the size-1 dims of the middle
// tensor are size-1 dims of x too, so x broadcasts to the result directly.
struct BroadcastOfBroadcast : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<BroadcastOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(), inner.getSrc());
    return success();
  }
};

} // namespace

void LoadOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<LoadWithConstantMask>(context);
}

void StoreOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<StoreWithConstantMask>(context);
}

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<BroadcastOfSplat, BroadcastOfBroadcast>(context);
}

LogicalResult ExpandDimsOp::canonicalize(ExpandDimsOp op,
                                         PatternRewriter &rewriter) {
  Operation *def = op.getSrc().getDefiningOp();
  if (auto splat = dyn_cast_or_null<SplatOp>(def)) {
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
  // expand_dims(broadcast x) -> broadcast(expand_dims x): the expansion
  // then works on fewer elements and the broadcast may merge with one
  // after it. A broadcast keeps its encoding, so the inner expand_dims
  // takes the outer one's result encoding (the verifier's slice rule holds
  // for x as it held for the broadcast's result).
  auto broadcast = dyn_cast_or_null<BroadcastOp>(def);
  if (!broadcast)
    return failure();
  RankedTensorType srcType = broadcast.getSrc().getType();
  SmallVector<int64_t> shape(srcType.getShape());
  shape.insert(shape.begin() + op.getAxis(), 1);
  Attribute encoding = op.getType().getEncoding();
  // The smaller type must be one its encoding allows (a layout made for one
  // shape, as #ttg.linear, fits no other). A verified broadcast implies it;
  // it is checked here rather than assumed.
  if (auto verifiable = dyn_cast_or_null<VerifiableTensorEncoding>(encoding))
    if (failed(verifiable.verifyEncoding(shape, srcType.getElementType(),
                                         [] { return InFlightDiagnostic(); })))
      return failure();
  auto expandedType =
      RankedTensorType::get(shape, srcType.getElementType(), encoding);
  auto expanded = ExpandDimsOp::create(rewriter, op.getLoc(), expandedType,
                                       broadcast.getSrc(), op.getAxis());
  rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(),
                                           expanded.getResult());
  return success();
}

LogicalResult ReshapeOp::canonicalize(ReshapeOp op, PatternRewriter &rewriter) {
  // A layout picked on purpose stays as it is.
  if (op.getEfficientLayout())
    return failure();
  Operation *def = op.getSrc().getDefiningOp();
  if (auto splat = dyn_cast_or_null<SplatOp>(def)) {
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
  // reshape(reshape x) -> reshape x, free to reorder if either was. Only
  // without encodings: with layouts, one reshape may move data between
  // threads where the two did not, which the lowering refuses.
  auto inner = dyn_cast_or_null<ReshapeOp>(def);
  if (!inner || op.getType().getEncoding() ||
      inner.getSrc().getType().getEncoding())
    return failure();
  rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), inner.getSrc(),
                                         op.getAllowReorder() ||
                                             inner.getAllowReorder(),
                                         /*efficient_layout=*/false);
  return success();
}
