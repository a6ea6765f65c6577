// ttg op verifiers.
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"

#ifdef TGPU_PLANTED_BUGS
#include "tgpu/Support/PlantedBugs.h"
#endif

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::triton;
using namespace mlir::triton::gpu;

// `local`, `global_read|global_write`, `all`: the barrier's address spaces as
// keywords joined by `|` (how Triton prints ttg.barrier).
static ParseResult parseAddrSpace(OpAsmParser &parser, AddrSpaceAttr &attr) {
  AddrSpace value = AddrSpace::None;
  do {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    std::optional<AddrSpace> bit = symbolizeAddrSpace(keyword);
    if (!bit)
      return parser.emitError(loc, "unknown barrier address space '")
             << keyword << "' (expected local, global_read, global_write, tensor_read, "
             << "tensor_write or all)";
    value = value | *bit;
  } while (succeeded(parser.parseOptionalVerticalBar()));
  attr = AddrSpaceAttr::get(parser.getContext(), value);
  return success();
}

static void printAddrSpace(OpAsmPrinter &printer, Operation *, AddrSpaceAttr attr) {
  printer << stringifyAddrSpace(attr.getValue());
}

#define GET_OP_CLASSES
#include "tgpu/Dialect/TritonGPU/IR/TritonGPUOps.cpp.inc"

LogicalResult ConvertLayoutOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  if (!isDistributedEncoding(src.getEncoding()) || !isDistributedEncoding(dst.getEncoding()))
    return emitOpError("source and result must have distributed layouts");
  return success();
}

//===----------------------------------------------------------------------===//
// ConvertLayoutOp canonicalization (the rules Triton 3.6 applies): a convert
// disappears into producers that can make any layout (splat, make_range,
// splat constants, another convert, local_load, histogram, cheap cat and
// reordering reshape) and into consumers that accept any layout (local_alloc,
// local_store, gather sources, histogram) or an equivalent one (trans,
// reshape, split).
//===----------------------------------------------------------------------===//

namespace {

std::optional<tgpu::layout::LinearLayout> layoutOf(RankedTensorType type) {
  if (!type.getEncoding())
    return std::nullopt;
  auto ll = tgpu::layout::toLinearLayout(type.getShape(), type.getEncoding());
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return std::nullopt;
  }
  return std::move(*ll);
}

// Source and result place every element identically: the convert moves
// nothing.
bool isConvertTrivial(ConvertLayoutOp cvt) {
  auto src = cast<RankedTensorType>(cvt.getSrc().getType());
  auto dst = cast<RankedTensorType>(cvt.getType());
  if (src.getEncoding() == dst.getEncoding())
    return true;
  auto ls = layoutOf(src), ld = layoutOf(dst);
  return ls && ld && *ls == *ld;
}

int64_t registersPerThread(RankedTensorType type) {
  auto ll = layoutOf(type);
  return ll && ll->hasInDim("register") ? ll->getInDimSize("register") : 0;
}

bool hasDotOperandEncoding(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && isa_and_nonnull<DotOperandEncodingAttr>(type.getEncoding());
}


// cvt(x) -> x, and cvt(producer) -> producer in the new layout.
struct FoldConvertIntoProducer : public OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (op.getSrc().getType() == type) {
      rewriter.replaceOp(op, op.getSrc());
      return success();
    }
    // mma -> dot operand stays (fused attention keeps it explicit).
    if (isa_and_nonnull<DotOperandEncodingAttr>(getEncoding(type)) &&
        isa_and_nonnull<NvidiaMmaEncodingAttr>(getEncoding(op.getSrc().getType())))
      return failure();
    Operation *def = op.getSrc().getDefiningOp();
    if (!def)
      return failure();
    if (auto reshape = dyn_cast<ReshapeOp>(def)) {
      if (!reshape.getAllowReorder() || reshape.getEfficientLayout() ||
          viewMovesData(cast<RankedTensorType>(reshape.getSrc().getType()),
                          cast<RankedTensorType>(type)))
        return failure();
      // Dot operand values are packed differently; views must not see them.
      if (hasDotOperandEncoding(op.getSrc()) || hasDotOperandEncoding(op.getResult()))
        return failure();
      rewriter.replaceOpWithNewOp<ReshapeOp>(op, type, reshape.getResult(),
                                             reshape.getAllowReorder());
      return success();
    }
    if (auto histogram = dyn_cast<HistogramOp>(def)) {
      rewriter.replaceOpWithNewOp<HistogramOp>(op, type, histogram.getSrc(),
                                               histogram.getMask());
      return success();
    }
    if (auto load = dyn_cast<LocalLoadOp>(def)) {
      // At the load: memory effects may lie between it and the convert.
      rewriter.setInsertionPoint(def);
      rewriter.replaceOpWithNewOp<LocalLoadOp>(op, type, load.getSrc(), load.getToken());
      return success();
    }
    if (auto cat = dyn_cast<CatOp>(def)) {
      // Fewer registers per thread would need a real data exchange anyway.
      if (registersPerThread(cast<RankedTensorType>(type)) <
          registersPerThread(cast<RankedTensorType>(cat.getType())))
        return failure();
      rewriter.replaceOpWithNewOp<CatOp>(op, type, cat->getOperands());
      return success();
    }
    if (auto inner = dyn_cast<ConvertLayoutOp>(def)) {
      rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, type, inner.getSrc());
      return success();
    }
    if (auto splat = dyn_cast<SplatOp>(def)) {
      rewriter.replaceOpWithNewOp<SplatOp>(op, type, splat.getSrc());
      return success();
    }
    if (auto range = dyn_cast<MakeRangeOp>(def)) {
      rewriter.replaceOpWithNewOp<MakeRangeOp>(op, type, range.getStartAttr(),
                                               range.getEndAttr());
      return success();
    }
    if (auto cst = dyn_cast<arith::ConstantOp>(def)) {
      auto splat = dyn_cast<SplatElementsAttr>(cst.getValue());
      if (!splat)
        return failure();
      Attribute value = splat.getSplatValue<Attribute>();
#ifdef TGPU_PLANTED_BUGS
      // The planted bug (TGPU_PLANTED_BUG=cvt-constant-fold): keeps only the
      // low 16 bits of a wide integer splat.
      if (auto intValue = dyn_cast<IntegerAttr>(value);
          intValue && ::tgpu::isPlantedBugEnabled("cvt-constant-fold") &&
          intValue.getValue().getBitWidth() > 16) {
        llvm::APInt v = intValue.getValue();
        value = IntegerAttr::get(intValue.getType(), v.trunc(16).zext(v.getBitWidth()));
      }
#endif
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, SplatElementsAttr::get(cast<ShapedType>(type), value));
      return success();
    }
    return failure();
  }
};

// reshape(cvt(x)) -> reshape(x) when the convert moves nothing, or when the
// reshape may reorder and viewing x directly is cheap.
struct FoldConvertIntoReshape : public OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op, PatternRewriter &rewriter) const override {
    auto cvt = op.getSrc().getDefiningOp<ConvertLayoutOp>();
    if (!cvt)
      return failure();
    if (!isConvertTrivial(cvt) &&
        (viewMovesData(cast<RankedTensorType>(cvt.getSrc().getType()),
                         cast<RankedTensorType>(op.getType())) ||
         !op.getAllowReorder()))
      return failure();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), cvt.getSrc(),
                                           op.getAllowReorder(), op.getEfficientLayout());
    return success();
  }
};

// trans(x, identity) -> cvt(x); trans(cvt(x)) -> trans(x) when the convert
// moves nothing.
struct FoldConvertIntoTrans : public OpRewritePattern<TransOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransOp op, PatternRewriter &rewriter) const override {
    ArrayRef<int32_t> order = op.getOrder();
    bool identity = true;
    for (size_t i = 0; i < order.size(); ++i)
      identity &= order[i] == int32_t(i);
    if (identity) {
      if (!isDistributedEncoding(getEncoding(op.getType())) ||
          !isDistributedEncoding(getEncoding(op.getSrc().getType())))
        return failure();
      rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op.getType(), op.getSrc());
      return success();
    }
    auto cvt = op.getSrc().getDefiningOp<ConvertLayoutOp>();
    if (!cvt || !isConvertTrivial(cvt))
      return failure();
    rewriter.replaceOpWithNewOp<TransOp>(op, op.getType(), cvt.getSrc(), op.getOrderAttr());
    return success();
  }
};

// histogram(cvt(x)) -> histogram(x), its mask converted along.
struct FoldConvertIntoHistogram : public OpRewritePattern<HistogramOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(HistogramOp op, PatternRewriter &rewriter) const override {
    auto cvt = op.getSrc().getDefiningOp<ConvertLayoutOp>();
    if (!cvt)
      return failure();
    Value src = cvt.getSrc();
    Value mask = op.getMask();
    if (mask)
      mask = ConvertLayoutOp::create(rewriter, op.getLoc(), getI1SameShape(src.getType()), mask);
    rewriter.replaceOpWithNewOp<HistogramOp>(op, op.getType(), src, mask);
    return success();
  }
};

// op(cvt(x)) -> op(x) for ops that read their source in any layout: gather
// without a chosen layout (the source goes through shared memory),
// local_alloc / local_store (shared memory takes any layout), and split when
// x's layout splits into the same result layout.
bool readsThroughConvert(GatherOp op, ConvertLayoutOp) {
  return !op.getEfficientLayout();
}
bool readsThroughConvert(LocalAllocOp, ConvertLayoutOp) { return true; }
bool readsThroughConvert(LocalStoreOp, ConvertLayoutOp) { return true; }
bool readsThroughConvert(SplitOp op, ConvertLayoutOp cvt) {
  Attribute splitEnc = getSplitResultEncoding(getEncoding(cvt.getSrc().getType()));
  return splitEnc && splitEnc == getEncoding(op.getOutLHS().getType());
}

template <typename OpT> struct ReadSourceThroughConvert : public OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op, PatternRewriter &rewriter) const override {
    Value src = op.getSrc();
    auto cvt = src ? src.template getDefiningOp<ConvertLayoutOp>() : ConvertLayoutOp();
    if (!cvt || !readsThroughConvert(op, cvt))
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.getSrcMutable().assign(cvt.getSrc()); });
    return success();
  }
};

// local_alloc(local_load(m)) -> m when m is an immutable buffer of the
// alloc's type: nothing can have written m since, so it holds the tensor.
struct FoldAllocOfLoad : public OpRewritePattern<LocalAllocOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LocalAllocOp op,
                                PatternRewriter &rewriter) const override {
    auto load =
        op.getSrc() ? op.getSrc().getDefiningOp<LocalLoadOp>() : LocalLoadOp();
    auto type = cast<MemDescType>(op.getType());
    if (!load || type.getMutableMemory() || load.getSrc().getType() != type)
      return failure();
    rewriter.replaceOp(op, load.getSrc());
    return success();
  }
};

} // namespace

bool mlir::triton::gpu::viewMovesData(RankedTensorType src,
                                      RankedTensorType dst) {
  auto ls = layoutOf(src), ld = layoutOf(dst);
  if (!ls || !ld)
    return true;
  for (auto [s, d] :
       llvm::zip(ls->getFreeVariableMasks(), ld->getFreeVariableMasks()))
    if (s != d)
      return true;
  return ls->getInDimSize("register") != ld->getInDimSize("register");
}

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                                  MLIRContext *context) {
  patterns.add<FoldConvertIntoProducer, FoldConvertIntoReshape,
               FoldConvertIntoTrans, FoldConvertIntoHistogram,
               ReadSourceThroughConvert<GatherOp>,
               ReadSourceThroughConvert<LocalAllocOp>,
               ReadSourceThroughConvert<LocalStoreOp>,
               ReadSourceThroughConvert<SplitOp>, FoldAllocOfLoad>(context);
}

// A tensor and a buffer hold the same elements: same shape and element type.
static LogicalResult verifyTensorMatchesBuffer(Operation *op, RankedTensorType tensor,
                                               MemDescType buffer) {
  if (tensor.getShape() != buffer.getShape())
    return op->emitOpError("tensor shape and buffer shape differ");
  if (tensor.getElementType() != buffer.getElementType())
    return op->emitOpError("tensor element type ")
           << tensor.getElementType() << " differs from the buffer's " << buffer.getElementType();
  return success();
}

// Triton's rules and texts. A buffer initialised from a tensor may still be
// mutable (later stores refill it, as the pipeliner does).
LogicalResult LocalAllocOp::verify() {
  auto buffer = cast<MemDescType>(getType());
  if (!buffer.getMemorySpace())
    return emitOpError("should create a buffer of shared memory");
  if (buffer.getShape() != buffer.getAllocShape())
    return emitOpError("result shape and its alloc shape must match");
  if (getSrc()) {
    if (failed(verifyTensorMatchesBuffer(*this, cast<RankedTensorType>(getSrc().getType()),
                                         buffer)))
      return failure();
  } else if (!buffer.getMutableMemory()) {
    return emitOpError("uninitialized alloc must have a mutable memdesc type");
  }
  if (auto align = getAlignment(); align && !llvm::isPowerOf2_32(*align))
    return emitOpError("alignment must be a power of two, got ") << *align;
  return success();
}

LogicalResult LocalLoadOp::verify() {
  return verifyTensorMatchesBuffer(*this, cast<RankedTensorType>(getType()),
                                   cast<MemDescType>(getSrc().getType()));
}

LogicalResult LocalStoreOp::verify() {
  auto buffer = cast<MemDescType>(getDst().getType());
  if (!buffer.getMutableMemory())
    return emitOpError("cannot store into an immutable buffer");
  return verifyTensorMatchesBuffer(*this, cast<RankedTensorType>(getSrc().getType()), buffer);
}

// What no view of a buffer may change: its memory space, and a read-only
// buffer stays read-only. A view may drop mutability (Triton's warp
// specialization hands consumers read-only views of its ring slots).
static LogicalResult verifySameMemory(Operation *op, MemDescType src,
                                      MemDescType dst) {
  if (src.getMemorySpace() != dst.getMemorySpace())
    return op->emitOpError("view must keep the memory space");
  if (!src.getMutableMemory() && dst.getMutableMemory())
    return op->emitOpError("view of an immutable buffer cannot be mutable");
  return success();
}

// The same and the element type, for the views that check it last (those
// with Triton's own element-type text check it first themselves).
static LogicalResult verifySameBuffer(Operation *op, MemDescType src,
                                      MemDescType dst) {
  if (src.getElementType() != dst.getElementType())
    return op->emitOpError("view must keep the element type");
  return verifySameMemory(op, src, dst);
}

// Checks and texts in Triton's order: memdesc_index drops the leading
// dimension of a whole allocation (not of a view) and gives a whole buffer.
LogicalResult MemDescIndexOp::verify() {
  auto src = cast<MemDescType>(getSrc().getType());
  auto dst = cast<MemDescType>(getType());
  if (src.getElementType() != dst.getElementType())
    return emitError("result element type must match desc element type");
  if (src.getRank() != dst.getRank() + 1)
    return emitError("result rank must be input rank - 1");
  if (src.getAllocShape().size() != static_cast<size_t>(src.getRank()))
    return emitError("We don't allow taking memdesc_index of a memdesc_index");
  if (src.getShape().take_back(dst.getRank()) != dst.getShape())
    return emitError("result shape must equal to srcShape[1:]");
  if (src.getAllocShape() != src.getShape())
    return emitError("We don't support memdesc_index of a subview");
  if (static_cast<bool>(src.getEncoding()) !=
      static_cast<bool>(dst.getEncoding()))
    return emitError("src and result must both have or not have an encoding");
  if (dst.getAllocShape() != dst.getShape())
    return emitError("alloc shape must match shape for both result and src");
  return verifySameMemory(*this, src, dst);
}

// Triton's rules and texts: a tile of the source at offsets that are
// multiples of its size, split only in dimensions whose tile steps move whole
// swizzle patterns (each step is one offset bit of the shared layout).
LogicalResult MemDescSubsliceOp::verify() {
  auto src = cast<MemDescType>(getSrc().getType());
  auto dst = cast<MemDescType>(getType());
  if (src.getElementType() != dst.getElementType())
    return emitError("result element type must match desc element type");
  ArrayRef<int32_t> offsets = getOffsets();
  if (offsets.size() != static_cast<size_t>(src.getRank()))
    return emitError("offsets must have the same rank as input");
  if (src.getRank() != dst.getRank())
    return emitError("result rank must equal to input rank");
  if (static_cast<bool>(src.getEncoding()) !=
      static_cast<bool>(dst.getEncoding()))
    return emitError("src and result must both have or not have an encoding");
  if (failed(verifySameMemory(*this, src, dst)))
    return failure();
  SmallVector<int64_t> splitDims;
  for (int64_t d = 0; d < src.getRank(); ++d) {
    if (src.getDimSize(d) != dst.getDimSize(d))
      splitDims.push_back(d);
    else if (offsets[d] != 0)
      return emitError(
          "A non zero offset found in a dimension that is not being split");
  }
  for (int64_t d : splitDims)
    if (offsets[d] & (dst.getDimSize(d) - 1))
      return emitError("The split offset may not touch the tile");
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (offsets[d] < 0 || offsets[d] + dst.getDimSize(d) > src.getDimSize(d))
      return emitOpError("slice [") << offsets[d] << ", " << offsets[d] + dst.getDimSize(d)
                                    << ") is outside dimension " << d << " of size "
                                    << src.getDimSize(d);
  if (splitDims.empty() || !src.getEncoding())
    return success();
  llvm::Expected<tgpu::layout::LinearLayout> ll =
      tgpu::layout::toLinearLayout(src.getShape(), src.getEncoding());
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return success(); // the type's own verifier reports the layout
  }
  if (ll->getInDimSize("block") != 1)
    return emitError("non-trivial block dimension not supported");
  llvm::Expected<tgpu::layout::LinearLayout> inverse = ll->invert();
  if (!inverse) {
    llvm::consumeError(inverse.takeError());
    return success();
  }
  for (int64_t d : splitDims) {
    for (int64_t step = dst.getDimSize(d); step < src.getDimSize(d);
         step *= 2) {
      SmallVector<int32_t> coords(src.getRank(), 0);
      coords[d] = static_cast<int32_t>(step);
      uint64_t word = inverse->applyFlat(ll->packOut(coords));
      if (!llvm::isPowerOf2_64(word))
        return emitError(
            "We don't support splitting along the swizzling pattern");
    }
  }
  return success();
}

LogicalResult MemDescTransOp::verify() {
  auto src = cast<MemDescType>(getSrc().getType());
  auto dst = cast<MemDescType>(getType());
  if (failed(verifySameBuffer(*this, src, dst)))
    return failure();
  ArrayRef<int32_t> order = getOrder();
  int64_t rank = src.getRank();
  if (dst.getRank() != rank)
    return emitOpError("source and result must have the same rank");
  if (failed(verifyPermutation(*this, order, rank)))
    return failure();
  for (int64_t i = 0; i < rank; ++i)
    if (dst.getDimSize(i) != src.getDimSize(order[i]))
      return emitOpError("result dimension ") << i << " must be source dimension " << order[i];
  return success();
}

LogicalResult MemDescReshapeOp::verify() {
  auto src = cast<MemDescType>(getSrc().getType());
  auto dst = cast<MemDescType>(getType());
  if (failed(verifySameBuffer(*this, src, dst)))
    return failure();
  if (src.getNumElements() != dst.getNumElements())
    return emitOpError("source and result must have the same number of elements");
  return success();
}

LogicalResult AsyncCopyGlobalToLocalOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<MemDescType>(getDst().getType());
  if (!dst.getMutableMemory())
    return emitOpError("destination buffer must be mutable");
  if (src.getShape() != dst.getShape())
    return emitOpError("pointer tensor and buffer shapes differ");
  if (getPointeeType(src.getElementType()) != dst.getElementType())
    return emitOpError("pointee type differs from the buffer's element type");
  if (getOther() && !getMask())
    return emitOpError("other needs a mask");
  return success();
}

LogicalResult AsyncWaitOp::verify() {
  // The generated getter is unsigned; read the attribute signed.
  if (getNumAttr().getInt() < 0)
    return emitOpError("num must not be negative, got ") << getNumAttr().getInt();
  return success();
}

LogicalResult BarrierOp::verify() {
  if (getAddrSpace() == AddrSpace::None)
    return emitOpError("must order at least one kind of memory");
  return success();
}

// The result layout of split on a blocked source whose threads hold both
// halves of the last dim (null otherwise).
Attribute mlir::triton::gpu::getSplitResultEncoding(Attribute src) {
  auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(src);
  if (!blocked || !blocked.getCgaBases().empty() || blocked.getRank() < 2 ||
      blocked.getSizePerThread().back() != 2 || blocked.getThreadsPerWarp().back() != 1 ||
      blocked.getWarpsPerCTA().back() != 1)
    return {};
  unsigned last = blocked.getRank() - 1;
  SmallVector<unsigned> order;
  for (unsigned o : blocked.getOrder())
    if (o != last)
      order.push_back(o);
  return BlockedEncodingAttr::get(src.getContext(), blocked.getSizePerThread().drop_back(),
                                  blocked.getThreadsPerWarp().drop_back(),
                                  blocked.getWarpsPerCTA().drop_back(), order, {});
}

Attribute mlir::triton::gpu::inferSplitResultEncoding(Attribute src,
                                                      ArrayRef<int64_t> shape) {
  if (Attribute blocked = getSplitResultEncoding(src))
    return blocked;
  if (!src || !isDistributedEncoding(src))
    return {};
  llvm::Expected<tgpu::layout::LinearLayout> ll =
      tgpu::layout::toLinearLayout(shape, src);
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return {};
  }
  llvm::Expected<tgpu::layout::LinearLayout> halves =
      tgpu::layout::splitLastDimLayout(*ll);
  if (!halves) {
    llvm::consumeError(halves.takeError());
    return {};
  }
  llvm::Expected<LinearEncodingAttr> attr =
      tgpu::layout::toLinearEncodingAttr(src.getContext(), *halves);
  if (!attr) {
    llvm::consumeError(attr.takeError());
    return {};
  }
  return *attr;
}
