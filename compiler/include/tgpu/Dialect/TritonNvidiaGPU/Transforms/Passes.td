#ifndef TGPU_DIALECT_TRITONNVIDIAGPU_TRANSFORMS_PASSES
#define TGPU_DIALECT_TRITONNVIDIAGPU_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def TritonNvidiaGPUFenceInsertion
    : Pass<"triton-nvidia-gpu-fence-insertion", "mlir::ModuleOp"> {
  let summary = "fence generic-proxy shared-memory writes before wgmma reads them";
  let description = [{
    wgmma reads its shared-memory operands through the async proxy; what
    threads wrote there with ordinary stores (a ttg.local_alloc with an
    initial value, a ttg.local_store) is visible to it only after a proxy
    fence in each writing thread, before the barrier that orders the writes
    with the read. Before every ttng.warp_group_dot with an operand whose
    buffer (through memdesc views, and through the initial and yielded
    values of a view a loop carries) is so written, this puts a
    ttng.fence_async_shared (tritongpu-membar then places its barrier
    between the fence and the dot), unless one is already there. Buffers
    filled by cp.async are fenced where their async_wait is lowered.
  }];
  let dependentDialects = ["mlir::triton::nvidia_gpu::TritonNvidiaGPUDialect"];
}

#endif
