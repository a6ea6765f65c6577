// RUN: tgpu-opt %s --allocate-shared-memory --convert-triton-gpu-to-llvm | FileCheck %s --check-prefix=MODULE
// RUN: not tgpu-opt %s --allocate-shared-memory --convert-triton-gpu-to-llvm='compute-capability=80 ptx-version=80' 2>&1 | FileCheck %s --check-prefix=OPTION

// The compute-capability option wins over the module's ttg.target, as in
// triton-opt: conversions to e4m3 exist from sm_89 on.
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // MODULE: nvvm.convert.f32x2.to.f8x2
  // OPTION: error: tt.fp_to_fp to 'f8E4M3FN' needs sm_89 or newer (PTX cvt to e4m3x2/e5m2x2); the target is cuda:80
  tt.func public @to_e4m3(%x: tensor<256xf32, #blocked>) -> tensor<256xf8E4M3FN, #blocked> {
    %y = tt.fp_to_fp %x, rounding = rtne : tensor<256xf32, #blocked> -> tensor<256xf8E4M3FN, #blocked>
    tt.return %y : tensor<256xf8E4M3FN, #blocked>
  }
}
