// RUN: tgpu-opt %s -split-input-file --tritongpu-assign-latencies=num-stages=3 | FileCheck %s --check-prefix=LAT
// RUN: tgpu-opt %s -split-input-file --tritongpu-assign-latencies=num-stages=1 | FileCheck %s --check-prefix=LAT1
// RUN: tgpu-opt %s -split-input-file --tritongpu-assign-latencies=num-stages=3 --tritongpu-schedule-loops | FileCheck %s --check-prefix=SCHED
// RUN: tgpu-opt %s -split-input-file --tritongpu-assign-latencies=num-stages=3 --tritongpu-schedule-loops --tritongpu-pipeline --canonicalize | FileCheck %s --check-prefix=PIPE
// RUN: tgpu-opt %s -split-input-file --tritongpu-assign-latencies=num-stages=3 --tritongpu-schedule-loops --tritongpu-pipeline=num-stages=1 | FileCheck %s --check-prefix=PIPE1

// A 64x64 += 64x32 * 32x64 loop over K tiles stored one after the other
// (A tile k at a + 2048 k, B tile k at b + 2048 k), f16 from 16-byte
// aligned bases: eight halves per thread are one 16-byte cp.async.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step_a = arith.constant dense<2048> : tensor<64x32xi32, #blocked>
    %step_b = arith.constant dense<2048> : tensor<32x64xi32, #blocked1>
    %c32a = arith.constant dense<32> : tensor<64x1xi32, #blocked>
    %c64b = arith.constant dense<64> : tensor<32x1xi32, #blocked1>
    // A: row r, column c at 32 r + c.
    %ar = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %ac = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ar2 = tt.expand_dims %ar {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %ac2 = tt.expand_dims %ac {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %arow = arith.muli %ar2, %c32a : tensor<64x1xi32, #blocked>
    %arowb = tt.broadcast %arow : tensor<64x1xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %acolb = tt.broadcast %ac2 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %aoff = arith.addi %arowb, %acolb : tensor<64x32xi32, #blocked>
    %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %ap0 = tt.addptr %as, %aoff : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    // B: row r, column c at 64 r + c.
    %br = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %bc = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %br2 = tt.expand_dims %br {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<32x1xi32, #blocked1>
    %bc2 = tt.expand_dims %bc {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %brow = arith.muli %br2, %c64b : tensor<32x1xi32, #blocked1>
    %browb = tt.broadcast %brow : tensor<32x1xi32, #blocked1> -> tensor<32x64xi32, #blocked1>
    %bcolb = tt.broadcast %bc2 : tensor<1x64xi32, #blocked1> -> tensor<32x64xi32, #blocked1>
    %boff = arith.addi %browb, %bcolb : tensor<32x64xi32, #blocked1>
    %bs = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked1>
    %bp0 = tt.addptr %bs, %boff : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %ap = %ap0, %bp = %bp0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>) : i32 {
      %x = tt.load %ap : tensor<64x32x!tt.ptr<f16>, #blocked>
      %y = tt.load %bp : tensor<32x64x!tt.ptr<f16>, #blocked1>
      %xd = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x64xf16, #blocked1> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %apn = tt.addptr %ap, %step_a : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %bpn = tt.addptr %bp, %step_b : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
      scf.yield %d, %apn, %bpn : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}
// Both loads feed the dot through dot operand conversions and move 16
// bytes per thread: issued num-stages - 1 = 2 iterations ahead.
// LAT-LABEL: tt.func public @matmul
// LAT: tt.load %{{.*}} {tt.latency = 2 : i32} : tensor<64x32x!tt.ptr<f16>
// LAT: tt.load %{{.*}} {tt.latency = 2 : i32} : tensor<32x64x!tt.ptr<f16>
// LAT1-LABEL: tt.func public @matmul
// LAT1-NOT: tt.latency
//
// The loads and the pointer increments they need (through the loop-carried
// pointers) are stage 0, cluster 1; the conversions and the dot stage 2,
// cluster 0.
// SCHED-LABEL: tt.func public @matmul
// SCHED: tt.load {{.*}}loop.cluster = 1 : i32, loop.stage = 0 : i32, tt.latency = 2 : i32
// SCHED: tt.load {{.*}}loop.cluster = 1 : i32, loop.stage = 0 : i32, tt.latency = 2 : i32
// SCHED: ttg.convert_layout {{.*}}loop.cluster = 0 : i32, loop.stage = 2 : i32
// SCHED: ttg.convert_layout {{.*}}loop.cluster = 0 : i32, loop.stage = 2 : i32
// SCHED: tt.dot {{.*}}loop.cluster = 0 : i32, loop.stage = 2 : i32
// SCHED: tt.addptr {{.*}}loop.cluster = 1 : i32, loop.stage = 0 : i32
// SCHED: tt.addptr {{.*}}loop.cluster = 1 : i32, loop.stage = 0 : i32
// SCHED: tt.scheduled_max_stage = 2 : i32
//
// Two rings of 2 slots in Triton's mma v2 operand layouts (A 64x32 K-major:
// 8 halves a vector, 2 rows of 64 bytes per 128-byte phase, 4 phases; B
// 32x64 N-major: 8 halves, one row of 128 bytes per phase, 8 phases). The
// prologue copies iterations 0 and 1 into slots 0 and 1, each masked by
// whether the iteration exists, one commit group per copy, then waits for
// iteration 0's (2 groups, iteration 1's, may stay in flight) and takes its
// slot views. Iteration k reads the views it was handed, computes, refills
// slot k % 2 for iteration k + 2 (masked off for k + 2 >= n), then waits
// for iteration k + 1's copies and hands its slot views, (k + 1) % 2, to the
// next iteration: the views and the wait's token are loop-carried, Triton's
// form. So are the slot numbers, as counters stepped with a compare and a
// select: the refills' (stage 0, for iteration k + 2: 0 after the
// prologue's two) and the reads' (stage 1, for iteration k + 1: 1). After
// the loop: drain and free.
// PIPE-DAG: #[[SA:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// PIPE-DAG: #[[SB:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// PIPE-LABEL: tt.func public @matmul
// PIPE: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #[[SA]], #smem, mutable>
// PIPE: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x64xf16, #[[SB]], #smem, mutable>
// PIPE: %[[P0:.*]] = arith.cmpi sgt, %{{.*}}, %c0_i32
// PIPE: ttg.memdesc_index %[[RA]][%c0_i32]
// PIPE: %[[M0:.*]] = tt.splat %[[P0]] : i1 -> tensor<64x32xi1, #blocked>
// PIPE: %[[A0:.*]] = ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %[[M0]]
// PIPE: %[[GA0:.*]] = ttg.async_commit_group tokens %[[A0]]
// PIPE: ttg.memdesc_index %[[RB]][%c0_i32]
// PIPE: %[[GB0:.*]] = ttg.async_commit_group tokens
// PIPE: %[[P1:.*]] = arith.cmpi sgt, %{{.*}}, %c1_i32
// PIPE: ttg.memdesc_index %[[RA]][%c1_i32]
// PIPE: %[[GA1:.*]] = ttg.async_commit_group tokens
// PIPE: ttg.memdesc_index %[[RB]][%c1_i32]
// PIPE: %[[GB1:.*]] = ttg.async_commit_group tokens
// PIPE: %[[W0:.*]] = ttg.async_wait %[[GA0]], %[[GB0]] {num = 2 : i32}
// PIPE-NEXT: %[[VA0:.*]] = ttg.memdesc_index %[[RA]][%c0_i32]
// PIPE-NEXT: %[[VB0:.*]] = ttg.memdesc_index %[[RB]][%c0_i32]
// PIPE-NEXT: scf.for %[[K:[a-z0-9]*]] = %c0_i32 to %{{[a-z0-9]*}} step %c1_i32 iter_args(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %[[FILL:[a-z0-9]*]] = %c0_i32, %[[READ:[a-z0-9]*]] = %c1_i32, %[[VA:[a-z0-9]*]] = %[[VA0]], %[[W:[a-z0-9]*]] = %[[W0]], %[[VB:[a-z0-9]*]] = %[[VB0]], %[[TA:[a-z0-9]*]] = %[[GA1]], %[[TB:[a-z0-9]*]] = %[[GB1]])
// PIPE: %[[LIVE:.*]] = arith.cmpi slt, %[[K]], %{{.*}}
// PIPE: ttg.local_load %[[VA]] token %[[W]] : {{.*}} -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// PIPE: ttg.local_load %[[VB]] token %[[W]] : {{.*}} -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// PIPE: tt.dot
// PIPE: ttg.memdesc_index %[[RA]][%[[FILL]]]
// PIPE: tt.splat %[[LIVE]] : i1 -> tensor<64x32xi1, #blocked>
// PIPE: ttg.async_copy_global_to_local
// PIPE: %[[GA2:.*]] = ttg.async_commit_group
// PIPE: ttg.async_copy_global_to_local
// PIPE: %[[GB2:.*]] = ttg.async_commit_group
// PIPE: %[[FILL1:.*]] = arith.addi %[[FILL]], %c1_i32
// PIPE: %[[FILLW:.*]] = arith.cmpi eq, %[[FILL1]], %c2_i32
// PIPE: %[[FILLN:.*]] = arith.select %[[FILLW]], %c0_i32, %[[FILL1]]
// PIPE: %[[READ1:.*]] = arith.addi %[[READ]], %c1_i32
// PIPE: %[[READW:.*]] = arith.cmpi eq, %[[READ1]], %c2_i32
// PIPE: %[[READN:.*]] = arith.select %[[READW]], %c0_i32, %[[READ1]]
// PIPE: %[[WN:.*]] = ttg.async_wait %[[TA]], %[[TB]] {num = 2 : i32}
// PIPE: %[[VAN:.*]] = ttg.memdesc_index %[[RA]][%[[READ]]]
// PIPE: %[[VBN:.*]] = ttg.memdesc_index %[[RB]][%[[READ]]]
// PIPE: scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %[[FILLN]], %[[READN]], %[[VAN]], %[[WN]], %[[VBN]], %[[GA2]], %[[GB2]]
// PIPE: ttg.async_wait {num = 0 : i32}
// PIPE-NEXT: ttg.local_dealloc %[[RA]]
// PIPE-NEXT: ttg.local_dealloc %[[RB]]
// PIPE-NOT: loop.stage
// PIPE-NOT: tt.latency

// -----

// One pipelined operand (the other loop-invariant): one ring, one commit
// group per iteration, so the wait leaves 1 group (the next iteration's)
// in flight.
// SCHED-LABEL: tt.func public @one_operand
// SCHED: tt.scheduled_max_stage = 2
// PIPE-LABEL: tt.func public @one_operand
// PIPE: ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16
// PIPE-NOT: ttg.local_alloc
// PIPE: ttg.async_wait %{{.*}} {num = 1 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotB = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @one_operand(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %bd: tensor<32x64xf16, #dotB>, %aoff: tensor<64x32xi32, #blocked> {tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.divisibility = dense<[32, 16]> : tensor<2xi32>}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<2048> : tensor<64x32xi32, #blocked>
    %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %ap0 = tt.addptr %as, %aoff : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %ap = %ap0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %ap : tensor<64x32x!tt.ptr<f16>, #blocked>
      %xd = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #dotA>
      %d = tt.dot %xd, %bd, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      %apn = tt.addptr %ap, %step : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      scf.yield %d, %apn : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// The address comes from another load (an offset read from memory): that
// load's data would be needed in registers in stage 0, so nothing is
// scheduled; the offset's load itself feeds no dot.
// LAT-LABEL: tt.func public @pointer_from_a_load
// LAT: tt.load %{{.*}} : !tt.ptr<i32>
// LAT: tt.load %{{.*}} {tt.latency = 2 : i32}
// SCHED-LABEL: tt.func public @pointer_from_a_load
// SCHED-NOT: loop.stage
// SCHED-NOT: tt.latency
// SCHED: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotB = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @pointer_from_a_load(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %bd: tensor<32x64xf16, #dotB>, %aoff: tensor<64x32xi32, #blocked> {tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.divisibility = dense<[32, 16]> : tensor<2xi32>}, %n: i32, %idx: !tt.ptr<i32>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<2048> : tensor<64x32xi32, #blocked>
    %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %ap0 = tt.addptr %as, %aoff : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %ap = %ap0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>) : i32 {
      %o = tt.load %idx : !tt.ptr<i32>
      %os = tt.splat %o : i32 -> tensor<64x32xi32, #blocked>
      %o16 = arith.muli %os, %step : tensor<64x32xi32, #blocked>
      %p = tt.addptr %ap, %o16 : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %x = tt.load %p : tensor<64x32x!tt.ptr<f16>, #blocked>
      %xd = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #dotA>
      %d = tt.dot %xd, %bd, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      %apn = tt.addptr %ap, %step : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      scf.yield %d, %apn : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// The address divides by a value that may be zero: stage 0 would compute
// it for iterations past the end (k + 2 with n = k + 1, say), so the load
// is not scheduled. The same by a non-zero constant is.
// SCHED-LABEL: tt.func public @divide_by_argument
// SCHED: arith.divsi %{{.*}}, %{{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// SCHED: tt.load %{{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32} :
// SCHED: arith.divsi %{{.*}}, %{{.*}} {loop.cluster = 1 : i32, loop.stage = 0 : i32}
// SCHED: tt.load %{{.*}} {loop.cluster = 1 : i32, loop.stage = 0 : i32, tt.latency = 2 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotB = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @divide_by_argument(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %bd: tensor<32x64xf16, #dotB>, %aoff: tensor<64x32xi32, #blocked> {tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.divisibility = dense<[32, 16]> : tensor<2xi32>}, %n: i32, %m: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<2048> : tensor<64x32xi32, #blocked>
    %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %ap0 = tt.addptr %as, %aoff : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %ap = %ap0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>) : i32 {
      %q = arith.divsi %k, %m : i32
      %qs = tt.splat %q : i32 -> tensor<64x32xi32, #blocked>
      %q16 = arith.muli %qs, %step : tensor<64x32xi32, #blocked>
      %p = tt.addptr %ap, %q16 : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %x0 = tt.load %p : tensor<64x32x!tt.ptr<f16>, #blocked>
      %c3 = arith.constant 3 : i32
      %r = arith.divsi %k, %c3 : i32
      %rs = tt.splat %r : i32 -> tensor<64x32xi32, #blocked>
      %r16 = arith.muli %rs, %step : tensor<64x32xi32, #blocked>
      %p2 = tt.addptr %ap, %r16 : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %x = tt.load %p2 : tensor<64x32x!tt.ptr<f16>, #blocked>
      %x0d = ttg.convert_layout %x0 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #dotA>
      %d0 = tt.dot %x0d, %bd, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      %xd = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #dotA>
      %d = tt.dot %xd, %bd, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      %apn = tt.addptr %ap, %step : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      scf.yield %d, %apn : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// The loop's pointers are used after it: the pipelined loop would hand
// them out advanced by the iterations stage 0 ran ahead, so the loop is left
// alone.
// SCHED-LABEL: tt.func public @pointer_used_after
// SCHED-NOT: loop.stage
// SCHED-NOT: tt.latency
// SCHED: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotB = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @pointer_used_after(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %bd: tensor<32x64xf16, #dotB>, %aoff: tensor<64x32xi32, #blocked> {tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.divisibility = dense<[32, 16]> : tensor<2xi32>}, %n: i32) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<2048> : tensor<64x32xi32, #blocked>
    %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %ap0 = tt.addptr %as, %aoff : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %ap = %ap0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %ap : tensor<64x32x!tt.ptr<f16>, #blocked>
      %xd = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #dotA>
      %d = tt.dot %xd, %bd, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      %apn = tt.addptr %ap, %step : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      scf.yield %d, %apn : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>
    }
    tt.return %res#0, %res#1 : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>
  }
}

// -----

// Pointers AxisInfo knows nothing about (2-byte elements, one per copy):
// cp.async cannot copy them, no latency.
// LAT-LABEL: tt.func public @unaligned
// LAT-NOT: tt.latency
// LAT: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotB = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unaligned(%ap0: tensor<64x32x!tt.ptr<f16>, #blocked>, %bd: tensor<32x64xf16, #dotB>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<2048> : tensor<64x32xi32, #blocked>
    %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %ap = %ap0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %ap : tensor<64x32x!tt.ptr<f16>, #blocked>
      %xd = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #dotA>
      %d = tt.dot %xd, %bd, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      %apn = tt.addptr %ap, %step : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      scf.yield %d, %apn : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// A loop with its own stage count (tl.range(..., num_stages=4)) pipelines
// loads that feed no dot, whatever the pass option says: 3 slots of an
// unswizzled ring, read back into the load's layout where the load was used.
// LAT-LABEL: tt.func public @own_stage_count
// LAT: tt.load %{{.*}} {tt.latency = 3 : i32}
// LAT1-LABEL: tt.func public @own_stage_count
// LAT1: tt.load %{{.*}} {tt.latency = 3 : i32}
// SCHED-LABEL: tt.func public @own_stage_count
// SCHED: tt.scheduled_max_stage = 3
// PIPE: #[[RING:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// PIPE-LABEL: tt.func public @own_stage_count
// PIPE: %[[R:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x512xf32, #[[RING]], #smem, mutable>
// PIPE-COUNT-3: ttg.async_copy_global_to_local
// PIPE: scf.for
// PIPE: %[[V:.*]] = ttg.local_load %{{.*}} token %{{.*}} : !ttg.memdesc<512xf32, #[[RING]], #smem, mutable> -> tensor<512xf32, #blocked>
// PIPE: arith.mulf %[[V]], %[[V]]
// PIPE: ttg.async_copy_global_to_local
// PIPE: ttg.async_wait %{{.*}} {num = 2 : i32}
// PIPE: ttg.local_dealloc %[[R]]
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @own_stage_count(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c512 = arith.constant 512 : i32
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    scf.for %k = %c0 to %n step %c1 : i32 {
      %row = arith.muli %k, %c512 : i32
      %rows = tt.splat %row : i32 -> tensor<512xi32, #blocked>
      %offs = arith.addi %rows, %range : tensor<512xi32, #blocked>
      %ins = tt.splat %in : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
      %ip = tt.addptr %ins, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %x = tt.load %ip : tensor<512x!tt.ptr<f32>, #blocked>
      %y = arith.mulf %x, %x : tensor<512xf32, #blocked>
      %outs = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
      %op = tt.addptr %outs, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      tt.store %op, %y : tensor<512x!tt.ptr<f32>, #blocked>
    } {tt.num_stages = 4 : i32}
    tt.return
  }
}

// -----

// The same loop without a stage count of its own: no dot, nothing to
// pipeline.
// LAT-LABEL: tt.func public @no_stage_count
// LAT-NOT: tt.latency
// LAT: tt.return
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_stage_count(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c512 = arith.constant 512 : i32
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    scf.for %k = %c0 to %n step %c1 : i32 {
      %row = arith.muli %k, %c512 : i32
      %rows = tt.splat %row : i32 -> tensor<512xi32, #blocked>
      %offs = arith.addi %rows, %range : tensor<512xi32, #blocked>
      %ins = tt.splat %in : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
      %ip = tt.addptr %ins, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %x = tt.load %ip : tensor<512x!tt.ptr<f32>, #blocked>
      %outs = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
      %op = tt.addptr %outs, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      tt.store %op, %x : tensor<512x!tt.ptr<f32>, #blocked>
    }
    tt.return
  }
}

// -----

// A dot operand computed from a load (negated, then converted): the load is
// pipelined and read back into its own layout, the negation and conversion
// stay where they were.
// LAT-LABEL: tt.func public @computed_operand
// LAT: tt.load %{{.*}} {tt.latency = 2 : i32}
// PIPE: #[[RING:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// PIPE-LABEL: tt.func public @computed_operand
// PIPE: ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #[[RING]], #smem, mutable>
// PIPE: scf.for
// PIPE: %[[V:.*]] = ttg.local_load %{{.*}} token %{{.*}} -> tensor<64x32xf16, #blocked>
// PIPE: %[[N:.*]] = arith.negf %[[V]]
// PIPE: ttg.convert_layout %[[N]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotB = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @computed_operand(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %bd: tensor<32x64xf16, #dotB>, %aoff: tensor<64x32xi32, #blocked> {tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.divisibility = dense<[32, 16]> : tensor<2xi32>}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<2048> : tensor<64x32xi32, #blocked>
    %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %ap0 = tt.addptr %as, %aoff : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %ap = %ap0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %ap : tensor<64x32x!tt.ptr<f16>, #blocked>
      %xn = arith.negf %x : tensor<64x32xf16, #blocked>
      %xd = ttg.convert_layout %xn : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #dotA>
      %d = tt.dot %xd, %bd, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
      %apn = tt.addptr %ap, %step : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      scf.yield %d, %apn : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// wgmma: the loads feed local_allocs that ttng.warp_group_dot reads. The
// slots replace the allocs; the dot, whose result only goes back as its own
// next accumulator, becomes asynchronous with a wait leaving it in flight
// (pendings = 1) until the next iteration's is issued, so each ring has a
// third slot for the one it may still be reading; after the loop the last
// wgmma is waited for (pendings = 0) before the drain.
// LAT-LABEL: tt.func public @wgmma
// LAT-COUNT-2: tt.latency = 2 : i32
// PIPE-LABEL: tt.func public @wgmma
// PIPE-COUNT-2: ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// PIPE: scf.for
// PIPE: ttng.warp_group_dot {{.*}}isAsync = true
// PIPE-NEXT: ttng.warp_group_dot_wait {{.*}}pendings = 1 : i32
// PIPE: ttg.async_wait {{.*}}num = 2 : i32
// PIPE: scf.yield
// PIPE: ttng.warp_group_dot_wait {{.*}}pendings = 0 : i32
// PIPE-NEXT: ttg.async_wait {num = 0 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %off: tensor<64x64xi32, #blocked> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<[64, 16]> : tensor<2xi32>}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<4096> : tensor<64x64xi32, #blocked>
    %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %ap0 = tt.addptr %as, %off : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %bs = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %bp0 = tt.addptr %bs, %off : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %ap = %ap0, %bp = %bp0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %ap : tensor<64x64x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #sa, #smem>
      %y = tt.load %bp : tensor<64x64x!tt.ptr<f16>, #blocked>
      %ys = ttg.local_alloc %y : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #sb, #smem>
      %d = ttng.warp_group_dot %xs, %ys, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #sa, #smem> * !ttg.memdesc<64x64xf16, #sb, #smem> -> tensor<64x64xf32, #mma>
      %apn = tt.addptr %ap, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %bpn = tt.addptr %bp, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %d, %apn, %bpn : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// An index vector in a slice layout (taken from a row of a 2-D tile), in a
// loop that asks for 3 stages itself: its copy goes through a ring read back
// into the slice layout, in the parent's order without the sliced dim. The
// load that depends on it stays in the last stage. With num-stages=1 the
// pass leaves a loop without its own tt.num_stages alone.
// PIPE-LABEL: tt.func public @slice_index
// PIPE: ttg.local_alloc : () -> !ttg.memdesc<2x16xi32, #[[RING:shared[0-9]*]], #smem, mutable>
// PIPE: ttg.async_copy_global_to_local %{{.*}} : tensor<16x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #blocked}>> -> <16xi32, #[[RING]], #smem, mutable>
// PIPE: scf.for
// PIPE: ttg.local_load %{{.*}} : !ttg.memdesc<16xi32, #[[RING]], #smem, mutable> -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
// PIPE: tt.load %{{.*}} : tensor<16x16x!tt.ptr<f32>, #blocked>
// PIPE1-LABEL: tt.func public @slice_index
// PIPE1: ttg.local_alloc
// PIPE1-LABEL: tt.func public @no_own_stages
// PIPE1-NOT: ttg.local_alloc
// PIPE1: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @slice_index(%idx: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<16x16xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c16 = arith.constant 16 : i32
    %zero = arith.constant dense<0.0> : tensor<16x16xf32, #blocked>
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cols = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %col = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x16xi32, #blocked>
    %colb = tt.broadcast %col : tensor<1x16xi32, #blocked> -> tensor<16x16xi32, #blocked>
    %ips = tt.splat %idx : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #blocked}>>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #blocked>
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<16x16xf32, #blocked>) : i32 {
      %base = arith.muli %k, %c16 : i32
      %bs = tt.splat %base : i32 -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %o = arith.addi %bs, %r : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %ip = tt.addptr %ips, %o : tensor<16x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %iv = tt.load %ip : tensor<16x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #blocked}>>
      %row = tt.expand_dims %iv {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xi32, #blocked>
      %rowb = tt.broadcast %row : tensor<16x1xi32, #blocked> -> tensor<16x16xi32, #blocked>
      %off = arith.addi %rowb, %colb : tensor<16x16xi32, #blocked>
      %xp = tt.addptr %xs, %off : tensor<16x16x!tt.ptr<f32>, #blocked>, tensor<16x16xi32, #blocked>
      %v = tt.load %xp : tensor<16x16x!tt.ptr<f32>, #blocked>
      %s = arith.addf %a, %v : tensor<16x16xf32, #blocked>
      scf.yield %s : tensor<16x16xf32, #blocked>
    } {tt.num_stages = 3 : i32}
    tt.return %acc : tensor<16x16xf32, #blocked>
  }
  tt.func public @no_own_stages(%idx: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<16x16xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c16 = arith.constant 16 : i32
    %zero = arith.constant dense<0.0> : tensor<16x16xf32, #blocked>
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %ips = tt.splat %idx : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #blocked}>>
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<16x16xf32, #blocked>) : i32 {
      %base = arith.muli %k, %c16 : i32
      %bs = tt.splat %base : i32 -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %o = arith.addi %bs, %r : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %ip = tt.addptr %ips, %o : tensor<16x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %iv = tt.load %ip : tensor<16x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #blocked}>>
      %row = tt.expand_dims %iv {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xi32, #blocked>
      %rowb = tt.broadcast %row : tensor<16x1xi32, #blocked> -> tensor<16x16xi32, #blocked>
      %f = arith.sitofp %rowb : tensor<16x16xi32, #blocked> to tensor<16x16xf32, #blocked>
      %fa = ttg.convert_layout %f : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
      %fb = ttg.convert_layout %f : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
      %d = tt.dot %fa, %fb, %a : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x16xf32, #blocked>
      scf.yield %d : tensor<16x16xf32, #blocked>
    }
    tt.return %acc : tensor<16x16xf32, #blocked>
  }
}

// -----

// Descriptor loads feeding wgmma: each becomes a TMA copy into a ring of
// three slots (the wgmma is asynchronous, as above), and the copies of one
// iteration complete on one mbarrier of a ring of three that expects both
// tiles' bytes (2 x 64 x 64 x 2 = 16384). The prologue issues iterations 0
// and 1; the kernel waits on its slot's barrier for the iteration's phase,
// (k / 3) % 2, which flips where the read counter wraps, then refills the
// slot two iterations ahead. B is read through a transposed view of its
// slot. After the loop: the last wgmma's wait, the barriers invalidated.
// LAT-LABEL: tt.func public @tma_wgmma
// LAT-COUNT-2: tt.descriptor_load {{.*}}tt.latency = 2 : i32
// SCHED-LABEL: tt.func public @tma_wgmma
// SCHED: tt.descriptor_load {{.*}}loop.cluster = 1 : i32, loop.stage = 0 : i32
// SCHED: ttng.warp_group_dot {{.*}}loop.cluster = 0 : i32, loop.stage = 2 : i32
// PIPE-LABEL: tt.func public @tma_wgmma
// PIPE-DAG: %[[C0:.*]] = arith.constant 0 : i32
// PIPE-DAG: %[[C1:.*]] = arith.constant 1 : i32
// PIPE-DAG: %[[C2:.*]] = arith.constant 2 : i32
// PIPE-DAG: %[[C3:.*]] = arith.constant 3 : i32
// PIPE: %[[BARS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared1, #smem, mutable>
// PIPE: %[[BAR0:.*]] = ttg.memdesc_index %[[BARS]][%[[C0]]]
// PIPE-NEXT: ttng.init_barrier %[[BAR0]], 1
// PIPE: ttng.init_barrier
// PIPE: ttng.init_barrier
// PIPE: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// PIPE: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// PIPE: %[[P0:.*]] = arith.cmpi sgt, %{{.*}}, %[[C0]]
// PIPE: %[[PBAR0:.*]] = ttg.memdesc_index %[[BARS]][%[[C0]]]
// PIPE: ttng.barrier_expect %[[PBAR0]], 16384, %[[P0]]
// PIPE: ttng.async_tma_copy_global_to_local %{{.*}} %{{.*}}, %[[PBAR0]], %[[P0]]
// PIPE: ttng.async_tma_copy_global_to_local %{{.*}} %{{.*}}, %[[PBAR0]], %[[P0]]
// PIPE: ttng.barrier_expect %{{.*}}, 16384
// PIPE-COUNT-2: ttng.async_tma_copy_global_to_local
// PIPE: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[ISSUE:.*]] = %[[C2]], %[[READ:.*]] = %[[C0]], %[[PHASE:.*]] = %[[C0]])
// PIPE: %[[SA:.*]] = ttg.memdesc_index %[[RA]][%[[READ]]]
// PIPE: %[[SB:.*]] = ttg.memdesc_index %[[RB]][%[[READ]]]
// PIPE: %[[SBT:.*]] = ttg.memdesc_trans %[[SB]]
// PIPE: %[[BAR:.*]] = ttg.memdesc_index %[[BARS]][%[[READ]]]
// PIPE-NEXT: ttng.wait_barrier %[[BAR]], %[[PHASE]]
// PIPE: ttng.warp_group_dot %[[SA]], %[[SBT]], %[[ACC]] {{.*}}isAsync = true
// PIPE-NEXT: ttng.warp_group_dot_wait {{.*}}pendings = 1 : i32
// PIPE: %[[IBAR:.*]] = ttg.memdesc_index %[[BARS]][%[[ISSUE]]]
// PIPE: ttng.barrier_expect %[[IBAR]], 16384, %[[LIVE:.*]] :
// PIPE: ttng.async_tma_copy_global_to_local {{.*}}, %[[IBAR]], %[[LIVE]]
// PIPE: ttng.async_tma_copy_global_to_local {{.*}}, %[[IBAR]], %[[LIVE]]
// PIPE: %[[NEXT:.*]] = arith.addi %[[READ]], %[[C1]]
// PIPE: %[[WRAPS:.*]] = arith.cmpi eq, %[[NEXT]], %[[C3]]
// PIPE: %[[FLIP:.*]] = arith.xori %[[PHASE]], %[[C1]]
// PIPE: %[[NEXTPHASE:.*]] = arith.select %[[WRAPS]], %[[FLIP]], %[[PHASE]]
// PIPE: scf.yield {{.*}}%[[NEXTPHASE]] :
// PIPE: ttng.warp_group_dot_wait {{.*}}pendings = 0 : i32
// PIPE-NOT: ttg.async_wait
// PIPE-COUNT-3: ttng.inval_barrier
// PIPE: ttg.local_dealloc %[[BARS]]
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tma_wgmma(%ad: !tt.tensordesc<tensor<64x64xf16, #shared>>, %bd: !tt.tensordesc<tensor<64x64xf16, #shared>>, %m: i32, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %kk = arith.muli %k, %c64 : i32
      %x = tt.descriptor_load %ad[%m, %kk] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %xs = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %y = tt.descriptor_load %bd[%m, %kk] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %ys = ttg.local_alloc %y : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %yt = ttg.memdesc_trans %ys {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared2, #smem>
      %d = ttng.warp_group_dot %xs, %yt, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared2, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %res : tensor<64x64xf32, #mma>
  }
}

// -----

// A loop with its own two stages reads a descriptor load into registers:
// one slot, so every iteration uses barrier 0 and its phase flips each
// time; the wait and the local_load run where the value is first needed.
// PIPE-LABEL: tt.func public @tma_to_registers
// PIPE: %[[BARS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x1xi64, #shared1, #smem, mutable>
// PIPE: ttng.init_barrier
// PIPE: %[[RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x32x32xf32, #shared, #smem, mutable>
// PIPE: ttng.barrier_expect %{{.*}}, 4096
// PIPE: ttng.async_tma_copy_global_to_local
// PIPE: scf.for {{.*}} iter_args({{.*}}, %[[PHASE:.*]] = %c0_i32)
// PIPE: ttng.wait_barrier %{{.*}}, %[[PHASE]]
// PIPE: %[[X:.*]] = ttg.local_load %{{.*}} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> tensor<32x32xf32, #blocked>
// PIPE: arith.addf %{{.*}}, %[[X]]
// PIPE: ttng.barrier_expect
// PIPE: ttng.async_tma_copy_global_to_local
// PIPE: %[[FLIP:.*]] = arith.xori %[[PHASE]], %c1_i32
// PIPE: scf.yield {{.*}}, %[[FLIP]] :
// PIPE: ttng.inval_barrier
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tma_to_registers(%d: !tt.tensordesc<tensor<32x32xf32, #shared>>, %n: i32) -> tensor<32x32xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<32x32xf32, #blocked>
    %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x32xf32, #blocked>) : i32 {
      %row = arith.muli %k, %c32 : i32
      %x = tt.descriptor_load %d[%row, %c0] : !tt.tensordesc<tensor<32x32xf32, #shared>> -> tensor<32x32xf32, #blocked>
      %s = arith.addf %acc, %x : tensor<32x32xf32, #blocked>
      scf.yield %s : tensor<32x32xf32, #blocked>
    } {tt.num_stages = 2 : i32}
    tt.return %res : tensor<32x32xf32, #blocked>
  }
}

// -----

// Attention-shaped: K feeds the first wgmma (through a transposed view),
// V the second, whose accumulator is the carried one rescaled. K and V are
// first needed by different wgmmas, so each has its own ring of barriers,
// waited for right before its wgmma. The second wgmma runs asynchronously:
// the next iteration waits for it (pendings = 0) once its first wgmma is
// issued, before the rescale reads it, in the wait that first wgmma gets
// right after it (every other wgmma of a pipelined loop is issued async and
// waited for at once, as Triton writes it); with the second in flight, the
// rings have two slots at two stages.
// PIPE-LABEL: tt.func public @attention_like
// PIPE-COUNT-2: ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #shared1, #smem, mutable>
// PIPE: scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}}, %[[ISSUE:[^ ]*]] = %{{.*}}, %[[READ:[^ ]*]] = %{{.*}}, %[[PHASE:[^ ]*]] = %{{.*}})
// PIPE: ttng.wait_barrier %{{.*}}, %[[PHASE]]
// PIPE: %[[QK:.*]] = ttng.warp_group_dot {{.*}}isAsync = true
// PIPE-NEXT: %[[W:.*]]:4 = ttng.warp_group_dot_wait %[[QK]], %{{.*}}, %{{.*}}, %[[ACC]] {pendings = 0 : i32}
// PIPE: arith.mulf %[[W]]#3
// PIPE: ttng.wait_barrier %{{.*}}, %[[PHASE]]
// PIPE: ttng.warp_group_dot {{.*}}isAsync = true
// PIPE-NOT: ttng.warp_group_dot_wait
// PIPE: ttng.barrier_expect %{{.*}}, 8192
// PIPE: ttng.async_tma_copy_global_to_local
// PIPE: ttng.barrier_expect %{{.*}}, 8192
// PIPE: ttng.async_tma_copy_global_to_local
// PIPE: scf.yield
// PIPE: ttng.warp_group_dot_wait {{.*}}pendings = 0 : i32
// PIPE-COUNT-4: ttng.inval_barrier
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#dotA = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @attention_like(%q: !ttg.memdesc<64x64xf16, #shared, #smem>, %kd: !tt.tensordesc<tensor<64x64xf16, #shared>>, %vd: !tt.tensordesc<tensor<64x64xf16, #shared>>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %half = arith.constant dense<0.5> : tensor<64x64xf32, #mma>
    %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %kk = arith.muli %k, %c64 : i32
      %kt = tt.descriptor_load %kd[%kk, %c0] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %ks = ttg.local_alloc %kt : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %ktt = ttg.memdesc_trans %ks {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared2, #smem>
      %qk = ttng.warp_group_dot %q, %ktt, %zero {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared2, #smem> -> tensor<64x64xf32, #mma>
      %p = arith.truncf %qk : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %pd = ttg.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #dotA>
      %scaled = arith.mulf %acc, %half : tensor<64x64xf32, #mma>
      %vt = tt.descriptor_load %vd[%kk, %c0] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %vs = ttg.local_alloc %vt : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %o = ttng.warp_group_dot %pd, %vs, %scaled {inputPrecision = 0 : i32} : tensor<64x64xf16, #dotA> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %o : tensor<64x64xf32, #mma>
    } {tt.num_stages = 2 : i32}
    tt.return %res : tensor<64x64xf32, #mma>
  }
}

// -----

// cp.async rings for a wgmma operand read through a transposed view of its
// local_alloc (what tritongpu-optimize-dot-operands leaves for a tl.trans),
// and for a row vector in a slice of the mma layout that stays in
// registers (no blocked order to follow: the last dim is fastest). The
// view becomes a view of the slot, mutable like it. The wgmma's result is
// rescaled before it goes back, so it stays synchronous: two slots.
// PIPE-LABEL: tt.func public @transposed_view_and_mma_slice
// PIPE-DAG: ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
// PIPE-DAG: ttg.local_alloc : () -> !ttg.memdesc<2x64xf32, #shared1, #smem, mutable>
// PIPE: scf.for {{.*}} -> (tensor<64x64xf32, #mma>, {{.*}}, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64xf32, #shared1, #smem, mutable>,
// PIPE: %[[T:.*]] = ttg.memdesc_trans %arg{{[0-9]+}} {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared2, #smem, mutable>
// PIPE: ttng.warp_group_dot %{{.*}}, %[[T]]
// PIPE: ttg.local_load %arg{{[0-9]+}} token %{{.*}} : !ttg.memdesc<64xf32, #shared1, #smem, mutable> -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #mma}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#sbt = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @transposed_view_and_mma_slice(%a: !ttg.memdesc<64x64xf16, #sa, #smem>, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %off: tensor<64x64xi32, #blocked> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<[64, 16]> : tensor<2xi32>}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<4096> : tensor<64x64xi32, #blocked>
    %bs = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %bp0 = tt.addptr %bs, %off : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %rng = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>>
    %ms = tt.splat %m : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #mma}>>
    %mp0 = tt.addptr %ms, %rng : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #mma}>>, tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>>
    %c64 = arith.constant dense<64> : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %bp = %bp0, %mp = %mp0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #mma}>>) : i32 {
      %y = tt.load %bp : tensor<64x64x!tt.ptr<f16>, #blocked>
      %ys = ttg.local_alloc %y : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #sa, #smem>
      %yt = ttg.memdesc_trans %ys {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #sa, #smem> -> !ttg.memdesc<64x64xf16, #sbt, #smem>
      %d = ttng.warp_group_dot %a, %yt, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #sa, #smem> * !ttg.memdesc<64x64xf16, #sbt, #smem> -> tensor<64x64xf32, #mma>
      %mv = tt.load %mp : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #mma}>>
      %mx = tt.expand_dims %mv {axis = 0 : i32} : tensor<64xf32, #ttg.slice<{dim = 0, parent = #mma}>> -> tensor<1x64xf32, #mma>
      %mb = tt.broadcast %mx : tensor<1x64xf32, #mma> -> tensor<64x64xf32, #mma>
      %e = arith.addf %d, %mb : tensor<64x64xf32, #mma>
      %bpn = tt.addptr %bp, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %mpn = tt.addptr %mp, %c64 : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #mma}>>, tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>>
      scf.yield %e, %bpn, %mpn : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #mma}>>
    } {tt.num_stages = 3 : i32}
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}
