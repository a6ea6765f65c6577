// tt.gather and tt.histogram, both through shared memory.
//
// gather: every thread writes its source elements at their row-major
// offsets, a barrier, then every thread reads, for each element of the
// result, the source element at its coordinates with the axis coordinate
// replaced by the index. (tritongpu-membar places the barrier before the
// writes.)
//
// histogram: the bins are cleared (every thread clears the bins its result
// registers hold), a barrier, each element is counted once -- by one owner
// among the threads and registers holding copies of it, when it is in
// [0, bins) and its mask is on -- with a shared-memory atomic add, a
// barrier, and every thread reads its result bins. Counting with atomics
// is exact, so it matches the CPU oracle in any order.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;

namespace {

// For each register of `dst`, the register of `src` holding the same
// element when both layouts give every thread the same elements; nothing
// otherwise.
std::optional<SmallVector<int32_t>> sameElementRegisters(
    const LinearLayout &src, const LinearLayout &dst) {
  for (StringRef dim : {"lane", "warp", "block"}) {
    int bits = dst.hasInDim(dim) ? dst.getInDimSizeLog2(dim) : 0;
    int srcBits = src.hasInDim(dim) ? src.getInDimSizeLog2(dim) : 0;
    if (bits != srcBits)
      return std::nullopt;
    for (int i = 0; i < bits; ++i)
      if (layoutCoords(src, dim, int32_t(1) << i) !=
          layoutCoords(dst, dim, int32_t(1) << i))
        return std::nullopt;
  }
  std::map<SmallVector<int32_t>, int32_t> owner;
  for (int32_t r = 0, e = src.getInDimSize("register"); r < e; ++r)
    owner.emplace(layoutCoords(src, "register", r), r);
  SmallVector<int32_t> map;
  for (int32_t r = 0, e = dst.getInDimSize("register"); r < e; ++r) {
    auto it = owner.find(layoutCoords(dst, "register", r));
    if (it == owner.end())
      return std::nullopt;
    map.push_back(it->second);
  }
  return map;
}

Value toI32(ConversionPatternRewriter &rewriter, Location loc, Value v) {
  Type i32 = rewriter.getI32Type();
  unsigned bits = v.getType().getIntOrFloatBitWidth();
  if (bits == 32)
    return v;
  if (bits < 32)
    return LLVM::SExtOp::create(rewriter, loc, i32, v);
  return LLVM::TruncOp::create(rewriter, loc, i32, v);
}

struct GatherLowering : public ConvertOpToLLVMPattern<tt::GatherOp> {
  GatherLowering(TritonGPUToLLVMTypeConverter &converter,
                 const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(tt::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto idxType = cast<RankedTensorType>(op.getIndices().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    unsigned axis = op.getAxis();
    if (axis >= srcType.getRank() || idxType.getRank() != srcType.getRank())
      return op.emitError("gather axis or index rank out of range");
    auto src = getDistributedLayout(srcType, loc);
    auto idx = getDistributedLayout(idxType, loc);
    auto dst = getDistributedLayout(dstType, loc);
    if (failed(src) || failed(idx) || failed(dst))
      return failure();
    auto idxRegs = sameElementRegisters(*idx, *dst);
    if (!idxRegs)
      return op.emitError("the indices and the result must have the same "
                          "layout");
    Type resultType = getTypeConverter()->convertType(dstType);
    if (!resultType)
      return op.emitError("cannot lower ") << dstType;
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    Type memElem = getSharedMemoryType(elem);
    auto ptr3 = LLVM::LLVMPointerType::get(getContext(), 3);
    Value base = getSharedMemoryBase(rewriter, op);
    ArrayRef<int64_t> shape = srcType.getShape();

    SmallVector<Value> in = unpackValues(rewriter, loc, adaptor.getSrc());
    for (auto [r, coords] : llvm::enumerate(
             emitIndices(rewriter, loc, *src, info.threadsPerWarp))) {
      Value v = toSharedMemoryValue(rewriter, loc, in[r]);
      Value p = LLVM::GEPOp::create(
          rewriter, loc, ptr3, memElem, base,
          ValueRange{linearize(rewriter, loc, coords, shape)});
      LLVM::StoreOp::create(rewriter, loc, v, p);
    }
    NVVM::Barrier0Op::create(rewriter, loc);
    SmallVector<Value> indices =
        unpackValues(rewriter, loc, adaptor.getIndices());
    SmallVector<Value> out;
    for (auto [r, coords] : llvm::enumerate(
             emitIndices(rewriter, loc, *dst, info.threadsPerWarp))) {
      SmallVector<Value> at(coords);
      at[axis] = toI32(rewriter, loc, indices[(*idxRegs)[r]]);
      Value p = LLVM::GEPOp::create(
          rewriter, loc, ptr3, memElem, base,
          ValueRange{linearize(rewriter, loc, at, shape)});
      out.push_back(fromSharedMemoryValue(
          rewriter, loc, LLVM::LoadOp::create(rewriter, loc, memElem, p), elem));
    }
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, out));
    return success();
  }

  LoweringInfo info;
};

struct HistogramLowering : public ConvertOpToLLVMPattern<tt::HistogramOp> {
  HistogramLowering(TritonGPUToLLVMTypeConverter &converter,
                    const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(tt::HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    if (dstType.getRank() != 1)
      return op.emitError("a histogram's result must be 1-D");
    auto src = getDistributedLayout(srcType, loc);
    auto dst = getDistributedLayout(dstType, loc);
    if (failed(src) || failed(dst))
      return failure();
    Type resultType = getTypeConverter()->convertType(dstType);
    if (!resultType)
      return op.emitError("cannot lower ") << dstType;
    Type count = getTypeConverter()->convertType(dstType.getElementType());
    if (!count.isInteger(32) && !count.isInteger(64))
      return op.emitError("PTX has shared-memory atomic adds on 32- and "
                          "64-bit integers only, not ")
             << dstType.getElementType();
    std::optional<SmallVector<int32_t>> maskRegs;
    SmallVector<Value> masks;
    if (op.getMask()) {
      auto maskType = cast<RankedTensorType>(op.getMask().getType());
      auto mask = getDistributedLayout(maskType, loc);
      if (failed(mask))
        return failure();
      maskRegs = sameElementRegisters(*mask, *src);
      if (!maskRegs)
        return op.emitError("the mask and the source must have the same "
                            "layout");
      masks = unpackValues(rewriter, loc, adaptor.getMask());
    }
    int64_t bins = dstType.getDimSize(0);
    auto ptr3 = LLVM::LLVMPointerType::get(getContext(), 3);
    Value base = getSharedMemoryBase(rewriter, op);
    Value zero = LLVM::ConstantOp::create(rewriter, loc, count,
                                          rewriter.getIntegerAttr(count, 0));
    Value one = LLVM::ConstantOp::create(rewriter, loc, count,
                                         rewriter.getIntegerAttr(count, 1));

    // 1. Clear: the result layout covers every bin.
    auto dstIdx = emitIndices(rewriter, loc, *dst, info.threadsPerWarp);
    SmallVector<Value> binPtrs;
    for (auto &coords : dstIdx) {
      binPtrs.push_back(LLVM::GEPOp::create(rewriter, loc, ptr3, count, base,
                                            ValueRange{coords[0]}));
      LLVM::StoreOp::create(rewriter, loc, zero, binPtrs.back());
    }
    NVVM::Barrier0Op::create(rewriter, loc);

    // 2. Count each element once.
    Value owner = emitUniqueOwnerPredicate(rewriter, loc, *src,
                                           info.threadsPerWarp);
    SmallVector<Value> values = unpackValues(rewriter, loc, adaptor.getSrc());
    Type valueType = values.front().getType();
    unsigned valueBits = valueType.getIntOrFloatBitWidth();
    std::set<SmallVector<int32_t>> seen;
    Type i32 = rewriter.getI32Type();
    for (int32_t r = 0, e = src->getInDimSize("register"); r < e; ++r) {
      if (!seen.insert(layoutCoords(*src, "register", r)).second)
        continue; // a copy in another register
      Value v = values[r];
      // In range as an unsigned compare of the sign-extended value.
      Value binsV = LLVM::ConstantOp::create(
          rewriter, loc, valueType, rewriter.getIntegerAttr(valueType, bins));
      Value inRange =
          valueBits <= llvm::Log2_64(uint64_t(bins))
              ? Value(LLVM::ICmpOp::create(rewriter, loc,
                                           LLVM::ICmpPredicate::sge, v,
                                           LLVM::ConstantOp::create(
                                               rewriter, loc, valueType,
                                               rewriter.getIntegerAttr(
                                                   valueType, 0))))
              : Value(LLVM::ICmpOp::create(rewriter, loc,
                                           LLVM::ICmpPredicate::ult, v,
                                           binsV));
      Value pred = inRange;
      if (owner)
        pred = LLVM::AndOp::create(rewriter, loc, pred, owner);
      if (maskRegs)
        pred = LLVM::AndOp::create(rewriter, loc, pred,
                                   masks[(*maskRegs)[r]]);
      // Out-of-range values add 0 at bin 0 instead of branching.
      Value bin = LLVM::SelectOp::create(
          rewriter, loc, pred,
          valueBits < 32 ? Value(LLVM::ZExtOp::create(rewriter, loc, i32, v))
          : valueBits > 32 ? Value(LLVM::TruncOp::create(rewriter, loc, i32, v))
                           : v,
          i32Constant(rewriter, loc, 0));
      Value add = LLVM::SelectOp::create(rewriter, loc, pred, one, zero);
      Value p = LLVM::GEPOp::create(rewriter, loc, ptr3, count, base,
                                    ValueRange{bin});
      LLVM::AtomicRMWOp::create(rewriter, loc, LLVM::AtomicBinOp::add, p, add,
                                LLVM::AtomicOrdering::monotonic);
    }
    NVVM::Barrier0Op::create(rewriter, loc);

    // 3. Read the bins.
    SmallVector<Value> out;
    for (Value p : binPtrs)
      out.push_back(LLVM::LoadOp::create(rewriter, loc, count, p));
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, out));
    return success();
  }

  LoweringInfo info;
};

} // namespace

int64_t mlir::tgpu::getGatherScratchBytes(Operation *op) {
  auto gather = dyn_cast<tt::GatherOp>(op);
  if (!gather)
    return 0;
  auto srcType = cast<RankedTensorType>(gather.getSrc().getType());
  return srcType.getNumElements() * memoryElementBytes(srcType);
}

int64_t mlir::tgpu::getHistogramScratchBytes(Operation *op) {
  auto hist = dyn_cast<tt::HistogramOp>(op);
  if (!hist)
    return 0;
  auto dstType = cast<RankedTensorType>(hist.getType());
  return dstType.getNumElements() * memoryElementBytes(dstType);
}

void mlir::tgpu::populateGatherHistogramOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<GatherLowering, HistogramLowering>(converter, info);
}
