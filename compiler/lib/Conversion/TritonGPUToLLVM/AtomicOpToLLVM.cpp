// tt.atomic_rmw / tt.atomic_cas: one predicated PTX `atom` per element,
// done by exactly one owner of the element (thread 0 for a scalar pointer;
// for tensors, the threads and registers the layout does not duplicate) so
// that no update happens twice. When the old values are used and other
// threads hold copies of an element, the owner publishes the old value in
// shared memory and every holder reads it back after a barrier.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;

namespace {

StringRef semanticSuffix(tt::MemSemantic sem) {
  switch (sem) {
  case tt::MemSemantic::RELAXED:
    return ".relaxed";
  case tt::MemSemantic::ACQUIRE:
    return ".acquire";
  case tt::MemSemantic::RELEASE:
    return ".release";
  case tt::MemSemantic::ACQUIRE_RELEASE:
    return ".acq_rel";
  }
  return ".relaxed";
}

StringRef scopeSuffix(tt::MemSyncScope scope) {
  switch (scope) {
  case tt::MemSyncScope::GPU:
    return ".gpu";
  case tt::MemSyncScope::CTA:
    return ".cta";
  case tt::MemSyncScope::SYSTEM:
    return ".sys";
  }
  return ".gpu";
}

// "<op>.<type>" for atom, or nothing when PTX has no such atomic.
std::optional<std::string> rmwSuffix(tt::RMWOp op, Type elem) {
  unsigned bits = isa<LLVM::LLVMPointerType>(elem)
                      ? 64
                      : elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 0;
  bool isFloat = isa<FloatType>(elem);
  std::string b = ".b" + std::to_string(bits);
  std::string s = ".s" + std::to_string(bits), u = ".u" + std::to_string(bits);
  if (isFloat) {
    if (op == tt::RMWOp::FADD) {
      if (elem.isF32() || elem.isF64())
        return ".add" + std::string(elem.isF32() ? ".f32" : ".f64");
      if (elem.isF16())
        return std::string(".add.noftz.f16");
      if (elem.isBF16())
        return std::string(".add.noftz.bf16");
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

StringRef constraintFor(Type elem) {
  if (isa<LLVM::LLVMPointerType>(elem))
    return "l";
  unsigned bits = elem.getIntOrFloatBitWidth();
  return bits == 64 ? "l" : bits == 32 ? "r" : "h";
}

// For every register, the lowest register of the thread with the same element
// (itself for the register that does the atomic: its free register bits are
// clear), and a predicate selecting one thread per element.
struct Owners {
  unsigned regs = 1;
  std::vector<int32_t> sameAs{0};
  Value threadPred;
  bool duplicated = false; // some element lives in more than one place
};

FailureOr<Owners> findOwners(Operation *op, Value ptr,
                             ConversionPatternRewriter &rewriter,
                             const LoweringInfo &info) {
  Owners owners;
  Location loc = op->getLoc();
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type) {
    owners.threadPred =
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                             getThreadId(rewriter, loc),
                             i32Constant(rewriter, loc, 0));
    owners.duplicated = info.numWarps * info.threadsPerWarp > 1;
    return owners;
  }
  auto layout = getDistributedLayout(type, loc);
  if (failed(layout))
    return failure();
  owners.regs = layout->getInDimSize("register");
  owners.sameAs = layout->getLowestSameImage("register");
  for (auto &[dim, mask] : layout->getFreeVariableMasks())
    owners.duplicated |= mask != 0;
  owners.threadPred = emitUniqueOwnerPredicate(rewriter, loc, *layout,
                                               info.threadsPerWarp);
  return owners;
}

// Emits the atomics and returns the old values, per register.
template <typename OpT>
LogicalResult lowerAtomic(OpT op, ArrayRef<Value> ptrs,
                          ArrayRef<ArrayRef<Value>> args,
                          ArrayRef<Value> masks, const std::string &instr,
                          Type elemType, ConversionPatternRewriter &rewriter,
                          const TypeConverter *converter,
                          const LoweringInfo &info) {
  Location loc = op.getLoc();
  auto owners = findOwners(op, op.getPtr(), rewriter, info);
  if (failed(owners))
    return failure();
  StringRef c = constraintFor(elemType);
  unsigned bits = isa<LLVM::LLVMPointerType>(elemType)
                      ? 64
                      : elemType.getIntOrFloatBitWidth();
  auto at = [](ArrayRef<Value> v, unsigned i) {
    return v.size() == 1 ? v.front() : v[i];
  };
  SmallVector<Value> old(owners->regs);
  for (unsigned r = 0; r < owners->regs; ++r) {
    if (owners->sameAs[r] != int32_t(r))
      continue; // filled from the owner register below
    Value pred = owners->threadPred;
    if (!masks.empty())
      pred = pred ? Value(LLVM::AndOp::create(rewriter, loc, pred,
                                              at(masks, r)))
                  : at(masks, r);
    // $0 old value, $1 address, [$2 predicate], then the operands.
    std::string constraints = ("=" + c + ",l").str();
    SmallVector<Value> operands{at(ptrs, r)};
    std::string text;
    unsigned next = 2;
    if (pred) {
      constraints += ",b";
      operands.push_back(pred);
      text = llvm::formatv("mov.b{0} $0, 0;\n\t@$2 ", bits == 16 ? 16 : bits);
      next = 3;
    }
    text += instr + " $0, [ $1 + 0 ]";
    for (ArrayRef<Value> arg : args) {
      text += llvm::formatv(", ${0}", next++);
      constraints += ("," + c).str();
      operands.push_back(at(arg, r));
    }
    text += ";";
    old[r] = LLVM::InlineAsmOp::create(
                 rewriter, loc, elemType, operands, text, constraints,
                 /*has_side_effects=*/true, /*is_align_stack=*/false,
                 LLVM::tailcallkind::TailCallKind::None,
                 /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr)
                 .getResult(0);
  }
  for (unsigned r = 0; r < owners->regs; ++r)
    if (!old[r])
      old[r] = old[owners->sameAs[r]];

  if (!op->use_empty() && owners->duplicated && owners->threadPred) {
    // Hand the owners' old values to every thread holding the element.
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
    for (unsigned r = 0; r < owners->regs; ++r)
      slots.push_back(LLVM::GEPOp::create(
          rewriter, loc, ptr3, elemType, base,
          ValueRange{linearize(rewriter, loc, indices[r], shape)}));
    // Only owners write their slot; the other threads write a spare slot
    // past the end, where their races do not matter.
    int64_t numel = 1;
    for (int64_t n : shape)
      numel *= n;
    Value spare = LLVM::GEPOp::create(rewriter, loc, ptr3, elemType, base,
                                      ValueRange{i32Constant(rewriter, loc,
                                                             int32_t(numel))});
    for (unsigned r = 0; r < owners->regs; ++r) {
      if (owners->sameAs[r] != int32_t(r))
        continue;
      Value target = LLVM::SelectOp::create(rewriter, loc, owners->threadPred,
                                            slots[r], spare);
      LLVM::StoreOp::create(rewriter, loc, old[r], target);
    }
    NVVM::Barrier0Op::create(rewriter, loc);
    for (unsigned r = 0; r < owners->regs; ++r)
      old[r] = LLVM::LoadOp::create(rewriter, loc, elemType, slots[r]);
  }

  Type resultType = converter->convertType(op.getType());
  if (!resultType)
    return op.emitError("cannot lower ") << op.getType();
  rewriter.replaceOp(op, packValues(rewriter, loc, resultType, old));
  return success();
}

struct AtomicRMWLowering : public ConvertOpToLLVMPattern<tt::AtomicRMWOp> {
  AtomicRMWLowering(TritonGPUToLLVMTypeConverter &converter,
                    const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}
  LogicalResult
  matchAndRewrite(tt::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elemType =
        getTypeConverter()->convertType(getElementTypeOrSelf(op.getType()));
    auto suffix = rmwSuffix(op.getAtomicRmwOp(), elemType);
    if (!elemType || !suffix)
      return op.emitError("PTX has no atomic ")
             << tt::stringifyRMWOp(op.getAtomicRmwOp()) << " on "
             << getElementTypeOrSelf(op.getType());
    std::string instr = ("atom" + semanticSuffix(op.getSem()) +
                         scopeSuffix(op.getScope()) + ".global" + *suffix)
                            .str();
    SmallVector<Value> ptrs = unpackValues(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> vals = unpackValues(rewriter, loc, adaptor.getVal());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackValues(rewriter, loc, adaptor.getMask());
    return lowerAtomic(op, ptrs, {vals}, masks, instr, elemType, rewriter,
                       getTypeConverter(), info);
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
    unsigned bits =
        !elemType ? 0
        : isa<LLVM::LLVMPointerType>(elemType)
            ? 64
            : elemType.isIntOrFloat() ? elemType.getIntOrFloatBitWidth() : 0;
    if (bits != 32 && bits != 64)
      return op.emitError("PTX has no atomic compare-and-swap on ")
             << getElementTypeOrSelf(op.getType());
    std::string instr = ("atom" + semanticSuffix(op.getSem()) +
                         scopeSuffix(op.getScope()) + ".global.cas.b" +
                         std::to_string(bits))
                            .str();
    SmallVector<Value> ptrs = unpackValues(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> cmps = unpackValues(rewriter, loc, adaptor.getCmp());
    SmallVector<Value> vals = unpackValues(rewriter, loc, adaptor.getVal());
    return lowerAtomic(op, ptrs, {cmps, vals}, {}, instr, elemType, rewriter,
                       getTypeConverter(), info);
  }
  LoweringInfo info;
};

} // namespace

int64_t mlir::tgpu::getAtomicScratchBytes(Operation *op) {
  if (!isa<tt::AtomicRMWOp, tt::AtomicCASOp>(op) || op->use_empty())
    return 0;
  Type type = op->getResult(0).getType();
  int64_t bytes = memoryElementBytes(type);
  // The elements, and a spare slot for the threads that do not own one.
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return (tensor.getNumElements() + 1) * bytes;
  return 2 * bytes;
}

void mlir::tgpu::populateAtomicOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<AtomicRMWLowering, AtomicCASLowering>(converter, info);
}
