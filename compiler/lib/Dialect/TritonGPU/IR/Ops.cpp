// ttg op verifiers.
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::triton;
using namespace mlir::triton::gpu;

// `local`, `global_read|global_write`, `all`: the barrier's address spaces as
// keywords joined by `|` (how Triton prints ttg.barrier).
static ParseResult parseAddrSpace(OpAsmParser &parser, AddrSpaceAttr &attr) {
  AddrSpace value = AddrSpace::None;
  do {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    std::optional<AddrSpace> bit = symbolizeAddrSpace(keyword);
    if (!bit)
      return parser.emitError(loc, "unknown barrier address space '")
             << keyword << "' (expected local, global_read, global_write, tensor_read, "
             << "tensor_write or all)";
    value = value | *bit;
  } while (succeeded(parser.parseOptionalVerticalBar()));
  attr = AddrSpaceAttr::get(parser.getContext(), value);
  return success();
}

static void printAddrSpace(OpAsmPrinter &printer, Operation *, AddrSpaceAttr attr) {
  printer << stringifyAddrSpace(attr.getValue());
}

#define GET_OP_CLASSES
#include "tgpu/Dialect/TritonGPU/IR/TritonGPUOps.cpp.inc"

LogicalResult ConvertLayoutOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  if (!isDistributedEncoding(src.getEncoding()) || !isDistributedEncoding(dst.getEncoding()))
    return emitOpError("source and result must have distributed layouts");
  return success();
}

// A tensor and a buffer hold the same elements: same shape and element type.
static LogicalResult verifyTensorMatchesBuffer(Operation *op, RankedTensorType tensor,
                                               MemDescType buffer) {
  if (tensor.getShape() != buffer.getShape())
    return op->emitOpError("tensor shape and buffer shape differ");
  if (tensor.getElementType() != buffer.getElementType())
    return op->emitOpError("tensor element type ")
           << tensor.getElementType() << " differs from the buffer's " << buffer.getElementType();
  return success();
}

LogicalResult LocalAllocOp::verify() {
  auto buffer = cast<MemDescType>(getType());
  if (!buffer.getMemorySpace())
    return emitOpError("result must be in #ttg.shared_memory");
  if (getSrc()) {
    if (failed(verifyTensorMatchesBuffer(*this, cast<RankedTensorType>(getSrc().getType()),
                                         buffer)))
      return failure();
    if (buffer.getMutableMemory())
      return emitOpError("a buffer initialised from a tensor is immutable; drop 'mutable'");
  } else if (!buffer.getMutableMemory()) {
    return emitOpError("an uninitialised buffer must be mutable");
  }
  if (auto align = getAlignment(); align && !llvm::isPowerOf2_32(*align))
    return emitOpError("alignment must be a power of two, got ") << *align;
  return success();
}

LogicalResult LocalLoadOp::verify() {
  return verifyTensorMatchesBuffer(*this, cast<RankedTensorType>(getType()),
                                   cast<MemDescType>(getSrc().getType()));
}

LogicalResult LocalStoreOp::verify() {
  auto buffer = cast<MemDescType>(getDst().getType());
  if (!buffer.getMutableMemory())
    return emitOpError("cannot store into an immutable buffer");
  return verifyTensorMatchesBuffer(*this, cast<RankedTensorType>(getSrc().getType()), buffer);
}

static LogicalResult verifySameBuffer(Operation *op, MemDescType src, MemDescType dst) {
  if (src.getElementType() != dst.getElementType())
    return op->emitOpError("view must keep the element type");
  if (src.getMemorySpace() != dst.getMemorySpace())
    return op->emitOpError("view must keep the memory space");
  if (src.getMutableMemory() != dst.getMutableMemory())
    return op->emitOpError("view must keep mutability");
  return success();
}

LogicalResult MemDescIndexOp::verify() {
  auto src = cast<MemDescType>(getSrc().getType());
  auto dst = cast<MemDescType>(getType());
  if (failed(verifySameBuffer(*this, src, dst)))
    return failure();
  if (src.getRank() < 2)
    return emitOpError("source must have rank >= 2");
  if (dst.getShape() != src.getShape().drop_front())
    return emitOpError("result shape must be the source shape without its first dimension");
  return success();
}

LogicalResult MemDescSubsliceOp::verify() {
  auto src = cast<MemDescType>(getSrc().getType());
  auto dst = cast<MemDescType>(getType());
  if (failed(verifySameBuffer(*this, src, dst)))
    return failure();
  ArrayRef<int32_t> offsets = getOffsets();
  if (offsets.size() != static_cast<size_t>(src.getRank()) || dst.getRank() != src.getRank())
    return emitOpError("offsets, source and result must have the same rank");
  for (int64_t d = 0; d < src.getRank(); ++d) {
    if (offsets[d] < 0 || offsets[d] + dst.getDimSize(d) > src.getDimSize(d))
      return emitOpError("slice [") << offsets[d] << ", " << offsets[d] + dst.getDimSize(d)
                                    << ") is outside dimension " << d << " of size "
                                    << src.getDimSize(d);
    if (dst.getDimSize(d) && offsets[d] % dst.getDimSize(d) != 0)
      return emitOpError("offset ") << offsets[d] << " must be a multiple of the slice size "
                                    << dst.getDimSize(d);
  }
  return success();
}

LogicalResult MemDescTransOp::verify() {
  auto src = cast<MemDescType>(getSrc().getType());
  auto dst = cast<MemDescType>(getType());
  if (failed(verifySameBuffer(*this, src, dst)))
    return failure();
  ArrayRef<int32_t> order = getOrder();
  int64_t rank = src.getRank();
  if (dst.getRank() != rank)
    return emitOpError("source and result must have the same rank");
  if (failed(verifyPermutation(*this, order, rank)))
    return failure();
  for (int64_t i = 0; i < rank; ++i)
    if (dst.getDimSize(i) != src.getDimSize(order[i]))
      return emitOpError("result dimension ") << i << " must be source dimension " << order[i];
  return success();
}

LogicalResult MemDescReshapeOp::verify() {
  auto src = cast<MemDescType>(getSrc().getType());
  auto dst = cast<MemDescType>(getType());
  if (failed(verifySameBuffer(*this, src, dst)))
    return failure();
  if (src.getNumElements() != dst.getNumElements())
    return emitOpError("source and result must have the same number of elements");
  return success();
}

LogicalResult AsyncCopyGlobalToLocalOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<MemDescType>(getDst().getType());
  if (!dst.getMutableMemory())
    return emitOpError("destination buffer must be mutable");
  if (src.getShape() != dst.getShape())
    return emitOpError("pointer tensor and buffer shapes differ");
  if (getPointeeType(src.getElementType()) != dst.getElementType())
    return emitOpError("pointee type differs from the buffer's element type");
  if (getOther() && !getMask())
    return emitOpError("other needs a mask");
  return success();
}

LogicalResult AsyncWaitOp::verify() {
  // The generated getter is unsigned; read the attribute signed.
  if (getNumAttr().getInt() < 0)
    return emitOpError("num must not be negative, got ") << getNumAttr().getInt();
  return success();
}

LogicalResult BarrierOp::verify() {
  if (getAddrSpace() == AddrSpace::None)
    return emitOpError("must order at least one kind of memory");
  return success();
}
