// RUN: tgpu-opt %s -split-input-file --tritongpu-pipeline -verify-diagnostics

// tritongpu-pipeline on schedules it cannot carry out (written by hand:
// tritongpu-schedule-loops never makes them).
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_stage(%p: tensor<512x!tt.ptr<f32>, #blocked>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %k = %c0 to %n step %c1 : i32 {
      // expected-error @below {{has no valid 'loop.stage' in a loop scheduled up to stage 2}}
      %x = tt.load %p : tensor<512x!tt.ptr<f32>, #blocked>
      tt.store %p, %x {loop.stage = 2 : i32, loop.cluster = 0 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @store_early(%p: tensor<512x!tt.ptr<f32>, #blocked>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %k = %c0 to %n step %c1 : i32 {
      %x = tt.load %p {loop.stage = 2 : i32, loop.cluster = 0 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
      // expected-error @below {{has side effects but is scheduled in stage 0, before the loop's last stage 2}}
      tt.store %p, %x {loop.stage = 0 : i32, loop.cluster = 1 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @early_load_unused(%p: tensor<512x!tt.ptr<f32>, #blocked>, %n: i32) {
    %z = arith.constant dense<0.0> : tensor<512xf32, #blocked>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %k = %c0 to %n step %c1 : i32 {
      // expected-error @below {{is scheduled early but is not a tensor load in a blocked layout with users}}
      %x = tt.load %p {loop.stage = 0 : i32, loop.cluster = 1 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
      tt.store %p, %z {loop.stage = 2 : i32, loop.cluster = 0 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

// A stage-0 op that needs the stage-2 result of the same iteration: no
// pipelined loop can run that (pipelineForLoop would assert).
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @use_before_def(%x: f32, %n: i32) -> f32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %x) -> f32 : i32 {
      %a = arith.addf %acc, %x {loop.stage = 2 : i32, loop.cluster = 0 : i32} : f32
      // expected-error @below {{in stage 0 cluster 1 uses a value of stage 2 cluster 0 that the pipelined loop does not have yet}}
      %b = arith.mulf %a, %x {loop.stage = 0 : i32, loop.cluster = 1 : i32} : f32
      scf.yield %b : f32
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %r : f32
  }
}

// -----

// Through the loop-carried value: stage 0 would need what stage 2 made in
// the previous iteration, which is two iterations behind.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @carried_too_late(%x: f32, %n: i32) -> f32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %x) -> f32 : i32 {
      // expected-error @below {{in stage 0 cluster 1 uses a value of stage 2 cluster 0 of the previous iteration that the pipelined loop does not have yet}}
      %a = arith.addf %acc, %x {loop.stage = 0 : i32, loop.cluster = 1 : i32} : f32
      %b = arith.mulf %a, %x {loop.stage = 2 : i32, loop.cluster = 0 : i32} : f32
      scf.yield %b : f32
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %r : f32
  }
}

// -----

// A scalar load scheduled early: only tensor loads become async copies.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scalar_load_early(%p: !tt.ptr<f32>, %n: i32) -> f32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant 0.0 : f32
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> f32 : i32 {
      // expected-error @below {{is scheduled early but is not a tensor load in a blocked layout with users}}
      %v = tt.load %p {loop.stage = 0 : i32, loop.cluster = 1 : i32} : !tt.ptr<f32>
      %s = arith.addf %acc, %v {loop.stage = 2 : i32, loop.cluster = 0 : i32} : f32
      scf.yield %s : f32
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %r : f32
  }
}

// -----

// Descriptor loads issued in different stages.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tma_stages_differ(%d: !tt.tensordesc<tensor<32x32xf32, #shared>>, %n: i32) {
    %c1 = arith.constant 1 : i32
    scf.for %k = %c1 to %n step %c1 : i32 {
      %x = tt.descriptor_load %d[%k, %k] {loop.stage = 0 : i32, loop.cluster = 1 : i32} : !tt.tensordesc<tensor<32x32xf32, #shared>> -> tensor<32x32xf32, #blocked>
      // expected-error @below {{is scheduled in stage 1 but an earlier descriptor load of the loop in stage 0 (the pipeliner issues them together)}}
      %y = tt.descriptor_load %d[%k, %k] {loop.stage = 1 : i32, loop.cluster = 1 : i32} : !tt.tensordesc<tensor<32x32xf32, #shared>> -> tensor<32x32xf32, #blocked>
      %s = arith.addf %x, %y {loop.stage = 2 : i32, loop.cluster = 0 : i32} : tensor<32x32xf32, #blocked>
      tt.descriptor_store %d[%k, %k], %s {loop.stage = 2 : i32, loop.cluster = 0 : i32} : !tt.tensordesc<tensor<32x32xf32, #shared>>, tensor<32x32xf32, #blocked>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

// A descriptor load whose block has no shared layout cannot be copied by TMA.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tma_no_layout(%d: !tt.tensordesc<tensor<32x32xf32>>, %n: i32) {
    %c1 = arith.constant 1 : i32
    scf.for %k = %c1 to %n step %c1 : i32 {
      // expected-error @below {{needs a shared layout on its descriptor's block type}}
      %x = tt.descriptor_load %d[%k, %k] {loop.stage = 0 : i32, loop.cluster = 1 : i32} : !tt.tensordesc<tensor<32x32xf32>> -> tensor<32x32xf32, #blocked>
      tt.descriptor_store %d[%k, %k], %x {loop.stage = 1 : i32, loop.cluster = 0 : i32} : !tt.tensordesc<tensor<32x32xf32>>, tensor<32x32xf32, #blocked>
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}
