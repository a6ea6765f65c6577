// !tt.tensordesc and the tt ops on it, parsed, printed and parsed again and
// checked against the form Triton 3.6 prints; then through -canonicalize
// -cse, which must keep every access (memory effects) and may drop or merge
// only the pure make_tensor_descriptor.
// RUN: tgpu-opt %s -split-input-file | tgpu-opt -split-input-file | FileCheck %s
// RUN: tgpu-opt %s -split-input-file -mlir-print-op-generic | tgpu-opt -split-input-file | FileCheck %s
// RUN: tgpu-opt %s -split-input-file -canonicalize -cse | FileCheck %s --check-prefix=OPT

// The block type prints as a builtin tensor, with its encoding and with
// signed or unsigned integer elements as given.
// CHECK-LABEL: tt.func @types
// CHECK-SAME: %{{.*}}: !tt.tensordesc<tensor<128xf32>>
// CHECK-SAME: %{{.*}}: !tt.tensordesc<tensor<1x2x1x32x16xi8>>
// CHECK-SAME: %{{.*}}: !tt.tensordesc<tensor<64x64xsi32>>
// CHECK-SAME: %{{.*}}: !tt.tensordesc<tensor<16xui8>>
// CHECK-SAME: %{{.*}}: !tt.tensordesc<tensor<1x128xbf16, #shared>>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
tt.func @types(%a: !tt.tensordesc<tensor<128xf32>>, %b: !tt.tensordesc<tensor<1x2x1x32x16xi8>>,
               %c: !tt.tensordesc<tensor<64x64xsi32>>, %d: !tt.tensordesc<tensor<16xui8>>,
               %e: !tt.tensordesc<tensor<1x128xbf16, #shared>>) {
  tt.return
}

// -----

// The operand types print without the dialect prefix (`<f16>`), as Triton's
// do; `padding` is printed only when it is not the default.
// CHECK-LABEL: tt.func @make
// OPT-LABEL: tt.func @make
tt.func @make(%base: !tt.ptr<f16>, %ibase: !tt.ptr<i8>, %m: i32, %n: i32, %ld: i64) -> (!tt.tensordesc<tensor<64x64xf16>>, !tt.tensordesc<tensor<32xui8>>) {
  %c1 = arith.constant 1 : i64
  // CHECK: %[[D:.*]] = tt.make_tensor_descriptor %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] : <f16>, <tensor<64x64xf16>>
  %d = tt.make_tensor_descriptor %base, [%m, %n], [%ld, %c1] : <f16>, <tensor<64x64xf16>>
  // CHECK: tt.make_tensor_descriptor %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {padding = 2 : i32} : <f16>, <tensor<64x64xf16>>
  %nan = tt.make_tensor_descriptor %base, [%m, %n], [%ld, %c1] {padding = 2 : i32} : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
  // The element's signedness may differ from the pointer's.
  // CHECK: tt.make_tensor_descriptor %{{.*}}, [%{{.*}}], [%{{.*}}] : <i8>, <tensor<32xui8>>
  %u = tt.make_tensor_descriptor %ibase, [%m], [%c1] : <i8>, <tensor<32xui8>>
  // Pure: the unused one goes, the duplicate is merged.
  // OPT-COUNT-2: tt.make_tensor_descriptor
  // OPT-NOT: tt.make_tensor_descriptor
  %dup = tt.make_tensor_descriptor %base, [%m, %n], [%ld, %c1] : <f16>, <tensor<64x64xf16>>
  tt.return %d, %u : !tt.tensordesc<tensor<64x64xf16>>, !tt.tensordesc<tensor<32xui8>>
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-LABEL: tt.func @load_store
// OPT-LABEL: tt.func @load_store
tt.func @load_store(%d: !tt.tensordesc<tensor<1x64xf32>>, %s: !tt.tensordesc<tensor<64x64xsi32, #nvmma>>,
                    %v: tensor<64xf32>, %w: tensor<64x64xi32, #blocked>, %i: i32) {
  // CHECK: tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] : !tt.tensordesc<tensor<1x64xf32>> -> tensor<64xf32>
  %a = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<1x64xf32>> -> tensor<64xf32>
  // CHECK: tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] cacheModifier = cg evictionPolicy = evict_first : !tt.tensordesc<tensor<1x64xf32>> -> tensor<1x64xf32>
  %b = tt.descriptor_load %d[%i, %i] cacheModifier = cg evictionPolicy = evict_first : !tt.tensordesc<tensor<1x64xf32>> -> tensor<1x64xf32>
  // Signed descriptor, signless tensor with a register layout.
  // CHECK: tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] : !tt.tensordesc<tensor<64x64xsi32, #{{.*}}>> -> tensor<64x64xi32, #{{.*}}>
  %c = tt.descriptor_load %s[%i, %i] : !tt.tensordesc<tensor<64x64xsi32, #nvmma>> -> tensor<64x64xi32, #blocked>
  // CHECK: tt.descriptor_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<1x64xf32>>, tensor<64xf32>
  tt.descriptor_store %d[%i, %i], %v : !tt.tensordesc<tensor<1x64xf32>>, tensor<64xf32>
  // CHECK: tt.descriptor_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<64x64xsi32, #{{.*}}>>, tensor<64x64xi32, #{{.*}}>
  tt.descriptor_store %s[%i, %i], %w : !tt.tensordesc<tensor<64x64xsi32, #nvmma>>, tensor<64x64xi32, #blocked>
  // CHECK: tt.descriptor_reduce add, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<1x64xf32>>, tensor<64xf32>
  tt.descriptor_reduce add, %d[%i, %i], %v : !tt.tensordesc<tensor<1x64xf32>>, tensor<64xf32>
  // CHECK: tt.descriptor_reduce xor, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<64x64xsi32, #{{.*}}>>, tensor<64x64xi32, #{{.*}}>
  tt.descriptor_reduce xor, %s[%i, %i], %w : !tt.tensordesc<tensor<64x64xsi32, #nvmma>>, tensor<64x64xi32, #blocked>
  // Loads read global memory: unused ones go, the stores and reductions stay.
  // OPT-NOT: tt.descriptor_load
  // OPT: tt.descriptor_store
  // OPT: tt.descriptor_store
  // OPT: tt.descriptor_reduce add
  // OPT: tt.descriptor_reduce xor
  tt.return
}

// -----

// A load between two stores is not merged with an earlier one.
// OPT-LABEL: tt.func @no_cse_across_store
tt.func @no_cse_across_store(%d: !tt.tensordesc<tensor<64xf32>>, %v: tensor<64xf32>, %i: i32) -> (tensor<64xf32>, tensor<64xf32>) {
  // OPT: tt.descriptor_load
  // OPT: tt.descriptor_store
  // OPT: tt.descriptor_load
  %a = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<64xf32>> -> tensor<64xf32>
  tt.descriptor_store %d[%i], %v : !tt.tensordesc<tensor<64xf32>>, tensor<64xf32>
  %b = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<64xf32>> -> tensor<64xf32>
  tt.return %a, %b : tensor<64xf32>, tensor<64xf32>
}

// -----

// CHECK-LABEL: tt.func @gather_scatter
// OPT-LABEL: tt.func @gather_scatter
tt.func @gather_scatter(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<32xi32>, %y: i32, %v: tensor<32x128xbf16>,
                        %u: !tt.tensordesc<tensor<1x32xui8>>, %w: tensor<8x32xi8>, %x8: tensor<8xi32>) -> tensor<32x128xbf16> {
  // CHECK: %{{.*}} = tt.descriptor_gather %{{.*}}[%{{.*}}, %{{.*}}] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<32x128xbf16>
  %r = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<32x128xbf16>
  // CHECK: tt.descriptor_scatter %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32, tensor<32x128xbf16>
  tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32, tensor<32x128xbf16>
  // The smallest i8 tile: 8 rows of 32 columns.
  // CHECK: tt.descriptor_scatter %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<1x32xui8>>, tensor<8xi32>, i32, tensor<8x32xi8>
  tt.descriptor_scatter %u[%x8, %y], %w : !tt.tensordesc<tensor<1x32xui8>>, tensor<8xi32>, i32, tensor<8x32xi8>
  // OPT: tt.descriptor_gather
  // OPT: tt.descriptor_scatter
  // OPT: tt.descriptor_scatter
  tt.return %r : tensor<32x128xbf16>
}
