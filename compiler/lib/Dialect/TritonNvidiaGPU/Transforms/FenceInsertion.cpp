// triton-nvidia-gpu-fence-insertion: a proxy fence before each wgmma that
// reads a buffer written by ordinary stores (see Passes.td).
#include "tgpu/Dialect/TritonNvidiaGPU/Transforms/Passes.h"

#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONNVIDIAGPUFENCEINSERTION
#include "tgpu/Dialect/TritonNvidiaGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

// Whether ordinary stores write the buffer `v` views: an initialised
// local_alloc, or a local_store into it or into any view of it. A view
// carried by a loop is followed to its initial and yielded values (the
// pipeliner's slot views); a buffer of any other unknown origin (a function
// argument) counts as written.
bool writtenByStores(Value v, DenseSet<Value> &seen) {
  if (!seen.insert(v).second)
    return false;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg == loop.getInductionVar())
      return true;
    unsigned i = arg.getArgNumber() - loop.getNumInductionVars();
    return writtenByStores(loop.getInitArgs()[i], seen) ||
           writtenByStores(loop.getYieldedValues()[i], seen);
  }
  Operation *def = v.getDefiningOp();
  if (Value src = ttg::getMemDescViewSource(def))
    return writtenByStores(src, seen);
  auto alloc = dyn_cast<ttg::LocalAllocOp>(def);
  if (!alloc)
    return true;
  if (alloc.getSrc())
    return true;
  SmallVector<Value> views{alloc.getResult()};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (Operation *user : view.getUsers()) {
      if (isa<ttg::LocalStoreOp>(user))
        return true;
      if (ttg::getMemDescViewSource(user) == view)
        views.push_back(user->getResult(0));
    }
  }
  return false;
}

bool writtenByStores(Value v) {
  DenseSet<Value> seen;
  return writtenByStores(v, seen);
}

struct FenceInsertion
    : public mlir::tgpu::impl::TritonNvidiaGPUFenceInsertionBase<
          FenceInsertion> {
  void runOnOperation() override {
    getOperation().walk([](ttng::WarpGroupDotOp dot) {
      bool needed = writtenByStores(dot.getB()) ||
                    (isa<ttg::MemDescType>(dot.getA().getType()) &&
                     writtenByStores(dot.getA()));
      if (!needed ||
          isa_and_nonnull<ttng::FenceAsyncSharedOp>(dot->getPrevNode()))
        return;
      OpBuilder b(dot);
      ttng::FenceAsyncSharedOp::create(b, dot.getLoc(), /*bCluster=*/false);
    });
  }
};

} // namespace
