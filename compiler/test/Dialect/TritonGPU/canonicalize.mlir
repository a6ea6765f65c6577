// RUN: tgpu-opt %s -split-input-file -canonicalize | FileCheck %s

// convert(convert(x)) is one convert; a convert back to x's own type is x.
// CHECK-LABEL: tt.func @chain
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<128xf32, #[[A:[a-z0-9]+]]>)
// CHECK-NEXT: %[[C:[0-9]+]] = ttg.convert_layout %[[X]] : tensor<128xf32, #[[A]]> -> tensor<128xf32, #{{[a-z0-9]+}}>
// CHECK-NEXT: tt.return %[[X]], %[[C]]
#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @chain(%x: tensor<128xf32, #a>) -> (tensor<128xf32, #a>, tensor<128xf32, #c>) {
    %0 = ttg.convert_layout %x : tensor<128xf32, #a> -> tensor<128xf32, #b>
    %1 = ttg.convert_layout %0 : tensor<128xf32, #b> -> tensor<128xf32, #a>
    %2 = ttg.convert_layout %0 : tensor<128xf32, #b> -> tensor<128xf32, #c>
    tt.return %1, %2 : tensor<128xf32, #a>, tensor<128xf32, #c>
  }
}

// -----

// split reads through a convert when its source already holds both halves
// of the last dim in each thread and the results keep their layout.
// CHECK-LABEL: tt.func @split_through_convert
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<64x2xf32, #{{[a-z0-9]+}}>)
// CHECK-NEXT: %{{.*}}, %{{.*}} = tt.split %[[X]]
#p = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [2, 1], order = [1, 0]}>
#q = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [2, 1], order = [0, 1]}>
#r = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @split_through_convert(%x: tensor<64x2xf32, #p>) -> (tensor<64xf32, #r>, tensor<64xf32, #r>) {
    %0 = ttg.convert_layout %x : tensor<64x2xf32, #p> -> tensor<64x2xf32, #q>
    %lo, %hi = tt.split %0 : tensor<64x2xf32, #q> -> tensor<64xf32, #r>
    tt.return %lo, %hi : tensor<64xf32, #r>, tensor<64xf32, #r>
  }
}

// -----

// local_alloc(local_load(m)) is m when m is immutable and of the alloc's
// type; a mutable buffer could have been written in between, and an alloc
// of another layout is a real copy.
// CHECK-LABEL: tt.func @alloc_of_load
// CHECK-SAME: (%[[M:[a-z0-9]+]]: !ttg.memdesc<16x16xf16, #{{[a-z0-9]+}}, #smem>, %[[W:[a-z0-9]+]]: !ttg.memdesc<16x16xf16, #{{[a-z0-9]+}}, #smem, mutable>)
// CHECK-NEXT: %[[L:.*]] = ttg.local_load %[[M]]
// CHECK-NEXT: %[[O:.*]] = ttg.local_alloc %[[L]] : (tensor<16x16xf16, #{{[a-z0-9]+}}>) -> !ttg.memdesc<16x16xf16, #[[OTHER:[a-z0-9]+]], #smem>
// CHECK-NEXT: %[[LW:.*]] = ttg.local_load %[[W]]
// CHECK-NEXT: %[[A:.*]] = ttg.local_alloc %[[LW]]
// CHECK-NEXT: tt.return %[[M]], %[[O]], %[[A]]
#bl = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 2, maxPhase = 8, order = [1, 0]}>
#sh2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @alloc_of_load(%m: !ttg.memdesc<16x16xf16, #sh, #smem>, %w: !ttg.memdesc<16x16xf16, #sh, #smem, mutable>) -> (!ttg.memdesc<16x16xf16, #sh, #smem>, !ttg.memdesc<16x16xf16, #sh2, #smem>, !ttg.memdesc<16x16xf16, #sh, #smem>) {
    %0 = ttg.local_load %m : !ttg.memdesc<16x16xf16, #sh, #smem> -> tensor<16x16xf16, #bl>
    %1 = ttg.local_alloc %0 : (tensor<16x16xf16, #bl>) -> !ttg.memdesc<16x16xf16, #sh, #smem>
    %2 = ttg.local_alloc %0 : (tensor<16x16xf16, #bl>) -> !ttg.memdesc<16x16xf16, #sh2, #smem>
    %3 = ttg.local_load %w : !ttg.memdesc<16x16xf16, #sh, #smem, mutable> -> tensor<16x16xf16, #bl>
    %4 = ttg.local_alloc %3 : (tensor<16x16xf16, #bl>) -> !ttg.memdesc<16x16xf16, #sh, #smem>
    tt.return %1, %2, %4 : !ttg.memdesc<16x16xf16, #sh, #smem>, !ttg.memdesc<16x16xf16, #sh2, #smem>, !ttg.memdesc<16x16xf16, #sh, #smem>
  }
}
