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

  // The encoding of tt.split's results for a source of encoding `src` and
  // shape `srcShape` (last dimension 2): `src` without the register bit that
  // selects the half. Fails when the two halves are not in one thread.
  virtual FailureOr<Attribute>
  inferSplitEncoding(Attribute src, ArrayRef<int64_t> srcShape) const = 0;

  // Whether `a` and `b` place a tensor of `shape` identically (the same
  // linear layout), even if written differently.
  virtual bool layoutsEqual(ArrayRef<int64_t> shape, Attribute a,
                            Attribute b) const = 0;
};

// Finds the interface through `enc`'s dialect; null if it has none.
inline const DialectLayoutVerifierInterface *getLayoutVerifier(Attribute enc) {
  if (!enc)
    return nullptr;
  return dyn_cast<DialectLayoutVerifierInterface>(&enc.getDialect());
}

} // namespace mlir::triton

#endif
