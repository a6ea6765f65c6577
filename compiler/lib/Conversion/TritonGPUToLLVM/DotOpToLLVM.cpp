// tt.dot on the FMA path: operands in #ttg.dot_op layouts of the result's
// blocked layout hold, in each thread, whole rows of A and whole columns of B
// for the result elements the thread owns, so every result register is its
// own chain acc = fma(a[m][k], b[k][n], acc) over k = 0, 1, ... K-1. Which
// register holds a[m][k] is read off the operands' LinearLayouts; the
// threads' parts of the layouts must agree (A's with the result's rows, B's
// with its columns), or the op is rejected.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

#include <map>

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

// The thread bases of `operand` must be those of `result` along `keepDim`
// (rows for A, columns for B) with 0 along K.
bool threadsAgree(const LinearLayout &operand, const LinearLayout &result,
                  unsigned keepDim) {
  for (StringRef dim : {"lane", "warp", "block"}) {
    if (!result.hasInDim(dim))
      continue;
    for (int i = 0; i < result.getInDimSizeLog2(dim); ++i) {
      SmallVector<int32_t> r = layoutCoords(result, dim, int32_t(1) << i);
      SmallVector<int32_t> want(2, 0);
      want[keepDim] = r[keepDim];
      SmallVector<int32_t> have =
          operand.hasInDim(dim) && i < operand.getInDimSizeLog2(dim)
              ? layoutCoords(operand, dim, int32_t(1) << i)
              : SmallVector<int32_t>(2, 0);
      if (have != want)
        return false;
    }
  }
  return true;
}

// Register of `layout` holding each element (coordinates of the register
// part alone), first owner wins.
std::map<std::pair<int32_t, int32_t>, int32_t>
registerOwners(const LinearLayout &layout) {
  std::map<std::pair<int32_t, int32_t>, int32_t> owners;
  for (int32_t r = 0, e = layout.getInDimSize("register"); r < e; ++r) {
    SmallVector<int32_t> c = layoutCoords(layout, "register", r);
    owners.emplace(std::make_pair(c[0], c[1]), r);
  }
  return owners;
}

// An operand element as the accumulator type. `elem` is the operand's element
// type before lowering: 8-bit floats arrive as i8 bit patterns and are decoded
// (exactly: every f8E5M2 / f8E4M3FN value is an f16 and a bf16 too), while
// integers are sign-extended.
Value toAccumulatorType(ConversionPatternRewriter &rewriter, Location loc,
                        Value v, Type elem, Type acc) {
  if (isDecodableFp8(elem)) {
    v = emitFp8ToF32(rewriter, loc, v, elem);
    if (acc.getIntOrFloatBitWidth() < 32)
      return LLVM::FPTruncOp::create(rewriter, loc, acc, v);
  }
  Type t = v.getType();
  if (t == acc)
    return v;
  if (isa<FloatType>(acc)) {
    if (isa<FloatType>(t))
      return LLVM::FPExtOp::create(rewriter, loc, acc, v);
    return LLVM::SIToFPOp::create(rewriter, loc, acc, v);
  }
  return LLVM::SExtOp::create(rewriter, loc, acc, v);
}

struct FmaDotLowering : public ConvertOpToLLVMPattern<tt::DotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto cType = cast<RankedTensorType>(op.getC().getType());
    if (isa_and_nonnull<ttg::NvidiaMmaEncodingAttr>(cType.getEncoding()))
      return failure(); // tensor cores: MmaDotOpToLLVM.cpp
    if (cType.getRank() != 2)
      return op.emitError("only 2-D tt.dot can be lowered yet");
    auto a = getDistributedLayout(aType, loc);
    auto b = getDistributedLayout(bType, loc);
    auto c = getDistributedLayout(cType, loc);
    if (failed(a) || failed(b) || failed(c))
      return failure();
    if (!threadsAgree(*a, *c, /*keepDim=*/0) ||
        !threadsAgree(*b, *c, /*keepDim=*/1))
      return op.emitError("tt.dot operands must be in the #ttg.dot_op "
                          "layouts of the result's blocked layout (FMA path)");
    auto aOwners = registerOwners(*a), bOwners = registerOwners(*b);
    SmallVector<Value> aVals = unpackValues(rewriter, loc, adaptor.getA());
    SmallVector<Value> bVals = unpackValues(rewriter, loc, adaptor.getB());
    SmallVector<Value> acc = unpackValues(rewriter, loc, adaptor.getC());
    Type accType = getTypeConverter()->convertType(cType.getElementType());
    bool isFloat = isa<FloatType>(accType);
    Type aElem = aType.getElementType(), bElem = bType.getElementType();
    int64_t K = aType.getDimSize(1);
    for (int32_t r = 0, e = c->getInDimSize("register"); r < e; ++r) {
      SmallVector<int32_t> mn = layoutCoords(*c, "register", r);
      Value sum = acc[r];
      for (int64_t k = 0; k < K; ++k) {
        auto ai = aOwners.find({mn[0], int32_t(k)});
        auto bi = bOwners.find({int32_t(k), mn[1]});
        if (ai == aOwners.end() || bi == bOwners.end())
          return op.emitError("an operand element of the dot is not held "
                              "by the thread that needs it");
        Value x =
            toAccumulatorType(rewriter, loc, aVals[ai->second], aElem, accType);
        Value y =
            toAccumulatorType(rewriter, loc, bVals[bi->second], bElem, accType);
        sum = isFloat ? Value(LLVM::FMAOp::create(rewriter, loc, x, y, sum))
                      : Value(LLVM::AddOp::create(
                            rewriter, loc, sum,
                            LLVM::MulOp::create(rewriter, loc, x, y)));
      }
      acc[r] = sum;
    }
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return op.emitError("cannot lower ") << op.getType();
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, acc));
    return success();
  }
};

} // namespace

LogicalResult mlir::tgpu::checkDotOpsLowerable(ModuleOp module) {
  WalkResult result = module.walk([](tt::DotOp op) {
    for (Value operand : {op.getA(), op.getB()}) {
      Type elem = getElementTypeOrSelf(operand.getType());
      if (isa<FloatType>(elem) && elem.getIntOrFloatBitWidth() == 8 &&
          !isDecodableFp8(elem)) {
        op.emitError("tt.dot with ")
            << elem
            << " operands is not supported yet (f8E5M2 and f8E4M3FN are)";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void mlir::tgpu::populateDotOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<FmaDotLowering>(converter);
}
