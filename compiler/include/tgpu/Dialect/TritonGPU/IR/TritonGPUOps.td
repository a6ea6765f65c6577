// Operations of the `ttg` dialect (formats as Triton 3.x prints them).
#ifndef TGPU_TRITONGPU_OPS
#define TGPU_TRITONGPU_OPS

include "tgpu/Dialect/TritonGPU/IR/TritonGPUBase.td"
include "tgpu/Dialect/Triton/IR/TritonBase.td"
include "tgpu/Dialect/TritonGPU/IR/TritonGPUEnums.td"
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

#endif // TGPU_TRITONGPU_OPS
