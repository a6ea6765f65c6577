// RUN: tgpu-opt %s -split-input-file --tritongpu-optimize-dot-operands | FileCheck %s

// A transposed wgmma operand: the store keeps the source's rows (the
// layout with `transposed` flipped) and the dot reads a transposed view,
// whose type is the old buffer's.
// CHECK-LABEL: tt.func @transposed_b
// CHECK: %[[S:.*]] = ttg.local_alloc %arg1 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
// CHECK: %[[T:.*]] = ttg.memdesc_trans %[[S]] {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
// CHECK: ttng.warp_group_dot %{{.*}}, %[[T]], %{{.*}}
// CHECK-NOT: tt.trans
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blockedT = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#sharedT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @transposed_b(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: tensor<128x64xf16, #blocked>) -> tensor<64x128xf32, #mma> {
    %acc = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
    %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<128x64xf16, #blocked> -> tensor<64x128xf16, #blockedT>
    %bs = ttg.local_alloc %bt : (tensor<64x128xf16, #blockedT>) -> !ttg.memdesc<64x128xf16, #sharedT, #smem>
    %d = ttng.warp_group_dot %a, %bs, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #sharedT, #smem> -> tensor<64x128xf32, #mma>
    tt.return %d : tensor<64x128xf32, #mma>
  }
}

// -----

// Left alone: a buffer with another reader besides the wgmma, and a
// swizzled (mma v2) layout.
// CHECK-LABEL: tt.func @not_only_wgmma
// CHECK: tt.trans
// CHECK: ttg.local_alloc %{{.*}} : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared1, #smem>
// CHECK-LABEL: tt.func @swizzled
// CHECK: tt.trans
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blockedT = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#sharedT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#sw = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @not_only_wgmma(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: tensor<128x64xf16, #blocked>) -> (tensor<64x128xf32, #mma>, tensor<64x128xf16, #blockedT>) {
    %acc = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
    %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<128x64xf16, #blocked> -> tensor<64x128xf16, #blockedT>
    %bs = ttg.local_alloc %bt : (tensor<64x128xf16, #blockedT>) -> !ttg.memdesc<64x128xf16, #sharedT, #smem>
    %d = ttng.warp_group_dot %a, %bs, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #sharedT, #smem> -> tensor<64x128xf32, #mma>
    %r = ttg.local_load %bs : !ttg.memdesc<64x128xf16, #sharedT, #smem> -> tensor<64x128xf16, #blockedT>
    tt.return %d, %r : tensor<64x128xf32, #mma>, tensor<64x128xf16, #blockedT>
  }
  tt.func @swizzled(%b: tensor<128x64xf16, #blocked>) -> tensor<64x128xf16, #blockedT> {
    %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<128x64xf16, #blocked> -> tensor<64x128xf16, #blockedT>
    %bs = ttg.local_alloc %bt : (tensor<64x128xf16, #blockedT>) -> !ttg.memdesc<64x128xf16, #sw, #smem>
    %r = ttg.local_load %bs : !ttg.memdesc<64x128xf16, #sw, #smem> -> tensor<64x128xf16, #blockedT>
    tt.return %r : tensor<64x128xf16, #blockedT>
  }
}
