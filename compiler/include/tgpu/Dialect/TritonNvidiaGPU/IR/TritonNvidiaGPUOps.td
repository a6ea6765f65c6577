// The `ttng` dialect: the Hopper ops needed to read Triton's sm_90 TTGIR.
#ifndef TGPU_TRITONNVIDIAGPU_OPS
#define TGPU_TRITONNVIDIAGPU_OPS

include "tgpu/Dialect/TritonGPU/IR/TritonGPUBase.td"
include "tgpu/Dialect/Triton/IR/TritonBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TritonNvidiaGPU_Dialect : Dialect {
  let name = "ttng";
  let cppNamespace = "::mlir::triton::nvidia_gpu";
  let summary = "NVIDIA Hopper extensions of ttg: wgmma, mbarriers, TMA, clusters";
  let description = [{
    The Hopper (sm_90) ops of Triton's `ttng` dialect: warp-group matrix
    products (wgmma), shared-memory barriers (mbarrier), TMA copies through
    tensor descriptors, device-side TMA descriptor creation, and thread
    block cluster synchronisation. tgpu reads, verifies and prints them as
    Triton 3.6 does (printed forms and, where Triton's tests check them,
    verifier messages); definitions and verifiers are tgpu's own.
    Blackwell's tensor-memory ops (`tmem_*`, `tc_gen5_*`) are not here.

    tgpu makes `warp_group_dot` (`tritongpu-accelerate-matmul` on sm_90),
    `warp_group_dot_wait` (the pipeliner) and `fence_async_shared`
    (`triton-nvidia-gpu-fence-insertion`) and lowers them to wgmma (through
    the `nvg` dialect); for the others `tgpu-compile` stops with a located
    "not supported yet" error. The CPU oracle runs `warp_group_dot`,
    `warp_group_dot_wait` and `fence_async_shared`, and reports the others
    as unsupported.

    Memory effects are declared per operand as Triton does (barriers and
    shared-memory buffers on the shared-memory resource, descriptors on
    global memory), so CSE and DCE keep every barrier, copy and wait; ops
    without declared effects (`cluster_arrive`, `async_tma_store_wait`,
    ...) count as having unknown ones and are kept too.
  }];
  let dependentDialects = ["triton::TritonDialect", "triton::gpu::TritonGPUDialect"];
}

def TTNG_SharedMemory : Resource<"::mlir::triton::gpu::SharedMemory">;
def TTNG_GlobalMemory : Resource<"::mlir::triton::GlobalMemory">;
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

    Verified, in this order and with Triton's messages: `d` has `c`'s
    type; the accumulator has a version-3 `#ttg.nvidia_mma` layout; `a`
    is an `#ttg.nvmma_shared` / `#ttg.shared_linear` buffer or a register
    tensor with a `#ttg.dot_op` layout (`opIdx = 0`, an `nvidia_mma`
    parent), `b` such a buffer; all three are 2-D with matching M, N and
    K; M is a multiple of 64 and N of 8; the elements are ones wgmma
    takes (fp8, f16, bf16, f32, f64, i8); fp8 inputs with an f32
    accumulator need `maxNumImpreciseAcc >= 32`; a register `a` has
    `kWidth = 32 / bits`.
    tgpu also requires `a` and `b` to be both float or both integer.
    (Triton's "num_warps divisible by 4" holds already: the layout of a
    v3 accumulator spans a multiple of 4 warps, which must be the
    module's `ttg.num-warps`.)

    The CPU oracle computes it as `tt.dot` does (`c` left out when `useC`
    is false); the GPU lowering issues wgmma.mma_async (WgmmaOpToLLVM).

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
    Verified: at least one operand (tensors or memdescs); `pendings` is
    not negative; results have the operands' types. A no-op in the CPU
    oracle. See `ttng.warp_group_dot` for an example.
  }];
  let arguments = (ins Variadic<AnyTypeOf<[AnyRankedTensor, TTG_MemDesc]>>:$inputs,
      I32Attr:$pendings);
  let results = (outs Variadic<AnyTypeOf<[AnyRankedTensor, TTG_MemDesc]>>:$outputs);
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

//===----------------------------------------------------------------------===//
// Thread block clusters
//===----------------------------------------------------------------------===//
def TTNG_ClusterArriveOp : TTNG_Op<"cluster_arrive"> {
  let summary = "arrive at the cluster barrier (without waiting)";
  let description = [{
    The calling threads arrive at the barrier of their thread block
    cluster (PTX `barrier.cluster.arrive`, `.relaxed` when `relaxed` is
    true: no memory ordering); a later `ttng.cluster_wait` waits for all
    threads of the cluster to have arrived. No declared memory effects,
    so no pass moves or removes it.

    ```mlir
    tt.func @f() {
      ttng.cluster_arrive {relaxed = false}
      ttng.cluster_wait
      tt.return
    }
    ```
  }];
  let arguments = (ins I1Attr:$relaxed);
  let assemblyFormat = "attr-dict";
}

def TTNG_ClusterWaitOp : TTNG_Op<"cluster_wait"> {
  let summary = "wait until every thread of the cluster has arrived";
  let description = [{
    Waits for the cluster barrier that `ttng.cluster_arrive` arrives at
    (PTX `barrier.cluster.wait`). See `ttng.cluster_arrive` for an
    example.
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// mbarriers: a 1xi64 shared-memory buffer each
//===----------------------------------------------------------------------===//
def TTNG_InitBarrierOp : TTNG_Op<"init_barrier"> {
  let summary = "initialise an mbarrier expecting `count` arrivals per phase";
  let description = [{
    Initialises the mbarrier in `alloc` (PTX `mbarrier.init.shared::cta.b64`):
    each phase completes after `count` arrivals (and the transaction bytes
    announced by `ttng.barrier_expect`). An mbarrier is a one-element i64
    shared-memory buffer.

    Verified: `alloc` is a `1xi64` memdesc; `count` is at least 1.

    ```mlir
    #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
    #smem = #ttg.shared_memory
    tt.func @f(%phase: i32, %pred: i1) {
      %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared, #smem, mutable>
      ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
      ttng.barrier_expect %bar, 16384, %pred : !ttg.memdesc<1xi64, #shared, #smem, mutable>
      ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
      ttng.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #shared, #smem, mutable>
      ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #shared, #smem, mutable>
      tt.return
    }
    ```
  }];
  let arguments = (ins Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$alloc,
      I32Attr:$count);
  let assemblyFormat = "$alloc `,` $count attr-dict `:` qualified(type($alloc))";
  let hasVerifier = 1;
}

def TTNG_InvalBarrierOp : TTNG_Op<"inval_barrier"> {
  let summary = "invalidate an mbarrier so its memory can be reused";
  let description = [{
    PTX `mbarrier.inval`: needed before the barrier's shared memory is
    used for anything else. Verified: `alloc` is a `1xi64` memdesc. See
    `ttng.init_barrier` for an example.
  }];
  let arguments = (ins Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$alloc);
  let assemblyFormat = "$alloc attr-dict `:` qualified(type($alloc))";
  let hasVerifier = 1;
}

def TTNG_BarrierExpectOp : TTNG_Op<"barrier_expect"> {
  let summary = "announce `size` bytes of asynchronous copies to an mbarrier";
  let description = [{
    When `pred` is true, adds `size` bytes to the transaction count the
    mbarrier's current phase waits for (PTX `mbarrier.arrive.expect_tx`):
    the TMA copies that signal the barrier complete it by delivering
    those bytes. Verified: `alloc` is a `1xi64` memdesc; `size` is not
    negative. See `ttng.init_barrier` for an example.
  }];
  let arguments = (ins Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$alloc,
      I32Attr:$size, I1:$pred);
  let assemblyFormat = "$alloc `,` $size attr-dict `,` $pred `:` qualified(type($alloc))";
  let hasVerifier = 1;
}

def TTNG_WaitBarrierOp : TTNG_Op<"wait_barrier", [AttrSizedOperandSegments]> {
  let summary = "wait until the mbarrier's phase `phase` completes";
  let description = [{
    Blocks (when `pred` is true or absent) until the phase of the mbarrier
    whose parity is `phase` has completed (a loop on PTX
    `mbarrier.try_wait.parity`). `deps` name shared-memory buffers that
    the barrier guards: they count as in use until the wait, so passes do
    not reuse or free them earlier.

    Verified: `alloc` is a `1xi64` memdesc.

    ```mlir
    #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
    #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
    #smem = #ttg.shared_memory
    tt.func @f(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %buf: !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>,
               %phase: i32, %pred: i1) {
      ttng.wait_barrier %bar, %phase, %pred deps %buf : !ttg.memdesc<1xi64, #shared, #smem, mutable>, !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>
      tt.return
    }
    ```
  }];
  let arguments = (ins
      Arg<TTG_MemDesc, "", [MemRead<TTNG_SharedMemory>, MemWrite<TTNG_SharedMemory>]>:$alloc,
      I32:$phase, Optional<I1>:$pred, Variadic<TTG_MemDesc>:$deps);
  let assemblyFormat = [{
    $alloc `,` $phase (`,` $pred^)? (`deps` $deps^)?
    attr-dict `:` qualified(type($alloc)) (`,` type($deps)^)?
  }];
  let hasVerifier = 1;
}

def TTNG_ArriveBarrierOp : TTNG_Op<"arrive_barrier"> {
  let summary = "arrive `count` times at an mbarrier";
  let description = [{
    Counts `count` arrivals at the mbarrier's current phase (PTX
    `mbarrier.arrive`), when `pred` is true or absent. Verified: `alloc`
    is a `1xi64` memdesc; `count` is at least 1. See `ttng.init_barrier`
    for an example.
  }];
  let arguments = (ins
      Arg<TTG_MemDesc, "", [MemRead<TTNG_SharedMemory>, MemWrite<TTNG_SharedMemory>]>:$alloc,
      I32Attr:$count, Optional<I1>:$pred);
  let assemblyFormat = "$alloc `,` $count (`,` $pred^)? attr-dict `:` qualified(type($alloc))";
  let hasVerifier = 1;
}

def TTNG_AsyncCopyMbarrierArriveOp : TTNG_Op<"async_copy_mbarrier_arrive"> {
  let summary = "arrive at an mbarrier once this thread's earlier async copies are done";
  let description = [{
    Makes the mbarrier see an arrival when every `ttg.async_copy_global_to_local`
    the thread issued before has landed (PTX `cp.async.mbarrier.arrive`;
    with `noIncrement`, `.noinc`: the arrival is one of those the barrier
    was initialised to expect, rather than an extra one). Verified:
    `barrier` is a `1xi64` memdesc.

    ```mlir
    #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
    #smem = #ttg.shared_memory
    tt.func @f(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>) {
      ttng.async_copy_mbarrier_arrive %bar {noIncrement} : !ttg.memdesc<1xi64, #shared, #smem, mutable>
      tt.return
    }
    ```
  }];
  let arguments = (ins Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$barrier,
      UnitAttr:$noIncrement);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TMA copies through tensor descriptors
//===----------------------------------------------------------------------===//
def TTNG_AsyncTMACopyGlobalToLocalOp : TTNG_Op<"async_tma_copy_global_to_local"> {
  let summary = "TMA load of one block into shared memory, signalling an mbarrier";
  let description = [{
    When `pred` is true, starts copying the block of `desc` at `coord`
    into the shared-memory buffer `result`; the copy delivers its bytes to
    the mbarrier `barrier` (whose expected bytes a `ttng.barrier_expect`
    announced), and a `ttng.wait_barrier` on it waits for the data.
    `cacheModifier` / `evictionPolicy` are hints; `isVolatile` is kept.

    Verified: `barrier` is a `1xi64` memdesc; 1 to 5 coordinates; `result`
    is mutable and has an `#ttg.nvmma_shared` layout.

    ```mlir
    #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
    #nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
    #smem = #ttg.shared_memory
    tt.func @f(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %i: i32, %pred: i1,
               %bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %buf: !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>) {
      ttng.async_tma_copy_global_to_local %d[%i, %i] %buf, %bar, %pred : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
      ttng.async_tma_copy_local_to_global %d[%i, %i] %buf : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
      ttng.async_tma_reduce add, %d[%i, %i] %buf : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
      ttng.async_tma_store_wait {pendings = 0 : i32}
      tt.return
    }
    ```
  }];
  let arguments = (ins Arg<TT_TensorDescType, "", [MemRead<TTNG_GlobalMemory>]>:$desc,
      Variadic<I32>:$coord,
      Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$barrier,
      Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$result,
      I1:$pred,
      DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::triton::CacheModifier::NONE">:$cache,
      DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::triton::EvictionPolicy::NORMAL">:$evict,
      DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let assemblyFormat = [{
    $desc `[` $coord `]` $result `,` $barrier `,` $pred
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($desc)) `,` qualified(type($barrier)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTNG_AsyncTMACopyLocalToGlobalOp : TTNG_Op<"async_tma_copy_local_to_global"> {
  let summary = "TMA store of a shared-memory buffer to one block";
  let description = [{
    Starts copying the shared-memory buffer `src` to the block of `desc`
    at `coord`. The buffer may be overwritten only after a
    `ttng.async_tma_store_wait` says the copy has read it. Verified: 1 to
    5 coordinates. See `ttng.async_tma_copy_global_to_local` for an
    example.
  }];
  let arguments = (ins
      Arg<TT_TensorDescType, "", [MemRead<TTNG_GlobalMemory>, MemWrite<TTNG_GlobalMemory>]>:$desc,
      Variadic<I32>:$coord,
      Arg<TTG_MemDesc, "", [MemRead<TTNG_SharedMemory>]>:$src);
  let assemblyFormat = [{
    $desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
}

def TTNG_AsyncTMAReduceOp : TTNG_Op<"async_tma_reduce", [
    MemoryEffects<[MemRead<TTNG_GlobalMemory>, MemWrite<TTNG_GlobalMemory>]>]> {
  let summary = "TMA reduction of a shared-memory buffer into one block";
  let description = [{
    Like `ttng.async_tma_copy_local_to_global`, but combines each element
    with the one in global memory by `kind` (atomically per element,
    relaxed ordering). Verified: 1 to 5 coordinates. See
    `ttng.async_tma_copy_global_to_local` for an example.
  }];
  let arguments = (ins TT_DescriptorReduceKindAttr:$kind,
      Arg<TT_TensorDescType, "", [MemRead<TTNG_GlobalMemory>]>:$desc,
      Variadic<I32>:$coord,
      Arg<TTG_MemDesc, "", [MemRead<TTNG_SharedMemory>]>:$src);
  let assemblyFormat = [{
    $kind `,` $desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
}

def TTNG_AsyncTMAGatherOp : TTNG_Op<"async_tma_gather"> {
  let summary = "TMA gather of rows into shared memory, signalling an mbarrier";
  let description = [{
    The asynchronous form of `tt.descriptor_gather`: when `pred` is true,
    row i of `result` receives row `x_offsets[i]` of the array from column
    `y_offset` on, and the bytes are delivered to the mbarrier `barrier`.

    Verified: `barrier` is a `1xi64` memdesc; `result` is mutable; the
    TMA's limits of `tt.descriptor_gather` on `result` and `x_offsets`.

    ```mlir
    #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
    #nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
    #smem = #ttg.shared_memory
    tt.func @f(%d: !tt.tensordesc<tensor<1x64xbf16, #nvmma>>, %x: tensor<32xi32>, %y: i32, %pred: i1,
               %bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %buf: !ttg.memdesc<32x64xbf16, #nvmma, #smem, mutable>) {
      ttng.async_tma_gather %d[%x, %y] %buf, %bar, %pred : !tt.tensordesc<tensor<1x64xbf16, #nvmma>>, tensor<32xi32>, i32, !ttg.memdesc<1xi64, #shared, #smem, mutable>, !ttg.memdesc<32x64xbf16, #nvmma, #smem, mutable>, i1
      ttng.async_tma_scatter %d[%x, %y] %buf : !tt.tensordesc<tensor<1x64xbf16, #nvmma>>, tensor<32xi32>, i32, !ttg.memdesc<32x64xbf16, #nvmma, #smem, mutable>
      tt.return
    }
    ```
  }];
  let arguments = (ins Arg<TT_TensorDescType, "", [MemRead<TTNG_GlobalMemory>]>:$desc,
      RankedTensorOf<[I32]>:$x_offsets, I32:$y_offset,
      Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$barrier,
      Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$result,
      I1:$pred);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` $result `,` $barrier `,` $pred attr-dict `:` type(operands)
  }];
  let hasVerifier = 1;
}

def TTNG_AsyncTMAScatterOp : TTNG_Op<"async_tma_scatter"> {
  let summary = "TMA scatter of shared-memory rows to separately indexed rows";
  let description = [{
    The asynchronous form of `tt.descriptor_scatter`: row i of `src` goes
    to row `x_offsets[i]` of the array, from column `y_offset` on.
    Verified: the TMA's limits of `tt.descriptor_gather` on `src` and
    `x_offsets`. See `ttng.async_tma_gather` for an example.
  }];
  let arguments = (ins
      Arg<TT_TensorDescType, "", [MemRead<TTNG_GlobalMemory>, MemWrite<TTNG_GlobalMemory>]>:$desc,
      RankedTensorOf<[I32]>:$x_offsets, I32:$y_offset,
      Arg<TTG_MemDesc, "", [MemRead<TTNG_SharedMemory>]>:$src);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` $src attr-dict `:` type(operands)
  }];
  let hasVerifier = 1;
}

def TTNG_TMAStoreWaitOp : TTNG_Op<"async_tma_store_wait"> {
  let summary = "wait until at most `pendings` TMA stores still read shared memory";
  let description = [{
    Waits until at most `pendings` of the thread's TMA stores / reductions
    have not yet finished reading their shared-memory source (PTX
    `cp.async.bulk.wait_group.read`), after which those buffers may be
    written again. The barrier analysis puts a CTA barrier after it, as
    after `ttg.async_wait`. No declared memory effects: no pass removes
    or moves it. Verified: `pendings` is
    not negative. See `ttng.async_tma_copy_global_to_local` for an
    example.
  }];
  let arguments = (ins I32Attr:$pendings);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TMA descriptors made on the device
//===----------------------------------------------------------------------===//
def TTNG_ReinterpretTensorDescOp : TTNG_Op<"reinterpret_tensor_descriptor", [Pure]> {
  let summary = "view a pointer to a TMA descriptor as a typed tensor descriptor";
  let description = [{
    Treats `rawDesc`, the address of a 128-byte TMA descriptor (one built
    by `ttng.tensormap_create`, or passed in), as a `!tt.tensordesc` of
    the result's block type. Pure.

    ```mlir
    tt.func @f(%p: !tt.ptr<i8, 0>) {
      %d = ttng.reinterpret_tensor_descriptor %p : !tt.ptr<i8, 0> to !tt.tensordesc<tensor<64x64xf16>>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_Ptr:$rawDesc);
  let results = (outs TT_TensorDescType:$result);
  let assemblyFormat = [{
    $rawDesc attr-dict `:` qualified(type($rawDesc)) `to` qualified(type($result))
  }];
}

def TTNG_TensormapCreateOp : TTNG_Op<"tensormap_create", [
    MemoryEffects<[MemRead<TTNG_GlobalMemory>, MemWrite<TTNG_GlobalMemory>]>,
    AttrSizedOperandSegments]> {
  let summary = "write a TMA descriptor to global memory";
  let description = [{
    Fills the 128-byte TMA descriptor at `desc_ptr` (PTX
    `tensormap.replace` on a template, then a copy to global memory): the
    array at `global_address` with sizes `global_dim` and byte strides
    `global_stride` (for every dimension but the innermost), copied in
    boxes of `box_dim` elements taking every `element_stride`-th element.
    The attributes are the descriptor's encoded fields: `elem_type`
    (0..15, CUDA's `CUtensorMapDataType`), `interleave_layout` (0..2),
    `swizzle_mode` (0..3: none, 32, 64, 128 bytes) and `fill_mode` (0
    zeros, 1 NaN). A `ttng.tensormap_fenceproxy_acquire` must precede its
    use by a TMA copy.

    Verified: as many `global_dim` and `element_stride` operands as
    `box_dim` ones (the rank), one `global_stride` fewer; the attribute
    ranges above.

    ```mlir
    tt.func @f(%desc: !tt.ptr<i8>, %base: !tt.ptr<f16>, %m: i32, %n: i32, %ld: i64) {
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      ttng.tensormap_create %desc, %base, [%c64, %c64], [%n, %m], [%ld], [%c1, %c1] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
      ttng.tensormap_fenceproxy_acquire %desc : !tt.ptr<i8>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_Ptr:$desc_ptr, TT_Ptr:$global_address,
      Variadic<I32>:$box_dim, Variadic<I32>:$global_dim, Variadic<I64>:$global_stride,
      Variadic<I32>:$element_stride,
      ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<15>]>:$elem_type,
      ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<2>]>:$interleave_layout,
      ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<3>]>:$swizzle_mode,
      ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<1>]>:$fill_mode);
  let assemblyFormat = [{
    $desc_ptr `,` $global_address `,` `[` $box_dim `]` `,` `[` $global_dim `]` `,`
    `[` $global_stride `]` `,` `[` $element_stride `]` attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    int32_t getRank() { return getBoxDim().size(); }
  }];
  let hasVerifier = 1;
}

def TTNG_TensormapFenceproxyAcquireOp : TTNG_Op<"tensormap_fenceproxy_acquire", [
    MemoryEffects<[MemWrite<TTNG_GlobalMemory>]>]> {
  let summary = "make a TMA descriptor written by the generic proxy visible to the TMA unit";
  let description = [{
    PTX `fence.proxy.tensormap::generic.acquire.gpu` on the 128 bytes at
    `desc_ptr`: orders a `ttng.tensormap_create` (a generic-proxy write)
    before TMA copies through that descriptor. Declared as a write to
    global memory so that nothing moves across it. See
    `ttng.tensormap_create` for an example.
  }];
  let arguments = (ins TT_Ptr:$desc_ptr);
  let assemblyFormat = "$desc_ptr attr-dict `:` qualified(type($desc_ptr))";
}

#endif // TGPU_TRITONNVIDIAGPU_OPS
