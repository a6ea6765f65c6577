// TTGIR -> TTGIR passes (layout choices for memory accesses, layout
// propagation), one per file under compiler/lib/Dialect/TritonGPU/Transforms.
#ifndef TGPU_DIALECT_TRITONGPU_TRANSFORMS_PASSES_H
#define TGPU_DIALECT_TRITONGPU_TRANSFORMS_PASSES_H

#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Pass/Pass.h"

namespace mlir::tgpu {

#define GEN_PASS_DECL
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h.inc"

} // namespace mlir::tgpu

#endif
