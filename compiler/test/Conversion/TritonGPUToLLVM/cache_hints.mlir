// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm --verify-diagnostics | FileCheck %s

// Cache operators and eviction priorities become PTX qualifiers; an L2
// priority takes a createpolicy register per access, passed after the
// address. A splat integer `other` is a mov immediate, repeated over the
// 32-bit word (two i16 lanes of -2: 0xfffefffe).
// CHECK-LABEL: llvm.func @hints
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "mov.u32 $0, 0x0;\0A\09ld.global.cg.b32 { $0 }, [ $1 + 0 ];", "=r,l"
// CHECK: "mov.u32 $0, 0x0;\0A\09ld.global.cv.b32 { $0 }, [ $1 + 0 ];"
// CHECK: "mov.u32 $0, 0x0;\0A\09ld.volatile.global.b32 { $0 }, [ $1 + 0 ];"
// CHECK: %[[POL:.*]] = llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "mov.u64 $0, 0x0;\0A\09createpolicy.fractional.L2::evict_first.b64 $0, 1.0;", "=l"  : () -> i64
// CHECK: "mov.u32 $0, 0x0;\0A\09ld.global.L1::evict_first.L2::cache_hint.b32 { $0 }, [ $1 + 0 ], $2;", "=r,l,l" %{{.*}}, %[[POL]]
// CHECK: createpolicy.fractional.L2::evict_last.b64
// CHECK: "mov.u32 $0, 0xfffefffe;\0A\09@$3 ld.global.L1::evict_last.L2::cache_hint.b32 { $0 }, [ $1 + 0 ], $2;", "=r,l,l,b"
// CHECK: "st.global.wb.b32 [ $1 + 0 ], { $0 };", "r,l"
// CHECK: "st.global.cs.b32 [ $1 + 0 ], { $0 };"
// CHECK: "st.global.wt.b32 [ $1 + 0 ], { $0 };"
// CHECK: %[[SPOL:.*]] = llvm.inline_asm {{.*}}createpolicy.fractional.L2::evict_last.b64
// CHECK: "st.global.L1::evict_last.L2::cache_hint.b32 [ $1 + 0 ], { $0 }, $2;", "r,l,l" %{{.*}}, %{{.*}}, %[[SPOL]]
// A load's write-back and a store's cache-at-all-levels do not exist in
// PTX: left out, as Triton leaves them out.
// CHECK: "mov.u32 $0, 0x0;\0A\09ld.global.b32 { $0 }, [ $1 + 0 ];"
// CHECK: "st.global.b32 [ $1 + 0 ], { $0 };"
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @hints(%p: !tt.ptr<f32>, %h: !tt.ptr<i16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #b>
    %pp = tt.addptr %ps, %r : tensor<32x!tt.ptr<f32>, #b>, tensor<32xi32, #b>
    %a = tt.load %pp cacheModifier = cg : tensor<32x!tt.ptr<f32>, #b>
    %b = tt.load %pp cacheModifier = cv : tensor<32x!tt.ptr<f32>, #b>
    %c = tt.load %pp {isVolatile = true} : tensor<32x!tt.ptr<f32>, #b>
    %d = tt.load %pp evictionPolicy = evict_first : tensor<32x!tt.ptr<f32>, #b>
    %r2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b2>
    %hs = tt.splat %h : !tt.ptr<i16> -> tensor<64x!tt.ptr<i16>, #b2>
    %hp = tt.addptr %hs, %r2 : tensor<64x!tt.ptr<i16>, #b2>, tensor<64xi32, #b2>
    %ns = tt.splat %n : i32 -> tensor<64xi32, #b2>
    %m = arith.cmpi slt, %r2, %ns : tensor<64xi32, #b2>
    %o = arith.constant dense<-2> : tensor<64xi16, #b2>
    %e = tt.load %hp, %m, %o evictionPolicy = evict_last : tensor<64x!tt.ptr<i16>, #b2>
    tt.store %pp, %a cacheModifier = wb : tensor<32x!tt.ptr<f32>, #b>
    tt.store %pp, %b cacheModifier = cs : tensor<32x!tt.ptr<f32>, #b>
    tt.store %pp, %c cacheModifier = wt : tensor<32x!tt.ptr<f32>, #b>
    tt.store %pp, %d evictionPolicy = evict_last : tensor<32x!tt.ptr<f32>, #b>
    %f = tt.load %pp cacheModifier = wb : tensor<32x!tt.ptr<f32>, #b>
    tt.store %pp, %f cacheModifier = ca : tensor<32x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @volatile_hinted(%p: tensor<32x!tt.ptr<f32>, #b>) {
    // expected-error @below {{failed to legalize operation 'tt.load'}}
    // expected-error @below {{a volatile load takes no cache modifier or eviction policy: PTX ld.volatile has neither}}
    %a = tt.load %p evictionPolicy = evict_last {isVolatile = true} : tensor<32x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cop_and_priority(%p: tensor<32x!tt.ptr<f32>, #b>, %v: tensor<32xf32, #b>) {
    // expected-error @below {{failed to legalize operation 'tt.store'}}
    // expected-error @below {{cache modifier cs cannot go with eviction policy evict_first: PTX has no access with both a cache operator and an L1 eviction priority}}
    tt.store %p, %v cacheModifier = cs evictionPolicy = evict_first : tensor<32x!tt.ptr<f32>, #b>
    tt.return
  }
}
