// Asynchronous copies from global to shared memory (PTX cp.async, sm_80+):
// ttg.async_copy_global_to_local issues one cp.async per vector of
// registers, ttg.async_commit_group closes the thread's copies into a group,
// ttg.async_wait waits until at most `num` groups are in flight. Tokens
// only order these ops in the IR and lower to a constant. The barrier that
// makes other threads' completed copies visible after a wait is
// tritongpu-membar's.
#include "tgpu/Analysis/AccessWidth.h"
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

bool isZeroConstant(Value v) {
  return !v || matchPattern(v, m_Zero()) || matchPattern(v, m_AnyZeroFloat());
}

struct AsyncCopyLowering
    : public ConvertOpToLLVMPattern<ttg::AsyncCopyGlobalToLocalOp> {
  AsyncCopyLowering(TritonGPUToLLVMTypeConverter &converter,
                    const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(ttg::AsyncCopyGlobalToLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = getContext();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    ttg::MemDescType dstType = op.getDst().getType();
    Type elem = getTypeConverter()->convertType(dstType.getElementType());
    if (!elem)
      return op.emitOpError("cannot lower ") << dstType;
    Type memType = getSharedMemoryType(elem);
    int64_t elemBytes = memoryElementBytes(dstType.getElementType());

    auto srcLayout = getDistributedLayout(srcType, loc);
    if (failed(srcLayout))
      return failure();
    auto view = getSharedViewMap(loc, srcType, op.getDst());
    if (failed(view))
      return failure();
    const LinearLayout *toOffset = &view->toOffset;

    // Elements one cp.async moves: consecutive in global memory (AxisInfo)
    // and in the buffer, at most 16 bytes.
    int64_t vec = view->vectorWidth(getAccessVectorWidth(
        info.axisInfo, op.getSrc(), op.getMask(), *srcLayout, elemBytes, 16));
    int64_t bytes = vec * elemBytes;
    if (bytes < 4)
      return op.emitOpError("copies ")
             << bytes
             << " bytes per cp.async, which needs 4, 8 or 16: the pointers "
                "are not known contiguous and aligned enough (AxisInfo), or "
                "the layouts give a thread fewer consecutive elements";

    // Registers copied: the first of each vector, in its first holder only.
    std::vector<int32_t> owner = toOffset->getLowestSameImage("register");
    auto isCopied = [&](int32_t r) { return r % vec == 0 && owner[r] == r; };
    SmallVector<Value> dst =
        emitSharedPointers(rewriter, loc, *toOffset, adaptor.getDst(), memType,
                           info.threadsPerWarp, isCopied, view->xorOffset);
    Value threadPred = emitUniqueOwnerPredicate(rewriter, loc, *srcLayout,
                                                info.threadsPerWarp);
    SmallVector<Value> src = unpackValues(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> masks, others;
    if (adaptor.getMask())
      masks = unpackValues(rewriter, loc, adaptor.getMask());
    bool zeroFill = isZeroConstant(op.getOther());
    if (!zeroFill)
      others = unpackValues(rewriter, loc, adaptor.getOther());

    // 16-byte copies may bypass L1 (.cg), as Triton's; smaller ones cannot.
    auto modifier = NVVM::LoadCacheModifierKindAttr::get(
        ctx, bytes == 16 ? NVVM::LoadCacheModifierKind::CG
                         : NVVM::LoadCacheModifierKind::CA);
    Value fullSize = i32Constant(rewriter, loc, bytes);
    for (int32_t r = 0; r < int32_t(dst.size()); ++r) {
      if (!dst[r])
        continue;
      Value mask = masks.empty() ? Value() : masks[r];
      if (!threadPred && (zeroFill || !mask)) {
        // Masked-off vectors read 0 bytes: cp.async fills them with zeros.
        Value size =
            mask ? Value(LLVM::SelectOp::create(rewriter, loc, mask, fullSize,
                                                i32Constant(rewriter, loc, 0)))
                 : Value();
        NVVM::CpAsyncOp::create(rewriter, loc, dst[r], src[r],
                                rewriter.getI32IntegerAttr(bytes), modifier,
                                size);
        continue;
      }
      // A copy only some threads make (duplicate holders skip it), or one
      // whose masked-off elements get a non-zero `other`: NVVM's cp.async
      // has no predicate, so this one is written out.
      emitPredicatedCopy(rewriter, loc, dst[r], src[r], bytes, threadPred, mask,
                         zeroFill);
      if (!zeroFill && mask) {
        // Masked-off vectors store `other` themselves; they never overlap
        // a copy (the mask is constant over a vector).
        Value off = LLVM::XOrOp::create(
            rewriter, loc, mask,
            LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                     rewriter.getBoolAttr(true)));
        Value pred =
            threadPred
                ? Value(LLVM::AndOp::create(rewriter, loc, threadPred, off))
                : off;
        emitPredicatedStores(rewriter, loc, dst[r], memType,
                             ArrayRef<Value>(others).slice(r, vec), pred);
      }
    }
    rewriter.replaceOp(op, i32Constant(rewriter, loc, 0));
    return success();
  }

  // `@p cp.async [dst], [src], bytes, size` with p = threadPred && mask (or
  // the one present); size = bytes, or 0 for a masked-off vector when the
  // copy zero-fills.
  static void emitPredicatedCopy(RewriterBase &rewriter, Location loc,
                                 Value dst, Value src, int64_t bytes,
                                 Value threadPred, Value mask, bool zeroFill) {
    Value pred = threadPred;
    Value size = i32Constant(rewriter, loc, bytes);
    if (mask && zeroFill)
      size = LLVM::SelectOp::create(rewriter, loc, mask, size,
                                    i32Constant(rewriter, loc, 0));
    else if (mask)
      pred =
          pred ? Value(LLVM::AndOp::create(rewriter, loc, pred, mask)) : mask;
    std::string text =
        llvm::formatv("@$0 cp.async.{0}.shared.global [ $1 ], [ $2 ], {1}, $3;",
                      bytes == 16 ? "cg" : "ca", bytes);
    LLVM::InlineAsmOp::create(
        rewriter, loc, TypeRange{}, ValueRange{pred, dst, src, size}, text,
        "b,r,l,r", /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None, /*asm_dialect=*/nullptr,
        /*operand_attrs=*/nullptr);
  }

  // `@p st.shared` of each value of `values` at dst, dst + 1, ...
  static void emitPredicatedStores(RewriterBase &rewriter, Location loc,
                                   Value dst, Type memType,
                                   ArrayRef<Value> values, Value pred) {
    auto ptr3 = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
    unsigned bits = memType.getIntOrFloatBitWidth();
    Type word = rewriter.getIntegerType(bits < 16 ? 16 : bits);
    for (auto [i, v] : llvm::enumerate(values)) {
      Value p =
          i ? Value(LLVM::GEPOp::create(rewriter, loc, ptr3, memType, dst,
                                        ArrayRef<LLVM::GEPArg>{int32_t(i)}))
            : dst;
      Value m = toSharedMemoryValue(rewriter, loc, v);
      Type intType = rewriter.getIntegerType(bits);
      Value w = isa<LLVM::LLVMPointerType>(m.getType())
                    ? Value(LLVM::PtrToIntOp::create(rewriter, loc, intType, m))
                    : Value(LLVM::BitcastOp::create(rewriter, loc, intType, m));
      if (bits < 16)
        w = LLVM::ZExtOp::create(rewriter, loc, word, w);
      std::string text =
          bits == 8
              ? "@$0 st.shared.u8 [ $1 ], $2;"
              : llvm::formatv("@$0 st.shared.b{0} [ $1 ], $2;", bits).str();
      std::string constraint = bits == 64 ? "l" : bits == 32 ? "r" : "h";
      LLVM::InlineAsmOp::create(
          rewriter, loc, TypeRange{}, ValueRange{pred, p, w}, text,
          "b,r," + constraint, /*has_side_effects=*/true,
          /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
          /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
    }
  }

  LoweringInfo info;
};

struct AsyncCommitGroupLowering
    : public ConvertOpToLLVMPattern<ttg::AsyncCommitGroupOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttg::AsyncCommitGroupOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncCommitGroupOp::create(rewriter, op.getLoc());
    rewriter.replaceOp(op, i32Constant(rewriter, op.getLoc(), 0));
    return success();
  }
};

struct AsyncWaitLowering : public ConvertOpToLLVMPattern<ttg::AsyncWaitOp> {
  AsyncWaitLowering(TritonGPUToLLVMTypeConverter &converter,
                    const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}
  LogicalResult
  matchAndRewrite(ttg::AsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncWaitGroupOp::create(rewriter, op.getLoc(), op.getNum());
    // cp.async writes through the generic proxy; wgmma reads through the
    // async one, after the barrier that follows this wait (membar), so the
    // fence goes here, in every writing thread, before that barrier.
    if (info.asyncProxyReads)
      emitFenceProxyAsyncShared(rewriter, op.getLoc());
    rewriter.replaceOp(op, i32Constant(rewriter, op.getLoc(), 0));
    return success();
  }

private:
  LoweringInfo info;
};

} // namespace

void mlir::tgpu::populateAsyncCopyOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<AsyncCopyLowering>(converter, info);
  patterns.add<AsyncCommitGroupLowering>(converter);
  patterns.add<AsyncWaitLowering>(converter, info);
}
