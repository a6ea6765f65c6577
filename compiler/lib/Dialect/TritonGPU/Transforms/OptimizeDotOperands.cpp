// tritongpu-optimize-dot-operands: a transposed wgmma operand is stored
// untransposed and read through a transposed shared-memory view.
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUOPTIMIZEDOTOPERANDS
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

// local_alloc(trans(x)) -> memdesc_trans(local_alloc(x)) for a wgmma
// operand. An nvmma_shared layout read with its dims swapped is the same
// layout with `transposed` flipped: the swizzled rows then run along the
// other dim (what Triton infers for a memdesc_trans of one). Layouts that
// split the block among CTAs are left alone.
struct FoldTransposeIntoView : OpRewritePattern<ttg::LocalAllocOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ttg::LocalAllocOp alloc,
                                PatternRewriter &rewriter) const override {
    if (!alloc.getSrc() || !alloc->hasOneUse() ||
        !isa<ttng::WarpGroupDotOp>(*alloc->getUsers().begin()))
      return failure();
    auto trans = alloc.getSrc().getDefiningOp<tt::TransOp>();
    if (!trans || trans.getOrder() != ArrayRef<int32_t>{1, 0})
      return failure();
    ttg::MemDescType type = alloc.getType();
    auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(type.getEncoding());
    if (!nvmma || nvmma.getRank() != 2 ||
        llvm::any_of(nvmma.getCgaBases(), [](int32_t v) { return v != 0; }))
      return failure();
    auto inner = ttg::NVMMASharedEncodingAttr::get(
        getContext(), nvmma.getSwizzlingByteWidth(), !nvmma.getTransposed(),
        nvmma.getElementBitWidth(), nvmma.getFp4Padded(), nvmma.getRank(),
        nvmma.getCgaBases());
    auto srcType = cast<RankedTensorType>(trans.getSrc().getType());
    auto innerType = ttg::MemDescType::get(
        getContext(), srcType.getShape(), srcType.getElementType(), inner,
        type.getMemorySpace(), type.getMutableMemory(), srcType.getShape());
    auto stored = ttg::LocalAllocOp::create(rewriter, alloc.getLoc(), innerType,
                                            trans.getSrc(), IntegerAttr());
    rewriter.replaceOpWithNewOp<ttg::MemDescTransOp>(
        alloc, type, stored.getResult(), trans.getOrderAttr());
    return success();
  }
};

class TritonGPUOptimizeDotOperands
    : public mlir::tgpu::impl::TritonGPUOptimizeDotOperandsBase<
          TritonGPUOptimizeDotOperands> {
public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpPassManager canonicalize(ModuleOp::getOperationName());
    canonicalize.addPass(createCanonicalizerPass());
    if (failed(runPipeline(canonicalize, module)))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldTransposeIntoView>(&getContext());
    ttg::ConvertLayoutOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
