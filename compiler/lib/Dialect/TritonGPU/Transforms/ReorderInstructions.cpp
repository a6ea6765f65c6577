// tritongpu-reorder-instructions: moves conversions, shared-memory loads,
// allocations and transposes to where they keep the fewest registers and
// buffers alive.
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUREORDERINSTRUCTIONS
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

// Whether `root` (with what it nests) may write or free memory that
// already exists: a write or free effect, or effects we cannot know. A
// local_alloc's initial store goes to the buffer it creates, which nothing
// before it can read.
bool mayWriteMemory(Operation *root) {
  WalkResult result = root->walk([](Operation *op) {
    if (isa<ttg::LocalAllocOp>(op))
      return WalkResult::advance();
    auto iface = dyn_cast<MemoryEffectOpInterface>(op);
    if (!iface)
      return op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &e : effects)
      if (!isa<MemoryEffects::Read, MemoryEffects::Allocate>(e.getEffect()))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

// Whether an op after `start` up to and including the op of `start`'s block
// that holds `end` may write memory. `start` dominates `end`.
bool writeBetween(Operation *start, Operation *end) {
  Operation *ancestor = start->getBlock()->findAncestorOpInBlock(*end);
  if (!ancestor)
    return true;
  for (Operation *op = start->getNextNode(); op; op = op->getNextNode()) {
    if (mayWriteMemory(op))
      return true;
    if (op == ancestor)
      return false;
  }
  return true;
}

// The op of `op`'s block that is or holds its first user there.
Operation *firstUserInBlock(Operation *op) {
  Operation *first = nullptr;
  for (Operation *user : op->getUsers()) {
    Operation *ancestor = op->getBlock()->findAncestorOpInBlock(*user);
    if (ancestor && (!first || ancestor->isBeforeInBlock(first)))
      first = ancestor;
  }
  return first;
}

// A conversion's scratch buffer may take the place of buffers freed before
// the conversion runs: move it after the deallocs between it and its first
// user.
void sinkConversionsPastDeallocs(ModuleOp module) {
  module.walk([](ttg::ConvertLayoutOp cvt) {
    Operation *firstUser = firstUserInBlock(cvt);
    Operation *lastDealloc = nullptr;
    for (Operation *op = cvt->getNextNode(); op && op != firstUser;
         op = op->getNextNode())
      if (isa<ttg::LocalDeallocOp>(op))
        lastDealloc = op;
    if (lastDealloc)
      cvt->moveAfter(lastDealloc);
  });
}

// A local_load or a conversion into a dot operand layout makes registers
// live (dot operand layouts hold elements several times); used only inside
// another loop nest, it moves to its user there. A local_load of a mutable
// buffer reads the same data there only if nothing on the way writes memory.
void sinkIntoUserLoops(ModuleOp module) {
  llvm::MapVector<Operation *, Operation *> moves;
  module.walk([&](Operation *op) {
    bool isLoad = isa<ttg::LocalLoadOp>(op);
    auto cvt = dyn_cast<ttg::ConvertLayoutOp>(op);
    if (!isLoad && !(cvt && isa<ttg::DotOperandEncodingAttr>(
                                tt::getEncoding(cvt.getType()))))
      return;
    if (!op->hasOneUse())
      return;
    Operation *user = *op->getUsers().begin();
    if (user->getParentOfType<scf::ForOp>() ==
        op->getParentOfType<scf::ForOp>())
      return;
    // An immutable buffer holds the same data wherever it is read.
    if (isLoad &&
        cast<ttg::LocalLoadOp>(op).getSrc().getType().getMutableMemory() &&
        writeBetween(op, user))
      return;
    moves.insert({op, user});
  });
  for (auto [op, user] : moves)
    op->moveBefore(user);
}

// A local_alloc of a tensor right after the tensor's producer: the tensor's
// registers die there. Not for constants and splats (the buffer would live
// longer for nothing).
void hoistAllocsToProducers(ModuleOp module) {
  module.walk([](ttg::LocalAllocOp alloc) {
    if (!alloc.getSrc())
      return;
    Operation *producer = alloc.getSrc().getDefiningOp();
    if (!producer || isa<arith::ConstantOp, tt::SplatOp>(producer))
      return;
    alloc->moveAfter(producer);
  });
}

// Transposes right after their source's producer.
void hoistTransposes(ModuleOp module) {
  module.walk([](Operation *op) {
    Value src;
    if (auto trans = dyn_cast<tt::TransOp>(op))
      src = trans.getSrc();
    else if (auto trans = dyn_cast<ttg::MemDescTransOp>(op))
      src = trans.getSrc();
    else
      return;
    if (Operation *producer = src.getDefiningOp())
      op->moveAfter(producer);
  });
}

// A dot's B operand load after its A operand load, when B's comes first
// and nothing between them writes memory.
void orderDotOperandLoads(ModuleOp module, DominanceInfo &dominance) {
  module.walk([&](ttg::LocalLoadOp load) {
    auto enc =
        dyn_cast<ttg::DotOperandEncodingAttr>(tt::getEncoding(load.getType()));
    if (!enc || enc.getOpIdx() != 1 || !load->hasOneUse())
      return;
    auto dot = dyn_cast<tt::DotOp>(*load->getUsers().begin());
    if (!dot)
      return;
    auto aLoad = dot.getA().getDefiningOp<ttg::LocalLoadOp>();
    if (!aLoad || !dominance.dominates(load.getOperation(), aLoad) ||
        writeBetween(load, aLoad))
      return;
    load->moveAfter(aLoad);
  });
}

struct ReorderInstructionsPass
    : mlir::tgpu::impl::TritonGPUReorderInstructionsBase<
          ReorderInstructionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    DominanceInfo dominance(module);
    sinkConversionsPastDeallocs(module);
    sinkIntoUserLoops(module);
    hoistAllocsToProducers(module);
    hoistTransposes(module);
    orderDotOperandLoads(module, dominance);
  }
};

} // namespace
