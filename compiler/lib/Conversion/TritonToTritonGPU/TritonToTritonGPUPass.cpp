// convert-triton-to-tritongpu: gives every tensor of a TTIR module a layout
// encoding. The rewrite is in place: ops are visited in order (so operands
// already carry their layouts), each op states the layout it needs of its
// tensor operands (a ttg.convert_layout is inserted where the operand has
// another) and the layout of its results.
#include "tgpu/Conversion/TritonToTritonGPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/Support/Debug.h"

#include <map>

#define DEBUG_TYPE "convert-triton-to-tritongpu"

namespace mlir::tgpu {
#define GEN_PASS_DEF_CONVERTTRITONTOTRITONGPU
#include "tgpu/Conversion/TritonToTritonGPU/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace ttg = mlir::triton::gpu;

ttg::BlockedEncodingAttr
mlir::tgpu::getDefaultBlockedEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                      int numWarps, int threadsPerWarp,
                                      int numCTAs) {
  return getBlockedEncoding(ctx, shape, SmallVector<unsigned>(shape.size(), 1),
                            numWarps, threadsPerWarp);
}

ttg::BlockedEncodingAttr
mlir::tgpu::getBlockedEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                               ArrayRef<unsigned> sizePerThread, int numWarps,
                               int threadsPerWarp) {
  SmallVector<unsigned> order(shape.size());
  for (unsigned i = 0; i < order.size(); ++i)
    order[i] = order.size() - 1 - i;
  return ttg::getBlockedEncoding(ctx, shape, sizePerThread, order, numWarps,
                                 threadsPerWarp);
}

namespace {

// Gives `func` the signature `convert` makes of its own.
void convertFunctionType(triton::FuncOp func,
                         llvm::function_ref<Type(Type)> convert) {
  SmallVector<Type> ins, outs;
  for (Type t : func.getArgumentTypes())
    ins.push_back(convert(t));
  for (Type t : func.getResultTypes())
    outs.push_back(convert(t));
  func.setFunctionType(FunctionType::get(func.getContext(), ins, outs));
}

bool isRank0(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && tensor.getRank() == 0;
}

// tensor<T> -> tensor<1xT>; any other type stays.
Type promoteRank0(Type t) {
  if (!isRank0(t))
    return t;
  auto tensor = cast<RankedTensorType>(t);
  return RankedTensorType::get({1}, tensor.getElementType());
}

bool usesRank0(Operation *op) {
  if (llvm::any_of(op->getOperandTypes(), isRank0) ||
      llvm::any_of(op->getResultTypes(), isRank0))
    return true;
  if (auto func = dyn_cast<triton::FuncOp>(op))
    if (llvm::any_of(func.getArgumentTypes(), isRank0) ||
        llvm::any_of(func.getResultTypes(), isRank0))
      return true;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (llvm::any_of(block.getArgumentTypes(), isRank0))
        return true;
  return false;
}

// A rank-0 tensor (valid TTIR: a splat to tensor<f32>, the halves of a
// split tensor<2xf32>) has no distributed layout spanning the module's
// lanes and warps, so before layouts are given every one becomes the
// one-element tensor<1xT> it holds the same data as. Most ops only change
// their types; those whose meaning involves the rank are rewritten:
// expand_dims, reshape, trans and broadcast of a rank-0 tensor are the
// identity on tensor<1xT>; a splat of one is a broadcast; a join of two
// joins tensor<1xT> into tensor<1x2xT> and reshapes it to tensor<2xT>; a
// split into two splits a tensor<1x2xT>.
void promoteRank0Tensors(ModuleOp module) {
  SmallVector<Operation *> ops;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (usesRank0(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(promoteRank0(arg.getType()));
    if (auto func = dyn_cast<triton::FuncOp>(op)) {
      convertFunctionType(func, promoteRank0);
      continue;
    }
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto replaceBy = [&](Value v) {
      op->getResult(0).replaceAllUsesWith(v);
      op->erase();
    };
    if (isa<triton::ExpandDimsOp, triton::TransOp, triton::BroadcastOp,
            triton::ReshapeOp>(op) &&
        op->getOperand(0).getType() ==
            promoteRank0(op->getResult(0).getType())) {
      replaceBy(op->getOperand(0));
      continue;
    }
    if (auto splat = dyn_cast<triton::SplatOp>(op);
        splat && isa<RankedTensorType>(splat.getSrc().getType())) {
      // tensor<1xT> -> tensor<1x...x1xT> -> the splat's shape.
      auto type = cast<RankedTensorType>(promoteRank0(splat.getType()));
      Value v = splat.getSrc();
      if (type.getRank() > 1)
        v = triton::ReshapeOp::create(
            b, loc,
            RankedTensorType::get(SmallVector<int64_t>(type.getRank(), 1),
                                  type.getElementType()),
            v);
      replaceBy(type.getShape() == ArrayRef<int64_t>{1}
                    ? v
                    : triton::BroadcastOp::create(b, loc, type, v).getResult());
      continue;
    }
    // A join's result has one dim more than its operands: rank 1 when they
    // were rank 0.
    if (auto join = dyn_cast<triton::JoinOp>(op);
        join && cast<RankedTensorType>(join.getType()).getRank() == 1) {
      auto type = cast<RankedTensorType>(join.getType());
      Value wide = triton::JoinOp::create(
          b, loc, RankedTensorType::get({1, 2}, type.getElementType()),
          join.getLhs(), join.getRhs());
      replaceBy(triton::ReshapeOp::create(b, loc, type, wide));
      continue;
    }
    if (auto split = dyn_cast<triton::SplitOp>(op);
        split && isRank0(split.getOutLHS().getType())) {
      auto src = cast<RankedTensorType>(split.getSrc().getType());
      Type half = promoteRank0(split.getOutLHS().getType());
      Value wide = triton::ReshapeOp::create(
          b, loc, RankedTensorType::get({1, 2}, src.getElementType()),
          split.getSrc());
      auto halves = triton::SplitOp::create(b, loc, half, half, wide);
      split.getOutLHS().replaceAllUsesWith(halves.getOutLHS());
      split.getOutRHS().replaceAllUsesWith(halves.getOutRHS());
      op->erase();
      continue;
    }
    if (auto cst = dyn_cast<arith::ConstantOp>(op);
        cst && isRank0(cst.getType())) {
      auto type = cast<ShapedType>(promoteRank0(cst.getType()));
      cst.setValueAttr(cast<DenseElementsAttr>(cst.getValue()).reshape(type));
      cst.getResult().setType(type);
      continue;
    }
    for (Value r : op->getResults())
      r.setType(promoteRank0(r.getType()));
  }
}

class ConvertTritonToTritonGPU
    : public mlir::tgpu::impl::ConvertTritonToTritonGPUBase<
          ConvertTritonToTritonGPU> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto isPow2 = [](int v) { return v > 0 && (v & (v - 1)) == 0; };
    if (!isPow2(numWarps) || !isPow2(threadsPerWarp) || numCTAs != 1) {
      module.emitError() << "convert-triton-to-tritongpu: num-warps and "
                            "threads-per-warp must be powers of two and "
                            "num-ctas 1 (got "
                         << int(numWarps) << ", " << int(threadsPerWarp)
                         << ", " << int(numCTAs) << ")";
      return signalPassFailure();
    }
    if (!llvm::StringRef(target).starts_with("cuda:")) {
      module.emitError() << "convert-triton-to-tritongpu: target must be "
                            "cuda:<sm>, got '"
                         << std::string(target) << "'";
      return signalPassFailure();
    }
    // Module attributes alone (Triton's TTIR may carry ttg.num-warps) are
    // overwritten with the options, as Triton does; layouts mean the module
    // is TTGIR already, which the conversion would not rewrite correctly.
    Operation *withLayout = triton::gpu::findOpWithLayout(module);
    if (withLayout) {
      withLayout->emitError()
          << "convert-triton-to-tritongpu: the module is already TTGIR (this "
             "op has a layout)";
      return signalPassFailure();
    }
    // Keyed by value and type addresses: entries from another module (a pass
    // instance runs on many in one process) would alias freed values.
    converted.clear();
    promoteRank0Tensors(module);
    bool ok = true;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (failed(convert(op))) {
        ok = false;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    converted.clear();
    if (!ok)
      return signalPassFailure();
    Builder b(ctx);
    module->setAttr("ttg.num-ctas", b.getI32IntegerAttr(numCTAs));
    module->setAttr("ttg.num-warps", b.getI32IntegerAttr(numWarps));
    module->setAttr("ttg.target", b.getStringAttr(target));
    module->setAttr("ttg.threads-per-warp", b.getI32IntegerAttr(threadsPerWarp));
    LLVM_DEBUG(llvm::dbgs() << numWarps << " warps of " << threadsPerWarp
                            << " threads, " << std::string(target) << "\n");
  }

private:
  Attribute defaultEncoding(ArrayRef<int64_t> shape) {
    return mlir::tgpu::getDefaultBlockedEncoding(&getContext(), shape, numWarps,
                                                 threadsPerWarp, numCTAs);
  }
  // A tensor without a layout gets the default one; other types stay.
  Type defaultType(Type t) {
    // A block pointer points to a tensor in the default layout too.
    if (auto ptr = dyn_cast<triton::PointerType>(t))
      if (isa<RankedTensorType>(ptr.getPointeeType()))
        return triton::PointerType::get(defaultType(ptr.getPointeeType()),
                                        ptr.getAddressSpace());
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || tensor.getEncoding())
      return t;
    return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                                 defaultEncoding(tensor.getShape()));
  }
  static RankedTensorType withEncoding(Type t, Attribute enc) {
    auto tensor = cast<RankedTensorType>(t);
    return RankedTensorType::get(tensor.getShape(), tensor.getElementType(), enc);
  }
  static Attribute encodingOf(Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t ? t.getEncoding() : Attribute();
  }

  // Makes operand `i` of `op` have type `want`, converting before `op`.
  void require(Operation *op, unsigned i, Type want) {
    Value v = op->getOperand(i);
    if (v.getType() == want)
      return;
    OpBuilder b(op);
    op->setOperand(i, b.create<ttg::ConvertLayoutOp>(op->getLoc(), want, v));
  }
  // The value `v` in layout type `want`: one ttg.convert_layout per value
  // and type, placed right after v's definition and shared by all users
  // (as Triton's type-conversion materializations are).
  Value materialize(Value v, Type want) {
    if (v.getType() == want)
      return v;
    auto key = std::make_pair(v.getAsOpaquePointer(), want.getAsOpaquePointer());
    auto it = converted.find(key);
    if (it != converted.end())
      return it->second;
    OpBuilder b(&getContext());
    if (Operation *def = v.getDefiningOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
    Value c = b.create<ttg::ConvertLayoutOp>(v.getLoc(), want, v);
    LLVM_DEBUG(llvm::dbgs()
               << "convert at " << v.getLoc() << " to " << want << "\n");
    converted[key] = c;
    return c;
  }
  // Every tensor operand in the default layout of its shape.
  void requireDefaults(Operation *op) {
    for (unsigned i = 0; i < op->getNumOperands(); ++i) {
      Type t = op->getOperand(i).getType();
      if (auto tensor = dyn_cast<RankedTensorType>(t))
        op->setOperand(i, materialize(op->getOperand(i),
                                      withEncoding(t, defaultEncoding(tensor.getShape()))));
    }
  }
  std::map<std::pair<const void *, const void *>, Value> converted;
  // Users see `v` in `want`: a convert right after v's definition takes
  // over all of v's uses (Triton's patterns convert back to the type the
  // type converter gives).
  void backToDefault(Value v, Type want) {
    if (v.getType() == want)
      return;
    Value c = materialize(v, want);
    v.replaceAllUsesExcept(c, c.getDefiningOp());
  }
  void setDefaultResults(Operation *op) {
    for (Value r : op->getResults())
      r.setType(defaultType(r.getType()));
  }
  void setDefaultBlockArgs(Block &block) {
    for (BlockArgument a : block.getArguments())
      a.setType(defaultType(a.getType()));
  }

  LogicalResult convert(Operation *op);
};

LogicalResult ConvertTritonToTritonGPU::convert(Operation *op) {
  MLIRContext *ctx = &getContext();
  if (isa<ModuleOp>(op))
    return success();
  // promoteRank0Tensors left none, unless an op with a rank-0 result was
  // never rewritten.
  if (usesRank0(op))
    return op->emitError(
        "convert-triton-to-tritongpu: a rank-0 tensor is left after their "
        "promotion to shape [1]");
  if (auto func = dyn_cast<triton::FuncOp>(op)) {
    convertFunctionType(func, [&](Type t) { return defaultType(t); });
    // Every block of the body: the entry's arguments are the function's,
    // the others' are what branches (cf.br, cf.cond_br) pass, which go in
    // the default layout too.
    for (Block &block : func.getBody())
      setDefaultBlockArgs(block);
    return success();
  }
  // Reduce and scan read every operand in the default layout of its shape,
  // as Triton's patterns get them from the conversion's adaptor: an earlier
  // reduction's slice-layout result is converted back (right after its
  // definition) even when another operand is a blocked make_range. Triton
  // 3.6 prints exactly that for an argmax over a row sum (checked on the
  // GPU machine, 2026-11-23); the results follow the operands' layout.
  if (auto reduce = dyn_cast<triton::ReduceOp>(op)) {
    unsigned axis = reduce.getAxis();
    requireDefaults(op);
    for (auto [i, r] : llvm::enumerate(op->getResults())) {
      auto t = dyn_cast<RankedTensorType>(r.getType());
      if (!t)
        continue; // a reduction to a scalar
      Attribute src = encodingOf(op->getOperand(i));
      r.setType(withEncoding(t, ttg::SliceEncodingAttr::get(ctx, axis, src)));
    }
    return success();
  }
  if (isa<triton::ScanOp>(op)) {
    requireDefaults(op);
    for (auto [r, v] : llvm::zip(op->getResults(), op->getOperands()))
      r.setType(v.getType());
    return success();
  }
  if (auto bc = dyn_cast<triton::BroadcastOp>(op)) {
    bc.getResult().setType(
        withEncoding(bc.getType(), encodingOf(bc.getSrc())));
    return success();
  }
  if (auto ed = dyn_cast<triton::ExpandDimsOp>(op)) {
    unsigned axis = ed.getAxis();
    auto srcType = cast<RankedTensorType>(ed.getSrc().getType());
    Attribute src = srcType.getEncoding();
    // The slice of the layout we expand into: the parent directly, or a
    // blocked layout with a size-1 dim inserted at `axis`.
    if (auto slice = dyn_cast_or_null<ttg::SliceEncodingAttr>(src))
      if (slice.getDim() == axis && isa<ttg::BlockedEncodingAttr>(slice.getParent())) {
        ed.getResult().setType(withEncoding(ed.getType(), slice.getParent()));
        return success();
      }
    auto blocked = dyn_cast_or_null<ttg::BlockedEncodingAttr>(src);
    if (!blocked) {
      require(op, 0, withEncoding(srcType, defaultEncoding(srcType.getShape())));
      blocked = cast<ttg::BlockedEncodingAttr>(
          cast<RankedTensorType>(ed.getSrc().getType()).getEncoding());
    }
    auto insert = [&](ArrayRef<unsigned> v) {
      SmallVector<unsigned> r(v.begin(), v.end());
      r.insert(r.begin() + axis, 1);
      return r;
    };
    SmallVector<unsigned> order(blocked.getRank() + 1);
    for (unsigned i = 0; i < order.size(); ++i)
      order[i] = i;
    auto ret = ttg::BlockedEncodingAttr::get(
        ctx, insert(blocked.getSizePerThread()), insert(blocked.getThreadsPerWarp()),
        insert(blocked.getWarpsPerCTA()), order, {});
    require(op, 0, withEncoding(srcType, ttg::SliceEncodingAttr::get(ctx, axis, ret)));
    Type defaultRet = defaultType(ed.getType());
    ed.getResult().setType(withEncoding(ed.getType(), ret));
    backToDefault(ed.getResult(), defaultRet);
    return success();
  }
  if (auto trans = dyn_cast<triton::TransOp>(op)) {
    auto srcType = cast<RankedTensorType>(trans.getSrc().getType());
    auto blocked = dyn_cast_or_null<ttg::BlockedEncodingAttr>(srcType.getEncoding());
    if (!blocked) {
      require(op, 0, withEncoding(srcType, defaultEncoding(srcType.getShape())));
      blocked = cast<ttg::BlockedEncodingAttr>(
          cast<RankedTensorType>(trans.getSrc().getType()).getEncoding());
    }
    // Result dim i is source dim order[i]: permute every per-dim parameter,
    // and renumber the order through the inverse permutation.
    ArrayRef<int32_t> perm = trans.getOrder();
    SmallVector<unsigned> inv(perm.size());
    for (unsigned i = 0; i < perm.size(); ++i)
      inv[perm[i]] = i;
    auto permute = [&](ArrayRef<unsigned> v) {
      SmallVector<unsigned> r;
      for (int32_t p : perm)
        r.push_back(v[p]);
      return r;
    };
    SmallVector<unsigned> order;
    for (unsigned o : blocked.getOrder())
      order.push_back(inv[o]);
    auto ret = ttg::BlockedEncodingAttr::get(
        ctx, permute(blocked.getSizePerThread()), permute(blocked.getThreadsPerWarp()),
        permute(blocked.getWarpsPerCTA()), order, {});
    trans.getResult().setType(withEncoding(trans.getType(), ret));
    return success();
  }
  if (auto dot = dyn_cast<triton::DotOp>(op)) {
    auto cType = cast<RankedTensorType>(dot.getC().getType());
    // The FMA dot's layout: 2x2 or 4x4 elements per thread in the two
    // matrix dims when there are enough elements per thread (4 or 16).
    ArrayRef<int64_t> shape = cType.getShape();
    unsigned rank = shape.size();
    int64_t perThread = cType.getNumElements() / (int64_t(numWarps) * threadsPerWarp);
    SmallVector<unsigned> spt(rank, 1);
    unsigned tile = perThread >= 16 ? 4 : perThread >= 4 ? 2 : 1;
    spt[rank - 1] = unsigned(std::min<int64_t>(tile, shape[rank - 1]));
    spt[rank - 2] = unsigned(std::min<int64_t>(tile, shape[rank - 2]));
    Attribute parent =
        mlir::tgpu::getBlockedEncoding(ctx, shape, spt, numWarps, threadsPerWarp);
    Type defaultRet = defaultType(dot.getType());
    // Triton converts all three operands right before the dot (the
    // accumulator even when it already has the layout).
    for (unsigned i = 0; i < 2; ++i)
      require(op, i, withEncoding(op->getOperand(i).getType(),
                                  ttg::DotOperandEncodingAttr::get(ctx, i, parent, 0)));
    {
      OpBuilder b(op);
      op->setOperand(2, b.create<ttg::ConvertLayoutOp>(
                            op->getLoc(), withEncoding(cType, parent),
                            op->getOperand(2)));
    }
    dot.getResult().setType(withEncoding(dot.getType(), parent));
    backToDefault(dot.getResult(), defaultRet);
    return success();
  }
  if (auto join = dyn_cast<triton::JoinOp>(op)) {
    // The result's layout is inferred from the operands' (as Triton's
    // JoinOp type inference does): the new last dim is the fastest and
    // each thread holds both of its elements. Users see the default.
    auto lhsEnc = dyn_cast_or_null<ttg::BlockedEncodingAttr>(encodingOf(join.getLhs()));
    if (!lhsEnc || encodingOf(join.getRhs()) != lhsEnc) {
      requireDefaults(op);
      lhsEnc = cast<ttg::BlockedEncodingAttr>(encodingOf(join.getLhs()));
    }
    auto append = [](ArrayRef<unsigned> v, unsigned x) {
      SmallVector<unsigned> r(v.begin(), v.end());
      r.push_back(x);
      return r;
    };
    SmallVector<unsigned> order{unsigned(lhsEnc.getRank())};
    order.append(lhsEnc.getOrder().begin(), lhsEnc.getOrder().end());
    auto ret = ttg::BlockedEncodingAttr::get(
        ctx, append(lhsEnc.getSizePerThread(), 2),
        append(lhsEnc.getThreadsPerWarp(), 1), append(lhsEnc.getWarpsPerCTA(), 1),
        order, {});
    Type defaultRet = defaultType(join.getType());
    join.getResult().setType(withEncoding(join.getType(), ret));
    backToDefault(join.getResult(), defaultRet);
    return success();
  }
  if (auto split = dyn_cast<triton::SplitOp>(op)) {
    // The source must hold both halves of the last dim in one thread, the
    // last dim fastest; else it is converted to the default layout of the
    // result shape with that dim appended (Triton's choice).
    auto srcType = cast<RankedTensorType>(split.getSrc().getType());
    unsigned rank = srcType.getRank();
    auto srcEnc = dyn_cast_or_null<ttg::BlockedEncodingAttr>(srcType.getEncoding());
    if (!srcEnc || srcEnc.getSizePerThread().back() != 2 ||
        srcEnc.getOrder().front() != rank - 1) {
      auto resShape = cast<RankedTensorType>(split.getOutLHS().getType()).getShape();
      auto def = cast<ttg::BlockedEncodingAttr>(defaultEncoding(resShape));
      auto append = [](ArrayRef<unsigned> v, unsigned x) {
        SmallVector<unsigned> r(v.begin(), v.end());
        r.push_back(x);
        return r;
      };
      SmallVector<unsigned> order{rank - 1};
      order.append(def.getOrder().begin(), def.getOrder().end());
      srcEnc = ttg::BlockedEncodingAttr::get(
          ctx, append(def.getSizePerThread(), 2), append(def.getThreadsPerWarp(), 1),
          append(def.getWarpsPerCTA(), 1), order, {});
      require(op, 0, withEncoding(srcType, srcEnc));
    }
    Attribute resEnc = ttg::getSplitResultEncoding(srcEnc);
    if (!resEnc)
      return op->emitError("cannot infer the layout of tt.split's results");
    for (Value r : op->getResults()) {
      Type defaultRet = defaultType(r.getType());
      r.setType(withEncoding(r.getType(), resEnc));
      backToDefault(r, defaultRet);
    }
    return success();
  }
  if (auto cat = dyn_cast<triton::CatOp>(op)) {
    // The result holds both operands' registers: when its default layout
    // gives a thread fewer elements than the two operands together, the
    // fastest dim's elements per thread grow to the next power of two.
    requireDefaults(op);
    auto retType = cast<RankedTensorType>(defaultType(cat.getType()));
    auto ret = cast<ttg::BlockedEncodingAttr>(retType.getEncoding());
    auto regs = [](RankedTensorType t) {
      auto b = cast<ttg::BlockedEncodingAttr>(t.getEncoding());
      int64_t n = 1;
      for (unsigned d = 0; d < t.getRank(); ++d) {
        int64_t tile = int64_t(b.getSizePerThread()[d]) * b.getThreadsPerWarp()[d] *
                       b.getWarpsPerCTA()[d];
        n *= b.getSizePerThread()[d] * std::max<int64_t>(1, t.getShape()[d] / tile);
      }
      return n;
    };
    int64_t want = int64_t(llvm::PowerOf2Ceil(
        regs(cast<RankedTensorType>(cat.getLhs().getType())) +
        regs(cast<RankedTensorType>(cat.getRhs().getType()))));
    int64_t have = regs(retType);
    if (want > have) {
      SmallVector<unsigned> spt(ret.getSizePerThread());
      spt[ret.getOrder()[0]] *= unsigned(want / have);
      ret = ttg::BlockedEncodingAttr::get(ctx, spt, ret.getThreadsPerWarp(),
                                          ret.getWarpsPerCTA(), ret.getOrder(), {});
    }
    cat.getResult().setType(withEncoding(cat.getType(), ret));
    return success();
  }
  // Unstructured control flow: successor operands in the default layout of
  // the successor blocks' arguments.
  if (isa<BranchOpInterface>(op)) {
    requireDefaults(op);
    return success();
  }
  // Structured control flow: every carried tensor in its default layout.
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    requireDefaults(op);
    setDefaultBlockArgs(*loop.getBody());
    setDefaultResults(op);
    return success();
  }
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    requireDefaults(op);
    setDefaultBlockArgs(loop.getBefore().front());
    setDefaultBlockArgs(loop.getAfter().front());
    setDefaultResults(op);
    return success();
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    Type t = defaultType(constant.getType());
    if (t == constant.getType())
      return success();
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!dense)
      return op->emitError("convert-triton-to-tritongpu: tensor constant "
                           "without dense elements");
    constant.setValueAttr(dense.reshape(cast<ShapedType>(t)));
    constant.getResult().setType(t);
    return success();
  }
  // The conversion driver Triton uses folds an op before converting it;
  // fold the ones that become existing values (x + 0, x * 1, ...).
  if (op->getNumRegions() == 0 && op->getNumResults() > 0 &&
      !isa<arith::ConstantOp>(op)) {
    SmallVector<OpFoldResult> folded;
    if (succeeded(op->fold(folded)) && folded.size() == op->getNumResults() &&
        llvm::all_of(folded, [&](OpFoldResult f) {
          // An in-place fold returns the op's own results: keep the op.
          return isa<Value>(f) && cast<Value>(f).getDefiningOp() != op;
        })) {
      for (auto [r, f] : llvm::zip(op->getResults(), folded))
        r.replaceAllUsesWith(cast<Value>(f));
      op->erase();
      return success();
    }
  }
  // Everything else: operands and results in the default layouts. Region
  // ops that reach here (scf.if, tt.reduce's region ops) have scalar or
  // already-converted block arguments.
  requireDefaults(op);
  setDefaultResults(op);
  return success();
}

} // namespace
