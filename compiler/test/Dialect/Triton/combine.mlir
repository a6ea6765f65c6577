// triton-combine's rewrites, each with the cases that must stay as they are.
// RUN: tgpu-opt %s -split-input-file -triton-combine | FileCheck %s

// A zero accumulator and a following add become one dot, whichever side of
// the add the dot is on, for floats and integers.
// CHECK-LABEL: tt.func @dot_add
// CHECK-SAME: (%[[A:.*]]: tensor<16x16xf32>, %[[B:.*]]: tensor<16x16xf32>, %[[D:.*]]: tensor<16x16xf32>, %[[I:.*]]: tensor<16x16xi8>, %[[E:.*]]: tensor<16x16xi32>)
// CHECK-NEXT: %[[R0:.*]] = tt.dot %[[A]], %[[B]], %[[D]] : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
// CHECK-NEXT: %[[R1:.*]] = tt.dot %[[B]], %[[A]], %[[D]] : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
// CHECK-NEXT: %[[R2:.*]] = tt.dot %[[I]], %[[I]], %[[E]] : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
// CHECK-NEXT: tt.return %[[R0]], %[[R1]], %[[R2]]
tt.func @dot_add(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %d: tensor<16x16xf32>, %i: tensor<16x16xi8>, %e: tensor<16x16xi32>) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xi32>) {
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %izero = arith.constant dense<0> : tensor<16x16xi32>
  %0 = tt.dot %a, %b, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %1 = arith.addf %0, %d : tensor<16x16xf32>
  %2 = tt.dot %b, %a, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %3 = arith.addf %d, %2 : tensor<16x16xf32>
  %4 = tt.dot %i, %i, %izero : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
  %5 = arith.addi %e, %4 : tensor<16x16xi32>
  tt.return %1, %3, %5 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xi32>
}

// -----

// The dot stays when it has another user, a non-zero accumulator, may
// accumulate imprecisely (float add only), or lives outside the add's block.
// CHECK-LABEL: tt.func @dot_add_kept
// CHECK-DAG: %[[C:.*]] = arith.constant dense<1.000000e+00>
// CHECK-COUNT-2: arith.addf
// CHECK: tt.dot %{{.*}}, %{{.*}}, %[[C]]
// CHECK: arith.addf
// CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} {maxNumImpreciseAcc = 4 : i32}
// CHECK: arith.addf
// CHECK: %[[OUT:.*]] = tt.dot
// CHECK: scf.for
// CHECK: arith.addf %[[OUT]]
tt.func @dot_add_kept(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %d: tensor<16x16xf32>, %n: i32) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) {
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %0 = tt.dot %a, %b, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %1 = arith.addf %0, %d : tensor<16x16xf32>
  %2 = arith.addf %0, %a : tensor<16x16xf32>
  %one = arith.constant dense<1.0> : tensor<16x16xf32>
  %3 = tt.dot %a, %b, %one : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %4 = arith.addf %3, %d : tensor<16x16xf32>
  %5 = tt.dot %a, %b, %zero {maxNumImpreciseAcc = 4 : i32} : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %6 = arith.addf %5, %d : tensor<16x16xf32>
  %7 = tt.dot %a, %b, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %8 = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %d) -> (tensor<16x16xf32>) : i32 {
    %s = arith.addf %7, %acc : tensor<16x16xf32>
    scf.yield %s : tensor<16x16xf32>
  }
  tt.return %1, %2, %4, %6, %8 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// Constant offsets whose sum fits are added first (the constants then fold);
// only the axis-info hints of the outer addptr stay on the result.
// CHECK-LABEL: tt.func @addptr_constants
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f32>)
// CHECK-DAG: %[[C:.*]] = arith.constant 7 : i32
// CHECK-DAG: %[[V:.*]] = arith.constant dense<-3> : tensor<4xi8>
// CHECK: %[[R0:.*]] = tt.addptr %[[P]], %[[C]] {tt.constancy = 1 : i32, tt.divisibility = 4 : i32} : !tt.ptr<f32>, i32
// CHECK: %[[S:.*]] = tt.splat %[[P]] : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
// CHECK: %[[R1:.*]] = tt.addptr %[[S]], %[[V]] : tensor<4x!tt.ptr<f32>>, tensor<4xi8>
// CHECK: tt.return %[[R0]], %[[R1]]
tt.func @addptr_constants(%p: !tt.ptr<f32>) -> (!tt.ptr<f32>, tensor<4x!tt.ptr<f32>>) {
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %0 = tt.addptr %p, %c3 {tt.divisibility = 2 : i32} : !tt.ptr<f32>, i32
  %1 = tt.addptr %0, %c4 {tt.divisibility = 4 : i32, tt.constancy = 1 : i32, other.hint = 5 : i32} : !tt.ptr<f32>, i32
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  %m100 = arith.constant -100 : i8
  %s = tt.splat %m100 : i8 -> tensor<4xi8>
  %v97 = arith.constant dense<97> : tensor<4xi8>
  %2 = tt.addptr %ps, %s : tensor<4x!tt.ptr<f32>>, tensor<4xi8>
  %3 = tt.addptr %2, %v97 : tensor<4x!tt.ptr<f32>>, tensor<4xi8>
  tt.return %1, %3 : !tt.ptr<f32>, tensor<4x!tt.ptr<f32>>
}

// -----

// 64-bit offsets combine whatever they are: they wrap as the pointer does.
// CHECK-LABEL: tt.func @addptr_i64
// CHECK-SAME: (%[[P:.*]]: tensor<4x!tt.ptr<f16>>, %[[I:.*]]: tensor<4xi64>, %[[J:.*]]: tensor<4xi64>)
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[I]], %[[J]] : tensor<4xi64>
// CHECK-NEXT: %[[R:.*]] = tt.addptr %[[P]], %[[S]] : tensor<4x!tt.ptr<f16>>, tensor<4xi64>
// CHECK-NEXT: tt.return %[[R]]
tt.func @addptr_i64(%p: tensor<4x!tt.ptr<f16>>, %i: tensor<4xi64>, %j: tensor<4xi64>) -> tensor<4x!tt.ptr<f16>> {
  %0 = tt.addptr %p, %i : tensor<4x!tt.ptr<f16>>, tensor<4xi64>
  %1 = tt.addptr %0, %j : tensor<4x!tt.ptr<f16>>, tensor<4xi64>
  tt.return %1 : tensor<4x!tt.ptr<f16>>
}

// -----

// Narrow offsets stay apart when one is not a constant, when the sum of
// constants overflows, or when the offset types differ.
// CHECK-LABEL: tt.func @addptr_kept
// CHECK-NOT: arith.addi
// CHECK-COUNT-6: tt.addptr
// CHECK-NOT: arith.addi
tt.func @addptr_kept(%p: !tt.ptr<f32>, %i: i32) -> (!tt.ptr<f32>, !tt.ptr<f32>, !tt.ptr<f32>) {
  %c1 = arith.constant 1 : i32
  %0 = tt.addptr %p, %i : !tt.ptr<f32>, i32
  %1 = tt.addptr %0, %c1 : !tt.ptr<f32>, i32
  %c127 = arith.constant 127 : i8
  %c1_i8 = arith.constant 1 : i8
  %2 = tt.addptr %p, %c127 : !tt.ptr<f32>, i8
  %3 = tt.addptr %2, %c1_i8 : !tt.ptr<f32>, i8
  %c2_i16 = arith.constant 2 : i16
  %4 = tt.addptr %p, %c2_i16 : !tt.ptr<f32>, i16
  %5 = tt.addptr %4, %c1 : !tt.ptr<f32>, i32
  tt.return %1, %3, %5 : !tt.ptr<f32>, !tt.ptr<f32>, !tt.ptr<f32>
}

// -----

// A select on the load's own mask condition becomes the load's `other`.
// CHECK-LABEL: tt.func @select_of_masked_load
// CHECK-SAME: (%[[P:.*]]: tensor<8x!tt.ptr<f32>>, %[[C:.*]]: i1, %[[Y:.*]]: tensor<8xf32>)
// CHECK-NEXT: %[[M:.*]] = tt.splat %[[C]] : i1 -> tensor<8xi1>
// CHECK-NEXT: %[[L:.*]] = tt.load %[[P]], %[[M]], %[[Y]] evictionPolicy = evict_last : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: tt.return %[[L]]
tt.func @select_of_masked_load(%p: tensor<8x!tt.ptr<f32>>, %c: i1, %y: tensor<8xf32>) -> tensor<8xf32> {
  %m = tt.splat %c : i1 -> tensor<8xi1>
  %x = tt.load %p, %m evictionPolicy = evict_last : tensor<8x!tt.ptr<f32>>
  %r = arith.select %c, %x, %y : tensor<8xf32>
  tt.return %r : tensor<8xf32>
}

// -----

// Not when the select's condition is another one, the mask is not a splat,
// or the load is the false value.
// CHECK-LABEL: tt.func @select_of_masked_load_kept
// CHECK-COUNT-3: arith.select
tt.func @select_of_masked_load_kept(%p: tensor<8x!tt.ptr<f32>>, %c: i1, %d: i1, %mask: tensor<8xi1>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %m = tt.splat %c : i1 -> tensor<8xi1>
  %x = tt.load %p, %m : tensor<8x!tt.ptr<f32>>
  %0 = arith.select %d, %x, %y : tensor<8xf32>
  %x2 = tt.load %p, %mask : tensor<8x!tt.ptr<f32>>
  %1 = arith.select %c, %x2, %y : tensor<8xf32>
  %2 = arith.select %c, %y, %x : tensor<8xf32>
  tt.return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// sum_k x[m, k] * y[k, n] written with broadcasts is a dot.
// CHECK-LABEL: tt.func @broadcast_mul_reduce
// CHECK-SAME: (%[[X:.*]]: tensor<16x32xf32>, %[[Y:.*]]: tensor<32x64xf32>)
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<16x64xf32>
// CHECK: %[[D:.*]] = tt.dot %[[X]], %[[Y]], %[[Z]], inputPrecision = tf32 : tensor<16x32xf32> * tensor<32x64xf32> -> tensor<16x64xf32>
// CHECK: tt.return %[[D]]
tt.func @broadcast_mul_reduce(%x: tensor<16x32xf32>, %y: tensor<32x64xf32>) -> tensor<16x64xf32> {
  %xe = tt.expand_dims %x {axis = 2 : i32} : tensor<16x32xf32> -> tensor<16x32x1xf32>
  %xb = tt.broadcast %xe : tensor<16x32x1xf32> -> tensor<16x32x64xf32>
  %ye = tt.expand_dims %y {axis = 0 : i32} : tensor<32x64xf32> -> tensor<1x32x64xf32>
  %yb = tt.broadcast %ye : tensor<1x32x64xf32> -> tensor<16x32x64xf32>
  %p = arith.mulf %xb, %yb : tensor<16x32x64xf32>
  %s = "tt.reduce"(%p) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<16x32x64xf32>) -> tensor<16x64xf32>
  tt.return %s : tensor<16x64xf32>
}

// -----

// Not for a K below 16, nor for a combine that is not a sum of its arguments.
// CHECK-LABEL: tt.func @broadcast_mul_reduce_kept
// CHECK-NOT: tt.dot
// CHECK-COUNT-2: tt.reduce.return
// CHECK-NOT: tt.dot
tt.func @broadcast_mul_reduce_kept(%x: tensor<16x8xf32>, %y: tensor<8x16xf32>, %x2: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %xe = tt.expand_dims %x {axis = 2 : i32} : tensor<16x8xf32> -> tensor<16x8x1xf32>
  %xb = tt.broadcast %xe : tensor<16x8x1xf32> -> tensor<16x8x16xf32>
  %ye = tt.expand_dims %y {axis = 0 : i32} : tensor<8x16xf32> -> tensor<1x8x16xf32>
  %yb = tt.broadcast %ye : tensor<1x8x16xf32> -> tensor<16x8x16xf32>
  %p = arith.mulf %xb, %yb : tensor<16x8x16xf32>
  %s = "tt.reduce"(%p) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<16x8x16xf32>) -> tensor<16x16xf32>
  %x2e = tt.expand_dims %x2 {axis = 2 : i32} : tensor<16x16xf32> -> tensor<16x16x1xf32>
  %x2b = tt.broadcast %x2e : tensor<16x16x1xf32> -> tensor<16x16x16xf32>
  %y2e = tt.expand_dims %x2 {axis = 0 : i32} : tensor<16x16xf32> -> tensor<1x16x16xf32>
  %y2b = tt.broadcast %y2e : tensor<1x16x16xf32> -> tensor<16x16x16xf32>
  %p2 = arith.mulf %x2b, %y2b : tensor<16x16x16xf32>
  %s2 = "tt.reduce"(%p2) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %a : f32
    tt.reduce.return %t : f32
  }) : (tensor<16x16x16xf32>) -> tensor<16x16xf32>
  tt.return %s, %s2 : tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// Flattening for a reduction or an unmasked histogram may reorder.
// CHECK-LABEL: tt.func @reshape_for_reduce
// CHECK: tt.reshape %{{.*}} allow_reorder : tensor<4x8xi32> -> tensor<32xi32>
tt.func @reshape_for_reduce(%t: tensor<4x8xi32>) -> (i32, tensor<8xi32>) {
  %r = tt.reshape %t : tensor<4x8xi32> -> tensor<32xi32>
  %s = "tt.reduce"(%r) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %m = arith.maxsi %a, %b : i32
    tt.reduce.return %m : i32
  }) : (tensor<32xi32>) -> i32
  %h = tt.histogram %r : tensor<32xi32> -> tensor<8xi32>
  tt.return %s, %h : i32, tensor<8xi32>
}

// -----

// Not when another user needs the order: a store, a reduction pairing two
// operands, a masked histogram.
// CHECK-LABEL: tt.func @reshape_keeps_order
// CHECK-NOT: allow_reorder
tt.func @reshape_keeps_order(%t: tensor<4x8xi32>, %p: tensor<32x!tt.ptr<i32>>, %mask: tensor<32xi1>) -> (i32, i32, tensor<8xi32>) {
  %r0 = tt.reshape %t : tensor<4x8xi32> -> tensor<32xi32>
  tt.store %p, %r0 : tensor<32x!tt.ptr<i32>>
  %r1 = tt.reshape %t : tensor<4x8xi32> -> tensor<32xi32>
  %r2 = tt.reshape %t : tensor<4x8xi32> -> tensor<32xi32>
  %s:2 = "tt.reduce"(%r1, %r2) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %ai: i32, %b: i32, %bi: i32):
    %m = arith.maxsi %a, %b : i32
    %mi = arith.minsi %ai, %bi : i32
    tt.reduce.return %m, %mi : i32, i32
  }) : (tensor<32xi32>, tensor<32xi32>) -> (i32, i32)
  %r3 = tt.reshape %t : tensor<4x8xi32> -> tensor<32xi32>
  %h = tt.histogram %r3, %mask : tensor<32xi32> -> tensor<8xi32>
  tt.return %s#0, %s#1, %h : i32, i32, tensor<8xi32>
}

// -----

// Dropping leading unit dims of a descriptor load is the load's own job.
// CHECK-LABEL: tt.func @rank_reducing_descriptor_load
// CHECK: %[[L:.*]] = tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : !tt.tensordesc<tensor<1x16x32xf16>> -> tensor<16x32xf16>
// CHECK-NEXT: tt.return %[[L]]
tt.func @rank_reducing_descriptor_load(%d: !tt.tensordesc<tensor<1x16x32xf16>>, %i: i32) -> tensor<16x32xf16> {
  %l = tt.descriptor_load %d[%i, %i, %i] : !tt.tensordesc<tensor<1x16x32xf16>> -> tensor<1x16x32xf16>
  %r = tt.reshape %l : tensor<1x16x32xf16> -> tensor<16x32xf16>
  tt.return %r : tensor<16x32xf16>
}

// -----

// Not when the reshape merges dims, or the load has another user.
// CHECK-LABEL: tt.func @descriptor_load_kept
// CHECK: tt.descriptor_load {{.*}} -> tensor<2x16xf16>
// CHECK: tt.reshape
// CHECK: tt.descriptor_load {{.*}} -> tensor<1x16xf16>
// CHECK: tt.reshape
tt.func @descriptor_load_kept(%d: !tt.tensordesc<tensor<2x16xf16>>, %e: !tt.tensordesc<tensor<1x16xf16>>, %i: i32) -> (tensor<32xf16>, tensor<16xf16>, tensor<1x16xf16>) {
  %l = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<2x16xf16>> -> tensor<2x16xf16>
  %r = tt.reshape %l : tensor<2x16xf16> -> tensor<32xf16>
  %l2 = tt.descriptor_load %e[%i, %i] : !tt.tensordesc<tensor<1x16xf16>> -> tensor<1x16xf16>
  %r2 = tt.reshape %l2 : tensor<1x16xf16> -> tensor<16xf16>
  tt.return %r, %r2, %l2 : tensor<32xf16>, tensor<16xf16>, tensor<1x16xf16>
}
