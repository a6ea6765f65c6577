// Op traits shared by the tt, ttg and ttng dialects.
#ifndef TGPU_DIALECT_TRITON_IR_TRAITS_H
#define TGPU_DIALECT_TRITON_IR_TRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::OpTrait {
namespace impl {
LogicalResult verifyTensorShapes(Operation *op);
LogicalResult verifySameOperandsEncoding(Operation *op, bool includeResults);
} // namespace impl

// Every tensor operand and result has a static shape whose sizes are positive
// powers of two and whose element count fits in a CTA (Triton's 2^20 limit).
template <typename ConcreteType>
class TensorShapeTrait : public TraitBase<ConcreteType, TensorShapeTrait> {
public:
  static LogicalResult verifyTrait(Operation *op) { return impl::verifyTensorShapes(op); }
};

// All tensor operands (and results) carry the same layout encoding.
template <typename ConcreteType>
class SameOperandsAndResultEncoding
    : public TraitBase<ConcreteType, SameOperandsAndResultEncoding> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return impl::verifySameOperandsEncoding(op, /*includeResults=*/true);
  }
};

template <typename ConcreteType>
class SameOperandsEncoding : public TraitBase<ConcreteType, SameOperandsEncoding> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return impl::verifySameOperandsEncoding(op, /*includeResults=*/false);
  }
};
} // namespace mlir::OpTrait

#endif
