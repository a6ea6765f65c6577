// The tt dialect: registration, the pointer type, shared type helpers and the
// verification of the traits every tt op carries.
#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::triton;

#include "tgpu/Dialect/Triton/IR/TritonDialect.cpp.inc"
#include "tgpu/Dialect/Triton/IR/TritonEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tgpu/Dialect/Triton/IR/TritonTypes.cpp.inc"

namespace {
// tt.func / tt.call inline like func.func: everything inside is legal to move.
struct TritonInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final { return true; }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final { return true; }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final { return true; }
  void handleTerminator(Operation *op, ValueRange valuesToRepl) const final {
    auto ret = dyn_cast<ReturnOp>(op);
    if (!ret)
      return;
    for (auto [value, repl] : llvm::zip(ret.getOperands(), valuesToRepl))
      repl.replaceAllUsesWith(value);
  }
};
} // namespace

void TritonDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tgpu/Dialect/Triton/IR/TritonOps.cpp.inc"
      >();
  addInterfaces<TritonInlinerInterface>();
}

Operation *TritonDialect::materializeConstant(OpBuilder &builder,
                                              Attribute value, Type type,
                                              Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

void TritonDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tgpu/Dialect/Triton/IR/TritonTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// !tt.ptr<T[, addrspace]>
//===----------------------------------------------------------------------===//
Type PointerType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  Type pointee;
  if (parser.parseLess() || parser.parseType(pointee))
    return Type();
  int addressSpace = 1;
  if (succeeded(parser.parseOptionalComma())) {
    SMLoc asLoc = parser.getCurrentLocation();
    int64_t value;
    if (parser.parseInteger(value))
      return Type();
    if (value < 0 || value > INT32_MAX) {
      parser.emitError(asLoc, "address space must be in [0, 2^31), got ") << value;
      return Type();
    }
    addressSpace = static_cast<int>(value);
  }
  if (parser.parseGreater())
    return Type();
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), pointee,
                    addressSpace);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getAddressSpace() != 1)
    printer << ", " << getAddressSpace();
  printer << ">";
}

LogicalResult PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  Type pointeeType, int addressSpace) {
  if (!pointeeType)
    return emitError() << "pointer needs a pointee type";
  if (addressSpace < 0)
    return emitError() << "address space must not be negative";
  if (auto tensor = dyn_cast<RankedTensorType>(pointeeType)) {
    // A block pointer points to a tensor of scalars.
    if (isa<PointerType>(tensor.getElementType()))
      return emitError() << "block pointer's tensor must not hold pointers";
    return success();
  }
  if (!pointeeType.isIntOrIndexOrFloat() && !isa<PointerType>(pointeeType))
    return emitError() << "pointee must be an integer, float, pointer or tensor, got "
                       << pointeeType;
  return success();
}

//===----------------------------------------------------------------------===//
// Type helpers
//===----------------------------------------------------------------------===//
Attribute mlir::triton::getEncoding(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getEncoding();
  return {};
}

Type mlir::triton::getPointeeType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    auto ptr = dyn_cast<PointerType>(tensor.getElementType());
    if (!ptr)
      return type;
    return RankedTensorType::get(tensor.getShape(), ptr.getPointeeType(), tensor.getEncoding());
  }
  if (auto ptr = dyn_cast<PointerType>(type))
    return ptr.getPointeeType();
  return type;
}

Type mlir::triton::getBlockPointerBaseType(Type type) {
  if (auto ptr = dyn_cast<PointerType>(type))
    if (auto block = dyn_cast<RankedTensorType>(ptr.getPointeeType()))
      return PointerType::get(block.getElementType(), ptr.getAddressSpace());
  return type;
}

Type mlir::triton::getI1SameShape(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), i1, tensor.getEncoding());
  return i1;
}

Type mlir::triton::getPointerTypeSameShape(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), PointerType::get(tensor.getElementType(), 1),
                                 tensor.getEncoding());
  return PointerType::get(type, 1);
}

//===----------------------------------------------------------------------===//
// Traits
//===----------------------------------------------------------------------===//
// Triton caps a tensor at 2^20 elements (one CTA's worth of registers).
static constexpr int64_t kMaxTensorElements = 1 << 20;

static LogicalResult verifyOneTensorShape(Operation *op, Type type, StringRef what) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return success();
  int64_t numel = 1;
  for (int64_t dim : tensor.getShape()) {
    if (ShapedType::isDynamic(dim))
      return op->emitOpError() << what << " " << type << " must have a static shape";
    if (dim <= 0 || !llvm::isPowerOf2_64(dim))
      return op->emitOpError() << what << " " << type
                               << " has a dimension that is not a positive power of two";
    numel *= dim;
    if (numel > kMaxTensorElements)
      return op->emitOpError() << what << " " << type << " has more than " << kMaxTensorElements
                               << " elements";
  }
  return success();
}

LogicalResult OpTrait::impl::verifyTensorShapes(Operation *op) {
  for (Value v : op->getOperands())
    if (failed(verifyOneTensorShape(op, v.getType(), "operand")))
      return failure();
  for (Value v : op->getResults())
    if (failed(verifyOneTensorShape(op, v.getType(), "result")))
      return failure();
  return success();
}

LogicalResult OpTrait::impl::verifySameOperandsEncoding(Operation *op, bool includeResults) {
  std::optional<Attribute> first;
  auto check = [&](Type type) -> LogicalResult {
    if (!isa<RankedTensorType>(type))
      return success();
    Attribute enc = getEncoding(type);
    if (!first) {
      first = enc;
      return success();
    }
    if (*first != enc)
      return op->emitOpError("requires the same encoding for all tensor operands")
             << (includeResults ? " and results" : "");
    return success();
  };
  for (Type t : op->getOperandTypes())
    if (failed(check(t)))
      return failure();
  if (includeResults)
    for (Type t : op->getResultTypes())
      if (failed(check(t)))
        return failure();
  return success();
}
