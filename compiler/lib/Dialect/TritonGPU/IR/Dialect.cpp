// The ttg dialect: registration, !ttg.memdesc, module-attribute checks and the
// layout hooks tt op verifiers call.
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/Dialect/TritonGPU/IR/InlineAnywhere.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::triton;
using namespace mlir::triton::gpu;

#include "tgpu/Dialect/TritonGPU/IR/TritonGPUDialect.cpp.inc"
#include "tgpu/Dialect/TritonGPU/IR/TritonGPUEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tgpu/Dialect/TritonGPU/IR/TritonGPUTypes.cpp.inc"

namespace {
// Lets tt ops check encodings (reduce / expand_dims slices, dot operands).
struct TritonGPULayoutVerifier : public DialectLayoutVerifierInterface {
  using DialectLayoutVerifierInterface::DialectLayoutVerifierInterface;

  Attribute inferReduceEncoding(Attribute src, unsigned axis) const override {
    if (!isDistributedEncoding(src) || axis >= getEncodingRank(src) || getEncodingRank(src) < 2)
      return {};
    return SliceEncodingAttr::get(src.getContext(), axis, src);
  }

  FailureOr<Attribute>
  inferSplitEncoding(Attribute src, ArrayRef<int64_t> srcShape) const override {
    if (Attribute halves = inferSplitResultEncoding(src, srcShape))
      return halves;
    return failure();
  }

  bool layoutsEqual(ArrayRef<int64_t> shape, Attribute a,
                    Attribute b) const override {
    if (a == b)
      return true;
    llvm::Expected<tgpu::layout::LinearLayout> la =
        tgpu::layout::toLinearLayout(shape, a);
    llvm::Expected<tgpu::layout::LinearLayout> lb =
        tgpu::layout::toLinearLayout(shape, b);
    bool equal = la && lb && *la == *lb;
    if (!la)
      llvm::consumeError(la.takeError());
    if (!lb)
      llvm::consumeError(lb.takeError());
    return equal;
  }

  LogicalResult verifyDotEncodings(Operation *op, Attribute a, Attribute b,
                                   Attribute c) const override {
    auto check = [&](Attribute enc, unsigned idx) -> LogicalResult {
      auto dot = dyn_cast_or_null<DotOperandEncodingAttr>(enc);
      if (!dot)
        return op->emitOpError("operand ") << (idx ? "b" : "a")
                                           << " must have a #ttg.dot_op encoding, got " << enc;
      if (dot.getOpIdx() != idx)
        return op->emitOpError("operand ")
               << (idx ? "b" : "a") << " must have opIdx = " << idx << ", got " << dot.getOpIdx();
      if (dot.getParent() != c)
        return op->emitOpError("operand ")
               << (idx ? "b" : "a") << "'s dot_op parent must be the accumulator's encoding " << c;
      return success();
    };
    // Messages as Triton's where it checks the same thing.
    auto aDot = dyn_cast<DotOperandEncodingAttr>(a),
         bDot = dyn_cast<DotOperandEncodingAttr>(b);
    if (static_cast<bool>(aDot) != static_cast<bool>(bDot))
      return op->emitError("mismatching encoding between A and B operands");
    if (aDot && aDot.getKWidth() != bDot.getKWidth())
      return op->emitError("mismatching kWidth between A and B operands");
    if (failed(check(a, 0)) || failed(check(b, 1)))
      return failure();
    if (auto mma = dyn_cast<NvidiaMmaEncodingAttr>(c)) {
      auto dot = dyn_cast<DotOp>(op);
      if (dot && !mmaSupportsOperands(dot, mma.getVersionMajor()))
        return op->emitError("unsupported MMA version");
    }
    return success();
  }

  // The element types a tensor-core version takes (Triton's rule): f32
  // operands only as tf32, and every type Triton can feed to mma.sync or
  // wgmma (fp8 is converted to f16 where the hardware lacks it).
  static bool mmaSupportsOperands(DotOp dot, unsigned version) {
    Type a = getElementTypeOrSelf(dot.getA().getType());
    Type b = getElementTypeOrSelf(dot.getB().getType());
    if (a.isF32() && b.isF32())
      return dot.getInputPrecision() == InputPrecision::TF32 && version >= 2;
    auto supported = [&](Type t) {
      bool fp8 = isa<Float8E5M2Type, Float8E4M3FNType, Float8E5M2FNUZType,
                     Float8E4M3FNUZType>(t);
      return fp8 || t.isF16() || t.isBF16() ||
             ((t.isF32() || t.isF64()) && version >= 2) ||
             (t.isInteger(8) && version >= 2);
    };
    return supported(a) && supported(b);
  }
};
// Short aliases (#blocked, #mma, #shared, #smem, #linear) as Triton prints
// them; slice and dot_op stay inline, as in Triton's output.
struct TritonGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr))
      os << "blocked";
    else if (isa<NvidiaMmaEncodingAttr>(attr))
      os << "mma";
    else if (isa<SwizzledSharedEncodingAttr, NVMMASharedEncodingAttr, SharedLinearEncodingAttr>(
                 attr))
      os << "shared";
    else if (isa<SharedMemorySpaceAttr>(attr))
      os << "smem";
    else if (isa<LinearEncodingAttr>(attr))
      os << "linear";
    else
      return AliasResult::NoAlias;
    return AliasResult::FinalAlias;
  }
};
} // namespace

void TritonGPUDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tgpu/Dialect/TritonGPU/IR/TritonGPUOps.cpp.inc"
      >();
  addInterfaces<TritonGPULayoutVerifier, TritonGPUOpAsmInterface,
                InlineAnywhereInterface>();
}

void TritonGPUDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tgpu/Dialect/TritonGPU/IR/TritonGPUTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// !ttg.memdesc<SHAPExT, ENC, MEMSPACE[, mutable][, ALLOCSHAPE]>
//===----------------------------------------------------------------------===//
Type MemDescType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false, /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma() || parser.parseAttribute(encoding))
    return {};
  Attribute memorySpace;
  bool isMutable = false;
  SmallVector<int64_t> allocShape;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc fieldLoc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalKeyword("mutable"))) {
      isMutable = true;
      continue;
    }
    // An allocation shape starts with a digit; anything else is the memory space.
    if (fieldLoc.isValid() && std::isdigit(static_cast<unsigned char>(*fieldLoc.getPointer()))) {
      if (!allocShape.empty()) {
        parser.emitError(fieldLoc, "allocation shape given twice");
        return {};
      }
      if (parser.parseDimensionList(allocShape, /*allowDynamic=*/false, /*withTrailingX=*/false))
        return {};
      continue;
    }
    if (memorySpace) {
      parser.emitError(fieldLoc, "memory space given twice");
      return {};
    }
    if (parser.parseAttribute(memorySpace))
      return {};
  }
  if (parser.parseGreater())
    return {};
  if (allocShape.empty())
    allocShape = shape;
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), shape,
                    elementType, encoding, memorySpace, isMutable, allocShape);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType() << ", " << getEncoding();
  if (getMemorySpace())
    printer << ", " << getMemorySpace();
  if (getMutableMemory())
    printer << ", mutable";
  if (getAllocShape() != getShape()) {
    printer << ", ";
    llvm::interleave(getAllocShape(), printer, "x");
  }
  printer << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType, Attribute encoding,
                                  Attribute memorySpace, bool mutableMemory,
                                  ArrayRef<int64_t> allocShape) {
  if (shape.empty())
    return emitError() << "memdesc needs rank >= 1";
  for (int64_t d : shape)
    if (d <= 0)
      return emitError() << "memdesc dimensions must be positive, got " << d;
  if (!elementType.isIntOrFloat() && !isa<PointerType>(elementType))
    return emitError() << "memdesc element type must be an integer or float, got " << elementType;
  if (!isSharedEncoding(encoding))
    return emitError() << "memdesc encoding must be a shared layout (swizzled_shared, "
                          "nvmma_shared or shared_linear), got "
                       << encoding;
  unsigned encRank = getEncodingRank(encoding);
  if (encRank > shape.size())
    return emitError() << "memdesc of rank " << shape.size() << " cannot have a layout of rank "
                       << encRank;
  if (memorySpace && !isa<SharedMemorySpaceAttr>(memorySpace))
    return emitError() << "memdesc memory space must be #ttg.shared_memory, got " << memorySpace;
  if (allocShape.size() < shape.size())
    return emitError() << "allocation shape must have at least the view's rank";
  for (int64_t d : allocShape)
    if (d <= 0)
      return emitError() << "allocation dimensions must be positive, got " << d;
  ArrayRef<int64_t> trailing = allocShape.take_back(shape.size());
  for (auto [view, alloc] : llvm::zip(shape, trailing))
    if (view > alloc)
      return emitError() << "view dimension " << view << " exceeds the allocation's " << alloc;
  return success();
}

//===----------------------------------------------------------------------===//
// Module attributes: ttg.num-warps and friends, and the layouts used under
// them agreeing with them.
//===----------------------------------------------------------------------===//
static std::optional<int64_t> getModuleInt(Operation *module, StringRef name) {
  if (auto attr = module->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return std::nullopt;
}

// The warps of the warp_specialize partition `region` is, if it is one. Read
// without the op's accessors: the module's layout check runs before the ops
// inside it are verified.
static std::optional<int> partitionNumWarps(Region *region) {
  Operation *holder = region->getParentOp();
  if (!isa_and_nonnull<WarpSpecializePartitionsOp>(holder) ||
      !holder->getParentOp())
    return std::nullopt;
  auto counts = holder->getParentOp()->getAttrOfType<DenseI32ArrayAttr>(
      "partitionNumWarps");
  unsigned index = region->getRegionNumber();
  if (!isa<WarpSpecializeOp>(holder->getParentOp()) || !counts ||
      index >= counts.size())
    return std::nullopt;
  return counts[index];
}

// Checks the layout of one tensor type against the counts of its context,
// with Triton's messages: the numbers of lanes, warps and CTAs of the
// tensor's linear layout must be the module's (the warps those of the
// innermost function or warp_specialize partition that sets them).
static LogicalResult checkAgainstModule(Operation *where,
                                        RankedTensorType tensor,
                                        int64_t numWarps,
                                        std::optional<int64_t> threadsPerWarp,
                                        std::optional<int64_t> numCTAs) {
  Attribute enc = tensor.getEncoding();
  if (!isDistributedEncoding(enc))
    return where->emitOpError(
        "Non-distributed layout is not allowed in tensor type.");
  llvm::Expected<tgpu::layout::LinearLayout> ll =
      tgpu::layout::toLinearLayout(tensor.getShape(), enc);
  // A layout whose linear layout cannot be built (a #ttg.linear that is not
  // onto its dims) is the attribute's business, not the context's: the
  // passes and the lowering report it where they need the layout.
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return success();
  }
  if (threadsPerWarp && ll->getInDimSize("lane") != *threadsPerWarp)
    return where->emitOpError()
           << enc << ".\nLayout has " << ll->getInDimSize("lane")
           << " threads per warp, but the module specifies " << *threadsPerWarp
           << " threads per warp.";
  if (ll->getInDimSize("warp") != numWarps)
    return where->emitOpError()
           << enc << ".\nLayout has " << ll->getInDimSize("warp")
           << " warps per CTA, but the context requires " << numWarps
           << " warps per CTA.";
  if (numCTAs && ll->getInDimSize("block") != *numCTAs)
    return where->emitOpError()
           << enc << ".\nLayout has " << ll->getInDimSize("block")
           << " CTAs per CGA, but the context requires " << *numCTAs
           << " CTAs per CGA.";
  return success();
}

LogicalResult TritonGPUDialect::verifyOperationAttribute(Operation *op, NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  auto positivePowerOfTwo = [&](StringRef what) -> LogicalResult {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || !value.getType().isInteger(32))
      return op->emitError() << "'" << what << "' must be an i32 integer, got " << attr.getValue();
    int64_t v = value.getInt();
    if (v <= 0 || !llvm::isPowerOf2_64(v))
      return op->emitError() << "'" << what << "' must be a positive power of two, got " << v;
    return success();
  };
  if (name == getNumWarpsAttrName() || name == getThreadsPerWarpAttrName() ||
      name == getNumCTAsAttrName()) {
    if (failed(positivePowerOfTwo(name)))
      return failure();
  } else if (name == getTargetAttrName()) {
    auto target = dyn_cast<StringAttr>(attr.getValue());
    StringRef text = target ? target.getValue() : StringRef();
    unsigned cc;
    bool ok = (text.consume_front("cuda:") && !text.getAsInteger(10, cc)) ||
              (text.consume_front("hip:") && !text.empty());
    if (!target || !ok)
      return op->emitError() << "'ttg.target' must be a string \"cuda:<compute capability>\" "
                                "or \"hip:<arch>\", got "
                             << attr.getValue();
  } else if (name == getSharedAttrName()) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || !value.getType().isInteger(32) || value.getInt() < 0)
      return op->emitError() << "'ttg.shared' must be a non-negative i32, got " << attr.getValue();
  } else {
    // Other ttg.* attributes (Triton adds new ones over time) are not checked.
    return success();
  }

  // Once, from the num-warps attribute: every layout in the module must agree
  // with the module's warp, thread and CTA counts.
  if (name != getNumWarpsAttrName() || !isa<ModuleOp>(op))
    return success();
  std::optional<int64_t> numWarps = getModuleInt(op, getNumWarpsAttrName());
  std::optional<int64_t> threadsPerWarp = getModuleInt(op, getThreadsPerWarpAttrName());
  std::optional<int64_t> numCTAs = getModuleInt(op, getNumCTAsAttrName());
  // The warp count a layout must have depends on where it is used: a
  // function may state its own ttg.num-warps, and a warp_specialize
  // partition runs on its own number of warps.
  auto checkType = [&](Operation *where, Type type,
                       std::optional<int64_t> warps) -> LogicalResult {
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      if (tensor.getEncoding())
        return checkAgainstModule(where, tensor, warps.value_or(4),
                                  threadsPerWarp, numCTAs);
    return success();
  };
  auto warpsAt = [&](Operation *inner) -> std::optional<int64_t> {
    if (std::optional<int> n = maybeLookupNumWarps(inner))
      return *n;
    return numWarps;
  };
  WalkResult result = op->walk([&](Operation *inner) {
    std::optional<int64_t> warps = warpsAt(inner);
    for (Type t : inner->getResultTypes())
      if (failed(checkType(inner, t, warps)))
        return WalkResult::interrupt();
    // A partition's arguments are the captures: checked with the warps of
    // where they are defined, and, as Triton does, where a tt/ttg/ttng op
    // in the partition uses them.
    Dialect *dialect = inner->getDialect();
    if (dialect &&
        llvm::is_contained({"tt", "ttg", "ttng"}, dialect->getNamespace()))
      for (Value operand : inner->getOperands())
        if (auto arg = dyn_cast<BlockArgument>(operand))
          if (partitionNumWarps(arg.getOwner()->getParent()) &&
              failed(checkType(inner, arg.getType(), warps)))
            return WalkResult::interrupt();
    for (Region &region : inner->getRegions()) {
      if (partitionNumWarps(&region))
        continue;
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(checkType(inner, arg.getType(), warps)))
            return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

static int lookupIntAttr(Operation *op, StringRef name, int fallback) {
  for (; op; op = op->getParentOp())
    if (auto attr = op->getAttrOfType<IntegerAttr>(name))
      return int(attr.getInt());
  return fallback;
}

std::optional<int> mlir::triton::gpu::maybeLookupNumWarps(Operation *op) {
  for (; op; op = op->getParentOp()) {
    if (auto attr = op->getAttrOfType<IntegerAttr>("ttg.num-warps"))
      return int(attr.getInt());
    if (Region *region = op->getParentRegion())
      if (std::optional<int> n = partitionNumWarps(region))
        return n;
  }
  return std::nullopt;
}

std::optional<int> mlir::triton::gpu::lookupComputeCapability(Operation *op) {
  auto module =
      isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  auto target =
      module ? module->getAttrOfType<StringAttr>("ttg.target") : StringAttr();
  if (!target)
    return std::nullopt;
  StringRef text = target.getValue();
  int cc = 0;
  if (!text.consume_front("cuda:") || text.getAsInteger(10, cc))
    return std::nullopt;
  return cc;
}

Value mlir::triton::gpu::getMemDescViewSource(Operation *op) {
  if (auto v = dyn_cast<MemDescIndexOp>(op))
    return v.getSrc();
  if (auto v = dyn_cast<MemDescSubsliceOp>(op))
    return v.getSrc();
  if (auto v = dyn_cast<MemDescTransOp>(op))
    return v.getSrc();
  if (auto v = dyn_cast<MemDescReshapeOp>(op))
    return v.getSrc();
  return nullptr;
}

int mlir::triton::gpu::lookupNumWarps(Operation *op) {
  return maybeLookupNumWarps(op).value_or(4);
}

bool mlir::triton::gpu::typeHasLayout(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return static_cast<bool>(tensor.getEncoding());
  return isa<MemDescType>(type);
}

Operation *mlir::triton::gpu::findOpWithLayout(Operation *root) {
  Operation *found = nullptr;
  root->walk([&](Operation *op) {
    bool has = llvm::any_of(op->getResultTypes(), typeHasLayout);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        has = has || llvm::any_of(block.getArgumentTypes(), typeHasLayout);
    if (!has)
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  return found;
}

int mlir::triton::gpu::lookupThreadsPerWarp(Operation *op) {
  return lookupIntAttr(op, "ttg.threads-per-warp", 32);
}
