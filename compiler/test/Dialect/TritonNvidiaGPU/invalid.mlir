// Every ttng verifier rule rejects bad input with a located diagnostic
// (Triton's wording where its tests check it).
// RUN: tgpu-opt %s -split-input-file -verify-diagnostics

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @init_not_i64(%bar: !ttg.memdesc<1xi32, #shared, #smem, mutable>) {
  // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
  ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi32, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @init_two_words(%bar: !ttg.memdesc<2xi64, #shared, #smem, mutable>) {
  // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
  ttng.init_barrier %bar, 1 : !ttg.memdesc<2xi64, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @init_count_zero(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>) {
  // expected-error @+1 {{count must be greater than or equal to 1}}
  ttng.init_barrier %bar, 0 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @init_count_huge(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>) {
  // expected-error @+1 {{count must be less than 2^20, got 1048576}}
  ttng.init_barrier %bar, 1048576 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @inval_not_barrier(%bar: !ttg.memdesc<1xf64, #shared, #smem, mutable>) {
  // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
  ttng.inval_barrier %bar : !ttg.memdesc<1xf64, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @expect_not_barrier(%bar: !ttg.memdesc<4xi64, #shared, #smem, mutable>, %pred: i1) {
  // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
  ttng.barrier_expect %bar, 16, %pred : !ttg.memdesc<4xi64, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @expect_negative(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %pred: i1) {
  // expected-error @+1 {{size must not be negative, got -16}}
  ttng.barrier_expect %bar, -16, %pred : !ttg.memdesc<1xi64, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @wait_not_barrier(%bar: !ttg.memdesc<1xi32, #shared, #smem, mutable>, %phase: i32) {
  // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
  ttng.wait_barrier %bar, %phase : !ttg.memdesc<1xi32, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @wait_dep_not_memdesc(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %phase: i32, %t: tensor<4xf32>) {
  // expected-error @+1 {{operand #2 must be variadic of memory descriptor}}
  ttng.wait_barrier %bar, %phase deps %t : !ttg.memdesc<1xi64, #shared, #smem, mutable>, tensor<4xf32>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @arrive_not_barrier(%bar: !ttg.memdesc<1xi32, #shared, #smem, mutable>) {
  // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
  ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi32, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @arrive_count_zero(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>) {
  // expected-error @+1 {{count must be greater than or equal to 1}}
  ttng.arrive_barrier %bar, 0 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @arrive_count_negative(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>) {
  // expected-error @+1 {{count must be greater than or equal to 1}}
  ttng.arrive_barrier %bar, -1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @copy_arrive_not_barrier(%bar: !ttg.memdesc<2xi64, #shared, #smem, mutable>) {
  // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
  ttng.async_copy_mbarrier_arrive %bar : !ttg.memdesc<2xi64, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @tma_load_barrier(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %i: i32, %pred: i1,
                          %bar: !ttg.memdesc<2xi32, #shared, #smem, mutable>, %buf: !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>) {
  // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
  ttng.async_tma_copy_global_to_local %d[%i, %i] %buf, %bar, %pred : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<2xi32, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @tma_load_no_coords(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %pred: i1,
                            %bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %buf: !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>) {
  // expected-error @+1 {{TMA copies must have between 1 and 5 coordinates}}
  ttng.async_tma_copy_global_to_local %d[] %buf, %bar, %pred : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @tma_load_six_coords(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %i: i32, %pred: i1,
                             %bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %buf: !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>) {
  // expected-error @+1 {{TMA copies must have between 1 and 5 coordinates}}
  ttng.async_tma_copy_global_to_local %d[%i, %i, %i, %i, %i, %i] %buf, %bar, %pred : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @tma_load_immutable(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %i: i32, %pred: i1,
                            %bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %buf: !ttg.memdesc<64x64xf16, #nvmma, #smem>) {
  // expected-error @+1 {{Cannot store into immutable memory}}
  ttng.async_tma_copy_global_to_local %d[%i, %i] %buf, %bar, %pred : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#swizzled = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @tma_load_layout(%d: !tt.tensordesc<tensor<1x256x32xf32>>, %i: i32, %pred: i1,
                         %bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %buf: !ttg.memdesc<256x32xf32, #swizzled, #smem, mutable>) {
  // expected-error @+1 {{TMA result must have NVMMA shared layout}}
  ttng.async_tma_copy_global_to_local %d[%i, %i, %i] %buf, %bar, %pred : !tt.tensordesc<tensor<1x256x32xf32>>, !ttg.memdesc<1xi64, #shared, #smem, mutable> -> !ttg.memdesc<256x32xf32, #swizzled, #smem, mutable>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @tma_store_no_coords(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %buf: !ttg.memdesc<64x64xf16, #nvmma, #smem>) {
  // expected-error @+1 {{TMA copies must have between 1 and 5 coordinates}}
  ttng.async_tma_copy_local_to_global %d[] %buf : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<64x64xf16, #nvmma, #smem>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @tma_reduce_six_coords(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %i: i32, %buf: !ttg.memdesc<64x64xf16, #nvmma, #smem>) {
  // expected-error @+1 {{TMA copies must have between 1 and 5 coordinates}}
  ttng.async_tma_reduce add, %d[%i, %i, %i, %i, %i, %i] %buf : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<64x64xf16, #nvmma, #smem>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @tma_store_src_not_memdesc(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %i: i32, %t: tensor<64x64xf16>) {
  // expected-error @+1 {{operand #3 must be memory descriptor}}
  ttng.async_tma_copy_local_to_global %d[%i, %i] %t : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, tensor<64x64xf16>
  tt.return
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#smem = #ttg.shared_memory
tt.func @gather_barrier(%d: !tt.tensordesc<tensor<1x128xbf16, #shared>>, %x: tensor<32xi32, #blocked>, %y: i32,
                        %bar: !ttg.memdesc<2xi32, #shared1, #smem, mutable>,
                        %buf: !ttg.memdesc<32x128xbf16, #shared, #smem, mutable>, %pred: i1) {
  // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
  ttng.async_tma_gather %d[%x, %y] %buf, %bar, %pred : !tt.tensordesc<tensor<1x128xbf16, #shared>>, tensor<32xi32, #blocked>, i32, !ttg.memdesc<2xi32, #shared1, #smem, mutable>, !ttg.memdesc<32x128xbf16, #shared, #smem, mutable>, i1
  tt.return
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#smem = #ttg.shared_memory
tt.func @gather_immutable(%d: !tt.tensordesc<tensor<1x128xbf16, #shared>>, %x: tensor<32xi32, #blocked>, %y: i32,
                          %bar: !ttg.memdesc<1xi64, #shared1, #smem, mutable>,
                          %buf: !ttg.memdesc<32x128xbf16, #shared, #smem>, %pred: i1) {
  // expected-error @+1 {{cannot store into immutable memory}}
  ttng.async_tma_gather %d[%x, %y] %buf, %bar, %pred : !tt.tensordesc<tensor<1x128xbf16, #shared>>, tensor<32xi32, #blocked>, i32, !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<32x128xbf16, #shared, #smem>, i1
  tt.return
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @gather_rows(%d: !tt.tensordesc<tensor<1x128xbf16, #shared>>, %x: tensor<4xi32>, %y: i32,
                     %bar: !ttg.memdesc<1xi64, #shared1, #smem, mutable>,
                     %buf: !ttg.memdesc<4x128xbf16, #shared, #smem, mutable>, %pred: i1) {
  // expected-error @+1 {{gather must have at least 8 rows, but got 4}}
  ttng.async_tma_gather %d[%x, %y] %buf, %bar, %pred : !tt.tensordesc<tensor<1x128xbf16, #shared>>, tensor<4xi32>, i32, !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<4x128xbf16, #shared, #smem, mutable>, i1
  tt.return
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @scatter_offsets(%d: !tt.tensordesc<tensor<1x128xbf16, #shared>>, %x: tensor<2x16xi32>, %y: i32,
                         %buf: !ttg.memdesc<32x128xbf16, #shared, #smem>) {
  // expected-error @+1 {{x offsets must be a 1D tensor, but got 'tensor<2x16xi32>'}}
  ttng.async_tma_scatter %d[%x, %y] %buf : !tt.tensordesc<tensor<1x128xbf16, #shared>>, tensor<2x16xi32>, i32, !ttg.memdesc<32x128xbf16, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @scatter_columns(%d: !tt.tensordesc<tensor<1x8xbf16, #shared>>, %x: tensor<32xi32>, %y: i32,
                         %buf: !ttg.memdesc<32x8xbf16, #shared, #smem>) {
  // expected-error @+1 {{gather of 'bf16' must have at least 16 columns, but got 8}}
  ttng.async_tma_scatter %d[%x, %y] %buf : !tt.tensordesc<tensor<1x8xbf16, #shared>>, tensor<32xi32>, i32, !ttg.memdesc<32x8xbf16, #shared, #smem>
  tt.return
}

// -----

tt.func @store_wait_negative() {
  // expected-error @+1 {{pendings must not be negative, got -1}}
  ttng.async_tma_store_wait {pendings = -1 : i32}
  tt.return
}

// -----

tt.func @store_wait_no_pendings() {
  // expected-error @+1 {{requires attribute 'pendings'}}
  ttng.async_tma_store_wait
  tt.return
}

// -----

tt.func @reinterpret_not_ptr(%p: i64) {
  // expected-error @+1 {{operand #0 must be ptr}}
  %d = ttng.reinterpret_tensor_descriptor %p : i64 to !tt.tensordesc<tensor<64xf16>>
  tt.return
}

// -----

tt.func @tensormap_global_dim(%desc: !tt.ptr<i8>, %base: !tt.ptr<i16>, %m: i32, %ld: i64) {
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{Rank mismatch for global dim. Got 1 but expected 2}}
  ttng.tensormap_create %desc, %base, [%c1, %c1], [%m], [%ld], [%c1, %c1] {elem_type = 3 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<i16>, i32, i32, i32, i64, i32, i32) -> ()
  tt.return
}

// -----

tt.func @tensormap_global_stride(%desc: !tt.ptr<i8>, %base: !tt.ptr<i16>, %m: i32, %ld: i64) {
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{Rank mismatch for global stride. Got 2 but expected 1}}
  ttng.tensormap_create %desc, %base, [%c1, %c1], [%m, %m], [%ld, %ld], [%c1, %c1] {elem_type = 3 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<i16>, i32, i32, i32, i32, i64, i64, i32, i32) -> ()
  tt.return
}

// -----

tt.func @tensormap_element_stride(%desc: !tt.ptr<i8>, %base: !tt.ptr<i16>, %m: i32, %ld: i64) {
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{Rank mismatch for element stride. Got 1 but expected 2}}
  ttng.tensormap_create %desc, %base, [%c1, %c1], [%m, %m], [%ld], [%c1] {elem_type = 3 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<i16>, i32, i32, i32, i32, i64, i32) -> ()
  tt.return
}

// -----

tt.func @tensormap_rank_zero(%desc: !tt.ptr<i8>, %base: !tt.ptr<i16>) {
  // expected-error @+1 {{TMA descriptors have 1 to 5 dimensions, got 0}}
  ttng.tensormap_create %desc, %base, [], [], [], [] {elem_type = 3 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<i16>) -> ()
  tt.return
}

// -----

tt.func @tensormap_swizzle(%desc: !tt.ptr<i8>, %base: !tt.ptr<i16>, %m: i32) {
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{attribute 'swizzle_mode' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative whose maximum value is 3}}
  ttng.tensormap_create %desc, %base, [%c1], [%m], [], [%c1] {elem_type = 3 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 4 : i32} : (!tt.ptr<i8>, !tt.ptr<i16>, i32, i32, i32) -> ()
  tt.return
}

// -----

tt.func @tensormap_elem_type(%desc: !tt.ptr<i8>, %base: !tt.ptr<i16>, %m: i32) {
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{attribute 'elem_type' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative whose maximum value is 15}}
  ttng.tensormap_create %desc, %base, [%c1], [%m], [], [%c1] {elem_type = -1 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 0 : i32} : (!tt.ptr<i8>, !tt.ptr<i16>, i32, i32, i32) -> ()
  tt.return
}

// -----

tt.func @tensormap_fill(%desc: !tt.ptr<i8>, %base: !tt.ptr<i16>, %m: i32) {
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{attribute 'fill_mode' failed to satisfy constraint}}
  ttng.tensormap_create %desc, %base, [%c1], [%m], [], [%c1] {elem_type = 3 : i32, fill_mode = 2 : i32, interleave_layout = 0 : i32, swizzle_mode = 0 : i32} : (!tt.ptr<i8>, !tt.ptr<i16>, i32, i32, i32) -> ()
  tt.return
}

// -----

tt.func @tensormap_interleave(%desc: !tt.ptr<i8>, %base: !tt.ptr<i16>, %m: i32) {
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{attribute 'interleave_layout' failed to satisfy constraint}}
  ttng.tensormap_create %desc, %base, [%c1], [%m], [], [%c1] {elem_type = 3 : i32, fill_mode = 0 : i32, interleave_layout = 3 : i32, swizzle_mode = 0 : i32} : (!tt.ptr<i8>, !tt.ptr<i16>, i32, i32, i32) -> ()
  tt.return
}

// -----

tt.func @fence_acquire_not_ptr(%p: i64) {
  // expected-error @+1 {{operand #0 must be ptr}}
  ttng.tensormap_fenceproxy_acquire %p : i64
  tt.return
}

// -----

tt.func @cluster_arrive_no_relaxed() {
  // expected-error @+1 {{requires attribute 'relaxed'}}
  ttng.cluster_arrive
  tt.return
}

// -----

tt.func @cluster_arrive_relaxed_i32() {
  // expected-error @+1 {{attribute 'relaxed' failed to satisfy constraint: 1-bit signless integer attribute}}
  ttng.cluster_arrive {relaxed = 1 : i32}
  tt.return
}

// -----

tt.func @fence_no_cluster() {
  // expected-error @+1 {{requires attribute 'bCluster'}}
  ttng.fence_async_shared
  tt.return
}

// -----

// wgmma: Triton's rules, in its order.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @wgmma_acc(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{WGMMA result layout must be Hopper NVMMA}}
  %0 = ttng.warp_group_dot %a, %a, %c : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #blocked>
  tt.return
}

// -----

#mma2 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @wgmma_acc_ampere(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma2>) {
  // expected-error @+1 {{WGMMA result layout must be Hopper NVMMA}}
  %0 = ttng.warp_group_dot %a, %a, %c : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma2>
  tt.return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#swizzled = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @wgmma_a_swizzled(%a: !ttg.memdesc<64x64xf16, #swizzled, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{unexpected operand layout for NvidiaMmaEncodingAttr v3}}
  %0 = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xf16, #swizzled, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
  tt.return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @wgmma_a_blocked_dot(%a: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{unexpected operand layout for NvidiaMmaEncodingAttr v3}}
  %0 = ttng.warp_group_dot %a, %b, %c : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
  tt.return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @wgmma_a_no_layout(%a: tensor<64x64xf16>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{WGMMA A operand must have NVMMA shared or dot layout}}
  %0 = ttng.warp_group_dot %a, %b, %c : tensor<64x64xf16> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
  tt.return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#swizzled = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @wgmma_b_swizzled(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #swizzled, #smem>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{unexpected operand layout for NvidiaMmaEncodingAttr v3}}
  %0 = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #swizzled, #smem> -> tensor<64x64xf32, #mma>
  tt.return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @wgmma_k(%a: !ttg.memdesc<64x32xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand}}
  %0 = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
  tt.return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @wgmma_output(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x32xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{expected the output shape to be the concatenation of the last dimension of the first operand and the last dimension of the second}}
  %0 = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x32xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
  tt.return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#smem = #ttg.shared_memory
tt.func @wgmma_rank(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<2x64x64xf16, #shared3, #smem>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{unexpected operand layout for NvidiaMmaEncodingAttr v3}}
  %0 = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<2x64x64xf16, #shared3, #smem> -> tensor<64x64xf32, #mma>
  tt.return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @wgmma_m(%a: !ttg.memdesc<32x32xf16, #shared, #smem>, %c: tensor<32x32xf32, #mma>) {
  // expected-error @+1 {{WGMMA result M dimension must be divisible by 64}}
  %0 = ttng.warp_group_dot %a, %a, %c : !ttg.memdesc<32x32xf16, #shared, #smem> * !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf32, #mma>
  tt.return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @wgmma_n(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x4xf16, #shared, #smem>, %c: tensor<64x4xf32, #mma>) {
  // expected-error @+1 {{WGMMA result N dimension must be divisible by 8}}
  %0 = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x4xf16, #shared, #smem> -> tensor<64x4xf32, #mma>
  tt.return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @wgmma_element(%a: !ttg.memdesc<64x64xi16, #shared, #smem>, %c: tensor<64x64xi32, #mma>) {
  // expected-error @+1 {{unsupported MMA version for the given operands}}
  %0 = ttng.warp_group_dot %a, %a, %c : !ttg.memdesc<64x64xi16, #shared, #smem> * !ttg.memdesc<64x64xi16, #shared, #smem> -> tensor<64x64xi32, #mma>
  tt.return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#smem = #ttg.shared_memory
tt.func @wgmma_fp8_imprecise(%a: !ttg.memdesc<64x64xf8E4M3FN, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{Cannot use F32 as the accumulator element type when the max_num_imprecise_acc is less than 32}}
  %0 = ttng.warp_group_dot %a, %a, %c {maxNumImpreciseAcc = 16 : i32} : !ttg.memdesc<64x64xf8E4M3FN, #shared, #smem> * !ttg.memdesc<64x64xf8E4M3FN, #shared, #smem> -> tensor<64x64xf32, #mma>
  tt.return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 256, 32]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 16}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @wgmma_kwidth(%a: tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b: !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory>, %c: tensor<128x128xf16, #mma>) {
  // expected-error @+1 {{in-register LHS operand must have a kWidth of 2 but got 1}}
  %0 = ttng.warp_group_dot %a, %b, %c : tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory> -> tensor<128x128xf16, #mma>
  tt.return
}
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared8 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#smem = #ttg.shared_memory
tt.func @wgmma_mixed(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xi8, #shared8, #smem>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{a and b must both be float or both be integer}}
  %0 = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xi8, #shared8, #smem> -> tensor<64x64xf32, #mma>
  tt.return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @wgmma_result_type(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{failed to verify that result's type matches accumulator's type}}
  %0 = "ttng.warp_group_dot"(%a, %a, %c) : (!ttg.memdesc<64x64xf16, #shared, #smem>, !ttg.memdesc<64x64xf16, #shared, #smem>, tensor<64x64xf32, #mma>) -> tensor<64x64xf16, #mma>
  tt.return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
tt.func @wgmma_wait_negative(%c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{pendings must not be negative, got -2}}
  %0 = ttng.warp_group_dot_wait %c {pendings = -2 : i32} : tensor<64x64xf32, #mma>
  tt.return
}

// -----

tt.func @wgmma_wait_nothing() {
  // expected-error @+1 {{expected to be waiting on at least one dependency}}
  "ttng.warp_group_dot_wait"() {pendings = 0 : i32} : () -> ()
  tt.return
}

// -----

tt.func @wgmma_wait_scalar(%x: f32) {
  // expected-error @+1 {{operand #0 must be variadic of ranked tensor of any type values or memory descriptor}}
  %0 = ttng.warp_group_dot_wait %x {pendings = 0 : i32} : f32
  tt.return
}
