// tritongpu-remove-layout-conversions, step 1: forward propagation. The
// results of anchors (expensive loads/stores, dots, atomics, function
// arguments) keep their layouts; each anchor's layout flows to the users
// that can take any layout (elementwise ops, reduce, expand_dims, trans,
// loops, ...). A value reached by several layouts keeps the one with most
// elements per thread (else blocked next to memory accesses, mma for
// compute); the function is then rewritten.
#include "RemoveLayoutConversions.h"

#include "tgpu/Dialect/TritonGPU/Transforms/LayoutUtils.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

#include <deque>

using namespace mlir;
using namespace mlir::tgpu;
using namespace mlir::tgpu::remove_layout_conversions;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

//===----------------------------------------------------------------------===//
// Anchors
//===----------------------------------------------------------------------===//

// Ops whose result layout we keep and propagate from.
bool isLayoutAnchor(Operation *op) {
  if (isa<tt::LoadOp, tt::StoreOp>(op))
    return isExpensiveMemoryAccess(op);
  if (isa<ttg::LocalLoadOp>(op))
    return isExpensiveSharedLoad(op);
  if (isa<tt::DotOp, ttng::WarpGroupDotOp, tt::AtomicRMWOp, tt::AtomicCASOp>(
          op))
    return true;
  if (auto gather = dyn_cast<tt::GatherOp>(op))
    return gather.getEfficientLayout();
  // A reshape that may reorder elements can have any result layout: forward
  // propagation stops there and starts again from it.
  if (auto reshape = dyn_cast<tt::ReshapeOp>(op))
    return reshape.getAllowReorder();
  return false;
}

//===----------------------------------------------------------------------===//
// 1. Forward propagation
//===----------------------------------------------------------------------===//

class ForwardPropagation {
public:
  explicit ForwardPropagation(tt::FuncOp func) : func(func) {}

  void seedAnchors();
  void propagate();
  void resolveConflicts();
  LogicalResult rewrite();

private:
  using Candidates = llvm::SmallSetVector<Attribute, 8>;

  SmallVector<Value> propagateToUsers(Value value, const Candidates &encs);
  void addCandidates(ValueRange values, const Candidates &encs,
                     SmallVectorImpl<Value> &changed, Operation *user);

  Operation *rewriteOp(Operation *op);
  Operation *rewriteFor(scf::ForOp forOp);
  Operation *rewriteWhile(scf::WhileOp whileOp);
  Operation *rewriteIf(scf::IfOp ifOp);
  void rewriteYield(scf::YieldOp yield);
  void rewriteCondition(scf::ConditionOp condition);
  void rewriteScalarReduce(Operation *reduce);
  void rewriteAssert(tt::AssertOp assertOp);
  Operation *cloneInEncoding(OpBuilder &b, Operation *op, Attribute encoding);

  // The encoding picked for the first result that has one.
  Attribute chosenForResults(Operation *op) {
    for (Value r : op->getResults())
      if (auto it = candidates.find(r); it != candidates.end())
        return *it->second.begin();
    return {};
  }
  // `old` now lives in `newValue` (in newValue's encoding).
  void remember(Value old, Value newValue) {
    rewritten[{old, encodingOf(newValue)}] = newValue;
  }
  // `value` as the rewrite made it (in its chosen encoding).
  Value current(Value value);
  // `value` in `encoding`, converting its rewritten version when needed.
  Value valueIn(Value value, Attribute encoding);
  // Replace results with the same type, remember the others.
  void replaceOrRemember(ValueRange oldValues, ValueRange newValues);

  tt::FuncOp func;
  llvm::MapVector<Value, Candidates> candidates;
  DenseMap<std::pair<Value, Attribute>, Value> rewritten;
  SetVector<Operation *> toErase;
};

void ForwardPropagation::seedAnchors() {
  auto seed = [&](Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.getEncoding())
      return;
    candidates[v].insert(type.getEncoding());
  };
  // Arguments keep their layouts (handy for tests).
  for (BlockArgument arg : func.getArguments())
    seed(arg);
  func.walk([&](Operation *op) {
    if (isLayoutAnchor(op))
      for (Value result : op->getResults())
        seed(result);
  });
}

void ForwardPropagation::addCandidates(ValueRange values,
                                       const Candidates &encs,
                                       SmallVectorImpl<Value> &changed,
                                       Operation *user) {
  for (Value value : values) {
    if (!isa<RankedTensorType>(value.getType()))
      continue;
    bool grew = false;
    for (Attribute enc : encs) {
      // A convert can take its source's layout (and then disappear).
      Attribute dst =
          isa<ttg::ConvertLayoutOp>(user) ? enc : inferDstEncoding(user, enc);
      if (dst)
        grew |= candidates[value].insert(dst);
    }
    if (grew)
      changed.push_back(value);
  }
}

SmallVector<Value>
ForwardPropagation::propagateToUsers(Value value, const Candidates &encs) {
  SmallVector<Value> changed;
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (auto forOp = dyn_cast<scf::ForOp>(user)) {
      if (use.getOperandNumber() < forOp.getNumControlOperands())
        continue;
      addCandidates(
          {forOp.getTiedLoopRegionIterArg(&use), forOp.getTiedLoopResult(&use)},
          encs, changed, user);
      continue;
    }
    if (auto whileOp = dyn_cast<scf::WhileOp>(user)) {
      addCandidates(whileOp.getBeforeArguments()[use.getOperandNumber()], encs,
                    changed, user);
      continue;
    }
    if (auto yield = dyn_cast<scf::YieldOp>(user)) {
      Operation *parent = yield->getParentOp();
      unsigned idx = use.getOperandNumber();
      SmallVector<Value> targets;
      if (isa<scf::ForOp, scf::IfOp, scf::WhileOp>(parent) &&
          idx < parent->getNumResults())
        targets.push_back(parent->getResult(idx));
      if (auto forOp = dyn_cast<scf::ForOp>(parent))
        targets.push_back(forOp.getRegionIterArg(idx));
      if (auto whileOp = dyn_cast<scf::WhileOp>(parent))
        targets.push_back(whileOp.getBeforeArguments()[idx]);
      if (isa<scf::ForOp, scf::IfOp, scf::WhileOp>(parent))
        addCandidates(targets, encs, changed, user);
      continue;
    }
    if (auto condition = dyn_cast<scf::ConditionOp>(user)) {
      if (use.getOperandNumber() == 0)
        continue; // the condition itself
      auto whileOp = cast<scf::WhileOp>(condition->getParentOp());
      unsigned idx = use.getOperandNumber() - 1;
      addCandidates({whileOp.getAfterArguments()[idx], whileOp->getResult(idx)},
                    encs, changed, user);
      continue;
    }
    if (isa<ttng::WarpGroupDotWaitOp>(user)) {
      addCandidates(user->getResult(use.getOperandNumber()), encs, changed,
                    user);
      continue;
    }
    if (auto gather = dyn_cast<tt::GatherOp>(user)) {
      // Only the indices carry their layout to the result.
      if (!gather.getEfficientLayout() &&
          use.getOperandNumber() ==
              gather.getIndicesMutable().getOperandNumber()) {
        addCandidates(gather.getResult(), encs, changed, user);
        continue;
      }
    }
    if (user->hasTrait<OpTrait::SameOperandsAndResultEncoding>() ||
        user->hasTrait<OpTrait::Elementwise>() ||
        isa<tt::ReduceOp, tt::ExpandDimsOp, tt::ReshapeOp, tt::TransOp,
            tt::JoinOp, tt::SplitOp, ttg::ConvertLayoutOp>(user))
      addCandidates(user->getResults(), encs, changed, user);
  }
  return changed;
}

void ForwardPropagation::propagate() {
  SmallVector<Value> worklist;
  for (auto &entry : candidates)
    worklist.push_back(entry.first);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Candidates encs = candidates[value];
    SmallVector<Value> changed = propagateToUsers(value, encs);
    worklist.append(changed.begin(), changed.end());
  }
}

void ForwardPropagation::resolveConflicts() {
  for (auto &[value, encs] : candidates) {
    if (encs.size() <= 1)
      continue;
    Operation *def = value.getDefiningOp();
    bool memoryAccess =
        def &&
        isa<tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp, tt::AtomicCASOp>(def);
    Attribute best = encs.front();
    for (Attribute enc : encs)
      if (memoryAccess ? isa<ttg::BlockedEncodingAttr>(enc)
                       : isMmaEncoding(enc)) {
        best = enc;
        break;
      }
    encs.clear();
    encs.insert(best);
  }
}

Value ForwardPropagation::current(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return value;
  auto it = candidates.find(value);
  if (it == candidates.end())
    return value;
  Attribute enc = *it->second.begin();
  if (enc == type.getEncoding())
    return value;
  return rewritten.lookup({value, enc});
}

Value ForwardPropagation::valueIn(Value value, Attribute encoding) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return value;
  Value now = current(value);
  if (!now)
    now = value; // not rewritten (yet): convert the original
  if (encodingOf(now) == encoding)
    return now;
  OpBuilder b(value.getContext());
  b.setInsertionPointAfterValue(now);
  return ttg::ConvertLayoutOp::create(b, value.getLoc(),
                                      type.cloneWithEncoding(encoding), now);
}

void ForwardPropagation::replaceOrRemember(ValueRange oldValues,
                                           ValueRange newValues) {
  for (auto [oldV, newV] : llvm::zip(oldValues, newValues)) {
    if (oldV.getType() == newV.getType())
      oldV.replaceAllUsesWith(newV);
    else
      remember(oldV, newV);
  }
}

Operation *ForwardPropagation::cloneInEncoding(OpBuilder &b, Operation *op,
                                               Attribute encoding) {
  Operation *newOp = b.clone(*op);
  // Operand encoding: one that already gives `encoding`, else inferred back.
  Attribute operandEnc;
  if (op->getNumOperands() > 0) {
    for (Value operand : op->getOperands()) {
      Value now = current(operand);
      Attribute enc = now ? encodingOf(now) : Attribute();
      if (enc && inferDstEncoding(op, enc) == encoding) {
        operandEnc = enc;
        break;
      }
    }
    if (!operandEnc)
      operandEnc = inferSrcEncoding(op, encoding);
  }
  for (OpOperand &operand : op->getOpOperands())
    newOp->setOperand(operand.getOperandNumber(),
                      operandEnc ? valueIn(operand.get(), operandEnc)
                                 : operand.get());
  for (auto [oldR, newR] : llvm::zip(op->getResults(), newOp->getResults()))
    if (isa<RankedTensorType>(oldR.getType()))
      newR.setType(withEncoding(oldR.getType(), encoding));
  return newOp;
}

Operation *ForwardPropagation::rewriteFor(scf::ForOp forOp) {
  OpBuilder b(forOp);
  SmallVector<Value> inits;
  for (auto [init, result] :
       llvm::zip(forOp.getInitArgs(), forOp.getResults())) {
    auto it = candidates.find(result);
    inits.push_back(
        it == candidates.end() ? init : valueIn(init, *it->second.begin()));
  }
  auto newFor =
      scf::ForOp::create(b, forOp.getLoc(), forOp.getLowerBound(),
                         forOp.getUpperBound(), forOp.getStep(), inits);
  newFor->setAttrs(forOp->getAttrs());
  // The builder may have added a terminator (no iter_args): the old body
  // brings its own.
  newFor.getBody()->getOperations().clear();
  newFor.getBody()->getOperations().splice(newFor.getBody()->begin(),
                                           forOp.getBody()->getOperations());
  replaceOrRemember(forOp.getResults(), newFor.getResults());
  replaceOrRemember(forOp.getBody()->getArguments(),
                    newFor.getBody()->getArguments());
  return newFor;
}

Operation *ForwardPropagation::rewriteWhile(scf::WhileOp whileOp) {
  OpBuilder b(whileOp);
  SmallVector<Value> inits;
  for (auto [init, arg] :
       llvm::zip(whileOp.getInits(), whileOp.getBeforeArguments())) {
    auto it = candidates.find(arg);
    inits.push_back(
        it == candidates.end() ? init : valueIn(init, *it->second.begin()));
  }
  SmallVector<Type> resultTypes;
  for (Value result : whileOp.getResults()) {
    auto it = candidates.find(result);
    resultTypes.push_back(
        it == candidates.end()
            ? result.getType()
            : withEncoding(result.getType(), *it->second.begin()));
  }
  auto newWhile = scf::WhileOp::create(b, whileOp.getLoc(), resultTypes, inits);
  SmallVector<Type> beforeTypes;
  for (Value v : inits)
    beforeTypes.push_back(v.getType());
  b.createBlock(&newWhile.getBefore(), {}, beforeTypes,
                SmallVector<Location>(beforeTypes.size(), whileOp.getLoc()));
  b.createBlock(&newWhile.getAfter(), {}, resultTypes,
                SmallVector<Location>(resultTypes.size(), whileOp.getLoc()));
  for (unsigned i = 0; i < 2; ++i)
    newWhile->getRegion(i).front().getOperations().splice(
        newWhile->getRegion(i).front().begin(),
        whileOp->getRegion(i).front().getOperations());
  replaceOrRemember(whileOp.getResults(), newWhile.getResults());
  replaceOrRemember(whileOp.getBeforeArguments(),
                    newWhile.getBeforeArguments());
  replaceOrRemember(whileOp.getAfterArguments(), newWhile.getAfterArguments());
  return newWhile;
}

Operation *ForwardPropagation::rewriteIf(scf::IfOp ifOp) {
  OpBuilder b(ifOp);
  SmallVector<Type> types(ifOp.getResultTypes());
  for (auto [i, result] : llvm::enumerate(ifOp.getResults())) {
    auto it = candidates.find(result);
    if (it != candidates.end())
      types[i] = withEncoding(result.getType(), *it->second.begin());
  }
  auto newIf = scf::IfOp::create(b, ifOp.getLoc(), types, ifOp.getCondition(),
                                 /*addThenBlock=*/true, /*addElseBlock=*/true);
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  replaceOrRemember(ifOp.getResults(), newIf.getResults());
  return newIf;
}

void ForwardPropagation::rewriteYield(scf::YieldOp yield) {
  Operation *parent = yield->getParentOp();
  for (OpOperand &operand : yield->getOpOperands()) {
    unsigned idx = operand.getOperandNumber();
    Type want = operand.get().getType();
    if (isa<scf::ForOp, scf::IfOp>(parent) && idx < parent->getNumResults())
      want = parent->getResult(idx).getType();
    if (auto whileOp = dyn_cast<scf::WhileOp>(parent))
      want = whileOp.getBeforeArguments()[idx].getType();
    auto type = dyn_cast<RankedTensorType>(want);
    if (!type)
      continue;
    yield->setOperand(idx, valueIn(operand.get(), type.getEncoding()));
  }
}

void ForwardPropagation::rewriteCondition(scf::ConditionOp condition) {
  auto whileOp = cast<scf::WhileOp>(condition->getParentOp());
  for (unsigned i = 1; i < condition->getNumOperands(); ++i) {
    auto type = dyn_cast<RankedTensorType>(whileOp->getResult(i - 1).getType());
    if (!type)
      continue;
    condition->setOperand(
        i, valueIn(condition->getOperand(i), type.getEncoding()));
  }
}

// A reduction to scalars does not care about its operands' layout: take the
// first chosen one for all of them.
void ForwardPropagation::rewriteScalarReduce(Operation *reduce) {
  Attribute enc;
  for (Value operand : reduce->getOperands()) {
    auto it = candidates.find(operand);
    if (it != candidates.end()) {
      enc = *it->second.begin();
      break;
    }
  }
  if (!enc)
    return;
  for (OpOperand &operand : reduce->getOpOperands())
    reduce->setOperand(operand.getOperandNumber(), valueIn(operand.get(), enc));
}

void ForwardPropagation::rewriteAssert(tt::AssertOp assertOp) {
  Value cond = assertOp->getOperand(0);
  auto it = candidates.find(cond);
  if (it == candidates.end())
    return;
  assertOp->setOperand(0, valueIn(cond, *it->second.begin()));
}

Operation *ForwardPropagation::rewriteOp(Operation *op) {
  toErase.insert(op);
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return rewriteFor(forOp);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return rewriteWhile(whileOp);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return rewriteIf(ifOp);
  OpBuilder b(op);
  Attribute enc = chosenForResults(op);
  if (!enc || op->getNumResults() == 0) {
    toErase.remove(op);
    return nullptr;
  }
  if (auto cvt = dyn_cast<ttg::ConvertLayoutOp>(op)) {
    Attribute srcEnc = encodingOf(cvt.getSrc());
    auto it = candidates.find(cvt.getSrc());
    if (it != candidates.end())
      srcEnc = *it->second.begin();
    Value src = valueIn(cvt.getSrc(), srcEnc);
    auto newCvt = ttg::ConvertLayoutOp::create(
        b, op->getLoc(), withEncoding(cvt.getType(), enc), src);
    remember(cvt.getResult(), newCvt.getResult());
    return newCvt;
  }
  if (absorbsConversion(op, enc)) {
    Operation *copy = b.clone(*op);
    auto newCvt = ttg::ConvertLayoutOp::create(
        b, op->getLoc(), withEncoding(op->getResult(0).getType(), enc),
        copy->getResult(0));
    remember(op->getResult(0), newCvt.getResult());
    return newCvt;
  }
  if (op->hasTrait<OpTrait::SameOperandsAndResultEncoding>() ||
      op->hasTrait<OpTrait::Elementwise>() ||
      isa<tt::ReduceOp, tt::ExpandDimsOp, tt::ReshapeOp, tt::TransOp,
          tt::JoinOp, tt::SplitOp, tt::GatherOp, ttng::WarpGroupDotWaitOp>(
          op)) {
    Operation *newOp = cloneInEncoding(b, op, enc);
    replaceOrRemember(op->getResults(), newOp->getResults());
    return newOp;
  }
  toErase.remove(op);
  return nullptr;
}

LogicalResult ForwardPropagation::rewrite() {
  std::deque<Region *> regions = {&func.getBody()};
  while (!regions.empty()) {
    Region *region = regions.front();
    regions.pop_front();
    for (Operation &op : region->getOps()) {
      bool changesLayout = false;
      for (Value result : op.getResults()) {
        auto it = candidates.find(result);
        if (it != candidates.end() && encodingOf(result) != *it->second.begin())
          changesLayout = true;
      }
      if (changesLayout) {
        Operation *newOp = rewriteOp(&op);
        if (!newOp)
          return op.emitError("cannot give this op another layout");
        for (Region &r : newOp->getRegions())
          regions.push_back(&r);
      } else if (auto yield = dyn_cast<scf::YieldOp>(&op)) {
        rewriteYield(yield);
      } else if (auto condition = dyn_cast<scf::ConditionOp>(&op)) {
        rewriteCondition(condition);
      } else if (isa<tt::ReduceOp>(op) &&
                 !isa<RankedTensorType>(op.getResultTypes()[0])) {
        rewriteScalarReduce(&op);
      } else if (auto assertOp = dyn_cast<tt::AssertOp>(&op)) {
        rewriteAssert(assertOp);
      } else {
        // The op keeps its layout; its operands may have moved.
        for (OpOperand &operand : op.getOpOperands()) {
          if (!candidates.count(operand.get()))
            continue;
          op.setOperand(operand.getOperandNumber(),
                        valueIn(operand.get(), encodingOf(operand.get())));
        }
        for (Region &r : op.getRegions())
          regions.push_back(&r);
      }
    }
  }
  for (Operation *op : llvm::reverse(toErase)) {
    if (!op->use_empty()) {
      return op->emitError("layout propagation left uses of a replaced op");
    }
    op->erase();
  }
  return success();
}

} // namespace

LogicalResult mlir::tgpu::remove_layout_conversions::propagateLayoutsForward(
    tt::FuncOp func) {
  ForwardPropagation propagation(func);
  propagation.seedAnchors();
  propagation.propagate();
  propagation.resolveConflicts();
  return propagation.rewrite();
}
