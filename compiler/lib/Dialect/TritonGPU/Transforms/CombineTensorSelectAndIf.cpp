// tritongpu-combine-tensor-select-and-if: a tensor select on the condition of
// a later scf.if becomes a result of that if.
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h"

#include "tgpu/Dialect/TritonGPU/Transforms/LayoutUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUCOMBINETENSORSELECTANDIF
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;

namespace {

// Within a branch of an scf.if on the select's own condition the select is
// known: its true value in the then branch, its false value in the else
// branch. Both dominate the use (they dominate the select).
void resolveSelectsInsideIfs(ModuleOp module) {
  module.walk([](arith::SelectOp select) {
    Value condition = select.getCondition();
    for (OpOperand &use : llvm::make_early_inc_range(select->getUses())) {
      Operation *user = use.getOwner();
      for (Operation *parent = user->getParentOp(); parent;
           parent = parent->getParentOp()) {
        auto ifOp = dyn_cast<scf::IfOp>(parent);
        if (!ifOp || ifOp.getCondition() != condition)
          continue;
        bool inThen = ifOp.getThenRegion().isAncestor(user->getParentRegion());
        use.set(inThen ? select.getTrueValue() : select.getFalseValue());
        break;
      }
    }
  });
}

// The first scf.if after `select` in its block with the same condition that
// dominates every user of the select, if any.
scf::IfOp findMergeTarget(arith::SelectOp select, DominanceInfo &dominance) {
  for (Operation *op = select->getNextNode(); op; op = op->getNextNode()) {
    auto ifOp = dyn_cast<scf::IfOp>(op);
    if (!ifOp || ifOp.getCondition() != select.getCondition())
      continue;
    if (llvm::all_of(select->getUsers(), [&](Operation *user) {
          return dominance.properlyDominates(ifOp.getOperation(), user);
        }))
      return ifOp;
  }
  return nullptr;
}

struct CombineTensorSelectAndIfPass
    : mlir::tgpu::impl::TritonGPUCombineTensorSelectAndIfBase<
          CombineTensorSelectAndIfPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    resolveSelectsInsideIfs(module);

    DominanceInfo dominance(module);
    llvm::MapVector<Operation *, SmallVector<arith::SelectOp>> merges;
    module.walk([&](arith::SelectOp select) {
      if (!isa<RankedTensorType>(select.getType()))
        return;
      if (scf::IfOp ifOp = findMergeTarget(select, dominance))
        merges[ifOp].push_back(select);
    });

    OpBuilder builder(&getContext());
    for (auto &entry : merges) {
      auto ifOp = cast<scf::IfOp>(entry.first);
      ArrayRef<arith::SelectOp> selects = entry.second;
      SmallVector<Type> types;
      for (arith::SelectOp select : selects)
        types.push_back(select.getType());
      SmallVector<std::tuple<Value, Value>> replacements;
      scf::IfOp newIf =
          mlir::tgpu::appendIfResults(builder, ifOp, types, replacements);
      auto extendYield = [&](Block *block, bool thenSide) {
        auto yield = cast<scf::YieldOp>(block->getTerminator());
        SmallVector<Value> operands(yield.getOperands());
        for (arith::SelectOp select : selects)
          operands.push_back(thenSide ? select.getTrueValue()
                                      : select.getFalseValue());
        yield->setOperands(operands);
      };
      extendYield(newIf.thenBlock(), true);
      extendYield(newIf.elseBlock(), false);
      for (auto [oldValue, newValue] : replacements)
        oldValue.replaceAllUsesWith(newValue);
      unsigned next = ifOp.getNumResults();
      for (arith::SelectOp select : selects) {
        select.replaceAllUsesWith(newIf.getResult(next++));
        select.erase();
      }
      ifOp.erase();
    }
  }
};

} // namespace
