// Inline asm with a register constraint NVPTX does not have: the code
// generator reports an error through the LLVM context.
module {
  llvm.func @k(%out: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %v = llvm.inline_asm has_side_effects "mov.u32 $0, 1;", "=x" : () -> i32
    llvm.store %v, %out : i32, !llvm.ptr<1>
    llvm.return
  }
}
