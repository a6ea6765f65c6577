// Every rule of !tt.tensordesc and the tt descriptor ops rejects bad input
// with a located diagnostic (Triton's wording where its tests check it).
// RUN: tgpu-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{tensor descriptor block must hold integers or floats, got '!tt.ptr<f32>'}}
tt.func @pointer_block(%d: !tt.tensordesc<tensor<16x!tt.ptr<f32>>>) {
  tt.return
}

// -----

// expected-error @+1 {{tensor descriptor block must have static, positive sizes, got 'tensor<?x16xf32>'}}
tt.func @dynamic_block(%d: !tt.tensordesc<tensor<?x16xf32>>) {
  tt.return
}

// -----

// expected-error @+1 {{tensor descriptor block must have rank >= 1, got 'tensor<f32>'}}
tt.func @scalar_block(%d: !tt.tensordesc<tensor<f32>>) {
  tt.return
}

// -----

// expected-error @+2 {{invalid kind of type specified}}
// expected-error @+1 {{failed to parse TT_TensorDescType parameter 'blockType' which is to be a `::mlir::RankedTensorType`}}
tt.func @not_a_tensor(%d: !tt.tensordesc<f32>) {
  tt.return
}

// -----

tt.func @make_rank(%base: !tt.ptr<f16>, %m: i32, %ld: i64) {
  // expected-error @+1 {{expected 2 sizes and 2 strides for a rank-2 block, got 2 operands after the base}}
  %d = tt.make_tensor_descriptor %base, [%m], [%ld] : <f16>, <tensor<64x64xf16>>
  tt.return
}

// -----

// SameVariadicOperandSize would read this as one size and one stride.
tt.func @make_uneven(%base: !tt.ptr<f16>, %m: i32, %ld: i64) {
  // expected-error @+1 {{expected 2 sizes and 2 strides for a rank-2 block, got 3 operands after the base}}
  %d = tt.make_tensor_descriptor %base, [%m], [%ld, %ld] : <f16>, <tensor<64x64xf16>>
  tt.return
}

// -----

tt.func @make_element(%base: !tt.ptr<f32>, %m: i32, %ld: i64) {
  // expected-error @+1 {{base pointee type 'f32' does not match the block element type 'f16'}}
  %d = tt.make_tensor_descriptor %base, [%m], [%ld] : <f32>, <tensor<64xf16>>
  tt.return
}

// -----

tt.func @make_padding(%base: !tt.ptr<f32>, %m: i32, %ld: i64) {
  // expected-error @+1 {{attribute 'padding' failed to satisfy constraint}}
  %d = tt.make_tensor_descriptor %base, [%m], [%ld] {padding = 3 : i32} : <f32>, <tensor<64xf32>>
  tt.return
}

// -----

tt.func @load_rank_reduce(%d: !tt.tensordesc<tensor<16x16xf32>>) {
  %c = arith.constant 0 : i32
  // expected-error @+1 {{ranked reduce load only allowed for unit dimension leading dim}}
  %0 = tt.descriptor_load %d[%c, %c] : !tt.tensordesc<tensor<16x16xf32>> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @load_element(%d: !tt.tensordesc<tensor<16x16xf32>>) {
  %c = arith.constant 0 : i32
  // expected-error @+1 {{tensor descriptor block and tensor types must match}}
  %0 = tt.descriptor_load %d[%c, %c] : !tt.tensordesc<tensor<16x16xf32>> -> tensor<16x16xf16>
  tt.return
}

// -----

tt.func @load_shape(%d: !tt.tensordesc<tensor<1x16xf32>>) {
  %c = arith.constant 0 : i32
  // expected-error @+1 {{tensor descriptor block and tensor types must match}}
  %0 = tt.descriptor_load %d[%c, %c] : !tt.tensordesc<tensor<1x16xf32>> -> tensor<32xf32>
  tt.return
}

// -----

tt.func @load_signedness(%d: !tt.tensordesc<tensor<16xui8>>) {
  %c = arith.constant 0 : i32
  // Tensors are signless; a ui8 result is not even a tt tensor.
  // expected-error @+1 {{result #0 must be}}
  %0 = tt.descriptor_load %d[%c] : !tt.tensordesc<tensor<16xui8>> -> tensor<16xui8>
  tt.return
}

// -----

tt.func @load_not_a_desc(%d: !tt.ptr<f32>) {
  %c = arith.constant 0 : i32
  // expected-error @+1 {{operand #0 must be a tensor descriptor}}
  %0 = tt.descriptor_load %d[%c] : !tt.ptr<f32> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @store_shape(%d: !tt.tensordesc<tensor<16x16xf32>>, %v: tensor<32x16xf32>) {
  %c = arith.constant 0 : i32
  // expected-error @+1 {{tensor descriptor block and tensor types must match}}
  tt.descriptor_store %d[%c, %c], %v : !tt.tensordesc<tensor<16x16xf32>>, tensor<32x16xf32>
  tt.return
}

// -----

tt.func @store_rank_reduce(%d: !tt.tensordesc<tensor<2x16xf32>>, %v: tensor<16xf32>) {
  %c = arith.constant 0 : i32
  // expected-error @+1 {{ranked reduce load only allowed for unit dimension leading dim}}
  tt.descriptor_store %d[%c, %c], %v : !tt.tensordesc<tensor<2x16xf32>>, tensor<16xf32>
  tt.return
}

// -----

tt.func @reduce_element(%d: !tt.tensordesc<tensor<16xf32>>, %v: tensor<16xi32>) {
  %c = arith.constant 0 : i32
  // expected-error @+1 {{tensor descriptor block and tensor types must match}}
  tt.descriptor_reduce add, %d[%c], %v : !tt.tensordesc<tensor<16xf32>>, tensor<16xi32>
  tt.return
}

// -----

tt.func @reduce_kind(%d: !tt.tensordesc<tensor<16xf32>>, %v: tensor<16xf32>) {
  %c = arith.constant 0 : i32
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [add, min, max, inc, dec, and, or, xor]}}
  tt.descriptor_reduce mul, %d[%c], %v : !tt.tensordesc<tensor<16xf32>>, tensor<16xf32>
  tt.return
}

// -----

tt.func @gather_block_rank(%d: !tt.tensordesc<tensor<128xbf16>>, %x: tensor<32xi32>, %y: i32) {
  // expected-error @+1 {{block must be a 2D tensor, but got 'tensor<128xbf16>'}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<128xbf16>>, tensor<32xi32>, i32) -> tensor<32xbf16>
  tt.return
}

// -----

tt.func @gather_block_rows(%d: !tt.tensordesc<tensor<2x128xbf16>>, %x: tensor<32xi32>, %y: i32) {
  // expected-error @+1 {{block must have exactly 1 row, but got 'tensor<2x128xbf16>'}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<2x128xbf16>>, tensor<32xi32>, i32) -> tensor<32x128xbf16>
  tt.return
}

// -----

tt.func @gather_offsets_rank(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<1x32xi32>, %y: i32) {
  // expected-error @+1 {{x offsets must be a 1D tensor, but got 'tensor<1x32xi32>'}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<1x32xi32>, i32) -> tensor<32x128xbf16>
  tt.return
}

// -----

tt.func @gather_result_rank(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<32xi32>, %y: i32) {
  // expected-error @+1 {{result must be a 2D tensor, but got 'tensor<128xbf16>'}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<128xbf16>
  tt.return
}

// -----

tt.func @gather_few_rows(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<4xi32>, %y: i32) {
  // expected-error @+1 {{gather must have at least 8 rows, but got 4}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<4xi32>, i32) -> tensor<4x128xbf16>
  tt.return
}

// -----

tt.func @gather_wide_element(%d: !tt.tensordesc<tensor<1x128xf64>>, %x: tensor<32xi32>, %y: i32) {
  // expected-error @+1 {{TMA dtype cannot be greater than 32 bits}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xf64>>, tensor<32xi32>, i32) -> tensor<32x128xf64>
  tt.return
}

// -----

tt.func @gather_pointer_element(%d: !tt.tensordesc<tensor<1x128xi64>>, %x: tensor<32xi32>, %y: i32) {
  // expected-error @+1 {{TMA dtype must be an integer or float type, got '!tt.ptr<f32>'}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xi64>>, tensor<32xi32>, i32) -> tensor<32x128x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @gather_few_columns(%d: !tt.tensordesc<tensor<1x8xbf16>>, %x: tensor<32xi32>, %y: i32) {
  // expected-error @+1 {{gather of 'bf16' must have at least 16 columns, but got 8}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x8xbf16>>, tensor<32xi32>, i32) -> tensor<32x8xbf16>
  tt.return
}

// -----

tt.func @gather_rows(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<32xi32>, %y: i32) {
  // expected-error @+1 {{result tensor must have as many rows as indices (32), but got 'tensor<64x128xbf16>'}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<64x128xbf16>
  tt.return
}

// -----

tt.func @gather_columns(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<32xi32>, %y: i32) {
  // expected-error @+1 {{result tensor number of columns must match block (128), but got 'tensor<32x64xbf16>'}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<32x64xbf16>
  tt.return
}

// -----

tt.func @gather_element(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<32xi32>, %y: i32) {
  // expected-error @+1 {{result tensor element type must match block ('bf16'), but got 'tensor<32x128xf32>'}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<32x128xf32>
  tt.return
}

// -----

tt.func @gather_offsets_type(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<32xi64>, %y: i32) {
  // expected-error @+1 {{operand #1 must be ranked tensor of 32-bit signless integer values}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi64>, i32) -> tensor<32x128xbf16>
  tt.return
}

// -----

tt.func @scatter_block_rows(%d: !tt.tensordesc<tensor<2x128xbf16>>, %x: tensor<32xi32>, %y: i32, %v: tensor<32x128xbf16>) {
  // expected-error @+1 {{block must have exactly 1 row, but got 'tensor<2x128xbf16>'}}
  tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<tensor<2x128xbf16>>, tensor<32xi32>, i32, tensor<32x128xbf16>
  tt.return
}

// -----

tt.func @scatter_rows(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<16xi32>, %y: i32, %v: tensor<32x128xbf16>) {
  // expected-error @+1 {{result tensor must have as many rows as indices (16), but got 'tensor<32x128xbf16>'}}
  tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<tensor<1x128xbf16>>, tensor<16xi32>, i32, tensor<32x128xbf16>
  tt.return
}

// -----

tt.func @scatter_element(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<32xi32>, %y: i32, %v: tensor<32x128xf16>) {
  // expected-error @+1 {{result tensor element type must match block ('bf16'), but got 'tensor<32x128xf16>'}}
  tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32, tensor<32x128xf16>
  tt.return
}
