// The ttg ops tgpu reads but does not lower (apart from warp specialization,
// see warp-specialize.mlir) round-trip in the form Triton 3.6 prints.
// RUN: tgpu-opt %s -split-input-file | tgpu-opt -split-input-file | FileCheck %s
// RUN: tgpu-opt %s -split-input-file -mlir-print-op-generic | tgpu-opt -split-input-file | FileCheck %s

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @views_and_scratch
tt.func @views_and_scratch(%buf: !ttg.memdesc<4x1024xi64, #shared, #smem, mutable, 32x1024>, %iv: i32, %ub: i32, %step: i32, %i: index) -> i1 {
  // CHECK-NEXT: ttg.memdesc_reinterpret %arg0 : !ttg.memdesc<4x1024xi64, #shared, #smem, mutable, 32x1024> -> !ttg.memdesc<4x32x64xi32, #shared1, #smem, mutable>
  %words = ttg.memdesc_reinterpret %buf : !ttg.memdesc<4x1024xi64, #shared, #smem, mutable, 32x1024> -> !ttg.memdesc<4x32x64xi32, #shared3, #smem, mutable>
  // CHECK-NEXT: ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
  %p = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
  // CHECK-NEXT: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32, ttg.global_scratch_memory_offset = 0 : i32} : !tt.ptr<i8>
  %q = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32, ttg.global_scratch_memory_offset = 0 : i32} : !tt.ptr<i8>
  // CHECK-NEXT: ttg.local_barrier
  ttg.local_barrier
  // CHECK-NEXT: ttg.warp_id
  %w = ttg.warp_id
  // CHECK-NEXT: ttg.predicate_stage %arg1, %arg2, %arg3 maxStage 2 stage 0 : i32 -> i1
  %s = ttg.predicate_stage %iv, %ub, %step maxStage 2 stage 0 : i32 -> i1
  // CHECK-NEXT: ttg.predicate_stage %arg4, %arg4, %arg4 maxStage 3 stage 1 : index -> i1
  %t = ttg.predicate_stage %i, %i, %i maxStage 3 stage 1 : index -> i1
  tt.return %s : i1
}

// ttg.mask has no custom syntax: Triton prints it generically; its
// terminator has one.
// CHECK-LABEL: tt.func @mask
tt.func @mask(%pred: i1, %x: i32) -> i32 {
  // CHECK-NEXT: %0 = "ttg.mask"(%arg0) ({
  // CHECK-NEXT: %1 = arith.addi %arg1, %arg1 : i32
  // CHECK-NEXT: ttg.mask.return %1 : i32
  // CHECK-NEXT: }) : (i1) -> i32
  %r = "ttg.mask"(%pred) ({
    %y = arith.addi %x, %x : i32
    ttg.mask.return %y : i32
  }) : (i1) -> i32
  // Without values, the terminator prints no colon.
  // CHECK-NEXT: "ttg.mask"(%arg0) ({
  // CHECK-NEXT: ttg.mask.return{{ *$}}
  // CHECK-NEXT: }) : (i1) -> ()
  "ttg.mask"(%pred) ({
    ttg.mask.return
  }) : (i1) -> ()
  tt.return %r : i32
}

// -----

// fp4_to_fp without layouts, and with each way Triton relates the layouts.
// (Aliases are numbered in the order the printer meets the layouts.)
#src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
#dst = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 4], instrShape = [16, 8]}>
#packed_rows = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
#rows = #ttg.linear<{register = [[1, 0], [2, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[0, 32], [0, 64]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @fp4_to_fp
  tt.func @fp4_to_fp(%plain: tensor<8x16xi8>, %blocked: tensor<64x32xi8, #src>,
                     %dot: tensor<32x32xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>,
                     %linear: tensor<2x128xi8, #packed_rows>) {
    // CHECK-NEXT: ttg.fp4_to_fp %arg0 {axis = 0 : i32} : tensor<8x16xi8> -> tensor<16x16xbf16>
    %0 = ttg.fp4_to_fp %plain {axis = 0 : i32} : tensor<8x16xi8> -> tensor<16x16xbf16>
    // CHECK-NEXT: ttg.fp4_to_fp %arg1 {axis = 1 : i32} : tensor<64x32xi8, #blocked> -> tensor<64x64xf16, #blocked2>
    %1 = ttg.fp4_to_fp %blocked {axis = 1 : i32} : tensor<64x32xi8, #src> -> tensor<64x64xf16, #dst>
    // CHECK-NEXT: ttg.fp4_to_fp %arg2 {axis = 1 : i32} : tensor<32x32xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> -> tensor<32x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>>
    %2 = ttg.fp4_to_fp %dot {axis = 1 : i32} : tensor<32x32xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> -> tensor<32x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>>
    // CHECK-NEXT: ttg.fp4_to_fp %arg3 {axis = 0 : i32} : tensor<2x128xi8, #blocked1> -> tensor<4x128xf16, #linear>
    %3 = ttg.fp4_to_fp %linear {axis = 0 : i32} : tensor<2x128xi8, #packed_rows> -> tensor<4x128xf16, #rows>
    tt.return
  }
}
