// RUN: tgpu-opt %s -split-input-file --tritongpu-remove-layout-conversions | FileCheck %s
// RUN: tgpu-opt %s -split-input-file --tritongpu-remove-layout-conversions | tgpu-opt -split-input-file > /dev/null

// A coalesced load's layout reaches its elementwise users and the store:
// the converts coalescing put around the accesses all go.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: #[[V4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @forward
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.make_range {{.*}} : tensor<1024xi32, #[[V4]]>
// CHECK: %[[X:.*]] = tt.load {{.*}} : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK: %[[Y:.*]] = arith.mulf %[[X]], %[[X]] : tensor<1024xf32, #[[V4]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %{{.*}}, %[[Y]] : tensor<1024x!tt.ptr<f32>, #[[V4]]>
  tt.func @forward(%pa: !tt.ptr<f32>, %pc: !tt.ptr<f32>) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %a0 = tt.splat %pa : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %a1 = tt.addptr %a0, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %a2 = ttg.convert_layout %a1 : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1>
    %x = tt.load %a2 : tensor<1024x!tt.ptr<f32>, #blocked1>
    %x1 = ttg.convert_layout %x : tensor<1024xf32, #blocked1> -> tensor<1024xf32, #blocked>
    %y = arith.mulf %x1, %x1 : tensor<1024xf32, #blocked>
    %c0 = tt.splat %pc : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %c1 = tt.addptr %c0, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %c2 = ttg.convert_layout %c1 : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1>
    %y2 = ttg.convert_layout %y : tensor<1024xf32, #blocked> -> tensor<1024xf32, #blocked1>
    tt.store %c2, %y2 : tensor<1024x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// Nothing propagates into the stored value (stores are not users that take
// a layout), so the convert in front of the store is removed backwards:
// make_range, splat and the constant are rebuilt in the store's layout.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: #[[V4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @rematerialise
// CHECK-NOT: ttg.convert_layout
// CHECK-DAG: %[[C:.*]] = arith.constant dense<3> : tensor<1024xi32, #[[V4]]>
// CHECK-DAG: %[[R:.*]] = tt.make_range {{.*}} : tensor<1024xi32, #[[V4]]>
// CHECK-DAG: %[[S:.*]] = tt.splat %arg1 : i32 -> tensor<1024xi32, #[[V4]]>
// CHECK: %[[M:.*]] = arith.muli %[[R]], %[[C]] : tensor<1024xi32, #[[V4]]>
// CHECK: %[[A:.*]] = arith.addi %[[M]], %[[S]] : tensor<1024xi32, #[[V4]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %arg0, %[[A]] : tensor<1024x!tt.ptr<i32>, #[[V4]]>
  tt.func @rematerialise(%p: tensor<1024x!tt.ptr<i32>, #blocked1>, %off: i32) {
    %c3 = arith.constant dense<3> : tensor<1024xi32, #blocked>
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %s = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
    %m = arith.muli %r, %c3 : tensor<1024xi32, #blocked>
    %a = arith.addi %m, %s : tensor<1024xi32, #blocked>
    %v = ttg.convert_layout %a : tensor<1024xi32, #blocked> -> tensor<1024xi32, #blocked1>
    tt.store %p, %v : tensor<1024x!tt.ptr<i32>, #blocked1>
    tt.return
  }
}

// -----

// Row sums: the loaded layout flows through the reduction (a slice of it),
// expand_dims (back to it), the broadcast and the subtraction.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: #[[L:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @reduce_chain
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[X:.*]] = tt.load %arg0 : tensor<32x32x!tt.ptr<f32>, #[[L]]>
// CHECK: "tt.reduce"(%[[X]]) <{axis = 1 : i32}>
// CHECK: }) : (tensor<32x32xf32, #[[L]]>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #[[L]]}>>
// CHECK: tt.expand_dims {{.*}} -> tensor<32x1xf32, #[[L]]>
// CHECK: tt.broadcast {{.*}} -> tensor<32x32xf32, #[[L]]>
// CHECK: arith.subf {{.*}} : tensor<32x32xf32, #[[L]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store
  tt.func @reduce_chain(%p: tensor<32x32x!tt.ptr<f32>, #blocked>, %q: tensor<32x32x!tt.ptr<f32>, #blocked>) {
    %x = tt.load %p : tensor<32x32x!tt.ptr<f32>, #blocked>
    %x1 = ttg.convert_layout %x : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    %s = "tt.reduce"(%x1) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<32x32xf32, #blocked1>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %e = tt.expand_dims %s {axis = 1 : i32} : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<32x1xf32, #blocked1>
    %b = tt.broadcast %e : tensor<32x1xf32, #blocked1> -> tensor<32x32xf32, #blocked1>
    %d = arith.subf %x1, %b : tensor<32x32xf32, #blocked1>
    %d1 = ttg.convert_layout %d : tensor<32x32xf32, #blocked1> -> tensor<32x32xf32, #blocked>
    tt.store %q, %d1 : tensor<32x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A loop-carried accumulator takes the loaded layout: the loop is rebuilt
// with the new iter_arg type and its initial constant made in that layout.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: #[[V4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @loop_carried
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<1024xf32, #[[V4]]>
// CHECK: %[[RES:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<1024xf32, #[[V4]]>)
// CHECK: %[[X:.*]] = tt.load %arg0 : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK: %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : tensor<1024xf32, #[[V4]]>
// CHECK: scf.yield %[[S]] : tensor<1024xf32, #[[V4]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %arg0, %[[RES]] : tensor<1024x!tt.ptr<f32>, #[[V4]]>
  tt.func @loop_carried(%p: tensor<1024x!tt.ptr<f32>, #blocked1>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %init = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<1024xf32, #blocked>) : i32 {
      %x = tt.load %p : tensor<1024x!tt.ptr<f32>, #blocked1>
      %x1 = ttg.convert_layout %x : tensor<1024xf32, #blocked1> -> tensor<1024xf32, #blocked>
      %s = arith.addf %acc, %x1 : tensor<1024xf32, #blocked>
      scf.yield %s : tensor<1024xf32, #blocked>
    }
    %r1 = ttg.convert_layout %res : tensor<1024xf32, #blocked> -> tensor<1024xf32, #blocked1>
    tt.store %p, %r1 : tensor<1024x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// A transposed load stored in the original orientation: the data really
// moves between threads, so one convert remains (the load cannot be redone
// in another layout, it is an anchor).
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: #[[L:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[T:.*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @transpose
// CHECK: %[[X:.*]] = tt.load %arg0 : tensor<32x32x!tt.ptr<f32>, #[[L]]>
// CHECK: %[[T1:.*]] = tt.trans %[[X]] {order = array<i32: 1, 0>} : tensor<32x32xf32, #[[L]]> -> tensor<32x32xf32, #[[T]]>
// CHECK: %[[C:.*]] = ttg.convert_layout %[[T1]] : tensor<32x32xf32, #[[T]]> -> tensor<32x32xf32, #[[L]]>
// CHECK: tt.store %arg1, %[[C]]
// CHECK-NOT: ttg.convert_layout
  tt.func @transpose(%p: tensor<32x32x!tt.ptr<f32>, #blocked>, %q: tensor<32x32x!tt.ptr<f32>, #blocked>) {
    %x = tt.load %p : tensor<32x32x!tt.ptr<f32>, #blocked>
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    %t1 = ttg.convert_layout %t : tensor<32x32xf32, #blocked1> -> tensor<32x32xf32, #blocked>
    tt.store %q, %t1 : tensor<32x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// convert(convert(x)) becomes one convert; a convert to the type it already
// has disappears.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: #[[B1:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[B4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @convert_of_convert
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %arg0 : tensor<1024xf32, #[[B1]]> -> tensor<1024xf32, #[[B4]]>
// CHECK-NEXT: tt.store %arg1, %[[C]] : tensor<1024x!tt.ptr<f32>, #[[B4]]>
// CHECK-NEXT: tt.return
  tt.func @convert_of_convert(%x: tensor<1024xf32, #blocked>, %p: tensor<1024x!tt.ptr<f32>, #blocked2>) {
    %a = ttg.convert_layout %x : tensor<1024xf32, #blocked> -> tensor<1024xf32, #blocked1>
    %b = ttg.convert_layout %a : tensor<1024xf32, #blocked1> -> tensor<1024xf32, #blocked2>
    tt.store %p, %b : tensor<1024x!tt.ptr<f32>, #blocked2>
    tt.return
  }

// CHECK-LABEL: tt.func @convert_to_same_type
// CHECK-NEXT: tt.store %arg1, %arg0 : tensor<1024x!tt.ptr<f32>, #[[B4]]>
// CHECK-NEXT: tt.return
  tt.func @convert_to_same_type(%x: tensor<1024xf32, #blocked2>, %p: tensor<1024x!tt.ptr<f32>, #blocked2>) {
    %a = ttg.convert_layout %x : tensor<1024xf32, #blocked2> -> tensor<1024xf32, #blocked2>
    tt.store %p, %a : tensor<1024x!tt.ptr<f32>, #blocked2>
    tt.return
  }
}

// -----

// The convert moves back through tt.broadcast, whose operand then takes
// the 4x8x4 #ttg.linear too: a linear layout is fitted to each shape (its
// bases past the size-1 dims broadcast), as in Triton. fuzz_pipeline once
// found the pass making tensor<1x8x1xi32, #linear> when tgpu rejected such
// types on parsing (corpus/regressions/fuzz_pipeline/
// round-trip-broadcast-linear.ttgir); the second RUN line parses this
// file's output again.
// CHECK-LABEL: tt.func @broadcast_into_linear
// CHECK: %[[C:.*]] = ttg.convert_layout %arg1 : tensor<1x8x1xi32, #blocked> -> tensor<1x8x1xi32, #linear>
// CHECK-NEXT: tt.broadcast %[[C]] : tensor<1x8x1xi32, #linear> -> tensor<4x8x4xi32, #linear>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [4, 8, 1], warpsPerCTA = [1, 1, 4], order = [0, 1, 2]}>
#linear = #ttg.linear<{register = [], lane = [[0, 1, 0], [2, 0, 0], [0, 0, 1], [0, 0, 2], [0, 2, 0]], warp = [[0, 4, 0], [1, 0, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @broadcast_into_linear(%a: tensor<4x8x4xi32, #linear>, %s: tensor<1x8x1xi32, #blocked>) -> tensor<4x8x4xi32, #linear> {
    %b = tt.broadcast %s : tensor<1x8x1xi32, #blocked> -> tensor<4x8x4xi32, #blocked>
    %c = ttg.convert_layout %b : tensor<4x8x4xi32, #blocked> -> tensor<4x8x4xi32, #linear>
    %d = arith.addi %a, %c : tensor<4x8x4xi32, #linear>
    tt.return %d : tensor<4x8x4xi32, #linear>
  }
}

// -----

// Layouts go through tt.reshape (without allow_reorder) both ways: each
// thread keeps its registers, so the other side's layout is the row-major
// reshape of this side's, a #ttg.blocked where one describes it. Here the
// 8x8 tile, two elements a thread along dim 1, reshaped to 64, is the 1-D
// blocked layout of two elements a thread; both converts go.
// CHECK-LABEL: tt.func public @through_reshape
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[R:.*]] = tt.reshape %arg0 : tensor<8x8xi32, #[[SRC:.*]]> -> tensor<64xi32, #[[DST:.*]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return %[[R]] : tensor<64xi32, #[[DST]]>
#src = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#mid = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#flat1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#flat2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @through_reshape(%arg0: tensor<8x8xi32, #src>) -> tensor<64xi32, #flat2> {
    %a = ttg.convert_layout %arg0 : tensor<8x8xi32, #src> -> tensor<8x8xi32, #mid>
    %b = tt.reshape %a : tensor<8x8xi32, #mid> -> tensor<64xi32, #flat1>
    %c = ttg.convert_layout %b : tensor<64xi32, #flat1> -> tensor<64xi32, #flat2>
    tt.return %c : tensor<64xi32, #flat2>
  }
}

// -----

// A 2x32 load, lanes first along dim 0 (two rows) then along dim 1, two
// consecutive elements a thread: reshaped to 64, lane 1 is 32 elements on
// and lanes 2.. are 2, 4, 8, 16 on, which no blocked layout gives. The
// load's layout goes forward through the reshape as a #ttg.linear.
// CHECK: #linear = #ttg.linear<{register = {{\[}}[1]], lane = {{\[}}[32], [2], [4], [8], [16]], warp = [], block = []}>
// CHECK-LABEL: tt.func public @reshape_to_linear
// CHECK: tt.reshape %{{.*}} : tensor<2x32xf32, #{{.*}}> -> tensor<64xf32, #linear>
#rows = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [0, 1]}>
#flat = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#out = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshape_to_linear(%arg0: tensor<2x32x!tt.ptr<f32>, #rows>) -> tensor<64xf32, #out> {
    %v = tt.load %arg0 : tensor<2x32x!tt.ptr<f32>, #rows>
    %c = ttg.convert_layout %v : tensor<2x32xf32, #rows> -> tensor<2x32xf32, #rows>
    %r = tt.reshape %c : tensor<2x32xf32, #rows> -> tensor<64xf32, #flat>
    %n = arith.negf %r : tensor<64xf32, #flat>
    %o = ttg.convert_layout %n : tensor<64xf32, #flat> -> tensor<64xf32, #out>
    tt.return %o : tensor<64xf32, #out>
  }
}

// -----

// A #ttg.linear source goes through tt.split: each thread holds both halves
// (register bit 1 selects the half), so the halves' layout is the source's
// without that bit, a #ttg.linear too, and the convert moves after the
// split, onto one half.
// CHECK: #[[HALF:linear[0-9]*]] = #ttg.linear<{register = {{\[}}[1], [4]], lane = {{\[}}[2], [0], [0], [0], [0]], warp = [], block = []}>
// CHECK-LABEL: tt.func public @split_of_linear
// CHECK: %[[L:.*]], %{{.*}} = tt.split %arg0 : tensor<8x2xf32, #{{.*}}> -> tensor<8xf32, #[[HALF]]>
// CHECK: %[[C:.*]] = ttg.convert_layout %[[L]]
// CHECK: tt.return %[[C]]
#pairs = #ttg.linear<{register = [[1, 0], [0, 1], [4, 0]], lane = [[2, 0], [0, 0], [0, 0], [0, 0], [0, 0]], warp = [], block = []}>
#wide = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
#flat = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @split_of_linear(%arg0: tensor<8x2xf32, #pairs>) -> tensor<8xf32, #flat> {
    %c = ttg.convert_layout %arg0 : tensor<8x2xf32, #pairs> -> tensor<8x2xf32, #wide>
    %l, %r = tt.split %c : tensor<8x2xf32, #wide> -> tensor<8xf32, #flat>
    tt.return %l : tensor<8xf32, #flat>
  }
}

// -----

// A dot's mma result is an anchor: it flows through the convert into the
// accumulating addf and the loop-carried value, so the loop runs in mma
// layout and converts once, after the loop, for the store.
// CHECK-LABEL: tt.func public @dot_accumulates_in_mma
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[S:.*]] = %[[ZERO]]) -> (tensor<64x64xf32, #mma>)
// CHECK-NOT: ttg.convert_layout
// CHECK: arith.addf %[[S]], %{{.*}} : tensor<64x64xf32, #mma>
// CHECK: scf.yield
// CHECK: %[[OUT:.*]] = ttg.convert_layout %[[R]] : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// CHECK: tt.store %{{.*}}, %[[OUT]]
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#opa = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @dot_accumulates_in_mma(%a: tensor<64x32xf16, #opa>, %b: tensor<32x64xf16, #opb>, %p: tensor<64x64x!tt.ptr<f32>, #acc>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #acc>
    %zero_mma = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
      %d = tt.dot %a, %b, %zero_mma : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> -> tensor<64x64xf32, #mma>
      %c = ttg.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #acc>
      %t = arith.addf %s, %c : tensor<64x64xf32, #acc>
      scf.yield %t : tensor<64x64xf32, #acc>
    }
    tt.store %p, %r : tensor<64x64x!tt.ptr<f32>, #acc>
    tt.return
  }
}

// -----

// A value reached by the blocked layout of a load and the mma layout of a
// dot is computed in mma (blocked is kept only next to memory accesses):
// the load's result and the store's operand are converted.
// CHECK-LABEL: tt.func public @load_meets_dot
// CHECK: %[[X:.*]] = tt.load
// CHECK: %[[XM:.*]] = ttg.convert_layout %[[X]] : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
// CHECK: %[[D:.*]] = tt.dot
// CHECK: %[[T:.*]] = arith.mulf %[[XM]], %[[D]] : tensor<64x64xf32, #mma>
// CHECK: %[[U:.*]] = math.exp %[[T]] : tensor<64x64xf32, #mma>
// CHECK: %[[OUT:.*]] = ttg.convert_layout %[[U]] : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// CHECK: tt.store %{{.*}}, %[[OUT]]
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#opa = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @load_meets_dot(%a: tensor<64x32xf16, #opa>, %b: tensor<32x64xf16, #opb>, %p: tensor<64x64x!tt.ptr<f32>, #acc>) {
    %zero_mma = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %x = tt.load %p : tensor<64x64x!tt.ptr<f32>, #acc>
    %d = tt.dot %a, %b, %zero_mma : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> -> tensor<64x64xf32, #mma>
    %c = ttg.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #acc>
    %t = arith.mulf %x, %c : tensor<64x64xf32, #acc>
    %u = math.exp %t : tensor<64x64xf32, #acc>
    tt.store %p, %u : tensor<64x64x!tt.ptr<f32>, #acc>
    tt.return
  }
}
