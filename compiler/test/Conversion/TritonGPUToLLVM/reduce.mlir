// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// In-thread only: 64x4 on sizePerThread [2, 4], threadsPerWarp [32, 1], one
// warp (order [1, 0]): register bits 0, 1 are columns 1, 2, bit 2 is row 1;
// the lanes are rows. Reducing axis 1 combines registers 0..3 (row r) and
// 4..7 (row r + 1) in register order, (acc, next): the combine is a
// subtraction, so ((x0 - x1) - x2) - x3 shows the order. No lane moves
// along the axis: no shuffle, no shared memory, no barrier. The result
// (slice of dim 1) has 2 registers: the two rows.
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @in_thread
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[X2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[X3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: %[[X4:.*]] = llvm.extractvalue %arg0[4]
// CHECK: %[[X5:.*]] = llvm.extractvalue %arg0[5]
// CHECK: %[[X6:.*]] = llvm.extractvalue %arg0[6]
// CHECK: %[[X7:.*]] = llvm.extractvalue %arg0[7]
// CHECK: %[[A1:.*]] = llvm.fsub %[[X0]], %[[X1]] : f32
// CHECK: %[[A2:.*]] = llvm.fsub %[[A1]], %[[X2]] : f32
// CHECK: %[[A3:.*]] = llvm.fsub %[[A2]], %[[X3]] : f32
// CHECK: %[[B1:.*]] = llvm.fsub %[[X4]], %[[X5]] : f32
// CHECK: %[[B2:.*]] = llvm.fsub %[[B1]], %[[X6]] : f32
// CHECK: %[[B3:.*]] = llvm.fsub %[[B2]], %[[X7]] : f32
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: llvm.fsub
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[A3]], %{{.*}}[0] : !llvm.struct<(f32, f32)>
// CHECK: llvm.insertvalue %[[B3]], %[[R0]][1] : !llvm.struct<(f32, f32)>
#b = #ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @in_thread(%x: tensor<64x4xf32, #b>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #b}>> {
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %d = arith.subf %a, %c : f32
      tt.reduce.return %d : f32
    }) : (tensor<64x4xf32, #b>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #b}>>
    tt.return %s : tensor<64xf32, #ttg.slice<{dim = 1, parent = #b}>>
  }
}

// -----

// 4x16 on sizePerThread [1, 2], threadsPerWarp [4, 8], one warp (order
// [1, 0]): register bit 0 is column 1; lane bits 0, 1, 2 are columns 2, 4,
// 8 and lane bits 3, 4 rows 1, 2.
// Axis 1: x0 + x1 in the thread, then butterflies over lane bits 0, 1, 2:
// offsets 1, 2, 4 (not 8 or 16, which would mix rows), each combined as
// (own, received).
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @lanes_axis1
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[A:.*]] = llvm.fadd %[[X0]], %[[X1]] : f32
// CHECK: %[[O1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[S1:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[A]], %[[O1]], %{{.*}} : f32 -> f32
// CHECK: %[[A1:.*]] = llvm.fadd %[[A]], %[[S1]] : f32
// CHECK: %[[O2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[S2:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[A1]], %[[O2]], %{{.*}} : f32 -> f32
// CHECK: %[[A2:.*]] = llvm.fadd %[[A1]], %[[S2]] : f32
// CHECK: %[[O4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: %[[S4:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[A2]], %[[O4]], %{{.*}} : f32 -> f32
// CHECK: %[[A4:.*]] = llvm.fadd %[[A2]], %[[S4]] : f32
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.insertvalue %[[A4]], %{{.*}}[0] : !llvm.struct<(f32)>
// CHECK: llvm.return

// Axis 0 of the same: each register is its own group (columns c, c + 1);
// butterflies over lane bits 3 and 4, offsets 8 and 16, for group 0 then
// group 1 at each bit. The result has 2 registers.
// CHECK-LABEL: llvm.func @lanes_axis0
// CHECK: %[[Y0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[Y1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[P8:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: %[[T0:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[Y0]], %[[P8]], %{{.*}}
// CHECK: %[[B0:.*]] = llvm.fadd %[[Y0]], %[[T0]] : f32
// CHECK: %[[Q8:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: %[[T1:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[Y1]], %[[Q8]], %{{.*}}
// CHECK: %[[B1:.*]] = llvm.fadd %[[Y1]], %[[T1]] : f32
// CHECK: %[[P16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[U0:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[B0]], %[[P16]], %{{.*}}
// CHECK: %[[C0:.*]] = llvm.fadd %[[B0]], %[[U0]] : f32
// CHECK: %[[Q16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[U1:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[B1]], %[[Q16]], %{{.*}}
// CHECK: %[[C1:.*]] = llvm.fadd %[[B1]], %[[U1]] : f32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[C0]], %{{.*}}[0] : !llvm.struct<(f32, f32)>
// CHECK: llvm.insertvalue %[[C1]], %[[R0]][1] : !llvm.struct<(f32, f32)>

// At 4x8 lane bit 2 holds a copy (column 8 is past the end): only offsets
// 1 and 2, or every element would be counted twice.
// CHECK-LABEL: llvm.func @free_lane
// CHECK: %[[F1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[F1]], %{{.*}}
// CHECK: %[[F2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[F2]], %{{.*}}
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.return
#b = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @lanes_axis1(%x: tensor<4x16xf32, #b>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #b}>> {
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %d = arith.addf %a, %c : f32
      tt.reduce.return %d : f32
    }) : (tensor<4x16xf32, #b>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #b}>>
    tt.return %s : tensor<4xf32, #ttg.slice<{dim = 1, parent = #b}>>
  }
  tt.func public @lanes_axis0(%x: tensor<4x16xf32, #b>) -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #b}>> {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %d = arith.addf %a, %c : f32
      tt.reduce.return %d : f32
    }) : (tensor<4x16xf32, #b>) -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #b}>>
    tt.return %s : tensor<16xf32, #ttg.slice<{dim = 0, parent = #b}>>
  }
  tt.func public @free_lane(%x: tensor<4x8xf32, #b>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #b}>> {
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %d = arith.addf %a, %c : f32
      tt.reduce.return %d : f32
    }) : (tensor<4x8xf32, #b>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #b}>>
    tt.return %s : tensor<4xf32, #ttg.slice<{dim = 1, parent = #b}>>
  }
}

// -----

// A whole-tensor reduction across 4 warps: 256 elements on sizePerThread
// [2]; registers (x0 - x1), lane offsets 1, 2, 4, 8, 16, then each warp's
// total goes to slot (warp bit 0) | (warp bit 1) << 1 of a 4 x f32 scratch
// (16 bytes), one barrier, and every thread combines slots 0, 1, 2, 3 in
// order. Nothing used shared memory before, so membar adds no barrier
// before the first write; the second reduce writes the bytes the first
// read (WAR), so membar adds exactly one barrier before it: 3 in all.
// CHECK: ttg.shared = 16 : i32
// CHECK-LABEL: llvm.func @warps_scalar
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: llvm.fsub %[[X0]], %[[X1]] : f32
// CHECK: %[[O1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O1]], %{{.*}}
// CHECK: %[[O2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O2]], %{{.*}}
// CHECK: %[[O4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O4]], %{{.*}}
// CHECK: %[[O8:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O8]], %{{.*}}
// CHECK: %[[O16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O16]], %{{.*}}
// CHECK: %[[TOT:.*]] = llvm.fsub
// CHECK-NOT: nvvm.shfl.sync
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[WARP:.*]] = llvm.udiv %[[TID]]
// CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[W0S:.*]] = llvm.lshr %[[WARP]], %{{.*}} : i32
// CHECK: %[[W0:.*]] = llvm.and %[[W0S]], %{{.*}} : i32
// CHECK: %[[W0P:.*]] = llvm.shl %[[W0]], %{{.*}} : i32
// CHECK: %[[I0:.*]] = llvm.or %[[Z]], %[[W0P]] : i32
// CHECK: %[[SH1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[W1S:.*]] = llvm.lshr %[[WARP]], %[[SH1]] : i32
// CHECK: %[[W1:.*]] = llvm.and %[[W1S]], %{{.*}} : i32
// CHECK: %[[SL1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[W1P:.*]] = llvm.shl %[[W1]], %[[SL1]] : i32
// CHECK: %[[SLOT:.*]] = llvm.or %[[I0]], %[[W1P]] : i32
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[BASE:.*]] = llvm.getelementptr %[[SMEM]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[IDX:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[SM:.*]] = llvm.mul %[[SLOT]], %{{.*}} : i32
// CHECK: %[[FL:.*]] = llvm.add %[[SM]], %[[IDX]] : i32
// CHECK: %[[P:.*]] = llvm.getelementptr %[[BASE]][%[[FL]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: llvm.store %[[TOT]], %[[P]] : f32, !llvm.ptr<3>
// CHECK-NOT: llvm.load
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK: %[[S0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.mul %[[S0]]
// CHECK: %[[L0:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: %[[S1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.mul %[[S1]]
// CHECK: %[[L1:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: %[[C1:.*]] = llvm.fsub %[[L0]], %[[L1]] : f32
// CHECK: %[[S2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.mul %[[S2]]
// CHECK: %[[L2:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: %[[C2:.*]] = llvm.fsub %[[C1]], %[[L2]] : f32
// CHECK: %[[S3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.mul %[[S3]]
// CHECK: %[[L3:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: llvm.fsub %[[C2]], %[[L3]] : f32
// CHECK-NOT: llvm.load
// The barrier membar placed before the second reduce, then its own one.
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK: llvm.intr.maxnum
// CHECK: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @warps_scalar(%x: tensor<256xf32, #b>, %y: tensor<256xf32, #b>) -> (f32, f32) {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %d = arith.subf %a, %c : f32
      tt.reduce.return %d : f32
    }) : (tensor<256xf32, #b>) -> f32
    %t = "tt.reduce"(%y) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %d = arith.maxnumf %a, %c : f32
      tt.reduce.return %d : f32
    }) : (tensor<256xf32, #b>) -> f32
    tt.return %s, %t : f32, f32
  }
}

// -----

// 16x16 on sizePerThread [1, 4], threadsPerWarp [8, 4], warpsPerCTA
// [2, 2] (order [1, 0]): registers are columns 1, 2; lanes columns 4, 8,
// rows 1, 2, 4; warp bit 0 would be column 16, past the end (a copy), warp
// bit 1 is row 8. Axis 0: four column groups, each through lane offsets
// 4, 8, 16, then only warp bit 1 crosses warps: 2 slots x 16 result
// elements x 4 bytes = 128 bytes; slot (warp >> 1) & 1, element index =
// the column; one store per group, one barrier, two loads per group.
// CHECK: ttg.shared = 128 : i32
// CHECK-LABEL: llvm.func @warps_2d
// CHECK: %[[O4G0:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O4G0]], %{{.*}} : f32 -> f32
// CHECK: %[[O4G1:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O4G1]], %{{.*}} : f32 -> f32
// CHECK: %[[O4G2:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O4G2]], %{{.*}} : f32 -> f32
// CHECK: %[[O4G3:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O4G3]], %{{.*}} : f32 -> f32
// CHECK: %[[O8G0:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O8G0]], %{{.*}} : f32 -> f32
// CHECK: %[[O8G1:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O8G1]], %{{.*}} : f32 -> f32
// CHECK: %[[O8G2:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O8G2]], %{{.*}} : f32 -> f32
// CHECK: %[[O8G3:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O8G3]], %{{.*}} : f32 -> f32
// CHECK: %[[O16G0:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O16G0]], %{{.*}} : f32 -> f32
// CHECK: %[[O16G1:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O16G1]], %{{.*}} : f32 -> f32
// CHECK: %[[O16G2:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O16G2]], %{{.*}} : f32 -> f32
// CHECK: %[[O16G3:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[O16G3]], %{{.*}} : f32 -> f32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: %[[WARP:.*]] = llvm.udiv
// CHECK: %[[SH:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.lshr %[[WARP]], %[[SH]] : i32
// CHECK-NOT: llvm.lshr %[[WARP]]
// CHECK: %[[SLOT:.*]] = llvm.or
// CHECK: %[[N:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: llvm.mul %[[SLOT]], %[[N]] : i32
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NOT: llvm.load
// CHECK: nvvm.barrier0
// CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: llvm.load
// CHECK: llvm.return
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @warps_2d(%x: tensor<16x16xf32, #b>) -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #b}>> {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %d = arith.addf %a, %c : f32
      tt.reduce.return %d : f32
    }) : (tensor<16x16xf32, #b>) -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #b}>>
    tt.return %s : tensor<16xf32, #ttg.slice<{dim = 0, parent = #b}>>
  }
}

// -----

// Two operands (an argmax-like (f32, i32) pair) across 2 warps, scalar
// result: each operand gets 2 slots x 4 bytes, the i32 region right after
// the f32 one at byte 8; 16 bytes in all.
// CHECK: ttg.shared = 16 : i32
// CHECK-LABEL: llvm.func @two_operands
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[RF:.*]] = llvm.getelementptr %[[SMEM]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[RI:.*]] = llvm.getelementptr %[[SMEM]][8] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.getelementptr %[[RF]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK: llvm.getelementptr %[[RI]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK: llvm.store %{{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-2: llvm.load
// CHECK: llvm.fcmp
// CHECK-COUNT-2: llvm.select
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_operands(%x: tensor<128xf32, #b>, %i: tensor<128xi32, #b>) -> (f32, i32) {
    %s:2 = "tt.reduce"(%x, %i) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %ai: i32, %c: f32, %ci: i32):
      %gt = arith.cmpf ogt, %a, %c : f32
      %v = arith.select %gt, %a, %c : f32
      %j = arith.select %gt, %ai, %ci : i32
      tt.reduce.return %v, %j : f32, i32
    }) : (tensor<128xf32, #b>, tensor<128xi32, #b>) -> (f32, i32)
    tt.return %s#0, %s#1 : f32, i32
  }
}

// -----

// Regression: operands of different widths across warps. The i8 partials
// take 2 slots x 1 byte; the f32 region must start 8-byte aligned (byte 8),
// not at byte 2 where its 4-byte accesses would be misaligned. Scratch:
// 8 + 2 x 4 = 16 bytes.
// CHECK: module attributes {{.*}}ttg.shared = 16 : i32
// CHECK-LABEL: llvm.func @mixed_widths
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem
// CHECK-DAG: llvm.getelementptr %[[SMEM]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG: llvm.getelementptr %[[SMEM]][8] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NOT: llvm.getelementptr %[[SMEM]][2]
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mixed_widths(%x: tensor<128xi8, #b>, %y: tensor<128xf32, #b>, %p: !tt.ptr<i8>, %q: !tt.ptr<f32>) {
    %s:2 = "tt.reduce"(%x, %y) <{axis = 0 : i32}> ({
    ^bb0(%a: i8, %b: f32, %c: i8, %d: f32):
      %e = arith.addi %a, %c : i8
      %f = arith.addf %b, %d : f32
      tt.reduce.return %e, %f : i8, f32
    }) : (tensor<128xi8, #b>, tensor<128xf32, #b>) -> (i8, f32)
    tt.store %p, %s#0 : !tt.ptr<i8>
    tt.store %q, %s#1 : !tt.ptr<f32>
    tt.return
  }
}
