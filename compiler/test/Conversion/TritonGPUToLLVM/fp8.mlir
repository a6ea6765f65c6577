// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm | FileCheck %s

// 8-bit floats arrive as their i8 bit patterns. f8E5M2 is the high byte of
// the f16 of the same value: zero-extended, shifted left by 8, read as f16,
// then extended. One register a thread (32 elements on one warp).
// CHECK-LABEL: llvm.func @e5m2_to_f32
// CHECK: %[[B:.*]] = llvm.zext %{{.*}} : i8 to i16
// CHECK: %[[S:.*]] = llvm.shl %[[B]], %{{.*}} : i16
// CHECK: %[[H:.*]] = llvm.bitcast %[[S]] : i16 to f16
// CHECK: llvm.fpext %[[H]] : f16 to f32
// CHECK-NOT: llvm.fmul
// CHECK: llvm.return
// The exact values, constants folded by LLVM: Tools/tgpu-compile/fp8_values.ttir.
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @e5m2_to_f32(%x: tensor<32xf8E5M2, #b>) -> tensor<32xf32, #b> {
    %y = tt.fp_to_fp %x : tensor<32xf8E5M2, #b> -> tensor<32xf32, #b>
    tt.return %y : tensor<32xf32, #b>
  }
}

// -----

// f8E4M3FN (bias 7): the 7 magnitude bits moved to an f16's exponent and
// mantissa places (shift by 7) with the sign on top, read as f16, extended,
// and scaled by 2^8 = 15 - 7 biases; the one NaN pattern (magnitude 0x7F)
// is selected. To f16 the f32 is truncated (exact).
// CHECK-LABEL: llvm.func @e4m3_to_f16
// CHECK: %[[B:.*]] = llvm.zext %{{.*}} : i8 to i16
// CHECK: %[[M:.*]] = llvm.and %[[B]], %{{.*}} : i16
// CHECK: %[[SIGN:.*]] = llvm.and %[[B]], %{{.*}} : i16
// CHECK: %[[SH:.*]] = llvm.shl %[[SIGN]], %{{.*}} : i16
// CHECK: %[[MS:.*]] = llvm.shl %[[M]], %{{.*}} : i16
// CHECK: %[[OR:.*]] = llvm.or %[[SH]], %[[MS]] : i16
// CHECK: %[[H:.*]] = llvm.bitcast %[[OR]] : i16 to f16
// CHECK: %[[W:.*]] = llvm.fpext %[[H]] : f16 to f32
// CHECK: %[[SCALE:.*]] = llvm.mlir.constant(2.560000e+02 : f32)
// CHECK: %[[V:.*]] = llvm.fmul %[[W]], %[[SCALE]] : f32
// CHECK: %[[ISNAN:.*]] = llvm.icmp "eq" %[[M]], %{{.*}} : i16
// CHECK: %[[NAN:.*]] = llvm.mlir.constant(0x7FC00000 : f32)
// CHECK: %[[R:.*]] = llvm.select %[[ISNAN]], %[[NAN]], %[[V]] : i1, f32
// CHECK: llvm.fptrunc %[[R]] : f32 to f16
// CHECK: llvm.return
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @e4m3_to_f16(%x: tensor<32xf8E4M3FN, #b>) -> tensor<32xf16, #b> {
    %y = tt.fp_to_fp %x : tensor<32xf8E4M3FN, #b> -> tensor<32xf16, #b>
    tt.return %y : tensor<32xf16, #b>
  }
}

// -----

// Between the wide floats: fpext widens; rtne narrowing is fptrunc; f16 to
// bf16 goes through f32 (exact) and is rounded from there.
// CHECK-LABEL: llvm.func @wide
// CHECK: llvm.fpext %{{.*}} : f16 to f32
// CHECK: llvm.fptrunc %{{.*}} : f32 to bf16
// CHECK: %[[E:.*]] = llvm.fpext %{{.*}} : f16 to f32
// CHECK: llvm.fptrunc %[[E]] : f32 to bf16
// CHECK: llvm.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wide(%h: f16) -> (f32, bf16, bf16) {
    %w = tt.fp_to_fp %h : f16 -> f32
    %n = tt.fp_to_fp %w, rounding = rtne : f32 -> bf16
    %x = tt.fp_to_fp %h, rounding = rtne : f16 -> bf16
    tt.return %w, %n, %x : f32, bf16, bf16
  }
}

// -----

// The FMA-path dot decodes fp8 operands before multiplying: a 1x1x1 product
// of two f8E5M2 values accumulated in f32 is one fma of two decoded values.
// CHECK-LABEL: llvm.func @dot_e5m2
// CHECK: %[[A:.*]] = llvm.bitcast %{{.*}} : i16 to f16
// CHECK: %[[AF:.*]] = llvm.fpext %[[A]] : f16 to f32
// CHECK: %[[B:.*]] = llvm.bitcast %{{.*}} : i16 to f16
// CHECK: %[[BF:.*]] = llvm.fpext %[[B]] : f16 to f32
// CHECK: llvm.intr.fma(%[[AF]], %[[BF]], %{{.*}}) : (f32, f32, f32) -> f32
// CHECK-NOT: llvm.sitofp
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @dot_e5m2(%a: tensor<1x1xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #c}>>, %b: tensor<1x32xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #c}>>, %acc: tensor<1x32xf32, #c>) -> tensor<1x32xf32, #c> {
    %d = tt.dot %a, %b, %acc : tensor<1x1xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #c}>> * tensor<1x32xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #c}>> -> tensor<1x32xf32, #c>
    tt.return %d : tensor<1x32xf32, #c>
  }
}

// -----

// To 8-bit floats, two registers at a time (PTX ISA, "cvt"). The f16x2 form
// converts element 0 of its operand (the low half) into the result's low
// byte: register 0's code is the low byte, register 1's the high one.
// CHECK-LABEL: llvm.func @f16_to_e4m3
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[V0:.*]] = llvm.insertelement %[[X0]], %{{.*}}[%[[C0]] : i32] : vector<2xf16>
// CHECK: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[V:.*]] = llvm.insertelement %[[X1]], %[[V0]][%[[C1]] : i32] : vector<2xf16>
// CHECK: %[[P:.*]] = nvvm.convert.f16x2.to.f8x2 %[[V]] : vector<2xf16> -> i16(f8E4M3FN)
// CHECK: %[[LO:.*]] = llvm.trunc %[[P]] : i16 to i8
// CHECK: %[[C8:.*]] = llvm.mlir.constant(8 : i16) : i16
// CHECK: %[[S:.*]] = llvm.lshr %[[P]], %[[C8]] : i16
// CHECK: %[[HI:.*]] = llvm.trunc %[[S]] : i16 to i8
// CHECK: nvvm.convert.f16x2.to.f8x2 %{{.*}} : vector<2xf16> -> i16(f8E4M3FN)
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[LO]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[HI]], %[[R0]][1]
// CHECK: llvm.return
//
// The f32 form's first operand goes to the upper byte: register 1 first.
// CHECK-LABEL: llvm.func @f32_to_e5m2
// CHECK: %[[Y0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[Y1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[Q:.*]] = nvvm.convert.f32x2.to.f8x2 %[[Y1]], %[[Y0]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E5M2)
// CHECK: llvm.trunc %[[Q]] : i16 to i8
// CHECK: llvm.lshr %[[Q]]
// CHECK: llvm.return
//
// bf16 is widened (exactly) to f32 and takes the f32 form.
// CHECK-LABEL: llvm.func @bf16_to_e4m3
// CHECK: %[[B0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[B1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[W0:.*]] = llvm.fpext %[[B0]] : bf16 to f32
// CHECK: %[[W1:.*]] = llvm.fpext %[[B1]] : bf16 to f32
// CHECK: nvvm.convert.f32x2.to.f8x2 %[[W1]], %[[W0]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
// CHECK: llvm.return
//
// A single value (an odd count) is paired with a zero, and only its code
// (the low byte) is kept. rtz from f32 to f8E5M2 is cvt.rz.f16x2.f32 (src_hi
// to the upper half) and the high byte of the low f16, bits 8..15.
// CHECK-LABEL: llvm.func @scalars
// CHECK: %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK: %[[E:.*]] = nvvm.convert.f32x2.to.f8x2 %[[Z]], %arg0 {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
// CHECK: %[[EB:.*]] = llvm.trunc %[[E]] : i16 to i8
// CHECK: %[[Z2:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK: %[[H:.*]] = nvvm.convert.f32x2.to.f16x2 %[[Z2]], %arg0 {rnd = #nvvm.fp_rnd_mode<rz>} : vector<2xf16>
// CHECK: %[[HW:.*]] = llvm.bitcast %[[H]] : vector<2xf16> to i32
// CHECK: %[[C8W:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: %[[HS:.*]] = llvm.lshr %[[HW]], %[[C8W]] : i32
// CHECK: %[[RB:.*]] = llvm.trunc %[[HS]] : i32 to i8
// CHECK: %[[S0:.*]] = llvm.insertvalue %[[EB]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[RB]], %[[S0]][1]
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f16_to_e4m3(%x: tensor<128xf16, #b>) -> tensor<128xf8E4M3FN, #b> {
    %y = tt.fp_to_fp %x, rounding = rtne : tensor<128xf16, #b> -> tensor<128xf8E4M3FN, #b>
    tt.return %y : tensor<128xf8E4M3FN, #b>
  }
  tt.func public @f32_to_e5m2(%x: tensor<128xf32, #b>) -> tensor<128xf8E5M2, #b> {
    %y = tt.fp_to_fp %x, rounding = rtne : tensor<128xf32, #b> -> tensor<128xf8E5M2, #b>
    tt.return %y : tensor<128xf8E5M2, #b>
  }
  tt.func public @bf16_to_e4m3(%x: tensor<128xbf16, #b>) -> tensor<128xf8E4M3FN, #b> {
    %y = tt.fp_to_fp %x, rounding = rtne : tensor<128xbf16, #b> -> tensor<128xf8E4M3FN, #b>
    tt.return %y : tensor<128xf8E4M3FN, #b>
  }
  tt.func public @scalars(%x: f32) -> (f8E4M3FN, f8E5M2) {
    %e = tt.fp_to_fp %x, rounding = rtne : f32 -> f8E4M3FN
    %z = tt.fp_to_fp %x, rounding = rtz : f32 -> f8E5M2
    tt.return %e, %z : f8E4M3FN, f8E5M2
  }
}

// -----

// A select moves 8-bit floats as the bits they are (i8), a constant too
// (Triton's `tl.where(mask, x, 0)` on fp8): LLVM has no fp8 type.
// CHECK-LABEL: llvm.func @fp8_select
// CHECK: llvm.mlir.constant(0.000000e+00 : f8E4M3FNUZ) : i8
// CHECK-COUNT-8: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i8
// CHECK-NOT: f8E4M3FNUZ
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_select(%m: tensor<1024xi1, #blocked>, %x: tensor<1024xf8E4M3FNUZ, #blocked>, %p: tensor<1024x!tt.ptr<f8E4M3FNUZ>, #blocked>) {
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf8E4M3FNUZ, #blocked>
    %y = arith.select %m, %x, %zero : tensor<1024xi1, #blocked>, tensor<1024xf8E4M3FNUZ, #blocked>
    tt.store %p, %y : tensor<1024x!tt.ptr<f8E4M3FNUZ>, #blocked>
    tt.return
  }
}
