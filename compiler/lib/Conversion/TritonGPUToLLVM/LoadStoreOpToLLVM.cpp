// tt.load / tt.store on global memory. Registers that hold consecutive
// elements (the layout's first register bases running along one dim) are
// accessed together, up to 128 bits, when AxisInfo proves the pointers that
// contiguous and aligned and the mask constant over the group. Each access is
// one predicated PTX ld/st: masked-off lanes keep `other` (or 0) and do not
// touch memory, and a store is done by one owner of each element only.
#include "tgpu/Analysis/AccessWidth.h"
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;

namespace {

// How elements sit in memory: i1 as a byte, pointers as 64-bit integers.
Type memoryType(MLIRContext *ctx, Type elem) {
  if (elem.isInteger(1))
    return IntegerType::get(ctx, 8);
  if (isa<LLVM::LLVMPointerType>(elem))
    return IntegerType::get(ctx, 64);
  return elem;
}

unsigned bitWidth(Type memType) { return memType.getIntOrFloatBitWidth(); }

// How many consecutive registers one access covers, up to 128 bits.
int64_t vectorWidth(Value ptr, Value mask, const LinearLayout &layout,
                    unsigned elemBits, const LoweringInfo &info) {
  return getAccessVectorWidth(info.axisInfo, ptr, mask, layout,
                              std::max<unsigned>(elemBits / 8, 1), 16);
}

// One access of `vec` elements of `memType`: the PTX word layout.
struct AccessShape {
  unsigned wordBits; // 8, 16, 32 or 64
  unsigned words;    // 1, 2 or 4
  StringRef constraint() const {
    return wordBits == 64 ? "l" : wordBits == 32 ? "r" : "h";
  }
  std::string suffix() const {
    std::string s = words > 1 ? ".v" + std::to_string(words) : "";
    return s + (wordBits == 8 ? ".u8" : ".b" + std::to_string(wordBits));
  }
  Type wordType(MLIRContext *ctx) const {
    return IntegerType::get(ctx, wordBits == 8 ? 16 : wordBits);
  }
};

AccessShape accessShape(unsigned vec, unsigned elemBits) {
  unsigned total = vec * elemBits;
  unsigned wordBits = elemBits == 64 ? 64 : std::min(total, 32u);
  return {wordBits, total / wordBits};
}

std::string operandList(unsigned first, unsigned count) {
  std::string s = count > 1 ? "{ " : "";
  for (unsigned i = 0; i < count; ++i)
    s += (i ? ", $" : "$") + std::to_string(first + i);
  return s + (count > 1 ? " }" : "");
}

// Elements (lowered types) -> PTX words.
SmallVector<Value> toWords(RewriterBase &rewriter, Location loc,
                           ArrayRef<Value> elems, Type memType,
                           AccessShape shape) {
  MLIRContext *ctx = rewriter.getContext();
  auto vecType = VectorType::get({int64_t(elems.size())}, memType);
  Value v = LLVM::UndefOp::create(rewriter, loc, vecType);
  for (auto [i, e] : llvm::enumerate(elems)) {
    Value m = e;
    if (e.getType().isInteger(1))
      m = LLVM::ZExtOp::create(rewriter, loc, memType, e);
    else if (isa<LLVM::LLVMPointerType>(e.getType()))
      m = LLVM::PtrToIntOp::create(rewriter, loc, memType, e);
    v = LLVM::InsertElementOp::create(rewriter, loc, v, m,
                                      i32Constant(rewriter, loc, i));
  }
  unsigned wordBits = shape.wordBits;
  auto wordVecType = VectorType::get({int64_t(shape.words)},
                                     IntegerType::get(ctx, wordBits));
  Value words = LLVM::BitcastOp::create(rewriter, loc, wordVecType, v);
  SmallVector<Value> result;
  for (unsigned i = 0; i < shape.words; ++i) {
    Value w = LLVM::ExtractElementOp::create(rewriter, loc, words,
                                             i32Constant(rewriter, loc, i));
    if (wordBits == 8)
      w = LLVM::ZExtOp::create(rewriter, loc, shape.wordType(ctx), w);
    result.push_back(w);
  }
  return result;
}

// PTX words -> elements of `elemType` (the lowered element type).
SmallVector<Value> fromWords(RewriterBase &rewriter, Location loc,
                             ArrayRef<Value> words, Type elemType,
                             Type memType, unsigned vec, AccessShape shape) {
  MLIRContext *ctx = rewriter.getContext();
  auto wordVecType = VectorType::get({int64_t(shape.words)},
                                     IntegerType::get(ctx, shape.wordBits));
  Value wv = LLVM::UndefOp::create(rewriter, loc, wordVecType);
  for (auto [i, w] : llvm::enumerate(words)) {
    Value x = w;
    if (shape.wordBits == 8)
      x = LLVM::TruncOp::create(rewriter, loc, IntegerType::get(ctx, 8), w);
    wv = LLVM::InsertElementOp::create(rewriter, loc, wv, x,
                                       i32Constant(rewriter, loc, i));
  }
  Value v = LLVM::BitcastOp::create(
      rewriter, loc, VectorType::get({int64_t(vec)}, memType), wv);
  SmallVector<Value> elems;
  for (unsigned i = 0; i < vec; ++i) {
    Value e = LLVM::ExtractElementOp::create(rewriter, loc, v,
                                             i32Constant(rewriter, loc, i));
    if (elemType.isInteger(1))
      e = LLVM::TruncOp::create(rewriter, loc, elemType, e);
    else if (isa<LLVM::LLVMPointerType>(elemType))
      e = LLVM::IntToPtrOp::create(rewriter, loc, elemType, e);
    elems.push_back(e);
  }
  return elems;
}

// Registers whose index has a bit the layout ignores duplicate a lower one.
int32_t freeRegisterMask(const LinearLayout &layout) {
  for (auto &[dim, mask] : layout.getFreeVariableMasks())
    if (dim == "register")
      return mask;
  return 0;
}

struct AccessPlan {
  unsigned regs = 1;
  int64_t vec = 1;
  int32_t freeRegs = 0;     // stores: registers another one stores
  std::vector<int32_t> sameAs; // loads: the lowest register with the same element
  Value ownerPred; // for stores
};

FailureOr<AccessPlan> planAccess(Operation *op, Value ptr, Value mask,
                                 Type memType, bool isStore,
                                 ConversionPatternRewriter &rewriter,
                                 const LoweringInfo &info) {
  AccessPlan plan;
  auto tensorType = dyn_cast<RankedTensorType>(ptr.getType());
  if (!tensorType) {
    if (isStore) {
      // A scalar store is done by thread 0 alone.
      Value tid = getThreadId(rewriter, op->getLoc());
      plan.ownerPred = LLVM::ICmpOp::create(
          rewriter, op->getLoc(), LLVM::ICmpPredicate::eq, tid,
          i32Constant(rewriter, op->getLoc(), 0));
    }
    return plan;
  }
  auto layout = getDistributedLayout(tensorType, op->getLoc());
  if (failed(layout))
    return failure();
  plan.regs = layout->getInDimSize("register");
  plan.vec = vectorWidth(ptr, mask, *layout, bitWidth(memType), info);
  if (!isStore) {
    plan.sameAs = layout->getLowestSameImage("register");
    return plan;
  }
  plan.freeRegs = freeRegisterMask(*layout);
  plan.ownerPred = emitUniqueOwnerPredicate(rewriter, op->getLoc(), *layout,
                                              info.threadsPerWarp);
  return plan;
}

Value andPredicates(RewriterBase &rewriter, Location loc, Value a, Value b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return LLVM::AndOp::create(rewriter, loc, a, b);
}

struct LoadLowering : public ConvertOpToLLVMPattern<tt::LoadOp> {
  LoadLowering(TritonGPUToLLVMTypeConverter &converter,
               const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(tt::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isa<tt::PointerType>(getElementTypeOrSelf(op.getPtr().getType())) &&
        isa<RankedTensorType>(
            cast<tt::PointerType>(getElementTypeOrSelf(op.getPtr().getType()))
                .getPointeeType()))
      return op.emitError("loads through block pointers cannot be lowered");
    Location loc = op.getLoc();
    MLIRContext *ctx = getContext();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type elemType = getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getType()));
    if (!resultType || !elemType)
      return op.emitError("cannot lower ") << op.getType();
    Type memType = memoryType(ctx, elemType);
    auto plan = planAccess(op, op.getPtr(), op.getMask(), memType,
                           /*isStore=*/false, rewriter, info);
    if (failed(plan))
      return failure();
    SmallVector<Value> ptrs = unpackValues(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks, others;
    if (adaptor.getMask())
      masks = unpackValues(rewriter, loc, adaptor.getMask());
    if (adaptor.getOther())
      others = unpackValues(rewriter, loc, adaptor.getOther());
    auto at = [&](SmallVector<Value> &v, unsigned i) {
      return v.size() == 1 ? v.front() : v[i];
    };

    unsigned vec = plan->vec;
    AccessShape shape = accessShape(vec, bitWidth(memType));
    Type wordType = shape.wordType(ctx);
    SmallVector<Value> loaded(plan->regs);
    for (unsigned g = 0; g < plan->regs; g += vec) {
      bool copies = !plan->sameAs.empty(); // empty for a scalar load
      for (unsigned i = 0; copies && i < vec; ++i)
        copies &= plan->sameAs[g + i] != g + i;
      if (copies) {
        // Elements lower registers hold already: reuse them.
        for (unsigned i = 0; i < vec; ++i)
          loaded[g + i] = loaded[plan->sameAs[g + i]];
        continue;
      }
      Value pred = masks.empty() ? Value() : at(masks, g);
      SmallVector<Value> otherWords;
      if (pred) {
        SmallVector<Value> otherElems;
        for (unsigned i = 0; i < vec; ++i)
          otherElems.push_back(
              others.empty()
                  ? LLVM::ZeroOp::create(rewriter, loc, elemType).getResult()
                  : at(others, g + i));
        otherWords = toWords(rewriter, loc, otherElems, memType, shape);
      }
      // Operands: the words (outputs), the address, the predicate, `other`.
      unsigned n = shape.words;
      std::string asmText;
      std::string constraints;
      for (unsigned i = 0; i < n; ++i)
        constraints += (i ? ",=" : "=") + shape.constraint().str();
      constraints += ",l";
      SmallVector<Value> operands{at(ptrs, g)};
      if (pred) {
        constraints += ",b";
        operands.push_back(pred);
        std::string mov = shape.wordBits == 8 ? "mov.b16" : "mov.b" +
                                                std::to_string(shape.wordBits);
        for (unsigned i = 0; i < n; ++i) {
          asmText += llvm::formatv("{0} ${1}, ${2};\n\t", mov, i, n + 2 + i);
          constraints += "," + shape.constraint().str();
          operands.push_back(otherWords[i]);
        }
        asmText += llvm::formatv("@${0} ", n + 1);
      }
      asmText += llvm::formatv("ld.global{0} {1}, [ ${2} + 0 ];",
                               shape.suffix(), operandList(0, n), n);
      Type asmResult =
          n == 1 ? wordType
                 : LLVM::LLVMStructType::getLiteral(
                       ctx, SmallVector<Type>(n, wordType));
      auto inlineAsm = LLVM::InlineAsmOp::create(
          rewriter, loc, asmResult, operands, asmText, constraints,
          /*has_side_effects=*/false, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None, /*asm_dialect=*/nullptr,
          /*operand_attrs=*/nullptr);
      SmallVector<Value> words =
          n == 1 ? SmallVector<Value>{inlineAsm.getResult(0)}
                 : unpackValues(rewriter, loc, inlineAsm.getResult(0));
      SmallVector<Value> elems =
          fromWords(rewriter, loc, words, elemType, memType, vec, shape);
      for (unsigned i = 0; i < vec; ++i)
        loaded[g + i] = elems[i];
    }
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, loaded));
    return success();
  }

  LoweringInfo info;
};

struct StoreLowering : public ConvertOpToLLVMPattern<tt::StoreOp> {
  StoreLowering(TritonGPUToLLVMTypeConverter &converter,
                const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(tt::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = getContext();
    Type elemType = getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getValue().getType()));
    if (!elemType)
      return op.emitError("cannot lower ") << op.getValue().getType();
    if (isa<RankedTensorType>(
            tt::getPointeeType(getElementTypeOrSelf(op.getPtr().getType()))))
      return op.emitError("stores through block pointers cannot be lowered");
    Type memType = memoryType(ctx, elemType);
    auto plan = planAccess(op, op.getPtr(), op.getMask(), memType,
                           /*isStore=*/true, rewriter, info);
    if (failed(plan))
      return failure();
    SmallVector<Value> ptrs = unpackValues(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values = unpackValues(rewriter, loc, adaptor.getValue());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackValues(rewriter, loc, adaptor.getMask());
    auto at = [&](SmallVector<Value> &v, unsigned i) {
      return v.size() == 1 ? v.front() : v[i];
    };

    unsigned vec = plan->vec;
    AccessShape shape = accessShape(vec, bitWidth(memType));
    for (unsigned g = 0; g < plan->regs; g += vec) {
      if (plan->freeRegs && (g & plan->freeRegs))
        continue; // a duplicate of a lower register
      Value pred = andPredicates(rewriter, loc, plan->ownerPred,
                                 masks.empty() ? Value() : at(masks, g));
      SmallVector<Value> elems;
      for (unsigned i = 0; i < vec; ++i)
        elems.push_back(at(values, g + i));
      SmallVector<Value> words = toWords(rewriter, loc, elems, memType, shape);
      unsigned n = shape.words;
      std::string constraints = "l";
      SmallVector<Value> operands{at(ptrs, g)};
      std::string asmText;
      unsigned firstWord = 1;
      if (pred) {
        constraints += ",b";
        operands.push_back(pred);
        asmText += "@$1 ";
        firstWord = 2;
      }
      for (Value w : words) {
        constraints += "," + shape.constraint().str();
        operands.push_back(w);
      }
      asmText += llvm::formatv("st.global{0} [ $0 + 0 ], {1};", shape.suffix(),
                               operandList(firstWord, n));
      LLVM::InlineAsmOp::create(
          rewriter, loc, TypeRange{}, operands, asmText,
          constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None, /*asm_dialect=*/nullptr,
          /*operand_attrs=*/nullptr);
    }
    rewriter.eraseOp(op);
    return success();
  }

  LoweringInfo info;
};

} // namespace

void mlir::tgpu::populateLoadStoreOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<LoadLowering, StoreLowering>(converter, info);
}
