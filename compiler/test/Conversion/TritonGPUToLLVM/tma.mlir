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

// -----

// TMA copies of a 128x128xf16 buffer with a 128-byte swizzle: boxes of
// 128 x 64 (one swizzle span inner), two of them, issued by warps 0 and 1
// (box = warp id) through one elected lane each. Box 1 starts 8192
// elements into the buffer and 64 columns to the right; the innermost
// coordinate comes first.
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: llvm.func @tma_two_boxes
  // CHECK-SAME: (%arg0: !llvm.ptr {llvm.align = 64 : i32, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %arg1: i32, %arg2: i32, %arg3: i1)
  // CHECK: %[[ELECT:.*]] = nvvm.elect.sync -> i1
  // CHECK: %[[PRED:.*]] = llvm.and %arg3, %[[ELECT]] : i1
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
  // CHECK: %[[WARP:.*]] = llvm.udiv
  // CHECK: %[[C64:.*]] = llvm.mlir.constant(64 : i32)
  // CHECK: %[[INGROUP:.*]] = llvm.icmp "ult" %[[TID]], %[[C64]]
  // CHECK: %[[MSG:.*]] = llvm.add %[[WARP]],
  // CHECK: llvm.and %[[MSG]]
  // CHECK: %[[SMEM:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
  // CHECK: %[[X:.*]] = llvm.add %arg2, %{{.*}} : i32
  // CHECK: %[[P:.*]] = llvm.and %[[PRED]], %[[INGROUP]]
  // CHECK: "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r" %[[P]], %[[SMEM]], %arg0, %[[X]], %arg1, %{{.*}} :
  // CHECK-NOT: cp.async.bulk.tensor
  // CHECK: "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$2, $3}], [$4];", "b,l,r,r,r"
  // CHECK-NOT: cp.async.bulk.tensor
  // CHECK: nvvm.cp.async.bulk.commit.group
  tt.func public @tma_two_boxes(%desc: !tt.tensordesc<tensor<128x128xf16, #nvmma>>, %i: i32, %j: i32, %pred: i1) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #nvmma, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%i, %j] %buf, %bar, %pred : !tt.tensordesc<tensor<128x128xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<128x128xf16, #nvmma, #smem, mutable>
    ttng.async_tma_copy_local_to_global %desc[%i, %j] %buf : !tt.tensordesc<tensor<128x128xf16, #nvmma>>, !ttg.memdesc<128x128xf16, #nvmma, #smem, mutable>
    tt.return
  }
}

// -----

// A descriptor read from global memory: its address, made generic.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: llvm.func @reinterpret
  // CHECK: llvm.addrspacecast %arg0 : !llvm.ptr<1> to !llvm.ptr
  tt.func public @reinterpret(%raw: !tt.ptr<i8>) {
    %d = ttng.reinterpret_tensor_descriptor %raw : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>>>
    tt.return
  }
}
