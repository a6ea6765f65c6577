// Every verifier rule of ttg.warp_specialize and its region ops, with the
// messages Triton 3.6 gives.
// RUN: tgpu-opt %s -split-input-file -verify-diagnostics

tt.func @no_partitions_op() {
  // expected-error @below {{'ttg.warp_specialize' op expected to find only a `ttg.warp_specialize.partitions` op inside its second region}}
  "ttg.warp_specialize"() ({
    "ttg.warp_yield"() : () -> ()
  }, {
    "ttg.warp_yield"() : () -> ()
  }) {partitionNumWarps = array<i32>} : () -> ()
  tt.return
}

// -----

tt.func @partition_count() {
  // expected-error @below {{'ttg.warp_specialize' op has 0 partitions but `partitionNumWarps` has 1 elements}}
  "ttg.warp_specialize"() ({
    "ttg.warp_yield"() : () -> ()
  }, {
    "ttg.warp_specialize.partitions"() : () -> ()
  }) {partitionNumWarps = array<i32: 1>} : () -> ()
  tt.return
}

// -----

tt.func @missing_num_warps_attr() {
  // expected-error @below {{'ttg.warp_specialize' op requires attribute 'partitionNumWarps'}}
  "ttg.warp_specialize"() ({
    "ttg.warp_yield"() : () -> ()
  }, {
    "ttg.warp_specialize.partitions"() : () -> ()
  }) : () -> ()
  tt.return
}

// -----

tt.func @not_power_of_2() {
  // expected-error @below {{'ttg.warp_specialize' op partition #0 number of warps (3) must be a power of 2}}
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(3) {
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

tt.func @zero_warps() {
  // expected-error @below {{'ttg.warp_specialize' op partition #1 number of warps (0) must be a power of 2}}
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(4) {
    ttg.warp_return
  }
  partition1() num_warps(0) {
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

tt.func @start_ids() {
  // expected-error @below {{'ttg.warp_specialize' op has 1 warp group start IDs but expected 2}}
  ttg.warp_specialize() attributes {warpGroupStartIds = array<i32: 4>}
  default {
    ttg.warp_yield
  }
  partition0() num_warps(2) {
    ttg.warp_return
  }
  partition1() num_warps(1) {
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

tt.func @argument_count() {
  // expected-error @below {{'ttg.warp_specialize' op partition region #0 has 1 arguments but expected 0}}
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0(%x: i32) num_warps(4) {
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

tt.func @argument_type(%a: i32) {
  // expected-error @below {{'ttg.warp_specialize' op partition region #1 argument #0 has type 'i64' but corresponding capture has type 'i32'}}
  ttg.warp_specialize(%a)
  default {
    ttg.warp_yield
  }
  partition0(%x: i32) num_warps(4) {
    ttg.warp_return
  }
  partition1(%x: i64) num_warps(4) {
    ttg.warp_return
  } : (i32) -> ()
  tt.return
}

// -----

tt.func @nested() {
  ttg.warp_specialize()
  default {
    // expected-error @below {{'ttg.warp_specialize' op cannot be nested inside another `ttg.warp_specialize` op}}
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    } : () -> ()
    ttg.warp_yield
  } : () -> ()
  tt.return
}

// -----

module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func @kernel_warps() {
    // expected-error @below {{warp-specialized kernels requires num_warps to be a multiple of 4}}
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    } : () -> ()
    tt.return
  }
}

// -----

tt.func @yield_count(%a: i32) {
  %r = ttg.warp_specialize()
  default {
    // expected-error @below {{'ttg.warp_yield' op has 0 operands but parent op expected 1}}
    ttg.warp_yield
  } : () -> i32
  tt.return
}

// -----

tt.func @yield_type(%a: i32, %b: i64) {
  %r = ttg.warp_specialize()
  default {
    // expected-error @below {{'ttg.warp_yield' op operand #0 has type 'i64' but parent op expected 'i32'}}
    ttg.warp_yield %b : i64
  } : () -> i32
  tt.return
}

// -----

tt.func @yield_outside() {
  // expected-error @below {{'ttg.warp_yield' op expects parent op 'ttg.warp_specialize'}}
  ttg.warp_yield
}

// -----

tt.func @return_in_default() {
  ttg.warp_specialize()
  default {
    // expected-error @below {{'ttg.warp_return' op expects parent op 'ttg.warp_specialize.partitions'}}
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

tt.func @partitions_outside() {
  // expected-error @below {{'ttg.warp_specialize.partitions' op expects parent op 'ttg.warp_specialize'}}
  "ttg.warp_specialize.partitions"() : () -> ()
}

// -----

tt.func @empty_partition() {
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  // expected-error @below {{region with at least 1 blocks}}
  partition0() num_warps(2) {
  } : () -> ()
  tt.return
}

// -----

tt.func @no_terminator() {
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(2) {
    // expected-error @below {{block with no terminator}}
    %c1 = arith.constant 1 : i32
  } : () -> ()
  tt.return
}

// -----

// Partitions are isolated from above: they see only their arguments.
tt.func @implicit_capture(%a: i32) {
  ttg.warp_specialize()
  default {
    %b = arith.addi %a, %a : i32
    ttg.warp_yield
  }
  // expected-note @below {{required by region isolation constraints}}
  partition0() num_warps(4) {
    // expected-error @below {{using value defined outside the region}}
    %c = arith.addi %a, %a : i32
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

// Partitions are numbered from 0, in order: `partition1` cannot come first
// (the parser reports the missing `:` at the end of the default region).
tt.func @partition_numbering() {
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  // expected-error @below {{expected ':'}}
  }
  partition1() num_warps(4) {
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

// A layout inside a partition must span the partition's warps, not the
// kernel's.
#b4 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @partition_layout() {
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    }
    partition0() num_warps(2) {
      // expected-error @below {{Layout has 4 warps per CTA, but the context requires 2 warps per CTA.}}
      %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b4>
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A capture's layout counts the warps where it is defined, and those of a
// partition where a tt, ttg or ttng op uses it.
#b4 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @capture_layout(%t: tensor<128xi32, #b4>) {
    ttg.warp_specialize(%t)
    default {
      ttg.warp_yield
    }
    partition0(%u: tensor<128xi32, #b4>) num_warps(1) {
      ttg.warp_return
    }
    partition1(%u: tensor<128xi32, #b4>) num_warps(2) {
      // expected-error @below {{Layout has 4 warps per CTA, but the context requires 2 warps per CTA.}}
      %r = "tt.reduce"(%u) <{axis = 0 : i32}> ({
      ^bb0(%a: i32, %b: i32):
        %s = arith.addi %a, %b : i32
        tt.reduce.return %s : i32
      }) : (tensor<128xi32, #b4>) -> i32
      ttg.warp_return
    } : (tensor<128xi32, #b4>) -> ()
    tt.return
  }
}
