// Shared-memory ops: local_alloc / local_store write a distributed tensor
// into a buffer, local_load reads one out, memdesc views re-address the
// buffer, ttg.barrier syncs the CTA. A buffer is lowered to the address of
// its offset 0; where element `coords` lives is the shared layout's inverse
// (offset = S⁻¹(coords)), so the tensor's registers map to offsets through
// T.invertAndCompose(S): compile-time per register, XOR a lane/warp part.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Layout/LdMatrix.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

// How the registers of a tensor sit in a shared buffer: a pointer for the
// first register of each group of `vec` consecutive registers that hold
// consecutive, aligned elements of the buffer (null for the groups whose
// elements lower registers hold already, in a layout that broadcasts along
// registers: each element is stored and loaded once), and for every
// register the lowest one holding the same element.
struct SharedAccess {
  SmallVector<Value> pointers;
  std::vector<int32_t> owner;
  int64_t vec = 1;
};

SharedAccess planSharedAccess(RewriterBase &rewriter, Location loc,
                              const TypeConverter *converter,
                              RankedTensorType tensorType,
                              const SharedViewMap &view, Value base,
                              int threadsPerWarp) {
  const LinearLayout *toOffset = &view.toOffset;
  SharedAccess access;
  access.owner = toOffset->getLowestSameImage("register");
  // Up to 16 bytes per access (ld/st.shared.v4.b32).
  access.vec = view.vectorWidth(16 / memoryElementBytes(tensorType));
  Type mem =
      getSharedMemoryType(converter->convertType(tensorType.getElementType()));
  const std::vector<int32_t> &owner = access.owner;
  int64_t vec = access.vec;
  access.pointers = mlir::tgpu::emitSharedPointers(
      rewriter, loc, *toOffset, base, mem, threadsPerWarp,
      [&](int32_t r) {
        if (r % vec)
          return false;
        for (int64_t i = 0; i < vec; ++i)
          if (owner[r + i] == r + i)
            return true;
        return false;
      },
      view.xorOffset);
  return access;
}

// An ldmatrix/stmatrix plan for `view` of `elem`s, when its map has the
// instructions' fragment shape (LdMatrix.h) and the view's origin keeps
// every row on a 16-byte boundary.
std::optional<::tgpu::layout::LdMatrixPlan>
planMatrixAccess(const SharedViewMap &view, Type elem, int threadsPerWarp) {
  if (threadsPerWarp != 32 || !elem || !elem.isIntOrFloat())
    return std::nullopt;
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (bits == 0 || 128 % bits || view.xorOffset % (128 / bits))
    return std::nullopt;
  return ::tgpu::layout::planLdMatrix(view.toOffset, bits);
}

Type memoryType(const TypeConverter *converter, Type elem) {
  return getSharedMemoryType(converter->convertType(elem));
}

// Writes `values` (the registers of `tensorType`) into the buffer at `base`:
// with stmatrix (sm_90) where the registers sit in the buffer as ldmatrix
// would deliver them, else with st.shared of up to 16 bytes.
LogicalResult storeToShared(RewriterBase &rewriter, Location loc,
                            const TypeConverter *converter,
                            RankedTensorType tensorType, ArrayRef<Value> values,
                            Value memdesc, Value base,
                            const LoweringInfo &info) {
  auto view = getSharedViewMap(loc, tensorType, memdesc);
  if (failed(view))
    return failure();
  Type elem = converter->convertType(tensorType.getElementType());
  if (info.computeCapability >= 90)
    if (auto plan = planMatrixAccess(*view, elem, info.threadsPerWarp)) {
      storeWithStMatrix(rewriter, loc, *plan, elem, base, values,
                        view->xorOffset);
      return success();
    }
  SharedAccess access = planSharedAccess(rewriter, loc, converter, tensorType,
                                         *view, base, info.threadsPerWarp);
  int64_t vec = access.vec;
  unsigned align = vec * memoryElementBytes(tensorType);
  for (size_t r = 0; r < values.size(); r += vec) {
    Value p = access.pointers[r];
    if (!p)
      continue;
    SmallVector<Value> elems;
    for (int64_t i = 0; i < vec; ++i)
      elems.push_back(toSharedMemoryValue(rewriter, loc, values[r + i]));
    Value v = vec == 1 ? elems.front() : packVector(rewriter, loc, elems);
    LLVM::StoreOp::create(rewriter, loc, v, p, align);
  }
  return success();
}

struct LocalAllocLowering : public ConvertOpToLLVMPattern<ttg::LocalAllocOp> {
  LocalAllocLowering(TritonGPUToLLVMTypeConverter &converter,
                     const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}
  LogicalResult
  matchAndRewrite(ttg::LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value base = getSharedMemoryBase(rewriter, op);
    if (Value src = op.getSrc()) {
      auto tensorType = cast<RankedTensorType>(src.getType());
      if (failed(storeToShared(
              rewriter, op.getLoc(), getTypeConverter(), tensorType,
              unpackValues(rewriter, op.getLoc(), adaptor.getSrc()),
              op.getResult(), base, info)))
        return failure();
    }
    rewriter.replaceOp(op, base);
    return success();
  }
  LoweringInfo info;
};

struct LocalStoreLowering : public ConvertOpToLLVMPattern<ttg::LocalStoreOp> {
  LocalStoreLowering(TritonGPUToLLVMTypeConverter &converter,
                     const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}
  LogicalResult
  matchAndRewrite(ttg::LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(
            storeToShared(rewriter, op.getLoc(), getTypeConverter(),
                          cast<RankedTensorType>(op.getSrc().getType()),
                          unpackValues(rewriter, op.getLoc(), adaptor.getSrc()),
                          op.getDst(), adaptor.getDst(), info)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
  LoweringInfo info;
};

struct LocalLoadLowering : public ConvertOpToLLVMPattern<ttg::LocalLoadOp> {
  LocalLoadLowering(TritonGPUToLLVMTypeConverter &converter,
                    const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}
  LogicalResult
  matchAndRewrite(ttg::LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto tensorType = cast<RankedTensorType>(op.getType());
    Type resultType = getTypeConverter()->convertType(tensorType);
    if (!resultType)
      return op.emitError("cannot lower ") << tensorType;
    Type elem = getTypeConverter()->convertType(tensorType.getElementType());
    auto view = getSharedViewMap(loc, tensorType, op.getSrc());
    if (failed(view))
      return failure();
    if (auto plan = planMatrixAccess(*view, elem, info.threadsPerWarp)) {
      rewriter.replaceOp(
          op, packValues(rewriter, loc, resultType,
                         loadWithLdMatrix(rewriter, loc, *plan, elem,
                                          adaptor.getSrc(), view->xorOffset)));
      return success();
    }
    SharedAccess access =
        planSharedAccess(rewriter, loc, getTypeConverter(), tensorType, *view,
                         adaptor.getSrc(), info.threadsPerWarp);
    Type mem = memoryType(getTypeConverter(), tensorType.getElementType());
    int64_t vec = access.vec;
    Type vecType = vec == 1 ? mem : VectorType::get(vec, mem);
    unsigned align = vec * memoryElementBytes(tensorType);
    int32_t regs = int32_t(access.owner.size());
    SmallVector<Value> values(regs);
    for (int32_t r = 0; r < regs; r += vec) {
      Value p = access.pointers[r];
      if (!p) {
        for (int64_t i = 0; i < vec; ++i)
          values[r + i] = values[access.owner[r + i]];
        continue;
      }
      Value v = LLVM::LoadOp::create(rewriter, loc, vecType, p, align);
      for (int64_t i = 0; i < vec; ++i) {
        Value x = vec == 1
                      ? v
                      : Value(LLVM::ExtractElementOp::create(
                            rewriter, loc, v, i32Constant(rewriter, loc, i)));
        values[r + i] = fromSharedMemoryValue(rewriter, loc, x, elem);
      }
    }
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, values));
    return success();
  }
  LoweringInfo info;
};

struct LocalDeallocLowering
    : public ConvertOpToLLVMPattern<ttg::LocalDeallocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttg::LocalDeallocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The allocation already ended the buffer's life here.
    rewriter.eraseOp(op);
    return success();
  }
};

// memdesc_index: sub-buffer `index` along dim 0 of the allocation, whose
// sub-buffers follow each other.
struct MemDescIndexLowering
    : public ConvertOpToLLVMPattern<ttg::MemDescIndexOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttg::MemDescIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType src = op.getSrc().getType();
    int64_t stride = 1;
    for (int64_t d : src.getShape().drop_front())
      stride *= d;
    Location loc = op.getLoc();
    Type mem = memoryType(getTypeConverter(), src.getElementType());
    if (!mem)
      return op.emitError("cannot lower ") << src;
    Value elems = LLVM::MulOp::create(rewriter, loc, adaptor.getIndex(),
                                      i32Constant(rewriter, loc, stride));
    rewriter.replaceOp(op, LLVM::GEPOp::create(
                               rewriter, loc, adaptor.getSrc().getType(), mem,
                               adaptor.getSrc(), ValueRange{elems}));
    return success();
  }
};

// memdesc_subslice: the same pointer; accesses through it place its box in
// the buffer from the chain of subslices (getSharedViewMap).
struct MemDescSubsliceLowering
    : public ConvertOpToLLVMPattern<ttg::MemDescSubsliceOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttg::MemDescSubsliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

// memdesc_trans / memdesc_reshape: the same bytes seen through another
// layout; the result type's encoding says where elements are.
template <typename OpT>
struct MemDescReViewLowering : public ConvertOpToLLVMPattern<OpT> {
  using ConvertOpToLLVMPattern<OpT>::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

// ttg.barrier and gpu.barrier (what tl.debug_barrier() gives).
template <typename OpT>
struct BarrierLowering : public ConvertOpToLLVMPattern<OpT> {
  using ConvertOpToLLVMPattern<OpT>::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // bar.sync orders every state space among the CTA's threads, so one
    // lowering serves each address-space mask.
    NVVM::Barrier0Op::create(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tgpu::populateMemoryOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<LocalAllocLowering, LocalStoreLowering, LocalLoadLowering>(
      converter, info);
  patterns
      .add<LocalDeallocLowering, MemDescIndexLowering, MemDescSubsliceLowering,
           MemDescReViewLowering<ttg::MemDescTransOp>,
           MemDescReViewLowering<ttg::MemDescReshapeOp>,
           BarrierLowering<ttg::BarrierOp>, BarrierLowering<gpu::BarrierOp>>(
          converter);
}
