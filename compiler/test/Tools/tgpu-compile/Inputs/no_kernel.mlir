// A device function but no kernel: compiles, but --metadata has nothing to
// describe.
module {
  llvm.func @helper(%a: i32) -> i32 {
    %b = llvm.add %a, %a : i32
    llvm.return %b : i32
  }
}
