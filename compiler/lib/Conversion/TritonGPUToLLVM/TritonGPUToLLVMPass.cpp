// convert-triton-gpu-to-llvm: the driver. It reads the module's launch
// parameters, runs AxisInfo on the TTGIR (vector widths come from it), and
// applies every pattern family at once as a full conversion, so an op
// nothing lowers is reported where it is.
#include "tgpu/Conversion/TritonGPUToLLVM/Passes.h"

#include "tgpu/Analysis/Allocation.h"
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"
#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "convert-triton-gpu-to-llvm"

namespace mlir::tgpu {
#define GEN_PASS_DEF_CONVERTTRITONGPUTOLLVM
#include "tgpu/Conversion/TritonGPUToLLVM/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;

namespace {

// `value` as a constant of the float type (scalar or splat tensor) `type`.
Value floatConstant(OpBuilder &b, Location loc, Type type, double value) {
  auto floatType = cast<FloatType>(getElementTypeOrSelf(type));
  TypedAttr attr = b.getFloatAttr(floatType, value);
  if (auto shaped = dyn_cast<RankedTensorType>(type))
    attr = SplatElementsAttr::get(shaped, attr);
  return arith::ConstantOp::create(b, loc, attr);
}

// fptoui/fptosi to i1 become compares before lowering. LLVM's NVPTX back end
// selects `fptoui half %x to i1` as a test of x's bits against zero
// (setp.eq.b16 x, 0), so 0.5 gives 1 where the truncation the op means
// gives 0; Triton's kernels do the same (GPU oracle, 2026-11-23,
// docs/FINDINGS.md finding 1: both disagreed with the CPU reference alike).
// Where the cast is defined (the truncated value fits i1) fptoui is 1
// exactly when x >= 1 and fptosi is -1 (true) exactly when x <= -1.
void rewriteFloatToBoolCasts(ModuleOp module) {
  SmallVector<Operation *> casts;
  module.walk([&](Operation *op) {
    if (isa<arith::FPToUIOp, arith::FPToSIOp>(op) &&
        getElementTypeOrSelf(op->getResult(0).getType()).isInteger(1))
      casts.push_back(op);
  });
  for (Operation *op : casts) {
    OpBuilder b(op);
    Value x = op->getOperand(0);
    bool isUnsigned = isa<arith::FPToUIOp>(op);
    Value bound = floatConstant(b, op->getLoc(), x.getType(), isUnsigned ? 1.0 : -1.0);
    Value result = arith::CmpFOp::create(
        b, op->getLoc(), isUnsigned ? arith::CmpFPredicate::OGE : arith::CmpFPredicate::OLE, x,
        bound);
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }
}

// sitofp from i1 becomes a select of -1.0 and 0.0. LLVM 22's NVPTX back end
// selects `sitofp i1 %x to bfloat` as `selp.b32 1, 0` + cvt.rn.bf16.s32, so
// true gives +1.0 (half and float get -1; found by the GPU oracle, session
// 11: gen_80087's TTGIR variant, and Triton 3.6 likewise in part).
void rewriteBoolToFloatCasts(ModuleOp module) {
  SmallVector<arith::SIToFPOp> casts;
  module.walk([&](arith::SIToFPOp op) {
    if (getElementTypeOrSelf(op.getIn().getType()).isInteger(1))
      casts.push_back(op);
  });
  for (arith::SIToFPOp op : casts) {
    OpBuilder b(op);
    Value result = arith::SelectOp::create(b, op.getLoc(), op.getIn(),
                                           floatConstant(b, op.getLoc(), op.getType(), -1.0),
                                           floatConstant(b, op.getLoc(), op.getType(), 0.0));
    op.getResult().replaceAllUsesWith(result);
    op.erase();
  }
}

class ConvertTritonGPUToLLVM
    : public mlir::tgpu::impl::ConvertTritonGPUToLLVMBase<
          ConvertTritonGPUToLLVM> {
public:
  using ConvertTritonGPUToLLVMBase::ConvertTritonGPUToLLVMBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    if (failed(mlir::tgpu::checkOpsSupported(module)))
      return signalPassFailure();
    mlir::tgpu::LoweringInfo info;
    info.numWarps = triton::gpu::lookupNumWarps(module);
    info.threadsPerWarp = triton::gpu::lookupThreadsPerWarp(module);
    if (computeCapability > 0) {
      info.computeCapability = computeCapability;
    } else if (auto target = module->getAttrOfType<StringAttr>("ttg.target")) {
      StringRef t = target.getValue();
      int cc = 0;
      if (!t.consume_front("cuda:") || t.getAsInteger(10, cc)) {
        module.emitError() << "convert-triton-gpu-to-llvm: unsupported target '"
                           << target.getValue() << "' (expected cuda:N)";
        return signalPassFailure();
      }
      info.computeCapability = cc;
    } else {
      info.computeCapability = 80;
    }
    if (info.computeCapability < 80) {
      module.emitError() << "convert-triton-gpu-to-llvm: compute capability "
                         << info.computeCapability
                         << " is not supported (sm_80 or newer is)";
      return signalPassFailure();
    }
    info.ptxVersion = ptxVersion;
    if (info.threadsPerWarp != 32) {
      module.emitError("convert-triton-gpu-to-llvm: NVIDIA GPUs have 32 "
                       "threads per warp");
      return signalPassFailure();
    }
    // Checked up front: MLIR's arith patterns would otherwise take these
    // for vector constants and build invalid LLVM constants.
    WalkResult unsupported = module.walk([](arith::ConstantOp op) {
      auto type = dyn_cast<RankedTensorType>(op.getType());
      if (type && !isa<DenseElementsAttr>(op.getValue())) {
        op.emitError("only dense tensor constants can be lowered");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (unsupported.wasInterrupted() ||
        failed(mlir::tgpu::checkMathOpsLowerable(module)) ||
        failed(mlir::tgpu::checkElementwiseOpsLowerable(
            module, info.computeCapability)) ||
        failed(mlir::tgpu::checkDotOpsLowerable(module)) ||
        failed(mlir::tgpu::checkAsyncOpsLowerable(module,
                                                  info.computeCapability)) ||
        failed(mlir::tgpu::checkTmaDescriptorArgs(module)) ||
        failed(mlir::tgpu::checkTmaOpsLowerable(module)))
      return signalPassFailure();
    rewriteFloatToBoolCasts(module);
    rewriteBoolToFloatCasts(module);
    // Every buffer must have been placed (allocate-shared-memory); the
    // lowerings read the offsets, ttg.shared sizes the launch.
    int64_t sharedBytes = 0;
    for (auto func : module.getOps<triton::FuncOp>()) {
      auto allocation = mlir::tgpu::SharedMemoryAllocation::fromAttributes(
          func, mlir::tgpu::getScratchBytes);
      if (failed(allocation))
        return signalPassFailure();
      sharedBytes = std::max(sharedBytes, allocation->getTotalBytes());
    }
    if (auto attr = module->getAttrOfType<IntegerAttr>("ttg.shared"))
      sharedBytes = std::max(sharedBytes, attr.getInt());
    LLVM_DEBUG(llvm::dbgs()
               << "sm_" << info.computeCapability << ", " << info.numWarps
               << " warps, " << sharedBytes << " bytes of shared memory\n");
    mlir::tgpu::ModuleAxisInfoAnalysis axisInfo(module);
    info.axisInfo = &axisInfo;
    info.asyncProxyReads = module
                               .walk([](triton::nvidia_gpu::WarpGroupDotOp) {
                                 return WalkResult::interrupt();
                               })
                               .wasInterrupted();

    LowerToLLVMOptions options(ctx);
    mlir::tgpu::TritonGPUToLLVMTypeConverter converter(ctx, options);
    RewritePatternSet patterns(ctx);
    mlir::tgpu::populateFuncOpToLLVMPatterns(converter, patterns, info);
    mlir::tgpu::populateElementwiseOpToLLVMPatterns(converter, patterns, info);
    mlir::tgpu::populateViewOpToLLVMPatterns(converter, patterns, info);
    mlir::tgpu::populateLoadStoreOpToLLVMPatterns(converter, patterns, info);
    mlir::tgpu::populateReduceOpToLLVMPatterns(converter, patterns, info);
    mlir::tgpu::populateScanOpToLLVMPatterns(converter, patterns, info);
    mlir::tgpu::populateGatherHistogramOpToLLVMPatterns(converter, patterns,
                                                        info);
    mlir::tgpu::populateDotOpToLLVMPatterns(converter, patterns);
    mlir::tgpu::populateMmaDotOpToLLVMPatterns(converter, patterns);
    mlir::tgpu::populateWgmmaOpToLLVMPatterns(converter, patterns, info);
    mlir::tgpu::populateMbarrierOpToLLVMPatterns(converter, patterns, info);
    mlir::tgpu::populateTmaOpToLLVMPatterns(converter, patterns, info);
    mlir::tgpu::populateAtomicOpToLLVMPatterns(converter, patterns, info);
    mlir::tgpu::populateMemoryOpToLLVMPatterns(converter, patterns, info);
    mlir::tgpu::populateAsyncCopyOpToLLVMPatterns(converter, patterns, info);
    mlir::tgpu::populateInlineAsmOpToLLVMPatterns(converter, patterns);
    mlir::tgpu::populatePrintAssertOpToLLVMPatterns(converter, patterns, info);
    // floordivsi / ceildivsi have no LLVM lowering of their own: expand them
    // into divsi, compares and selects first (found by fuzz_pipeline).
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    mlir::tgpu::populateMathOpToLLVMPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);

    ConversionTarget target(*ctx);
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect,
                           triton::nvgpu::NVGPUDialect>();
    target.addLegalOp<ModuleOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    module->setAttr("ttg.shared",
                    IntegerAttr::get(IntegerType::get(ctx, 32),
                                     llvm::alignTo(sharedBytes, 16)));
  }
};

} // namespace
