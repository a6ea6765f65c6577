// What tgpu reads and verifies but cannot lower yet: warp specialization and
// the ttg ops of Triton's later passes, tt.map_elementwise, tt.dot_scaled, the
// ttng dialect's ops other than wgmma's, the mbarriers' and the TMA copies'
// (TMA reductions, gathers, tensormaps, clusters) and anything else that
// carries a tensor descriptor, but for the descriptor loads and stores of
// TTIR that the TTIR -> TTGIR passes lower. Checked before any pass runs, so
// that a kernel using one gets a located "not supported yet" error instead of a
// pass failing on an op it was never written for.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

static constexpr const char kNoDescLowering[] =
    "tgpu has no lowering for tensor descriptors";

// A float type LLVM does not have (the 8-bit floats): its values travel as
// integers of their width.
static bool isFloatLLVMLacks(Type type) {
  Type elem = getElementTypeOrSelf(type);
  return isa<FloatType>(elem) && !LLVM::isCompatibleFloatingPointType(elem);
}

static bool isTensorDesc(Type type) {
  return isa<triton::TensorDescType>(type);
}

LogicalResult mlir::tgpu::checkOpsSupported(ModuleOp module,
                                            bool ttgirPassesFollow) {
  namespace ttg = triton::gpu;
  // Pre-order, so that a ttg.warp_specialize is reported, not its insides.
  WalkResult result = module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<ttg::WarpSpecializeOp, ttg::WarpSpecializePartitionsOp,
            ttg::WarpYieldOp, ttg::WarpReturnOp, ttg::MemDescReinterpretOp,
            ttg::WarpIdOp, ttg::LocalBarrierOp, ttg::Fp4ToFpOp,
            ttg::PredicateStageOp, ttg::MaskOp, ttg::MaskReturnOp,
            triton::MapElementwiseOp, triton::MapElementwiseReturnOp,
            triton::DotScaledOp>(op)) {
      op->emitOpError(
          "is not supported yet: tgpu reads and verifies it but has no "
          "lowering to LLVM for it");
      return WalkResult::interrupt();
    }
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      // A kernel's descriptor arguments are CUtensorMaps passed by value.
      bool isKernel = isa<triton::FuncOp>(op) && func.isPublic();
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
        if (isTensorDesc(type) && !isKernel) {
          Location loc =
              func.isExternal() ? func.getLoc() : func.getArgument(i).getLoc();
          emitError(loc) << "argument " << i << " of @" << func.getName()
                         << " has type " << type
                         << ", which is not supported yet: " << kNoDescLowering;
          return WalkResult::interrupt();
        }
      for (Type type : func.getResultTypes())
        if (isTensorDesc(type)) {
          func.emitError() << "@" << func.getName() << " returns " << type
                           << ", which is not supported yet: "
                           << kNoDescLowering;
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    }
    namespace ttng = triton::nvidia_gpu;
    if (isa_and_nonnull<ttng::TritonNvidiaGPUDialect>(op->getDialect()) &&
        !isa<ttng::WarpGroupDotOp, ttng::WarpGroupDotWaitOp,
             ttng::FenceAsyncSharedOp, ttng::InitBarrierOp,
             ttng::InvalBarrierOp, ttng::BarrierExpectOp, ttng::ArriveBarrierOp,
             ttng::WaitBarrierOp, ttng::AsyncCopyMbarrierArriveOp,
             ttng::TMAStoreWaitOp, ttng::AsyncTMACopyGlobalToLocalOp,
             ttng::AsyncTMACopyLocalToGlobalOp, ttng::ReinterpretTensorDescOp,
             ttng::TensormapCreateOp, ttng::TensormapFenceproxyAcquireOp>(op)) {
      op->emitOpError(
          "is not supported yet: tgpu has no lowering for ttng ops");
      return WalkResult::interrupt();
    }
    // LLVM has no 8-bit float types: such values only move (select,
    // bitcast) and convert (tt.fp_to_fp, casts); Triton's front end never
    // computes on them.
    if (isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
            op->getDialect()) &&
        !isa<arith::SelectOp, arith::BitcastOp, arith::ConstantOp>(op) &&
        (llvm::any_of(op->getOperandTypes(), isFloatLLVMLacks) ||
         llvm::any_of(op->getResultTypes(), isFloatLLVMLacks))) {
      op->emitOpError("has no lowering on 8-bit floats: they only move "
                      "(select, bitcast) and convert (tt.fp_to_fp)");
      return WalkResult::interrupt();
    }
    // The TMA copies take descriptors (only a kernel argument or a
    // reinterpreted pointer can give one: every other op making one is
    // refused here).
    if (isa<ttng::AsyncTMACopyGlobalToLocalOp,
            ttng::AsyncTMACopyLocalToGlobalOp, ttng::ReinterpretTensorDescOp>(
            op))
      return WalkResult::advance();
    // The TTIR -> TTGIR passes make TMA copies of the descriptor loads and
    // stores (triton-nvidia-tma-lowering); in TTGIR they must be gone.
    if (isa<triton::MakeTensorDescOp, triton::DescriptorLoadOp,
            triton::DescriptorStoreOp>(op)) {
      if (ttgirPassesFollow)
        return WalkResult::advance();
      op->emitOpError("is not supported yet in TTGIR: tgpu lowers it to TMA "
                      "copies in its TTIR -> TTGIR passes "
                      "(triton-nvidia-tma-lowering)");
      return WalkResult::interrupt();
    }
    if (llvm::any_of(op->getOperandTypes(), isTensorDesc) ||
        llvm::any_of(op->getResultTypes(), isTensorDesc)) {
      op->emitOpError("is not supported yet: ") << kNoDescLowering;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
