// RUN: tgpu-opt %s -split-input-file --triton-nvidia-optimize-descriptor-encoding | FileCheck %s

// Default layouts: the widest swizzle the contiguous row's bytes are a
// multiple of (64 f16 = 128 bytes; 24 f32 = 96 bytes: 32; 8 i8 = 8 bytes:
// none), none with fewer than 8 rows (4x32xf32) or one dim.
// CHECK-DAG: #[[S128:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[S32:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #[[FEW:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #[[NARROW:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[RANK1:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 32, rank = 1}>
// CHECK-LABEL: tt.func public @defaults
// CHECK-SAME: !tt.tensordesc<tensor<64x64xf16, #[[S128]]>>
// CHECK-SAME: !tt.tensordesc<tensor<16x24xf32, #[[S32]]>>
// CHECK-SAME: !tt.tensordesc<tensor<4x32xf32, #[[FEW]]>>
// CHECK-SAME: !tt.tensordesc<tensor<16x8xi8, #[[NARROW]]>>
// CHECK-SAME: !tt.tensordesc<tensor<128xf32, #[[RANK1]]>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @defaults(%a: !tt.tensordesc<tensor<64x64xf16>>, %b: !tt.tensordesc<tensor<16x24xf32>>, %c: !tt.tensordesc<tensor<4x32xf32>>, %d: !tt.tensordesc<tensor<16x8xi8>>, %e: !tt.tensordesc<tensor<128xf32>>, %i: i32) -> tensor<64x64xf16, #blocked> {
    %v = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    tt.return %v : tensor<64x64xf16, #blocked>
  }
}

// -----

// A loaded block that a user puts in shared memory in a non-transposed
// nvmma layout (64-byte swizzle) is copied in that layout; a transposed one
// does not count.
// CHECK-DAG: #[[ASKED:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[DEFAULT:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @asked_by_users
// CHECK-SAME: !tt.tensordesc<tensor<64x64xf16, #[[ASKED]]>>
// CHECK-SAME: !tt.tensordesc<tensor<64x64xf16, #[[DEFAULT]]>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#nv64t = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @asked_by_users(%a: !tt.tensordesc<tensor<64x64xf16>>, %b: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) -> (!ttg.memdesc<64x64xf16, #nv64, #smem>, !ttg.memdesc<64x64xf16, #nv64t, #smem>) {
    %v = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %s = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nv64, #smem>
    %w = tt.descriptor_load %b[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %t = ttg.local_alloc %w : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nv64t, #smem>
    tt.return %s, %t : !ttg.memdesc<64x64xf16, #nv64, #smem>, !ttg.memdesc<64x64xf16, #nv64t, #smem>
  }
}

// -----

// Two loads through one descriptor whose users ask for different layouts:
// the default.
// CHECK: #[[DEFAULT:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @conflict
// CHECK-SAME: !tt.tensordesc<tensor<64x64xf16, #[[DEFAULT]]>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#nv32 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @conflict(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) -> (!ttg.memdesc<64x64xf16, #nv64, #smem>, !ttg.memdesc<64x64xf16, #nv32, #smem>) {
    %v = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %s = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nv64, #smem>
    %w = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %t = ttg.local_alloc %w : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nv32, #smem>
    tt.return %s, %t : !ttg.memdesc<64x64xf16, #nv64, #smem>, !ttg.memdesc<64x64xf16, #nv32, #smem>
  }
}

// -----

// A gather moves 32 rows of a 1x128 block: the layout is chosen for the
// 32x128 rows it copies (256-byte rows, 32 of them: 128-byte swizzle), not
// for the one-row block (which would get none).
// CHECK: #[[ROWS:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @gather_rows
// CHECK-SAME: !tt.tensordesc<tensor<1x128xbf16, #[[ROWS]]>>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @gather_rows(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<32xi32, #blocked>, %y: i32) -> tensor<32x128xbf16, #blocked1> {
    %v = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32, #blocked>, i32) -> tensor<32x128xbf16, #blocked1>
    tt.return %v : tensor<32x128xbf16, #blocked1>
  }
}

// -----

// Descriptors a loop carries share one layout with its init and results;
// a non-kernel function's descriptor argument and result get the default
// for their whole block, whatever the body asks.
// CHECK-DAG: #[[ASKED:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[DEFAULT:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @loop
// CHECK-SAME: %arg0: !tt.tensordesc<tensor<64x64xf16, #[[ASKED]]>>
// CHECK: scf.for {{.*}} iter_args(%{{.+}} = %arg0) -> (!tt.tensordesc<tensor<64x64xf16, #[[ASKED]]>>)
// CHECK: scf.yield %{{.+}} : !tt.tensordesc<tensor<64x64xf16, #[[ASKED]]>>
// CHECK-LABEL: tt.func private @helper
// CHECK-SAME: (%arg0: !tt.tensordesc<tensor<64x64xf16, #[[DEFAULT]]>>, %arg1: i32) -> !tt.tensordesc<tensor<64x64xf16, #[[DEFAULT]]>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @loop(%a: !tt.tensordesc<tensor<64x64xf16>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%d = %a) -> (!tt.tensordesc<tensor<64x64xf16>>) : i32 {
      %v = tt.descriptor_load %d[%k, %k] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
      %s = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nv64, #smem>
      scf.yield %d : !tt.tensordesc<tensor<64x64xf16>>
    }
    tt.return
  }
  tt.func private @helper(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) -> !tt.tensordesc<tensor<64x64xf16>> {
    %v = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %s = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nv64, #smem>
    tt.return %a : !tt.tensordesc<tensor<64x64xf16>>
  }
}
