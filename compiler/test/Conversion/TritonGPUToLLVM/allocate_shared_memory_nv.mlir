// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory | FileCheck %s --check-prefix=MEASURE
// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=90 ptx-version=81' | FileCheck %s --check-prefix=MEASURE
// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=90 check-limit' | FileCheck %s --check-prefix=SM90
// RUN: not tgpu-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=80 check-limit' 2>&1 | FileCheck %s --check-prefix=SM80

// Without check-limit the pass only measures, as Triton's does: 200 KiB fits
// an sm_90 block (227 KiB) but not an sm_80 one (163 KiB). The compute
// capability comes from the option, not from the module (which has none).
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// MEASURE: ttg.shared = 204800 : i32
// SM90: ttg.shared = 204800 : i32
// SM80: error: the kernel needs 204800 bytes of shared memory; cuda:80 gives a block at most 166912
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fits_sm90_only() {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<51200xf32, #shared, #smem, mutable>
    tt.return
  }
}
