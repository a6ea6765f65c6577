// triton-rewrite-tensor-pointer: loads and stores through block pointers
// become loads and stores through tensors of pointers
// base + sum_i (offset_i + index_i) * stride_i, with masks for the checked
// dims; only the i64 offsets travel through loops and ifs.
// RUN: tgpu-opt %s -split-input-file -triton-rewrite-tensor-pointer | FileCheck %s

// Without a boundary check there is no mask, and so no padding value.
// CHECK-LABEL: tt.func @load_1d
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f32>, %[[N:.*]]: i64, %[[S:.*]]: i64, %[[O:.*]]: i32)
// CHECK-NEXT: %[[O64:.*]] = arith.extsi %[[O]] : i32 to i64
// CHECK-NEXT: %[[BASE:.*]] = tt.splat %[[P]] : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: %[[START:.*]] = tt.splat %[[O64]] : i64 -> tensor<8xi64>
// CHECK-NEXT: %[[RANGE:.*]] = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
// CHECK-NEXT: %[[WIDE:.*]] = arith.extsi %[[RANGE]] : tensor<8xi32> to tensor<8xi64>
// CHECK-NEXT: %[[IDX:.*]] = arith.addi %[[START]], %[[WIDE]] : tensor<8xi64>
// CHECK-NEXT: %[[STRIDE:.*]] = tt.splat %[[S]] : i64 -> tensor<8xi64>
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[IDX]], %[[STRIDE]] : tensor<8xi64>
// CHECK-NEXT: %[[PTRS:.*]] = tt.addptr %[[BASE]], %[[OFF]] : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
// CHECK-NEXT: %[[L:.*]] = tt.load %[[PTRS]] cacheModifier = ca : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: tt.return %[[L]]
tt.func @load_1d(%p: !tt.ptr<f32>, %n: i64, %s: i64, %o: i32) -> tensor<8xf32> {
  %b = tt.make_tensor_ptr %p, [%n], [%s], [%o] {order = array<i32: 0>} : !tt.ptr<tensor<8xf32>>
  %x = tt.load %b cacheModifier = ca {padding = 1 : i32} : !tt.ptr<tensor<8xf32>>
  tt.return %x : tensor<8xf32>
}

// -----

// A 3-D store checked along dims 0 and 2: each dim's indices are expanded
// to rank 3 (dim 1: axis 0, then axis 2), and the mask is the and of
// 0 <= index < shape over the checked dims, broadcast to the tile.
// CHECK-LABEL: tt.func @store_3d
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f16>, %[[V:.*]]: tensor<2x4x8xf16>, %[[D0:.*]]: i64, %[[D1:.*]]: i64, %[[D2:.*]]: i64, %[[O:.*]]: i32)
// CHECK: tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<2xi64> -> tensor<2x1xi64>
// CHECK-NEXT: %[[I0:.*]] = tt.expand_dims %{{.*}} {axis = 2 : i32} : tensor<2x1xi64> -> tensor<2x1x1xi64>
// CHECK: tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<4xi64> -> tensor<1x4xi64>
// CHECK-NEXT: tt.expand_dims %{{.*}} {axis = 2 : i32} : tensor<1x4xi64> -> tensor<1x4x1xi64>
// CHECK: tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<8xi64> -> tensor<1x8xi64>
// CHECK-NEXT: %[[I2:.*]] = tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<1x8xi64> -> tensor<1x1x8xi64>
// CHECK: %[[PTRS:.*]] = tt.addptr %{{.*}}, %{{.*}} : tensor<2x4x8x!tt.ptr<f16>>, tensor<2x4x8xi64>
// CHECK-NEXT: %[[Z0:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[ZS0:.*]] = tt.splat %[[Z0]] : i64 -> tensor<2x1x1xi64>
// CHECK-NEXT: %[[GE0:.*]] = arith.cmpi sge, %[[I0]], %[[ZS0]] : tensor<2x1x1xi64>
// CHECK-NEXT: %[[UB0:.*]] = tt.splat %[[D0]] : i64 -> tensor<2x1x1xi64>
// CHECK-NEXT: %[[LT0:.*]] = arith.cmpi slt, %[[I0]], %[[UB0]] : tensor<2x1x1xi64>
// CHECK-NEXT: %[[IN0:.*]] = arith.andi %[[GE0]], %[[LT0]] : tensor<2x1x1xi1>
// CHECK-NEXT: %[[M0:.*]] = tt.broadcast %[[IN0]] : tensor<2x1x1xi1> -> tensor<2x4x8xi1>
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[ZS2:.*]] = tt.splat %[[Z2]] : i64 -> tensor<1x1x8xi64>
// CHECK-NEXT: %[[GE2:.*]] = arith.cmpi sge, %[[I2]], %[[ZS2]] : tensor<1x1x8xi64>
// CHECK-NEXT: %[[UB2:.*]] = tt.splat %[[D2]] : i64 -> tensor<1x1x8xi64>
// CHECK-NEXT: %[[LT2:.*]] = arith.cmpi slt, %[[I2]], %[[UB2]] : tensor<1x1x8xi64>
// CHECK-NEXT: %[[IN2:.*]] = arith.andi %[[GE2]], %[[LT2]] : tensor<1x1x8xi1>
// CHECK-NEXT: %[[M2:.*]] = tt.broadcast %[[IN2]] : tensor<1x1x8xi1> -> tensor<2x4x8xi1>
// CHECK-NEXT: %[[M:.*]] = arith.andi %[[M0]], %[[M2]] : tensor<2x4x8xi1>
// CHECK-NEXT: tt.store %[[PTRS]], %[[V]], %[[M]] evictionPolicy = evict_last : tensor<2x4x8x!tt.ptr<f16>>
// CHECK-NEXT: tt.return
tt.func @store_3d(%p: !tt.ptr<f16>, %v: tensor<2x4x8xf16>, %d0: i64, %d1: i64, %d2: i64, %o: i32) {
  %one = arith.constant 1 : i64
  %b = tt.make_tensor_ptr %p, [%d0, %d1, %d2], [%d1, %d2, %one], [%o, %o, %o] {order = array<i32: 2, 1, 0>} : !tt.ptr<tensor<2x4x8xf16>>
  tt.store %b, %v evictionPolicy = evict_last {boundaryCheck = array<i32: 0, 2>} : !tt.ptr<tensor<2x4x8xf16>>
  tt.return
}

// -----

// NaN padding fills what the mask leaves out.
// CHECK-LABEL: tt.func @nan_padding
// CHECK: %[[NAN:.*]] = arith.constant 0x7FC0 : bf16
// CHECK-NEXT: %[[FILL:.*]] = tt.splat %[[NAN]] : bf16 -> tensor<16x4xbf16>
// CHECK-NEXT: tt.load %{{.*}}, %{{.*}}, %[[FILL]] : tensor<16x4x!tt.ptr<bf16>>
tt.func @nan_padding(%p: !tt.ptr<bf16>, %n: i64, %o: i32) -> tensor<16x4xbf16> {
  %one = arith.constant 1 : i64
  %b = tt.make_tensor_ptr %p, [%n, %n], [%n, %one], [%o, %o] {order = array<i32: 1, 0>} : !tt.ptr<tensor<16x4xbf16>>
  %x = tt.load %b {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<16x4xbf16>>
  tt.return %x : tensor<16x4xbf16>
}

// -----

// Through a loop and an if inside it, a block pointer is its two offsets;
// the advance in the taken branch adds to them.
// CHECK-LABEL: tt.func @loop_and_if
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f32>, %[[N:.*]]: i64, %[[K:.*]]: i32, %[[C:.*]]: i1)
// CHECK: %[[O0:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: %[[O1:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: %[[R:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[A0:.*]] = %[[O0]], %[[A1:.*]] = %[[O1]]) -> (tensor<4x4xf32>, i64, i64)
// CHECK: tt.splat %[[A0]] : i64 -> tensor<4xi64>
// CHECK: tt.splat %[[A1]] : i64 -> tensor<4xi64>
// CHECK: %[[X:.*]] = tt.load
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[X]]
// CHECK-NEXT: %[[IF:.*]]:2 = scf.if %[[C]] -> (i64, i64) {
// CHECK-NEXT: %[[D0:.*]] = arith.extsi %[[K]] : i32 to i64
// CHECK-NEXT: %[[N0:.*]] = arith.addi %[[A0]], %[[D0]] : i64
// CHECK-NEXT: %[[D1:.*]] = arith.extsi %[[K]] : i32 to i64
// CHECK-NEXT: %[[N1:.*]] = arith.addi %[[A1]], %[[D1]] : i64
// CHECK-NEXT: scf.yield %[[N0]], %[[N1]] : i64, i64
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[A0]], %[[A1]] : i64, i64
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[SUM]], %[[IF]]#0, %[[IF]]#1 : tensor<4x4xf32>, i64, i64
// CHECK-NEXT: } {tt.num_stages = 2 : i32}
// CHECK-NEXT: tt.return %[[R]]#0
tt.func @loop_and_if(%p: !tt.ptr<f32>, %n: i64, %k: i32, %c: i1) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %one = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<4x4xf32>
  %b = tt.make_tensor_ptr %p, [%n, %n], [%n, %one], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<4x4xf32>>
  %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero, %q = %b) -> (tensor<4x4xf32>, !tt.ptr<tensor<4x4xf32>>) : i32 {
    %x = tt.load %q : !tt.ptr<tensor<4x4xf32>>
    %sum = arith.addf %acc, %x : tensor<4x4xf32>
    %q2 = scf.if %c -> !tt.ptr<tensor<4x4xf32>> {
      %a = tt.advance %q, [%k, %k] : !tt.ptr<tensor<4x4xf32>>
      scf.yield %a : !tt.ptr<tensor<4x4xf32>>
    } else {
      scf.yield %q : !tt.ptr<tensor<4x4xf32>>
    }
    scf.yield %sum, %q2 : tensor<4x4xf32>, !tt.ptr<tensor<4x4xf32>>
  } {tt.num_stages = 2 : i32}
  tt.return %r#0 : tensor<4x4xf32>
}
