// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// Register-only: sizePerThread [2, 2], threadsPerWarp [32, 1], warpsPerCTA
// [4, 1] with order [1, 0] and [0, 1] put the same elements in the same
// threads (lanes and warps only move along dim 0 in both), only the
// register order differs: [1, 0] has register bits (0,1), (1,0), [0, 1]
// has (1,0), (0,1). Result register 1 = (1,0) = operand register 2, result
// register 2 = (0,1) = operand register 1: [x0, x2, x1, x3]. No shared
// memory, no barrier.
// CHECK: ttg.shared = 0 : i32
// CHECK-NOT: @global_smem
// CHECK-LABEL: llvm.func @registers
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[X2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[X3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[X0]], %{{.*}}[0]
// CHECK-NEXT: %[[R1:.*]] = llvm.insertvalue %[[X2]], %[[R0]][1]
// CHECK-NEXT: %[[R2:.*]] = llvm.insertvalue %[[X1]], %[[R1]][2]
// CHECK-NEXT: %[[R3:.*]] = llvm.insertvalue %[[X3]], %[[R2]][3]
// CHECK-NEXT: llvm.return %[[R3]]
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: nvvm.shfl.sync
#a = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @registers(%x: tensor<256x2xf32, #a>) -> tensor<256x2xf32, #c> {
    %y = ttg.convert_layout %x : tensor<256x2xf32, #a> -> tensor<256x2xf32, #c>
    tt.return %y : tensor<256x2xf32, #c>
  }
}

// -----

// Through shared memory with a shared 4-element run: both layouts have
// register bits (0,1), (0,2) (sizePerThread [1, 4], order [1, 0]), but the
// operand's warps are rows and the result's columns, so elements change
// warps. 64x64 f32 = 16384 bytes of scratch (numel x 4). 4096 / 128
// threads = 32 registers, so 8 vector<4xf32> stores (registers 4k..4k+3
// into elements 0..3, align 16), one barrier, 8 vector<4xf32> loads
// (elements 0..3 into result registers 4k..4k+3).
// CHECK: ttg.shared = 16384 : i32
// CHECK-LABEL: llvm.func @vec4
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[X2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[X3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK-NOT: nvvm.barrier0
// The thread's pointer, then the other 7 vectors' at constant indices from
// it: their offsets use bits no lane or warp sets.
// CHECK: %[[P:.*]] = llvm.getelementptr %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-COUNT-7: llvm.getelementptr %[[P]][{{[0-9]+}}] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NOT: llvm.xor
// CHECK: %[[U:.*]] = llvm.mlir.undef : vector<4xf32>
// CHECK: %[[E0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[V0:.*]] = llvm.insertelement %[[X0]], %[[U]][%[[E0]] : i32] : vector<4xf32>
// CHECK: %[[E1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[V1:.*]] = llvm.insertelement %[[X1]], %[[V0]][%[[E1]] : i32] : vector<4xf32>
// CHECK: %[[E2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[V2:.*]] = llvm.insertelement %[[X2]], %[[V1]][%[[E2]] : i32] : vector<4xf32>
// CHECK: %[[E3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[V3:.*]] = llvm.insertelement %[[X3]], %[[V2]][%[[E3]] : i32] : vector<4xf32>
// CHECK: llvm.store %[[V3]], %[[P]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-COUNT-7: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK-NOT: llvm.load
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK: %[[L:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: %[[Y0:.*]] = llvm.extractelement %[[L]][%{{.*}} : i32] : vector<4xf32>
// CHECK: %[[Y1:.*]] = llvm.extractelement %[[L]][%{{.*}} : i32] : vector<4xf32>
// CHECK: %[[Y2:.*]] = llvm.extractelement %[[L]][%{{.*}} : i32] : vector<4xf32>
// CHECK: %[[Y3:.*]] = llvm.extractelement %[[L]][%{{.*}} : i32] : vector<4xf32>
// CHECK-COUNT-7: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.load
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[Y0]], %{{.*}}[0]
// CHECK-NEXT: %[[R1:.*]] = llvm.insertvalue %[[Y1]], %[[R0]][1]
// CHECK-NEXT: %[[R2:.*]] = llvm.insertvalue %[[Y2]], %[[R1]][2]
// CHECK-NEXT: llvm.insertvalue %[[Y3]], %[[R2]][3]
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @vec4(%x: tensor<64x64xf32, #a>) -> tensor<64x64xf32, #c> {
    %y = ttg.convert_layout %x : tensor<64x64xf32, #a> -> tensor<64x64xf32, #c>
    tt.return %y : tensor<64x64xf32, #c>
  }
}

// -----

// A transpose: lanes along columns and warps along rows, to lanes along
// rows and warps along columns. The operand's registers are rows 4, 8, 16,
// the result's columns 4, 8, 16: no register run in common, so scalar
// accesses (align 4): 32x32 / 128 = 8 stores, one barrier, 8 loads;
// 32 x 32 x 4 = 4096 bytes. Back to the first layout right after: both
// take offset 0, and the second's writes race with the first's reads
// (WAR), so membar puts one barrier before them: three in all, in the
// order stores, barrier, loads, barrier, stores, barrier, loads.
// CHECK: ttg.shared = 4096 : i32
// CHECK-LABEL: llvm.func @transpose_back
// CHECK-NOT: nvvm.barrier0
// CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NOT: llvm.load
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.load
// CHECK-NOT: nvvm.barrier0
// CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NOT: llvm.load
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK-NOT: llvm.load
// CHECK: llvm.return
#r = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @transpose_back(%x: tensor<32x32xf32, #r>) -> tensor<32x32xf32, #r> {
    %y = ttg.convert_layout %x : tensor<32x32xf32, #r> -> tensor<32x32xf32, #t>
    %z = ttg.convert_layout %y : tensor<32x32xf32, #t> -> tensor<32x32xf32, #r>
    tt.return %z : tensor<32x32xf32, #r>
  }
}

// -----

// i1 is staged as bytes: zext to i8 before each store, trunc after each
// load; 32 x 32 x 1 = 1024 bytes.
// CHECK: ttg.shared = 1024 : i32
// CHECK-LABEL: llvm.func @bools
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[B0:.*]] = llvm.zext %[[X0]] : i1 to i8
// CHECK: llvm.store %[[B0]], %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<3>
// CHECK-COUNT-7: llvm.store %{{.*}}, %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: %[[L0:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK: %[[T0:.*]] = llvm.trunc %[[L0]] : i8 to i1
// CHECK-COUNT-7: llvm.trunc %{{.*}} : i8 to i1
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.insertvalue %[[T0]], %{{.*}}[0] : !llvm.struct<(i1, i1, i1, i1, i1, i1, i1, i1)>
#r = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bools(%x: tensor<32x32xi1, #r>) -> tensor<32x32xi1, #t> {
    %y = ttg.convert_layout %x : tensor<32x32xi1, #r> -> tensor<32x32xi1, #t>
    tt.return %y : tensor<32x32xi1, #t>
  }
}

// -----

// An operand that holds each element twice: sizePerThread [4, 1] on 2 rows
// gives register bits row 1 and row 2, and row 2 wraps to row 0 (register
// 2 holds register 0's element, 3 register 1's). Only registers 0 and 1
// are stored: 2 stores, not 4. The result (2x128 on 128 threads, 2
// registers each) loads its 2 elements. 2 x 128 x 4 = 1024 bytes.
// CHECK: ttg.shared = 1024 : i32
// CHECK-LABEL: llvm.func @broadcast_registers
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK-NOT: llvm.store
// CHECK: llvm.store %[[X0]], %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NEXT: llvm.store %[[X1]], %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load
// CHECK: llvm.return
#a = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @broadcast_registers(%x: tensor<2x128xf32, #a>) -> tensor<2x128xf32, #c> {
    %y = ttg.convert_layout %x : tensor<2x128xf32, #a> -> tensor<2x128xf32, #c>
    tt.return %y : tensor<2x128xf32, #c>
  }
}

// -----

// A matmul epilogue: an mma accumulator of f16 into the store layout with
// 8 consecutive columns a thread. The accumulator holds only pairs of
// consecutive columns (register bit 0 = column 1; bit 1 = row 8; bits 2, 3
// = columns 8, 16), so plain vectors would be 4 bytes: 16 stores and 16
// loads a thread. Instead each thread stores the 8 elements of one
// ldmatrix row, registers {0, 1, 4, 5, 8, 9, 12, 13} (+ 2, + 16, + 18:
// columns c, c+1, c+8, c+9, c+16, c+17, c+24, c+25), 16-byte aligned, and
// the result reads with ldmatrix.x4 (lane l gets word l % 4 of row l / 4 of
// each matrix: a result lane's columns 8 (l % 4) .. + 7): 4 stores and 4
// ldmatrix.x4 for 32 elements. 64 x 64 x 2 bytes = 8192 bytes of scratch.
// CHECK: ttg.shared = 8192 : i32
// CHECK-LABEL: llvm.func @mma_epilogue
// CHECK-DAG: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK-DAG: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK-DAG: %[[X4:.*]] = llvm.extractvalue %arg0[4]
// CHECK-DAG: %[[X5:.*]] = llvm.extractvalue %arg0[5]
// CHECK-DAG: %[[X8:.*]] = llvm.extractvalue %arg0[8]
// CHECK-DAG: %[[X9:.*]] = llvm.extractvalue %arg0[9]
// CHECK-DAG: %[[X12:.*]] = llvm.extractvalue %arg0[12]
// CHECK-DAG: %[[X13:.*]] = llvm.extractvalue %arg0[13]
// CHECK: llvm.mlir.undef : vector<8xf16>
// CHECK: %[[V0:.*]] = llvm.insertelement %[[X0]], %{{.*}}[%{{.*}} : i32] : vector<8xf16>
// CHECK: %[[V1:.*]] = llvm.insertelement %[[X1]], %{{.*}}[%{{.*}} : i32] : vector<8xf16>
// CHECK: %[[V2:.*]] = llvm.insertelement %[[X4]], %{{.*}}[%{{.*}} : i32] : vector<8xf16>
// CHECK: %[[V3:.*]] = llvm.insertelement %[[X5]], %{{.*}}[%{{.*}} : i32] : vector<8xf16>
// CHECK: %[[V4:.*]] = llvm.insertelement %[[X8]], %{{.*}}[%{{.*}} : i32] : vector<8xf16>
// CHECK: %[[V5:.*]] = llvm.insertelement %[[X9]], %{{.*}}[%{{.*}} : i32] : vector<8xf16>
// CHECK: %[[V6:.*]] = llvm.insertelement %[[X12]], %{{.*}}[%{{.*}} : i32] : vector<8xf16>
// CHECK: %[[V7:.*]] = llvm.insertelement %[[X13]], %{{.*}}[%{{.*}} : i32] : vector<8xf16>
// CHECK: llvm.store %[[V7]], %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK-COUNT-3: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK-NOT: llvm.load
// CHECK-NOT: nvvm.ldmatrix
// CHECK: llvm.return
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_epilogue(%x: tensor<64x64xf16, #mma>) -> tensor<64x64xf16, #b> {
    %y = ttg.convert_layout %x : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #b>
    tt.return %y : tensor<64x64xf16, #b>
  }
}
