// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm -verify-diagnostics --canonicalize --cse | FileCheck %s

// A 16x8 f32 buffer swizzled per element (vec 1, perPhase 1, maxPhase 8):
// (r, c) is at 8 r + (c ^ r % 8). Its columns 4..7 as a 16x4 box: element
// (r, c') of the box is (r, c' + 4), at 8 r + ((c' + 4) ^ r % 8)
// = (8 r + (c' ^ r % 8)) ^ 4 (c' < 4): the buffer's layout restricted to the
// box, XOR the origin's offset 4. For rows with r % 8 >= 4 that is not
// + 4. One f32 a thread (lanes 0-1 columns, 2-4 rows, the warp row 8): the
// thread's offset XOR 4, from the buffer's pointer.
// (Canonicalized and CSE'd, so that each constant is one value.)
// CHECK-LABEL: llvm.func @columns
// CHECK-DAG: %[[FOUR:[0-9]+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG: %[[OFF:[0-9]+]] = llvm.xor %{{[0-9]+}}, %[[FOUR]] : i32
// CHECK: %[[P:[0-9]+]] = llvm.getelementptr %arg0[%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @columns(%buf: !ttg.memdesc<16x8xf32, #shared, #smem, mutable>) -> tensor<16x4xf32, #blocked> {
    %box = ttg.memdesc_subslice %buf [0, 4] : !ttg.memdesc<16x8xf32, #shared, #smem, mutable> -> !ttg.memdesc<16x4xf32, #shared, #smem, mutable, 16x8>
    %v = ttg.local_load %box : !ttg.memdesc<16x4xf32, #shared, #smem, mutable, 16x8> -> tensor<16x4xf32, #blocked>
    tt.return %v : tensor<16x4xf32, #blocked>
  }
}

// -----

// A box of a box: rows 8..15 of the columns 4..7: origin (8, 4), offset
// 8 * 8 + (4 ^ 8 % 8) = 68; the 8x4 box loaded by one warp, whose lanes
// reach offset bits 0..5: 4 is XORed into the thread's offset, 64 (a bit
// no lane sets) added as a constant index.
// CHECK-LABEL: llvm.func @nested
// CHECK-DAG: %[[FOUR:[0-9]+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG: %[[OFF:[0-9]+]] = llvm.xor %{{[0-9]+}}, %[[FOUR]] : i32
// CHECK: %[[P:[0-9]+]] = llvm.getelementptr %arg0[%[[OFF]]]
// CHECK-NEXT: llvm.getelementptr %[[P]][64] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @nested(%buf: !ttg.memdesc<16x8xf32, #shared, #smem, mutable>) -> tensor<8x4xf32, #blocked> {
    %cols = ttg.memdesc_subslice %buf [0, 4] : !ttg.memdesc<16x8xf32, #shared, #smem, mutable> -> !ttg.memdesc<16x4xf32, #shared, #smem, mutable, 16x8>
    %box = ttg.memdesc_subslice %cols [8, 0] : !ttg.memdesc<16x4xf32, #shared, #smem, mutable, 16x8> -> !ttg.memdesc<8x4xf32, #shared, #smem, mutable, 16x8>
    %v = ttg.local_load %box : !ttg.memdesc<8x4xf32, #shared, #smem, mutable, 16x8> -> tensor<8x4xf32, #blocked>
    tt.return %v : tensor<8x4xf32, #blocked>
  }
}

// -----

// A box that arrives through a block argument: where it lies in its buffer
// is not known when the load is lowered.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @carried(%box: !ttg.memdesc<8x4xf32, #shared, #smem, mutable, 16x8>) -> tensor<8x4xf32, #blocked> {
    // expected-error @below {{a sub-box whose position is not known at compile time}}
    // expected-error @below {{failed to legalize operation 'ttg.local_load'}}
    %v = ttg.local_load %box : !ttg.memdesc<8x4xf32, #shared, #smem, mutable, 16x8> -> tensor<8x4xf32, #blocked>
    tt.return %v : tensor<8x4xf32, #blocked>
  }
}
