// The Tensor Memory Accelerator's ops: ttng.async_tma_store_wait waits
// until at most `pendings` of the thread's bulk (TMA) store groups still
// read their shared-memory source (cp.async.bulk.wait_group.read, sm_90:
// checkAsyncOpsLowerable refuses it before).
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

struct TmaStoreWaitLowering
    : public ConvertOpToLLVMPattern<ttng::TMAStoreWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttng::TMAStoreWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncBulkWaitGroupOp>(
        op, op.getPendingsAttr(), rewriter.getUnitAttr());
    return success();
  }
};

} // namespace

void mlir::tgpu::populateTmaOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &) {
  patterns.add<TmaStoreWaitLowering>(converter);
}
