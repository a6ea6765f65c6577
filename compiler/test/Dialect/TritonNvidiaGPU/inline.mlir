// RUN: tgpu-opt %s -inline | FileCheck %s

// A callee holding ttg and ttng ops (an mbarrier's allocation, init, expect
// and wait) inlines into its caller, the ops in their order; the callee,
// private and now unused, goes.
// CHECK-LABEL: tt.func public @caller
// CHECK-NEXT: %[[B:.*]] = ttg.local_alloc
// CHECK-NEXT: ttng.init_barrier %[[B]], 1
// CHECK-NEXT: ttng.barrier_expect %[[B]], 128, %{{.*}}
// CHECK-NEXT: ttng.wait_barrier %[[B]], %{{.*}}
// CHECK-NEXT: tt.return
// CHECK-NOT: @callee
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @caller(%pred: i1, %phase: i32) {
    tt.call @callee(%pred, %phase) : (i1, i32) -> ()
    tt.return
  }
  tt.func private @callee(%pred: i1, %phase: i32) {
    %b = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.init_barrier %b, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.barrier_expect %b, 128, %pred : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.wait_barrier %b, %phase : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    tt.return
  }
}
