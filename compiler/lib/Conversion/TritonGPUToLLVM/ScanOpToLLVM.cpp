// tt.scan (inclusive, optionally reverse) along `axis`, read off the
// operand's LinearLayout. Every axis bit of an element's position comes from
// one hardware bit; the lowering needs them ordered, from the least
// significant, as registers ("chunk"), lanes (one contiguous run of lane-id
// bits), warps, then registers again ("blocks", the layout's wrap-around).
// Steps: a sequential scan of each chunk in registers; a Hillis-Steele scan
// of the chunk totals across lanes (shfl.sync.up, .down when reversed); the
// warp totals of each block through shared memory (or a shuffle from the
// last lane when no warp splits the axis); then every element combined with
// the prefix of the blocks, warps and lanes before it. A reverse scan is the
// same with every position's rank mirrored. The combine region gets
// (earlier, later) in that order everywhere, since scans need only be
// associative. Bits that move along no axis position (copies, other dims)
// are left alone, so lanes and warps holding copies compute the same values.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"

#include <map>

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;

namespace {

// How the axis bits of a layout split into hardware bits.
struct ScanShape {
  int chunkBits = 0;         // register bits below the lanes
  int laneBits = 0;          // lane bits, lane-id bits [laneShift, +laneBits)
  int laneShift = 0;
  SmallVector<int> warpBits; // warp-id bit of each warp axis bit, low first
  int blockBits = 0;         // register bits above the warps
  int axisBits() const {
    return chunkBits + laneBits + int(warpBits.size()) + blockBits;
  }
};

// The scan shape of `layout` along `axis`, or a diagnostic naming why the
// layout cannot be scanned this way (when `op` is given).
FailureOr<ScanShape> getScanShape(const LinearLayout &layout, unsigned axis,
                                  Operation *op) {
  auto fail = [&](const Twine &why) -> FailureOr<ScanShape> {
    if (op)
      op->emitError("cannot scan this layout: ") << why;
    return failure();
  };
  int axisLog2 = layout.getOutDimSizeLog2(layout.getOutDimNames()[axis]);
  enum Kind { None, Reg, Lane, Warp };
  SmallVector<std::pair<Kind, int>> source(axisLog2, {None, 0});
  const std::pair<StringRef, Kind> dims[] = {
      {"register", Reg}, {"lane", Lane}, {"warp", Warp}, {"block", None}};
  for (auto [dimName, kind] : dims) {
    if (!layout.hasInDim(dimName))
      continue;
    for (int i = 0; i < layout.getInDimSizeLog2(dimName); ++i) {
      SmallVector<int32_t> c = layoutCoords(layout, dimName, int32_t(1) << i);
      if (c[axis] == 0)
        continue;
      for (unsigned d = 0; d < c.size(); ++d)
        if (d != axis && c[d] != 0)
          return fail(Twine(dimName) + " bit " + Twine(i) +
                      " moves along the axis and another dim at once");
      if (!llvm::isPowerOf2_32(uint32_t(c[axis])))
        return fail(Twine(dimName) + " bit " + Twine(i) +
                    " moves along several axis bits");
      if (kind == None)
        return fail("the axis is split across CTAs");
      int k = llvm::Log2_32(uint32_t(c[axis]));
      if (source[k].first != None)
        return fail("two hardware bits move along axis bit " + Twine(k));
      source[k] = {kind, i};
    }
  }
  ScanShape shape;
  int k = 0;
  while (k < axisLog2 && source[k].first == Reg)
    ++k, ++shape.chunkBits;
  if (k < axisLog2 && source[k].first == Lane) {
    shape.laneShift = source[k].second;
    while (k < axisLog2 && source[k].first == Lane) {
      if (source[k].second != shape.laneShift + shape.laneBits)
        return fail("the lanes along the axis are not consecutive lane ids");
      ++k, ++shape.laneBits;
    }
  }
  while (k < axisLog2 && source[k].first == Warp)
    shape.warpBits.push_back(source[k++].second);
  while (k < axisLog2 && source[k].first == Reg)
    ++k, ++shape.blockBits;
  if (k < axisLog2)
    return fail(source[k].first == None
                    ? Twine("axis bit ") + Twine(k) + " has no hardware bit"
                    : Twine("the axis is not split as registers, lanes, "
                            "warps, registers (from its lowest bit)"));
  return shape;
}

// Applies the combine region to (earlier, later).
SmallVector<Value> combine(ConversionPatternRewriter &rewriter,
                           tt::ScanOp op, ArrayRef<Value> earlier,
                           ArrayRef<Value> later) {
  return inlineCombineRegion(rewriter, op.getCombineOp().front(), earlier, later);
}

// A partial result that may be missing: statically (no values) or at run
// time (`valid` false in some threads). A null `valid` means always there.
struct Partial {
  SmallVector<Value> values;
  Value valid;
  bool present() const { return !values.empty(); }
};

Partial combinePartial(ConversionPatternRewriter &rewriter, Location loc,
                       tt::ScanOp op, const Partial &a, const Partial &b) {
  if (!a.present())
    return b;
  if (!b.present())
    return a;
  SmallVector<Value> both = combine(rewriter, op, a.values, b.values);
  if (!a.valid && !b.valid)
    return {both, Value()};
  Partial out;
  for (auto [x, y, xy] : llvm::zip(a.values, b.values, both)) {
    Value v = xy;
    if (b.valid)
      v = LLVM::SelectOp::create(rewriter, loc, b.valid, v, x);
    if (a.valid)
      v = LLVM::SelectOp::create(rewriter, loc, a.valid, v, y);
    out.values.push_back(v);
  }
  if (a.valid && b.valid)
    out.valid = LLVM::OrOp::create(rewriter, loc, a.valid, b.valid);
  return out;
}

SmallVector<Value> shuffleAll(ConversionPatternRewriter &rewriter,
                              Location loc, ArrayRef<Value> values,
                              NVVM::ShflKind kind, Value laneOrDelta) {
  SmallVector<Value> out;
  for (Value v : values)
    out.push_back(emitShuffle(rewriter, loc, v, kind, laneOrDelta));
  return out;
}

// Where each operand's warp totals start in the scratch buffer, in bytes
// (8-byte aligned), and the total.
SmallVector<int64_t> scratchRegions(tt::ScanOp op, int64_t slots,
                                    int64_t &total) {
  SmallVector<int64_t> starts;
  total = 0;
  for (Value src : op.getSrcs()) {
    starts.push_back(total);
    total += llvm::alignTo(slots * memoryElementBytes(src.getType()), 8);
  }
  return starts;
}

struct ScanLowering : public ConvertOpToLLVMPattern<tt::ScanOp> {
  ScanLowering(TritonGPUToLLVMTypeConverter &converter,
               const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(tt::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    unsigned axis = op.getAxis();
    bool reverse = op.getReverse();
    if (axis >= srcType.getRank())
      return op.emitError("scan axis out of range");
    auto layout = getDistributedLayout(srcType, loc);
    if (failed(layout))
      return failure();
    for (Value v : op.getResult()) {
      auto l = getDistributedLayout(cast<RankedTensorType>(v.getType()), loc);
      if (failed(l))
        return failure();
      if (*l != *layout)
        return op.emitError("scan results must have the operand's layout");
    }
    auto shape = getScanShape(*layout, axis, op);
    if (failed(shape))
      return failure();
    unsigned n = op.getSrcs().size();
    SmallVector<SmallVector<Value>> srcValues;
    for (Value v : adaptor.getSrcs())
      srcValues.push_back(unpackValues(rewriter, loc, v));

    int64_t chunks = int64_t(1) << shape->chunkBits;
    int64_t blocks = int64_t(1) << shape->blockBits;
    int64_t warpsAlong = int64_t(1) << shape->warpBits.size();
    int32_t lanesAlong = int32_t(1) << shape->laneBits;
    int belowBlocks = shape->axisBits() - shape->blockBits;
    // The rank of a position in scan order: reverse scans mirror it.
    auto rankOf = [&](int64_t idx, int64_t count) {
      return reverse ? count - 1 - idx : idx;
    };

    // Registers grouped by their coordinates off the axis; within a group,
    // by (block rank, chunk rank). Copies share a slot.
    struct Group {
      int32_t firstReg;
      SmallVector<SmallVector<int32_t>> slotReg; // [block][chunk] -> register
    };
    SmallVector<Group> groups;
    std::map<SmallVector<int32_t>, unsigned> groupOf;
    SmallVector<std::tuple<unsigned, int64_t, int64_t>> regSlot;
    int32_t regs = layout->getInDimSize("register");
    for (int32_t r = 0; r < regs; ++r) {
      SmallVector<int32_t> c = layoutCoords(*layout, "register", r);
      int64_t pos = c[axis];
      c[axis] = 0;
      auto [it, fresh] = groupOf.try_emplace(c, groups.size());
      if (fresh)
        groups.push_back(
            {r, SmallVector<SmallVector<int32_t>>(
                    blocks, SmallVector<int32_t>(chunks, -1))});
      int64_t b = rankOf(pos >> belowBlocks, blocks);
      int64_t ch = rankOf(pos & (chunks - 1), chunks);
      int32_t &slot = groups[it->second].slotReg[b][ch];
      if (slot < 0)
        slot = r;
      regSlot.push_back({it->second, b, ch});
    }

    auto [lane, warp] = getLaneAndWarpId(rewriter, loc, info.threadsPerWarp);
    NVVM::ShflKind towardsLater =
        reverse ? NVVM::ShflKind::down : NVVM::ShflKind::up;
    // This lane's and warp's ranks along the axis.
    Value laneRank, warpRank;
    if (shape->laneBits > 0) {
      laneRank = LLVM::AndOp::create(
          rewriter, loc,
          LLVM::LShrOp::create(rewriter, loc, lane,
                               i32Constant(rewriter, loc, shape->laneShift)),
          i32Constant(rewriter, loc, lanesAlong - 1));
      if (reverse)
        laneRank = LLVM::XOrOp::create(rewriter, loc, laneRank,
                                       i32Constant(rewriter, loc,
                                                   lanesAlong - 1));
    }
    if (warpsAlong > 1) {
      warpRank = i32Constant(rewriter, loc, 0);
      for (auto [k, bit] : llvm::enumerate(shape->warpBits)) {
        Value b = LLVM::AndOp::create(
            rewriter, loc,
            LLVM::LShrOp::create(rewriter, loc, warp,
                                 i32Constant(rewriter, loc, bit)),
            i32Constant(rewriter, loc, 1));
        warpRank = LLVM::OrOp::create(
            rewriter, loc, warpRank,
            LLVM::ShlOp::create(rewriter, loc, b,
                                i32Constant(rewriter, loc, int32_t(k))));
      }
      if (reverse)
        warpRank = LLVM::XOrOp::create(
            rewriter, loc, warpRank,
            i32Constant(rewriter, loc, int32_t(warpsAlong - 1)));
    }

    // Per group and block rank: the chunk's inclusive scans, the inclusive
    // scan of chunk totals over the lanes before and at this one, the
    // exclusive one, and the warp's total.
    struct BlockState {
      SmallVector<SmallVector<Value>> chunk; // [chunk rank][operand]
      SmallVector<Value> laneInclusive; // ends with the last chunk
      Partial laneExclusive;            // only needed for other chunks
      SmallVector<Value> warpTotal;
      Partial before; // everything before this warp's part of the block
    };
    SmallVector<std::vector<BlockState>> state(groups.size());
    for (auto [gi, g] : llvm::enumerate(groups)) {
      state[gi].resize(blocks);
      for (int64_t b = 0; b < blocks; ++b) {
        BlockState &st = state[gi][b];
        // 1. In registers, in rank order.
        SmallVector<Value> acc;
        for (int64_t ch = 0; ch < chunks; ++ch) {
          SmallVector<Value> cur;
          for (unsigned k = 0; k < n; ++k)
            cur.push_back(srcValues[k][g.slotReg[b][ch]]);
          acc = ch == 0 ? cur : combine(rewriter, op, acc, cur);
          st.chunk.push_back(acc);
        }
        // 2. Across lanes: step i takes the value 2^i lanes earlier.
        SmallVector<Value> scan = acc;
        for (int i = 0; i < shape->laneBits; ++i) {
          Value delta = i32Constant(rewriter, loc, 1 << (shape->laneShift + i));
          SmallVector<Value> other =
              shuffleAll(rewriter, loc, scan, towardsLater, delta);
          SmallVector<Value> both = combine(rewriter, op, other, scan);
          Value take = LLVM::ICmpOp::create(
              rewriter, loc, LLVM::ICmpPredicate::uge, laneRank,
              i32Constant(rewriter, loc, 1 << i));
          for (unsigned k = 0; k < n; ++k)
            scan[k] = LLVM::SelectOp::create(rewriter, loc, take, both[k],
                                             scan[k]);
        }
        st.laneInclusive = scan;
        if (shape->laneBits > 0 && chunks > 1) {
          st.laneExclusive.values = shuffleAll(
              rewriter, loc, scan, towardsLater,
              i32Constant(rewriter, loc, 1 << shape->laneShift));
          st.laneExclusive.valid =
              LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne,
                                   laneRank, i32Constant(rewriter, loc, 0));
        }
        if (shape->laneBits > 0) {
          if (warpsAlong > 1 || blocks > 1) {
            // The warp's total is at its last lane in rank order.
            int32_t mask = (lanesAlong - 1) << shape->laneShift;
            Value last =
                reverse ? Value(LLVM::AndOp::create(
                              rewriter, loc, lane,
                              i32Constant(rewriter, loc, ~mask)))
                        : Value(LLVM::OrOp::create(
                              rewriter, loc, lane,
                              i32Constant(rewriter, loc, mask)));
            st.warpTotal = shuffleAll(rewriter, loc, scan,
                                      NVVM::ShflKind::idx, last);
          }
        } else {
          st.warpTotal = scan;
        }
      }
    }

    // 3. Across warps and blocks.
    if (warpsAlong > 1) {
      auto indices = emitIndices(rewriter, loc, *layout, info.threadsPerWarp);
      SmallVector<int64_t> offShape(srcType.getShape());
      offShape.erase(offShape.begin() + axis);
      int64_t lines = 1;
      for (int64_t d : offShape)
        lines *= d;
      int64_t slots = blocks * warpsAlong * lines;
      int64_t total;
      SmallVector<int64_t> starts = scratchRegions(op, slots, total);
      Value base = getSharedMemoryBase(rewriter, op);
      auto ptr3 = LLVM::LLVMPointerType::get(getContext(), 3);
      Type i8 = rewriter.getI8Type();
      auto slotPtr = [&](unsigned k, Type memType, Value slot) {
        Value region = LLVM::GEPOp::create(
            rewriter, loc, ptr3, i8, base,
            ArrayRef<LLVM::GEPArg>{int32_t(starts[k])});
        return LLVM::GEPOp::create(rewriter, loc, ptr3, memType, region,
                                   ValueRange{slot});
      };
      auto memTypeOf = [](Type t) { return getSharedMemoryType(t); };
      // slot = ((block * warpsAlong + warp) * lines + line)
      SmallVector<Value> lineOf;
      for (Group &g : groups) {
        SmallVector<Value> coords(indices[g.firstReg]);
        coords.erase(coords.begin() + axis);
        lineOf.push_back(linearize(rewriter, loc, coords, offShape));
      }
      auto slotIndex = [&](unsigned gi, Value blockWarp) {
        return LLVM::AddOp::create(
            rewriter, loc,
            LLVM::MulOp::create(rewriter, loc, blockWarp,
                                i32Constant(rewriter, loc, int32_t(lines))),
            lineOf[gi]);
      };
      for (auto [gi, g] : llvm::enumerate(groups))
        for (int64_t b = 0; b < blocks; ++b) {
          Value blockWarp = LLVM::AddOp::create(
              rewriter, loc,
              i32Constant(rewriter, loc, int32_t(b * warpsAlong)), warpRank);
          Value slot = slotIndex(gi, blockWarp);
          for (unsigned k = 0; k < n; ++k) {
            Value v = state[gi][b].warpTotal[k];
            Type memType = memTypeOf(v.getType());
            if (memType != v.getType())
              v = LLVM::ZExtOp::create(rewriter, loc, memType, v);
            LLVM::StoreOp::create(rewriter, loc, v, slotPtr(k, memType, slot));
          }
        }
      NVVM::Barrier0Op::create(rewriter, loc);
      for (auto [gi, g] : llvm::enumerate(groups)) {
        Partial earlierBlocks;
        for (int64_t b = 0; b < blocks; ++b) {
          Partial before = earlierBlocks;
          for (int64_t w = 0; w < warpsAlong; ++w) {
            Value slot = slotIndex(
                gi, i32Constant(rewriter, loc, int32_t(b * warpsAlong + w)));
            Partial t;
            for (unsigned k = 0; k < n; ++k) {
              Type type = state[gi][b].warpTotal[k].getType();
              Type memType = memTypeOf(type);
              Value v = LLVM::LoadOp::create(rewriter, loc, memType,
                                             slotPtr(k, memType, slot));
              if (memType != type)
                v = LLVM::TruncOp::create(rewriter, loc, type, v);
              t.values.push_back(v);
            }
            Partial dyn = t;
            dyn.valid = LLVM::ICmpOp::create(
                rewriter, loc, LLVM::ICmpPredicate::ult,
                i32Constant(rewriter, loc, int32_t(w)), warpRank);
            before = combinePartial(rewriter, loc, op, before, dyn);
            if (b + 1 < blocks)
              earlierBlocks =
                  combinePartial(rewriter, loc, op, earlierBlocks, t);
          }
          state[gi][b].before = before;
        }
      }
    } else if (blocks > 1) {
      for (auto [gi, g] : llvm::enumerate(groups)) {
        Partial earlierBlocks;
        for (int64_t b = 0; b < blocks; ++b) {
          state[gi][b].before = earlierBlocks;
          if (b + 1 < blocks)
            earlierBlocks = combinePartial(rewriter, loc, op, earlierBlocks,
                                           {state[gi][b].warpTotal, Value()});
        }
      }
    }

    // 4. Every element after its prefix.
    SmallVector<SmallVector<SmallVector<SmallVector<Value>>>> finals(
        groups.size());
    for (auto [gi, g] : llvm::enumerate(groups)) {
      finals[gi].resize(blocks);
      for (int64_t b = 0; b < blocks; ++b) {
        BlockState &st = state[gi][b];
        Partial prefix;
        if (chunks > 1)
          prefix =
              combinePartial(rewriter, loc, op, st.before, st.laneExclusive);
        for (int64_t ch = 0; ch + 1 < chunks; ++ch)
          finals[gi][b].push_back(
              combinePartial(rewriter, loc, op, prefix, {st.chunk[ch], Value()})
                  .values);
        // The last chunk's lane-inclusive scan already has the lanes before.
        finals[gi][b].push_back(combinePartial(rewriter, loc, op, st.before,
                                               {st.laneInclusive, Value()})
                                    .values);
      }
    }
    SmallVector<Value> results;
    for (unsigned k = 0; k < n; ++k) {
      SmallVector<Value> values;
      for (auto [gi, b, ch] : regSlot)
        values.push_back(finals[gi][b][ch][k]);
      Type lowered = getTypeConverter()->convertType(op.getResult()[k].getType());
      if (!lowered)
        return op.emitError("cannot lower ") << op.getResult()[k].getType();
      results.push_back(packValues(rewriter, loc, lowered, values));
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  LoweringInfo info;
};

} // namespace

int64_t mlir::tgpu::getScanScratchBytes(Operation *op) {
  auto scan = dyn_cast<tt::ScanOp>(op);
  if (!scan || scan.getSrcs().empty())
    return 0;
  auto srcType = cast<RankedTensorType>(scan.getSrcs()[0].getType());
  if (!srcType.getEncoding() || scan.getAxis() >= srcType.getRank())
    return 0;
  auto layout = ::tgpu::layout::toLinearLayout(srcType.getShape(),
                                               srcType.getEncoding());
  if (!layout) {
    llvm::consumeError(layout.takeError());
    return 0;
  }
  // Layouts the lowering rejects need nothing; it reports them.
  auto shape = getScanShape(*layout, scan.getAxis(), nullptr);
  if (failed(shape) || shape->warpBits.empty())
    return 0;
  int64_t slots = (int64_t(1) << (shape->blockBits + shape->warpBits.size())) *
                  (srcType.getNumElements() / srcType.getDimSize(scan.getAxis()));
  int64_t total;
  scratchRegions(scan, slots, total);
  return total;
}

void mlir::tgpu::populateScanOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<ScanLowering>(converter, info);
}
