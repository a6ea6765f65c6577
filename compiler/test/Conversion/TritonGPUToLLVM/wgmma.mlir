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
// Each instruction is an nvg.wgmma (convert-nv-gpu-to-llvm writes its PTX)
// that adds to the previous one's D. The dot is asynchronous: committed,
// not waited for; the wait passes the 32 accumulator registers through
// nvg.wgmma_wait_group.
// CHECK-LABEL: llvm.func @wgmma_f16
// CHECK-DAG: llvm.mlir.constant(4611686293305294848 : i64)
// CHECK-DAG: llvm.mlir.constant(6 : i64)
// CHECK-DAG: llvm.mlir.constant(384 : i64)
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, k = 16 : i32, layoutA = 0 : i32, layoutB = 0 : i32, m = 64 : i32, n = 64 : i32} : (i64, i64, i1, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvg.wgmma_wait_group
// CHECK: nvg.wgmma_wait_group %{{.*}} {pendings = 1 : i32} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
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
// CHECK-COUNT-2: nvg.wgmma {{.*}} {eltTypeA = 6 : i32, eltTypeB = 6 : i32, eltTypeC = 7 : i32, k = 8 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 32 : i32}
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvg.wgmma_wait_group %{{.*}} {pendings = 0 : i32}
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
// useC flag read at run time: A is a struct of four 32-bit registers (f16
// pairs of wgmma's A fragment); the flag is the first K step's useC only
// (later steps add to D: true); B (N contiguous) is "row". All four A
// registers of both K steps are packed before the wgmma.fence, and made
// registers there by an empty asm (else the back end could compute them
// after the fence, which the PTX ISA does not allow).
// CHECK-LABEL: llvm.func @a_in_registers
// CHECK-SAME: %[[USE:arg3]]: i1
// CHECK: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
// CHECK: llvm.bitcast %{{.*}} : vector<2xf16> to i32
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "", "=r,=r,=r,=r,0,1,2,3"
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: llvm.bitcast
// CHECK: nvg.wgmma %{{.*}}, %{{.*}}, %[[USE]], %{{.*}} {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, k = 16 : i32, layoutA = 0 : i32, layoutB = 0 : i32, m = 64 : i32, n = 32 : i32} : (!llvm.struct<(i32, i32, i32, i32)>, i64, i1, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>)
// CHECK-NOT: llvm.bitcast
// CHECK: nvg.wgmma %{{.*}}, %{{.*}}, %[[TRUE]], %{{.*}} {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, k = 16 : i32, layoutA = 0 : i32, layoutB = 0 : i32, m = 64 : i32, n = 32 : i32} : (!llvm.struct<(i32, i32, i32, i32)>, i64, i1, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>)
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
// registers a thread), eight i32 here. The wait passes the pairs as 32-bit
// registers, so nothing unpacks D before it.
// CHECK-LABEL: llvm.func @f16_acc
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-2: nvg.wgmma {{.*}} {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 4 : i32, k = 16 : i32, layoutA = 0 : i32, layoutB = 0 : i32, m = 64 : i32, n = 32 : i32} : (i64, i64, i1, !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)>) -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)>
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvg.wgmma_wait_group %{{.*}} {pendings = 0 : i32} : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)>
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
// i32 accumulator, m64n16k32 (B K-major: "col").
// CHECK-LABEL: llvm.func @i8_a_in_registers
// CHECK: llvm.bitcast %{{.*}} : vector<4xi8> to i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvg.wgmma {{.*}} {eltTypeA = 0 : i32, eltTypeB = 0 : i32, eltTypeC = 1 : i32, k = 32 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 16 : i32} : (!llvm.struct<(i32, i32, i32, i32)>, i64, i1, !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)>) -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)>
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
// CHECK-NOT: nvg.wgmma
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvg.wgmma
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

// -----

// A zero accumulator (a splat 0.0 constant, or useC = false) is not read:
// the first K step has no accumulator operand (wgmma's scale-d 0), so no
// registers are zeroed, pinned or tied; the second adds to the first.
// CHECK-LABEL: llvm.func @zero_acc
// CHECK-NOT: llvm.inline_asm
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[D0:.*]] = nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}} {eltTypeA = 4 : i32{{.*}}} : (i64, i64, i1) ->
// CHECK: nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}} : (i64, i64, i1, !llvm.struct<({{.*}})>) ->
// CHECK-LABEL: llvm.func @use_c_false
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}} {eltTypeA = 4 : i32{{.*}}} : (i64, i64, i1) ->
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @zero_acc(%p: !tt.ptr<f32>) {
    %c = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #mma>
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> * !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<64x32xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<64x32x!tt.ptr<f32>, #mma>
    tt.return
  }
  tt.func public @use_c_false(%p: !tt.ptr<f32>, %c: tensor<64x32xf32, #mma>) {
    %false = arith.constant false
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    %d = ttng.warp_group_dot %a, %b, %c, %false {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> * !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<64x32xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<64x32x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// fp8 products summed in f32 with maxNumImpreciseAcc <= K: each group of
// at most that many products (whole k32 instructions) starts its own
// accumulator (no accumulator operand), and is added to D with f32 adds
// when the group ends. K = 64: with 32, two groups of one instruction,
// each followed by the 8 adds of the thread's m64n16 registers; with 64,
// one group of two instructions (the second adds to the first), then the
// adds; with 65 (> K) D goes through the instructions as for other types.
// A useC read at run time zeroes D before the first add where it is false.
// CHECK-LABEL: llvm.func @fp8_groups_of_32
// CHECK: nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}} {eltTypeA = 2 : i32, eltTypeB = 2 : i32, eltTypeC = 7 : i32{{.*}}} : (i64, i64, i1) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-COUNT-8: llvm.fadd
// CHECK: nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}} : (i64, i64, i1) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-COUNT-8: llvm.fadd
// CHECK-NOT: llvm.fadd
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-LABEL: llvm.func @fp8_one_group
// CHECK: nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}} : (i64, i64, i1) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NOT: llvm.fadd
// CHECK: nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}} : (i64, i64, i1, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-COUNT-8: llvm.fadd
// CHECK-NOT: llvm.fadd
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-LABEL: llvm.func @fp8_no_groups
// CHECK-NOT: llvm.fadd
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-LABEL: llvm.func @fp8_groups_use_c
// CHECK-SAME: %[[USE:arg2]]: i1
// CHECK-COUNT-8: llvm.select %[[USE]]
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}} : (i64, i64, i1) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-COUNT-8: llvm.fadd
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 16, 32]}>
#sharedA = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#sharedB = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_groups_of_32(%p: !tt.ptr<f32>, %c: tensor<64x16xf32, #mma>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf8E4M3FN, #sharedA, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x16xf8E4M3FN, #sharedB, #smem, mutable>
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, maxNumImpreciseAcc = 32 : i32} : !ttg.memdesc<64x64xf8E4M3FN, #sharedA, #smem, mutable> * !ttg.memdesc<64x16xf8E4M3FN, #sharedB, #smem, mutable> -> tensor<64x16xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x16x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<64x16x!tt.ptr<f32>, #mma>
    tt.return
  }
  tt.func public @fp8_one_group(%p: !tt.ptr<f32>, %c: tensor<64x16xf32, #mma>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf8E4M3FN, #sharedA, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x16xf8E4M3FN, #sharedB, #smem, mutable>
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, maxNumImpreciseAcc = 64 : i32} : !ttg.memdesc<64x64xf8E4M3FN, #sharedA, #smem, mutable> * !ttg.memdesc<64x16xf8E4M3FN, #sharedB, #smem, mutable> -> tensor<64x16xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x16x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<64x16x!tt.ptr<f32>, #mma>
    tt.return
  }
  tt.func public @fp8_no_groups(%p: !tt.ptr<f32>, %c: tensor<64x16xf32, #mma>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf8E4M3FN, #sharedA, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x16xf8E4M3FN, #sharedB, #smem, mutable>
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, maxNumImpreciseAcc = 65 : i32} : !ttg.memdesc<64x64xf8E4M3FN, #sharedA, #smem, mutable> * !ttg.memdesc<64x16xf8E4M3FN, #sharedB, #smem, mutable> -> tensor<64x16xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x16x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<64x16x!tt.ptr<f32>, #mma>
    tt.return
  }
  tt.func public @fp8_groups_use_c(%p: !tt.ptr<f32>, %c: tensor<64x16xf32, #mma>, %use: i1) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf8E4M3FN, #sharedA, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x16xf8E4M3FN, #sharedB, #smem, mutable>
    %d = ttng.warp_group_dot %a, %b, %c, %use {inputPrecision = 0 : i32, maxNumImpreciseAcc = 32 : i32} : !ttg.memdesc<64x64xf8E4M3FN, #sharedA, #smem, mutable> * !ttg.memdesc<64x16xf8E4M3FN, #sharedB, #smem, mutable> -> tensor<64x16xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x16x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<64x16x!tt.ptr<f32>, #mma>
    tt.return
  }
}
