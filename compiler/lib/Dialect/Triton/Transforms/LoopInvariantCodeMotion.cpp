// triton-licm: MLIR's loop-invariant code motion, plus the hoisting of
// tt.load out of scf.for loops that do not write memory. A hoisted load runs
// once before the loop even when the loop runs no iteration, so it is
// masked off by the loop's trip-count check (it must not touch memory the
// kernel never read).
#include "tgpu/Dialect/Triton/Transforms/Passes.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONLOOPINVARIANTCODEMOTION
#include "tgpu/Dialect/Triton/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;

namespace {

// Whether `op` and everything nested in it at most read memory. Ops whose
// effects are unknown (calls, ...) count as writing.
bool onlyReadsMemory(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  return effects && llvm::all_of(*effects, [](const auto &effect) {
           return isa<MemoryEffects::Read>(effect.getEffect());
         });
}

// The loads that may leave `loop`: pointer-tensor or scalar loads (a block
// pointer load takes no mask to guard it with), not volatile (volatile
// loads have a write effect), in an scf.for (whose trip-count check is
// `lowerBound < upperBound`) that does not write memory.
bool isHoistableLoad(tt::LoadOp load, scf::ForOp loop, bool loopOnlyReads) {
  auto ptr = dyn_cast<tt::PointerType>(load.getPtr().getType());
  bool blockPointer = ptr && isa<RankedTensorType>(ptr.getPointeeType());
  return loop && loopOnlyReads && !blockPointer && onlyReadsMemory(load);
}

// `load`'s mask and-ed with the trip-count check of `loop`, built before the
// loop.
void guardWithTripCount(tt::LoadOp load, scf::ForOp loop) {
  IRRewriter rewriter(loop);
  Location loc = loop.getLoc();
  auto predicate = loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                         : arith::CmpIPredicate::slt;
  Value mask = arith::CmpIOp::create(
      rewriter, loc, predicate, loop.getLowerBound(), loop.getUpperBound());
  if (auto ptrs = dyn_cast<RankedTensorType>(load.getPtr().getType()))
    mask = tt::SplatOp::create(rewriter, loc, ptrs.clone(rewriter.getI1Type()),
                               mask);
  if (Value old = load.getMask())
    mask = arith::AndIOp::create(rewriter, loc, mask, old);
  rewriter.modifyOpInPlace(load, [&] { load.getMaskMutable().assign(mask); });
}

class LoopInvariantCodeMotion
    : public mlir::tgpu::impl::TritonLoopInvariantCodeMotionBase<
          LoopInvariantCodeMotion> {
  void runOnOperation() override {
    // Post-order: inner loops first, so that what leaves an inner loop can
    // leave the outer one too.
    getOperation()->walk([&](LoopLikeOpInterface loopLike) {
      auto forOp = dyn_cast<scf::ForOp>(loopLike.getOperation());
      // Computed once per loop, before anything moves: hoisting only
      // removes reads from the loop.
      bool loopOnlyReads = forOp && onlyReadsMemory(forOp);
      moveLoopInvariantCode(
          loopLike.getLoopRegions(),
          [&](Value value, Region *) {
            return loopLike.isDefinedOutsideOfLoop(value);
          },
          [&](Operation *op, Region *) {
            if (auto load = dyn_cast<tt::LoadOp>(op))
              return isHoistableLoad(load, forOp, loopOnlyReads);
            return isSpeculatable(op) && isMemoryEffectFree(op);
          },
          [&](Operation *op, Region *) {
            if (auto load = dyn_cast<tt::LoadOp>(op))
              guardWithTripCount(load, forOp);
            loopLike.moveOutOfLoop(op);
          });
    });
  }
};

} // namespace
