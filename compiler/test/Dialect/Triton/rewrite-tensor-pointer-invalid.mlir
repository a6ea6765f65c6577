// triton-rewrite-tensor-pointer reports the block pointers it cannot
// rewrite at the op concerned.
// RUN: tgpu-opt %s -split-input-file -triton-rewrite-tensor-pointer -verify-diagnostics

// A block pointer that does not come from a tt.make_tensor_ptr here.
tt.func @argument(%b: !tt.ptr<tensor<8xf32>>) -> tensor<8xf32> {
  // expected-error @below {{cannot trace this block pointer to its tt.make_tensor_ptr}}
  %x = tt.load %b : !tt.ptr<tensor<8xf32>>
  tt.return %x : tensor<8xf32>
}

// -----

tt.func @while_loop(%p: !tt.ptr<f32>, %n: i64, %c: i1) {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %b = tt.make_tensor_ptr %p, [%n], [%one], [%c0] {order = array<i32: 0>} : !tt.ptr<tensor<8xf32>>
  // expected-error @below {{block pointers through 'scf.while' are not supported}}
  %r = scf.while (%q = %b) : (!tt.ptr<tensor<8xf32>>) -> !tt.ptr<tensor<8xf32>> {
    scf.condition(%c) %q : !tt.ptr<tensor<8xf32>>
  } do {
  ^bb0(%q: !tt.ptr<tensor<8xf32>>):
    scf.yield %q : !tt.ptr<tensor<8xf32>>
  }
  tt.return
}

// -----

tt.func @returned(%p: !tt.ptr<f32>, %n: i64) -> !tt.ptr<tensor<8xf32>> {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %b = tt.make_tensor_ptr %p, [%n], [%one], [%c0] {order = array<i32: 0>} : !tt.ptr<tensor<8xf32>>
  // expected-error @below {{block pointers through 'tt.return' are not supported}}
  tt.return %b : !tt.ptr<tensor<8xf32>>
}

// -----

// Only the offsets are carried around the loop, so the base must not change.
tt.func @loop_changes_base(%p: !tt.ptr<f32>, %p2: !tt.ptr<f32>, %n: i64) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %one = arith.constant 1 : i64
  %b = tt.make_tensor_ptr %p, [%n], [%one], [%c0] {order = array<i32: 0>} : !tt.ptr<tensor<8xf32>>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%q = %b) -> (!tt.ptr<tensor<8xf32>>) : i32 {
    %other = tt.make_tensor_ptr %p2, [%n], [%one], [%i] {order = array<i32: 0>} : !tt.ptr<tensor<8xf32>>
    // expected-error @below {{a block pointer carried by a loop must keep the base, shape and strides it enters with}}
    scf.yield %other : !tt.ptr<tensor<8xf32>>
  }
  tt.return
}

// -----

tt.func @if_mixes_shapes(%p: !tt.ptr<f32>, %n: i64, %m: i64, %c: i1) {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %a = tt.make_tensor_ptr %p, [%n], [%one], [%c0] {order = array<i32: 0>} : !tt.ptr<tensor<8xf32>>
  %b = tt.make_tensor_ptr %p, [%m], [%one], [%c0] {order = array<i32: 0>} : !tt.ptr<tensor<8xf32>>
  // expected-error @below {{the branches of an scf.if must yield block pointers with the same base, shape and strides}}
  %r = scf.if %c -> !tt.ptr<tensor<8xf32>> {
    scf.yield %a : !tt.ptr<tensor<8xf32>>
  } else {
    scf.yield %b : !tt.ptr<tensor<8xf32>>
  }
  tt.return
}

// -----

tt.func @nan_padding_of_integers(%p: !tt.ptr<i32>, %n: i64) -> tensor<8xi32> {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %b = tt.make_tensor_ptr %p, [%n], [%one], [%c0] {order = array<i32: 0>} : !tt.ptr<tensor<8xi32>>
  // expected-error @below {{NaN padding needs a float element type, not 'i32'}}
  %x = tt.load %b {boundaryCheck = array<i32: 0>, padding = 2 : i32} : !tt.ptr<tensor<8xi32>>
  tt.return %x : tensor<8xi32>
}

// -----

// A tile with a layout belongs to TTGIR; the pass works on TTIR.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @encoded_tile(%p: !tt.ptr<f32>, %n: i64) {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  // expected-error @below {{block pointers to tensors with an encoding are not supported}}
  %b = tt.make_tensor_ptr %p, [%n], [%one], [%c0] {order = array<i32: 0>} : !tt.ptr<tensor<128xf32, #blocked>>
  tt.return
}
}
