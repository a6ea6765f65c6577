// nvg ops with operand types their definitions do not allow: located
// errors from the parser and the verifier (the ops have no other rules,
// as in Triton; what the hardware lacks is convert-nv-gpu-to-llvm's).
// RUN: tgpu-opt %s -split-input-file -verify-diagnostics

llvm.func @load_from_shared(%p: !llvm.ptr<3>) -> i32 {
  // expected-error @+1 {{operand #0 must be LLVM pointer in address space 1}}
  %x = nvg.ld_acquire acquire, gpu, %p : (!llvm.ptr<3>) -> i32
  llvm.return %x : i32
}

// -----

llvm.func @load_a_vector(%p: !llvm.ptr<1>) {
  // expected-error @+1 {{result #0 must be}}
  %x = nvg.ld_acquire acquire, gpu, %p : (!llvm.ptr<1>) -> vector<2xi32>
  llvm.return
}

// -----

llvm.func @bad_scope(%p: !llvm.ptr<1>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'scope' [gpu, cta, sys]}}
  %x = nvg.ld_acquire acquire, device, %p : (!llvm.ptr<1>) -> i32
  llvm.return
}

// -----

llvm.func @wait_on_a_scalar(%x: f32) {
  // expected-error @+1 {{must be LLVM structure type}}
  %w = nvg.wgmma_wait_group %x {pendings = 0 : i32} : f32
  llvm.return
}

// -----

llvm.func @wgmma_a_f32(%a: f32, %b: i64, %u: i1) {
  // expected-error @+1 {{operand #0 must be a register fragment or a matrix descriptor}}
  %d = nvg.wgmma %a, %b, %u {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (f32, i64, i1) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wgmma_bad_enum(%a: i64, %b: i64, %u: i1) {
  // expected-error @+1 {{attribute 'eltTypeA' failed to satisfy constraint}}
  %d = nvg.wgmma %a, %b, %u {eltTypeA = 9 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (i64, i64, i1) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wgmma_no_n(%a: i64, %b: i64, %u: i1) {
  // expected-error @+1 {{requires attribute 'n'}}
  %d = nvg.wgmma %a, %b, %u {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, k = 16 : i32} : (i64, i64, i1) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}
