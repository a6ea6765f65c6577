#include "tgpu/Dialect/TritonGPU/Transforms/LayoutUtils.h"

#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/Layout/WarpShuffle.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;
using ::tgpu::layout::LinearLayout;

namespace mlir::tgpu {

std::optional<LinearLayout> getLinearLayout(ArrayRef<int64_t> shape,
                                            Attribute encoding) {
  if (!encoding)
    return std::nullopt;
  llvm::Expected<LinearLayout> ll =
      ::tgpu::layout::toLinearLayout(shape, encoding);
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return std::nullopt;
  }
  return std::move(*ll);
}

int64_t getTotalElemsPerThread(ArrayRef<int64_t> shape, Attribute encoding) {
  std::optional<LinearLayout> ll = getLinearLayout(shape, encoding);
  if (!ll || !ll->hasInDim("register"))
    return 0;
  return ll->getInDimSize("register");
}

SmallVector<unsigned> getDistinctBasesPerDim(RankedTensorType type,
                                             StringRef inDim) {
  SmallVector<unsigned> perDim(type.getRank(), 1);
  std::optional<LinearLayout> ll =
      getLinearLayout(type.getShape(), type.getEncoding());
  if (!ll || !ll->hasInDim(inDim))
    return perDim;
  // A basis moves along (at most) one dim; it doubles the positions covered
  // in the first dim it moves.
  for (int i = 0; i < ll->getInDimSizeLog2(inDim); ++i) {
    LinearLayout::Basis basis = ll->getBasis(inDim, i);
    for (size_t d = 0; d < basis.size() && d < perDim.size(); ++d)
      if (basis[d] != 0) {
        perDim[d] *= 2;
        break;
      }
  }
  return perDim;
}

// The dim a basis moves along; -1 for a broadcast (zero) basis.
static int basisDim(const LinearLayout::Basis &basis) {
  for (size_t d = 0; d < basis.size(); ++d)
    if (basis[d] != 0)
      return int(d);
  return -1;
}

SmallVector<int64_t> getElemsPerThreadPerDim(RankedTensorType type) {
  std::optional<LinearLayout> ll =
      getLinearLayout(type.getShape(), type.getEncoding());
  if (!ll || !ll->hasInDim("register") || ll->getNumOutDims() != type.getRank())
    return {};
  SmallVector<int64_t> perDim(type.getRank(), 1);
  int last = 0;
  for (int i = 0; i < ll->getInDimSizeLog2("register"); ++i) {
    int d = basisDim(ll->getBasis("register", i));
    if (d >= 0)
      last = d;
    perDim[last] *= 2;
  }
  return perDim;
}

SmallVector<unsigned> getInDimOrder(RankedTensorType type, StringRef inDim,
                                    ArrayRef<unsigned> rest) {
  std::optional<LinearLayout> ll =
      getLinearLayout(type.getShape(), type.getEncoding());
  unsigned rank = type.getRank();
  if (!ll || ll->getNumOutDims() != int(rank) || rest.size() != rank)
    return {};
  SmallVector<unsigned> order;
  if (ll->hasInDim(inDim))
    for (int i = 0; i < ll->getInDimSizeLog2(inDim); ++i) {
      int d = basisDim(ll->getBasis(inDim, i));
      if (d >= 0 && !llvm::is_contained(order, unsigned(d)))
        order.push_back(unsigned(d));
    }
  for (unsigned d : rest)
    if (d < rank && !llvm::is_contained(order, d))
      order.push_back(d);
  if (order.size() != rank)
    return {};
  return order;
}

bool catNeedsExchange(tt::CatOp cat, Attribute target) {
  auto type = cast<RankedTensorType>(cat.getType());
  return getTotalElemsPerThread(type.getShape(), target) <
         getTotalElemsPerThread(type.getShape(), type.getEncoding());
}

// Converting a tensor in layout `ls` into `ld` only permutes each thread's
// registers.
static bool onlyPermutesRegisters(const LinearLayout &ls,
                                  const LinearLayout &ld) {
  llvm::Expected<LinearLayout> comp = ld.invertAndCompose(ls);
  if (!comp) {
    llvm::consumeError(comp.takeError());
    return false;
  }
  // Drop the dims the conversion leaves alone, slowest first; what is left
  // says what moves. Only registers moving means a register permutation.
  std::vector<std::string> srcIns = ls.getInDimNames();
  std::vector<std::string> dstIns = ld.getInDimNames();
  LinearLayout rest = std::move(*comp);
  for (size_t i = 0; i < std::min(srcIns.size(), dstIns.size()); ++i) {
    const std::string &s = srcIns[srcIns.size() - 1 - i];
    if (s != dstIns[dstIns.size() - 1 - i])
      break;
    std::optional<LinearLayout> q = rest.quotient({s});
    if (!q)
      break;
    rest = std::move(*q);
  }
  std::vector<std::string> outs = rest.getOutDimNames();
  return outs.empty() || (outs.size() == 1 && outs[0] == "register");
}

bool convertOnlyPermutesRegisters(RankedTensorType src, RankedTensorType dst) {
  std::optional<LinearLayout> ls =
      getLinearLayout(src.getShape(), src.getEncoding());
  std::optional<LinearLayout> ld =
      getLinearLayout(dst.getShape(), dst.getEncoding());
  return ls && ld && onlyPermutesRegisters(*ls, *ld);
}

bool convertNeedsSharedMemory(RankedTensorType src, RankedTensorType dst) {
  std::optional<LinearLayout> ls =
      getLinearLayout(src.getShape(), src.getEncoding());
  std::optional<LinearLayout> ld =
      getLinearLayout(dst.getShape(), dst.getEncoding());
  if (!ls || !ld)
    return true;
  return !onlyPermutesRegisters(*ls, *ld) &&
         !::tgpu::layout::planWarpShuffle(*ls, *ld).has_value();
}

std::optional<SmallVector<unsigned>> getOrderForMemory(Attribute encoding,
                                                       unsigned rank) {
  if (auto blocked = dyn_cast_or_null<ttg::BlockedEncodingAttr>(encoding)) {
    if (!blocked.getCgaBases().empty())
      return std::nullopt;
    return SmallVector<unsigned>(blocked.getOrder());
  }
  if (auto slice = dyn_cast_or_null<ttg::SliceEncodingAttr>(encoding)) {
    auto parent = getOrderForMemory(slice.getParent(), rank + 1);
    if (!parent)
      return std::nullopt;
    SmallVector<unsigned> order;
    for (unsigned d : *parent)
      if (d != slice.getDim())
        order.push_back(d > slice.getDim() ? d - 1 : d);
    return order;
  }
  if (!encoding || !ttg::isDistributedEncoding(encoding))
    return std::nullopt;
  SmallVector<unsigned> order;
  for (unsigned d = rank; d-- > 0;)
    order.push_back(d);
  return order;
}

Attribute getDotOperandSharedEncoding(ttg::DotOperandEncodingAttr dotOp,
                                      ArrayRef<int64_t> shape,
                                      ArrayRef<unsigned> order, Type elemType,
                                      ArrayRef<int32_t> cgaBases) {
  MLIRContext *ctx = dotOp.getContext();
  int rank = shape.size();
  auto unswizzled = [&] {
    return ttg::SwizzledSharedEncodingAttr::get(ctx, 1, 1, 1, order, cgaBases);
  };
  if (!isa<ttg::NvidiaMmaEncodingAttr>(dotOp.getParent()) || rank < 2 ||
      dotOp.getKWidth() == 0 || order.size() != shape.size() ||
      !elemType.isIntOrFloat())
    return unswizzled();
  int64_t bits = std::max<int64_t>(elemType.getIntOrFloatBitWidth(), 1);
  // 1024 bits: one 128-byte line, what 32 banks serve at once.
  int64_t inner = std::max<int64_t>(shape[order[0]], 1);
  int64_t perPhase = std::max<int64_t>(1024 / (bits * inner), 1);
  // One mma.sync tile is 8 rows (M or N) by 4 * kWidth elements of K: the
  // side along the fastest dim is the vector, the other one the rows a
  // phase cycle has to separate.
  int64_t vec = 4 * dotOp.getKWidth(), rows = 8;
  int kDim = dotOp.getOpIdx() == 0 ? rank - 1 : rank - 2;
  if (int(order[0]) != kDim)
    std::swap(vec, rows);
  int64_t maxPhase = std::max<int64_t>(std::min(rows, 1024 / (vec * bits)), 1);
  maxPhase = std::max<int64_t>(maxPhase / perPhase, 1);
  return ttg::SwizzledSharedEncodingAttr::get(ctx, vec, perPhase, maxPhase,
                                              order, cgaBases);
}

bool isExpensiveMemoryAccess(Operation *op) {
  if (op->getNumOperands() == 0)
    return false;
  Type ptrType = op->getOperand(0).getType();
  if (auto ptr = dyn_cast<tt::PointerType>(ptrType))
    return isa<RankedTensorType>(ptr.getPointeeType());
  auto tensor = dyn_cast<RankedTensorType>(ptrType);
  // A scalar, or one element: every thread accesses the same address.
  if (!tensor || tensor.getNumElements() == 1)
    return false;
  // Fewer elements than threads: the repeated accesses hit in cache.
  return tensor.getNumElements() >=
         int64_t(ttg::lookupNumWarps(op)) * ttg::lookupThreadsPerWarp(op);
}

bool isExpensiveSharedLoad(Operation *op) {
  auto load = dyn_cast<ttg::LocalLoadOp>(op);
  if (!load)
    return false;
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getNumElements() == 1)
    return false;
  return type.getNumElements() >=
         int64_t(ttg::lookupNumWarps(op)) * ttg::lookupThreadsPerWarp(op);
}

bool absorbsConversion(Operation *op, Attribute target) {
  if (auto cat = dyn_cast<tt::CatOp>(op))
    return !catNeedsExchange(cat, target);
  if (auto cvt = dyn_cast<ttg::ConvertLayoutOp>(op)) {
    // Keep conversions that produce an mma layout from another one.
    if (isa<ttg::NvidiaMmaEncodingAttr>(target))
      return tt::getEncoding(cvt.getSrc().getType()) == target;
    return true;
  }
  if (auto reshape = dyn_cast<tt::ReshapeOp>(op)) {
    auto dstType = cast<RankedTensorType>(reshape.getType());
    return reshape.getAllowReorder() && !reshape.getEfficientLayout() &&
           !ttg::viewMovesData(
               cast<RankedTensorType>(reshape.getSrc().getType()),
               dstType.cloneWithEncoding(target));
  }
  return isa<arith::ConstantOp, tt::MakeRangeOp, tt::SplatOp, tt::HistogramOp,
             ttg::LocalAllocOp, ttg::LocalLoadOp, ttg::LocalStoreOp>(op);
}

// Permutes the out dims of `ll` (new dim i = old dim order[i]), renaming them
// dim0.. .
static std::optional<LinearLayout> permuteOutDims(const LinearLayout &ll,
                                                  ArrayRef<int32_t> order) {
  std::vector<LinearLayout::NamedSize> outs = ll.getOutDims();
  if (outs.size() != order.size())
    return std::nullopt;
  std::vector<LinearLayout::NamedSize> newOuts;
  for (size_t i = 0; i < order.size(); ++i)
    newOuts.push_back({"dim" + std::to_string(i), outs[order[i]].second});
  std::vector<LinearLayout::DimBases> bases = ll.getBases();
  for (auto &[name, dimBases] : bases)
    for (LinearLayout::Basis &b : dimBases) {
      LinearLayout::Basis permuted(order.size());
      for (size_t i = 0; i < order.size(); ++i)
        permuted[i] = b[order[i]];
      b = std::move(permuted);
    }
  llvm::Expected<LinearLayout> result =
      LinearLayout::create(bases, newOuts, /*requireSurjective=*/false);
  if (!result) {
    llvm::consumeError(result.takeError());
    return std::nullopt;
  }
  return std::move(*result);
}

static bool isPermutation(ArrayRef<int32_t> order) {
  SmallVector<bool> seen(order.size(), false);
  for (int32_t o : order) {
    if (o < 0 || size_t(o) >= order.size() || seen[o])
      return false;
    seen[o] = true;
  }
  return true;
}

// A tt.reshape without allow_reorder keeps each thread's registers: the
// other side's layout is the row-major reshape of this side's, as a
// #ttg.blocked where one gives it (Triton infers a blocked layout first
// too), else as a #ttg.linear.
Attribute inferReshapeEncoding(Attribute encoding, ArrayRef<int64_t> from,
                               ArrayRef<int64_t> to) {
  if (!encoding || !ttg::isDistributedEncoding(encoding))
    return {};
  auto layout = ::tgpu::layout::toLinearLayout(from, encoding);
  if (!layout) {
    llvm::consumeError(layout.takeError());
    return {};
  }
  auto reshaped = ::tgpu::layout::reshapeLayout(*layout, to);
  if (!reshaped) {
    llvm::consumeError(reshaped.takeError());
    return {};
  }
  MLIRContext *ctx = encoding.getContext();
  if (auto blocked = ::tgpu::layout::blockedEncodingOf(*reshaped, to))
    return ttg::BlockedEncodingAttr::get(
        ctx, blocked->sizePerThread, blocked->threadsPerWarp,
        blocked->warpsPerCTA, blocked->order, ArrayRef<int32_t>{});
  auto linear = ::tgpu::layout::toLinearEncodingAttr(ctx, *reshaped);
  if (!linear) {
    llvm::consumeError(linear.takeError());
    return {};
  }
  return *linear;
}

Attribute inferTransEncoding(Attribute encoding, ArrayRef<int64_t> shape,
                             ArrayRef<int32_t> order) {
  if (!encoding || !isPermutation(order) || shape.size() != order.size())
    return {};
  if (llvm::equal(order, llvm::seq<int32_t>(0, order.size())))
    return encoding;
  MLIRContext *ctx = encoding.getContext();
  unsigned rank = order.size();
  if (auto blocked = dyn_cast<ttg::BlockedEncodingAttr>(encoding)) {
    if (blocked.getRank() != rank)
      return {};
    auto permute = [&](ArrayRef<unsigned> v) {
      SmallVector<unsigned> r;
      for (int32_t o : order)
        r.push_back(v[o]);
      return r;
    };
    SmallVector<unsigned> inverse(rank);
    for (unsigned i = 0; i < rank; ++i)
      inverse[order[i]] = i;
    SmallVector<unsigned> newOrder;
    for (unsigned o : blocked.getOrder())
      newOrder.push_back(inverse[o]);
    SmallVector<int32_t> cga;
    ArrayRef<int32_t> oldCga = blocked.getCgaBases();
    for (size_t b = 0; b + rank <= oldCga.size(); b += rank)
      for (int32_t o : order)
        cga.push_back(oldCga[b + o]);
    return ttg::BlockedEncodingAttr::get(
        ctx, permute(blocked.getSizePerThread()),
        permute(blocked.getThreadsPerWarp()), permute(blocked.getWarpsPerCTA()),
        newOrder, cga);
  }
  if (!ttg::isDistributedEncoding(encoding))
    return {};
  std::optional<LinearLayout> ll = getLinearLayout(shape, encoding);
  if (!ll)
    return {};
  std::optional<LinearLayout> permuted = permuteOutDims(*ll, order);
  if (!permuted)
    return {};
  auto attr = ::tgpu::layout::toLinearEncodingAttr(ctx, *permuted);
  if (!attr) {
    llvm::consumeError(attr.takeError());
    return {};
  }
  return *attr;
}

// join: a blocked layout gains a fastest dim of size 2 held by each thread.
static Attribute joinedEncoding(Attribute encoding) {
  auto blocked = dyn_cast_or_null<ttg::BlockedEncodingAttr>(encoding);
  if (!blocked || !blocked.getCgaBases().empty())
    return {};
  auto append = [](ArrayRef<unsigned> v, unsigned x) {
    SmallVector<unsigned> r(v);
    r.push_back(x);
    return r;
  };
  SmallVector<unsigned> order(blocked.getOrder());
  order.insert(order.begin(), blocked.getRank());
  return ttg::BlockedEncodingAttr::get(
      encoding.getContext(), append(blocked.getSizePerThread(), 2),
      append(blocked.getThreadsPerWarp(), 1),
      append(blocked.getWarpsPerCTA(), 1), order, {});
}

static bool keepsEncoding(Operation *op) {
  return op->hasTrait<OpTrait::SameOperandsAndResultEncoding>() ||
         op->hasTrait<OpTrait::Elementwise>() ||
         isa<tt::SplatOp, tt::LoadOp, tt::StoreOp>(op);
}

// Whether `encoding` lays out a tensor of `type`'s shape: a #ttg.linear (or
// a slice of one) is made for one shape, so an op that changes the shape
// (tt.broadcast) cannot pass it on.
// The check is the attribute's own (what parsing the type would run:
// RankedTensorType::get does not).
static bool fitsShape(Attribute encoding, Type type) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  auto verifiable = dyn_cast<VerifiableTensorEncoding>(encoding);
  if (!shaped || !verifiable)
    return true;
  MLIRContext *ctx = encoding.getContext();
  // The reason is not wanted: the caller picks another layout.
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  return succeeded(verifiable.verifyEncoding(
      shaped.getShape(), shaped.getElementType(),
      [ctx] { return emitError(UnknownLoc::get(ctx)); }));
}

Attribute inferDstEncoding(Operation *op, Attribute encoding) {
  if (!encoding)
    return {};
  if (isa<tt::ScanOp>(op) && !isa<ttg::BlockedEncodingAttr>(encoding))
    return {};
  // A #ttg.linear made for the operand's shape does not cover the result's.
  if (isa<tt::BroadcastOp>(op) &&
      !fitsShape(encoding, op->getResult(0).getType()))
    return {};
  if (keepsEncoding(op) ||
      isa<scf::WhileOp, scf::ForOp, scf::YieldOp, scf::ConditionOp>(op))
    return encoding;
  MLIRContext *ctx = op->getContext();
  if (auto reduce = dyn_cast<tt::ReduceOp>(op)) {
    if (!ttg::isDistributedEncoding(encoding))
      return {};
    return ttg::SliceEncodingAttr::get(ctx, reduce.getAxis(), encoding);
  }
  if (auto expand = dyn_cast<tt::ExpandDimsOp>(op)) {
    auto slice = dyn_cast<ttg::SliceEncodingAttr>(encoding);
    if (!slice || slice.getDim() != expand.getAxis())
      return {};
    return slice.getParent();
  }
  if (auto trans = dyn_cast<tt::TransOp>(op))
    return inferTransEncoding(
        encoding, cast<RankedTensorType>(trans.getSrc().getType()).getShape(),
        trans.getOrder());
  if (isa<tt::JoinOp>(op))
    return joinedEncoding(encoding);
  if (auto split = dyn_cast<tt::SplitOp>(op))
    return ttg::inferSplitResultEncoding(
        encoding, cast<RankedTensorType>(split.getSrc().getType()).getShape());
  // The result follows the indices.
  if (isa<tt::GatherOp>(op))
    return encoding;
  if (auto reshape = dyn_cast<tt::ReshapeOp>(op)) {
    if (reshape.getAllowReorder())
      return {};
    return inferReshapeEncoding(
        encoding, cast<RankedTensorType>(reshape.getSrc().getType()).getShape(),
        reshape.getType().getShape());
  }
  return {};
}

Attribute inferSrcEncoding(Operation *op, Attribute encoding) {
  if (!encoding)
    return {};
  if (isa<tt::ScanOp>(op) && !isa<ttg::BlockedEncodingAttr>(encoding))
    return {};
  // tt.broadcast keeps one attribute on both sides (its verifier): one
  // made for the result's shape alone (a #ttg.linear) cannot go up it.
  if (isa<tt::BroadcastOp>(op) &&
      !fitsShape(encoding, op->getOperand(0).getType()))
    return {};
  if (keepsEncoding(op) ||
      isa<scf::WhileOp, scf::YieldOp, scf::ConditionOp>(op))
    return encoding;
  MLIRContext *ctx = op->getContext();
  if (auto reduce = dyn_cast<tt::ReduceOp>(op)) {
    auto slice = dyn_cast<ttg::SliceEncodingAttr>(encoding);
    if (!slice || slice.getDim() != reduce.getAxis())
      return {};
    return slice.getParent();
  }
  if (auto expand = dyn_cast<tt::ExpandDimsOp>(op)) {
    if (!ttg::isDistributedEncoding(encoding))
      return {};
    return ttg::SliceEncodingAttr::get(ctx, expand.getAxis(), encoding);
  }
  if (auto trans = dyn_cast<tt::TransOp>(op)) {
    ArrayRef<int32_t> order = trans.getOrder();
    if (!isPermutation(order))
      return {};
    SmallVector<int32_t> inverse(order.size());
    for (size_t i = 0; i < order.size(); ++i)
      inverse[order[i]] = int32_t(i);
    return inferTransEncoding(
        encoding, cast<RankedTensorType>(trans.getType()).getShape(), inverse);
  }
  if (auto join = dyn_cast<tt::JoinOp>(op))
    return ttg::inferSplitResultEncoding(encoding, join.getType().getShape());
  if (isa<tt::SplitOp>(op))
    return joinedEncoding(encoding);
  if (isa<tt::GatherOp>(op))
    return encoding;
  if (auto reshape = dyn_cast<tt::ReshapeOp>(op)) {
    if (reshape.getAllowReorder())
      return {};
    return inferReshapeEncoding(
        encoding, reshape.getType().getShape(),
        cast<RankedTensorType>(reshape.getSrc().getType()).getShape());
  }
  return {};
}

LogicalResult
collectRematSlice(OpOperand &root, SetVector<Value> &slice,
                  Attribute rootEncoding, DenseMap<Value, Attribute> &layout,
                  function_ref<bool(Operation *)> stop,
                  function_ref<Value(OpOperand &, Attribute)> existing) {
  DenseSet<std::pair<OpOperand *, Attribute>> seen;
  SmallVector<std::pair<OpOperand *, Attribute>> worklist;
  auto push = [&](OpOperand &use, Attribute encoding) {
    if (seen.insert({&use, encoding}).second)
      worklist.push_back({&use, encoding});
  };
  // A value may be asked for in one layout only.
  auto assign = [&](Value v, Attribute encoding) {
    slice.insert(v);
    Attribute &current = layout[v];
    if (current && current != encoding)
      return failure();
    current = encoding;
    return success();
  };
  push(root, rootEncoding);

  while (!worklist.empty()) {
    auto [use, encoding] = worklist.pop_back_val();
    Value value = use->get();
    if (!isa<RankedTensorType>(value.getType()))
      continue;
    // Loop results would need the loop rewritten as a whole.
    if (value.getDefiningOp<scf::ForOp>() ||
        value.getDefiningOp<scf::WhileOp>())
      return failure();
    if (failed(assign(value, encoding)))
      return failure();
    if (existing) {
      if (Value reuse = existing(*use, encoding)) {
        if (failed(assign(reuse, encoding)))
          return failure();
        value = reuse;
      }
    }

    if (auto ifOp = value.getDefiningOp<scf::IfOp>()) {
      if (stop && stop(ifOp))
        continue;
      unsigned idx = cast<OpResult>(value).getResultNumber();
      if (ifOp.getElseRegion().empty())
        return failure();
      push(ifOp.thenYield()->getOpOperand(idx), encoding);
      push(ifOp.elseYield()->getOpOperand(idx), encoding);
      continue;
    }
    if (Operation *def = value.getDefiningOp()) {
      // Every tensor result of the producer changes with it.
      for (Value result : def->getResults())
        if (result != value && isa<RankedTensorType>(result.getType()) &&
            failed(assign(result, encoding)))
          return failure();
      if (auto cvt = dyn_cast<ttg::ConvertLayoutOp>(def);
          cvt && convertOnlyPermutesRegisters(
                     cast<RankedTensorType>(cvt.getSrc().getType()),
                     cast<RankedTensorType>(cvt.getType()))) {
        push(def->getOpOperand(0), encoding);
        continue;
      }
      if (absorbsConversion(def, encoding))
        continue;
      if (stop && stop(def))
        continue;
      if (isa<tt::CatOp>(def))
        return failure();
      if (auto gather = dyn_cast<tt::GatherOp>(def)) {
        // Only the indices share the result's layout.
        Attribute src = inferSrcEncoding(gather, encoding);
        if (!src)
          return failure();
        push(gather.getIndicesMutable(), src);
        continue;
      }
      for (OpOperand &operand : def->getOpOperands()) {
        Attribute src = inferSrcEncoding(def, encoding);
        if (!src)
          return failure();
        // Already there: nothing above it changes.
        if (auto type = dyn_cast<RankedTensorType>(operand.get().getType());
            type && type.getEncoding() == src)
          continue;
        push(operand, src);
      }
      continue;
    }
    auto arg = cast<BlockArgument>(value);
    auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!forOp || arg.getArgNumber() < forOp.getNumInductionVars())
      return failure();
    unsigned iter = arg.getArgNumber() - forOp.getNumInductionVars();
    push(forOp.getInitArgsMutable()[iter], encoding);
    push(forOp.getBody()->getTerminator()->getOpOperand(iter), encoding);
  }
  return success();
}

scf::ForOp
appendLoopIterArgs(OpBuilder &builder, scf::ForOp loop,
                   ValueRange newIterOperands,
                   SmallVectorImpl<std::tuple<Value, Value>> &replacements) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop);
  SmallVector<Value> inits(loop.getInitArgs());
  inits.append(newIterOperands.begin(), newIterOperands.end());
  auto newLoop =
      scf::ForOp::create(builder, loop.getLoc(), loop.getLowerBound(),
                         loop.getUpperBound(), loop.getStep(), inits);
  newLoop->setAttrs(loop->getAttrs());
  newLoop.getBody()->erase();
  newLoop.getRegion().getBlocks().splice(newLoop.getRegion().begin(),
                                         loop.getRegion().getBlocks());
  for (Value v : newIterOperands)
    newLoop.getBody()->addArgument(v.getType(), v.getLoc());
  for (auto [oldResult, newResult] :
       llvm::zip(loop.getResults(),
                 newLoop.getResults().take_front(loop.getNumResults())))
    replacements.push_back({oldResult, newResult});
  return newLoop;
}

scf::IfOp
appendIfResults(OpBuilder &builder, scf::IfOp ifOp, TypeRange newResultTypes,
                SmallVectorImpl<std::tuple<Value, Value>> &replacements) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(ifOp);
  SmallVector<Type> types(ifOp.getResultTypes());
  types.append(newResultTypes.begin(), newResultTypes.end());
  auto newIf =
      scf::IfOp::create(builder, ifOp.getLoc(), types, ifOp.getCondition());
  newIf->setAttrs(ifOp->getAttrs());
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  scf::IfOp::ensureTerminator(newIf.getThenRegion(), builder, ifOp.getLoc());
  scf::IfOp::ensureTerminator(newIf.getElseRegion(), builder, ifOp.getLoc());
  for (auto [oldResult, newResult] :
       llvm::zip(ifOp.getResults(),
                 newIf.getResults().take_front(ifOp.getNumResults())))
    replacements.push_back({oldResult, newResult});
  return newIf;
}

} // namespace mlir::tgpu
