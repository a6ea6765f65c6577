// RUN: tgpu-opt %s -split-input-file --convert-triton-to-tritongpu="target=cuda:90 num-warps=4" | FileCheck %s
// RUN: tgpu-opt %s -split-input-file --convert-triton-to-tritongpu="target=cuda:80 num-warps=8" | FileCheck %s --check-prefix=W8
// Default layouts (the same Triton 3.6 chooses, see
// corpus/kernels/triton_passes): one element per thread, lanes then warps
// spread from the fastest (last) dim; module attributes set.

// CHECK-DAG: #[[B1:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B16:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[COL:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK-DAG: #[[DEF:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// W8: "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80"
// W8-DAG: #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// CHECK-LABEL: tt.func @layouts
tt.func @layouts(%p: !tt.ptr<f32>) -> tensor<16xf32> {
  // CHECK: tt.make_range {{.*}} : tensor<16xi32, #[[B1]]>
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  // expand_dims reads a slice of its operand's layout with a size-1 dim
  // inserted (order 0, 1, ...), and its result goes back to the default.
  // CHECK: %[[S:.*]] = ttg.convert_layout %{{.*}} : tensor<16xi32, #[[B1]]> -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #[[COL]]}>>
  // CHECK: %[[E:.*]] = tt.expand_dims %[[S]] {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #[[COL]]}>> -> tensor<16x1xi32, #[[COL]]>
  // CHECK: %[[ED:.*]] = ttg.convert_layout %[[E]] : tensor<16x1xi32, #[[COL]]> -> tensor<16x1xi32, #[[DEF]]>
  %e = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  // broadcast keeps its operand's layout; its user converts to the default.
  // CHECK: %[[BC:.*]] = tt.broadcast %[[ED]] : tensor<16x1xi32, #[[DEF]]> -> tensor<16x16xi32, #[[DEF]]>
  // CHECK: %[[BCD:.*]] = ttg.convert_layout %[[BC]] : tensor<16x16xi32, #[[DEF]]> -> tensor<16x16xi32, #[[B16]]>
  %b = tt.broadcast %e : tensor<16x1xi32> -> tensor<16x16xi32>
  // CHECK: arith.constant dense<0> : tensor<16x16xi32, #[[B16]]>
  %z = arith.constant dense<0> : tensor<16x16xi32>
  // x + 0 folds away during the conversion, as in Triton.
  // CHECK-NOT: arith.addi
  // CHECK: arith.sitofp %[[BCD]] : tensor<16x16xi32, #[[B16]]> to tensor<16x16xf32, #[[B16]]>
  %s = arith.addi %b, %z : tensor<16x16xi32>
  %f = arith.sitofp %s : tensor<16x16xi32> to tensor<16x16xf32>
  // A reduction gives a slice of its operand's layout.
  // CHECK: "tt.reduce"
  // CHECK: -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #[[B16]]}>>
  %red = "tt.reduce"(%f) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %c: f32):
    %m = arith.addf %a, %c : f32
    tt.reduce.return %m : f32
  }) : (tensor<16x16xf32>) -> tensor<16xf32>
  // The returned tensor is in the default layout of the signature.
  // CHECK: ttg.convert_layout {{.*}} -> tensor<16xf32, #[[B1]]>
  // CHECK: tt.return {{.*}} : tensor<16xf32, #[[B1]]>
  tt.return %red : tensor<16xf32>
}

// -----

// tt.dot: the operands become #ttg.dot_op of the result's layout (the FMA
// path); tt.trans permutes its operand's layout.
// CHECK-DAG: #[[C:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[T:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @dot
tt.func @dot(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<16x16xf32, #[[C]]> -> tensor<16x16xf32, #[[T]]>
  %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<16x16xf32> -> tensor<16x16xf32>
  // CHECK: ttg.convert_layout %{{.*}} : tensor<16x16xf32, #[[C]]> -> tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #[[C]]}>>
  // CHECK: ttg.convert_layout %{{.*}} : tensor<16x16xf32, #[[T]]> -> tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #[[C]]}>>
  // CHECK: tt.dot {{.*}} -> tensor<16x16xf32, #[[C]]>
  %d = tt.dot %a, %bt, %c : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return %d : tensor<16x16xf32>
}

// -----

// A dot with 32 elements per thread: its layout holds 4x4 per thread, and
// the result goes back to the default layout.
// CHECK-DAG: #[[D:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[F:.*]] = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @big_dot
tt.func @big_dot(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #[[F]]>
  // CHECK: ttg.convert_layout {{.*}} : tensor<64x64xf32, #[[F]]> -> tensor<64x64xf32, #[[D]]>
  %d = tt.dot %a, %b, %c : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  tt.return %d : tensor<64x64xf32>
}

// -----

// Loop-carried tensors use the default layout in the init values, block
// arguments, yields and results.
// CHECK-LABEL: tt.func @loop
tt.func @loop(%n: i32) -> tensor<64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %init = arith.constant dense<0.0> : tensor<64xf32>
  %one = arith.constant dense<1.0> : tensor<64xf32>
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64xf32, #[[L:.*]]>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64xf32>) : i32 {
    // CHECK: arith.addf %[[ACC]], %{{.*}} : tensor<64xf32, #[[L]]>
    %next = arith.addf %acc, %one : tensor<64xf32>
    scf.yield %next : tensor<64xf32>
  }
  tt.return %r : tensor<64xf32>
}

// -----

// A multi-operand reduce whose operands arrive in different layouts (an
// earlier reduction's slice result and a blocked make_range; found by
// fuzz_pipeline): every operand goes to the default layout, the slice through
// a convert right after the first reduce. Expected text from Triton 3.6's
// convert-triton-to-tritongpu on the same kernel (GPU machine, 2026-11-23).
// CHECK-LABEL: tt.func @argmax_of_reduced
tt.func @argmax_of_reduced(%x: tensor<8x16xi32>) -> (i32, i32) {
  %sum = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tt.reduce.return %s : i32
  }) : (tensor<8x16xi32>) -> tensor<8xi32>
  // CHECK: %[[SUM:.*]] = "tt.reduce"
  // CHECK: -> tensor<8xi32, #ttg.slice<{dim = 1, parent = #[[P:blocked[0-9]*]]}>>
  // CHECK-NEXT: %[[CVT:.*]] = ttg.convert_layout %[[SUM]] : tensor<8xi32, #ttg.slice<{dim = 1, parent = #[[P]]}>> -> tensor<8xi32, #[[B:blocked[0-9]*]]>
  // CHECK-NEXT: %[[IDX:.*]] = tt.make_range {{.*}} : tensor<8xi32, #[[B]]>
  // CHECK: "tt.reduce"(%[[CVT]], %[[IDX]]) <{axis = 0 : i32}>
  %i8 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %v, %i = "tt.reduce"(%sum, %i8) <{axis = 0 : i32}> ({
  ^bb0(%va: i32, %ia: i32, %vb: i32, %ib: i32):
    %gt = arith.cmpi sgt, %va, %vb : i32
    %vv = arith.select %gt, %va, %vb : i32
    %ii = arith.select %gt, %ia, %ib : i32
    tt.reduce.return %vv, %ii : i32, i32
  }) : (tensor<8xi32>, tensor<8xi32>) -> (i32, i32)
  tt.return %v, %i : i32, i32
}
