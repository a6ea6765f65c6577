// The `ttg` dialect: layout encodings, the memory-descriptor type and the
// module attributes. Printed forms follow Triton 3.x; definitions are ours.
#ifndef TGPU_TRITONGPU_BASE
#define TGPU_TRITONGPU_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def TritonGPU_Dialect : Dialect {
  let name = "ttg";
  let cppNamespace = "::mlir::triton::gpu";
  let summary = "Triton GPU IR: tensors with layouts, shared memory, async copies";
  let dependentDialects = ["triton::TritonDialect", "arith::ArithDialect",
                           "scf::SCFDialect", "::mlir::gpu::GPUDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();
    static constexpr llvm::StringLiteral getNumWarpsAttrName() { return "ttg.num-warps"; }
    static constexpr llvm::StringLiteral getNumCTAsAttrName() { return "ttg.num-ctas"; }
    static constexpr llvm::StringLiteral getThreadsPerWarpAttrName() { return "ttg.threads-per-warp"; }
    static constexpr llvm::StringLiteral getTargetAttrName() { return "ttg.target"; }
    static constexpr llvm::StringLiteral getSharedAttrName() { return "ttg.shared"; }

    // The LinearLayouts of (encoding, shape) pairs computed so far, kept by
    // tgpu/Layout/AttrConversion.cpp. Attributes are uniqued per context, so
    // the cache lives and dies with the context's dialect.
    LayoutCache &getLayoutCache() const;
  private:
    mutable std::once_flag layoutCacheOnce;
    // shared_ptr: its deleter is bound where the cache is made, so this
    // header needs no complete LayoutCache.
    mutable std::shared_ptr<LayoutCache> layoutCache;
  public:
  }];
}

class TTG_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TritonGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

// Encodings are verified against the tensor they annotate (rank, sizes).
class TTG_Encoding<string name, string attrMnemonic>
    : TTG_Attr<name, attrMnemonic, [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Distributed encodings: where each tensor element lives among registers,
// lanes, warps and CTAs.
//===----------------------------------------------------------------------===//
def TTG_BlockedEncodingAttr : TTG_Encoding<"BlockedEncoding", "blocked"> {
  let summary = "tiles of sizePerThread x threadsPerWarp x warpsPerCTA, repeated";
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$order,
    // The CTA layout as `block` bases, flattened (rank entries per basis);
    // empty when the kernel runs one CTA per program.
    ArrayRefParameter<"int32_t">:$cgaBases
  );
  let extraClassDeclaration = [{ unsigned getRank() const { return getOrder().size(); } }];
}

def TTG_SliceEncodingAttr : TTG_Encoding<"SliceEncoding", "slice"> {
  let summary = "the parent layout with dimension `dim` removed";
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
}

def TTG_DotOperandEncodingAttr : TTG_Encoding<"DotOperandEncoding", "dot_op"> {
  let summary = "layout of operand opIdx (0 = A, 1 = B) of a dot with the parent's result layout";
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent, "unsigned":$kWidth);
}

def TTG_NvidiaMmaEncodingAttr : TTG_Encoding<"NvidiaMmaEncoding", "nvidia_mma"> {
  let summary = "accumulator layout of mma.sync (v2) or wgmma (v3)";
  let parameters = (ins
    "unsigned":$versionMajor,
    "unsigned":$versionMinor,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$instrShape,
    ArrayRefParameter<"int32_t">:$cgaBases
  );
  let extraClassDeclaration = [{
    bool isAmpere() const { return getVersionMajor() == 2; }
    bool isHopper() const { return getVersionMajor() == 3; }
    unsigned getRank() const { return getWarpsPerCTA().size(); }
  }];
}

def TTG_LinearEncodingAttr : TTG_Encoding<"LinearEncoding", "linear"> {
  let summary = "a distributed layout given by its GF(2) bases";
  let parameters = (ins
    "unsigned":$rank,
    ArrayRefParameter<"int32_t">:$registerBases,
    ArrayRefParameter<"int32_t">:$laneBases,
    ArrayRefParameter<"int32_t">:$warpBases,
    ArrayRefParameter<"int32_t">:$blockBases
  );
}

//===----------------------------------------------------------------------===//
// Shared-memory encodings
//===----------------------------------------------------------------------===//
def TTG_SwizzledSharedEncodingAttr : TTG_Encoding<"SwizzledSharedEncoding", "swizzled_shared"> {
  let summary = "row-XOR swizzled shared memory (vec, perPhase, maxPhase)";
  let parameters = (ins
    "unsigned":$vec, "unsigned":$perPhase, "unsigned":$maxPhase,
    ArrayRefParameter<"unsigned">:$order,
    ArrayRefParameter<"int32_t">:$cgaBases
  );
}

def TTG_NVMMASharedEncodingAttr : TTG_Encoding<"NVMMASharedEncoding", "nvmma_shared"> {
  let summary = "the shared layout that wgmma and TMA read (swizzle of 0/32/64/128 bytes)";
  let parameters = (ins
    "unsigned":$swizzlingByteWidth, "bool":$transposed, "unsigned":$elementBitWidth,
    "bool":$fp4Padded, "unsigned":$rank,
    ArrayRefParameter<"int32_t">:$cgaBases
  );
}

def TTG_SharedLinearEncodingAttr : TTG_Encoding<"SharedLinearEncoding", "shared_linear"> {
  let summary = "a shared layout given by its GF(2) offset bases";
  let parameters = (ins
    "unsigned":$rank,
    ArrayRefParameter<"int32_t">:$offsetBases,
    ArrayRefParameter<"int32_t">:$blockBases,
    "unsigned":$alignment
  );
}

def TTG_SharedMemorySpaceAttr : TTG_Attr<"SharedMemorySpace", "shared_memory"> {
  let summary = "the memory space of shared memory (for !ttg.memdesc)";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//
def TTG_AsyncToken : TypeDef<TritonGPU_Dialect, "AsyncToken"> {
  let mnemonic = "async.token";
  let summary = "links async copies to their commit groups and waits";
}

def TTG_MemDescType : TypeDef<TritonGPU_Dialect, "MemDesc", [ShapedTypeInterface]> {
  let mnemonic = "memdesc";
  let summary = "a view of a shared-memory buffer";
  let description = [{
    `!ttg.memdesc<SHAPExELEM, ENCODING, MEMSPACE[, mutable][, ALLOCSHAPE]>`.
    ALLOCSHAPE (printed only when it differs from SHAPE) is the shape of the
    allocation the view points into.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "Type":$elementType,
    "Attribute":$encoding,
    "Attribute":$memorySpace,
    "bool":$mutableMemory,
    ArrayRefParameter<"int64_t">:$allocShape
  );
  let extraClassDeclaration = [{
    MemDescType cloneWith(std::optional<ArrayRef<int64_t>> shape, Type elementType) const {
      return MemDescType::get(getContext(), shape.value_or(getShape()), elementType,
                              getEncoding(), getMemorySpace(), getMutableMemory(), getAllocShape());
    }
    bool hasRank() const { return true; }
  }];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_MemDesc : DialectType<TritonGPU_Dialect,
    CPred<"::llvm::isa<::mlir::triton::gpu::MemDescType>($_self)">, "memory descriptor",
    "::mlir::triton::gpu::MemDescType">;
def TTG_AsyncTokenType : DialectType<TritonGPU_Dialect,
    CPred<"::llvm::isa<::mlir::triton::gpu::AsyncTokenType>($_self)">, "async token",
    "::mlir::triton::gpu::AsyncTokenType">,
    BuildableType<"$_builder.getType<::mlir::triton::gpu::AsyncTokenType>()">;

#endif // TGPU_TRITONGPU_BASE
