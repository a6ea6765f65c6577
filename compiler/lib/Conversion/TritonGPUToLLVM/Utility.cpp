// Type conversion, struct packing and LinearLayout-driven index arithmetic
// for the TTGIR -> LLVM lowering.
#include "tgpu/Conversion/TritonGPUToLLVM/Utility.h"

#include "tgpu/Analysis/Allocation.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Layout/BasisRuns.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

FailureOr<LinearLayout> mlir::tgpu::getDistributedLayout(RankedTensorType type,
                                                         Location loc) {
  Attribute enc = type.getEncoding();
  if (!enc || !ttg::isDistributedEncoding(enc))
    return emitError(loc) << "expected a tensor with a distributed layout, got "
                          << type;
  auto layout = ::tgpu::layout::toLinearLayout(type.getShape(), enc);
  if (!layout)
    return emitError(loc) << "cannot lower " << type << ": "
                          << llvm::toString(layout.takeError());
  return std::move(*layout);
}

TritonGPUToLLVMTypeConverter::TritonGPUToLLVMTypeConverter(
    MLIRContext *ctx, const LowerToLLVMOptions &options)
    : LLVMTypeConverter(ctx, options) {
  addConversion([ctx](tt::PointerType type) -> Type {
    return LLVM::LLVMPointerType::get(ctx, type.getAddressSpace());
  });
  // A shared-memory buffer (or view) is the address of its element at
  // offset 0 of its layout.
  addConversion([ctx](ttg::MemDescType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, 3);
  });
  // A tensor descriptor is the address of its CUtensorMap (a kernel
  // parameter, or global memory), generic as the TMA instructions take it.
  addConversion([ctx](tt::TensorDescType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, 0);
  });
  // Async tokens only order ops in the IR; the value is a placeholder.
  addConversion(
      [ctx](ttg::AsyncTokenType) -> Type { return IntegerType::get(ctx, 32); });
  addConversion([this, ctx](RankedTensorType type) -> std::optional<Type> {
    Attribute enc = type.getEncoding();
    if (!enc || !ttg::isDistributedEncoding(enc))
      return std::nullopt;
    auto layout = ::tgpu::layout::toLinearLayout(type.getShape(), enc);
    if (!layout) {
      llvm::consumeError(layout.takeError());
      return std::nullopt;
    }
    Type elem = convertType(type.getElementType());
    if (!elem)
      return std::nullopt;
    int64_t regs = layout->getInDimSize("register");
    return LLVM::LLVMStructType::getLiteral(ctx,
                                            SmallVector<Type>(regs, elem));
  });
}

SmallVector<Value> mlir::tgpu::unpackValues(RewriterBase &rewriter,
                                            Location loc, Value packed) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(packed.getType());
  if (!structType)
    return {packed};
  SmallVector<Value> values;
  for (unsigned i = 0, e = structType.getBody().size(); i < e; ++i)
    values.push_back(LLVM::ExtractValueOp::create(rewriter, loc, packed, i));
  return values;
}

Value mlir::tgpu::packValues(RewriterBase &rewriter, Location loc,
                             Type structType, ArrayRef<Value> values) {
  if (!isa<LLVM::LLVMStructType>(structType))
    return values.front();
  Value result = LLVM::UndefOp::create(rewriter, loc, structType);
  for (auto [i, v] : llvm::enumerate(values))
    result = LLVM::InsertValueOp::create(rewriter, loc, result, v, i);
  return result;
}

Value mlir::tgpu::i32Constant(RewriterBase &rewriter, Location loc,
                              int64_t v) {
  return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                  rewriter.getI32IntegerAttr(int32_t(v)));
}

Value mlir::tgpu::packVector(RewriterBase &rewriter, Location loc,
                             ArrayRef<Value> elems) {
  Type vecType = VectorType::get(int64_t(elems.size()), elems[0].getType());
  Value v = LLVM::UndefOp::create(rewriter, loc, vecType);
  for (auto [i, e] : llvm::enumerate(elems))
    v = LLVM::InsertElementOp::create(rewriter, loc, v, e,
                                      i32Constant(rewriter, loc, int64_t(i)));
  return v;
}

Value mlir::tgpu::getThreadId(RewriterBase &rewriter, Location loc) {
  return NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
}

std::pair<Value, Value>
mlir::tgpu::getLaneAndWarpId(RewriterBase &rewriter, Location loc,
                             int threadsPerWarp) {
  Value tid = getThreadId(rewriter, loc);
  Value lane = LLVM::URemOp::create(rewriter, loc, tid,
                                    i32Constant(rewriter, loc, threadsPerWarp));
  Value warp = LLVM::UDivOp::create(rewriter, loc, tid,
                                    i32Constant(rewriter, loc, threadsPerWarp));
  return {lane, warp};
}

namespace {
// Bits [from, end) of `id` moved to start at bit `to`: (id & mask) shifted.
Value emitBitRun(RewriterBase &rewriter, Location loc, Value id, int from,
                 int end, int to) {
  uint32_t mask = uint32_t((uint64_t(1) << (end - from)) - 1) << from;
  Value bits = LLVM::AndOp::create(rewriter, loc, id,
                                   i32Constant(rewriter, loc, mask));
  if (to > from)
    return LLVM::ShlOp::create(rewriter, loc, bits,
                               i32Constant(rewriter, loc, to - from));
  if (to < from)
    return LLVM::LShrOp::create(rewriter, loc, bits,
                                i32Constant(rewriter, loc, from - to));
  return bits;
}

// XOR of the bases of `inDim` selected by the bits of `id`, per out dim.
// Runs of single-bit bases (getBasisRuns: the usual case, a blocked
// layout's lanes along one dim) go as one mask and shift; multi-bit bases
// select one bit each. Fewer ops than a select per bit, for every later
// stage (cleanup, LLVM, instruction selection) to carry.
void xorBasesOf(RewriterBase &rewriter, Location loc,
                const LinearLayout &layout, StringRef inDim, Value id,
                SmallVectorImpl<Value> &acc) {
  if (!layout.hasInDim(inDim))
    return;
  auto xorInto = [&](int d, Value term) {
    acc[d] = acc[d] ? LLVM::XOrOp::create(rewriter, loc, acc[d], term) : term;
  };
  // Bit i of `id` as a mask of 0 or -1, made once and shared by the out dims.
  SmallVector<Value> bitMask(layout.getInDimSizeLog2(inDim));
  std::vector<std::string> outNames = layout.getOutDimNames();
  for (auto [d, outName] : llvm::enumerate(outNames)) {
    for (const ::tgpu::layout::BasisRun &run :
         ::tgpu::layout::getBasisRuns(layout, inDim, outName)) {
      if (run.outBit >= 0) {
        xorInto(d, emitBitRun(rewriter, loc, id, run.inBegin, run.inEnd,
                              run.outBit));
        continue;
      }
      Value &mask = bitMask[run.inBegin];
      if (!mask) {
        // 0 - ((id >> i) & 1)
        Value shifted = LLVM::LShrOp::create(
            rewriter, loc, id, i32Constant(rewriter, loc, run.inBegin));
        Value one = LLVM::AndOp::create(rewriter, loc, shifted,
                                        i32Constant(rewriter, loc, 1));
        mask = LLVM::SubOp::create(rewriter, loc,
                                   i32Constant(rewriter, loc, 0), one);
      }
      xorInto(d, LLVM::AndOp::create(rewriter, loc, mask,
                                     i32Constant(rewriter, loc, run.basis)));
    }
  }
}

// Per out dim of `layout`, the XOR of the lane and warp bases the calling
// thread's ids select: the part of every register's coordinates that
// depends on the thread.
SmallVector<Value> emitThreadPart(RewriterBase &rewriter, Location loc,
                                  const LinearLayout &layout,
                                  int threadsPerWarp) {
  auto [lane, warp] = getLaneAndWarpId(rewriter, loc, threadsPerWarp);
  SmallVector<Value> threadPart(layout.getNumOutDims());
  xorBasesOf(rewriter, loc, layout, "lane", lane, threadPart);
  xorBasesOf(rewriter, loc, layout, "warp", warp, threadPart);
  for (Value &v : threadPart)
    if (!v)
      v = i32Constant(rewriter, loc, 0);
  return threadPart;
}
} // namespace

SmallVector<Value> mlir::tgpu::emitLayoutApply(RewriterBase &rewriter,
                                               Location loc,
                                               const LinearLayout &layout,
                                               StringRef inDim, Value id) {
  SmallVector<Value> acc(layout.getNumOutDims());
  xorBasesOf(rewriter, loc, layout, inDim, id, acc);
  for (Value &v : acc)
    if (!v)
      v = i32Constant(rewriter, loc, 0);
  return acc;
}

SmallVector<SmallVector<Value>>
mlir::tgpu::emitIndices(RewriterBase &rewriter, Location loc,
                        const LinearLayout &layout, int threadsPerWarp) {
  int outs = layout.getNumOutDims();
  SmallVector<Value> threadPart =
      emitThreadPart(rewriter, loc, layout, threadsPerWarp);

  auto inNames = layout.getInDimNames();
  int64_t regs = layout.getInDimSize("register");
  SmallVector<SmallVector<Value>> indices;
  for (int64_t r = 0; r < regs; ++r) {
    SmallVector<LinearLayout::NamedValue> in;
    for (const std::string &name : inNames)
      in.push_back({name, name == "register" ? int32_t(r) : 0});
    auto coords = layout.apply(in);
    SmallVector<Value> idx;
    for (int d = 0; d < outs; ++d) {
      int32_t c = coords ? (*coords)[d].second : 0;
      idx.push_back(c == 0 ? threadPart[d]
                           : Value(LLVM::XOrOp::create(
                                 rewriter, loc, threadPart[d],
                                 i32Constant(rewriter, loc, c))));
    }
    if (!coords)
      llvm::consumeError(coords.takeError());
    indices.push_back(std::move(idx));
  }
  return indices;
}

SmallVector<Value> mlir::tgpu::emitSharedPointers(
    RewriterBase &rewriter, Location loc, const LinearLayout &map, Value base,
    Type elemType, int threadsPerWarp, llvm::function_ref<bool(int32_t)> wanted,
    int32_t xorOffset) {
  int64_t regs = map.getInDimSize("register");
  SmallVector<Value> pointers(regs);
  SmallVector<int32_t> registers;
  for (int32_t r = 0; r < regs; ++r)
    if (wanted(r))
      registers.push_back(r);
  if (registers.empty())
    return pointers;
  StringRef offsetName = "offset";
  unsigned dim = map.findOut(offsetName);
  // The bits the thread part can set.
  int32_t threadBits = 0;
  for (StringRef inDim : {"lane", "warp"})
    if (map.hasInDim(inDim))
      for (int i = 0, e = map.getInDimSizeLog2(inDim); i < e; ++i)
        threadBits |= map.getBasis(inDim, i, offsetName);
  Value thread = emitThreadPart(rewriter, loc, map, threadsPerWarp)[dim];
  auto ptr3 = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
  // Thread pointers by the XORed part of the register offset.
  llvm::SmallDenseMap<int32_t, Value> threadPointers;
  for (int32_t r : registers) {
    int32_t offset = layoutCoords(map, "register", r)[dim] ^ xorOffset;
    int32_t xored = offset & threadBits, added = offset & ~threadBits;
    Value &p = threadPointers[xored];
    if (!p) {
      Value index = xored ? Value(LLVM::XOrOp::create(
                                rewriter, loc, thread,
                                i32Constant(rewriter, loc, xored)))
                          : thread;
      p = LLVM::GEPOp::create(rewriter, loc, ptr3, elemType, base,
                              ValueRange{index});
    }
    pointers[r] = added ? Value(LLVM::GEPOp::create(
                              rewriter, loc, ptr3, elemType, p,
                              ArrayRef<LLVM::GEPArg>{added}))
                        : p;
  }
  return pointers;
}

SmallVector<Value>
mlir::tgpu::loadWithLdMatrix(RewriterBase &rewriter, Location loc,
                             const ::tgpu::layout::LdMatrixPlan &plan,
                             Type elem, Value base, int32_t xorOffset) {
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<Value> rows = emitSharedPointers(
      rewriter, loc, plan.addresses, base, elem, /*threadsPerWarp=*/32,
      [](int32_t) { return true; }, xorOffset);
  Type i32 = rewriter.getI32Type();
  Type resultType = plan.num == 1 ? i32
                                  : LLVM::LLVMStructType::getLiteral(
                                        ctx, SmallVector<Type>(plan.num, i32));
  auto shape = NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8);
  auto wordType = VectorType::get(plan.wordElements, elem);
  SmallVector<Value> values;
  for (Value row : rows) {
    Value loaded = NVVM::LdMatrixOp::create(
        rewriter, loc, resultType, row, uint32_t(plan.num),
        plan.trans ? NVVM::MMALayout::col : NVVM::MMALayout::row, shape,
        NVVM::LdStMatrixEltType::B16);
    for (Value word : unpackValues(rewriter, loc, loaded)) {
      if (plan.wordElements == 1) {
        values.push_back(LLVM::BitcastOp::create(rewriter, loc, elem, word));
        continue;
      }
      Value elems = LLVM::BitcastOp::create(rewriter, loc, wordType, word);
      for (int j = 0; j < plan.wordElements; ++j)
        values.push_back(LLVM::ExtractElementOp::create(
            rewriter, loc, elems, i32Constant(rewriter, loc, j)));
    }
  }
  return values;
}

void mlir::tgpu::storeWithStMatrix(RewriterBase &rewriter, Location loc,
                                   const ::tgpu::layout::LdMatrixPlan &plan,
                                   Type elem, Value base,
                                   ArrayRef<Value> values, int32_t xorOffset) {
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<Value> rows = emitSharedPointers(
      rewriter, loc, plan.addresses, base, elem, /*threadsPerWarp=*/32,
      [](int32_t) { return true; }, xorOffset);
  Type i32 = rewriter.getI32Type();
  auto shape = NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8);
  size_t next = 0;
  for (Value row : rows) {
    SmallVector<Value> words;
    for (int i = 0; i < plan.num; ++i) {
      ArrayRef<Value> word = values.slice(next, plan.wordElements);
      next += plan.wordElements;
      Value bits = plan.wordElements == 1 ? word.front()
                                          : packVector(rewriter, loc, word);
      words.push_back(LLVM::BitcastOp::create(rewriter, loc, i32, bits));
    }
    NVVM::StMatrixOp::create(rewriter, loc, row, words,
                             plan.trans ? NVVM::MMALayout::col
                                        : NVVM::MMALayout::row,
                             shape, NVVM::LdStMatrixEltType::B16);
  }
}

Value mlir::tgpu::emitUniqueOwnerPredicate(RewriterBase &rewriter,
                                           Location loc,
                                           const LinearLayout &layout,
                                           int threadsPerWarp) {
  int32_t laneMask = 0, warpMask = 0;
  for (auto &[dim, mask] : layout.getFreeVariableMasks()) {
    if (dim == "lane")
      laneMask = mask;
    else if (dim == "warp")
      warpMask = mask;
  }
  if (!laneMask && !warpMask)
    return nullptr;
  auto [lane, warp] = getLaneAndWarpId(rewriter, loc, threadsPerWarp);
  Value zero = i32Constant(rewriter, loc, 0);
  Value pred;
  auto require = [&](Value id, int32_t mask) {
    if (!mask)
      return;
    Value masked = LLVM::AndOp::create(rewriter, loc, id,
                                       i32Constant(rewriter, loc, mask));
    Value isZero = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                        masked, zero);
    pred = pred ? LLVM::AndOp::create(rewriter, loc, pred, isZero) : isZero;
  };
  require(lane, laneMask);
  require(warp, warpMask);
  return pred;
}

Value mlir::tgpu::getSharedMemoryBase(RewriterBase &rewriter, Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  MLIRContext *ctx = rewriter.getContext();
  auto global = module.lookupSymbol<LLVM::GlobalOp>("global_smem");
  if (!global) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    global = LLVM::GlobalOp::create(
        rewriter, op->getLoc(),
        LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 0),
        /*isConstant=*/false, LLVM::Linkage::External, "global_smem",
        Attribute(), /*alignment=*/kSharedMemoryBaseAlignment, /*addrSpace=*/3);
  }
  Value base = LLVM::AddressOfOp::create(rewriter, op->getLoc(), global);
  auto offset = op->getAttrOfType<IntegerAttr>(kAllocationOffsetAttr);
  if (!offset || offset.getInt() == 0)
    return base;
  return LLVM::GEPOp::create(
      rewriter, op->getLoc(), base.getType(), IntegerType::get(ctx, 8), base,
      ValueRange{i32Constant(rewriter, op->getLoc(), offset.getInt())});
}

Value mlir::tgpu::linearize(RewriterBase &rewriter, Location loc,
                            ArrayRef<Value> coords, ArrayRef<int64_t> shape) {
  Value idx;
  int64_t stride = 1;
  for (int d = int(shape.size()) - 1; d >= 0; --d) {
    Value term = stride == 1 ? coords[d]
                             : Value(LLVM::MulOp::create(
                                   rewriter, loc, coords[d],
                                   i32Constant(rewriter, loc, stride)));
    idx = idx ? Value(LLVM::AddOp::create(rewriter, loc, idx, term)) : term;
    stride *= shape[d];
  }
  return idx ? idx : i32Constant(rewriter, loc, 0);
}

SmallVector<int32_t> mlir::tgpu::layoutCoords(const LinearLayout &layout,
                                              StringRef inDim, int32_t v) {
  SmallVector<LinearLayout::NamedValue> in;
  for (const std::string &name : layout.getInDimNames())
    in.push_back({name, name == inDim ? v : 0});
  SmallVector<int32_t> coords;
  if (auto out = layout.apply(in)) {
    for (auto &[name, c] : *out)
      coords.push_back(c);
  } else {
    llvm::consumeError(out.takeError());
    coords.assign(layout.getNumOutDims(), 0);
  }
  return coords;
}

int64_t mlir::tgpu::memoryElementBytes(Type type) {
  Type elem = getElementTypeOrSelf(type);
  if (isa<tt::PointerType, LLVM::LLVMPointerType>(elem))
    return 8;
  if (!elem.isIntOrFloat())
    return 8;
  return std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
}

SmallVector<Value> mlir::tgpu::inlineCombineRegion(RewriterBase &rewriter,
                                                   Block &body,
                                                   ArrayRef<Value> first,
                                                   ArrayRef<Value> second) {
  IRMapping map;
  unsigned n = first.size();
  for (unsigned i = 0; i < n; ++i) {
    map.map(body.getArgument(i), first[i]);
    map.map(body.getArgument(n + i), second[i]);
  }
  for (Operation &inner : body.without_terminator())
    rewriter.clone(inner, map);
  SmallVector<Value> out;
  for (Value v : body.getTerminator()->getOperands())
    out.push_back(map.lookupOrDefault(v));
  return out;
}

std::optional<std::pair<LinearLayout, LinearLayout>>
mlir::tgpu::getLayoutsOrNone(RankedTensorType a, RankedTensorType b) {
  if (!a.getEncoding() || !b.getEncoding())
    return std::nullopt;
  auto la = ::tgpu::layout::toLinearLayout(a.getShape(), a.getEncoding());
  auto lb = ::tgpu::layout::toLinearLayout(b.getShape(), b.getEncoding());
  if (!la || !lb) {
    llvm::consumeError(la.takeError());
    llvm::consumeError(lb.takeError());
    return std::nullopt;
  }
  return std::make_pair(std::move(*la), std::move(*lb));
}

Value mlir::tgpu::emitShuffle(RewriterBase &rewriter, Location loc, Value v,
                              NVVM::ShflKind kind, Value laneOrDelta) {
  MLIRContext *ctx = rewriter.getContext();
  Type i32 = rewriter.getI32Type();
  // .up clamps at lane 0 (c = 0); the others at lane 31.
  int32_t clamp = kind == NVVM::ShflKind::up ? 0 : 0x1f;
  auto shfl = [&](Value x) -> Value {
    return NVVM::ShflOp::create(rewriter, loc, x.getType(),
                                i32Constant(rewriter, loc, -1), x, laneOrDelta,
                                i32Constant(rewriter, loc, clamp), kind,
                                UnitAttr());
  };
  Type type = v.getType();
  if (type.isF32() || type.isInteger(32))
    return shfl(v);
  bool isPtr = isa<LLVM::LLVMPointerType>(type);
  unsigned bits = isPtr ? 64 : type.getIntOrFloatBitWidth();
  Type intType = IntegerType::get(ctx, bits);
  Value asInt =
      isPtr ? Value(LLVM::PtrToIntOp::create(rewriter, loc, intType, v))
      : type.isInteger(bits)
          ? v
          : Value(LLVM::BitcastOp::create(rewriter, loc, intType, v));
  Value result;
  if (bits < 32) {
    Value wide = LLVM::ZExtOp::create(rewriter, loc, i32, asInt);
    result = LLVM::TruncOp::create(rewriter, loc, intType, shfl(wide));
  } else {
    Type i64 = rewriter.getI64Type();
    auto c32 = [&] {
      return LLVM::ConstantOp::create(rewriter, loc, i64,
                                      rewriter.getI64IntegerAttr(32));
    };
    Value lo = LLVM::TruncOp::create(rewriter, loc, i32, asInt);
    Value hi = LLVM::TruncOp::create(
        rewriter, loc, i32, LLVM::LShrOp::create(rewriter, loc, asInt, c32()));
    Value lo2 = LLVM::ZExtOp::create(rewriter, loc, i64, shfl(lo));
    Value hi2 = LLVM::ShlOp::create(
        rewriter, loc, LLVM::ZExtOp::create(rewriter, loc, i64, shfl(hi)),
        c32());
    result = LLVM::OrOp::create(rewriter, loc, lo2, hi2);
  }
  if (isPtr)
    return LLVM::IntToPtrOp::create(rewriter, loc, type, result);
  if (type.isInteger(bits))
    return result;
  return LLVM::BitcastOp::create(rewriter, loc, type, result);
}


Type mlir::tgpu::getSharedMemoryType(Type elem) {
  return elem && elem.isInteger(1) ? IntegerType::get(elem.getContext(), 8)
                                   : elem;
}

Value mlir::tgpu::toSharedMemoryValue(RewriterBase &rewriter, Location loc,
                                      Value v) {
  Type mem = getSharedMemoryType(v.getType());
  return mem == v.getType() ? v : LLVM::ZExtOp::create(rewriter, loc, mem, v);
}

Value mlir::tgpu::fromSharedMemoryValue(RewriterBase &rewriter, Location loc,
                                        Value v, Type elem) {
  return v.getType() == elem ? v
                             : LLVM::TruncOp::create(rewriter, loc, elem, v);
}

bool mlir::tgpu::isDecodableFp8(Type type) {
  return isa<Float8E5M2Type, Float8E4M3FNType>(type);
}

Value mlir::tgpu::emitFp8ToF32(RewriterBase &rewriter, Location loc, Value bits,
                               Type fp8Type) {
  if (!isDecodableFp8(fp8Type))
    return nullptr;
  Type i16 = rewriter.getI16Type();
  auto c16 = [&](int v) {
    return LLVM::ConstantOp::create(rewriter, loc, i16,
                                    rewriter.getI16IntegerAttr(v));
  };
  Value wide = LLVM::ZExtOp::create(rewriter, loc, i16, bits);
  Type f16 = rewriter.getF16Type(), f32 = rewriter.getF32Type();
  if (isa<Float8E5M2Type>(fp8Type)) {
    // e5m2 is an f16 without its low 8 mantissa bits: same sign, exponent
    // width and bias, so infinities and NaNs carry over too.
    Value half = LLVM::BitcastOp::create(
        rewriter, loc, f16, LLVM::ShlOp::create(rewriter, loc, wide, c16(8)));
    return LLVM::FPExtOp::create(rewriter, loc, f32, half);
  }
  // e4m3fn (bias 7, no infinities, NaN only at S.1111.111): its exponent and
  // mantissa moved to an f16's places read as the value times 2^-8, since
  // f16's bias is 15, for normals and subnormals alike; scaling by 2^8 in f32
  // is exact.
  Value magnitude = LLVM::AndOp::create(rewriter, loc, wide, c16(0x7F));
  Value sign = LLVM::ShlOp::create(
      rewriter, loc, LLVM::AndOp::create(rewriter, loc, wide, c16(0x80)),
      c16(8));
  Value half = LLVM::BitcastOp::create(
      rewriter, loc, f16,
      LLVM::OrOp::create(
          rewriter, loc, sign,
          LLVM::ShlOp::create(rewriter, loc, magnitude, c16(7))));
  Value scaled = LLVM::FMulOp::create(
      rewriter, loc, LLVM::FPExtOp::create(rewriter, loc, f32, half),
      LLVM::ConstantOp::create(rewriter, loc, f32,
                               rewriter.getF32FloatAttr(256.0f)));
  Value isNan = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                     magnitude, c16(0x7F));
  Value nan = LLVM::ConstantOp::create(
      rewriter, loc, f32,
      rewriter.getF32FloatAttr(std::numeric_limits<float>::quiet_NaN()));
  return LLVM::SelectOp::create(rewriter, loc, isNan, nan, scaled);
}

int64_t SharedViewMap::vectorWidth(int64_t maxElems) const {
  int64_t vec = std::min<int64_t>(::tgpu::layout::getAlignedRegisterRun(
                                      toOffset, toOffset.findOut("offset")),
                                  std::max<int64_t>(maxElems, 1));
  while (vec > 1 && (xorOffset & (vec - 1)))
    vec /= 2;
  return vec;
}

FailureOr<SharedViewMap>
mlir::tgpu::getSharedViewMap(Location loc, RankedTensorType tensorType,
                             Value memdesc) {
  auto type = cast<ttg::MemDescType>(memdesc.getType());
  ArrayRef<int64_t> shape = type.getShape();
  ArrayRef<int64_t> alloc = type.getAllocShape();
  if (alloc.size() < shape.size())
    return emitError(loc) << "cannot lower a view of " << type
                          << ": its allocation has fewer dims";
  SmallVector<int64_t> tile(alloc.take_back(shape.size()));
  // The box's origin in the tile, from the chain of subslices.
  SmallVector<int64_t> origin(shape.size(), 0);
  Value view = memdesc;
  while (true) {
    auto viewType = cast<ttg::MemDescType>(view.getType());
    if (viewType.getShape() ==
        viewType.getAllocShape().take_back(viewType.getRank()))
      break;
    auto subslice = view.getDefiningOp<ttg::MemDescSubsliceOp>();
    if (!subslice)
      return emitError(loc)
             << "cannot lower an access to " << viewType
             << ": a sub-box whose position is not known at compile time (it "
                "does not come from memdesc_subslice ops of a whole buffer)";
    for (auto [o, d] : llvm::zip_equal(origin, subslice.getOffsets()))
      o += d;
    view = subslice.getSrc();
  }
  auto regs = getDistributedLayout(tensorType, loc);
  if (failed(regs))
    return failure();
  auto shared = ::tgpu::layout::toLinearLayout(tile, type.getEncoding());
  if (!shared)
    return emitError(loc) << "cannot lower the shared layout of " << type
                          << ": " << llvm::toString(shared.takeError());
  // The tensor's elements as coordinates in the whole tile.
  LinearLayout inTile = *regs;
  if (ArrayRef<int64_t>(tile) != shape) {
    std::vector<LinearLayout::NamedSize> outs;
    for (auto [name, size] : llvm::zip_equal(regs->getOutDimNames(), tile))
      outs.push_back({name, int32_t(size)});
    auto widened = LinearLayout::create(regs->getBases(), outs,
                                        /*requireSurjective=*/false);
    if (!widened)
      return emitError(loc) << "cannot place " << tensorType << " in " << type
                            << ": " << llvm::toString(widened.takeError());
    inTile = std::move(*widened);
  }
  auto toOffset = inTile.invertAndCompose(*shared);
  if (!toOffset)
    return emitError(loc) << "the tensor and shared layouts of " << type
                          << " do not cover the same elements: "
                          << llvm::toString(toOffset.takeError());
  if (!toOffset->hasOutDim("offset"))
    return emitError(loc) << "shared layout of " << type
                          << " has no 'offset' input";
  SharedViewMap result{std::move(*toOffset), 0};
  if (llvm::any_of(origin, [](int64_t o) { return o != 0; })) {
    auto inverse = shared->invert();
    if (!inverse)
      return emitError(loc) << "cannot invert the shared layout of " << type
                            << ": " << llvm::toString(inverse.takeError());
    std::vector<LinearLayout::NamedValue> at;
    for (auto [name, o] : llvm::zip_equal(shared->getOutDimNames(), origin))
      at.push_back({name, int32_t(o)});
    auto out = inverse->apply(at);
    if (!out)
      return emitError(loc) << "cannot place the origin of " << type << ": "
                            << llvm::toString(out.takeError());
    for (auto &[name, v] : *out)
      if (name == "offset")
        result.xorOffset = v;
  }
  return result;
}

std::string mlir::tgpu::PtxAsmOperands::constraintString() const {
  return llvm::join(constraints, ",");
}

std::string mlir::tgpu::ptxOperandList(unsigned first, unsigned count) {
  std::string s = "{ ";
  for (unsigned i = 0; i < count; ++i)
    s += (i ? ", $" : "$") + std::to_string(first + i);
  return s + " }";
}

LLVM::InlineAsmOp mlir::tgpu::createPtxAsm(RewriterBase &rewriter, Location loc,
                                           TypeRange results,
                                           const PtxAsmOperands &operands,
                                           StringRef text) {
  MLIRContext *ctx = rewriter.getContext();
  // An instruction without outputs is typed `-> !llvm.void`, as Triton's
  // are (LLVM translates both forms alike).
  Type voidType = LLVM::LLVMVoidType::get(ctx);
  return LLVM::InlineAsmOp::create(
      rewriter, loc, results.empty() ? TypeRange(voidType) : results,
      operands.inputs(), text, operands.constraintString(),
      /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT),
      ArrayAttr::get(ctx, {}));
}
