// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// sizePerThread = [2] over 4 warps x 32 lanes: 256 elements, 2 registers a
// thread. An element-wise op is one scalar op per register, pairing
// register r of each operand: exactly 2 fadds, x0 + y0 into register 0 and
// x1 + y1 into register 1. The splat constant is one llvm.mlir.constant
// placed in both registers, and the fmul reads it for each. No shared
// memory.
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @two_registers
// CHECK: %[[C:.*]] = llvm.mlir.constant(2.500000e+00 : f32) : f32
// CHECK: %[[CS0:.*]] = llvm.insertvalue %[[C]], %{{.*}}[0] : !llvm.struct<(f32, f32)>
// CHECK: %[[CS:.*]] = llvm.insertvalue %[[C]], %[[CS0]][1] : !llvm.struct<(f32, f32)>
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[Y0:.*]] = llvm.extractvalue %arg1[0]
// CHECK: %[[Y1:.*]] = llvm.extractvalue %arg1[1]
// CHECK: %[[A0:.*]] = llvm.fadd %[[X0]], %[[Y0]] : f32
// CHECK: %[[A1:.*]] = llvm.fadd %[[X1]], %[[Y1]] : f32
// CHECK-NOT: llvm.fadd
// CHECK: %[[S0:.*]] = llvm.insertvalue %[[A0]], %{{.*}}[0]
// CHECK: %[[S:.*]] = llvm.insertvalue %[[A1]], %[[S0]][1]
// CHECK: %[[M0:.*]] = llvm.extractvalue %[[S]][0]
// CHECK: %[[M1:.*]] = llvm.extractvalue %[[S]][1]
// CHECK: %[[K0:.*]] = llvm.extractvalue %[[CS]][0]
// CHECK: %[[K1:.*]] = llvm.extractvalue %[[CS]][1]
// CHECK: llvm.fmul %[[M0]], %[[K0]] : f32
// CHECK: llvm.fmul %[[M1]], %[[K1]] : f32
// CHECK-NOT: llvm.fmul
// CHECK-NOT: llvm.fadd
// CHECK: llvm.return
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_registers(%x: tensor<256xf32, #b2>, %y: tensor<256xf32, #b2>) -> tensor<256xf32, #b2> {
    %c = arith.constant dense<2.5> : tensor<256xf32, #b2>
    %a = arith.addf %x, %y : tensor<256xf32, #b2>
    %m = arith.mulf %a, %c : tensor<256xf32, #b2>
    tt.return %m : tensor<256xf32, #b2>
  }
}

// -----

// The same op count follows the layout, not the shape: 64 elements on one
// warp with sizePerThread = [1] wrap twice around 32 lanes, so each thread
// still holds 2 registers (elements l and l + 32) and gets 2 subis.
// CHECK-LABEL: llvm.func @wrapped
// CHECK-SAME: (%arg0: !llvm.struct<(i32, i32)>, %arg1: !llvm.struct<(i32, i32)>)
// CHECK-COUNT-2: llvm.sub %{{.*}}, %{{.*}} : i32
// CHECK-NOT: llvm.sub
// CHECK: llvm.return
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wrapped(%x: tensor<64xi32, #b1>, %y: tensor<64xi32, #b1>) -> tensor<64xi32, #b1> {
    %a = arith.subi %x, %y : tensor<64xi32, #b1>
    tt.return %a : tensor<64xi32, #b1>
  }
}

// -----

// tt.addptr: one getelementptr per register in units of the pointee (f32
// with i32 offsets, f16 with i64 offsets), register r of the pointers with
// register r of the offsets.
// CHECK-LABEL: llvm.func @addptr
// CHECK: %[[P0:.*]] = llvm.extractvalue %arg0[0] : !llvm.struct<(ptr<1>, ptr<1>)>
// CHECK: %[[P1:.*]] = llvm.extractvalue %arg0[1] : !llvm.struct<(ptr<1>, ptr<1>)>
// CHECK: %[[O0:.*]] = llvm.extractvalue %arg1[0] : !llvm.struct<(i32, i32)>
// CHECK: %[[O1:.*]] = llvm.extractvalue %arg1[1] : !llvm.struct<(i32, i32)>
// CHECK: llvm.getelementptr %[[P0]][%[[O0]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK: llvm.getelementptr %[[P1]][%[[O1]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK: %[[H0:.*]] = llvm.extractvalue %arg2[0]
// CHECK: %[[H1:.*]] = llvm.extractvalue %arg2[1]
// CHECK: %[[L0:.*]] = llvm.extractvalue %arg3[0] : !llvm.struct<(i64, i64)>
// CHECK: %[[L1:.*]] = llvm.extractvalue %arg3[1] : !llvm.struct<(i64, i64)>
// CHECK: llvm.getelementptr %[[H0]][%[[L0]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// CHECK: llvm.getelementptr %[[H1]][%[[L1]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// CHECK-NOT: llvm.getelementptr
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @addptr(%p: tensor<256x!tt.ptr<f32>, #b2>, %o: tensor<256xi32, #b2>, %h: tensor<256x!tt.ptr<f16>, #b2>, %l: tensor<256xi64, #b2>) -> (tensor<256x!tt.ptr<f32>, #b2>, tensor<256x!tt.ptr<f16>, #b2>) {
    %0 = tt.addptr %p, %o : tensor<256x!tt.ptr<f32>, #b2>, tensor<256xi32, #b2>
    %1 = tt.addptr %h, %l : tensor<256x!tt.ptr<f16>, #b2>, tensor<256xi64, #b2>
    tt.return %0, %1 : tensor<256x!tt.ptr<f32>, #b2>, tensor<256x!tt.ptr<f16>, #b2>
  }
}

// -----

// Element types: each op keeps its type per register (2 of each).
// CHECK-LABEL: llvm.func @types
// CHECK-COUNT-2: llvm.fadd %{{.*}}, %{{.*}} : f16
// CHECK-COUNT-2: llvm.fmul %{{.*}}, %{{.*}} : bf16
// CHECK-COUNT-2: llvm.fsub %{{.*}}, %{{.*}} : f64
// CHECK-COUNT-2: llvm.mul %{{.*}}, %{{.*}} : i8
// CHECK-COUNT-2: llvm.ashr %{{.*}}, %{{.*}} : i64
// CHECK-COUNT-2: llvm.fpext %{{.*}} : f16 to f32
// CHECK-COUNT-2: llvm.fptrunc %{{.*}} : f64 to bf16
// CHECK-COUNT-2: llvm.sitofp %{{.*}} : i8 to f64
// CHECK-COUNT-2: llvm.fcmp "olt" %{{.*}}, %{{.*}} : f16
// CHECK-COUNT-2: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, f16
// CHECK-NOT: llvm.select
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @types(%h: tensor<256xf16, #b2>, %b: tensor<256xbf16, #b2>, %d: tensor<256xf64, #b2>, %c: tensor<256xi8, #b2>, %l: tensor<256xi64, #b2>) -> (tensor<256xf16, #b2>, tensor<256xbf16, #b2>, tensor<256xf64, #b2>, tensor<256xi8, #b2>, tensor<256xi64, #b2>, tensor<256xf32, #b2>, tensor<256xbf16, #b2>, tensor<256xf64, #b2>, tensor<256xf16, #b2>) {
    %0 = arith.addf %h, %h : tensor<256xf16, #b2>
    %1 = arith.mulf %b, %b : tensor<256xbf16, #b2>
    %2 = arith.subf %d, %d : tensor<256xf64, #b2>
    %3 = arith.muli %c, %c : tensor<256xi8, #b2>
    %4 = arith.shrsi %l, %l : tensor<256xi64, #b2>
    %5 = arith.extf %h : tensor<256xf16, #b2> to tensor<256xf32, #b2>
    %6 = arith.truncf %d : tensor<256xf64, #b2> to tensor<256xbf16, #b2>
    %7 = arith.sitofp %c : tensor<256xi8, #b2> to tensor<256xf64, #b2>
    %8 = arith.cmpf olt, %h, %0 : tensor<256xf16, #b2>
    %9 = arith.select %8, %h, %0 : tensor<256xi1, #b2>, tensor<256xf16, #b2>
    tt.return %0, %1, %2, %3, %4, %5, %6, %7, %9 : tensor<256xf16, #b2>, tensor<256xbf16, #b2>, tensor<256xf64, #b2>, tensor<256xi8, #b2>, tensor<256xi64, #b2>, tensor<256xf32, #b2>, tensor<256xbf16, #b2>, tensor<256xf64, #b2>, tensor<256xf16, #b2>
  }
}

// -----

// tt.precise_sqrt -> llvm.intr.sqrt and tt.precise_divf -> llvm.fdiv (both
// IEEE-rounded in PTX), clampf: max then min, NaN-propagating
// (maximum/minimum) with propagateNan = all, maxnum/minnum otherwise; the
// operands in order (x, lo, hi).
// CHECK-LABEL: llvm.func @precise
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[Q0:.*]] = llvm.intr.sqrt(%[[X0]]) : (f32) -> f32
// CHECK: %[[Q1:.*]] = llvm.intr.sqrt(%[[X1]]) : (f32) -> f32
// CHECK-NOT: llvm.intr.sqrt
// CHECK: %[[Y0:.*]] = llvm.extractvalue %arg1[0]
// CHECK: %[[Y1:.*]] = llvm.extractvalue %arg1[1]
// CHECK: %[[D0:.*]] = llvm.fdiv %{{.*}}, %[[Y0]] : f32
// CHECK: %[[D1:.*]] = llvm.fdiv %{{.*}}, %[[Y1]] : f32
// CHECK-NOT: llvm.fdiv
// CHECK: %[[MX0:.*]] = llvm.intr.maximum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.intr.minimum(%[[MX0]], %{{.*}}) : (f32, f32) -> f32
// CHECK: %[[MX1:.*]] = llvm.intr.maximum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.intr.minimum(%[[MX1]], %{{.*}}) : (f32, f32) -> f32
// CHECK-NOT: llvm.intr.maximum
// CHECK: %[[MN0:.*]] = llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.intr.minnum(%[[MN0]], %{{.*}}) : (f32, f32) -> f32
// CHECK: %[[MN1:.*]] = llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.intr.minnum(%[[MN1]], %{{.*}}) : (f32, f32) -> f32
// CHECK-NOT: llvm.intr.maxnum
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @precise(%x: tensor<256xf32, #b2>, %y: tensor<256xf32, #b2>) -> (tensor<256xf32, #b2>, tensor<256xf32, #b2>) {
    %sq = tt.precise_sqrt %x : tensor<256xf32, #b2>
    %dv = tt.precise_divf %sq, %y : tensor<256xf32, #b2>
    %c1 = tt.clampf %dv, %x, %y, propagateNan = all : tensor<256xf32, #b2>
    %c2 = tt.clampf %dv, %x, %y, propagateNan = none : tensor<256xf32, #b2>
    tt.return %c1, %c2 : tensor<256xf32, #b2>, tensor<256xf32, #b2>
  }
}

// -----

// tt.mulhiui: the high half of the zero-extended double-width product,
// i32 through i64 (shift 32), i64 through i128 (shift 64).
// CHECK-LABEL: llvm.func @mulhi
// CHECK: %[[A0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[B0:.*]] = llvm.extractvalue %arg1[0]
// CHECK: %[[WA:.*]] = llvm.zext %[[A0]] : i32 to i64
// CHECK: %[[WB:.*]] = llvm.zext %[[B0]] : i32 to i64
// CHECK: %[[P:.*]] = llvm.mul %[[WA]], %[[WB]] : i64
// CHECK: %[[S32:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: %[[H:.*]] = llvm.lshr %[[P]], %[[S32]] : i64
// CHECK: llvm.trunc %[[H]] : i64 to i32
// CHECK: llvm.zext %{{.*}} : i32 to i64
// CHECK: %[[L:.*]] = llvm.zext %{{.*}} : i64 to i128
// CHECK: %[[R:.*]] = llvm.zext %{{.*}} : i64 to i128
// CHECK: %[[Q:.*]] = llvm.mul %[[L]], %[[R]] : i128
// CHECK: %[[S64:.*]] = llvm.mlir.constant(64 : i128) : i128
// CHECK: %[[G:.*]] = llvm.lshr %[[Q]], %[[S64]] : i128
// CHECK: llvm.trunc %[[G]] : i128 to i64
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mulhi(%a: tensor<256xi32, #b2>, %b: tensor<256xi32, #b2>, %c: tensor<256xi64, #b2>) -> (tensor<256xi32, #b2>, tensor<256xi64, #b2>) {
    %0 = tt.mulhiui %a, %b : tensor<256xi32, #b2>
    %1 = tt.mulhiui %c, %c : tensor<256xi64, #b2>
    tt.return %0, %1 : tensor<256xi32, #b2>, tensor<256xi64, #b2>
  }
}

// -----

// Approximate transcendentals: exp(x) = ex2.approx(x * log2(e)),
// log(x) = lg2.approx(x) * ln(2); exp2/log2/sin/cos are the instruction
// alone (no scaling). f16 goes through f32 (fpext, ex2, fptrunc); f64 exp
// calls libdevice's __nv_exp (declared once).
// CHECK-LABEL: llvm.func @__nv_exp(f64) -> f64
// CHECK-NOT: llvm.func @__nv_exp
// CHECK-LABEL: llvm.func @approx
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[L2E:.*]] = llvm.mlir.constant(1.44269502 : f32) : f32
// CHECK: %[[SX:.*]] = llvm.fmul %[[X0]], %[[L2E]] : f32
// CHECK: %[[E:.*]] = llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[SX]] : (f32) -> f32
// CHECK: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;"
// CHECK: %[[LG:.*]] = llvm.inline_asm "lg2.approx.f32 $0, $1;", "=f,f" %{{.*}} : (f32) -> f32
// CHECK: %[[LN2:.*]] = llvm.mlir.constant(0.693147182 : f32) : f32
// CHECK: llvm.fmul %[[LG]], %[[LN2]] : f32
// CHECK: llvm.inline_asm "lg2.approx.f32 $0, $1;"
// CHECK: %[[Z0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32)>
// CHECK-NEXT: %[[Z1:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(f32, f32)>
// CHECK-NEXT: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[Z0]]
// CHECK-NEXT: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[Z1]]
// CHECK: %[[W0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32)>
// CHECK-NEXT: %[[W1:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(f32, f32)>
// CHECK-NEXT: llvm.inline_asm "lg2.approx.f32 $0, $1;", "=f,f" %[[W0]]
// CHECK-NEXT: llvm.inline_asm "lg2.approx.f32 $0, $1;", "=f,f" %[[W1]]
// CHECK-COUNT-2: llvm.inline_asm "sin.approx.f32 $0, $1;", "=f,f"
// CHECK-COUNT-2: llvm.inline_asm "cos.approx.f32 $0, $1;", "=f,f"
// CHECK: %[[HX:.*]] = llvm.fpext %{{.*}} : f16 to f32
// CHECK: %[[HS:.*]] = llvm.fmul %[[HX]], %{{.*}} : f32
// CHECK: %[[HE:.*]] = llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[HS]]
// CHECK: llvm.fptrunc %[[HE]] : f32 to f16
// CHECK-COUNT-2: llvm.call @__nv_exp(%{{.*}}) {{.*}} : (f64) -> f64
// CHECK-NOT: approx
// CHECK: llvm.return
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @approx(%x: tensor<256xf32, #b2>, %h: tensor<256xf16, #b2>, %d: tensor<256xf64, #b2>) -> (tensor<256xf32, #b2>, tensor<256xf32, #b2>, tensor<256xf32, #b2>, tensor<256xf32, #b2>, tensor<256xf32, #b2>, tensor<256xf32, #b2>, tensor<256xf16, #b2>, tensor<256xf64, #b2>) {
    %0 = math.exp %x : tensor<256xf32, #b2>
    %1 = math.log %0 : tensor<256xf32, #b2>
    %2 = math.exp2 %1 : tensor<256xf32, #b2>
    %3 = math.log2 %2 : tensor<256xf32, #b2>
    %4 = math.sin %x : tensor<256xf32, #b2>
    %5 = math.cos %x : tensor<256xf32, #b2>
    %6 = math.exp %h : tensor<256xf16, #b2>
    %7 = math.exp %d : tensor<256xf64, #b2>
    tt.return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<256xf32, #b2>, tensor<256xf32, #b2>, tensor<256xf32, #b2>, tensor<256xf32, #b2>, tensor<256xf32, #b2>, tensor<256xf32, #b2>, tensor<256xf16, #b2>, tensor<256xf64, #b2>
  }
}

// -----

// Division: f32 arith.divf is div.full.f32 (llvm.nvvm.div.full, Triton's
// `/`), tt.precise_divf the IEEE-rounded fdiv (div.rn), f64 arith.divf
// fdiv too.
// CHECK-LABEL: llvm.func @divide
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.nvvm.div.full"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK-COUNT-2: llvm.fdiv %{{.*}}, %{{.*}} : f32
// CHECK-COUNT-2: llvm.fdiv %{{.*}}, %{{.*}} : f64
// CHECK-NOT: div.full
// CHECK: llvm.return
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @divide(%x: tensor<256xf32, #b2>, %y: tensor<256xf32, #b2>, %d: tensor<256xf64, #b2>) -> (tensor<256xf32, #b2>, tensor<256xf32, #b2>, tensor<256xf64, #b2>) {
    %0 = arith.divf %x, %y : tensor<256xf32, #b2>
    %1 = tt.precise_divf %x, %y : tensor<256xf32, #b2>
    %2 = arith.divf %d, %d : tensor<256xf64, #b2>
    tt.return %0, %1, %2 : tensor<256xf32, #b2>, tensor<256xf32, #b2>, tensor<256xf64, #b2>
  }
}
