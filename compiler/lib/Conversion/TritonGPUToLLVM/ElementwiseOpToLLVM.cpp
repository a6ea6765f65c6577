// Element-wise ops on distributed tensors: operands of one layout hold the
// same elements in the same registers, so the op is applied register by
// register. arith/math ops are re-created on scalars and left to MLIR's
// arith/math -> LLVM patterns; pointer ops are emitted directly.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;

namespace {

bool isDistributedTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getEncoding();
}

// Operand i of register r: a struct's r-th value, or a scalar as it is.
SmallVector<SmallVector<Value>> perRegister(ConversionPatternRewriter &rewriter,
                                            Location loc,
                                            ArrayRef<Value> operands,
                                            unsigned regs) {
  SmallVector<SmallVector<Value>> unpacked;
  for (Value v : operands) {
    SmallVector<Value> values = unpackValues(rewriter, loc, v);
    if (values.size() == 1 && regs > 1)
      values.assign(regs, values.front());
    unpacked.push_back(std::move(values));
  }
  SmallVector<SmallVector<Value>> byRegister(regs);
  for (unsigned r = 0; r < regs; ++r)
    for (auto &values : unpacked)
      byRegister[r].push_back(values[r]);
  return byRegister;
}

unsigned registerCount(Type loweredType) {
  if (auto s = dyn_cast<LLVM::LLVMStructType>(loweredType))
    return s.getBody().size();
  return 1;
}

// arith.* and math.* on tensors.
struct ArithMathOnTensors : public ConversionPattern {
  ArithMathOnTensors(TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/10, ctx) {
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Dialect *dialect = op->getDialect();
    if (!dialect || !isa<arith::ArithDialect, math::MathDialect>(dialect) ||
        isa<arith::ConstantOp>(op) || op->getNumResults() != 1 ||
        op->getNumRegions() != 0 ||
        !isDistributedTensor(op->getResult(0).getType()))
      return failure();
    Type resultType = typeConverter->convertType(op->getResult(0).getType());
    if (!resultType)
      return op->emitError("cannot lower result type ")
             << op->getResult(0).getType();
    Type elemType =
        cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
    unsigned regs = registerCount(resultType);
    Location loc = op->getLoc();
    SmallVector<Value> results;
    for (auto &args : perRegister(rewriter, loc, operands, regs)) {
      OperationState state(loc, op->getName(), args, {elemType},
                           op->getAttrs());
      results.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, results));
    return success();
  }
};

// A dense splat constant: the same scalar in every register.
struct SplatConstantLowering : public ConvertOpToLLVMPattern<arith::ConstantOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isDistributedTensor(op.getType()))
      return failure();
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!splat) // the pass rejects these before converting
      return failure();
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return op.emitError("cannot lower ") << op.getType();
    Location loc = op.getLoc();
    Type elem = splat.getElementType();
    Value scalar = LLVM::ConstantOp::create(
        rewriter, loc, getTypeConverter()->convertType(elem),
        splat.getSplatValue<TypedAttr>());
    rewriter.replaceOp(
        op, packValues(rewriter, loc, resultType,
                       SmallVector<Value>(registerCount(resultType), scalar)));
    return success();
  }
};

// tt.addptr: one getelementptr per register, in units of the pointee.
struct AddPtrLowering : public ConvertOpToLLVMPattern<tt::AddPtrOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tt::AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return op.emitError("cannot lower ") << op.getType();
    Type pointee = getElementTypeOrSelf(op.getPtr().getType());
    auto ptrType = dyn_cast<tt::PointerType>(pointee);
    if (!ptrType)
      return op.emitError("tt.addptr on block pointers cannot be lowered");
    Type elem = getTypeConverter()->convertType(ptrType.getPointeeType());
    if (!elem)
      return op.emitError("cannot lower pointee type ")
             << ptrType.getPointeeType();
    Type llvmPtr = getTypeConverter()->convertType(ptrType);
    Location loc = op.getLoc();
    unsigned regs = registerCount(resultType);
    SmallVector<Value> results;
    for (auto &args : perRegister(rewriter, loc,
                                  {adaptor.getPtr(), adaptor.getOffset()},
                                  regs))
      results.push_back(LLVM::GEPOp::create(rewriter, loc, llvmPtr, elem,
                                            args[0], ValueRange{args[1]}));
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, results));
    return success();
  }
};

} // namespace

void mlir::tgpu::populateElementwiseOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &) {
  patterns.add<ArithMathOnTensors>(converter, patterns.getContext());
  patterns.add<SplatConstantLowering, AddPtrLowering>(converter);
}
