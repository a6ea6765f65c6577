// RUN: tgpu-opt %s -split-input-file --tritongpu-combine-tensor-select-and-if | FileCheck %s

// A select on the condition of a later if with no results and no else: the
// if gains a result (the select's true value yielded by the then branch,
// its false value by a new else branch) and the select's users read it.
// CHECK-LABEL: tt.func @into_plain_if
// CHECK-NOT: arith.select
// CHECK: %[[R:.*]] = scf.if %arg0 -> (tensor<32xi32>) {
// CHECK-NEXT: tt.store %arg3, %arg1
// CHECK-NEXT: scf.yield %arg1 : tensor<32xi32>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg2 : tensor<32xi32>
// CHECK-NEXT: }
// CHECK-NEXT: tt.store %arg3, %[[R]]
tt.func @into_plain_if(%c: i1, %a: tensor<32xi32>, %b: tensor<32xi32>, %p: tensor<32x!tt.ptr<i32>>) {
  %s = arith.select %c, %a, %b : tensor<32xi32>
  scf.if %c {
    tt.store %p, %a : tensor<32x!tt.ptr<i32>>
  }
  tt.store %p, %s : tensor<32x!tt.ptr<i32>>
  tt.return
}

// -----

// Two selects join an if that has a result already: the old result stays
// first, the selects follow in program order.
// CHECK-LABEL: tt.func @two_selects
// CHECK-NOT: arith.select
// CHECK: %[[R:.*]]:3 = scf.if %arg0 -> (tensor<16xf32>, tensor<16xi32>, tensor<16xf32>) {
// CHECK-NEXT: %[[M:.*]] = arith.mulf %arg3, %arg4
// CHECK-NEXT: scf.yield %[[M]], %arg1, %arg3 : tensor<16xf32>, tensor<16xi32>, tensor<16xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg4, %arg2, %arg4 : tensor<16xf32>, tensor<16xi32>, tensor<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %[[R]]#1, %[[R]]#0, %[[R]]#2
tt.func @two_selects(%c: i1, %a: tensor<16xi32>, %b: tensor<16xi32>, %x: tensor<16xf32>, %y: tensor<16xf32>) -> (tensor<16xi32>, tensor<16xf32>, tensor<16xf32>) {
  %s0 = arith.select %c, %a, %b : tensor<16xi32>
  %s1 = arith.select %c, %x, %y : tensor<16xf32>
  %r = scf.if %c -> (tensor<16xf32>) {
    %m = arith.mulf %x, %y : tensor<16xf32>
    scf.yield %m : tensor<16xf32>
  } else {
    scf.yield %y : tensor<16xf32>
  }
  tt.return %s0, %r, %s1 : tensor<16xi32>, tensor<16xf32>, tensor<16xf32>
}

// -----

// Inside the branches of an if on the same condition the select is known:
// its true value in the then branch, its false value in the else branch,
// also in regions nested deeper.
// CHECK-LABEL: tt.func @uses_in_branches
// CHECK: scf.if %arg0 -> (tensor<8xi32>, tensor<8xi32>) {
// CHECK-NEXT: %[[T:.*]] = arith.addi %arg1, %arg1
// CHECK-NEXT: scf.yield %[[T]], %arg1
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[E:.*]] = scf.if %arg3 -> (tensor<8xi32>) {
// CHECK-NEXT: %[[F:.*]] = arith.subi %arg2, %arg1
// CHECK-NEXT: scf.yield %[[F]]
// CHECK: scf.yield %[[E]], %arg2
tt.func @uses_in_branches(%c: i1, %a: tensor<8xi32>, %b: tensor<8xi32>, %d: i1) -> (tensor<8xi32>, tensor<8xi32>) {
  %s = arith.select %c, %a, %b : tensor<8xi32>
  %r = scf.if %c -> (tensor<8xi32>) {
    %t = arith.addi %s, %s : tensor<8xi32>
    scf.yield %t : tensor<8xi32>
  } else {
    %e = scf.if %d -> (tensor<8xi32>) {
      %f = arith.subi %s, %a : tensor<8xi32>
      scf.yield %f : tensor<8xi32>
    } else {
      scf.yield %b : tensor<8xi32>
    }
    scf.yield %e : tensor<8xi32>
  }
  tt.return %r, %s : tensor<8xi32>, tensor<8xi32>
}

// -----

// A select feeding another one has a user before the if, so it stays; the
// other one joins the if and its branches yield its operands.
// CHECK-LABEL: tt.func @select_of_select
// CHECK: %[[S:.*]] = arith.select %arg0, %arg1, %arg2 : tensor<8xi32>
// CHECK-NEXT: %[[R:.*]] = scf.if %arg0 -> (tensor<8xi32>) {
// CHECK-NEXT: scf.yield %[[S]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg3
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %[[S]], %[[R]]
tt.func @select_of_select(%c: i1, %a: tensor<8xi32>, %b: tensor<8xi32>, %e: tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>) {
  %s0 = arith.select %c, %a, %b : tensor<8xi32>
  %s1 = arith.select %c, %s0, %e : tensor<8xi32>
  scf.if %c {
  }
  tt.return %s0, %s1 : tensor<8xi32>, tensor<8xi32>
}

// -----

// Left alone: a scalar select; a select used before the if; a select on
// another condition.
// CHECK-LABEL: tt.func @left_alone
// CHECK: arith.select %arg0, %arg3, %arg4 : i32
// CHECK: arith.select %arg0, %arg1, %arg2 : tensor<8xi32>
// CHECK: arith.select %arg5, %arg1, %arg2 : tensor<8xi32>
// CHECK: scf.if %arg0 {
// CHECK-NEXT: tt.store
// CHECK-NEXT: }
tt.func @left_alone(%c: i1, %a: tensor<8xi32>, %b: tensor<8xi32>, %x: i32, %y: i32, %d: i1, %p: tensor<8x!tt.ptr<i32>>, %q: !tt.ptr<i32>) {
  %s0 = arith.select %c, %x, %y : i32
  %s1 = arith.select %c, %a, %b : tensor<8xi32>
  %s2 = arith.select %d, %a, %b : tensor<8xi32>
  tt.store %p, %s1 : tensor<8x!tt.ptr<i32>>
  scf.if %c {
    tt.store %p, %a : tensor<8x!tt.ptr<i32>>
  }
  tt.store %q, %s0 : !tt.ptr<i32>
  tt.store %p, %s1 : tensor<8x!tt.ptr<i32>>
  tt.store %p, %s2 : tensor<8x!tt.ptr<i32>>
  tt.return
}

// -----

// Left alone: the only if on the condition is in another block.
// CHECK-LABEL: tt.func @if_in_loop
// CHECK: %[[S:.*]] = arith.select %arg0, %arg1, %arg2 : tensor<8xi32>
// CHECK: scf.for
// CHECK-NEXT: scf.if %arg0 {
// CHECK-NEXT: tt.store
// CHECK-NEXT: }
// CHECK: tt.store %arg3, %[[S]]
tt.func @if_in_loop(%c: i1, %a: tensor<8xi32>, %b: tensor<8xi32>, %p: tensor<8x!tt.ptr<i32>>) {
  %s = arith.select %c, %a, %b : tensor<8xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %c1 step %c1 : i32 {
    scf.if %c {
      tt.store %p, %a : tensor<8x!tt.ptr<i32>>
    }
  }
  tt.store %p, %s : tensor<8x!tt.ptr<i32>>
  tt.return
}
