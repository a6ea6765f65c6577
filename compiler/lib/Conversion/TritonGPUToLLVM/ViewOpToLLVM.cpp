// Ops that build or re-view distributed tensors without moving data between
// threads -- make_range, splat, broadcast, expand_dims, trans -- and
// convert_layout, through shared memory when it must move data. The re-views
// map each result register to the operand register holding the same element,
// computed from both LinearLayouts at compile time.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Layout/AttrConversion.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

#include <functional>
#include <map>

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

struct MakeRangeLowering : public ConvertOpToLLVMPattern<tt::MakeRangeOp> {
  MakeRangeLowering(TritonGPUToLLVMTypeConverter &converter,
                    const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}
  LogicalResult
  matchAndRewrite(tt::MakeRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto layout = getDistributedLayout(type, op.getLoc());
    if (failed(layout))
      return failure();
    Type resultType = getTypeConverter()->convertType(type);
    if (!resultType)
      return op.emitError("cannot lower ") << type;
    Location loc = op.getLoc();
    Value start = i32Constant(rewriter, loc, int32_t(op.getStart()));
    SmallVector<Value> values;
    for (auto &idx : emitIndices(rewriter, loc, *layout, info.threadsPerWarp))
      values.push_back(LLVM::AddOp::create(rewriter, loc, idx[0], start));
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, values));
    return success();
  }
  LoweringInfo info;
};

struct SplatLowering : public ConvertOpToLLVMPattern<tt::SplatOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tt::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return op.emitError("cannot lower ") << op.getType();
    unsigned regs = cast<LLVM::LLVMStructType>(resultType).getBody().size();
    rewriter.replaceOp(op, packValues(rewriter, op.getLoc(), resultType,
                                      SmallVector<Value>(regs, adaptor.getSrc())));
    return success();
  }
};

using Projection =
    std::function<SmallVector<int32_t>(ArrayRef<int32_t> resultCoords)>;

// For each register of `dst`, the register of `src` holding the element that
// `project` says it comes from; nothing when the threads (lane/warp/block
// bases) do not agree, i.e. when data would have to move between threads.
std::optional<SmallVector<int32_t>> remapRegisters(const LinearLayout &src,
                                                   const LinearLayout &dst,
                                                   const Projection &project) {
  auto outNames = dst.getOutDimNames();
  auto srcOutNames = src.getOutDimNames();
  for (StringRef dim : {"lane", "warp", "block"}) {
    if (!dst.hasInDim(dim))
      continue;
    for (int i = 0; i < dst.getInDimSizeLog2(dim); ++i) {
      SmallVector<int32_t> basis;
      for (auto &name : outNames)
        basis.push_back(dst.getBasis(dim, i, name));
      SmallVector<int32_t> want = project(basis), have;
      if (src.hasInDim(dim) && i < src.getInDimSizeLog2(dim))
        for (auto &name : srcOutNames)
          have.push_back(src.getBasis(dim, i, name));
      else
        have.assign(want.size(), 0);
      if (want != have)
        return std::nullopt;
    }
  }
  std::map<SmallVector<int32_t>, int32_t> owner;
  int32_t srcRegs = src.getInDimSize("register");
  for (int32_t r = 0; r < srcRegs; ++r)
    owner.emplace(layoutCoords(src, "register", r), r);
  SmallVector<int32_t> map;
  for (int32_t r = 0, e = dst.getInDimSize("register"); r < e; ++r) {
    auto it = owner.find(project(layoutCoords(dst, "register", r)));
    if (it == owner.end())
      return std::nullopt;
    map.push_back(it->second);
  }
  return map;
}

// broadcast, expand_dims and trans: the result's registers picked from the
// operand's.
template <typename OpT>
struct RegisterRemapLowering : public ConvertOpToLLVMPattern<OpT> {
  using ConvertOpToLLVMPattern<OpT>::ConvertOpToLLVMPattern;

  static Projection projectionFor(OpT op) {
    auto srcShape = cast<RankedTensorType>(op.getSrc().getType()).getShape();
    if constexpr (std::is_same_v<OpT, tt::BroadcastOp>) {
      SmallVector<int64_t> shape(srcShape);
      return [shape](ArrayRef<int32_t> c) {
        SmallVector<int32_t> out(c);
        for (auto [i, n] : llvm::enumerate(shape))
          if (n == 1)
            out[i] = 0;
        return out;
      };
    } else if constexpr (std::is_same_v<OpT, tt::ExpandDimsOp>) {
      unsigned axis = op.getAxis();
      return [axis](ArrayRef<int32_t> c) {
        SmallVector<int32_t> out(c);
        out.erase(out.begin() + axis);
        return out;
      };
    } else {
      SmallVector<int32_t> order(op.getOrder());
      return [order](ArrayRef<int32_t> c) {
        SmallVector<int32_t> out(c.size());
        for (auto [d, from] : llvm::enumerate(order))
          out[from] = c[d];
        return out;
      };
    }
  }

  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto src = getDistributedLayout(srcType, op.getLoc());
    auto dst = getDistributedLayout(dstType, op.getLoc());
    if (failed(src) || failed(dst))
      return failure();
    auto map = remapRegisters(*src, *dst, projectionFor(op));
    if (!map)
      return op.emitError("the operand and result layouts place elements in "
                          "different threads; this needs a convert_layout");
    Type resultType = this->getTypeConverter()->convertType(dstType);
    if (!resultType)
      return op.emitError("cannot lower ") << dstType;
    SmallVector<Value> in = unpackValues(rewriter, op.getLoc(),
                                         adaptor.getSrc());
    SmallVector<Value> out;
    for (int32_t r : *map)
      out.push_back(in[r]);
    rewriter.replaceOp(op, packValues(rewriter, op.getLoc(), resultType, out));
    return success();
  }
};

// convert_layout: a register permutation when both layouts keep every
// element in the same thread; otherwise through shared memory: every thread
// writes its elements at their row-major offsets, a barrier, and every
// thread reads the elements the new layout gives it. (Barriers before the
// writes too: the scratch buffer is shared with earlier ops.)
struct ConvertLayoutLowering
    : public ConvertOpToLLVMPattern<ttg::ConvertLayoutOp> {
  ConvertLayoutLowering(TritonGPUToLLVMTypeConverter &converter,
                        const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(ttg::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto src = getDistributedLayout(srcType, op.getLoc());
    auto dst = getDistributedLayout(dstType, op.getLoc());
    if (failed(src) || failed(dst))
      return failure();
    Type resultType = getTypeConverter()->convertType(dstType);
    if (!resultType)
      return op.emitError("cannot lower ") << dstType;
    Location loc = op.getLoc();
    SmallVector<Value> in = unpackValues(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> out;
    auto identity = [](ArrayRef<int32_t> c) { return SmallVector<int32_t>(c); };
    if (auto map = remapRegisters(*src, *dst, identity)) {
      for (int32_t r : *map)
        out.push_back(in[r]);
      rewriter.replaceOp(op, packValues(rewriter, loc, resultType, out));
      return success();
    }
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    // i1 is kept as a byte in memory.
    Type memElem = elem.isInteger(1) ? rewriter.getI8Type() : elem;
    auto ptr3 = LLVM::LLVMPointerType::get(getContext(), 3);
    Value base = getSharedMemoryBase(rewriter, op);
    ArrayRef<int64_t> shape = srcType.getShape();
    NVVM::Barrier0Op::create(rewriter, loc);
    auto srcIdx = emitIndices(rewriter, loc, *src, info.threadsPerWarp);
    for (auto [r, coords] : llvm::enumerate(srcIdx)) {
      Value v = in[r];
      if (memElem != elem)
        v = LLVM::ZExtOp::create(rewriter, loc, memElem, v);
      Value p = LLVM::GEPOp::create(rewriter, loc, ptr3, memElem, base,
                                    ValueRange{linearize(rewriter, loc, coords,
                                                         shape)});
      LLVM::StoreOp::create(rewriter, loc, v, p);
    }
    NVVM::Barrier0Op::create(rewriter, loc);
    auto dstIdx = emitIndices(rewriter, loc, *dst, info.threadsPerWarp);
    for (auto &coords : dstIdx) {
      Value p = LLVM::GEPOp::create(rewriter, loc, ptr3, memElem, base,
                                    ValueRange{linearize(rewriter, loc, coords,
                                                         shape)});
      Value v = LLVM::LoadOp::create(rewriter, loc, memElem, p);
      if (memElem != elem)
        v = LLVM::TruncOp::create(rewriter, loc, elem, v);
      out.push_back(v);
    }
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, out));
    return success();
  }

  LoweringInfo info;
};

} // namespace

int64_t mlir::tgpu::getConvertLayoutScratchBytes(Operation *op) {
  auto cvt = dyn_cast<ttg::ConvertLayoutOp>(op);
  if (!cvt)
    return 0;
  auto srcType = cast<RankedTensorType>(cvt.getSrc().getType());
  auto dstType = cast<RankedTensorType>(cvt.getType());
  if (!srcType.getEncoding() || !dstType.getEncoding())
    return 0;
  auto src = ::tgpu::layout::toLinearLayout(srcType.getShape(),
                                            srcType.getEncoding());
  auto dst = ::tgpu::layout::toLinearLayout(dstType.getShape(),
                                            dstType.getEncoding());
  if (!src || !dst) {
    llvm::consumeError(src.takeError());
    llvm::consumeError(dst.takeError());
    return 0;
  }
  auto identity = [](ArrayRef<int32_t> c) { return SmallVector<int32_t>(c); };
  if (remapRegisters(*src, *dst, identity))
    return 0;
  return srcType.getNumElements() * memoryElementBytes(srcType);
}

void mlir::tgpu::populateViewOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<MakeRangeLowering, ConvertLayoutLowering>(converter, info);
  patterns.add<SplatLowering,
               RegisterRemapLowering<tt::BroadcastOp>,
               RegisterRemapLowering<tt::ExpandDimsOp>,
               RegisterRemapLowering<tt::TransOp>>(converter);
}
