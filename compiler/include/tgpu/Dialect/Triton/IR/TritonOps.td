// Operations of the `tt` dialect. Assembly formats follow what Triton 3.x
// prints (a fact about the interface); traits and verifiers are ours.
#ifndef TGPU_TRITON_OPS
#define TGPU_TRITON_OPS

include "tgpu/Dialect/Triton/IR/TritonBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/CallInterfaces.td"

def GlobalMemory : Resource<"::mlir::triton::GlobalMemory">;

// Checks shared by every tt op: static, positive, power-of-two tensor shapes.
def TT_TensorShapeTrait : NativeOpTrait<"TensorShapeTrait">;
// All tensor operands and results carry the same layout encoding.
def TT_SameOperandsAndResultEncoding : NativeOpTrait<"SameOperandsAndResultEncoding">;
def TT_SameOperandsEncoding : NativeOpTrait<"SameOperandsEncoding">;

class TT_Op<string mnemonic, list<Trait> traits = []>
    : Op<Triton_Dialect, mnemonic, !listconcat(traits, [TT_TensorShapeTrait])>;

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//
class TT_CastOp<string mnemonic, Type src, Type res>
    : TT_Op<mnemonic, [Elementwise, SameOperandsAndResultShape,
                       TT_SameOperandsAndResultEncoding, Pure]> {
  let arguments = (ins src:$src);
  let results = (outs res:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TT_IntToPtrOp : TT_CastOp<"int_to_ptr", TT_I64Like, TT_PtrLike> {
  let summary = "reinterpret a 64-bit integer as a pointer";
  let description = [{
    Turns an i64 (or a tensor of i64) into a pointer (or a tensor of
    pointers) holding that byte address. Operand and result have the same
    shape and, in TTGIR, the same encoding.

    The CPU oracle keeps the address as it is. The GPU lowering has no
    pattern for this op: a kernel that still contains it after
    `make_ttgir` fails in `convert-triton-gpu-to-llvm`.

    ```mlir
    tt.func @f(%i: i64) -> !tt.ptr<f32> {
      %p = tt.int_to_ptr %i : i64 -> !tt.ptr<f32>
      tt.return %p : !tt.ptr<f32>
    }
    ```
  }];
}
def TT_PtrToIntOp : TT_CastOp<"ptr_to_int", TT_PtrLike, TT_I64Like> {
  let summary = "reinterpret a pointer as a 64-bit integer";
  let description = [{
    The inverse of `tt.int_to_ptr`: the byte address a pointer (or each
    pointer of a tensor) holds, as an i64. Shapes and encodings of operand
    and result agree.

    Not lowered to LLVM by tgpu (the CPU oracle runs it).

    ```mlir
    tt.func @f(%p: !tt.ptr<i8, 3>) -> i64 {
      %i = tt.ptr_to_int %p : !tt.ptr<i8, 3> -> i64
      tt.return %i : i64
    }
    ```
  }];
}
def TT_BitcastOp : TT_CastOp<"bitcast", TT_Type, TT_Type> {
  let summary = "reinterpret bits between types of equal width (pointers included)";
  let description = [{
    Reinterprets the bits of a scalar or of each element of a tensor as
    another type of the same width: integer, float or pointer (pointers
    count as 64 bits). Between pointer types it keeps the address.

    Verified: source and result are both scalars or both tensors (of the
    same shape and encoding), and their element widths are equal.

    Not lowered to LLVM by tgpu (`arith.bitcast` is, for non-pointer
    types); the CPU oracle runs it.

    ```mlir
    tt.func @f(%x: tensor<8xf32>, %p: !tt.ptr<f32>) {
      %bits = tt.bitcast %x : tensor<8xf32> -> tensor<8xi32>
      %q = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>
      tt.return
    }
    ```
  }];
  let hasVerifier = 1;
}

def TT_FpToFpOp : TT_Op<"fp_to_fp", [Elementwise, SameOperandsAndResultShape,
                                     TT_SameOperandsAndResultEncoding, Pure]> {
  let summary = "float conversion with fp8 types and explicit rounding";
  let description = [{
    Converts a float (or each element of a float tensor) to another float
    type, the fp8 types included. `rounding` is `rtne` (to nearest even)
    or `rtz` (toward zero).

    Verified: a narrowing conversion (fewer result bits) must give a
    `rounding`, a widening one must not; between types of one width it
    is optional. Shapes and encodings of operand and result agree.

    The CPU oracle runs it for f16, bf16, f32 and f64, and to and from
    f8E5M2 and f8E4M3FN as Triton's Hopper lowering does (PTX
    `cvt.rn.satfinite`; `rtz` only from f32 to f8E5M2; SEMANTICS.md §4).
    The GPU lowering decodes f8E5M2 and f8E4M3FN
    exactly into f16, bf16, f32 or f64, converts among those four (rtne),
    and narrows f16, bf16 and f32 to either fp8 type on sm_89 and later
    with the same `cvt.rn.satfinite` (and f32 to f8E5M2 with `rtz`);
    f64 to fp8, fp8 to fp8 and other `rtz` conversions are refused as not
    supported yet. Triton uses it mainly for fp8 conversions.

    ```mlir
    tt.func @f(%x: tensor<8xf32>) {
      %n = tt.fp_to_fp %x, rounding = rtne : tensor<8xf32> -> tensor<8xf16>
      %w = tt.fp_to_fp %n : tensor<8xf16> -> tensor<8xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_FloatLike:$src, OptionalAttr<TT_RoundingModeAttr>:$rounding);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat =
      "$src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Arithmetic and math
//===----------------------------------------------------------------------===//
def TT_ClampFOp : TT_Op<"clampf", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "clamp a float to [min, max]";
  let description = [{
    `min(max(x, min), max)` element by element, with IEEE maxNum/minNum.
    With `propagateNan = all` a NaN `x` gives NaN; with `none` a NaN `x`
    gives a bound, as maxNum/minNum do. All operands and the result have
    one type.

    Lowered register by register to `llvm.maxnum`/`llvm.minnum`, or to
    the NaN-propagating `llvm.maximum`/`llvm.minimum` for `all`.

    ```mlir
    tt.func @f(%x: tensor<8xf32>, %lo: tensor<8xf32>, %hi: tensor<8xf32>) {
      %c = tt.clampf %x, %lo, %hi, propagateNan = all : tensor<8xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$min, TT_FloatLike:$max,
                       TT_PropagateNanAttr:$propagateNan);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)";
}

def TT_PreciseSqrtOp : TT_Op<"precise_sqrt", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "correctly rounded square root";
  let description = [{
    The square root of a float (or of each element), rounded to nearest
    even, where `math.sqrt` may be approximate. Lowered to `llvm.sqrt`,
    which NVPTX selects as `sqrt.rn`.

    ```mlir
    tt.func @f(%x: tensor<8xf32>) {
      %r = tt.precise_sqrt %x : tensor<8xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_FloatLike:$x);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def TT_PreciseDivFOp : TT_Op<"precise_divf", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "correctly rounded division";
  let description = [{
    `x / y` for floats, rounded to nearest even (PTX `div.rn`), where
    `arith.divf` may be approximate in Triton's fast-math lowering.
    Operands and result have one type.

    ```mlir
    tt.func @f(%x: tensor<8xf32>, %y: tensor<8xf32>) {
      %q = tt.precise_divf %x, %y : tensor<8xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$y);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def TT_MulhiUIOp : TT_Op<"mulhiui", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "high half of the unsigned 2N-bit product";
  let description = [{
    For N-bit integers, the upper N bits of the 2N-bit product of `x` and
    `y` read as unsigned (`mul.hi.u32` / `mul.hi.u64` in PTX). The CPU
    oracle takes any integer width; the GPU lowering only i32 and i64.

    ```mlir
    tt.func @f(%a: tensor<8xi32>, %b: tensor<8xi32>) {
      %h = tt.mulhiui %a, %b : tensor<8xi32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_IntLike:$x, TT_IntLike:$y);
  let results = (outs TT_IntLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//
def TT_AddPtrOp : TT_Op<"addptr", [Pure, Elementwise, SameOperandsAndResultShape,
    TT_SameOperandsAndResultEncoding,
    TypesMatchWith<"result type matches ptr type", "result", "ptr", "$_self">]> {
  let summary = "advance pointers by a number of elements";
  let description = [{
    `ptr + offset * sizeof(pointee)` for a pointer, or element by element
    for a tensor of pointers; `offset` is an integer (tensor) of the same
    shape, of any width, read as signed. The result has the pointer
    operand's type.

    This is how kernels build the tensors of pointers that `tt.load` and
    `tt.store` take: splat the base pointer, then add a `tt.make_range`.
    The GPU lowering rejects it on block pointers (`tt.advance` moves
    those).

    ```mlir
    tt.func @f(%base: !tt.ptr<f32>) {
      %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
      %bases = tt.splat %base : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
      %ptrs = tt.addptr %bases, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_PtrLike:$ptr, TT_IntLike:$offset);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)";
  let hasFolder = 1;
}

def TT_AdvanceOp : TT_Op<"advance", [Pure,
    TypesMatchWith<"result type matches ptr type", "result", "ptr", "$_self">]> {
  let summary = "move a block pointer by per-dimension offsets";
  let description = [{
    Adds one i32 per dimension to the offsets of a block pointer made by
    `tt.make_tensor_ptr`; base, shape and strides stay. The verifier wants
    a block pointer (`!tt.ptr<tensor<...>>`) and as many offsets as its
    tensor has dimensions; the result has the operand's type.

    Not lowered to LLVM by tgpu (the CPU oracle runs block pointers).

    ```mlir
    tt.func @f(%p: !tt.ptr<tensor<32x64xf16>>, %dm: i32, %dn: i32) {
      %q = tt.advance %p, [%dm, %dn] : <tensor<32x64xf16>>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_Ptr:$ptr, Variadic<I32>:$offsets);
  let results = (outs TT_Ptr:$result);
  let assemblyFormat = "$ptr `,` `[` $offsets `]` attr-dict `:` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TT_MakeTensorPtrOp : TT_Op<"make_tensor_ptr", [Pure, SameVariadicOperandSize,
    TypesMatchWith<"base points to the block's element type", "result", "base",
                   "::mlir::triton::getBlockPointerBaseType($_self)">]> {
  let summary = "make a block pointer from a base, shape, strides and offsets";
  let description = [{
    Describes a tile of the result's tensor shape inside a strided array:
    `base` points to element 0 of the array, `shape` and `strides` (i64,
    in elements) give its extent and layout, `offsets` (i32) where the
    tile starts. Element `i` of the tile is at
    `base + sum_d (offsets[d] + i[d]) * strides[d]`. `order` lists the
    dimensions from the fastest-varying in memory to the slowest, a hint
    for code generation.

    Verified: the result is a block pointer; shape, strides and offsets
    each have one entry per dimension of its tensor; `order` is a
    permutation of them; `base` points to the tensor's element type.

    Loads and stores through block pointers may check bounds per
    dimension (`boundaryCheck`) and pad (`padding`). The CPU oracle runs
    them; the GPU lowering does not (Triton rewrites block pointers into
    tensors of pointers or TMA descriptors before this point).

    ```mlir
    tt.func @f(%base: !tt.ptr<f16>, %m: i64, %n: i64, %o: i32) {
      %c1 = arith.constant 1 : i64
      %p = tt.make_tensor_ptr %base, [%m, %n], [%n, %c1], [%o, %o] {order = array<i32: 1, 0>} : <tensor<32x64xf16>>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_Ptr:$base, Variadic<I64>:$shape, Variadic<I64>:$strides,
                       Variadic<I32>:$offsets, DenseI32ArrayAttr:$order);
  let results = (outs TT_Ptr:$result);
  let assemblyFormat = "$base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TT_LoadOp : TT_Op<"load", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"result matches ptr type", "ptr", "result",
                   "::mlir::triton::getPointeeType($_self)">,
    OptionalTypesMatchWith<"mask type matches ptr type", "ptr", "mask", "::mlir::triton::getI1SameShape(::mlir::triton::getPointeeType($_self))">,
    OptionalTypesMatchWith<"other matches ptr type", "ptr", "other", "::mlir::triton::getPointeeType($_self)">]> {
  let summary = "load through a tensor of pointers (or a block pointer)";
  let description = [{
    Loads through a pointer, a tensor of pointers (one element each) or a
    block pointer (the whole tile). The result has the pointee type, in
    the shape (and encoding) of the pointer operand.

    `mask` (i1, same shape) turns elements off: they read no memory and
    yield `other` (same type as the result), or 0 without it. The CPU
    oracle reports an element that is on but outside every buffer, or
    misaligned, as undefined behaviour.

    Verified: `other` needs a `mask`; a block-pointer load takes neither,
    and only it may carry `boundaryCheck` (dimensions of the tile whose
    out-of-bounds elements are not read) and `padding` (what they yield:
    1 = zero, 2 = NaN).

    The hints `cacheModifier = ...` (attribute `cache`),
    `evictionPolicy = ...` (attribute `evict`) and `isVolatile` are kept
    and printed. A volatile load also counts as a write to global memory,
    so no pass removes or merges it, and the pipeliner leaves it
    synchronous. The GPU lowering emits predicated `ld.global`, up to 128
    bits wide where AxisInfo proves the pointers contiguous and aligned,
    with the hints as PTX qualifiers: `.ca`, `.cg`, `.cs`, `.cv` (a load's
    `wb`/`wt` is left out, as Triton leaves it out), `.L1::evict_first` /
    `.L1::evict_last` with an L2 `createpolicy` of the same priority, and
    `ld.volatile`. PTX has no access with both a cache operator and an
    eviction priority, nor a volatile one with either: those loads are
    refused with a located error. It rejects block pointers.

    The canonicalizer drops a constant all-true mask (and the `other`
    with it) and replaces a load under a constant all-false mask by its
    `other` when it has one.

    ```mlir
    tt.func @f(%ptrs: tensor<64x!tt.ptr<f16>>, %m: tensor<64xi1>, %o: tensor<64xf16>) {
      %a = tt.load %ptrs : tensor<64x!tt.ptr<f16>>
      %b = tt.load %ptrs, %m, %o cacheModifier = cg evictionPolicy = evict_last : tensor<64x!tt.ptr<f16>>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_PtrLike:$ptr, Optional<TT_BoolLike>:$mask, Optional<TT_Type>:$other,
      DefaultValuedAttr<DenseI32ArrayAttr, "::llvm::ArrayRef<int32_t>{}">:$boundaryCheck,
      OptionalAttr<TT_PaddingOptionAttr>:$padding,
      DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::triton::CacheModifier::NONE">:$cache,
      DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::triton::EvictionPolicy::NORMAL">:$evict,
      DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def TT_StoreOp : TT_Op<"store", [MemoryEffects<[MemWrite<GlobalMemory>]>,
    TypesMatchWith<"value type matches ptr type", "ptr", "value",
                   "::mlir::triton::getPointeeType($_self)">,
    OptionalTypesMatchWith<"mask type matches ptr type", "ptr", "mask", "::mlir::triton::getI1SameShape(::mlir::triton::getPointeeType($_self))">]> {
  let summary = "store through a tensor of pointers (or a block pointer)";
  let description = [{
    Stores `value` (the pointee type, in the pointer operand's shape)
    through a pointer, a tensor of pointers or a block pointer. Elements
    whose `mask` is false are not written.

    Verified: a block-pointer store takes no `mask`, and only it may carry
    `boundaryCheck` (dimensions whose out-of-bounds elements are skipped).
    `cacheModifier` and `evictionPolicy` (attributes `cache`, `evict`) are
    kept and printed; the lowering emits predicated `st.global` (vectorised
    like `tt.load`), each element written by one thread only, with `.wb`,
    `.cg`, `.cs`, `.wt` or an eviction priority as for `tt.load` (a store's
    `ca`/`cv` is left out); block pointers are rejected.

    The CPU oracle treats two elements of one store that write different
    data to one address, and stores of different data by two programs to
    one byte, as undefined behaviour (`store-conflict`, `store-race`).

    The canonicalizer drops a constant all-true mask and erases a store
    under a constant all-false mask.

    ```mlir
    tt.func @f(%ptrs: tensor<64x!tt.ptr<f16>>, %v: tensor<64xf16>, %m: tensor<64xi1>) {
      tt.store %ptrs, %v, %m cacheModifier = wt : tensor<64x!tt.ptr<f16>>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_PtrLike:$ptr, TT_Type:$value, Optional<TT_BoolLike>:$mask,
      DefaultValuedAttr<DenseI32ArrayAttr, "::llvm::ArrayRef<int32_t>{}">:$boundaryCheck,
      DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::triton::CacheModifier::NONE">:$cache,
      DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::triton::EvictionPolicy::NORMAL">:$evict);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def TT_AtomicRMWOp : TT_Op<"atomic_rmw", [SameOperandsAndResultShape,
    TT_SameOperandsAndResultEncoding,
    MemoryEffects<[MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>,
    TypesMatchWith<"ptr type matches value type", "val", "ptr",
                   "::mlir::triton::getPointerTypeSameShape($_self)">,
    OptionalTypesMatchWith<"mask type matches value type", "val", "mask", "::mlir::triton::getI1SameShape($_self)">]> {
  let summary = "atomic read-modify-write; returns the old value";
  let description = [{
    For each element whose `mask` is on, atomically replaces `*ptr` with
    `op(*ptr, val)` and returns the value it replaced. The operation
    (`add`, `fadd`, `and`, `or`, `xor`, `max`, `min`, `umax`, `umin`,
    `exch`), the memory ordering `sem` (`relaxed`, `acquire`, `release`,
    `acq_rel`) and the `scope` (`cta`, `gpu`, `sys`) come first.

    Verified: elements are 16-, 32- or 64-bit integers or floats; `fadd`
    needs floats; `add`, `and`, `or`, `xor`, `umax` and `umin` need
    integers; `max`, `min` and `exch` take either. `ptr`, `val`, `mask`
    and the result have one shape and encoding.

    Lowered to one predicated PTX `atom.<sem>.<scope>.global` per element,
    done by a single owning thread. PTX has no atomic for some verified
    combinations, which the lowering rejects: integers other than 32 and
    64 bits, float `max`/`min`, `exch` on 16-bit floats. The CPU oracle
    applies the elements in row-major order and the programs in grid
    order.

    ```mlir
    tt.func @f(%p: tensor<16x!tt.ptr<i32>>, %v: tensor<16xi32>, %m: tensor<16xi1>) {
      %old = tt.atomic_rmw add, acq_rel, gpu, %p, %v, %m : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<16xi1>) -> tensor<16xi32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_AtomicRMWAttr:$atomic_rmw_op, TT_PtrLike:$ptr, TT_Type:$val,
                       Optional<TT_BoolLike>:$mask, TT_MemSemanticAttr:$sem,
                       TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:`
    functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

def TT_AtomicCASOp : TT_Op<"atomic_cas", [SameOperandsAndResultShape,
    TT_SameOperandsAndResultEncoding,
    TypesMatchWith<"ptr type matches cmp type", "cmp", "ptr", "getPointerTypeSameShape($_self)">,
    TypesMatchWith<"ptr type matches value type", "val", "ptr", "getPointerTypeSameShape($_self)">,
    MemoryEffects<[MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>]> {
  let summary = "atomic compare-and-swap; returns the old value";
  let description = [{
    For each element, atomically: if `*ptr == cmp`, store `val`; return
    the old `*ptr` either way. `sem` and `scope` are as for
    `tt.atomic_rmw`.

    Verified: `cmp`, `val` and the result have the pointee type of `ptr`
    (16-, 32- or 64-bit integers or floats), all of one shape and
    encoding. The lowering emits `atom.<sem>.<scope>.global.cas.b32/.b64`
    and rejects 16-bit elements.

    ```mlir
    tt.func @f(%p: tensor<16x!tt.ptr<i32>>, %cmp: tensor<16xi32>, %v: tensor<16xi32>) {
      %old = tt.atomic_cas acq_rel, gpu, %p, %cmp, %v : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_PtrLike:$ptr, TT_Type:$cmp, TT_Type:$val,
                       TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:` functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//
def TT_SplatOp : TT_Op<"splat", [Pure, SameOperandsAndResultElementType]> {
  let summary = "fill a tensor with a scalar";
  let description = [{
    A tensor of the result's shape (and encoding) with every element equal
    to the scalar operand, or to the one element of a rank-0 tensor operand
    (Triton reads both). The verifier rejects a tensor operand of rank 1 or
    more, which Triton leaves unchecked (use `tt.broadcast`). Lowered by
    giving every register of every thread the value; no data moves.

    ```mlir
    tt.func @f(%x: f32) {
      %t = tt.splat %x : f32 -> tensor<4x8xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TT_UnsplatOp : TT_Op<"unsplat", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "the single element of a one-element tensor";
  let description = [{
    The inverse of `tt.splat` for tensors of exactly one element (of any
    rank): the verifier checks the element count; the result type (the
    element type) is inferred, so only the source type is printed. Not lowered to LLVM by tgpu; the CPU oracle runs it.

    ```mlir
    tt.func @f(%t: tensor<1xi32>) -> i32 {
      %x = tt.unsplat %t : tensor<1xi32>
      tt.return %x : i32
    }
    ```
  }];
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def TT_ExpandDimsOp : TT_Op<"expand_dims", [Pure, SameOperandsAndResultElementType]> {
  let summary = "insert a dimension of size 1 at `axis`";
  let description = [{
    The same elements in the same row-major order, with a new dimension
    of size 1 inserted before dimension `axis` (0 to the source rank).

    Verified: the result shape is the source shape with the 1 inserted;
    source and result both have encodings or neither, and with `#ttg`
    layouts the source's is `#ttg.slice<{dim = axis, parent = R}>` of the
    result's layout R (the layout `tt.reduce` along `axis` would give).
    Lowered without moving data.

    The canonicalizer makes `expand_dims(splat x)` a splat and moves a
    `tt.broadcast` source after it (`broadcast(expand_dims x)`), where it
    can meet another broadcast.

    ```mlir
    tt.func @f(%t: tensor<4x8xf32>) {
      %e = tt.expand_dims %t {axis = 1 : i32} : tensor<4x8xf32> -> tensor<4x1x8xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_Tensor:$src, TT_AxisAttr:$axis);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasCanonicalizeMethod = 1;
  let hasFolder = 1;
}

def TT_ReshapeOp : TT_Op<"reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "reinterpret a tensor with another shape of the same size";
  let description = [{
    The source's elements, in row-major order, laid out in the result's
    shape. Verified: equal element counts; both have encodings or neither.

    `allow_reorder` lets the compiler return the elements in another
    order; tgpu keeps row-major order wherever the layouts let it do so
    without moving data between threads (the CPU oracle always does),
    and otherwise, with the flag, keeps each thread's registers in order
    as Triton does. Without the flag a reshape that would move data
    between threads is rejected by the lowering (it needs a
    `ttg.convert_layout`). `efficient_layout` marks a result layout chosen
    on purpose; the canonicalizer then leaves converts around it alone.

    The canonicalizer makes `reshape(splat x)` a splat and, on tensors
    without encodings, merges `reshape(reshape x)` into one reshape
    (allowing reordering if either did); `efficient_layout` reshapes stay.

    ```mlir
    tt.func @f(%t: tensor<4x8xf32>) {
      %flat = tt.reshape %t : tensor<4x8xf32> -> tensor<32xf32>
      %any = tt.reshape %t allow_reorder : tensor<4x8xf32> -> tensor<8x4xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_Tensor:$src, UnitAttr:$allow_reorder, UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)? attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasCanonicalizeMethod = 1;
  let hasFolder = 1;
}

def TT_BroadcastOp : TT_Op<"broadcast", [Pure, SameOperandsAndResultElementType,
                                         TT_SameOperandsAndResultEncoding]> {
  let summary = "grow dimensions of size 1";
  let description = [{
    Repeats the source along each dimension where it has size 1 and the
    result is larger. Verified: same rank; every other dimension has the
    same size in both; same encoding. Lowered without moving data (each
    result register reads the operand register holding its element).

    The canonicalizer makes `broadcast(splat x)` a splat and
    `broadcast(broadcast x)` one broadcast.

    ```mlir
    tt.func @f(%t: tensor<4x1x8xf32>) {
      %b = tt.broadcast %t : tensor<4x1x8xf32> -> tensor<4x2x8xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let hasFolder = 1;
}

def TT_CatOp : TT_Op<"cat", [NoMemoryEffect, SameTypeOperands, SameOperandsAndResultElementType]> {
  let summary = "concatenate two tensors along dim 0 (element order unspecified)";
  let description = [{
    A tensor holding the elements of `lhs` and `rhs` (which have one
    type). Verified: the result has the operands' rank and twice their
    element count.

    Triton leaves the order of the result's elements unspecified (it
    appends registers). tgpu concatenates along dimension 0 in order, in
    the CPU oracle and in the lowering (in registers where the layouts
    allow, otherwise through shared memory); comparisons with the GPU
    treat the result as a multiset.

    ```mlir
    tt.func @f(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
      %c = tt.cat %a, %b : tensor<4x8xf32> -> tensor<8x8xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def TT_JoinOp : TT_Op<"join", [NoMemoryEffect, SameTypeOperands]> {
  let summary = "stack two tensors along a new minor dimension of size 2";
  let description = [{
    `result[i..., 0] = lhs[i...]` and `result[i..., 1] = rhs[i...]`.
    Verified: `lhs` and `rhs` have one type; the result has their shape
    with a trailing 2 and their element type. The lowering needs the new
    dimension to lie in registers (the result layout keeps both halves in
    one thread).

    ```mlir
    tt.func @f(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
      %j = tt.join %a, %b : tensor<4x8xf32> -> tensor<4x8x2xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def TT_SplitOp : TT_Op<"split", [NoMemoryEffect,
    DeclareOpInterfaceMethods<InferTypeOpInterface>,
    TypesMatchWith<"outLHS and outRHS types match", "outLHS", "outRHS", "$_self">]> {
  let summary = "split the last dimension (of size 2) into two tensors";
  let description = [{
    The inverse of `tt.join`: `outLHS` is `src[..., 0]`, `outRHS` is
    `src[..., 1]`. Verified: the source's last dimension has size 2; both
    results have one type, the source shape without that dimension and
    the source's element type. The lowering needs each thread to hold
    both halves of the last dimension.

    ```mlir
    tt.func @f(%t: tensor<4x8x2xf32>) {
      %lo, %hi = tt.split %t : tensor<4x8x2xf32> -> tensor<4x8xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$outLHS, TT_Tensor:$outRHS);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($outLHS)";
  // Layouts are compared as linear layouts, not as attributes.
  let extraClassDeclaration = [{
    static bool isCompatibleReturnTypes(::mlir::TypeRange inferred, ::mlir::TypeRange actual);
  }];
}

def TT_TransOp : TT_Op<"trans", [Pure, SameOperandsAndResultElementType]> {
  let summary = "permute the dimensions of a tensor";
  let description = [{
    Result dimension `i` is source dimension `order[i]`. Verified: `order`
    is a permutation of the source's dimensions; the result's sizes are
    the permuted source sizes. Lowered without moving data when the
    layouts match (`ttg.convert_layout` moves it otherwise); the
    canonicalizer turns an identity `trans` of distributed tensors into a
    `ttg.convert_layout`. An identity `trans` that changes no type folds
    away, and `trans(trans x)` folds into one `trans` of the composed
    order.

    ```mlir
    tt.func @f(%t: tensor<4x8xf32>) {
      %r = tt.trans %t {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// SPMD
//===----------------------------------------------------------------------===//
def TT_GetProgramIdOp : TT_Op<"get_program_id", [Pure]> {
  let summary = "this program's index along a grid axis";
  let description = [{
    The program's coordinate along `x`, `y` or `z` of the launch grid, as
    an i32. Lowered to the CTA index (`nvvm.read.ptx.sreg.ctaid`).

    ```mlir
    tt.func @f() -> i32 {
      %pid = tt.get_program_id x : i32
      tt.return %pid : i32
    }
    ```
  }];
  let arguments = (ins TT_ProgramDim:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def TT_GetNumProgramsOp : TT_Op<"get_num_programs", [Pure]> {
  let summary = "the grid's size along an axis";
  let description = [{
    The number of programs along `x`, `y` or `z` of the launch grid, as
    an i32. Lowered to the grid size (`nvvm.read.ptx.sreg.nctaid`).

    ```mlir
    tt.func @f() -> i32 {
      %n = tt.get_num_programs y : i32
      tt.return %n : i32
    }
    ```
  }];
  let arguments = (ins TT_ProgramDim:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def TT_MakeRangeOp : TT_Op<"make_range", [Pure]> {
  let summary = "the 1-D i32 tensor [start, end)";
  let description = [{
    The tensor `start, start + 1, ..., end - 1`. Verified: the result is
    a 1-D tensor of i32 with `end - start` elements, and `start < end`
    (so, with the shape rule of every tt op, the size is a power of two).

    ```mlir
    tt.func @f() {
      %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
      tt.return
    }
    ```
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs TT_IntTensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Dot, reductions, scans
//===----------------------------------------------------------------------===//
def TT_DotOp : TT_Op<"dot", [Pure,
    TypesMatchWith<"result's type matches accumulator's type", "d", "c", "$_self">]> {
  let summary = "matrix product with accumulation, d = a * b + c, on 2-D (or batched 3-D) tiles";
  let description = [{
    Matrix product with accumulation: `a` is [M, K], `b` [K, N], `c` and
    the result `d` [M, N] (one leading batch dimension, equal in all
    four, makes them 3-D). `a` and `b` are both float or both integer,
    and `c` is float exactly when they are; `d` has `c`'s type.

    `inputPrecision` (default `ieee`) says how float inputs may be
    rounded: `tf32` lets tensor cores round f32 inputs to tf32, `tf32x3`,
    `bf16x3` and `bf16x6` are Triton's multi-pass emulations.
    `maxNumImpreciseAcc` (default 0, must not be negative) is Triton's
    bound on fp8 products accumulated at lower precision on Hopper.

    Encodings: `a`, `b` and `c` all have one or none. With `#ttg` layouts,
    `a` must be `#ttg.dot_op<{opIdx = 0, parent = C}>` and `b`
    `#ttg.dot_op<{opIdx = 1, parent = C}>` of the result's layout C, with
    the same `kWidth`.

    The CPU oracle computes `c + a·b` exactly and rounds once (integers
    wrap). The lowering takes 2-D dots only: with a `#ttg.blocked` C,
    one FMA chain per result element; with `#ttg.nvidia_mma` version 2,
    `mma.sync` tiles (f16 into f32 or f16, bf16 into f32, f32 only with
    `inputPrecision = tf32`; M a multiple of 16, N of 8, K of the
    instruction's K). Version 3 (wgmma) is not lowered.

    ```mlir
    tt.func @f(%a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %c: tensor<16x64xf32>) {
      %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x64xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_FpIntTensor:$a, TT_FpIntTensor:$b, TT_FpIntTensor:$c,
      DefaultValuedAttr<TT_InputPrecisionAttr, "::mlir::triton::InputPrecision::IEEE">:$inputPrecision,
      DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc);
  let results = (outs TT_FpIntTensor:$d);
  let assemblyFormat = [{
    $a`,` $b`,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:`
    type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TT_DotScaledOp : TT_Op<"dot_scaled", [Pure, AttrSizedOperandSegments,
    TypesMatchWith<"result's type matches accumulator's type", "d", "c", "$_self">]> {
  let summary = "matrix product of microscaled operands, d = scale(a) * scale(b) + c";
  let description = [{
    A `tt.dot` whose operands are in the OCP microscaling (MX) formats:
    `a_elem_type` / `b_elem_type` name each operand's format, and the
    optional `a_scale` / `b_scale` hold one scale per block of 32 (16 for
    e4m3 scales) consecutive K elements, per row of `a` ([M, K/32]) and per
    column of `b` ([N, K/32]). fp4 (`e2m1`) operands are bytes holding two
    elements, packed along K (`lhs_k_pack` / `rhs_k_pack`, default true) or
    along M / N, so their K (or M, N) extent in the tensor type is half the
    logical one. `fastMath` lets the lowering skip NaN handling of scales.

    Verified (Triton's rules and texts): 2-D or batched 3-D shapes that
    match after unpacking fp4, and scale shapes that match M, N and K over
    the scale block.

    Read and verified; tgpu has no lowering for it (tgpu-compile reports
    it), and the CPU oracle does not run it.

    ```mlir
    tt.func @f(%a: tensor<128x64xi8>, %sa: tensor<128x4xi8>, %b: tensor<128x64xf8E4M3FN>, %c: tensor<128x64xf32>) {
      %d = tt.dot_scaled %a scale %sa, %b, %c lhs = e2m1 rhs = e4m3 {fastMath = false} : tensor<128x64xi8>, tensor<128x4xi8> * tensor<128x64xf8E4M3FN> -> tensor<128x64xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins RankedTensorOf<[TT_Float, I8]>:$a, RankedTensorOf<[TT_Float, I8]>:$b,
      TT_FloatTensor:$c, Optional<RankedTensorOf<[TT_Float, I8]>>:$a_scale,
      Optional<RankedTensorOf<[TT_Float, I8]>>:$b_scale,
      TT_ScaleDotElemTypeAttr:$a_elem_type, TT_ScaleDotElemTypeAttr:$b_elem_type,
      BoolAttr:$fastMath, DefaultValuedAttr<BoolAttr, "true">:$lhs_k_pack,
      DefaultValuedAttr<BoolAttr, "true">:$rhs_k_pack);
  let results = (outs TT_FloatTensor:$d);
  let assemblyFormat = [{
    $a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c
    `lhs` `=` $a_elem_type `rhs` `=` $b_elem_type attr-dict
    `:` type($a) (`,` type($a_scale)^)? `*` type($b) (`,` type($b_scale)^)? `->` type($d)
  }];
  let hasVerifier = 1;
}

def TT_ReduceOp : TT_Op<"reduce", [Pure, SingleBlock, SameOperandsShape,
    TT_SameOperandsEncoding]> {
  let summary = "reduce tensors along `axis` with the combine region";
  let description = [{
    Reduces N tensors of one shape (`srcs`, N >= 1) along `axis` together,
    combining with the region: its block takes 2N scalars (N accumulated
    values, then the N next elements, of the operands' element types) and
    yields N with `tt.reduce.return`. Result i has operand i's element
    type and shape without `axis`: a scalar when the operand is 1-D, and
    with a `#ttg` layout L on the operands, the tensor's layout is
    `#ttg.slice<{dim = axis, parent = L}>`. All operands have one
    encoding. Verified: all of the above.

    The combine must be associative and commutative for the GPU result to
    match: the CPU oracle folds left to right from the first element, the
    lowering combines in registers, then across lanes with butterfly
    shuffles, then across warps through shared memory.

    Printed in the generic form, as Triton prints it.

    ```mlir
    tt.func @f(%x: tensor<4x8xf32>) {
      %sum = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%acc: f32, %next: f32):
        %s = arith.addf %acc, %next : f32
        tt.reduce.return %s : f32
      }) : (tensor<4x8xf32>) -> tensor<4xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, TT_AxisAttr:$axis);
  let results = (outs Variadic<TT_Type>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_ReduceReturnOp : TT_Op<"reduce.return", [HasParent<"ReduceOp">, Pure, Terminator, ReturnLike]> {
  let summary = "terminator of a tt.reduce combine region";
  let description = [{
    Yields the combined values, one per operand of the enclosing
    `tt.reduce`, whose verifier checks their number and types. See
    `tt.reduce` for an example.
  }];
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_ScanOp : TT_Op<"scan", [Pure, SingleBlock, TT_SameOperandsAndResultEncoding,
                               SameOperandsAndResultShape]> {
  let summary = "inclusive scan along `axis` with the combine region";
  let description = [{
    Inclusive prefix combination of N tensors of one shape along `axis`:
    element i of result k combines elements 0..i of the operands (i..end
    when `reverse` is true). The region is as for `tt.reduce` (2N scalars
    in, N out, ending with `tt.scan.return`) and receives the earlier
    value first. Each result has its operand's type; operands and
    results share one encoding. Verified: all of the above.

    The combine must be associative: the GPU lowering scans in registers,
    then across lanes (Hillis-Steele shuffles), then across warps through
    shared memory; the CPU oracle goes in order.

    ```mlir
    tt.func @f(%x: tensor<4x8xf32>) {
      %run = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
      ^bb0(%earlier: f32, %later: f32):
        %m = arith.maximumf %earlier, %later : f32
        tt.scan.return %m : f32
      }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, TT_AxisAttr:$axis, BoolAttr:$reverse);
  let results = (outs Variadic<TT_Tensor>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_ScanReturnOp : TT_Op<"scan.return", [HasParent<"ScanOp">, Pure, Terminator, ReturnLike]> {
  let summary = "terminator of a tt.scan combine region";
  let description = [{
    Yields the combined values, one per operand of the enclosing
    `tt.scan`, whose verifier checks their number and types. See
    `tt.scan` for an example.
  }];
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_HistogramOp : TT_Op<"histogram", [Pure,
    OptionalTypesMatchWith<"mask matches the source's shape", "src", "mask",
                           "::mlir::triton::getI1SameShape($_self)">]> {
  let summary = "count the values in [0, bins); bins = the result's size";
  let description = [{
    Result element b counts the elements of the 1-D integer tensor `src`
    equal to b whose optional `mask` is on; values outside [0, bins) are
    not counted. Verified: `src` and the result are 1-D; `mask` has the
    source's shape.

    Lowered through shared memory: the bins are cleared, each element is
    added once with a shared-memory atomic, and every thread reads back
    the bins it holds; the lowering takes i32 or i64 counts.

    ```mlir
    tt.func @f(%x: tensor<8xi32>, %m: tensor<8xi1>) {
      %h = tt.histogram %x, %m : tensor<8xi32> -> tensor<16xi32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_IntTensor:$src, Optional<TT_BoolTensor>:$mask);
  let results = (outs TT_IntTensor:$result);
  let assemblyFormat = "$src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_GatherOp : TT_Op<"gather", [Pure]> {
  let summary = "gather along `axis` from `src` at `indices`";
  let description = [{
    `result[i] = src[i with its axis coordinate replaced by indices[i]]`.
    Verified: `src` and `indices` have one rank, and the same size in
    every dimension but `axis`; the result has the indices' shape and the
    source's element type. An index outside [0, size of `axis`) is
    undefined behaviour (the CPU oracle reports it).

    `efficient_layout` marks layouts chosen on purpose; without it the
    canonicalizer lets the source come in any layout. Lowered through
    shared memory (the source written, a barrier, the result read); the
    indices and the result must share a layout.

    ```mlir
    tt.func @f(%src: tensor<8xf32>, %idx: tensor<8xi32>) {
      %g = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_Tensor:$src, TT_IntTensor:$indices, TT_AxisAttr:$axis,
                       UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src `[` $indices `]` attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// External code, debugging
//===----------------------------------------------------------------------===//
def TT_MapElementwiseOp : TT_Op<"map_elementwise", [TT_SameOperandsAndResultEncoding,
    SameOperandsAndResultShape, RecursiveMemoryEffects]> {
  let summary = "apply a scalar region to the elements of tensors";
  let description = [{
    Runs the region once per group of `pack` consecutive elements (a power
    of two): its arguments are `pack` elements of the first operand, then
    `pack` of the second, and so on; `tt.map_elementwise.return` yields
    `pack` elements of each result in the same way. All operands and
    results have one shape and encoding. The region may not write memory
    (a masked-off element would be written too).

    Verified with Triton's rules and texts (argument count and types,
    returned types, no stores). Printed in the generic form, as Triton
    does. Not lowered by tgpu and not run by the CPU oracle.

    ```mlir
    tt.func @f(%x: tensor<64xi32>) {
      %y = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
      ^bb0(%e: i32):
        %d = arith.addi %e, %e : i32
        tt.map_elementwise.return %d : i32
      }) : (tensor<64xi32>) -> tensor<64xi32>
      tt.return
    }
    ```
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$pack);
  let results = (outs Variadic<TT_Tensor>:$result);
  let regions = (region AnyRegion:$scalarOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_MapElementwiseReturnOp : TT_Op<"map_elementwise.return", [
    HasParent<"MapElementwiseOp">, Pure, Terminator, ReturnLike]> {
  let summary = "the elements a tt.map_elementwise region yields";
  let description = [{
    Ends a `tt.map_elementwise` region with `pack` scalars per result.
    See `tt.map_elementwise` for an example.
  }];
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

def TT_ExternElementwiseOp : TT_Op<"extern_elementwise", [Elementwise,
    TT_SameOperandsAndResultEncoding, SameVariadicOperandSize,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "call a device library function element by element";
  let description = [{
    Calls the function named `symbol` once per element, with the
    operands' elements as arguments (tensor operands have one shape and
    encoding; scalars are used for every element). `pure` means the
    function has no side effects: the op then has none and LLVM may
    move or drop the calls; otherwise it reads and writes global memory.

    The lowering declares `symbol` in the module and calls it; libdevice
    functions (`__nv_*`) are linked in when PTX is made. `libname` and
    `libpath` name Triton's library search and are not used by tgpu. The
    CPU oracle knows the libdevice math functions and refuses other
    symbols.

    ```mlir
    tt.func @f(%x: tensor<8xf32>) {
      %y = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<8xf32>) -> tensor<8xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins Variadic<TT_Type>:$srcs, StrAttr:$libname, StrAttr:$libpath,
                       StrAttr:$symbol, BoolAttr:$pure);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, $result)";
}

def TT_ElementwiseInlineAsmOp : TT_Op<"elementwise_inline_asm", [Elementwise,
    TT_SameOperandsAndResultEncoding,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "inline PTX applied to packs of `packed_element` elements";
  let description = [{
    Runs `asm_string` with LLVM inline-asm `constraints` (outputs first,
    as in `"=r,r"`), once per group of `packed_element` elements of each
    thread; `$0...` name the outputs, then the inputs. `pure` as for
    `tt.extern_elementwise`.

    Verified: `packed_element` is positive and divides the element count;
    all operands and results have one shape. In the lowering, elements
    narrower than 32 bits travel packed into 32-bit registers (2 x f16,
    4 x i8), as Triton does. The CPU oracle runs only a small PTX subset
    with `packed_element = 1` (see `oracles/cpu/SEMANTICS.md`).

    ```mlir
    tt.func @f(%x: tensor<8xf32>) {
      %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<8xf32> -> tensor<8xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints, BoolAttr:$pure,
                       I32Attr:$packed_element, Variadic<TT_Type>:$args);
  let results = (outs Variadic<TT_Type>:$result);
  let assemblyFormat = "$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)";
  let hasVerifier = 1;
}

def TT_PrintOp : TT_Op<"print", [MemoryEffects<[MemWrite<GlobalMemory>]>]> {
  let summary = "device-side print of scalars and tensors";
  let description = [{
    Prints `prefix` and the values of `args` (scalars or tensors), in
    hexadecimal when `hex` is set; `isSigned` (verified: one entry per
    argument) says how to print each integer argument.

    Lowered to CUDA's `vprintf`: one line per element a thread holds, in
    Triton's format `pid (x, y, z) idx (i, ...)<prefix><value>`. The CPU
    oracle prints one line per op and program with all values in
    row-major order.

    ```mlir
    tt.func @f(%x: tensor<8xi32>) {
      tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<8xi32>
      tt.return
    }
    ```
  }];
  let arguments = (ins StrAttr:$prefix, BoolAttr:$hex, Variadic<TT_Type>:$args,
                       DenseI32ArrayAttr:$isSigned);
  let assemblyFormat = "$prefix attr-dict (`:` $args^ `:` type($args))?";
  let hasVerifier = 1;
}

def TT_AssertOp : TT_Op<"assert", [MemoryEffects<[MemWrite<GlobalMemory>]>]> {
  let summary = "device-side assert: abort with `message` where `condition` is false";
  let description = [{
    Fails when any element of the i1 `condition` is false. Lowered to a
    branch calling CUDA's `__assertfail` with the message and the op's
    source location; the CPU oracle stops with `assertion-failed`.

    ```mlir
    tt.func @f(%ok: tensor<8xi1>) {
      tt.assert %ok, "index out of range" : tensor<8xi1>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//
def TT_FuncOp : TT_Op<"func", [AffineScope, AutomaticAllocationScope,
    CallableOpInterface, FunctionOpInterface, IsolatedFromAbove, OpAsmOpInterface,
    HasParent<"ModuleOp">]> {
  let summary = "a kernel or device function";
  let description = [{
    A function in the form of `func.func`: name, signature, optional
    visibility, argument and result attributes, and a body (none for a
    declaration). It must sit directly in the module. Verified: the entry
    block's arguments have the signature's types.

    Public functions are kernels: the lowering makes each an NVVM kernel
    of `ttg.num-warps` x 32 threads, the others internal functions;
    `tgpu-run` runs the one named
    by `--kernel`, or the module's only public function. Argument
    attributes carry facts the compiler may use, such as
    `tt.divisibility = 16`: the value (or address) is a multiple of 16,
    which AxisInfo builds its vector widths on and the lowering turns
    into an alignment of pointer arguments. The CPU oracle checks it for
    integer arguments.

    ```mlir
    tt.func public @kernel(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
      tt.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return isExternal() ? nullptr : &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }
    bool isDeclaration() { return isExternal(); }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TT_CallOp : TT_Op<"call", [CallOpInterface,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "call a tt.func in the same module";
  let description = [{
    Calls the `tt.func` named by `callee` with `operands` and returns its
    results. Verified against the callee: same number and types of
    operands and results.

    tgpu inlines calls in `make_ttir` and has no lowering for this op;
    the CPU oracle runs the callee with the caller's program id.

    ```mlir
    tt.func private @twice(%x: i32) -> i32 {
      %y = arith.addi %x, %x : i32
      tt.return %y : i32
    }
    tt.func @caller(%x: i32) -> i32 {
      %r = tt.call @twice(%x) : (i32) -> i32
      tt.return %r : i32
    }
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>);
  let extraClassDeclaration = [{
    ::mlir::FunctionType getCalleeType() {
      return ::mlir::FunctionType::get(getContext(), getOperandTypes(), getResultTypes());
    }
    operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() { return getOperandsMutable(); }
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<::mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee", ::llvm::cast<::mlir::SymbolRefAttr>(callee));
    }
  }];
  let assemblyFormat = "$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)";
}

def TT_ReturnOp : TT_Op<"return", [Pure, HasParent<"FuncOp">, ReturnLike, Terminator]> {
  let summary = "return from a tt.func";
  let description = [{
    Ends the enclosing `tt.func`, returning `srcs`. Verified: their number
    and types are the function's result types.

    ```mlir
    tt.func @f(%x: i32) -> i32 {
      tt.return %x : i32
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$srcs);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
  let assemblyFormat = "attr-dict ($srcs^ `:` type($srcs))?";
  let hasVerifier = 1;
}

include "tgpu/Dialect/Triton/IR/TritonDescriptorOps.td"

#endif // TGPU_TRITON_OPS
