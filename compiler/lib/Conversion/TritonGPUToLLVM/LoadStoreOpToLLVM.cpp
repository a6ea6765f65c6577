// tt.load / tt.store on global memory. Registers that hold consecutive
// elements (the layout's first register bases running along one dim) are
// accessed together, up to 128 bits, when AxisInfo proves the pointers that
// contiguous and aligned and the mask constant over the group. Each access is
// one predicated PTX ld/st: masked-off lanes keep `other` (or 0) and do not
// touch memory, and a store is done by one owner of each element only.
//
// The inline asm reads as Triton's does (operands numbered in the order
// outputs, `other`, address, L2 policy, predicate; `mov` of `other` or 0
// into every output first), and like Triton's it has side effects: a load
// must not be merged with an earlier load of the same address across a
// store to it, which LLVM would do to asm it takes for a pure function.
// Cache modifiers and eviction priorities become PTX qualifiers; an L2
// priority also takes a `createpolicy` register (sm_80 and newer).
#include "tgpu/Analysis/AccessWidth.h"
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringExtras.h"
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
  // NVPTX's 'c' is a 16-bit register that also carries an i8.
  StringRef constraint() const {
    return wordBits == 64 ? "l" : wordBits == 32 ? "r" : "c";
  }
  std::string suffix() const {
    std::string s = words > 1 ? ".v" + std::to_string(words) : "";
    return s + ".b" + std::to_string(wordBits);
  }
  // PTX has no 8-bit mov: bytes move through 16-bit registers.
  unsigned movBits() const { return std::max(wordBits, 16u); }
  Type wordType(MLIRContext *ctx) const {
    return IntegerType::get(ctx, wordBits);
  }
};

AccessShape accessShape(unsigned vec, unsigned elemBits) {
  unsigned total = vec * elemBits;
  unsigned wordBits = elemBits == 64 ? 64 : std::min(total, 32u);
  return {wordBits, total / wordBits};
}

// A register with an L2 eviction priority for every line an access touches
// (`createpolicy.fractional` with fraction 1.0), or null where the access
// asks for none or the target (before sm_80) has no L2 cache hints.
Value createL2Policy(RewriterBase &rewriter, Location loc,
                     tt::EvictionPolicy evict, int computeCapability) {
  if (computeCapability < 80 || evict == tt::EvictionPolicy::NORMAL)
    return Value();
  StringRef priority =
      evict == tt::EvictionPolicy::EVICT_FIRST ? "evict_first" : "evict_last";
  PtxAsmOperands operands;
  operands.output("l");
  std::string text = llvm::formatv("mov.u64 $0, 0x0;\n\tcreatepolicy."
                                   "fractional.L2::{0}.b64 $0, 1.0;",
                                   priority);
  return createPtxAsm(rewriter, loc, rewriter.getI64Type(), operands, text)
      .getResult(0);
}

// PTX qualifiers for a cache modifier and an eviction priority. PTX has two
// forms of ld/st: one takes a cache operator, the other L1 eviction
// priorities, and ld.volatile takes neither; `.L2::cache_hint` goes with
// either of the first two.
FailureOr<std::string> cacheQualifiers(Operation *op, bool isVolatile,
                                       tt::CacheModifier cache,
                                       tt::EvictionPolicy evict, bool isStore) {
  using CM = tt::CacheModifier;
  std::string cop;
  switch (cache) {
  case CM::CA:
  case CM::CV:
    if (!isStore)
      cop = cache == CM::CA ? ".ca" : ".cv";
    break;
  case CM::WB:
  case CM::WT:
    if (isStore)
      cop = cache == CM::WB ? ".wb" : ".wt";
    break;
  case CM::CG:
    cop = ".cg";
    break;
  case CM::CS:
    cop = ".cs";
    break;
  case CM::NONE:
    break;
  }
  // A modifier that does not apply to the access (a load's .wb, a store's
  // .ca) is left out, as Triton leaves it out.
  bool hinted = evict != tt::EvictionPolicy::NORMAL;
  if (isVolatile && (!cop.empty() || hinted))
    return op->emitError("a volatile load takes no cache modifier or "
                         "eviction policy: PTX ld.volatile has neither");
  if (!cop.empty() && hinted)
    return op->emitError("cache modifier ")
           << tt::stringifyCacheModifier(cache)
           << " cannot go with eviction policy "
           << tt::stringifyEvictionPolicy(evict)
           << ": PTX has no access with both a cache operator and an L1 "
              "eviction priority";
  if (evict == tt::EvictionPolicy::EVICT_FIRST)
    return cop + ".L1::evict_first";
  if (evict == tt::EvictionPolicy::EVICT_LAST)
    return cop + ".L1::evict_last";
  return cop;
}

// The splat integer constant `other` is, as the bits of one `movBits` mov
// (the element repeated), or nothing.
std::optional<uint64_t> splatOtherImmediate(Value other, Type memType,
                                            unsigned movBits) {
  DenseElementsAttr attr;
  if (!other || !isa<IntegerType>(memType) ||
      !matchPattern(other, m_Constant(&attr)) || !attr.isSplat() ||
      !isa<IntegerType>(attr.getElementType()))
    return std::nullopt;
  unsigned elemBits = memType.getIntOrFloatBitWidth();
  uint64_t elem =
      attr.getSplatValue<APInt>().zextOrTrunc(elemBits).getZExtValue();
  uint64_t bits = 0;
  for (unsigned s = 0; s < movBits; s += elemBits)
    bits |= elem << s;
  return bits;
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
    result.push_back(LLVM::ExtractElementOp::create(
        rewriter, loc, words, i32Constant(rewriter, loc, i)));
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
  for (auto [i, w] : llvm::enumerate(words))
    wv = LLVM::InsertElementOp::create(rewriter, loc, wv, w,
                                       i32Constant(rewriter, loc, i));
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

    FailureOr<std::string> qualifiers =
        cacheQualifiers(op, op.getIsVolatile(), op.getCache(), op.getEvict(),
                        /*isStore=*/false);
    if (failed(qualifiers))
      return failure();
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
      Value policy =
          createL2Policy(rewriter, loc, op.getEvict(), info.computeCapability);
      unsigned n = shape.words;
      PtxAsmOperands operands;
      for (unsigned i = 0; i < n; ++i)
        operands.output(shape.constraint());
      // Every output starts as `other` (0 without one): what a masked-off
      // lane keeps.
      std::string asmText;
      std::string mov = "mov.u" + std::to_string(shape.movBits());
      std::optional<uint64_t> immediate;
      SmallVector<Value> otherWords;
      if (!others.empty()) {
        immediate =
            splatOtherImmediate(op.getOther(), memType, shape.movBits());
        if (!immediate) {
          SmallVector<Value> otherElems;
          for (unsigned i = 0; i < vec; ++i)
            otherElems.push_back(at(others, g + i));
          otherWords = toWords(rewriter, loc, otherElems, memType, shape);
        }
      } else {
        immediate = 0;
      }
      for (unsigned i = 0; i < n; ++i) {
        std::string source =
            immediate ? "0x" + llvm::utohexstr(*immediate, /*LowerCase=*/true)
                      : "$" + std::to_string(operands.input(
                                  otherWords[i], shape.constraint()));
        asmText += llvm::formatv("{0} ${1}, {2};\n\t", mov, i, source);
      }
      unsigned addr = operands.input(at(ptrs, g), "l");
      std::string suffix;
      if (policy)
        suffix = ", $" + std::to_string(operands.input(policy, "l"));
      if (pred)
        asmText += "@$" + std::to_string(operands.input(pred, "b")) + " ";
      asmText +=
          llvm::formatv("ld{0}.global{1}{2}{3} {4}, [ ${5} + 0 ]{6};",
                        op.getIsVolatile() ? ".volatile" : "", *qualifiers,
                        policy ? ".L2::cache_hint" : "", shape.suffix(),
                        ptxOperandList(0, n), addr, suffix);
      Type asmResult =
          n == 1 ? wordType
                 : LLVM::LLVMStructType::getLiteral(
                       ctx, SmallVector<Type>(n, wordType));
      auto inlineAsm =
          createPtxAsm(rewriter, loc, asmResult, operands, asmText);
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

    FailureOr<std::string> qualifiers =
        cacheQualifiers(op, /*isVolatile=*/false, op.getCache(), op.getEvict(),
                        /*isStore=*/true);
    if (failed(qualifiers))
      return failure();
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
      PtxAsmOperands operands;
      for (Value w : words)
        operands.input(w, shape.constraint());
      unsigned addr = operands.input(at(ptrs, g), "l");
      Value policy =
          createL2Policy(rewriter, loc, op.getEvict(), info.computeCapability);
      std::string suffix;
      if (policy)
        suffix = ", $" + std::to_string(operands.input(policy, "l"));
      std::string asmText;
      if (pred)
        asmText = "@$" + std::to_string(operands.input(pred, "b")) + " ";
      asmText +=
          llvm::formatv("st.global{0}{1}{2} [ ${3} + 0 ], {4}{5};", *qualifiers,
                        policy ? ".L2::cache_hint" : "", shape.suffix(), addr,
                        ptxOperandList(0, shape.words), suffix);
      createPtxAsm(rewriter, loc, TypeRange{}, operands, asmText);
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
