// An llvm.func (so the LLVM dialect by content) whose body is not all LLVM
// dialect: the translation to LLVM IR refuses it.
module {
  llvm.func @f(%a: i32) -> i32 {
    %b = arith.addi %a, %a : i32
    llvm.return %b : i32
  }
}
