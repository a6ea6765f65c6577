// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// join's minor dim lives in register bit 0 and split reads it back: result
// registers (row 0: x0 y0, row 1: x1 y1); split's rhs is registers 1 and 3.
// CHECK-LABEL: llvm.func @join_split
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[Y0:.*]] = llvm.extractvalue %arg1[0]
// CHECK: %[[Y1:.*]] = llvm.extractvalue %arg1[1]
// CHECK: %[[J0:.*]] = llvm.insertvalue %[[X0]], %{{.*}}[0]
// CHECK: %[[J1:.*]] = llvm.insertvalue %[[Y0]], %[[J0]][1]
// CHECK: %[[J2:.*]] = llvm.insertvalue %[[X1]], %[[J1]][2]
// CHECK: %[[J:.*]] = llvm.insertvalue %[[Y1]], %[[J2]][3]
// CHECK: st.global
// CHECK: %[[R1:.*]] = llvm.extractvalue %[[J]][1]
// CHECK: %[[R3:.*]] = llvm.extractvalue %[[J]][3]
// CHECK: %[[B0:.*]] = llvm.insertvalue %[[R1]], %{{.*}}[0] : !llvm.struct<(f32, f32)>
// CHECK: llvm.insertvalue %[[R3]], %[[B0]][1] : !llvm.struct<(f32, f32)>
// CHECK-NOT: nvvm.barrier0
#s = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#j = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @join_split(%x: tensor<256xf32, #s>, %y: tensor<256xf32, #s>, %p: tensor<256x2x!tt.ptr<f32>, #j>, %q: tensor<256x!tt.ptr<f32>, #s>) {
    %j = tt.join %x, %y : tensor<256xf32, #s> -> tensor<256x2xf32, #j>
    tt.store %p, %j : tensor<256x2x!tt.ptr<f32>, #j>
    %a, %b = tt.split %j : tensor<256x2xf32, #j> -> tensor<256xf32, #s>
    tt.store %q, %b : tensor<256x!tt.ptr<f32>, #s>
    tt.return
  }
}

// -----

// Row-major reshape 256x2 -> 512 (join_split_reshape's layouts): flat index
// 2 * row + col, so lane bits give 1, 2, 4, 8, 16 in both, warps 32, 64, and
// source registers (rows 64, 128) are flat 128, 256: registers stay in
// order.
// CHECK-LABEL: llvm.func @reshape_row_major
// CHECK: %[[A0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[A1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[A2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[A3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[A0]], %{{.*}}[0]
// CHECK: %[[R1:.*]] = llvm.insertvalue %[[A1]], %[[R0]][1]
// CHECK: %[[R2:.*]] = llvm.insertvalue %[[A2]], %[[R1]][2]
// CHECK: llvm.insertvalue %[[A3]], %[[R2]][3]
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#f = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshape_row_major(%x: tensor<256x2xf32, #a>, %p: tensor<512x!tt.ptr<f32>, #f>) {
    %r = tt.reshape %x : tensor<256x2xf32, #a> -> tensor<512xf32, #f>
    tt.store %p, %r : tensor<512x!tt.ptr<f32>, #f>
    tt.return
  }
}

// -----

// allow_reorder where row-major order would move data (source lanes hold
// flat 2, 4, .., 32, the result's 1, 2, .., 16): each thread keeps its
// registers, as Triton does; a permutation since both layouts are
// injective.
// CHECK-LABEL: llvm.func @reshape_reorder
// CHECK: %[[A0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[A1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[A0]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[A1]], %[[R0]][1]
// CHECK-NOT: nvvm.barrier0
#s = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#t = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshape_reorder(%x: tensor<256xf32, #s>, %p: tensor<16x16x!tt.ptr<f32>, #t>) {
    %r = tt.reshape %x allow_reorder : tensor<256xf32, #s> -> tensor<16x16xf32, #t>
    tt.store %p, %r : tensor<16x16x!tt.ptr<f32>, #t>
    tt.return
  }
}

// -----

// cat in order, in registers: the result's register bit 2 is row 32, so its
// registers are lhs's then rhs's.
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @cat_registers
// CHECK: %[[L3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: %[[R0:.*]] = llvm.extractvalue %arg1[0]
// CHECK: %[[S3:.*]] = llvm.insertvalue %[[L3]], %{{.*}}[3]
// CHECK: llvm.insertvalue %[[R0]], %[[S3]][4]
// CHECK-NOT: nvvm.barrier0
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cat_registers(%x: tensor<32x16xf32, #a>, %y: tensor<32x16xf32, #a>, %p: tensor<64x16x!tt.ptr<f32>, #a>) {
    %z = tt.cat %x, %y : tensor<32x16xf32, #a> -> tensor<64x16xf32, #a>
    tt.store %p, %z : tensor<64x16x!tt.ptr<f32>, #a>
    tt.return
  }
}

// -----

// cat_and_asm's layouts: thread t holds lhs[t] and rhs[t] but result
// elements 2t, 2t+1, so the in-order result goes through shared memory
// (256 x 4 bytes): lhs at t, rhs at 128 + t, a barrier, reads at 2t, 2t+1.
// CHECK: ttg.shared = 1024 : i32
// CHECK-LABEL: llvm.func @cat_shared
// CHECK: %[[L:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[R:.*]] = llvm.extractvalue %arg1[0]
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem
// CHECK: %[[LI:.*]] = llvm.add %{{.*}}, %[[IDX:.*]] : i32
// CHECK: %[[LP:.*]] = llvm.getelementptr %[[BASE]][%[[LI]]]
// CHECK: llvm.store %[[L]], %[[LP]] : f32, !llvm.ptr<3>
// CHECK: %[[C128:.*]] = llvm.mlir.constant(128 : i32)
// CHECK: %[[RI:.*]] = llvm.add %[[C128]], %[[IDX]]
// CHECK: %[[RP:.*]] = llvm.getelementptr %[[BASE]][%[[RI]]]
// CHECK: llvm.store %[[R]], %[[RP]] : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cat_shared(%x: tensor<128xf32, #a>, %y: tensor<128xf32, #a>, %p: tensor<256x!tt.ptr<f32>, #c>) {
    %z = tt.cat %x, %y : tensor<128xf32, #a> -> tensor<256xf32, #c>
    tt.store %p, %z : tensor<256x!tt.ptr<f32>, #c>
    tt.return
  }
}

// -----

// A linear layout larger than its tensor is fitted to it, as in Triton:
// the lane and warp bases past dim 0's size 1 broadcast, and the four zero
// register bases keep 16 registers per thread, all of the same element.
#linear = #ttg.linear<{register = [[0, 0], [0, 0], [0, 0], [0, 0]], lane = [[0, 0], [0, 1], [0, 2], [1, 0], [2, 0]], warp = [[4, 0], [8, 0], [16, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @linear_larger_than_tensor
  // CHECK-SAME: -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
  tt.func private @linear_larger_than_tensor(%x: tensor<1x4xi32, #linear>) -> tensor<1x4xi32, #linear> {
    tt.return %x : tensor<1x4xi32, #linear>
  }
}
