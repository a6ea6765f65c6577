// Operations of the `ttg` dialect (formats as Triton 3.x prints them).
#ifndef TGPU_TRITONGPU_OPS
#define TGPU_TRITONGPU_OPS

include "tgpu/Dialect/TritonGPU/IR/TritonGPUBase.td"
include "tgpu/Dialect/Triton/IR/TritonBase.td"
include "tgpu/Dialect/TritonGPU/IR/TritonGPUEnums.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def SharedMemory : Resource<"::mlir::triton::gpu::SharedMemory">;
def TTG_GlobalMemory : Resource<"::mlir::triton::GlobalMemory">;
def TTG_TensorShapeTrait : NativeOpTrait<"TensorShapeTrait">;

class TTG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TritonGPU_Dialect, mnemonic, !listconcat(traits, [TTG_TensorShapeTrait])>;

def TTG_ConvertLayoutOp : TTG_Op<"convert_layout", [SameOperandsAndResultShape,
                                                    SameOperandsAndResultElementType, Pure]> {
  let summary = "move a tensor to another distributed layout";
  let description = [{
    The same tensor (same shape, element type and values) in another
    distributed layout. Verified: both layouts are distributed. The CPU
    oracle treats it as the identity.

    The lowering picks the cheapest way: a register permutation when
    every element stays in its thread, warp shuffles when it stays in
    its warp, and otherwise a round trip through shared memory (staged
    in a layout chosen for wide, conflict-free accesses, with a barrier
    between the writes and the reads).

    The canonicalizer folds converts the way Triton 3.6 does: into
    producers that can make any layout (`tt.splat`, `tt.make_range`,
    splat constants, another convert, `ttg.local_load`, `tt.histogram`,
    cheap `tt.cat` and reordering `tt.reshape`) and into consumers that
    accept any layout (`ttg.local_alloc`, `ttg.local_store`, a `tt.gather`
    source, `tt.histogram`) or an equivalent one (`tt.trans`,
    `tt.reshape`, `tt.split`).

    ```mlir
    #row = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
    #col = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
    tt.func @f(%x: tensor<64x64xf16, #row>) {
      %y = ttg.convert_layout %x : tensor<64x64xf16, #row> -> tensor<64x64xf16, #col>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  // Folds converts into their producers and consumers (see Ops.cpp).
  let hasCanonicalizer = 1;
}

def TTG_LocalAllocOp : TTG_Op<"local_alloc", [
    MemoryEffects<[MemAlloc<SharedMemory>, MemWrite<SharedMemory>]>]> {
  let summary = "allocate a shared-memory buffer, optionally initialised from a tensor";
  let description = [{
    A new buffer of the result memdesc's type in shared memory; with a
    `src` tensor, the buffer holds its elements (an immutable buffer),
    without one it starts unwritten (and must be `mutable`). `alignment`
    (optional, a power of two) asks for that byte alignment.

    Verified: the result is in `#ttg.shared_memory`; a `src` has the
    buffer's shape and element type; the mutability rule above.

    `allocate-shared-memory` gives every buffer its offset before the
    lowering, which turns the op into that address (and, with `src`,
    the stores of the tensor's elements). The CPU oracle reports reads
    of elements never written.

    ```mlir
    #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
    #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
    #smem = #ttg.shared_memory
    tt.func @f(%x: tensor<64x32xf16, #blocked>) {
      %ro = ttg.local_alloc %x : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
      %rw = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
      tt.return
    }
    ```
  }];
  let arguments = (ins Optional<TT_Tensor>:$src, OptionalAttr<ConfinedAttr<I32Attr, [IntPositive]>>:$alignment);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "$src attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TTG_LocalDeallocOp : TTG_Op<"local_dealloc", [MemoryEffects<[MemFree<SharedMemory>]>]> {
  let summary = "free a shared-memory buffer";
  let description = [{
    Ends the life of a buffer made by `ttg.local_alloc`. Shared memory is
    laid out once for the whole kernel, so the lowering only deletes the
    op; the allocation analysis reads it as the end of the buffer's live
    range.

    ```mlir
    #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
    #smem = #ttg.shared_memory
    tt.func @f() {
      %buf = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
      ttg.local_dealloc %buf : !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
      tt.return
    }
    ```
  }];
  let arguments = (ins TTG_MemDesc:$src);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src))";
}

def TTG_LocalLoadOp : TTG_Op<"local_load", [MemoryEffects<[MemRead<SharedMemory>]>]> {
  let summary = "read a shared-memory buffer into a distributed tensor";
  let description = [{
    Reads every element of a buffer (or view) into a tensor of its shape
    and element type, in the tensor's distributed layout; verified. The
    optional `token` (from `ttg.async_wait`) ties the read to the copies
    it waits for. Each thread reads the elements its registers hold, at
    the offsets the buffer's shared layout gives.

    ```mlir
    #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
    #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
    #smem = #ttg.shared_memory
    tt.func @f(%buf: !ttg.memdesc<64x32xf16, #shared, #smem, mutable>) {
      %x = ttg.local_load %buf : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #blocked>
      tt.return
    }
    ```
  }];
  let arguments = (ins TTG_MemDesc:$src, Optional<TTG_AsyncTokenType>:$token);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src (`token` $token^)? attr-dict `:` qualified(type($src)) `->` type($result)";
  let hasVerifier = 1;
}

def TTG_LocalStoreOp : TTG_Op<"local_store", [MemoryEffects<[MemWrite<SharedMemory>]>]> {
  let summary = "write a distributed tensor into a shared-memory buffer";
  let description = [{
    Writes a tensor into a buffer (or view) of its shape and element type.
    Verified: the buffer is `mutable`; shapes and element types agree.
    Each element is written once, by one of the threads holding it.

    ```mlir
    #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
    #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
    #smem = #ttg.shared_memory
    tt.func @f(%x: tensor<64x32xf16, #blocked>, %buf: !ttg.memdesc<64x32xf16, #shared, #smem, mutable>) {
      ttg.local_store %x, %buf : tensor<64x32xf16, #blocked> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_Tensor:$src, TTG_MemDesc:$dst);
  let assemblyFormat = "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))";
  let hasVerifier = 1;
}

def TTG_MemDescIndexOp : TTG_Op<"memdesc_index", [Pure]> {
  let summary = "the index-th sub-buffer along dimension 0";
  let description = [{
    A view of slice `index` (an i32) along the first dimension of a buffer
    of rank >= 2, e.g. one stage of a multi-buffered allocation. Verified:
    the result's shape is the source's without its first dimension, and
    it keeps element type, memory space and mutability. An index out of
    range is undefined behaviour (the CPU oracle reports it). Lowered to
    the base address plus `index` times the slice size.

    ```mlir
    #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
    #smem = #ttg.shared_memory
    tt.func @f(%bufs: !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>, %i: i32) {
      %one = ttg.memdesc_index %bufs[%i] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
      tt.return
    }
    ```
  }];
  let arguments = (ins TTG_MemDesc:$src, I32:$index);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "$src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TTG_MemDescSubsliceOp : TTG_Op<"memdesc_subslice", [Pure]> {
  let summary = "a sub-box of a buffer at constant offsets";
  let description = [{
    A view of the box of the result's shape that starts at the constant
    `offsets` in a buffer; it keeps the allocation's shape as its
    ALLOCSHAPE. Verified: offsets, source and result have one rank; the
    box lies inside the source; each offset is a multiple of the box
    size along its dimension; element type, memory space and mutability
    are kept.

    The CPU oracle runs it; the GPU lowering has no pattern for it (it
    comes from Triton's pipelining, which tgpu does not do).

    ```mlir
    #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
    #smem = #ttg.shared_memory
    tt.func @f(%buf: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) {
      %right = ttg.memdesc_subslice %buf [0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
      tt.return
    }
    ```
  }];
  let arguments = (ins TTG_MemDesc:$src, DenseI32ArrayAttr:$offsets);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "$src $offsets attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TTG_MemDescTransOp : TTG_Op<"memdesc_trans", [Pure]> {
  let summary = "a transposed view of a buffer";
  let description = [{
    A view whose dimension `i` is dimension `order[i]` of the source; no
    data moves. Verified: `order` is a permutation; the result's sizes are
    the permuted source sizes; element type, memory space and mutability
    are kept.

    Unlike Triton, tgpu does not infer or check the result's layout: the
    lowering hands on the buffer's address, and later ops address the
    view through the result type's layout, so that layout must place the
    elements where the source's put them (the source layout with its
    dimensions permuted).

    ```mlir
    #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
    #sharedT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
    #smem = #ttg.shared_memory
    tt.func @f(%buf: !ttg.memdesc<64x64xf16, #shared, #smem>) {
      %t = ttg.memdesc_trans %buf {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #sharedT, #smem>
      tt.return
    }
    ```
  }];
  let arguments = (ins TTG_MemDesc:$src, DenseI32ArrayAttr:$order);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TTG_MemDescReshapeOp : TTG_Op<"memdesc_reshape", [Pure]> {
  let summary = "a view of a buffer with another shape of the same size";
  let description = [{
    A view of a buffer in another shape with the same number of elements;
    no data moves. Verified: the element counts agree; element type,
    memory space and mutability are kept. As for `ttg.memdesc_trans`, the
    result type's layout must describe the same bytes; tgpu does not
    check it.

    ```mlir
    #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
    #smem = #ttg.shared_memory
    tt.func @f(%buf: !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>) {
      %flat = ttg.memdesc_reshape %buf : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x32xf16, #shared, #smem, mutable>
      tt.return
    }
    ```
  }];
  let arguments = (ins TTG_MemDesc:$src);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TTG_AsyncCopyGlobalToLocalOp : TTG_Op<"async_copy_global_to_local", [
    AttrSizedOperandSegments,
    MemoryEffects<[MemRead<TTG_GlobalMemory>, MemWrite<SharedMemory>]>,
    OptionalTypesMatchWith<"mask matches the pointers' shape", "src", "mask",
                           "::mlir::triton::getI1SameShape($_self)">,
    OptionalTypesMatchWith<"other matches the pointee type", "src", "other",
                           "::mlir::triton::getPointeeType($_self)">]> {
  let summary = "copy global memory into a shared buffer without blocking (cp.async)";
  let description = [{
    Starts copying the elements a tensor of pointers addresses into a
    buffer of the same shape, without waiting for them; the returned
    token joins the next `ttg.async_commit_group`, and a
    `ttg.async_wait` makes the data visible. `mask`, `other`,
    `cacheModifier`, `evictionPolicy` and `isVolatile` are as for
    `tt.load` (masked-off elements get `other`, or 0).

    Verified: the buffer is `mutable`; shapes agree; the pointee type is
    the buffer's element type; `other` needs `mask`.

    The CPU oracle copies at once. The GPU lowering has no pattern for it:
    it appears in Triton's pipelined TTGIR, which tgpu reads, verifies and
    runs on the oracle but does not compile.

    ```mlir
    #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
    #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
    #smem = #ttg.shared_memory
    tt.func @f(%ptrs: tensor<64x32x!tt.ptr<f16>, #blocked>, %buf: !ttg.memdesc<64x32xf16, #shared, #smem, mutable>) {
      %tok = ttg.async_copy_global_to_local %ptrs, %buf : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
      %grp = ttg.async_commit_group tokens %tok
      %done = ttg.async_wait %grp {num = 0 : i32}
      %x = ttg.local_load %buf token %done : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #blocked>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_PtrTensor:$src, TTG_MemDesc:$dst, Optional<TT_BoolTensor>:$mask,
      Optional<TT_Type>:$other,
      DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::triton::CacheModifier::NONE">:$cache,
      DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::triton::EvictionPolicy::NORMAL">:$evict,
      DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let results = (outs TTG_AsyncTokenType:$token);
  let assemblyFormat = [{
    $src `,` $dst (`mask` $mask^)? (`other` $other^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($src) `->` type($dst)
  }];
  let hasVerifier = 1;
}

def TTG_AsyncCommitGroupOp : TTG_Op<"async_commit_group"> {
  let summary = "close the current group of async copies";
  let description = [{
    Closes the group of asynchronous copies started since the last commit
    (PTX `cp.async.commit_group`); `ttg.async_wait` counts these groups.
    The input tokens only order the ops. A no-op in the CPU oracle; not
    lowered by tgpu. See `ttg.async_copy_global_to_local` for an example.
  }];
  let arguments = (ins Variadic<TTG_AsyncTokenType>:$inputTokens);
  let results = (outs TTG_AsyncTokenType:$asyncToken);
  let assemblyFormat = "(`tokens` $inputTokens^)? attr-dict";
}

def TTG_AsyncWaitOp : TTG_Op<"async_wait"> {
  let summary = "wait until at most `num` async copy groups are outstanding";
  let description = [{
    Blocks until at most `num` of the committed copy groups are still in
    flight (PTX `cp.async.wait_group`), so `num = 0` waits for all.
    Verified: `num` is not negative. The result token is passed to the
    `ttg.local_load` that reads the copied data. A no-op in the CPU
    oracle; not lowered by tgpu. See `ttg.async_copy_global_to_local` for
    an example.
  }];
  let arguments = (ins Variadic<TTG_AsyncTokenType>:$asyncToken, I32Attr:$num);
  let results = (outs TTG_AsyncTokenType:$retToken);
  let assemblyFormat = "$asyncToken attr-dict";
  let hasVerifier = 1;
}

def TTG_BarrierOp : TTG_Op<"barrier", [
    MemoryEffects<[MemRead<SharedMemory>, MemWrite<SharedMemory>]>]> {
  let summary = "CTA-wide barrier that also orders the named memory";
  let description = [{
    Every thread of the CTA waits here for the others, and accesses to
    the named memory before the barrier are visible after it: `local`
    (shared memory), `global_read`, `global_write`, `tensor_read`,
    `tensor_write`, or `all`, joined with `|`. Verified: at least one.

    `tritongpu-membar` inserts `ttg.barrier local` where shared memory is
    reused. The lowering emits `bar.sync 0` for every mask, which orders
    all memory among the CTA's threads.

    ```mlir
    tt.func @f() {
      ttg.barrier local
      ttg.barrier global_read|global_write
      tt.return
    }
    ```
  }];
  let arguments = (ins TTG_AddrSpace:$addrSpace);
  let assemblyFormat = "custom<AddrSpace>($addrSpace) attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Ops tgpu reads, verifies and prints as Triton 3.6 does but does not lower
// (tgpu-compile reports them as not supported yet): views and scratch
// buffers, warp specialization, the pipeliner's helpers.
//===----------------------------------------------------------------------===//

def TTG_MemDescReinterpretOp : TTG_Op<"memdesc_reinterpret", [Pure]> {
  let summary = "view a buffer's bytes with another shape and element type";
  let description = [{
    The same bytes as the source buffer, seen with the result's shape,
    element type and layout. A memdesc has no strides, so this only means
    something for a buffer whose bytes are contiguous; as in Triton, the
    verifier does not check that, nor the sizes. Folds to its source when
    both types are the same.

    ```mlir
    #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
    #shared3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
    #smem = #ttg.shared_memory
    tt.func @f(%buf: !ttg.memdesc<4x1024xi64, #shared, #smem, mutable>) {
      %words = ttg.memdesc_reinterpret %buf : !ttg.memdesc<4x1024xi64, #shared, #smem, mutable> -> !ttg.memdesc<4x32x64xi32, #shared3, #smem, mutable>
      tt.return
    }
    ```
  }];
  let arguments = (ins TTG_MemDesc:$src);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasFolder = 1;
}

def TTG_PredicateStageOp : TTG_Op<"predicate_stage", [Pure, AllTypesMatch<["iv", "ub", "step"]>]> {
  let summary = "whether a pipelined loop iteration runs a given stage";
  let description = [{
    The software pipeliner's predicate for stage `stage` of a loop split
    into `maxStage` + 1 stages, at induction value `iv` of a loop with
    upper bound `ub` and step `step` (one integer or index type for the
    three). Triton's pipeliner lowers it into compares before the loop
    reaches the back end; tgpu has no pipeliner and only reads it.

    ```mlir
    tt.func @f(%iv: i32, %ub: i32, %step: i32) -> i1 {
      %p = ttg.predicate_stage %iv, %ub, %step maxStage 2 stage 0 : i32 -> i1
      tt.return %p : i1
    }
    ```
  }];
  let arguments = (ins AnySignlessIntegerOrIndex:$iv, AnySignlessIntegerOrIndex:$ub,
                       AnySignlessIntegerOrIndex:$step, I32Attr:$maxStage, I32Attr:$stage);
  let results = (outs I1:$result);
  let assemblyFormat = "$iv `,` $ub `,` $step `maxStage` $maxStage `stage` $stage attr-dict `:` type($iv) `->` type($result)";
}

def TTG_MaskOp : TTG_Op<"mask", [SingleBlock]> {
  let summary = "ops that run only when a predicate holds (pipeliner)";
  let description = [{
    The software pipeliner wraps the ops of a stage that may run past the
    loop's end in this op: its one-block region runs when `pred` is true,
    and `ttg.mask.return` hands its values out as the op's results. It has
    no custom syntax (Triton prints it in the generic form) and declares
    no memory effects, so passes treat it as touching anything.

    ```mlir
    tt.func @f(%pred: i1, %x: i32) -> i32 {
      %r = "ttg.mask"(%pred) ({
        %y = arith.addi %x, %x : i32
        ttg.mask.return %y : i32
      }) : (i1) -> i32
      tt.return %r : i32
    }
    ```
  }];
  let arguments = (ins I1:$pred);
  let results = (outs Variadic<AnyType>:$result);
  let regions = (region SizedRegion<1>:$region);
}

def TTG_MaskReturnOp : TTG_Op<"mask.return", [HasParent<"MaskOp">, Pure, Terminator, ReturnLike]> {
  let summary = "the values a `ttg.mask` region hands out";
  let description = [{
    Ends the region of `ttg.mask`; its operands become the mask's results.
    Printed as Triton prints it when it has operands; without any, the
    colon is left out (Triton prints a lone `:` that no parser reads
    back). See `ttg.mask` for an example.
  }];
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict (`:` type($result)^)?";
}

def TTG_Fp4ToFpOp : TTG_Op<"fp4_to_fp", [Pure]> {
  let summary = "unpack e2m1 (fp4) pairs held in i8s into f16 or bf16";
  let description = [{
    Each i8 of the source holds two fp4 (e2m1) values, the first in its
    low four bits; the result has both, converted to f16 or bf16, so it
    is twice as long along `axis` (element `2i` from the low nibble of
    source element `i`, `2i + 1` from the high one).

    Verified: the result's element type is f16 or bf16; source and result
    have one rank; `axis` is a dimension; the result is twice the source
    along `axis` and equal elsewhere; both have an encoding or neither.
    With encodings, the source's layout must be the result's with the
    pair split off: Triton's rule is checked on the LinearLayouts (a
    blocked or dot operand result whose register order puts dimension 0
    at position `axis` halves `sizePerThread[axis]` or `kWidth`; any other
    drops the register basis that steps 1 along `axis` and halves the
    other bases' `axis` coordinates).

    ```mlir
    #src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
    #dst = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
    tt.func @f(%packed: tensor<64x32xi8, #src>) {
      %x = ttg.fp4_to_fp %packed {axis = 1 : i32} : tensor<64x32xi8, #src> -> tensor<64x64xf16, #dst>
      tt.return
    }
    ```
  }];
  let arguments = (ins RankedTensorOf<[I8]>:$src, I32Attr:$axis);
  let results = (outs TT_FloatTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TTG_GlobalScratchAllocOp : TTG_Op<"global_scratch_alloc"> {
  let summary = "a global-memory buffer private to the program";
  let description = [{
    A pointer to `nbytes` bytes of global memory, aligned to `alignment`,
    that only this program instance uses (Triton carves it out of a
    per-launch scratch buffer and records the offset as
    `ttg.global_scratch_memory_offset`). Not verified further, as in
    Triton.

    ```mlir
    tt.func @f() {
      %p = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
      tt.return
    }
    ```
  }];
  let arguments = (ins I32Attr:$nbytes, I32Attr:$alignment);
  let results = (outs Res<TT_Ptr, "", [MemAlloc<TTG_GlobalMemory>]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def TTG_WarpSpecializeOp : TTG_Op<"warp_specialize", [
    RecursiveMemoryEffects, RecursivelySpeculatable,
    DeclareOpInterfaceMethods<RegionBranchOpInterface>]> {
  let summary = "run different code on different groups of warps at once";
  let description = [{
    The warps that reach the op run the `default` region, which may use
    values from above and whose `ttg.warp_yield` gives the op's results.
    At the same time, one extra group of warps per partition runs that
    partition's region: `partitionN(...) num_warps(W)` with W a power of
    two. Partitions are isolated from above (their layouts count W warps,
    not the kernel's): they see only the explicit captures, the op's
    operands, as block arguments of the same types, and end with
    `ttg.warp_return`. Everything joins at the end of the op. MLIR has no
    op with some isolated regions, so the partitions sit in a
    `ttg.warp_specialize.partitions` op, the only op of the second region.

    Optional attributes: `warpGroupStartIds` (the first warp of each
    partition), `requestedRegisters` and `actualRegisters` (register
    budgets), set by Triton's later passes.

    Verified (Triton's rules): the second region holds the partitions op;
    as many partitions as `partitionNumWarps` entries, each a power of
    two; `warpGroupStartIds`, when given, has one entry per partition;
    each partition has one argument per capture, of its type; the op is
    not nested in another `ttg.warp_specialize`; where the kernel states
    `ttg.num-warps`, it is a multiple of 4. Inside a partition,
    `ttg.num-warps` is the partition's count: layouts there are checked
    against it.

    The canonicalizer drops results nobody uses and captures no partition
    uses, and merges duplicate captures. tgpu does not lower the op.

    ```mlir
    tt.func @f(%a: i32, %b: i64) -> i64 {
      %r = ttg.warp_specialize(%a)
      default {
        ttg.warp_yield %b : i64
      }
      partition0(%x: i32) num_warps(4) {
        %y = arith.addi %x, %x : i32
        ttg.warp_return
      }
      partition1(%x: i32) num_warps(1) {
        ttg.warp_return
      } : (i32) -> i64
      tt.return %r : i64
    }
    ```
  }];
  let arguments = (ins
    Variadic<AnyType>:$explicitCaptures,
    DenseI32ArrayAttr:$partitionNumWarps,
    OptionalAttr<DenseI32ArrayAttr>:$warpGroupStartIds,
    OptionalAttr<DenseI32ArrayAttr>:$requestedRegisters,
    OptionalAttr<DenseI32ArrayAttr>:$actualRegisters);
  let results = (outs Variadic<AnyType>:$defaultPassthrough);
  let regions = (region MinSizedRegion<1>:$defaultRegion, SizedRegion<1>:$partitionOpHolder);
  let extraClassDeclaration = [{
    // The partition regions, held by the ttg.warp_specialize.partitions op;
    // empty when the second region does not hold one (invalid IR).
    ::mlir::RegionRange getPartitionRegions();
    // The partitions op, or null in IR the verifier rejects.
    ::mlir::Operation *getPartitionsOp();
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasCanonicalizeMethod = 1;
}

def TTG_WarpSpecializePartitionsOp : TTG_Op<"warp_specialize.partitions", [
    IsolatedFromAbove, RecursiveMemoryEffects, RecursivelySpeculatable, Terminator,
    HasParent<"WarpSpecializeOp">]> {
  let summary = "holds the isolated partition regions of `ttg.warp_specialize`";
  let description = [{
    The only op of `ttg.warp_specialize`'s second region; its regions are
    the partitions (at least one block each). It is printed as part of
    `ttg.warp_specialize`; see there for an example.
  }];
  let regions = (region VariadicRegion<MinSizedRegion<1>>:$partitionRegions);
}

def TTG_WarpYieldOp : TTG_Op<"warp_yield", [
    Pure, Terminator, ReturnLike, HasParent<"WarpSpecializeOp">]> {
  let summary = "ends the default region of `ttg.warp_specialize`";
  let description = [{
    Its operands become the results of the enclosing `ttg.warp_specialize`.
    Verified: one operand per result, of the result's type.

    ```mlir
    tt.func @f(%a: i32, %b: f32) -> (i32, f32) {
      %r:2 = ttg.warp_specialize()
      default {
        ttg.warp_yield %a, %b : i32, f32
      } : () -> (i32, f32)
      tt.return %r#0, %r#1 : i32, f32
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^)? attr-dict (`:` type($values)^)?";
  let hasVerifier = 1;
}

def TTG_WarpReturnOp : TTG_Op<"warp_return", [
    Pure, Terminator, ReturnLike, HasParent<"WarpSpecializePartitionsOp">]> {
  let summary = "ends a partition region of `ttg.warp_specialize`";
  let description = [{
    Partitions return nothing: the op has no operands. See
    `ttg.warp_specialize` for an example.
  }];
  let assemblyFormat = "attr-dict";
}

def TTG_LocalBarrierOp : TTG_Op<"local_barrier", [
    MemoryEffects<[MemRead<SharedMemory>, MemWrite<SharedMemory>]>]> {
  let summary = "CTA-wide barrier for shared memory";
  let description = [{
    Every thread of the CTA waits here for the others, and their
    shared-memory accesses before the barrier are visible after it.
    Global memory is not ordered. Its effects (reads and writes of shared
    memory) keep passes from moving shared-memory accesses across it.

    ```mlir
    tt.func @f() {
      ttg.local_barrier
      tt.return
    }
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def TTG_WarpIdOp : TTG_Op<"warp_id", [Pure]> {
  let summary = "the id of the executing warp";
  let description = [{
    The warp's index in its group: in the CTA, or inside a
    `ttg.warp_specialize` partition, in that partition's warps.

    ```mlir
    tt.func @f() -> i32 {
      %w = ttg.warp_id
      tt.return %w : i32
    }
    ```
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict";
}

#endif // TGPU_TRITONGPU_OPS
