// tritongpu-assign-latencies: the first step of software pipelining. A load
// whose data a dot reads (through shared memory) is worth issuing
// num-stages - 1 iterations early, so the tensor cores never wait for
// global memory; it gets that distance as `tt.latency`. Only loads cp.async
// can do asynchronously qualify (4 bytes or more per copy).
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h"

#include "tgpu/Analysis/AxisInfo.h"
#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/Dialect/TritonGPU/Transforms/Pipelining.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUASSIGNLATENCIES
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

bool hasNestedLoop(scf::ForOp loop) {
  bool nested = false;
  loop.getBody()->walk([&](Operation *op) {
    if (isa<LoopLikeOpInterface>(op))
      nested = true;
  });
  return nested;
}

// Whether every user stages the loaded tensor through shared memory for a
// dot: a convert_layout to a dot operand layout, or a local_alloc.
bool feedsDotThroughSharedMemory(tt::LoadOp load) {
  if (load->use_empty())
    return false;
  return llvm::all_of(load->getUsers(), [](Operation *user) {
    if (auto cvt = dyn_cast<ttg::ConvertLayoutOp>(user))
      return isa<ttg::DotOperandEncodingAttr>(cvt.getType().getEncoding());
    return isa<ttg::LocalAllocOp>(user);
  });
}

class TritonGPUAssignLatencies
    : public mlir::tgpu::impl::TritonGPUAssignLatenciesBase<
          TritonGPUAssignLatencies> {
public:
  using Base::Base;

  void runOnOperation() override {
    if (numStages < 2)
      return;
    ModuleOp module = getOperation();
    mlir::tgpu::ModuleAxisInfoAnalysis axisInfo(module);
    auto latency =
        IntegerAttr::get(IntegerType::get(&getContext(), 32), numStages - 1);
    module.walk([&](scf::ForOp loop) {
      if (hasNestedLoop(loop))
        return;
      for (auto load : loop.getBody()->getOps<tt::LoadOp>())
        if (feedsDotThroughSharedMemory(load) &&
            mlir::tgpu::canCopyAsynchronously(load, axisInfo))
          load->setAttr(mlir::tgpu::kLatencyAttr, latency);
    });
  }
};

} // namespace
