// A TTIR module may already carry ttg.* module attributes (Triton's do): the
// conversion overwrites them with its options, as Triton does.
// RUN: tgpu-opt %s --convert-triton-to-tritongpu="num-warps=2 target=cuda:80" | FileCheck %s
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32}
// CHECK: tt.load %{{.*}} : tensor<128x!tt.ptr<f32>, #blocked>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32} {
tt.func @load(%p: !tt.ptr<f32>) {
  %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %v = tt.load %ptrs : tensor<128x!tt.ptr<f32>>
  tt.store %ptrs, %v : tensor<128x!tt.ptr<f32>>
  tt.return
}
}
