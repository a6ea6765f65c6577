// triton-rewrite-tensor-pointer keeps the kernel's meaning: the CPU oracle
// leaves the same buffers before and after it. Tiles of 16x16 walk a 20x40
// matrix, partly out of bounds along both dims (padded loads, skipped
// stores).
// RUN: tgpu-opt %s -triton-rewrite-tensor-pointer -o %t.ttir
// RUN: FileCheck %s < %t.ttir
// RUN: rm -rf %t.ref %t.out
// RUN: tgpu-run %s --grid 2 --dump %t.ref -- ptr:f32=rand:800 ptr:f32=zeros:800 ptr:f32=zeros:512 i32=20 i32=40
// RUN: tgpu-run %t.ttir --grid 2 --dump %t.out -- ptr:f32=rand:800 ptr:f32=zeros:800 ptr:f32=zeros:512 i32=20 i32=40
// RUN: diff -r %t.ref %t.out
// CHECK-NOT: tt.make_tensor_ptr
// CHECK-NOT: tt.advance
// CHECK-NOT: !tt.ptr<tensor
tt.func public @walk_tiles(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %pad: !tt.ptr<f32>, %m: i32, %n: i32) {
  %pid = tt.get_program_id x : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c16 = arith.constant 16 : i32
  %one = arith.constant 1 : i64
  %c16_i64 = arith.constant 16 : i64
  %m64 = arith.extsi %m : i32 to i64
  %n64 = arith.extsi %n : i32 to i64
  %row = arith.muli %pid, %c16 : i32
  %src = tt.make_tensor_ptr %in, [%m64, %n64], [%n64, %one], [%row, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<16x16xf32>>
  %dst = tt.make_tensor_ptr %out, [%m64, %n64], [%n64, %one], [%row, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<16x16xf32>>
  %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%s = %src, %d = %dst) -> (!tt.ptr<tensor<16x16xf32>>, !tt.ptr<tensor<16x16xf32>>) : i32 {
    %x = tt.load %s {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf32>>
    %y = arith.addf %x, %x : tensor<16x16xf32>
    tt.store %d, %y {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32>>
    %s2 = tt.advance %s, [%c0, %c16] : !tt.ptr<tensor<16x16xf32>>
    %d2 = tt.advance %d, [%c0, %c16] : !tt.ptr<tensor<16x16xf32>>
    scf.yield %s2, %d2 : !tt.ptr<tensor<16x16xf32>>, !tt.ptr<tensor<16x16xf32>>
  }
  // The tile at columns 32..47 (40..47 outside, and rows 20..31 for the
  // second program), padding included, goes to a 32x16 buffer: the padded
  // elements show as zeros there.
  %back = arith.constant -16 : i32
  %last = tt.advance %r#0, [%c0, %back] : !tt.ptr<tensor<16x16xf32>>
  %t = tt.load %last {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf32>>
  %padsz = arith.constant 32 : i64
  %dump = tt.make_tensor_ptr %pad, [%padsz, %c16_i64], [%c16_i64, %one], [%row, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<16x16xf32>>
  tt.store %dump, %t : !tt.ptr<tensor<16x16xf32>>
  tt.return
}
