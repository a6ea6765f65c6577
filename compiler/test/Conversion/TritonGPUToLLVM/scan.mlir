// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// 32 lanes along the axis, one element each: a Hillis-Steele scan with
// shfl.sync.up by 1, 2, 4, 8, 16 (clamp 0); lane i takes the combine of
// (value from lane i - 2^k, its own) when i >= 2^k. The combine is a
// subtraction, so the operand order (earlier, later) shows. The warps hold
// copies and need no shared memory.
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @lanes
// CHECK: %[[X:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[LANE:.*]] = llvm.urem %[[TID]]
// CHECK: %[[RANK:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK: %[[D1:.*]] = llvm.mlir.constant(1 : i32)
// CHECK: %[[O1:.*]] = nvvm.shfl.sync up %{{.*}}, %[[X]], %[[D1]], %{{.*}} : f32 -> f32
// CHECK: %[[C1:.*]] = llvm.fsub %[[O1]], %[[X]] : f32
// CHECK: %[[T1:.*]] = llvm.icmp "uge" %[[RANK]]
// CHECK: %[[S1:.*]] = llvm.select %[[T1]], %[[C1]], %[[X]]
// CHECK: %[[D2:.*]] = llvm.mlir.constant(2 : i32)
// CHECK: %[[O2:.*]] = nvvm.shfl.sync up %{{.*}}, %[[S1]], %[[D2]], %{{.*}}
// CHECK: llvm.fsub %[[O2]], %[[S1]]
// CHECK: %[[D4:.*]] = llvm.mlir.constant(4 : i32)
// CHECK: nvvm.shfl.sync up %{{.*}}, %{{.*}}, %[[D4]], %{{.*}}
// CHECK: %[[D8:.*]] = llvm.mlir.constant(8 : i32)
// CHECK: nvvm.shfl.sync up %{{.*}}, %{{.*}}, %[[D8]], %{{.*}}
// CHECK: %[[D16:.*]] = llvm.mlir.constant(16 : i32)
// CHECK: nvvm.shfl.sync up %{{.*}}, %{{.*}}, %[[D16]], %{{.*}}
// CHECK: %[[T16:.*]] = llvm.icmp "uge" %[[RANK]]
// CHECK: %[[S16:.*]] = llvm.select %[[T16]]
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.insertvalue %[[S16]], %{{.*}}[0]
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @lanes(%x: tensor<32xf32, #b>, %p: tensor<32x!tt.ptr<f32>, #b>) {
    %s = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %c: f32):
      %d = arith.subf %a, %c : f32
      tt.scan.return %d : f32
    }) : (tensor<32xf32, #b>) -> tensor<32xf32, #b>
    tt.store %p, %s : tensor<32x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// The same, reversed: the rank is 31 - lane, values come from higher lanes
// (shfl.sync.down, clamp 31).
// CHECK-LABEL: llvm.func @lanes_reverse
// CHECK: %[[X:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[IDX:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK: %[[M31:.*]] = llvm.mlir.constant(31 : i32)
// CHECK: %[[RANK:.*]] = llvm.xor %[[IDX]], %[[M31]]
// CHECK: %[[D1:.*]] = llvm.mlir.constant(1 : i32)
// CHECK: %[[O1:.*]] = nvvm.shfl.sync down %{{.*}}, %[[X]], %[[D1]], %{{.*}} : f32 -> f32
// CHECK: llvm.fsub %[[O1]], %[[X]] : f32
// CHECK: llvm.icmp "uge" %[[RANK]]
// CHECK-COUNT-4: nvvm.shfl.sync down
// CHECK-NOT: nvvm.shfl.sync
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @lanes_reverse(%x: tensor<32xf32, #b>, %p: tensor<32x!tt.ptr<f32>, #b>) {
    %s = "tt.scan"(%x) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%a: f32, %c: f32):
      %d = arith.subf %a, %c : f32
      tt.scan.return %d : f32
    }) : (tensor<32xf32, #b>) -> tensor<32xf32, #b>
    tt.store %p, %s : tensor<32x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// Four registers along the axis, reversed, two operands: a sequential scan
// from the last register, (earlier, later) = (acc, next lower register).
// CHECK-LABEL: llvm.func @in_thread_reverse
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[X2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[X3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: %[[Y0:.*]] = llvm.extractvalue %arg1[0]
// CHECK: %[[Y1:.*]] = llvm.extractvalue %arg1[1]
// CHECK: %[[Y2:.*]] = llvm.extractvalue %arg1[2]
// CHECK: %[[Y3:.*]] = llvm.extractvalue %arg1[3]
// CHECK: %[[A2:.*]] = llvm.sub %[[X3]], %[[X2]] : i32
// CHECK: %[[B2:.*]] = llvm.fadd %[[Y3]], %[[Y2]] : f32
// CHECK: %[[A1:.*]] = llvm.sub %[[A2]], %[[X1]] : i32
// CHECK: %[[B1:.*]] = llvm.fadd %[[B2]], %[[Y1]] : f32
// CHECK: %[[A0:.*]] = llvm.sub %[[A1]], %[[X0]] : i32
// CHECK: %[[B0:.*]] = llvm.fadd %[[B1]], %[[Y0]] : f32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[A0]], %{{.*}}[0]
// CHECK: %[[R1:.*]] = llvm.insertvalue %[[A1]], %[[R0]][1]
// CHECK: %[[R2:.*]] = llvm.insertvalue %[[A2]], %[[R1]][2]
// CHECK: llvm.insertvalue %[[X3]], %[[R2]][3]
#r = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @in_thread_reverse(%x: tensor<4xi32, #r>, %y: tensor<4xf32, #r>, %p: tensor<4x!tt.ptr<i32>, #r>, %q: tensor<4x!tt.ptr<f32>, #r>) {
    %s:2 = "tt.scan"(%x, %y) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%a: i32, %b: f32, %c: i32, %d: f32):
      %e = arith.subi %a, %c : i32
      %f = arith.addf %b, %d : f32
      tt.scan.return %e, %f : i32, f32
    }) : (tensor<4xi32, #r>, tensor<4xf32, #r>) -> (tensor<4xi32, #r>, tensor<4xf32, #r>)
    tt.store %p, %s#0 : tensor<4x!tt.ptr<i32>, #r>
    tt.store %q, %s#1 : tensor<4x!tt.ptr<f32>, #r>
    tt.return
  }
}

// -----

// scan_ops' reverse column scan of a 16x64 tile: rows come from lane bit 4
// (row 1), warp bits 0 and 1 (rows 2, 4) and register bit 2 (row 8, a
// second block). Lanes: one shfl.sync.down by 16; each warp's total is at
// its lane with lane bit 4 clear (rank last); warp totals go to shared
// memory, 2 blocks x 4 warps x 64 columns x 4 bytes = 2048 bytes, stored
// for 4 columns x 2 blocks, one barrier, then 4 x 8 loads.
// CHECK: ttg.shared = 2048 : i32
// CHECK-LABEL: llvm.func @warps_reverse
// CHECK: %[[LANEIDX:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK: %[[RANK:.*]] = llvm.xor %[[LANEIDX]], %{{.*}} : i32
// CHECK: %[[D16:.*]] = llvm.mlir.constant(16 : i32)
// CHECK: nvvm.shfl.sync down %{{.*}}, %{{.*}}, %[[D16]], %{{.*}} : f32 -> f32
// CHECK: llvm.icmp "uge" %[[RANK]]
// CHECK: %[[NOT16:.*]] = llvm.mlir.constant(-17 : i32)
// CHECK: %[[LAST:.*]] = llvm.and %{{.*}}, %[[NOT16]] : i32
// CHECK: nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %[[LAST]], %{{.*}} : f32 -> f32
// CHECK-COUNT-7: nvvm.shfl.sync idx
// CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NOT: llvm.load
// CHECK: nvvm.barrier0
// CHECK-COUNT-32: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @warps_reverse(%x: tensor<16x64xf32, #b>, %p: tensor<16x64x!tt.ptr<f32>, #b>) {
    %s = "tt.scan"(%x) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%a: f32, %c: f32):
      %d = arith.addf %a, %c : f32
      tt.scan.return %d : f32
    }) : (tensor<16x64xf32, #b>) -> tensor<16x64xf32, #b>
    tt.store %p, %s : tensor<16x64x!tt.ptr<f32>, #b>
    tt.return
  }
}
