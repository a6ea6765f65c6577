// !tt.tensordesc and the tt.descriptor_* / tt.make_tensor_descriptor
// verifiers. Messages are worded as Triton's, whose lit tests match them.
#include "tgpu/Dialect/Triton/IR/Dialect.h"

using namespace mlir;
using namespace mlir::triton;

//===----------------------------------------------------------------------===//
// !tt.tensordesc<tensor<...>>
//===----------------------------------------------------------------------===//
LogicalResult
TensorDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                       RankedTensorType blockType) {
  if (!blockType)
    return emitError() << "tensor descriptor needs a block type";
  if (blockType.getRank() < 1)
    return emitError() << "tensor descriptor block must have rank >= 1, got "
                       << blockType;
  for (int64_t size : blockType.getShape())
    if (ShapedType::isDynamic(size) || size <= 0)
      return emitError()
             << "tensor descriptor block must have static, positive sizes, got "
             << blockType;
  Type elem = blockType.getElementType();
  if (!isa<IntegerType, FloatType>(elem))
    return emitError()
           << "tensor descriptor block must hold integers or floats, got "
           << elem;
  return success();
}

RankedTensorType TensorDescType::getSignlessBlockType() const {
  RankedTensorType block = getBlockType();
  if (auto intTy = dyn_cast<IntegerType>(block.getElementType()))
    return block.clone(IntegerType::get(getContext(), intTy.getWidth()));
  return block;
}

// Signedness aside: descriptors may record si/ui elements, tensors and
// pointers are signless.
static Type signless(Type type) {
  if (auto intTy = dyn_cast<IntegerType>(type))
    return IntegerType::get(type.getContext(), intTy.getWidth());
  return type;
}

//===----------------------------------------------------------------------===//
// tt.make_tensor_descriptor
//===----------------------------------------------------------------------===//
LogicalResult MakeTensorDescOp::verify() {
  RankedTensorType block = getType().getBlockType();
  // SameVariadicOperandSize splits the operands after the base evenly, so
  // an odd count would silently misassign one; check the raw count.
  size_t rank = block.getRank(), given = getNumOperands() - 1;
  if (given != 2 * rank)
    return emitOpError("expected ")
           << rank << " sizes and " << rank << " strides for a rank-" << rank
           << " block, got " << given << " operands after the base";
  Type pointee = cast<PointerType>(getBase().getType()).getPointeeType();
  if (signless(pointee) != signless(block.getElementType()))
    return emitOpError("base pointee type ")
           << pointee << " does not match the block element type "
           << block.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// tt.descriptor_load / store / reduce
//===----------------------------------------------------------------------===//
// `tensor` must be the block, signedness aside; leading block dimensions of
// size 1 may be missing from it (a rank-reducing access).
static LogicalResult verifyBlockAccess(Operation *op, TensorDescType desc,
                                       RankedTensorType tensor) {
  RankedTensorType block = desc.getSignlessBlockType();
  ArrayRef<int64_t> blockShape = block.getShape(),
                    tensorShape = tensor.getShape();
  if (blockShape.size() > tensorShape.size()) {
    size_t dropped = blockShape.size() - tensorShape.size();
    if (llvm::any_of(blockShape.take_front(dropped),
                     [](int64_t s) { return s != 1; }))
      return op->emitOpError(
          "ranked reduce load only allowed for unit dimension leading dim.");
    blockShape = blockShape.take_back(tensorShape.size());
  }
  if (blockShape != tensorShape ||
      block.getElementType() != tensor.getElementType())
    return op->emitOpError(
        "tensor descriptor block and tensor types must match");
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  return verifyBlockAccess(*this, getDesc().getType(),
                           cast<RankedTensorType>(getType()));
}

LogicalResult DescriptorStoreOp::verify() {
  return verifyBlockAccess(*this, getDesc().getType(),
                           cast<RankedTensorType>(getSrc().getType()));
}

LogicalResult DescriptorReduceOp::verify() {
  return verifyBlockAccess(*this, getDesc().getType(),
                           cast<RankedTensorType>(getSrc().getType()));
}

//===----------------------------------------------------------------------===//
// tt.descriptor_gather / scatter
//===----------------------------------------------------------------------===//
LogicalResult
DescriptorGatherOp::verifyResultType(Operation *op, ShapedType resultType,
                                     RankedTensorType indicesType) {
  if (indicesType.getRank() != 1)
    return op->emitOpError("x offsets must be a 1D tensor, but got ")
           << indicesType;
  if (resultType.getRank() != 2)
    return op->emitOpError("result must be a 2D tensor, but got ")
           << resultType;
  // The tile lands in shared memory in the wgmma (NVMMA) swizzled layout,
  // whose smallest tile is 8 rows of 32 bytes.
  int64_t rows = resultType.getDimSize(0), cols = resultType.getDimSize(1);
  if (rows < 8)
    return op->emitOpError("gather must have at least 8 rows, but got ")
           << rows;
  Type elem = resultType.getElementType();
  if (!elem.isIntOrFloat())
    return op->emitOpError("TMA dtype must be an integer or float type, got ")
           << elem;
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (bits > 32)
    return op->emitOpError("TMA dtype cannot be greater than 32 bits");
  int64_t minCols = 32 / bits * 8;
  if (cols < minCols)
    return op->emitOpError("gather of ")
           << elem << " must have at least " << minCols << " columns, but got "
           << cols;
  if (rows != indicesType.getDimSize(0))
    return op->emitOpError("result tensor must have as many rows as indices (")
           << indicesType.getDimSize(0) << "), but got " << resultType;
  return success();
}

// The block is one row of a 2-D array; `tile` (the gathered result or the
// scattered source) has a row per index and the block's columns.
static LogicalResult verifyRowAccess(Operation *op, TensorDescType desc,
                                     RankedTensorType tile,
                                     RankedTensorType indices) {
  RankedTensorType block = desc.getSignlessBlockType();
  if (block.getRank() != 2)
    return op->emitOpError("block must be a 2D tensor, but got ") << block;
  if (block.getDimSize(0) != 1)
    return op->emitOpError("block must have exactly 1 row, but got ") << block;
  if (failed(DescriptorGatherOp::verifyResultType(op, tile, indices)))
    return failure();
  if (tile.getDimSize(1) != block.getDimSize(1))
    return op->emitOpError("result tensor number of columns must match block (")
           << block.getDimSize(1) << "), but got " << tile;
  if (tile.getElementType() != block.getElementType())
    return op->emitOpError("result tensor element type must match block (")
           << block.getElementType() << "), but got " << tile;
  return success();
}

LogicalResult DescriptorGatherOp::verify() {
  return verifyRowAccess(*this, getDesc().getType(),
                         cast<RankedTensorType>(getType()),
                         getXOffsets().getType());
}

LogicalResult DescriptorScatterOp::verify() {
  return verifyRowAccess(*this, getDesc().getType(),
                         cast<RankedTensorType>(getSrc().getType()),
                         getXOffsets().getType());
}
