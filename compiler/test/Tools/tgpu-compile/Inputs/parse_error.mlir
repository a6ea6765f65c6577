module {
  llvm.func @broken(%a: i32) attributes {nvvm.kernel} {
    %b = llvm.add %a, : i32
    llvm.return
  }
}
