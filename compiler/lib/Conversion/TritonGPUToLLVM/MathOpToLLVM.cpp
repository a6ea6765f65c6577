// Scalar math ops the NVPTX back end has no instruction or libcall for.
// exp, exp2, log, log2, sin and cos on f32 (and f16/bf16, computed in f32)
// use PTX's approximate instructions, as Triton does: ex2.approx and
// lg2.approx.f32 have a maximum relative error of 2^-22.5 (exp and log add
// one rounding of the scaling by log2(e) / ln(2)). exp and exp2 flush
// subnormals (ex2.approx.ftz.f32, what Triton's libdevice call becomes with
// its ftz reflection): a result below 2^-126 is 0, at most 2^-126 from the
// exact one, and the instruction is a single MUFU.EX2 where the non-ftz form
// rescales around it (softmax and attention run one per element);
// sin.approx.f32 and
// cos.approx.f32 have an absolute error of at most 2^-20.5 on [-pi, pi]
// (PTX ISA, "Floating point instructions"). The other transcendental ops
// (and those on f64) call libdevice's __nv_* functions (f32: __nv_erff, f64:
// __nv_erf; f16/bf16 through f32), which the PTX back end links in. What
// neither covers is rejected before the conversion with a diagnostic,
// instead of reaching instruction selection (where LLVM aborts).
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/TypeSwitch.h"

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

// arith.divf on f32: PTX's div.full.f32 (at most 2 ulp from the quotient
// over the whole range), what Triton lowers `/` to; tt.precise_divf keeps
// the IEEE-rounded div.rn. LLVM's fdiv would select div.rn, a dozen
// instructions around a reciprocal where div.full is three.
struct DivFLowering : public ConvertOpToLLVMPattern<arith::DivFOp> {
  DivFLowering(TritonGPUToLLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern<arith::DivFOp>(converter, /*benefit=*/10) {}

  LogicalResult
  matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure(); // tensors are split into scalars first; f64: div.rn
    auto call = LLVM::CallIntrinsicOp::create(
        rewriter, op.getLoc(), rewriter.getF32Type(),
        rewriter.getStringAttr("llvm.nvvm.div.full"),
        ValueRange{adaptor.getLhs(), adaptor.getRhs()});
    rewriter.replaceOp(op, call.getResult(0));
    return success();
  }
};

bool isApproxOp(Operation *op) {
  return isa<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op,
             math::SinOp, math::CosOp>(op);
}

// The libdevice functions of a math op: f32 and f64 variants.
struct LibdeviceNames {
  StringRef f32, f64;
};

std::optional<LibdeviceNames> libdeviceNames(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<LibdeviceNames>>(op)
      .Case([](math::AcosOp) { return LibdeviceNames{"__nv_acosf", "__nv_acos"}; })
      .Case([](math::AcoshOp) { return LibdeviceNames{"__nv_acoshf", "__nv_acosh"}; })
      .Case([](math::AsinOp) { return LibdeviceNames{"__nv_asinf", "__nv_asin"}; })
      .Case([](math::AsinhOp) { return LibdeviceNames{"__nv_asinhf", "__nv_asinh"}; })
      .Case([](math::AtanOp) { return LibdeviceNames{"__nv_atanf", "__nv_atan"}; })
      .Case([](math::Atan2Op) { return LibdeviceNames{"__nv_atan2f", "__nv_atan2"}; })
      .Case([](math::AtanhOp) { return LibdeviceNames{"__nv_atanhf", "__nv_atanh"}; })
      .Case([](math::CbrtOp) { return LibdeviceNames{"__nv_cbrtf", "__nv_cbrt"}; })
      .Case([](math::CosOp) { return LibdeviceNames{"__nv_cosf", "__nv_cos"}; })
      .Case([](math::CoshOp) { return LibdeviceNames{"__nv_coshf", "__nv_cosh"}; })
      .Case([](math::ErfOp) { return LibdeviceNames{"__nv_erff", "__nv_erf"}; })
      .Case([](math::ErfcOp) { return LibdeviceNames{"__nv_erfcf", "__nv_erfc"}; })
      .Case([](math::ExpOp) { return LibdeviceNames{"__nv_expf", "__nv_exp"}; })
      .Case([](math::Exp2Op) { return LibdeviceNames{"__nv_exp2f", "__nv_exp2"}; })
      .Case([](math::ExpM1Op) { return LibdeviceNames{"__nv_expm1f", "__nv_expm1"}; })
      .Case([](math::LogOp) { return LibdeviceNames{"__nv_logf", "__nv_log"}; })
      .Case([](math::Log10Op) { return LibdeviceNames{"__nv_log10f", "__nv_log10"}; })
      .Case([](math::Log1pOp) { return LibdeviceNames{"__nv_log1pf", "__nv_log1p"}; })
      .Case([](math::Log2Op) { return LibdeviceNames{"__nv_log2f", "__nv_log2"}; })
      .Case([](math::PowFOp) { return LibdeviceNames{"__nv_powf", "__nv_pow"}; })
      .Case([](math::FPowIOp) { return LibdeviceNames{"__nv_powif", "__nv_powi"}; })
      .Case([](math::SinOp) { return LibdeviceNames{"__nv_sinf", "__nv_sin"}; })
      .Case([](math::SinhOp) { return LibdeviceNames{"__nv_sinhf", "__nv_sinh"}; })
      .Case([](math::TanOp) { return LibdeviceNames{"__nv_tanf", "__nv_tan"}; })
      .Case([](math::TanhOp) { return LibdeviceNames{"__nv_tanhf", "__nv_tanh"}; })
      .Default([](Operation *) { return std::nullopt; });
}

// Whether `op` (on scalars or tensors) has a libdevice function: float
// operands of f16/bf16/f32/f64 and, for fpowi, an i32 exponent (libdevice's
// __nv_powi takes an int).
bool hasLibdeviceCall(Operation *op) {
  if (!libdeviceNames(op) || op->getNumResults() != 1)
    return false;
  Type elem = getElementTypeOrSelf(op->getResult(0).getType());
  if (!(elem.isF16() || elem.isBF16() || elem.isF32() || elem.isF64()))
    return false;
  if (isa<math::FPowIOp>(op))
    return getElementTypeOrSelf(op->getOperand(1).getType()).isInteger(32);
  return true;
}

// A scalar math op -> llvm.call of its libdevice function. f16 and bf16 go
// through f32 (libdevice has no half-precision transcendental functions);
// integer operands (fpowi's exponent) pass as they are.
struct LibdeviceLowering : public ConversionPattern {
  LibdeviceLowering(TritonGPUToLLVMTypeConverter &converter, StringRef opName,
                    MLIRContext *ctx)
      : ConversionPattern(converter, opName, /*benefit=*/5, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op->getResult(0).getType();
    if (isa<ShapedType>(type) || !hasLibdeviceCall(op))
      return failure(); // tensors are split first; the rest is rejected before
    std::optional<LibdeviceNames> names = libdeviceNames(op);
    Location loc = op->getLoc();
    Type f32 = rewriter.getF32Type();
    Type callType = type.isF64() ? type : f32;
    SmallVector<Value> args;
    SmallVector<Type> argTypes;
    for (Value v : operands) {
      if (isa<FloatType>(v.getType()) && v.getType() != callType)
        v = LLVM::FPExtOp::create(rewriter, loc, callType, v);
      args.push_back(v);
      argTypes.push_back(v.getType());
    }
    StringRef name = type.isF64() ? names->f64 : names->f32;
    FailureOr<LLVM::LLVMFuncOp> func = getOrDeclareExternalFunction(
        rewriter, op, name, LLVM::LLVMFunctionType::get(callType, argTypes));
    if (failed(func))
      return failure();
    auto call = LLVM::CallOp::create(rewriter, loc, *func, args);
    // libdevice's math functions neither read nor write memory: calls may be
    // hoisted, merged or dropped like the op itself.
    call.setMemoryEffectsAttr(LLVM::MemoryEffectsAttr::get(
        rewriter.getContext(),
        {LLVM::ModRefInfo::NoModRef, LLVM::ModRefInfo::NoModRef,
         LLVM::ModRefInfo::NoModRef, LLVM::ModRefInfo::NoModRef,
         LLVM::ModRefInfo::NoModRef, LLVM::ModRefInfo::NoModRef}));
    call.setNoUnwind(true);
    Value result = call.getResult();
    if (type != callType)
      result = LLVM::FPTruncOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

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
  patterns.add<DivFLowering>(converter);
  patterns.add<ApproxLowering<math::ExpOp>>(converter, "ex2.approx.ftz.f32",
                                            log2e, 1.0);
  patterns.add<ApproxLowering<math::Exp2Op>>(converter, "ex2.approx.ftz.f32",
                                             1.0, 1.0);
  patterns.add<ApproxLowering<math::LogOp>>(converter, "lg2.approx.f32", 1.0,
                                            ln2);
  patterns.add<ApproxLowering<math::Log2Op>>(converter, "lg2.approx.f32", 1.0,
                                             1.0);
  patterns.add<ApproxLowering<math::SinOp>>(converter, "sin.approx.f32", 1.0,
                                            1.0);
  patterns.add<ApproxLowering<math::CosOp>>(converter, "cos.approx.f32", 1.0,
                                            1.0);
  // Below the approximate patterns (f32 exp/log/sin/cos stay approximate)
  // and above MathToLLVM's (which would build intrinsics NVPTX cannot
  // select, e.g. llvm.cos.f64).
  MLIRContext *ctx = patterns.getContext();
  for (StringRef name :
       {math::AcosOp::getOperationName(), math::AcoshOp::getOperationName(),
        math::AsinOp::getOperationName(), math::AsinhOp::getOperationName(),
        math::AtanOp::getOperationName(), math::Atan2Op::getOperationName(),
        math::AtanhOp::getOperationName(), math::CbrtOp::getOperationName(),
        math::CosOp::getOperationName(), math::CoshOp::getOperationName(),
        math::ErfOp::getOperationName(), math::ErfcOp::getOperationName(),
        math::ExpOp::getOperationName(), math::Exp2Op::getOperationName(),
        math::ExpM1Op::getOperationName(), math::LogOp::getOperationName(),
        math::Log10Op::getOperationName(), math::Log1pOp::getOperationName(),
        math::Log2Op::getOperationName(), math::PowFOp::getOperationName(),
        math::FPowIOp::getOperationName(), math::SinOp::getOperationName(),
        math::SinhOp::getOperationName(), math::TanOp::getOperationName(),
        math::TanhOp::getOperationName()})
    patterns.add<LibdeviceLowering>(converter, name, ctx);
}

LogicalResult mlir::tgpu::checkMathOpsLowerable(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    if (!isa_and_nonnull<math::MathDialect>(op->getDialect()))
      return WalkResult::advance();
    if (op->getNumResults() == 0) {
      op->emitError() << op->getName() << " has no GPU lowering";
      return WalkResult::interrupt();
    }
    Type elem = getElementTypeOrSelf(op->getResult(0).getType());
    bool ok = nvptxSelects(op) ||
              (isApproxOp(op) &&
               (elem.isF32() || elem.isF16() || elem.isBF16())) ||
              hasLibdeviceCall(op);
    if (ok)
      return WalkResult::advance();
    InFlightDiagnostic diag = op->emitError()
                              << op->getName() << " on " << elem
                              << " has no GPU lowering";
    if (isa<math::FPowIOp>(op))
      diag << " (libdevice's powi takes an i32 exponent)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}
