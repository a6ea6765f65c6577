// tritongpu-schedule-loops: assigns the pipeline stages of a loop whose
// loads carry tt.latency. A load issued L iterations early drags along what
// computes its operands, so those ops run in stage 0 too, L iterations
// ahead; everything else stays in stage L, in step with the loop's own
// iteration. The check that makes that legal is here: what a stage-0 op
// needs must itself be stage 0 (through loop-carried values as well), and
// must be safe to compute for iterations past the end (pure, no division by
// a value that may be zero), because the pipelined loop runs stage 0 for
// iterations that do not exist and only masks the copies.
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/Transforms/Pipelining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tritongpu-schedule-loops"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUSCHEDULELOOPS
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

// Integer division and remainder trap or are undefined for a zero divisor;
// a constant non-zero divisor is safe for any dividend (signed overflow of
// INT_MIN / -1 aside, which Triton's own IR never relies on either).
bool mayDivideByZero(Operation *op) {
  if (!isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
           arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op))
    return false;
  Value divisor = op->getOperand(1);
  APInt value;
  if (matchPattern(divisor, m_ConstantInt(&value)))
    return value.isZero();
  SplatElementsAttr splat;
  if (matchPattern(divisor, m_Constant(&splat)))
    return splat.getSplatValue<APInt>().isZero();
  return true;
}

// Whether `op` may run for an iteration past the loop's end.
bool isSafePastTheEnd(Operation *op) {
  if (mayDivideByZero(op))
    return false;
  if (!isMemoryEffectFree(op))
    return false;
  bool ok = true;
  op->walk([&](Operation *nested) {
    if (nested != op &&
        (!isMemoryEffectFree(nested) || mayDivideByZero(nested)))
      ok = false;
  });
  return ok;
}

// The ops of `loop`'s body that `roots` need, roots included: through
// operands (and values their regions use from above) and, for a region
// argument of the loop, through the value the body yields for it. Failure
// when one of them cannot be stage 0.
FailureOr<llvm::SetVector<Operation *>>
collectStageZero(scf::ForOp loop, ArrayRef<Operation *> roots) {
  Block *body = loop.getBody();
  llvm::SetVector<Operation *> ops;
  SmallVector<Value> worklist;
  auto visitOperands = [&](Operation *op) {
    for (Value v : op->getOperands())
      worklist.push_back(v);
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (!op->isAncestor(v.getParentBlock()->getParentOp()))
          worklist.push_back(v);
    });
  };
  for (Operation *load : roots) {
    ops.insert(load);
    visitOperands(load);
  }
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != body || arg == loop.getInductionVar())
        continue;
      v = body->getTerminator()->getOperand(arg.getArgNumber() - 1);
    }
    Operation *def = v.getDefiningOp();
    if (!def)
      continue;
    Operation *inBody = body->findAncestorOpInBlock(*def);
    if (!inBody || inBody == body->getTerminator() || ops.contains(inBody))
      continue;
    if (mlir::tgpu::isPipelinableLoad(inBody) || !isSafePastTheEnd(inBody)) {
      LLVM_DEBUG(llvm::dbgs() << "stage 0 would need " << *inBody << "\n");
      return failure();
    }
    ops.insert(inBody);
    visitOperands(inBody);
  }
  return ops;
}

class TritonGPUScheduleLoops
    : public mlir::tgpu::impl::TritonGPUScheduleLoopsBase<
          TritonGPUScheduleLoops> {
public:
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      schedule(loop);
  }

private:
  static void dropLatencies(ArrayRef<Operation *> loads) {
    for (Operation *load : loads)
      load->removeAttr(mlir::tgpu::kLatencyAttr);
  }

  void schedule(scf::ForOp loop) {
    Block *body = loop.getBody();
    SmallVector<Operation *> candidates;
    int maxLatency = 0;
    for (Operation &op : body->without_terminator()) {
      if (!mlir::tgpu::isPipelinableLoad(&op))
        continue;
      Operation *load = &op;
      if (auto latency =
              load->getAttrOfType<IntegerAttr>(mlir::tgpu::kLatencyAttr)) {
        if (latency.getInt() < 1) {
          load->removeAttr(mlir::tgpu::kLatencyAttr);
          continue;
        }
        candidates.push_back(load);
        maxLatency = std::max<int>(maxLatency, latency.getInt());
      }
    }
    if (candidates.empty())
      return;
    // scf::pipelineForLoop carries values only from ops of the body.
    for (Value yielded : body->getTerminator()->getOperands()) {
      Operation *def = yielded.getDefiningOp();
      if (!def || def->getBlock() != body) {
        LLVM_DEBUG(llvm::dbgs() << "a yielded value is not made in the body\n");
        return dropLatencies(candidates);
      }
    }
    // Loads whose operands can all be computed early, and what they need.
    SmallVector<Operation *> scheduled;
    llvm::SetVector<Operation *> stageZero;
    for (Operation *load : candidates) {
      auto ops = collectStageZero(loop, {load});
      if (failed(ops)) {
        load->removeAttr(mlir::tgpu::kLatencyAttr);
        continue;
      }
      scheduled.push_back(load);
      stageZero.insert(ops->begin(), ops->end());
    }
    if (scheduled.empty())
      return;
    // The pipelined loop computes stage 0 for the iterations after the last
    // one as well, so what stage 0 carries out of the loop would be off by
    // those iterations.
    for (OpOperand &yielded : body->getTerminator()->getOpOperands())
      if (stageZero.contains(yielded.get().getDefiningOp()) &&
          !loop.getResult(yielded.getOperandNumber()).use_empty()) {
        LLVM_DEBUG(llvm::dbgs() << "stage 0 value used after the loop\n");
        return dropLatencies(scheduled);
      }
    Builder b(loop);
    for (Operation &op : body->without_terminator()) {
      bool early = stageZero.contains(&op);
      op.setAttr(mlir::tgpu::kLoopStageAttr,
                 b.getI32IntegerAttr(early ? 0 : maxLatency));
      op.setAttr(mlir::tgpu::kLoopClusterAttr, b.getI32IntegerAttr(early));
    }
    loop->setAttr(mlir::tgpu::kScheduledMaxStageAttr,
                  b.getI32IntegerAttr(maxLatency));
  }
};

} // namespace
