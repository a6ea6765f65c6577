#include "tgpu/Dialect/TritonNvidiaGPU/Transforms/TMAUtilities.h"

#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

FailureOr<Attribute>
mlir::tgpu::getTmaBufferEncoding(RankedTensorType tensorType,
                                 tt::TensorDescType descType, Operation *op) {
  auto fail = [&](auto &&...parts) -> FailureOr<Attribute> {
    if (op)
      (op->emitOpError() << ... << parts);
    return failure();
  };
  auto block = descType.getBlockType();
  Attribute encoding = block.getEncoding();
  if (!encoding)
    return fail("needs a shared layout on its descriptor's block type ", block,
                " (run triton-nvidia-optimize-descriptor-encoding first)");
  auto rank = unsigned(tensorType.getRank());
  MLIRContext *ctx = tensorType.getContext();
  if (auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(encoding)) {
    if (nvmma.getRank() == rank)
      return encoding;
    if (llvm::any_of(nvmma.getCgaBases(), [](int32_t v) { return v != 0; }))
      return fail("cannot change the rank of ", encoding,
                  ", which splits the block among CTAs");
    return Attribute(ttg::NVMMASharedEncodingAttr::get(
        ctx, nvmma.getSwizzlingByteWidth(), nvmma.getTransposed(),
        nvmma.getElementBitWidth(), nvmma.getFp4Padded(), rank, {}));
  }
  auto swizzled = dyn_cast<ttg::SwizzledSharedEncodingAttr>(encoding);
  if (swizzled && swizzled.getVec() == 1 && swizzled.getPerPhase() == 1 &&
      swizzled.getMaxPhase() == 1) {
    if (swizzled.getOrder().size() == rank)
      return encoding;
    if (llvm::any_of(swizzled.getCgaBases(), [](int32_t v) { return v != 0; }))
      return fail("cannot change the rank of ", encoding,
                  ", which splits the block among CTAs");
    // The dims a rank-reducing copy keeps are the block's last ones.
    unsigned dropped = swizzled.getOrder().size() - rank;
    SmallVector<unsigned> order;
    for (unsigned d : swizzled.getOrder())
      if (d >= dropped)
        order.push_back(d - dropped);
    return Attribute(ttg::SwizzledSharedEncodingAttr::get(
        ctx, swizzled.getVec(), swizzled.getPerPhase(), swizzled.getMaxPhase(),
        order, {}));
  }
  return fail("cannot copy through a descriptor whose block has the layout ",
              encoding,
              " (TMA writes #ttg.nvmma_shared or an unswizzled "
              "#ttg.swizzled_shared)");
}

ttg::MemDescType mlir::tgpu::getSharedBufferType(RankedTensorType tensorType,
                                                 Attribute encoding,
                                                 bool isMutable) {
  MLIRContext *ctx = tensorType.getContext();
  return ttg::MemDescType::get(
      ctx, tensorType.getShape(), tensorType.getElementType(), encoding,
      ttg::SharedMemorySpaceAttr::get(ctx), isMutable, tensorType.getShape());
}

ttg::MemDescType mlir::tgpu::getBarrierType(MLIRContext *ctx, int64_t count) {
  SmallVector<int64_t> shape{count ? count : 1};
  if (count)
    shape.push_back(1);
  auto encoding = ttg::SwizzledSharedEncodingAttr::get(ctx, 1, 1, 1, {0}, {});
  return ttg::MemDescType::get(ctx, shape, IntegerType::get(ctx, 64), encoding,
                               ttg::SharedMemorySpaceAttr::get(ctx),
                               /*mutableMemory=*/true, shape);
}

int64_t mlir::tgpu::getTmaCopyBytes(RankedTensorType tensorType) {
  return tensorType.getNumElements() * tensorType.getElementTypeBitWidth() / 8;
}

namespace {

// The buffers `buffer` reaches through views and the buffers
// warp_group_dot_wait passes on, when every other op that sees any of them
// only reads (a local_load, a wgmma, a TMA store), so that they may all
// change mutability; none when a function boundary, a yield or a store sees
// one with its type.
std::optional<SmallVector<Value>> viewsOnlyRead(Value buffer) {
  SmallVector<Value> views, worklist{buffer};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      Value next;
      if (ttg::getMemDescViewSource(user) == v)
        next = user->getResult(0);
      else if (isa<ttng::WarpGroupDotWaitOp>(user))
        next = user->getResult(use.getOperandNumber());
      else if (!isa<ttg::LocalLoadOp, ttng::WarpGroupDotOp,
                    ttng::AsyncTMACopyLocalToGlobalOp>(user))
        return std::nullopt;
      if (next) {
        views.push_back(next);
        worklist.push_back(next);
      }
    }
  }
  return views;
}

} // namespace

bool mlir::tgpu::allocCanTakeBuffer(ttg::LocalAllocOp alloc,
                                    Attribute encoding) {
  return alloc.getType().getEncoding() == encoding &&
         viewsOnlyRead(alloc.getResult()).has_value();
}

bool mlir::tgpu::replaceAllocWithBuffer(RewriterBase &rewriter,
                                        ttg::LocalAllocOp alloc,
                                        TypedValue<ttg::MemDescType> buffer) {
  if (alloc.getType().getEncoding() != buffer.getType().getEncoding())
    return false;
  std::optional<SmallVector<Value>> views = viewsOnlyRead(alloc.getResult());
  if (!views)
    return false;
  bool isMutable = buffer.getType().getMutableMemory();
  rewriter.replaceAllUsesWith(alloc.getResult(), buffer);
  for (Value v : *views) {
    auto type = cast<ttg::MemDescType>(v.getType());
    v.setType(ttg::MemDescType::get(type.getContext(), type.getShape(),
                                    type.getElementType(), type.getEncoding(),
                                    type.getMemorySpace(), isMutable,
                                    type.getAllocShape()));
  }
  rewriter.eraseOp(alloc);
  return true;
}
