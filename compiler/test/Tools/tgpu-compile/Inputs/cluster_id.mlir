// Reads %clusterid.x, which exists from sm_90 on: NVPTX cannot select it for
// sm_80.
module {
  llvm.func @k(%out: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %c = nvvm.read.ptx.sreg.clusterid.x : i32
    llvm.store %c, %out : i32, !llvm.ptr<1>
    llvm.return
  }
}
