// The `ttng` dialect: the Hopper ops needed to read Triton's sm_90 TTGIR.
#ifndef TGPU_TRITONNVIDIAGPU_OPS
#define TGPU_TRITONNVIDIAGPU_OPS

include "tgpu/Dialect/TritonGPU/IR/TritonGPUBase.td"
include "tgpu/Dialect/Triton/IR/TritonBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TritonNvidiaGPU_Dialect : Dialect {
  let name = "ttng";
  let cppNamespace = "::mlir::triton::nvidia_gpu";
  let summary = "NVIDIA Hopper extensions of ttg (wgmma, async-proxy fences)";
  let dependentDialects = ["triton::TritonDialect", "triton::gpu::TritonGPUDialect"];
}

def TTNG_SharedMemory : Resource<"::mlir::triton::gpu::SharedMemory">;
def TTNG_TensorShapeTrait : NativeOpTrait<"TensorShapeTrait">;

class TTNG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TritonNvidiaGPU_Dialect, mnemonic, !listconcat(traits, [TTNG_TensorShapeTrait])>;

def TTNG_WarpGroupDotOp : TTNG_Op<"warp_group_dot", [
    MemoryEffects<[MemRead<TTNG_SharedMemory>]>,
    TypesMatchWith<"result's type matches accumulator's type", "d", "c", "$_self">]> {
  let summary = "wgmma: d = a * b + c with b (and optionally a) in shared memory";
  let arguments = (ins AnyTypeOf<[TT_FpIntTensor, TTG_MemDesc]>:$a, TTG_MemDesc:$b,
      TT_FpIntTensor:$c, Optional<I1>:$useC,
      DefaultValuedAttr<TT_InputPrecisionAttr, "::mlir::triton::InputPrecision::IEEE">:$inputPrecision,
      DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc,
      DefaultValuedAttr<BoolAttr, "false">:$isAsync);
  let results = (outs TT_FpIntTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` $useC^)? attr-dict `:` type($a) `*` qualified(type($b)) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TTNG_WarpGroupDotWaitOp : TTNG_Op<"warp_group_dot_wait", [
    AllTypesMatch<["inputs", "outputs"]>]> {
  let summary = "wait until at most `pendings` async wgmma groups are in flight";
  let arguments = (ins Variadic<AnyType>:$inputs, I32Attr:$pendings);
  let results = (outs Variadic<AnyType>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
  let hasVerifier = 1;
}

def TTNG_FenceAsyncSharedOp : TTNG_Op<"fence_async_shared"> {
  let summary = "order generic-proxy shared-memory writes before async-proxy reads";
  let arguments = (ins BoolAttr:$bCluster);
  let assemblyFormat = "attr-dict";
}

#endif // TGPU_TRITONNVIDIAGPU_OPS
