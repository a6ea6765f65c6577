// tt.elementwise_inline_asm -> llvm.inline_asm. Each thread runs the asm once
// per `packed_element` of its registers (padding the last group with undef),
// as Triton does: within a group, elements narrower than 32 bits travel
// packed, several to a vector that fills a 32-bit register (2 x f16, 4 x i8),
// so the asm sees the PTX registers its constraints name ("r" for a
// vector<2xf16>). Results come back the same way, one asm output per packed
// register, all results' outputs in one struct.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/IR/InlineAsm.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;

namespace {

unsigned registerCount(Type loweredType) {
  if (auto s = dyn_cast<LLVM::LLVMStructType>(loweredType))
    return s.getBody().size();
  return 1;
}

// How many elements of `elem` (a lowered scalar type) share one asm operand
// in a group of `packed`: as many as fill 32 bits, at most `packed`.
unsigned elementsPerOperand(Type elem, unsigned packed) {
  unsigned bits = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 64;
  return std::min(std::max(32 / bits, 1u), packed);
}

// The number of outputs and inputs a constraint string declares, or nullopt
// when LLVM cannot parse it. Checked here because LLVM only asserts on a
// mismatch (release builds go on and miscompile or crash).
std::optional<std::pair<unsigned, unsigned>>
countConstraints(StringRef constraints) {
  llvm::InlineAsm::ConstraintInfoVector infos =
      llvm::InlineAsm::ParseConstraints(constraints);
  if (infos.empty() && !constraints.empty())
    return std::nullopt;
  unsigned outputs = 0, inputs = 0;
  for (const llvm::InlineAsm::ConstraintInfo &info : infos) {
    if (info.Type == llvm::InlineAsm::isOutput && !info.isIndirect)
      ++outputs;
    else if (info.Type == llvm::InlineAsm::isInput ||
             (info.Type == llvm::InlineAsm::isOutput && info.isIndirect))
      ++inputs; // an indirect output is a pointer operand
  }
  return std::make_pair(outputs, inputs);
}

struct ElementwiseInlineAsmLowering
    : public ConvertOpToLLVMPattern<tt::ElementwiseInlineAsmOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::ElementwiseInlineAsmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned packed = op.getPackedElement();
    if (packed == 0)
      return op.emitError("packed_element must be positive");

    // Lowered result types: the tensors' structs, and their element types.
    SmallVector<Type> resultTypes, resultElems;
    for (Type type : op.getResultTypes()) {
      Type lowered = getTypeConverter()->convertType(type);
      Type elem =
          getTypeConverter()->convertType(getElementTypeOrSelf(type));
      if (!lowered || !elem)
        return op.emitError("cannot lower result type ") << type;
      resultTypes.push_back(lowered);
      resultElems.push_back(elem);
    }
    // Registers per thread: any tensor's (the verifier makes all shapes and
    // encodings agree), 1 when everything is a scalar.
    SmallVector<Type> loweredTypes(resultTypes);
    llvm::append_range(loweredTypes, adaptor.getArgs().getTypes());
    unsigned regs = 1;
    for (Type type : loweredTypes)
      if (isa<LLVM::LLVMStructType>(type)) {
        regs = registerCount(type);
        break;
      }

    // operands[i][r]: operand i in register r (scalars repeated), padded to
    // whole groups with undef.
    unsigned padded = llvm::alignTo(regs, packed);
    SmallVector<SmallVector<Value>> operands;
    SmallVector<Type> operandElems;
    for (auto [i, arg] : llvm::enumerate(adaptor.getArgs())) {
      SmallVector<Value> values = unpackValues(rewriter, loc, arg);
      if (values.size() == 1 && regs > 1)
        values.assign(regs, values.front());
      if (values.size() != regs)
        return op.emitError("operand ")
               << i << " holds " << values.size()
               << " registers per thread, the results " << regs;
      Type elem = values.front().getType();
      if (padded > regs) {
        Value undef = LLVM::UndefOp::create(rewriter, loc, elem);
        values.append(padded - regs, undef);
      }
      operands.push_back(std::move(values));
      operandElems.push_back(elem);
    }

    // A group's asm operand and output types.
    auto groupTypes = [&](ArrayRef<Type> elems,
                          SmallVectorImpl<Type> &types) -> LogicalResult {
      for (auto [i, elem] : llvm::enumerate(elems)) {
        unsigned perOperand = elementsPerOperand(elem, packed);
        if (packed % perOperand != 0)
          return op.emitError("packed_element ")
                 << packed << " is not a multiple of the " << perOperand
                 << " elements of " << elem
                 << " that share a 32-bit register";
        Type type = perOperand > 1 ? VectorType::get(perOperand, elem) : elem;
        types.append(packed / perOperand, type);
      }
      return success();
    };
    SmallVector<Type> inputTypes, outputTypes;
    if (failed(groupTypes(operandElems, inputTypes)) ||
        failed(groupTypes(resultElems, outputTypes)))
      return failure();

    std::optional<std::pair<unsigned, unsigned>> counts =
        countConstraints(op.getConstraints());
    if (!counts)
      return op.emitError("cannot parse the inline asm constraints \"")
             << op.getConstraints() << "\"";
    if (counts->first != outputTypes.size() ||
        counts->second != inputTypes.size())
      return op.emitError("the constraints \"")
             << op.getConstraints() << "\" declare " << counts->first
             << " outputs and " << counts->second << " inputs, but "
             << "packed_element = " << packed << " needs "
             << outputTypes.size() << " outputs and " << inputTypes.size()
             << " inputs per asm";

    Type asmType;
    if (outputTypes.size() == 1)
      asmType = outputTypes.front();
    else if (outputTypes.size() > 1)
      asmType = LLVM::LLVMStructType::getLiteral(getContext(), outputTypes);
    auto dialect =
        LLVM::AsmDialectAttr::get(getContext(), LLVM::AsmDialect::AD_ATT);

    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (unsigned start = 0; start < padded; start += packed) {
      SmallVector<Value> asmOperands;
      for (auto [i, values] : llvm::enumerate(operands)) {
        Type elem = operandElems[i];
        unsigned perOperand = elementsPerOperand(elem, packed);
        for (unsigned k = 0; k < packed; k += perOperand) {
          if (perOperand == 1) {
            asmOperands.push_back(values[start + k]);
            continue;
          }
          Value vec = LLVM::UndefOp::create(
              rewriter, loc, VectorType::get(perOperand, elem));
          for (unsigned e = 0; e < perOperand; ++e)
            vec = LLVM::InsertElementOp::create(
                rewriter, loc, vec, values[start + k + e],
                i32Constant(rewriter, loc, e));
          asmOperands.push_back(vec);
        }
      }
      auto asmOp = LLVM::InlineAsmOp::create(
          rewriter, loc, asmType, asmOperands, op.getAsmString(),
          op.getConstraints(), /*has_side_effects=*/!op.getPure(),
          /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
          dialect, /*operand_attrs=*/nullptr);
      if (!asmType)
        continue;
      // Outputs in order: result 0's packed registers, then result 1's, ...
      // The padding's outputs are not read.
      unsigned output = 0;
      for (auto [i, elem] : llvm::enumerate(resultElems)) {
        unsigned perOperand = elementsPerOperand(elem, packed);
        for (unsigned k = 0; k < packed; k += perOperand, ++output) {
          if (start + k >= regs)
            continue;
          Value v = outputTypes.size() == 1
                        ? asmOp.getResult(0)
                        : Value(LLVM::ExtractValueOp::create(
                              rewriter, loc, asmOp.getResult(0), output));
          if (perOperand == 1) {
            results[i].push_back(v);
            continue;
          }
          for (unsigned e = 0; e < perOperand && start + k + e < regs; ++e)
            results[i].push_back(LLVM::ExtractElementOp::create(
                rewriter, loc, v, i32Constant(rewriter, loc, e)));
        }
      }
    }

    SmallVector<Value> replacements;
    for (auto [i, values] : llvm::enumerate(results))
      replacements.push_back(
          packValues(rewriter, loc, resultTypes[i], values));
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

} // namespace

void mlir::tgpu::populateInlineAsmOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ElementwiseInlineAsmLowering>(converter);
}
