// Block arguments of unstructured control flow (cf.br, cf.cond_br) get the
// default layout, and the values branches pass are in it.
// RUN: tgpu-opt %s --convert-triton-to-tritongpu="num-warps=4 target=cuda:90" | FileCheck %s
// CHECK-LABEL: tt.func @branches
// CHECK: cf.cond_br %{{.*}}, ^bb1(%{{.*}} : tensor<128xi32, #blocked>), ^bb2
// CHECK: ^bb1(%[[A:.*]]: tensor<128xi32, #blocked>):
// CHECK: cf.br ^bb2(%[[A]] : tensor<128xi32, #blocked>)
// CHECK: ^bb2(%[[B:.*]]: tensor<128xi32, #blocked>):
// CHECK: tt.store %{{.*}}, %[[B]] : tensor<128x!tt.ptr<i32>, #blocked>
tt.func @branches(%ptr: !tt.ptr<i32>, %c: i1) {
  %one = arith.constant dense<1> : tensor<128xi32>
  %two = arith.constant dense<2> : tensor<128xi32>
  cf.cond_br %c, ^bb1(%one : tensor<128xi32>), ^bb2(%two : tensor<128xi32>)
^bb1(%a: tensor<128xi32>):
  cf.br ^bb2(%a : tensor<128xi32>)
^bb2(%b: tensor<128xi32>):
  %ptrs = tt.splat %ptr : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>>
  tt.store %ptrs, %b : tensor<128x!tt.ptr<i32>>
  tt.return
}
