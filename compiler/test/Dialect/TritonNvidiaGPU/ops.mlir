// The ttng mbarrier, TMA, tensormap and cluster ops, parsed, printed and
// parsed again and checked against the form Triton 3.6 prints; then through
// -canonicalize -cse, which must keep every one of them (their memory
// effects) except the pure reinterpret_tensor_descriptor.
// RUN: tgpu-opt %s -split-input-file | tgpu-opt -split-input-file | FileCheck %s
// RUN: tgpu-opt %s -split-input-file -mlir-print-op-generic | tgpu-opt -split-input-file | FileCheck %s
// RUN: tgpu-opt %s -split-input-file -canonicalize -cse | FileCheck %s --check-prefix=OPT

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @barriers
  // OPT-LABEL: tt.func @barriers
  tt.func @barriers(%phase: i32, %pred: i1, %buf: !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>) {
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // CHECK: ttng.init_barrier %{{.*}}, 1 : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // CHECK: ttng.barrier_expect %{{.*}}, 16384, %{{.*}} : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.barrier_expect %bar, 16384, %pred : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // Extra attributes go between the size and the predicate.
    // CHECK: ttng.barrier_expect %{{.*}}, 16384 {loop.stage = 0 : i32}, %{{.*}} : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.barrier_expect %bar, 16384 {loop.stage = 0 : i32}, %pred : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // CHECK: ttng.arrive_barrier %{{.*}}, 2 : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.arrive_barrier %bar, 2 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // CHECK: ttng.arrive_barrier %{{.*}}, 1, %{{.*}} : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.arrive_barrier %bar, 1, %pred : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // CHECK: ttng.wait_barrier %{{.*}}, %{{.*}} : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // CHECK: ttng.wait_barrier %{{.*}}, %{{.*}}, %{{.*}} : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.wait_barrier %bar, %phase, %pred : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // CHECK: ttng.wait_barrier %{{.*}}, %{{.*}} deps %{{.*}}, %{{.*}} : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>, !ttg.memdesc<64x64xf16, #{{.*}}, #smem, mutable>, !ttg.memdesc<64x64xf16, #{{.*}}, #smem, mutable>
    ttng.wait_barrier %bar, %phase deps %buf, %buf : !ttg.memdesc<1xi64, #shared, #smem, mutable>, !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>, !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // CHECK: ttng.wait_barrier %{{.*}}, %{{.*}}, %{{.*}} deps %{{.*}} : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>, !ttg.memdesc<64x64xf16, #{{.*}}, #smem, mutable>
    ttng.wait_barrier %bar, %phase, %pred deps %buf : !ttg.memdesc<1xi64, #shared, #smem, mutable>, !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // CHECK: ttng.async_copy_mbarrier_arrive %{{.*}} : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.async_copy_mbarrier_arrive %bar : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // CHECK: ttng.async_copy_mbarrier_arrive %{{.*}} {noIncrement} : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.async_copy_mbarrier_arrive %bar {noIncrement} : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // CHECK: ttng.inval_barrier %{{.*}} : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // Nothing is dead: the barrier ops write the barrier, the waits read it.
    // OPT: ttng.init_barrier
    // OPT-NEXT: ttng.barrier_expect
    // OPT-NEXT: ttng.barrier_expect
    // OPT-NEXT: ttng.arrive_barrier
    // OPT-NEXT: ttng.arrive_barrier
    // OPT-NEXT: ttng.wait_barrier
    // OPT-NEXT: ttng.wait_barrier
    // OPT-NEXT: ttng.wait_barrier
    // OPT-NEXT: ttng.wait_barrier
    // OPT-NEXT: ttng.async_copy_mbarrier_arrive
    // OPT-NEXT: ttng.async_copy_mbarrier_arrive
    // OPT-NEXT: ttng.inval_barrier
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @tma
  // OPT-LABEL: tt.func @tma
  tt.func @tma(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %d3: !tt.tensordesc<tensor<1x64x64xf16>>, %i: i32, %pred: i1,
               %bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %buf: !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>) {
    // CHECK: ttng.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #{{.*}}>>, !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable> -> !ttg.memdesc<64x64xf16, #{{.*}}, #smem, mutable>
    ttng.async_tma_copy_global_to_local %d[%i, %i] %buf, %bar, %pred : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // CHECK: ttng.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = cg evictionPolicy = evict_last {isVolatile = true} : !tt.tensordesc<tensor<1x64x64xf16>>, !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable> -> !ttg.memdesc<64x64xf16, #{{.*}}, #smem, mutable>
    ttng.async_tma_copy_global_to_local %d3[%i, %i, %i] %buf, %bar, %pred cacheModifier = cg evictionPolicy = evict_last {isVolatile = true} : !tt.tensordesc<tensor<1x64x64xf16>>, !ttg.memdesc<1xi64, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // CHECK: ttng.async_tma_copy_local_to_global %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #{{.*}}>>, !ttg.memdesc<64x64xf16, #{{.*}}, #smem, mutable>
    ttng.async_tma_copy_local_to_global %d[%i, %i] %buf : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // CHECK: ttng.async_tma_reduce add, %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #{{.*}}>>, !ttg.memdesc<64x64xf16, #{{.*}}, #smem, mutable>
    ttng.async_tma_reduce add, %d[%i, %i] %buf : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // CHECK: ttng.async_tma_reduce max, %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #{{.*}}>>, !ttg.memdesc<64x64xf16, #{{.*}}, #smem, mutable>
    ttng.async_tma_reduce max, %d[%i, %i] %buf : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
    ttng.async_tma_store_wait {pendings = 0 : i32}
    // OPT: ttng.async_tma_copy_global_to_local
    // OPT-NEXT: ttng.async_tma_copy_global_to_local
    // OPT-NEXT: ttng.async_tma_copy_local_to_global
    // OPT-NEXT: ttng.async_tma_reduce add
    // OPT-NEXT: ttng.async_tma_reduce max
    // OPT-NEXT: ttng.async_tma_store_wait
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @gather_scatter
  // OPT-LABEL: tt.func @gather_scatter
  tt.func @gather_scatter(%d: !tt.tensordesc<tensor<1x128xbf16, #nvmma>>, %x: tensor<32xi32, #blocked>, %y: i32, %pred: i1,
                          %bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %buf: !ttg.memdesc<32x128xbf16, #nvmma, #smem, mutable>) {
    // CHECK: ttng.async_tma_gather %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} : !tt.tensordesc<tensor<1x128xbf16, #{{.*}}>>, tensor<32xi32, #{{.*}}>, i32, !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>, !ttg.memdesc<32x128xbf16, #{{.*}}, #smem, mutable>, i1
    ttng.async_tma_gather %d[%x, %y] %buf, %bar, %pred : !tt.tensordesc<tensor<1x128xbf16, #nvmma>>, tensor<32xi32, #blocked>, i32, !ttg.memdesc<1xi64, #shared, #smem, mutable>, !ttg.memdesc<32x128xbf16, #nvmma, #smem, mutable>, i1
    // CHECK: ttng.async_tma_scatter %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}} : !tt.tensordesc<tensor<1x128xbf16, #{{.*}}>>, tensor<32xi32, #{{.*}}>, i32, !ttg.memdesc<32x128xbf16, #{{.*}}, #smem, mutable>
    ttng.async_tma_scatter %d[%x, %y] %buf : !tt.tensordesc<tensor<1x128xbf16, #nvmma>>, tensor<32xi32, #blocked>, i32, !ttg.memdesc<32x128xbf16, #nvmma, #smem, mutable>
    // OPT: ttng.async_tma_gather
    // OPT-NEXT: ttng.async_tma_scatter
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @tensormaps
  // OPT-LABEL: tt.func @tensormaps
  tt.func @tensormaps(%desc: !tt.ptr<i8>, %raw: !tt.ptr<i8, 0>, %base: !tt.ptr<i16>, %m: i32, %n: i32, %ld: i64) -> (!tt.tensordesc<tensor<64x64xi16>>, !tt.tensordesc<tensor<64x64xi16>>) {
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    // CHECK: ttng.tensormap_create %{{.*}}, %{{.*}}, [%{{.*}}], [%{{.*}}], [], [%{{.*}}] {elem_type = 3 : i32, fill_mode = 1 : i32, interleave_layout = 0 : i32, swizzle_mode = 2 : i32} : (!tt.ptr<i8>, !tt.ptr<i16>, i32, i32, i32) -> ()
    ttng.tensormap_create %desc, %base, [%c64], [%m], [], [%c1] {elem_type = 3 : i32, fill_mode = 1 : i32, interleave_layout = 0 : i32, swizzle_mode = 2 : i32} : (!tt.ptr<i8>, !tt.ptr<i16>, i32, i32, i32) -> ()
    // CHECK: ttng.tensormap_create %{{.*}}, %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}], [%{{.*}}, %{{.*}}] {elem_type = 3 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<i16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    ttng.tensormap_create %desc, %base, [%c64, %c64], [%n, %m], [%ld], [%c1, %c1] {elem_type = 3 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<i16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    // CHECK: ttng.tensormap_fenceproxy_acquire %{{.*}} : !tt.ptr<i8>
    ttng.tensormap_fenceproxy_acquire %desc : !tt.ptr<i8>
    // CHECK: %[[D:.*]] = ttng.reinterpret_tensor_descriptor %{{.*}} : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xi16>>
    %d = ttng.reinterpret_tensor_descriptor %desc : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xi16>>
    // CHECK: ttng.reinterpret_tensor_descriptor %{{.*}} : !tt.ptr<i8, 0> to !tt.tensordesc<tensor<64x64xi16>>
    %unused = ttng.reinterpret_tensor_descriptor %raw : !tt.ptr<i8, 0> to !tt.tensordesc<tensor<64x64xi16>>
    // CHECK: ttng.reinterpret_tensor_descriptor %{{.*}} : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xi16>>
    %same = ttng.reinterpret_tensor_descriptor %desc : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xi16>>
    // The creation and the fence stay; reinterpret is pure: the unused
    // view goes, the duplicate is merged.
    // OPT: ttng.tensormap_create
    // OPT-NEXT: ttng.tensormap_create
    // OPT-NEXT: ttng.tensormap_fenceproxy_acquire
    // OPT-NEXT: %[[D:.*]] = ttng.reinterpret_tensor_descriptor
    // OPT-NEXT: tt.return %[[D]], %[[D]]
    tt.return %d, %same : !tt.tensordesc<tensor<64x64xi16>>, !tt.tensordesc<tensor<64x64xi16>>
  }
}

// -----

// CHECK-LABEL: tt.func @clusters
// OPT-LABEL: tt.func @clusters
tt.func @clusters() {
  // CHECK: ttng.cluster_arrive {relaxed = true}
  ttng.cluster_arrive {relaxed = 1 : i1}
  // CHECK: ttng.cluster_arrive {relaxed = false}
  ttng.cluster_arrive {relaxed = false}
  // CHECK: ttng.cluster_wait
  ttng.cluster_wait
  // CHECK: ttng.fence_async_shared {bCluster = true}
  ttng.fence_async_shared {bCluster = true}
  // OPT: ttng.cluster_arrive
  // OPT-NEXT: ttng.cluster_arrive
  // OPT-NEXT: ttng.cluster_wait
  // OPT-NEXT: ttng.fence_async_shared
  tt.return
}

// -----

// wgmma with a register operand whose dot_op parent is another Hopper mma
// (Triton's chained dots), an fp8 one, and the async form with its wait.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#mma1 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 16, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared8 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @wgmma
  // OPT-LABEL: tt.func @wgmma
  tt.func @wgmma(%a: tensor<128x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>>, %b: !ttg.memdesc<16x64xf16, #shared, #smem>,
                 %c: tensor<128x64xf32, #mma>, %a8: !ttg.memdesc<128x64xf8E5M2, #shared8, #smem>, %b8: !ttg.memdesc<64x64xf8E5M2, #shared8, #smem>,
                 %useC: i1) -> tensor<128x64xf32, #mma> {
    // CHECK: ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x16xf16, #ttg.dot_op<{opIdx = 0, parent = #{{.*}}, kWidth = 2}>> * !ttg.memdesc<16x64xf16, #{{.*}}, #smem> -> tensor<128x64xf32, #{{.*}}>
    %0 = ttng.warp_group_dot %a, %b, %c : tensor<128x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>> * !ttg.memdesc<16x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
    // CHECK: ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = 0 : i32, isAsync = true, maxNumImpreciseAcc = 32 : i32} : !ttg.memdesc<128x64xf8E5M2, #{{.*}}, #smem> * !ttg.memdesc<64x64xf8E5M2, #{{.*}}, #smem> -> tensor<128x64xf32, #{{.*}}>
    %1 = ttng.warp_group_dot %a8, %b8, %0, %useC {inputPrecision = 0 : i32, isAsync = true, maxNumImpreciseAcc = 32 : i32} : !ttg.memdesc<128x64xf8E5M2, #shared8, #smem> * !ttg.memdesc<64x64xf8E5M2, #shared8, #smem> -> tensor<128x64xf32, #mma>
    // CHECK: ttng.warp_group_dot_wait %{{.*}}, %{{.*}}, %{{.*}} {pendings = 0 : i32} : tensor<128x64xf32, #{{.*}}>, !ttg.memdesc<128x64xf8E5M2, #{{.*}}, #smem>, !ttg.memdesc<64x64xf8E5M2, #{{.*}}, #smem>
    %2:3 = ttng.warp_group_dot_wait %1, %a8, %b8 {pendings = 0 : i32} : tensor<128x64xf32, #mma>, !ttg.memdesc<128x64xf8E5M2, #shared8, #smem>, !ttg.memdesc<64x64xf8E5M2, #shared8, #smem>
    // OPT: ttng.warp_group_dot
    // OPT-NEXT: ttng.warp_group_dot
    // OPT-NEXT: ttng.warp_group_dot_wait
    tt.return %2#0 : tensor<128x64xf32, #mma>
  }
}
