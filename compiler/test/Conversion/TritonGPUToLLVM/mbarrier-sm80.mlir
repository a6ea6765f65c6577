// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm=compute-capability=80 -reconcile-unrealized-casts -verify-diagnostics | FileCheck %s

// The mbarrier ops before sm_90. Waits poll with test_wait and sleep
// between polls (try_wait is sm_90); an arrival of 1 needs nothing new.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80"} {
  // CHECK-LABEL: llvm.func @wait_and_arrive
  // CHECK: "\0A{\0A\09.reg .pred complete;\0A\09waitLoop:\0A\09mbarrier.test_wait.parity.shared.b64 complete, [$0], $1;\0A\09@!complete nanosleep.u32 20;\0A\09@!complete bra.uni waitLoop;\0A}\0A", "r,r" %arg0, %arg1
  // CHECK: "@$0 mbarrier.arrive.shared::cta.b64 _, [$1];", "b,r"
  tt.func public @wait_and_arrive(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %phase: i32) {
    ttng.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// expect_tx, an arrival count and bulk-copy waits are sm_90 forms (ptxas
// 13.0 rejects them for sm_80): located errors.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80"} {
  tt.func public @expect(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %pred: i1) {
    // expected-error @+1 {{'ttng.barrier_expect' op needs sm_90 or newer (mbarrier.expect_tx); the target is sm_80}}
    ttng.barrier_expect %bar, 128, %pred : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80"} {
  tt.func public @arrive_two(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>) {
    // expected-error @+1 {{'ttng.arrive_barrier' op needs sm_90 or newer (mbarrier.arrive with a count); the target is sm_80}}
    ttng.arrive_barrier %bar, 2 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80"} {
  tt.func public @store_wait() {
    // expected-error @+1 {{'ttng.async_tma_store_wait' op needs sm_90 or newer (bulk async copies); the target is sm_80}}
    ttng.async_tma_store_wait {pendings = 0 : i32}
    tt.return
  }
}
