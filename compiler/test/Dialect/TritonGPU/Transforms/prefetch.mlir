// RUN: tgpu-opt %s --tritongpu-assign-latencies=num-stages=3 --tritongpu-schedule-loops --tritongpu-pipeline --canonicalize --tritongpu-prefetch | FileCheck %s

// The pipelined 64x64 += 64x64 * 64x64 loop (as in pipeline.mlir with K 64):
// the dot splits into four K slices of 16 halves (32 bytes, one mma k-step).
// The first slices of the first iteration are loaded before the loop from
// the views the prologue hands it, each iteration multiplies the slices it
// was handed, then loads and multiplies its other slices (subslices at K =
// 16, 32, 48 of its views), and at its end loads the next iteration's first
// slices from the next views.
// CHECK-LABEL: tt.func public @matmul
// CHECK: ttg.async_wait %{{.*}}, %{{.*}} {num = 2 : i32}
// CHECK-NEXT: %[[VA0:.*]] = ttg.memdesc_index %{{.*}}[%c0_i32] : !ttg.memdesc<2x64x64xf16
// CHECK-NEXT: %[[VB0:.*]] = ttg.memdesc_index %{{.*}}[%c0_i32] : !ttg.memdesc<2x64x64xf16
// CHECK: %[[SA0:.*]] = ttg.memdesc_subslice %[[VA0]] [0, 0] : !ttg.memdesc<64x64xf16, #{{.*}}, #smem, mutable> -> !ttg.memdesc<64x16xf16, #{{.*}}, #smem, mutable, 64x64>
// CHECK: %[[A0:.*]] = ttg.local_load %[[SA0]] : {{.*}} -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %[[SB0:.*]] = ttg.memdesc_subslice %[[VB0]] [0, 0] : {{.*}} -> !ttg.memdesc<16x64xf16, #{{.*}}, #smem, mutable, 64x64>
// CHECK: %[[B0:.*]] = ttg.local_load %[[SB0]] : {{.*}} -> tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[a-z0-9]*]] = %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %[[VA:[a-z0-9]*]] = %[[VA0]], %{{[^,]*}}, %[[VB:[a-z0-9]*]] = %[[VB0]], %{{[^,]*}}, %{{[^,]*}}, %[[PA:[a-z0-9]*]] = %[[A0]], %[[PB:[a-z0-9]*]] = %[[B0]])
// CHECK: %[[D0:.*]] = tt.dot %[[PA]], %[[PB]], %[[ACC]]
// CHECK: %[[SA1:.*]] = ttg.memdesc_subslice %[[VA]] [0, 16]
// CHECK: %[[A1:.*]] = ttg.local_load %[[SA1]]
// CHECK: %[[SB1:.*]] = ttg.memdesc_subslice %[[VB]] [16, 0]
// CHECK: %[[B1:.*]] = ttg.local_load %[[SB1]]
// CHECK: %[[D1:.*]] = tt.dot %[[A1]], %[[B1]], %[[D0]]
// CHECK: ttg.memdesc_subslice %[[VA]] [0, 32]
// CHECK: ttg.memdesc_subslice %[[VB]] [32, 0]
// CHECK: %[[D2:.*]] = tt.dot %{{.*}}, %{{.*}}, %[[D1]]
// CHECK: ttg.memdesc_subslice %[[VA]] [0, 48]
// CHECK: ttg.memdesc_subslice %[[VB]] [48, 0]
// CHECK: %[[D3:.*]] = tt.dot %{{.*}}, %{{.*}}, %[[D2]]
// CHECK-NOT: tt.dot
// CHECK: ttg.async_wait
// CHECK: %[[VAN:.*]] = ttg.memdesc_index
// CHECK: %[[VBN:.*]] = ttg.memdesc_index
// CHECK: %[[NSA:.*]] = ttg.memdesc_subslice %[[VAN]] [0, 0]
// CHECK: %[[NA:.*]] = ttg.local_load %[[NSA]]
// CHECK: %[[NSB:.*]] = ttg.memdesc_subslice %[[VBN]] [0, 0]
// CHECK: %[[NB:.*]] = ttg.local_load %[[NSB]]
// CHECK: scf.yield %[[D3]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[VAN]], %{{.*}}, %[[VBN]], %{{.*}}, %{{.*}}, %[[NA]], %[[NB]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step_a = arith.constant dense<4096> : tensor<64x64xi32, #blocked>
    %step_b = arith.constant dense<4096> : tensor<64x64xi32, #blocked1>
    %c64a = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %c64b = arith.constant dense<64> : tensor<64x1xi32, #blocked1>
    // A: row r, column c at 64 r + c.
    %ar = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %ac = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ar2 = tt.expand_dims %ar {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %ac2 = tt.expand_dims %ac {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %arow = arith.muli %ar2, %c64a : tensor<64x1xi32, #blocked>
    %arowb = tt.broadcast %arow : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %acolb = tt.broadcast %ac2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %aoff = arith.addi %arowb, %acolb : tensor<64x64xi32, #blocked>
    %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %ap0 = tt.addptr %as, %aoff : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    // B: row r, column c at 64 r + c.
    %br = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %bc = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %br2 = tt.expand_dims %br {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %bc2 = tt.expand_dims %bc {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %brow = arith.muli %br2, %c64b : tensor<64x1xi32, #blocked1>
    %browb = tt.broadcast %brow : tensor<64x1xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %bcolb = tt.broadcast %bc2 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %boff = arith.addi %browb, %bcolb : tensor<64x64xi32, #blocked1>
    %bs = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked1>
    %bp0 = tt.addptr %bs, %boff : tensor<64x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %ap = %ap0, %bp = %bp0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked1>) : i32 {
      %x = tt.load %ap : tensor<64x64x!tt.ptr<f16>, #blocked>
      %y = tt.load %bp : tensor<64x64x!tt.ptr<f16>, #blocked1>
      %xd = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %apn = tt.addptr %ap, %step_a : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %bpn = tt.addptr %bp, %step_b : tensor<64x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
      scf.yield %d, %apn, %bpn : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked1>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}
