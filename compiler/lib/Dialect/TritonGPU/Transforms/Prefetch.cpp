// tritongpu-prefetch: splits the dot of a pipelined loop along K (32-byte
// slices) and loads its operands from shared memory one K slice at a time, the
// first slice of the next iteration at the end of the current one. A
// software-pipelined loop hands each iteration the shared-memory views of its
// operands (loop-carried, waited for at the end of the previous iteration);
// here
//
//   scf.for ... iter_args(%acc, %va, %vb, ...) {
//     %a = ttg.local_load %va ; %b = ttg.local_load %vb
//     %d = tt.dot %a, %b, %acc
//     ...                                    // next views %va', %vb'
//   }
//
// becomes
//
//   %a0 = local_load (memdesc_subslice %va_init [0, 0]) ; %b0 likewise
//   scf.for ... iter_args(%acc, %va, %vb, ..., %pa = %a0, %pb = %b0) {
//     %d0 = tt.dot %pa, %pb, %acc
//     %d1 = tt.dot (local_load subslice %va [0, W]), (... %vb [W, 0]), %d0
//     ...
//     yield ..., local_load (subslice %va' [0, 0]), local_load (... %vb')
//   }
//
// so the registers hold one slice of each operand at a time and the first
// slice's shared-memory latency overlaps the end of the previous iteration.
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tritongpu-prefetch"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUPREFETCH
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

// An operand the loop can prefetch: a local_load (used by the dot alone) of
// a loop-carried view of a whole buffer slot.
struct Operand {
  ttg::LocalLoadOp load;
  BlockArgument view; // the loop's region argument
  unsigned iterArg;   // its index among the loop's iter args
};

FailureOr<Operand> matchOperand(scf::ForOp loop, Value operand) {
  auto load = operand.getDefiningOp<ttg::LocalLoadOp>();
  if (!load || !load->hasOneUse() || load->getBlock() != loop.getBody())
    return failure();
  auto view = dyn_cast<BlockArgument>(load.getSrc());
  if (!view || view.getOwner() != loop.getBody() ||
      view == loop.getInductionVar())
    return failure();
  auto type = cast<ttg::MemDescType>(view.getType());
  if (type.getShape() != type.getAllocShape().take_back(type.getRank()))
    return failure();
  return Operand{load, view, view.getArgNumber() - 1};
}

// local_load of the K slice [k, k + width) of `view`.
Value loadSlice(OpBuilder &b, Location loc, Value view, unsigned opIdx,
                int64_t k, int64_t width, RankedTensorType fullType) {
  auto type = cast<ttg::MemDescType>(view.getType());
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<int32_t> offsets(shape.size(), 0);
  unsigned kDim = opIdx == 0 ? shape.size() - 1 : shape.size() - 2;
  shape[kDim] = width;
  offsets[kDim] = int32_t(k);
  auto sliceType = ttg::MemDescType::get(
      b.getContext(), shape, type.getElementType(), type.getEncoding(),
      type.getMemorySpace(), type.getMutableMemory(), type.getAllocShape());
  Value slice =
      ttg::MemDescSubsliceOp::create(b, loc, sliceType, view, offsets);
  auto tensorType = RankedTensorType::get(shape, fullType.getElementType(),
                                          fullType.getEncoding());
  return ttg::LocalLoadOp::create(b, loc, tensorType, slice, Value());
}

class TritonGPUPrefetch
    : public mlir::tgpu::impl::TritonGPUPrefetchBase<TritonGPUPrefetch> {
public:
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      prefetch(loop);
  }

private:
  void prefetch(scf::ForOp loop) {
    SmallVector<tt::DotOp> dots(loop.getBody()->getOps<tt::DotOp>());
    if (dots.size() != 1)
      return;
    tt::DotOp dot = dots.front();
    auto mma = dyn_cast<ttg::NvidiaMmaEncodingAttr>(
        cast<RankedTensorType>(dot.getType()).getEncoding());
    if (!mma || mma.getVersionMajor() != 2)
      return;
    auto a = matchOperand(loop, dot.getA());
    auto b = matchOperand(loop, dot.getB());
    if (failed(a) || failed(b))
      return;
    auto aType = cast<RankedTensorType>(dot.getA().getType());
    auto bType = cast<RankedTensorType>(dot.getB().getType());
    if (aType.getRank() != 2)
      return;
    int64_t k = aType.getShape()[1];
    unsigned bits = aType.getElementType().getIntOrFloatBitWidth();
    // 32 bytes of K a slice: one mma k-step of 16-bit operands. Wider
    // slices (64 bytes, as Triton's) kept 64 more registers live across
    // the back edge of the 128x128x64 corpus kernel and made ptxas spill.
    int64_t width = 256 / std::max(bits, 8u);
    if (k % width != 0 || k / width < 2) {
      LLVM_DEBUG(llvm::dbgs() << "K = " << k << " is not several slices of "
                              << width << "\n");
      return;
    }
    Location loc = dot.getLoc();
    IRRewriter rewriter(loop.getContext());
    // The first slices of the first iteration, before the loop.
    rewriter.setInsertionPoint(loop);
    Value a0 = loadSlice(rewriter, loc, loop.getInitArgs()[a->iterArg], 0, 0,
                         width, aType);
    Value b0 = loadSlice(rewriter, loc, loop.getInitArgs()[b->iterArg], 1, 0,
                         width, bType);
    auto yielded = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    Value nextA = yielded.getOperand(a->iterArg);
    Value nextB = yielded.getOperand(b->iterArg);
    // The next views must be made in the body (they stay valid when the
    // body moves into the new loop; region arguments do not).
    if (!nextA.getDefiningOp() || !nextB.getDefiningOp())
      return;
    auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
        rewriter, ValueRange{a0, b0}, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &builder, Location, ArrayRef<BlockArgument>) {
          // The next iteration's first slices, from the views it gets.
          return SmallVector<Value>{
              loadSlice(builder, loc, nextA, 0, 0, width, aType),
              loadSlice(builder, loc, nextB, 1, 0, width, bType)};
        }));
    Block *body = newLoop.getBody();
    unsigned numArgs = body->getNumArguments();
    Value prefetchedA = body->getArgument(numArgs - 2);
    Value prefetchedB = body->getArgument(numArgs - 1);
    // The dot, slice by slice.
    rewriter.setInsertionPoint(dot);
    Value acc =
        tt::DotOp::create(rewriter, loc, dot.getType(), prefetchedA,
                          prefetchedB, dot.getC(), dot.getInputPrecisionAttr(),
                          dot.getMaxNumImpreciseAccAttr())
            .getResult();
    for (int64_t s = width; s < k; s += width) {
      Value sa = loadSlice(rewriter, loc, a->load.getSrc(), 0, s, width, aType);
      Value sb = loadSlice(rewriter, loc, b->load.getSrc(), 1, s, width, bType);
      acc = tt::DotOp::create(rewriter, loc, dot.getType(), sa, sb, acc,
                              dot.getInputPrecisionAttr(),
                              dot.getMaxNumImpreciseAccAttr())
                .getResult();
    }
    rewriter.replaceOp(dot, acc);
    rewriter.eraseOp(a->load);
    rewriter.eraseOp(b->load);
  }
};

} // namespace
