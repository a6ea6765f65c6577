// A dialect interface through which tt op verifiers check layout encodings
// without depending on the dialect that defines them (ttg registers it).
#ifndef TGPU_DIALECT_TRITON_IR_LAYOUTINTERFACE_H
#define TGPU_DIALECT_TRITON_IR_LAYOUTINTERFACE_H

#include "mlir/IR/DialectInterface.h"
#include "mlir/IR/Operation.h"

namespace mlir::triton {

class DialectLayoutVerifierInterface
    : public DialectInterface::Base<DialectLayoutVerifierInterface> {
public:
  DialectLayoutVerifierInterface(Dialect *dialect) : Base(dialect) {}

  // The encoding of the result of reducing a tensor of encoding `src` along
  // `axis` (null when `src` cannot be reduced along it).
  virtual Attribute inferReduceEncoding(Attribute src, unsigned axis) const = 0;

  // tt.dot operand encodings: a and b against the accumulator's c.
  virtual LogicalResult verifyDotEncodings(Operation *op, Attribute a, Attribute b,
                                           Attribute c) const = 0;
};

// Finds the interface through `enc`'s dialect; null if it has none.
inline const DialectLayoutVerifierInterface *getLayoutVerifier(Attribute enc) {
  if (!enc)
    return nullptr;
  return dyn_cast<DialectLayoutVerifierInterface>(&enc.getDialect());
}

} // namespace mlir::triton

#endif
