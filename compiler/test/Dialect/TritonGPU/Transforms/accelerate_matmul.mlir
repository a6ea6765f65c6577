// RUN: tgpu-opt %s -split-input-file --tritongpu-accelerate-matmul | FileCheck %s

// cuda:80: mma.sync (#ttg.nvidia_mma v2) for every dot tensor cores take.

// Warps per tile: each doubling goes to the dim with more 16x8 tiles per
// warp, M on ties. 128x64 at 4 warps: tiles 8x8 -> [2,1] (8 >= 8), then
// 4x8 -> [2,2]: what Triton 3.6 chose for the same dot in
// corpus/kernels/triton/matmul_f16_sm80.ttgir. f16 operands get kWidth 2
// (32 bits per register pair).
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @f16_128x64
// CHECK: %[[C:.*]] = ttg.convert_layout %arg2 {{.*}} -> tensor<128x64xf32, #[[MMA]]>
// CHECK: %[[A:.*]] = ttg.convert_layout %arg0 {{.*}} -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>>
// CHECK: %[[B:.*]] = ttg.convert_layout %arg1 {{.*}} -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>>
// CHECK: %[[D:.*]] = tt.dot %[[A]], %[[B]], %[[C]], inputPrecision = tf32 {{.*}} -> tensor<128x64xf32, #[[MMA]]>
// CHECK: %[[R:.*]] = ttg.convert_layout %[[D]] {{.*}} -> tensor<128x64xf32, #blocked>
// CHECK: tt.return %[[R]]
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
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
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
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
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @chained(%q: tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %k: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %s0: tensor<64x16xf32, #blocked>, %v: tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %o0: tensor<64x32xf32, #blocked>) -> tensor<64x32xf32, #blocked> {
    %s = tt.dot %q, %k, %s0 : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x16xf32, #blocked>
    %p = arith.truncf %s : tensor<64x16xf32, #blocked> to tensor<64x16xf16, #blocked>
    %pa = ttg.convert_layout %p : tensor<64x16xf16, #blocked> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %o = tt.dot %pa, %v, %o0 : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x32xf32, #blocked>
    tt.return %o : tensor<64x32xf32, #blocked>
  }
}

// -----

// cuda:90, Triton's wgmma rules. 128x128x64 f16 at 4 warps: warp groups
// along M while M has rows (4 warps x 16 >= ... one warp group: [4, 1]);
// instrShape n = the widest of wgmma's n dividing N and at most N / (warps
// left for N) = 128, k = 256 / 16 bits. Both operands come from loads:
// local_alloc of the loaded values (one per dot) in nvmma_shared, their
// contiguous dim (64 and 128 f16 = 128 and 256 bytes) taking the 128-byte
// swizzle. The
// same dot accumulating in f16 takes wgmma too; one whose A is computed in
// registers (a negation of the load) keeps A there, as #ttg.dot_op of the
// result layout with 32 bits of K a thread (kWidth 2), converted from the
// value before its dot_op<blocked> conversion.
// CHECK-DAG: #[[MMA3:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// CHECK-DAG: #[[SH:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func @wgmma_f16
// CHECK: %[[A:.*]] = tt.load %arg0
// CHECK-COUNT-2: ttg.local_alloc %[[A]] : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #[[SH]], #smem>
// CHECK: %[[B:.*]] = tt.load %arg1
// CHECK-COUNT-3: ttg.local_alloc %[[B]] : (tensor<64x128xf16, #blocked>) -> !ttg.memdesc<64x128xf16, #[[SH]], #smem>
// CHECK: ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : !ttg.memdesc<128x64xf16, #[[SH]], #smem> * !ttg.memdesc<64x128xf16, #[[SH]], #smem> -> tensor<128x128xf32, #[[MMA3]]>
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<128x128xf16, #[[MMA3]]>
// CHECK: %[[N:.*]] = arith.negf %[[A]] : tensor<128x64xf16, #blocked>
// CHECK: %[[ND:.*]] = ttg.convert_layout %[[N]] : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %[[NR:.*]] = ttg.convert_layout %[[ND]] : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA3]], kWidth = 2}>>
// CHECK: ttng.warp_group_dot %[[NR]], %{{.*}} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA3]], kWidth = 2}>> * !ttg.memdesc<64x128xf16, #[[SH]], #smem> -> tensor<128x128xf32, #[[MMA3]]>
// CHECK-NOT: tt.dot
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_f16(%pa: tensor<128x64x!tt.ptr<f16>, #blocked>, %pb: tensor<64x128x!tt.ptr<f16>, #blocked>, %c: tensor<128x128xf32, #blocked>, %h: tensor<128x128xf16, #blocked>) -> (tensor<128x128xf32, #blocked>, tensor<128x128xf16, #blocked>, tensor<128x128xf32, #blocked>) {
    %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #blocked>
    %b = tt.load %pb : tensor<64x128x!tt.ptr<f16>, #blocked>
    %ad = ttg.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %bd = ttg.convert_layout %b : tensor<64x128xf16, #blocked> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %ad, %bd, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    %e = tt.dot %ad, %bd, %h : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf16, #blocked>
    %n = arith.negf %a : tensor<128x64xf16, #blocked>
    %nd = ttg.convert_layout %n : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %f = tt.dot %nd, %bd, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d, %e, %f : tensor<128x128xf32, #blocked>, tensor<128x128xf16, #blocked>, tensor<128x128xf32, #blocked>
  }
}

// -----

// A descriptor load counts as a load (Triton's comesFromLoadOrBlockArg): the
// loaded A is staged in shared memory for wgmma, not kept in registers.
// CHECK-LABEL: tt.func @wgmma_descriptor_a
// CHECK: %[[A:.*]] = tt.descriptor_load
// CHECK: ttg.local_alloc %[[A]] : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #{{.*}}, #smem>
// CHECK: ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : !ttg.memdesc<128x64xf16, {{.*}}> * !ttg.memdesc<64x128xf16, {{.*}}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_descriptor_a(%da: !tt.tensordesc<tensor<128x64xf16>>, %pb: tensor<64x128x!tt.ptr<f16>, #blocked>, %c: tensor<128x128xf32, #blocked>, %i: i32) -> tensor<128x128xf32, #blocked> {
    %a = tt.descriptor_load %da[%i, %i] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #blocked>
    %b = tt.load %pb : tensor<64x128x!tt.ptr<f16>, #blocked>
    %ad = ttg.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %bd = ttg.convert_layout %b : tensor<64x128xf16, #blocked> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %ad, %bd, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// 128x256x32 tf32 at 8 warps: M has rows for both warp groups ([8, 1]), so
// instrShape n = 256, k = 8. tf32 is read K-major only: A [128, 32] keeps
// K contiguous (128 bytes), B [32, 256] is stored transposed (K contiguous,
// 32 f32 = 128 bytes) whatever its register order.
// CHECK-DAG: #[[MMA3:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 256, 8]}>
// CHECK-DAG: #[[SA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #[[SB:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
// CHECK-LABEL: tt.func @wgmma_tf32
// CHECK: ttng.warp_group_dot {{.*}} : !ttg.memdesc<128x32xf32, #[[SA]], #smem> * !ttg.memdesc<32x256xf32, #[[SB]], #smem> -> tensor<128x256xf32, #[[MMA3]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_tf32(%pa: tensor<128x32x!tt.ptr<f32>, #blocked>, %pb: tensor<32x256x!tt.ptr<f32>, #blocked>, %c: tensor<128x256xf32, #blocked>) -> tensor<128x256xf32, #blocked> {
    %a = tt.load %pa : tensor<128x32x!tt.ptr<f32>, #blocked>
    %b = tt.load %pb : tensor<32x256x!tt.ptr<f32>, #blocked>
    %ad = ttg.convert_layout %a : tensor<128x32xf32, #blocked> -> tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %bd = ttg.convert_layout %b : tensor<32x256xf32, #blocked> -> tensor<32x256xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %ad, %bd, %c, inputPrecision = tf32 : tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x256xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x256xf32, #blocked>
    tt.return %d : tensor<128x256xf32, #blocked>
  }
}

// -----

// 8-bit operands, which mma.sync does not take here: i8 into i32 and fp8
// into f16 on wgmma, K-major in shared memory (64 bytes of K: the 64-byte
// swizzle), instrShape k = 32. fp8 into f32 with maxNumImpreciseAcc < 32
// does not take wgmma, as in Triton (wgmma's fp8 accumulator keeps fewer
// mantissa bits than f32); Triton then widens it to f16 for mma.sync,
// tgpu keeps it on the FMA path.
// CHECK-DAG: #[[MMA3:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
// CHECK-DAG: #[[SA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[SB:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
// CHECK-LABEL: tt.func @wgmma_8bit
// CHECK: ttng.warp_group_dot {{.*}} : !ttg.memdesc<64x64xi8, #[[SA]], #smem> * !ttg.memdesc<64x64xi8, #[[SB]], #smem> -> tensor<64x64xi32, #[[MMA3]]>
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<64x64xf16, #[[MMA3]]>
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_8bit(%pa: tensor<64x64x!tt.ptr<i8>, #blocked>, %pb: tensor<64x64x!tt.ptr<i8>, #blocked>, %c: tensor<64x64xi32, #blocked>, %fa: tensor<64x64x!tt.ptr<f8E4M3FN>, #blocked>, %fb: tensor<64x64x!tt.ptr<f8E4M3FN>, #blocked>, %h: tensor<64x64xf16, #blocked>, %f: tensor<64x64xf32, #blocked>) -> (tensor<64x64xi32, #blocked>, tensor<64x64xf16, #blocked>, tensor<64x64xf32, #blocked>) {
    %a = tt.load %pa : tensor<64x64x!tt.ptr<i8>, #blocked>
    %b = tt.load %pb : tensor<64x64x!tt.ptr<i8>, #blocked>
    %ad = ttg.convert_layout %a : tensor<64x64xi8, #blocked> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %bd = ttg.convert_layout %b : tensor<64x64xi8, #blocked> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %ad, %bd, %c : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xi32, #blocked>
    %x = tt.load %fa : tensor<64x64x!tt.ptr<f8E4M3FN>, #blocked>
    %y = tt.load %fb : tensor<64x64x!tt.ptr<f8E4M3FN>, #blocked>
    %xd = ttg.convert_layout %x : tensor<64x64xf8E4M3FN, #blocked> -> tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %yd = ttg.convert_layout %y : tensor<64x64xf8E4M3FN, #blocked> -> tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %e = tt.dot %xd, %yd, %h : tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf16, #blocked>
    %g = tt.dot %xd, %yd, %f : tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d, %e, %g : tensor<64x64xi32, #blocked>, tensor<64x64xf16, #blocked>, tensor<64x64xf32, #blocked>
  }
}

// -----

// Dots left on the FMA path compute in their result's float type, as
// Triton's accelerate-matmul leaves them: 16-bit operands extended, 8-bit
// floats converted (tt.fp_to_fp), integers untouched. The 8-row dot has no
// mma.sync form.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @fma_f16
  // CHECK: %[[A:.*]] = arith.extf %arg0 : tensor<8x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> to tensor<8x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
  // CHECK: %[[B:.*]] = arith.extf %arg1 : tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> to tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
  // CHECK: tt.dot %[[A]], %[[B]], %{{.*}} : tensor<8x16xf32, {{.*}}> * tensor<16x32xf32, {{.*}}> -> tensor<8x32xf32, #blocked>
  tt.func public @fma_f16(%a: tensor<8x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<8x32xf32, #blocked> {
    %c = arith.constant dense<0.000000e+00> : tensor<8x32xf32, #blocked>
    %d = tt.dot %a, %b, %c : tensor<8x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<8x32xf32, #blocked>
    tt.return %d : tensor<8x32xf32, #blocked>
  }
  // CHECK-LABEL: tt.func public @fma_fp8
  // CHECK: %[[A:.*]] = tt.fp_to_fp %arg0 : tensor<8x16xf8E5M2, {{.*}}> -> tensor<8x16xf32, {{.*}}>
  // CHECK: %[[B:.*]] = tt.fp_to_fp %arg1 : tensor<16x32xf8E5M2, {{.*}}> -> tensor<16x32xf32, {{.*}}>
  // CHECK: tt.dot %[[A]], %[[B]]
  tt.func public @fma_fp8(%a: tensor<8x16xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x32xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<8x32xf32, #blocked> {
    %c = arith.constant dense<0.000000e+00> : tensor<8x32xf32, #blocked>
    %d = tt.dot %a, %b, %c : tensor<8x16xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x32xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<8x32xf32, #blocked>
    tt.return %d : tensor<8x32xf32, #blocked>
  }
  // CHECK-LABEL: tt.func public @fma_i8
  // CHECK-NOT: arith.ext
  // CHECK: tt.dot %arg0, %arg1, %{{.*}} : tensor<8x16xi8, {{.*}}> * tensor<16x32xi8, {{.*}}> -> tensor<8x32xi32, #blocked>
  tt.func public @fma_i8(%a: tensor<8x16xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x32xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<8x32xi32, #blocked> {
    %c = arith.constant dense<0> : tensor<8x32xi32, #blocked>
    %d = tt.dot %a, %b, %c : tensor<8x16xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x32xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<8x32xi32, #blocked>
    tt.return %d : tensor<8x32xi32, #blocked>
  }
}

// -----

// Before Ampere (cuda:75) every dot stays on the FMA path, its f16 operands
// extended to f32.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @turing
  // CHECK-NOT: #ttg.nvidia_mma
  // CHECK: %[[A:.*]] = arith.extf %arg0
  // CHECK: %[[B:.*]] = arith.extf %arg1
  // CHECK: tt.dot %[[A]], %[[B]], %{{.*}} -> tensor<64x64xf32, #blocked>
  tt.func public @turing(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<64x64xf32, #blocked> {
    %c = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// An mma.sync dot of 8-bit floats on a target without fp8 mma.sync (all but
// sm_89) gets f16 operands, converted in their dot operand layouts.
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @mma_fp8
  // CHECK: %[[A:.*]] = tt.fp_to_fp %arg0 : tensor<32x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
  // CHECK: %[[B:.*]] = tt.fp_to_fp %arg1
  // CHECK: tt.dot %[[A]], %[[B]], %{{.*}} : tensor<32x32xf16, {{.*}}> * tensor<32x32xf16, {{.*}}> -> tensor<32x32xf32, #mma>
  tt.func public @mma_fp8(%a: tensor<32x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, %b: tensor<32x32xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>) -> tensor<32x32xf32, #mma> {
    %c = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<32x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x32xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<32x32xf32, #mma>
    tt.return %d : tensor<32x32xf32, #mma>
  }
}
