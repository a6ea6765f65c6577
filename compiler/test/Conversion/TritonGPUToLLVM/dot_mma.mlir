// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --tritongpu-membar --convert-triton-gpu-to-llvm --canonicalize --cse | FileCheck %s

// Tensor cores, mma.sync m16n8k16 (PTX ISA "Matrix Fragments for
// mma.m16n8k16"), one warp, one 16x8 tile. With g = lane / 4, t = lane % 4:
//   A: a0,a1 = (g, 2t+{0,1}), a2,a3 = (g+8, ..), a4..a7 the same at k + 8;
//   B: b0,b1 = (k = 2t+{0,1}, n = g), b2,b3 at k + 8;
//   C: c0,c1 = (g, 2t+{0,1}), c2,c3 = (g+8, ..).
// The layouts give lane 0 (g = t = 0), by their register bases:
//   A dot_op kWidth 2: (0,1), (8,0), (0,8): registers 0..7 = a0..a7;
//   B dot_op kWidth 2: (1,0), (8,0): registers 0..3 = b0..b3;
//   C mma: (0,1), (8,0): registers 0..3 = c0..c3.
// So the mma reads A's registers in pairs (0,1) (2,3) (4,5) (6,7), B's
// (0,1) (2,3), C's 0..3, and its results are the result's registers 0..3.
// CHECK-LABEL: llvm.func @one_tile
// CHECK-DAG: %[[A0:.*]] = llvm.extractvalue %arg0[0]
// CHECK-DAG: %[[A1:.*]] = llvm.extractvalue %arg0[1]
// CHECK-DAG: %[[A6:.*]] = llvm.extractvalue %arg0[6]
// CHECK-DAG: %[[A7:.*]] = llvm.extractvalue %arg0[7]
// CHECK-DAG: %[[B2:.*]] = llvm.extractvalue %arg1[2]
// CHECK-DAG: %[[B3:.*]] = llvm.extractvalue %arg1[3]
// CHECK-DAG: %[[C0:.*]] = llvm.extractvalue %arg2[0]
// CHECK-DAG: %[[C1:.*]] = llvm.extractvalue %arg2[1]
// CHECK-DAG: %[[C2:.*]] = llvm.extractvalue %arg2[2]
// CHECK-DAG: %[[C3:.*]] = llvm.extractvalue %arg2[3]
// CHECK-DAG: %[[P0L:.*]] = llvm.insertelement %[[A0]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-DAG: %[[P0:.*]] = llvm.insertelement %[[A1]], %[[P0L]][%{{.*}} : i32] : vector<2xf16>
// CHECK-DAG: %[[P3L:.*]] = llvm.insertelement %[[A6]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-DAG: %[[P3:.*]] = llvm.insertelement %[[A7]], %[[P3L]][%{{.*}} : i32] : vector<2xf16>
// CHECK-DAG: %[[Q1L:.*]] = llvm.insertelement %[[B2]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-DAG: %[[Q1:.*]] = llvm.insertelement %[[B3]], %[[Q1L]][%{{.*}} : i32] : vector<2xf16>
// CHECK: %[[D:.*]] = nvvm.mma.sync A[%[[P0]], %{{.*}}, %{{.*}}, %[[P3]]]  B[%{{.*}}, %[[Q1]]]  C[%[[C0]], %[[C1]], %[[C2]], %[[C3]]] {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.return
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @one_tile(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<16x8xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<16x8xf32, #mma>) -> tensor<16x8xf32, #mma> {
    %d = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x8xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x8xf32, #mma>
    tt.return %d : tensor<16x8xf32, #mma>
  }
}

// -----

// 16x16 = two n tiles: C's register base (0,8) and B's (0,8) make registers
// 4..7 the second tile's; both mmas read the same A pairs.
// CHECK-LABEL: llvm.func @two_n_tiles
// CHECK-DAG: %[[B4:.*]] = llvm.extractvalue %arg1[4]
// CHECK-DAG: %[[C4:.*]] = llvm.extractvalue %arg2[4]
// CHECK-DAG: %[[C7:.*]] = llvm.extractvalue %arg2[7]
// CHECK: nvvm.mma.sync A[%[[X0:[0-9]+]], %[[X1:[0-9]+]], %[[X2:[0-9]+]], %[[X3:[0-9]+]]]  B[{{.*}}]  C[{{.*}}]
// CHECK: %[[QL:.*]] = llvm.insertelement %[[B4]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK: %[[Q:.*]] = llvm.insertelement %{{.*}}, %[[QL]][%{{.*}} : i32] : vector<2xf16>
// CHECK: nvvm.mma.sync A[%[[X0]], %[[X1]], %[[X2]], %[[X3]]]  B[%[[Q]], %{{.*}}]  C[%[[C4]], %{{.*}}, %{{.*}}, %[[C7]]]
// CHECK-NOT: nvvm.mma.sync
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_n_tiles(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<16x16xf32, #mma>) -> tensor<16x16xf32, #mma> {
    %d = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x16xf32, #mma>
    tt.return %d : tensor<16x16xf32, #mma>
  }
}

// -----

// tf32, m16n8k8: a0 = (g, t), a1 = (g+8, t), a2 = (g, t+4), a3 = (g+8, t+4);
// b0 = (k = t, g), b1 = (t+4, g). A dot_op kWidth 1 has register bases
// (8,0), (0,4) and B (4,0): registers in fragment order, each f32 passed as
// its bits (i32).
// CHECK-LABEL: llvm.func @tf32
// CHECK-DAG: %[[A0:.*]] = llvm.extractvalue %arg0[0]
// CHECK-DAG: %[[A3:.*]] = llvm.extractvalue %arg0[3]
// CHECK-DAG: %[[B1:.*]] = llvm.extractvalue %arg1[1]
// CHECK-DAG: %[[I0:.*]] = llvm.bitcast %[[A0]] : f32 to i32
// CHECK-DAG: %[[I3:.*]] = llvm.bitcast %[[A3]] : f32 to i32
// CHECK-DAG: %[[J1:.*]] = llvm.bitcast %[[B1]] : f32 to i32
// CHECK: nvvm.mma.sync A[%[[I0]], %{{.*}}, %{{.*}}, %[[I3]]]  B[%{{.*}}, %[[J1]]]  C[{{.*}}] {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>}
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tf32(%a: tensor<16x8xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b: tensor<8x8xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>, %c: tensor<16x8xf32, #mma>) -> tensor<16x8xf32, #mma> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<16x8xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<8x8xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<16x8xf32, #mma>
    tt.return %d : tensor<16x8xf32, #mma>
  }
}

// -----

// bf16: the same fragments as f16, each pair passed as i32; f16 with an f16
// accumulator: C is two f16 pairs (c0,c1) (c2,c3).
// CHECK-LABEL: llvm.func @bf16
// CHECK: llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-LABEL: llvm.func @f16_acc
// CHECK-DAG: %[[C0:.*]] = llvm.extractvalue %arg2[0]
// CHECK-DAG: %[[C1:.*]] = llvm.extractvalue %arg2[1]
// CHECK-DAG: %[[L:.*]] = llvm.insertelement %[[C0]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-DAG: %[[P:.*]] = llvm.insertelement %[[C1]], %[[L]][%{{.*}} : i32] : vector<2xf16>
// CHECK: %[[D:.*]] = nvvm.mma.sync A[{{.*}}]  B[{{.*}}]  C[%[[P]], %{{.*}}] {{.*}} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
// CHECK: %[[D0:.*]] = llvm.extractvalue %[[D]][0]
// CHECK: llvm.extractelement %[[D0]][%{{.*}} : i32] : vector<2xf16>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @bf16(%a: tensor<16x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<16x8xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<16x8xf32, #mma>) -> tensor<16x8xf32, #mma> {
    %d = tt.dot %a, %b, %c : tensor<16x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x8xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x8xf32, #mma>
    tt.return %d : tensor<16x8xf32, #mma>
  }
  tt.func @f16_acc(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<16x8xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<16x8xf16, #mma>) -> tensor<16x8xf16, #mma> {
    %d = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x8xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x8xf16, #mma>
    tt.return %d : tensor<16x8xf16, #mma>
  }
}

// -----

// 64x32x32 at 4 warps [2, 2]: each warp 32x16 = 2x2 tiles, K = 2 steps:
// M N K / (16 * 8 * 16) / warps = 8 mma.sync per thread.
// CHECK-LABEL: llvm.func @per_warp
// CHECK-COUNT-8: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @per_warp(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<64x32xf32, #mma>) -> tensor<64x32xf32, #mma> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x32xf32, #mma>
    tt.return %d : tensor<64x32xf32, #mma>
  }
}

// -----

// 16-bit operands with kWidth 4 (Triton's sm_80 pipeliner makes them): a
// thread holds four consecutive K elements, k = 4t + {0..3}, for rows g and
// g + 8 (A registers 0..3 and 4..7; B registers 0..3 for column g). mma.sync
// then reads K permuted within the 16: PTX position 2t + j + 8h from
// 4t + 2h + j, the same for A and B, so each product pairs the same K. A's
// pairs are registers (0,1) for a0 a1, (4,5) for a2 a3 (row + 8), (2,3)
// for a4 a5 (PTX k + 8), (6,7); B's (0,1), (2,3).
// CHECK-LABEL: llvm.func @k_width_four
// CHECK-DAG: %[[A2:.*]] = llvm.extractvalue %arg0[2]
// CHECK-DAG: %[[A3:.*]] = llvm.extractvalue %arg0[3]
// CHECK-DAG: %[[A4:.*]] = llvm.extractvalue %arg0[4]
// CHECK-DAG: %[[A5:.*]] = llvm.extractvalue %arg0[5]
// CHECK-DAG: %[[P1L:.*]] = llvm.insertelement %[[A4]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-DAG: %[[P1:.*]] = llvm.insertelement %[[A5]], %[[P1L]][%{{.*}} : i32] : vector<2xf16>
// CHECK-DAG: %[[P2L:.*]] = llvm.insertelement %[[A2]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-DAG: %[[P2:.*]] = llvm.insertelement %[[A3]], %[[P2L]][%{{.*}} : i32] : vector<2xf16>
// CHECK: nvvm.mma.sync A[%{{.*}}, %[[P1]], %[[P2]], %{{.*}}]  B[%{{.*}}, %{{.*}}]
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.return
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @k_width_four(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, %b: tensor<16x8xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>, %c: tensor<16x8xf32, #mma>) -> tensor<16x8xf32, #mma> {
    %d = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<16x8xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<16x8xf32, #mma>
    tt.return %d : tensor<16x8xf32, #mma>
  }
}
