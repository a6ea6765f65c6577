// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --tritongpu-membar --convert-triton-gpu-to-llvm -verify-diagnostics | FileCheck %s

// 256 f16 on one warp, 8 consecutive per lane, from a 16-byte aligned base:
// each lane copies its 8 elements (16 bytes) with one cp.async.cg into an
// unswizzled buffer, where they are consecutive too. The mask (n a multiple
// of 16) is constant over each 8: masked-off lanes read 0 bytes, which
// cp.async fills with zeros. The commit and the wait are one instruction
// each; the wait is followed by a barrier (other lanes' copies), before the
// load reads the buffer.
// CHECK-LABEL: llvm.func @copy_f16_masked
// CHECK: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[SIZE:.*]] = llvm.select %{{.*}}, %[[SIXTEEN]], %[[ZERO]] : i1, i32
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[SIZE]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: llvm.load
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NOT: llvm.load
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copy_f16_masked(%src: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) -> tensor<256xf16, #blocked> {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<256xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<256xi32, #blocked>
    %ps = tt.splat %src : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>, #blocked>
    %p = tt.addptr %ps, %r : tensor<256x!tt.ptr<f16>, #blocked>, tensor<256xi32, #blocked>
    %zero = arith.constant dense<0.0> : tensor<256xf16, #blocked>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<256xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %buf mask %m other %zero : tensor<256x!tt.ptr<f16>, #blocked> -> <256xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %w = ttg.async_wait %g {num = 0 : i32}
    %v = ttg.local_load %buf token %w : !ttg.memdesc<256xf16, #shared, #smem, mutable> -> tensor<256xf16, #blocked>
    tt.return %v : tensor<256xf16, #blocked>
  }
}

// -----

// 8x16 f32, four consecutive columns per lane, into a buffer swizzled in
// pairs: element (r, c) is at 16 r + ((c / 2) ^ (r % 4)) * 2 + c % 2, so a
// lane's columns 4t, 4t + 1 are consecutive, but 4t + 2 is not next to them
// in odd rows: two 8-byte copies (.ca: only 16-byte copies may bypass L1)
// per lane. Without a mask there is no size operand.
// CHECK-LABEL: llvm.func @copy_f32_swizzled
// CHECK-COUNT-2: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copy_f32_swizzled(%src: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %cols = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rows = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x16xi32, #blocked>
    %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<8xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<8x1xi32, #blocked>
    %sixteen = arith.constant dense<16> : tensor<8x1xi32, #blocked>
    %rowoff = arith.muli %r2, %sixteen : tensor<8x1xi32, #blocked>
    %rb = tt.broadcast %rowoff : tensor<8x1xi32, #blocked> -> tensor<8x16xi32, #blocked>
    %cb = tt.broadcast %c2 : tensor<1x16xi32, #blocked> -> tensor<8x16xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<8x16xi32, #blocked>
    %ps = tt.splat %src : !tt.ptr<f32> -> tensor<8x16x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %ps, %off : tensor<8x16x!tt.ptr<f32>, #blocked>, tensor<8x16xi32, #blocked>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<8x16xf32, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %buf : tensor<8x16x!tt.ptr<f32>, #blocked> -> <8x16xf32, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    tt.return
  }
}

// -----

// 64 f32 on a layout for 128 (4 per lane, 32 lanes): lanes 16..31 hold
// copies of lanes 0..15's elements and must not copy them again, so the
// cp.async is predicated on the lane (NVVM's cp.async has no predicate:
// inline PTX). A non-zero `other` cannot come from cp.async's zero fill:
// the copy is also predicated on the mask, and masked-off elements are
// stored with st.shared under the opposite mask.
// CHECK-LABEL: llvm.func @copy_duplicated_other
// CHECK: llvm.inline_asm has_side_effects {{.*}}"@$0 cp.async.cg.shared.global [ $1 ], [ $2 ], 16, $3;", "b,r,l,r"
// CHECK-COUNT-4: llvm.inline_asm has_side_effects {{.*}}"@$0 st.shared.b32 [ $1 ], $2;", "b,r,r"
// CHECK-NOT: cp.async.cg
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copy_duplicated_other(%src: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<64xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<64xi32, #blocked>
    %ps = tt.splat %src : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %ps, %r : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
    %one = arith.constant dense<1.0> : tensor<64xf32, #blocked>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %buf mask %m other %one : tensor<64x!tt.ptr<f32>, #blocked> -> <64xf32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// Pointers AxisInfo knows nothing about: one f16 (2 bytes) per copy, which
// cp.async cannot do.
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @too_narrow(%p: tensor<256x!tt.ptr<f16>, #blocked>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<256xf16, #shared, #smem, mutable>
    // expected-error @below {{copies 2 bytes per cp.async, which needs 4, 8 or 16}}
    // expected-error @below {{failed to legalize operation 'ttg.async_copy_global_to_local'}}
    %t = ttg.async_copy_global_to_local %p, %buf : tensor<256x!tt.ptr<f16>, #blocked> -> <256xf16, #shared, #smem, mutable>
    tt.return
  }
}
