// tt.func -> llvm.func (public functions are kernels), tt.return, and the
// program-id queries.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;

namespace {

struct FuncOpLowering : public ConvertOpToLLVMPattern<tt::FuncOp> {
  FuncOpLowering(TritonGPUToLLVMTypeConverter &converter,
                 const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(tt::FuncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FunctionType type = op.getFunctionType();
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    for (auto [i, argType] : llvm::enumerate(type.getInputs())) {
      Type converted = getTypeConverter()->convertType(argType);
      if (!converted)
        return op.emitError() << "cannot lower argument " << i << " of type "
                              << argType;
      signature.addInputs(i, converted);
    }
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(type.getResults(), results)))
      return op.emitError("cannot lower the result types");
    Type resultType =
        results.empty() ? LLVM::LLVMVoidType::get(getContext())
        : results.size() == 1
            ? results.front()
            : LLVM::LLVMStructType::getLiteral(getContext(), results);
    auto llvmType = LLVM::LLVMFunctionType::get(
        resultType, signature.getConvertedTypes(), /*isVarArg=*/false);
    auto func = LLVM::LLVMFuncOp::create(rewriter, op.getLoc(), op.getName(),
                                         llvmType);
    bool isKernel = op.isPublic();
    if (isKernel) {
      func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                    rewriter.getUnitAttr());
      func->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                    rewriter.getDenseI32ArrayAttr(
                        {info.numWarps * info.threadsPerWarp}));
    } else {
      func.setLinkage(LLVM::Linkage::Internal);
    }
    // Pointer arguments Triton marks divisible by 16 are that aligned.
    for (unsigned i = 0; i < type.getNumInputs(); ++i)
      if (auto div = op.getArgAttrOfType<IntegerAttr>(i, "tt.divisibility"))
        if (isa<LLVM::LLVMPointerType>(signature.getConvertedTypes()[i]) &&
            div.getInt() > 0 && llvm::isPowerOf2_64(div.getInt()))
          func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                          rewriter.getI64IntegerAttr(div.getInt()));
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    if (failed(rewriter.convertRegionTypes(&func.getBody(), *typeConverter,
                                           &signature)))
      return op.emitError("cannot lower the function body's block types");
    rewriter.eraseOp(op);
    return success();
  }

  LoweringInfo info;
};

struct ReturnOpLowering : public ConvertOpToLLVMPattern<tt::ReturnOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tt::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange srcs = adaptor.getSrcs();
    if (srcs.size() > 1) {
      auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
      Type structType =
          func ? func.getFunctionType().getReturnType() : Type();
      if (!structType)
        return op.emitError("cannot lower a multi-value return here");
      Value packed = packValues(rewriter, op.getLoc(), structType,
                                SmallVector<Value>(srcs));
      rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, packed);
      return success();
    }
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, srcs);
    return success();
  }
};

template <typename SourceOp, typename X, typename Y, typename Z>
struct ProgramQueryLowering : public ConvertOpToLLVMPattern<SourceOp> {
  using ConvertOpToLLVMPattern<SourceOp>::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    Value v;
    switch (op.getAxis()) {
    case tt::ProgramIDDim::X:
      v = X::create(rewriter, op.getLoc(), i32);
      break;
    case tt::ProgramIDDim::Y:
      v = Y::create(rewriter, op.getLoc(), i32);
      break;
    case tt::ProgramIDDim::Z:
      v = Z::create(rewriter, op.getLoc(), i32);
      break;
    }
    rewriter.replaceOp(op, v);
    return success();
  }
};

} // namespace

void mlir::tgpu::populateFuncOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<FuncOpLowering>(converter, info);
  patterns.add<ReturnOpLowering>(converter);
  patterns.add<ProgramQueryLowering<tt::GetProgramIdOp, NVVM::BlockIdXOp,
                                    NVVM::BlockIdYOp, NVVM::BlockIdZOp>,
               ProgramQueryLowering<tt::GetNumProgramsOp, NVVM::GridDimXOp,
                                    NVVM::GridDimYOp, NVVM::GridDimZOp>>(
      converter);
}
