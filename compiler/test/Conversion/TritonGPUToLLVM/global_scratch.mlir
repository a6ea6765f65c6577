// RUN: tgpu-opt %s -split-input-file --tritongpu-global-scratch-memory-allocation | FileCheck %s --check-prefix=ALLOC
// RUN: tgpu-opt %s -split-input-file --tritongpu-global-scratch-memory-allocation --allocate-shared-memory --convert-triton-gpu-to-llvm | FileCheck %s --check-prefix=LLVM

// Buffers one after the other, each at its alignment (100 bytes at 0, 8
// bytes at 128, 4 bytes at 136); the program's size rounds up to the
// largest alignment (140 -> 256).
// ALLOC: module attributes {{{.*}}ttg.global_scratch_memory_alignment = 128 : i32, ttg.global_scratch_memory_size = 256 : i32
// ALLOC: tt.func public @scratch{{.*}} attributes {{{.*}}ttg.global_scratch_memory_alignment = 128 : i32, ttg.global_scratch_memory_size = 256 : i32}
// ALLOC: ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 100 : i32, ttg.global_scratch_memory_offset = 0 : i32}
// ALLOC: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 8 : i32, ttg.global_scratch_memory_offset = 128 : i32}
// ALLOC: ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 4 : i32, ttg.global_scratch_memory_offset = 136 : i32}

// The kernel takes the grid's scratch as a last parameter; a buffer is at
// (x + nx * (y + ny * z)) * 256 + its offset.
// LLVM: llvm.func @scratch(%arg0: !llvm.ptr<1>, %[[BASE:.+]]: !llvm.ptr<1>)
// LLVM: llvm.getelementptr %[[BASE]]
// LLVM: %[[SIZE:.+]] = llvm.mlir.constant(256 : i64) : i64
// LLVM-NEXT: %[[PROG:.+]] = llvm.mul %{{.+}}, %[[SIZE]] : i64
// LLVM-NEXT: %[[OFF:.+]] = llvm.mlir.constant(128 : i64) : i64
// LLVM-NEXT: %[[AT:.+]] = llvm.add %[[PROG]], %[[OFF]] : i64
// LLVM-NEXT: llvm.getelementptr %[[BASE]][%[[AT]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scratch(%out: !tt.ptr<i64>) {
    %a = ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
    %b = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 8 : i32} : !tt.ptr<i64>
    %c = ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 4 : i32} : !tt.ptr<i8>
    %v = tt.ptr_to_int %b : !tt.ptr<i64> -> i64
    tt.store %out, %v : !tt.ptr<i64>
    tt.return
  }
}

// -----

// Two kernels in one module: each program's share is its own kernel's size
// (256 and 64 bytes), whatever the module attribute says last.
// LLVM-LABEL: llvm.func @big
// LLVM: llvm.mlir.constant(256 : i64) : i64
// LLVM-LABEL: llvm.func @small
// LLVM: llvm.mlir.constant(64 : i64) : i64
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @big(%out: !tt.ptr<i64>) {
    %a = ttg.global_scratch_alloc {alignment = 256 : i32, nbytes = 200 : i32} : !tt.ptr<i64>
    %v = tt.ptr_to_int %a : !tt.ptr<i64> -> i64
    tt.store %out, %v : !tt.ptr<i64>
    tt.return
  }
  tt.func public @small(%out: !tt.ptr<i64>) {
    %a = ttg.global_scratch_alloc {alignment = 64 : i32, nbytes = 8 : i32} : !tt.ptr<i64>
    %v = tt.ptr_to_int %a : !tt.ptr<i64> -> i64
    tt.store %out, %v : !tt.ptr<i64>
    tt.return
  }
}
