// Every tt verifier rule rejects bad input with a located diagnostic.
// RUN: tgpu-opt %s -split-input-file -verify-diagnostics

tt.func @bad_shape(%x: f32) {
  // expected-error @+1 {{has a dimension that is not a positive power of two}}
  %0 = tt.splat %x : f32 -> tensor<3xf32>
  tt.return
}

// -----

tt.func @too_big(%x: f32) {
  // expected-error @+1 {{has more than 1048576 elements}}
  %0 = tt.splat %x : f32 -> tensor<2048x1024xf32>
  tt.return
}

// -----

tt.func @splat_of_tensor(%x: tensor<4xf32>) {
  // expected-error @+1 {{source must be a scalar or a rank-0 tensor}}
  %0 = tt.splat %x : tensor<4xf32> -> tensor<4xf32>
  tt.return
}

// -----

tt.func @bitcast_width(%x: tensor<4xf32>) {
  // expected-error @+1 {{Cannot bitcast data-type of size 32 to data-type of size 16}}
  %0 = tt.bitcast %x : tensor<4xf32> -> tensor<4xf16>
  tt.return
}

// -----

tt.func @fp_narrow(%x: tensor<4xf32>) {
  // expected-error @+1 {{Rounding mode is required for FP downcast}}
  %0 = tt.fp_to_fp %x : tensor<4xf32> -> tensor<4xf16>
  tt.return
}

// -----


tt.func @load_not_pointer(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ptr' must be ptr or ranked tensor of ptr values, but got 'tensor<4xi32>'}}
  %0 = tt.load %x : tensor<4xi32>
  tt.return
}

// -----

// expected-note @+1 {{prior use here}}
tt.func @load_mask_shape(%p: tensor<4x!tt.ptr<f32>>, %m: tensor<8xi1>) {
  // expected-error @+1 {{use of value '%m' expects different type than prior uses}}
  %0 = tt.load %p, %m : tensor<4x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @load_other_without_mask(%p: tensor<4x!tt.ptr<f32>>, %o: tensor<4xf32>) {
  // expected-error @+1 {{other needs a mask}}
  %0 = "tt.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<4x!tt.ptr<f32>>, tensor<4xf32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @store_boundary(%p: tensor<4x!tt.ptr<f32>>, %v: tensor<4xf32>) {
  // expected-error @+1 {{boundaryCheck is only allowed with a block pointer}}
  tt.store %p, %v {boundaryCheck = array<i32: 0>} : tensor<4x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @fadd_on_int(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{'fadd' needs float elements}}
  %0 = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
  tt.return
}

// -----

tt.func @and_on_float(%p: !tt.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'and' needs integer elements}}
  %0 = tt.atomic_rmw and, relaxed, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32
  tt.return
}

// -----

tt.func @atomic_i8(%p: !tt.ptr<i8>, %v: i8) {
  // expected-error @+1 {{atomics need 16-, 32- or 64-bit}}
  %0 = tt.atomic_rmw add, relaxed, gpu, %p, %v : (!tt.ptr<i8>, i8) -> i8
  tt.return
}

// -----

tt.func @unsplat_many(%x: tensor<4xi32>) {
  // expected-error @+1 {{source tensor must have exactly one element}}
  %0 = tt.unsplat %x : tensor<4xi32>
  tt.return
}

// -----

tt.func @expand_axis(%x: tensor<4xi32>) {
  // expected-error @+1 {{axis 2 is out of range [0, 1]}}
  %0 = tt.expand_dims %x {axis = 2 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  tt.return
}

// -----

tt.func @expand_shape(%x: tensor<4xi32>) {
  // expected-error @+1 {{result shape must be the source shape with a 1 inserted at axis 0}}
  %0 = tt.expand_dims %x {axis = 0 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  tt.return
}

// -----

tt.func @reshape_size(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{number of src and dst elements of reshape must be the same}}
  %0 = tt.reshape %x : tensor<4x8xi32> -> tensor<16xi32>
  tt.return
}

// -----

tt.func @broadcast_non_one(%x: tensor<4x2xi32>) {
  // expected-error @+1 {{Different dimensions at index 1 between source and result.  Broadcast requires the source dimension to be 1.}}
  %0 = tt.broadcast %x : tensor<4x2xi32> -> tensor<4x8xi32>
  tt.return
}

// -----

tt.func @cat_size(%x: tensor<4xi32>) {
  // expected-error @+1 {{result must hold the elements of both operands}}
  %0 = tt.cat %x, %x : tensor<4xi32> -> tensor<16xi32>
  tt.return
}

// -----

tt.func @join_shape(%x: tensor<4xi32>) {
  // expected-error @+1 {{result shape must be (4, 2), but got 2, 4}}
  %0 = tt.join %x, %x : tensor<4xi32> -> tensor<2x4xi32>
  tt.return
}

// -----

tt.func @split_last(%x: tensor<4x4xi32>) {
  // expected-error @+2 {{last dimension of input tensor must be 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0, %1 = tt.split %x : tensor<4x4xi32> -> tensor<4xi32>
  tt.return
}

// -----

tt.func @trans_order(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{order must be a permutation of [0, 2)}}
  %0 = tt.trans %x {order = array<i32: 1, 1>} : tensor<4x8xi32> -> tensor<8x4xi32>
  tt.return
}

// -----

tt.func @trans_shape(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{result dimension 0 must be source dimension 1}}
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<4x8xi32> -> tensor<4x8xi32>
  tt.return
}

// -----

tt.func @range_empty() {
  // expected-error @+1 {{start must be less than end}}
  %0 = tt.make_range {end = 8 : i32, start = 8 : i32} : tensor<8xi32>
  tt.return
}

// -----

tt.func @range_size() {
  // expected-error @+1 {{number of elements in returned tensor, 8, must match size of range [0, 16), which has 16 elements}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<8xi32>
  tt.return
}

// -----

tt.func @range_i64() {
  // expected-error @+1 {{returned tensor must have i32 elements}}
  %0 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi64>
  tt.return
}

// -----

tt.func @dot_k(%a: tensor<16x32xf16>, %b: tensor<16x64xf16>, %c: tensor<16x64xf32>) {
  // expected-error @+1 {{expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand (32 vs 16)}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x64xf16> -> tensor<16x64xf32>
  tt.return
}

// -----

tt.func @dot_acc(%a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %c: tensor<16x32xf32>) {
  // expected-error @+1 {{expected the output shape to be the concatenation of the last dimension of the first operand and the last dimension of the second}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x32xf32>
  tt.return
}

// -----

tt.func @dot_rank(%a: tensor<16xf16>, %b: tensor<16xf16>, %c: tensor<16xf32>) {
  // expected-error @+1 {{expected operands to be 2d or 3d}}
  %0 = tt.dot %a, %b, %c : tensor<16xf16> * tensor<16xf16> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @reduce_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = "tt.reduce"(%x) <{axis = 2 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    tt.reduce.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @reduce_result(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result 0 must have type 'tensor<8xf32>'}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    tt.reduce.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @reduce_region_args(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region must take 2 arguments, got 1}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%l: f32):
    tt.reduce.return %l : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_region_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region result 0 must have type 'f32'}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %c = arith.constant 0 : i32
    tt.reduce.return %c : i32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @scan_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{operand types and result types must agree}}
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    tt.scan.return %s : f32
  }) : (tensor<8xf32>) -> tensor<8xf16>
  tt.return
}

// -----

tt.func @histogram_rank(%x: tensor<4x4xi32>) {
  // expected-error @+1 {{source and result must be 1-D}}
  %0 = tt.histogram %x : tensor<4x4xi32> -> tensor<16xi32>
  tt.return
}

// -----

tt.func @gather_axis(%x: tensor<8xf32>, %i: tensor<8xi32>) {
  // expected-error @+1 {{gather dimension must be less than the input rank}}
  %0 = tt.gather %x[%i] {axis = 1 : i32} : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @inline_asm_pack(%x: tensor<8xf32>) {
  // expected-error @+1 {{packed_element must be positive, got 0}}
  %0 = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 0 : i32, pure = true} %x : tensor<8xf32> -> tensor<8xf32>
  tt.return
}

// -----

tt.func @print_signs(%x: tensor<8xi32>) {
  // expected-error @+1 {{isSigned must have one entry per argument (1), got 0}}
  tt.print "x" {hex = false, isSigned = array<i32>} : %x : tensor<8xi32>
  tt.return
}

// -----

tt.func @ret_count(%x: i32) -> i32 {
  // expected-error @+1 {{has 0 operands, but the enclosing function @ret_count returns 1}}
  tt.return
}

// -----

tt.func @call_missing(%x: i32) {
  // expected-error @+1 {{'nothere' does not name a tt.func}}
  tt.call @nothere(%x) : (i32) -> ()
  tt.return
}

// -----

tt.func private @f(%x: i32)
tt.func @call_types(%x: i64) {
  // expected-error @+1 {{operand 0 has type 'i64' but the callee takes 'i32'}}
  tt.call @f(%x) : (i64) -> ()
  tt.return
}

// -----

// expected-error @+1 {{pointee must be an integer, float, pointer or tensor}}
tt.func @bad_pointee(%p: !tt.ptr<none>) {
  tt.return
}

// -----

// expected-error @+1 {{address space must be in [0, 2^31)}}
tt.func @bad_addrspace(%p: !tt.ptr<f32, -1>) {
  tt.return
}

// -----

tt.func @tensor_ptr_advance(%p: !tt.ptr<tensor<4x4xf32>>, %o: i32) {
  // expected-error @+1 {{expects 2 offsets, got 1}}
  %0 = tt.advance %p, [%o] : <tensor<4x4xf32>>
  tt.return
}

// -----

tt.func @make_ptr_order(%base: !tt.ptr<f16>, %i: i64, %o: i32) {
  // expected-error @+1 {{order must be a permutation of [0, 2)}}
  %p = tt.make_tensor_ptr %base, [%i, %i], [%i, %i], [%o, %o] {order = array<i32: 1, 1>} : <tensor<32x64xf16>>
  tt.return
}

// -----

tt.func @cas_types(%p: !tt.ptr<i32>, %c: i64, %v: i64) {
  // expected-error @+1 {{failed to verify that ptr type matches cmp type}}
  %0 = tt.atomic_cas relaxed, gpu, %p, %c, %v : (!tt.ptr<i32>, i64, i64) -> i64
  tt.return
}

// -----

tt.func @gather_index_size(%x: tensor<4x8xf32>, %i: tensor<8x8xi32>) {
  // expected-error @+1 {{indices dimension 0 must match the corresponding input dimension}}
  %0 = tt.gather %x[%i] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<8x8xi32>) -> tensor<8x8xf32>
  tt.return
}

// -----

// Smaller is not enough either (Triton 3.6 refuses it the same way).
tt.func @gather_index_smaller(%x: tensor<4x8xf32>, %i: tensor<2x8xi32>) {
  // expected-error @+1 {{indices dimension 0 must match the corresponding input dimension}}
  %0 = tt.gather %x[%i] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<2x8xi32>) -> tensor<2x8xf32>
  tt.return
}

// -----

tt.func @dot_mixed(%a: tensor<16x16xf16>, %b: tensor<16x16xi8>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{a and b must both be float or both be integer}}
  %0 = tt.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xi8> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @reduce_count(%x: tensor<8xf32>) {
  // expected-error @+1 {{must have the same number of inputs as outputs}}
  %0:2 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    tt.reduce.return %l : f32
  }) : (tensor<8xf32>) -> (f32, f32)
  tt.return
}

// -----

tt.func @inline_asm_divides(%x: tensor<8xf32>) {
  // expected-error @+1 {{packed_element 3 must divide the element count 8}}
  %0 = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 3 : i32, pure = true} %x : tensor<8xf32> -> tensor<8xf32>
  tt.return
}

// -----

tt.func @block_ptr_mask(%p: !tt.ptr<tensor<4x4xf32>>, %m: tensor<4x4xi1>) {
  // expected-error @+1 {{a block pointer load takes no mask or other}}
  %0 = tt.load %p, %m : !tt.ptr<tensor<4x4xf32>>
  tt.return
}

// -----

tt.func @dot_imprecise(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{maxNumImpreciseAcc must not be negative}}
  %0 = tt.dot %a, %b, %c {maxNumImpreciseAcc = -4 : i32} : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @negative_axis(%x: tensor<4xi32>) {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  %0 = tt.expand_dims %x {axis = -1 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  tt.return
}

// -----

tt.func @bitcast_ptr_to_int(%p: !tt.ptr<i64>) {
  // expected-error @+1 {{Cannot bitcast pointer to non-pointer type}}
  %0 = tt.bitcast %p : !tt.ptr<i64> -> i64
  tt.return
}

// -----

tt.func @bitcast_address_space(%p: !tt.ptr<i32>) {
  // expected-error @+1 {{Cannot bitcast pointer between different address spaces}}
  %0 = tt.bitcast %p : !tt.ptr<i32> -> !tt.ptr<i32, 3>
  tt.return
}

// -----

tt.func @join_scalars(%x: i32) {
  // expected-error @+1 {{invalid kind of type specified}}
  %0 = tt.join %x, %x : i32 -> tensor<2xi32>
  tt.return
}

// -----

tt.func @join_element_type(%x: tensor<4xi32>) {
  // expected-error @+1 {{result element type must match the input element type}}
  %0 = tt.join %x, %x : tensor<4xi32> -> tensor<4x2xi64>
  tt.return
}

// -----

tt.func @split_element_type(%x: tensor<4x2xi32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4xi32>', 'tensor<4xi32>' are incompatible with return type(s) of operation 'tensor<4xi16>', 'tensor<4xi16>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0, %1 = tt.split %x : tensor<4x2xi32> -> tensor<4xi16>
  tt.return
}

// -----

tt.func @dot_bit_widths(%a: tensor<16x16xf16>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{element types of operands A and B must have same bit width}}
  %0 = tt.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @reduce_shapes(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>) {
  // expected-error @+1 {{requires the same shape for all operands}}
  %0:2 = "tt.reduce"(%x, %y) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    tt.reduce.return %a, %b : f32, f32
  }) : (tensor<4x8xf32>, tensor<8x4xf32>) -> (tensor<8xf32>, tensor<4xf32>)
  tt.return
}

// -----

tt.func @atomic_cas_value_type(%p: tensor<8x!tt.ptr<i32>>, %c: tensor<8xi32>, %v: tensor<8xi64>) {
  // expected-error @+1 {{failed to verify that ptr type matches value type}}
  %0 = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (tensor<8x!tt.ptr<i32>>, tensor<8xi32>, tensor<8xi64>) -> tensor<8xi32>
  tt.return
}

// -----

tt.func @gather_encodings(%src: tensor<8x4xf32>, %idx: tensor<8x4xi32>) {
  // expected-error @+1 {{indices and output shapes must match}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<8x4xf32>, tensor<8x4xi32>) -> tensor<4x4xf32>
  tt.return
}

// -----

tt.func @range_rank() {
  // expected-error @+1 {{return type must be a 1D tensor}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<4x4xi32>
  tt.return
}

// -----

tt.func @map_arguments(%x: tensor<64xi32>) {
  // expected-error @+1 {{region has wrong number of arguments}}
  %0 = "tt.map_elementwise"(%x) <{pack = 2 : i32}> ({
  ^bb0(%a: i32):
    tt.map_elementwise.return %a, %a : i32, i32
  }) : (tensor<64xi32>) -> tensor<64xi32>
  tt.return
}

// -----

tt.func @map_pack(%x: tensor<64xi32>) {
  // expected-error @+1 {{Pack must be a power of 2}}
  %0 = "tt.map_elementwise"(%x) <{pack = 3 : i32}> ({
  ^bb0(%a: i32, %b: i32, %c: i32):
    tt.map_elementwise.return %a, %b, %c : i32, i32, i32
  }) : (tensor<64xi32>) -> tensor<64xi32>
  tt.return
}

// -----

tt.func @map_argument_types(%x: tensor<64xi32>) {
  // expected-error @+1 {{argument types did not match}}
  %0 = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%a: i16):
    tt.map_elementwise.return %a : i16
  }) : (tensor<64xi32>) -> tensor<64xi16>
  tt.return
}

// -----

tt.func @map_return(%x: tensor<64xi32>) {
  %0 = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%a: i32):
    %b = arith.extsi %a : i32 to i64
    // expected-error @+1 {{region return does not match map_elementwise result}}
    tt.map_elementwise.return %b : i64
  }) : (tensor<64xi32>) -> tensor<64xi32>
  tt.return
}

// -----

tt.func @map_store(%p: tensor<64x!tt.ptr<i32>>, %x: tensor<64xi32>) {
  %0 = "tt.map_elementwise"(%p, %x) <{pack = 1 : i32}> ({
  ^bb0(%q: !tt.ptr<i32>, %a: i32):
    // expected-error @+1 {{Stores are not supported inside map_elementwise}}
    tt.store %q, %a : !tt.ptr<i32>
    tt.map_elementwise.return %a : i32
  }) : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  tt.return
}

// -----

tt.func @scaled_k(%a: tensor<128x64xf8E5M2>, %b: tensor<32x64xf8E5M2>, %c: tensor<128x64xf32>) {
  // expected-error @+1 {{expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand}}
  %d = tt.dot_scaled %a, %b, %c lhs = e5m2 rhs = e5m2 {fastMath = false} : tensor<128x64xf8E5M2> * tensor<32x64xf8E5M2> -> tensor<128x64xf32>
  tt.return
}

// -----

tt.func @scaled_scale_k(%a: tensor<128x64xf8E5M2>, %sa: tensor<128x4xi8>, %b: tensor<64x64xf8E5M2>, %c: tensor<128x64xf32>) {
  // expected-error @+1 {{scales K dimension must match the operand K divided by the scale factor}}
  %d = tt.dot_scaled %a scale %sa, %b, %c lhs = e5m2 rhs = e5m2 {fastMath = false} : tensor<128x64xf8E5M2>, tensor<128x4xi8> * tensor<64x64xf8E5M2> -> tensor<128x64xf32>
  tt.return
}

// -----

tt.func @scaled_scale_m(%a: tensor<128x64xf8E5M2>, %sa: tensor<64x2xi8>, %b: tensor<64x64xf8E5M2>, %c: tensor<128x64xf32>) {
  // expected-error @+1 {{scales M dimension must match the operand M dimension}}
  %d = tt.dot_scaled %a scale %sa, %b, %c lhs = e5m2 rhs = e5m2 {fastMath = false} : tensor<128x64xf8E5M2>, tensor<64x2xi8> * tensor<64x64xf8E5M2> -> tensor<128x64xf32>
  tt.return
}
