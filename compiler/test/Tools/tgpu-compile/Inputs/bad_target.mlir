// An LLVM-dialect module from TTGIR for an arch tgpu does not compile for.
module attributes {ttg.target = "cuda:75", "ttg.num-warps" = 4 : i32} {
  llvm.func @k() attributes {nvvm.kernel} {
    llvm.return
  }
}
