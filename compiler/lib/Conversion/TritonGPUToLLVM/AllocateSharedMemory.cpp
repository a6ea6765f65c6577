// allocate-shared-memory: runs the allocation analysis with the lowering's
// scratch sizes and records the offsets; and the scratch-size dispatch the
// lowering, this pass and tritongpu-membar share.
#include "tgpu/Conversion/TritonGPUToLLVM/Passes.h"

#include "tgpu/Analysis/Allocation.h"
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"
#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "allocate-shared-memory"

namespace mlir::tgpu {
#define GEN_PASS_DEF_ALLOCATESHAREDMEMORY
#define GEN_PASS_DEF_ALLOCATESHAREDMEMORYNV
#include "tgpu/Conversion/TritonGPUToLLVM/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

int64_t mlir::tgpu::getScratchBytes(Operation *op) {
  // ttng.tensormap_create edits its CUtensorMap in shared memory.
  if (isa<triton::nvidia_gpu::TensormapCreateOp>(op))
    return 128;
  return std::max({getReduceScratchBytes(op), getConvertLayoutScratchBytes(op),
                   getAtomicScratchBytes(op), getCatScratchBytes(op),
                   getScanScratchBytes(op), getGatherScratchBytes(op),
                   getHistogramScratchBytes(op)});
}

int64_t mlir::tgpu::getMaxSharedBytesPerBlock(int computeCapability) {
  // Opt-in maximum per block (CUDA programming guide, "Technical
  // Specifications per Compute Capability").
  switch (computeCapability) {
  case 80:
  case 87:
    return 163 * 1024;
  case 90:
  case 100:
  case 103:
    return 227 * 1024;
  default:
    return 99 * 1024;
  }
}

namespace {

// Places every function's buffers and records the kernel's total; with
// `checkLimit`, fails when it exceeds what compute capability `cc` gives.
LogicalResult allocateSharedMemory(ModuleOp module, int cc, bool checkLimit) {
  if (failed(mlir::tgpu::checkOpsSupported(module)))
    return failure();
  int64_t total = 0;
  for (auto func : module.getOps<tt::FuncOp>()) {
    auto allocation = mlir::tgpu::SharedMemoryAllocation::compute(
        func, mlir::tgpu::getScratchBytes);
    if (failed(allocation))
      return failure();
    if (allocation->getTotalBytes() > 0 && !func.isPublic()) {
      // A callee's buffers would have to be placed above its callers'
      // live ones at every call site.
      return func.emitError("shared memory in a function that is not a "
                            "kernel is not supported; inline it");
    }
    allocation->annotate();
    LLVM_DEBUG(llvm::dbgs() << "@" << func.getName() << ": "
                            << allocation->getTotalBytes() << " bytes\n");
    total = std::max(total, allocation->getTotalBytes());
  }
  int64_t limit = mlir::tgpu::getMaxSharedBytesPerBlock(cc);
  if (checkLimit && total > limit)
    return module.emitError() << "the kernel needs " << total
                              << " bytes of shared memory; cuda:" << cc
                              << " gives a block at most " << limit;
  module->setAttr(
      "ttg.shared",
      IntegerAttr::get(IntegerType::get(module.getContext(), 32), total));
  return success();
}

class AllocateSharedMemory
    : public mlir::tgpu::impl::AllocateSharedMemoryBase<AllocateSharedMemory> {
public:
  using AllocateSharedMemoryBase::AllocateSharedMemoryBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int cc = ttg::lookupComputeCapability(module).value_or(80);
    if (failed(allocateSharedMemory(module, cc, checkLimit)))
      signalPassFailure();
  }
};

class AllocateSharedMemoryNv
    : public mlir::tgpu::impl::AllocateSharedMemoryNvBase<
          AllocateSharedMemoryNv> {
public:
  using AllocateSharedMemoryNvBase::AllocateSharedMemoryNvBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int cc = computeCapability;
    if (cc <= 0)
      cc = ttg::lookupComputeCapability(module).value_or(80);
    if (failed(allocateSharedMemory(module, cc, checkLimit)))
      signalPassFailure();
  }
};

} // namespace
