// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory=check-limit -verify-diagnostics | FileCheck %s

// Expected offsets by hand: a convert_layout between layouts that put
// elements in different threads needs numel x bytes of scratch (128 x f32 =
// 512); scratch lives only during its op, so consecutive converts share
// offset 0 and the kernel needs the largest.
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: module
// CHECK-SAME: ttg.shared = 1024 : i32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func public @two_converts(%a: tensor<128xf32, #b1>, %b: tensor<256xf32, #b1>) {
    // CHECK: ttg.convert_layout {{.*}}allocation.offset = 0 : i32
    %0 = ttg.convert_layout %a : tensor<128xf32, #b1> -> tensor<128xf32, #b4>
    // CHECK: ttg.convert_layout {{.*}}allocation.offset = 0 : i32
    %1 = ttg.convert_layout %b : tensor<256xf32, #b1> -> tensor<256xf32, #b4>
    // A convert that stays in registers needs none.
    // CHECK: ttg.convert_layout
    // CHECK-NOT: allocation.offset
    %2 = ttg.convert_layout %0 : tensor<128xf32, #b4> -> tensor<128xf32, #b4>
    tt.return
  }
}

// -----

// A buffer live across a scratch op: largest first, so the 32x32xf16 buffer
// (2048 bytes) takes offset 0 and the convert's 512 bytes go above it; the
// second alloc is born after the first dies and reuses offset 0.
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2d = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// CHECK-LABEL: module
// CHECK-SAME: ttg.shared = 2560 : i32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func public @live_across(%t: tensor<32x32xf16, #b2d>, %a: tensor<128xf32, #b1>) {
    // CHECK: ttg.local_alloc {{.*}}allocation.offset = 0 : i32
    %buf = ttg.local_alloc %t : (tensor<32x32xf16, #b2d>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    // CHECK: ttg.convert_layout {{.*}}allocation.offset = 2048 : i32
    %0 = ttg.convert_layout %a : tensor<128xf32, #b1> -> tensor<128xf32, #b4>
    %1 = ttg.local_load %buf : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #b2d>
    // CHECK: ttg.local_alloc {{.*}}allocation.offset = 0 : i32
    %buf2 = ttg.local_alloc %1 : (tensor<32x32xf16, #b2d>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    tt.return
  }
}

// -----

// A buffer used inside a loop is live for the whole loop: the convert in
// the loop body, before the use, must not overlap it.
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// CHECK-LABEL: module
// CHECK-SAME: ttg.shared = 1024 : i32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func public @loop(%a: tensor<128xf32, #b1>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: ttg.local_alloc {{.*}}allocation.offset = 0 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128xf32, #shared1, #smem, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      // CHECK: ttg.convert_layout {{.*}}allocation.offset = 512 : i32
      %0 = ttg.convert_layout %a : tensor<128xf32, #b1> -> tensor<128xf32, #b4>
      // CHECK: ttg.convert_layout {{.*}}allocation.offset = 512 : i32
      %1 = ttg.convert_layout %0 : tensor<128xf32, #b4> -> tensor<128xf32, #b1>
      ttg.local_store %1, %buf : tensor<128xf32, #b1> -> !ttg.memdesc<128xf32, #shared1, #smem, mutable>
    }
    tt.return
  }
}

// -----

// More than sm_90's 227 KiB per block.
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// expected-error @+1 {{the kernel needs 262144 bytes of shared memory; cuda:90 gives a block at most 232448}}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func public @too_big() {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<65536xf32, #shared1, #smem, mutable>
    tt.return
  }
}

// -----

// A ring whose slot views a loop carries (the pipeliner's) lives for the
// loop and up to its dealloc, not to the end of the kernel: the convert
// after the dealloc reuses its bytes. 2 x 128 f32 = 1024 bytes at 0, the
// convert's 512 at 0 too; the kernel needs 1024.
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// CHECK-LABEL: module
// CHECK-SAME: ttg.shared = 1024 : i32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func public @carried_views(%a: tensor<128xf32, #b1>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: ttg.local_alloc {allocation.offset = 0 : i32}
    %ring = ttg.local_alloc : () -> !ttg.memdesc<2x128xf32, #shared, #smem, mutable>
    %v0 = ttg.memdesc_index %ring[%c0] : !ttg.memdesc<2x128xf32, #shared, #smem, mutable> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %v0) -> !ttg.memdesc<128xf32, #shared, #smem, mutable> : i32 {
      %x = ttg.local_load %v : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #b1>
      %next = ttg.memdesc_index %ring[%c1] : !ttg.memdesc<2x128xf32, #shared, #smem, mutable> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      scf.yield %next : !ttg.memdesc<128xf32, #shared, #smem, mutable>
    }
    ttg.local_dealloc %ring : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>
    // CHECK: ttg.convert_layout {{.*}}allocation.offset = 0 : i32
    %0 = ttg.convert_layout %a : tensor<128xf32, #b1> -> tensor<128xf32, #b4>
    tt.return
  }
}
