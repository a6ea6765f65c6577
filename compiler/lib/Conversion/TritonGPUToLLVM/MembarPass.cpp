// tritongpu-membar: inserts the barriers the membar analysis asks for.
#include "tgpu/Conversion/TritonGPUToLLVM/Passes.h"

#include "tgpu/Analysis/Membar.h"
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"
#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tritongpu-membar"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUMEMBAR
#include "tgpu/Conversion/TritonGPUToLLVM/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

class TritonGPUMembar
    : public mlir::tgpu::impl::TritonGPUMembarBase<TritonGPUMembar> {
public:
  void runOnOperation() override {
    for (auto func : getOperation().getOps<tt::FuncOp>()) {
      auto allocation = mlir::tgpu::SharedMemoryAllocation::fromAttributes(
          func, mlir::tgpu::getScratchBytes);
      if (failed(allocation))
        return signalPassFailure();
      for (Operation *op :
           mlir::tgpu::findSharedMemoryBarriers(func, *allocation)) {
        LLVM_DEBUG(llvm::dbgs() << "barrier before " << op->getName() << " at "
                                << op->getLoc() << "\n");
        OpBuilder builder(op);
        ttg::BarrierOp::create(builder, op->getLoc(), ttg::AddrSpace::Local);
      }
    }
  }
};

} // namespace
