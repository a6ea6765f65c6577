// Element-wise ops on distributed tensors: operands of one layout hold the
// same elements in the same registers, so the op is applied register by
// register. arith/math ops are re-created on scalars and left to MLIR's
// arith/math -> LLVM patterns; pointer ops, calls of external functions
// (tt.extern_elementwise) and the tt float/integer ops are emitted directly.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;

namespace {

bool isDistributedTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getEncoding();
}

// Operand i of register r: a struct's r-th value, or a scalar as it is.
SmallVector<SmallVector<Value>> perRegister(ConversionPatternRewriter &rewriter,
                                            Location loc,
                                            ArrayRef<Value> operands,
                                            unsigned regs) {
  SmallVector<SmallVector<Value>> unpacked;
  for (Value v : operands) {
    SmallVector<Value> values = unpackValues(rewriter, loc, v);
    if (values.size() == 1 && regs > 1)
      values.assign(regs, values.front());
    unpacked.push_back(std::move(values));
  }
  SmallVector<SmallVector<Value>> byRegister(regs);
  for (unsigned r = 0; r < regs; ++r)
    for (auto &values : unpacked)
      byRegister[r].push_back(values[r]);
  return byRegister;
}

unsigned registerCount(Type loweredType) {
  if (auto s = dyn_cast<LLVM::LLVMStructType>(loweredType))
    return s.getBody().size();
  return 1;
}

// arith.* and math.* on tensors.
struct ArithMathOnTensors : public ConversionPattern {
  ArithMathOnTensors(TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/10, ctx) {
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Dialect *dialect = op->getDialect();
    if (!dialect || !isa<arith::ArithDialect, math::MathDialect>(dialect) ||
        isa<arith::ConstantOp>(op) || op->getNumResults() != 1 ||
        op->getNumRegions() != 0 ||
        !isDistributedTensor(op->getResult(0).getType()))
      return failure();
    Type resultType = typeConverter->convertType(op->getResult(0).getType());
    if (!resultType)
      return op->emitError("cannot lower result type ")
             << op->getResult(0).getType();
    Type elemType =
        cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
    // Types LLVM does not have (the 8-bit floats) travel as integers of
    // their width: only a select, which moves bits, can work on them here
    // (and a bitcast, whose scalar form is already on the integers).
    auto changes = [&](Type t) {
      Type e = getElementTypeOrSelf(t);
      return typeConverter->convertType(e) != e;
    };
    bool onBits = llvm::any_of(op->getOperandTypes(), changes) ||
                  changes(op->getResult(0).getType());
    if (onBits && !isa<arith::SelectOp, arith::BitcastOp>(op))
      return failure(); // checkOpsSupported reports it
    if (onBits)
      elemType = typeConverter->convertType(elemType);
    unsigned regs = registerCount(resultType);
    Location loc = op->getLoc();
    SmallVector<Value> results;
    for (auto &args : perRegister(rewriter, loc, operands, regs)) {
      OperationState state(loc, op->getName(), args, {elemType},
                           op->getAttrs());
      results.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, results));
    return success();
  }
};

// A dense splat constant: the same scalar in every register.
struct SplatConstantLowering : public ConvertOpToLLVMPattern<arith::ConstantOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isDistributedTensor(op.getType()))
      return failure();
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!splat) // the pass rejects these before converting
      return failure();
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return op.emitError("cannot lower ") << op.getType();
    Location loc = op.getLoc();
    Type elem = splat.getElementType();
    Value scalar = LLVM::ConstantOp::create(
        rewriter, loc, getTypeConverter()->convertType(elem),
        splat.getSplatValue<TypedAttr>());
    rewriter.replaceOp(
        op, packValues(rewriter, loc, resultType,
                       SmallVector<Value>(registerCount(resultType), scalar)));
    return success();
  }
};

// One element of a dense constant as a value of the lowered `type`: fp8
// elements are their bits (the type converter makes them i8).
TypedAttr loweredElement(Builder &b, Type type, Attribute value) {
  if (auto f = dyn_cast<FloatAttr>(value); f && isa<IntegerType>(type))
    return b.getIntegerAttr(type, f.getValue().bitcastToAPInt());
  return cast<TypedAttr>(value);
}

// A dense constant that is not a splat. Where every thread holds the same
// elements (the layout's lane, warp and block bases are zero) each register
// is its own constant. Elsewhere which element a register holds depends on
// the thread: the elements go into a constant global array, and each
// register loads its element from it.
struct DenseConstantLowering
    : public ConvertOpToLLVMPattern<arith::ConstantOp> {
  DenseConstantLowering(TritonGPUToLLVMTypeConverter &converter,
                        const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!type || !isDistributedTensor(type) || !dense ||
        isa<SplatElementsAttr>(dense))
      return failure();
    Type resultType = getTypeConverter()->convertType(type);
    Type elemType = getTypeConverter()->convertType(type.getElementType());
    if (!resultType || !elemType || !elemType.isIntOrFloat())
      return op.emitError("cannot lower ") << type;
    Location loc = op.getLoc();
    auto layout = getDistributedLayout(type, loc);
    if (failed(layout))
      return failure();
    SmallVector<Attribute> elements(dense.getValues<Attribute>());
    int64_t regs = layout->getInDimSize("register");
    std::vector<std::string> inDims = layout->getInDimNames();
    bool sameInEveryThread = true;
    for (const std::string &dim : inDims)
      for (int i = 0; dim != "register" && i < layout->getInDimSizeLog2(dim);
           ++i)
        sameInEveryThread &=
            layout->getBasis(dim, i) == LinearLayout::Basis(type.getRank(), 0);
    SmallVector<Value> values;
    if (sameInEveryThread) {
      for (int64_t r = 0; r < regs; ++r) {
        std::vector<int32_t> in(inDims.size(), 0);
        for (auto [i, dim] : llvm::enumerate(inDims))
          if (dim == "register")
            in[i] = r;
        std::vector<int32_t> coords =
            layout->unpackOut(layout->applyFlat(layout->packIn(in)));
        int64_t index = 0;
        for (auto [size, coord] : llvm::zip(type.getShape(), coords))
          index = index * size + coord;
        values.push_back(LLVM::ConstantOp::create(
            rewriter, loc, elemType,
            loweredElement(rewriter, elemType, elements[index])));
      }
    } else {
      LLVM::GlobalOp table = createTable(rewriter, op, elemType, elements);
      Value base = LLVM::AddressOfOp::create(rewriter, loc, table);
      for (SmallVector<Value> &coords :
           emitIndices(rewriter, loc, *layout, info.threadsPerWarp)) {
        Value index = linearize(rewriter, loc, coords, type.getShape());
        Value ptr = LLVM::GEPOp::create(rewriter, loc, base.getType(), elemType,
                                        base, ValueRange{index});
        values.push_back(LLVM::LoadOp::create(rewriter, loc, elemType, ptr));
      }
    }
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, values));
    return success();
  }

  // A constant array in global memory holding `elements` in row-major order.
  static LLVM::GlobalOp createTable(ConversionPatternRewriter &rewriter,
                                    arith::ConstantOp op, Type elemType,
                                    ArrayRef<Attribute> elements) {
    auto module = op->getParentOfType<ModuleOp>();
    SmallVector<Attribute> values;
    for (Attribute e : elements)
      values.push_back(loweredElement(rewriter, elemType, e));
    std::string name;
    for (unsigned i = 0;; ++i) {
      name = "tensor_constant_" + std::to_string(i);
      if (!module.lookupSymbol(name))
        break;
    }
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    auto arrayType = LLVM::LLVMArrayType::get(elemType, values.size());
    return LLVM::GlobalOp::create(rewriter, op.getLoc(), arrayType,
                                  /*isConstant=*/true, LLVM::Linkage::Internal,
                                  name, rewriter.getArrayAttr(values),
                                  /*alignment=*/0, /*addrSpace=*/1);
  }

  LoweringInfo info;
};

// tt.addptr: one getelementptr per register, in units of the pointee.
struct AddPtrLowering : public ConvertOpToLLVMPattern<tt::AddPtrOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tt::AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return op.emitError("cannot lower ") << op.getType();
    Type pointee = getElementTypeOrSelf(op.getPtr().getType());
    auto ptrType = dyn_cast<tt::PointerType>(pointee);
    if (!ptrType)
      return op.emitError("tt.addptr on block pointers cannot be lowered");
    Type elem = getTypeConverter()->convertType(ptrType.getPointeeType());
    if (!elem)
      return op.emitError("cannot lower pointee type ")
             << ptrType.getPointeeType();
    Type llvmPtr = getTypeConverter()->convertType(ptrType);
    Location loc = op.getLoc();
    unsigned regs = registerCount(resultType);
    SmallVector<Value> results;
    for (auto &args : perRegister(rewriter, loc,
                                  {adaptor.getPtr(), adaptor.getOffset()},
                                  regs))
      results.push_back(LLVM::GEPOp::create(rewriter, loc, llvmPtr, elem,
                                            args[0], ValueRange{args[1]}));
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, results));
    return success();
  }
};

// tt.extern_elementwise: one call of the external function per register. The
// function is declared once in the module; libdevice's (__nv_*) are linked
// in by the PTX back end. libname/libpath name Triton's library search and
// play no part here.
struct ExternElementwiseLowering
    : public ConvertOpToLLVMPattern<tt::ExternElementwiseOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tt::ExternElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef symbol = op.getSymbol();
    if (symbol.empty())
      return op.emitError("tt.extern_elementwise needs a symbol to call");
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type resultElem =
        getTypeConverter()->convertType(getElementTypeOrSelf(op.getType()));
    if (!resultType || !resultElem)
      return op.emitError("cannot lower ") << op.getType();
    SmallVector<Type> argTypes;
    for (Value src : op.getSrcs()) {
      Type elem =
          getTypeConverter()->convertType(getElementTypeOrSelf(src.getType()));
      if (!elem)
        return op.emitError("cannot lower operand type ") << src.getType();
      argTypes.push_back(elem);
    }
    FailureOr<LLVM::LLVMFuncOp> func = getOrDeclareExternalFunction(
        rewriter, op, symbol, LLVM::LLVMFunctionType::get(resultElem, argTypes));
    if (failed(func))
      return failure();
    Location loc = op.getLoc();
    unsigned regs = registerCount(resultType);
    SmallVector<Value> results;
    for (auto &args :
         perRegister(rewriter, loc, SmallVector<Value>(adaptor.getSrcs()),
                     regs)) {
      auto call = LLVM::CallOp::create(rewriter, loc, *func, args);
      // A pure function touches no memory: LLVM may then hoist, merge or
      // drop its calls as it would the arithmetic it stands for.
      if (op.getPure()) {
        auto none = LLVM::ModRefInfo::NoModRef;
        call.setMemoryEffectsAttr(LLVM::MemoryEffectsAttr::get(
            rewriter.getContext(), {none, none, none, none, none, none}));
        call.setNoUnwind(true);
      }
      results.push_back(call.getResult());
    }
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, results));
    return success();
  }
};

// The tt ops below are lowered register by register by one pattern,
// RegisterwiseLowering<Op>: lowerRegister(op, ...) gives one register's
// result from that register's operands (`elem` is the lowered result element
// type). What has no lowering is refused before the conversion, with a
// located error, by checkElementwiseOpsLowerable (checkLowerable below).

// tt.precise_sqrt and tt.precise_divf: llvm.sqrt and fdiv select PTX's
// IEEE-rounded sqrt.rn / div.rn (no approximation flags are set).
Value lowerRegister(tt::PreciseSqrtOp, RewriterBase &rewriter, Location loc,
                    Type, ValueRange args) {
  return LLVM::SqrtOp::create(rewriter, loc, args[0]);
}

Value lowerRegister(tt::PreciseDivFOp, RewriterBase &rewriter, Location loc,
                    Type, ValueRange args) {
  return LLVM::FDivOp::create(rewriter, loc, args[0], args[1]);
}

// tt.clampf: max then min, NaN-propagating (llvm.maximum/minimum: max.NaN on
// sm_80+) when propagateNan = all, else maxnum/minnum.
Value lowerRegister(tt::ClampFOp op, RewriterBase &rewriter, Location loc, Type,
                    ValueRange args) {
  if (op.getPropagateNan() == tt::PropagateNan::ALL)
    return LLVM::MinimumOp::create(
        rewriter, loc, LLVM::MaximumOp::create(rewriter, loc, args[0], args[1]),
        args[2]);
  return LLVM::MinNumOp::create(
      rewriter, loc, LLVM::MaxNumOp::create(rewriter, loc, args[0], args[1]),
      args[2]);
}

// tt.mulhiui: the high half of the double-width product (NVPTX selects
// mul.hi.u32 / mul.hi.u64, what Triton's call of libdevice's __nv_umulhi
// becomes).
LogicalResult checkLowerable(tt::MulhiUIOp op) {
  Type elem = getElementTypeOrSelf(op.getType());
  unsigned width = elem.getIntOrFloatBitWidth();
  if (width != 32 && width != 64)
    return op.emitError("tt.mulhiui on ")
           << elem << " has no GPU lowering (i32 and i64 do)";
  return success();
}

Value lowerRegister(tt::MulhiUIOp, RewriterBase &rewriter, Location loc,
                    Type elem, ValueRange args) {
  unsigned width = elem.getIntOrFloatBitWidth();
  Type wide = rewriter.getIntegerType(2 * width);
  Value product = LLVM::MulOp::create(
      rewriter, loc, LLVM::ZExtOp::create(rewriter, loc, wide, args[0]),
      LLVM::ZExtOp::create(rewriter, loc, wide, args[1]));
  Value shift = LLVM::ConstantOp::create(rewriter, loc, wide,
                                         rewriter.getIntegerAttr(wide, width));
  return LLVM::TruncOp::create(
      rewriter, loc, elem, LLVM::LShrOp::create(rewriter, loc, product, shift));
}

// tt.int_to_ptr, tt.ptr_to_int and tt.bitcast, on scalars (a pointer loaded
// from a table) and tensors alike. A bitcast to its own type (Philox rounds
// in tl.rand bitcast i32 to i32) is the value.
Value lowerRegister(tt::IntToPtrOp, RewriterBase &rewriter, Location loc,
                    Type elem, ValueRange args) {
  return LLVM::IntToPtrOp::create(rewriter, loc, elem, args[0]);
}

Value lowerRegister(tt::PtrToIntOp, RewriterBase &rewriter, Location loc,
                    Type elem, ValueRange args) {
  return LLVM::PtrToIntOp::create(rewriter, loc, elem, args[0]);
}

Value lowerRegister(tt::BitcastOp, RewriterBase &rewriter, Location loc,
                    Type elem, ValueRange args) {
  Value v = args[0];
  if (v.getType() == elem)
    return v;
  if (isa<LLVM::LLVMPointerType>(elem))
    return LLVM::AddrSpaceCastOp::create(rewriter, loc, elem, v);
  return LLVM::BitcastOp::create(rewriter, loc, elem, v);
}

// tt.fp_to_fp: from f8E5M2 / f8E4M3FN to a wider float exactly (through f32:
// every such value is an f16 and a bf16 too), and between f16, bf16, f32 and
// f64 (fpext; fptrunc, which rounds to nearest even, for rounding = rtne).
// Rounding toward zero between the wide floats is refused.
//
// To f8E4M3FN / f8E5M2 (sm_89+), as Triton lowers it on Hopper: PTX's
// cvt.rn.satfinite.{e4m3x2,e5m2x2}.{f16x2,f32} converts two values at once,
// rounding to nearest even, saturating finite overflow and infinities to the
// largest finite value and keeping NaN. bf16 is widened (exactly) to f32
// first. rounding = rtz is taken only from f32 to f8E5M2, as Triton does:
// cvt.rz.f16x2.f32, then each f16's high byte (an e5m2 is an f16 without its
// low 8 mantissa bits, so dropping them rounds toward zero again). Triton has
// no other rtz to fp8, and PTX no cvt to fp8 from f64 or between the fp8
// types.
bool isWideFloat(Type t) {
  return isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(t);
}

// The conversions to 8-bit floats that have a lowering.
bool isFp8Encodable(Type from) {
  return isa<Float16Type, BFloat16Type, Float32Type>(from);
}

LogicalResult checkLowerable(tt::FpToFpOp op, int cc) {
  Type from = getElementTypeOrSelf(op.getSrc().getType());
  Type to = getElementTypeOrSelf(op.getType());
  if (isDecodableFp8(to)) {
    if (!isFp8Encodable(from))
      return op.emitError("tt.fp_to_fp from ")
             << from << " to " << to
             << " is not supported yet (to f8E5M2 and f8E4M3FN from f16, "
                "bf16 or f32 is)";
    // The cvt.*.e4m3x2 / .e5m2x2 forms exist from sm_89 on.
    if (cc < 89)
      return op.emitError("tt.fp_to_fp to ")
             << to << " needs sm_89 or newer (PTX cvt to e4m3x2/e5m2x2); "
             << "the target is cuda:" << cc;
    if (op.getRounding() == tt::RoundingMode::RTZ &&
        !(isa<Float32Type>(from) && isa<Float8E5M2Type>(to)))
      return op.emitError("tt.fp_to_fp from ")
             << from << " to " << to
             << " with rounding = rtz is not supported (rtne is; rtz only "
                "from f32 to f8E5M2)";
    return success();
  }
  if (!isWideFloat(to) || !(isWideFloat(from) || isDecodableFp8(from)))
    return op.emitError("tt.fp_to_fp from ")
           << from << " to " << to
           << " is not supported yet (from f8E5M2, f8E4M3FN, f16, bf16, f32 "
              "or f64 to f16, bf16, f32 or f64, and from f16, bf16 or f32 "
              "to f8E5M2 or f8E4M3FN is)";
  bool narrows = isWideFloat(from) &&
                 from.getIntOrFloatBitWidth() >= to.getIntOrFloatBitWidth();
  if (narrows && from != to && op.getRounding() == tt::RoundingMode::RTZ)
    return op.emitError("tt.fp_to_fp with rounding = rtz is not supported "
                        "yet (rtne is)");
  return success();
}

Value lowerRegister(tt::FpToFpOp op, RewriterBase &rewriter, Location loc,
                    Type elem, ValueRange args) {
  Type from = getElementTypeOrSelf(op.getSrc().getType());
  Value v = args[0];
  if (isDecodableFp8(from)) {
    v = emitFp8ToF32(rewriter, loc, v, from);
    from = rewriter.getF32Type();
  }
  unsigned fromBits = from.getIntOrFloatBitWidth();
  unsigned toBits = elem.getIntOrFloatBitWidth();
  if (from == elem)
    return v;
  if (fromBits == toBits) // f16 <-> bf16: exactly to f32, then rounded
    v = LLVM::FPExtOp::create(rewriter, loc, rewriter.getF32Type(), v);
  if (fromBits < toBits)
    return LLVM::FPExtOp::create(rewriter, loc, elem, v);
  return LLVM::FPTruncOp::create(rewriter, loc, elem, v);
}

// The i8 codes of `values` (f16 or f32, lowered) in the 8-bit float `to`,
// two by two (see checkLowerable(tt::FpToFpOp) for what is emitted). An odd
// last value is paired with a zero whose code is dropped.
SmallVector<Value> emitToFp8(RewriterBase &rewriter, Location loc,
                             ArrayRef<Value> values, Type to, bool towardZero) {
  Type i8 = rewriter.getI8Type(), i16 = rewriter.getI16Type();
  Type i32 = rewriter.getI32Type();
  SmallVector<Value> codes;
  for (size_t i = 0; i < values.size(); i += 2) {
    Value lo = values[i];
    Type from = lo.getType();
    Value hi = i + 1 < values.size()
                   ? values[i + 1]
                   : LLVM::ConstantOp::create(rewriter, loc, from,
                                              rewriter.getFloatAttr(from, 0.0));
    auto byte = [&](Value word, int64_t shift) -> Value {
      if (shift)
        word = LLVM::LShrOp::create(
            rewriter, loc, word,
            LLVM::ConstantOp::create(
                rewriter, loc, word.getType(),
                rewriter.getIntegerAttr(word.getType(), shift)));
      return LLVM::TruncOp::create(rewriter, loc, i8, word);
    };
    if (towardZero) {
      // cvt.rz.f16x2.f32 d, a, b puts a's f16 in d's upper half: lo goes
      // in b so that it is element 0 (the low half) of the f16 pair.
      Value halves = NVVM::ConvertF32x2ToF16x2Op::create(
          rewriter, loc, VectorType::get(2, rewriter.getF16Type()),
          /*src_hi=*/hi, /*src_lo=*/lo, /*random_bits=*/Value(),
          NVVM::FPRoundingMode::RZ);
      Value word = LLVM::BitcastOp::create(rewriter, loc, i32, halves);
      codes.push_back(byte(word, 8));
      if (i + 1 < values.size())
        codes.push_back(byte(word, 24));
      continue;
    }
    Value packed;
    if (isa<Float16Type>(from)) {
      // The f16x2 form converts the low half of its operand (element 0)
      // into the low byte of the result.
      Value vec = packVector(rewriter, loc, {lo, hi});
      packed = NVVM::ConvertF16x2ToF8x2Op::create(rewriter, loc, i16, vec,
                                                  /*relu=*/false, to);
    } else {
      // The f32 form takes two operands; the first one's code is the upper
      // byte.
      packed = NVVM::ConvertF32x2ToF8x2Op::create(
          rewriter, loc, i16, /*a=*/hi, /*b=*/lo, NVVM::FPRoundingMode::RN,
          NVVM::SaturationMode::SATFINITE, /*relu=*/false, to);
    }
    codes.push_back(byte(packed, 0));
    if (i + 1 < values.size())
      codes.push_back(byte(packed, 8));
  }
  return codes;
}

// tt.fp_to_fp: register by register, except to 8-bit floats, which are
// converted in pairs of registers.
struct FpToFpLowering : public ConvertOpToLLVMPattern<tt::FpToFpOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::FpToFpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type elem =
        getTypeConverter()->convertType(getElementTypeOrSelf(op.getType()));
    if (!resultType || !elem)
      return op.emitError("cannot lower ") << op.getType();
    Location loc = op.getLoc();
    SmallVector<Value> srcs = unpackValues(rewriter, loc, adaptor.getSrc());
    Type to = getElementTypeOrSelf(op.getType());
    SmallVector<Value> results;
    if (isDecodableFp8(to)) {
      Type from = getElementTypeOrSelf(op.getSrc().getType());
      if (isa<BFloat16Type>(from))
        for (Value &v : srcs)
          v = LLVM::FPExtOp::create(rewriter, loc, rewriter.getF32Type(), v);
      results = emitToFp8(rewriter, loc, srcs, to,
                          op.getRounding() == tt::RoundingMode::RTZ);
    } else {
      for (Value v : srcs)
        results.push_back(lowerRegister(op, rewriter, loc, elem, v));
    }
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, results));
    return success();
  }
};

template <typename SourceOp>
struct RegisterwiseLowering : public ConvertOpToLLVMPattern<SourceOp> {
  using ConvertOpToLLVMPattern<SourceOp>::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = this->getTypeConverter()->convertType(op.getType());
    Type elem = this->getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getType()));
    if (!resultType || !elem)
      return op.emitError("cannot lower ") << op.getType();
    Location loc = op.getLoc();
    SmallVector<Value> results;
    for (auto &args :
         perRegister(rewriter, loc, SmallVector<Value>(adaptor.getOperands()),
                     registerCount(resultType)))
      results.push_back(lowerRegister(op, rewriter, loc, elem, args));
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, results));
    return success();
  }
};

} // namespace

LogicalResult mlir::tgpu::checkElementwiseOpsLowerable(ModuleOp module,
                                                       int computeCapability) {
  WalkResult result = module.walk([&](Operation *op) {
    LogicalResult ok =
        TypeSwitch<Operation *, LogicalResult>(op)
            .Case([](tt::MulhiUIOp op) { return checkLowerable(op); })
            .Case([&](tt::FpToFpOp op) {
              return checkLowerable(op, computeCapability);
            })
            .Default([](Operation *) { return success(); });
    return failed(ok) ? WalkResult::interrupt() : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

FailureOr<LLVM::LLVMFuncOp> mlir::tgpu::getOrDeclareExternalFunction(
    RewriterBase &rewriter, Operation *op, StringRef name,
    LLVM::LLVMFunctionType type) {
  auto module = op->getParentOfType<ModuleOp>();
  if (!module)
    return op->emitError("cannot call '") << name << "' outside a module";
  if (Operation *existing = module.lookupSymbol(name)) {
    auto func = dyn_cast<LLVM::LLVMFuncOp>(existing);
    if (!func)
      return op->emitError("cannot call '")
             << name << "': the module defines a " << existing->getName()
             << " of that name";
    if (func.getFunctionType() != type)
      return op->emitError("cannot call '")
             << name << "' as " << type << ": it is declared as "
             << func.getFunctionType();
    return func;
  }
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(rewriter,
                                  UnknownLoc::get(rewriter.getContext()), name,
                                  type);
}

void mlir::tgpu::populateElementwiseOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<ArithMathOnTensors>(converter, patterns.getContext());
  patterns.add<DenseConstantLowering>(converter, info);
  patterns.add<SplatConstantLowering, AddPtrLowering, ExternElementwiseLowering,
               RegisterwiseLowering<tt::PreciseSqrtOp>,
               RegisterwiseLowering<tt::PreciseDivFOp>,
               RegisterwiseLowering<tt::ClampFOp>,
               RegisterwiseLowering<tt::MulhiUIOp>,
               RegisterwiseLowering<tt::IntToPtrOp>,
               RegisterwiseLowering<tt::PtrToIntOp>,
               RegisterwiseLowering<tt::BitcastOp>, FpToFpLowering>(converter);
}
