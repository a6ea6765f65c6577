// tritongpu-remove-layout-conversions: after coalescing, most tensors are
// converted into an access's layout right before it and back right after.
// The pass makes whole computations use one layout so that those converts
// disappear, deciding as Triton 3.6 does:
//  1. Forward: the results of anchors (expensive loads/stores, dots,
//     atomics, function arguments) keep their layouts; each anchor's layout
//     flows to the users that can take any layout (elementwise ops, reduce,
//     expand_dims, trans, loops, ...). A value reached by several layouts
//     keeps a blocked one next to memory accesses, an mma one elsewhere,
//     else the first that reached it; the function is then rewritten.
//  2. Backward: each remaining convert is replaced by recomputing its
//     source's producers in the target layout, when they all can be and the
//     duplicated work costs less than the conversion.
//  3. Hoisting: converts left over move above widening casts and
//     broadcasts (less data to move), into the branch of an scf.if that
//     needs them, and next to the loads feeding mma dot operands.
//  4. Cleanup: convert canonicalization, dead loop-carried values, scf
//     canonicalization.
#include "RemoveLayoutConversions.h"

#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tritongpu-remove-layout-conversions"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUREMOVELAYOUTCONVERSIONS
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
using namespace mlir::tgpu;
using namespace mlir::tgpu::remove_layout_conversions;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

//===----------------------------------------------------------------------===//
// 4. Cleanup: loop-carried values nobody reads
//===----------------------------------------------------------------------===//

// Marks every value dead, then live from the loop's used results and from
// ops with side effects; a yield operand that stays dead is replaced by its
// own iter_arg, so that the canonicaliser drops the iter_arg and what
// computed it.
struct DropDeadLoopCarriedValues : public OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp forOp,
                                PatternRewriter &rewriter) const override {
    Block &body = *forOp.getBody();
    auto yield = cast<scf::YieldOp>(body.getTerminator());
    DenseSet<Value> live;
    SmallVector<Value> worklist;
    auto markLive = [&](Value v) {
      if (!forOp->isAncestor(v.getParentRegion()->getParentOp()))
        return;
      if (live.insert(v).second)
        worklist.push_back(v);
    };
    for (auto [i, result] : llvm::enumerate(forOp.getResults()))
      if (!result.use_empty())
        markLive(yield.getOperand(i));
    if (live.size() == forOp.getNumResults())
      return failure();
    body.walk([&](Operation *op) {
      if (!isa<scf::YieldOp, scf::ForOp>(op) && !wouldOpBeTriviallyDead(op))
        for (Value operand : op->getOperands())
          markLive(operand);
    });
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      if (auto nested = v.getDefiningOp<scf::ForOp>()) {
        auto result = cast<OpResult>(v);
        markLive(nested.getTiedLoopInit(result)->get());
        markLive(nested.getLowerBound());
        markLive(nested.getUpperBound());
        markLive(nested.getStep());
        markLive(nested.getBody()->getTerminator()->getOperand(
            result.getResultNumber()));
        continue;
      }
      if (auto nested = v.getDefiningOp<scf::IfOp>()) {
        unsigned idx = cast<OpResult>(v).getResultNumber();
        markLive(nested.getCondition());
        if (!nested.getElseRegion().empty())
          markLive(nested.elseYield().getOperand(idx));
        markLive(nested.thenYield().getOperand(idx));
        continue;
      }
      if (Operation *def = v.getDefiningOp()) {
        if (isa<scf::WhileOp>(def))
          return failure();
        for (Value operand : def->getOperands())
          markLive(operand);
        continue;
      }
      auto arg = cast<BlockArgument>(v);
      if (auto owner = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp())) {
        if (arg.getArgNumber() < owner.getNumInductionVars())
          continue;
        unsigned iter = arg.getArgNumber() - owner.getNumInductionVars();
        markLive(owner.getBody()->getTerminator()->getOperand(iter));
        markLive(owner.getInitArgs()[iter]);
      }
    }
    SmallVector<unsigned> dead;
    for (auto [i, operand] : llvm::enumerate(yield->getOperands())) {
      if (live.contains(operand) || operand == body.getArgument(i + 1))
        continue;
      // A value from outside the loop is its result only after at least one
      // iteration. When it is the init anyway, scf.for's own canonicalizer
      // drops the iter_arg (yielding the arg instead would ping-pong with it).
      if (!forOp->isAncestor(operand.getParentRegion()->getParentOp()))
        continue;
      dead.push_back(i);
    }
    if (dead.empty())
      return failure();
    rewriter.modifyOpInPlace(forOp, [&] {
      for (unsigned i : dead)
        yield.setOperand(i, body.getArgument(i + 1));
    });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

// A hash of what the module's text would show (op names, attributes and
// properties, types, operands numbered in definition order), without
// printing it. Not pointers: rematerialisation rebuilds ops, so a cycle
// comes back to the same IR made of new ops.
static llvm::hash_code structuralHash(ModuleOp module) {
  llvm::DenseMap<Value, unsigned> numbers;
  auto number = [&](Value v) {
    numbers.try_emplace(v, numbers.size());
    return llvm::hash_combine(v.getType().getAsOpaquePointer());
  };
  auto operand = [&](Value v) -> llvm::hash_code {
    auto it = numbers.find(v);
    return llvm::hash_value(it == numbers.end() ? ~0u : it->second);
  };
  llvm::hash_code hash = llvm::hash_value(0);
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    hash = llvm::hash_combine(
        hash, OperationEquivalence::computeHash(op, operand, number));
    for (Region &region : op->getRegions())
      for (Block &block : region) {
        hash = llvm::hash_combine(hash, block.getNumArguments());
        for (BlockArgument arg : block.getArguments())
          hash = llvm::hash_combine(hash, number(arg));
      }
  });
  return hash;
}

class RemoveLayoutConversions
    : public mlir::tgpu::impl::TritonGPURemoveLayoutConversionsBase<
          RemoveLayoutConversions> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    WalkResult forward = module.walk([&](tt::FuncOp func) {
      if (failed(propagateLayoutsForward(func)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (forward.wasInterrupted())
      return signalPassFailure();

    canonicalizeConverts();
    LLVM_DEBUG(llvm::dbgs() << "after forward propagation: "
                            << countConverts(module) << " converts\n");

    // To a fixpoint; but rematerialisation and the convert canonicalizations
    // can undo each other on some layouts and cycle (fuzz_pipeline found a
    // hang on random #ttg.linear layouts): stop when the IR comes back to a
    // state it was in before.
    // A cap on the rounds bounds the remaining cases (a long cycle of
    // states whose hashes differ, or a growing IR).
    llvm::DenseSet<llvm::hash_code> seen;
    auto state = [&] { return structuralHash(module); };
    seen.insert(state());
    bool changed;
    unsigned round = 0;
    do {
      if (round == maxRounds) {
        module.emitWarning()
            << "tritongpu-remove-layout-conversions: no fixed point after "
            << unsigned(maxRounds)
            << " rounds of rematerialisation; stopping there";
        break;
      }
      ++round;
      changed = false;
      module.walk(
          [&](tt::FuncOp func) { changed |= rematerialiseConverts(func); });
      canonicalizeConverts();
      LLVM_DEBUG(llvm::dbgs() << "round " << round << ": "
                              << (changed ? "changed" : "no change") << ", "
                              << countConverts(module) << " converts\n");
    } while (changed && seen.insert(state()).second);
    LLVM_DEBUG(llvm::dbgs() << "stopped after " << round << " rounds\n");

    module.walk([&](tt::FuncOp func) { hoistConverts(func); });

    RewritePatternSet patterns(ctx);
    patterns.add<DropDeadLoopCarriedValues>(ctx);
    scf::ForOp::getCanonicalizationPatterns(patterns, ctx);
    scf::IfOp::getCanonicalizationPatterns(patterns, ctx);
    ttg::ConvertLayoutOp::getCanonicalizationPatterns(patterns, ctx);
    (void)applyPatternsGreedily(module, std::move(patterns));
    LLVM_DEBUG(llvm::dbgs() << "after hoisting and cleanup: "
                            << countConverts(module) << " converts\n");
  }

private:
  static unsigned countConverts(ModuleOp module) {
    unsigned n = 0;
    module.walk([&](ttg::ConvertLayoutOp) { ++n; });
    return n;
  }

  // Run once per rematerialisation round: the convert patterns and folds
  // (Triton's order of ops depends on the folds), without a region
  // simplification of the whole module each round; the final cleanup
  // above does that once.
  void canonicalizeConverts() {
    RewritePatternSet patterns(&getContext());
    ttg::ConvertLayoutOp::getCanonicalizationPatterns(patterns, &getContext());
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }
};

} // namespace
