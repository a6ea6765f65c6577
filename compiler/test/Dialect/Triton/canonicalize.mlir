// The folds and canonicalization patterns of tt ops: views and offsets that
// change nothing disappear, constants pass through views (as arith.constant
// splats), constant masks go, and chains of views become one view.
// RUN: tgpu-opt %s -split-input-file -canonicalize | FileCheck %s

// CHECK-LABEL: tt.func @one_element_range
// CHECK-DAG: %[[C:.*]] = arith.constant dense<7> : tensor<1xi32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<7> : tensor<16x1xi32>
// CHECK: tt.return %[[C]], %[[B]]
tt.func @one_element_range() -> (tensor<1xi32>, tensor<16x1xi32>) {
  %r = tt.make_range {end = 8 : i32, start = 7 : i32} : tensor<1xi32>
  %e = tt.expand_dims %r {axis = 1 : i32} : tensor<1xi32> -> tensor<1x1xi32>
  %b = tt.broadcast %e : tensor<1x1xi32> -> tensor<16x1xi32>
  tt.return %r, %b : tensor<1xi32>, tensor<16x1xi32>
}

// -----

// A longer range stays.
// CHECK-LABEL: tt.func @range
// CHECK: tt.make_range
tt.func @range() -> tensor<2xi32> {
  %r = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
  tt.return %r : tensor<2xi32>
}

// -----

// CHECK-LABEL: tt.func @zero_offsets
// CHECK-SAME: (%[[P:.*]]: tensor<8x!tt.ptr<f32>>, %[[S:.*]]: !tt.ptr<f32>, %[[B:.*]]: !tt.ptr<tensor<4x4xf32>>)
// CHECK-NOT: tt.addptr
// CHECK-NOT: tt.advance
// CHECK: tt.return %[[P]], %[[S]], %[[B]]
tt.func @zero_offsets(%p: tensor<8x!tt.ptr<f32>>, %s: !tt.ptr<f32>, %b: !tt.ptr<tensor<4x4xf32>>) -> (tensor<8x!tt.ptr<f32>>, !tt.ptr<f32>, !tt.ptr<tensor<4x4xf32>>) {
  %zeros = arith.constant dense<0> : tensor<8xi32>
  %zero = arith.constant 0 : i32
  %0 = tt.addptr %p, %zeros : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %1 = tt.addptr %s, %zero : !tt.ptr<f32>, i32
  %2 = tt.advance %b, [%zero, %zero] : <tensor<4x4xf32>>
  tt.return %0, %1, %2 : tensor<8x!tt.ptr<f32>>, !tt.ptr<f32>, !tt.ptr<tensor<4x4xf32>>
}

// -----

// A non-zero offset stays.
// CHECK-LABEL: tt.func @offset
// CHECK: tt.addptr
tt.func @offset(%s: !tt.ptr<f32>) -> !tt.ptr<f32> {
  %one = arith.constant 1 : i32
  %0 = tt.addptr %s, %one : !tt.ptr<f32>, i32
  tt.return %0 : !tt.ptr<f32>
}

// -----

// CHECK-LABEL: tt.func @constant_views
// CHECK-DAG: %[[S:.*]] = arith.constant dense<2.500000e+00> : tensor<4x8xf32>
// CHECK-DAG: %[[T:.*]] = arith.constant dense<1.000000e+00> : tensor<8x4xf32>
// CHECK-DAG: %[[R:.*]] = arith.constant dense<1.000000e+00> : tensor<32xf32>
// CHECK: tt.return %[[S]], %[[T]], %[[R]]
tt.func @constant_views() -> (tensor<4x8xf32>, tensor<8x4xf32>, tensor<32xf32>) {
  %x = arith.constant 2.5 : f32
  %s = tt.splat %x : f32 -> tensor<4x8xf32>
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  %t = tt.trans %c {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %r = tt.reshape %c : tensor<4x8xf32> -> tensor<32xf32>
  tt.return %s, %t, %r : tensor<4x8xf32>, tensor<8x4xf32>, tensor<32xf32>
}

// -----

// Zeros of either sign convert to the same zero; f8E4M3FNUZ has no -0.
// CHECK-LABEL: tt.func @fp_to_fp_zeros
// CHECK-DAG: arith.constant dense<-0.000000e+00> : tensor<4xf8E4M3FN>
// CHECK-DAG: arith.constant dense<0.000000e+00> : tensor<4xf8E4M3FNUZ>
// CHECK-DAG: arith.constant 0.000000e+00 : bf16
// CHECK-NOT: tt.fp_to_fp
tt.func @fp_to_fp_zeros() -> (tensor<4xf8E4M3FN>, tensor<4xf8E4M3FNUZ>, bf16) {
  %nz = arith.constant dense<-0.0> : tensor<4xf32>
  %z = arith.constant 0.0 : f32
  %0 = tt.fp_to_fp %nz, rounding = rtne : tensor<4xf32> -> tensor<4xf8E4M3FN>
  %1 = tt.fp_to_fp %nz, rounding = rtne : tensor<4xf32> -> tensor<4xf8E4M3FNUZ>
  %2 = tt.fp_to_fp %z, rounding = rtne : f32 -> bf16
  tt.return %0, %1, %2 : tensor<4xf8E4M3FN>, tensor<4xf8E4M3FNUZ>, bf16
}

// -----

// A non-zero constant is not folded (rounding to the narrow type is the
// lowering's business).
// CHECK-LABEL: tt.func @fp_to_fp_one
// CHECK: tt.fp_to_fp
tt.func @fp_to_fp_one() -> f16 {
  %one = arith.constant 1.0 : f32
  %0 = tt.fp_to_fp %one, rounding = rtne : f32 -> f16
  tt.return %0 : f16
}

// -----

// A reshape to its own type goes, unless it may reorder (as in Triton).
// CHECK-LABEL: tt.func @same_type_reshape
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<32xf32>)
// CHECK-NEXT: %[[R:.*]] = tt.reshape %[[X]] allow_reorder : tensor<32xf32> -> tensor<32xf32>
// CHECK-NEXT: tt.return %[[X]], %[[R]]
tt.func @same_type_reshape(%x: tensor<32xf32>) -> (tensor<32xf32>, tensor<32xf32>) {
  %a = tt.reshape %x : tensor<32xf32> -> tensor<32xf32>
  %b = tt.reshape %x allow_reorder : tensor<32xf32> -> tensor<32xf32>
  tt.return %a, %b : tensor<32xf32>, tensor<32xf32>
}

// -----

// An all-true mask goes (with the `other`); under an all-false mask a load
// is its `other`, and a store disappears.
// CHECK-LABEL: tt.func @constant_masks
// CHECK-SAME: (%[[P:.*]]: tensor<8x!tt.ptr<f32>>, %[[S:.*]]: !tt.ptr<f32>, %[[V:.*]]: tensor<8xf32>)
// CHECK-NEXT: %[[L0:.*]] = tt.load %[[P]] cacheModifier = ca : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: %[[L1:.*]] = tt.load %[[S]] : !tt.ptr<f32>
// CHECK-NEXT: tt.store %[[P]], %[[V]] evictionPolicy = evict_first : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: tt.return %[[L0]], %[[V]], %[[L1]]
tt.func @constant_masks(%p: tensor<8x!tt.ptr<f32>>, %s: !tt.ptr<f32>, %v: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, f32) {
  %t = arith.constant dense<true> : tensor<8xi1>
  %f = arith.constant dense<false> : tensor<8xi1>
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %0 = tt.load %p, %t, %v cacheModifier = ca : tensor<8x!tt.ptr<f32>>
  %1 = tt.load %p, %f, %v : tensor<8x!tt.ptr<f32>>
  %2 = tt.load %s, %true, %zero : !tt.ptr<f32>
  tt.store %p, %v, %t evictionPolicy = evict_first : tensor<8x!tt.ptr<f32>>
  tt.store %p, %v, %f : tensor<8x!tt.ptr<f32>>
  tt.return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, f32
}

// -----

// Masks that are not constant stay; an all-false load without an `other`
// (undefined contents) stays too.
// CHECK-LABEL: tt.func @masks_kept
// CHECK: tt.load %{{.*}}, %{{.*}} :
// CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} :
tt.func @masks_kept(%p: tensor<8x!tt.ptr<f32>>, %m: tensor<8xi1>, %v: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %f = arith.constant dense<false> : tensor<8xi1>
  %0 = tt.load %p, %f : tensor<8x!tt.ptr<f32>>
  %1 = tt.load %p, %m, %v : tensor<8x!tt.ptr<f32>>
  tt.store %p, %v, %m : tensor<8x!tt.ptr<f32>>
  tt.return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Views of a splat are splats; two broadcasts are one.
// CHECK-LABEL: tt.func @views_of_splats
// CHECK-SAME: (%[[X:.*]]: f32, %[[T:.*]]: tensor<1x1x4xf32>)
// CHECK-DAG: %[[E:.*]] = tt.splat %[[X]] : f32 -> tensor<8x1xf32>
// CHECK-DAG: %[[R:.*]] = tt.splat %[[X]] : f32 -> tensor<2x4xf32>
// CHECK-DAG: %[[B:.*]] = tt.splat %[[X]] : f32 -> tensor<8x8xf32>
// CHECK-DAG: %[[BB:.*]] = tt.broadcast %[[T]] : tensor<1x1x4xf32> -> tensor<4x2x4xf32>
// CHECK: tt.return %[[E]], %[[R]], %[[B]], %[[BB]]
tt.func @views_of_splats(%x: f32, %t: tensor<1x1x4xf32>) -> (tensor<8x1xf32>, tensor<2x4xf32>, tensor<8x8xf32>, tensor<4x2x4xf32>) {
  %s = tt.splat %x : f32 -> tensor<8xf32>
  %e = tt.expand_dims %s {axis = 1 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  %r = tt.reshape %s : tensor<8xf32> -> tensor<2x4xf32>
  %s1 = tt.splat %x : f32 -> tensor<1x8xf32>
  %b = tt.broadcast %s1 : tensor<1x8xf32> -> tensor<8x8xf32>
  %b0 = tt.broadcast %t : tensor<1x1x4xf32> -> tensor<1x2x4xf32>
  %b1 = tt.broadcast %b0 : tensor<1x2x4xf32> -> tensor<4x2x4xf32>
  tt.return %e, %r, %b, %b1 : tensor<8x1xf32>, tensor<2x4xf32>, tensor<8x8xf32>, tensor<4x2x4xf32>
}

// -----

// expand_dims moves before a broadcast, where two broadcasts then merge.
// CHECK-LABEL: tt.func @expand_dims_of_broadcast
// CHECK-SAME: (%[[T:.*]]: tensor<1xf32>)
// CHECK-NEXT: %[[E:.*]] = tt.expand_dims %[[T]] {axis = 0 : i32} : tensor<1xf32> -> tensor<1x1xf32>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[E]] : tensor<1x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: tt.return %[[B]]
tt.func @expand_dims_of_broadcast(%t: tensor<1xf32>) -> tensor<4x8xf32> {
  %b = tt.broadcast %t : tensor<1xf32> -> tensor<8xf32>
  %e = tt.expand_dims %b {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  %b2 = tt.broadcast %e : tensor<1x8xf32> -> tensor<4x8xf32>
  tt.return %b2 : tensor<4x8xf32>
}

// -----

// With layouts, the new expand_dims takes the old one's result layout.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#slice = #ttg.slice<{dim = 1, parent = #blocked}>
// CHECK: #[[BL:.*]] = #ttg.blocked
// CHECK-LABEL: tt.func @expand_dims_of_broadcast_layouts
// CHECK-NEXT: %[[E:.*]] = tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<1xf32, #ttg.slice<{dim = 1, parent = #[[BL]]}>> -> tensor<1x1xf32, #[[BL]]>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[E]] : tensor<1x1xf32, #[[BL]]> -> tensor<64x1xf32, #[[BL]]>
// CHECK-NEXT: tt.return %[[B]]
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @expand_dims_of_broadcast_layouts(%t: tensor<1xf32, #slice>) -> tensor<64x1xf32, #blocked> {
  %b = tt.broadcast %t : tensor<1xf32, #slice> -> tensor<64xf32, #slice>
  %e = tt.expand_dims %b {axis = 1 : i32} : tensor<64xf32, #slice> -> tensor<64x1xf32, #blocked>
  tt.return %e : tensor<64x1xf32, #blocked>
}
}

// -----

// Two reshapes are one, reordering if either may; an efficient_layout
// reshape stays.
// CHECK-LABEL: tt.func @reshape_chains
// CHECK-SAME: (%[[T:.*]]: tensor<8xf32>)
// CHECK-NEXT: %[[A:.*]] = tt.reshape %[[T]] : tensor<8xf32> -> tensor<2x4xf32>
// CHECK-NEXT: %[[R0:.*]] = tt.reshape %[[T]] : tensor<8xf32> -> tensor<4x2xf32>
// CHECK-NEXT: %[[R1:.*]] = tt.reshape %[[T]] allow_reorder : tensor<8xf32> -> tensor<2x2x2xf32>
// CHECK-NEXT: %[[R2:.*]] = tt.reshape %[[A]] efficient_layout : tensor<2x4xf32> -> tensor<8xf32>
// CHECK-NEXT: tt.return %[[R0]], %[[R1]], %[[R2]]
tt.func @reshape_chains(%t: tensor<8xf32>) -> (tensor<4x2xf32>, tensor<2x2x2xf32>, tensor<8xf32>) {
  %a = tt.reshape %t : tensor<8xf32> -> tensor<2x4xf32>
  %b = tt.reshape %a : tensor<2x4xf32> -> tensor<4x2xf32>
  %c = tt.reshape %t allow_reorder : tensor<8xf32> -> tensor<2x4xf32>
  %d = tt.reshape %c : tensor<2x4xf32> -> tensor<2x2x2xf32>
  %e = tt.reshape %a efficient_layout : tensor<2x4xf32> -> tensor<8xf32>
  tt.return %b, %d, %e : tensor<4x2xf32>, tensor<2x2x2xf32>, tensor<8xf32>
}

// -----

// An identity trans goes; two transposes compose (result dim i is source
// dim inner[outer[i]]).
// CHECK-LABEL: tt.func @trans_chains
// CHECK-SAME: (%[[T:.*]]: tensor<2x4x8xf32>, %[[U:.*]]: tensor<2x4xf32>)
// CHECK-NEXT: %[[R:.*]] = tt.trans %[[T]] {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
// CHECK-NEXT: tt.return %[[R]], %[[U]], %[[U]]
tt.func @trans_chains(%t: tensor<2x4x8xf32>, %u: tensor<2x4xf32>) -> (tensor<8x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %a = tt.trans %t {order = array<i32: 1, 0, 2>} : tensor<2x4x8xf32> -> tensor<4x2x8xf32>
  %b = tt.trans %a {order = array<i32: 2, 1, 0>} : tensor<4x2x8xf32> -> tensor<8x2x4xf32>
  %c = tt.trans %u {order = array<i32: 0, 1>} : tensor<2x4xf32> -> tensor<2x4xf32>
  %d = tt.trans %u {order = array<i32: 1, 0>} : tensor<2x4xf32> -> tensor<4x2xf32>
  %e = tt.trans %d {order = array<i32: 1, 0>} : tensor<4x2xf32> -> tensor<2x4xf32>
  tt.return %b, %c, %e : tensor<8x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// With layouts too: transposing a layout permutes its dims, so two
// transposes back to the source's type are no op at all.
#bl = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blT = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @trans_chain_layouts
// CHECK-SAME: (%[[X:.*]]: tensor<16x32xf32, #{{.*}}>)
// CHECK-NEXT: tt.return %[[X]]
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @trans_chain_layouts(%x: tensor<16x32xf32, #bl>) -> tensor<16x32xf32, #bl> {
  %a = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32, #bl> -> tensor<32x16xf32, #blT>
  %b = tt.trans %a {order = array<i32: 1, 0>} : tensor<32x16xf32, #blT> -> tensor<16x32xf32, #bl>
  tt.return %b : tensor<16x32xf32, #bl>
}
}
