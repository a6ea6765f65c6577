// triton-reorder-broadcast: elementwise ops run before the splats and
// broadcasts of their operands, on fewer elements.
// RUN: tgpu-opt %s -split-input-file -triton-reorder-broadcast | FileCheck %s

// Splats (and splat constants) of scalars: the op runs on the scalars.
// CHECK-LABEL: tt.func @splats
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32)
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-DAG: %[[SS:.*]] = tt.splat %[[S]] : f32 -> tensor<4x8xf32>
// CHECK-DAG: %[[M:.*]] = arith.mulf %[[X]], %[[TWO]] : f32
// CHECK-DAG: %[[Q:.*]] = tt.precise_sqrt %[[M]] : f32
// CHECK-DAG: %[[QS:.*]] = tt.splat %[[Q]] : f32 -> tensor<4x8xf32>
// CHECK: tt.return %[[SS]], %[[QS]]
tt.func @splats(%x: f32, %y: f32) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %xs = tt.splat %x : f32 -> tensor<4x8xf32>
  %ys = tt.splat %y : f32 -> tensor<4x8xf32>
  %two = arith.constant dense<2.0> : tensor<4x8xf32>
  %s = arith.addf %xs, %ys : tensor<4x8xf32>
  %m = arith.mulf %xs, %two : tensor<4x8xf32>
  %q = tt.precise_sqrt %m : tensor<4x8xf32>
  tt.return %s, %q : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A broadcast operand: the op runs on the broadcast's source, other
// broadcasts of that source type and splats joining it.
// CHECK-LABEL: tt.func @broadcasts
// CHECK-SAME: (%[[A:.*]]: tensor<4x1xf32>, %[[B:.*]]: tensor<4x1xf32>, %[[C:.*]]: tensor<4x1xi1>, %[[X:.*]]: f32)
// CHECK-DAG: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<4x1xf32>
// CHECK-DAG: %[[N:.*]] = arith.negf %[[A]] : tensor<4x1xf32>
// CHECK-DAG: %[[NB:.*]] = tt.broadcast %[[N]] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK-DAG: %[[P:.*]] = arith.addf %[[A]], %[[ONE]] : tensor<4x1xf32>
// CHECK-DAG: %[[XS:.*]] = tt.splat %[[X]] : f32 -> tensor<4x1xf32>
// CHECK-DAG: %[[SEL:.*]] = arith.select %[[C]], %[[B]], %[[XS]] : tensor<4x1xi1>, tensor<4x1xf32>
// CHECK-DAG: %[[PB:.*]] = tt.broadcast %[[P]] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK-DAG: %[[SB:.*]] = tt.broadcast %[[SEL]] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK: tt.return %[[NB]], %[[PB]], %[[SB]]
tt.func @broadcasts(%a: tensor<4x1xf32>, %b: tensor<4x1xf32>, %c: tensor<4x1xi1>, %x: f32) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %ab = tt.broadcast %a : tensor<4x1xf32> -> tensor<4x8xf32>
  %n = arith.negf %ab : tensor<4x8xf32>
  %one = arith.constant dense<1.0> : tensor<4x8xf32>
  %p = arith.addf %one, %ab : tensor<4x8xf32>
  %bb = tt.broadcast %b : tensor<4x1xf32> -> tensor<4x8xf32>
  %cb = tt.broadcast %c : tensor<4x1xi1> -> tensor<4x8xi1>
  %xs = tt.splat %x : f32 -> tensor<4x8xf32>
  %sel = arith.select %cb, %bb, %xs : tensor<4x8xi1>, tensor<4x8xf32>
  tt.return %n, %p, %sel : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Kept: broadcasts from different shapes, an operand that is neither a
// broadcast nor a splat, a scalar condition.
// CHECK-LABEL: tt.func @kept
// CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<4x8xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<4x8xf32>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xf32>
tt.func @kept(%a: tensor<4x1xf32>, %b: tensor<1x8xf32>, %t: tensor<4x8xf32>, %x: f32, %c: i1) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %ab = tt.broadcast %a : tensor<4x1xf32> -> tensor<4x8xf32>
  %bb = tt.broadcast %b : tensor<1x8xf32> -> tensor<4x8xf32>
  %m = arith.mulf %ab, %bb : tensor<4x8xf32>
  %s = arith.addf %ab, %t : tensor<4x8xf32>
  %xs = tt.splat %x : f32 -> tensor<4x8xf32>
  %sel = arith.select %c, %xs, %ab : tensor<4x8xf32>
  tt.return %m, %s, %sel : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// With layouts: the re-made splat takes the broadcast source's layout.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[BL:.*]] = #ttg.blocked
// CHECK-LABEL: tt.func @layouts
// CHECK-DAG: %[[XS:.*]] = tt.splat %{{.*}} : f32 -> tensor<4x1xf32, #[[BL]]>
// CHECK-DAG: %[[M:.*]] = arith.maximumf %{{.*}}, %[[XS]] : tensor<4x1xf32, #[[BL]]>
// CHECK-DAG: %[[B:.*]] = tt.broadcast %[[M]] : tensor<4x1xf32, #[[BL]]> -> tensor<4x32xf32, #[[BL]]>
// CHECK: tt.return %[[B]]
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @layouts(%a: tensor<4x1xf32, #blocked>, %x: f32) -> tensor<4x32xf32, #blocked> {
  %ab = tt.broadcast %a : tensor<4x1xf32, #blocked> -> tensor<4x32xf32, #blocked>
  %xs = tt.splat %x : f32 -> tensor<4x32xf32, #blocked>
  %m = arith.maximumf %ab, %xs : tensor<4x32xf32, #blocked>
  tt.return %m : tensor<4x32xf32, #blocked>
}
}

// -----

// The broadcast and expand_dims canonicalizations run too: expand_dims
// moves before the broadcast, which then merges with the next one.
// CHECK-LABEL: tt.func @merged_broadcasts
// CHECK-SAME: (%[[T:.*]]: tensor<1xf32>)
// CHECK-NEXT: %[[E:.*]] = tt.expand_dims %[[T]] {axis = 1 : i32} : tensor<1xf32> -> tensor<1x1xf32>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[E]] : tensor<1x1xf32> -> tensor<16x4xf32>
// CHECK-NEXT: tt.return %[[B]]
tt.func @merged_broadcasts(%t: tensor<1xf32>) -> tensor<16x4xf32> {
  %b = tt.broadcast %t : tensor<1xf32> -> tensor<16xf32>
  %e = tt.expand_dims %b {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %b2 = tt.broadcast %e : tensor<16x1xf32> -> tensor<16x4xf32>
  tt.return %b2 : tensor<16x4xf32>
}
