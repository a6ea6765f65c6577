// Valid MLIR with neither a tt.func nor an llvm.func.
module {
  func.func @f(%a: i32) -> i32 {
    %b = arith.addi %a, %a : i32
    return %b : i32
  }
}
