// RUN: tgpu-opt %s -split-input-file --tritongpu-reorder-instructions | FileCheck %s

// A conversion moves after the deallocs before its first user; an alloc of
// a loaded tensor moves right after the load, one of a splat stays; a
// transpose moves right after its source's producer.
// CHECK-LABEL: tt.func @sink_and_hoist
// CHECK: %[[L:.*]] = tt.load %arg1
// CHECK-NEXT: ttg.local_alloc %[[L]]
// CHECK-NEXT: %[[T:.*]] = tt.load %arg2
// CHECK-NEXT: tt.trans %[[T]]
// CHECK: tt.splat
// CHECK-NEXT: ttg.local_dealloc
// CHECK-NEXT: ttg.local_dealloc
// CHECK-NEXT: ttg.convert_layout %arg0
// CHECK-NEXT: arith.addf
// CHECK-NEXT: ttg.local_alloc %{{.*}} : (tensor<32x32xf32, #blocked>)
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sink_and_hoist(%x: tensor<32x32xf32, #blocked>, %p: tensor<32x32x!tt.ptr<f32>, #blocked>, %q: tensor<32x32x!tt.ptr<f32>, #blocked>, %s: f32) -> (tensor<32x32xf32, #blocked1>, tensor<32x32xf32, #blocked1>) {
    %b0 = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    %b1 = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    %l = tt.load %p : tensor<32x32x!tt.ptr<f32>, #blocked>
    %t = tt.load %q : tensor<32x32x!tt.ptr<f32>, #blocked>
    %c = ttg.convert_layout %x : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    %sp = tt.splat %s : f32 -> tensor<32x32xf32, #blocked>
    ttg.local_dealloc %b0 : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    ttg.local_dealloc %b1 : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    %sum = arith.addf %c, %c : tensor<32x32xf32, #blocked1>
    %a0 = ttg.local_alloc %l : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    %a1 = ttg.local_alloc %sp : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    %tr = tt.trans %t {order = array<i32: 1, 0>} : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    tt.return %sum, %tr : tensor<32x32xf32, #blocked1>, tensor<32x32xf32, #blocked1>
  }
}

// -----

// A shared-memory read used only inside a loop moves to its user there when
// nothing in the loop writes memory; with a local_store in the loop it
// stays (it would read the stored data), unless its buffer is immutable.
// CHECK-LABEL: tt.func @into_loop
// CHECK: scf.for
// CHECK-NEXT: %[[R:.*]] = ttg.local_load %arg0
// CHECK-NEXT: arith.addf %{{.*}}, %[[R]]
// CHECK-LABEL: tt.func @not_into_writing_loop
// CHECK: %[[R:.*]] = ttg.local_load %arg0
// CHECK-NEXT: scf.for
// CHECK-LABEL: tt.func @immutable_into_writing_loop
// CHECK: scf.for
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: %[[R:.*]] = ttg.local_load %{{.*}} : !ttg.memdesc<32x32xf32, #shared, #smem> ->
// CHECK-NEXT: arith.addf %{{.*}}, %[[R]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @into_loop(%buf: !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, %init: tensor<32x32xf32, #blocked>, %n: i32) -> tensor<32x32xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = ttg.local_load %buf : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> tensor<32x32xf32, #blocked>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %init) -> (tensor<32x32xf32, #blocked>) : i32 {
      %s = arith.addf %a, %r : tensor<32x32xf32, #blocked>
      scf.yield %s : tensor<32x32xf32, #blocked>
    }
    tt.return %acc : tensor<32x32xf32, #blocked>
  }
  tt.func @not_into_writing_loop(%buf: !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, %init: tensor<32x32xf32, #blocked>, %n: i32) -> tensor<32x32xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = ttg.local_load %buf : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> tensor<32x32xf32, #blocked>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %init) -> (tensor<32x32xf32, #blocked>) : i32 {
      ttg.local_store %a, %buf : tensor<32x32xf32, #blocked> -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
      %s = arith.addf %a, %r : tensor<32x32xf32, #blocked>
      scf.yield %s : tensor<32x32xf32, #blocked>
    }
    tt.return %acc : tensor<32x32xf32, #blocked>
  }
  tt.func @immutable_into_writing_loop(%buf: !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, %x: tensor<32x32xf32, #blocked>, %init: tensor<32x32xf32, #blocked>, %n: i32) -> tensor<32x32xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %frozen = ttg.local_alloc %x : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    %r = ttg.local_load %frozen : !ttg.memdesc<32x32xf32, #shared, #smem> -> tensor<32x32xf32, #blocked>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %init) -> (tensor<32x32xf32, #blocked>) : i32 {
      ttg.local_store %a, %buf : tensor<32x32xf32, #blocked> -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
      %s = arith.addf %a, %r : tensor<32x32xf32, #blocked>
      scf.yield %s : tensor<32x32xf32, #blocked>
    }
    tt.return %acc : tensor<32x32xf32, #blocked>
  }
}

// -----

// A dot's B operand read moves after its A operand read (in operand order)
// across loads and allocs; a shared-memory store in between keeps it.
// CHECK-LABEL: tt.func @b_after_a
// CHECK: ttg.local_load %arg1 {{.*}}opIdx = 0
// CHECK-NEXT: ttg.local_load %arg0 {{.*}}opIdx = 1
// CHECK-NEXT: tt.dot
// CHECK-LABEL: tt.func @b_stays
// CHECK: ttg.local_load %arg0 {{.*}}opIdx = 1
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: ttg.local_load %arg1 {{.*}}opIdx = 0
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @b_after_a(%bb: !ttg.memdesc<32x32xf16, #shared, #smem>, %ab: !ttg.memdesc<32x32xf16, #shared, #smem>, %p: tensor<32x32x!tt.ptr<f16>, #blocked>) -> tensor<32x32xf32, #mma> {
    %acc = arith.constant dense<0.0> : tensor<32x32xf32, #mma>
    %b = ttg.local_load %bb : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %l = tt.load %p : tensor<32x32x!tt.ptr<f16>, #blocked>
    %k = ttg.local_alloc %l : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    %a = ttg.local_load %ab : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %b, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
    tt.return %d : tensor<32x32xf32, #mma>
  }
  tt.func @b_stays(%bb: !ttg.memdesc<32x32xf16, #shared, #smem, mutable>, %ab: !ttg.memdesc<32x32xf16, #shared, #smem, mutable>, %x: tensor<32x32xf16, #blocked>) -> tensor<32x32xf32, #mma> {
    %acc = arith.constant dense<0.0> : tensor<32x32xf32, #mma>
    %b = ttg.local_load %bb : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    ttg.local_store %x, %bb : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    %a = ttg.local_load %ab : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %b, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
    tt.return %d : tensor<32x32xf32, #mma>
  }
}
