// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm | FileCheck %s

// Every thread holds all four elements (register bases only): each register
// is its own constant, element r in register r.
// CHECK-LABEL: llvm.func @per_register
// CHECK: %[[C0:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK: %[[C1:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK: %[[C2:.*]] = llvm.mlir.constant(12 : i32) : i32
// CHECK: %[[C3:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.insertvalue %[[C0]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[C1]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[C2]], %{{.*}}[2]
// CHECK: llvm.insertvalue %[[C3]], %{{.*}}[3]
// CHECK-NOT: llvm.load
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @per_register() -> tensor<4xi32, #b> {
    %0 = arith.constant dense<[7, -1, 12, 0]> : tensor<4xi32, #b>
    tt.return %0 : tensor<4xi32, #b>
  }
}

// -----

// Register r of lane l holds element 2l + r of a 2x32 tensor (dim 1 fastest,
// two registers along dim 1, 16 lanes along it, two along dim 0; warps
// repeat): the table is row-major, and each register loads entry
// 32 * row + column, the coordinates from the thread id.
// CHECK: llvm.mlir.global internal constant @tensor_constant_0([0.000000e+00 : f16, 1.000000e+00 : f16, {{.*}}, 3.100000e+01 : f16, -0.000000e+00 : f16, {{.*}}, -3.100000e+01 : f16]) {addr_space = 1 : i32} : !llvm.array<64 x f16>
// CHECK-LABEL: llvm.func @table
// CHECK: %[[T:.*]] = llvm.mlir.addressof @tensor_constant_0 : !llvm.ptr<1>
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[T]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f16
// CHECK: llvm.load %[[P0]] : !llvm.ptr<1> -> f16
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[T]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f16
// CHECK: llvm.load %[[P1]] : !llvm.ptr<1> -> f16
// CHECK-NOT: llvm.load
#c = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @table() -> tensor<2x32xf16, #c> {
    %0 = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0], [-0.0, -1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0, -8.0, -9.0, -10.0, -11.0, -12.0, -13.0, -14.0, -15.0, -16.0, -17.0, -18.0, -19.0, -20.0, -21.0, -22.0, -23.0, -24.0, -25.0, -26.0, -27.0, -28.0, -29.0, -30.0, -31.0]]> : tensor<2x32xf16, #c>
    tt.return %0 : tensor<2x32xf16, #c>
  }
}
