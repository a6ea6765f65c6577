// Every ttg layout attribute round-trips in the form Triton 3.x prints, and
// the legacy CTAsPerCGA/CTASplitNum/CTAOrder form reads as CGALayout bases.
// RUN: tgpu-opt %s -split-input-file | tgpu-opt -split-input-file | FileCheck %s

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = {{\[\[}}1], [0]]}>
// CHECK: #linear = #ttg.linear<{register = {{\[\[}}0, 1], [0, 2]], lane = {{\[\[}}1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = {{\[\[}}32, 0], [0, 0]], block = []}>
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK: #mma1 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK: #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [0, 1]}>
// CHECK: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = true, elementBitWidth = 8, fp4Padded = true, rank = 3}>
// CHECK: #shared3 = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [1, 0], [2, 0]]}, alignment = 16>
// CHECK: #smem = #ttg.shared_memory
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// Legacy form (Triton 3.0-3.5): two CTAs splitting dim 0 -> one block basis [1].
#legacy = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CTAsPerCGA = [4], CTASplitNum = [2], CTAOrder = [0]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [0, 0]], block = []}>
#mma3 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#mma2 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#sw = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [0, 1]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nv3 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = true, elementBitWidth = 8, fp4Padded = true, rank = 3}>
#sl = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]]}, alignment = 16>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @layouts
  tt.func @layouts(%b: tensor<16x64xf32, #blocked>,
                   %s: tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>,
                   %l: tensor<64x4xf32, #linear>,
                   %m3: tensor<64x64xf32, #mma3>,
                   %m2: tensor<32x32xf32, #mma2>,
                   %d: tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 2}>>,
                   %df: tensor<32x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>,
                   %x: tensor<128xf32, #legacy>,
                   %a: !ttg.memdesc<2x64x32xf16, #sw, #smem, mutable>,
                   %n: !ttg.memdesc<64x64xf16, #nv, #smem>,
                   %n3: !ttg.memdesc<2x32x64xf8E5M2, #nv3, #smem, mutable>,
                   %q: !ttg.memdesc<4x4xf32, #sl, #smem, mutable, 8x4>) {
    // CHECK-SAME: tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    // CHECK-SAME: tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>>
    // CHECK-SAME: tensor<32x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    // CHECK-SAME: !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
    // CHECK-SAME: !ttg.memdesc<4x4xf32, #shared3, #smem, mutable, 8x4>
    tt.return
  }
}

// -----

// versionMinor and instrShape may be left out (Triton prints them as 0 and
// []); a v2 layout without instrShape has mma.sync's 16x8 tile.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = []}>
// CHECK-LABEL: tt.func @mma_defaults
#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_defaults(%x: tensor<32x32xf32, #mma>) {
    tt.return
  }
}
