// RUN: tgpu-opt %s -split-input-file --triton-nvidia-tma-lowering | FileCheck %s

// A descriptor load: a buffer in the descriptor's layout, a one-arrival
// mbarrier expecting the block's 64*64*2 = 8192 bytes, the copy, the wait
// on phase 0, the barrier's release, and a local_load for the register user.
// CHECK-LABEL: tt.func public @load
// CHECK-DAG: %[[TRUE:.+]] = arith.constant true
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #[[NVMMA:.+]], #smem, mutable>
// CHECK-NEXT: %[[BAR:.+]] = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #[[BARL:.+]], #smem, mutable>
// CHECK-NEXT: ttng.init_barrier %[[BAR]], 1
// CHECK-NEXT: ttng.barrier_expect %[[BAR]], 8192, %[[TRUE]]
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg0[%arg1, %arg2] %[[BUF]], %[[BAR]], %[[TRUE]]
// CHECK-NEXT: ttng.wait_barrier %[[BAR]], %[[ZERO]]
// CHECK-NEXT: ttng.inval_barrier %[[BAR]]
// CHECK-NEXT: %[[V:.+]] = ttg.local_load %[[BUF]] : !ttg.memdesc<64x64xf16, #[[NVMMA]], #smem, mutable> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT: tt.return %[[V]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @load(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %i: i32, %j: i32) -> tensor<64x64xf16, #blocked> {
    %v = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<tensor<64x64xf16, #nvmma>> -> tensor<64x64xf16, #blocked>
    tt.return %v : tensor<64x64xf16, #blocked>
  }
}

// -----

// A descriptor store: the value in shared memory (read-only) in the
// descriptor's layout, the proxy fence, the copy, the wait for TMA's read.
// CHECK-LABEL: tt.func public @store
// CHECK-NEXT: %[[BUF:.+]] = ttg.local_alloc %arg3 : (tensor<32x128xf32, #blocked>) -> !ttg.memdesc<32x128xf32, #{{.+}}, #smem>
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %arg0[%arg1, %arg2] %[[BUF]]
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @store(%d: !tt.tensordesc<tensor<32x128xf32, #nvmma>>, %i: i32, %j: i32, %v: tensor<32x128xf32, #blocked>) {
    tt.descriptor_store %d[%i, %j], %v : !tt.tensordesc<tensor<32x128xf32, #nvmma>>, tensor<32x128xf32, #blocked>
    tt.return
  }
}

// -----

// A rank-reducing load (block 1x64x32, tensor 64x32): a rank-2 buffer in
// the block's layout at rank 2, three coordinates; 64*32*4 = 8192 bytes.
// CHECK: #[[NV2:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-LABEL: tt.func public @rank_reducing
// CHECK: %[[BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<64x32xf32, #[[NV2]], #smem, mutable>
// CHECK: ttng.barrier_expect %{{.+}}, 8192
// CHECK: ttng.async_tma_copy_global_to_local %arg0[%arg1, %arg1, %arg1] %[[BUF]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32, rank = 3}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rank_reducing(%d: !tt.tensordesc<tensor<1x64x32xf32, #nvmma3>>, %i: i32) -> tensor<64x32xf32, #blocked> {
    %v = tt.descriptor_load %d[%i, %i, %i] : !tt.tensordesc<tensor<1x64x32xf32, #nvmma3>> -> tensor<64x32xf32, #blocked>
    tt.return %v : tensor<64x32xf32, #blocked>
  }
}

// -----

// Users that put the block back into shared memory: the one in the
// descriptor's own layout, read only through views and wgmma, reads the
// copy's buffer (the transposed view and the buffer warp_group_dot_wait
// passes on become mutable with it); the one in another layout gets the
// block through registers (local_load, then its own alloc).
// CHECK-LABEL: tt.func public @alloc_users
// CHECK: %[[BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #[[NV:[a-z0-9_]+]], #smem, mutable>
// CHECK: ttng.inval_barrier
// CHECK-NEXT: %[[REG:.+]] = ttg.local_load %[[BUF]]
// CHECK-NEXT: %[[T:.+]] = ttg.memdesc_trans %[[BUF]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #[[NV]], #smem, mutable> -> !ttg.memdesc<64x64xf16, #{{.+}}, #smem, mutable>
// CHECK-NEXT: %[[OTHER:.+]] = ttg.local_alloc %[[REG]] : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #{{.+}}, #smem>
// CHECK-NEXT: %[[D:.+]] = ttng.warp_group_dot %[[BUF]], %[[T]]
// CHECK-NEXT: ttng.warp_group_dot_wait %[[D]], %[[BUF]] {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #[[NV]], #smem, mutable>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmma_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#swizzled = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @alloc_users(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %i: i32, %acc: tensor<64x64xf32, #mma>) -> (tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #swizzled, #smem>) {
    %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<64x64xf16, #nvmma>> -> tensor<64x64xf16, #blocked>
    %same = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    %t = ttg.memdesc_trans %same {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #nvmma, #smem> -> !ttg.memdesc<64x64xf16, #nvmma_t, #smem>
    %other = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #swizzled, #smem>
    %dot = ttng.warp_group_dot %same, %t, %acc {isAsync = true} : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma_t, #smem> -> tensor<64x64xf32, #mma>
    %w:2 = ttng.warp_group_dot_wait %dot, %same {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #nvmma, #smem>
    tt.return %w#0, %other : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #swizzled, #smem>
  }
}

// -----

// A same-layout alloc whose view leaves the function keeps its own type:
// the block goes through registers.
// CHECK-LABEL: tt.func public @escaping_view
// CHECK: %[[BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #[[NV:[a-z0-9_]+]], #smem, mutable>
// CHECK: %[[REG:.+]] = ttg.local_load %[[BUF]]
// CHECK-NEXT: %[[SAME:.+]] = ttg.local_alloc %[[REG]] : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #[[NV]], #smem>
// CHECK-NEXT: ttg.memdesc_trans %[[SAME]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmma_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @escaping_view(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %i: i32) -> !ttg.memdesc<64x64xf16, #nvmma_t, #smem> {
    %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<64x64xf16, #nvmma>> -> tensor<64x64xf16, #blocked>
    %same = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    %t = ttg.memdesc_trans %same {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #nvmma, #smem> -> !ttg.memdesc<64x64xf16, #nvmma_t, #smem>
    tt.return %t : !ttg.memdesc<64x64xf16, #nvmma_t, #smem>
  }
}

// -----

// A descriptor made in the kernel: 128 bytes of global scratch hold the
// CUtensorMap: sizes innermost first, byte strides of the outer dims
// (elements times 2 for f16, 4 for f32), the box (a 128-byte swizzle span
// innermost: 64 f16, 32 f32), CUDA's element type (6: f16, 7: f32) and
// swizzle mode (3: 128 bytes); fill mode 1 for NaN padding. Then the acquire fence, and the descriptor is that memory.
// CHECK-LABEL: tt.func public @make_descriptors
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : i32
// CHECK-DAG: %[[TWO:.+]] = arith.constant 2 : i64
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : i32
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : i32
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : i32
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i32
// CHECK-DAG: %[[FOUR:.+]] = arith.constant 4 : i64
// CHECK: %[[S:.+]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
// CHECK-NEXT: %[[ST:.+]] = arith.muli %arg3, %[[TWO]] : i64
// CHECK-NEXT: ttng.tensormap_create %[[S]], %arg0, [%[[C64]], %[[C64]]], [%arg2, %arg1], [%[[ST]]], [%[[ONE]], %[[ONE]]] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32}
// CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[S]] : !tt.ptr<i8>
// CHECK-NEXT: ttng.reinterpret_tensor_descriptor %[[S]] : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #{{.+}}>>
// CHECK-NEXT: %[[S3:.+]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
// CHECK-NEXT: %[[ST1:.+]] = arith.muli %arg3, %[[FOUR]] : i64
// CHECK-NEXT: %[[ST0:.+]] = arith.muli %arg4, %[[FOUR]] : i64
// CHECK-NEXT: ttng.tensormap_create %[[S3]], %arg5, [%[[C32]], %[[C8]], %[[C2]]], [%arg1, %arg2, %arg1], [%[[ST1]], %[[ST0]]], [%[[ONE]], %[[ONE]], %[[ONE]]] {elem_type = 7 : i32, fill_mode = 1 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32}
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmma3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32, rank = 3}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @make_descriptors(%p: !tt.ptr<f16>, %m: i32, %n: i32, %ld: i64, %ld2: i64, %q: !tt.ptr<f32>) -> (!tt.tensordesc<tensor<64x64xf16, #nvmma>>, !tt.tensordesc<tensor<2x8x32xf32, #nvmma3>>) {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%ld, %c1] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16, #nvmma>>
    %e = tt.make_tensor_descriptor %q, [%m, %n, %m], [%ld2, %ld, %c1] {padding = 2 : i32} : !tt.ptr<f32>, !tt.tensordesc<tensor<2x8x32xf32, #nvmma3>>
    tt.return %d, %e : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !tt.tensordesc<tensor<2x8x32xf32, #nvmma3>>
  }
}
