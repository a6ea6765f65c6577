// ttg.warp_specialize, its partitions and terminators round-trip in the form
// Triton 3.6 prints: `default {...}`, `partitionN(args) num_warps(W) {...}`,
// the function type of captures and results; partitionNumWarps is not in the
// attribute dictionary, the other attributes are.
// RUN: tgpu-opt %s -split-input-file | tgpu-opt -split-input-file | FileCheck %s
// RUN: tgpu-opt %s -split-input-file -mlir-print-op-generic | tgpu-opt -split-input-file | FileCheck %s

// CHECK-LABEL: tt.func @nothing
tt.func @nothing() {
  // CHECK-NEXT: ttg.warp_specialize()
  // CHECK-NEXT: default {
  // CHECK-NEXT: ttg.warp_yield
  // CHECK-NEXT: } : () -> ()
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  } : () -> ()
  tt.return
}

// CHECK-LABEL: tt.func @captures_and_results
tt.func @captures_and_results(%a: i32, %b: i64, %p: !tt.ptr<f32>) -> (i64, i32) {
  // CHECK-NEXT: %0:2 = ttg.warp_specialize(%arg0, %arg2)
  // CHECK-NEXT: default {
  // CHECK-NEXT: ttg.warp_yield %arg1, %arg0 : i64, i32
  // CHECK-NEXT: }
  // CHECK-NEXT: partition0(%arg3: i32, %arg4: !tt.ptr<f32>) num_warps(4) {
  // CHECK-NEXT: arith.addi %arg3, %arg3 : i32
  // CHECK-NEXT: ttg.warp_return
  // CHECK-NEXT: }
  // CHECK-NEXT: partition1(%arg3: i32, %arg4: !tt.ptr<f32>) num_warps(1) {
  // CHECK-NEXT: ttg.warp_return
  // CHECK-NEXT: }
  // CHECK-NEXT: partition2(%arg3: i32, %arg4: !tt.ptr<f32>) num_warps(8) {
  // CHECK-NEXT: tt.load %arg4 : !tt.ptr<f32>
  // CHECK-NEXT: ttg.warp_return
  // CHECK-NEXT: } : (i32, !tt.ptr<f32>) -> (i64, i32)
  %r:2 = ttg.warp_specialize(%a, %p)
  default {
    ttg.warp_yield %b, %a : i64, i32
  }
  partition0(%x: i32, %q: !tt.ptr<f32>) num_warps(4) {
    %y = arith.addi %x, %x : i32
    ttg.warp_return
  }
  partition1(%x: i32, %q: !tt.ptr<f32>) num_warps(1) {
    ttg.warp_return
  }
  partition2(%x: i32, %q: !tt.ptr<f32>) num_warps(8) {
    %v = tt.load %q : !tt.ptr<f32>
    ttg.warp_return
  } : (i32, !tt.ptr<f32>) -> (i64, i32)
  // CHECK: tt.return %0#0, %0#1 : i64, i32
  tt.return %r#0, %r#1 : i64, i32
}

// The optional attributes print after `attributes`, with any other one; the
// default region may have several blocks.
// CHECK-LABEL: tt.func @attributes_and_blocks
tt.func @attributes_and_blocks(%c: i1) {
  // CHECK-NEXT: ttg.warp_specialize() attributes {actualRegisters = array<i32: 480, 32>, allocation.offset = 512 : i32, requestedRegisters = array<i32: 32>, warpGroupStartIds = array<i32: 4>}
  // CHECK-NEXT: default {
  // CHECK-NEXT: cf.cond_br %arg0, ^bb1, ^bb2
  // CHECK-NEXT: ^bb1:
  // CHECK-NEXT: ttg.warp_yield
  // CHECK-NEXT: ^bb2:
  // CHECK-NEXT: ttg.warp_yield
  // CHECK-NEXT: }
  // CHECK-NEXT: partition0() num_warps(4) {
  ttg.warp_specialize() attributes {actualRegisters = array<i32: 480, 32>, allocation.offset = 512 : i32, requestedRegisters = array<i32: 32>, warpGroupStartIds = array<i32: 4>}
  default {
    cf.cond_br %c, ^a, ^b
  ^a:
    ttg.warp_yield
  ^b:
    ttg.warp_yield
  }
  partition0() num_warps(4) {
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

// Layouts inside a partition count the partition's warps; the module's and a
// function's ttg.num-warps count elsewhere.
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b8 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @function_scope
  // CHECK: tt.make_range {{.*}} : tensor<128xi32, #blocked>
  tt.func @function_scope() attributes {"ttg.num-warps" = 8 : i32} {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b8>
    tt.return
  }
  // CHECK-LABEL: tt.func @partition_scope
  tt.func @partition_scope(%t: tensor<128xi32, #b4>) {
    ttg.warp_specialize(%t)
    default {
      %d = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b4>
      ttg.warp_yield
    }
    // CHECK: partition0(%arg1: tensor<128xi32, #blocked1>) num_warps(2)
    // CHECK-NEXT: tt.make_range {{.*}} : tensor<128xi32, #blocked2>
    partition0(%u: tensor<128xi32, #b4>) num_warps(2) {
      %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b2>
      ttg.warp_return
    }
    // CHECK: partition1(%arg1: tensor<128xi32, #blocked1>) num_warps(1)
    // CHECK-NEXT: tt.make_range {{.*}} : tensor<128xi32, #blocked3>
    partition1(%u: tensor<128xi32, #b4>) num_warps(1) {
      %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b1>
      ttg.warp_return
    } : (tensor<128xi32, #b4>) -> ()
    tt.return
  }
}

// -----

// The other ops that may sit in a partition.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 8 : i32} {
  // CHECK-LABEL: tt.func @in_partitions
  tt.func @in_partitions(%buf: !ttg.memdesc<1xi32, #shared, #smem, mutable>) {
    // CHECK: ttg.warp_specialize(%arg0) attributes {warpGroupStartIds = array<i32: 8>}
    ttg.warp_specialize(%buf) attributes {warpGroupStartIds = array<i32: 8>}
    default {
      // CHECK: ttg.warp_id
      %w = ttg.warp_id
      ttg.warp_yield
    }
    // CHECK: partition0(%arg1: !ttg.memdesc<1xi32, #shared, #smem, mutable>) num_warps(4) {
    partition0(%b: !ttg.memdesc<1xi32, #shared, #smem, mutable>) num_warps(4) {
      // CHECK-NEXT: ttg.warp_id
      // CHECK-NEXT: ttg.local_barrier
      // CHECK-NEXT: ttg.warp_return
      %w = ttg.warp_id
      ttg.local_barrier
      ttg.warp_return
    } : (!ttg.memdesc<1xi32, #shared, #smem, mutable>) -> ()
    tt.return
  }
}
