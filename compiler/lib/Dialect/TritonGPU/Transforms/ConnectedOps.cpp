#include "tgpu/Dialect/TritonGPU/Transforms/ConnectedOps.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Region.h"

using namespace mlir;

llvm::SetVector<Operation *> mlir::tgpu::getConnectedOps(Operation *op) {
  llvm::SetVector<Operation *> found;
  found.insert(op);
  auto isolated = [](Operation *o) {
    return o->hasTrait<OpTrait::IsIsolatedFromAbove>();
  };
  // `found` doubles as the queue: members before `next` are expanded.
  for (unsigned next = 0; next < found.size(); ++next) {
    Operation *current = found[next];
    for (Region &region : current->getRegions())
      for (Block &block : region)
        for (Operation &nested : block)
          found.insert(&nested);
    for (Value result : current->getResults())
      for (Operation *user : result.getUsers())
        found.insert(user);
    if (isolated(current))
      continue;
    for (Value operand : current->getOperands()) {
      if (Operation *from = operand.getDefiningOp()) {
        if (!isolated(from))
          found.insert(from);
        continue;
      }
      // A block argument leads to its op only when that op has one region
      // of one block (not to an scf.while from its "after" arguments).
      Operation *parent =
          cast<BlockArgument>(operand).getOwner()->getParentOp();
      if (parent && !isolated(parent) && parent->getNumRegions() == 1 &&
          parent->getRegion(0).hasOneBlock())
        found.insert(parent);
    }
  }
  return found;
}
