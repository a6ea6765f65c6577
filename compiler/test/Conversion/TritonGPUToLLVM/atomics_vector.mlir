// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm='compute-capability=90 ptx-version=80' | FileCheck %s --check-prefixes=CHECK,PTX80
// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm=compute-capability=80 | FileCheck %s --check-prefixes=CHECK,SM80

// Four contiguous f32 per thread, 16-byte aligned: one .v4 atomic on sm_90
// with PTX 8.1 (the default: no PTX limit); single elements before. The
// masked add is constant over pairs only (tt.constancy = 2): .v2.
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @fadd_f32
  // SM90: "mov.u32 $0, 0x0;\0A\09mov.u32 $1, 0x0;\0A\09mov.u32 $2, 0x0;\0A\09mov.u32 $3, 0x0;\0A\09atom.global.gpu.acq_rel.add.v4.f32 { $0, $1, $2, $3 }, [ $4 + 0 ], { $5, $6, $7, $8 };", "=r,=r,=r,=r,l,r,r,r,r"
  // SM90-NOT: atom.global.gpu.acq_rel
  // SM90-COUNT-2: "mov.u32 $0, 0x0;\0A\09mov.u32 $1, 0x0;\0A\09@$5 atom.global.cta.relaxed.add.v2.f32 { $0, $1 }, [ $2 + 0 ], { $3, $4 };", "=r,=r,l,r,r,b"
  // PTX80-COUNT-4: "mov.u32 $0, 0x0;\0A\09atom.global.gpu.acq_rel.add.f32 $0, [ $1 + 0 ], $2;", "=r,l,r"
  // PTX80-COUNT-4: "mov.u32 $0, 0x0;\0A\09@$3 atom.global.cta.relaxed.add.f32 $0, [ $1 + 0 ], $2;", "=r,l,r,b"
  // SM80-COUNT-4: atom.global.gpu.acq_rel.add.f32 $0
  // SM80-COUNT-4: atom.global.cta.relaxed.add.f32 $0
  // CHECK-NOT: atom.global
  // CHECK: llvm.return
  tt.func public @fadd_f32(%p: tensor<256x!tt.ptr<f32>, #b4> {tt.divisibility = 16 : i32, tt.contiguity = 16 : i32}, %v: tensor<256xf32, #b4>, %m: tensor<256xi1, #b4> {tt.constancy = 2 : i32}) {
    %0 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v : (tensor<256x!tt.ptr<f32>, #b4>, tensor<256xf32, #b4>) -> tensor<256xf32, #b4>
    %1 = tt.atomic_rmw fadd, relaxed, cta, %p, %v, %m : (tensor<256x!tt.ptr<f32>, #b4>, tensor<256xf32, #b4>, tensor<256xi1, #b4>) -> tensor<256xf32, #b4>
    tt.return
  }
}

// -----

// Eight contiguous halves: one .v8 atomic on sm_90 (16 bytes); f16 pairs in
// f16x2 words before. PTX's bf16 add needs sm_90: on sm_80 each element is
// LLVM's atomicrmw (a compare-and-swap loop in NVPTX).
#b8 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @fadd_half
  // SM90: "mov.u16 $0, 0x0;\0A\09mov.u16 $1, 0x0;\0A\09mov.u16 $2, 0x0;\0A\09mov.u16 $3, 0x0;\0A\09mov.u16 $4, 0x0;\0A\09mov.u16 $5, 0x0;\0A\09mov.u16 $6, 0x0;\0A\09mov.u16 $7, 0x0;\0A\09atom.global.gpu.acq_rel.add.noftz.v8.f16 { $0, $1, $2, $3, $4, $5, $6, $7 }, [ $8 + 0 ], { $9, $10, $11, $12, $13, $14, $15, $16 };", "=h,=h,=h,=h,=h,=h,=h,=h,l,h,h,h,h,h,h,h,h"
  // SM90: atom.global.gpu.acq_rel.add.noftz.v8.bf16
  // PTX80-COUNT-4: "mov.u32 $0, 0x0;\0A\09atom.global.gpu.acq_rel.add.noftz.f16x2 $0, [ $1 + 0 ], $2;", "=r,l,r" %{{.*}}, %{{.*}} : (!llvm.ptr<1>, vector<2xf16>) -> vector<2xf16>
  // PTX80-COUNT-8: "mov.u16 $0, 0x0;\0A\09atom.global.gpu.acq_rel.add.noftz.bf16 $0, [ $1 + 0 ], $2;", "=h,l,h"
  // SM80-COUNT-4: atom.global.gpu.acq_rel.add.noftz.f16x2
  // SM80-NOT: bf16 $0
  // SM80-COUNT-8: llvm.atomicrmw fadd %{{.*}}, %{{.*}} syncscope("device") acq_rel : !llvm.ptr<1>, bf16
  // CHECK-NOT: atom.global
  // CHECK: llvm.return
  tt.func public @fadd_half(%p: tensor<256x!tt.ptr<f16>, #b8> {tt.divisibility = 16 : i32, tt.contiguity = 16 : i32}, %v: tensor<256xf16, #b8>, %q: tensor<256x!tt.ptr<bf16>, #b8> {tt.divisibility = 16 : i32, tt.contiguity = 16 : i32}, %w: tensor<256xbf16, #b8>) {
    %0 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v : (tensor<256x!tt.ptr<f16>, #b8>, tensor<256xf16, #b8>) -> tensor<256xf16, #b8>
    %1 = tt.atomic_rmw fadd, acq_rel, gpu, %q, %w : (tensor<256x!tt.ptr<bf16>, #b8>, tensor<256xbf16, #b8>) -> tensor<256xbf16, #b8>
    tt.return
  }
}

// -----

// A masked bf16 add on sm_80 branches around the atomic where the predicate
// is false; the old value is then 0, as the PTX forms' zeroed outputs.
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @masked_bf16
  // SM80: %[[ZERO:.*]] = llvm.mlir.zero : bf16
  // SM80: llvm.cond_br %{{.*}}, ^[[ATOMIC:.*]], ^[[AFTER:.*]](%[[ZERO]] : bf16)
  // SM80: ^[[ATOMIC]]:
  // SM80-NEXT: %[[OLD:.*]] = llvm.atomicrmw fadd %{{.*}}, %{{.*}} syncscope("block") monotonic : !llvm.ptr<1>, bf16
  // SM80-NEXT: llvm.br ^[[AFTER]](%[[OLD]] : bf16)
  // SM80: ^[[AFTER]](%{{.*}}: bf16):
  tt.func public @masked_bf16(%p: tensor<32x!tt.ptr<bf16>, #b1>, %v: tensor<32xbf16, #b1>, %m: tensor<32xi1, #b1>, %q: tensor<32x!tt.ptr<bf16>, #b1>) {
    %0 = tt.atomic_rmw fadd, relaxed, cta, %p, %v, %m : (tensor<32x!tt.ptr<bf16>, #b1>, tensor<32xbf16, #b1>, tensor<32xi1, #b1>) -> tensor<32xbf16, #b1>
    tt.store %q, %0 : tensor<32x!tt.ptr<bf16>, #b1>
    tt.return
  }
}

// -----

// Compare-and-swap: Triton's order of qualifiers (semantics, then scope).
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @cas
  // CHECK: "mov.u64 $0, 0x0;\0A\09atom.global.acq_rel.cta.cas.b64 $0, [ $1 + 0 ], $2, $3;", "=l,l,l,l"
  tt.func public @cas(%p: tensor<32x!tt.ptr<i64>, #b1>, %c: tensor<32xi64, #b1>, %v: tensor<32xi64, #b1>) {
    %0 = tt.atomic_cas acq_rel, cta, %p, %c, %v : (tensor<32x!tt.ptr<i64>, #b1>, tensor<32xi64, #b1>, tensor<32xi64, #b1>) -> tensor<32xi64, #b1>
    tt.return
  }
}
