// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm | FileCheck %s

// mma v2 operands (f16, kWidth 2) read from Triton's swizzled operand
// layouts. A (64x32, K fastest in the buffer): a thread's register pairs
// are two consecutive K elements of one row, lanes 0-1 walk the rest of a
// 16-byte row, lanes 2-4 pick 8 rows: ldmatrix. Each warp holds 32 rows x
// 32 K of A (warps 2 x 2, A shared along N): 32 x 32 / 32 lanes = 32
// halves a thread, 8 per x4 instruction: 4 instructions. B (32x64, N
// fastest): the pairs run along K, across rows of the buffer, and lanes
// 2-4 along a row: ldmatrix.trans (layout col); 32 K x 32 N per warp: 4.
// CHECK-LABEL: llvm.func @operands
// CHECK-COUNT-4: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK-COUNT-4: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK-NOT: nvvm.ldmatrix
// CHECK-NOT: llvm.load
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#sa = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#sb = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @operands(%a: !ttg.memdesc<64x32xf16, #sa, #smem, mutable>, %b: !ttg.memdesc<32x64xf16, #sb, #smem, mutable>) -> (tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>) {
    %x = ttg.local_load %a : !ttg.memdesc<64x32xf16, #sa, #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %y = ttg.local_load %b : !ttg.memdesc<32x64xf16, #sb, #smem, mutable> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    tt.return %x, %y : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
  }
}

// -----

// tf32 operands (32-bit elements): a 32-bit word of ldmatrix's fragment
// is one element (lanes 0 and 1 walk K, lanes 2..4 M, as in mma's tf32 A
// fragment), so ldmatrix.x4 (b16 units, not .trans) loads four A registers
// and each word is bitcast to f32; no plain loads.
// CHECK-LABEL: llvm.func @tf32
// CHECK-NOT: llvm.load
// CHECK: %[[W:.*]] = nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: %[[W0:.*]] = llvm.extractvalue %[[W]][0]
// CHECK: llvm.bitcast %[[W0]] : i32 to f32
// CHECK-NOT: llvm.load
// CHECK: llvm.return
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#sa = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tf32(%a: !ttg.memdesc<64x32xf32, #sa, #smem, mutable>) -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> {
    %x = ttg.local_load %a : !ttg.memdesc<64x32xf32, #sa, #smem, mutable> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    tt.return %x : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
  }
}
