// TTIR -> TTIR passes (the target-independent rewrites of make_ttir), one per
// file under compiler/lib/Dialect/Triton/Transforms. Their command-line names
// are Triton's, so Triton's RUN lines work with tgpu-opt.
#ifndef TGPU_DIALECT_TRITON_TRANSFORMS_PASSES_H
#define TGPU_DIALECT_TRITON_TRANSFORMS_PASSES_H

#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Pass/Pass.h"

namespace mlir::tgpu {

#define GEN_PASS_DECL
#include "tgpu/Dialect/Triton/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tgpu/Dialect/Triton/Transforms/Passes.h.inc"

} // namespace mlir::tgpu

#endif
