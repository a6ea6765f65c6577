// MLIR's generic passes keep ttg.warp_specialize whole: the canonicalizer
// drops unused results and captures and merges duplicate captures, folds
// inside the regions, and removes an op with no used results and no effects;
// CSE does not merge values across the isolated partitions; the inliner
// inlines calls inside a partition.
// RUN: tgpu-opt %s -split-input-file -allow-unregistered-dialect -canonicalize | FileCheck %s --check-prefix=CANON
// RUN: tgpu-opt %s -split-input-file -allow-unregistered-dialect -cse | FileCheck %s --check-prefix=CSE
// RUN: tgpu-opt %s -split-input-file -allow-unregistered-dialect -inline | FileCheck %s --check-prefix=INLINE
// RUN: tgpu-opt %s -split-input-file -allow-unregistered-dialect -canonicalize -cse -inline -canonicalize | tgpu-opt -split-input-file -allow-unregistered-dialect

// CANON-LABEL: tt.func @unused_results_and_captures
// CANON-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32)
// CANON-NEXT: %[[R:.*]] = ttg.warp_specialize(%[[A]], %[[C]])
// CANON-NEXT: default {
// CANON-NEXT: ttg.warp_yield %[[B]] : i32
// CANON-NEXT: }
// CANON-NEXT: partition0(%[[X:.*]]: i32, %[[Z:.*]]: i32) num_warps(4) {
// CANON-NEXT: "use"(%[[X]], %[[X]], %[[Z]])
// CANON-NEXT: ttg.warp_return
// CANON-NEXT: }
// CANON-NEXT: partition1(%{{.*}}: i32, %{{.*}}: i32) num_warps(1) {
// CANON-NEXT: ttg.warp_return
// CANON-NEXT: } : (i32, i32) -> i32
// CANON-NEXT: tt.return %[[R]] : i32
tt.func @unused_results_and_captures(%a: i32, %b: i32, %c: i32) -> i32 {
  // %b is captured but unused; %a is captured twice.
  %r:3 = ttg.warp_specialize(%a, %b, %a, %c)
  default {
    ttg.warp_yield %a, %b, %c : i32, i32, i32
  }
  partition0(%x: i32, %y: i32, %x2: i32, %z: i32) num_warps(4) {
    "use"(%x, %x2, %z) : (i32, i32, i32) -> ()
    ttg.warp_return
  }
  partition1(%x: i32, %y: i32, %x2: i32, %z: i32) num_warps(1) {
    ttg.warp_return
  } : (i32, i32, i32, i32) -> (i32, i32, i32)
  tt.return %r#1 : i32
}

// CANON-LABEL: tt.func @folds_inside
// CANON-NEXT: %[[R:.*]] = ttg.warp_specialize()
// CANON-NEXT: default {
// CANON-NEXT: ttg.warp_yield %arg0 : i32
// CANON-NEXT: }
// CANON-NEXT: partition0() num_warps(4) {
// CANON-NEXT: ttg.warp_return
// CANON-NEXT: } : () -> i32
tt.func @folds_inside(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = ttg.warp_specialize()
  default {
    %s = arith.addi %a, %c0 : i32
    ttg.warp_yield %s : i32
  }
  partition0() num_warps(4) {
    %c1 = arith.constant 1 : i32
    ttg.warp_return
  } : () -> i32
  tt.return %r : i32
}

// Nothing uses the results and nothing has effects: the op goes.
// CANON-LABEL: tt.func @dead
// CANON-NEXT: tt.return
tt.func @dead(%a: i32) {
  %r = ttg.warp_specialize(%a)
  default {
    %s = arith.addi %a, %a : i32
    ttg.warp_yield %s : i32
  }
  partition0(%x: i32) num_warps(4) {
    %y = arith.addi %x, %x : i32
    ttg.warp_return
  } : (i32) -> i32
  tt.return
}

// A partition with effects keeps the op.
// CANON-LABEL: tt.func @effects
// CANON-NEXT: ttg.warp_specialize(%arg0, %arg1)
// CANON: tt.store
tt.func @effects(%p: !tt.ptr<i32>, %v: i32) {
  ttg.warp_specialize(%p, %v)
  default {
    ttg.warp_yield
  }
  partition0(%q: !tt.ptr<i32>, %w: i32) num_warps(4) {
    tt.store %q, %w : !tt.ptr<i32>
    ttg.warp_return
  } : (!tt.ptr<i32>, i32) -> ()
  tt.return
}

// A reinterpret to the same type is its source.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// CANON-LABEL: tt.func @reinterpret_fold
// CANON-NEXT: tt.return %arg0
tt.func @reinterpret_fold(%buf: !ttg.memdesc<16xi32, #shared, #smem, mutable>) -> !ttg.memdesc<16xi32, #shared, #smem, mutable> {
  %v = ttg.memdesc_reinterpret %buf : !ttg.memdesc<16xi32, #shared, #smem, mutable> -> !ttg.memdesc<16xi32, #shared, #smem, mutable>
  tt.return %v : !ttg.memdesc<16xi32, #shared, #smem, mutable>
}

// -----

// The default region may reuse values from above; a partition may not, so
// its constants stay its own.
// CSE-LABEL: tt.func @cse
// CSE-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CSE-NEXT: %[[R:.*]]:2 = ttg.warp_specialize(%arg0)
// CSE-NEXT: default {
// CSE-NEXT: ttg.warp_yield %[[C1]], %[[C1]] : i32, i32
// CSE-NEXT: }
// CSE-NEXT: partition0(%[[X:.*]]: i32) num_warps(4) {
// CSE-NEXT: %[[D1:.*]] = arith.constant 1 : i32
// CSE-NEXT: %[[S:.*]] = arith.addi %[[X]], %[[D1]] : i32
// CSE-NEXT: "use"(%[[S]], %[[S]])
// CSE-NEXT: ttg.warp_return
// CSE-NEXT: }
// CSE-NEXT: partition1(%[[X1:.*]]: i32) num_warps(4) {
// CSE-NEXT: %[[E1:.*]] = arith.constant 1 : i32
// CSE-NEXT: "use"(%[[E1]])
// CSE-NEXT: ttg.warp_return
// CSE-NEXT: } : (i32) -> (i32, i32)
tt.func @cse(%a: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %r:2 = ttg.warp_specialize(%a)
  default {
    %d1 = arith.constant 1 : i32
    ttg.warp_yield %c1, %d1 : i32, i32
  }
  partition0(%x: i32) num_warps(4) {
    %d1 = arith.constant 1 : i32
    %s = arith.addi %x, %d1 : i32
    %t = arith.addi %x, %d1 : i32
    "use"(%s, %t) : (i32, i32) -> ()
    ttg.warp_return
  }
  partition1(%x: i32) num_warps(4) {
    %e1 = arith.constant 1 : i32
    "use"(%e1) : (i32) -> ()
    ttg.warp_return
  } : (i32) -> (i32, i32)
  tt.return %r#0, %r#1 : i32, i32
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// INLINE-LABEL: tt.func public @inline_in_partition
// INLINE: partition0(%[[B:.*]]: !ttg.memdesc<1xi32, #shared, #smem, mutable>) num_warps(4) {
// INLINE-NEXT: %[[C:.*]] = arith.constant dense<1> : tensor<1xi32>
// INLINE-NEXT: ttg.local_store %[[C]], %[[B]]
// INLINE-NEXT: ttg.warp_return
tt.func public @inline_in_partition(%buf: !ttg.memdesc<1xi32, #shared, #smem, mutable>) {
  ttg.warp_specialize(%buf)
  default {
    ttg.warp_yield
  }
  partition0(%b: !ttg.memdesc<1xi32, #shared, #smem, mutable>) num_warps(4) {
    tt.call @store_one(%b) : (!ttg.memdesc<1xi32, #shared, #smem, mutable>) -> ()
    ttg.warp_return
  } : (!ttg.memdesc<1xi32, #shared, #smem, mutable>) -> ()
  tt.return
}

tt.func private @store_one(%b: !ttg.memdesc<1xi32, #shared, #smem, mutable>) {
  %c = arith.constant dense<1> : tensor<1xi32>
  ttg.local_store %c, %b : tensor<1xi32> -> !ttg.memdesc<1xi32, #shared, #smem, mutable>
  tt.return
}
