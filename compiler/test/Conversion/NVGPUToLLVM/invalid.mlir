// What no PTX instruction does is a located error of
// convert-nv-gpu-to-llvm, never an assertion.
// RUN: tgpu-opt %s -split-input-file --convert-nv-gpu-to-llvm -verify-diagnostics

llvm.func @wgmma_m128(%a: i64, %b: i64, %u: i1) {
  // expected-error @+1 {{wgmma has no m128n8k16 shape for f32.f16.f16}}
  %d = nvg.wgmma %a, %b, %u {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 128 : i32, n = 8 : i32, k = 16 : i32} : (i64, i64, i1) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wgmma_s8_n40(%a: i64, %b: i64, %u: i1) {
  // expected-error @+1 {{wgmma has no m64n40k32 shape for s32.s8.s8}}
  %d = nvg.wgmma %a, %b, %u {eltTypeA = 0 : i32, eltTypeB = 0 : i32, eltTypeC = 1 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 40 : i32, k = 32 : i32} : (i64, i64, i1) -> !llvm.struct<(i32, i32, i32, i32)>
  llvm.return
}

// -----

llvm.func @wgmma_bf16_into_f16(%a: i64, %b: i64, %u: i1) {
  // expected-error @+1 {{wgmma has no f16.bf16.bf16 instruction}}
  %d = nvg.wgmma %a, %b, %u {eltTypeA = 5 : i32, eltTypeB = 5 : i32, eltTypeC = 4 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (i64, i64, i1) -> !llvm.struct<(i32, i32)>
  llvm.return
}

// -----

llvm.func @wgmma_mixed_16bit(%a: i64, %b: i64, %u: i1) {
  // expected-error @+1 {{wgmma has no f32.f16.bf16 instruction}}
  %d = nvg.wgmma %a, %b, %u {eltTypeA = 4 : i32, eltTypeB = 5 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (i64, i64, i1) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wgmma_transposed_tf32(%a: i64, %b: i64, %u: i1) {
  // expected-error @+1 {{wgmma cannot transpose tf32 operands (layoutA must be row, layoutB col)}}
  %d = nvg.wgmma %a, %b, %u {eltTypeA = 6 : i32, eltTypeB = 6 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 0 : i32, m = 64 : i32, n = 8 : i32, k = 8 : i32} : (i64, i64, i1) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wgmma_b_in_registers(%a: i64, %b: !llvm.struct<(i32, i32, i32, i32)>, %u: i1) {
  // expected-error @+1 {{wgmma reads B from shared memory: it must be an i64 matrix descriptor}}
  %d = nvg.wgmma %a, %b, %u {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (i64, !llvm.struct<(i32, i32, i32, i32)>, i1) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wgmma_a_regs_transposed(%a: !llvm.struct<(i32, i32, i32, i32)>, %b: i64, %u: i1) {
  // expected-error @+1 {{wgmma cannot transpose an A operand in registers}}
  %d = nvg.wgmma %a, %b, %u {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, layoutA = 1 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (!llvm.struct<(i32, i32, i32, i32)>, i64, i1) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wgmma_wrong_register_count(%a: i64, %b: i64, %u: i1) {
  // expected-error @+1 {{a m64n16k16.f32.f16.f16 wgmma has 8 accumulator registers a thread, not 4}}
  %d = nvg.wgmma %a, %b, %u {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 16 : i32, k = 16 : i32} : (i64, i64, i1) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wgmma_accumulator_type(%a: i64, %b: i64, %u: i1, %c: !llvm.struct<(i32, i32, i32, i32)>) {
  // expected-error @+1 {{the accumulator '!llvm.struct<(i32, i32, i32, i32)>' is not of the result type '!llvm.struct<(f32, f32, f32, f32)>'}}
  %d = nvg.wgmma %a, %b, %u, %c {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (i64, i64, i1, !llvm.struct<(i32, i32, i32, i32)>) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wait_on_bytes(%r: !llvm.struct<(f32, i8)>) {
  // expected-error @+1 {{cannot pass a 'i8' through the wait: registers are 16, 32 or 64 bits}}
  %a = nvg.wgmma_wait_group %r {pendings = 0 : i32} : !llvm.struct<(f32, i8)>
  llvm.return
}

// -----

llvm.func @release_load(%p: !llvm.ptr<1>) -> i32 {
  // expected-error @+1 {{a load has no release order (acquire or relaxed only)}}
  %x = nvg.ld_acquire release, gpu, %p : (!llvm.ptr<1>) -> i32
  llvm.return %x : i32
}

// -----

llvm.func @tmem() -> !llvm.ptr<6> {
  // expected-error @+1 {{is not supported: tensor memory is Blackwell's (sm_100); tgpu targets GPUs up to Hopper}}
  %0 = nvg.tensor_memory_base
  llvm.return %0 : !llvm.ptr<6>
}

// -----

llvm.func @fp8_load(%p: !llvm.ptr<1>) {
  // expected-error @+1 {{cannot load 'f8E5M2' in the LLVM dialect: load it as i8}}
  %x = nvg.ld_acquire acquire, gpu, %p : (!llvm.ptr<1>) -> f8E5M2
  llvm.return
}
