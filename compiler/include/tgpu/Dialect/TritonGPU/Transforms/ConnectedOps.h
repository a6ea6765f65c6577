// The ops tied to one op through def-use chains in either direction, as the
// Coalesce pass asks for them.
#ifndef TGPU_DIALECT_TRITONGPU_TRANSFORMS_CONNECTEDOPS_H
#define TGPU_DIALECT_TRITONGPU_TRANSFORMS_CONNECTEDOPS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tgpu {

// The set mlir::getSlice(op) returns with default options (`op`, then the
// backward and forward slices of every member until nothing new appears),
// found in one breadth-first walk over single steps instead of two full
// slices per member, which made Coalesce quadratic in the kernel's size.
// The steps are the slices' own: backward to an operand's defining op or a
// block argument's op when it has a single one-block region (never into or
// out of an op isolated from above), forward to the users of results and to the
// ops nested in regions. In discovery order, not topological order.
llvm::SetVector<Operation *> getConnectedOps(Operation *op);

} // namespace mlir::tgpu

#endif
