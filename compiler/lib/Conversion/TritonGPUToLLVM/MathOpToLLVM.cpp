// Scalar math ops the NVPTX back end has no instruction or libcall for.
// exp, exp2, log, log2, sin and cos on f32 (and f16/bf16, computed in f32)
// use PTX's approximate instructions, as Triton does: ex2.approx.f32 and
// lg2.approx.f32 have a maximum relative error of 2^-22.5 (exp and log add
// one rounding of the scaling by log2(e) / ln(2)); sin.approx.f32 and
// cos.approx.f32 have an absolute error of at most 2^-20.5 on [-pi, pi]
// (PTX ISA, "Floating point instructions"). Every other math op that LLVM's
// NVPTX back end cannot select is rejected before the conversion with a
// diagnostic, instead of reaching instruction selection (where LLVM aborts).
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tgpu;

namespace {

Value approxF32(ConversionPatternRewriter &rewriter, Location loc,
                StringRef instr, Value x) {
  std::string text = (instr + " $0, $1;").str();
  return LLVM::InlineAsmOp::create(
             rewriter, loc, rewriter.getF32Type(), ValueRange{x}, text, "=f,f",
             /*has_side_effects=*/false, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None, /*asm_dialect=*/nullptr,
             /*operand_attrs=*/nullptr)
      .getResult(0);
}

Value f32Constant(ConversionPatternRewriter &rewriter, Location loc,
                  double v) {
  return LLVM::ConstantOp::create(rewriter, loc, rewriter.getF32Type(),
                                  rewriter.getF32FloatAttr(float(v)));
}

// f32 -> f32 through an approximate PTX instruction, with a scale before
// (exp: log2(e)) or after (log: ln(2)).
template <typename MathOp>
struct ApproxLowering : public ConvertOpToLLVMPattern<MathOp> {
  ApproxLowering(TritonGPUToLLVMTypeConverter &converter, StringRef instr,
                 double scaleIn, double scaleOut)
      : ConvertOpToLLVMPattern<MathOp>(converter, /*benefit=*/10),
        instr(instr.str()), scaleIn(scaleIn), scaleOut(scaleOut) {}

  LogicalResult
  matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (isa<ShapedType>(type))
      return failure(); // tensors are split into scalars first
    if (!(type.isF32() || type.isF16() || type.isBF16()))
      return failure(); // rejected before the conversion
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    if (!type.isF32())
      x = LLVM::FPExtOp::create(rewriter, loc, rewriter.getF32Type(), x);
    if (scaleIn != 1.0)
      x = LLVM::FMulOp::create(rewriter, loc, x,
                               f32Constant(rewriter, loc, scaleIn));
    Value y = approxF32(rewriter, loc, instr, x);
    if (scaleOut != 1.0)
      y = LLVM::FMulOp::create(rewriter, loc, y,
                               f32Constant(rewriter, loc, scaleOut));
    if (!type.isF32())
      y = LLVM::FPTruncOp::create(rewriter, loc, type, y);
    rewriter.replaceOp(op, y);
    return success();
  }

  std::string instr;
  double scaleIn, scaleOut;
};

bool isApproxOp(Operation *op) {
  return isa<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op,
             math::SinOp, math::CosOp>(op);
}

// Math ops LLVM's NVPTX back end selects directly (or MathToLLVM expands).
bool nvptxSelects(Operation *op) {
  return isa<math::SqrtOp, math::AbsFOp, math::AbsIOp, math::CeilOp,
             math::FloorOp, math::RoundEvenOp, math::RoundOp, math::TruncOp,
             math::FmaOp, math::CopySignOp, math::CountLeadingZerosOp,
             math::CountTrailingZerosOp, math::CtPopOp, math::RsqrtOp>(op);
}

} // namespace

void mlir::tgpu::populateMathOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  constexpr double log2e = 1.4426950408889634, ln2 = 0.6931471805599453;
  patterns.add<ApproxLowering<math::ExpOp>>(converter, "ex2.approx.f32", log2e,
                                            1.0);
  patterns.add<ApproxLowering<math::Exp2Op>>(converter, "ex2.approx.f32", 1.0,
                                             1.0);
  patterns.add<ApproxLowering<math::LogOp>>(converter, "lg2.approx.f32", 1.0,
                                            ln2);
  patterns.add<ApproxLowering<math::Log2Op>>(converter, "lg2.approx.f32", 1.0,
                                             1.0);
  patterns.add<ApproxLowering<math::SinOp>>(converter, "sin.approx.f32", 1.0,
                                            1.0);
  patterns.add<ApproxLowering<math::CosOp>>(converter, "cos.approx.f32", 1.0,
                                            1.0);
}

LogicalResult mlir::tgpu::checkMathOpsLowerable(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    if (!isa_and_nonnull<math::MathDialect>(op->getDialect()))
      return WalkResult::advance();
    Type elem = getElementTypeOrSelf(op->getResult(0).getType());
    bool ok = nvptxSelects(op) ||
              (isApproxOp(op) && (elem.isF32() || elem.isF16() || elem.isBF16()));
    if (ok)
      return WalkResult::advance();
    op->emitError() << op->getName() << " on " << elem
                    << " has no GPU lowering yet";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}
