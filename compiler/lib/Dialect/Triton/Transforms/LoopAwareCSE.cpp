// triton-loop-aware-cse: iteration arguments of an scf.for that always hold
// the same value (pipelining leaves such copies: several phase or index
// counters advanced alike) are merged. Plain CSE cannot see this: the two
// arguments' yielded values are computed from the arguments themselves.
#include "tgpu/Dialect/Triton/Transforms/Passes.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONLOOPAWARECSE
#include "tgpu/Dialect/Triton/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;

namespace {

// Decides whether two values of one loop are equal in every iteration. The
// question for a pair of iteration arguments may come back while it is being
// answered (through the loop's back edge); it is then assumed true: if
// everything else matches, the two sequences of values are equal by
// induction over the iterations.
class IterationEquality {
public:
  explicit IterationEquality(scf::ForOp loop) : loop(loop) {}

  bool argsEqual(unsigned i, unsigned j) {
    if (i == j)
      return true;
    if (loop.getInitArgs()[i] != loop.getInitArgs()[j])
      return false;
    std::pair<unsigned, unsigned> key = {std::min(i, j), std::max(i, j)};
    if (llvm::is_contained(assumed, key))
      return true;
    assumed.push_back(key);
    bool equal =
        valuesEqual(loop.getYieldedValues()[i], loop.getYieldedValues()[j]);
    assumed.pop_back();
    return equal;
  }

  bool valuesEqual(Value a, Value b) {
    if (a == b)
      return true;
    if (a.getType() != b.getType())
      return false;
    // Distinct values from outside the body, or from a region nested in
    // it, are not known to be equal.
    Block *body = loop.getBody();
    if (a.getParentBlock() != body || b.getParentBlock() != body)
      return false;
    Value iv = loop.getInductionVar();
    if (a == iv || b == iv)
      return false;
    auto argA = dyn_cast<BlockArgument>(a);
    auto argB = dyn_cast<BlockArgument>(b);
    if (argA || argB) {
      if (!argA || !argB)
        return false;
      // Block argument 0 is the induction variable.
      return argsEqual(argA.getArgNumber() - 1, argB.getArgNumber() - 1);
    }
    auto resultA = cast<OpResult>(a), resultB = cast<OpResult>(b);
    Operation *opA = resultA.getOwner(), *opB = resultB.getOwner();
    // Only ops whose results depend on nothing but their operands and
    // attributes: no memory effects, no regions.
    if (resultA.getResultNumber() != resultB.getResultNumber() ||
        !isMemoryEffectFree(opA) || !isMemoryEffectFree(opB) ||
        opA->getNumRegions() || opB->getNumRegions())
      return false;
    return OperationEquivalence::isEquivalentTo(
        opA, opB, [&](Value x, Value y) { return success(valuesEqual(x, y)); },
        /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
  }

private:
  scf::ForOp loop;
  SmallVector<std::pair<unsigned, unsigned>> assumed;
};

// Merges iteration arguments into the first earlier one proven equal to
// them: the later one's uses (in the body and after the loop) go to the
// earlier one, and it just passes itself on, for the canonicalizer to
// remove. Each argument is compared with the first of each group only, so
// every merge rests on a direct proof.
void mergeEqualIterArgs(scf::ForOp loop) {
  unsigned count = loop.getNumRegionIterArgs();
  IterationEquality equality(loop);
  SmallVector<unsigned> first(count);
  for (unsigned j = 0; j < count; ++j) {
    first[j] = j;
    for (unsigned i = 0; i < j; ++i) {
      if (first[i] == i && equality.argsEqual(i, j)) {
        first[j] = i;
        break;
      }
    }
  }
  for (unsigned j = 0; j < count; ++j) {
    unsigned i = first[j];
    if (i == j)
      continue;
    BlockArgument arg = loop.getRegionIterArg(j);
    arg.replaceAllUsesWith(loop.getRegionIterArg(i));
    (*loop.getYieldedValuesMutable())[j].set(arg);
    loop.getResult(j).replaceAllUsesWith(loop.getResult(i));
  }
}

class LoopAwareCSE
    : public mlir::tgpu::impl::TritonLoopAwareCSEBase<LoopAwareCSE> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    DominanceInfo &dominance = getAnalysis<DominanceInfo>();
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());
    getOperation().walk(mergeEqualIterArgs);
    // The merged arguments made their computations in the body equal.
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());
    RewritePatternSet patterns(&getContext());
    scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      getOperation().emitError(
          "triton-loop-aware-cse: the scf.for cleanup did not converge");
      signalPassFailure();
    }
  }
};

} // namespace
