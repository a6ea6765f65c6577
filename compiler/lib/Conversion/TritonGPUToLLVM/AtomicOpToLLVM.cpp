// tt.atomic_rmw / tt.atomic_cas: predicated PTX `atom`s, in Triton's text,
// done by exactly one owner of each element (thread 0 for a scalar pointer;
// for tensors, the threads and registers the layout does not duplicate) so
// that no update happens twice. Floating-point adds of contiguous elements
// go as one .v2/.v4/.v8 atomic on sm_90 (PTX 8.1), as f16x2 words before.
// When the old values are used and other threads hold copies of an
// element, the owner publishes the old value in shared memory and every
// holder reads it back after a barrier.
//
// A scalar atomic add that cannot change memory (an integer 0, a float
// -0.0: LLVM's idempotent read-modify-writes) with acquire or relaxed order,
// whose old value is used, is a load of that order (nvg.ld_acquire), as
// Triton lowers the `atomic_add(p, 0)` of spin locks. Triton also takes a
// float +0.0, which does write: -0.0 + +0.0 is +0.0.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Analysis/AccessWidth.h"

#include "tgpu/Dialect/NVGPU/IR/Dialect.h"
#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;

namespace {

// The bits of an atomic's element (pointers are 64-bit words), 0 for a type
// no atomic takes.
unsigned elementBits(Type elem) {
  if (isa<LLVM::LLVMPointerType>(elem))
    return 64;
  return elem && elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 0;
}

// ".<op>[.vN].<type>" for atom, or nothing when PTX has no such atomic.
std::optional<std::string> rmwSuffix(tt::RMWOp op, Type elem, unsigned vec,
                                     unsigned packed) {
  unsigned bits = elementBits(elem);
  std::string v = vec > 1 ? ".v" + std::to_string(vec) : "";
  std::string b = ".b" + std::to_string(bits);
  std::string s = ".s" + std::to_string(bits), u = ".u" + std::to_string(bits);
  if (isa<FloatType>(elem)) {
    if (op == tt::RMWOp::FADD) {
      if (elem.isF32() || elem.isF64())
        return ".add" + v + (elem.isF32() ? ".f32" : ".f64");
      if (elem.isF16())
        return ".add.noftz" + v + (packed == 2 ? ".f16x2" : ".f16");
      if (elem.isBF16())
        return ".add.noftz" + v + ".bf16";
    }
    if (op == tt::RMWOp::XCHG && (bits == 32 || bits == 64))
      return ".exch" + b;
    return std::nullopt;
  }
  if (bits != 32 && bits != 64)
    return std::nullopt;
  switch (op) {
  case tt::RMWOp::AND:
    return ".and" + b;
  case tt::RMWOp::OR:
    return ".or" + b;
  case tt::RMWOp::XOR:
    return ".xor" + b;
  case tt::RMWOp::ADD:
    return ".add" + u;
  case tt::RMWOp::MAX:
    return ".max" + s;
  case tt::RMWOp::MIN:
    return ".min" + s;
  case tt::RMWOp::UMAX:
    return ".max" + u;
  case tt::RMWOp::UMIN:
    return ".min" + u;
  case tt::RMWOp::XCHG:
    return ".exch" + b;
  case tt::RMWOp::FADD:
    return std::nullopt;
  }
  return std::nullopt;
}

// The atomics one op issues: for every register, the lowest register of the
// thread with the same element (itself for the registers that issue the
// atomics: their free register bits are clear), a predicate selecting one
// thread per element, and how many consecutive registers one atomic covers.
struct AtomicPlan {
  unsigned regs = 1;
  std::vector<int32_t> sameAs{0};
  Value threadPred;
  // Threads other than the owner hold some element: the old values must go
  // through shared memory to reach them.
  bool sharedAcrossThreads = false;
  unsigned vec = 1;    // elements of one .v2/.v4/.v8 atomic
  unsigned packed = 1; // elements of one f16x2 word
};

// Vectorized atomics (atom.add.v4.f32, .noftz.v8.f16) exist from sm_90 and
// PTX 8.1 on, for floating-point add only; before, pairs of f16 can still go
// as one f16x2 word.
bool vectorizes(tt::RMWOp op, Type elem, const LoweringInfo &info) {
  return op == tt::RMWOp::FADD && info.computeCapability >= 90 &&
         (info.ptxVersion == 0 || info.ptxVersion >= 81) &&
         (elem.isF16() || elem.isBF16() || elem.isF32());
}

FailureOr<AtomicPlan> planAtomic(Operation *op, Value ptr, Value mask,
                                 std::optional<tt::RMWOp> rmw, Type elemType,
                                 ConversionPatternRewriter &rewriter,
                                 const LoweringInfo &info) {
  AtomicPlan plan;
  Location loc = op->getLoc();
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type) {
    plan.threadPred = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::eq, getThreadId(rewriter, loc),
        i32Constant(rewriter, loc, 0));
    plan.sharedAcrossThreads = true;
    return plan;
  }
  auto layout = getDistributedLayout(type, loc);
  if (failed(layout))
    return failure();
  plan.regs = layout->getInDimSize("register");
  plan.sameAs = layout->getLowestSameImage("register");
  for (auto &[dim, bits] : layout->getFreeVariableMasks())
    plan.sharedAcrossThreads |= dim != "register" && bits != 0;
  plan.threadPred =
      emitUniqueOwnerPredicate(rewriter, loc, *layout, info.threadsPerWarp);
  if (rmw && elemType.isIntOrFloat()) {
    unsigned bits = elemType.getIntOrFloatBitWidth();
    int64_t width = getAccessVectorWidth(info.axisInfo, ptr, mask, *layout,
                                         std::max(bits / 8, 1u), 16);
    if (vectorizes(*rmw, elemType, info))
      plan.vec = width;
    else if (*rmw == tt::RMWOp::FADD && elemType.isF16())
      plan.packed = std::min<int64_t>(width, 2);
  }
  return plan;
}

// 'h', 'r' or 'l': the PTX register of a `bits`-bit operand.
StringRef registerConstraint(unsigned bits) {
  return bits == 64 ? "l" : bits == 32 ? "r" : "h";
}

// One PTX atomic, as Triton writes it: every output zeroed first (what a
// thread whose predicate is false gets), then `@$pred <instr> dst, [ $addr +
// 0 ], args...`. Every arg is a list of `width` values (a .vN list when
// width > 1). Returns the old values, one per element.
SmallVector<Value> emitAtomicAsm(ConversionPatternRewriter &rewriter,
                                 Location loc, StringRef instr, Type elemType,
                                 unsigned vec, unsigned packed, Value ptr,
                                 ArrayRef<SmallVector<Value>> args,
                                 Value pred) {
  unsigned bits = elementBits(elemType);
  StringRef c = registerConstraint(bits * packed);
  std::string movBits = std::to_string(std::max(bits * packed, 16u));
  PtxAsmOperands operands;
  std::string text, dst;
  for (unsigned i = 0; i < vec; ++i) {
    unsigned n = operands.output(c);
    text += "mov.u" + movBits + " $" + std::to_string(n) + ", 0x0;\n\t";
  }
  dst = vec > 1 ? ptxOperandList(0, vec) : "$0";
  unsigned addr = operands.input(ptr, "l");
  std::string argText;
  for (ArrayRef<Value> arg : args) {
    if (packed > 1) {
      Value word = packVector(rewriter, loc, arg);
      argText += ", $" + std::to_string(operands.input(word, c));
      continue;
    }
    unsigned first = 0;
    for (auto [i, v] : llvm::enumerate(arg)) {
      unsigned n = operands.input(v, c);
      if (i == 0)
        first = n;
    }
    argText += ", " + (vec > 1 ? ptxOperandList(first, vec)
                               : "$" + std::to_string(first));
  }
  if (pred)
    text += "@$" + std::to_string(operands.input(pred, "b")) + " ";
  text += llvm::formatv("{0} {1}, [ ${2} + 0 ]{3};", instr, dst, addr, argText)
              .str();
  Type result = elemType;
  if (vec > 1)
    result = LLVM::LLVMStructType::getLiteral(rewriter.getContext(),
                                              SmallVector<Type>(vec, elemType));
  else if (packed > 1)
    result = VectorType::get({packed}, elemType);
  Value old = createPtxAsm(rewriter, loc, result, operands, text).getResult(0);
  SmallVector<Value> olds;
  for (unsigned i = 0; i < vec * packed; ++i) {
    if (vec > 1)
      olds.push_back(LLVM::ExtractValueOp::create(rewriter, loc, old, i));
    else if (packed > 1)
      olds.push_back(LLVM::ExtractElementOp::create(
          rewriter, loc, old, i32Constant(rewriter, loc, i)));
    else
      olds.push_back(old);
  }
  return olds;
}

// PTX's atom.add.noftz.bf16 needs sm_90: before, LLVM's atomicrmw (a
// compare-and-swap loop in NVPTX), branched around where `pred` is false.
Value emitBf16AtomicAddLoop(ConversionPatternRewriter &rewriter, Location loc,
                            Value ptr, Value val, Value pred,
                            tt::MemSemantic sem, tt::MemSyncScope scope) {
  LLVM::AtomicOrdering ordering = LLVM::AtomicOrdering::monotonic;
  switch (sem) {
  case tt::MemSemantic::RELAXED:
    break;
  case tt::MemSemantic::ACQUIRE:
    ordering = LLVM::AtomicOrdering::acquire;
    break;
  case tt::MemSemantic::RELEASE:
    ordering = LLVM::AtomicOrdering::release;
    break;
  case tt::MemSemantic::ACQUIRE_RELEASE:
    ordering = LLVM::AtomicOrdering::acq_rel;
    break;
  }
  StringRef syncScope = scope == tt::MemSyncScope::CTA   ? "block"
                        : scope == tt::MemSyncScope::GPU ? "device"
                                                         : "";
  Type type = val.getType();
  Value zero = LLVM::ZeroOp::create(rewriter, loc, type);
  if (!pred)
    return LLVM::AtomicRMWOp::create(rewriter, loc, LLVM::AtomicBinOp::fadd,
                                     ptr, val, ordering, syncScope);
  Block *current = rewriter.getInsertionBlock();
  Block *after = rewriter.splitBlock(current, rewriter.getInsertionPoint());
  Value result = after->addArgument(type, loc);
  Block *atomic = rewriter.createBlock(after);
  rewriter.setInsertionPointToEnd(current);
  LLVM::CondBrOp::create(rewriter, loc, pred, atomic, ValueRange{}, after,
                         ValueRange{zero});
  rewriter.setInsertionPointToEnd(atomic);
  Value old = LLVM::AtomicRMWOp::create(rewriter, loc, LLVM::AtomicBinOp::fadd,
                                        ptr, val, ordering, syncScope);
  LLVM::BrOp::create(rewriter, loc, ValueRange{old}, after);
  rewriter.setInsertionPointToStart(after);
  return result;
}

// `@$2 st.shared.b<bits> [ $0 + 0 ], $1;`
void storeSharedIf(ConversionPatternRewriter &rewriter, Location loc,
                   Value slot, Value value, Value pred) {
  Type type = value.getType();
  unsigned bits = elementBits(type);
  if (!type.isInteger())
    value = isa<LLVM::LLVMPointerType>(type)
                ? Value(LLVM::PtrToIntOp::create(
                      rewriter, loc, rewriter.getIntegerType(bits), value))
                : Value(LLVM::BitcastOp::create(
                      rewriter, loc, rewriter.getIntegerType(bits), value));
  PtxAsmOperands operands;
  unsigned addr = operands.input(slot, "r");
  unsigned val = operands.input(value, registerConstraint(bits));
  std::string text =
      llvm::formatv("st.shared.b{0} [ ${1} + 0 ], ${2};", bits, addr, val);
  if (pred)
    text = "@$" + std::to_string(operands.input(pred, "b")) + " " + text;
  createPtxAsm(rewriter, loc, TypeRange{}, operands, text);
}

// Issues the atomics (`emit` does one group of registers, given its first
// register and predicate, and returns the group's old values) and replaces
// `op` with the old values, handed to every thread that holds them.
template <typename OpT, typename EmitFn>
LogicalResult lowerAtomic(OpT op, const AtomicPlan &plan, ArrayRef<Value> masks,
                          Type elemType, ConversionPatternRewriter &rewriter,
                          const TypeConverter *converter,
                          const LoweringInfo &info, EmitFn emit) {
  Location loc = op.getLoc();
  unsigned width = plan.vec * plan.packed;
  SmallVector<Value> old(plan.regs);
  for (unsigned r = 0; r < plan.regs; r += width) {
    if (plan.sameAs[r] != int32_t(r))
      continue; // filled from the owner registers below
    Value pred = plan.threadPred;
    if (!masks.empty()) {
      Value m = masks.size() == 1 ? masks.front() : masks[r];
      pred = pred ? Value(LLVM::AndOp::create(rewriter, loc, pred, m)) : m;
    }
    SmallVector<Value> group = emit(r, pred);
    for (unsigned i = 0; i < width; ++i)
      old[r + i] = group[i];
  }
  for (unsigned r = 0; r < plan.regs; ++r)
    if (!old[r])
      old[r] = old[plan.sameAs[r]];

  if (!op->use_empty() && plan.sharedAcrossThreads) {
    // The owners publish the old values; every holder reads them back.
    auto ptr3 = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
    Value base = getSharedMemoryBase(rewriter, op);
    auto tensor = dyn_cast<RankedTensorType>(op.getPtr().getType());
    SmallVector<SmallVector<Value>> indices;
    if (tensor) {
      auto layout = getDistributedLayout(tensor, loc);
      if (failed(layout))
        return failure();
      indices = emitIndices(rewriter, loc, *layout, info.threadsPerWarp);
    } else {
      indices.push_back({i32Constant(rewriter, loc, 0)});
    }
    SmallVector<int64_t> shape =
        tensor ? SmallVector<int64_t>(tensor.getShape())
               : SmallVector<int64_t>{1};
    SmallVector<Value> slots;
    for (unsigned r = 0; r < plan.regs; ++r)
      slots.push_back(LLVM::GEPOp::create(
          rewriter, loc, ptr3, elemType, base,
          ValueRange{linearize(rewriter, loc, indices[r], shape)}));
    for (unsigned r = 0; r < plan.regs; ++r)
      if (plan.sameAs[r] == int32_t(r))
        storeSharedIf(rewriter, loc, slots[r], old[r], plan.threadPred);
    NVVM::Barrier0Op::create(rewriter, loc);
    for (unsigned r = 0; r < plan.regs; ++r)
      old[r] = LLVM::LoadOp::create(rewriter, loc, elemType, slots[r]);
  }

  Type resultType = converter->convertType(op.getType());
  if (!resultType)
    return op.emitError("cannot lower ") << op.getType();
  rewriter.replaceOp(op, packValues(rewriter, loc, resultType, old));
  return success();
}

// The order and scope of the load that does what `op` does, when `op` is a
// scalar add of its operation's identity (see the top of the file).
std::optional<
    std::pair<triton::nvgpu::MemSemantic, triton::nvgpu::MemSyncScope>>
identityAddAsLoad(tt::AtomicRMWOp op) {
  namespace nvg = triton::nvgpu;
  // An unused result keeps the atomic: a load nobody reads is dead code,
  // and removing it would lose the acquire order (Triton drops it).
  if (isa<RankedTensorType>(op.getType()) || op->use_empty())
    return std::nullopt;
  auto constant = op.getVal().getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return std::nullopt;
  bool identity = false;
  if (op.getAtomicRmwOp() == tt::RMWOp::ADD)
    if (auto v = dyn_cast<IntegerAttr>(constant.getValue()))
      identity = v.getValue().isZero();
  if (op.getAtomicRmwOp() == tt::RMWOp::FADD)
    if (auto v = dyn_cast<FloatAttr>(constant.getValue()))
      identity = v.getValue().isNegZero();
  if (!identity)
    return std::nullopt;
  std::optional<nvg::MemSemantic> sem;
  if (op.getSem() == tt::MemSemantic::ACQUIRE)
    sem = nvg::MemSemantic::ACQUIRE;
  else if (op.getSem() == tt::MemSemantic::RELAXED)
    sem = nvg::MemSemantic::RELAXED;
  std::optional<nvg::MemSyncScope> scope;
  if (op.getScope() == tt::MemSyncScope::CTA)
    scope = nvg::MemSyncScope::CTA;
  else if (op.getScope() == tt::MemSyncScope::GPU)
    scope = nvg::MemSyncScope::GPU;
  else if (op.getScope() == tt::MemSyncScope::SYSTEM)
    scope = nvg::MemSyncScope::SYSTEM;
  if (!sem || !scope)
    return std::nullopt;
  return std::make_pair(*sem, *scope);
}

struct AtomicRMWLowering : public ConvertOpToLLVMPattern<tt::AtomicRMWOp> {
  AtomicRMWLowering(TritonGPUToLLVMTypeConverter &converter,
                    const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}
  LogicalResult
  matchAndRewrite(tt::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tt::RMWOp kind = op.getAtomicRmwOp();
    Type elemType =
        getTypeConverter()->convertType(getElementTypeOrSelf(op.getType()));
    if (!elemType || !rmwSuffix(kind, elemType, 1, 1))
      return op.emitError("PTX has no atomic ")
             << tt::stringifyRMWOp(kind) << " on "
             << getElementTypeOrSelf(op.getType());
    auto plan = planAtomic(op, op.getPtr(), op.getMask(), kind, elemType,
                           rewriter, info);
    if (failed(plan))
      return failure();
    std::string suffix = *rmwSuffix(kind, elemType, plan->vec, plan->packed);
    std::string instr =
        ("atom.global." + tt::stringifyMemSyncScope(op.getScope()) + "." +
         tt::stringifyMemSemantic(op.getSem()) + suffix)
            .str();
    bool bf16Loop = kind == tt::RMWOp::FADD && elemType.isBF16() &&
                    info.computeCapability < 90;
    SmallVector<Value> ptrs = unpackValues(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> vals = unpackValues(rewriter, loc, adaptor.getVal());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackValues(rewriter, loc, adaptor.getMask());
    unsigned width = plan->vec * plan->packed;
    auto asLoad = identityAddAsLoad(op);
    auto emit = [&](unsigned r, Value pred) -> SmallVector<Value> {
      if (asLoad)
        return {triton::nvgpu::LoadAcquireOp::create(
            rewriter, loc, elemType, ptrs[r], pred, asLoad->first,
            asLoad->second)};
      if (bf16Loop)
        return {emitBf16AtomicAddLoop(rewriter, loc, ptrs[r], vals[r], pred,
                                      op.getSem(), op.getScope())};
      SmallVector<Value> args(vals.begin() + (vals.size() == 1 ? 0 : r),
                              vals.begin() +
                                  (vals.size() == 1 ? 1 : r + width));
      return emitAtomicAsm(rewriter, loc, instr, elemType, plan->vec,
                           plan->packed, ptrs[r], {args}, pred);
    };
    return lowerAtomic(op, *plan, masks, elemType, rewriter, getTypeConverter(),
                       info, emit);
  }
  LoweringInfo info;
};

struct AtomicCASLowering : public ConvertOpToLLVMPattern<tt::AtomicCASOp> {
  AtomicCASLowering(TritonGPUToLLVMTypeConverter &converter,
                    const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}
  LogicalResult
  matchAndRewrite(tt::AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elemType =
        getTypeConverter()->convertType(getElementTypeOrSelf(op.getType()));
    unsigned bits = elementBits(elemType);
    if (bits != 32 && bits != 64)
      return op.emitError("PTX has no atomic compare-and-swap on ")
             << getElementTypeOrSelf(op.getType());
    // Triton orders the qualifiers of cas as semantics, then scope.
    std::string instr =
        ("atom.global." + tt::stringifyMemSemantic(op.getSem()) + "." +
         tt::stringifyMemSyncScope(op.getScope()) + ".cas.b" +
         std::to_string(bits))
            .str();
    auto plan = planAtomic(op, op.getPtr(), Value(), std::nullopt, elemType,
                           rewriter, info);
    if (failed(plan))
      return failure();
    SmallVector<Value> ptrs = unpackValues(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> cmps = unpackValues(rewriter, loc, adaptor.getCmp());
    SmallVector<Value> vals = unpackValues(rewriter, loc, adaptor.getVal());
    auto at = [](ArrayRef<Value> v, unsigned i) {
      return v.size() == 1 ? v.front() : v[i];
    };
    auto emit = [&](unsigned r, Value pred) -> SmallVector<Value> {
      SmallVector<Value> cmp{at(cmps, r)}, val{at(vals, r)};
      return emitAtomicAsm(rewriter, loc, instr, elemType, 1, 1, at(ptrs, r),
                           {cmp, val}, pred);
    };
    return lowerAtomic(op, *plan, {}, elemType, rewriter, getTypeConverter(),
                       info, emit);
  }
  LoweringInfo info;
};

} // namespace

int64_t mlir::tgpu::getAtomicScratchBytes(Operation *op) {
  if (!isa<tt::AtomicRMWOp, tt::AtomicCASOp>(op) || op->use_empty())
    return 0;
  Type type = op->getResult(0).getType();
  int64_t bytes = memoryElementBytes(type);
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return bytes;
  // Only old values that other threads hold go through shared memory.
  if (!tensor.getEncoding())
    return 0;
  auto layout =
      ::tgpu::layout::toLinearLayout(tensor.getShape(), tensor.getEncoding());
  if (!layout) {
    llvm::consumeError(layout.takeError());
    return 0;
  }
  for (auto &[dim, bits] : layout->getFreeVariableMasks())
    if (dim != "register" && bits != 0)
      return tensor.getNumElements() * bytes;
  return 0;
}

void mlir::tgpu::populateAtomicOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<AtomicRMWLowering, AtomicCASLowering>(converter, info);
}
