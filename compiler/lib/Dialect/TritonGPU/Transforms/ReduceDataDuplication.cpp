// tritongpu-reduce-data-duplication: conversions into dot operand layouts
// that need shared memory become an explicit local_alloc + local_load.
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/Transforms/LayoutUtils.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUREDUCEDATADUPLICATION
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace ttg = mlir::triton::gpu;

namespace {

struct ReduceDataDuplicationPass
    : mlir::tgpu::impl::TritonGPUReduceDataDuplicationBase<
          ReduceDataDuplicationPass> {
  void runOnOperation() override {
    getOperation().walk([](ttg::ConvertLayoutOp cvt) {
      auto srcType = cast<RankedTensorType>(cvt.getSrc().getType());
      auto dstType = cast<RankedTensorType>(cvt.getType());
      auto dotOp =
          dyn_cast_or_null<ttg::DotOperandEncodingAttr>(dstType.getEncoding());
      // Shared memory holds integers and floats (not pointers).
      if (!dotOp || !srcType.getEncoding() ||
          !srcType.getElementType().isIntOrFloat() ||
          !ttg::isDistributedEncoding(srcType.getEncoding()) ||
          !mlir::tgpu::convertNeedsSharedMemory(srcType, dstType))
        return;
      std::optional<SmallVector<unsigned>> order =
          mlir::tgpu::getOrderForMemory(srcType.getEncoding(),
                                        srcType.getRank());
      if (!order)
        return;
      Attribute shared = mlir::tgpu::getDotOperandSharedEncoding(
          dotOp, srcType.getShape(), *order, srcType.getElementType(),
          /*cgaBases=*/{});
      OpBuilder builder(cvt);
      auto bufferType = ttg::MemDescType::get(
          cvt.getContext(), srcType.getShape(), srcType.getElementType(),
          shared, ttg::SharedMemorySpaceAttr::get(cvt.getContext()),
          /*mutableMemory=*/false, srcType.getShape());
      auto alloc = ttg::LocalAllocOp::create(builder, cvt.getLoc(), bufferType,
                                             cvt.getSrc(), IntegerAttr());
      auto load = ttg::LocalLoadOp::create(builder, cvt.getLoc(), dstType,
                                           alloc.getResult(), Value());
      cvt.replaceAllUsesWith(load.getResult());
      cvt.erase();
    });
  }
};

} // namespace
