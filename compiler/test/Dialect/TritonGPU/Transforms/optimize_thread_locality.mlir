// RUN: tgpu-opt %s -split-input-file --tritongpu-optimize-thread-locality | FileCheck %s
// RUN: tgpu-opt %s -split-input-file --tritongpu-optimize-thread-locality --canonicalize | FileCheck %s --check-prefix=CANON

// A running sum of a loaded 32x128 tile, 4 elements a thread along the
// reduced axis (sizePerThread 4, 32 lanes cover the 128 columns once): the
// load is viewed as 32x32x4 with the 4 elements in each thread (the new
// dim fastest, with the old sizePerThread), summed within threads into a
// new 32x32 accumulator starting at +0.0; after the loop that is summed
// along dim 1, converted back and added to the old initial value.
// CHECK: #[[$B3:[a-z0-9_]+]] = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-LABEL: tt.func @running_sum
// CHECK: %[[INIT:.*]] = arith.constant dense<1.000000e+00> : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #ttg.slice<{dim = 2, parent = #[[$B3]]}>>
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]], %[[PART:.*]] = %[[ZERO]])
// CHECK: %[[X:.*]] = tt.load
// CHECK: %[[V:.*]] = tt.reshape %[[X]] allow_reorder efficient_layout : tensor<32x128xf32, #blocked> -> tensor<32x32x4xf32, #[[$B3]]>
// CHECK-NEXT: %[[P:.*]] = "tt.reduce"(%[[V]]) <{axis = 2 : i32}>
// CHECK: %[[U:.*]] = arith.addf %[[PART]], %[[P]] : tensor<32x32xf32, #ttg.slice<{dim = 2, parent = #[[$B3]]}>>
// CHECK: scf.yield %[[ACC]], %[[U]]
// CHECK: %[[T:.*]] = "tt.reduce"(%[[LOOP]]#1) <{axis = 1 : i32}>
// CHECK: }) : (tensor<32x32xf32, #ttg.slice<{dim = 2, parent = #[[$B3]]}>>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #[[$B3]]}>}>>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[T]] {{.*}} -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: %[[F:.*]] = arith.addf %[[INIT]], %[[C]]
// CHECK-NEXT: tt.store %{{.*}}, %[[F]]
// CANON-LABEL: tt.func @running_sum
// CANON: scf.for {{.*}} -> (tensor<32x32xf32
// CANON-NOT: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}>
// CANON: scf.yield
// CANON: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @running_sum(%ptrs: tensor<32x128x!tt.ptr<f32>, #blocked>, %out: tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %init = arith.constant dense<1.0> : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) : i32 {
      %x = tt.load %ptrs : tensor<32x128x!tt.ptr<f32>, #blocked>
      %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        tt.reduce.return %s : f32
      }) : (tensor<32x128xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %next = arith.addf %acc, %r : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      scf.yield %next : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    }
    tt.store %out, %sum : tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return
  }
}

// -----

// A running maximum (maxnumf) with 2 elements a thread along the axis in
// each of 2 repetitions (e = 4): the new accumulator starts at -inf.
// CHECK: #[[$M3:[a-z0-9_]+]] = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 16, 1], warpsPerCTA = [2, 1, 1], order = [2, 1, 0]}>
// CHECK-LABEL: tt.func @running_max
// CHECK: arith.constant dense<0xFF800000> : tensor<16x16xf32, #ttg.slice<{dim = 2, parent = #[[$M3]]}>>
// CHECK: tt.reshape %{{.*}} allow_reorder efficient_layout : tensor<16x64xf32, #blocked> -> tensor<16x16x4xf32, #[[$M3]]>
// CHECK: arith.maxnumf
#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @running_max(%ptrs: tensor<16x64x!tt.ptr<f32>, #blocked>, %n: i32) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %init = arith.constant dense<0.0> : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %m = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) : i32 {
      %x = tt.load %ptrs : tensor<16x64x!tt.ptr<f32>, #blocked>
      %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %s = arith.maxnumf %a, %b : f32
        tt.reduce.return %s : f32
      }) : (tensor<16x64xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %next = arith.maxnumf %r, %acc : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      scf.yield %next : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    }
    tt.return %m : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}

// -----

// Left alone: an update that is not the reduce's own combiner (subtracting
// partial sums is not subtracting the total), a reduce of a computed value,
// and one element a thread along the axis.
// CHECK-LABEL: tt.func @left_alone
// CHECK-NOT: tt.reshape
// CHECK-NOT: efficient_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @left_alone(%ptrs: tensor<32x128x!tt.ptr<f32>, #blocked>, %ptrs1: tensor<32x32x!tt.ptr<f32>, #blocked1>, %n: i32) -> (tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %init = arith.constant dense<0.0> : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %init1 = arith.constant dense<0.0> : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %init, %a1 = %init, %a2 = %init1) -> (tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>) : i32 {
      %x = tt.load %ptrs : tensor<32x128x!tt.ptr<f32>, #blocked>
      %r0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        tt.reduce.return %s : f32
      }) : (tensor<32x128xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %u0 = arith.subf %a0, %r0 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %sq = arith.mulf %x, %x : tensor<32x128xf32, #blocked>
      %r1 = "tt.reduce"(%sq) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        tt.reduce.return %s : f32
      }) : (tensor<32x128xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %u1 = arith.addf %a1, %r1 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %y = tt.load %ptrs1 : tensor<32x32x!tt.ptr<f32>, #blocked1>
      %r2 = "tt.reduce"(%y) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        tt.reduce.return %s : f32
      }) : (tensor<32x32xf32, #blocked1>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %u2 = arith.addf %a2, %r2 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      scf.yield %u0, %u1, %u2 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    }
    tt.return %res#0, %res#1, %res#2 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
  }
}

// -----

// A reshape feeding a reduce along dim 1: Triton's default layout with one
// element a thread and dim 1 slowest (lanes and warps down dim 0), a view
// of the same registers here (row r of the 4x256 source is rows 16r..16r+15
// of the 64x16 result).
// CHECK: #[[$L:[a-z0-9_]+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 1], order = [0, 1]}>
// CHECK-LABEL: tt.func @reshape_for_reduce
// CHECK: %[[R:.*]] = tt.reshape %arg0 allow_reorder efficient_layout : tensor<4x256xf32, #blocked> -> tensor<64x16xf32, #[[$L]]>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[R]] : tensor<64x16xf32, #[[$L]]> -> tensor<64x16xf32, #blocked1>
// CHECK-NEXT: "tt.reduce"(%[[C]])
#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [2, 16], warpsPerCTA = [2, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape_for_reduce(%x: tensor<4x256xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> {
    %v = tt.reshape %x allow_reorder : tensor<4x256xf32, #blocked> -> tensor<64x16xf32, #blocked1>
    %r = "tt.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<64x16xf32, #blocked1>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    tt.return %r : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
  }
}

// -----

// Gathers: the axis within each warp. Along dim 1 (16 elements) 16 lanes
// and the other 2 lanes down dim 0, the 4 warps down dim 0; along dim 0
// (32 elements) all 32 lanes, the warps across dim 1. A 1-D gather stays.
// CHECK-DAG: #[[$G1:[a-z0-9_]+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$G0:[a-z0-9_]+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @gathers
// CHECK: %[[S:.*]] = ttg.convert_layout %arg0 : tensor<32x16xf32, #blocked> -> tensor<32x16xf32, #[[$G1]]>
// CHECK-NEXT: %[[I:.*]] = ttg.convert_layout %arg1 : tensor<32x4xi32, #blocked> -> tensor<32x4xi32, #[[$G1]]>
// CHECK-NEXT: %[[O:.*]] = tt.gather %[[S]][%[[I]]] {axis = 1 : i32, efficient_layout}
// CHECK-NEXT: ttg.convert_layout %[[O]] : tensor<32x4xf32, #[[$G1]]> -> tensor<32x4xf32, #blocked>
// CHECK: tt.gather %{{.*}}[%{{.*}}] {axis = 0 : i32, efficient_layout} : (tensor<32x16xf32, #[[$G0]]>,
// CHECK: tt.gather %arg3[%arg4] {axis = 0 : i32} : (tensor<64xf32, #{{[a-z0-9_]+}}>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @gathers(%src: tensor<32x16xf32, #blocked>, %idx: tensor<32x4xi32, #blocked>, %idx0: tensor<32x16xi32, #blocked>, %src1: tensor<64xf32, #blocked2>, %idx1: tensor<64xi32, #blocked2>) -> (tensor<32x4xf32, #blocked>, tensor<32x16xf32, #blocked>, tensor<64xf32, #blocked2>) {
    %0 = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<32x16xf32, #blocked>, tensor<32x4xi32, #blocked>) -> tensor<32x4xf32, #blocked>
    %1 = tt.gather %src[%idx0] {axis = 0 : i32} : (tensor<32x16xf32, #blocked>, tensor<32x16xi32, #blocked>) -> tensor<32x16xf32, #blocked>
    %2 = tt.gather %src1[%idx1] {axis = 0 : i32} : (tensor<64xf32, #blocked2>, tensor<64xi32, #blocked2>) -> tensor<64xf32, #blocked2>
    tt.return %0, %1, %2 : tensor<32x4xf32, #blocked>, tensor<32x16xf32, #blocked>, tensor<64xf32, #blocked2>
  }
}
