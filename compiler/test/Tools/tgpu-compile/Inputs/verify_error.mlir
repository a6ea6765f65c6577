// Parses, but llvm.fmul needs floating-point operands.
module {
  llvm.func @bad(%a: i32) attributes {nvvm.kernel} {
    %b = llvm.fmul %a, %a : i32
    llvm.return
  }
}
