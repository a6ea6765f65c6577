// triton-loop-unroll: scf.for loops marked tt.loop_unroll_factor = N > 1
// run N iterations per trip; leftovers run in an epilogue loop that the
// pipeliner must leave alone.
// RUN: tgpu-opt %s -split-input-file -triton-loop-unroll -verify-diagnostics | FileCheck %s

// Unknown trip count: the main loop steps by 2 * 3 and loads at i and
// i + 3; the epilogue continues from where it stopped with the sum so far.
// CHECK-LABEL: tt.func @dynamic_bounds
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f32>, %[[LB:.*]]: i32, %[[UB:.*]]: i32)
// CHECK-NOT: tt.loop_unroll_factor
// CHECK: %[[C3:.*]] = arith.constant 3 : i32
// CHECK: %[[STEP:.*]] = arith.muli %[[C3]], %{{.*}} : i32
// CHECK: %[[MAIN:.*]] = scf.for %[[I:.*]] = %[[LB]] to %[[END:.*]] step %[[STEP]] iter_args
// CHECK: tt.addptr %[[P]], %[[I]]
// CHECK: tt.load
// CHECK: %[[NEXT:.*]] = arith.addi %[[I]], %{{.*}} : i32
// CHECK: tt.addptr %[[P]], %[[NEXT]]
// CHECK: tt.load
// CHECK-NOT: tt.load
// CHECK: scf.yield
// CHECK: %[[REST:.*]] = scf.for %[[J:.*]] = %[[END]] to %[[UB]] step %[[C3]] iter_args(%{{.*}} = %[[MAIN]])
// CHECK: tt.load
// CHECK-NOT: tt.load
// CHECK: } {tt.num_stages = 1 : i32}
// CHECK-NEXT: tt.return %[[REST]]
tt.func @dynamic_bounds(%p: !tt.ptr<f32>, %lb: i32, %ub: i32) -> f32 {
  %c3 = arith.constant 3 : i32
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %lb to %ub step %c3 iter_args(%s = %zero) -> (f32) : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    %x = tt.load %q : !tt.ptr<f32>
    %s2 = arith.addf %s, %x : f32
    scf.yield %s2 : f32
  } {tt.loop_unroll_factor = 2 : i32}
  tt.return %r : f32
}

// -----

// 8 iterations by 4: one loop of step 4 with four stores, no epilogue.
// CHECK-LABEL: tt.func @divisible_trip_count
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C4:c4_i32]]
// CHECK-COUNT-4: tt.store
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
// CHECK-NOT: tt.num_stages
tt.func @divisible_trip_count(%p: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c8 step %c1 : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    tt.store %q, %zero : !tt.ptr<f32>
  } {tt.loop_unroll_factor = 4 : i32}
  tt.return
}

// -----

// A factor of 1 leaves the loop (and its mark) alone; so does a loop
// without the mark.
// CHECK-LABEL: tt.func @not_unrolled
// CHECK: scf.for
// CHECK-COUNT-1: tt.store
// CHECK-NEXT: } {tt.loop_unroll_factor = 1 : i32}
// CHECK-NEXT: scf.for
// CHECK-COUNT-1: tt.store
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
tt.func @not_unrolled(%p: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %n step %c1 : i32 {
    tt.store %p, %zero : !tt.ptr<f32>
  } {tt.loop_unroll_factor = 1 : i32}
  scf.for %i = %c0 to %n step %c1 : i32 {
    tt.store %p, %zero : !tt.ptr<f32>
  }
  tt.return
}

// -----

// A factor that is not an integer is reported, and nothing changes.
// CHECK-LABEL: tt.func @bad_factor
// CHECK: {tt.loop_unroll_factor = "two"}
tt.func @bad_factor(%p: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  // expected-warning @below {{tt.loop_unroll_factor must be an integer, got "two"; the loop is not unrolled}}
  scf.for %i = %c0 to %n step %c1 : i32 {
    tt.store %p, %zero : !tt.ptr<f32>
  } {tt.loop_unroll_factor = "two"}
  tt.return
}
