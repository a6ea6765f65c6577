// Every ttg and ttng op round-trips in the form Triton 3.x prints.
// RUN: tgpu-opt %s | tgpu-opt | FileCheck %s
// RUN: tgpu-opt %s -mlir-print-op-generic | tgpu-opt | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @ops
  tt.func @ops(%t: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>,
               %m: tensor<64x64xi1, #blocked>, %acc: tensor<64x64xf32, #mma>, %i: i32) {
    // CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    %0 = ttg.convert_layout %t : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    // CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    // CHECK: ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %ro = ttg.local_alloc %t : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    // A buffer initialised from a tensor may be mutable (refilled later).
    // CHECK: ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %ro_mutable = ttg.local_alloc %t : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    // CHECK: ttg.memdesc_index %{{.*}}[%{{.*}}] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %view = ttg.memdesc_index %buf[%i] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    // A view may drop mutability (a read-only view of a ring slot).
    // CHECK: ttg.memdesc_index %{{.*}}[%{{.*}}] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %view_ro = ttg.memdesc_index %buf[%i] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem>
    // CHECK: ttg.memdesc_subslice %{{.*}} [0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
    %sub = ttg.memdesc_subslice %view [0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
    // CHECK: ttg.memdesc_trans %{{.*}} {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %tr = ttg.memdesc_trans %ro {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared, #smem>
    // CHECK: ttg.memdesc_reshape %{{.*}} : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %rs = ttg.memdesc_reshape %buf : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    // CHECK: ttg.local_store %{{.*}}, %{{.*}} : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.local_store %t, %view : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %cst = arith.constant dense<0.0> : tensor<64x64xf16, #blocked>
    // CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %{{.*}} other %{{.*}} {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    %tok = ttg.async_copy_global_to_local %p, %view mask %m other %cst {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    // CHECK: ttg.async_commit_group tokens %{{.*}}
    %grp = ttg.async_commit_group tokens %tok
    // CHECK: ttg.async_wait %{{.*}} {num = 0 : i32}
    %w = ttg.async_wait %grp {num = 0 : i32}
    // CHECK: ttg.local_load %{{.*}} token %{{.*}} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    %ld = ttg.local_load %view token %w : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    // CHECK: ttng.fence_async_shared {bCluster = false}
    ttng.fence_async_shared {bCluster = false}
    // CHECK: ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    %d = ttng.warp_group_dot %view, %ro, %acc {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    // CHECK: ttng.warp_group_dot_wait %{{.*}}, %{{.*}} {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem>
    %dw:2 = ttng.warp_group_dot_wait %d, %ro {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem>
    // CHECK: ttg.barrier local
    ttg.barrier local
    // CHECK: ttg.barrier global_read|global_write
    ttg.barrier global_read|global_write
    // CHECK: ttg.barrier all
    ttg.barrier all
    // CHECK: ttg.local_dealloc %{{.*}} : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    ttg.local_dealloc %buf : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}
