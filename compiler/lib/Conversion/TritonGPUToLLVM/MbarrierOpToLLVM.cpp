// The mbarrier ops (PTX ISA, "Parallel Synchronization and Communication
// Instructions: mbarrier"), written as Triton 3.6 writes them so that the
// lowered IR reads the same: ttng.init_barrier, inval_barrier,
// barrier_expect and arrive_barrier are done by the CTA's thread 0 (one
// predicated instruction each); ttng.wait_barrier spins in every thread
// until the phase of the given parity has completed;
// ttng.async_copy_mbarrier_arrive arrives once the thread's cp.async copies
// have landed (cp.async.mbarrier.arrive).
//
// An mbarrier is a 1xi64 shared-memory buffer (the ops' verifiers check
// it), so its lowered memdesc is the barrier's address. PTX wants that
// address as a 32-bit shared-window register ("r"): tgpu compiles with
// 32-bit shared pointers.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

// True in the CTA's thread 0. tid.x is masked to the CTA's thread count
// first, as Triton does: a no-op for tid.x < numWarps * 32 (a power of
// two), kept so the lowered IR reads as Triton's.
Value emitIsThreadZero(RewriterBase &rewriter, Location loc,
                       const LoweringInfo &info) {
  Value tid = getThreadId(rewriter, loc);
  Value masked = LLVM::AndOp::create(
      rewriter, loc, tid,
      i32Constant(rewriter, loc, info.numWarps * info.threadsPerWarp - 1));
  return LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, masked,
                              i32Constant(rewriter, loc, 0));
}

// `text` with $0 the predicate ("b") and $1 the barrier ("r"), no results.
void emitPredicatedOnBarrier(RewriterBase &rewriter, Location loc, Value pred,
                             Value barrier, StringRef text) {
  PtxAsmOperands operands;
  operands.input(pred, "b");
  operands.input(barrier, "r");
  createPtxAsm(rewriter, loc, {}, operands, text);
}

template <typename OpT>
struct MbarrierLowering : public ConvertOpToLLVMPattern<OpT> {
  MbarrierLowering(TritonGPUToLLVMTypeConverter &converter,
                   const LoweringInfo &info)
      : ConvertOpToLLVMPattern<OpT>(converter), info(info) {}
  LoweringInfo info;
};

struct InitBarrierLowering : public MbarrierLowering<ttng::InitBarrierOp> {
  using MbarrierLowering::MbarrierLowering;
  LogicalResult
  matchAndRewrite(ttng::InitBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    emitPredicatedOnBarrier(rewriter, loc,
                            emitIsThreadZero(rewriter, loc, info),
                            adaptor.getAlloc(),
                            ("@$0 mbarrier.init.shared::cta.b64 [$1], " +
                             std::to_string(op.getCount()) + ";"));
    rewriter.eraseOp(op);
    return success();
  }
};

struct InvalBarrierLowering : public MbarrierLowering<ttng::InvalBarrierOp> {
  using MbarrierLowering::MbarrierLowering;
  LogicalResult
  matchAndRewrite(ttng::InvalBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    emitPredicatedOnBarrier(
        rewriter, loc, emitIsThreadZero(rewriter, loc, info),
        adaptor.getAlloc(), "@$0 mbarrier.inval.shared::cta.b64 [$1];");
    rewriter.eraseOp(op);
    return success();
  }
};

// One arrival that also adds `size` bytes to the phase's expected
// transactions (the TMA copies that signal this barrier deliver them).
struct BarrierExpectLowering : public MbarrierLowering<ttng::BarrierExpectOp> {
  using MbarrierLowering::MbarrierLowering;
  LogicalResult
  matchAndRewrite(ttng::BarrierExpectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value pred = LLVM::AndOp::create(rewriter, loc,
                                     emitIsThreadZero(rewriter, loc, info),
                                     adaptor.getPred());
    emitPredicatedOnBarrier(
        rewriter, loc, pred, adaptor.getAlloc(),
        ("@$0 mbarrier.arrive.expect_tx.shared.b64 _, [$1], " +
         std::to_string(op.getSize()) + ";"));
    rewriter.eraseOp(op);
    return success();
  }
};

struct ArriveBarrierLowering : public MbarrierLowering<ttng::ArriveBarrierOp> {
  using MbarrierLowering::MbarrierLowering;
  LogicalResult
  matchAndRewrite(ttng::ArriveBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value pred = emitIsThreadZero(rewriter, loc, info);
    if (Value p = adaptor.getPred())
      pred = LLVM::AndOp::create(rewriter, loc, pred, p);
    std::string text = "@$0 mbarrier.arrive.shared::cta.b64 _, [$1]";
    if (op.getCount() > 1)
      text += ", " + std::to_string(op.getCount());
    text += ";";
    emitPredicatedOnBarrier(rewriter, loc, pred, adaptor.getAlloc(), text);
    rewriter.eraseOp(op);
    return success();
  }
};

// Every thread polls the barrier until the phase whose parity is `phase`
// has completed. sm_90 has try_wait (which may suspend the thread for a
// while); before it, test_wait with a short sleep between polls. A
// predicate that is not known true branches around the loop.
struct WaitBarrierLowering : public MbarrierLowering<ttng::WaitBarrierOp> {
  using MbarrierLowering::MbarrierLowering;
  LogicalResult
  matchAndRewrite(ttng::WaitBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    bool predicated = op.getPred() && !matchPattern(op.getPred(), m_One());
    bool tryWait = info.computeCapability >= 90;
    std::string text = "\n{\n";
    if (predicated)
      text += "\t@!$2 bra.uni skipWait;\n";
    text += "\t.reg .pred complete;\n\twaitLoop:\n";
    text += tryWait
                ? "\tmbarrier.try_wait.parity.shared.b64 complete, [$0], $1;\n"
                : "\tmbarrier.test_wait.parity.shared.b64 complete, [$0], $1;\n"
                  "\t@!complete nanosleep.u32 20;\n";
    text += "\t@!complete bra.uni waitLoop;\n";
    if (predicated)
      text += "\tskipWait:\n";
    text += "}\n";
    PtxAsmOperands operands;
    operands.input(adaptor.getAlloc(), "r");
    operands.input(adaptor.getPhase(), "r");
    if (predicated)
      operands.input(adaptor.getPred(), "b");
    createPtxAsm(rewriter, op.getLoc(), {}, operands, text);
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncCopyMbarrierArriveLowering
    : public MbarrierLowering<ttng::AsyncCopyMbarrierArriveOp> {
  using MbarrierLowering::MbarrierLowering;
  LogicalResult
  matchAndRewrite(ttng::AsyncCopyMbarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncMBarrierArriveOp::create(
        rewriter, op.getLoc(), adaptor.getBarrier(), op.getNoIncrement());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

LogicalResult mlir::tgpu::checkAsyncOpsLowerable(ModuleOp module,
                                                 int computeCapability) {
  if (computeCapability >= 90)
    return success();
  // The sm_90 forms (ptxas 13.0 rejects them for sm_80): expect_tx, an
  // arrival count, the bulk (TMA) copies and their waits, tensormaps.
  WalkResult result = module.walk([&](Operation *op) {
    const char *what = nullptr;
    if (isa<ttng::BarrierExpectOp>(op))
      what = "mbarrier.expect_tx";
    else if (auto arrive = dyn_cast<ttng::ArriveBarrierOp>(op))
      what = arrive.getCount() > 1 ? "mbarrier.arrive with a count" : nullptr;
    else if (isa<ttng::TMAStoreWaitOp, ttng::AsyncTMACopyGlobalToLocalOp,
                 ttng::AsyncTMACopyLocalToGlobalOp>(op))
      what = "bulk async copies";
    else if (isa<ttng::TensormapCreateOp, ttng::TensormapFenceproxyAcquireOp>(
                 op))
      what = "tensormaps";
    if (!what)
      return WalkResult::advance();
    op->emitOpError() << "needs sm_90 or newer (" << what
                      << "); the target is sm_" << computeCapability;
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

void mlir::tgpu::populateMbarrierOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<InitBarrierLowering, InvalBarrierLowering, BarrierExpectLowering,
               ArriveBarrierLowering, WaitBarrierLowering,
               AsyncCopyMbarrierArriveLowering>(converter, info);
}
