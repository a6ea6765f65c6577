// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm -reconcile-unrealized-casts | FileCheck %s

// The mbarrier ops as Triton writes them. One thread (tid.x & (threads - 1)
// == 0) initialises, invalidates, expects and arrives; every thread waits.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: llvm.func @one_thread_ops
  // CHECK: %[[BAR:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK-NEXT: %[[MASK:.*]] = llvm.mlir.constant(255 : i32) : i32
  // CHECK-NEXT: %[[T:.*]] = llvm.and %[[TID]], %[[MASK]] : i32
  // CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %[[FIRST:.*]] = llvm.icmp "eq" %[[T]], %[[ZERO]] : i32
  // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "@$0 mbarrier.init.shared::cta.b64 [$1], 3;", "b,r" %[[FIRST]], %[[BAR]] : (i1, !llvm.ptr<3>) -> !llvm.void
  // CHECK: %[[FIRST2:.*]] = llvm.icmp "eq"
  // CHECK-NEXT: %[[P:.*]] = llvm.and %[[FIRST2]], %arg0 : i1
  // CHECK-NEXT: "@$0 mbarrier.arrive.expect_tx.shared.b64 _, [$1], 16384;", "b,r" %[[P]], %[[BAR]]
  // A count of 1 is PTX's default and is left out.
  // CHECK: "@$0 mbarrier.arrive.shared::cta.b64 _, [$1];", "b,r"
  // CHECK: %[[FIRST4:.*]] = llvm.icmp "eq"
  // CHECK-NEXT: "@$0 mbarrier.arrive.shared::cta.b64 _, [$1], 2;", "b,r" %[[FIRST4]], %[[BAR]]
  // CHECK: %[[FIRST5:.*]] = llvm.icmp "eq"
  // CHECK-NEXT: %[[P5:.*]] = llvm.and %[[FIRST5]], %arg0 : i1
  // CHECK-NEXT: "@$0 mbarrier.arrive.shared::cta.b64 _, [$1], 4;", "b,r" %[[P5]], %[[BAR]]
  // CHECK: "@$0 mbarrier.inval.shared::cta.b64 [$1];", "b,r"
  tt.func public @one_thread_ops(%pred: i1) {
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.init_barrier %bar, 3 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.barrier_expect %bar, 16384, %pred : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.arrive_barrier %bar, 2 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.arrive_barrier %bar, 4, %pred : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// Waits spin on try_wait (sm_90); a predicate known true is dropped, any
// other branches around the loop. Each loop is its own PTX scope, so the
// labels may repeat.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: llvm.func @waits
  // CHECK-NOT: nvvm.read.ptx.sreg.tid.x
  // CHECK: "\0A{\0A\09.reg .pred complete;\0A\09waitLoop:\0A\09mbarrier.try_wait.parity.shared.b64 complete, [$0], $1;\0A\09@!complete bra.uni waitLoop;\0A}\0A", "r,r" %arg0, %arg1 : (!llvm.ptr<3>, i32) -> !llvm.void
  // CHECK: "\0A{\0A\09.reg .pred complete;\0A\09waitLoop:\0A\09mbarrier.try_wait.parity.shared.b64 complete, [$0], $1;\0A\09@!complete bra.uni waitLoop;\0A}\0A", "r,r" %arg0, %arg1 : (!llvm.ptr<3>, i32) -> !llvm.void
  // CHECK: "\0A{\0A\09@!$2 bra.uni skipWait;\0A\09.reg .pred complete;\0A\09waitLoop:\0A\09mbarrier.try_wait.parity.shared.b64 complete, [$0], $1;\0A\09@!complete bra.uni waitLoop;\0A\09skipWait:\0A}\0A", "r,r,b" %arg0, %arg1, %arg2 : (!llvm.ptr<3>, i32, i1) -> !llvm.void
  // CHECK: nvvm.cp.async.mbarrier.arrive %arg0 {noinc = true} : !llvm.ptr<3>
  // CHECK: nvvm.cp.async.mbarrier.arrive %arg0 : !llvm.ptr<3>

  tt.func public @waits(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %phase: i32, %pred: i1) {
    ttng.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    %true = arith.constant true
    ttng.wait_barrier %bar, %phase, %true : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.wait_barrier %bar, %phase, %pred : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.async_copy_mbarrier_arrive %bar {noIncrement} : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttng.async_copy_mbarrier_arrive %bar : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    tt.return
  }
}
