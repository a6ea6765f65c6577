// The two layouts of upstream's test/Tools/tensor_layout_print.mlir. tgpu has
// no AMD encodings, so #mfma is found but cannot be parsed.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mfma = #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 16], isTransposed = true}>
tt.func @print(%A : !tt.ptr<f16>) {
  %c0 = arith.constant dense<0.000000e+00> : tensor<16x16xf16, #blocked>
  tt.return
}
