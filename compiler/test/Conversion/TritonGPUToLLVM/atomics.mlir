// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --tritongpu-membar --convert-triton-gpu-to-llvm -verify-diagnostics | FileCheck %s

// A scalar atomic whose old value is used: thread 0 does it, publishes the
// old value in shared memory and, after a barrier, every thread reads it.
// Nothing used shared memory before, so no barrier before the store.
// CHECK: module attributes {{.*}}ttg.shared = 16 : i32
// CHECK-LABEL: llvm.func @scalar_add
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[T0:.*]] = llvm.icmp "eq" %[[TID]]
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "mov.u32 $0, 0x0;\0A\09@$3 atom.global.gpu.acq_rel.add.u32 $0, [ $1 + 0 ], $2;", "=r,l,r,b" %{{.*}}, %{{.*}}, %[[T0]]
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %{{.*}} : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b" %[[SLOT]], %[[OLD]], %[[T0]]
// CHECK: nvvm.barrier0
// CHECK: llvm.load %[[SLOT]] : !llvm.ptr<3> -> i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scalar_add(%p: !tt.ptr<i32>, %q: !tt.ptr<i32>, %v: i32) {
    %old = tt.atomic_rmw add, acq_rel, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
    tt.store %q, %old : !tt.ptr<i32>
    tt.return
  }
}

// -----

// 32 elements over 4 warps: warps 1..3 hold copies, so only warp 0 updates
// (warp bits 0 and 1 clear), each lane once; the mask joins the predicate.
// Unused old values need no shared memory.
// CHECK-LABEL: llvm.func @tensor_fadd
// CHECK: %[[OWN:.*]] = llvm.icmp "eq" 
// CHECK: %[[P:.*]] = llvm.and %[[OWN]], %{{.*}} : i1
// CHECK: "mov.u32 $0, 0x0;\0A\09@$3 atom.global.gpu.relaxed.add.f32 $0, [ $1 + 0 ], $2;", "=r,l,r,b" %{{.*}}, %{{.*}}, %[[P]]
// CHECK-NOT: atom
// CHECK-NOT: nvvm.barrier0
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tensor_fadd(%p: !tt.ptr<f32>, %v: tensor<32xf32, #b>, %m: tensor<32xi1, #b>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #b>
    %pp = tt.addptr %ps, %r : tensor<32x!tt.ptr<f32>, #b>, tensor<32xi32, #b>
    %old = tt.atomic_rmw fadd, relaxed, gpu, %pp, %v, %m : (tensor<32x!tt.ptr<f32>, #b>, tensor<32xf32, #b>, tensor<32xi1, #b>) -> tensor<32xf32, #b>
    tt.return
  }
}

// -----

// PTX has no 16-bit integer atomic add.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @short_add(%p: !tt.ptr<i16>, %v: i16) {
    // expected-error @below {{PTX has no atomic add on 'i16'}}
    // expected-error @below {{failed to legalize operation 'tt.atomic_rmw'}}
    %old = tt.atomic_rmw add, relaxed, gpu, %p, %v : (!tt.ptr<i16>, i16) -> i16
    tt.return
  }
}

// -----

// Register bases [4], [4]: registers 0b11 and 0b00 hold element 0, 0b01 and
// 0b10 element 4. Only registers 0 and 1 (free bit 1 clear) do an atomic,
// and each copy takes the old value of the register with its element; the
// old rule, register r & ~free, gave register 0b10 element 0's old value.
// No thread holds another's element: no shared memory.
// CHECK: module attributes {{.*}}ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @repeated_register_bases
// CHECK: %[[A0:.*]] = llvm.inline_asm has_side_effects {{.*}}"mov.u32 $0, 0x0;\0A\09atom.global.gpu.relaxed.add.u32 $0, [ $1 + 0 ], $2;", "=r,l,r"
// CHECK-NEXT: %[[A1:.*]] = llvm.inline_asm has_side_effects {{.*}}atom.global.gpu.relaxed.add.u32
// CHECK-NOT: atom.
// CHECK: llvm.insertvalue %[[A0]], %{{.*}}[0]
// CHECK-NEXT: llvm.insertvalue %[[A1]], %{{.*}}[1]
// CHECK-NEXT: llvm.insertvalue %[[A1]], %{{.*}}[2]
// CHECK-NEXT: llvm.insertvalue %[[A0]], %{{.*}}[3]
#l = #ttg.linear<{register = [[4], [4]], lane = [[1], [2], [8], [16], [32]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @repeated_register_bases(%p: !tt.ptr<i32>, %q: !tt.ptr<i32>, %v: tensor<64xi32, #l>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #l>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #l>
    %pp = tt.addptr %ps, %r : tensor<64x!tt.ptr<i32>, #l>, tensor<64xi32, #l>
    %old = tt.atomic_rmw add, relaxed, gpu, %pp, %v : (tensor<64x!tt.ptr<i32>, #l>, tensor<64xi32, #l>) -> tensor<64xi32, #l>
    %qs = tt.splat %q : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #l>
    %qp = tt.addptr %qs, %r : tensor<64x!tt.ptr<i32>, #l>, tensor<64xi32, #l>
    tt.store %qp, %old : tensor<64x!tt.ptr<i32>, #l>
    tt.return
  }
}

// -----

// A scalar atomic add that cannot change memory (integer 0, float -0.0)
// with acquire or relaxed order is a load of that order by thread 0
// (nvg.ld_acquire, masked like the atomic), its value published like an
// old value. Not a float +0.0 (-0.0 + +0.0 writes +0.0), not release
// order, not a tensor, not one whose old value is unused (a dead load would
// be removed, and the acquire order with it).
// CHECK-LABEL: llvm.func @identity_adds
// CHECK: %[[T0:.*]] = llvm.icmp "eq"
// CHECK: nvg.ld_acquire acquire, gpu, %{{.*}}, %[[T0]] : (!llvm.ptr<1>) -> i32
// CHECK: nvg.ld_acquire relaxed, cta, %{{.*}}, %{{.*}} : (!llvm.ptr<1>) -> f32
// CHECK: nvg.ld_acquire acquire, sys, %{{.*}}, %{{.*}} : (!llvm.ptr<1>) -> i64
// CHECK-NOT: nvg.ld_acquire
// CHECK: atom.global.gpu.acquire.add.f32
// CHECK: atom.global.gpu.release.add.u32
// CHECK: atom.global.gpu.acquire.add.u32
// CHECK: atom.global.gpu.acquire.add.u32
// CHECK-NOT: nvg.ld_acquire
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @identity_adds(%p: !tt.ptr<i32>, %f: !tt.ptr<f32>, %l: !tt.ptr<i64>, %q: !tt.ptr<i32>, %m: i1, %ps: tensor<128x!tt.ptr<i32>, #b>) {
    %zero = arith.constant 0 : i32
    %zero64 = arith.constant 0 : i64
    %negzero = arith.constant -0.000000e+00 : f32
    %poszero = arith.constant 0.000000e+00 : f32
    %zeros = arith.constant dense<0> : tensor<128xi32, #b>
    %a = tt.atomic_rmw add, acquire, gpu, %p, %zero : (!tt.ptr<i32>, i32) -> i32
    %b = tt.atomic_rmw fadd, relaxed, cta, %f, %negzero, %m : (!tt.ptr<f32>, f32, i1) -> f32
    %c = tt.atomic_rmw add, acquire, sys, %l, %zero64 : (!tt.ptr<i64>, i64) -> i64
    %d = tt.atomic_rmw fadd, acquire, gpu, %f, %poszero : (!tt.ptr<f32>, f32) -> f32
    %e = tt.atomic_rmw add, release, gpu, %p, %zero : (!tt.ptr<i32>, i32) -> i32
    %t = tt.atomic_rmw add, acquire, gpu, %ps, %zeros : (tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>) -> tensor<128xi32, #b>
    %unused = tt.atomic_rmw add, acquire, gpu, %p, %zero : (!tt.ptr<i32>, i32) -> i32
    tt.store %q, %a : !tt.ptr<i32>
    tt.store %f, %b : !tt.ptr<f32>
    tt.store %l, %c : !tt.ptr<i64>
    tt.store %f, %d : !tt.ptr<f32>
    tt.store %q, %e : !tt.ptr<i32>
    tt.store %ps, %t : tensor<128x!tt.ptr<i32>, #b>
    tt.return
  }
}
