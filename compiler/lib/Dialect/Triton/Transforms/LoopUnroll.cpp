// triton-loop-unroll: scf.for loops that the frontend marked with
// tt.loop_unroll_factor are unrolled by MLIR's scf unroller.
#include "tgpu/Dialect/Triton/Transforms/Passes.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONLOOPUNROLL
#include "tgpu/Dialect/Triton/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kUnrollFactor = "tt.loop_unroll_factor";
constexpr llvm::StringLiteral kNumStages = "tt.num_stages";

class LoopUnroll : public mlir::tgpu::impl::TritonLoopUnrollBase<LoopUnroll> {
  void runOnOperation() override {
    // Collected first: unrolling adds loops (the epilogue) to the IR.
    SmallVector<std::pair<scf::ForOp, uint64_t>> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      Attribute attr = loop->getAttr(kUnrollFactor);
      if (!attr)
        return;
      auto factor = dyn_cast<IntegerAttr>(attr);
      if (!factor) {
        loop.emitWarning("triton-loop-unroll: ")
            << kUnrollFactor << " must be an integer, got " << attr
            << "; the loop is not unrolled";
        return;
      }
      // A factor of 1 or less means no unrolling; the mark stays, as the
      // frontend wrote it.
      if (factor.getValue().sgt(1))
        loops.push_back({loop, factor.getValue().getZExtValue()});
    });
    for (auto [loop, factor] : loops) {
      loop->removeAttr(kUnrollFactor);
      FailureOr<UnrolledLoopInfo> unrolled = loopUnrollByFactor(loop, factor);
      if (failed(unrolled)) {
        loop.emitWarning("triton-loop-unroll: the loop could not be unrolled "
                         "by ")
            << factor;
        continue;
      }
      // The few leftover iterations are not worth software pipelining.
      if (unrolled->epilogueLoopOp)
        (*unrolled->epilogueLoopOp)
            ->setAttr(kNumStages,
                      IntegerAttr::get(IntegerType::get(&getContext(), 32), 1));
    }
  }
};

} // namespace
