// triton-loop-aware-cse: scf.for iteration arguments that hold the same
// value in every iteration are merged.
// RUN: tgpu-opt %s -split-input-file -triton-loop-aware-cse | FileCheck %s

// Two counters from one start, advanced alike: one is enough.
// CHECK-LABEL: tt.func @counters
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (i32)
// CHECK-NEXT: %[[N:.*]] = arith.addi %[[A]], %{{.*}} : i32
// CHECK-NEXT: scf.yield %[[N]] : i32
// CHECK: tt.return %[[R]], %[[R]]
tt.func @counters(%n: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0, %b = %c0) -> (i32, i32) : i32 {
    %a2 = arith.addi %a, %c1 : i32
    %b2 = arith.addi %b, %c1 : i32
    scf.yield %a2, %b2 : i32, i32
  }
  tt.return %r#0, %r#1 : i32, i32
}

// -----

// Each argument is computed from the other: equal by induction.
// CHECK-LABEL: tt.func @swapped
// CHECK: scf.for {{.*}} -> (f32)
// CHECK-COUNT-1: arith.addf
// CHECK-NOT: arith.addf
tt.func @swapped(%n: i32, %x: f32, %y: f32) -> (f32, f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %x) -> (f32, f32) : i32 {
    %b2 = arith.addf %b, %y : f32
    %a2 = arith.addf %a, %y : f32
    scf.yield %b2, %a2 : f32, f32
  }
  tt.return %r#0, %r#1 : f32, f32
}

// -----

// Kept apart: different starts, different steps, and values that differ
// only in a constant deeper in the cycle.
// CHECK-LABEL: tt.func @different
// CHECK: scf.for {{.*}} -> (i32, i32, i32, i32, i32)
tt.func @different(%n: i32, %c: i1) -> (i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %r:5 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0, %b = %c1, %d = %c0, %f = %c0, %g = %c0) -> (i32, i32, i32, i32, i32) : i32 {
    %a2 = arith.addi %a, %c1 : i32
    %b2 = arith.addi %b, %c1 : i32
    %d2 = arith.addi %d, %c2 : i32
    %f1 = arith.addi %f, %c1 : i32
    %f2 = arith.select %c, %c0, %f1 : i32
    %g1 = arith.addi %g, %c1 : i32
    %g2 = arith.select %c, %c1, %g1 : i32
    scf.yield %a2, %b2, %d2, %f2, %g2 : i32, i32, i32, i32, i32
  }
  tt.return %r#0, %r#1, %r#2, %r#3, %r#4 : i32, i32, i32, i32, i32
}

// -----

// Not when the next value comes from an op with memory effects, nor when
// it uses the induction variable on one side only.
// CHECK-LABEL: tt.func @effects_and_iv
// CHECK: scf.for {{.*}} -> (i32, i32, i32, i32)
tt.func @effects_and_iv(%n: i32, %p: !tt.ptr<i32>) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0, %b = %c0, %d = %c0, %e = %c0) -> (i32, i32, i32, i32) : i32 {
    %a2 = tt.atomic_rmw add, relaxed, gpu, %p, %a : (!tt.ptr<i32>, i32) -> i32
    %b2 = tt.atomic_rmw add, relaxed, gpu, %p, %b : (!tt.ptr<i32>, i32) -> i32
    %d2 = arith.addi %d, %i : i32
    %e2 = arith.addi %e, %c1 : i32
    scf.yield %a2, %b2, %d2, %e2 : i32, i32, i32, i32
  }
  tt.return %r#0, %r#1, %r#2, %r#3 : i32, i32, i32, i32
}
