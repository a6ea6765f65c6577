// RUN: tgpu-opt %s -split-input-file --tritongpu-membar -verify-diagnostics | FileCheck %s

// Offsets are given (as allocate-shared-memory would write them), so each
// case states by hand which byte ranges meet. 16x16xf32 buffers are 1024
// bytes: A at [0, 1024), B at [1024, 2048).
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: @raw
  // CHECK: ttg.local_alloc
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: ttg.local_load
  tt.func public @raw(%t: tensor<16x16xf32, #b>) {
    %a = ttg.local_alloc %t {allocation.offset = 0 : i32} : (tensor<16x16xf32, #b>) -> !ttg.memdesc<16x16xf32, #shared, #smem>
    %0 = ttg.local_load %a : !ttg.memdesc<16x16xf32, #shared, #smem> -> tensor<16x16xf32, #b>
    %1 = ttg.local_load %a : !ttg.memdesc<16x16xf32, #shared, #smem> -> tensor<16x16xf32, #b>
    tt.return
  }

  // Disjoint buffers never race; an alloc without a value writes nothing.
  // CHECK-LABEL: @disjoint
  // CHECK-NOT: ttg.barrier
  // CHECK: tt.return
  tt.func public @disjoint(%t: tensor<16x16xf32, #b>) {
    %a = ttg.local_alloc %t {allocation.offset = 0 : i32} : (tensor<16x16xf32, #b>) -> !ttg.memdesc<16x16xf32, #shared, #smem>
    %b = ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>
    ttg.local_store %t, %b : tensor<16x16xf32, #b> -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>
    tt.return
  }

  // A barrier already there is enough.
  // CHECK-LABEL: @existing
  // CHECK: ttg.barrier local
  // CHECK-NOT: ttg.barrier
  // CHECK: tt.return
  tt.func public @existing(%t: tensor<16x16xf32, #b>) {
    %a = ttg.local_alloc %t {allocation.offset = 0 : i32} : (tensor<16x16xf32, #b>) -> !ttg.memdesc<16x16xf32, #shared, #smem>
    ttg.barrier local
    %0 = ttg.local_load %a : !ttg.memdesc<16x16xf32, #shared, #smem> -> tensor<16x16xf32, #b>
    tt.return
  }

  // Write in one branch, read after the if: the join keeps the write.
  // CHECK-LABEL: @if_join
  // CHECK: scf.if
  // CHECK-NEXT: ttg.local_store
  // CHECK: }
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: ttg.local_load
  tt.func public @if_join(%t: tensor<16x16xf32, #b>, %c: i1) {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>
    scf.if %c {
      ttg.local_store %t, %a : tensor<16x16xf32, #b> -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>
    }
    %0 = ttg.local_load %a : !ttg.memdesc<16x16xf32, #shared, #smem, mutable> -> tensor<16x16xf32, #b>
    tt.return
  }

  // In a loop, read-then-write needs a barrier before the write (WAR) and,
  // through the back edge, one before the read (RAW from the last
  // iteration's write).
  // CHECK-LABEL: @loop
  // CHECK: scf.for
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: ttg.local_store
  tt.func public @loop(%t: tensor<16x16xf32, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %0 = ttg.local_load %a : !ttg.memdesc<16x16xf32, #shared, #smem, mutable> -> tensor<16x16xf32, #b>
      ttg.local_store %0, %a : tensor<16x16xf32, #b> -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>
    }
    tt.return
  }

  // The write before the loop races with the first read, so the read gets
  // a barrier (the analysis places it before the op, in the loop); the
  // reads of later iterations need nothing more.
  // CHECK-LABEL: @loop_reads
  // CHECK: scf.for
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: ttg.local_load
  // CHECK-NOT: ttg.barrier
  // CHECK: tt.return
  tt.func public @loop_reads(%t: tensor<16x16xf32, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = ttg.local_alloc %t {allocation.offset = 0 : i32} : (tensor<16x16xf32, #b>) -> !ttg.memdesc<16x16xf32, #shared, #smem>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %0 = ttg.local_load %a : !ttg.memdesc<16x16xf32, #shared, #smem> -> tensor<16x16xf32, #b>
    }
    tt.return
  }
}

// -----

// A scratch op is read and written: after a read of overlapping bytes it
// needs a barrier (WAR); two converts sharing offset 0 need one between
// them; a convert in registers (no scratch) needs none.
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: @scratch
  // CHECK: ttg.local_alloc
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: ttg.convert_layout
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: ttg.convert_layout
  // CHECK-NEXT: ttg.convert_layout
  // CHECK-NEXT: tt.return
  tt.func public @scratch(%t: tensor<128xf32, #b1>) {
    %a = ttg.local_alloc %t {allocation.offset = 0 : i32} : (tensor<128xf32, #b1>) -> !ttg.memdesc<128xf32, #shared1, #smem>
    %0 = ttg.local_load %a : !ttg.memdesc<128xf32, #shared1, #smem> -> tensor<128xf32, #b1>
    %1 = ttg.convert_layout %0 {allocation.offset = 0 : i32} : tensor<128xf32, #b1> -> tensor<128xf32, #b4>
    %2 = ttg.convert_layout %1 {allocation.offset = 0 : i32} : tensor<128xf32, #b4> -> tensor<128xf32, #b1>
    %3 = ttg.convert_layout %2 : tensor<128xf32, #b1> -> tensor<128xf32, #b1>
    tt.return
  }
}

// -----

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func public @unallocated(%t: tensor<128xf32, #b1>) {
    // expected-error @+1 {{needs 512 bytes of shared memory but has no valid 'allocation.offset' (run allocate-shared-memory first)}}
    %0 = ttg.convert_layout %t : tensor<128xf32, #b1> -> tensor<128xf32, #b4>
    tt.return
  }
}

// -----

// Async copies into a two-slot ring (Triton's pipelined loop): a barrier
// follows every async_wait, since cp.async.wait_group completes only the
// calling thread's copies; a copy into the ring after a read of it waits
// for the readers (other threads may still read the slot it refills). The
// copy before the loop touches nothing read before: no barrier there.
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: @ring
  // CHECK: ttg.memdesc_index
  // CHECK-NEXT: ttg.async_copy_global_to_local
  // CHECK-NEXT: ttg.async_commit_group
  // CHECK-NEXT: scf.for
  // CHECK-NEXT: ttg.async_wait
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: arith.remsi
  // CHECK-NEXT: ttg.memdesc_index
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: ttg.memdesc_index
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: ttg.async_copy_global_to_local
  // CHECK-NEXT: ttg.async_commit_group
  // CHECK-NEXT: scf.yield
  // CHECK: ttg.async_wait
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: tt.return
  tt.func public @ring(%p: tensor<16x16x!tt.ptr<f32>, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ring = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<2x16x16xf32, #shared, #smem, mutable>
    %s0 = ttg.memdesc_index %ring[%c0] : !ttg.memdesc<2x16x16xf32, #shared, #smem, mutable> -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>
    %t0 = ttg.async_copy_global_to_local %p, %s0 : tensor<16x16x!tt.ptr<f32>, #b> -> <16x16xf32, #shared, #smem, mutable>
    %g0 = ttg.async_commit_group tokens %t0
    %last = scf.for %i = %c0 to %n step %c1 iter_args(%g = %g0) -> (!ttg.async.token) : i32 {
      %w = ttg.async_wait %g {num = 0 : i32}
      %slot = arith.remsi %i, %c1 : i32
      %cur = ttg.memdesc_index %ring[%slot] : !ttg.memdesc<2x16x16xf32, #shared, #smem, mutable> -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>
      %v = ttg.local_load %cur token %w : !ttg.memdesc<16x16xf32, #shared, #smem, mutable> -> tensor<16x16xf32, #b>
      %nxt = ttg.memdesc_index %ring[%slot] : !ttg.memdesc<2x16x16xf32, #shared, #smem, mutable> -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>
      %t = ttg.async_copy_global_to_local %p, %nxt : tensor<16x16x!tt.ptr<f32>, #b> -> <16x16xf32, #shared, #smem, mutable>
      %g1 = ttg.async_commit_group tokens %t
      scf.yield %g1 : !ttg.async.token
    }
    %done = ttg.async_wait {num = 0 : i32}
    tt.return
  }

  // A barrier already after the wait is enough.
  // CHECK-LABEL: @wait_then_barrier
  // CHECK: ttg.async_wait
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: ttg.local_load
  tt.func public @wait_then_barrier(%p: tensor<16x16x!tt.ptr<f32>, #b>) {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %a : tensor<16x16x!tt.ptr<f32>, #b> -> <16x16xf32, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %w = ttg.async_wait %g {num = 0 : i32}
    ttg.barrier local
    %v = ttg.local_load %a : !ttg.memdesc<16x16xf32, #shared, #smem, mutable> -> tensor<16x16xf32, #b>
    tt.return
  }
}

// -----

// wgmma reads its buffers (from issue until its wait): a barrier between the
// stores that fill a buffer (after their proxy fence) and the wgmma reading
// it, and between that wgmma and the next writes into it (the loop's next
// iteration).
// CHECK-LABEL: tt.func @wgmma_reads
// CHECK: scf.for
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: ttng.fence_async_shared
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttng.warp_group_dot
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 32, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_reads(%x: tensor<64x64xf16, #blocked>, %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %s = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> tensor<64x64xf32, #mma> : i32 {
      ttg.local_store %x, %s : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
      ttng.fence_async_shared {bCluster = false}
      %d = ttng.warp_group_dot %s, %s, %acc : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// mbarrier ops (Triton's rules): a barrier after the initialisation (done by
// one thread) before anyone uses the barrier, none between initialisations
// of a barrier array, none among expects and waits (the barrier orders
// them), two waits in a row on one barrier get one; an arrival needs every
// earlier access done.
// Barriers are 8 bytes: B0 at [0, 8), B1 at [8, 16); A at [16, 1040).
// CHECK-LABEL: tt.func @mbarriers
// CHECK: ttng.init_barrier %[[B0:.*]], 1
// CHECK-NEXT: ttng.init_barrier %[[B1:.*]], 1
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttng.barrier_expect %[[B0]]
// CHECK-NEXT: ttng.wait_barrier %[[B0]]
// CHECK-NEXT: ttng.wait_barrier %[[B1]]
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttng.wait_barrier %[[B0]]
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttng.arrive_barrier %[[B1]]
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttng.inval_barrier %[[B0]]
// CHECK-NEXT: ttng.inval_barrier %[[B1]]
// CHECK-NEXT: tt.return
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @mbarriers(%t: tensor<16x16xf32, #b>, %phase: i32, %pred: i1) {
    %b0 = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %b1 = ttg.local_alloc {allocation.offset = 8 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %a = ttg.local_alloc {allocation.offset = 16 : i32} : () -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>
    ttng.init_barrier %b0, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %b1, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.barrier_expect %b0, 1024, %pred : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.wait_barrier %b0, %phase : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.wait_barrier %b1, %phase : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.wait_barrier %b0, %phase : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %0 = ttg.local_load %a : !ttg.memdesc<16x16xf32, #shared, #smem, mutable> -> tensor<16x16xf32, #b>
    ttg.local_store %t, %a : tensor<16x16xf32, #b> -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>
    ttng.arrive_barrier %b1, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.inval_barrier %b0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.inval_barrier %b1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}
