// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// A public tt.func is a kernel: nvvm.kernel and nvvm.reqntid = num-warps x
// 32 = 8 x 32 = 256. Pointers are global (!llvm.ptr<1>); tt.divisibility on
// a pointer becomes llvm.align (16 and 8 here), on a scalar it is dropped,
// and a divisibility that is not a power of two (12) gives no alignment.
// get_program_id x/y/z read ctaid.x/y/z, get_num_programs x/y/z nctaid.x/y/z,
// each feeding the arithmetic it was used in. A scalar store is made by
// thread 0 only.
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @kernel
// CHECK-SAME: (%arg0: !llvm.ptr<1> {llvm.align = 16 : i64}, %arg1: !llvm.ptr<1> {llvm.align = 8 : i64}, %arg2: !llvm.ptr<1>, %arg3: i32, %arg4: f32, %arg5: i64, %arg6: !llvm.ptr<1>)
// CHECK-SAME: attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256>}
// CHECK: %[[PX:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK: %[[PY:.*]] = nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK: %[[PZ:.*]] = nvvm.read.ptx.sreg.ctaid.z : i32
// CHECK: %[[NX:.*]] = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK: %[[NY:.*]] = nvvm.read.ptx.sreg.nctaid.y : i32
// CHECK: %[[NZ:.*]] = nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK: %[[S:.*]] = llvm.sub %[[PX]], %[[PY]] : i32
// CHECK: llvm.add %[[S]], %[[PZ]] : i32
// CHECK: %[[M:.*]] = llvm.mul %[[NX]], %[[NY]] : i32
// CHECK: llvm.udiv %[[M]], %[[NZ]] : i32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[T0:.*]] = llvm.icmp "eq" %[[TID]], %[[ZERO]] : i32
// CHECK: "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b" %{{.*}}, %arg2, %[[T0]]
// CHECK: llvm.return
// CHECK-NOT: llvm.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f16> {tt.divisibility = 8 : i32}, %r: !tt.ptr<i32>, %n: i32 {tt.divisibility = 16 : i32}, %x: f32, %h: i64, %s: !tt.ptr<f32> {tt.divisibility = 12 : i32}) {
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = tt.get_program_id z : i32
    %3 = tt.get_num_programs x : i32
    %4 = tt.get_num_programs y : i32
    %5 = tt.get_num_programs z : i32
    %6 = arith.subi %0, %1 : i32
    %7 = arith.addi %6, %2 : i32
    %8 = arith.muli %3, %4 : i32
    %9 = arith.divui %8, %5 : i32
    %10 = arith.addi %7, %9 : i32
    tt.store %r, %10 : !tt.ptr<i32>
    tt.return
  }
}

// -----

// Private functions are internal, not kernels (no nvvm attributes); a
// single result is returned as is, several as a struct in order; a function
// without results returns void; tt.divisibility still gives llvm.align on
// an internal function's pointer. One warp: reqntid = 32.
// CHECK-LABEL: llvm.func internal @one(%arg0: i32, %arg1: f32) -> f32 {
// CHECK: %[[C:.*]] = llvm.sitofp %arg0 : i32 to f32
// CHECK: %[[D:.*]] = llvm.fadd %[[C]], %arg1 : f32
// CHECK: llvm.return %[[D]] : f32
// CHECK-LABEL: llvm.func internal @two(%arg0: i32) -> !llvm.struct<(i32, f32)> {
// CHECK: %[[F:.*]] = llvm.sitofp %arg0 : i32 to f32
// CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(i32, f32)>
// CHECK: %[[S0:.*]] = llvm.insertvalue %arg0, %[[U]][0] : !llvm.struct<(i32, f32)>
// CHECK: %[[S1:.*]] = llvm.insertvalue %[[F]], %[[S0]][1] : !llvm.struct<(i32, f32)>
// CHECK: llvm.return %[[S1]] : !llvm.struct<(i32, f32)>
// CHECK-LABEL: llvm.func internal @none(%arg0: !llvm.ptr<1> {llvm.align = 16 : i64}) {
// CHECK-NEXT: llvm.return{{$}}
// CHECK-LABEL: llvm.func @k()
// CHECK-SAME: attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>}
// CHECK-NOT: nvvm.kernel
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @one(%a: i32, %b: f32) -> f32 {
    %c = arith.sitofp %a : i32 to f32
    %d = arith.addf %c, %b : f32
    tt.return %d : f32
  }
  tt.func private @two(%a: i32) -> (i32, f32) {
    %c = arith.sitofp %a : i32 to f32
    tt.return %a, %c : i32, f32
  }
  tt.func private @none(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    tt.return
  }
  tt.func public @k() {
    tt.return
  }
}

// -----

// A tensor argument is the struct of one thread's registers: 64 elements,
// 2 registers x 32 lanes x 1 warp, so a 2-field struct; a tensor of
// pointers is a struct of global pointers.
// CHECK-LABEL: llvm.func @tensors
// CHECK-SAME: (%arg0: !llvm.struct<(f32, f32)>, %arg1: !llvm.struct<(ptr<1>, ptr<1>)>)
// CHECK-SAME: nvvm.reqntid = array<i32: 32>
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tensors(%x: tensor<64xf32, #b>, %p: tensor<64x!tt.ptr<f32>, #b>) {
    tt.return
  }
}
