// RUN: tgpu-opt %s -split-input-file --tritongpu-reduce-data-duplication | FileCheck %s

// Blocked -> mma v2 operand conversions go through an explicit buffer. The
// swizzles, by hand: a row of the fastest dim holds `inner` elements of
// `bits`; perPhase = max(1024 / (bits * inner), 1) rows share a 128-byte
// line; when the fastest dim is K the vector is 4 * kWidth elements and the
// phases separate the 8 rows of an mma tile, otherwise the other way round;
// maxPhase = max(min(rows, 1024 / (vec * bits)), 1) / perPhase (at least 1).
//  a: 128x32 f16, K fastest, kWidth 2: perPhase 2, vec 8, maxPhase 8 / 2 = 4.
//  b: 32x128 f16 operand B with N fastest: perPhase 1, vec 8, maxPhase 8.
//  c: 64x16 f32 (tf32, kWidth 1), K fastest: perPhase 2, vec 4, maxPhase 4.
//  d: 64x16 f16 operand A with M fastest (order [0, 1]): inner 64,
//     perPhase 1, vec 8 (the rows), maxPhase min(8, 8) = 8.
// CHECK-DAG: #[[A:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #[[B:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[C:.*]] = #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #[[D:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
// CHECK-LABEL: tt.func @operands
// CHECK: %[[SA:.*]] = ttg.local_alloc %arg0 : (tensor<128x32xf16, #blocked>) -> !ttg.memdesc<128x32xf16, #[[A]], #smem>
// CHECK-NEXT: %[[LA:.*]] = ttg.local_load %[[SA]] : !ttg.memdesc<128x32xf16, #[[A]], #smem> -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: ttg.local_alloc %arg1 : (tensor<32x128xf16, #blocked>) -> !ttg.memdesc<32x128xf16, #[[B]], #smem>
// CHECK: ttg.local_alloc %arg2 : (tensor<64x16xf32, #blocked>) -> !ttg.memdesc<64x16xf32, #[[C]], #smem>
// CHECK: ttg.local_alloc %arg3 : (tensor<64x16xf16, #blocked1>) -> !ttg.memdesc<64x16xf16, #[[D]], #smem>
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @operands(%a: tensor<128x32xf16, #blocked>, %b: tensor<32x128xf16, #blocked>, %c: tensor<64x16xf32, #blocked>, %d: tensor<64x16xf16, #blocked1>) {
    %0 = ttg.convert_layout %a : tensor<128x32xf16, #blocked> -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %1 = ttg.convert_layout %b : tensor<32x128xf16, #blocked> -> tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %2 = ttg.convert_layout %c : tensor<64x16xf32, #blocked> -> tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %3 = ttg.convert_layout %d : tensor<64x16xf16, #blocked1> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    tt.return
  }
}

// -----

// Left alone: an mma accumulator into an operand of the same mma (each
// thread already holds its elements: a register permutation), a conversion
// between blocked layouts.
// CHECK-LABEL: tt.func @left_alone
// CHECK-NOT: ttg.local_alloc
// CHECK: ttg.convert_layout %arg0 : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: ttg.convert_layout %arg1 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
// CHECK-NOT: ttg.local_alloc
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @left_alone(%acc: tensor<64x64xf16, #mma>, %x: tensor<64x64xf16, #blocked>) {
    %0 = ttg.convert_layout %acc : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %1 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    tt.return
  }
}
