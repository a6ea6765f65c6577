// RUN: tgpu-opt %s -split-input-file --triton-nvidia-tma-lowering -verify-diagnostics

// The descriptor's block has no shared layout yet.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_layout(%d: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %v: tensor<64x64xf16>) {
    // expected-error @+1 {{needs a shared layout on its descriptor's block type 'tensor<64x64xf16>' (run triton-nvidia-optimize-descriptor-encoding first)}}
    tt.descriptor_store %d[%i, %i], %v : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
    tt.return
  }
}

// -----

// A swizzled layout that TMA cannot write.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#swizzled = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bad_layout(%d: !tt.tensordesc<tensor<64x64xf16, #swizzled>>, %i: i32) -> tensor<64x64xf16, #blocked> {
    // expected-error @+1 {{cannot copy through a descriptor whose block has the layout}}
    %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<64x64xf16, #swizzled>> -> tensor<64x64xf16, #blocked>
    tt.return %v : tensor<64x64xf16, #blocked>
  }
}
