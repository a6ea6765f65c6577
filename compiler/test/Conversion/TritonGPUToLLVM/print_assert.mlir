// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm | FileCheck %s

// A 128-element i32 tensor over 128 threads: one element per thread, one
// vprintf per thread. Triton's format: the pid, the index padded to
// ceil(log10(128)) = 3 digits, the prefix, the value (%i: isSigned).
// vprintf's buffer: (pid x, y, z, index, value) as five i32 in a stack slot
// of the entry block.
// CHECK-LABEL: module
// CHECK-DAG: llvm.mlir.global internal constant @printfFormat_0("pid (%u, %u, %u) idx (%3u) x: %i\0A\00")
// CHECK-DAG: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
// CHECK-LABEL: llvm.func @print_tensor
// CHECK: %[[BUF:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, i32, i32)> {alignment = 8 : i64}
// CHECK: %[[PX:.*]] = nvvm.read.ptx.sreg.ctaid.x
// CHECK: %[[PY:.*]] = nvvm.read.ptx.sreg.ctaid.y
// CHECK: %[[PZ:.*]] = nvvm.read.ptx.sreg.ctaid.z
// CHECK: %[[V:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[FMT:.*]] = llvm.mlir.addressof @printfFormat_0
// CHECK: %[[F0:.*]] = llvm.getelementptr %[[BUF]][0, 0]
// CHECK: llvm.store %[[PX]], %[[F0]]
// CHECK: %[[F1:.*]] = llvm.getelementptr %[[BUF]][0, 1]
// CHECK: llvm.store %[[PY]], %[[F1]]
// CHECK: %[[F2:.*]] = llvm.getelementptr %[[BUF]][0, 2]
// CHECK: llvm.store %[[PZ]], %[[F2]]
// CHECK: %[[F3:.*]] = llvm.getelementptr %[[BUF]][0, 3]
// CHECK: llvm.store %{{.*}}, %[[F3]]
// CHECK: %[[F4:.*]] = llvm.getelementptr %[[BUF]][0, 4]
// CHECK: llvm.store %[[V]], %[[F4]]
// CHECK: llvm.call @vprintf(%[[FMT]], %[[BUF]]) : (!llvm.ptr, !llvm.ptr) -> i32
// CHECK-NOT: llvm.call @vprintf
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @print_tensor(%x: tensor<128xi32, #b>) {
    tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<128xi32, #b>
    tt.return
  }
}

// -----

// Two operands: "(operand N) " after the prefix. A scalar f32 has an empty
// index and prints as a double (%f). A 4x8 i8 tensor (unsigned) over 4x8
// lanes: indices of ceil(log10(4)) = 1 and ceil(log10(8)) = 1 digits, the
// value zero-extended to i32 (%u). Each operand has its own format and
// buffer.
// CHECK-LABEL: module
// CHECK-DAG: @printfFormat_{{[0-9]+}}("pid (%u, %u, %u) idx () v: (operand 0) %f\0A\00")
// CHECK-DAG: @printfFormat_{{[0-9]+}}("pid (%u, %u, %u) idx (%1u, %1u) v: (operand 1) %u\0A\00")
// CHECK-LABEL: llvm.func @print_two
// CHECK-DAG: llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, f64)>
// CHECK-DAG: llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, i32, i32, i32)>
// CHECK: %[[D:.*]] = llvm.fpext %arg0 : f32 to f64
// CHECK: llvm.store %[[D]]
// CHECK: llvm.call @vprintf
// CHECK: %[[Z:.*]] = llvm.zext %{{.*}} : i8 to i32
// CHECK: llvm.store %[[Z]]
// CHECK: llvm.call @vprintf
// CHECK-NOT: llvm.call @vprintf
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @print_two(%s: f32, %t: tensor<4x8xi8, #b2>) {
    tt.print " v: " {hex = false, isSigned = array<i32: 0, 0>} : %s, %t : f32, tensor<4x8xi8, #b2>
    tt.return
  }
}

// -----

// hex: the bits, zero-extended: f16 as "0x%04x" of its 16 bits, i64 as
// "0x%016llx". Signed i64 in decimal: %lli. No operands: the prefix right
// after the pid.
// CHECK-LABEL: module
// CHECK-DAG: ("pid (%u, %u, %u) idx () h: 0x%04x\0A\00")
// CHECK-DAG: ("pid (%u, %u, %u) idx () h: 0x%016llx\0A\00")
// CHECK-DAG: ("pid (%u, %u, %u) idx () d: %lli\0A\00")
// CHECK-DAG: ("pid (%u, %u, %u) hello\0A\00")
// CHECK-LABEL: llvm.func @print_hex
// CHECK: %[[BITS:.*]] = llvm.bitcast %arg0 : f16 to i16
// CHECK: %[[W:.*]] = llvm.zext %[[BITS]] : i16 to i32
// CHECK: llvm.store %[[W]]
// CHECK: llvm.store %arg1
// CHECK: llvm.store %arg1
// CHECK: llvm.call @vprintf
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @print_hex(%h: f16, %d: i64) {
    tt.print " h: " {hex = true, isSigned = array<i32: 0>} : %h : f16
    tt.print " h: " {hex = true, isSigned = array<i32: 1>} : %d : i64
    tt.print " d: " {hex = false, isSigned = array<i32: 1>} : %d : i64
    tt.print " hello" {hex = false, isSigned = array<i32>}
    tt.return
  }
}

// -----

// tt.assert on a tensor: the thread fails when any of its elements is false;
// __assertfail gets the message, the file and line of the location (through
// the name location), the function and sizeof(char); a barrier follows.
// CHECK-LABEL: module
// CHECK-DAG: llvm.mlir.global internal constant @assertMessage_0("x must be positive\00")
// CHECK-DAG: llvm.mlir.global internal constant @assertFile_0("kernel.py\00")
// CHECK-DAG: llvm.mlir.global internal constant @assertFunc_0("check\00")
// CHECK-DAG: llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) attributes {passthrough = ["noreturn"]}
// CHECK-LABEL: llvm.func @check
// CHECK: %[[C0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[C1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[Z0:.*]] = llvm.icmp "eq" %[[C0]], %{{.*}} : i1
// CHECK: %[[Z1:.*]] = llvm.icmp "eq" %[[C1]], %{{.*}} : i1
// CHECK: %[[FAIL:.*]] = llvm.or %[[Z0]], %[[Z1]] : i1
// CHECK: %[[LINE:.*]] = llvm.mlir.constant(12 : i32) : i32
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.cond_br %[[FAIL]], ^[[FAILBB:.*]], ^[[REST:.*]]
// CHECK: ^[[FAILBB]]:
// CHECK: llvm.call @__assertfail(%{{.*}}, %{{.*}}, %[[LINE]], %{{.*}}, %[[ONE]]) : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) -> ()
// CHECK: llvm.br ^[[REST]]
// CHECK: ^[[REST]]:
// CHECK: nvvm.barrier0
// CHECK: llvm.return
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @check(%c: tensor<256xi1, #b>) {
    tt.assert %c, "x must be positive" : tensor<256xi1, #b> loc(#named)
    tt.return
  }
}
#named = loc("x"("kernel.py":12:5))

// -----

// A scalar assert with no file location: "unknown", line 0, no barrier.
// CHECK-LABEL: module
// CHECK-DAG: @assertFile_0("unknown\00")
// CHECK-LABEL: llvm.func @scalar_check
// CHECK: %[[FAIL:.*]] = llvm.icmp "eq" %arg0, %{{.*}} : i1
// CHECK: %[[LINE:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.cond_br %[[FAIL]]
// CHECK: llvm.call @__assertfail(%{{.*}}, %{{.*}}, %[[LINE]],
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scalar_check(%c: i1) {
    tt.assert %c, "c" : i1 loc(unknown)
    tt.return
  }
}
