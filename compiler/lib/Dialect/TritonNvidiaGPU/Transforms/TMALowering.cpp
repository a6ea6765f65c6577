// triton-nvidia-tma-lowering: tensor-descriptor loads and stores become TMA
// copies through shared memory (see Passes.td).
#include "tgpu/Dialect/TritonNvidiaGPU/Transforms/Passes.h"
#include "tgpu/Dialect/TritonNvidiaGPU/Transforms/TMAUtilities.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "tgpu/Layout/Tma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONNVIDIAGPUTMALOWERING
#include "tgpu/Dialect/TritonNvidiaGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

// What a TMA load leaves: the loaded tensor's users read the buffer. A
// user that only puts it back into shared memory with the buffer's own
// layout, for readers only, takes the buffer itself; the others read it
// with one local_load.
void replaceWithBuffer(RewriterBase &rewriter, Value loaded,
                       TypedValue<ttg::MemDescType> buffer) {
  for (Operation *user : llvm::make_early_inc_range(loaded.getUsers()))
    if (auto alloc = dyn_cast<ttg::LocalAllocOp>(user))
      mlir::tgpu::replaceAllocWithBuffer(rewriter, alloc, buffer);
  if (loaded.use_empty())
    return;
  auto read = ttg::LocalLoadOp::create(rewriter, loaded.getLoc(),
                                       loaded.getType(), buffer, Value());
  rewriter.replaceAllUsesWith(loaded, read.getResult());
}

// A load's buffer, its mbarrier expecting the block's bytes, `issue`
// (the copy), the wait for phase 0 and the barrier's release.
LogicalResult
lowerLoad(Operation *op, Value desc, RewriterBase &rewriter,
          function_ref<void(Value barrier, Value buffer, Value pred)> issue) {
  auto tensorType = cast<RankedTensorType>(op->getResult(0).getType());
  FailureOr<Attribute> encoding = mlir::tgpu::getTmaBufferEncoding(
      tensorType, cast<tt::TensorDescType>(desc.getType()), op);
  if (failed(encoding))
    return failure();
  Location loc = op->getLoc();
  auto buffer = ttg::LocalAllocOp::create(
      rewriter, loc,
      mlir::tgpu::getSharedBufferType(tensorType, *encoding,
                                      /*isMutable=*/true),
      Value(), IntegerAttr());
  Value barrier = ttg::LocalAllocOp::create(
      rewriter, loc, mlir::tgpu::getBarrierType(op->getContext()), Value(),
      IntegerAttr());
  ttng::InitBarrierOp::create(rewriter, loc, barrier, 1);
  int64_t bytes = mlir::tgpu::getTmaCopyBytes(tensorType);
  Value pred = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
  ttng::BarrierExpectOp::create(rewriter, loc, barrier, bytes, pred);
  issue(barrier, buffer, pred);
  Value phase = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
  ttng::WaitBarrierOp::create(rewriter, loc, barrier, phase, Value(),
                              ValueRange());
  ttng::InvalBarrierOp::create(rewriter, loc, barrier);
  replaceWithBuffer(rewriter, op->getResult(0), buffer.getResult());
  rewriter.eraseOp(op);
  return success();
}

// A store's source put in shared memory with the descriptor's layout, the
// proxy fence that makes the generic-proxy writes visible to TMA, `issue`
// (the copy) and the wait until TMA has read the buffer.
LogicalResult lowerStore(Operation *op, TypedValue<RankedTensorType> src,
                         Value desc, RewriterBase &rewriter,
                         function_ref<void(Value buffer)> issue) {
  FailureOr<Attribute> encoding = mlir::tgpu::getTmaBufferEncoding(
      src.getType(), cast<tt::TensorDescType>(desc.getType()), op);
  if (failed(encoding))
    return failure();
  Location loc = op->getLoc();
  Value buffer = ttg::LocalAllocOp::create(
      rewriter, loc,
      mlir::tgpu::getSharedBufferType(src.getType(), *encoding,
                                      /*isMutable=*/false),
      src, IntegerAttr());
  ttng::FenceAsyncSharedOp::create(rewriter, loc, /*bCluster=*/false);
  issue(buffer);
  ttng::TMAStoreWaitOp::create(rewriter, loc, 0);
  rewriter.eraseOp(op);
  return success();
}

// The element-type code PTX's tensormap.replace takes for a descriptor's
// elements, as Triton picks it (signless integers count as unsigned). It is
// CUDA's CUtensorMapDataType except that f64 is 9 and bf16 10 (CUDA: 8, 9).
std::optional<int32_t> tensorMapElemType(Type elem) {
  if (elem.isBF16())
    return 10;
  if (elem.isF16())
    return 6;
  if (elem.isF32())
    return 7;
  if (elem.isF64())
    return 9;
  if (!elem.isIntOrFloat())
    return std::nullopt;
  bool isSigned = elem.isSignedInteger();
  switch (elem.getIntOrFloatBitWidth()) {
  case 8:
    return 0;
  case 16:
    return 1;
  case 32:
    return isSigned ? 3 : 2;
  case 64:
    return isSigned ? 5 : 4;
  default:
    return std::nullopt;
  }
}

// A descriptor made in the kernel: 128 bytes of global scratch, written
// with the CUtensorMap (global address, sizes and byte strides innermost
// first, Triton's box for the block's layout, element type, swizzle), then
// made visible to the TMA unit; the descriptor is that memory.
LogicalResult lowerMakeDescriptor(tt::MakeTensorDescOp op,
                                  RewriterBase &rewriter) {
  Location loc = op.getLoc();
  RankedTensorType block = op.getType().getBlockType();
  Attribute encoding = block.getEncoding();
  int swizzleBytes = 0;
  if (auto nvmma = dyn_cast_or_null<ttg::NVMMASharedEncodingAttr>(encoding)) {
    if (nvmma.getTransposed() || nvmma.getFp4Padded())
      return op.emitOpError()
             << "cannot make a TMA descriptor for the layout " << encoding
             << " (transposed and fp4-padded blocks are not supported)";
    swizzleBytes = int(nvmma.getSwizzlingByteWidth());
  } else {
    auto swizzled = dyn_cast_or_null<ttg::SwizzledSharedEncodingAttr>(encoding);
    if (!swizzled || swizzled.getVec() != 1 || swizzled.getPerPhase() != 1 ||
        swizzled.getMaxPhase() != 1)
      return op.emitOpError()
             << "cannot make a TMA descriptor for the block type " << block
             << " (run triton-nvidia-optimize-descriptor-encoding first: TMA "
                "writes #ttg.nvmma_shared or an unswizzled "
                "#ttg.swizzled_shared)";
  }
  Type elemType = block.getElementType();
  std::optional<int32_t> elemCode = tensorMapElemType(elemType);
  if (!elemCode)
    return op.emitOpError() << "TMA has no element type for " << elemType;
  int elemBits = int(elemType.getIntOrFloatBitWidth());
  auto box = ::tgpu::layout::tmaBox(
      std::vector<int64_t>(block.getShape().begin(), block.getShape().end()),
      elemBits, swizzleBytes);
  if (!box)
    return op.emitOpError() << "TMA cannot copy the block " << block << ": "
                            << llvm::toString(box.takeError());

  DenseMap<int32_t, Value> constants;
  auto i32 = [&](int32_t v) {
    Value &c = constants[v];
    if (!c)
      c = arith::ConstantIntOp::create(rewriter, loc, v, 32);
    return c;
  };
  constexpr int32_t kTensorMapBytes = 128;
  auto scratch = ttg::GlobalScratchAllocOp::create(
      rewriter, loc, tt::PointerType::get(rewriter.getI8Type(), 1),
      kTensorMapBytes, kTensorMapBytes);
  SmallVector<Value> boxDims, globalDims, globalStrides;
  for (int32_t b : llvm::reverse(*box))
    boxDims.push_back(i32(b));
  for (Value d : llvm::reverse(op.getShape()))
    globalDims.push_back(d);
  Value elemBytes =
      arith::ConstantIntOp::create(rewriter, loc, elemBits / 8, 64);
  for (Value stride : llvm::reverse(op.getStrides().drop_back()))
    globalStrides.push_back(
        rewriter.createOrFold<arith::MulIOp>(loc, stride, elemBytes));
  SmallVector<Value> elementStrides(boxDims.size(), i32(1));
  int32_t fillMode = op.getPadding() == tt::PaddingOption::PAD_NAN ? 1 : 0;
  ttng::TensormapCreateOp::create(
      rewriter, loc, scratch, op.getBase(), boxDims, globalDims, globalStrides,
      elementStrides, *elemCode, /*interleave_layout=*/0,
      /*swizzle_mode=*/llvm::Log2_32(std::max(swizzleBytes, 16)) - 4, fillMode);
  ttng::TensormapFenceproxyAcquireOp::create(rewriter, loc, scratch);
  rewriter.replaceOpWithNewOp<ttng::ReinterpretTensorDescOp>(op, op.getType(),
                                                             scratch);
  return success();
}

// Each descriptor op, rewritten in place.
LogicalResult lowerDescriptorOp(Operation *op, RewriterBase &rewriter) {
  Location loc = op->getLoc();
  if (auto make = dyn_cast<tt::MakeTensorDescOp>(op))
    return lowerMakeDescriptor(make, rewriter);
  if (auto load = dyn_cast<tt::DescriptorLoadOp>(op))
    return lowerLoad(op, load.getDesc(), rewriter,
                     [&](Value barrier, Value buffer, Value pred) {
                       ttng::AsyncTMACopyGlobalToLocalOp::create(
                           rewriter, loc, load.getDesc(), load.getIndices(),
                           barrier, buffer, pred);
                     });
  if (auto gather = dyn_cast<tt::DescriptorGatherOp>(op))
    return lowerLoad(op, gather.getDesc(), rewriter,
                     [&](Value barrier, Value buffer, Value pred) {
                       ttng::AsyncTMAGatherOp::create(
                           rewriter, loc, gather.getDesc(),
                           gather.getXOffsets(), gather.getYOffset(), barrier,
                           buffer, pred);
                     });
  if (auto store = dyn_cast<tt::DescriptorStoreOp>(op))
    return lowerStore(
        op, store.getSrc(), store.getDesc(), rewriter, [&](Value buffer) {
          ttng::AsyncTMACopyLocalToGlobalOp::create(
              rewriter, loc, store.getDesc(), store.getIndices(), buffer);
        });
  if (auto reduce = dyn_cast<tt::DescriptorReduceOp>(op))
    return lowerStore(
        op, reduce.getSrc(), reduce.getDesc(), rewriter, [&](Value buffer) {
          ttng::AsyncTMAReduceOp::create(rewriter, loc, reduce.getKind(),
                                         reduce.getDesc(), reduce.getIndices(),
                                         buffer);
        });
  auto scatter = cast<tt::DescriptorScatterOp>(op);
  return lowerStore(
      op, scatter.getSrc(), scatter.getDesc(), rewriter, [&](Value buffer) {
        ttng::AsyncTMAScatterOp::create(rewriter, loc, scatter.getDesc(),
                                        scatter.getXOffsets(),
                                        scatter.getYOffset(), buffer);
      });
}

struct TMALowering
    : public mlir::tgpu::impl::TritonNvidiaGPUTMALoweringBase<TMALowering> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<tt::MakeTensorDescOp, tt::DescriptorLoadOp,
              tt::DescriptorGatherOp, tt::DescriptorStoreOp,
              tt::DescriptorReduceOp, tt::DescriptorScatterOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    bool failedAny = false;
    for (Operation *op : ops) {
      rewriter.setInsertionPoint(op);
      failedAny |= failed(lowerDescriptorOp(op, rewriter));
    }
    if (failedAny)
      return signalPassFailure();
    // Fold and unify the constants the rewrites made, as Triton's greedy
    // rewrite leaves them.
    (void)applyPatternsGreedily(getOperation(), FrozenRewritePatternSet());
  }
};

} // namespace
