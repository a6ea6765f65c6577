// What the software pipelining passes share: the attributes one pass leaves
// for the next (Triton's names, so that Triton's intermediate IR reads the
// same) and the tests for loads cp.async or TMA can copy.
#ifndef TGPU_DIALECT_TRITONGPU_TRANSFORMS_PIPELINING_H
#define TGPU_DIALECT_TRITONGPU_TRANSFORMS_PIPELINING_H

#include "tgpu/Analysis/AxisInfo.h"
#include "tgpu/Dialect/Triton/IR/Dialect.h"

namespace mlir::tgpu {

// On a loop: its own number of stages (`tl.range(..., num_stages=N)`),
// which overrides the pass option and asks for every load to be pipelined,
// not only those feeding dots.
inline constexpr char kNumStagesAttr[] = "tt.num_stages";
// On a load: how many iterations ahead of its use it should be issued.
inline constexpr char kLatencyAttr[] = "tt.latency";
// On each op of a scheduled loop body: its stage, and its cluster (the
// order of the groups of ops in the pipelined body).
inline constexpr char kLoopStageAttr[] = "loop.stage";
inline constexpr char kLoopClusterAttr[] = "loop.cluster";
// On a scheduled loop: its last stage.
inline constexpr char kScheduledMaxStageAttr[] = "tt.scheduled_max_stage";

// Whether `load` (a tensor of pointers in a distributed layout) can become
// a ttg.async_copy_global_to_local: cp.async moves 4, 8 or 16 bytes, so a
// thread's consecutive elements must be at least 4 bytes, contiguous and
// aligned as AxisInfo proves.
bool canCopyAsynchronously(triton::LoadOp load,
                           const ModuleAxisInfoAnalysis &axisInfo);

// Whether `load` can become a TMA copy issued ahead of its use: its
// descriptor's block has a layout TMA writes (what
// triton-nvidia-optimize-descriptor-encoding gives it).
bool canCopyWithTma(triton::DescriptorLoadOp load);

// The loads the pipeliner knows: `tt.load` and `tt.descriptor_load`.
inline bool isPipelinableLoad(Operation *op) {
  return isa<triton::LoadOp, triton::DescriptorLoadOp>(op);
}

} // namespace mlir::tgpu

#endif
