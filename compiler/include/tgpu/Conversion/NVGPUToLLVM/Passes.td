#ifndef TGPU_CONVERSION_NVGPUTOLLVM_PASSES
#define TGPU_CONVERSION_NVGPUTOLLVM_PASSES

include "mlir/Pass/PassBase.td"

def ConvertNVGPUToLLVM : Pass<"convert-nv-gpu-to-llvm", "mlir::ModuleOp"> {
  let summary = "nvg ops (and ttg.warp_id) -> PTX inline asm and NVVM ops";
  let description = [{
    The second step of the lowering to LLVM, after
    convert-triton-gpu-to-llvm: `nvg.wgmma` becomes its
    `wgmma.mma_async` instruction and `nvg.wgmma_wait_group` a
    `wgmma.wait_group` whose inline asm ties every register of the
    accumulator it hands back (as Triton writes them), `nvg.ld_acquire` an
    `ld.global.<scope>.<sem>` load, `nvg.cluster_id` the cluster rank
    register, and `ttg.warp_id` the warp index (thread id / 32, relative
    to the first warp of its `ttg.warp_specialize` partition, made
    warp-uniform with a shuffle; 0 where only one warp runs). An
    instruction the hardware does not have (a wgmma shape or type pair
    outside the PTX ISA's table, a B operand in registers, an acquire
    load with release order, Blackwell's tensor memory) is a located
    error.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect",
                           "mlir::NVVM::NVVMDialect"];
}

#endif
