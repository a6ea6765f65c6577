// Rank-0 tensors (valid TTIR) are refused by the conversion with a located
// error, not an invalid layout or a crash.
// RUN: not tgpu-opt %s --convert-triton-to-tritongpu 2>&1 | FileCheck %s
// CHECK: rank0.mlir:[[@LINE+3]]:1: error: convert-triton-to-tritongpu: rank-0 tensors are not supported yet
// CHECK-NOT: Stack dump
module {
tt.func public @join_rank0(%a: tensor<f32>, %b: tensor<f32>, %p: tensor<2x!tt.ptr<f32>>) {
  %j = tt.join %a, %b : tensor<f32> -> tensor<2xf32>
  tt.store %p, %j : tensor<2x!tt.ptr<f32>>
  tt.return
}
}
