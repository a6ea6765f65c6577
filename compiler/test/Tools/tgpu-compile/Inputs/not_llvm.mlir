// Valid MLIR, but not the LLVM dialect: the translation to LLVM IR refuses it.
module {
  func.func @f(%a: i32) -> i32 {
    %b = arith.addi %a, %a : i32
    return %b : i32
  }
}
