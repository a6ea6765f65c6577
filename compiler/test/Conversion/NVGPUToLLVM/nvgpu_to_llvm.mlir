// convert-nv-gpu-to-llvm: each nvg op as the PTX the PTX ISA defines for it
// (operand order of wgmma.mma_async: d, a, b, scale-d, then imm-scale-a/b
// for float types, then imm-trans-a (descriptor A) / imm-trans-b for 16-bit
// types), in Triton's asm text; ttg.warp_id as thread id / 32.
// RUN: tgpu-opt %s -split-input-file -allow-unregistered-dialect --convert-nv-gpu-to-llvm | FileCheck %s

!acc4 = !llvm.struct<(f32, f32, f32, f32)>
// f16 from two descriptors into a running f32 accumulator: D's four
// registers are outputs $0-$3 and tied inputs $4-$7, A $8, B $9, scale-d
// the predicate $10; neither operand transposed.
// CHECK-LABEL: llvm.func @wgmma_desc
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0,$1,$2,$3}, $8, $9, $10, 1, 1, 0, 0;", "=f,=f,=f,=f,0,1,2,3,l,l,b" {{.*}} : (f32, f32, f32, f32, i64, i64, i1) -> !llvm.struct<(f32, f32, f32, f32)>
llvm.func @wgmma_desc(%a: i64, %b: i64, %c: !acc4, %use: i1) -> !acc4 {
  %d = nvg.wgmma %a, %b, %use, %c {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (i64, i64, i1, !acc4) -> !acc4
  llvm.return %d : !acc4
}

// -----

!acc4 = !llvm.struct<(f32, f32, f32, f32)>
// A's fragment in four registers (no trans-a immediate), B stored N-major
// (layoutB = row: trans-b 1).
// CHECK-LABEL: llvm.func @wgmma_regs
// CHECK: "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0,$1,$2,$3}, {$8,$9,$10,$11}, $12, $13, 1, 1, 1;", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,l,b"
llvm.func @wgmma_regs(%a: !llvm.struct<(i32, i32, i32, i32)>, %b: i64, %c: !acc4, %use: i1) -> !acc4 {
  %d = nvg.wgmma %a, %b, %use, %c {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 0 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (!llvm.struct<(i32, i32, i32, i32)>, i64, i1, !acc4) -> !acc4
  llvm.return %d : !acc4
}

// -----

// Without an accumulator scale-d is 0 and D is output only; fp8 (mixed
// e4m3 x e5m2) into f16: n = 8 gives two registers of f16 pairs; fp8 has
// imm-scale-a/b but no transpose immediates.
// CHECK-LABEL: llvm.func @wgmma_fp8_f16
// CHECK: "wgmma.mma_async.sync.aligned.m64n8k32.f16.e4m3.e5m2 {$0,$1}, $2, $3, 0, 1, 1;", "=r,=r,l,l" %{{.*}}, %{{.*}} : (i64, i64) -> !llvm.struct<(i32, i32)>
llvm.func @wgmma_fp8_f16(%a: i64, %b: i64, %use: i1) -> !llvm.struct<(i32, i32)> {
  %d = nvg.wgmma %a, %b, %use {eltTypeA = 2 : i32, eltTypeB = 3 : i32, eltTypeC = 4 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 32 : i32} : (i64, i64, i1) -> !llvm.struct<(i32, i32)>
  llvm.return %d : !llvm.struct<(i32, i32)>
}

// -----

// Integers: s8 x s8 into s32 take neither scale nor transpose immediates;
// n = 48 (a multiple of 16, as integer shapes above 24 must be).
// CHECK-LABEL: llvm.func @wgmma_s8
// CHECK: "wgmma.mma_async.sync.aligned.m64n48k32.s32.s8.s8 {$0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23}, $48, $49, $50;"
llvm.func @wgmma_s8(%a: i64, %b: i64, %c: !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>, %use: i1) {
  %d = nvg.wgmma %a, %b, %use, %c {eltTypeA = 0 : i32, eltTypeB = 0 : i32, eltTypeC = 1 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 48 : i32, k = 32 : i32} : (i64, i64, i1, !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>) -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
  llvm.return
}

// -----

!acc4 = !llvm.struct<(f32, f32, f32, f32)>
// tf32 (K = 8): scale immediates, no transposes. bf16 with A stored
// M-major (layoutA = col: trans-a 1) and B K-major (trans-b 0).
// CHECK-LABEL: llvm.func @wgmma_tf32_bf16
// CHECK: "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {$0,$1,$2,$3}, $4, $5, 0, 1, 1;", "=f,=f,=f,=f,l,l"
// CHECK: "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1,$2,$3}, $4, $5, 0, 1, 1, 1, 0;", "=f,=f,=f,=f,l,l"
llvm.func @wgmma_tf32_bf16(%a: i64, %b: i64, %use: i1) {
  %d = nvg.wgmma %a, %b, %use {eltTypeA = 6 : i32, eltTypeB = 6 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 8 : i32} : (i64, i64, i1) -> !acc4
  %e = nvg.wgmma %a, %b, %use {eltTypeA = 5 : i32, eltTypeB = 5 : i32, eltTypeC = 7 : i32, layoutA = 1 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (i64, i64, i1) -> !acc4
  llvm.return
}

// -----

// The wait ties every register to itself, each with its width's
// constraint; an empty struct waits without operands.
// CHECK-LABEL: llvm.func @waits
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "// wait for regs: $0,$1,$2,$3,$4\0A\09wgmma.wait_group.sync.aligned 2;", "=f,=r,=h,=l,=d,0,1,2,3,4" {{.*}} : (f32, i32, f16, i64, f64) -> !llvm.struct<(f32, i32, f16, i64, f64)>
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "wgmma.wait_group.sync.aligned 0;", ""  : () -> !llvm.void
// CHECK-NOT: nvg.
llvm.func @waits(%r: !llvm.struct<(f32, i32, f16, i64, f64)>, %e: !llvm.struct<()>) {
  %a = nvg.wgmma_wait_group %r {pendings = 2 : i32} : !llvm.struct<(f32, i32, f16, i64, f64)>
  %b = nvg.wgmma_wait_group %e {pendings = 0 : i32} : !llvm.struct<()>
  llvm.return
}

// -----

// The cluster rank register; acquire / relaxed loads into a zeroed
// register (a masked-off thread reads 0), 8-bit values in a 16-bit one.
// CHECK-LABEL: llvm.func @rank_and_loads
// CHECK: nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "mov.u32 $0, 0x0;\0A\09ld.global.gpu.acquire.b32 $0, [ $1 + 0 ];", "=r,l" %{{.*}} : (!llvm.ptr<1>) -> i32
// CHECK: "mov.u16 $0, 0x0;\0A\09@$2 ld.global.sys.relaxed.b16 $0, [ $1 + 0 ];", "=h,l,b" {{.*}} -> i16
// CHECK-NEXT: llvm.bitcast %{{.*}} : i16 to f16
// CHECK: "mov.u16 $0, 0x0;\0A\09ld.global.cta.acquire.b8 $0, [ $1 + 0 ];", "=h,l" {{.*}} -> i16
// CHECK-NEXT: llvm.trunc %{{.*}} : i16 to i8
// CHECK: "mov.u64 $0, 0x0;\0A\09ld.global.gpu.acquire.b64 $0, [ $1 + 0 ];", "=l,l" {{.*}} -> i64
// CHECK-NEXT: llvm.bitcast %{{.*}} : i64 to f64
// CHECK: "mov.u16 $0, 0x0;\0A\09ld.global.gpu.relaxed.b8 $0, [ $1 + 0 ];", "=h,l" {{.*}} -> i16
// CHECK-NEXT: llvm.trunc %{{.*}} : i16 to i1
llvm.func @rank_and_loads(%p: !llvm.ptr<1>, %m: i1) {
  %id = nvg.cluster_id
  %x = nvg.ld_acquire acquire, gpu, %p : (!llvm.ptr<1>) -> i32
  %y = nvg.ld_acquire relaxed, sys, %p, %m : (!llvm.ptr<1>) -> f16
  %z = nvg.ld_acquire acquire, cta, %p : (!llvm.ptr<1>) -> i8
  %w = nvg.ld_acquire acquire, gpu, %p : (!llvm.ptr<1>) -> f64
  %b = nvg.ld_acquire relaxed, gpu, %p : (!llvm.ptr<1>) -> i1
  "test.use"(%id, %x, %y, %z, %w, %b) : (i32, i32, f16, i8, f64, i1) -> ()
  llvm.return
}

// -----

// ttg.warp_id: thread id / 32 made uniform through a shuffle from lane 0;
// in a partition of a ttg.warp_specialize with warpGroupStartIds, counted
// from the partition's first thread (warp 6: thread 192); 0 where one warp
// runs (a one-warp partition, a one-warp kernel).
// CHECK-LABEL: llvm.func @warp_ids
// CHECK-DAG: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[M1:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-DAG: %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[W:.*]] = llvm.udiv %[[TID]], %[[C32]] : i32
// CHECK: %[[U:.*]] = nvvm.shfl.sync idx %[[M1]], %[[W]], %[[C0]], %[[C31]] : i32 -> i32
// CHECK: "test.use"(%[[U]])
// CHECK: partition0
// CHECK-DAG: %[[P32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-DAG: %[[P192:.*]] = llvm.mlir.constant(192 : i32) : i32
// CHECK: %[[PTID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[REL:.*]] = llvm.sub %[[PTID]], %[[P192]] : i32
// CHECK: llvm.udiv %[[REL]], %[[P32]] : i32
// CHECK: nvvm.shfl.sync idx
// CHECK: partition1
// CHECK-NEXT: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: "test.use"(%[[Z]])
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  llvm.func @warp_ids() {
    %0 = ttg.warp_id
    "test.use"(%0) : (i32) -> ()
    ttg.warp_specialize() attributes {warpGroupStartIds = array<i32: 6, 4>}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(2) {
      %1 = ttg.warp_id
      "test.use"(%1) : (i32) -> ()
      ttg.warp_return
    }
    partition1() num_warps(1) {
      %2 = ttg.warp_id
      "test.use"(%2) : (i32) -> ()
      ttg.warp_return
    } : () -> ()
    llvm.return
  }
}

// -----

// CHECK-LABEL: llvm.func @one_warp
// CHECK-NEXT: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: llvm.return %[[Z]]
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  llvm.func @one_warp() -> i32 {
    %0 = ttg.warp_id
    llvm.return %0 : i32
  }
}
