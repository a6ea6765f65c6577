// The named pass pipelines: what Triton's make_ttir / make_ttgir stages run,
// as far as tgpu implements them. tgpu-opt registers them
// (--tgpu-ttir-pipeline, --tgpu-ttir-to-ttgir="..."); tgpu-compile builds
// the same pipelines through these functions.
#ifndef TGPU_PIPELINE_PIPELINES_H
#define TGPU_PIPELINE_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir::tgpu {

struct TtgirPipelineOptions
    : public PassPipelineOptions<TtgirPipelineOptions> {
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("GPU target, cuda:80 or cuda:90"),
                             llvm::cl::init("cuda:90")};
  Option<int> numWarps{*this, "num-warps", llvm::cl::desc("warps per CTA"),
                       llvm::cl::init(4)};
  Option<int> threadsPerWarp{*this, "threads-per-warp",
                             llvm::cl::desc("lanes per warp"),
                             llvm::cl::init(32)};
  Option<int> numCTAs{*this, "num-ctas", llvm::cl::desc("CTAs per CGA"),
                      llvm::cl::init(1)};
  Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("put tt.dot on tensor cores (tritongpu-accelerate-matmul, "
                     "mma.sync) where types and shapes allow; false: FMA only"),
      llvm::cl::init(true)};
  Option<int> numStages{
      *this, "num-stages",
      llvm::cl::desc("software pipelining stages for loops feeding dots "
                     "(tritongpu-assign-latencies, -schedule-loops, "
                     "-pipeline); 1: none, but a loop's own tt.num_stages "
                     "still applies"),
      llvm::cl::init(3)};
  Option<bool> prefetch{
      *this, "prefetch",
      llvm::cl::desc("tritongpu-prefetch after the pipeliner (default, as "
                     "Triton; false: operands loaded whole)"),
      llvm::cl::init(true)};
};

// make_ttir's target-independent cleanups: inline, canonicalize, CSE,
// symbol DCE, loop-invariant code motion.
void buildTtirPipeline(OpPassManager &pm);

// make_ttgir up to what tgpu lowers: layouts for every tensor, coalesced
// memory accesses, layout propagation, then cleanups.
void buildTtirToTtgirPipeline(OpPassManager &pm,
                              const TtgirPipelineOptions &options);

// make_llir up to the LLVM dialect: structured control flow to branches,
// then convert-triton-gpu-to-llvm, then cleanups (canonicalize, CSE).
void buildTtgirToLlvmPipeline(OpPassManager &pm);

void registerPipelines();

} // namespace mlir::tgpu

#endif
