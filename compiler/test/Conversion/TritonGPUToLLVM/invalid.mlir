// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm -verify-diagnostics

#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ipowi(%x: tensor<512xi32, #a>) {
    // expected-error @below {{math.ipowi on 'i32' has no GPU lowering}}
    %e = math.ipowi %x, %x : tensor<512xi32, #a>
    tt.return
  }
}

// -----

// libdevice's powi takes an i32 exponent.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fpowi_i64(%y: f64, %n: i64) {
    // expected-error @below {{math.fpowi on 'f64' has no GPU lowering (libdevice's powi takes an i32 exponent)}}
    %e = math.fpowi %y, %n : f64, i64
    tt.return
  }
}

// -----

// libdevice has no f80 (or other) variants.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @erf_f80(%y: f80) {
    // expected-error @below {{math.erf on 'f80' has no GPU lowering}}
    %e = math.erf %y : f80
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @extern_no_symbol(%x: f32) {
    // expected-error @below {{tt.extern_elementwise needs a symbol to call}}
    // expected-error @below {{failed to legalize operation 'tt.extern_elementwise'}}
    %y = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = ""} : (f32) -> f32
    tt.return
  }
}

// -----

// One symbol, two signatures.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @extern_clash(%x: f32, %d: f64) {
    %y = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_sinf"} : (f32) -> f32
    // expected-error @below {{cannot call '__nv_sinf' as '!llvm.func<f64 (f64)>': it is declared as '!llvm.func<f32 (f32)>'}}
    // expected-error @below {{failed to legalize operation 'tt.extern_elementwise'}}
    %z = tt.extern_elementwise %d {libname = "", libpath = "", pure = true, symbol = "__nv_sinf"} : (f64) -> f64
    tt.return
  }
}

// -----

// The constraints must match what packed_element makes of the operands: 2
// f16 per asm travel in one vector<2xf16> ("r"), giving 1 output and 1
// input, not 2 and 2.
#a = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @asm_constraints(%x: tensor<256xf16, #a>) {
    // expected-error @below {{the constraints "=h,=h,h,h" declare 2 outputs and 2 inputs, but packed_element = 2 needs 1 outputs and 1 inputs per asm}}
    // expected-error @below {{failed to legalize operation 'tt.elementwise_inline_asm'}}
    %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=h,=h,h,h", packed_element = 2 : i32, pure = true} %x : tensor<256xf16, #a> -> tensor<256xf16, #a>
    tt.return
  }
}

// -----

// Three f16 per asm cannot be cut into 32-bit pairs.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @asm_odd_pack(%x: f16) {
    // expected-error @below {{packed_element 3 is not a multiple of the 2 elements of 'f16' that share a 32-bit register}}
    // expected-error @below {{failed to legalize operation 'tt.elementwise_inline_asm'}}
    %y = tt.elementwise_inline_asm "op;" {constraints = "=r,=r,r,r", packed_element = 3 : i32, pure = true} %x : f16 -> f16
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @asm_bad_constraints(%x: f32) {
    // expected-error @below {{cannot parse the inline asm constraints "=r,{"}}
    // expected-error @below {{failed to legalize operation 'tt.elementwise_inline_asm'}}
    %y = tt.elementwise_inline_asm "op;" {constraints = "=r,{", packed_element = 1 : i32, pure = true} %x : f32 -> f32
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @print_f8(%x: f8E4M3FN) {
    // expected-error @below {{tt.print cannot print values of type 'f8E4M3FN'}}
    // expected-error @below {{failed to legalize operation 'tt.print'}}
    tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %x : f8E4M3FN
    tt.return
  }
}

// -----

#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @dense_resource(%p: !tt.ptr<i32>) {
    // expected-error @below {{only dense tensor constants can be lowered}}
    %c = arith.constant dense_resource<four_ints> : tensor<4xi32, #a>
    tt.return
  }
}

{-#
  dialect_resources: {
    builtin: {
      four_ints: "0x0400000000000000010000000200000003000000"
    }
  }
#-}

// -----

// expected-error @below {{compute capability 70 is not supported (sm_80 or newer is)}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:70", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @old() {
    tt.return
  }
}

// -----

// expected-error @below {{unsupported target 'hip:gfx942' (expected cuda:N)}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @amd() {
    tt.return
  }
}

// -----

// expected-error @below {{NVIDIA GPUs have 32 threads per warp}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @wave64() {
    tt.return
  }
}

// -----

// The joined dim on lanes (lane 0 would need lane 1's value): Triton's
// verifier rejects the layout pair before any lowering.
#s = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#j = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @join_on_lanes(%x: tensor<128xf32, #s>, %p: tensor<128x2x!tt.ptr<f32>, #j>) {
    // expected-error @below {{incompatible join layout}}
    %j = tt.join %x, %x : tensor<128xf32, #s> -> tensor<128x2xf32, #j>
    tt.store %p, %j : tensor<128x2x!tt.ptr<f32>, #j>
    tt.return
  }
}

// -----

// Without allow_reorder a reshape keeps row-major order, which these
// layouts cannot do in registers.
#s = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#t = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshape_moves(%x: tensor<256xf32, #s>, %p: tensor<16x16x!tt.ptr<f32>, #t>) {
    // expected-error @below {{the operand and result layouts place elements in different threads; this needs a convert_layout}}
    // expected-error @below {{failed to legalize operation 'tt.reshape'}}
    %r = tt.reshape %x : tensor<256xf32, #s> -> tensor<16x16xf32, #t>
    tt.store %p, %r : tensor<16x16x!tt.ptr<f32>, #t>
    tt.return
  }
}

// -----

// Lane 0 holds axis position 2 and lane 1 position 1: the lanes along the
// axis are not in lane-id order, which shfl.up needs.
#l = #ttg.linear<{register = [], lane = [[2], [1], [4], [8], [16]], warp = [[0], [0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scan_lanes_out_of_order(%x: tensor<32xf32, #l>, %p: tensor<32x!tt.ptr<f32>, #l>) {
    // expected-error @below {{cannot scan this layout: the lanes along the axis are not consecutive lane ids}}
    // expected-error @below {{failed to legalize operation 'tt.scan'}}
    %s = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %c: f32):
      %d = arith.addf %a, %c : f32
      tt.scan.return %d : f32
    }) : (tensor<32xf32, #l>) -> tensor<32xf32, #l>
    tt.store %p, %s : tensor<32x!tt.ptr<f32>, #l>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @gather_index_layout(%x: tensor<128xf32, #b>, %i: tensor<128xi32, #c>) {
    // expected-error @below {{indices and output encodings must match}}
    %g = tt.gather %x[%i] {axis = 0 : i32} : (tensor<128xf32, #b>, tensor<128xi32, #c>) -> tensor<128xf32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @histogram_i16(%x: tensor<128xi32, #b>, %p: tensor<16x!tt.ptr<i16>, #b>) {
    // expected-error @below {{PTX has shared-memory atomic adds on 32- and 64-bit integers only, not 'i16'}}
    // expected-error @below {{failed to legalize operation 'tt.histogram'}}
    %h = tt.histogram %x : tensor<128xi32, #b> -> tensor<16xi16, #b>
    tt.store %p, %h : tensor<16x!tt.ptr<i16>, #b>
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mulhi_i16(%x: i16) {
    // expected-error @below {{tt.mulhiui on 'i16' has no GPU lowering (i32 and i64 do)}}
    %y = tt.mulhiui %x, %x : i16
    tt.return
  }
}

// -----

// An f32 mma.sync dot without tf32: rejected by the verifier (Triton's rule)
// before the lowering would refuse it.
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_ieee_f32(%a: tensor<16x8xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b: tensor<8x8xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>, %c: tensor<16x8xf32, #mma>) -> tensor<16x8xf32, #mma> {
    // expected-error @below {{unsupported MMA version}}
    %d = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<16x8xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<8x8xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<16x8xf32, #mma>
    tt.return %d : tensor<16x8xf32, #mma>
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_short_k(%a: tensor<16x8xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<8x8xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<16x8xf32, #mma>) -> tensor<16x8xf32, #mma> {
    // expected-error @below {{a tensor-core dot needs M % 16, N % 8 and K % 16 to be 0; got 16x8x8}}
    // expected-error @below {{failed to legalize operation 'tt.dot'}}
    %d = tt.dot %a, %b, %c : tensor<16x8xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<8x8xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x8xf32, #mma>
    tt.return %d : tensor<16x8xf32, #mma>
  }
}

// -----

// kWidth 4 puts four consecutive k in a thread: 16-bit operands are read
// with K permuted alike in both (dot_mma.mlir), but tf32's fragments (one
// element a register, k = t and t + 4) are no such permutation of them, so
// the lowering refuses instead of pairing the wrong elements.
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_wrong_kwidth(%a: tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, %b: tensor<16x8xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>, %c: tensor<16x8xf32, #mma>) -> tensor<16x8xf32, #mma> {
    // expected-error @below {{operand A's layout does not hold mma.sync's A fragments}}
    // expected-error @below {{failed to legalize operation 'tt.dot'}}
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<16x8xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<16x8xf32, #mma>
    tt.return %d : tensor<16x8xf32, #mma>
  }
}

// -----

// Conversions to 8-bit floats exist from f16, bf16 and f32 only: PTX has no
// cvt to fp8 from f64 or between the fp8 types.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f64_to_fp8(%x: f64) {
    // expected-error @below {{tt.fp_to_fp from 'f64' to 'f8E5M2' is not supported yet (to f8E5M2 and f8E4M3FN from f16, bf16 or f32 is)}}
    %y = tt.fp_to_fp %x, rounding = rtne : f64 -> f8E5M2
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_to_fp8(%x: f8E5M2) {
    // expected-error @below {{tt.fp_to_fp from 'f8E5M2' to 'f8E4M3FN' is not supported yet (to f8E5M2 and f8E4M3FN from f16, bf16 or f32 is)}}
    %y = tt.fp_to_fp %x, rounding = rtne : f8E5M2 -> f8E4M3FN
    tt.return
  }
}

// -----

// rtz to fp8 is Triton's only from f32 to f8E5M2.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rtz_to_e4m3(%x: f32) {
    // expected-error @below {{tt.fp_to_fp from 'f32' to 'f8E4M3FN' with rounding = rtz is not supported (rtne is; rtz only from f32 to f8E5M2)}}
    %y = tt.fp_to_fp %x, rounding = rtz : f32 -> f8E4M3FN
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rtz_f16_to_e5m2(%x: f16) {
    // expected-error @below {{tt.fp_to_fp from 'f16' to 'f8E5M2' with rounding = rtz is not supported (rtne is; rtz only from f32 to f8E5M2)}}
    %y = tt.fp_to_fp %x, rounding = rtz : f16 -> f8E5M2
    tt.return
  }
}

// -----

// The cvt forms to e4m3x2 / e5m2x2 need sm_89.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_on_sm80(%x: f16) {
    // expected-error @below {{tt.fp_to_fp to 'f8E4M3FN' needs sm_89 or newer (PTX cvt to e4m3x2/e5m2x2); the target is cuda:80}}
    %y = tt.fp_to_fp %x, rounding = rtne : f16 -> f8E4M3FN
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rtz(%x: f32) {
    // expected-error @below {{tt.fp_to_fp with rounding = rtz is not supported yet (rtne is)}}
    %y = tt.fp_to_fp %x, rounding = rtz : f32 -> f16
    tt.return
  }
}

// -----

// The FNUZ fp8 types (no negative zero, other biases) have no decoding yet.
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @dot_fnuz(%a: tensor<1x1xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #c}>>, %b: tensor<1x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 1, parent = #c}>>, %acc: tensor<1x32xf32, #c>) {
    // expected-error @below {{tt.dot with 'f8E4M3FNUZ' operands is not supported yet (f8E5M2 and f8E4M3FN are)}}
    %d = tt.dot %a, %b, %acc : tensor<1x1xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #c}>> * tensor<1x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 1, parent = #c}>> -> tensor<1x32xf32, #c>
    tt.return
  }
}

// -----

// Arithmetic on 8-bit floats (not made by Triton's front end, which
// converts them first) has no lowering: a located error, not invalid IR.
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_add(%x: tensor<128xf8E5M2, #b>, %p: tensor<128x!tt.ptr<f8E5M2>, #b>) {
    // expected-error @+1 {{'arith.addf' op has no lowering on 8-bit floats: they only move (select, bitcast) and convert (tt.fp_to_fp)}}
    %y = arith.addf %x, %x : tensor<128xf8E5M2, #b>
    tt.store %p, %y : tensor<128x!tt.ptr<f8E5M2>, #b>
    tt.return
  }
}

// -----

// tt.nv_tma_desc marks a by-value CUtensorMap: 1, on a pointer argument of
// a kernel.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // expected-error @+1 {{argument 0 of @desc_value: tt.nv_tma_desc must be 1, not 2 : i32}}
  tt.func public @desc_value(%d: !tt.ptr<i8> {tt.nv_tma_desc = 2 : i32}) {
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // expected-error @+1 {{argument 0 of @desc_not_kernel: tt.nv_tma_desc marks kernel arguments; @desc_not_kernel is not a kernel}}
  tt.func private @desc_not_kernel(%d: !tt.ptr<i8> {tt.nv_tma_desc = 1 : i32}) {
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // expected-error @+1 {{argument 0 of @desc_not_pointer: tt.nv_tma_desc needs a pointer, not 'i64'}}
  tt.func public @desc_not_pointer(%d: i64 {tt.nv_tma_desc = 1 : i32}) {
    tt.return
  }
}

// -----

// TMA copies only buffers whose layout is the one TMA writes.
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func public @tma_transposed(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %i: i32, %pred: i1) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-error @+1 {{'ttng.async_tma_copy_global_to_local' op is not supported yet for the layout #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>: tgpu copies with TMA into non-transposed #ttg.nvmma_shared buffers only}}
    ttng.async_tma_copy_global_to_local %desc[%i, %i] %buf, %bar, %pred : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    tt.return
  }
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func public @tma_slot_misaligned(%desc: !tt.tensordesc<tensor<1x16xi8, #nvmma>>, %i: i32) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<4x1x16xi8, #nvmma, #smem, mutable>
    %c1 = arith.constant 1 : i32
    %slot = ttg.memdesc_index %buf[%c1] : !ttg.memdesc<4x1x16xi8, #nvmma, #smem, mutable> -> !ttg.memdesc<1x16xi8, #nvmma, #smem, mutable>
    // expected-error @+1 {{'ttng.async_tma_copy_local_to_global' op TMA cannot copy '!ttg.memdesc<1x16xi8, #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8}>, #ttg.shared_memory, mutable>': a ring slot of 16 bytes leaves the next one off the 128-byte alignment TMA needs}}
    ttng.async_tma_copy_local_to_global %desc[%i, %i] %slot : !tt.tensordesc<tensor<1x16xi8, #nvmma>>, !ttg.memdesc<1x16xi8, #nvmma, #smem, mutable>
    tt.return
  }
}
