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
  let description = [{
    TTGIR is `tt` code whose tensors carry a layout encoding (an attribute
    of this dialect), plus the `ttg` ops that change layouts, use shared
    memory and copy asynchronously. `convert-triton-to-tritongpu` makes it
    from TTIR; the layout passes (`tritongpu-coalesce`,
    `tritongpu-remove-layout-conversions`, `tritongpu-accelerate-matmul`)
    improve it; `convert-triton-gpu-to-llvm` lowers it for NVIDIA GPUs
    (`cuda:80` and newer, 32 threads per warp). Printed forms follow
    Triton 3.x; definitions and verifiers are tgpu's own.

    Layouts come in two kinds. A *distributed* layout (`#ttg.blocked`,
    `#ttg.slice`, `#ttg.dot_op`, `#ttg.nvidia_mma`, `#ttg.linear`) says
    which registers of which threads (lanes of warps, in CTAs) hold each
    element of a tensor; one element may be held by several threads. A
    *shared* layout (`#ttg.swizzled_shared`, `#ttg.nvmma_shared`,
    `#ttg.shared_linear`) says at which offset of a shared-memory buffer
    (`!ttg.memdesc`) each element lives. Every layout converts to a
    linear layout (`compiler/lib/Layout`), from which the lowering
    computes all its index arithmetic. Layouts change where values live,
    never what they are: the CPU oracle ignores them.

    Module attributes, checked by the verifier when present:
    `ttg.num-warps`, `ttg.threads-per-warp` and `ttg.num-ctas` are
    positive powers of two (i32); `ttg.target` is `"cuda:<compute
    capability>"` or `"hip:<arch>"`; `ttg.shared` is the number of
    shared-memory bytes the kernel uses (a non-negative i32, set by the
    lowering). Every blocked, nvidia_mma and linear layout used under a
    module with `ttg.num-warps` must agree with these counts (the product
    of `threadsPerWarp` with `ttg.threads-per-warp`, of `warpsPerCTA`
    with `ttg.num-warps`, the CTA count with `ttg.num-ctas`). Other
    `ttg.*` attributes are not checked.

    The printer names layouts `#blocked`, `#mma`, `#shared`, `#linear`
    and the memory space `#smem`, as Triton does. Ops the GPU lowering
    has no pattern for: `ttg.memdesc_subslice`,
    `ttg.async_copy_global_to_local`, `ttg.async_commit_group`,
    `ttg.async_wait` (tgpu's own pipeline makes none of them; they come
    from Triton's software pipelining and are verified and run by the
    CPU oracle).

    ```mlir
    #blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
    module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:80"} {
      tt.func public @f(%x: tensor<32x16xf32, #blocked>) {
        tt.return
      }
    }
    ```
  }];
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
  let description = [{
    The general-purpose distributed layout. Each thread holds a block of
    `sizePerThread` elements (contiguous along every dimension); the
    threads of a warp hold `threadsPerWarp` such blocks side by side, and
    the warps of a CTA `warpsPerCTA` warp tiles. Where the tensor is
    larger than that CTA tile, the tile repeats (each thread holds more
    registers); where it is smaller, several threads hold copies of the
    same elements. `order` lists the dimensions from fastest- to
    slowest-varying: registers, lanes and warps are numbered along
    `order[0]` first. So `sizePerThread = [1, 4]` with `order = [1, 0]`
    gives each thread 4 consecutive elements of a row, the layout
    coalesced loads want.

    `CGALayout = [[...], ...]` (optional) splits the tensor over the CTAs
    of a cluster: one basis per bit of the CTA id, each a coordinate with
    an entry per dimension (0 or a power of two). Triton's older
    `CTAsPerCGA`, `CTASplitNum`, `CTAOrder` fields are read and turned
    into these bases.

    Verified: rank >= 1; the four lists have one entry per dimension;
    `sizePerThread`, `threadsPerWarp` and `warpsPerCTA` hold positive
    powers of two; `order` is a permutation; a tensor using it has the
    layout's rank; under a module with `ttg.num-warps`, the products of
    `threadsPerWarp` and `warpsPerCTA` and the CTA count match the module.

    ```mlir
    #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
    tt.func @f(%x: tensor<16x64xf32, #blocked>) {
      tt.return
    }
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"unsigned", "elements a thread holds, per dimension">:$sizePerThread,
    ArrayRefParameter<"unsigned", "lanes of a warp, per dimension">:$threadsPerWarp,
    ArrayRefParameter<"unsigned", "warps of a CTA, per dimension">:$warpsPerCTA,
    ArrayRefParameter<"unsigned", "dimensions from fastest- to slowest-varying">:$order,
    // The CTA layout as `block` bases, flattened (rank entries per basis);
    // empty when the kernel runs one CTA per program.
    ArrayRefParameter<"int32_t", "the CTA (`block`) bases, flattened, rank entries each; empty for one CTA">:$cgaBases
  );
  let extraClassDeclaration = [{ unsigned getRank() const { return getOrder().size(); } }];
}

def TTG_SliceEncodingAttr : TTG_Encoding<"SliceEncoding", "slice"> {
  let summary = "the parent layout with dimension `dim` removed";
  let description = [{
    A layout for a tensor of one dimension less than its distributed
    `parent`: element `i` is held by the threads and registers that hold,
    in the parent, the elements with coordinates `i` and any coordinate
    inserted at `dim` (so those threads hold copies). It is the layout of
    a `tt.reduce` result along `dim` and of a `tt.expand_dims` operand.

    Verified: the parent is distributed and of rank >= 2; `dim` is below
    its rank; a tensor using it has rank one less than the parent.

    ```mlir
    #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
    tt.func @f(%row: tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) {
      tt.return
    }
    ```
  }];
  let parameters = (ins
    AttrParameter<"unsigned", "the parent dimension removed">:$dim,
    AttrParameter<"::mlir::Attribute", "a distributed layout of rank >= 2">:$parent
  );
}

def TTG_DotOperandEncodingAttr : TTG_Encoding<"DotOperandEncoding", "dot_op"> {
  let summary = "layout of operand opIdx (0 = A, 1 = B) of a dot with the parent's result layout";
  let description = [{
    The layout operand `opIdx` (0 for A, 1 for B) of a `tt.dot` must have
    when the dot's result has layout `parent`. With a `#ttg.blocked`
    parent (the FMA path) each thread holds the whole K extent of the
    rows of A (columns of B) its result elements need; `kWidth` is then
    absent. With a `#ttg.nvidia_mma` parent it is the tensor-core fragment
    layout, and `kWidth` (required, a power of two) is the number of
    consecutive K elements a thread holds per register group, e.g. 2 for
    16-bit inputs of `mma.sync`; a version-3 parent admits only A
    (`opIdx = 0`), since wgmma reads B from shared memory.

    Verified: `opIdx` is 0 or 1; the parent is blocked, nvidia_mma or
    linear; the `kWidth` rules above; a tensor using it has the parent's
    rank. A linear parent is accepted by the verifier but tgpu has no
    linear layout for it, so nothing can be lowered with it. `kWidth` is
    printed only when it is not 0.

    ```mlir
    #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
    tt.func @f(%a: tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>) {
      tt.return
    }
    ```
  }];
  let parameters = (ins
    AttrParameter<"unsigned", "0 for operand A, 1 for operand B">:$opIdx,
    AttrParameter<"::mlir::Attribute", "the dot result's layout">:$parent,
    AttrParameter<"unsigned", "consecutive K elements per register group (0: not given)">:$kWidth
  );
}

def TTG_NvidiaMmaEncodingAttr : TTG_Encoding<"NvidiaMmaEncoding", "nvidia_mma"> {
  let summary = "accumulator layout of mma.sync (v2) or wgmma (v3)";
  let description = [{
    The layout of a tensor-core dot's accumulator: version 2 is Ampere's
    `mma.sync` (each warp holds 16x8 tiles), version 3 Hopper's wgmma
    (each group of 4 warps holds 64xN tiles). Within a tile each lane
    holds pairs of consecutive elements of a row, four lanes across and
    eight down; `warpsPerCTA` tiles the warps over the tensor, and the
    pattern repeats over larger tensors. `instrShape` is the instruction
    tile: `[16, 8]` for version 2 (`[1, 16, 8]` when batched), `[16, N, K]`
    for version 3. `versionMinor` is carried along.

    Verified: `versionMajor` is 2 or 3; `warpsPerCTA` holds powers of
    two; version 2 has rank 2 or 3 and the instrShape above; version 3 has
    rank 2, N a multiple of 8 in [8, 256], K in {8, 16, 32}, and
    `warpsPerCTA[0]` a multiple of 4 (whole warp groups); `CGALayout` as
    for `#ttg.blocked`; under a module with `ttg.num-warps`, the warps
    match it.

    `tritongpu-accelerate-matmul` makes version-2 layouts; the lowering
    runs `tt.dot` on them with `mma.sync`. Version 3 is read (Triton's
    sm_90 TTGIR) and converted to linear layouts but its dots are not
    lowered.

    ```mlir
    #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
    tt.func @f(%acc: tensor<32x32xf32, #mma>) {
      tt.return
    }
    ```
  }];
  let parameters = (ins
    AttrParameter<"unsigned", "2 (mma.sync) or 3 (wgmma)">:$versionMajor,
    AttrParameter<"unsigned", "carried along, not interpreted">:$versionMinor,
    ArrayRefParameter<"unsigned", "warps of a CTA, per dimension">:$warpsPerCTA,
    ArrayRefParameter<"unsigned", "the instruction's tile">:$instrShape,
    ArrayRefParameter<"int32_t", "the CTA (`block`) bases, flattened, rank entries each; empty for one CTA">:$cgaBases
  );
  let extraClassDeclaration = [{
    bool isAmpere() const { return getVersionMajor() == 2; }
    bool isHopper() const { return getVersionMajor() == 3; }
    unsigned getRank() const { return getWarpsPerCTA().size(); }
  }];
}

def TTG_LinearEncodingAttr : TTG_Encoding<"LinearEncoding", "linear"> {
  let summary = "a distributed layout given by its GF(2) bases";
  let description = [{
    A distributed layout spelled out as a linear map over GF(2): for each
    hardware index (`register`, `lane`, `warp`, `block`) one basis per bit,
    each a coordinate with one entry per tensor dimension. The element
    held by register r of lane l of warp w of CTA b is the XOR of the
    bases of the bits set in r, l, w and b. A zero basis means the
    elements repeat along that bit (copies). Every other distributed
    layout is a special case; Triton prints layouts it has no name for
    this way.

    Verified: all bases have the same number of entries (the rank), each
    in [0, 2^31); a basis moves along at most one dimension (only shared
    layouts may swizzle; Triton 3.6's rule and message); against a tensor,
    the rank matches and every entry is below its dimension's size (a
    layout without bases fits any tensor with one element); under a
    module with `ttg.num-warps`, there are log2(`ttg.threads-per-warp`)
    lane bases and log2(`ttg.num-warps`) warp bases.

    ```mlir
    #linear = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [0, 0]], block = []}>
    tt.func @f(%x: tensor<64x4xf32, #linear>) {
      tt.return
    }
    ```
  }];
  let parameters = (ins
    AttrParameter<"unsigned", "entries per basis (0 when there are no bases)">:$rank,
    ArrayRefParameter<"int32_t", "`register` bases, flattened">:$registerBases,
    ArrayRefParameter<"int32_t", "`lane` bases, flattened">:$laneBases,
    ArrayRefParameter<"int32_t", "`warp` bases, flattened">:$warpBases,
    ArrayRefParameter<"int32_t", "`block` (CTA) bases, flattened">:$blockBases
  );
}

//===----------------------------------------------------------------------===//
// Shared-memory encodings
//===----------------------------------------------------------------------===//
def TTG_SwizzledSharedEncodingAttr : TTG_Encoding<"SwizzledSharedEncoding", "swizzled_shared"> {
  let summary = "row-XOR swizzled shared memory (vec, perPhase, maxPhase)";
  let description = [{
    A shared-memory layout that stores the tensor row by row, `order[0]`
    being the contiguous dimension and `order[1]` the rows (further
    dimensions stack whole matrices), and swizzles each row to avoid bank
    conflicts: element (r, c) is stored at column
    `c XOR (vec * ((r / perPhase) % maxPhase))` of row r (modulo the row
    length). `vec` elements thus stay together, `perPhase` consecutive
    rows share a swizzle and `maxPhase` swizzles repeat. `vec = 1,
    perPhase = 1, maxPhase = 1` is plain row-major order. `CGALayout` as
    for `#ttg.blocked`.

    Verified: `vec`, `perPhase` and `maxPhase` are positive powers of two
    (perPhase = 0 would divide by zero); rank >= 1; `order` is a
    permutation; a buffer using it has its rank.

    ```mlir
    #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
    #smem = #ttg.shared_memory
    tt.func @f(%buf: !ttg.memdesc<64x32xf16, #shared, #smem, mutable>) {
      tt.return
    }
    ```
  }];
  let parameters = (ins
    AttrParameter<"unsigned", "elements kept together by the swizzle">:$vec,
    AttrParameter<"unsigned", "consecutive rows sharing one swizzle">:$perPhase,
    AttrParameter<"unsigned", "number of distinct swizzles">:$maxPhase,
    ArrayRefParameter<"unsigned", "dimensions from contiguous to outermost">:$order,
    ArrayRefParameter<"int32_t", "the CTA (`block`) bases, flattened, rank entries each; empty for one CTA">:$cgaBases
  );
}

def TTG_NVMMASharedEncodingAttr : TTG_Encoding<"NVMMASharedEncoding", "nvmma_shared"> {
  let summary = "the shared layout that wgmma and TMA read (swizzle of 0/32/64/128 bytes)";
  let description = [{
    The shared-memory layout NVIDIA's tensor-memory accelerator writes and
    wgmma reads: the buffer is cut into rows of `swizzlingByteWidth`
    bytes along the contiguous dimension (the last one, or dimension 0
    when `transposed`), and within each group of 8 rows the 16-byte
    chunks of a row are XOR-permuted by the row index. `0` means no
    swizzle. `elementBitWidth` is the element size the byte counts refer
    to; `fp4Padded` marks 4-bit floats stored with padding, as Triton's
    fp4 tensor-core path wants; `rank` (default 2, printed only
    otherwise) is the buffer's rank. `CGALayout` as for `#ttg.blocked`.

    Verified: `swizzlingByteWidth` is 0, 32, 64 or 128; `elementBitWidth`
    is 4, 8, 16, 32 or 64; `rank` is positive and a buffer using it has
    that rank. Converting it to a linear layout also needs the buffer's
    contiguous dimension to span at least one swizzle row.

    ```mlir
    #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
    #smem = #ttg.shared_memory
    tt.func @f(%buf: !ttg.memdesc<64x64xf16, #shared, #smem>) {
      tt.return
    }
    ```
  }];
  let parameters = (ins
    AttrParameter<"unsigned", "swizzle row in bytes: 0, 32, 64 or 128">:$swizzlingByteWidth,
    AttrParameter<"bool", "dimension 0, not the last, is contiguous">:$transposed,
    AttrParameter<"unsigned", "element size in bits">:$elementBitWidth,
    AttrParameter<"bool", "4-bit floats stored padded">:$fp4Padded,
    AttrParameter<"unsigned", "the buffer's rank">:$rank,
    ArrayRefParameter<"int32_t", "the CTA (`block`) bases, flattened, rank entries each; empty for one CTA">:$cgaBases
  );
}

def TTG_SharedLinearEncodingAttr : TTG_Encoding<"SharedLinearEncoding", "shared_linear"> {
  let summary = "a shared layout given by its GF(2) offset bases";
  let description = [{
    A shared-memory layout spelled out as a linear map: one `offset`
    basis per bit of the element offset in the buffer (and optionally one
    `block` basis per bit of the CTA id), each a coordinate with an entry
    per dimension. The element stored at offset o is the XOR of the bases
    of the bits set in o. Unlike `#ttg.linear`, a basis may move along
    several dimensions at once (that is what a swizzle is). `alignment` is
    the buffer's alignment in bytes; it is printed outside the braces.

    Verified: `alignment` is a positive power of two; there is at least
    one offset basis; all bases have the same number of entries; a buffer
    using it has its rank.

    ```mlir
    #shared = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]]}, alignment = 16>
    #smem = #ttg.shared_memory
    tt.func @f(%buf: !ttg.memdesc<4x4xf32, #shared, #smem, mutable>) {
      tt.return
    }
    ```
  }];
  let parameters = (ins
    AttrParameter<"unsigned", "entries per basis">:$rank,
    ArrayRefParameter<"int32_t", "`offset` bases, flattened">:$offsetBases,
    ArrayRefParameter<"int32_t", "`block` (CTA) bases, flattened">:$blockBases,
    AttrParameter<"unsigned", "the buffer's alignment in bytes">:$alignment
  );
}

def TTG_SharedMemorySpaceAttr : TTG_Attr<"SharedMemorySpace", "shared_memory"> {
  let summary = "the memory space of shared memory (for !ttg.memdesc)";
  let description = [{
    Marks a `!ttg.memdesc` as living in the CTA's shared memory, the only
    memory space tgpu's memdescs may name. Printed `#ttg.shared_memory`
    (aliased `#smem`). No parameters.
  }];
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//
def TTG_AsyncToken : TypeDef<TritonGPU_Dialect, "AsyncToken"> {
  let mnemonic = "async.token";
  let summary = "links async copies to their commit groups and waits";
  let description = [{
    A value with no runtime content that orders asynchronous copies: it is
    returned by `ttg.async_copy_global_to_local`, `ttg.async_commit_group`
    and `ttg.async_wait`, and handed to the next of them (and to
    `ttg.local_load`) so passes keep those ops in order. Printed
    `!ttg.async.token`.
  }];
}

def TTG_MemDescType : TypeDef<TritonGPU_Dialect, "MemDesc", [ShapedTypeInterface]> {
  let mnemonic = "memdesc";
  let summary = "a view of a shared-memory buffer";
  let description = [{
    `!ttg.memdesc<SHAPExELEM, ENCODING, MEMSPACE[, mutable][, ALLOCSHAPE]>`
    describes a buffer in shared memory, or a view of one: its shape and
    element type, a shared layout saying where each element sits, the
    memory space (`#ttg.shared_memory`), whether it may be written
    (`mutable`), and ALLOCSHAPE, the shape of the allocation the view
    points into (printed only when it differs from SHAPE; a view made by
    `ttg.memdesc_subslice` or `ttg.memdesc_index` keeps its allocation's
    shape there). Memdescs are made by `ttg.local_alloc` and viewed
    through the `ttg.memdesc_*` ops; only ops read or write them.

    Verified: rank >= 1 and positive sizes; the element type is an
    integer, float or `!tt.ptr`; the encoding is a shared layout whose
    rank does not exceed the shape's; the memory space, if given, is
    `#ttg.shared_memory`; ALLOCSHAPE has at least the view's rank,
    positive sizes, and its trailing sizes are at least the view's.

    ```mlir
    #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
    #smem = #ttg.shared_memory
    tt.func @f(%whole: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>,
               %part: !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>) {
      tt.return
    }
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "the view's shape">:$shape,
    TypeParameter<"Type", "element type">:$elementType,
    TypeParameter<"Attribute", "a shared layout">:$encoding,
    TypeParameter<"Attribute", "#ttg.shared_memory, or null">:$memorySpace,
    TypeParameter<"bool", "whether ops may write the buffer">:$mutableMemory,
    ArrayRefParameter<"int64_t", "the shape of the allocation viewed">:$allocShape
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
    "::mlir::triton::gpu::MemDescType"> {
  let description = "Any `!ttg.memdesc` (the constraint ttg and ttng operands use).";
}
def TTG_AsyncTokenType : DialectType<TritonGPU_Dialect,
    CPred<"::llvm::isa<::mlir::triton::gpu::AsyncTokenType>($_self)">, "async token",
    "::mlir::triton::gpu::AsyncTokenType">,
    BuildableType<"$_builder.getType<::mlir::triton::gpu::AsyncTokenType>()"> {
  let description = "A `!ttg.async.token` (the constraint ttg operands use).";
}

#endif // TGPU_TRITONGPU_BASE
