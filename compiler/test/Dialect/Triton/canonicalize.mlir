// The folds of tt ops: views and offsets that change nothing disappear, and
// constants pass through views (as arith.constant splats).
// RUN: tgpu-opt %s -split-input-file -canonicalize | FileCheck %s

// CHECK-LABEL: tt.func @one_element_range
// CHECK-DAG: %[[C:.*]] = arith.constant dense<7> : tensor<1xi32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<7> : tensor<16x1xi32>
// CHECK: tt.return %[[C]], %[[B]]
tt.func @one_element_range() -> (tensor<1xi32>, tensor<16x1xi32>) {
  %r = tt.make_range {end = 8 : i32, start = 7 : i32} : tensor<1xi32>
  %e = tt.expand_dims %r {axis = 1 : i32} : tensor<1xi32> -> tensor<1x1xi32>
  %b = tt.broadcast %e : tensor<1x1xi32> -> tensor<16x1xi32>
  tt.return %r, %b : tensor<1xi32>, tensor<16x1xi32>
}

// -----

// A longer range stays.
// CHECK-LABEL: tt.func @range
// CHECK: tt.make_range
tt.func @range() -> tensor<2xi32> {
  %r = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
  tt.return %r : tensor<2xi32>
}

// -----

// CHECK-LABEL: tt.func @zero_offsets
// CHECK-SAME: (%[[P:.*]]: tensor<8x!tt.ptr<f32>>, %[[S:.*]]: !tt.ptr<f32>, %[[B:.*]]: !tt.ptr<tensor<4x4xf32>>)
// CHECK-NOT: tt.addptr
// CHECK-NOT: tt.advance
// CHECK: tt.return %[[P]], %[[S]], %[[B]]
tt.func @zero_offsets(%p: tensor<8x!tt.ptr<f32>>, %s: !tt.ptr<f32>, %b: !tt.ptr<tensor<4x4xf32>>) -> (tensor<8x!tt.ptr<f32>>, !tt.ptr<f32>, !tt.ptr<tensor<4x4xf32>>) {
  %zeros = arith.constant dense<0> : tensor<8xi32>
  %zero = arith.constant 0 : i32
  %0 = tt.addptr %p, %zeros : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %1 = tt.addptr %s, %zero : !tt.ptr<f32>, i32
  %2 = tt.advance %b, [%zero, %zero] : <tensor<4x4xf32>>
  tt.return %0, %1, %2 : tensor<8x!tt.ptr<f32>>, !tt.ptr<f32>, !tt.ptr<tensor<4x4xf32>>
}

// -----

// A non-zero offset stays.
// CHECK-LABEL: tt.func @offset
// CHECK: tt.addptr
tt.func @offset(%s: !tt.ptr<f32>) -> !tt.ptr<f32> {
  %one = arith.constant 1 : i32
  %0 = tt.addptr %s, %one : !tt.ptr<f32>, i32
  tt.return %0 : !tt.ptr<f32>
}

// -----

// CHECK-LABEL: tt.func @constant_views
// CHECK-DAG: %[[S:.*]] = arith.constant dense<2.500000e+00> : tensor<4x8xf32>
// CHECK-DAG: %[[T:.*]] = arith.constant dense<1.000000e+00> : tensor<8x4xf32>
// CHECK-DAG: %[[R:.*]] = arith.constant dense<1.000000e+00> : tensor<32xf32>
// CHECK: tt.return %[[S]], %[[T]], %[[R]]
tt.func @constant_views() -> (tensor<4x8xf32>, tensor<8x4xf32>, tensor<32xf32>) {
  %x = arith.constant 2.5 : f32
  %s = tt.splat %x : f32 -> tensor<4x8xf32>
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  %t = tt.trans %c {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %r = tt.reshape %c : tensor<4x8xf32> -> tensor<32xf32>
  tt.return %s, %t, %r : tensor<4x8xf32>, tensor<8x4xf32>, tensor<32xf32>
}

// -----

// Zeros of either sign convert to the same zero; f8E4M3FNUZ has no -0.
// CHECK-LABEL: tt.func @fp_to_fp_zeros
// CHECK-DAG: arith.constant dense<-0.000000e+00> : tensor<4xf8E4M3FN>
// CHECK-DAG: arith.constant dense<0.000000e+00> : tensor<4xf8E4M3FNUZ>
// CHECK-DAG: arith.constant 0.000000e+00 : bf16
// CHECK-NOT: tt.fp_to_fp
tt.func @fp_to_fp_zeros() -> (tensor<4xf8E4M3FN>, tensor<4xf8E4M3FNUZ>, bf16) {
  %nz = arith.constant dense<-0.0> : tensor<4xf32>
  %z = arith.constant 0.0 : f32
  %0 = tt.fp_to_fp %nz, rounding = rtne : tensor<4xf32> -> tensor<4xf8E4M3FN>
  %1 = tt.fp_to_fp %nz, rounding = rtne : tensor<4xf32> -> tensor<4xf8E4M3FNUZ>
  %2 = tt.fp_to_fp %z, rounding = rtne : f32 -> bf16
  tt.return %0, %1, %2 : tensor<4xf8E4M3FN>, tensor<4xf8E4M3FNUZ>, bf16
}

// -----

// A non-zero constant is not folded (rounding to the narrow type is the
// lowering's business).
// CHECK-LABEL: tt.func @fp_to_fp_one
// CHECK: tt.fp_to_fp
tt.func @fp_to_fp_one() -> f16 {
  %one = arith.constant 1.0 : f32
  %0 = tt.fp_to_fp %one, rounding = rtne : f32 -> f16
  tt.return %0 : f16
}

// -----

// A reshape to its own type goes, unless it may reorder (as in Triton).
// CHECK-LABEL: tt.func @same_type_reshape
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<32xf32>)
// CHECK-NEXT: %[[R:.*]] = tt.reshape %[[X]] allow_reorder : tensor<32xf32> -> tensor<32xf32>
// CHECK-NEXT: tt.return %[[X]], %[[R]]
tt.func @same_type_reshape(%x: tensor<32xf32>) -> (tensor<32xf32>, tensor<32xf32>) {
  %a = tt.reshape %x : tensor<32xf32> -> tensor<32xf32>
  %b = tt.reshape %x allow_reorder : tensor<32xf32> -> tensor<32xf32>
  tt.return %a, %b : tensor<32xf32>, tensor<32xf32>
}
