// Verifier rules of the ttg ops tgpu reads but does not lower (apart from
// warp specialization, see warp-specialize-invalid.mlir), with Triton 3.6's
// messages.
// RUN: tgpu-opt %s -split-input-file -verify-diagnostics

tt.func @fp4_result_type(%x: tensor<8x16xi8>) {
  // expected-error @below {{only bf16 or f16 is supported for now, got 'f32'}}
  %0 = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<8x16xi8> -> tensor<8x32xf32>
  tt.return
}

// -----

tt.func @fp4_source_type(%x: tensor<8x16xi16>) {
  // expected-error @below {{operand #0 must be ranked tensor of 8-bit signless integer values}}
  %0 = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<8x16xi16> -> tensor<8x32xf16>
  tt.return
}

// -----

tt.func @fp4_rank(%x: tensor<8x16xi8>) {
  // expected-error @below {{source rank 2 != result rank 1}}
  %0 = ttg.fp4_to_fp %x {axis = 0 : i32} : tensor<8x16xi8> -> tensor<256xf16>
  tt.return
}

// -----

tt.func @fp4_axis(%x: tensor<8x16xi8>) {
  // expected-error @below {{axis 2 out of range for rank 2}}
  %0 = ttg.fp4_to_fp %x {axis = 2 : i32} : tensor<8x16xi8> -> tensor<8x32xf16>
  tt.return
}

// -----

// Triton reads the axis as unsigned.
tt.func @fp4_negative_axis(%x: tensor<8x16xi8>) {
  // expected-error @below {{axis 4294967295 out of range for rank 2}}
  %0 = ttg.fp4_to_fp %x {axis = -1 : i32} : tensor<8x16xi8> -> tensor<8x32xf16>
  tt.return
}

// -----

tt.func @fp4_axis_size(%x: tensor<8x16xi8>) {
  // expected-error @below {{axis 1 dimension must be 2x source dimension (src=16, dst=16)}}
  %0 = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<8x16xi8> -> tensor<8x16xf16>
  tt.return
}

// -----

tt.func @fp4_other_size(%x: tensor<8x16xi8>) {
  // expected-error @below {{dimension 0 mismatch (src=8, dst=16, axis=1)}}
  %0 = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<8x16xi8> -> tensor<16x32xf16>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp4_one_encoding(%x: tensor<64x32xi8, #blocked>) {
    // expected-error @below {{source and result must both have an encoding, or neither}}
    %0 = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<64x32xi8, #blocked> -> tensor<64x64xf16>
    tt.return
  }
}

// -----

// A blocked result with one element per thread along the axis holds no pair.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp4_blocked_no_pair(%x: tensor<64x32xi8, #blocked>) {
    // expected-error @below {{failed to infer encoding}}
    %0 = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<64x32xi8, #blocked> -> tensor<64x64xf16, #blocked>
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 4], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp4_dot_no_pair(%x: tensor<32x32xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>) {
    // expected-error @below {{failed to infer encoding}}
    %0 = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<32x32xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> -> tensor<32x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    tt.return
  }
}

// -----

// A linear result implies the source layout through its LinearLayout: its
// lanes here step along dimension 1 only, the source's along both.
#src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 4], order = [0, 1]}>
#rows = #ttg.linear<{register = [[2, 0], [1, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[0, 32], [0, 64]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp4_linear_incompatible(%x: tensor<2x128xi8, #src>) {
    // expected-error @below {{Src and Dst encodings are not compatible}}
    %0 = ttg.fp4_to_fp %x {axis = 0 : i32} : tensor<2x128xi8, #src> -> tensor<4x128xf16, #rows>
    tt.return
  }
}

// -----

// A linear result whose pairs are split over lanes.
#rows = #ttg.linear<{register = [[2, 0]], lane = [[1, 0], [0, 1], [0, 2], [0, 4], [0, 8]], warp = [[0, 16], [0, 32]], block = []}>
#src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp4_linear_pair_in_lanes(%x: tensor<2x64xi8, #src>) {
    // expected-error @below {{failed to infer encoding}}
    %0 = ttg.fp4_to_fp %x {axis = 0 : i32} : tensor<2x64xi8, #src> -> tensor<4x64xf16, #rows>
    tt.return
  }
}

// -----

// The result implies the source layout, and this is not it.
#src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#dst = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp4_incompatible(%x: tensor<64x32xi8, #src>) {
    // expected-error @below {{Src and Dst encodings are not compatible}}
    %0 = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<64x32xi8, #src> -> tensor<64x64xf16, #dst>
    tt.return
  }
}

// -----

tt.func @predicate_stage_types(%iv: i32, %ub: i64, %step: i32) {
  // expected-error @below {{failed to verify that all of {iv, ub, step} have same type}}
  %p = "ttg.predicate_stage"(%iv, %ub, %step) {maxStage = 2 : i32, stage = 0 : i32} : (i32, i64, i32) -> i1
  tt.return
}

// -----

tt.func @predicate_stage_float(%x: f32) {
  // expected-error @below {{operand #0 must be signless integer or index}}
  %p = "ttg.predicate_stage"(%x, %x, %x) {maxStage = 2 : i32, stage = 0 : i32} : (f32, f32, f32) -> i1
  tt.return
}

// -----

tt.func @mask_return_outside(%x: i32) {
  // expected-error @below {{'ttg.mask.return' op expects parent op 'ttg.mask'}}
  ttg.mask.return %x : i32
}

// -----

tt.func @mask_two_blocks(%pred: i1) {
  // expected-error @below {{'ttg.mask' op expects region #0 to have 0 or 1 blocks}}
  "ttg.mask"(%pred) ({
    cf.br ^next
  ^next:
    ttg.mask.return
  }) : (i1) -> ()
  tt.return
}

// -----

tt.func @mask_predicate(%pred: i32) {
  // expected-error @below {{operand #0 must be 1-bit signless integer}}
  "ttg.mask"(%pred) ({
    ttg.mask.return
  }) : (i32) -> ()
  tt.return
}

// -----

tt.func @scratch_result() {
  // expected-error @below {{result #0 must be ptr}}
  %p = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 100 : i32} : i64
  tt.return
}

// -----

tt.func @scratch_attributes() {
  // expected-error @below {{requires attribute 'alignment'}}
  %p = ttg.global_scratch_alloc {nbytes = 100 : i32} : !tt.ptr<i8>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @reinterpret_tensor(%t: tensor<16xi32>) {
  // expected-error @below {{operand #0 must be}}
  %v = "ttg.memdesc_reinterpret"(%t) : (tensor<16xi32>) -> !ttg.memdesc<16xi32, #shared, #smem>
  tt.return
}
