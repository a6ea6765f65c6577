// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// FMA path, 32x16 += 32x8 * 8x16, f16 operands and an f32 accumulator, on
// blocked sizePerThread [2, 2], threadsPerWarp [8, 4], warpsPerCTA [2, 2]
// (order [1, 0]) and its #ttg.dot_op operands:
//   result: register bits (0,1), (1,0): registers (m, n) = (0,0), (0,1),
//           (1,0), (1,1) relative to the thread's corner;
//   A (32x8): register bits (0,1), (0,2), (0,4), (1,0): a[m][k] is
//           register k + 8 m (16 registers);
//   B (8x16): register bits (0,1), (1,0), (2,0), (4,0): b[k][n] is
//           register 2 k + n (16 registers).
// Each thread: 4 results x K = 8 = 32 fmas = M N K / threads = 32*16*8/128,
// each operand extended f16 -> f32 first. Result register 0 is the chain
// fma(a[0][k], b[k][0], acc) for k = 0..7 starting from acc register 0,
// i.e. A registers 0..7 with B registers 0, 2, .., 14; register 1 pairs
// A 0..7 with B 1, 3, ..; register 2 A 8..15 with B 0, 2, ..; register 3
// A 8..15 with B 1, 3, .., 15. No shared memory.
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @dot_f16
// CHECK: %[[A0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[A1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[A2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[A3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: %[[A4:.*]] = llvm.extractvalue %arg0[4]
// CHECK: %[[A5:.*]] = llvm.extractvalue %arg0[5]
// CHECK: %[[A6:.*]] = llvm.extractvalue %arg0[6]
// CHECK: %[[A7:.*]] = llvm.extractvalue %arg0[7]
// CHECK: %[[A8:.*]] = llvm.extractvalue %arg0[8]
// CHECK: %[[A9:.*]] = llvm.extractvalue %arg0[9]
// CHECK: %[[A10:.*]] = llvm.extractvalue %arg0[10]
// CHECK: %[[A11:.*]] = llvm.extractvalue %arg0[11]
// CHECK: %[[A12:.*]] = llvm.extractvalue %arg0[12]
// CHECK: %[[A13:.*]] = llvm.extractvalue %arg0[13]
// CHECK: %[[A14:.*]] = llvm.extractvalue %arg0[14]
// CHECK: %[[A15:.*]] = llvm.extractvalue %arg0[15]
// CHECK: %[[B0:.*]] = llvm.extractvalue %arg1[0]
// CHECK: %[[B1:.*]] = llvm.extractvalue %arg1[1]
// CHECK: %[[B2:.*]] = llvm.extractvalue %arg1[2]
// CHECK: %[[B3:.*]] = llvm.extractvalue %arg1[3]
// CHECK: %[[B4:.*]] = llvm.extractvalue %arg1[4]
// CHECK: %[[B5:.*]] = llvm.extractvalue %arg1[5]
// CHECK: %[[B6:.*]] = llvm.extractvalue %arg1[6]
// CHECK: %[[B7:.*]] = llvm.extractvalue %arg1[7]
// CHECK: %[[B8:.*]] = llvm.extractvalue %arg1[8]
// CHECK: %[[B9:.*]] = llvm.extractvalue %arg1[9]
// CHECK: %[[B10:.*]] = llvm.extractvalue %arg1[10]
// CHECK: %[[B11:.*]] = llvm.extractvalue %arg1[11]
// CHECK: %[[B12:.*]] = llvm.extractvalue %arg1[12]
// CHECK: %[[B13:.*]] = llvm.extractvalue %arg1[13]
// CHECK: %[[B14:.*]] = llvm.extractvalue %arg1[14]
// CHECK: %[[B15:.*]] = llvm.extractvalue %arg1[15]
// CHECK: %[[C0:.*]] = llvm.extractvalue %arg2[0]
// CHECK: %[[C1:.*]] = llvm.extractvalue %arg2[1]
// CHECK: %[[C2:.*]] = llvm.extractvalue %arg2[2]
// CHECK: %[[C3:.*]] = llvm.extractvalue %arg2[3]
// CHECK: %[[EA0_0:.*]] = llvm.fpext %[[A0]] : f16 to f32
// CHECK: %[[EB0_0:.*]] = llvm.fpext %[[B0]] : f16 to f32
// CHECK: %[[F0_0:.*]] = llvm.intr.fma(%[[EA0_0]], %[[EB0_0]], %[[C0]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA0_1:.*]] = llvm.fpext %[[A1]] : f16 to f32
// CHECK: %[[EB0_1:.*]] = llvm.fpext %[[B2]] : f16 to f32
// CHECK: %[[F0_1:.*]] = llvm.intr.fma(%[[EA0_1]], %[[EB0_1]], %[[F0_0]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA0_2:.*]] = llvm.fpext %[[A2]] : f16 to f32
// CHECK: %[[EB0_2:.*]] = llvm.fpext %[[B4]] : f16 to f32
// CHECK: %[[F0_2:.*]] = llvm.intr.fma(%[[EA0_2]], %[[EB0_2]], %[[F0_1]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA0_3:.*]] = llvm.fpext %[[A3]] : f16 to f32
// CHECK: %[[EB0_3:.*]] = llvm.fpext %[[B6]] : f16 to f32
// CHECK: %[[F0_3:.*]] = llvm.intr.fma(%[[EA0_3]], %[[EB0_3]], %[[F0_2]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA0_4:.*]] = llvm.fpext %[[A4]] : f16 to f32
// CHECK: %[[EB0_4:.*]] = llvm.fpext %[[B8]] : f16 to f32
// CHECK: %[[F0_4:.*]] = llvm.intr.fma(%[[EA0_4]], %[[EB0_4]], %[[F0_3]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA0_5:.*]] = llvm.fpext %[[A5]] : f16 to f32
// CHECK: %[[EB0_5:.*]] = llvm.fpext %[[B10]] : f16 to f32
// CHECK: %[[F0_5:.*]] = llvm.intr.fma(%[[EA0_5]], %[[EB0_5]], %[[F0_4]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA0_6:.*]] = llvm.fpext %[[A6]] : f16 to f32
// CHECK: %[[EB0_6:.*]] = llvm.fpext %[[B12]] : f16 to f32
// CHECK: %[[F0_6:.*]] = llvm.intr.fma(%[[EA0_6]], %[[EB0_6]], %[[F0_5]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA0_7:.*]] = llvm.fpext %[[A7]] : f16 to f32
// CHECK: %[[EB0_7:.*]] = llvm.fpext %[[B14]] : f16 to f32
// CHECK: %[[F0_7:.*]] = llvm.intr.fma(%[[EA0_7]], %[[EB0_7]], %[[F0_6]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA1_0:.*]] = llvm.fpext %[[A0]] : f16 to f32
// CHECK: %[[EB1_0:.*]] = llvm.fpext %[[B1]] : f16 to f32
// CHECK: %[[F1_0:.*]] = llvm.intr.fma(%[[EA1_0]], %[[EB1_0]], %[[C1]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA1_1:.*]] = llvm.fpext %[[A1]] : f16 to f32
// CHECK: %[[EB1_1:.*]] = llvm.fpext %[[B3]] : f16 to f32
// CHECK: %[[F1_1:.*]] = llvm.intr.fma(%[[EA1_1]], %[[EB1_1]], %[[F1_0]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA1_2:.*]] = llvm.fpext %[[A2]] : f16 to f32
// CHECK: %[[EB1_2:.*]] = llvm.fpext %[[B5]] : f16 to f32
// CHECK: %[[F1_2:.*]] = llvm.intr.fma(%[[EA1_2]], %[[EB1_2]], %[[F1_1]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA1_3:.*]] = llvm.fpext %[[A3]] : f16 to f32
// CHECK: %[[EB1_3:.*]] = llvm.fpext %[[B7]] : f16 to f32
// CHECK: %[[F1_3:.*]] = llvm.intr.fma(%[[EA1_3]], %[[EB1_3]], %[[F1_2]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA1_4:.*]] = llvm.fpext %[[A4]] : f16 to f32
// CHECK: %[[EB1_4:.*]] = llvm.fpext %[[B9]] : f16 to f32
// CHECK: %[[F1_4:.*]] = llvm.intr.fma(%[[EA1_4]], %[[EB1_4]], %[[F1_3]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA1_5:.*]] = llvm.fpext %[[A5]] : f16 to f32
// CHECK: %[[EB1_5:.*]] = llvm.fpext %[[B11]] : f16 to f32
// CHECK: %[[F1_5:.*]] = llvm.intr.fma(%[[EA1_5]], %[[EB1_5]], %[[F1_4]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA1_6:.*]] = llvm.fpext %[[A6]] : f16 to f32
// CHECK: %[[EB1_6:.*]] = llvm.fpext %[[B13]] : f16 to f32
// CHECK: %[[F1_6:.*]] = llvm.intr.fma(%[[EA1_6]], %[[EB1_6]], %[[F1_5]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA1_7:.*]] = llvm.fpext %[[A7]] : f16 to f32
// CHECK: %[[EB1_7:.*]] = llvm.fpext %[[B15]] : f16 to f32
// CHECK: %[[F1_7:.*]] = llvm.intr.fma(%[[EA1_7]], %[[EB1_7]], %[[F1_6]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA2_0:.*]] = llvm.fpext %[[A8]] : f16 to f32
// CHECK: %[[EB2_0:.*]] = llvm.fpext %[[B0]] : f16 to f32
// CHECK: %[[F2_0:.*]] = llvm.intr.fma(%[[EA2_0]], %[[EB2_0]], %[[C2]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA2_1:.*]] = llvm.fpext %[[A9]] : f16 to f32
// CHECK: %[[EB2_1:.*]] = llvm.fpext %[[B2]] : f16 to f32
// CHECK: %[[F2_1:.*]] = llvm.intr.fma(%[[EA2_1]], %[[EB2_1]], %[[F2_0]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA2_2:.*]] = llvm.fpext %[[A10]] : f16 to f32
// CHECK: %[[EB2_2:.*]] = llvm.fpext %[[B4]] : f16 to f32
// CHECK: %[[F2_2:.*]] = llvm.intr.fma(%[[EA2_2]], %[[EB2_2]], %[[F2_1]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA2_3:.*]] = llvm.fpext %[[A11]] : f16 to f32
// CHECK: %[[EB2_3:.*]] = llvm.fpext %[[B6]] : f16 to f32
// CHECK: %[[F2_3:.*]] = llvm.intr.fma(%[[EA2_3]], %[[EB2_3]], %[[F2_2]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA2_4:.*]] = llvm.fpext %[[A12]] : f16 to f32
// CHECK: %[[EB2_4:.*]] = llvm.fpext %[[B8]] : f16 to f32
// CHECK: %[[F2_4:.*]] = llvm.intr.fma(%[[EA2_4]], %[[EB2_4]], %[[F2_3]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA2_5:.*]] = llvm.fpext %[[A13]] : f16 to f32
// CHECK: %[[EB2_5:.*]] = llvm.fpext %[[B10]] : f16 to f32
// CHECK: %[[F2_5:.*]] = llvm.intr.fma(%[[EA2_5]], %[[EB2_5]], %[[F2_4]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA2_6:.*]] = llvm.fpext %[[A14]] : f16 to f32
// CHECK: %[[EB2_6:.*]] = llvm.fpext %[[B12]] : f16 to f32
// CHECK: %[[F2_6:.*]] = llvm.intr.fma(%[[EA2_6]], %[[EB2_6]], %[[F2_5]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA2_7:.*]] = llvm.fpext %[[A15]] : f16 to f32
// CHECK: %[[EB2_7:.*]] = llvm.fpext %[[B14]] : f16 to f32
// CHECK: %[[F2_7:.*]] = llvm.intr.fma(%[[EA2_7]], %[[EB2_7]], %[[F2_6]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA3_0:.*]] = llvm.fpext %[[A8]] : f16 to f32
// CHECK: %[[EB3_0:.*]] = llvm.fpext %[[B1]] : f16 to f32
// CHECK: %[[F3_0:.*]] = llvm.intr.fma(%[[EA3_0]], %[[EB3_0]], %[[C3]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA3_1:.*]] = llvm.fpext %[[A9]] : f16 to f32
// CHECK: %[[EB3_1:.*]] = llvm.fpext %[[B3]] : f16 to f32
// CHECK: %[[F3_1:.*]] = llvm.intr.fma(%[[EA3_1]], %[[EB3_1]], %[[F3_0]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA3_2:.*]] = llvm.fpext %[[A10]] : f16 to f32
// CHECK: %[[EB3_2:.*]] = llvm.fpext %[[B5]] : f16 to f32
// CHECK: %[[F3_2:.*]] = llvm.intr.fma(%[[EA3_2]], %[[EB3_2]], %[[F3_1]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA3_3:.*]] = llvm.fpext %[[A11]] : f16 to f32
// CHECK: %[[EB3_3:.*]] = llvm.fpext %[[B7]] : f16 to f32
// CHECK: %[[F3_3:.*]] = llvm.intr.fma(%[[EA3_3]], %[[EB3_3]], %[[F3_2]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA3_4:.*]] = llvm.fpext %[[A12]] : f16 to f32
// CHECK: %[[EB3_4:.*]] = llvm.fpext %[[B9]] : f16 to f32
// CHECK: %[[F3_4:.*]] = llvm.intr.fma(%[[EA3_4]], %[[EB3_4]], %[[F3_3]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA3_5:.*]] = llvm.fpext %[[A13]] : f16 to f32
// CHECK: %[[EB3_5:.*]] = llvm.fpext %[[B11]] : f16 to f32
// CHECK: %[[F3_5:.*]] = llvm.intr.fma(%[[EA3_5]], %[[EB3_5]], %[[F3_4]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA3_6:.*]] = llvm.fpext %[[A14]] : f16 to f32
// CHECK: %[[EB3_6:.*]] = llvm.fpext %[[B13]] : f16 to f32
// CHECK: %[[F3_6:.*]] = llvm.intr.fma(%[[EA3_6]], %[[EB3_6]], %[[F3_5]]) : (f32, f32, f32) -> f32
// CHECK: %[[EA3_7:.*]] = llvm.fpext %[[A15]] : f16 to f32
// CHECK: %[[EB3_7:.*]] = llvm.fpext %[[B15]] : f16 to f32
// CHECK: %[[F3_7:.*]] = llvm.intr.fma(%[[EA3_7]], %[[EB3_7]], %[[F3_6]]) : (f32, f32, f32) -> f32
// CHECK-NOT: llvm.intr.fma
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[F0_7]], %{{.*}}[0]
// CHECK-NEXT: %[[R1:.*]] = llvm.insertvalue %[[F1_7]], %[[R0]][1]
// CHECK-NEXT: %[[R2:.*]] = llvm.insertvalue %[[F2_7]], %[[R1]][2]
// CHECK-NEXT: llvm.insertvalue %[[F3_7]], %[[R2]][3]
// CHECK-NOT: nvvm.barrier0
#c = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @dot_f16(%a: tensor<32x8xf16, #ttg.dot_op<{opIdx = 0, parent = #c}>>, %b: tensor<8x16xf16, #ttg.dot_op<{opIdx = 1, parent = #c}>>, %acc: tensor<32x16xf32, #c>) -> tensor<32x16xf32, #c> {
    %d = tt.dot %a, %b, %acc : tensor<32x8xf16, #ttg.dot_op<{opIdx = 0, parent = #c}>> * tensor<8x16xf16, #ttg.dot_op<{opIdx = 1, parent = #c}>> -> tensor<32x16xf32, #c>
    tt.return %d : tensor<32x16xf32, #c>
  }
}

// -----

// f32 operands need no extension; 64x32 += 64x16 * 16x32 on sizePerThread
// [4, 4], threadsPerWarp [4, 8], warpsPerCTA [4, 1]: 2048 results / 128
// threads = 16 registers of 16 fmas each: 256 = 64*32*16/128 per thread,
// none more.
// CHECK-LABEL: llvm.func @dot_f32
// CHECK-NOT: llvm.fpext
// CHECK-COUNT-256: llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// CHECK-NOT: llvm.intr.fma
// CHECK: llvm.return
#c = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @dot_f32(%a: tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #c}>>, %b: tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #c}>>, %acc: tensor<64x32xf32, #c>) -> tensor<64x32xf32, #c> {
    %d = tt.dot %a, %b, %acc : tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #c}>> * tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #c}>> -> tensor<64x32xf32, #c>
    tt.return %d : tensor<64x32xf32, #c>
  }
}

// -----

// i8 x i8 -> i32: sign extension, then mul and add per step: 32x16 on
// sizePerThread [4, 4], threadsPerWarp [8, 4], one warp, K = 4: 16 results
// x 4 = 64 = 32*16*4/32 mul/add pairs per thread, no fma.
// CHECK-LABEL: llvm.func @dot_i8
// CHECK: %[[X:.*]] = llvm.sext %{{.*}} : i8 to i32
// CHECK: %[[Y:.*]] = llvm.sext %{{.*}} : i8 to i32
// CHECK: %[[M:.*]] = llvm.mul %[[X]], %[[Y]] : i32
// CHECK: llvm.add %{{.*}}, %[[M]] : i32
// CHECK-COUNT-63: llvm.mul
// CHECK-NOT: llvm.mul
// CHECK-NOT: llvm.intr.fma
// CHECK: llvm.return
#c = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @dot_i8(%a: tensor<32x4xi8, #ttg.dot_op<{opIdx = 0, parent = #c}>>, %b: tensor<4x16xi8, #ttg.dot_op<{opIdx = 1, parent = #c}>>, %acc: tensor<32x16xi32, #c>) -> tensor<32x16xi32, #c> {
    %d = tt.dot %a, %b, %acc : tensor<32x4xi8, #ttg.dot_op<{opIdx = 0, parent = #c}>> * tensor<4x16xi8, #ttg.dot_op<{opIdx = 1, parent = #c}>> -> tensor<32x16xi32, #c>
    tt.return %d : tensor<32x16xi32, #c>
  }
}
