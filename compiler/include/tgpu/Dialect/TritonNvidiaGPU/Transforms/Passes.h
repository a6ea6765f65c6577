// The ttng -> ttng passes.
#ifndef TGPU_DIALECT_TRITONNVIDIAGPU_TRANSFORMS_PASSES_H
#define TGPU_DIALECT_TRITONNVIDIAGPU_TRANSFORMS_PASSES_H

#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Pass/Pass.h"

namespace mlir::tgpu {

#define GEN_PASS_DECL
#include "tgpu/Dialect/TritonNvidiaGPU/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tgpu/Dialect/TritonNvidiaGPU/Transforms/Passes.h.inc"

} // namespace mlir::tgpu

#endif
