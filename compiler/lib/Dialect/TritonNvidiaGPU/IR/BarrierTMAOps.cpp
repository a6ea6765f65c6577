// Verifiers of the ttng mbarrier, TMA and tensormap ops. Messages are worded
// as Triton's, whose lit tests match them by substring.
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

using namespace mlir;
using namespace mlir::triton;
using namespace mlir::triton::gpu;
using namespace mlir::triton::nvidia_gpu;

// An mbarrier is one 64-bit word of shared memory.
static LogicalResult verifyBarrierType(Operation *op, Type type) {
  auto barrier = cast<MemDescType>(type);
  if (!barrier.getElementType().isInteger(64) ||
      barrier.getShape() != ArrayRef<int64_t>{1})
    return op->emitOpError(
        "barrier allocation must be a descriptor of 1xi64 type");
  return success();
}

// I32Attr getters are unsigned: read counts signed so that -1 is not 2^32-1.
static LogicalResult verifyAtLeastOne(Operation *op, IntegerAttr attr,
                                      StringRef name) {
  if (attr.getInt() < 1)
    return op->emitOpError() << name << " must be greater than or equal to 1";
  return success();
}

static LogicalResult verifyNotNegative(Operation *op, IntegerAttr attr,
                                       StringRef name) {
  if (attr.getInt() < 0)
    return op->emitOpError()
           << name << " must not be negative, got " << attr.getInt();
  return success();
}

// A TMA box has one coordinate per dimension, and the hardware has at most 5.
static LogicalResult verifyCoordCount(Operation *op, size_t count) {
  if (count < 1 || count > 5)
    return op->emitOpError("TMA copies must have between 1 and 5 coordinates");
  return success();
}

LogicalResult InitBarrierOp::verify() {
  if (failed(verifyBarrierType(*this, getAlloc().getType())))
    return failure();
  // mbarrier.init takes an arrival count in [1, 2^20 - 1].
  if (failed(verifyAtLeastOne(*this, getCountAttr(), "count")))
    return failure();
  if (getCountAttr().getInt() >= (1 << 20))
    return emitOpError("count must be less than 2^20, got ")
           << getCountAttr().getInt();
  return success();
}

LogicalResult InvalBarrierOp::verify() {
  return verifyBarrierType(*this, getAlloc().getType());
}

LogicalResult BarrierExpectOp::verify() {
  if (failed(verifyBarrierType(*this, getAlloc().getType())))
    return failure();
  return verifyNotNegative(*this, getSizeAttr(), "size");
}

LogicalResult WaitBarrierOp::verify() {
  return verifyBarrierType(*this, getAlloc().getType());
}

LogicalResult ArriveBarrierOp::verify() {
  if (failed(verifyBarrierType(*this, getAlloc().getType())))
    return failure();
  return verifyAtLeastOne(*this, getCountAttr(), "count");
}

LogicalResult AsyncCopyMbarrierArriveOp::verify() {
  return verifyBarrierType(*this, getBarrier().getType());
}

LogicalResult AsyncTMACopyGlobalToLocalOp::verify() {
  if (failed(verifyBarrierType(*this, getBarrier().getType())) ||
      failed(verifyCoordCount(*this, getCoord().size())))
    return failure();
  auto result = cast<MemDescType>(getResult().getType());
  if (!result.getMutableMemory())
    return emitOpError("Cannot store into immutable memory");
  if (!isa<NVMMASharedEncodingAttr>(result.getEncoding()))
    return emitOpError("TMA result must have NVMMA shared layout");
  return success();
}

LogicalResult AsyncTMACopyLocalToGlobalOp::verify() {
  return verifyCoordCount(*this, getCoord().size());
}

LogicalResult AsyncTMAReduceOp::verify() {
  return verifyCoordCount(*this, getCoord().size());
}

LogicalResult AsyncTMAGatherOp::verify() {
  if (failed(verifyBarrierType(*this, getBarrier().getType())))
    return failure();
  auto result = cast<MemDescType>(getResult().getType());
  if (!result.getMutableMemory())
    return emitOpError("cannot store into immutable memory");
  return DescriptorGatherOp::verifyResultType(*this, result,
                                              getXOffsets().getType());
}

LogicalResult AsyncTMAScatterOp::verify() {
  return DescriptorGatherOp::verifyResultType(
      *this, cast<MemDescType>(getSrc().getType()), getXOffsets().getType());
}

LogicalResult TMAStoreWaitOp::verify() {
  return verifyNotNegative(*this, getPendingsAttr(), "pendings");
}

// Triton reports these with emitError (no "'op' op" prefix); so do we.
LogicalResult TensormapCreateOp::verify() {
  size_t rank = getBoxDim().size();
  if (rank < 1 || rank > 5)
    return emitOpError("TMA descriptors have 1 to 5 dimensions, got ") << rank;
  if (getGlobalDim().size() != rank)
    return emitError("Rank mismatch for global dim. Got ")
           << getGlobalDim().size() << " but expected " << rank;
  if (getGlobalStride().size() + 1 != rank)
    return emitError("Rank mismatch for global stride. Got ")
           << getGlobalStride().size() << " but expected " << rank - 1;
  if (getElementStride().size() != rank)
    return emitError("Rank mismatch for element stride. Got ")
           << getElementStride().size() << " but expected " << rank;
  return success();
}
