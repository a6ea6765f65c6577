// triton-reorder-broadcast: elementwise ops move before the splats and
// broadcasts that feed them, so that they compute each distinct value once.
#include "tgpu/Dialect/Triton/Transforms/Passes.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONREORDERBROADCAST
#include "tgpu/Dialect/Triton/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;

namespace {

// The splat constant `v` is, if any.
SplatElementsAttr splatConstant(Value v) {
  Attribute value;
  if (!matchPattern(v, m_Constant(&value)))
    return {};
  return dyn_cast<SplatElementsAttr>(value);
}

// A splat of a scalar or a splat constant. (A splat of a tensor, which
// Triton's verifier allows, has no scalar to compute on.)
bool isSplatLike(Value v) {
  if (auto splat = v.getDefiningOp<tt::SplatOp>())
    return !isa<ShapedType>(splat.getSrc().getType());
  return static_cast<bool>(splatConstant(v));
}

// The elementwise ops these patterns may rebuild on other shapes: pure
// (nothing else observes how many times they run), without regions, and
// not inline assembly, whose `packed_element` ties it to the shape.
bool isMovableElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() && op->getNumOperands() > 0 &&
         op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         !isa<tt::ElementwiseInlineAsmOp>(op) &&
         llvm::all_of(op->getResultTypes(),
                      [](Type t) { return isa<RankedTensorType>(t); });
}

Operation *cloneWithOperandsAndTypes(PatternRewriter &rewriter, Operation *op,
                                     ValueRange operands, TypeRange types) {
  OperationState state(op->getLoc(), op->getName(), operands, types,
                       op->getAttrs());
  return rewriter.create(state);
}

// f(splat a, splat b, ...) -> splat(f(a, b, ...)).
struct ElementwiseOfSplats : OpTraitRewritePattern<OpTrait::Elementwise> {
  using OpTraitRewritePattern::OpTraitRewritePattern;

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isMovableElementwise(op) ||
        !llvm::all_of(op->getOperands(), isSplatLike))
      return failure();
    // Checked before anything is built: a failing pattern leaves no trace.
    for (Value operand : op->getOperands())
      if (SplatElementsAttr constant = splatConstant(operand))
        if (!arith::ConstantOp::isBuildableWith(
                constant.getSplatValue<Attribute>(), constant.getElementType()))
          return failure();
    Location loc = op->getLoc();
    SmallVector<Value> scalars;
    for (Value operand : op->getOperands()) {
      if (auto splat = operand.getDefiningOp<tt::SplatOp>()) {
        scalars.push_back(splat.getSrc());
        continue;
      }
      SplatElementsAttr constant = splatConstant(operand);
      scalars.push_back(arith::ConstantOp::materialize(
          rewriter, constant.getSplatValue<Attribute>(),
          constant.getElementType(), loc));
    }
    SmallVector<Type> scalarTypes;
    for (Type t : op->getResultTypes())
      scalarTypes.push_back(cast<RankedTensorType>(t).getElementType());
    Operation *scalarOp =
        cloneWithOperandsAndTypes(rewriter, op, scalars, scalarTypes);
    SmallVector<Value> splats;
    for (auto [type, result] :
         llvm::zip(op->getResultTypes(), scalarOp->getResults()))
      splats.push_back(tt::SplatOp::create(rewriter, loc, type, result));
    rewriter.replaceOp(op, splats);
    return success();
  }
};

// f(broadcast a, broadcast b, splat c, ...) -> broadcast(f(a, b, splat' c))
// when every broadcast has the same source type (shape and encoding): the
// op then runs on the source shape, splats re-made in it.
struct ElementwiseOfBroadcasts : OpTraitRewritePattern<OpTrait::Elementwise> {
  using OpTraitRewritePattern::OpTraitRewritePattern;

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isMovableElementwise(op))
      return failure();
    RankedTensorType srcType;
    for (Value operand : op->getOperands()) {
      if (auto broadcast = operand.getDefiningOp<tt::BroadcastOp>()) {
        RankedTensorType type = broadcast.getSrc().getType();
        if (srcType && (type.getShape() != srcType.getShape() ||
                        type.getEncoding() != srcType.getEncoding()))
          return failure();
        srcType = type;
      } else if (!isSplatLike(operand)) {
        return failure();
      }
    }
    if (!srcType)
      return failure();
    Location loc = op->getLoc();
    auto inSourceShape = [&](Type t) {
      return srcType.clone(cast<RankedTensorType>(t).getElementType());
    };
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (auto broadcast = operand.getDefiningOp<tt::BroadcastOp>()) {
        operands.push_back(broadcast.getSrc());
      } else if (auto splat = operand.getDefiningOp<tt::SplatOp>()) {
        operands.push_back(tt::SplatOp::create(
            rewriter, loc, inSourceShape(operand.getType()), splat.getSrc()));
      } else {
        auto type = cast<RankedTensorType>(inSourceShape(operand.getType()));
        operands.push_back(arith::ConstantOp::create(
            rewriter, loc, type, splatConstant(operand).resizeSplat(type)));
      }
    }
    SmallVector<Type> types;
    for (Type t : op->getResultTypes())
      types.push_back(inSourceShape(t));
    Operation *narrow =
        cloneWithOperandsAndTypes(rewriter, op, operands, types);
    SmallVector<Value> broadcasts;
    for (auto [type, result] :
         llvm::zip(op->getResultTypes(), narrow->getResults()))
      broadcasts.push_back(
          tt::BroadcastOp::create(rewriter, loc, type, result));
    rewriter.replaceOp(op, broadcasts);
    return success();
  }
};

class ReorderBroadcast
    : public mlir::tgpu::impl::TritonReorderBroadcastBase<ReorderBroadcast> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    tt::BroadcastOp::getCanonicalizationPatterns(patterns, context);
    patterns.add(&tt::ExpandDimsOp::canonicalize);
    patterns.add<ElementwiseOfSplats, ElementwiseOfBroadcasts>(context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      getOperation().emitError(
          "triton-reorder-broadcast: the rewrites did not converge");
      signalPassFailure();
    }
  }
};

} // namespace
