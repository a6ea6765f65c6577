// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --tritongpu-membar --convert-triton-gpu-to-llvm -reconcile-unrealized-casts | FileCheck %s

// A CUtensorMap passed by value (Triton's ABI for descriptor arguments): a
// 128-byte, 64-byte aligned parameter that stays in parameter space.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: llvm.func @descriptor_param
  // CHECK-SAME: (%arg0: !llvm.ptr {llvm.align = 64 : i32, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %arg1: !llvm.ptr<1>)
  tt.func public @descriptor_param(%desc: !tt.ptr<i8, 0> {tt.nv_tma_desc = 1 : i32}, %out: !tt.ptr<i32>) {
    tt.return
  }
}

// -----

// A TMA store's wait: until at most `pendings` bulk groups still read their
// shared memory; a CTA barrier follows (any thread may then rewrite it).
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: llvm.func @store_wait
  // CHECK: nvvm.cp.async.bulk.wait_group 1 {read}
  // CHECK-NEXT: nvvm.barrier0
  tt.func public @store_wait(%p: !tt.ptr<i32>) {
    %s = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory, mutable>
    ttng.async_tma_store_wait {pendings = 1 : i32}
    ttng.init_barrier %s, 1 : !ttg.memdesc<1xi64, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory, mutable>
    tt.return
  }
}
