// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm | FileCheck %s

// 16-byte aligned f32 runs, 4 registers per thread along the run, a mask
// constant over runs of 16 (n is a multiple of 16): one predicated 128-bit
// load per group of 4, masked-off lanes keep 0; the store
// is one predicated st.global.v4.b32. Lane l, warp w hold elements
// 4l + 128w + (0..3), and 512 more in the second group.
// CHECK-LABEL: llvm.func @copy_f32
// CHECK-SAME: (%{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{.*}}: i32)
// CHECK-SAME: attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128>}
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK-COUNT-2: llvm.inline_asm {{.*}}"mov.u32 $0, 0x0;\0A\09mov.u32 $1, 0x0;\0A\09mov.u32 $2, 0x0;\0A\09mov.u32 $3, 0x0;\0A\09@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b"
// CHECK-NOT: ld.global
// CHECK-COUNT-2: llvm.inline_asm has_side_effects {{.*}}"@$5 st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l,b"
// CHECK-NOT: st.global
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copy_f32(%src: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %dst: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<1024xi32, #blocked>
    %ps = tt.splat %src : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %p, %m : tensor<1024x!tt.ptr<f32>, #blocked>
    %qs = tt.splat %dst : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %q = tt.addptr %qs, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %q, %v, %m : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Without an alignment hint each element is its own 32-bit access; f16 with
// 16-byte alignment, 8 registers per thread and a mask constant over 16
// packs into one v4.b32, `other` filling masked-off lanes. A mask that may
// change inside a group (n unknown) splits the access again.
// CHECK-LABEL: llvm.func @widths
// CHECK-COUNT-4: "mov.u32 $0, 0x0;\0A\09ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l"
// CHECK: "mov.u32 $0, $4;\0A\09mov.u32 $1, $5;\0A\09mov.u32 $2, $6;\0A\09mov.u32 $3, $7;\0A\09@$9 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $8 + 0 ];"
// CHECK-NOT: ld.global.v4
// CHECK-COUNT-8: "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"
// CHECK-NOT: ld.global
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b8 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @widths(%a: !tt.ptr<f32>, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}, %k: i32) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b4>
    %as = tt.splat %a : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b4>
    %ap = tt.addptr %as, %r : tensor<512x!tt.ptr<f32>, #b4>, tensor<512xi32, #b4>
    %av = tt.load %ap : tensor<512x!tt.ptr<f32>, #b4>
    %r8 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b8>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #b8>
    %m = arith.cmpi slt, %r8, %ns : tensor<1024xi32, #b8>
    %other = arith.constant dense<1.5> : tensor<1024xf16, #b8>
    %bs = tt.splat %b : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b8>
    %bp = tt.addptr %bs, %r8 : tensor<1024x!tt.ptr<f16>, #b8>, tensor<1024xi32, #b8>
    %bv = tt.load %bp, %m, %other : tensor<1024x!tt.ptr<f16>, #b8>
    %ks = tt.splat %k : i32 -> tensor<1024xi32, #b8>
    %mk = arith.cmpi slt, %r8, %ks : tensor<1024xi32, #b8>
    %cv = tt.load %bp, %mk, %other : tensor<1024x!tt.ptr<f16>, #b8>
    tt.return
  }
}

// -----

// A layout with more threads than elements: lanes 16..31 duplicate lanes
// 0..15, so only threads with lane bit 4 clear store.
// CHECK-LABEL: llvm.func @owners
// CHECK: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i32)
// CHECK: %[[BIT:.*]] = llvm.and %{{.*}}, %[[SIXTEEN]]
// CHECK: %[[OWN:.*]] = llvm.icmp "eq" %[[BIT]]
// CHECK: "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b" %{{.*}}, %{{.*}}, %[[OWN]]
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @owners(%a: !tt.ptr<i32>) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #b1>
    %as = tt.splat %a : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>, #b1>
    %ap = tt.addptr %as, %r : tensor<16x!tt.ptr<i32>, #b1>, tensor<16xi32, #b1>
    tt.store %ap, %r : tensor<16x!tt.ptr<i32>, #b1>
    tt.return
  }
}
