// tt op verifiers, memory effects and the tt.func assembly.
#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::triton;

#define GET_OP_CLASSES
#include "tgpu/Dialect/Triton/IR/TritonOps.cpp.inc"

static unsigned bitWidthOf(Type t) {
  t = getElementTypeOrSelf(t);
  if (isa<PointerType>(t))
    return 64;
  if (t.isIntOrFloat())
    return t.getIntOrFloatBitWidth();
  return 0;
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//
// Messages as Triton's, which its lit tests match.
LogicalResult BitcastOp::verify() {
  Type src = getSrc().getType(), dst = getType();
  if (isa<RankedTensorType>(src) != isa<RankedTensorType>(dst))
    return emitOpError("cannot bitcast between a scalar and a tensor");
  auto srcPtr = dyn_cast<PointerType>(getElementTypeOrSelf(src));
  auto dstPtr = dyn_cast<PointerType>(getElementTypeOrSelf(dst));
  if (srcPtr || dstPtr) {
    if (!srcPtr || !dstPtr)
      return emitError("Cannot bitcast pointer to non-pointer type");
    if (srcPtr.getAddressSpace() != dstPtr.getAddressSpace())
      return emitError(
          "Cannot bitcast pointer between different address spaces");
    return success();
  }
  unsigned srcBits = bitWidthOf(src), dstBits = bitWidthOf(dst);
  if (srcBits != dstBits)
    return emitError("Cannot bitcast data-type of size ")
           << srcBits << " to data-type of size " << dstBits;
  return success();
}

LogicalResult FpToFpOp::verify() {
  unsigned srcBits = bitWidthOf(getSrc().getType());
  unsigned dstBits = bitWidthOf(getType());
  // A rounding mode on a widening conversion is allowed and ignored, as in
  // Triton (nothing is rounded).
  if (dstBits < srcBits && !getRounding())
    return emitError("Rounding mode is required for FP downcast");
  return success();
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//
static RankedTensorType blockPointerTensor(Type ptrType) {
  if (auto ptr = dyn_cast<PointerType>(ptrType))
    return dyn_cast<RankedTensorType>(ptr.getPointeeType());
  return {};
}

LogicalResult AdvanceOp::verify() {
  auto block = blockPointerTensor(getPtr().getType());
  if (!block)
    return emitOpError("expects a block pointer (!tt.ptr<tensor<...>>)");
  if (getOffsets().size() != static_cast<size_t>(block.getRank()))
    return emitOpError("expects ") << block.getRank() << " offsets, got " << getOffsets().size();
  return success();
}

LogicalResult MakeTensorPtrOp::verify() {
  auto block = blockPointerTensor(getType());
  if (!block)
    return emitOpError("result must be a block pointer (!tt.ptr<tensor<...>>)");
  size_t rank = block.getRank();
  if (getShape().size() != rank || getStrides().size() != rank || getOffsets().size() != rank)
    return emitOpError("shape, strides and offsets must each have ") << rank << " entries";
  if (failed(verifyPermutation(*this, getOrder(), rank)))
    return failure();
  auto base = cast<PointerType>(getBase().getType());
  if (base.getPointeeType() != block.getElementType())
    return emitOpError("base pointee ") << base.getPointeeType()
                                        << " differs from the block's element type "
                                        << block.getElementType();
  return success();
}

static LogicalResult verifyBoundaryCheck(Operation *op, Type ptrType,
                                         ArrayRef<int32_t> boundaryCheck) {
  if (boundaryCheck.empty())
    return success();
  auto block = blockPointerTensor(ptrType);
  if (!block)
    return op->emitOpError("boundaryCheck is only allowed with a block pointer");
  for (int32_t d : boundaryCheck)
    if (d < 0 || d >= block.getRank())
      return op->emitOpError("boundaryCheck dimension ") << d << " is out of range";
  return success();
}

LogicalResult LoadOp::verify() {
  if (failed(verifyBoundaryCheck(*this, getPtr().getType(), getBoundaryCheck())))
    return failure();
  if (getPadding() && !blockPointerTensor(getPtr().getType()))
    return emitOpError("padding is only allowed with a block pointer");
  if (blockPointerTensor(getPtr().getType()) && (getMask() || getOther()))
    return emitOpError("a block pointer load takes no mask or other");
  if (getOther() && !getMask())
    return emitOpError("other needs a mask");
  return success();
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(), GlobalMemory::get());
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

LogicalResult StoreOp::verify() {
  if (failed(verifyBoundaryCheck(*this, getPtr().getType(), getBoundaryCheck())))
    return failure();
  if (blockPointerTensor(getPtr().getType()) && getMask())
    return emitOpError("a block pointer store takes no mask");
  return success();
}

static LogicalResult verifyAtomicType(Operation *op, Type valType) {
  Type elem = getElementTypeOrSelf(valType);
  unsigned bits = bitWidthOf(elem);
  if (!elem.isIntOrFloat() || (bits != 16 && bits != 32 && bits != 64))
    return op->emitOpError("atomics need 16-, 32- or 64-bit integer or float elements, got ")
           << elem;
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  if (failed(verifyAtomicType(*this, getVal().getType())))
    return failure();
  Type elem = getElementTypeOrSelf(getVal().getType());
  bool isFloat = isa<FloatType>(elem);
  switch (getAtomicRmwOp()) {
  case RMWOp::AND:
  case RMWOp::OR:
  case RMWOp::XOR:
  case RMWOp::ADD:
  case RMWOp::UMAX:
  case RMWOp::UMIN:
    if (isFloat)
      return emitOpError("'") << stringifyRMWOp(getAtomicRmwOp()) << "' needs integer elements";
    break;
  case RMWOp::FADD:
    if (!isFloat)
      return emitOpError("'fadd' needs float elements");
    break;
  case RMWOp::MAX:
  case RMWOp::MIN:
  case RMWOp::XCHG:
    break;
  }
  return success();
}

LogicalResult AtomicCASOp::verify() {
  if (failed(verifyAtomicType(*this, getVal().getType())))
    return failure();
  Type pointee = getPointeeType(getPtr().getType());
  if (getCmp().getType() != pointee || getVal().getType() != pointee ||
      getType() != pointee)
    return emitOpError("cmp, val and result must have the pointee type ") << pointee;
  return success();
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//
LogicalResult SplatOp::verify() {
  auto tensor = dyn_cast<RankedTensorType>(getSrc().getType());
  if (tensor && tensor.getRank() != 0)
    return emitOpError("source must be a scalar or a rank-0 tensor");
  return success();
}

LogicalResult UnsplatOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  if (src.getNumElements() != 1)
    return emitError("source tensor must have exactly one element");
  return success();
}

LogicalResult UnsplatOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location>,
                                          ValueRange operands, DictionaryAttr,
                                          OpaqueProperties, RegionRange,
                                          SmallVectorImpl<Type> &inferred) {
  inferred.push_back(getElementTypeOrSelf(operands[0].getType()));
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto res = cast<RankedTensorType>(getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis > src.getRank())
    return emitOpError("axis ") << axis << " is out of range [0, " << src.getRank() << "]";
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (res.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape must be the source shape with a 1 inserted at axis ")
           << axis;
  Attribute srcEnc = src.getEncoding(), resEnc = res.getEncoding();
  if (static_cast<bool>(srcEnc) != static_cast<bool>(resEnc))
    return emitOpError("source and result must both have an encoding or neither");
  if (auto *iface = getLayoutVerifier(resEnc)) {
    Attribute expectedSrc = iface->inferReduceEncoding(resEnc, axis);
    if (expectedSrc != srcEnc)
      return emitOpError("source encoding must be the slice of the result encoding along axis ")
             << axis;
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto res = cast<RankedTensorType>(getType());
  if (src.getNumElements() != res.getNumElements())
    return emitError(
        "number of src and dst elements of reshape must be the same");
  if (static_cast<bool>(src.getEncoding()) != static_cast<bool>(res.getEncoding()))
    return emitError(
        "Op requires that either (a) src and dst both have encodings, or (b) "
        "neither does.");
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto res = cast<RankedTensorType>(getType());
  if (src.getRank() != res.getRank())
    return emitError("rank of source must be same as rank of result");
  for (auto [i, s, r] : llvm::enumerate(src.getShape(), res.getShape()))
    if (s != r && s != 1)
      return emitError("Different dimensions at index ")
             << i
             << " between source and result.  Broadcast requires the source "
                "dimension to "
                "be 1.";
  return success();
}

LogicalResult CatOp::verify() {
  auto lhs = cast<RankedTensorType>(getLhs().getType());
  auto res = cast<RankedTensorType>(getType());
  if (lhs.getRank() != res.getRank())
    return emitOpError("result must have the operands' rank");
  if (res.getNumElements() != 2 * lhs.getNumElements())
    return emitOpError("result must hold the elements of both operands");
  return success();
}

LogicalResult JoinOp::verify() {
  auto src = cast<RankedTensorType>(getLhs().getType());
  auto res = cast<RankedTensorType>(getType());
  SmallVector<int64_t> expected(src.getShape());
  expected.push_back(2);
  if (res.getShape() != ArrayRef<int64_t>(expected)) {
    auto diag = emitOpError("result shape must be (");
    llvm::interleaveComma(expected, diag);
    diag << "), but got ";
    llvm::interleaveComma(res.getShape(), diag);
    return diag;
  }
  if (res.getElementType() != src.getElementType())
    return emitOpError("result element type must match the input element type");
  if (src.getEncoding() && !res.getEncoding())
    return emitOpError("result encoding must be specified");
  if (auto *iface = getLayoutVerifier(res.getEncoding())) {
    // One result layout determines the operands' (the reverse is not
    // unique): split it and compare.
    FailureOr<Attribute> srcEnc =
        iface->inferSplitEncoding(res.getEncoding(), res.getShape());
    if (failed(srcEnc) || !src.getEncoding() ||
        !iface->layoutsEqual(src.getShape(), *srcEnc, src.getEncoding()))
      return emitOpError("incompatible join layout");
  }
  return success();
}

// The results' type follows from the source's (InferTypeOpInterface checks
// it, with Triton's "inferred type(s)" message); their layout is the
// source's without the register bit that selects the half.
LogicalResult SplitOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        ValueRange operands, DictionaryAttr,
                                        OpaqueProperties, RegionRange,
                                        SmallVectorImpl<Type> &inferred) {
  auto src = cast<RankedTensorType>(operands[0].getType());
  if (src.getRank() < 1 || src.getShape().back() != 2)
    return emitOptionalError(loc, "last dimension of input tensor must be 2");
  Attribute resEnc;
  if (Attribute srcEnc = src.getEncoding()) {
    auto *iface = getLayoutVerifier(srcEnc);
    FailureOr<Attribute> enc =
        iface ? iface->inferSplitEncoding(srcEnc, src.getShape())
              : FailureOr<Attribute>(failure());
    if (failed(enc))
      return emitOptionalError(
          loc, "the source layout ", srcEnc,
          " does not hold both halves of the last dimension in one thread");
    resEnc = *enc;
  }
  auto res = RankedTensorType::get(src.getShape().drop_back(),
                                   src.getElementType(), resEnc);
  inferred.assign({res, res});
  return success();
}

bool SplitOp::isCompatibleReturnTypes(TypeRange inferred, TypeRange actual) {
  if (inferred.size() != actual.size())
    return false;
  for (auto [i, a] : llvm::zip(inferred, actual)) {
    auto it = dyn_cast<RankedTensorType>(i), at = dyn_cast<RankedTensorType>(a);
    if (!it || !at || it.getShape() != at.getShape() ||
        it.getElementType() != at.getElementType() ||
        static_cast<bool>(it.getEncoding()) !=
            static_cast<bool>(at.getEncoding()))
      return false;
    if (auto *iface = getLayoutVerifier(it.getEncoding()))
      if (!iface->layoutsEqual(it.getShape(), it.getEncoding(),
                               at.getEncoding()))
        return false;
  }
  return true;
}

LogicalResult mlir::triton::verifyPermutation(Operation *op, ArrayRef<int32_t> order,
                                             int64_t rank) {
  if (static_cast<int64_t>(order.size()) != rank)
    return op->emitOpError("order must have ") << rank << " entries, got " << order.size();
  llvm::SmallBitVector seen(rank);
  for (int32_t d : order) {
    if (d < 0 || d >= rank || seen.test(d))
      return op->emitOpError("order must be a permutation of [0, ") << rank << ")";
    seen.set(d);
  }
  return success();
}

LogicalResult TransOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto res = cast<RankedTensorType>(getType());
  if (failed(verifyPermutation(*this, getOrder(), src.getRank())))
    return failure();
  if (res.getRank() != src.getRank())
    return emitOpError("result must have the source's rank");
  for (auto [i, d] : llvm::enumerate(getOrder()))
    if (res.getDimSize(i) != src.getDimSize(d))
      return emitOpError("result dimension ") << i << " must be source dimension " << d;
  return success();
}

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStartAttr().getInt(), end = getEndAttr().getInt();
  auto res = cast<RankedTensorType>(getType());
  if (start >= end)
    return emitOpError("start must be less than end");
  if (res.getRank() != 1)
    return emitOpError("return type must be a 1D tensor");
  if (end - start != res.getDimSize(0))
    return emitOpError("number of elements in returned tensor, ")
           << res.getDimSize(0) << ", must match size of range [" << start
           << ", " << end << "), which has " << end - start << " elements";
  if (!res.getElementType().isInteger(32))
    return emitOpError("returned tensor must have i32 elements");
  return success();
}

//===----------------------------------------------------------------------===//
// Dot, reduce, scan, histogram, gather
//===----------------------------------------------------------------------===//
// The shapes of a dot-like op, with Triton's texts: a [.., M, K], b [.., K, N]
// and c [.., M, N], all 2-D or all 3-D (one batch dimension). The K, M and N
// extents come from the caller (tt.dot_scaled unpacks fp4 first).
static LogicalResult verifyDotShapes(Operation *op, RankedTensorType a,
                                     RankedTensorType b, RankedTensorType c,
                                     int64_t aK, int64_t bK, int64_t m,
                                     int64_t n) {
  int64_t rank = a.getRank();
  if (rank != 2 && rank != 3)
    return op->emitOpError("expected operands to be 2d or 3d");
  if (b.getRank() != rank || c.getRank() != rank)
    return op->emitOpError("expected all operands to have the same rank");
  if (aK != bK)
    return op->emitOpError("expected the last dimension of the first operand "
                           "to be equal to the "
                           "second-to-last dimension of the second operand (")
           << aK << " vs " << bK << ")";
  if (rank == 3 && (a.getDimSize(0) != c.getDimSize(0) ||
                    b.getDimSize(0) != c.getDimSize(0)))
    return op->emitOpError(
        "expected the first dimension of the first operand to be equal to "
        "the first dimension of the result");
  if (c.getDimSize(rank - 2) != m || c.getDimSize(rank - 1) != n)
    return op->emitOpError(
        "expected the output shape to be the concatenation of the last "
        "dimension of the first operand and the last dimension of the second ");
  return success();
}

LogicalResult DotOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto c = cast<RankedTensorType>(getC().getType());
  if (a.getRank() < 2 || b.getRank() < 2)
    return emitOpError("expected operands to be 2d or 3d");
  if (failed(verifyDotShapes(
          *this, a, b, c, a.getShape().back(), b.getDimSize(b.getRank() - 2),
          a.getDimSize(a.getRank() - 2), b.getShape().back())))
    return failure();
  Type ae = a.getElementType(), be = b.getElementType(), ce = c.getElementType();
  if (isa<FloatType>(ae) != isa<FloatType>(be))
    return emitOpError("a and b must both be float or both be integer");
  if (isa<FloatType>(ae) != isa<FloatType>(ce))
    return emitOpError("accumulator must be float for float inputs and integer for integer ones");
  if (getMaxNumImpreciseAccAttr().getInt() < 0)
    return emitOpError("maxNumImpreciseAcc must not be negative");
  if (bitWidthOf(ae) != bitWidthOf(be))
    return emitError(
        "element types of operands A and B must have same bit width");
  if (static_cast<bool>(a.getEncoding()) != static_cast<bool>(b.getEncoding()))
    return emitError("mismatching encoding between A and B operands");
  if (a.getEncoding() && !c.getEncoding())
    return emitError("miss encoding of C operand");
  if (!a.getEncoding() && c.getEncoding())
    return emitOpError("a, b and c must all have encodings or none");
  if (auto *iface = getLayoutVerifier(c.getEncoding()))
    return iface->verifyDotEncodings(*this, a.getEncoding(), b.getEncoding(), c.getEncoding());
  return success();
}

// fp4 (e2m1) operands hold two elements per byte, along K when packed so
// (the default) and along M or N otherwise.
LogicalResult DotScaledOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto c = cast<RankedTensorType>(getC().getType());
  if (a.getRank() < 2 || b.getRank() < 2)
    return emitOpError("expected operands to be 2d or 3d");
  int64_t rank = a.getRank();
  int64_t aK = a.getDimSize(rank - 1), bK = b.getDimSize(b.getRank() - 2);
  int64_t m = a.getDimSize(rank - 2), n = b.getShape().back();
  if (getAElemType() == ScaleDotElemType::E2M1)
    (getLhsKPack() ? aK : m) *= 2;
  if (getBElemType() == ScaleDotElemType::E2M1)
    (getRhsKPack() ? bK : n) *= 2;
  if (failed(verifyDotShapes(*this, a, b, c, aK, bK, m, n)))
    return failure();
  // One scale per block of 32 K elements (16 with e4m3 scales), per row of
  // a and per column of b.
  auto checkScale = [&](Value scale, int64_t rows,
                        StringRef what) -> LogicalResult {
    if (!scale)
      return success();
    auto t = cast<RankedTensorType>(scale.getType());
    if (t.getRank() != rank)
      return emitError("scales must have the operands' rank");
    if (t.getDimSize(rank - 2) != rows)
      return emitError("scales ")
             << what << " dimension must match the operand " << what
             << " dimension";
    int64_t block = isa<Float8E4M3FNType>(t.getElementType()) ? 16 : 32;
    if (t.getDimSize(rank - 1) != aK / block)
      return emitError("scales K dimension must match the operand K divided by "
                       "the scale factor");
    return success();
  };
  if (failed(checkScale(getAScale(), c.getDimSize(c.getRank() - 2), "M")) ||
      failed(checkScale(getBScale(), c.getShape().back(), "N")))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// map_elementwise
//===----------------------------------------------------------------------===//
LogicalResult MapElementwiseOp::verify() {
  if (getSrcs().empty())
    return emitOpError() << "MapElementwiseOp must have at least 1 operand";
  if (getPack() <= 0 || !llvm::isPowerOf2_32(getPack()))
    return emitOpError() << "Pack must be a power of 2";
  return success();
}

// `pack` scalars of each value, value after value.
static SmallVector<Type> packedElementTypes(TypeRange types, unsigned pack) {
  SmallVector<Type> r;
  for (Type t : types)
    r.append(pack, getElementTypeOrSelf(t));
  return r;
}

LogicalResult MapElementwiseOp::verifyRegions() {
  Region &region = getScalarOp();
  if (region.empty())
    return emitOpError() << "region has wrong number of arguments";
  Block &entry = region.front();
  unsigned pack = getPack();
  if (entry.getNumArguments() != getNumOperands() * pack)
    return emitOpError() << "region has wrong number of arguments";
  if (SmallVector<Type>(entry.getArgumentTypes()) !=
      packedElementTypes(getSrcs().getTypes(), pack))
    return emitError() << "argument types did not match";
  SmallVector<Type> expectedReturn = packedElementTypes(getResultTypes(), pack);
  WalkResult walk = region.walk([&](Operation *op) -> WalkResult {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (effects && effects.hasEffect<MemoryEffects::Write>())
      return op->emitOpError()
             << "Stores are not supported inside map_elementwise";
    if (isa<MapElementwiseReturnOp>(op) &&
        SmallVector<Type>(op->getOperandTypes()) != expectedReturn)
      return op->emitError()
             << "region return does not match map_elementwise result";
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

// Shared by reduce and scan: the region takes 2N scalars (N accumulators,
// then N elements) of the operands' element types and yields N of them.
static LogicalResult verifyCombineRegion(Operation *op, Region &region,
                                         ArrayRef<Type> elementTypes) {
  if (region.empty())
    return op->emitOpError("combine region must have a block");
  Block &block = region.front();
  size_t n = elementTypes.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError("combine region must take ") << 2 * n << " arguments, got "
                                                          << block.getNumArguments();
  for (size_t i = 0; i < 2 * n; ++i)
    if (block.getArgument(i).getType() != elementTypes[i % n])
      return op->emitOpError("combine region argument ")
             << i << " must have type " << elementTypes[i % n];
  Operation *term = block.empty() ? nullptr : &block.back();
  if (!term || !term->hasTrait<OpTrait::IsTerminator>())
    return op->emitOpError("combine region must end with a return");
  if (term->getNumOperands() != n)
    return op->emitOpError("combine region must yield ") << n << " values, got "
                                                          << term->getNumOperands();
  for (size_t i = 0; i < n; ++i)
    if (term->getOperand(i).getType() != elementTypes[i])
      return op->emitOpError("combine region result ") << i << " must have type "
                                                        << elementTypes[i];
  return success();
}

static LogicalResult verifyReduceOrScanOperands(Operation *op, ValueRange srcs, int64_t axis,
                                                SmallVectorImpl<Type> &elementTypes) {
  if (srcs.empty())
    return op->emitOpError("needs at least one operand");
  auto first = cast<RankedTensorType>(srcs.front().getType());
  if (axis < 0 || axis >= first.getRank())
    return op->emitOpError("axis ") << axis << " is out of range for rank " << first.getRank();
  for (Value v : srcs) {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getShape() != first.getShape())
      return op->emitOpError("all operands must have the same shape");
    elementTypes.push_back(t.getElementType());
  }
  if (op->getNumResults() != srcs.size())
    return op->emitOpError("must have the same number of inputs as outputs");
  for (auto [elem, res] : llvm::zip(elementTypes, op->getResultTypes()))
    if (elem != getElementTypeOrSelf(res))
      return op->emitOpError("operand types and result types must agree");
  return success();
}

LogicalResult ReduceOp::verify() {
  SmallVector<Type> elems;
  if (failed(verifyReduceOrScanOperands(*this, getSrcs(), getAxis(), elems)))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError("must have one result per operand");
  auto src = cast<RankedTensorType>(getSrcs().front().getType());
  SmallVector<int64_t> shape(src.getShape());
  shape.erase(shape.begin() + getAxis());
  Attribute resultEnc;
  if (auto *iface = getLayoutVerifier(src.getEncoding()))
    resultEnc = iface->inferReduceEncoding(src.getEncoding(), getAxis());
  for (auto [i, res] : llvm::enumerate(getResults())) {
    Type expected = shape.empty() ? elems[i]
                                  : Type(RankedTensorType::get(shape, elems[i], resultEnc));
    if (res.getType() != expected)
      return emitOpError("result ") << i << " must have type " << expected;
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  SmallVector<Type> elems;
  for (Value v : getSrcs())
    elems.push_back(cast<RankedTensorType>(v.getType()).getElementType());
  return verifyCombineRegion(*this, getCombineOp(), elems);
}

LogicalResult ScanOp::verify() {
  SmallVector<Type> elems;
  if (failed(verifyReduceOrScanOperands(*this, getSrcs(), getAxis(), elems)))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError("must have one result per operand");
  for (auto [src, res] : llvm::zip(getSrcs(), getResults()))
    if (src.getType() != res.getType())
      return emitOpError("each result must have its operand's type");
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  SmallVector<Type> elems;
  for (Value v : getSrcs())
    elems.push_back(cast<RankedTensorType>(v.getType()).getElementType());
  return verifyCombineRegion(*this, getCombineOp(), elems);
}

LogicalResult HistogramOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto res = cast<RankedTensorType>(getType());
  if (src.getRank() != 1 || res.getRank() != 1)
    return emitOpError("source and result must be 1-D");
  if (getMask() && cast<RankedTensorType>(getMask().getType()).getShape() != src.getShape())
    return emitOpError("mask must have the source's shape");
  return success();
}

LogicalResult GatherOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto idx = cast<RankedTensorType>(getIndices().getType());
  auto res = cast<RankedTensorType>(getType());
  int64_t axis = getAxis();
  // Checks and messages in Triton's order.
  if (res.getShape() != idx.getShape())
    return emitOpError("indices and output shapes must match");
  if (res.getEncoding() != idx.getEncoding())
    return emitOpError("indices and output encodings must match");
  if (res.getElementType() != src.getElementType())
    return emitOpError("input and output element types must match");
  if (src.getRank() != idx.getRank())
    return emitOpError("input and indices ranks must match");
  if (axis < 0 || axis >= src.getRank())
    return emitOpError("gather dimension must be less than the input rank");
  // Triton 3.6's rule (and text): off the axis, the shapes agree.
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (d != axis && idx.getDimSize(d) != src.getDimSize(d))
      return emitOpError("indices dimension ")
             << d << " must match the corresponding input dimension";
  return success();
}

//===----------------------------------------------------------------------===//
// External code, debugging
//===----------------------------------------------------------------------===//
void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get(), GlobalMemory::get());
  effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

void ElementwiseInlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get(), GlobalMemory::get());
  effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

LogicalResult ElementwiseInlineAsmOp::verify() {
  int64_t packed = getPackedElementAttr().getInt();
  if (packed <= 0)
    return emitOpError("packed_element must be positive, got ") << packed;
  if (getNumOperands() == 0)
    return success();
  if (failed(verifyCompatibleShapes(llvm::to_vector(
          llvm::concat<Type>(getArgs().getTypes(), getResultTypes())))))
    return emitOpError("all operands and results must have the same shape");
  ArrayRef<int64_t> shape;
  if (auto tensor = dyn_cast<RankedTensorType>(getArgs().front().getType()))
    shape = tensor.getShape();
  int64_t numel = 1;
  for (int64_t d : shape)
    numel *= d;
  if (!shape.empty() && numel % packed != 0)
    return emitOpError("packed_element ") << packed << " must divide the element count "
                                          << numel;
  return success();
}

// Without arguments isSigned says nothing and may hold anything (Triton's
// printer of a bare message leaves it as given).
LogicalResult PrintOp::verify() {
  if (!getArgs().empty() && getIsSigned().size() != getArgs().size())
    return emitOpError("isSigned must have one entry per argument (")
           << getArgs().size() << "), got " << getIsSigned().size();
  return success();
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//
ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag, std::string &) {
    return builder.getFunctionType(argTypes, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false, getFunctionTypeAttrName(result.name),
      buildFuncType, getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(printer, *this, /*isVariadic=*/false,
                                           getFunctionTypeAttrName(), getArgAttrsAttrName(),
                                           getResAttrsAttrName());
}

LogicalResult FuncOp::verify() {
  if (isExternal())
    return success();
  ArrayRef<Type> inputs = getFunctionType().getInputs();
  Block &entry = getBody().front();
  if (entry.getNumArguments() != inputs.size())
    return emitOpError("entry block must have ") << inputs.size() << " arguments";
  for (auto [i, arg] : llvm::enumerate(entry.getArguments()))
    if (arg.getType() != inputs[i])
      return emitOpError("entry block argument ") << i << " must have type " << inputs[i];
  return success();
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto fnAttr = (*this)->getAttrOfType<FlatSymbolRefAttr>("callee");
  if (!fnAttr)
    return emitOpError("requires a 'callee' symbol reference attribute");
  auto fn = symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, fnAttr);
  if (!fn)
    return emitOpError() << "'" << fnAttr.getValue() << "' does not name a tt.func";
  FunctionType fnType = fn.getFunctionType();
  if (fnType.getNumInputs() != getNumOperands())
    return emitOpError("callee takes ") << fnType.getNumInputs() << " operands, got "
                                        << getNumOperands();
  for (unsigned i = 0; i < fnType.getNumInputs(); ++i)
    if (getOperand(i).getType() != fnType.getInput(i))
      return emitOpError("operand ") << i << " has type " << getOperand(i).getType()
                                     << " but the callee takes " << fnType.getInput(i);
  if (fnType.getNumResults() != getNumResults())
    return emitOpError("callee returns ") << fnType.getNumResults() << " values, got "
                                          << getNumResults();
  for (unsigned i = 0; i < fnType.getNumResults(); ++i)
    if (getResult(i).getType() != fnType.getResult(i))
      return emitOpError("result ") << i << " has type " << getResult(i).getType()
                                    << " but the callee returns " << fnType.getResult(i);
  return success();
}

LogicalResult ReturnOp::verify() {
  auto fn = cast<FuncOp>((*this)->getParentOp());
  ArrayRef<Type> results = fn.getFunctionType().getResults();
  if (getNumOperands() != results.size())
    return emitOpError("has ") << getNumOperands() << " operands, but the enclosing function @"
                               << fn.getName() << " returns " << results.size();
  for (unsigned i = 0; i < results.size(); ++i)
    if (getOperand(i).getType() != results[i])
      return emitOpError("operand ") << i << " has type " << getOperand(i).getType()
                                     << " but the function returns " << results[i];
  return success();
}

//===----------------------------------------------------------------------===//
// Folds (Triton's): no-op views and offsets, and constants through views.
//===----------------------------------------------------------------------===//
// A splat constant reshaped to `type` (same element), or null.
static Attribute resplat(Attribute value, Type type) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(value);
  auto shaped = dyn_cast<ShapedType>(type);
  if (!splat || !shaped)
    return {};
  return splat.resizeSplat(shaped);
}

// An integer constant (scalar or splat) equal to zero.
static bool isZeroOffset(Attribute value) {
  if (auto i = dyn_cast_or_null<IntegerAttr>(value))
    return i.getValue().isZero();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(value))
    return isa<IntegerType>(splat.getElementType()) &&
           splat.getSplatValue<APInt>().isZero();
  return false;
}

OpFoldResult MakeRangeOp::fold(FoldAdaptor adaptor) {
  // One element: the constant `start`.
  if (adaptor.getStart() + 1 == adaptor.getEnd())
    return SplatElementsAttr::get(cast<ShapedType>(getType()),
                                  adaptor.getStartAttr());
  return {};
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (isZeroOffset(adaptor.getOffset()) && getPtr().getType() == getType())
    return getPtr();
  return {};
}

OpFoldResult AdvanceOp::fold(FoldAdaptor adaptor) {
  if (llvm::all_of(adaptor.getOffsets(), isZeroOffset) &&
      getPtr().getType() == getType())
    return getPtr();
  return {};
}

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  Attribute value = adaptor.getSrc();
  if (!isa_and_nonnull<IntegerAttr, FloatAttr>(value))
    return {};
  return SplatElementsAttr::get(cast<ShapedType>(getType()), value);
}

OpFoldResult ExpandDimsOp::fold(FoldAdaptor adaptor) {
  return resplat(adaptor.getSrc(), getType());
}

// A reshape to its own type is its source, unless it may reorder: Triton
// keeps that one (a later pass may give it an efficient order).
OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType() && !getAllowReorder())
    return getSrc();
  return resplat(adaptor.getSrc(), getType());
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return resplat(adaptor.getSrc(), getType());
}

OpFoldResult TransOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int32_t> order = getOrder();
  bool identity = llvm::all_of(llvm::enumerate(order), [](auto dim) {
    return dim.value() == static_cast<int32_t>(dim.index());
  });
  if (identity && getSrc().getType() == getType())
    return getSrc();
  // trans(trans(x, inner), order): result dim i is the inner result's dim
  // order[i], which is x's dim inner[order[i]]. With layouts, transposing a
  // layout permutes its output dims, so the result layout is x's permuted
  // by the composed order as it was x's permuted twice.
  if (auto inner = getSrc().getDefiningOp<TransOp>()) {
    SmallVector<int32_t> composed;
    for (int32_t dim : order)
      composed.push_back(inner.getOrder()[dim]);
    setOrder(composed);
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  return resplat(adaptor.getSrc(), getType());
}

// A zero of either sign converts to the same zero of the result type (or
// to +0 where the type has no -0, as the FNUZ formats).
OpFoldResult FpToFpOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  auto resultElem = dyn_cast<FloatType>(getElementTypeOrSelf(getType()));
  if (!resultElem)
    return {};
  std::optional<APFloat> zero;
  Attribute value = adaptor.getSrc();
  if (auto f = dyn_cast_or_null<FloatAttr>(value)) {
    if (f.getValue().isZero())
      zero = f.getValue();
  } else if (auto splat = dyn_cast_or_null<SplatElementsAttr>(value)) {
    if (isa<FloatType>(splat.getElementType()) &&
        splat.getSplatValue<APFloat>().isZero())
      zero = splat.getSplatValue<APFloat>();
  }
  if (!zero)
    return {};
  APFloat result =
      APFloat::getZero(resultElem.getFloatSemantics(), zero->isNegative());
  if (result.isNegative() &&
      !APFloat::semanticsHasSignedRepr(resultElem.getFloatSemantics()))
    result =
        APFloat::getZero(resultElem.getFloatSemantics(), /*Negative=*/false);
  if (auto tensor = dyn_cast<RankedTensorType>(getType()))
    return DenseElementsAttr::get(tensor, result);
  return FloatAttr::get(resultElem, result);
}
