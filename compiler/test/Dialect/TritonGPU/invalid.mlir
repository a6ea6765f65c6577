// Malformed layouts, buffers, module attributes and ttg ops are rejected with
// located diagnostics (never a crash: perPhase = 0 kills Triton with SIGFPE).
// RUN: tgpu-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{swizzled_shared perPhase must be a positive power of two, got 0}}
#bad = #ttg.swizzled_shared<{vec = 8, perPhase = 0, maxPhase = 4, order = [1, 0]}>

// -----

// expected-error @+1 {{order must be a permutation of [0, 2)}}
#bad = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, 0]}>

// -----

// expected-error @+1 {{must have the same rank (got 2, 1, 2, 2)}}
#bad = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [4, 1], order = [1, 0]}>

// -----

// expected-error @+1 {{sizePerThread entries must be positive powers of two, got 3}}
#bad = #ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{#ttg.blocked: missing 'order'}}
#bad = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4]}>

// -----

// expected-error @+1 {{#ttg.blocked: unknown field 'orderr'}}
#bad = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], orderr = [0]}>

// -----

// expected-error @+1 {{'sizePerThread' entries must be in [0, 2^32), got -1}}
#bad = #ttg.blocked<{sizePerThread = [-1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{'warpsPerCTA' must be a list of integers}}
#bad = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = "four", order = [0]}>

// -----

// expected-error @+1 {{CTASplitNum dividing CTAsPerCGA}}
#bad = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CTAsPerCGA = [2], CTASplitNum = [4], CTAOrder = [0]}>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{parent layout must have at least rank >= 2}}
#bad = #ttg.slice<{dim = 0, parent = #blocked}>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{slice dim=2 must be less than the parent rank=2}}
#bad = #ttg.slice<{dim = 2, parent = #blocked}>

// -----

// expected-error @+1 {{slice parent must be a distributed layout}}
#bad = #ttg.slice<{dim = 0, parent = 42 : i32}>

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @+1 {{ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent}}
#bad = #ttg.dot_op<{opIdx = 0, parent = #mma}>

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @+1 {{ttg.dot_op opIdx parameter can be 0 or 1, got: 2}}
#bad = #ttg.dot_op<{opIdx = 2, parent = #mma, kWidth = 2}>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout}}
#bad = #ttg.dot_op<{opIdx = 0, parent = #blocked, kWidth = 2}>

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// expected-error @+1 {{ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper WGMMA only allows first operand to be in registers}}
#bad = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// -----

// The version and instruction shape are checked where a tensor has the
// layout (the attribute alone may be a #ttg.dot_op's parent that no tensor
// has, as in Triton).
#bad = #ttg.nvidia_mma<{versionMajor = 5, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// expected-error @+1 {{nvidia_mma versionMajor must be 2 (mma.sync) or 3 (wgmma), got 5}}
tt.func @mma_version(%x: tensor<64x64xf32, #bad>) {
  tt.return
}

// -----

#bad = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 12, 16]}>
// expected-error @+1 {{nvidia_mma v3 instrShape must be [16, N, K]}}
tt.func @mma_instr(%x: tensor<64x64xf32, #bad>) {
  tt.return
}

// -----

#bad = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 64, 16]}>
// expected-error @+1 {{nvidia_mma v3 needs warpsPerCTA[0] to be a multiple of 4}}
tt.func @mma_warp_group(%x: tensor<64x64xf32, #bad>) {
  tt.return
}

// -----

// A v3 layout without instrShape has no instruction tile.
#bad = #ttg.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1]}>
// expected-error @+1 {{nvidia_mma v3 instrShape must be [16, N, K]}}
tt.func @mma_v3_no_instr(%x: tensor<64x64xf32, #bad>) {
  tt.return
}

// -----

// expected-error @+1 {{nvmma_shared swizzlingByteWidth must be 0, 32, 64 or 128, got 96}}
#bad = #ttg.nvmma_shared<{swizzlingByteWidth = 96, transposed = false, elementBitWidth = 16}>

// -----

// expected-error @+1 {{shared_linear alignment must be a positive power of two, got 12}}
#bad = #ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 12>

// -----

// expected-error @+1 {{every basis in 'lane' must have 2 entries, got [1]}}
#bad = #ttg.linear<{register = [[0, 1]], lane = [[1]], warp = [], block = []}>

// -----

// A distributed basis moving along two dims at once: Triton 3.6 rejects it
// with this text (register, lane and warp bases alike; checked on the GPU
// machine by parsing such layouts with Triton's own parser).
// expected-error @+1 {{In a distributed layout, each base must move in at most one dimension.}}
#bad = #ttg.linear<{register = [[0, 1], [1, 4]], lane = [], warp = [], block = []}>

// -----

// expected-error @+1 {{In a distributed layout, each base must move in at most one dimension.}}
#bad = #ttg.linear<{register = [], lane = [[1, 0], [0, 1]], warp = [[1, 1]], block = []}>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{#ttg.blocked layout has rank 2 but the tensor has rank 1}}
tt.func @rank_mismatch(%x: tensor<16xf32, #blocked>) {
  tt.return
}

// -----

#linear = #ttg.linear<{register = [[0, 1]], lane = [], warp = [], block = []}>
// expected-error @+1 {{#ttg.linear layout has rank 2 but the tensor has rank 1}}
tt.func @linear_rank_mismatch(%x: tensor<2xf32, #linear>) {
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{memdesc encoding must be a shared layout}}
tt.func @memdesc_distributed(%x: !ttg.memdesc<16xf32, #blocked, #ttg.shared_memory>) {
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @+1 {{view dimension 64 exceeds the allocation's 32}}
tt.func @memdesc_alloc_shape(%x: !ttg.memdesc<64x64xf32, #shared, #ttg.shared_memory, 32x64>) {
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // expected-error @+1 {{Layout has 8 warps per CTA, but the context requires 4 warps per CTA.}}
  tt.func @warps(%x: tensor<256xf32, #blocked>) {
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // expected-error @+1 {{Layout has 16 threads per warp, but the module specifies 32 threads per warp.}}
  tt.func @threads(%x: tensor<256xf32, #blocked>) {
    tt.return
  }
}

// -----

// expected-error @+1 {{'ttg.num-warps' must be a positive power of two, got 3}}
module attributes {"ttg.num-warps" = 3 : i32} {
}

// -----

// expected-error @+1 {{'ttg.target' must be a string "cuda:<compute capability>"}}
module attributes {ttg.target = "cuda:x"} {
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @store_immutable(%t: tensor<16x16xf32>, %b: !ttg.memdesc<16x16xf32, #shared, #smem>) {
  // expected-error @+1 {{cannot store into an immutable buffer}}
  ttg.local_store %t, %b : tensor<16x16xf32> -> !ttg.memdesc<16x16xf32, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @alloc_uninit_immutable() {
  // expected-error @+1 {{uninitialized alloc must have a mutable memdesc type}}
  %0 = ttg.local_alloc : () -> !ttg.memdesc<16x16xf32, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @index_shape(%b: !ttg.memdesc<2x16x16xf32, #shared, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{result shape must equal to srcShape[1:]}}
  %0 = ttg.memdesc_index %b[%i] : !ttg.memdesc<2x16x16xf32, #shared, #smem, mutable> -> !ttg.memdesc<16x8xf32, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_out(%b: !ttg.memdesc<16x16xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{slice [16, 24) is outside dimension 1 of size 16}}
  %0 = ttg.memdesc_subslice %b [0, 16] : !ttg.memdesc<16x16xf32, #shared, #smem, mutable> -> !ttg.memdesc<16x8xf32, #shared, #smem, mutable, 16x16>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @convert_to_shared(%x: tensor<128xf32, #blocked>) {
  // expected-error @+1 {{source and result must have distributed layouts}}
  %0 = ttg.convert_layout %x : tensor<128xf32, #blocked> -> tensor<128xf32, #shared>
  tt.return
}

// -----

tt.func @barrier_kind() {
  // expected-error @+1 {{unknown barrier address space 'everything'}}
  ttg.barrier everything
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tt.func @reduce_layout(%x: tensor<16x16xf32, #blocked>) {
  // expected-error @+1 {{result 0 must have type 'tensor<16xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>'}}
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x16xf32, #blocked>) -> tensor<16xf32, #blocked1>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
tt.func @dot_parent(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>,
                    %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>,
                    %c: tensor<16x16xf32, #blocked>) {
  // expected-error @+1 {{operand a's dot_op parent must be the accumulator's encoding}}
  %0 = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x16xf32, #blocked>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @load_shape(%b: !ttg.memdesc<16x16xf32, #shared, #smem>) {
  // expected-error @+1 {{tensor shape and buffer shape differ}}
  %0 = ttg.local_load %b : !ttg.memdesc<16x16xf32, #shared, #smem> -> tensor<16x8xf32>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @alloc_elem(%t: tensor<16x16xf16>) {
  // expected-error @+1 {{tensor element type 'f16' differs from the buffer's 'f32'}}
  %0 = ttg.local_alloc %t : (tensor<16x16xf16>) -> !ttg.memdesc<16x16xf32, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @trans_order(%b: !ttg.memdesc<16x8xf32, #shared, #smem>) {
  // expected-error @+1 {{order must be a permutation of [0, 2)}}
  %0 = ttg.memdesc_trans %b {order = array<i32: 0, 0>} : !ttg.memdesc<16x8xf32, #shared, #smem> -> !ttg.memdesc<8x16xf32, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @reshape_count(%b: !ttg.memdesc<16x8xf32, #shared, #smem>) {
  // expected-error @+1 {{source and result must have the same number of elements}}
  %0 = ttg.memdesc_reshape %b : !ttg.memdesc<16x8xf32, #shared, #smem> -> !ttg.memdesc<16x16xf32, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @view_mutability(%b: !ttg.memdesc<2x16x8xf32, #shared, #smem>, %i: i32) {
  // expected-error @+1 {{view of an immutable buffer cannot be mutable}}
  %0 = ttg.memdesc_index %b[%i] : !ttg.memdesc<2x16x8xf32, #shared, #smem> -> !ttg.memdesc<16x8xf32, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @copy_immutable(%p: tensor<16x8x!tt.ptr<f32>>, %b: !ttg.memdesc<16x8xf32, #shared, #smem>) {
  // expected-error @+1 {{destination buffer must be mutable}}
  %0 = ttg.async_copy_global_to_local %p, %b : tensor<16x8x!tt.ptr<f32>> -> <16x8xf32, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @copy_pointee(%p: tensor<16x8x!tt.ptr<f16>>, %b: !ttg.memdesc<16x8xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{pointee type differs from the buffer's element type}}
  %0 = ttg.async_copy_global_to_local %p, %b : tensor<16x8x!tt.ptr<f16>> -> <16x8xf32, #shared, #smem, mutable>
  tt.return
}

// -----

tt.func @wait_negative() {
  // expected-error @+1 {{num must not be negative, got -1}}
  %0 = ttg.async_wait {num = -1 : i32}
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @alloc_alignment() {
  // expected-error @+1 {{attribute 'alignment' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
  %0 = ttg.local_alloc {alignment = -16 : i32} : () -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @alloc_alignment_pow2() {
  // expected-error @+1 {{alignment must be a power of two, got 24}}
  %0 = ttg.local_alloc {alignment = 24 : i32} : () -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>
  tt.return
}

// -----

// expected-error @+1 {{CTAOrder must be a permutation of [0, 1)}}
#bad = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CTAsPerCGA = [2], CTASplitNum = [2], CTAOrder = [1]}>

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // expected-error @+1 {{Non-distributed layout is not allowed in tensor type.}}
  tt.func @shared_tensor(%x: tensor<256xf32, #shared>) {
    tt.return
  }
}

// -----

// A dot operand's parent is a tensor-core or a blocked layout.
#l = #ttg.linear<{register = [], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0]], warp = [[2, 0], [4, 0]], block = []}>
// expected-error @+1 {{ttg.dot_op unexpected parent layout}}
#bad = #ttg.dot_op<{opIdx = 0, parent = #l}>

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @index_rank(%b: !ttg.memdesc<16xf32, #shared, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{result rank must be input rank - 1}}
  %0 = ttg.memdesc_index %b[%i] : !ttg.memdesc<16xf32, #shared, #smem, mutable> -> !ttg.memdesc<16xf32, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @index_alloc_shape(%b: !ttg.memdesc<2x16x8xf32, #shared, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{alloc shape must match shape for both result and src}}
  %0 = ttg.memdesc_index %b[%i] : !ttg.memdesc<2x16x8xf32, #shared, #smem, mutable> -> !ttg.memdesc<16x8xf32, #shared, #smem, mutable, 2x16x8>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_offset(%b: !ttg.memdesc<16x16xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{The split offset may not touch the tile}}
  %0 = ttg.memdesc_subslice %b [4, 0] : !ttg.memdesc<16x16xf32, #shared, #smem, mutable> -> !ttg.memdesc<8x16xf32, #shared, #smem, mutable, 16x16>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_unsplit_offset(%b: !ttg.memdesc<16x16xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{A non zero offset found in a dimension that is not being split}}
  %0 = ttg.memdesc_subslice %b [8, 4] : !ttg.memdesc<16x16xf32, #shared, #smem, mutable> -> !ttg.memdesc<8x16xf32, #shared, #smem, mutable, 16x16>
  tt.return
}

// -----

// Rows 0..3 of a 16x16 buffer whose row r has its columns XORed with r:
// row 4 starts at offset 4 * 16 + 4, not at one offset bit.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_swizzle(%b: !ttg.memdesc<16x16xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{We don't support splitting along the swizzling pattern}}
  %0 = ttg.memdesc_subslice %b [0, 0] : !ttg.memdesc<16x16xf32, #shared, #smem, mutable> -> !ttg.memdesc<4x16xf32, #shared, #smem, mutable, 16x16>
  tt.return
}

// -----

// expected-error @+1 {{alignment must be specified outside of the linear layout braces}}
#shared = #ttg.shared_linear<{offset = [[0, 1], [1, 0]], alignment = 16}>
