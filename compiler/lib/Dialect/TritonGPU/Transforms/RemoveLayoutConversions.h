// The steps of tritongpu-remove-layout-conversions, one file each:
// LayoutPropagation.cpp (1., forward), LayoutRematerialisation.cpp (2. and
// 3., backward rematerialisation and hoisting); RemoveLayoutConversions.cpp
// runs them and cleans up (4.). Private to this folder.
#ifndef TGPU_DIALECT_TRITONGPU_TRANSFORMS_REMOVELAYOUTCONVERSIONS_H
#define TGPU_DIALECT_TRITONGPU_TRANSFORMS_REMOVELAYOUTCONVERSIONS_H

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

namespace mlir::tgpu::remove_layout_conversions {

inline Attribute encodingOf(Value v) {
  return triton::getEncoding(v.getType());
}

inline RankedTensorType withEncoding(Type type, Attribute encoding) {
  return cast<RankedTensorType>(type).cloneWithEncoding(encoding);
}

inline bool isMmaEncoding(Attribute enc) {
  return isa_and_nonnull<triton::gpu::NvidiaMmaEncodingAttr>(enc);
}

// 1. Anchors' layouts flow forward to their users; the function is rewritten
// in the chosen layouts. Fails (with a diagnostic) when an op cannot take
// the layout chosen for it.
LogicalResult propagateLayoutsForward(triton::FuncOp func);

// 2. One round over every convert of `func`: replaced by recomputing its
// source in the target layout where that is cheaper. True when a convert
// went away.
bool rematerialiseConverts(triton::FuncOp func);

// 3. The converts left over move above widening casts and broadcasts, into
// the branch of an scf.if that needs them, and next to the loads feeding mma
// dot operands.
void hoistConverts(triton::FuncOp func);

} // namespace mlir::tgpu::remove_layout_conversions

#endif
