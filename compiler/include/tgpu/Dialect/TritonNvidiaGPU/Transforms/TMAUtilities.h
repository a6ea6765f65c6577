// What the passes that turn descriptor loads into TMA copies share
// (triton-nvidia-tma-lowering, and tritongpu-pipeline for the loads it
// issues iterations early): the shared buffer a copy writes, the mbarrier
// it completes on, and the users that may read that buffer directly.
#ifndef TGPU_DIALECT_TRITONNVIDIAGPU_TRANSFORMS_TMAUTILITIES_H
#define TGPU_DIALECT_TRITONNVIDIAGPU_TRANSFORMS_TMAUTILITIES_H

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tgpu {

// The shared layout of the buffer a TMA copy of `tensorType` through a
// descriptor of `descType` goes through: the descriptor's, at the rank of
// the tensor (a rank-reducing load drops leading block dims of size 1).
// Failure, with an error at `op` when it is given, when the descriptor has
// no layout or one TMA cannot write.
FailureOr<Attribute> getTmaBufferEncoding(RankedTensorType tensorType,
                                          triton::TensorDescType descType,
                                          Operation *op = nullptr);

// A shared-memory buffer type for `tensorType` in `encoding`.
triton::gpu::MemDescType getSharedBufferType(RankedTensorType tensorType,
                                             Attribute encoding,
                                             bool isMutable);

// The type of a one-arrival mbarrier: `count` of them, or one (rank 1)
// when count is 0.
triton::gpu::MemDescType getBarrierType(MLIRContext *ctx, int64_t count = 0);

// The bytes a TMA copy of `tensorType` delivers (what its mbarrier
// expects; out-of-bounds elements are filled and counted too).
int64_t getTmaCopyBytes(RankedTensorType tensorType);

// Whether `replaceAllocWithBuffer` would replace `alloc` by a buffer in
// `encoding`.
bool allocCanTakeBuffer(triton::gpu::LocalAllocOp alloc, Attribute encoding);

// Makes the `ttg.local_alloc` `alloc` (which stores a loaded tensor back to
// shared memory) read `buffer` instead, when it has `buffer`'s layout and
// every op that sees it or its views only reads them (a local_load, a
// wgmma, a TMA store; buffers passed through warp_group_dot_wait count as
// views). The views take `buffer`'s mutability and `alloc` is erased.
// False, and nothing changed, otherwise.
bool replaceAllocWithBuffer(RewriterBase &rewriter,
                            triton::gpu::LocalAllocOp alloc,
                            TypedValue<triton::gpu::MemDescType> buffer);

} // namespace mlir::tgpu

#endif
