// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// gather along the only axis: the source goes to shared memory (128 x 4
// bytes) at its element index, a barrier, each thread reads at its index.
// CHECK: ttg.shared = 512 : i32
// CHECK-LABEL: llvm.func @gather
// CHECK: %[[X:.*]] = llvm.extractvalue %arg0[0]
// CHECK: llvm.store %[[X]], %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: %[[I:.*]] = llvm.extractvalue %arg1[0]
// CHECK: %[[P:.*]] = llvm.getelementptr %{{.*}}[%[[I]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: llvm.load %[[P]] : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @gather(%x: tensor<128xf32, #b>, %i: tensor<128xi32, #b>, %p: tensor<128x!tt.ptr<f32>, #b>) {
    %g = tt.gather %x[%i] {axis = 0 : i32} : (tensor<128xf32, #b>, tensor<128xi32, #b>) -> tensor<128xf32, #b>
    tt.store %p, %g : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// 16 bins of i32 (64 bytes): clear each thread's bin, a barrier, one
// shared atomic add per element (1 when 0 <= v < 16 as an unsigned
// compare, else 0 at bin 0), a barrier, read the bin back.
// CHECK: ttg.shared = 64 : i32
// CHECK-LABEL: llvm.func @histogram
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32)
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32)
// CHECK: %[[BIN:.*]] = llvm.getelementptr
// CHECK: llvm.store %[[ZERO]], %[[BIN]] : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: %[[V:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[N:.*]] = llvm.mlir.constant(16 : i32)
// CHECK: %[[IN:.*]] = llvm.icmp "ult" %[[V]], %[[N]]
// CHECK: %[[AT:.*]] = llvm.select %[[IN]], %[[V]], %{{.*}}
// CHECK: %[[ADD:.*]] = llvm.select %[[IN]], %[[ONE]], %[[ZERO]]
// CHECK: %[[P:.*]] = llvm.getelementptr %{{.*}}[%[[AT]]]
// CHECK: llvm.atomicrmw add %[[P]], %[[ADD]] monotonic : !llvm.ptr<3>, i32
// CHECK-NOT: atomicrmw
// CHECK: nvvm.barrier0
// CHECK: llvm.load %[[BIN]] : !llvm.ptr<3> -> i32
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @histogram(%x: tensor<128xi32, #b>, %p: tensor<16x!tt.ptr<i32>, #b>) {
    %h = tt.histogram %x : tensor<128xi32, #b> -> tensor<16xi32, #b>
    tt.store %p, %h : tensor<16x!tt.ptr<i32>, #b>
    tt.return
  }
}

// -----

// 64 elements on 128 threads: warps 2 and 3 hold copies and must not count
// them (warp bit 1 clear), and the mask joins the predicate.
// CHECK-LABEL: llvm.func @histogram_copies_masked
// CHECK: %[[M:.*]] = llvm.extractvalue %arg1[0]
// CHECK: nvvm.barrier0
// CHECK: %[[WARP:.*]] = llvm.udiv
// CHECK: %[[B1:.*]] = llvm.mlir.constant(2 : i32)
// CHECK: %[[W1:.*]] = llvm.and %[[WARP]], %[[B1]] : i32
// CHECK: %[[OWN:.*]] = llvm.icmp "eq" %[[W1]]
// CHECK: %[[V:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[IN:.*]] = llvm.icmp "ult" %[[V]]
// CHECK: %[[P1:.*]] = llvm.and %[[IN]], %[[OWN]] : i1
// CHECK: %[[P2:.*]] = llvm.and %[[P1]], %[[M]] : i1
// CHECK: llvm.select %[[P2]]
// CHECK: llvm.atomicrmw add
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @histogram_copies_masked(%x: tensor<64xi32, #b>, %m: tensor<64xi1, #b>, %p: tensor<8x!tt.ptr<i32>, #b>) {
    %h = tt.histogram %x, %m : tensor<64xi32, #b> -> tensor<8xi32, #b>
    tt.store %p, %h : tensor<8x!tt.ptr<i32>, #b>
    tt.return
  }
}
