// TTGIR -> TTGIR passes (layout choices for memory accesses, layout
// propagation), one per file under compiler/lib/Transforms.
#ifndef TGPU_TRANSFORMS_PASSES_H
#define TGPU_TRANSFORMS_PASSES_H

#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Pass/Pass.h"

namespace mlir::tgpu {

#define GEN_PASS_DECL
#include "tgpu/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tgpu/Transforms/Passes.h.inc"

} // namespace mlir::tgpu

#endif
