// A hand-written LLVM-dialect kernel, as the TTGIR lowering produces them:
// each thread copies one f32 from `in` to `out` at index tid.x, scaled by
// `scale`, when the index is below `n`.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.shared" = 0 : i32} {
  llvm.func @copy_scale(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>, %scale: f32, %n: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128>} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %inb = llvm.icmp "slt" %tid, %n : i32
    llvm.cond_br %inb, ^body, ^done
  ^body:
    %src = llvm.getelementptr %in[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %src : !llvm.ptr<1> -> f32
    %r = llvm.fmul %v, %scale : f32
    %dst = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    llvm.store %r, %dst : f32, !llvm.ptr<1>
    llvm.br ^done
  ^done:
    llvm.return
  }
}
