// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm=compute-capability=80 | FileCheck %s --check-prefixes=CHECK,SM80

// A wgmma accumulator tile (4 warps of 16 rows, 64 columns) into a 128-byte
// swizzled buffer: every thread's register pairs are 8x8 matrices whose
// rows are 16 contiguous bytes, so on sm_90 four stmatrix.x4 store the 32
// registers; sm_80 has no stmatrix (st.shared of 4 bytes per pair).
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @accumulator_to_nvmma
  // SM90-COUNT-4: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32, i32, i32
  // SM80-NOT: nvvm.stmatrix
  // SM80-COUNT-16: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
  // CHECK-NOT: nvvm.stmatrix
  // CHECK: llvm.return
  tt.func public @accumulator_to_nvmma(%a: tensor<64x64xf16, #mma>) {
    %b = ttg.local_alloc %a : (tensor<64x64xf16, #mma>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    tt.return
  }
}

// -----

// The same tile into the transposed buffer, where the accumulator's rows
// (lane bits 2..4) are the contiguous dimension: stmatrix .trans.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @accumulator_to_transposed
  // SM90-COUNT-4: nvvm.stmatrix {{.*}}layout = #nvvm.mma_layout<col>
  // SM80-NOT: nvvm.stmatrix
  // CHECK-NOT: nvvm.stmatrix
  // CHECK: llvm.return
  tt.func public @accumulator_to_transposed(%a: tensor<64x64xf16, #mma>) {
    %s = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma_t, #smem, mutable>
    ttg.local_store %a, %s : tensor<64x64xf16, #mma> -> !ttg.memdesc<64x64xf16, #nvmma_t, #smem, mutable>
    tt.return
  }
}

// -----

// A blocked layout whose threads hold 8 contiguous halves of one row: no
// 8x8 matrix fragment (lanes 0 and 1 are 8 elements apart, not 2), so
// plain 16-byte stores.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @blocked_rows
  // CHECK-NOT: nvvm.stmatrix
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK-NOT: nvvm.stmatrix
  // CHECK: llvm.return
  tt.func public @blocked_rows(%a: tensor<16x64xf16, #blocked>) {
    %b = ttg.local_alloc %a : (tensor<16x64xf16, #blocked>) -> !ttg.memdesc<16x64xf16, #nvmma, #smem>
    tt.return
  }
}

// -----

// 32-bit elements: a word of stmatrix's fragment is one element, so the
// tf32 A-operand layout (lanes 0 and 1 along K, lanes 2..4 along M) stores
// four registers per stmatrix.x4, each an f32 bitcast to i32.
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#sa = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @tf32_operand
  // SM90: %[[W:.*]] = llvm.bitcast %{{.*}} : f32 to i32
  // SM90: nvvm.stmatrix %{{.*}}, %[[W]], %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
  // SM80-NOT: nvvm.stmatrix
  // CHECK: llvm.return
  tt.func public @tf32_operand(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>) {
    %b = ttg.local_alloc %a : (tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>) -> !ttg.memdesc<64x32xf32, #sa, #smem>
    tt.return
  }
}
