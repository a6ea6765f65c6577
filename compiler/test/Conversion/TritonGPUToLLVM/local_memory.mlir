// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// 8x8 f32 on sizePerThread [1, 1], threadsPerWarp [4, 8], one warp: lane
// bits 0..2 are columns 1, 2, 4, lane bits 3, 4 rows 1, 2, register bit 0
// row 4. In #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4}>
// element (r, c) is at 8 r + ((c / 2 ^ r % 4) * 2 + c % 2): columns 1, 2, 4
// are offsets 1, 2, 4; row 1 is 8 ^ 2 = 10, row 2 is 16 ^ 4 = 20, row 4 (phase
// 0 again) is 32. So each thread's offset is the XOR of 1, 2, 4, 10, 20 over
// its lane bits, register 1 adds ^ 32.
// Buffers: the 2x8x8 f32 (512 bytes) is placed first at 0, the 8x8 (256
// bytes) at 512: 768 in all. The offset-0 buffer is @global_smem itself,
// the other one a byte GEP by 512. memdesc_index i is a GEP of i x 64 f32
// elements. Nothing touched shared memory before the first writes: no
// barrier before them; the loads read what was written: one barrier between
// the last store and the first load; local_dealloc lowers to nothing.
// CHECK: ttg.shared = 768 : i32
// CHECK-LABEL: llvm.func @alloc_store_load
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[OFF:.*]] = llvm.mlir.constant(512 : i32) : i32
// CHECK: %[[A:.*]] = llvm.getelementptr %[[SMEM]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[LANE:.*]] = llvm.urem
// Lane bits 0..2 (offsets 1, 2, 4) are one run: lane & 7; bits 3 and 4
// (10, 20) are two bits each: 0 - ((lane >> i) & 1) masks them.
// CHECK: %[[C7:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK: %[[U4:.*]] = llvm.and %[[LANE]], %[[C7]] : i32
// CHECK: %[[N10:.*]] = llvm.sub %{{.*}}, %{{.*}} : i32
// CHECK: %[[C10:.*]] = llvm.mlir.constant(10 : i32) : i32
// CHECK: %[[T10:.*]] = llvm.and %[[N10]], %[[C10]] : i32
// CHECK: %[[U10:.*]] = llvm.xor %[[U4]], %[[T10]] : i32
// CHECK: %[[N20:.*]] = llvm.sub %{{.*}}, %{{.*}} : i32
// CHECK: %[[C20:.*]] = llvm.mlir.constant(20 : i32) : i32
// CHECK: %[[T20:.*]] = llvm.and %[[N20]], %[[C20]] : i32
// CHECK: %[[O0:.*]] = llvm.xor %[[U10]], %[[T20]] : i32
// Register 1's 32 is a bit no lane sets: a constant index from register
// 0's pointer (folded into the address), no XOR.
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[A]][%[[O0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[P0]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK: llvm.store %[[X0]], %[[P0]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: llvm.store %[[X1]], %[[P1]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// memdesc_index into the buffer at offset 0.
// CHECK: %[[M:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[S64:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK: %[[IX:.*]] = llvm.mul %arg1, %[[S64]] : i32
// CHECK: %[[V:.*]] = llvm.getelementptr %[[M]][%[[IX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: %[[V0:.*]] = llvm.getelementptr %[[V]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: %[[V1:.*]] = llvm.getelementptr %[[V0]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK: llvm.store %{{.*}}, %[[V0]]
// CHECK: llvm.store %{{.*}}, %[[V1]]
// CHECK-NOT: llvm.load
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK: %[[Q0:.*]] = llvm.getelementptr %[[A]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: %[[Q1:.*]] = llvm.getelementptr %[[Q0]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK: llvm.load %[[Q0]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: llvm.load %[[Q1]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: %[[W0:.*]] = llvm.getelementptr %[[V]][%{{.*}}]
// CHECK: %[[W1:.*]] = llvm.getelementptr %[[W0]][32]
// CHECK: llvm.load %[[W0]]
// CHECK: llvm.load %[[W1]]
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: llvm.load
// CHECK: llvm.return
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#s = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @alloc_store_load(%x: tensor<8x8xf32, #b>, %i: i32) -> (tensor<8x8xf32, #b>, tensor<8x8xf32, #b>) {
    %a = ttg.local_alloc %x : (tensor<8x8xf32, #b>) -> !ttg.memdesc<8x8xf32, #s, #smem>
    %m = ttg.local_alloc : () -> !ttg.memdesc<2x8x8xf32, #s, #smem, mutable>
    %v = ttg.memdesc_index %m[%i] : !ttg.memdesc<2x8x8xf32, #s, #smem, mutable> -> !ttg.memdesc<8x8xf32, #s, #smem, mutable>
    ttg.local_store %x, %v : tensor<8x8xf32, #b> -> !ttg.memdesc<8x8xf32, #s, #smem, mutable>
    %y = ttg.local_load %a : !ttg.memdesc<8x8xf32, #s, #smem> -> tensor<8x8xf32, #b>
    %z = ttg.local_load %v : !ttg.memdesc<8x8xf32, #s, #smem, mutable> -> tensor<8x8xf32, #b>
    ttg.local_dealloc %m : !ttg.memdesc<2x8x8xf32, #s, #smem, mutable>
    tt.return %y, %z : tensor<8x8xf32, #b>, tensor<8x8xf32, #b>
  }
}

// -----

// Another swizzle: vec 1, perPhase 2, maxPhase 4 on 8x8 f16: phase =
// (r / 2) % 4 is XORed into the column: row 1 is offset 8 (phase 0), row 2
// is 16 ^ 1 = 17, row 4 is 32 ^ 2 = 34 (register 1). 8x8 f16 = 128 bytes.
// A store, a load, then a store again into the same buffer: RAW needs a
// barrier before the load, WAR one before the second store: 2 in all.
// CHECK: ttg.shared = 128 : i32
// CHECK-LABEL: llvm.func @swizzle_war
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK-NOT: llvm.getelementptr %[[SMEM]]
// Lane bits 0..3 (offsets 1, 2, 4, 8) as one run: lane & 15.
// CHECK: %[[C15:.*]] = llvm.mlir.constant(15 : i32) : i32
// CHECK: llvm.and %{{.*}}, %[[C15]] : i32
// CHECK: %[[C17:.*]] = llvm.mlir.constant(17 : i32) : i32
// CHECK: %[[T17:.*]] = llvm.and %{{.*}}, %[[C17]] : i32
// CHECK: %[[O0:.*]] = llvm.xor %{{.*}}, %[[T17]] : i32
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[SMEM]][%[[O0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// Register 1's 34 = 32 ^ 2: lane bit 1 sets 2 too, so 2 is XORed in and 32,
// a bit no lane sets, is a constant index.
// CHECK: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[O1:.*]] = llvm.xor %[[O0]], %[[C2]] : i32
// CHECK: %[[Q:.*]] = llvm.getelementptr %[[SMEM]][%[[O1]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[Q]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f16
// CHECK: llvm.store %{{.*}}, %[[P0]] {alignment = 2 : i64} : f16, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %[[P1]] {alignment = 2 : i64} : f16, !llvm.ptr<3>
// CHECK-NOT: llvm.load
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<3> -> f16
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.load
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<3>
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @swizzle_war(%x: tensor<8x8xf16, #b>) -> tensor<8x8xf16, #b> {
    %m = ttg.local_alloc : () -> !ttg.memdesc<8x8xf16, #s, #smem, mutable>
    ttg.local_store %x, %m : tensor<8x8xf16, #b> -> !ttg.memdesc<8x8xf16, #s, #smem, mutable>
    %y = ttg.local_load %m : !ttg.memdesc<8x8xf16, #s, #smem, mutable> -> tensor<8x8xf16, #b>
    %z = arith.addf %y, %y : tensor<8x8xf16, #b>
    ttg.local_store %z, %m : tensor<8x8xf16, #b> -> !ttg.memdesc<8x8xf16, #s, #smem, mutable>
    ttg.local_dealloc %m : !ttg.memdesc<8x8xf16, #s, #smem, mutable>
    tt.return %y : tensor<8x8xf16, #b>
  }
}

// -----

// 16x64 f16, eight consecutive columns per lane (sizePerThread [1, 8]),
// into an unswizzled row-major buffer: a lane's eight registers are eight
// consecutive, 16-byte aligned halves, so the store and the load are one
// 128-bit access per row a lane holds: two rows (the 4 x 2 lane-and-warp
// rows cover 8 of the 16).
// CHECK-LABEL: llvm.func @vectorised
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-NOT: llvm.load
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @vectorised(%t: tensor<16x64xf16, #blocked>) -> tensor<16x64xf16, #blocked> {
    %a = ttg.local_alloc %t : (tensor<16x64xf16, #blocked>) -> !ttg.memdesc<16x64xf16, #shared, #smem>
    %v = ttg.local_load %a : !ttg.memdesc<16x64xf16, #shared, #smem> -> tensor<16x64xf16, #blocked>
    tt.return %v : tensor<16x64xf16, #blocked>
  }
}
