// tritongpu-remove-layout-conversions: after coalescing, most tensors are
// converted into an access's layout right before it and back right after.
// The pass makes whole computations use one layout so that those converts
// disappear, deciding as Triton 3.6 does:
//  1. Forward: the results of anchors (expensive loads/stores, dots,
//     atomics, function arguments) keep their layouts; each anchor's layout
//     flows to the users that can take any layout (elementwise ops, reduce,
//     expand_dims, trans, loops, ...). A value reached by several layouts
//     keeps the one with most elements per thread (else blocked next to
//     memory accesses, mma for compute); the function is then rewritten.
//  2. Backward: each remaining convert is replaced by recomputing its
//     source's producers in the target layout, when they all can be and the
//     duplicated work costs less than the conversion.
//  3. Hoisting: converts left over move above widening casts and
//     broadcasts (less data to move), into the branch of an scf.if that
//     needs them, and next to the loads feeding mma dot operands.
//  4. Cleanup: convert canonicalization, dead loop-carried values, scf
//     canonicalization.
#include "tgpu/Transforms/Passes.h"

#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "tgpu/Transforms/LayoutUtils.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/MapVector.h"

#include <deque>

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUREMOVELAYOUTCONVERSIONS
#include "tgpu/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

Attribute encodingOf(Value v) { return tt::getEncoding(v.getType()); }

RankedTensorType withEncoding(Type type, Attribute encoding) {
  return cast<RankedTensorType>(type).cloneWithEncoding(encoding);
}

bool isMmaEncoding(Attribute enc) {
  return isa_and_nonnull<ttg::NvidiaMmaEncodingAttr>(enc);
}

//===----------------------------------------------------------------------===//
// Anchors
//===----------------------------------------------------------------------===//

// An mma result is only worth keeping in mma layout when something further
// down wants it in mma (or dot operand) layout again; otherwise reductions
// and stores would run on the mma layout.
bool reachesMmaConsumer(Operation *op, Attribute mma) {
  auto mmaAttr = dyn_cast<ttg::NvidiaMmaEncodingAttr>(mma);
  if (!mmaAttr)
    return false;
  SmallVector<Value> worklist = {op->getResult(0)};
  SetVector<Operation *> reached;
  DenseSet<Value> queued;
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    getForwardSlice(current, &reached);
    for (Operation *user : reached) {
      // Reductions over tensors smaller than an mma tile misbehave in that
      // layout: give up on keeping it.
      if (isa<tt::ReduceOp>(user)) {
        auto srcType = dyn_cast<RankedTensorType>(user->getOperand(0).getType());
        if (srcType && isMmaEncoding(srcType.getEncoding()) &&
            srcType.getRank() >= 2 && mmaAttr.getInstrShape().size() >= 2) {
          ArrayRef<int64_t> shape = srcType.getShape();
          unsigned rank = srcType.getRank();
          if (shape[rank - 2] < mmaAttr.getInstrShape()[0] ||
              shape[rank - 1] < mmaAttr.getInstrShape()[1])
            return false;
        }
      }
      if (auto cvt = dyn_cast<ttg::ConvertLayoutOp>(user)) {
        Attribute dst = encodingOf(cvt.getResult());
        if (auto dstMma = dyn_cast<ttg::NvidiaMmaEncodingAttr>(dst))
          return dstMma.getVersionMajor() > 1 || dstMma == mma;
        if (isa<ttg::DotOperandEncodingAttr>(dst))
          return mmaAttr.getVersionMajor() > 1;
      }
      if (mmaAttr.getVersionMajor() == 3 &&
          isa<ttg::LocalAllocOp, ttg::LocalStoreOp>(user))
        return true;
      auto yield = dyn_cast<scf::YieldOp>(user);
      if (!yield)
        continue;
      Operation *parent = yield->getParentOp();
      if (!isa<scf::IfOp, scf::ForOp>(parent))
        continue;
      // Follow the value out of ifs and around loops.
      for (OpOperand &operand : yield->getOpOperands()) {
        Operation *def = operand.get().getDefiningOp();
        if (!def || !(reached.count(def) || operand.get() == current) ||
            !queued.insert(operand.get()).second)
          continue;
        unsigned idx = operand.getOperandNumber();
        if (auto ifOp = dyn_cast<scf::IfOp>(parent))
          worklist.push_back(ifOp.getResult(idx));
        else
          worklist.push_back(cast<scf::ForOp>(parent).getRegionIterArg(idx));
      }
    }
  }
  return false;
}

// Ops whose result layout we keep and propagate from.
bool isLayoutAnchor(Operation *op) {
  if (isa<tt::LoadOp, tt::StoreOp>(op))
    return isExpensiveMemoryAccess(op);
  if (isa<ttg::LocalLoadOp>(op))
    return isExpensiveSharedLoad(op);
  if (isa<tt::DotOp, ttng::WarpGroupDotOp, tt::AtomicRMWOp, tt::AtomicCASOp>(op))
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
    if (isMmaEncoding(type.getEncoding()) && v.getDefiningOp() &&
        !reachesMmaConsumer(v.getDefiningOp(), type.getEncoding()))
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

void ForwardPropagation::addCandidates(ValueRange values, const Candidates &encs,
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

SmallVector<Value> ForwardPropagation::propagateToUsers(Value value,
                                                        const Candidates &encs) {
  SmallVector<Value> changed;
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (auto forOp = dyn_cast<scf::ForOp>(user)) {
      if (use.getOperandNumber() < forOp.getNumControlOperands())
        continue;
      addCandidates({forOp.getTiedLoopRegionIterArg(&use),
                     forOp.getTiedLoopResult(&use)},
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
          use.getOperandNumber() == gather.getIndicesMutable().getOperandNumber()) {
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

// Higher is better: elements per thread of a blocked layout (vector width).
int64_t layoutScore(Attribute enc) {
  auto blocked = dyn_cast<ttg::BlockedEncodingAttr>(enc);
  if (!blocked)
    return 0;
  int64_t score = 1;
  for (unsigned s : blocked.getSizePerThread())
    score *= s;
  return score;
}

void ForwardPropagation::resolveConflicts() {
  for (auto &[value, encs] : candidates) {
    if (encs.size() <= 1)
      continue;
    Operation *def = value.getDefiningOp();
    bool memoryAccess =
        def && isa<tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp, tt::AtomicCASOp>(def);
    Attribute best = encs.front();
    int64_t bestScore = layoutScore(best);
    for (Attribute enc : encs) {
      int64_t score = layoutScore(enc);
      if (score > bestScore) {
        bestScore = score;
        best = enc;
      }
    }
    // No vectorised blocked layout: blocked next to memory, mma elsewhere.
    if (bestScore == 0) {
      for (Attribute enc : encs)
        if (memoryAccess ? isa<ttg::BlockedEncodingAttr>(enc) : isMmaEncoding(enc)) {
          best = enc;
          break;
        }
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
  for (auto [init, result] : llvm::zip(forOp.getInitArgs(), forOp.getResults())) {
    auto it = candidates.find(result);
    inits.push_back(it == candidates.end() ? init
                                           : valueIn(init, *it->second.begin()));
  }
  auto newFor = scf::ForOp::create(b, forOp.getLoc(), forOp.getLowerBound(),
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
    inits.push_back(it == candidates.end() ? init
                                           : valueIn(init, *it->second.begin()));
  }
  SmallVector<Type> resultTypes;
  for (Value result : whileOp.getResults()) {
    auto it = candidates.find(result);
    resultTypes.push_back(it == candidates.end()
                              ? result.getType()
                              : withEncoding(result.getType(),
                                             *it->second.begin()));
  }
  auto newWhile =
      scf::WhileOp::create(b, whileOp.getLoc(), resultTypes, inits);
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
    condition->setOperand(i, valueIn(condition->getOperand(i),
                                     type.getEncoding()));
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
          tt::JoinOp, tt::SplitOp, tt::GatherOp, ttng::WarpGroupDotWaitOp>(op)) {
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
        if (it != candidates.end() &&
            encodingOf(result) != *it->second.begin())
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

//===----------------------------------------------------------------------===//
// 2./3. Backward rematerialisation and hoisting
//===----------------------------------------------------------------------===//

bool canBeRematerialised(Operation *op) {
  if (isa<tt::LoadOp, tt::StoreOp>(op))
    return !isExpensiveMemoryAccess(op);
  if (isa<ttg::LocalLoadOp>(op))
    return !isExpensiveSharedLoad(op);
  if (isa<tt::AtomicRMWOp, tt::AtomicCASOp, tt::DotOp>(op))
    return false;
  if (auto gather = dyn_cast<tt::GatherOp>(op))
    return !gather.getEfficientLayout();
  return !isa<scf::WhileOp, scf::ConditionOp>(op);
}

// Ops that need several instructions or the special function unit.
bool usesSlowMathUnit(Operation *op) {
  return isa<arith::DivFOp, math::ErfcOp, math::SinhOp, math::CoshOp,
             math::TanhOp, math::AsinhOp, math::AcoshOp, math::AtanhOp,
             math::CtPopOp, math::CountLeadingZerosOp,
             math::CountTrailingZerosOp, math::ExpOp, math::Exp2Op,
             math::ExpM1Op, math::LogOp, math::Log2Op, math::Log10Op,
             math::Log1pOp, math::SinOp, math::CosOp, math::TanOp,
             math::AsinOp, math::AcosOp, math::AtanOp, math::Atan2Op,
             math::PowFOp, math::SqrtOp, math::RsqrtOp, math::ErfOp,
             math::CbrtOp>(op);
}

int64_t byteCount(Value v, int64_t minElements = 0, int64_t minBits = 0) {
  int64_t elements = 0, bits = 0;
  if (auto type = dyn_cast<RankedTensorType>(v.getType())) {
    elements = type.getNumElements();
    if (type.getElementType().isIntOrFloat())
      bits = type.getElementType().getIntOrFloatBitWidth();
  }
  return (std::max(elements, minElements) * std::max(bits, minBits)) >> 3;
}

// A float sum or product over more than two elements gives different bits
// when recomputed in another layout (another combination order).
bool isAssociativeReduce(tt::ReduceOp reduce) {
  auto type = cast<RankedTensorType>(reduce->getOperand(0).getType());
  if (!isa<FloatType>(type.getElementType()))
    return true;
  if (type.getShape()[reduce.getAxis()] <= 2)
    return true;
  bool reorders = false;
  reduce.walk([&](Operation *op) {
    if (isa<arith::AddFOp, arith::MulFOp>(op)) {
      reorders = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return !reorders;
}

int64_t loopStages(scf::ForOp forOp, int64_t fallback) {
  if (auto attr = forOp->getAttrOfType<IntegerAttr>("tt.num_stages"))
    return attr.getInt();
  return fallback;
}

bool isViewOp(Operation *op) {
  return isa<tt::ExpandDimsOp, tt::ReshapeOp, tt::TransOp, tt::JoinOp,
             tt::SplitOp>(op);
}

class Rematerialiser {
public:
  explicit Rematerialiser(tt::FuncOp func) : func(func) {}

  // Each runs over every convert of the function; the first says whether a
  // convert went away.
  bool rematerialiseAll();
  void hoistAboveExtOrBroadcastAll();
  void hoistIntoConditionalsAll();
  void hoistDotOperandsAll();
  // Erases what the rewrites left for later.
  void cleanup();

private:
  template <typename Fn> void forEachConvert(Fn fn);
  void rematerialise(ttg::ConvertLayoutOp cvt);
  void hoistAboveExtOrBroadcast(ttg::ConvertLayoutOp cvt);
  void hoistIntoConditionals(ttg::ConvertLayoutOp cvt);
  void hoistDotOperand(ttg::ConvertLayoutOp cvt);

  LogicalResult backwardSlice(OpOperand &root, Attribute encoding,
                              SetVector<Value> &slice,
                              DenseMap<Value, Attribute> &layout,
                              function_ref<bool(Operation *)> stop);
  LogicalResult rematerialisableSlice(
      OpOperand &root, Attribute encoding, SetVector<Value> &slice,
      DenseMap<Value, Attribute> &layout,
      function_ref<bool(Operation *)> stop = nullptr);
  void rewriteSlice(SetVector<Value> &slice, DenseMap<Value, Attribute> &layout,
                    ttg::ConvertLayoutOp cvt, IRMapping &mapping);

  void addRemat(Value old, Attribute encoding, Value newValue) {
    remats[{old, encoding}] = newValue;
    rematEncoding[old] = encoding;
  }
  Value remat(Value value, Attribute encoding) const {
    return remats.lookup({value, encoding});
  }
  void moveRemats(ArrayRef<std::tuple<Value, Value>> replacements);

  tt::FuncOp func;
  // (value, encoding) -> a value holding it in that encoding.
  DenseMap<std::pair<Value, Attribute>, Value> remats;
  // The encoding under which each value has an entry in `remats`.
  DenseMap<Value, Attribute> rematEncoding;
  SetVector<Operation *> toErase;
  DominanceInfo dominance;
  PostDominanceInfo postDominance;
};

template <typename Fn> void Rematerialiser::forEachConvert(Fn fn) {
  SmallVector<ttg::ConvertLayoutOp> converts;
  func.walk([&](ttg::ConvertLayoutOp cvt) { converts.push_back(cvt); });
  for (ttg::ConvertLayoutOp cvt : converts) {
    fn(cvt);
    // A convert that stays can be reused by later slices.
    if (!toErase.contains(cvt))
      addRemat(cvt.getSrc(), encodingOf(cvt.getResult()), cvt.getResult());
  }
}

bool Rematerialiser::rematerialiseAll() {
  bool changed = false;
  forEachConvert([&](ttg::ConvertLayoutOp cvt) {
    rematerialise(cvt);
    changed |= toErase.contains(cvt);
  });
  return changed;
}

void Rematerialiser::hoistAboveExtOrBroadcastAll() {
  forEachConvert([&](ttg::ConvertLayoutOp cvt) { hoistAboveExtOrBroadcast(cvt); });
}

void Rematerialiser::hoistIntoConditionalsAll() {
  forEachConvert([&](ttg::ConvertLayoutOp cvt) { hoistIntoConditionals(cvt); });
}

void Rematerialiser::hoistDotOperandsAll() {
  forEachConvert([&](ttg::ConvertLayoutOp cvt) { hoistDotOperand(cvt); });
}

void Rematerialiser::cleanup() {
  // Anything still used stays for the canonicaliser to judge.
  for (Operation *op : llvm::reverse(toErase))
    if (op->use_empty())
      op->erase();
  toErase.clear();
}

// Values replaced by rewriteSlice keep their rematerialisations under the
// new value.
void Rematerialiser::moveRemats(
    ArrayRef<std::tuple<Value, Value>> replacements) {
  for (auto [old, newValue] : replacements) {
    auto it = rematEncoding.find(old);
    if (it == rematEncoding.end())
      continue;
    Attribute enc = it->second;
    auto rematIt = remats.find({old, enc});
    if (rematIt == remats.end())
      continue;
    Value held = rematIt->second;
    remats.erase(rematIt);
    rematEncoding.erase(it);
    for (auto [before, after] : replacements)
      if (before == held) {
        held = after;
        break;
      }
    remats[{newValue, enc}] = held;
    rematEncoding[newValue] = enc;
  }
}

LogicalResult Rematerialiser::backwardSlice(
    OpOperand &root, Attribute encoding, SetVector<Value> &slice,
    DenseMap<Value, Attribute> &layout, function_ref<bool(Operation *)> stop) {
  // Reuse a value already rematerialised in the wanted layout when it
  // dominates the use (converts are visited in program order).
  auto reuse = [&](OpOperand &use, Attribute enc) -> Value {
    Value r = remat(use.get(), enc);
    if (r && dominance.properlyDominates(r, use.getOwner()))
      return r;
    return Value();
  };
  return collectRematSlice(root, slice, encoding, layout, stop, reuse);
}

LogicalResult Rematerialiser::rematerialisableSlice(
    OpOperand &root, Attribute encoding, SetVector<Value> &slice,
    DenseMap<Value, Attribute> &layout, function_ref<bool(Operation *)> stop) {
  if (failed(backwardSlice(root, encoding, slice, layout, stop)) ||
      slice.empty())
    return failure();
  for (Value v : slice)
    if (Operation *def = v.getDefiningOp(); def && !canBeRematerialised(def))
      return failure();
  return success();
}

void Rematerialiser::rewriteSlice(SetVector<Value> &slice,
                                  DenseMap<Value, Attribute> &layout,
                                  ttg::ConvertLayoutOp cvt, IRMapping &mapping) {
  SetVector<Operation *> toRewrite;
  // Yield operands to duplicate, per yield.
  DenseMap<Operation *, SmallVector<unsigned>> yieldOperands;
  SetVector<Value> reused;
  for (Value v : slice) {
    Attribute enc = layout.lookup(v);
    if (Value r = remat(v, enc)) {
      mapping.map(v, r);
      reused.insert(v);
      continue;
    }
    if (Operation *def = v.getDefiningOp()) {
      toRewrite.insert(def);
      if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
        unsigned idx = cast<OpResult>(v).getResultNumber();
        for (scf::YieldOp y : {ifOp.thenYield(), ifOp.elseYield()}) {
          toRewrite.insert(y);
          yieldOperands[y].push_back(idx);
        }
      }
      continue;
    }
    auto arg = cast<BlockArgument>(v);
    if (auto loop = dyn_cast<LoopLikeOpInterface>(arg.getOwner()->getParentOp())) {
      toRewrite.insert(loop);
      OpOperand *yielded = loop.getTiedLoopYieldedValue(arg);
      Operation *yield = arg.getOwner()->getTerminator();
      yieldOperands[yield].push_back(yielded->getOperandNumber());
      toRewrite.insert(yield);
    }
  }
  slice.set_subtract(reused);
  toRewrite = mlir::topologicalSort(toRewrite);

  // Uses are replaced at the end so that slice membership stays meaningful.
  SmallVector<std::tuple<Value, Value>> replacements;
  SmallVector<Operation *> deadOps;
  IRRewriter b(cvt.getContext());
  for (Operation *op : toRewrite) {
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      // (old result index, new result index) of each duplicated iter_arg.
      SmallVector<std::pair<unsigned, unsigned>> duplicated;
      SmallVector<Value> newInits;
      for (BlockArgument arg : forOp.getRegionIterArgs()) {
        if (!slice.count(arg))
          continue;
        OpOperand *init = forOp.getTiedLoopInit(arg);
        duplicated.push_back({forOp.getTiedLoopResult(init).getResultNumber(),
                              forOp.getInitArgs().size() + newInits.size()});
        newInits.push_back(mapping.lookupOrDefault(init->get()));
      }
      scf::ForOp newFor =
          appendLoopIterArgs(b, forOp, newInits, replacements);
      deadOps.push_back(forOp);
      Block &body = *newFor.getBody();
      unsigned ivs = newFor.getNumInductionVars();
      for (auto [from, to] : duplicated) {
        Value oldArg = body.getArgument(from + ivs);
        Attribute enc = layout.lookup(oldArg);
        mapping.map(forOp.getResult(from), newFor.getResult(to));
        mapping.map(oldArg, body.getArgument(to + ivs));
        addRemat(newFor.getResult(from), enc, newFor.getResult(to));
        addRemat(oldArg, enc, body.getArgument(to + ivs));
      }
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      SmallVector<Type> newTypes;
      for (Value r : ifOp.getResults())
        if (slice.count(r))
          newTypes.push_back(withEncoding(r.getType(), layout.lookup(r)));
      scf::IfOp newIf =
          appendIfResults(b, ifOp, newTypes, replacements);
      unsigned next = ifOp.getNumResults();
      for (Value r : ifOp.getResults()) {
        if (!slice.count(r))
          continue;
        mapping.map(r, newIf.getResult(next));
        addRemat(r, layout.lookup(r), newIf.getResult(next));
        ++next;
      }
      deadOps.push_back(ifOp);
      continue;
    }
    b.setInsertionPoint(op);
    if (auto yield = dyn_cast<scf::YieldOp>(op)) {
      SmallVector<Value> operands(yield.getOperands());
      SmallVector<unsigned> extra = yieldOperands[op];
      // In the order the new results / iter_args were added.
      llvm::sort(extra);
      for (unsigned idx : extra)
        operands.push_back(mapping.lookupOrDefault(yield.getOperand(idx)));
      scf::YieldOp::create(b, op->getLoc(), operands);
      op->erase();
      continue;
    }
    if (isa<arith::ConstantOp>(op)) {
      // Converted copy; the canonicaliser folds the convert into it.
      Operation *copy = b.clone(*op);
      Value result = op->getResult(0);
      Attribute enc = layout.lookup(result);
      auto newCvt = ttg::ConvertLayoutOp::create(
          b, op->getLoc(), withEncoding(result.getType(), enc),
          copy->getResult(0));
      mapping.map(result, newCvt.getResult());
      addRemat(result, enc, newCvt.getResult());
      continue;
    }
    Operation *copy = b.clone(*op, mapping);
    for (auto [oldR, newR] : llvm::zip(op->getResults(), copy->getResults())) {
      auto it = layout.find(oldR);
      if (it == layout.end())
        continue;
      newR.setType(withEncoding(oldR.getType(), it->second));
      addRemat(oldR, it->second, newR);
    }
  }
  cvt.replaceAllUsesWith(mapping.lookupOrDefault(cvt.getSrc()));
  toErase.insert(cvt);

  moveRemats(replacements);
  for (auto [oldV, newV] : replacements)
    b.replaceAllUsesWith(oldV, newV);
  for (Operation *op : deadOps)
    toErase.insert(op);
}

void Rematerialiser::rematerialise(ttg::ConvertLayoutOp cvt) {
  Attribute target = encodingOf(cvt.getResult());
  // Dot operands inside pipelined loops are left to hoistDotOperand.
  if (isa<ttg::DotOperandEncodingAttr>(target))
    if (auto loop = cvt->getParentOfType<scf::ForOp>(); loop && loopStages(loop, 3) > 1)
      return;

  if (Value r = remat(cvt.getSrc(), target);
      r && dominance.properlyDominates(r, cvt)) {
    cvt.replaceAllUsesWith(r);
    toErase.insert(cvt);
    return;
  }

  SetVector<Value> slice;
  DenseMap<Value, Attribute> layout;
  if (failed(rematerialisableSlice(cvt.getSrcMutable(), target, slice, layout)))
    return;

  // Cost model (Triton's units): the convert round-trips through shared
  // memory (at least a warp's worth of 32-bit words), twice for the
  // synchronisation; recomputing costs per byte produced, except for ops
  // only this convert uses (they move rather than duplicate).
  SetVector<Operation *> sliceOps;
  for (Value v : slice)
    if (Operation *def = v.getDefiningOp())
      sliceOps.insert(def);
  DenseMap<Operation *, bool> singleUse;
  std::function<bool(Operation *)> onlyFeedsConvert = [&](Operation *op) {
    auto it = singleUse.find(op);
    if (it != singleUse.end())
      return it->second;
    bool single = true;
    for (Value r : op->getResults()) {
      for (Operation *user : r.getUsers()) {
        if (user == cvt.getOperation())
          continue;
        if (!sliceOps.contains(user) || !onlyFeedsConvert(user)) {
          single = false;
          break;
        }
      }
      if (!single)
        break;
    }
    singleUse[op] = single;
    return single;
  };

  int64_t convertCost = 32 * byteCount(cvt.getSrc(), 32, 32);
  int64_t rematCost = 0;
  for (Operation *op : sliceOps) {
    if (onlyFeedsConvert(op) || isa<arith::ConstantOp>(op))
      continue;
    if (isa<tt::LoadOp, ttg::LocalLoadOp>(op)) {
      // Assume the repeated load hits in L1.
      for (Value r : op->getResults())
        rematCost += 8 * byteCount(r);
    } else if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect())) {
      int64_t factor = usesSlowMathUnit(op) ? 8 : 1;
      for (Value r : op->getResults())
        rematCost += factor * byteCount(r);
    } else if (auto reduce = dyn_cast<tt::ReduceOp>(op)) {
      // Recomputing would change the result's bits.
      if (!isAssociativeReduce(reduce))
        return;
      auto srcType = cast<RankedTensorType>(reduce->getOperand(0).getType());
      unsigned axis = reduce.getAxis();
      rematCost += getDistinctBasesPerDim(srcType, "lane")[axis];
      rematCost += 8 * getDistinctBasesPerDim(srcType, "warp")[axis];
    }
  }
  if (rematCost > convertCost)
    return;

  IRMapping mapping;
  rewriteSlice(slice, layout, cvt, mapping);
}

void Rematerialiser::hoistAboveExtOrBroadcast(ttg::ConvertLayoutOp cvt) {
  Attribute target = encodingOf(cvt.getResult());
  if (isa<ttg::DotOperandEncodingAttr>(target))
    return;
  auto isExtOrBroadcast = [](Operation *op) {
    if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::ExtFOp, tt::BroadcastOp,
            tt::ExpandDimsOp>(op))
      return true;
    if (auto fpToFp = dyn_cast<tt::FpToFpOp>(op)) {
      auto bits = [](Type t) {
        Type e = getElementTypeOrSelf(t);
        return e.isIntOrFloat() ? e.getIntOrFloatBitWidth() : 0u;
      };
      return bits(fpToFp.getSrc().getType()) < bits(fpToFp.getType());
    }
    return false;
  };
  SetVector<Value> slice;
  DenseMap<Value, Attribute> layout;
  if (failed(rematerialisableSlice(cvt.getSrcMutable(), target, slice, layout,
                                   isExtOrBroadcast)))
    return;

  Operation *hoistAbove = nullptr;
  unsigned size = slice.size();
  for (unsigned i = 0; i < size; ++i) {
    Value v = slice[i];
    Operation *op = v.getDefiningOp();
    if (!op || !isExtOrBroadcast(op))
      continue;
    Attribute srcEnc = inferSrcEncoding(op, layout.lookup(v));
    if (!srcEnc)
      return;
    SetVector<Value> above;
    DenseMap<Value, Attribute> aboveLayout;
    LogicalResult result =
        rematerialisableSlice(op->getOpOperand(0), srcEnc, above, aboveLayout);
    // A value already assigned another layout blocks going further up.
    for (auto [val, enc] : aboveLayout) {
      auto it = layout.find(val);
      if (it != layout.end() && it->second != enc) {
        result = failure();
        break;
      }
    }
    // Everything above can be recomputed too: no convert needed here.
    if (succeeded(result)) {
      slice.insert(above.begin(), above.end());
      layout.insert(aboveLayout.begin(), aboveLayout.end());
      continue;
    }
    // Only one place to put the convert, or it would be duplicated.
    if (hoistAbove)
      return;
    hoistAbove = op;
  }
  if (!hoistAbove)
    return;

  Attribute dstEnc = layout.lookup(hoistAbove->getResult(0));
  Attribute srcEnc = inferSrcEncoding(hoistAbove, dstEnc);
  if (!srcEnc)
    return;
  OpBuilder b(hoistAbove);
  auto newCvt = ttg::ConvertLayoutOp::create(
      b, cvt.getLoc(), withEncoding(hoistAbove->getOperand(0).getType(), srcEnc),
      hoistAbove->getOperand(0));
  Operation *copy = b.clone(*hoistAbove);
  copy->setOperand(0, newCvt.getResult());
  copy->getResult(0).setType(
      withEncoding(hoistAbove->getResult(0).getType(), dstEnc));
  IRMapping mapping;
  mapping.map(hoistAbove->getResult(0), copy->getResult(0));
  slice.remove(hoistAbove->getResult(0));
  rewriteSlice(slice, layout, cvt, mapping);
}

void Rematerialiser::hoistIntoConditionals(ttg::ConvertLayoutOp cvt) {
  auto isIf = [](Operation *op) { return isa<scf::IfOp>(op); };
  SetVector<Value> slice;
  DenseMap<Value, Attribute> layout;
  if (failed(rematerialisableSlice(cvt.getSrcMutable(), encodingOf(cvt.getResult()),
                                   slice, layout, isIf)))
    return;

  // (if result, the branch edge to put a convert on).
  SmallVector<std::pair<Value, OpOperand *>> hoistInto;
  // if results the walk cannot pass: converted right after the if.
  SmallVector<Value> stops;
  // The slice grows while we walk it.
  for (unsigned i = 0; i != slice.size(); ++i) {
    Value v = slice[i];
    auto ifOp = v.getDefiningOp<scf::IfOp>();
    if (!ifOp || ifOp.getElseRegion().empty())
      continue;
    Attribute enc = layout.lookup(v);
    unsigned idx = cast<OpResult>(v).getResultNumber();
    OpOperand &thenUse = ifOp.thenYield()->getOpOperand(idx);
    OpOperand &elseUse = ifOp.elseYield()->getOpOperand(idx);
    SetVector<Value> thenSlice, elseSlice;
    DenseMap<Value, Attribute> thenLayout, elseLayout;
    LogicalResult thenOk =
        rematerialisableSlice(thenUse, enc, thenSlice, thenLayout, isIf);
    LogicalResult elseOk =
        rematerialisableSlice(elseUse, enc, elseSlice, elseLayout, isIf);
    if (succeeded(thenOk) && succeeded(elseOk)) {
      slice.insert(thenSlice.begin(), thenSlice.end());
      slice.insert(elseSlice.begin(), elseSlice.end());
      layout.insert(thenLayout.begin(), thenLayout.end());
      layout.insert(elseLayout.begin(), elseLayout.end());
      continue;
    }
    if (failed(thenOk) && failed(elseOk)) {
      stops.push_back(v);
      continue;
    }
    // Converting in one branch only pays off when the if runs less often
    // than its surroundings: inside a loop.
    if (!isa<scf::ForOp>(ifOp->getParentOp())) {
      stops.push_back(v);
      continue;
    }
    if (succeeded(thenOk)) {
      hoistInto.push_back({v, &elseUse});
      slice.insert(thenSlice.begin(), thenSlice.end());
      layout.insert(thenLayout.begin(), thenLayout.end());
    } else {
      hoistInto.push_back({v, &thenUse});
      slice.insert(elseSlice.begin(), elseSlice.end());
      layout.insert(elseLayout.begin(), elseLayout.end());
    }
  }
  if (hoistInto.empty())
    return;

  IRMapping mapping;
  auto convertHere = [&](OpBuilder &b, Value v, Attribute enc) {
    Value c = ttg::ConvertLayoutOp::create(b, cvt.getLoc(),
                                           withEncoding(v.getType(), enc), v);
    mapping.map(v, c);
    slice.remove(v);
  };
  for (Value v : stops) {
    OpBuilder b(v.getContext());
    b.setInsertionPointAfter(v.getDefiningOp());
    convertHere(b, v, layout.lookup(v));
  }
  for (auto [result, edge] : hoistInto) {
    OpBuilder b(edge->getOwner());
    convertHere(b, edge->get(), layout.lookup(result));
  }
  rewriteSlice(slice, layout, cvt, mapping);
}

void Rematerialiser::hoistDotOperand(ttg::ConvertLayoutOp cvt) {
  Attribute target = encodingOf(cvt.getResult());
  // Only where a mma dot after the convert will be pipelined.
  Operation *parent = cvt->getParentOp();
  if (!parent)
    return;
  SmallVector<Operation *> dots;
  parent->walk([&](Operation *op) {
    if (!isa<tt::DotOp, ttng::WarpGroupDotOp>(op))
      return;
    auto aEnc = dyn_cast_or_null<ttg::DotOperandEncodingAttr>(
        encodingOf(op->getOperand(0)));
    if (aEnc && isMmaEncoding(aEnc.getParent()))
      dots.push_back(op);
  });
  if (!llvm::any_of(dots, [&](Operation *dot) {
        return postDominance.postDominates(dot, cvt);
      }))
    return;

  // Hoist over ops that move no data between threads.
  auto movesNoData = [](Operation *op) {
    return (op->hasTrait<OpTrait::Elementwise>() && isMemoryEffectFree(op)) ||
           isa<tt::BroadcastOp, ttg::ConvertLayoutOp>(op) || isViewOp(op);
  };
  auto stop = [&](Operation *op) { return !movesNoData(op); };
  SetVector<Value> slice;
  DenseMap<Value, Attribute> layout;
  if (failed(backwardSlice(cvt.getSrcMutable(), target, slice, layout, stop)))
    return;

  IRMapping mapping;
  SetVector<Value> inner;
  for (Value v : slice) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return;
    if (!isa<tt::LoadOp>(def)) {
      // The leaves must be loads (or constants).
      if (!isa<arith::ConstantOp>(def) && !movesNoData(def))
        return;
      inner.insert(v);
      continue;
    }
    auto type = dyn_cast<RankedTensorType>(def->getResult(0).getType());
    if (!type)
      continue;
    OpBuilder b(def->getContext());
    b.setInsertionPointAfter(def);
    auto newCvt = ttg::ConvertLayoutOp::create(
        b, cvt.getLoc(), type.cloneWithEncoding(layout.lookup(def->getResult(0))),
        def->getResult(0));
    mapping.map(def->getResult(0), newCvt.getResult());
  }
  if (inner.empty())
    return;
  rewriteSlice(inner, layout, cvt, mapping);
}

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
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    WalkResult forward = module.walk([&](tt::FuncOp func) {
      ForwardPropagation propagation(func);
      propagation.seedAnchors();
      propagation.propagate();
      propagation.resolveConflicts();
      if (failed(propagation.rewrite()))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (forward.wasInterrupted())
      return signalPassFailure();

    canonicalizeConverts();

    // To a fixpoint; but rematerialisation and the convert canonicalizations
    // can undo each other on some layouts and cycle (fuzz_pipeline found a
    // hang on random #ttg.linear layouts): stop when the IR comes back to a
    // state it was in before.
    llvm::DenseSet<llvm::hash_code> seen;
    auto state = [&] { return structuralHash(module); };
    seen.insert(state());
    bool changed;
    do {
      changed = false;
      module.walk([&](tt::FuncOp func) {
        Rematerialiser remat(func);
        changed |= remat.rematerialiseAll();
        remat.cleanup();
      });
      canonicalizeConverts();
    } while (changed && seen.insert(state()).second);

    module.walk([&](tt::FuncOp func) {
      {
        Rematerialiser remat(func);
        remat.hoistAboveExtOrBroadcastAll();
        remat.cleanup();
      }
      {
        Rematerialiser remat(func);
        remat.hoistIntoConditionalsAll();
        remat.cleanup();
      }
      {
        Rematerialiser remat(func);
        remat.hoistDotOperandsAll();
        remat.cleanup();
      }
    });

    RewritePatternSet patterns(ctx);
    patterns.add<DropDeadLoopCarriedValues>(ctx);
    scf::ForOp::getCanonicalizationPatterns(patterns, ctx);
    scf::IfOp::getCanonicalizationPatterns(patterns, ctx);
    ttg::ConvertLayoutOp::getCanonicalizationPatterns(patterns, ctx);
    (void)applyPatternsGreedily(module, std::move(patterns));
  }

private:
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
