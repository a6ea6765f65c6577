// The `nvg` dialect: the PTX-level ops between TTGIR and the LLVM dialect.
#ifndef TGPU_NVGPU_OPS
#define TGPU_NVGPU_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def NVGPU_Dialect : Dialect {
  let name = "nvg";
  let cppNamespace = "::mlir::triton::nvgpu";
  let summary = "PTX instructions between TTGIR and LLVM: wgmma, acquire "
                "loads, cluster ids";
  let description = [{
    Triton's NVIDIA back end lowers TTGIR to the LLVM dialect in two steps:
    `convert-triton-gpu-to-llvm` writes the instructions whose operands are
    whole register fragments (a warp group's matrix product, the wait that
    hands its accumulator back) as `nvg` ops over LLVM structs, and
    `convert-nv-gpu-to-llvm` turns each into PTX (inline assembly or NVVM
    ops). tgpu reads, verifies and prints these ops as Triton 3.6 does, its
    lowering emits them where Triton's does, and its compile pipeline runs
    both passes.

    The ops carry no verifier beyond their types, as in Triton: what the
    hardware cannot do (an instruction shape or type pair wgmma lacks, a
    B operand in registers) is a located error of `convert-nv-gpu-to-llvm`.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def NVGPU_MemSemantic
    : I32EnumAttr<"MemSemantic", "memory order of an acquire load",
                  [I32EnumAttrCase<"RELAXED", 1, "relaxed">,
                   I32EnumAttrCase<"ACQUIRE", 2, "acquire">,
                   I32EnumAttrCase<"RELEASE", 3, "release">,
                   I32EnumAttrCase<"ACQUIRE_RELEASE", 4, "acq_rel">,
]> {
  let cppNamespace = "::mlir::triton::nvgpu";
}

def NVGPU_MemSyncScope
    : I32EnumAttr<"MemSyncScope", "threads an acquire load synchronizes with",
                  [I32EnumAttrCase<"GPU", 1, "gpu">,
                   I32EnumAttrCase<"CTA", 2, "cta">,
                   I32EnumAttrCase<"SYSTEM", 3, "sys">,
]> {
  let cppNamespace = "::mlir::triton::nvgpu";
}

def NVGPU_WGMMALayout
    : I32EnumAttr<"WGMMALayout", "major order of a wgmma operand (row or col)",
                  [I32EnumAttrCase<"row", 0>, I32EnumAttrCase<"col", 1>, ]> {
  let cppNamespace = "::mlir::triton::nvgpu";
}

def NVGPU_WGMMAEltType
    : I32EnumAttr<"WGMMAEltType",
                  "element type of a wgmma operand or accumulator",
                  [I32EnumAttrCase<"s8", 0>, I32EnumAttrCase<"s32", 1>,
                   I32EnumAttrCase<"e4m3", 2>, I32EnumAttrCase<"e5m2", 3>,
                   I32EnumAttrCase<"f16", 4>, I32EnumAttrCase<"bf16", 5>,
                   I32EnumAttrCase<"tf32", 6>, I32EnumAttrCase<"f32", 7>,
]> {
  let cppNamespace = "::mlir::triton::nvgpu";
}

// The LLVM types the ops take, defined here so that the dialect's page
// documents no LLVM enums.
def NVGPU_Struct
    : Type<CPred<"::llvm::isa<::mlir::LLVM::LLVMStructType>($_self)">,
           "LLVM structure type">;
class NVGPU_Pointer<int space>
    : Type<And<[CPred<"::llvm::isa<::mlir::LLVM::LLVMPointerType>($_self)">,
                CPred<"::llvm::cast<::mlir::LLVM::LLVMPointerType>($_self)."
                      "getAddressSpace() == "#space>]>,
           "LLVM pointer in address space "#space,
           "::mlir::LLVM::LLVMPointerType"> {
  let builderCall =
      "::mlir::LLVM::LLVMPointerType::get($_builder.getContext(), "#space#")";
}
def NVGPU_GlobalPointer : NVGPU_Pointer<1>;
def NVGPU_TensorMemoryPointer : NVGPU_Pointer<6>;
def NVGPU_Scalar : AnyTypeOf<[F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F16,
                              BF16, F32, F64, I1, I8, I16, I32, I64]>;
def NVGPU_WGMMAOperand
    : AnyTypeOf<[NVGPU_Struct, I64],
                "a register fragment or a matrix descriptor">;

class NVGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<NVGPU_Dialect, mnemonic, traits>;

def NVGPU_WGMMAOp : NVGPU_Op<"wgmma"> {
  let summary = "one wgmma.mma_async instruction of a warp group";
  let description = [{
    `wgmma.mma_async.sync.aligned.m<m>n<n>k<k>.<eltTypeC>.<eltTypeA>.<eltTypeB>`:
    the warp group multiplies A (an `i64` shared-memory matrix descriptor,
    or a struct of the 32-bit registers of its fragment) by B (a
    descriptor) and adds the accumulator `opC` when `useC` holds. Without
    `opC` the product is written to fresh registers and `useC` is ignored.
    The result is the accumulator fragment, one struct member per 32-bit
    register (f16 accumulators packed in pairs). `layoutA` / `layoutB` say
    which operand is stored transposed (`col` A, `row` B), for the 16-bit
    types that can be. The instruction only starts the product: its
    registers are defined after an `nvg.wgmma_wait_group` covering it.

    Example:

    ```mlir
    llvm.func @step(%a: i64, %b: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>) {
      %true = llvm.mlir.constant(true) : i1
      %d = nvg.wgmma %a, %b, %true, %acc {eltTypeA = 4 : i32, eltTypeB = 4 : i32,
          eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32,
          n = 8 : i32, k = 16 : i32}
          : (i64, i64, i1, !llvm.struct<(f32, f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32, f32)>
      llvm.return
    }
    ```
  }];
  let arguments = (ins NVGPU_WGMMAOperand:$opA, NVGPU_WGMMAOperand:$opB,
      I1:$useC, Optional<NVGPU_Struct>:$opC, I32Attr:$m, I32Attr:$n, I32Attr:$k,
      NVGPU_WGMMAEltType:$eltTypeC, NVGPU_WGMMAEltType:$eltTypeA,
      NVGPU_WGMMAEltType:$eltTypeB, NVGPU_WGMMALayout:$layoutA,
      NVGPU_WGMMALayout:$layoutB);
  let results = (outs NVGPU_Struct:$res);
  let assemblyFormat = "$opA `,` $opB `,` $useC (`,` $opC^)? attr-dict `:` "
                       "functional-type(operands, $res)";
}

def NVGPU_WGMMAWaitGroupOp
    : NVGPU_Op<"wgmma_wait_group", [AllTypesMatch<["input", "output"]>]> {
  let summary = "wait until at most `pendings` wgmma groups are in flight";
  let description = [{
    `wgmma.wait_group.sync.aligned <pendings>`. The registers of `input`
    pass through the wait: every use of `output` comes after it, so
    nothing reads an accumulator the tensor cores may still be writing.
    Members are 16-, 32- or 64-bit.

    Example:

    ```mlir
    llvm.func @wait(%acc: !llvm.struct<(f32, f32)>) {
      %done = nvg.wgmma_wait_group %acc {pendings = 0 : i32} : !llvm.struct<(f32, f32)>
      llvm.return
    }
    ```
  }];
  let arguments = (ins NVGPU_Struct:$input, I32Attr:$pendings);
  let results = (outs NVGPU_Struct:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def NVGPU_ClusterCTAIdOp : NVGPU_Op<"cluster_id", [Pure]> {
  let summary = "the block's rank in its thread block cluster";
  let description = [{
    `%cluster_ctarank`: 0 in a launch without clusters.

    Example:

    ```mlir
    llvm.func @rank() -> i32 {
      %id = nvg.cluster_id
      llvm.return %id : i32
    }
    ```
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict";
}

def NVGPU_LoadAcquireOp : NVGPU_Op<"ld_acquire", [MemoryEffects<[MemRead]>]> {
  let summary = "a global load with acquire (or relaxed) order at a scope";
  let description = [{
    `ld.global.<scope>.<sem>.b<N>` of one scalar, predicated by `mask`
    when there is one (a masked-off thread's result is 0). What an atomic
    add of zero becomes: it reads the same value without writing.

    Example:

    ```mlir
    llvm.func @peek(%p: !llvm.ptr<1>) -> i32 {
      %v = nvg.ld_acquire acquire, gpu, %p : (!llvm.ptr<1>) -> i32
      llvm.return %v : i32
    }
    ```
  }];
  let arguments = (ins NVGPU_GlobalPointer:$addr, Optional<I1>:$mask,
      NVGPU_MemSemantic:$sem, NVGPU_MemSyncScope:$scope);
  let results = (outs NVGPU_Scalar:$result);
  let assemblyFormat = "$sem `,` $scope `,` $addr (`,` $mask^)? attr-dict `:` "
                       "functional-type($addr, $result)";
}

def NVGPU_TensorMemoryBaseAddress : NVGPU_Op<"tensor_memory_base", [Pure]> {
  let summary = "the base address of the kernel's tensor memory (Blackwell)";
  let description = [{
    Read and printed as Triton does; tgpu targets GPUs up to Hopper, which
    have no tensor memory, and `convert-nv-gpu-to-llvm` rejects it with a
    located error.
  }];
  let results = (outs NVGPU_TensorMemoryPointer:$result);
  let assemblyFormat = "attr-dict";
}

#endif
