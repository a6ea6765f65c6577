// Every tt op and type, parsed, printed and parsed again (a fixed point) and
// checked against the form Triton 3.x prints.
// RUN: tgpu-opt %s -split-input-file | tgpu-opt -split-input-file | FileCheck %s
// RUN: tgpu-opt %s -split-input-file -mlir-print-op-generic | tgpu-opt -split-input-file | FileCheck %s

// CHECK-LABEL: tt.func @pointers
tt.func @pointers(%p: !tt.ptr<f32>, %q: !tt.ptr<i8, 3>, %i: i64) -> !tt.ptr<f32> {
  // CHECK: tt.int_to_ptr %{{.*}} : i64 -> !tt.ptr<f32>
  %0 = tt.int_to_ptr %i : i64 -> !tt.ptr<f32>
  // CHECK: tt.ptr_to_int %{{.*}} : !tt.ptr<i8, 3> -> i64
  %1 = tt.ptr_to_int %q : !tt.ptr<i8, 3> -> i64
  // CHECK: tt.bitcast %{{.*}} : !tt.ptr<f32> -> !tt.ptr<i32>
  %2 = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>
  %c = arith.constant 4 : i32
  // CHECK: tt.addptr %{{.*}}, %{{.*}} : !tt.ptr<f32>, i32
  %3 = tt.addptr %p, %c : !tt.ptr<f32>, i32
  // CHECK: tt.return %{{.*}} : !tt.ptr<f32>
  tt.return %3 : !tt.ptr<f32>
}

// -----

// CHECK-LABEL: tt.func public @memory
tt.func public @memory(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %s = tt.splat %p : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
  %ptrs = tt.addptr %s, %r : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  %c32 = arith.constant dense<32> : tensor<64xi32>
  %m = arith.cmpi slt, %r, %c32 : tensor<64xi32>
  %o = arith.constant dense<0.0> : tensor<64xf16>
  // CHECK: tt.load %{{.*}} : tensor<64x!tt.ptr<f16>>
  %a = tt.load %ptrs : tensor<64x!tt.ptr<f16>>
  // CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = cg evictionPolicy = evict_last {isVolatile = true} : tensor<64x!tt.ptr<f16>>
  %b = tt.load %ptrs, %m, %o cacheModifier = cg evictionPolicy = evict_last {isVolatile = true} : tensor<64x!tt.ptr<f16>>
  // CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = wt : tensor<64x!tt.ptr<f16>>
  tt.store %ptrs, %a, %m cacheModifier = wt : tensor<64x!tt.ptr<f16>>
  // CHECK: tt.store %{{.*}}, %{{.*}} evictionPolicy = evict_first : tensor<64x!tt.ptr<f16>>
  tt.store %ptrs, %b evictionPolicy = evict_first : tensor<64x!tt.ptr<f16>>
  tt.return
}

// -----

// CHECK-LABEL: tt.func @atomics
tt.func @atomics(%p: !tt.ptr<f32>, %ip: tensor<16x!tt.ptr<i32>>, %v: tensor<16xi32>, %m: tensor<16xi1>, %f: f32) {
  // CHECK: tt.atomic_rmw fadd, relaxed, gpu, %{{.*}}, %{{.*}} : (!tt.ptr<f32>, f32) -> f32
  %0 = tt.atomic_rmw fadd, relaxed, gpu, %p, %f : (!tt.ptr<f32>, f32) -> f32
  // CHECK: tt.atomic_rmw exch, acq_rel, sys, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<16xi1>) -> tensor<16xi32>
  %1 = tt.atomic_rmw exch, acq_rel, sys, %ip, %v, %m : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<16xi1>) -> tensor<16xi32>
  // CHECK: tt.atomic_rmw umax, acquire, cta
  %2 = tt.atomic_rmw umax, acquire, cta, %ip, %v : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>) -> tensor<16xi32>
  // CHECK: tt.atomic_cas release, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
  %3 = tt.atomic_cas release, gpu, %ip, %v, %v : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
  tt.return
}

// -----

// CHECK-LABEL: tt.func @shapes
tt.func @shapes(%x: f32, %t: tensor<4x8xf32>, %one: tensor<1xi32>, %r0: tensor<f32>) {
  // CHECK: tt.splat %{{.*}} : f32 -> tensor<4x8xf32>
  %0 = tt.splat %x : f32 -> tensor<4x8xf32>
  // A rank-0 tensor's one element splats as a scalar does.
  // CHECK: tt.splat %{{.*}} : tensor<f32> -> tensor<8xf32>
  %r = tt.splat %r0 : tensor<f32> -> tensor<8xf32>
  // CHECK: tt.unsplat %{{.*}} : tensor<1xi32>{{$}}
  %1 = tt.unsplat %one : tensor<1xi32>
  // CHECK: tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<4x8xf32> -> tensor<4x1x8xf32>
  %2 = tt.expand_dims %t {axis = 1 : i32} : tensor<4x8xf32> -> tensor<4x1x8xf32>
  // CHECK: tt.broadcast %{{.*}} : tensor<4x1x8xf32> -> tensor<4x2x8xf32>
  %3 = tt.broadcast %2 : tensor<4x1x8xf32> -> tensor<4x2x8xf32>
  // CHECK: tt.reshape %{{.*}} : tensor<4x8xf32> -> tensor<32xf32>
  %4 = tt.reshape %t : tensor<4x8xf32> -> tensor<32xf32>
  // CHECK: tt.reshape %{{.*}} allow_reorder efficient_layout : tensor<4x8xf32> -> tensor<8x4xf32>
  %5 = tt.reshape %t allow_reorder efficient_layout : tensor<4x8xf32> -> tensor<8x4xf32>
  // CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %6 = tt.trans %t {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  // CHECK: tt.cat %{{.*}}, %{{.*}} : tensor<4x8xf32> -> tensor<8x8xf32>
  %7 = tt.cat %t, %t : tensor<4x8xf32> -> tensor<8x8xf32>
  // CHECK: tt.join %{{.*}}, %{{.*}} : tensor<4x8xf32> -> tensor<4x8x2xf32>
  %8 = tt.join %t, %t : tensor<4x8xf32> -> tensor<4x8x2xf32>
  // CHECK: tt.split %{{.*}} : tensor<4x8x2xf32> -> tensor<4x8xf32>
  %9, %10 = tt.split %8 : tensor<4x8x2xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

// CHECK-LABEL: tt.func @spmd_and_math
tt.func @spmd_and_math(%a: tensor<8xf32>, %b: tensor<8xi32>, %h: tensor<8xf16>) {
  // CHECK: tt.get_program_id z : i32
  %0 = tt.get_program_id z : i32
  // CHECK: tt.get_num_programs y : i32
  %1 = tt.get_num_programs y : i32
  %lo = arith.constant dense<-1.0> : tensor<8xf32>
  %hi = arith.constant dense<1.0> : tensor<8xf32>
  // CHECK: tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = all : tensor<8xf32>
  %2 = tt.clampf %a, %lo, %hi, propagateNan = all : tensor<8xf32>
  // CHECK: tt.precise_sqrt %{{.*}} : tensor<8xf32>
  %3 = tt.precise_sqrt %a : tensor<8xf32>
  // CHECK: tt.precise_divf %{{.*}}, %{{.*}} : tensor<8xf32>
  %4 = tt.precise_divf %a, %hi : tensor<8xf32>
  // CHECK: tt.mulhiui %{{.*}}, %{{.*}} : tensor<8xi32>
  %5 = tt.mulhiui %b, %b : tensor<8xi32>
  // CHECK: tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<8xf32> -> tensor<8xf8E5M2>
  %6 = tt.fp_to_fp %a, rounding = rtne : tensor<8xf32> -> tensor<8xf8E5M2>
  // CHECK: tt.fp_to_fp %{{.*}} : tensor<8xf8E5M2> -> tensor<8xf16>
  %7 = tt.fp_to_fp %6 : tensor<8xf8E5M2> -> tensor<8xf16>
  // CHECK: tt.bitcast %{{.*}} : tensor<8xf32> -> tensor<8xi32>
  %8 = tt.bitcast %a : tensor<8xf32> -> tensor<8xi32>
  // CHECK: tt.extern_elementwise %{{.*}} {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<8xf32>) -> tensor<8xf32>
  %9 = tt.extern_elementwise %a {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %{{.*}} : tensor<8xf32> -> tensor<8xf32>
  %10 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %a : tensor<8xf32> -> tensor<8xf32>
  // CHECK: tt.histogram %{{.*}} : tensor<8xi32> -> tensor<16xi32>
  %11 = tt.histogram %b : tensor<8xi32> -> tensor<16xi32>
  // CHECK: tt.gather %{{.*}}[%{{.*}}] {axis = 0 : i32} : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xf32>
  %12 = tt.gather %a[%b] {axis = 0 : i32} : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xf32>
  // CHECK: tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %{{.*}} : tensor<8xi32>
  tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %b : tensor<8xi32>
  %c = arith.cmpf olt, %a, %hi : tensor<8xf32>
  // CHECK: tt.assert %{{.*}}, "out of range" : tensor<8xi1>
  tt.assert %c, "out of range" : tensor<8xi1>
  tt.return
}

// -----

// CHECK-LABEL: tt.func @dot_reduce_scan
tt.func @dot_reduce_scan(%a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %c: tensor<16x64xf32>, %x: tensor<4x8xf32>) {
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32 : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x64xf32>
  %0 = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x64xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} {maxNumImpreciseAcc = 32 : i32} : tensor<16x32xf16>
  %1 = tt.dot %a, %b, %c {maxNumImpreciseAcc = 32 : i32} : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x64xf32>
  // CHECK: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}> ({
  // CHECK: tt.reduce.return %{{.*}} : f32
  // CHECK: }) : (tensor<4x8xf32>) -> tensor<4xf32>
  %2 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    tt.reduce.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  // CHECK: "tt.scan"(%{{.*}}) <{axis = 0 : i32, reverse = true}> ({
  // CHECK: tt.scan.return %{{.*}} : f32
  %3 = "tt.scan"(%x) <{axis = 0 : i32, reverse = true}> ({
  ^bb0(%l: f32, %r: f32):
    %s = arith.maximumf %l, %r : f32
    tt.scan.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  tt.return
}

// -----

// CHECK-LABEL: tt.func @block_pointers
tt.func @block_pointers(%base: !tt.ptr<f16>, %i: i64, %o: i32) {
  // CHECK: tt.make_tensor_ptr %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<32x64xf16>>
  %p = tt.make_tensor_ptr %base, [%i, %i], [%i, %i], [%o, %o] {order = array<i32: 1, 0>} : <tensor<32x64xf16>>
  // CHECK: tt.advance %{{.*}}, [%{{.*}}, %{{.*}}] : <tensor<32x64xf16>>
  %q = tt.advance %p, [%o, %o] : <tensor<32x64xf16>>
  // CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<32x64xf16>>
  %v = tt.load %q {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<32x64xf16>>
  tt.store %q, %v : !tt.ptr<tensor<32x64xf16>>
  tt.return
}

// -----

// CHECK-LABEL: tt.func private @callee
tt.func private @callee(%x: i32) -> i32 {
  tt.return %x : i32
}
// CHECK-LABEL: tt.func @caller
tt.func @caller(%x: i32) -> i32 {
  // CHECK: tt.call @callee(%{{.*}}) : (i32) -> i32
  %0 = tt.call @callee(%x) : (i32) -> i32
  tt.return %0 : i32
}

// -----

// Rank-0 tensors join into a rank-1 pair; a widening fp_to_fp may carry a
// rounding mode (ignored), as Triton allows.
// CHECK-LABEL: tt.func @rank0_and_widening
tt.func @rank0_and_widening(%a: tensor<f32>, %b: tensor<f32>, %h: tensor<4xf16>) {
  // CHECK: tt.join %{{.*}}, %{{.*}} : tensor<f32> -> tensor<2xf32>
  %0 = tt.join %a, %b : tensor<f32> -> tensor<2xf32>
  // CHECK: tt.split %{{.*}} : tensor<2xf32> -> tensor<f32>
  %1, %2 = tt.split %0 : tensor<2xf32> -> tensor<f32>
  // CHECK: tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<4xf16> -> tensor<4xf32>
  %3 = tt.fp_to_fp %h, rounding = rtne : tensor<4xf16> -> tensor<4xf32>
  tt.return
}

// -----

// tt.map_elementwise prints in the generic form; tt.dot_scaled with and
// without scales.
// CHECK-LABEL: tt.func @map_and_scaled_dot
tt.func @map_and_scaled_dot(%x: tensor<64xi32>, %y: tensor<64xf32>,
                            %a: tensor<128x32xi8>, %sa: tensor<128x2xi8>,
                            %b: tensor<64x64xf8E4M3FN>, %sb: tensor<64x2xi8>,
                            %c: tensor<128x64xf32>, %h: tensor<128x64xbf16>, %hb: tensor<64x64xbf16>) {
  // CHECK: %{{.*}}:2 = "tt.map_elementwise"(%{{.*}}, %{{.*}}) <{pack = 2 : i32}> ({
  // CHECK-NEXT: ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: f32):
  // CHECK: tt.map_elementwise.return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, i32, i32
  // CHECK-NEXT: }) : (tensor<64xi32>, tensor<64xf32>) -> (tensor<64xf32>, tensor<64xi32>)
  %m:2 = "tt.map_elementwise"(%x, %y) <{pack = 2 : i32}> ({
  ^bb0(%i0: i32, %i1: i32, %f0: f32, %f1: f32):
    tt.map_elementwise.return %f1, %f0, %i1, %i0 : f32, f32, i32, i32
  }) : (tensor<64xi32>, tensor<64xf32>) -> (tensor<64xf32>, tensor<64xi32>)
  // K = 32 bytes of e2m1 = 64 elements, one scale per 32: 2 per row.
  // CHECK: tt.dot_scaled %{{.*}} scale %{{.*}}, %{{.*}} scale %{{.*}}, %{{.*}} lhs = e2m1 rhs = e4m3 {fastMath = false} : tensor<128x32xi8>, tensor<128x2xi8> * tensor<64x64xf8E4M3FN>, tensor<64x2xi8> -> tensor<128x64xf32>
  %d = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e2m1 rhs = e4m3 {fastMath = false} : tensor<128x32xi8>, tensor<128x2xi8> * tensor<64x64xf8E4M3FN>, tensor<64x2xi8> -> tensor<128x64xf32>
  // CHECK: tt.dot_scaled %{{.*}}, %{{.*}}, %{{.*}} lhs = bf16 rhs = bf16 {fastMath = true} : tensor<128x64xbf16> * tensor<64x64xbf16> -> tensor<128x64xf32>
  %e = tt.dot_scaled %h, %hb, %c lhs = bf16 rhs = bf16 {fastMath = true} : tensor<128x64xbf16> * tensor<64x64xbf16> -> tensor<128x64xf32>
  tt.return
}

// -----

// A message without arguments may carry isSigned (Triton's printer keeps it).
// CHECK-LABEL: tt.func @print_message
tt.func @print_message() {
  // CHECK: tt.print "hello" {hex = false, isSigned = array<i32: 0>}
  tt.print "hello" {hex = false, isSigned = array<i32: 0>}
  tt.return
}
