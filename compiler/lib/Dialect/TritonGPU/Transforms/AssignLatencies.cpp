// tritongpu-assign-latencies: the first step of software pipelining. A load
// whose data a dot (tt.dot or wgmma's ttng.warp_group_dot) reads is worth
// issuing num-stages - 1 iterations early, so the tensor cores never wait for
// global memory; it gets that distance as `tt.latency`. A loop that names its
// own stage count (`tt.num_stages`, what `tl.range(..., num_stages=N)` prints)
// has every load its body computes with pipelined too, as Triton does. Only
// loads that can be copied asynchronously qualify: pointer loads cp.async
// can do (4 bytes or more per copy), and descriptor loads TMA can.
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h"

#include "tgpu/Analysis/AxisInfo.h"
#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/Dialect/TritonGPU/Transforms/Pipelining.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUASSIGNLATENCIES
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

bool hasNestedLoop(scf::ForOp loop) {
  bool nested = false;
  loop.getBody()->walk([&](Operation *op) {
    if (isa<LoopLikeOpInterface>(op))
      nested = true;
  });
  return nested;
}

// The values `op` reads from outside itself: its operands and those its
// regions use from above.
SmallVector<Value> readValues(Operation *op) {
  SmallVector<Value> values(op->getOperands());
  llvm::SetVector<Value> above;
  getUsedValuesDefinedAbove(op->getRegions(), above);
  llvm::append_range(values, above);
  return values;
}

// The loads of `body` that `root`'s value depends on through ops of the
// body, not through another load (an indirect load needs its index loaded
// first: tritongpu-schedule-loops keeps such loads in the last stage).
void collectFeedingLoads(Operation *root, ArrayRef<Value> from, Block *body,
                         llvm::SetVector<Operation *> &loads) {
  SmallVector<Value> work(from.begin(), from.end());
  DenseSet<Operation *> seen{root};
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body || !seen.insert(def).second)
      continue;
    if (mlir::tgpu::isPipelinableLoad(def)) {
      loads.insert(def);
      continue;
    }
    llvm::append_range(work, readValues(def));
  }
}

class TritonGPUAssignLatencies
    : public mlir::tgpu::impl::TritonGPUAssignLatenciesBase<
          TritonGPUAssignLatencies> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    mlir::tgpu::ModuleAxisInfoAnalysis axisInfo(module);
    module.walk([&](scf::ForOp loop) {
      if (hasNestedLoop(loop))
        return;
      auto own = loop->getAttrOfType<IntegerAttr>(mlir::tgpu::kNumStagesAttr);
      int stages = own ? int(own.getInt()) : int(numStages);
      if (stages < 2)
        return;
      Block *body = loop.getBody();
      llvm::SetVector<Operation *> loads;
      for (Operation &op : body->without_terminator()) {
        // A dot's A and B operands; its accumulator is not worth a ring.
        if (auto dot = dyn_cast<tt::DotOp>(op))
          collectFeedingLoads(&op, {dot.getA(), dot.getB()}, body, loads);
        else if (auto wgmma = dyn_cast<ttng::WarpGroupDotOp>(op))
          collectFeedingLoads(&op, {wgmma.getA(), wgmma.getB()}, body, loads);
        else if (own && !mlir::tgpu::isPipelinableLoad(&op))
          collectFeedingLoads(&op, readValues(&op), body, loads);
      }
      auto latency =
          IntegerAttr::get(IntegerType::get(&getContext(), 32), stages - 1);
      for (Operation *load : loads) {
        auto pointers = dyn_cast<tt::LoadOp>(load);
        bool async =
            pointers
                ? mlir::tgpu::canCopyAsynchronously(pointers, axisInfo)
                : mlir::tgpu::canCopyWithTma(cast<tt::DescriptorLoadOp>(load));
        if (async)
          load->setAttr(mlir::tgpu::kLatencyAttr, latency);
      }
    });
  }
};

} // namespace
