// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// make_range 16..272 on sizePerThread = [2], 32 lanes, 2 warps, 256
// elements: the layout is register bases [1, 128] (the tile of 128 wraps
// once), lane bases 2, 4, 8, 16, 32, warp basis 64. The lane bases climb one
// bit per lane bit, so they go as one run, (lane & 31) << 1; the warp bit
// is a run of one, (warp & 1) << 6; the thread part is their XOR.
// Registers 1, 2, 3 XOR it with the constants 1, 128, 129, register 0 takes
// it as is; then start (16) is added to each.
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @range() -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-SAME: nvvm.reqntid = array<i32: 64>
// CHECK: %[[START:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[LANE:.*]] = llvm.urem %[[TID]], %{{.*}} : i32
// CHECK: %[[WARP:.*]] = llvm.udiv %[[TID]], %{{.*}} : i32
// CHECK: %[[M31:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK: %[[L:.*]] = llvm.and %[[LANE]], %[[M31]] : i32
// CHECK: %[[S1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[LS:.*]] = llvm.shl %[[L]], %[[S1]] : i32
// CHECK: %[[M1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[W:.*]] = llvm.and %[[WARP]], %[[M1]] : i32
// CHECK: %[[S6:.*]] = llvm.mlir.constant(6 : i32) : i32
// CHECK: %[[WS:.*]] = llvm.shl %[[W]], %[[S6]] : i32
// CHECK: %[[THR:.*]] = llvm.xor %[[LS]], %[[WS]] : i32
// registers: constants 1, 128, 129
// CHECK: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[R1:.*]] = llvm.xor %[[THR]], %[[C1]] : i32
// CHECK: %[[C128:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK: %[[R2:.*]] = llvm.xor %[[THR]], %[[C128]] : i32
// CHECK: %[[C129:.*]] = llvm.mlir.constant(129 : i32) : i32
// CHECK: %[[R3:.*]] = llvm.xor %[[THR]], %[[C129]] : i32
// CHECK: %[[V0:.*]] = llvm.add %[[THR]], %[[START]] : i32
// CHECK: %[[V1:.*]] = llvm.add %[[R1]], %[[START]] : i32
// CHECK: %[[V2:.*]] = llvm.add %[[R2]], %[[START]] : i32
// CHECK: %[[V3:.*]] = llvm.add %[[R3]], %[[START]] : i32
// CHECK: %[[S0:.*]] = llvm.insertvalue %[[V0]], %{{.*}}[0]
// CHECK: %[[S1:.*]] = llvm.insertvalue %[[V1]], %[[S0]][1]
// CHECK: %[[S2:.*]] = llvm.insertvalue %[[V2]], %[[S1]][2]
// CHECK: llvm.insertvalue %[[V3]], %[[S2]][3]
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @range() -> tensor<256xi32, #b> {
    %r = tt.make_range {end = 272 : i32, start = 16 : i32} : tensor<256xi32, #b>
    tt.return %r : tensor<256xi32, #b>
  }
}

// -----

// make_range on a slice: slice dim 0 of sizePerThread [1, 4], threadsPerWarp
// [8, 4], warpsPerCTA [2, 2], order [1, 0] at 16 elements has register
// bases 1, 2, lane bits 0 and 1 give 4 and 8, and the other lane bits and
// both warp bits give 0 (rows, or columns past 16): only two lane bits
// enter the thread part, as one run (lane & 3) << 2, no warp bit does, and
// the registers add 1, 2, 3.
// CHECK-LABEL: llvm.func @range_slice() -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[LANE:.*]] = llvm.urem %[[TID]], %{{.*}} : i32
// CHECK: %[[M3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[L:.*]] = llvm.and %[[LANE]], %[[M3]] : i32
// CHECK: %[[S2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[THR:.*]] = llvm.shl %[[L]], %[[S2]] : i32
// CHECK-NOT: llvm.lshr
// CHECK-NOT: llvm.shl
// CHECK: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.xor %[[THR]], %[[C1]] : i32
// CHECK: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.xor %[[THR]], %[[C2]] : i32
// CHECK: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.xor %[[THR]], %[[C3]] : i32
// CHECK-COUNT-4: llvm.add
// CHECK-NOT: llvm.add
// CHECK: llvm.return
#p = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @range_slice() -> tensor<16xi32, #ttg.slice<{dim = 0, parent = #p}>> {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #p}>>
    tt.return %r : tensor<16xi32, #ttg.slice<{dim = 0, parent = #p}>>
  }
}

// -----

// splat: the scalar in every register (4 for 16x8 on sizePerThread [2, 2]
// and one warp), nothing else.
// CHECK-LABEL: llvm.func @splat(%arg0: f16) -> !llvm.struct<(f16, f16, f16, f16)>
// CHECK-NEXT: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f16, f16, f16, f16)>
// CHECK-NEXT: %[[S0:.*]] = llvm.insertvalue %arg0, %[[U]][0]
// CHECK-NEXT: %[[S1:.*]] = llvm.insertvalue %arg0, %[[S0]][1]
// CHECK-NEXT: %[[S2:.*]] = llvm.insertvalue %arg0, %[[S1]][2]
// CHECK-NEXT: %[[S3:.*]] = llvm.insertvalue %arg0, %[[S2]][3]
// CHECK-NEXT: llvm.return %[[S3]]
#q = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @splat(%s: f16) -> tensor<16x8xf16, #q> {
    %e = tt.splat %s : f16 -> tensor<16x8xf16, #q>
    tt.return %e : tensor<16x8xf16, #q>
  }
}

// -----

// broadcast 16x1 -> 16x8 on sizePerThread [2, 2], threadsPerWarp [8, 4]
// (order [1, 0]): at 16x1 the column register bit and lane bits 0, 1 are 0,
// so the operand's registers are rows (0, 0, 1, 1); the result's registers
// are (row, col) = (0,0), (0,1), (1,0), (1,1). Result registers 0, 1 read
// operand register 0 (row 0), 2 and 3 read operand register 2 (row 1):
// [x0, x0, x2, x2]; operand registers 1 and 3 are unused copies.
// CHECK-LABEL: llvm.func @bcast
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[X2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[X3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: %[[S0:.*]] = llvm.insertvalue %[[X0]], %{{.*}}[0]
// CHECK-NEXT: %[[S1:.*]] = llvm.insertvalue %[[X0]], %[[S0]][1]
// CHECK-NEXT: %[[S2:.*]] = llvm.insertvalue %[[X2]], %[[S1]][2]
// CHECK-NEXT: %[[S3:.*]] = llvm.insertvalue %[[X2]], %[[S2]][3]
// CHECK-NEXT: llvm.return %[[S3]]
#q = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bcast(%x: tensor<16x1xf32, #q>) -> tensor<16x8xf32, #q> {
    %e = tt.broadcast %x : tensor<16x1xf32, #q> -> tensor<16x8xf32, #q>
    tt.return %e : tensor<16x8xf32, #q>
  }
}

// -----

// expand_dims 32 -> 1x32 of sizePerThread [2, 4], threadsPerWarp [4, 8]
// (order [1, 0]): the slice has 4 registers, columns 0..3; the 1x32 parent
// has 8, register bits (col 1, col 2, row 1 -> 0), so result register
// b0 + 2 b1 + 4 b2 is column b0 + 2 b1: [x0, x1, x2, x3, x0, x1, x2, x3].
// CHECK-LABEL: llvm.func @expand
// CHECK-SAME: (%arg0: !llvm.struct<(f32, f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[X2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[X3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: %[[S0:.*]] = llvm.insertvalue %[[X0]], %{{.*}}[0]
// CHECK-NEXT: %[[S1:.*]] = llvm.insertvalue %[[X1]], %[[S0]][1]
// CHECK-NEXT: %[[S2:.*]] = llvm.insertvalue %[[X2]], %[[S1]][2]
// CHECK-NEXT: %[[S3:.*]] = llvm.insertvalue %[[X3]], %[[S2]][3]
// CHECK-NEXT: %[[S4:.*]] = llvm.insertvalue %[[X0]], %[[S3]][4]
// CHECK-NEXT: %[[S5:.*]] = llvm.insertvalue %[[X1]], %[[S4]][5]
// CHECK-NEXT: %[[S6:.*]] = llvm.insertvalue %[[X2]], %[[S5]][6]
// CHECK-NEXT: %[[S7:.*]] = llvm.insertvalue %[[X3]], %[[S6]][7]
// CHECK-NEXT: llvm.return %[[S7]]
#p = #ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @expand(%x: tensor<32xf32, #ttg.slice<{dim = 0, parent = #p}>>) -> tensor<1x32xf32, #p> {
    %e = tt.expand_dims %x {axis = 0 : i32} : tensor<32xf32, #ttg.slice<{dim = 0, parent = #p}>> -> tensor<1x32xf32, #p>
    tt.return %e : tensor<1x32xf32, #p>
  }
}

// -----

// trans of 8x32 on sizePerThread [2, 4], threadsPerWarp [4, 8] (order
// [1, 0]: register bases (0,1), (0,2), (1,0), lane bases (0,4), (0,8),
// (0,16), (2,0), (4,0)) to a linear layout whose lanes are the transposed
// lanes but whose registers run (0,1), (1,0), (2,0) in the 32x8 result.
// Result register b0 + 2 b1 + 4 b2 is result (b1 + 2 b2, b0) = operand
// (b0, b1 + 2 b2), operand register b1 + 2 b2 + 4 b0: the map is
// [0, 4, 1, 5, 2, 6, 3, 7].
// CHECK-LABEL: llvm.func @trans
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[X2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[X3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: %[[X4:.*]] = llvm.extractvalue %arg0[4]
// CHECK: %[[X5:.*]] = llvm.extractvalue %arg0[5]
// CHECK: %[[X6:.*]] = llvm.extractvalue %arg0[6]
// CHECK: %[[X7:.*]] = llvm.extractvalue %arg0[7]
// CHECK: %[[S0:.*]] = llvm.insertvalue %[[X0]], %{{.*}}[0]
// CHECK-NEXT: %[[S1:.*]] = llvm.insertvalue %[[X4]], %[[S0]][1]
// CHECK-NEXT: %[[S2:.*]] = llvm.insertvalue %[[X1]], %[[S1]][2]
// CHECK-NEXT: %[[S3:.*]] = llvm.insertvalue %[[X5]], %[[S2]][3]
// CHECK-NEXT: %[[S4:.*]] = llvm.insertvalue %[[X2]], %[[S3]][4]
// CHECK-NEXT: %[[S5:.*]] = llvm.insertvalue %[[X6]], %[[S4]][5]
// CHECK-NEXT: %[[S6:.*]] = llvm.insertvalue %[[X3]], %[[S5]][6]
// CHECK-NEXT: %[[S7:.*]] = llvm.insertvalue %[[X7]], %[[S6]][7]
// CHECK-NEXT: llvm.return %[[S7]]
#p = #ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#t = #ttg.linear<{register = [[0, 1], [1, 0], [2, 0]], lane = [[4, 0], [8, 0], [16, 0], [0, 2], [0, 4]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @trans(%x: tensor<8x32xf32, #p>) -> tensor<32x8xf32, #t> {
    %e = tt.trans %x {order = array<i32: 1, 0>} : tensor<8x32xf32, #p> -> tensor<32x8xf32, #t>
    tt.return %e : tensor<32x8xf32, #t>
  }
}

// -----

// trans with warps: 3-D, order [2, 0, 1], the result layout the operand's
// transposed (blocked sizePerThread [1, 2, 2] -> [2, 1, 2], dims of
// threadsPerWarp, warpsPerCTA and order permuted alike): no data moves, and
// the blocked order maps registers in order. Result dims (d2, d0, d1) of
// the operand; operand registers: bit 0 -> d2 (order [2, ...]), bit 1 -> d1;
// result registers (order [0, 2, 1]): bit 0 -> result d0 = operand d2,
// bit 1 -> result d2 = operand d1. Identity: [x0, x1, x2, x3].
// CHECK-LABEL: llvm.func @trans3d
// CHECK-SAME: nvvm.reqntid = array<i32: 128>
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[X2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[X3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: %[[S0:.*]] = llvm.insertvalue %[[X0]], %{{.*}}[0]
// CHECK-NEXT: %[[S1:.*]] = llvm.insertvalue %[[X1]], %[[S0]][1]
// CHECK-NEXT: %[[S2:.*]] = llvm.insertvalue %[[X2]], %[[S1]][2]
// CHECK-NEXT: %[[S3:.*]] = llvm.insertvalue %[[X3]], %[[S2]][3]
// CHECK-NEXT: llvm.return %[[S3]]
#a = #ttg.blocked<{sizePerThread = [1, 2, 2], threadsPerWarp = [2, 4, 4], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
#r = #ttg.blocked<{sizePerThread = [2, 1, 2], threadsPerWarp = [4, 2, 4], warpsPerCTA = [1, 2, 2], order = [0, 2, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @trans3d(%x: tensor<4x16x8xf32, #a>) -> tensor<8x4x16xf32, #r> {
    %e = tt.trans %x {order = array<i32: 2, 0, 1>} : tensor<4x16x8xf32, #a> -> tensor<8x4x16xf32, #r>
    tt.return %e : tensor<8x4x16xf32, #r>
  }
}
