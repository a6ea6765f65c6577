// triton-combine: peephole rewrites of tt ops (see Passes.td for the list).
// Every rewrite keeps the kernel's meaning; the conditions below are what
// makes each one exact (or, for the dot rewrites, as exact as tt.dot's
// unspecified accumulation order allows).
#include "tgpu/Dialect/Triton/Transforms/Passes.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONCOMBINEOPS
#include "tgpu/Dialect/Triton/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;

namespace {

bool isZeroConstant(Value v) {
  return matchPattern(v, m_Zero()) || matchPattern(v, m_AnyZeroFloat());
}

// add(dot(a, b, 0), d) -> dot(a, b, d). The dot must have no other user
// (it would otherwise be computed twice) and sit in the add's block: moving
// it into a loop body would repeat it every iteration.
template <typename AddOp> struct FoldAddIntoDot : OpRewritePattern<AddOp> {
  using OpRewritePattern<AddOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(AddOp add,
                                PatternRewriter &rewriter) const override {
    for (int dotSide = 0; dotSide < 2; ++dotSide) {
      Value dotValue = add->getOperand(dotSide);
      Value other = add->getOperand(1 - dotSide);
      auto dot = dotValue.getDefiningOp<tt::DotOp>();
      if (!dot || !dot->hasOneUse() || dot->getBlock() != add->getBlock() ||
          !isZeroConstant(dot.getC()) || dot.getType() != other.getType())
        continue;
      // A dot allowed to accumulate imprecisely (fp8 fast accumulation)
      // must not take over the precise float add.
      if (std::is_same_v<AddOp, arith::AddFOp> &&
          dot.getMaxNumImpreciseAcc() != 0)
        continue;
      rewriter.modifyOpInPlace(dot, [&] {
        dot.getCMutable().assign(other);
        dot->moveBefore(add);
      });
      rewriter.replaceOp(add, dot.getResult());
      return success();
    }
    return failure();
  }
};

// The integer value of a scalar constant, a splat constant or a splat of a
// scalar constant.
std::optional<APInt> constantOffset(Value v) {
  if (auto splat = v.getDefiningOp<tt::SplatOp>())
    v = splat.getSrc();
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return value;
  return std::nullopt;
}

// addptr(addptr(p, i), j) -> addptr(p, i + j). The pointer steps by each
// offset sign-extended to 64 bits, so adding the offsets first in their own
// width is exact only when the sum cannot wrap there: 64-bit offsets wrap
// like the pointer does, narrower ones must be constants whose sum fits.
struct CombineAddPtrs : OpRewritePattern<tt::AddPtrOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tt::AddPtrOp outer,
                                PatternRewriter &rewriter) const override {
    auto inner = outer.getPtr().getDefiningOp<tt::AddPtrOp>();
    if (!inner)
      return failure();
    Value i = inner.getOffset(), j = outer.getOffset();
    if (i.getType() != j.getType())
      return failure();
    if (getElementTypeOrSelf(i.getType()).getIntOrFloatBitWidth() != 64) {
      std::optional<APInt> a = constantOffset(i), b = constantOffset(j);
      if (!a || !b)
        return failure();
      bool overflow = false;
      (void)a->sadd_ov(*b, overflow);
      if (overflow)
        return failure();
    }
    Value sum = arith::AddIOp::create(rewriter, outer.getLoc(), i, j);
    auto combined = tt::AddPtrOp::create(rewriter, outer.getLoc(),
                                         outer.getType(), inner.getPtr(), sum);
    // Only the axis-info hints describe the result, which is the same
    // pointer as before; other discardable attributes stay behind.
    for (StringRef hint : {"tt.divisibility", "tt.contiguity", "tt.constancy"})
      if (Attribute value = outer->getDiscardableAttr(hint))
        combined->setDiscardableAttr(hint, value);
    rewriter.replaceOp(outer, combined.getResult());
    return success();
  }
};

// select(c, load(p, splat(c), x), y) -> load(p, splat(c), y): where c is
// false the load reads nothing and yields its `other`, which the select
// replaces by y anyway.
struct SelectOfMaskedLoad : OpRewritePattern<arith::SelectOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::SelectOp select,
                                PatternRewriter &rewriter) const override {
    auto load = select.getTrueValue().getDefiningOp<tt::LoadOp>();
    if (!load || !load.getMask())
      return failure();
    auto splat = load.getMask().getDefiningOp<tt::SplatOp>();
    if (!splat || splat.getSrc() != select.getCondition())
      return failure();
    rewriter.replaceOpWithNewOp<tt::LoadOp>(
        select, load.getType(), load.getPtr(), load.getMask(),
        select.getFalseValue(), load.getBoundaryCheckAttr(),
        load.getPaddingAttr(), load.getCacheAttr(), load.getEvictAttr(),
        load.getIsVolatileAttr());
    return success();
  }
};

// Whether `reduce` adds its operand's elements with a float add of at most
// 32 bits (the combine region is exactly `return a + b`).
bool isFloatSum(tt::ReduceOp reduce) {
  Block &body = reduce.getCombineOp().front();
  if (reduce.getSrcs().size() != 1 || body.getNumArguments() != 2 ||
      body.getOperations().size() != 2)
    return false;
  auto add = dyn_cast<arith::AddFOp>(body.front());
  if (!add || add.getType().getIntOrFloatBitWidth() > 32)
    return false;
  bool argsInOrder = add.getLhs() == body.getArgument(0) &&
                     add.getRhs() == body.getArgument(1);
  bool argsSwapped = add.getLhs() == body.getArgument(1) &&
                     add.getRhs() == body.getArgument(0);
  Operation *terminator = body.getTerminator();
  return (argsInOrder || argsSwapped) && terminator->getNumOperands() == 1 &&
         terminator->getOperand(0) == add.getResult();
}

// sum over k of x[m, k] * y[k, n], spelled as a broadcast multiply and a
// reduction along axis 1 of [M, K, N], is dot(x, y, 0). Only for shapes a
// dot handles well (every dim at least 16).
struct BroadcastMulReduceToDot : OpRewritePattern<tt::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tt::ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    if (reduce.getAxis() != 1 || !isFloatSum(reduce))
      return failure();
    auto mul = reduce.getSrcs()[0].getDefiningOp<arith::MulFOp>();
    if (!mul)
      return failure();
    auto lhsBroadcast = mul.getLhs().getDefiningOp<tt::BroadcastOp>();
    auto rhsBroadcast = mul.getRhs().getDefiningOp<tt::BroadcastOp>();
    if (!lhsBroadcast || !rhsBroadcast)
      return failure();
    auto lhsExpand = lhsBroadcast.getSrc().getDefiningOp<tt::ExpandDimsOp>();
    auto rhsExpand = rhsBroadcast.getSrc().getDefiningOp<tt::ExpandDimsOp>();
    if (!lhsExpand || !rhsExpand || lhsExpand.getAxis() != 2 ||
        rhsExpand.getAxis() != 0)
      return failure();
    auto x = cast<RankedTensorType>(lhsExpand.getSrc().getType());
    auto y = cast<RankedTensorType>(rhsExpand.getSrc().getType());
    auto resultType =
        dyn_cast<RankedTensorType>(reduce.getResult()[0].getType());
    if (x.getRank() != 2 || y.getRank() != 2 || !resultType ||
        x.getElementType() != y.getElementType() ||
        x.getElementType() != resultType.getElementType() || x.getEncoding() ||
        y.getEncoding() || resultType.getEncoding())
      return failure();
    int64_t m = x.getDimSize(0), k = x.getDimSize(1), n = y.getDimSize(1);
    if (y.getDimSize(0) != k || m < 16 || n < 16 || k < 16 ||
        resultType.getShape() != ArrayRef<int64_t>{m, n})
      return failure();
    Location loc = reduce.getLoc();
    auto zero = arith::ConstantOp::create(
        rewriter, loc, resultType,
        DenseElementsAttr::get(
            resultType, rewriter.getFloatAttr(resultType.getElementType(), 0)));
    // Triton's choice for this rewrite: tf32 where the operands are f32.
    auto precision = x.getElementType().isF32() ? tt::InputPrecision::TF32
                                                : tt::InputPrecision::IEEE;
    rewriter.replaceOpWithNewOp<tt::DotOp>(reduce, resultType,
                                           lhsExpand.getSrc(),
                                           rhsExpand.getSrc(), zero, precision,
                                           /*maxNumImpreciseAcc=*/0);
    return success();
  }
};

// A rank-1 reshape whose users ignore element order may return the elements
// in any order (which lets the lowering avoid moving data). A reduction of
// several operands pairs them up by position, and a masked histogram pairs
// elements with the mask, so those users keep the order.
struct ReshapeForOrderFreeUsers : OpRewritePattern<tt::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tt::ReshapeOp reshape,
                                PatternRewriter &rewriter) const override {
    if (reshape.getAllowReorder() || reshape.getType().getRank() != 1 ||
        reshape->use_empty())
      return failure();
    for (Operation *user : reshape->getUsers()) {
      if (auto reduce = dyn_cast<tt::ReduceOp>(user)) {
        if (reduce.getSrcs().size() != 1)
          return failure();
      } else if (auto histogram = dyn_cast<tt::HistogramOp>(user)) {
        if (histogram.getMask())
          return failure();
      } else {
        return failure();
      }
    }
    rewriter.modifyOpInPlace(reshape, [&] { reshape.setAllowReorder(true); });
    return success();
  }
};

// reshape(descriptor_load) dropping leading unit dims -> a rank-reducing
// descriptor_load of the reshape's type (the row-major order of the
// elements is the same).
struct RankReduceDescriptorLoad : OpRewritePattern<tt::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tt::ReshapeOp reshape,
                                PatternRewriter &rewriter) const override {
    auto load = reshape.getSrc().getDefiningOp<tt::DescriptorLoadOp>();
    if (!load || !load->hasOneUse())
      return failure();
    auto loadType = cast<RankedTensorType>(load.getType());
    RankedTensorType type = reshape.getType();
    int64_t dropped = loadType.getRank() - type.getRank();
    if (dropped <= 0 || loadType.getEncoding() || type.getEncoding())
      return failure();
    ArrayRef<int64_t> shape = loadType.getShape();
    if (llvm::any_of(shape.take_front(dropped),
                     [](int64_t size) { return size != 1; }) ||
        shape.drop_front(dropped) != type.getShape())
      return failure();
    rewriter.modifyOpInPlace(load, [&] { load.getResult().setType(type); });
    rewriter.replaceOp(reshape, load.getResult());
    return success();
  }
};

class CombineOps : public mlir::tgpu::impl::TritonCombineOpsBase<CombineOps> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<FoldAddIntoDot<arith::AddFOp>, FoldAddIntoDot<arith::AddIOp>,
                 CombineAddPtrs, SelectOfMaskedLoad, BroadcastMulReduceToDot,
                 ReshapeForOrderFreeUsers, RankReduceDescriptorLoad>(context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      getOperation().emitError("triton-combine: the rewrites did not converge");
      signalPassFailure();
    }
  }
};

} // namespace
