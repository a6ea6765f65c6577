// Ops that build or re-view distributed tensors without moving data between
// threads -- make_range, splat, broadcast, expand_dims, trans -- and
// convert_layout, through shared memory when it must move data. The re-views
// map each result register to the operand register holding the same element,
// computed from both LinearLayouts at compile time.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Layout/SharedStaging.h"
#include "tgpu/Layout/WarpShuffle.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

#include <functional>
#include <map>

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

struct MakeRangeLowering : public ConvertOpToLLVMPattern<tt::MakeRangeOp> {
  MakeRangeLowering(TritonGPUToLLVMTypeConverter &converter,
                    const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}
  LogicalResult
  matchAndRewrite(tt::MakeRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto layout = getDistributedLayout(type, op.getLoc());
    if (failed(layout))
      return failure();
    Type resultType = getTypeConverter()->convertType(type);
    if (!resultType)
      return op.emitError("cannot lower ") << type;
    Location loc = op.getLoc();
    Value start = i32Constant(rewriter, loc, int32_t(op.getStart()));
    SmallVector<Value> values;
    for (auto &idx : emitIndices(rewriter, loc, *layout, info.threadsPerWarp))
      values.push_back(LLVM::AddOp::create(rewriter, loc, idx[0], start));
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, values));
    return success();
  }
  LoweringInfo info;
};

struct SplatLowering : public ConvertOpToLLVMPattern<tt::SplatOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tt::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return op.emitError("cannot lower ") << op.getType();
    unsigned regs = cast<LLVM::LLVMStructType>(resultType).getBody().size();
    rewriter.replaceOp(op, packValues(rewriter, op.getLoc(), resultType,
                                      SmallVector<Value>(regs, adaptor.getSrc())));
    return success();
  }
};

using Projection =
    std::function<SmallVector<int32_t>(ArrayRef<int32_t> resultCoords)>;

// For each register of `dst`, the register of `src` holding the element that
// `project` says it comes from; nothing when the threads (lane/warp/block
// bases) do not agree, i.e. when data would have to move between threads.
std::optional<SmallVector<int32_t>> remapRegisters(const LinearLayout &src,
                                                   const LinearLayout &dst,
                                                   const Projection &project) {
  auto outNames = dst.getOutDimNames();
  auto srcOutNames = src.getOutDimNames();
  for (StringRef dim : {"lane", "warp", "block"}) {
    if (!dst.hasInDim(dim))
      continue;
    for (int i = 0; i < dst.getInDimSizeLog2(dim); ++i) {
      SmallVector<int32_t> basis;
      for (auto &name : outNames)
        basis.push_back(dst.getBasis(dim, i, name));
      SmallVector<int32_t> want = project(basis), have;
      if (src.hasInDim(dim) && i < src.getInDimSizeLog2(dim))
        for (auto &name : srcOutNames)
          have.push_back(src.getBasis(dim, i, name));
      else
        have.assign(want.size(), 0);
      if (want != have)
        return std::nullopt;
    }
  }
  std::map<SmallVector<int32_t>, int32_t> owner;
  int32_t srcRegs = src.getInDimSize("register");
  for (int32_t r = 0; r < srcRegs; ++r)
    owner.emplace(layoutCoords(src, "register", r), r);
  SmallVector<int32_t> map;
  for (int32_t r = 0, e = dst.getInDimSize("register"); r < e; ++r) {
    auto it = owner.find(project(layoutCoords(dst, "register", r)));
    if (it == owner.end())
      return std::nullopt;
    map.push_back(it->second);
  }
  return map;
}

// broadcast, expand_dims and trans: the result's registers picked from the
// operand's.
template <typename OpT>
struct RegisterRemapLowering : public ConvertOpToLLVMPattern<OpT> {
  using ConvertOpToLLVMPattern<OpT>::ConvertOpToLLVMPattern;

  static Projection projectionFor(OpT op) {
    auto srcShape = cast<RankedTensorType>(op.getSrc().getType()).getShape();
    if constexpr (std::is_same_v<OpT, tt::BroadcastOp>) {
      SmallVector<int64_t> shape(srcShape);
      return [shape](ArrayRef<int32_t> c) {
        SmallVector<int32_t> out(c);
        for (auto [i, n] : llvm::enumerate(shape))
          if (n == 1)
            out[i] = 0;
        return out;
      };
    } else if constexpr (std::is_same_v<OpT, tt::ExpandDimsOp>) {
      unsigned axis = op.getAxis();
      return [axis](ArrayRef<int32_t> c) {
        SmallVector<int32_t> out(c);
        out.erase(out.begin() + axis);
        return out;
      };
    } else {
      SmallVector<int32_t> order(op.getOrder());
      return [order](ArrayRef<int32_t> c) {
        SmallVector<int32_t> out(c.size());
        for (auto [d, from] : llvm::enumerate(order))
          out[from] = c[d];
        return out;
      };
    }
  }

  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto src = getDistributedLayout(srcType, op.getLoc());
    auto dst = getDistributedLayout(dstType, op.getLoc());
    if (failed(src) || failed(dst))
      return failure();
    auto map = remapRegisters(*src, *dst, projectionFor(op));
    if (!map)
      return op.emitError("the operand and result layouts place elements in "
                          "different threads; this needs a convert_layout");
    Type resultType = this->getTypeConverter()->convertType(dstType);
    if (!resultType)
      return op.emitError("cannot lower ") << dstType;
    SmallVector<Value> in = unpackValues(rewriter, op.getLoc(),
                                         adaptor.getSrc());
    SmallVector<Value> out;
    for (int32_t r : *map)
      out.push_back(in[r]);
    rewriter.replaceOp(op, packValues(rewriter, op.getLoc(), resultType, out));
    return success();
  }
};

// The warp-shuffle conversion (WarpShuffle.h): per destination register,
// every lane sends register c(r) ^ M(lane) (a select among the few
// candidates) and reads lane a(r) ^ A(lane) with shfl.sync.idx.
void emitWarpShuffles(RewriterBase &rewriter, Location loc,
                      const ::tgpu::layout::WarpShufflePlan &plan,
                      ArrayRef<Value> in, SmallVectorImpl<Value> &out) {
  Value lane = getLaneAndWarpId(rewriter, loc, 32).first;
  Value zero = i32Constant(rewriter, loc, 0);
  auto linearOfLane = [&](ArrayRef<int32_t> images) {
    Value acc = zero;
    for (auto [t, image] : llvm::enumerate(images)) {
      if (!image)
        continue;
      Value bit = LLVM::AndOp::create(rewriter, loc, lane,
                                      i32Constant(rewriter, loc, 1 << t));
      Value set = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne,
                                       bit, zero);
      acc = LLVM::XOrOp::create(
          rewriter, loc, acc,
          LLVM::SelectOp::create(rewriter, loc, set,
                                 i32Constant(rewriter, loc, image), zero));
    }
    return acc;
  };
  Value readBase = linearOfLane(plan.readLaneOfLaneBit);
  Value sendBase = linearOfLane(plan.sendRegisterOfLaneBit);
  // The registers a lane may have to send: c(r) ^ span(M).
  SmallVector<int32_t> span{0};
  for (int32_t image : plan.sendRegisterOfLaneBit)
    if (image && !llvm::is_contained(span, image))
      for (size_t k = 0, n = span.size(); k < n; ++k)
        span.push_back(span[k] ^ image);
  for (auto [r, c] : llvm::enumerate(plan.sendRegister)) {
    Value send = in[c];
    if (span.size() > 1) {
      Value idx = LLVM::XOrOp::create(rewriter, loc, sendBase,
                                      i32Constant(rewriter, loc, c));
      for (int32_t k : ArrayRef<int32_t>(span).drop_front()) {
        Value is = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                        idx, i32Constant(rewriter, loc, c ^ k));
        send = LLVM::SelectOp::create(rewriter, loc, is, in[c ^ k], send);
      }
    }
    Value from = LLVM::XOrOp::create(rewriter, loc, readBase,
                                     i32Constant(rewriter, loc, plan.readLane[r]));
    out.push_back(emitShuffle(rewriter, loc, send, NVVM::ShflKind::idx, from));
  }
}

// The registers of a vector access: `bits` are the register bits that
// walk one vector, element i of the vector at register
// first | (bit j of i at bits[j]); `first` has all of them clear.
int32_t vectorRegister(int32_t first, ArrayRef<int> bits, int32_t i) {
  for (auto [j, bit] : llvm::enumerate(bits))
    if (i & (1 << j))
      first |= int32_t(1) << bit;
  return first;
}

// Whether register r starts a vector that holds an element no lower
// register holds (owner: the lowest register with the same element):
// every element is accessed once.
bool startsOwnedVector(int32_t r, ArrayRef<int> bits,
                       const std::vector<int32_t> &owner) {
  for (int bit : bits)
    if (r & (int32_t(1) << bit))
      return false;
  for (int32_t i = 0, e = int32_t(1) << bits.size(); i < e; ++i) {
    int32_t reg = vectorRegister(r, bits, i);
    if (owner[reg] == reg)
      return true;
  }
  return false;
}

// Stores `in` through `map` (register/lane/warp -> offset), one vector of
// 2^bits.size() elements per access.
void storeVectors(RewriterBase &rewriter, Location loc, const LinearLayout &map,
                  const std::vector<int32_t> &owner, ArrayRef<int> bits,
                  Value base, Type memElem, int64_t elementBytes,
                  int threadsPerWarp, ArrayRef<Value> in) {
  const int vec = 1 << bits.size();
  Type vecType = vec == 1 ? memElem : VectorType::get(vec, memElem);
  SmallVector<Value> pointers = emitSharedPointers(
      rewriter, loc, map, base, memElem, threadsPerWarp,
      [&](int32_t r) { return startsOwnedVector(r, bits, owner); });
  for (int32_t r = 0, e = int32_t(in.size()); r < e; ++r) {
    if (!pointers[r])
      continue;
    Value v =
        vec == 1 ? Value() : LLVM::UndefOp::create(rewriter, loc, vecType);
    for (int i = 0; i < vec; ++i) {
      Value x =
          toSharedMemoryValue(rewriter, loc, in[vectorRegister(r, bits, i)]);
      v = vec == 1 ? x
                   : Value(LLVM::InsertElementOp::create(
                         rewriter, loc, v, x, i32Constant(rewriter, loc, i)));
    }
    LLVM::StoreOp::create(rewriter, loc, v, pointers[r],
                          unsigned(vec * elementBytes));
  }
}

// Loads the registers of `map` the same way; a register whose element a
// lower one holds (a broadcast) copies it.
SmallVector<Value>
loadVectors(RewriterBase &rewriter, Location loc, const LinearLayout &map,
            const std::vector<int32_t> &owner, ArrayRef<int> bits, Value base,
            Type memElem, Type elem, int64_t elementBytes, int threadsPerWarp) {
  const int vec = 1 << bits.size();
  Type vecType = vec == 1 ? memElem : VectorType::get(vec, memElem);
  SmallVector<Value> pointers = emitSharedPointers(
      rewriter, loc, map, base, memElem, threadsPerWarp,
      [&](int32_t r) { return startsOwnedVector(r, bits, owner); });
  const int32_t regs = int32_t(owner.size());
  SmallVector<Value> out(regs);
  for (int32_t r = 0; r < regs; ++r) {
    if (!pointers[r])
      continue;
    Value v = LLVM::LoadOp::create(rewriter, loc, vecType, pointers[r],
                                   unsigned(vec * elementBytes));
    for (int i = 0; i < vec; ++i) {
      Value x = vec == 1
                    ? v
                    : Value(LLVM::ExtractElementOp::create(
                          rewriter, loc, v, i32Constant(rewriter, loc, i)));
      out[vectorRegister(r, bits, i)] =
          fromSharedMemoryValue(rewriter, loc, x, elem);
    }
  }
  // Registers are visited in order and owners are lower: every copy's
  // source is set by then.
  for (int32_t r = 0; r < regs; ++r)
    if (!out[r])
      out[r] = out[owner[r]];
  return out;
}

// convert_layout: a register permutation when both layouts keep every
// element in the same thread; warp shuffles when every element stays in
// its warp (WarpShuffle.h); otherwise through shared memory, staged in a
// layout chosen for vector accesses without bank conflicts on both sides
// (SharedStaging.h): every thread writes its elements, a barrier, and every
// thread reads the elements the new layout gives it. (tritongpu-membar
// places the barrier before the writes when earlier ops used the bytes.)
struct ConvertLayoutLowering
    : public ConvertOpToLLVMPattern<ttg::ConvertLayoutOp> {
  ConvertLayoutLowering(TritonGPUToLLVMTypeConverter &converter,
                        const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(ttg::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto src = getDistributedLayout(srcType, op.getLoc());
    auto dst = getDistributedLayout(dstType, op.getLoc());
    if (failed(src) || failed(dst))
      return failure();
    Type resultType = getTypeConverter()->convertType(dstType);
    if (!resultType)
      return op.emitError("cannot lower ") << dstType;
    Location loc = op.getLoc();
    SmallVector<Value> in = unpackValues(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> out;
    auto identity = [](ArrayRef<int32_t> c) { return SmallVector<int32_t>(c); };
    if (auto map = remapRegisters(*src, *dst, identity)) {
      for (int32_t r : *map)
        out.push_back(in[r]);
      rewriter.replaceOp(op, packValues(rewriter, loc, resultType, out));
      return success();
    }
    if (auto plan = ::tgpu::layout::planWarpShuffle(*src, *dst)) {
      emitWarpShuffles(rewriter, loc, *plan, in, out);
      rewriter.replaceOp(op, packValues(rewriter, loc, resultType, out));
      return success();
    }
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    Type memElem = getSharedMemoryType(elem);
    auto staging = ::tgpu::layout::chooseStagingLayout(
        *src, *dst, memoryElementBytes(srcType));
    if (!staging)
      return op.emitError("cannot stage the conversion through shared "
                          "memory: ")
             << llvm::toString(staging.takeError());
    auto storeMap = src->invertAndCompose(staging->shared);
    auto loadMap = dst->invertAndCompose(staging->shared);
    if (!storeMap || !loadMap) {
      llvm::consumeError(storeMap.takeError());
      llvm::consumeError(loadMap.takeError());
      return op.emitError("the two layouts do not cover the same elements");
    }
    Value base = getSharedMemoryBase(rewriter, op);
    std::vector<int32_t> storeOwner = storeMap->getLowestSameImage("register");
    storeVectors(rewriter, loc, *storeMap, storeOwner,
                 staging->storeRegisterBits, base, memElem,
                 memoryElementBytes(srcType), info.threadsPerWarp, in);
    NVVM::Barrier0Op::create(rewriter, loc);
    if (staging->loadWithLdMatrix) {
      auto plan = ::tgpu::layout::planLdMatrix(
          *loadMap, 8 * int(memoryElementBytes(srcType)));
      if (!plan)
        return op.emitError("the staging layout does not suit ldmatrix");
      for (Value x : loadWithLdMatrix(rewriter, loc, *plan, memElem, base))
        out.push_back(fromSharedMemoryValue(rewriter, loc, x, elem));
    } else {
      std::vector<int32_t> loadOwner = loadMap->getLowestSameImage("register");
      out = loadVectors(rewriter, loc, *loadMap, loadOwner,
                        staging->loadRegisterBits, base, memElem, elem,
                        memoryElementBytes(srcType), info.threadsPerWarp);
    }
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, out));
    return success();
  }

  LoweringInfo info;
};

// Which operand, and which of its coordinates, a result coordinate reads.
using OperandProjection = std::function<std::pair<unsigned, SmallVector<int32_t>>(
    ArrayRef<int32_t> resultCoords)>;

// remapRegisters for ops with several operands (join, cat): for each register
// of `dst`, the operand and its register holding the element `project` names.
// The projections used here are affine over GF(2) (power-of-two shapes), so
// it suffices that the linear part of every lane/warp/block basis of `dst`
// projects onto the same basis of every operand and never switches
// operands; nothing otherwise, i.e. when data would have to move between
// threads.
std::optional<SmallVector<std::pair<unsigned, int32_t>>>
remapFromOperands(ArrayRef<LinearLayout> srcs, const LinearLayout &dst,
                  const OperandProjection &project) {
  auto origin = project(SmallVector<int32_t>(dst.getNumOutDims(), 0));
  for (StringRef dim : {"lane", "warp", "block"}) {
    if (!dst.hasInDim(dim))
      continue;
    for (int i = 0; i < dst.getInDimSizeLog2(dim); ++i) {
      auto [k, want] = project(layoutCoords(dst, dim, int32_t(1) << i));
      if (k != origin.first)
        return std::nullopt;
      for (auto [w, o] : llvm::zip(want, origin.second))
        w ^= o;
      for (const LinearLayout &src : srcs) {
        SmallVector<int32_t> have(want.size(), 0);
        if (src.hasInDim(dim) && i < src.getInDimSizeLog2(dim))
          have = layoutCoords(src, dim, int32_t(1) << i);
        if (want != have)
          return std::nullopt;
      }
    }
    for (const LinearLayout &src : srcs)
      if (src.hasInDim(dim) &&
          src.getInDimSizeLog2(dim) > dst.getInDimSizeLog2(dim))
        return std::nullopt;
  }
  SmallVector<std::map<SmallVector<int32_t>, int32_t>> owner(srcs.size());
  for (auto [k, src] : llvm::enumerate(srcs))
    for (int32_t r = 0, e = src.getInDimSize("register"); r < e; ++r)
      owner[k].emplace(layoutCoords(src, "register", r), r);
  SmallVector<std::pair<unsigned, int32_t>> map;
  for (int32_t r = 0, e = dst.getInDimSize("register"); r < e; ++r) {
    auto [k, c] = project(layoutCoords(dst, "register", r));
    if (k >= srcs.size())
      return std::nullopt;
    auto it = owner[k].find(c);
    if (it == owner[k].end())
      return std::nullopt;
    map.push_back({k, it->second});
  }
  return map;
}

SmallVector<int32_t> delinearizeCoords(int64_t flat, ArrayRef<int64_t> shape) {
  SmallVector<int32_t> c(shape.size());
  for (int d = int(shape.size()) - 1; d >= 0; --d) {
    c[d] = int32_t(flat % shape[d]);
    flat /= shape[d];
  }
  return c;
}

int64_t linearizeCoords(ArrayRef<int32_t> c, ArrayRef<int64_t> shape) {
  int64_t flat = 0;
  for (auto [x, n] : llvm::zip(c, shape))
    flat = flat * n + x;
  return flat;
}

// The operand and result layouts of a join/split/reshape/cat, and the result
// struct type, or failure with a diagnostic.
struct ViewLayouts {
  std::vector<LinearLayout> srcs;
  std::vector<LinearLayout> dsts;
};
FailureOr<ViewLayouts> viewLayouts(Operation *op) {
  ViewLayouts v;
  for (Value x : op->getOperands()) {
    auto l = getDistributedLayout(cast<RankedTensorType>(x.getType()),
                                  op->getLoc());
    if (failed(l))
      return failure();
    v.srcs.push_back(std::move(*l));
  }
  for (Value x : op->getResults()) {
    auto l = getDistributedLayout(cast<RankedTensorType>(x.getType()),
                                  op->getLoc());
    if (failed(l))
      return failure();
    v.dsts.push_back(std::move(*l));
  }
  return v;
}

constexpr const char *kMovesData =
    "the operand and result layouts place elements in different threads; "
    "this needs a convert_layout";

// tt.join: result[..., k] = (lhs, rhs)[k]; the new minor dim must live in
// registers.
struct JoinLowering : public ConvertOpToLLVMPattern<tt::JoinOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tt::JoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto layouts = viewLayouts(op);
    if (failed(layouts))
      return failure();
    auto project = [](ArrayRef<int32_t> c) {
      return std::make_pair(unsigned(c.back()),
                            SmallVector<int32_t>(c.drop_back()));
    };
    auto map = remapFromOperands(layouts->srcs, layouts->dsts[0], project);
    if (!map)
      return op.emitError(kMovesData);
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return op.emitError("cannot lower ") << op.getType();
    Location loc = op.getLoc();
    SmallVector<SmallVector<Value>> in = {
        unpackValues(rewriter, loc, adaptor.getLhs()),
        unpackValues(rewriter, loc, adaptor.getRhs())};
    SmallVector<Value> out;
    for (auto [k, r] : *map)
      out.push_back(in[k][r]);
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, out));
    return success();
  }
};

// tt.split: result k = src[..., k].
struct SplitLowering : public ConvertOpToLLVMPattern<tt::SplitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tt::SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto layouts = viewLayouts(op);
    if (failed(layouts))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> in = unpackValues(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> results;
    for (int32_t k = 0; k < 2; ++k) {
      auto project = [k](ArrayRef<int32_t> c) {
        SmallVector<int32_t> s(c);
        s.push_back(k);
        return std::make_pair(0u, s);
      };
      auto map =
          remapFromOperands(layouts->srcs, layouts->dsts[k], project);
      if (!map)
        return op.emitError(kMovesData);
      Type resultType =
          getTypeConverter()->convertType(op->getResult(k).getType());
      if (!resultType)
        return op.emitError("cannot lower ") << op->getResult(k).getType();
      SmallVector<Value> out;
      for (auto [unused, r] : *map)
        out.push_back(in[r]);
      results.push_back(packValues(rewriter, loc, resultType, out));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

// Whether reading every thread's registers of `src` as the same registers of
// `dst` is a permutation of the elements: the same hardware slots must hold
// copies of one element in both layouts.
bool samePositionsIsPermutation(const LinearLayout &src,
                                const LinearLayout &dst) {
  if (src.getInDims() != dst.getInDims())
    return false;
  std::map<uint64_t, uint64_t> fwd, bwd;
  for (uint64_t p = 0, e = uint64_t(src.getTotalInDimSize()); p < e; ++p) {
    uint64_t s = src.applyFlat(p), d = dst.applyFlat(p);
    if (fwd.try_emplace(d, s).first->second != s ||
        bwd.try_emplace(s, d).first->second != d)
      return false;
  }
  return true;
}

// tt.reshape keeps row-major order (as the CPU oracle does) whenever the
// layouts allow it without moving data between threads. Otherwise, only with
// allow_reorder, each thread keeps its registers in order (what Triton does),
// which is some permutation of the elements when both layouts put copies of
// an element in the same hardware slots. efficient_layout is only a hint to
// the layout passes.
struct ReshapeLowering : public ConvertOpToLLVMPattern<tt::ReshapeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tt::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto layouts = viewLayouts(op);
    if (failed(layouts))
      return failure();
    auto srcShape = SmallVector<int64_t>(
        cast<RankedTensorType>(op.getSrc().getType()).getShape());
    auto dstShape = SmallVector<int64_t>(
        cast<RankedTensorType>(op.getType()).getShape());
    auto project = [&](ArrayRef<int32_t> c) {
      return std::make_pair(
          0u, delinearizeCoords(linearizeCoords(c, dstShape), srcShape));
    };
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return op.emitError("cannot lower ") << op.getType();
    Location loc = op.getLoc();
    SmallVector<Value> in = unpackValues(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> out;
    if (auto map = remapFromOperands(layouts->srcs, layouts->dsts[0],
                                     project)) {
      for (auto [unused, r] : *map)
        out.push_back(in[r]);
    } else if (op.getAllowReorder() &&
               samePositionsIsPermutation(layouts->srcs[0],
                                          layouts->dsts[0])) {
      out = in;
    } else {
      return op.emitError(kMovesData);
    }
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, out));
    return success();
  }
};

// tt.cat concatenates along dim 0 in order, as the CPU oracle does (Triton
// may reorder, and simply appends the operands' registers; in order is one of
// the permutations it allows). In registers when the layouts allow it,
// otherwise through shared memory like a convert_layout: both operands
// written at their row-major offsets (rhs after lhs), a barrier, the result
// read back (tritongpu-membar places the barrier before the writes).
struct CatLowering : public ConvertOpToLLVMPattern<tt::CatOp> {
  CatLowering(TritonGPUToLLVMTypeConverter &converter,
              const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(tt::CatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto layouts = viewLayouts(op);
    if (failed(layouts))
      return failure();
    auto srcType = cast<RankedTensorType>(op.getLhs().getType());
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return op.emitError("cannot lower ") << op.getType();
    Location loc = op.getLoc();
    SmallVector<SmallVector<Value>> in = {
        unpackValues(rewriter, loc, adaptor.getLhs()),
        unpackValues(rewriter, loc, adaptor.getRhs())};
    int32_t rows = int32_t(srcType.getDimSize(0));
    auto project = [rows](ArrayRef<int32_t> c) {
      SmallVector<int32_t> s(c);
      s[0] %= rows;
      return std::make_pair(unsigned(c[0] / rows), s);
    };
    SmallVector<Value> out;
    if (auto map = remapFromOperands(layouts->srcs, layouts->dsts[0],
                                     project)) {
      for (auto [k, r] : *map)
        out.push_back(in[k][r]);
      rewriter.replaceOp(op, packValues(rewriter, loc, resultType, out));
      return success();
    }
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    Type memElem = getSharedMemoryType(elem);
    auto ptr3 = LLVM::LLVMPointerType::get(getContext(), 3);
    Value base = getSharedMemoryBase(rewriter, op);
    ArrayRef<int64_t> shape = srcType.getShape();
    auto srcIdx =
        emitIndices(rewriter, loc, layouts->srcs[0], info.threadsPerWarp);
    for (unsigned k = 0; k < 2; ++k) {
      Value start = i32Constant(rewriter, loc, k * srcType.getNumElements());
      for (auto [r, coords] : llvm::enumerate(srcIdx)) {
        Value v = toSharedMemoryValue(rewriter, loc, in[k][r]);
        Value off = LLVM::AddOp::create(
            rewriter, loc, start, linearize(rewriter, loc, coords, shape));
        Value p = LLVM::GEPOp::create(rewriter, loc, ptr3, memElem, base,
                                      ValueRange{off});
        LLVM::StoreOp::create(rewriter, loc, v, p);
      }
    }
    NVVM::Barrier0Op::create(rewriter, loc);
    auto dstIdx =
        emitIndices(rewriter, loc, layouts->dsts[0], info.threadsPerWarp);
    for (auto &coords : dstIdx) {
      Value p = LLVM::GEPOp::create(
          rewriter, loc, ptr3, memElem, base,
          ValueRange{linearize(rewriter, loc, coords,
                               cast<RankedTensorType>(op.getType()).getShape())});
      out.push_back(fromSharedMemoryValue(
          rewriter, loc, LLVM::LoadOp::create(rewriter, loc, memElem, p), elem));
    }
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, out));
    return success();
  }

  LoweringInfo info;
};

} // namespace

int64_t mlir::tgpu::getCatScratchBytes(Operation *op) {
  auto cat = dyn_cast<tt::CatOp>(op);
  if (!cat)
    return 0;
  auto srcType = cast<RankedTensorType>(cat.getLhs().getType());
  auto dstType = cast<RankedTensorType>(cat.getType());
  auto layouts = getLayoutsOrNone(srcType, dstType);
  if (!layouts)
    return 0;
  auto *src = &layouts->first, *dst = &layouts->second;
  int32_t rows = int32_t(srcType.getDimSize(0));
  auto project = [rows](ArrayRef<int32_t> c) {
    SmallVector<int32_t> s(c);
    s[0] %= rows;
    return std::make_pair(unsigned(c[0] / rows), s);
  };
  if (remapFromOperands({*src, *src}, *dst, project))
    return 0;
  return dstType.getNumElements() * memoryElementBytes(dstType);
}

int64_t mlir::tgpu::getConvertLayoutScratchBytes(Operation *op) {
  auto cvt = dyn_cast<ttg::ConvertLayoutOp>(op);
  if (!cvt)
    return 0;
  auto srcType = cast<RankedTensorType>(cvt.getSrc().getType());
  auto dstType = cast<RankedTensorType>(cvt.getType());
  auto layouts = getLayoutsOrNone(srcType, dstType);
  if (!layouts)
    return 0;
  auto *src = &layouts->first, *dst = &layouts->second;
  auto identity = [](ArrayRef<int32_t> c) { return SmallVector<int32_t>(c); };
  if (remapRegisters(*src, *dst, identity) ||
      ::tgpu::layout::planWarpShuffle(*src, *dst))
    return 0;
  return srcType.getNumElements() * memoryElementBytes(srcType);
}

void mlir::tgpu::populateViewOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<MakeRangeLowering, ConvertLayoutLowering>(converter, info);
  patterns.add<SplatLowering,
               RegisterRemapLowering<tt::BroadcastOp>,
               RegisterRemapLowering<tt::ExpandDimsOp>,
               RegisterRemapLowering<tt::TransOp>>(converter);
  patterns.add<JoinLowering, SplitLowering, ReshapeLowering>(converter);
  patterns.add<CatLowering>(converter, info);
}
