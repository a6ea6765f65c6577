// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm | FileCheck %s

// tt.extern_elementwise: the symbol declared once (two ops call it), one call
// per register (2 here); pure calls touch no memory, the impure one keeps
// LLVM's default (may read and write anything).
// CHECK-LABEL: module
// CHECK-DAG: llvm.func @__nv_tanhf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_fmaf_rn(f32, f32, f32) -> f32
// CHECK-NOT: llvm.func @__nv_tanhf
// CHECK-LABEL: llvm.func @extern_calls
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: llvm.call @__nv_tanhf(%[[X0]]) {memory_effects = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none{{.*}}>, no_unwind} : (f32) -> f32
// CHECK: llvm.call @__nv_tanhf(%[[X1]]) {memory_effects = {{.*}}, no_unwind} : (f32) -> f32
// CHECK: llvm.call @__nv_tanhf(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call @__nv_tanhf(%{{.*}}) : (f32) -> f32
// CHECK-COUNT-2: llvm.call @__nv_fmaf_rn(%{{.*}}, %{{.*}}, %{{.*}}) {{.*}}: (f32, f32, f32) -> f32
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @extern_calls(%x: tensor<256xf32, #b>) -> (tensor<256xf32, #b>, tensor<256xf32, #b>, tensor<256xf32, #b>) {
    %y = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<256xf32, #b>) -> tensor<256xf32, #b>
    %z = tt.extern_elementwise %x {libname = "", libpath = "", pure = false, symbol = "__nv_tanhf"} : (tensor<256xf32, #b>) -> tensor<256xf32, #b>
    %w = tt.extern_elementwise %x, %y, %z {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_fmaf_rn"} : (tensor<256xf32, #b>, tensor<256xf32, #b>, tensor<256xf32, #b>) -> tensor<256xf32, #b>
    tt.return %y, %z, %w : tensor<256xf32, #b>, tensor<256xf32, #b>, tensor<256xf32, #b>
  }
}

// -----

// A scalar extern call, with an integer and a mixed signature.
// CHECK-LABEL: module
// CHECK: llvm.func @__nv_ldexpf(f32, i32) -> f32
// CHECK-LABEL: llvm.func @extern_scalar
// CHECK: %[[R:.*]] = llvm.call @__nv_ldexpf(%arg0, %arg1) {{.*}}: (f32, i32) -> f32
// CHECK: llvm.return %[[R]]
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @extern_scalar(%x: f32, %e: i32) -> f32 {
    %y = tt.extern_elementwise %x, %e {libname = "", libpath = "", pure = true, symbol = "__nv_ldexpf"} : (f32, i32) -> f32
    tt.return %y : f32
  }
}

// -----

// Math ops without a PTX instruction call libdevice: f32 -> __nv_*f, f64 ->
// __nv_*, f16/bf16 through f32. f32 exp/log2/sin keep the approximate PTX
// instructions; sqrt stays an intrinsic NVPTX selects.
// CHECK-LABEL: module
// CHECK-DAG: llvm.func @__nv_erff(f32) -> f32
// CHECK-DAG: llvm.func @__nv_exp(f64) -> f64
// CHECK-DAG: llvm.func @__nv_tanhf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_pow(f64, f64) -> f64
// CHECK-DAG: llvm.func @__nv_powif(f32, i32) -> f32
// CHECK-DAG: llvm.func @__nv_cos(f64) -> f64
// CHECK-DAG: llvm.func @__nv_atan2f(f32, f32) -> f32
// CHECK-DAG: llvm.func @__nv_log1pf(f32) -> f32
// CHECK-LABEL: llvm.func @math
// CHECK: %[[E0:.*]] = llvm.call @__nv_erff(%{{.*}}) {{.*}}: (f32) -> f32
// CHECK: %[[E1:.*]] = llvm.call @__nv_erff(%{{.*}}) {{.*}}: (f32) -> f32
// CHECK: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;"
// CHECK: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;"
// CHECK: llvm.call @__nv_exp(%arg1) {{.*}}: (f64) -> f64
// CHECK: llvm.call @__nv_cos(%arg1) {{.*}}: (f64) -> f64
// CHECK: llvm.call @__nv_pow(%arg1, %arg1) {{.*}}: (f64, f64) -> f64
// CHECK: %[[H:.*]] = llvm.fpext %arg2 : f16 to f32
// CHECK: %[[T:.*]] = llvm.call @__nv_tanhf(%[[H]]) {{.*}}: (f32) -> f32
// CHECK: llvm.fptrunc %[[T]] : f32 to f16
// CHECK: %[[BF:.*]] = llvm.fpext %arg3 : bf16 to f32
// CHECK: %[[L:.*]] = llvm.call @__nv_log1pf(%[[BF]]) {{.*}}: (f32) -> f32
// CHECK: llvm.fptrunc %[[L]] : f32 to bf16
// CHECK: llvm.call @__nv_powif(%arg4, %arg5) {{.*}}: (f32, i32) -> f32
// CHECK: llvm.call @__nv_atan2f(%arg4, %arg4) {{.*}}: (f32, f32) -> f32
// CHECK: llvm.intr.sqrt(%arg1) : (f64) -> f64
// CHECK: llvm.inline_asm "sin.approx.f32 $0, $1;"
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @math(%x: tensor<256xf32, #b>, %d: f64, %h: f16, %bf: bf16, %f: f32, %n: i32, %out: !tt.ptr<f64>) {
    %erf = math.erf %x : tensor<256xf32, #b>
    %exp = math.exp %x : tensor<256xf32, #b>
    %expd = math.exp %d : f64
    %cosd = math.cos %d : f64
    %powd = math.powf %d, %d : f64
    %tanhh = math.tanh %h : f16
    %logbf = math.log1p %bf : bf16
    %powi = math.fpowi %f, %n : f32, i32
    %atan2 = math.atan2 %f, %f : f32
    %sqrtd = math.sqrt %d : f64
    %sinf = math.sin %f : f32
    tt.return
  }
}

// -----

// The tt float/integer ops, per register: precise sqrt/div as the IEEE
// intrinsics (sqrt.rn / div.rn in PTX), clampf as max-then-min (NaN-
// propagating for propagateNan = all), mulhiui as the high half of the
// double-width product.
// CHECK-LABEL: llvm.func @tt_ops
// CHECK: llvm.intr.sqrt(%arg0) : (f32) -> f32
// CHECK: llvm.fdiv %arg0, %arg1 : f32
// CHECK: %[[MX:.*]] = llvm.intr.maxnum(%arg0, %arg1) : (f32, f32) -> f32
// CHECK: llvm.intr.minnum(%[[MX]], %arg2) : (f32, f32) -> f32
// CHECK: %[[MXN:.*]] = llvm.intr.maximum(%arg0, %arg1) : (f32, f32) -> f32
// CHECK: llvm.intr.minimum(%[[MXN]], %arg2) : (f32, f32) -> f32
// CHECK: %[[A:.*]] = llvm.zext %arg3 : i32 to i64
// CHECK: %[[B:.*]] = llvm.zext %arg3 : i32 to i64
// CHECK: %[[P:.*]] = llvm.mul %[[A]], %[[B]] : i64
// CHECK: %[[S:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: %[[H:.*]] = llvm.lshr %[[P]], %[[S]] : i64
// CHECK: llvm.trunc %[[H]] : i64 to i32
// CHECK: llvm.zext %arg4 : i64 to i128
// CHECK: llvm.mlir.constant(64 : i128) : i128
// CHECK: llvm.trunc %{{.*}} : i128 to i64
// CHECK-NOT: llvm.call
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tt_ops(%x: f32, %y: f32, %z: f32, %i: i32, %l: i64) {
    %s = tt.precise_sqrt %x : f32
    %d = tt.precise_divf %x, %y : f32
    %c = tt.clampf %x, %y, %z, propagateNan = none : f32
    %n = tt.clampf %x, %y, %z, propagateNan = all : f32
    %h = tt.mulhiui %i, %i : i32
    %hl = tt.mulhiui %l, %l : i64
    tt.return
  }
}
