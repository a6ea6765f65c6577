// tritongpu-global-scratch-memory-allocation: offsets for each program's
// global scratch buffers (see Passes.td).
#include "tgpu/Conversion/TritonGPUToLLVM/Passes.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "llvm/Support/MathExtras.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUGLOBALSCRATCHALLOCATION
#include "tgpu/Conversion/TritonGPUToLLVM/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

struct GlobalScratchAllocation
    : public mlir::tgpu::impl::TritonGPUGlobalScratchAllocationBase<
          GlobalScratchAllocation> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    bool failed = false;
    for (auto func : module.getOps<tt::FuncOp>()) {
      // Every buffer lives for the whole program: no reuse, as in Triton.
      uint64_t offset = 0, alignment = 1;
      func.walk([&](ttg::GlobalScratchAllocOp alloc) {
        if (!func.isPublic()) {
          alloc.emitOpError("is not supported in a function that is not a "
                            "kernel (it has no global scratch pointer); "
                            "inline it");
          failed = true;
          return;
        }
        uint64_t align = alloc.getAlignment();
        if (align == 0 || !llvm::isPowerOf2_64(align)) {
          alloc.emitOpError("alignment must be a power of two, got ") << align;
          failed = true;
          return;
        }
        offset = llvm::alignTo(offset, align);
        alloc->setAttr("ttg.global_scratch_memory_offset",
                       b.getI32IntegerAttr(int32_t(offset)));
        offset += alloc.getNbytes();
        alignment = std::max(alignment, align);
      });
      if (failed)
        return signalPassFailure();
      if (!func.isPublic())
        continue;
      uint64_t size = llvm::alignTo(offset, alignment);
      if (size > uint64_t(std::numeric_limits<int32_t>::max())) {
        func.emitError() << "needs " << size
                         << " bytes of global scratch a program, more "
                            "than the 2^31 - 1 supported";
        return signalPassFailure();
      }
      for (Operation *op : {func.getOperation(), module.getOperation()}) {
        op->setAttr("ttg.global_scratch_memory_size",
                    b.getI32IntegerAttr(int32_t(size)));
        op->setAttr("ttg.global_scratch_memory_alignment",
                    b.getI32IntegerAttr(int32_t(alignment)));
      }
    }
  }
};

} // namespace
