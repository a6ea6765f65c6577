// Rank-0 tensors (valid TTIR) become tensor<1xT> before layouts are given:
// element-wise ops, constants, function signatures and loop-carried values
// only change type; a join of two rank-0 tensors joins tensor<1xT> into
// tensor<1x2xT> and reshapes it, a split into rank-0 halves splits a
// tensor<1x2xT>, a splat of a rank-0 tensor is a broadcast, expand_dims of
// one is the identity.
// RUN: tgpu-opt %s -split-input-file --convert-triton-to-tritongpu="num-warps=4" | FileCheck %s

// CHECK-LABEL: tt.func public @join_rank0
// CHECK-SAME: (%[[A:.*]]: tensor<1xf32, #[[B:.*]]>, %[[C:.*]]: tensor<1xf32, #[[B]]>,
// CHECK: %[[J:.*]] = tt.join %[[A]], %[[C]] : tensor<1xf32, #[[B]]> -> tensor<1x2xf32,
// CHECK: %[[R:.*]] = tt.reshape %{{.*}} : tensor<1x2xf32, #{{.*}}> -> tensor<2xf32, #[[B]]>
// CHECK: tt.store %{{.*}}, %[[R]]
module {
tt.func public @join_rank0(%a: tensor<f32>, %b: tensor<f32>, %p: tensor<2x!tt.ptr<f32>>) {
  %j = tt.join %a, %b : tensor<f32> -> tensor<2xf32>
  tt.store %p, %j : tensor<2x!tt.ptr<f32>>
  tt.return
}
}

// -----

// CHECK-LABEL: tt.func public @split_splat
// CHECK-SAME: -> tensor<1xi32, #[[B:[a-z0-9]*]]>
// CHECK: tt.reshape %{{.*}} : tensor<2xi32, #{{.*}}> -> tensor<1x2xi32,
// CHECK: %[[L:.*]], %[[H:.*]] = tt.split %{{.*}} : tensor<1x2xi32, #{{.*}}> -> tensor<1xi32,
// CHECK: %[[S:.*]] = arith.subi %[[H]], %[[L]]{{.*}} : tensor<1xi32, #[[B]]>
// CHECK: %[[K:.*]] = arith.constant dense<3> : tensor<1xi32, #[[B]]>
// CHECK: %[[M:.*]] = arith.muli %[[S]], %[[K]] : tensor<1xi32, #[[B]]>
// CHECK: %[[R:.*]] = tt.reshape %[[M]] : tensor<1xi32, #[[B]]> -> tensor<1x1xi32,
// CHECK: tt.broadcast %[[R]] : tensor<1x1xi32, #{{.*}}> -> tensor<4x8xi32,
// CHECK: tt.return %[[M]] : tensor<1xi32, #[[B]]>
module {
tt.func public @split_splat(%v: tensor<2xi32>, %p: tensor<4x8x!tt.ptr<i32>>) -> tensor<i32> {
  %l, %h = tt.split %v : tensor<2xi32> -> tensor<i32>
  %s = arith.subi %h, %l : tensor<i32>
  %k = arith.constant dense<3> : tensor<i32>
  %m = arith.muli %s, %k : tensor<i32>
  %big = tt.splat %m : tensor<i32> -> tensor<4x8xi32>
  tt.store %p, %big : tensor<4x8x!tt.ptr<i32>>
  tt.return %m : tensor<i32>
}
}

// -----

// CHECK-LABEL: tt.func public @loop_carried
// CHECK: %[[T:.*]] = tt.splat %{{.*}} : f32 -> tensor<1xf32, #[[B:[a-z0-9]*]]>
// CHECK: %[[L:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[T]]) -> (tensor<1xf32, #[[B]]>)
// CHECK: tt.store %{{.*}}, %[[L]] : tensor<1x!tt.ptr<f32>, #[[B]]>
module {
tt.func public @loop_carried(%x: f32, %n: i32, %p: !tt.ptr<f32>) {
  %t = tt.splat %x : f32 -> tensor<f32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (tensor<f32>) : i32 {
    %d = arith.addf %acc, %acc : tensor<f32>
    scf.yield %d : tensor<f32>
  }
  %e = tt.expand_dims %l {axis = 0 : i32} : tensor<f32> -> tensor<1xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1x!tt.ptr<f32>>
  tt.store %ps, %e : tensor<1x!tt.ptr<f32>>
  tt.return
}
}
