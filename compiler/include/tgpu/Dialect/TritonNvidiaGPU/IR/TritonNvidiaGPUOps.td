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
  let description = [{
    The few Hopper (sm_90) ops of Triton's `ttng` dialect that appear in
    its TTGIR for matrix multiplications, so tgpu can read, verify and
    run (on the CPU oracle) such kernels. Printed forms follow Triton
    3.x; definitions and verifiers are tgpu's own.

    tgpu does not generate these ops (`tritongpu-accelerate-matmul` stops
    at `mma.sync`) and has no GPU lowering for any of them.
  }];
  let dependentDialects = ["triton::TritonDialect", "triton::gpu::TritonGPUDialect"];
}

def TTNG_SharedMemory : Resource<"::mlir::triton::gpu::SharedMemory">;
def TTNG_TensorShapeTrait : NativeOpTrait<"TensorShapeTrait">;

class TTNG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TritonNvidiaGPU_Dialect, mnemonic, !listconcat(traits, [TTNG_TensorShapeTrait])>;

def TTNG_WarpGroupDotOp : TTNG_Op<"warp_group_dot", [
    MemoryEffects<[MemRead<TTNG_SharedMemory>]>,
    TypesMatchWith<"result's type matches accumulator's type", "d", "c", "$_self">]> {
  let summary = "Hopper warp-group matrix product (wgmma), d = a * b + c, with b (and maybe a) in shared memory";
  let description = [{
    Hopper's warp-group matrix multiply: `d = a * b + c` with `a` [M, K]
    either a register tensor or a shared-memory buffer, `b` [K, N] a
    shared-memory buffer, and the accumulator `c` and result `d` [M, N].
    `useC` (an i1) says whether to add `c` at all; `isAsync` marks a
    wgmma whose completion a later `ttng.warp_group_dot_wait` waits for.
    `inputPrecision` and `maxNumImpreciseAcc` are as for `tt.dot`.

    Verified: all three are 2-D with matching M, N and K; `a` and `b` are
    both float or both integer; the accumulator has a version-3
    `#ttg.nvidia_mma` layout; a register `a` has the `#ttg.dot_op` layout
    with `opIdx = 0` whose parent is the accumulator's. `d` has `c`'s type.

    The CPU oracle computes it as `tt.dot` does (ignoring `useC`); the GPU
    lowering has no pattern for it.

    ```mlir
    #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
    #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
    #smem = #ttg.shared_memory
    tt.func @f(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
      %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %r:2 = ttng.warp_group_dot_wait %d, %b {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem>
      tt.return
    }
    ```
  }];
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
  let description = [{
    Waits until at most `pendings` asynchronous `ttng.warp_group_dot`
    groups are still running (PTX `wgmma.wait_group`), then returns its
    operands unchanged: the results of those dots, and any buffers they
    read, pass through it so that later uses depend on the wait.
    Verified: `pendings` is not negative; results have the operands'
    types. A no-op in the CPU oracle. See `ttng.warp_group_dot` for an
    example.
  }];
  let arguments = (ins Variadic<AnyType>:$inputs, I32Attr:$pendings);
  let results = (outs Variadic<AnyType>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
  let hasVerifier = 1;
}

def TTNG_FenceAsyncSharedOp : TTNG_Op<"fence_async_shared"> {
  let summary = "order generic-proxy shared-memory writes before async-proxy reads";
  let description = [{
    A proxy fence (PTX `fence.proxy.async.shared::cta`, or `::cluster`
    when `bCluster` is true): shared-memory writes made by ordinary
    stores before it are visible to the asynchronous units (wgmma, TMA)
    after it, which Hopper needs after `ttg.local_store` / `ttg.local_alloc`
    and before a `ttng.warp_group_dot` reads the buffer. A no-op in the
    CPU oracle; not lowered by tgpu.

    ```mlir
    tt.func @f() {
      ttng.fence_async_shared {bCluster = false}
      tt.return
    }
    ```
  }];
  let arguments = (ins BoolAttr:$bCluster);
  let assemblyFormat = "attr-dict";
}

#endif // TGPU_TRITONNVIDIAGPU_OPS
