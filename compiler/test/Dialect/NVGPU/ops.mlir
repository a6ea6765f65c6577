// The nvg ops, parsed, printed and parsed again (custom and generic form),
// in the form Triton 3.6 prints them; then through -canonicalize -cse,
// which keeps the wgmma ops and the load (no declared effects, or a read
// whose result is used) and merges the two pure cluster_id.
// RUN: tgpu-opt %s -split-input-file | tgpu-opt -split-input-file | FileCheck %s
// RUN: tgpu-opt %s -split-input-file -mlir-print-op-generic | tgpu-opt -split-input-file | FileCheck %s
// RUN: tgpu-opt %s -split-input-file -canonicalize -cse | FileCheck %s --check-prefix=OPT

!acc = !llvm.struct<(f32, f32, f32, f32)>
// CHECK-LABEL: llvm.func @wgmma
// OPT-LABEL: llvm.func @wgmma
llvm.func @wgmma(%da: i64, %db: i64, %regs: !llvm.struct<(i32, i32, i32, i32)>, %c: !acc, %use: i1) -> !acc {
  // CHECK: %[[D:.*]] = nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}} {eltTypeA = 3 : i32, eltTypeB = 3 : i32, eltTypeC = 7 : i32, k = 32 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32} : (i64, i64, i1) -> !llvm.struct<(f32, f32, f32, f32)>
  // OPT: nvg.wgmma
  %d = nvg.wgmma %da, %db, %use {eltTypeA = 3 : i32, eltTypeB = 3 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 32 : i32} : (i64, i64, i1) -> !acc
  // CHECK: nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}}, %[[D]] {{{.*}}} : (!llvm.struct<(i32, i32, i32, i32)>, i64, i1, !llvm.struct<(f32, f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32, f32)>
  // OPT: nvg.wgmma
  %e = nvg.wgmma %regs, %db, %use, %d {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 0 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (!llvm.struct<(i32, i32, i32, i32)>, i64, i1, !acc) -> !acc
  // CHECK: nvg.wgmma_wait_group %{{.*}} {pendings = 1 : i32} : !llvm.struct<(f32, f32, f32, f32)>
  // OPT: nvg.wgmma_wait_group
  %w = nvg.wgmma_wait_group %e {pendings = 1 : i32} : !acc
  llvm.return %w : !acc
}

// -----

// CHECK-LABEL: llvm.func @ids_and_loads
// OPT-LABEL: llvm.func @ids_and_loads
llvm.func @ids_and_loads(%p: !llvm.ptr<1>, %m: i1) -> i32 {
  // CHECK: nvg.cluster_id
  // CHECK: nvg.cluster_id
  // OPT-COUNT-1: nvg.cluster_id
  // OPT-NOT: nvg.cluster_id
  %a = nvg.cluster_id
  %b = nvg.cluster_id
  // CHECK: nvg.ld_acquire acquire, gpu, %{{.*}} : (!llvm.ptr<1>) -> i32
  %x = nvg.ld_acquire acquire, gpu, %p : (!llvm.ptr<1>) -> i32
  // CHECK: nvg.ld_acquire relaxed, sys, %{{.*}}, %{{.*}} : (!llvm.ptr<1>) -> f16
  %y = nvg.ld_acquire relaxed, sys, %p, %m : (!llvm.ptr<1>) -> f16
  // CHECK: nvg.ld_acquire acquire, cta, %{{.*}} : (!llvm.ptr<1>) -> i64
  // OPT-NOT: i64
  %z = nvg.ld_acquire acquire, cta, %p : (!llvm.ptr<1>) -> i64
  %s = llvm.add %a, %b : i32
  %t = llvm.add %s, %x : i32
  llvm.return %t : i32
}

// -----

// CHECK-LABEL: llvm.func @tmem
llvm.func @tmem() -> !llvm.ptr<6> {
  // CHECK: nvg.tensor_memory_base
  %0 = nvg.tensor_memory_base
  llvm.return %0 : !llvm.ptr<6>
}
