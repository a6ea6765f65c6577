// RUN: tgpu-opt %s -split-input-file --convert-triton-gpu-to-llvm -verify-diagnostics

#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_libm(%x: tensor<512xf32, #a>, %y: f64) {
    // expected-error @below {{math.erf on 'f32' has no GPU lowering yet}}
    %e = math.erf %x : tensor<512xf32, #a>
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @exp_f64(%y: f64) {
    // expected-error @below {{math.exp on 'f64' has no GPU lowering yet}}
    %e = math.exp %y : f64
    tt.return
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @dense(%p: !tt.ptr<i32>) {
    // expected-error @below {{only splat tensor constants can be lowered}}
    %c = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32, #a>
    tt.return
  }
}

// -----

// expected-error @below {{unsupported target 'cuda:70' (expected cuda:80 or newer)}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:70", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @old() {
    tt.return
  }
}

// -----

// expected-error @below {{NVIDIA GPUs have 32 threads per warp}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @wave64() {
    tt.return
  }
}
