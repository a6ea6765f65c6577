// The ttng dialect: registration and verifiers.
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::triton;
using namespace mlir::triton::gpu;
using namespace mlir::triton::nvidia_gpu;

#include "tgpu/Dialect/TritonNvidiaGPU/IR/TritonNvidiaGPUDialect.cpp.inc"

#define GET_OP_CLASSES
#include "tgpu/Dialect/TritonNvidiaGPU/IR/TritonNvidiaGPUOps.cpp.inc"

void TritonNvidiaGPUDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tgpu/Dialect/TritonNvidiaGPU/IR/TritonNvidiaGPUOps.cpp.inc"
      >();
}

LogicalResult WarpGroupDotOp::verify() {
  // Tensors and memdescs are both ShapedTypes.
  auto aType = cast<ShapedType>(getA().getType()), bType = cast<ShapedType>(getB().getType());
  ArrayRef<int64_t> aShape = aType.getShape(), bShape = bType.getShape();
  Type aElem = aType.getElementType(), bElem = bType.getElementType();
  auto c = cast<RankedTensorType>(getC().getType());
  if (aShape.size() != 2 || bShape.size() != 2 || c.getRank() != 2)
    return emitOpError("a, b and c must be 2-D");
  if (aShape[1] != bShape[0])
    return emitOpError("reduction dimensions differ: a has K = ")
           << aShape[1] << ", b has K = " << bShape[0];
  if (c.getDimSize(0) != aShape[0] || c.getDimSize(1) != bShape[1])
    return emitOpError("accumulator shape must be [M, N] = [") << aShape[0] << ", " << bShape[1]
                                                               << "]";
  auto mma = dyn_cast_or_null<NvidiaMmaEncodingAttr>(c.getEncoding());
  if (!mma || !mma.isHopper())
    return emitOpError("accumulator must have an nvidia_mma v3 encoding");
  if (auto aTensor = dyn_cast<RankedTensorType>(getA().getType())) {
    auto dot = dyn_cast_or_null<DotOperandEncodingAttr>(aTensor.getEncoding());
    if (!dot || dot.getOpIdx() != 0 || dot.getParent() != mma)
      return emitOpError("a register operand must have a dot_op encoding (opIdx = 0) whose "
                         "parent is the accumulator's");
  }
  if (isa<FloatType>(aElem) != isa<FloatType>(bElem))
    return emitOpError("a and b must both be float or both be integer");
  return success();
}

LogicalResult WarpGroupDotWaitOp::verify() {
  // The generated getter is unsigned; read the attribute signed.
  if (getPendingsAttr().getInt() < 0)
    return emitOpError("pendings must not be negative, got ") << getPendingsAttr().getInt();
  return success();
}
