// RUN: tgpu-opt %s -split-input-file --tritongpu-coalesce -mlir-print-local-scope | FileCheck %s

// 16-byte aligned f32 pointers with runs of 1024: 4 elements (128 bits) per
// thread; the mask and result are converted around the load.
// CHECK-LABEL: tt.func @load_f32
// CHECK: %[[P:.*]] = ttg.convert_layout %{{.*}} : tensor<1024x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> -> tensor<1024x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK: %[[M:.*]] = ttg.convert_layout %{{.*}} : tensor<1024xi1, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> -> tensor<1024xi1, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK: %[[L:.*]] = tt.load %[[P]], %[[M]] : tensor<1024x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK: ttg.convert_layout %[[L]] : tensor<1024xf32, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> -> tensor<1024xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load_f32(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<1024xf32, #blocked> {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<1024xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %ptrs, %m : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return %v : tensor<1024xf32, #blocked>
  }
}

// -----

// f16 reaches 128 bits at 8 per thread, i8 at 16; without an alignment hint
// only one element per thread is safe. (Each in its own function: accesses
// connected through def-use chains share their widest vector.)
// CHECK-LABEL: tt.func @width_f16
// CHECK: tt.load %{{.*}} : tensor<4096x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK-LABEL: tt.func @width_i8
// CHECK: tt.load %{{.*}} : tensor<4096x!tt.ptr<i8>, #ttg.blocked<{sizePerThread = [16], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK-LABEL: tt.func @width_unaligned
// CHECK: tt.load %{{.*}} : tensor<4096x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @width_f16(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32, #blocked>
    %as = tt.splat %a : !tt.ptr<f16> -> tensor<4096x!tt.ptr<f16>, #blocked>
    %ap = tt.addptr %as, %r : tensor<4096x!tt.ptr<f16>, #blocked>, tensor<4096xi32, #blocked>
    %av = tt.load %ap : tensor<4096x!tt.ptr<f16>, #blocked>
    tt.return
  }
  tt.func @width_i8(%b: !tt.ptr<i8> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32, #blocked>
    %bs = tt.splat %b : !tt.ptr<i8> -> tensor<4096x!tt.ptr<i8>, #blocked>
    %bp = tt.addptr %bs, %r : tensor<4096x!tt.ptr<i8>, #blocked>, tensor<4096xi32, #blocked>
    %bv = tt.load %bp : tensor<4096x!tt.ptr<i8>, #blocked>
    tt.return
  }
  tt.func @width_unaligned(%c: !tt.ptr<f32>) {
    %r = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32, #blocked>
    %cs = tt.splat %c : !tt.ptr<f32> -> tensor<4096x!tt.ptr<f32>, #blocked>
    %cp = tt.addptr %cs, %r : tensor<4096x!tt.ptr<f32>, #blocked>, tensor<4096xi32, #blocked>
    %cv = tt.load %cp : tensor<4096x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// 2-D, rows of 64 contiguous f32: dim 1 is fastest, 4 per thread, 16 lanes
// across a row. Column-major (runs along dim 0) flips the order. A tensor too
// small for 4 elements per thread gets fewer.
// CHECK-LABEL: tt.func @two_d
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>>
// CHECK: tt.load %{{.*}} : tensor<16x16x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #ttg.slice<{dim = 1, parent = #blocked}>
#col = #ttg.slice<{dim = 0, parent = #blocked}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_d(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %i = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #row>
    %j = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #col>
    %i2 = tt.expand_dims %i {axis = 1 : i32} : tensor<64xi32, #row> -> tensor<64x1xi32, #blocked>
    %j2 = tt.expand_dims %j {axis = 0 : i32} : tensor<64xi32, #col> -> tensor<1x64xi32, #blocked>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %c64t = arith.constant dense<64> : tensor<1x64xi32, #blocked>
    %ri = arith.muli %i2, %c64 : tensor<64x1xi32, #blocked>
    %rj = arith.muli %j2, %c64t : tensor<1x64xi32, #blocked>
    %bi = tt.broadcast %ri : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %bj = tt.broadcast %j2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %ci = tt.broadcast %i2 : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cj = tt.broadcast %rj : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %rowmajor = arith.addi %bi, %bj : tensor<64x64xi32, #blocked>
    %colmajor = arith.addi %ci, %cj : tensor<64x64xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %rowmajor : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %v = tt.load %pp : tensor<64x64x!tt.ptr<f32>, #blocked>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %qp = tt.addptr %qs, %colmajor : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    tt.store %qp, %v : tensor<64x64x!tt.ptr<f32>, #blocked>
    %s16 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #col>
    %s2 = tt.expand_dims %s16 {axis = 0 : i32} : tensor<16xi32, #col> -> tensor<1x16xi32, #blocked>
    %sb = tt.broadcast %s2 : tensor<1x16xi32, #blocked> -> tensor<16x16xi32, #blocked>
    %ss = tt.splat %p : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #blocked>
    %sp = tt.addptr %ss, %sb : tensor<16x16x!tt.ptr<f32>, #blocked>, tensor<16x16xi32, #blocked>
    %sv = tt.load %sp : tensor<16x16x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A load may take the widest vector of the accesses it is connected to (the
// f16 pointer below is only 4-byte aligned, its sibling store 16-byte), but
// a store never exceeds its own 128-bit limit.
// CHECK-LABEL: tt.func @siblings
// CHECK: tt.load %{{.*}} : tensor<2048x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<2048x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK: tt.atomic_rmw fadd, relaxed, gpu, %{{.*}}, %{{.*}} : (tensor<2048x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @siblings(%a: !tt.ptr<f16> {tt.divisibility = 4 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %as = tt.splat %a : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %ap = tt.addptr %as, %r : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
    %v = tt.load %ap : tensor<2048x!tt.ptr<f16>, #blocked>
    %bs = tt.splat %b : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %bp = tt.addptr %bs, %r : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
    tt.store %bp, %v : tensor<2048x!tt.ptr<f16>, #blocked>
    %old = tt.atomic_rmw fadd, relaxed, gpu, %ap, %v : (tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xf16, #blocked>) -> tensor<2048xf16, #blocked>
    tt.return
  }
}
