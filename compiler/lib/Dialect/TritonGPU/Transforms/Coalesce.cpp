// tritongpu-coalesce: each global memory access on a tensor of pointers gets
// the blocked layout that makes a warp's accesses contiguous: dims ordered by
// the pointer's contiguity (AxisInfo), and as many consecutive elements per
// thread along the fastest dim as contiguity and alignment allow, up to 128
// bits. The access is rebuilt in that layout between convert_layouts;
// tritongpu-remove-layout-conversions later moves the surrounding code into it.
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h"

#include "tgpu/Analysis/AxisInfo.h"
#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/Transforms/ConnectedOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Debug.h"

#include <numeric>

#define DEBUG_TYPE "tritongpu-coalesce"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUCOALESCE
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

// The pointer operand of a global memory access, or null.
Value getMemAccessPtr(Operation *op) {
  if (auto load = dyn_cast<tt::LoadOp>(op))
    return load.getPtr();
  if (auto store = dyn_cast<tt::StoreOp>(op))
    return store.getPtr();
  if (auto rmw = dyn_cast<tt::AtomicRMWOp>(op))
    return rmw.getPtr();
  if (auto cas = dyn_cast<tt::AtomicCASOp>(op))
    return cas.getPtr();
  return nullptr;
}

// Dims from most to least contiguous; ties keep the lower dim first. (Triton
// 3.6 does this: with no contiguity known a 2-D access is column-major. Its
// sources once preferred row-major for ties; its outputs do not.)
SmallVector<unsigned> orderFromContiguity(ArrayRef<int64_t> contiguity) {
  SmallVector<unsigned> order(contiguity.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    return contiguity[a] > contiguity[b];
  });
  return order;
}

// How many consecutive elements one thread can access at once through `op`'s
// pointer along dim `fastest`: bounded by contiguity, alignment and 128 bits.
unsigned vectorWidth(Operation *op, unsigned fastest,
                     const tgpu::ModuleAxisInfoAnalysis &axisInfo) {
  Value ptr = getMemAccessPtr(op);
  auto type = cast<RankedTensorType>(ptr.getType());
  const tgpu::AxisInfo *info = axisInfo.getAxisInfo(ptr);
  if (!info || info->getRank() != type.getRank())
    return 1;
  Type elem = cast<tt::PointerType>(type.getElementType()).getPointeeType();
  unsigned elemBits = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 64;
  elemBits = std::max(elemBits, 1u);
  int64_t elemBytes = std::max(elemBits / 8, 1u);
  int64_t maxMultiple =
      std::max<int64_t>(info->getDivisibility(fastest) / elemBytes, 1);
  int64_t maxContig =
      std::min(info->getContiguity(fastest), type.getDimSize(fastest));
  int64_t alignment = std::min(maxMultiple, maxContig);
  return unsigned(
      std::clamp<int64_t>(alignment, 1, std::max(128u / elemBits, 1u)));
}

ttg::BlockedEncodingAttr
coalescedEncoding(Operation *op, const tgpu::ModuleAxisInfoAnalysis &axisInfo,
                  int numWarps, int threadsPerWarp) {
  Value ptr = getMemAccessPtr(op);
  auto type = cast<RankedTensorType>(ptr.getType());
  const tgpu::AxisInfo *info = axisInfo.getAxisInfo(ptr);
  SmallVector<int64_t> contiguity(type.getRank(), 1);
  if (info && info->getRank() == type.getRank())
    contiguity.assign(info->getContiguity().begin(),
                      info->getContiguity().end());
  SmallVector<unsigned> order = orderFromContiguity(contiguity);

  // Accesses connected to this one through def-use chains, with pointers of
  // the same shape and order, are likely to share its layout after
  // propagation: take the widest vector any of them allows.
  unsigned perThread = vectorWidth(op, order[0], axisInfo);
  if (ptr.getDefiningOp()) {
    for (Operation *other : tgpu::getConnectedOps(op)) {
      Value otherPtr = getMemAccessPtr(other);
      if (other == op || !otherPtr)
        continue;
      auto otherType = dyn_cast<RankedTensorType>(otherPtr.getType());
      if (!otherType || otherType.getShape() != type.getShape())
        continue;
      const tgpu::AxisInfo *otherInfo = axisInfo.getAxisInfo(otherPtr);
      if (!otherInfo || otherInfo->getRank() != type.getRank() ||
          orderFromContiguity(otherInfo->getContiguity()) != order)
        continue;
      perThread = std::max(perThread, vectorWidth(other, order[0], axisInfo));
    }
  }
  int64_t numElems = type.getNumElements();
  int64_t numThreads = int64_t(numWarps) * threadsPerWarp;
  perThread = unsigned(std::min<int64_t>(
      perThread, std::max<int64_t>(numElems / numThreads, 1)));
  // Writes wider than one 128-bit access per thread leave gaps in each
  // warp-wide write; reads do not suffer from it thanks to L1.
  if (!isa<tt::LoadOp>(op))
    perThread = std::min(perThread, vectorWidth(op, order[0], axisInfo));

  SmallVector<unsigned> sizePerThread(type.getRank(), 1);
  sizePerThread[order[0]] = perThread;
  ArrayRef<int32_t> cgaBases;
  if (auto blocked =
          dyn_cast_or_null<ttg::BlockedEncodingAttr>(type.getEncoding()))
    cgaBases = blocked.getCgaBases();
  return ttg::getBlockedEncoding(op->getContext(), type.getShape(),
                                 sizePerThread, order, numWarps, threadsPerWarp,
                                 cgaBases);
}

// Rebuilds `op` with every tensor operand and result in `encoding`,
// converting operands in and results back out.
void rebuildInEncoding(Operation *op, Attribute encoding) {
  OpBuilder builder(op);
  SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (type)
      operand = ttg::ConvertLayoutOp::create(
          builder, op->getLoc(), type.cloneWithEncoding(encoding), operand);
    operands.push_back(operand);
  }
  SmallVector<Type> resultTypes;
  for (Type type : op->getResultTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    resultTypes.push_back(tensor ? tensor.cloneWithEncoding(encoding) : type);
  }
  OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                       op->getAttrs());
  Operation *newOp = builder.create(state);
  for (auto [oldResult, newResult] :
       llvm::zip(op->getResults(), newOp->getResults())) {
    Value replacement = newResult;
    if (newResult.getType() != oldResult.getType())
      replacement = ttg::ConvertLayoutOp::create(
          builder, op->getLoc(), oldResult.getType(), newResult);
    oldResult.replaceAllUsesWith(replacement);
  }
  op->erase();
}

class Coalesce : public mlir::tgpu::impl::TritonGPUCoalesceBase<Coalesce> {
public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    tgpu::ModuleAxisInfoAnalysis axisInfo(module);
    int threadsPerWarp = ttg::lookupThreadsPerWarp(module);

    // Choose every layout first (the analysis speaks of the original values),
    // then rewrite.
    llvm::MapVector<Operation *, Attribute> layouts;
    module.walk([&](Operation *op) {
      Value ptr = getMemAccessPtr(op);
      auto type = ptr ? dyn_cast<RankedTensorType>(ptr.getType()) : nullptr;
      if (!type || !isa<tt::PointerType>(type.getElementType()) ||
          !type.getEncoding())
        return;
      int numWarps = ttg::lookupNumWarps(op);
      layouts[op] = coalescedEncoding(op, axisInfo, numWarps, threadsPerWarp);
      LLVM_DEBUG(llvm::dbgs() << op->getName() << " at " << op->getLoc()
                              << " -> " << layouts[op] << "\n");
    });
    for (auto &[op, encoding] : layouts)
      rebuildInEncoding(op, encoding);
  }
};

} // namespace
