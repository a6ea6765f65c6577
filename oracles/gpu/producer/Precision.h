// How far a GPU run of a kernel may stray from the CPU reference on float
// outputs, from the op classes the kernel uses (documented in
// oracles/gpu/BUNDLE.md, "Comparison rules"). Generated programs carry a
// sharper per-output bound from the generator's error analysis instead.
#ifndef TGPU_ORACLES_GPU_PRECISION_H
#define TGPU_ORACLES_GPU_PRECISION_H

#include "oracles/gpu/bundle/Bundle.h"

#include "mlir/IR/BuiltinOps.h"

#include <array>
#include <string>

namespace tgpu::oracle {

struct KernelPrecision {
  unsigned exactOps = 0;    // float ops the GPU computes bit for bit
  unsigned roundingOps = 0; // correctly rounded (add, mul, div, fma, casts)
  unsigned approxOps = 0;   // approximations (exp, log, sin, libdevice, asm)
  double accumulatedTerms = 0; // terms summed in another order (reduce, scan, dot, atomics, loops)
  double epsilon = 0;       // the widest unit roundoff among the float types computed
  std::string summary;      // "2 rounding, 1 approximate, 128 accumulated terms"
};

// Counts the float ops of every function in `module`; `grid` sizes the
// accumulation of float atomics across programs.
KernelPrecision analyzePrecision(mlir::ModuleOp module, const std::array<int64_t, 3> &grid);

// The rule for one output buffer of element type `elem` whose expected
// values' largest finite magnitude is `maxAbs`. Integers: exact.
bundle::CompareRule ruleFor(const KernelPrecision &p, bundle::Elem elem, double maxAbs);

// The same, `maxAbs` taken from the `count` expected elements.
bundle::CompareRule ruleForExpected(const KernelPrecision &p, bundle::Elem elem,
                                    const uint8_t *expected, uint64_t count);

} // namespace tgpu::oracle

#endif
