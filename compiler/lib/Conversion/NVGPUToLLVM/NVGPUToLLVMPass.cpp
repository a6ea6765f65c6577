// convert-nv-gpu-to-llvm: the driver, and the nvg ops that are one
// instruction each (cluster rank, acquire load) plus ttg.warp_id.
//
// Every op is checked first (lowerable, or a located error and the pass
// fails); the rewrite itself runs as greedy patterns, which also fold and
// hoist the constants they make, so a region's constants come once, at its
// entry (ttg.warp_specialize partitions are isolated: theirs stay inside).
#include "tgpu/Conversion/NVGPUToLLVM/Passes.h"

#include "WgmmaToLLVM.h"

#include "tgpu/Conversion/TritonGPUToLLVM/Utility.h"
#include "tgpu/Dialect/NVGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_CONVERTNVGPUTOLLVM
#include "tgpu/Conversion/NVGPUToLLVM/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
using namespace mlir::tgpu;
namespace nvg = mlir::triton::nvgpu;
namespace ttg = mlir::triton::gpu;

namespace {

struct ClusterIdLowering : public OpRewritePattern<nvg::ClusterCTAIdOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nvg::ClusterCTAIdOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::ClusterId>(op, rewriter.getI32Type());
    return success();
  }
};

// The width of the load: the value's bits, at least a byte.
unsigned loadBits(Type type) {
  return std::max(8u, type.getIntOrFloatBitWidth());
}

LogicalResult checkLoadAcquire(nvg::LoadAcquireOp op) {
  // LLVM has no 8-bit float types: such values are loaded as i8.
  if (!LLVM::isCompatibleType(op.getType()))
    return op.emitOpError("cannot load ")
           << op.getType() << " in the LLVM dialect: load it as i8";
  if (op.getSem() != nvg::MemSemantic::ACQUIRE &&
      op.getSem() != nvg::MemSemantic::RELAXED)
    return op.emitOpError("a load has no ")
           << nvg::stringifyMemSemantic(op.getSem())
           << " order (acquire or relaxed only)";
  return success();
}

// `ld.global.<scope>.<sem>.b<N>` into a register zeroed first, so that a
// thread the mask turns off reads 0.
struct LoadAcquireLowering : public OpRewritePattern<nvg::LoadAcquireOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nvg::LoadAcquireOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op.getType();
    unsigned bits = loadBits(type);
    // 8-bit values travel in a 16-bit register ("c" is an 8-bit one, which
    // LLVM's NVPTX back end does not have).
    unsigned regBits = bits == 8 ? 16 : bits;
    Type regType = rewriter.getIntegerType(regBits);
    PtxAsmOperands operands;
    unsigned dst = operands.output(regBits == 64   ? "l"
                                   : regBits == 32 ? "r"
                                                   : "h");
    unsigned addr = operands.input(op.getAddr(), "l");
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "mov.u" << regBits << " $" << dst << ", 0x0;\n\t";
    if (Value mask = op.getMask())
      os << "@$" << operands.input(mask, "b") << " ";
    os << "ld.global." << nvg::stringifyMemSyncScope(op.getScope()) << "."
       << nvg::stringifyMemSemantic(op.getSem()) << ".b" << bits << " $" << dst
       << ", [ $" << addr << " + 0 ];";
    Value value =
        createPtxAsm(rewriter, loc, regType, operands, text).getResult(0);
    unsigned width = type.getIntOrFloatBitWidth();
    if (width != regBits)
      value = LLVM::TruncOp::create(rewriter, loc,
                                    rewriter.getIntegerType(width), value);
    if (value.getType() != type)
      value = LLVM::BitcastOp::create(rewriter, loc, type, value);
    rewriter.replaceOp(op, value);
    return success();
  }
};

// The first thread of the warp group that runs `op`: the partition's first
// warp times 32 inside a ttg.warp_specialize partition that has
// warpGroupStartIds, else 0 (the default region and the kernel body start
// at thread 0).
std::optional<int> partitionStartThread(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp()) {
    auto holder =
        dyn_cast_or_null<ttg::WarpSpecializePartitionsOp>(p->getParentOp());
    if (!holder)
      continue;
    auto ws = dyn_cast<ttg::WarpSpecializeOp>(holder->getParentOp());
    if (!ws || !ws.getWarpGroupStartIds())
      return std::nullopt;
    unsigned index = p->getParentRegion()->getRegionNumber();
    ArrayRef<int32_t> starts = *ws.getWarpGroupStartIds();
    if (index >= starts.size())
      return std::nullopt;
    return starts[index] * 32;
  }
  return std::nullopt;
}

// ttg.warp_id: 0 where one warp runs; else (thread id - the partition's
// first thread) / 32, passed through a shuffle from lane 0 so that ptxas
// knows it is the same in every lane (branches on it do not diverge).
struct WarpIdLowering : public OpRewritePattern<ttg::WarpIdOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ttg::WarpIdOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (ttg::lookupNumWarps(op) == 1) {
      rewriter.replaceOp(op, i32Constant(rewriter, loc, 0));
      return success();
    }
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    if (std::optional<int> start = partitionStartThread(op))
      tid = LLVM::SubOp::create(rewriter, loc, tid,
                                i32Constant(rewriter, loc, *start));
    Value warp = LLVM::UDivOp::create(rewriter, loc, tid,
                                      i32Constant(rewriter, loc, 32));
    rewriter.replaceOp(op, emitShuffle(rewriter, loc, warp, NVVM::ShflKind::idx,
                                       i32Constant(rewriter, loc, 0)));
    return success();
  }
};

struct ConvertNVGPUToLLVM
    : public mlir::tgpu::impl::ConvertNVGPUToLLVMBase<ConvertNVGPUToLLVM> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    WalkResult checked = module.walk([](Operation *op) {
      LogicalResult ok = success();
      if (auto wgmma = dyn_cast<nvg::WGMMAOp>(op))
        ok = checkWgmma(wgmma);
      else if (auto wait = dyn_cast<nvg::WGMMAWaitGroupOp>(op))
        ok = checkWgmmaWaitGroup(wait);
      else if (auto load = dyn_cast<nvg::LoadAcquireOp>(op))
        ok = checkLoadAcquire(load);
      else if (isa<nvg::TensorMemoryBaseAddress>(op))
        ok = op->emitOpError("is not supported: tensor memory is Blackwell's "
                             "(sm_100); tgpu targets GPUs up to Hopper");
      return failed(ok) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (checked.wasInterrupted())
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    patterns.add<ClusterIdLowering, LoadAcquireLowering, WarpIdLowering>(
        &getContext());
    populateWgmmaToLLVMPatterns(patterns);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
