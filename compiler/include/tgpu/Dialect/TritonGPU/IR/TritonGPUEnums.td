// ttg enums, in a file of their own so their generated code holds no tt enums.
#ifndef TGPU_TRITONGPU_ENUMS
#define TGPU_TRITONGPU_ENUMS

include "mlir/IR/EnumAttr.td"

def TTG_AddrSpace : I32BitEnumAttr<"AddrSpace", "memory a barrier orders", [
  I32BitEnumAttrCaseNone<"None", "none">,
  I32BitEnumAttrCaseBit<"Local", 0, "local">,
  I32BitEnumAttrCaseBit<"GlobalRead", 1, "global_read">,
  I32BitEnumAttrCaseBit<"GlobalWrite", 2, "global_write">,
  I32BitEnumAttrCaseBit<"TensorRead", 3, "tensor_read">,
  I32BitEnumAttrCaseBit<"TensorWrite", 4, "tensor_write">,
  I32BitEnumAttrCaseGroup<"All", [I32BitEnumAttrCaseBit<"Local", 0, "local">,
      I32BitEnumAttrCaseBit<"GlobalRead", 1, "global_read">,
      I32BitEnumAttrCaseBit<"GlobalWrite", 2, "global_write">,
      I32BitEnumAttrCaseBit<"TensorRead", 3, "tensor_read">,
      I32BitEnumAttrCaseBit<"TensorWrite", 4, "tensor_write">], "all">
]> {
  let cppNamespace = "::mlir::triton::gpu";
  let separator = "|";
  let printBitEnumPrimaryGroups = 1;
  let description = [{
    The memory a `ttg.barrier` orders, as a set of bits printed joined by
    `|`: shared memory (`local`), global reads and writes, tensor-memory
    (TMA) reads and writes; `all` is every one of them.
  }];
}

#endif
