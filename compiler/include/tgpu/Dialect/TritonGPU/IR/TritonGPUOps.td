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
  let arguments = (ins Optional<TT_Tensor>:$src, OptionalAttr<ConfinedAttr<I32Attr, [IntPositive]>>:$alignment);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "$src attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TTG_LocalDeallocOp : TTG_Op<"local_dealloc", [MemoryEffects<[MemFree<SharedMemory>]>]> {
  let summary = "free a shared-memory buffer";
  let arguments = (ins TTG_MemDesc:$src);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src))";
}

def TTG_LocalLoadOp : TTG_Op<"local_load", [MemoryEffects<[MemRead<SharedMemory>]>]> {
  let summary = "read a shared-memory buffer into a distributed tensor";
  let arguments = (ins TTG_MemDesc:$src, Optional<TTG_AsyncTokenType>:$token);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src (`token` $token^)? attr-dict `:` qualified(type($src)) `->` type($result)";
  let hasVerifier = 1;
}

def TTG_LocalStoreOp : TTG_Op<"local_store", [MemoryEffects<[MemWrite<SharedMemory>]>]> {
  let summary = "write a distributed tensor into a shared-memory buffer";
  let arguments = (ins TT_Tensor:$src, TTG_MemDesc:$dst);
  let assemblyFormat = "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))";
  let hasVerifier = 1;
}

def TTG_MemDescIndexOp : TTG_Op<"memdesc_index", [Pure]> {
  let summary = "the index-th sub-buffer along dimension 0";
  let arguments = (ins TTG_MemDesc:$src, I32:$index);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "$src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TTG_MemDescSubsliceOp : TTG_Op<"memdesc_subslice", [Pure]> {
  let summary = "a sub-box of a buffer at constant offsets";
  let arguments = (ins TTG_MemDesc:$src, DenseI32ArrayAttr:$offsets);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "$src $offsets attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TTG_MemDescTransOp : TTG_Op<"memdesc_trans", [Pure]> {
  let summary = "a transposed view of a buffer";
  let arguments = (ins TTG_MemDesc:$src, DenseI32ArrayAttr:$order);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TTG_MemDescReshapeOp : TTG_Op<"memdesc_reshape", [Pure]> {
  let summary = "a view of a buffer with another shape of the same size";
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
  let summary = "cp.async: copy global memory into a shared buffer without blocking";
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
  let arguments = (ins Variadic<TTG_AsyncTokenType>:$inputTokens);
  let results = (outs TTG_AsyncTokenType:$asyncToken);
  let assemblyFormat = "(`tokens` $inputTokens^)? attr-dict";
}

def TTG_AsyncWaitOp : TTG_Op<"async_wait"> {
  let summary = "wait until at most `num` async copy groups are outstanding";
  let arguments = (ins Variadic<TTG_AsyncTokenType>:$asyncToken, I32Attr:$num);
  let results = (outs TTG_AsyncTokenType:$retToken);
  let assemblyFormat = "$asyncToken attr-dict";
  let hasVerifier = 1;
}

def TTG_BarrierOp : TTG_Op<"barrier", [
    MemoryEffects<[MemRead<SharedMemory>, MemWrite<SharedMemory>]>]> {
  let summary = "CTA-wide barrier that also orders the named memory";
  let arguments = (ins TTG_AddrSpace:$addrSpace);
  let assemblyFormat = "custom<AddrSpace>($addrSpace) attr-dict";
  let hasVerifier = 1;
}

#endif // TGPU_TRITONGPU_OPS
