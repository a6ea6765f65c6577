// The `tt` dialect: its declaration, types, enums and type constraints.
// Names and printed forms follow what Triton 3.x prints so that its TTIR reads
// as it is; definitions and verifiers are this project's own.
#ifndef TGPU_TRITON_BASE
#define TGPU_TRITON_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Triton_Dialect : Dialect {
  let name = "tt";
  let cppNamespace = "::mlir::triton";
  let summary = "Triton IR: tile-level GPU kernels over tensors and pointers";
  let description = [{
    `tt` is the input language of tgpu (TTIR): a kernel is a `tt.func` that
    runs once per program of a 1- to 3-D grid (`tt.get_program_id`), and
    computes on whole tensors at a time. Op names, operands and printed
    forms follow what Triton 3.x prints, so a TTIR dump of Triton's reads
    as it is; the definitions, traits and verifiers are tgpu's own.

    Values are scalars (integers, floats, `!tt.ptr`) and ranked tensors of
    them. Every `tt` op checks (through the `TensorShapeTrait` all of
    them carry) that each tensor operand and result has a static shape
    whose sizes are positive powers of two and at most 2^20 elements in
    all. In TTIR tensors have no encoding; `convert-triton-to-tritongpu`
    gives each one a `#ttg` layout, after which the same `tt` ops make up
    most of TTGIR. Where an op constrains encodings (the `SameOperands*`
    encoding traits, `tt.dot`, `tt.reduce`, `tt.expand_dims`), the `ttg`
    dialect supplies the rules. Enum attributes (listed at the end, with
    the summary the verifier prints) are keywords in the custom syntax
    (`relaxed`, `cg`, ...) and i32 values in the generic one; their
    meaning is given with the ops that take them.

    What a kernel computes is defined by the CPU reference interpreter
    (`tgpu-run`), whose rules are in `oracles/cpu/SEMANTICS.md`; the
    descriptions below say what each op means in those terms and note
    where the GPU lowering (`convert-triton-gpu-to-llvm`) accepts less
    than the verifier. Ops the lowering has no pattern for: `tt.bitcast`,
    `tt.int_to_ptr`, `tt.ptr_to_int`, `tt.fp_to_fp`, `tt.unsplat`,
    `tt.make_tensor_ptr`, `tt.advance` (and loads or stores through block
    pointers); `tt.call` is removed by inlining in `make_ttir`. Tensor
    descriptors (`!tt.tensordesc`, `tt.make_tensor_descriptor` and the
    `tt.descriptor_*` ops) are read and verified but neither compiled
    (`tgpu-compile` refuses a kernel using one before any pass runs) nor
    run by the CPU oracle yet.
  }];
  let dependentDialects = [
    "arith::ArithDialect", "math::MathDialect", "scf::SCFDialect",
    "cf::ControlFlowDialect", "ub::UBDialect"
  ];
  let useDefaultTypePrinterParser = 1;
  // Folds of tt ops give attributes; they become arith.constant ops.
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

//===----------------------------------------------------------------------===//
// Enums (printed as keywords; the integer values match Triton's so attribute
// dictionaries written with integers mean the same thing).
//===----------------------------------------------------------------------===//
class TT_I32Enum<string name, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, "", cases> {
  let cppNamespace = "::mlir::triton";
}

def TT_CacheModifierAttr : TT_I32Enum<"CacheModifier", [
  I32EnumAttrCase<"NONE", 1, "none">, I32EnumAttrCase<"CA", 2, "ca">,
  I32EnumAttrCase<"CG", 3, "cg">, I32EnumAttrCase<"WB", 4, "wb">,
  I32EnumAttrCase<"CS", 5, "cs">, I32EnumAttrCase<"WT", 6, "wt">,
  I32EnumAttrCase<"CV", 7, "cv">]> {
  let description = [{
    Cache operator of a `tt.load` / `tt.store` (PTX's `.ca`, `.cg`, `.wb`,
    `.cs`, `.wt`, `.cv`; `none` leaves the choice to the hardware). The
    values are Triton's. The GPU lowering emits the PTX qualifier where
    the access has it (see `tt.load`, `tt.store`); the CPU oracle ignores
    it.
  }];
}

def TT_EvictionPolicyAttr : TT_I32Enum<"EvictionPolicy", [
  I32EnumAttrCase<"NORMAL", 1, "evict_normal">,
  I32EnumAttrCase<"EVICT_FIRST", 2, "evict_first">,
  I32EnumAttrCase<"EVICT_LAST", 3, "evict_last">]> {
  let description = [{
    L1/L2 eviction priority hint of a load or store (PTX's `evict_first`,
    `evict_last`, or normal). The GPU lowering emits it as an L1 eviction
    priority and an L2 cache policy (`createpolicy.fractional`, sm_80 and
    newer); the CPU oracle ignores it.
  }];
}

def TT_PaddingOptionAttr : TT_I32Enum<"PaddingOption", [
  I32EnumAttrCase<"PAD_ZERO", 1, "zero">, I32EnumAttrCase<"PAD_NAN", 2, "nan">]> {
  let description = [{
    Value a block-pointer `tt.load` yields for elements outside the
    checked bounds: zero or NaN. Printed as its integer (`padding = 1`).
  }];
}

def TT_MemSemanticAttr : TT_I32Enum<"MemSemantic", [
  I32EnumAttrCase<"RELAXED", 1, "relaxed">, I32EnumAttrCase<"ACQUIRE", 2, "acquire">,
  I32EnumAttrCase<"RELEASE", 3, "release">, I32EnumAttrCase<"ACQUIRE_RELEASE", 4, "acq_rel">]> {
  let description = [{
    Memory ordering of an atomic: PTX's `.relaxed`, `.acquire`, `.release`,
    `.acq_rel` (the lowering appends it to `atom`).
  }];
}

def TT_MemSyncScopeAttr : TT_I32Enum<"MemSyncScope", [
  I32EnumAttrCase<"GPU", 1, "gpu">, I32EnumAttrCase<"CTA", 2, "cta">,
  I32EnumAttrCase<"SYSTEM", 3, "sys">]> {
  let description = [{
    The threads an atomic's ordering applies to: the GPU, the CTA, or the
    whole system (PTX's `.gpu`, `.cta`, `.sys`).
  }];
}

def TT_AtomicRMWAttr : TT_I32Enum<"RMWOp", [
  I32EnumAttrCase<"AND", 1, "and">, I32EnumAttrCase<"OR", 2, "or">,
  I32EnumAttrCase<"XOR", 3, "xor">, I32EnumAttrCase<"ADD", 4, "add">,
  I32EnumAttrCase<"FADD", 5, "fadd">, I32EnumAttrCase<"MAX", 6, "max">,
  I32EnumAttrCase<"MIN", 7, "min">, I32EnumAttrCase<"UMAX", 8, "umax">,
  I32EnumAttrCase<"UMIN", 9, "umin">, I32EnumAttrCase<"XCHG", 10, "exch">]> {
  let description = [{
    The operation of a `tt.atomic_rmw`. `add`, `and`, `or`, `xor`, `umax`
    and `umin` need integer elements, `fadd` float ones; `max`, `min` and
    `exch` take either (the verifier's rule). `max` / `min` compare signed,
    `umax` / `umin` unsigned.
  }];
}

def TT_ProgramDim : TT_I32Enum<"ProgramIDDim", [
  I32EnumAttrCase<"X", 0, "x">, I32EnumAttrCase<"Y", 1, "y">,
  I32EnumAttrCase<"Z", 2, "z">]> {
  let description = [{
    A grid axis: `x`, `y` or `z` (the CUDA block index / grid size axis
    the lowering reads).
  }];
}

def TT_RoundingModeAttr : TT_I32Enum<"RoundingMode", [
  I32EnumAttrCase<"RTZ", 0, "rtz">, I32EnumAttrCase<"RTNE", 1, "rtne">]> {
  let description = [{
    Rounding of a narrowing `tt.fp_to_fp`: to nearest even, or toward zero.
  }];
}

def TT_PropagateNanAttr : TT_I32Enum<"PropagateNan", [
  I32EnumAttrCase<"NONE", 0, "none">, I32EnumAttrCase<"ALL", 0xFFFF, "all">]> {
  let description = [{
    Whether `tt.clampf` returns NaN for a NaN input (`all`) or treats it
    as maxNum/minNum do (`none`).
  }];
}

def TT_InputPrecisionAttr : TT_I32Enum<"InputPrecision", [
  I32EnumAttrCase<"TF32", 0, "tf32">, I32EnumAttrCase<"TF32x3", 1, "tf32x3">,
  I32EnumAttrCase<"IEEE", 2, "ieee">, I32EnumAttrCase<"BF16x3", 3, "bf16x3">,
  I32EnumAttrCase<"BF16x6", 4, "bf16x6">]> {
  let description = [{
    How a float dot may round its inputs: `ieee` (exact products), `tf32`
    (inputs rounded to tf32 on tensor cores), and Triton's multi-pass
    emulations `tf32x3`, `bf16x3`, `bf16x6`. The CPU oracle computes every
    dot exactly whatever this says; tgpu's tensor-core lowering takes f32
    inputs only with `tf32`, and the FMA path computes in full precision.
  }];
}

def TT_ScaleDotElemTypeAttr : TT_I32Enum<"ScaleDotElemType", [
  I32EnumAttrCase<"E4M3", 0, "e4m3">, I32EnumAttrCase<"E5M2", 1, "e5m2">,
  I32EnumAttrCase<"E2M3", 2, "e2m3">, I32EnumAttrCase<"E3M2", 3, "e3m2">,
  I32EnumAttrCase<"E2M1", 4, "e2m1">, I32EnumAttrCase<"BF16", 5, "bf16">,
  I32EnumAttrCase<"FP16", 6, "fp16">]> {
  let description = [{
    The element format of a `tt.dot_scaled` operand: the OCP microscaling
    formats (fp8 e4m3 / e5m2, fp6 e2m3 / e3m2, fp4 e2m1, the last three
    held as bytes, fp4 two per byte) or plain bf16 / fp16.
  }];
}

def TT_DescriptorReduceKindAttr : TT_I32Enum<"DescriptorReduceKind", [
  I32EnumAttrCase<"ADD", 1, "add">, I32EnumAttrCase<"MIN", 2, "min">,
  I32EnumAttrCase<"MAX", 3, "max">, I32EnumAttrCase<"INC", 4, "inc">,
  I32EnumAttrCase<"DEC", 5, "dec">, I32EnumAttrCase<"AND", 6, "and">,
  I32EnumAttrCase<"OR", 7, "or">, I32EnumAttrCase<"XOR", 8, "xor">]> {
  let description = [{
    The reduction a `tt.descriptor_reduce` / `ttng.async_tma_reduce`
    applies between each stored element and the one already in memory
    (PTX `cp.reduce.async.bulk.tensor`'s `.add`, `.min`, `.max`, `.inc`,
    `.dec`, `.and`, `.or`, `.xor`), element by element and relaxed.
    Printed as a keyword before the descriptor.
  }];
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//
def TT_PtrType : TypeDef<Triton_Dialect, "Pointer"> {
  let mnemonic = "ptr";
  let summary = "pointer to a scalar (or, for block pointers, to a tensor)";
  let description = [{
    `!tt.ptr<T>` points into global memory (address space 1, left out when
    printed); `!tt.ptr<T, N>` names another address space (a non-negative
    integer below 2^31). T is an integer, float or pointer type, or a
    ranked tensor of scalars: `!tt.ptr<tensor<32x64xf16>>` is a block
    pointer, made by `tt.make_tensor_ptr`, which describes a whole tile of
    a strided array (its tensor must not hold pointers).

    Pointer arithmetic (`tt.addptr`) counts in elements of T. A pointer is
    64 bits wide: `tt.ptr_to_int` gives an i64, `tt.bitcast` casts between
    pointer types, and tensors of pointers are how ordinary loads and
    stores address memory, one pointer per element.

    ```mlir
    tt.func @f(%p: !tt.ptr<f32>, %shared: !tt.ptr<i8, 3>) {
      tt.return
    }
    ```
  }];
  let parameters = (ins
    TypeParameter<"Type", "what it points to: a scalar type, or a tensor for a block pointer">:$pointeeType,
    TypeParameter<"int", "1 (global) unless printed">:$addressSpace
  );
  let builders = [
    TypeBuilderWithInferredContext<(ins "Type":$pointeeType, "int":$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let skipDefaultBuilders = 1;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TT_TensorDescType : TypeDef<Triton_Dialect, "TensorDesc"> {
  let mnemonic = "tensordesc";
  let summary = "a tensor descriptor: a strided global array read and written a block at a time";
  let description = [{
    `!tt.tensordesc<tensor<SHAPExELEM[, ENCODING]>>` stands for a TMA
    tensor map: a strided array in global memory (its base, sizes and
    strides, made by `tt.make_tensor_descriptor` or passed in as a kernel
    argument) that `tt.descriptor_*` and `ttng.async_tma_*` ops access a
    block of SHAPE elements at a time. The block type is printed as a
    builtin tensor type; in TTGIR it carries the shared layout the block
    has once copied into shared memory (`#ttg.nvmma_shared`, ...).

    Integer elements may be signed or unsigned (`si8`, `ui32`, ...): the
    descriptor records the signedness the kernel gave it, while the
    tensors loaded from it and stored to it are signless; ops compare
    element types with the sign dropped (`getSignlessBlockType`).

    Verified: the block is a tensor of rank >= 1 with static, positive
    sizes, of integer or floating-point elements.

    From TTIR, `tgpu-compile` (sm_90) makes TMA copies of descriptor loads
    and stores (triton-nvidia-tma-lowering), takes a kernel's descriptor
    arguments as by-value CUtensorMaps, and writes the CUtensorMaps of
    descriptors made in the kernel into global scratch (sm_90a); the CPU
    oracle runs `tt.make_tensor_descriptor`, `tt.descriptor_load` and
    `tt.descriptor_store`. Gathers, scatters and reductions, descriptors
    outside kernel signatures and targets before sm_90 are not supported
    yet.

    ```mlir
    #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
    tt.func @f(%a: !tt.tensordesc<tensor<64x64xf16>>, %b: !tt.tensordesc<tensor<1x128xbf16, #shared>>,
               %c: !tt.tensordesc<tensor<32xui8>>) {
      tt.return
    }
    ```
  }];
  let parameters = (ins
    TypeParameter<"::mlir::RankedTensorType", "the block: shape, element type and shared layout">:$blockType
  );
  let assemblyFormat = "`<` $blockType `>`";
  let builders = [
    // Integer elements take the given signedness (what a frontend that
    // knows the argument's dtype records).
    TypeBuilder<(ins "::mlir::RankedTensorType":$blockType, "bool":$isSigned), [{
      if (auto intTy = ::llvm::dyn_cast<::mlir::IntegerType>(blockType.getElementType()))
        blockType = blockType.clone(::mlir::IntegerType::get($_ctxt, intTy.getWidth(),
            isSigned ? ::mlir::IntegerType::Signed : ::mlir::IntegerType::Unsigned));
      return $_get($_ctxt, blockType);
    }]>
  ];
  let extraClassDeclaration = [{
    // The block type with a signless element type: the type of the tensors
    // this descriptor loads and stores.
    ::mlir::RankedTensorType getSignlessBlockType() const;
  }];
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//
def TT_Float : AnyTypeOf<[F8E4M3FNUZ, F8E4M3FN, F8E4M3B11FNUZ, F8E5M2, F8E5M2FNUZ,
                          F16, BF16, F32, F64], "floating-point">;
def TT_FloatTensor : RankedTensorOf<[TT_Float]>;
def TT_FloatLike : AnyTypeOf<[TT_Float, TT_FloatTensor]>;

def TT_BoolTensor : RankedTensorOf<[I1]>;
def TT_BoolLike : AnyTypeOf<[I1, TT_BoolTensor]>;

def TT_Int : AnyTypeOf<[I1, I8, I16, I32, I64], "integer">;
def TT_IntTensor : RankedTensorOf<[TT_Int]>;
def TT_IntLike : AnyTypeOf<[TT_Int, TT_IntTensor]>;

def TT_I32Like : AnyTypeOf<[I32, RankedTensorOf<[I32]>]>;
def TT_I64Like : AnyTypeOf<[I64, RankedTensorOf<[I64]>]>;

def TT_Ptr : DialectType<Triton_Dialect,
    CPred<"::llvm::isa<::mlir::triton::PointerType>($_self)">, "ptr",
    "::mlir::triton::PointerType"> {
  let description = "Any `!tt.ptr` (the constraint tt operands use, alone or as a tensor element).";
}
def TT_PtrTensor : RankedTensorOf<[TT_Ptr]>;
def TT_PtrLike : AnyTypeOf<[TT_Ptr, TT_PtrTensor]>;

def TT_FpIntTensor : AnyTypeOf<[TT_FloatTensor, TT_IntTensor]>;
// One RankedTensorOf (not an AnyTypeOf of three) so that its C++ type is
// RankedTensorType: a scalar where a tensor belongs is then a parse error
// ("invalid kind of type"), as in Triton.
def TT_Tensor : RankedTensorOf<[TT_Float, TT_Int, TT_Ptr]>;

// A dimension index. I32Attr's generated getters are unsigned, so a negative
// value would read as ~4e9: reject it at the attribute instead.
def TT_AxisAttr : ConfinedAttr<I32Attr, [IntNonNegative]>;

def TT_Type : AnyTypeOf<[TT_FloatLike, TT_IntLike, TT_PtrLike]>;

#endif // TGPU_TRITON_BASE
