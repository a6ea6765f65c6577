// triton-licm: loop-invariant code motion, loads included where the loop
// only reads memory; a hoisted load is masked by the trip-count check.
// RUN: tgpu-opt %s -split-input-file -triton-licm | FileCheck %s

// CHECK-LABEL: tt.func @hoist
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f32>, %[[PS:.*]]: tensor<8x!tt.ptr<f32>>, %[[M:.*]]: tensor<8xi1>, %[[LB:.*]]: i32, %[[UB:.*]]: i32, %[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK: %[[PROD:.*]] = arith.muli %[[A]], %[[B]] : i32
// CHECK-NEXT: %[[Q:.*]] = tt.addptr %[[P]], %[[PROD]] : !tt.ptr<f32>, i32
// CHECK-NEXT: %[[C0:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
// CHECK-NEXT: %[[X:.*]] = tt.load %[[Q]], %[[C0]] : !tt.ptr<f32>
// CHECK-NEXT: %[[C1:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
// CHECK-NEXT: %[[S1:.*]] = tt.splat %[[C1]] : i1 -> tensor<8xi1>
// CHECK-NEXT: %[[MM:.*]] = arith.andi %[[S1]], %[[M]] : tensor<8xi1>
// CHECK-NEXT: %[[Y:.*]] = tt.load %[[PS]], %[[MM]] : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: scf.for
// CHECK-NEXT: arith.addf %{{.*}}, %[[X]] : f32
// CHECK-NEXT: arith.addf %{{.*}}, %[[Y]] : tensor<8xf32>
// CHECK-NEXT: scf.yield
tt.func @hoist(%p: !tt.ptr<f32>, %ps: tensor<8x!tt.ptr<f32>>, %m: tensor<8xi1>, %lb: i32, %ub: i32, %a: i32, %b: i32) -> (f32, tensor<8xf32>) {
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %zt = arith.constant dense<0.0> : tensor<8xf32>
  %r:2 = scf.for %i = %lb to %ub step %c1 iter_args(%s = %zero, %t = %zt) -> (f32, tensor<8xf32>) : i32 {
    %prod = arith.muli %a, %b : i32
    %q = tt.addptr %p, %prod : !tt.ptr<f32>, i32
    %x = tt.load %q : !tt.ptr<f32>
    %y = tt.load %ps, %m : tensor<8x!tt.ptr<f32>>
    %s2 = arith.addf %s, %x : f32
    %t2 = arith.addf %t, %y : tensor<8xf32>
    scf.yield %s2, %t2 : f32, tensor<8xf32>
  }
  tt.return %r#0, %r#1 : f32, tensor<8xf32>
}

// -----

// A loop that writes memory keeps its loads; pure invariant ops still leave.
// CHECK-LABEL: tt.func @loop_writes
// CHECK-NOT: arith.cmpi
// CHECK: tt.splat
// CHECK-NEXT: scf.for
// CHECK-NEXT: tt.load
// CHECK-NEXT: arith.addf
// CHECK-NEXT: tt.store
tt.func @loop_writes(%p: tensor<8x!tt.ptr<f32>>, %q: tensor<8x!tt.ptr<f32>>, %lb: i32, %ub: i32, %a: f32) {
  %c1 = arith.constant 1 : i32
  scf.for %i = %lb to %ub step %c1 : i32 {
    %x = tt.load %p : tensor<8x!tt.ptr<f32>>
    %as = tt.splat %a : f32 -> tensor<8xf32>
    %y = arith.addf %x, %as : tensor<8xf32>
    tt.store %q, %y : tensor<8x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// In a read-only loop, loads stay when volatile, through a block pointer
// (no mask to guard it with), or when their pointer changes per iteration.
// CHECK-LABEL: tt.func @loads_kept
// CHECK-NOT: arith.cmpi
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{.*}} {isVolatile = true}
// CHECK-NEXT: tt.load %{{.*}} : !tt.ptr<tensor<8x8xf32>>
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.load
tt.func @loads_kept(%p: !tt.ptr<f32>, %bp: !tt.ptr<tensor<8x8xf32>>, %lb: i32, %ub: i32) -> (f32, tensor<8x8xf32>, f32) {
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %zt = arith.constant dense<0.0> : tensor<8x8xf32>
  %r:3 = scf.for %i = %lb to %ub step %c1 iter_args(%s = %zero, %t = %zt, %u = %zero) -> (f32, tensor<8x8xf32>, f32) : i32 {
    %x = tt.load %p {isVolatile = true} : !tt.ptr<f32>
    %y = tt.load %bp : !tt.ptr<tensor<8x8xf32>>
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    %z = tt.load %q : !tt.ptr<f32>
    scf.yield %x, %y, %z : f32, tensor<8x8xf32>, f32
  }
  tt.return %r#0, %r#1, %r#2 : f32, tensor<8x8xf32>, f32
}

// -----

// An unsigned loop runs when lowerBound < upperBound unsigned.
// CHECK-LABEL: tt.func @unsigned_loop
// CHECK: %[[C:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: tt.load %{{.*}}, %[[C]] : !tt.ptr<i32>
// CHECK-NEXT: scf.for unsigned
tt.func @unsigned_loop(%p: !tt.ptr<i32>, %lb: i32, %ub: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %r = scf.for unsigned %i = %lb to %ub step %c1 iter_args(%s = %c1) -> (i32) : i32 {
    %x = tt.load %p : !tt.ptr<i32>
    %s2 = arith.addi %s, %x : i32
    scf.yield %s2 : i32
  }
  tt.return %r : i32
}

// -----

// scf.while has no trip-count check to guard a load with: only pure ops
// leave it.
// CHECK-LABEL: tt.func @while_loop
// CHECK: arith.mulf
// CHECK-NEXT: scf.while
// CHECK: do
// CHECK: tt.load
tt.func @while_loop(%p: !tt.ptr<f32>, %a: f32, %lim: f32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %r = scf.while (%s = %zero) : (f32) -> f32 {
    %c = arith.cmpf olt, %s, %lim : f32
    scf.condition(%c) %s : f32
  } do {
  ^bb0(%s: f32):
    %x = tt.load %p : !tt.ptr<f32>
    %k = arith.mulf %a, %a : f32
    %t = arith.addf %s, %x : f32
    %t2 = arith.addf %t, %k : f32
    scf.yield %t2 : f32
  }
  tt.return %r : f32
}

// -----

// A load leaves the inner loop, then the outer one, each time guarded by
// that loop's check.
// CHECK-LABEL: tt.func @nested
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f32>, %[[N:.*]]: i32, %[[K:.*]]: i32)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK: %[[INNER:.*]] = arith.cmpi slt, %[[C0]], %[[K]] : i32
// CHECK-NEXT: %[[OUTER:.*]] = arith.cmpi slt, %[[C0]], %[[N]] : i32
// CHECK-NEXT: %[[BOTH:.*]] = arith.andi %[[OUTER]], %[[INNER]] : i1
// CHECK-NEXT: tt.load %[[P]], %[[BOTH]] : !tt.ptr<f32>
// CHECK-NEXT: scf.for
// CHECK-NEXT: scf.for
// CHECK-NOT: tt.load
tt.func @nested(%p: !tt.ptr<f32>, %n: i32, %k: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (f32) : i32 {
    %r2 = scf.for %j = %c0 to %k step %c1 iter_args(%t = %s) -> (f32) : i32 {
      %x = tt.load %p : !tt.ptr<f32>
      %t2 = arith.addf %t, %x : f32
      scf.yield %t2 : f32
    }
    scf.yield %r2 : f32
  }
  tt.return %r : f32
}
