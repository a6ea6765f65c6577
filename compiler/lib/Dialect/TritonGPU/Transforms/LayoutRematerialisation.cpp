// tritongpu-remove-layout-conversions, steps 2 and 3. Backward: each
// remaining convert is replaced by recomputing its source's producers in the
// target layout, when they all can be and the duplicated work costs less
// than the conversion. Hoisting: converts left over move above widening
// casts and broadcasts (less data to move), into the branch of an scf.if
// that needs them, and next to the loads feeding mma dot operands.
#include "RemoveLayoutConversions.h"

#include "tgpu/Dialect/TritonGPU/Transforms/LayoutUtils.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tgpu;
using namespace mlir::tgpu::remove_layout_conversions;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

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
             math::Log1pOp, math::SinOp, math::CosOp, math::TanOp, math::AsinOp,
             math::AcosOp, math::AtanOp, math::Atan2Op, math::PowFOp,
             math::SqrtOp, math::RsqrtOp, math::ErfOp, math::CbrtOp>(op);
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
  LogicalResult
  rematerialisableSlice(OpOperand &root, Attribute encoding,
                        SetVector<Value> &slice,
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
  forEachConvert(
      [&](ttg::ConvertLayoutOp cvt) { hoistAboveExtOrBroadcast(cvt); });
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
                                  ttg::ConvertLayoutOp cvt,
                                  IRMapping &mapping) {
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
    if (auto loop =
            dyn_cast<LoopLikeOpInterface>(arg.getOwner()->getParentOp())) {
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
      scf::ForOp newFor = appendLoopIterArgs(b, forOp, newInits, replacements);
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
      scf::IfOp newIf = appendIfResults(b, ifOp, newTypes, replacements);
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
    if (auto loop = cvt->getParentOfType<scf::ForOp>();
        loop && loopStages(loop, 3) > 1)
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
      b, cvt.getLoc(),
      withEncoding(hoistAbove->getOperand(0).getType(), srcEnc),
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
  if (failed(rematerialisableSlice(cvt.getSrcMutable(),
                                   encodingOf(cvt.getResult()), slice, layout,
                                   isIf)))
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
        b, cvt.getLoc(),
        type.cloneWithEncoding(layout.lookup(def->getResult(0))),
        def->getResult(0));
    mapping.map(def->getResult(0), newCvt.getResult());
  }
  if (inner.empty())
    return;
  rewriteSlice(inner, layout, cvt, mapping);
}

} // namespace

bool mlir::tgpu::remove_layout_conversions::rematerialiseConverts(
    tt::FuncOp func) {
  Rematerialiser remat(func);
  bool changed = remat.rematerialiseAll();
  remat.cleanup();
  return changed;
}

void mlir::tgpu::remove_layout_conversions::hoistConverts(tt::FuncOp func) {
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
}
