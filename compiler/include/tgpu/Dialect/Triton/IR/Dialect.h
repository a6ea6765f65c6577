// The `tt` dialect: types, enums, traits and ops.
#ifndef TGPU_DIALECT_TRITON_IR_DIALECT_H
#define TGPU_DIALECT_TRITON_IR_DIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tgpu/Dialect/Triton/IR/LayoutInterface.h"
#include "tgpu/Dialect/Triton/IR/Traits.h"

#include "tgpu/Dialect/Triton/IR/TritonEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tgpu/Dialect/Triton/IR/TritonTypes.h.inc"

#include "tgpu/Dialect/Triton/IR/TritonDialect.h.inc"

namespace mlir::triton {

// Side-effect resource for global memory (loads, stores, atomics, prints).
struct GlobalMemory : public SideEffects::Resource::Base<GlobalMemory> {
  StringRef getName() final { return "<GlobalMemory>"; }
};

// The value type a pointer-like type points to: tensor<NxT*> -> tensor<NxT>
// (same encoding), T* -> T, (tensor block pointer) -> the tensor. Anything
// that is not pointer-like is returned as it is: the parser infers operand
// types through this before the verifier has checked the pointer operand, so
// it must never produce a null type.
Type getPointeeType(Type type);
// i1 with the shape and encoding of `type` (i1 for scalars).
Type getI1SameShape(Type type);
// Pointer(s) to `type`'s element, with its shape and encoding.
Type getPointerTypeSameShape(Type type);
// For a block pointer !tt.ptr<tensor<...xT>, AS>: !tt.ptr<T, AS> (the type
// itself for anything else, for the same reason as getPointeeType).
Type getBlockPointerBaseType(Type type);
// The encoding of a ranked tensor, or null.
Attribute getEncoding(Type type);

// `order` is a permutation of [0, rank) (trans-like ops); reports on `op`.
LogicalResult verifyPermutation(Operation *op, ArrayRef<int32_t> order, int64_t rank);

} // namespace mlir::triton

#define GET_OP_CLASSES
#include "tgpu/Dialect/Triton/IR/TritonOps.h.inc"

#endif
