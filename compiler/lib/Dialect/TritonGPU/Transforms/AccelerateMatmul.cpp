// tritongpu-accelerate-matmul: tt.dot from the FMA path (blocked result,
// #ttg.dot_op operands of it) onto tensor cores (#ttg.nvidia_mma v2). Only
// layouts change; the dot's meaning does not, except that an f32 dot with
// inputPrecision = tf32 now rounds its operands to tf32 as it says.
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tritongpu-accelerate-matmul"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUACCELERATEMATMUL
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

// K of the mma.sync the dot would use, or 0 if it has none.
int64_t instructionK(tt::DotOp dot) {
  Type a = getElementTypeOrSelf(dot.getA().getType());
  Type b = getElementTypeOrSelf(dot.getB().getType());
  Type c = getElementTypeOrSelf(dot.getType());
  if (a != b)
    return 0;
  if (a.isF16() && (c.isF32() || c.isF16()))
    return 16;
  if (a.isBF16() && c.isF32())
    return 16;
  if (a.isF32() && c.isF32() &&
      dot.getInputPrecision() == tt::InputPrecision::TF32)
    return 8;
  return 0;
}

// Warps along M and N. A dot chained with another (attention's two
// matmuls: one's result feeds the other, in the same region) takes the
// other's split if that is already on tensor cores, else puts every warp
// along its longer dim. Otherwise each doubling goes to the dim with more
// 16x8 tiles left per warp (M on ties, its A fragments being the larger),
// so a warp's tile count is as square as can be; operand registers per warp
// grow with the sum of the two.
SmallVector<unsigned> warpsPerTile(tt::DotOp dot, int64_t M, int64_t N,
                                   unsigned numWarps) {
  Region *region = dot->getParentRegion();
  auto sameRegion = [&](Operation *op) {
    return op->getParentRegion() == region;
  };
  SetVector<Operation *> chain;
  ForwardSliceOptions forward;
  forward.filter = sameRegion;
  getForwardSlice(dot.getOperation(), &chain, forward);
  BackwardSliceOptions backward;
  backward.filter = sameRegion;
  backward.omitBlockArguments = true;
  (void)getBackwardSlice(dot.getOperation(), &chain, backward);
  bool chained = false;
  for (Operation *op : chain) {
    auto other = dyn_cast<tt::DotOp>(op);
    if (!other || other == dot)
      continue;
    if (auto mma = dyn_cast_or_null<ttg::NvidiaMmaEncodingAttr>(
            cast<RankedTensorType>(other.getType()).getEncoding()))
      return SmallVector<unsigned>(mma.getWarpsPerCTA());
    chained = true;
  }
  if (chained)
    return M >= N ? SmallVector<unsigned>{numWarps, 1}
                  : SmallVector<unsigned>{1, numWarps};
  SmallVector<unsigned> warps = {1, 1};
  int64_t repM = M / 16, repN = N / 8;
  while (warps[0] * warps[1] < numWarps) {
    if (repM >= repN) {
      warps[0] *= 2;
      repM = std::max<int64_t>(1, repM / 2);
    } else {
      warps[1] *= 2;
      repN /= 2;
    }
  }
  return warps;
}

struct AccelerateMatmul
    : public mlir::tgpu::impl::TritonGPUAccelerateMatmulBase<AccelerateMatmul> {
  void runOnOperation() override {
    SmallVector<tt::DotOp> dots;
    getOperation().walk([&](tt::DotOp dot) { dots.push_back(dot); });
    for (tt::DotOp dot : dots)
      accelerate(dot);
  }

  void accelerate(tt::DotOp dot) {
    auto cType = cast<RankedTensorType>(dot.getType());
    auto aType = cast<RankedTensorType>(dot.getA().getType());
    auto blocked =
        dyn_cast_or_null<ttg::BlockedEncodingAttr>(cType.getEncoding());
    if (!blocked || cType.getRank() != 2) {
      LLVM_DEBUG(llvm::dbgs() << dot.getLoc()
                              << ": stays on FMA (not a 2-D blocked result)\n");
      return;
    }
    int64_t k = instructionK(dot);
    int64_t M = cType.getDimSize(0), N = cType.getDimSize(1);
    int64_t K = aType.getDimSize(1);
    if (!k || M % 16 || N % 8 || K % k) {
      LLVM_DEBUG(llvm::dbgs() << dot.getLoc() << ": stays on FMA ("
                              << (k ? "shape " : "types ") << M << "x" << N
                              << "x" << K << " has no mma.sync form)\n");
      return;
    }
    MLIRContext *ctx = dot.getContext();
    unsigned numWarps = unsigned(ttg::lookupNumWarps(dot));
    auto mma = ttg::NvidiaMmaEncodingAttr::get(
        ctx, /*versionMajor=*/2, /*versionMinor=*/0,
        warpsPerTile(dot, M, N, numWarps), /*instrShape=*/{16, 8},
        blocked.getCgaBases());
    LLVM_DEBUG(llvm::dbgs() << dot.getLoc() << ": " << M << "x" << N << "x" << K
                            << " on " << mma << "\n");
    auto retype = [](Value v, Attribute encoding) {
      auto t = cast<RankedTensorType>(v.getType());
      return RankedTensorType::get(t.getShape(), t.getElementType(), encoding);
    };
    OpBuilder b(dot);
    Location loc = dot.getLoc();
    unsigned bits = aType.getElementTypeBitWidth();
    auto operand = [&](Value v, unsigned opIdx) -> Value {
      auto enc = ttg::DotOperandEncodingAttr::get(ctx, opIdx, mma, 32 / bits);
      return ttg::ConvertLayoutOp::create(b, loc, retype(v, enc), v);
    };
    Value a = operand(dot.getA(), 0), bOp = operand(dot.getB(), 1);
    Value c = ttg::ConvertLayoutOp::create(b, loc, retype(dot.getC(), mma),
                                           dot.getC());
    auto onCores =
        tt::DotOp::create(b, loc, retype(dot.getResult(), mma), a, bOp, c,
                          dot.getInputPrecision(), dot.getMaxNumImpreciseAcc());
    Value back =
        ttg::ConvertLayoutOp::create(b, loc, cType, onCores.getResult());
    dot.getResult().replaceAllUsesWith(back);
    dot.erase();
  }
};

} // namespace
