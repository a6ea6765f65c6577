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

// Triton's blocked layout for `shape` with the given elements per thread:
// lanes then warps spread from the last dim (each dim taking up to
// shape / sizePerThread threads), the first dim taking what is left.
triton::gpu::BlockedEncodingAttr
getBlockedEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                   ArrayRef<unsigned> sizePerThread, int numWarps,
                   int threadsPerWarp);

} // namespace mlir::tgpu

#endif
