// TTIR -> TTGIR conversion passes.
#ifndef TGPU_CONVERSION_TRITONTOTRITONGPU_PASSES_H
#define TGPU_CONVERSION_TRITONTOTRITONGPU_PASSES_H

#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Pass/Pass.h"

namespace mlir::tgpu {

#define GEN_PASS_DECL
#include "tgpu/Conversion/TritonToTritonGPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tgpu/Conversion/TritonToTritonGPU/Passes.h.inc"

// The default blocked layout Triton gives a tensor of `shape`: one element
// per thread, lanes then warps spread from the last (fastest) dim.
triton::gpu::BlockedEncodingAttr
getDefaultBlockedEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                          int numWarps, int threadsPerWarp, int numCTAs);

} // namespace mlir::tgpu

#endif
