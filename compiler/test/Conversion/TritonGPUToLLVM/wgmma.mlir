// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --tritongpu-membar --convert-triton-gpu-to-llvm --canonicalize --cse | FileCheck %s

// ttng.warp_group_dot of a 64x64x64 f16 product on one warp group: four
// m64n64k16 wgmma, both operands read through descriptors. A [64, 64] is
// K-major and B [64, 64] N-major (wgmma's "row" B), both in 128-byte
// swizzled rows; the 8-row groups are 8 x 128 = 1024 bytes apart (SBO,
// bits 32-45 of the descriptor: 64 << 32), the mode is 1 << 62:
// 0x4000004000000000 = 4611686293305294848. Each K step of 16 elements
// moves A's start 32 bytes along its rows and B's 16 rows (2048 bytes):
// the steps' descriptors add those offsets in 16-byte units (the address
// field's unit) to each operand's base descriptor: 2, 4, 6 and 128, 256,
// 384.
// The dot is asynchronous: committed, not waited for; the wait passes the
// 32 accumulator registers through its asm.
// CHECK-LABEL: llvm.func @wgmma_f16
// CHECK-DAG: llvm.mlir.constant(4611686293305294848 : i64)
// CHECK-DAG: llvm.mlir.constant(6 : i64)
// CHECK-DAG: llvm.mlir.constant(384 : i64)
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: wgmma.wait_group
// CHECK: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 1;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31"
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_f16(%p: !tt.ptr<f32>, %c: tensor<64x64xf32, #mma>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttng.fence_async_shared {bCluster = false}
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf32, #mma>
    %r:3 = ttng.warp_group_dot_wait %d, %a, %b {pendings = 1 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %ps, %r#0 : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// tf32 (K-major only) on two warp groups along M: 128x32x16 with instrShape
// n32 and 8-element K steps. B [16, 32] is transposed (its K contiguous:
// wgmma's "col" B) in 64-byte rows: 16 K elements of 4 bytes a row. The
// warp groups' A tiles start 64 rows apart (64 x 64 bytes = 4096, 256 in
// the descriptor's 16-byte units), picked by the warp group; a synchronous
// dot waits for itself.
// CHECK-LABEL: llvm.func @wgmma_tf32
// CHECK-DAG: llvm.mlir.constant(256 : i64)
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 32, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: "wgmma.wait_group.sync.aligned 0;"
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 32, 8]}>
#sharedA = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32}>
#sharedB = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_tf32(%p: !tt.ptr<f32>, %c: tensor<128x32xf32, #mma>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<128x16xf32, #sharedA, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<16x32xf32, #sharedB, #smem, mutable>
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x16xf32, #sharedA, #smem, mutable> * !ttg.memdesc<16x32xf32, #sharedB, #smem, mutable> -> tensor<128x32xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x32x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<128x32x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// Operand A in registers (#ttg.dot_op of the v3 result, kWidth 2) and a
// useC flag read at run time: MLIR's nvvm.wgmma.mma_async has neither, so
// each m64n32k16 is the PTX instruction itself. A's four 32-bit registers
// (f16 pairs of wgmma's A fragment) follow D's 16 tied registers; B is a
// descriptor; the flag becomes the predicate scale-d of the first K step
// only (later steps add to D), then imm-scale-a/b = 1 and imm-trans-b = 1
// (B [K, N] with N contiguous). There is no imm-trans-a with A in
// registers. All four A registers of both K steps are packed before the
// wgmma.fence, and made registers there by an empty asm (else the back end
// could compute them after the fence, which the PTX ISA does not allow).
// CHECK-LABEL: llvm.func @a_in_registers
// CHECK: llvm.zext %{{.*}} : i1 to i32
// CHECK: llvm.bitcast %{{.*}} : vector<2xf16> to i32
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "", "=r,=r,=r,=r,0,1,2,3"
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: llvm.bitcast
// CHECK: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $37, 0;\0Awgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15}, {$32, $33, $34, $35}, $36, p, 1, 1, 1;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,r,r,r,r,l,r"
// CHECK-NOT: llvm.bitcast
// CHECK: llvm.inline_asm has_side_effects "{{.*}}wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16
// CHECK: nvvm.wgmma.commit.group.sync.aligned
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @a_in_registers(%p: !tt.ptr<f32>, %a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %c: tensor<64x32xf32, #mma>, %use: i1) {
    %b = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    %d = ttng.warp_group_dot %a, %b, %c, %use {inputPrecision = 0 : i32} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<64x32xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<64x32x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// An f16 accumulator: wgmma's D registers hold f16 pairs (PTX .f16 D: N / 4
// registers a thread), the NVVM op's struct of vector<2xf16>. The wait
// passes the pairs as 32-bit registers, so nothing unpacks D before it.
// CHECK-LABEL: llvm.func @f16_acc
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 32, k = 16>, D[<f16>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0;", "=r,=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,7" {{.*}} : (i32, i32, i32, i32, i32, i32, i32, i32)
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f16_acc(%p: !tt.ptr<f16>, %c: tensor<64x32xf16, #mma>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> * !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #mma>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #mma>
    tt.store %ps, %d : tensor<64x32x!tt.ptr<f16>, #mma>
    tt.return
  }
}

// -----

// i8 A in registers (kWidth 4: four K elements packed in each register),
// i32 accumulator, m64n16k32: the integer form has no imm-scale or
// imm-trans operands, only the predicate scale-d.
// CHECK-LABEL: llvm.func @i8_a_in_registers
// CHECK: llvm.bitcast %{{.*}} : vector<4xi8> to i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $21, 0;\0Awgmma.mma_async.sync.aligned.m64n16k32.s32.s8.s8 {$0, $1, $2, $3, $4, $5, $6, $7}, {$16, $17, $18, $19}, $20, p;\0A}", "=r,=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,7,r,r,r,r,l,r"
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 16, 32]}>
#sharedB = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @i8_a_in_registers(%p: !tt.ptr<i32>, %a: tensor<64x32xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, %c: tensor<64x16xi32, #mma>) {
    %b = ttg.local_alloc : () -> !ttg.memdesc<32x16xi8, #sharedB, #smem, mutable>
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32} : tensor<64x32xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * !ttg.memdesc<32x16xi8, #sharedB, #smem, mutable> -> tensor<64x16xi32, #mma>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<64x16x!tt.ptr<i32>, #mma>
    tt.store %ps, %d : tensor<64x16x!tt.ptr<i32>, #mma>
    tt.return
  }
}

// -----

// A constant accumulator: the back end would materialize each constant
// right before the wgmma that reads it, after the wgmma.fence (Triton 3.6
// does, and ptxas then computes a wrong result). The 16 registers go
// through an empty asm before the fence; a loop-carried or argument
// accumulator (above) is a register already and does not.
// CHECK-LABEL: llvm.func @constant_acc
// CHECK: llvm.inline_asm has_side_effects "", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"
// CHECK-NEXT: llvm.extractvalue
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @constant_acc(%p: !tt.ptr<f32>) {
    %c = arith.constant dense<-2.000000e+00> : tensor<64x32xf32, #mma>
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> * !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<64x32xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<64x32x!tt.ptr<f32>, #mma>
    tt.return
  }
}
