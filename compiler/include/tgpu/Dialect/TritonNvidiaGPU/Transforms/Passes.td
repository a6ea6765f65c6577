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

def TritonNvidiaGPUOptimizeDescriptorEncoding
    : Pass<"triton-nvidia-optimize-descriptor-encoding", "mlir::ModuleOp"> {
  let summary = "give each tensor descriptor's block the shared layout its TMA "
                "copies use";
  let description = [{
    A TMA copy writes (or reads) its block in shared memory in the layout
    its CUtensorMap's swizzle gives, so every descriptor's block type needs
    a shared layout before triton-nvidia-tma-lowering. Descriptors that
    control flow ties together (scf.for, scf.while and scf.if arguments,
    yields and results) get one layout. It is the layout the loaded
    blocks' users put them in, when they store them to shared memory in a
    non-transposed `#ttg.nvmma_shared` layout and all such users agree;
    otherwise Triton's default: `#ttg.nvmma_shared` with the widest
    swizzle (128, 64 or 32 bytes) that the contiguous row of the smallest
    block a copy moves is a multiple of, no swizzle for fewer than 8 rows.
    A descriptor seen by a call, a return, a reinterpretation or a
    non-kernel function's signature gets the default for its whole block,
    which the other side can predict. Function result types follow.
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect"];
}

def TritonNvidiaGPUTMALowering
    : Pass<"triton-nvidia-tma-lowering", "mlir::ModuleOp"> {
  let summary = "lower tensor-descriptor loads and stores to TMA copies, and "
                "descriptors made in the kernel to tensormaps";
  let description = [{
    `tt.descriptor_load` (and `descriptor_gather`) becomes a mutable
    `ttg.local_alloc` in the descriptor's shared layout, a one-arrival
    mbarrier (`ttng.init_barrier`) expecting the block's bytes
    (`ttng.barrier_expect`), the TMA copy, `ttng.wait_barrier` on phase
    0, `ttng.inval_barrier`, and a `ttg.local_load` for the users that
    want registers; a user that stores the block back to shared memory in
    the same layout reads the copy's buffer instead (views of it and
    buffers passed through `ttng.warp_group_dot_wait` follow its
    mutability). `tt.descriptor_store` (and `descriptor_reduce`,
    `descriptor_scatter`) becomes a `ttg.local_alloc` of the value, a
    `ttng.fence_async_shared` (the generic-proxy writes must be visible to
    the async proxy that TMA reads through), the copy, and
    `ttng.async_tma_store_wait {pendings = 0}`. A copy of fewer dims than
    the block (rank-reducing) uses the block's layout at the tensor's
    rank. `tt.make_tensor_descriptor` becomes 128 bytes of global scratch
    (`ttg.global_scratch_alloc`) that `ttng.tensormap_create` fills with
    the CUtensorMap (sizes and byte strides innermost first, Triton's box
    for the block's layout, CUDA's element type, the swizzle mode),
    `ttng.tensormap_fenceproxy_acquire`, and
    `ttng.reinterpret_tensor_descriptor` of that memory. The descriptors
    need their layouts first
    (triton-nvidia-optimize-descriptor-encoding): one without is an
    error at the op.
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect",
                           "mlir::triton::nvidia_gpu::TritonNvidiaGPUDialect",
                           "mlir::arith::ArithDialect"];
}

#endif
