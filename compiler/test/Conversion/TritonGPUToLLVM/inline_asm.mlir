// RUN: tgpu-opt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm | FileCheck %s

// 512 f32 over 128 threads, sizePerThread 4: 4 registers, one asm each
// (packed_element 1); pure, so no side effects; Triton's AT&T dialect tag.
// CHECK-LABEL: llvm.func @one_per_register
// CHECK-COUNT-4: llvm.inline_asm asm_dialect = att "mov.b32 $0, $1;", "=r,r" %{{.*}} : (f32) -> f32
// CHECK-NOT: llvm.inline_asm
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @one_per_register(%x: tensor<512xf32, #b4>) -> tensor<512xf32, #b4> {
    %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<512xf32, #b4> -> tensor<512xf32, #b4>
    tt.return %y : tensor<512xf32, #b4>
  }
}

// -----

// packed_element 4 over 4 registers: one asm per thread. f16 packs two to a
// 32-bit register (2 x vector<2xf16>), i8 four (1 x vector<4xi8>); the f16
// result comes back as 2 x vector<2xf16>, the f32 one as 4 x f32, all six
// outputs in one struct. Not pure: has_side_effects.
// CHECK-LABEL: llvm.func @packed_two_results
// CHECK: %[[A0:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK: %[[A01:.*]] = llvm.insertelement %{{.*}}, %[[A0]][%{{.*}} : i32] : vector<2xf16>
// CHECK: %[[A2:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK: %[[A23:.*]] = llvm.insertelement %{{.*}}, %[[A2]][%{{.*}} : i32] : vector<2xf16>
// CHECK-COUNT-4: llvm.insertelement %{{.*}} : vector<4xi8>
// CHECK: %[[R:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "op;", "=r,=r,=r,=r,=r,=r,r,r,r" %[[A01]], %[[A23]], %{{.*}} : (vector<2xf16>, vector<2xf16>, vector<4xi8>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>, f32, f32, f32, f32)>
// CHECK: %[[H0:.*]] = llvm.extractvalue %[[R]][0]
// CHECK: llvm.extractelement %[[H0]]
// CHECK: llvm.extractelement %[[H0]]
// CHECK: %[[H1:.*]] = llvm.extractvalue %[[R]][1]
// CHECK: llvm.extractelement %[[H1]]
// CHECK: llvm.extractelement %[[H1]]
// CHECK: llvm.extractvalue %[[R]][2]
// CHECK: llvm.extractvalue %[[R]][3]
// CHECK: llvm.extractvalue %[[R]][4]
// CHECK: llvm.extractvalue %[[R]][5]
// CHECK-NOT: llvm.inline_asm
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @packed_two_results(%a: tensor<512xf16, #b4>, %b: tensor<512xi8, #b4>) -> (tensor<512xf16, #b4>, tensor<512xf32, #b4>) {
    %h, %f = tt.elementwise_inline_asm "op;" {constraints = "=r,=r,=r,=r,=r,=r,r,r,r", packed_element = 4 : i32, pure = false} %a, %b : tensor<512xf16, #b4>, tensor<512xi8, #b4> -> tensor<512xf16, #b4>, tensor<512xf32, #b4>
    tt.return %h, %f : tensor<512xf16, #b4>, tensor<512xf32, #b4>
  }
}

// -----

// 256 f32 over 128 threads: 2 registers, packed_element 4: one asm whose
// last two inputs are undef padding; the result keeps outputs 0 and 1.
// CHECK-LABEL: llvm.func @padded
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[U:.*]] = llvm.mlir.undef : f32
// CHECK: %[[R:.*]] = llvm.inline_asm asm_dialect = att "pad;", "=f,=f,=f,=f,f,f,f,f" %[[X0]], %[[X1]], %[[U]], %[[U]] : (f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[Y0:.*]] = llvm.extractvalue %[[R]][0]
// CHECK: %[[Y1:.*]] = llvm.extractvalue %[[R]][1]
// CHECK-NOT: llvm.extractvalue %[[R]][2]
// CHECK: %[[S:.*]] = llvm.insertvalue %[[Y0]], %{{.*}}[0] : !llvm.struct<(f32, f32)>
// CHECK: llvm.insertvalue %[[Y1]], %[[S]][1] : !llvm.struct<(f32, f32)>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @padded(%x: tensor<256xf32, #b1>) -> tensor<256xf32, #b1> {
    %y = tt.elementwise_inline_asm "pad;" {constraints = "=f,=f,=f,=f,f,f,f,f", packed_element = 4 : i32, pure = true} %x : tensor<256xf32, #b1> -> tensor<256xf32, #b1>
    tt.return %y : tensor<256xf32, #b1>
  }
}

// -----

// Scalars: one asm on the values themselves, no struct.
// CHECK-LABEL: llvm.func @scalars(%arg0: i32, %arg1: i32) -> i32
// CHECK: %[[S:.*]] = llvm.inline_asm asm_dialect = att "add.s32 $0, $1, $2;", "=r,r,r" %arg0, %arg1 : (i32, i32) -> i32
// CHECK: llvm.return %[[S]] : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scalars(%a: i32, %b: i32) -> i32 {
    %s = tt.elementwise_inline_asm "add.s32 $0, $1, $2;" {constraints = "=r,r,r", packed_element = 1 : i32, pure = true} %a, %b : i32, i32 -> i32
    tt.return %s : i32
  }
}
