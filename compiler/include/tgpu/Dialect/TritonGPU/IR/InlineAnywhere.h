// The inliner interface of the ttg and ttng dialects: their ops move with the
// code of an inlined tt.call, and calls inside their regions (a
// warp_specialize partition) may be inlined, as in Triton. The callee's
// tt.return is the tt dialect's to handle.
#ifndef TGPU_DIALECT_TRITONGPU_IR_INLINEANYWHERE_H
#define TGPU_DIALECT_TRITONGPU_IR_INLINEANYWHERE_H

#include "mlir/Transforms/InliningUtils.h"

namespace mlir::triton::gpu {

struct InlineAnywhereInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};

} // namespace mlir::triton::gpu

#endif // TGPU_DIALECT_TRITONGPU_IR_INLINEANYWHERE_H
