#include "tgpu/Dialect/TritonGPU/Transforms/Pipelining.h"
#include "tgpu/Analysis/AccessWidth.h"

#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/Transforms/TMAUtilities.h"
#include "tgpu/Layout/BasisRuns.h"

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

bool mlir::tgpu::canCopyAsynchronously(tt::LoadOp load,
                                       const ModuleAxisInfoAnalysis &axisInfo) {
  // A volatile load reads memory when the program says; a copy issued
  // iterations early would not.
  if (load.getIsVolatile())
    return false;
  auto ptrType = dyn_cast<RankedTensorType>(load.getPtr().getType());
  if (!ptrType || !ptrType.getEncoding() ||
      !ttg::isDistributedEncoding(ptrType.getEncoding()))
    return false;
  auto pointee = dyn_cast<tt::PointerType>(ptrType.getElementType());
  if (!pointee || !pointee.getPointeeType().isIntOrFloat() ||
      pointee.getAddressSpace() != 1)
    return false;
  unsigned bits = pointee.getPointeeType().getIntOrFloatBitWidth();
  if (bits % 8 != 0)
    return false;
  auto layout =
      ::tgpu::layout::toLinearLayout(ptrType.getShape(), ptrType.getEncoding());
  if (!layout) {
    llvm::consumeError(layout.takeError());
    return false;
  }
  int64_t elemBytes = bits / 8;
  int64_t vec = getAccessVectorWidth(&axisInfo, load.getPtr(), load.getMask(),
                                     *layout, elemBytes, 16);
  // A load staged by a local_alloc (a wgmma operand) fills a ring in that
  // buffer's layout: a copy also moves only elements consecutive there.
  // Triton leaves such a load synchronous when that is under 4 bytes (an
  // 8-bit B read N-contiguous but stored K-major, say).
  for (Operation *user : load->getUsers()) {
    auto alloc = dyn_cast<ttg::LocalAllocOp>(user);
    if (!alloc)
      continue;
    auto shared = ::tgpu::layout::toLinearLayout(ptrType.getShape(),
                                                 alloc.getType().getEncoding());
    if (!shared) {
      llvm::consumeError(shared.takeError());
      return false;
    }
    auto toOffset = layout->invertAndCompose(*shared);
    if (!toOffset) {
      llvm::consumeError(toOffset.takeError());
      return false;
    }
    vec = std::min<int64_t>(vec, ::tgpu::layout::getAlignedRegisterRun(
                                     *toOffset, toOffset->findOut("offset")));
  }
  return vec * elemBytes >= 4;
}

bool mlir::tgpu::canCopyWithTma(tt::DescriptorLoadOp load) {
  return succeeded(
      getTmaBufferEncoding(cast<RankedTensorType>(load.getType()),
                           cast<tt::TensorDescType>(load.getDesc().getType())));
}
