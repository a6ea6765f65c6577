// RUN: not tgpu-opt %s --convert-triton-to-tritongpu="num-warps=3" 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: not tgpu-opt %s --convert-triton-to-tritongpu="num-ctas=2" 2>&1 | FileCheck %s --check-prefix=CTAS
// RUN: not tgpu-opt %s --convert-triton-to-tritongpu="target=hip:gfx942" 2>&1 | FileCheck %s --check-prefix=TARGET
// WARPS: error: convert-triton-to-tritongpu: num-warps and threads-per-warp must be powers of two and num-ctas 1 (got 3, 32, 1)
// CTAS: (got 4, 32, 2)
// TARGET: error: convert-triton-to-tritongpu: target must be cuda:<sm>, got 'hip:gfx942'
tt.func @f() {
  tt.return
}

// RUN: not tgpu-opt %corpus/kernels/triton/vector_add_w4.ttgir --convert-triton-to-tritongpu 2>&1 | FileCheck %s --check-prefix=TTGIR
// TTGIR: error: convert-triton-to-tritongpu: the module is already TTGIR (this op has a layout)
