// RUN: tgpu-opt %s -test-print-axis-info -split-input-file -verify-diagnostics=only-expected -o /dev/null

// Offsets pid * 256 + [0, 256) into a 16-byte aligned f32 array: runs of 256,
// and every run starts at a multiple of 256 elements = 1024 bytes, but the
// pointer's alignment is capped by the argument's 16.
tt.func @vector_offsets(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %pid = tt.get_program_id x : i32
  // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [1], constant_value = 256}}
  %c256 = arith.constant 256 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [1], constant_value = <none>}}
  %base = arith.muli %pid, %c256 : i32
  // expected-remark @below {{contiguity = [256], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [256], constant_value = <none>}}
  %s = tt.splat %base : i32 -> tensor<256xi32>
  // expected-remark @below {{contiguity = [256], divisibility = [256], constancy = [1], constant_value = <none>}}
  %offs = arith.addi %s, %r : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [256], constant_value = <none>}}
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  // expected-remark @below {{contiguity = [256], divisibility = [16], constancy = [1], constant_value = <none>}}
  %ptrs = tt.addptr %ps, %offs : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  tt.return
}

// -----

// make_range starting at 48: its first element is divisible by 16.
// Subtracting a run is not a run; multiplying a run by 4 is not either.
tt.func @sub_mul() {
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1], constant_value = <none>}}
  %r = tt.make_range {end = 64 : i32, start = 48 : i32} : tensor<16xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [16], constant_value = 100}}
  %c = arith.constant dense<100> : tensor<16xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant_value = <none>}}
  %d = arith.subi %c, %r : tensor<16xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [4], constancy = [1], constant_value = <none>}}
  %e = arith.subi %r, %c : tensor<16xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [16], constant_value = 4}}
  %four = arith.constant dense<4> : tensor<16xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant_value = <none>}}
  %m = arith.muli %r, %four : tensor<16xi32>
  tt.return
}

// -----

// [0, 128) / 32 is constant over runs of 32, and [0, 128) % 32 is a run of
// 32; shifts by constants behave like the matching divisions and products.
tt.func @div_rem_shift() {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [128], constant_value = 32}}
  %c32 = arith.constant dense<32> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [32], constant_value = <none>}}
  %q = arith.divsi %r, %c32 : tensor<128xi32>
  // expected-remark @below {{contiguity = [32], divisibility = [32], constancy = [1], constant_value = <none>}}
  %m = arith.remsi %r, %c32 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [128], constant_value = 2}}
  %two = arith.constant dense<2> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant_value = <none>}}
  %l = arith.shli %r, %two : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %h = arith.shrui %r, %two : tensor<128xi32>
  tt.return
}

// -----

// Constants fold at their own width: -1 < 0 holds for i32 (a 64-bit fold of
// the zero-extended bits would say it does not), 0x7fffffff + 1 wraps, and
// a division by zero folds to nothing rather than trapping.
tt.func @folding() {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = -1}}
  %m1 = arith.constant -1 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [1], constant_value = 0}}
  %z = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = 1}}
  %lt = arith.cmpi slt, %m1, %z : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = 0}}
  %ult = arith.cmpi ult, %m1, %z : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = 2147483647}}
  %max = arith.constant 2147483647 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = 1}}
  %one = arith.constant 1 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [2147483648], constancy = [1], constant_value = -2147483648}}
  %wrap = arith.addi %max, %one : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %bad = arith.divsi %one, %z : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %badshift = arith.shli %one, %max : i32
  tt.return
}

// -----

// 2-D: row offsets (i * 64) broadcast along columns plus column offsets
// (j) broadcast along rows: runs of 64 along dim 1, constant nowhere.
tt.func @two_d(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %i = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %j = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [32, 1], divisibility = [1073741824, 1], constancy = [1, 1], constant_value = <none>}}
  %i2 = tt.expand_dims %i {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [1, 1], constant_value = <none>}}
  %j2 = tt.expand_dims %j {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [64, 64], constancy = [32, 1], constant_value = 64}}
  %c64 = arith.constant dense<64> : tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [64, 64], constancy = [1, 1], constant_value = <none>}}
  %row = arith.muli %i2, %c64 : tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [64, 64], constancy = [1, 64], constant_value = <none>}}
  %rowb = tt.broadcast %row : tensor<32x1xi32> -> tensor<32x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [32, 1], constant_value = <none>}}
  %colb = tt.broadcast %j2 : tensor<1x64xi32> -> tensor<32x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 64], constancy = [1, 1], constant_value = <none>}}
  %offs = arith.addi %rowb, %colb : tensor<32x64xi32>
  // expected-remark @below {{contiguity = [64, 1], divisibility = [64, 1], constancy = [1, 1], constant_value = <none>}}
  %t = tt.trans %offs {order = array<i32: 1, 0>} : tensor<32x64xi32> -> tensor<64x32xi32>
  tt.return
}

// -----

// Loop-carried pointers: the fixpoint keeps what the initial value and every
// increment (a multiple of 32 elements) have in common; the induction
// variable 0, 4, 8, ... is divisible by 4.
tt.func @loop(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %c32 = arith.constant dense<32> : tensor<32xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %r : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
  // expected-remark @below {{contiguity = [32], divisibility = [16], constancy = [1], constant_value = <none>}}
  %res = scf.for %iv = %c0 to %n step %c4 iter_args(%q = %ptrs) -> (tensor<32x!tt.ptr<f32>>) : i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [32], constant_value = <none>}}
    %ivs = tt.splat %iv : i32 -> tensor<32xi32>
    // expected-remark @below {{contiguity = [32], divisibility = [16], constancy = [1], constant_value = <none>}}
    %next = tt.addptr %q, %c32 : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
    scf.yield %next : tensor<32x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// Hints override what the rules derive. Non-positive or mis-shaped hints are
// clamped or ignored, never trusted (Triton asserts on some of them).
tt.func @hints(%a: i32 {tt.divisibility = 8 : i32}, %b: i32 {tt.divisibility = -7 : i32},
               %c: tensor<64xi32> {tt.contiguity = dense<[4, 4]> : tensor<2xi32>}) {
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [64], constant_value = <none>}}
  %sa = tt.splat %a : i32 -> tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [64], constant_value = <none>}}
  %sb = tt.splat %b : i32 -> tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %cc = arith.addi %c, %sb : tensor<64xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1], constant_value = <none>}}
  %h = arith.addi %sa, %c {tt.contiguity = dense<16> : tensor<1xi32>, tt.divisibility = dense<16> : tensor<1xi32>} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %neg = arith.addi %sa, %c {tt.contiguity = dense<-7> : tensor<1xi32>} : tensor<64xi32>
  tt.return
}

// -----

// select and max/min keep what both sides share: two aligned runs of 64
// chosen by a condition constant over stretches of 16 give runs of 16; a run
// against a constant gives no run at all. A run compared with a constant is
// constant over aligned stretches.
tt.func @select_cmp() {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [64], constancy = [1], constant_value = <none>}}
  %r2 = tt.make_range {end = 128 : i32, start = 64 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64], constant_value = 16}}
  %c16 = arith.constant dense<16> : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], constant_value = <none>}}
  %lt = arith.cmpi slt, %r, %c16 : tensor<64xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [64], constancy = [1], constant_value = <none>}}
  %s = arith.select %lt, %r, %r2 : tensor<64xi1>, tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %mx = arith.maxsi %r, %c16 : tensor<64xi32>
  tt.return
}

// -----

// A poison value may be anything, so it takes the most each property can be
// (runs and constancy of the whole dim, any power-of-two divisor: 2^62) and a
// join with it keeps what the other side holds: here the runs of 64 that
// start at multiples of 64 of a make_range, for a pointer of alignment 16.
tt.func @poison_join(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: i1) {
  // expected-remark @below {{contiguity = [64], divisibility = [4611686018427387904], constancy = [64], constant_value = <none>}}
  %poison = ub.poison : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %j = scf.if %c -> (tensor<64xi32>) {
    scf.yield %poison : tensor<64xi32>
  } else {
    scf.yield %r : tensor<64xi32>
  }
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64], constant_value = <none>}}
  %ps = tt.splat %p : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1], constant_value = <none>}}
  %ptrs = tt.addptr %ps, %j : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  tt.return
}
