// A kernel whose module states its shared memory but not its warps, with a
// generic pointer and an i64 argument; a private helper beside it.
module attributes {"ttg.shared" = 1024 : i32} {
  llvm.func @helper() {
    llvm.return
  }
  llvm.func @use_shared(%p: !llvm.ptr, %n: i64) attributes {nvvm.kernel} {
    llvm.call @helper() : () -> ()
    llvm.return
  }
}
