#include "tgpu/Dialect/TritonGPU/Transforms/Pipelining.h"
#include "tgpu/Analysis/AccessWidth.h"

#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

bool mlir::tgpu::canCopyAsynchronously(tt::LoadOp load,
                                       const ModuleAxisInfoAnalysis &axisInfo) {
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
  return vec * elemBytes >= 4;
}
