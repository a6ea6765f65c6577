// RUN: tgpu-opt %s -split-input-file --tritongpu-accelerate-matmul | FileCheck %s

// Warps per tile: each doubling goes to the dim with more 16x8 tiles per
// warp, M on ties. 128x64 at 4 warps: tiles 8x8 -> [2,1] (8 >= 8), then
// 4x8 -> [2,2]: what Triton 3.6 chose for the same dot in
// corpus/kernels/triton/matmul_f16_sm80.ttgir. f16 operands get kWidth 2
// (32 bits per register pair).
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @f16_128x64
// CHECK: %[[A:.*]] = ttg.convert_layout %arg0 {{.*}} -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>>
// CHECK: %[[B:.*]] = ttg.convert_layout %arg1 {{.*}} -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>>
// CHECK: %[[C:.*]] = ttg.convert_layout %arg2 {{.*}} -> tensor<128x64xf32, #[[MMA]]>
// CHECK: %[[D:.*]] = tt.dot %[[A]], %[[B]], %[[C]], inputPrecision = tf32 {{.*}} -> tensor<128x64xf32, #[[MMA]]>
// CHECK: %[[R:.*]] = ttg.convert_layout %[[D]] {{.*}} -> tensor<128x64xf32, #blocked>
// CHECK: tt.return %[[R]]
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f16_128x64(%a: tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x64xf32, #blocked>
    tt.return %d : tensor<128x64xf32, #blocked>
  }
}

// -----

// 64x64 at 8 warps: tiles 4x8 -> N [1,2]; 4x4 -> M [2,2]; 2x4 -> N [2,4].
// f32 with tf32: kWidth 1. The same dot with ieee stays on the FMA path, and
// so does an f16 dot whose K (8) is not a multiple of the instruction's 16.
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @f32
// CHECK: tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 1}>>
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #[[MMA]]>
// CHECK: tt.dot %arg0, %arg1, %arg2 : {{.*}} -> tensor<64x64xf32, #blocked>
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f32(%a: tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>, %h: tensor<64x8xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %g: tensor<8x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> (tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>) {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %e = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %f = tt.dot %h, %g, %c : tensor<64x8xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<8x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d, %e, %f : tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>
  }
}

// -----

// A dot feeding another dot (attention's two matmuls) puts every warp along
// its longer dim, M here: [4, 1] for the first, and the second takes the
// first's split (on its own, 64x32 would get [2, 2]: tiles 4x4 -> M, 2x4 -> N).
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-NOT: nvidia_mma
// CHECK-LABEL: tt.func @chained
// CHECK: tt.dot {{.*}} -> tensor<64x16xf32, #[[MMA]]>
// CHECK: tt.dot {{.*}} -> tensor<64x32xf32, #[[MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @chained(%q: tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %k: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %s0: tensor<64x16xf32, #blocked>, %v: tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %o0: tensor<64x32xf32, #blocked>) -> tensor<64x32xf32, #blocked> {
    %s = tt.dot %q, %k, %s0 : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x16xf32, #blocked>
    %p = arith.truncf %s : tensor<64x16xf32, #blocked> to tensor<64x16xf16, #blocked>
    %pa = ttg.convert_layout %p : tensor<64x16xf16, #blocked> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %o = tt.dot %pa, %v, %o0 : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x32xf32, #blocked>
    tt.return %o : tensor<64x32xf32, #blocked>
  }
}
