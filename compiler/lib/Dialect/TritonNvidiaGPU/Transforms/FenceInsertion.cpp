// triton-nvidia-gpu-fence-insertion: a proxy fence before each wgmma that
// reads a buffer written by ordinary stores (see Passes.td).
#include "tgpu/Dialect/TritonNvidiaGPU/Transforms/Passes.h"

#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONNVIDIAGPUFENCEINSERTION
#include "tgpu/Dialect/TritonNvidiaGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

// The buffer a memdesc views: back through view ops to its local_alloc (or
// a value whose origin is not known here).
Value rootBuffer(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<ttg::MemDescIndexOp, ttg::MemDescSubsliceOp, ttg::MemDescTransOp,
            ttg::MemDescReshapeOp>(def))
      v = def->getOperand(0);
    else
      break;
  }
  return v;
}

// Whether ordinary stores write the buffer `v` views: an initialised
// local_alloc, a local_store into it or any view of it; a buffer of
// unknown origin (a block argument) counts as written.
bool writtenByStores(Value v) {
  Value root = rootBuffer(v);
  auto alloc = root.getDefiningOp<ttg::LocalAllocOp>();
  if (!alloc)
    return true;
  if (alloc.getSrc())
    return true;
  SmallVector<Value> views{root};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (Operation *user : view.getUsers()) {
      if (isa<ttg::LocalStoreOp>(user))
        return true;
      if (isa<ttg::MemDescIndexOp, ttg::MemDescSubsliceOp, ttg::MemDescTransOp,
              ttg::MemDescReshapeOp>(user))
        views.push_back(user->getResult(0));
    }
  }
  return false;
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
