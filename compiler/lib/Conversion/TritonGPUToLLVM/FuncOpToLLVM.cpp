// tt.func -> llvm.func (public functions are kernels), tt.return, the
// program-id queries, and the global scratch a kernel takes as its last
// parameter.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;

namespace {

constexpr llvm::StringLiteral kGlobalScratchSizeAttr =
    "ttg.global_scratch_memory_size";

// The global scratch bytes each program of kernel `func` needs (0: none).
int64_t globalScratchBytes(tt::FuncOp func) {
  auto size = func->getAttrOfType<IntegerAttr>(kGlobalScratchSizeAttr);
  return size ? size.getInt() : 0;
}

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
    bool isKernel = op.isPublic();
    // A kernel with global scratch (tritongpu-global-scratch-memory-
    // allocation) takes the grid's scratch as a last, extra parameter.
    int64_t scratchBytes = isKernel ? globalScratchBytes(op) : 0;
    if (scratchBytes > 0)
      signature.addInputs(
          {LLVM::LLVMPointerType::get(getContext(), /*addressSpace=*/1)});
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
    auto func =
        LLVM::LLVMFuncOp::create(rewriter, op.getLoc(), op.getName(), llvmType);
    // The per-program size, for this kernel's global_scratch_allocs (a
    // module may hold several kernels).
    if (scratchBytes > 0)
      func->setAttr(kGlobalScratchSizeAttr,
                    rewriter.getI32IntegerAttr(int32_t(scratchBytes)));
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
    for (unsigned i = 0; i < type.getNumInputs(); ++i) {
      if (auto div = op.getArgAttrOfType<IntegerAttr>(i, "tt.divisibility"))
        if (isa<LLVM::LLVMPointerType>(signature.getConvertedTypes()[i]) &&
            div.getInt() > 0 && llvm::isPowerOf2_64(div.getInt()))
          func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                          rewriter.getI64IntegerAttr(div.getInt()));
      if (op.getArgAttr(i, "tt.nv_tma_desc") ||
          (isKernel && isa<tt::TensorDescType>(type.getInput(i))))
        markTmaDescriptorArg(func, i, rewriter);
    }
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    if (failed(rewriter.convertRegionTypes(&func.getBody(), *typeConverter,
                                           &signature)))
      return op.emitError("cannot lower the function body's block types");
    rewriter.eraseOp(op);
    return success();
  }

  // A kernel argument marked `tt.nv_tma_desc = 1` (checkTmaDescriptorArgs)
  // or of type !tt.tensordesc is a CUtensorMap passed by value, as Triton
  // passes it: a pointer to a 128-byte, 64-byte aligned byval parameter that
  // stays in the parameter space (nvvm.grid_constant), whose address the TMA
  // instructions take. PTX: `.param .align 64 .b8 name[128]`.
  static void markTmaDescriptorArg(LLVM::LLVMFuncOp func, unsigned i,
                                   RewriterBase &rewriter) {
    MLIRContext *ctx = rewriter.getContext();
    func.setArgAttr(
        i, LLVM::LLVMDialect::getByValAttrName(),
        TypeAttr::get(LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 128)));
    func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                    UnitAttr::get(ctx));
    func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                    rewriter.getI32IntegerAttr(64));
  }

  LoweringInfo info;
};

// A program's global scratch: the grid's (the kernel's last parameter)
// from this program's linear id (x fastest) times the bytes each program
// has, plus the buffer's offset.
struct GlobalScratchAllocLowering
    : public ConvertOpToLLVMPattern<triton::gpu::GlobalScratchAllocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(triton::gpu::GlobalScratchAllocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    auto offset =
        op->getAttrOfType<IntegerAttr>("ttg.global_scratch_memory_offset");
    auto size = func ? func->getAttrOfType<IntegerAttr>(kGlobalScratchSizeAttr)
                     : IntegerAttr();
    if (!func || !offset || !size || func.getNumArguments() == 0)
      return op.emitOpError("has no global scratch offset (run "
                            "tritongpu-global-scratch-memory-allocation "
                            "first)");
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    auto ext = [&](Value v) {
      return LLVM::ZExtOp::create(rewriter, loc, i64, v).getResult();
    };
    Value x =
        ext(NVVM::BlockIdXOp::create(rewriter, loc, rewriter.getI32Type()));
    Value y =
        ext(NVVM::BlockIdYOp::create(rewriter, loc, rewriter.getI32Type()));
    Value z =
        ext(NVVM::BlockIdZOp::create(rewriter, loc, rewriter.getI32Type()));
    Value nx =
        ext(NVVM::GridDimXOp::create(rewriter, loc, rewriter.getI32Type()));
    Value ny =
        ext(NVVM::GridDimYOp::create(rewriter, loc, rewriter.getI32Type()));
    Value linear = LLVM::AddOp::create(
        rewriter, loc, x,
        LLVM::MulOp::create(
            rewriter, loc, nx,
            LLVM::AddOp::create(rewriter, loc, y,
                                LLVM::MulOp::create(rewriter, loc, ny, z))));
    auto constant = [&](int64_t v) {
      return LLVM::ConstantOp::create(rewriter, loc, i64,
                                      rewriter.getI64IntegerAttr(v));
    };
    Value bytes = LLVM::AddOp::create(
        rewriter, loc,
        LLVM::MulOp::create(rewriter, loc, linear, constant(size.getInt())),
        constant(offset.getInt()));
    Value base = func.getArgument(func.getNumArguments() - 1);
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(
        op, base.getType(), rewriter.getI8Type(), base, ValueRange{bytes});
    return success();
  }
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

LogicalResult mlir::tgpu::checkTmaDescriptorArgs(ModuleOp module) {
  for (auto op : module.getOps<tt::FuncOp>()) {
    for (unsigned i = 0; i < op.getNumArguments(); ++i) {
      Attribute mark = op.getArgAttr(i, "tt.nv_tma_desc");
      if (!mark)
        continue;
      auto value = dyn_cast<IntegerAttr>(mark);
      Location loc = op.isExternal() ? op.getLoc() : op.getArgument(i).getLoc();
      auto diag = [&]() {
        return emitError(loc)
               << "argument " << i << " of @" << op.getName() << ": ";
      };
      if (!value || value.getInt() != 1)
        return diag() << "tt.nv_tma_desc must be 1, not " << mark;
      if (!op.isPublic())
        return diag() << "tt.nv_tma_desc marks kernel arguments; @"
                      << op.getName() << " is not a kernel";
      if (!isa<tt::PointerType, tt::TensorDescType>(op.getArgumentTypes()[i]))
        return diag() << "tt.nv_tma_desc needs a pointer, not "
                      << op.getArgumentTypes()[i];
    }
  }
  return success();
}

void mlir::tgpu::populateFuncOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<FuncOpLowering>(converter, info);
  patterns.add<ReturnOpLowering, GlobalScratchAllocLowering>(converter);
  patterns.add<ProgramQueryLowering<tt::GetProgramIdOp, NVVM::BlockIdXOp,
                                    NVVM::BlockIdYOp, NVVM::BlockIdZOp>,
               ProgramQueryLowering<tt::GetNumProgramsOp, NVVM::GridDimXOp,
                                    NVVM::GridDimYOp, NVVM::GridDimZOp>>(
      converter);
}
