// Random ttg layouts as plain descriptions (see LayoutSpecs.h).
//
// The fuzz side's corpora replay through these draws (a byte string must
// keep meaning the same layouts), so the order of the draws in the one-kind
// functions and in programLayout / programSharedLayout / anyLayout is part of
// their contract: add new choices behind options or in new functions, not in
// between existing draws.
#include "fuzz/layoutgen/LayoutSpecs.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

namespace tgpu::gen {

int log2Of(int64_t v) {
  return v > 0 && llvm::isPowerOf2_64(uint64_t(v))
             ? int(llvm::Log2_64(uint64_t(v)))
             : -1;
}

bool powersOfTwo(llvm::ArrayRef<int64_t> shape) {
  for (int64_t s : shape)
    if (log2Of(s) < 0 || s > (int64_t(1) << 30))
      return false;
  return !shape.empty();
}

//===----------------------------------------------------------------------===//
// Plain values
//===----------------------------------------------------------------------===//

namespace {

std::vector<unsigned> u32(const std::vector<int64_t> &v) {
  return std::vector<unsigned>(v.begin(), v.end());
}

std::vector<layout::LinearLayout::Basis> bases32(const Bases &b) {
  std::vector<layout::LinearLayout::Basis> r;
  for (const auto &basis : b)
    r.push_back(layout::LinearLayout::Basis(basis.begin(), basis.end()));
  return r;
}

layout::CGALayout cgaOf(const LayoutSpec &s) {
  return layout::CGALayout{bases32(s.cga)};
}

} // namespace

llvm::Expected<layout::Encoding> toEncoding(const LayoutSpec &s) {
  using namespace layout;
  auto parentOf = [&]() -> llvm::Expected<std::shared_ptr<Encoding>> {
    llvm::Expected<Encoding> p = toEncoding(*s.parent);
    if (!p)
      return p.takeError();
    return std::make_shared<Encoding>(std::move(*p));
  };
  switch (s.kind) {
  case LayoutKind::Blocked:
    return Encoding(BlockedEncoding{u32(s.sizePerThread), u32(s.threadsPerWarp),
                                    u32(s.warpsPerCTA), u32(s.order),
                                    cgaOf(s)});
  case LayoutKind::Slice: {
    auto parent = parentOf();
    if (!parent)
      return parent.takeError();
    return Encoding(SliceEncoding{unsigned(s.dim), std::move(*parent)});
  }
  case LayoutKind::Linear: {
    // Out dim sizes read back from the bases, as from the attribute.
    auto l = LinearLayout::create({{"register", bases32(s.reg)},
                                   {"lane", bases32(s.lane)},
                                   {"warp", bases32(s.warp)},
                                   {"block", bases32(s.block)}},
                                  standardOutDimNames(unsigned(s.rank)));
    if (!l)
      return l.takeError();
    return Encoding(LinearEncoding{std::move(*l)});
  }
  case LayoutKind::NvidiaMma:
    return Encoding(
        NvidiaMmaEncoding{unsigned(s.versionMajor), unsigned(s.versionMinor),
                          u32(s.warpsPerCTA), u32(s.instrShape), cgaOf(s)});
  case LayoutKind::DotOperand: {
    auto parent = parentOf();
    if (!parent)
      return parent.takeError();
    return Encoding(DotOperandEncoding{unsigned(s.opIdx), std::move(*parent),
                                       unsigned(s.kWidth)});
  }
  case LayoutKind::SwizzledShared:
    return Encoding(
        SwizzledSharedEncoding{unsigned(s.vec), unsigned(s.perPhase),
                               unsigned(s.maxPhase), u32(s.order), cgaOf(s)});
  case LayoutKind::NVMMAShared:
    return Encoding(NVMMASharedEncoding{unsigned(s.swizzle), s.transposed,
                                        unsigned(s.bits), s.fp4Padded,
                                        unsigned(s.rank), cgaOf(s)});
  case LayoutKind::SharedLinear: {
    auto l = LinearLayout::create(
        {{"offset", bases32(s.offset)}, {"block", bases32(s.block)}},
        standardOutDimNames(unsigned(s.rank)));
    if (!l)
      return l.takeError();
    return Encoding(SharedLinearEncoding{std::move(*l), unsigned(s.alignment)});
  }
  case LayoutKind::Other:
    break;
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "not a layout description");
}

namespace draw {
namespace {

// `log2Total` doublings spread over `rank` dims at random.
std::vector<int64_t> split(ChoiceSource &c, unsigned rank, int log2Total) {
  std::vector<int64_t> v(rank, 1);
  for (int i = 0; i < log2Total && rank; ++i)
    v[c.below(rank)] *= 2;
  return v;
}

std::vector<int64_t> permutation(ChoiceSource &c, unsigned rank) {
  std::vector<int64_t> order(rank);
  std::iota(order.begin(), order.end(), 0);
  for (unsigned i = rank; i > 1; --i)
    std::swap(order[i - 1], order[c.below(i)]);
  return order;
}

// The tensor's index bits dealt to distinct random register / lane / warp
// slots (registers as many as needed, sometimes one or two more when
// `spareRegs`), zero bases in the spare slots, then XOR mixing of bases
// (b_j ^= b_i keeps their span, so every element stays covered), across
// dims only when `swizzle` (shared layouts).
void linearBases(ChoiceSource &c, llvm::ArrayRef<int64_t> shape, int laneBits,
                 int warpBits, bool spareRegs, bool swizzle, Bases &reg,
                 Bases &lane, Bases &warp) {
  unsigned rank = shape.size();
  std::vector<std::pair<unsigned, int>> bits; // (dim, bit)
  for (unsigned d = 0; d < rank; ++d)
    for (int b = 0; (int64_t(1) << b) < shape[d]; ++b)
      bits.push_back({d, b});
  int regBits = std::max<int>(0, int(bits.size()) - laneBits - warpBits) +
                (spareRegs && c.chance(1, 4) ? int(c.below(3)) : 0);
  int slots = regBits + laneBits + warpBits;
  std::vector<int> slot(slots);
  std::iota(slot.begin(), slot.end(), 0);
  for (int i = slots; i > 1; --i)
    std::swap(slot[i - 1], slot[c.below(i)]);
  Bases all(slots, std::vector<int64_t>(rank, 0));
  for (size_t t = 0; t < bits.size(); ++t)
    all[slot[t]][bits[t].first] = int64_t(1) << bits[t].second;
  // A distributed linear layout whose basis moves along two dims is invalid
  // (Triton 3.6 rejects it).
  auto dimOf = [&](const std::vector<int64_t> &b) {
    int d = -1;
    for (unsigned k = 0; k < rank; ++k)
      if (b[k])
        d = int(k);
    return d;
  };
  for (int m = c.below(slots + 1); m > 0 && slots > 1; --m) {
    int i = c.below(slots), j = c.below(slots);
    int di = dimOf(all[i]), dj = dimOf(all[j]);
    if (i != j && (swizzle || di < 0 || dj < 0 || di == dj))
      for (unsigned d = 0; d < rank; ++d)
        all[j][d] ^= all[i][d];
  }
  reg.assign(all.begin(), all.begin() + regBits);
  lane.assign(all.begin() + regBits, all.begin() + regBits + laneBits);
  warp.assign(all.begin() + regBits + laneBits, all.end());
}

Bases basesOf(const layout::LinearLayout &l, llvm::StringRef inDim) {
  Bases b;
  for (int i = 0; i < l.getInDimSizeLog2(inDim); ++i) {
    layout::LinearLayout::Basis basis = l.getBasis(inDim, i);
    b.push_back(std::vector<int64_t>(basis.begin(), basis.end()));
  }
  return b;
}

} // namespace

//===----------------------------------------------------------------------===//
// One kind each
//===----------------------------------------------------------------------===//

LayoutSpec blocked(ChoiceSource &c, unsigned rank, unsigned numWarps) {
  LayoutSpec s;
  s.kind = LayoutKind::Blocked;
  for (unsigned d = 0; d < rank; ++d)
    s.sizePerThread.push_back(int64_t(1) << c.below(4));
  s.threadsPerWarp = split(c, rank, 5);
  s.warpsPerCTA = split(c, rank, log2Of(numWarps));
  s.order = permutation(c, rank);
  return s;
}

Bases cgaBases(ChoiceSource &c, unsigned rank, unsigned numCTAs) {
  Bases b;
  std::vector<int64_t> next(rank, 1);
  for (unsigned n = 1; n < numCTAs; n *= 2) {
    std::vector<int64_t> basis(rank, 0);
    if (!c.chance(1, 4)) {
      unsigned d = c.below(rank);
      basis[d] = next[d];
      next[d] *= 2;
    }
    b.push_back(basis);
  }
  return b;
}

LayoutSpec blockedInCluster(ChoiceSource &c, unsigned rank, unsigned numWarps,
                            unsigned &numCTAs) {
  LayoutSpec s = blocked(c, rank, numWarps);
  if (c.chance(1, 4)) {
    numCTAs = 1u << c.below(3);
    s.cga = cgaBases(c, rank, numCTAs);
  } else if (c.chance(1, 6)) {
    s.legacyCTA = true;
  }
  return s;
}

LayoutSpec linear(ChoiceSource &c, llvm::ArrayRef<int64_t> shape,
                  unsigned numWarps) {
  LayoutSpec s;
  s.kind = LayoutKind::Linear;
  s.rank = shape.size();
  linearBases(c, shape, 5, log2Of(numWarps), /*spareRegs=*/true,
              /*swizzle=*/false, s.reg, s.lane, s.warp);
  return s;
}

llvm::Expected<LayoutSpec> linearOf(const LayoutSpec &of,
                                    llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<layout::Encoding> e = toEncoding(of);
  if (!e)
    return e.takeError();
  llvm::Expected<layout::LinearLayout> l = layout::toLinearLayout(shape, *e);
  if (!l)
    return l.takeError();
  LayoutSpec s;
  s.kind = LayoutKind::Linear;
  s.rank = shape.size();
  s.reg = basesOf(*l, "register");
  s.lane = basesOf(*l, "lane");
  s.warp = basesOf(*l, "warp");
  s.block = basesOf(*l, "block");
  return s;
}

LayoutSpec mmaV2(ChoiceSource &c, unsigned rank,
                 llvm::ArrayRef<int64_t> fitShape, unsigned numWarps) {
  LayoutSpec s;
  s.kind = LayoutKind::NvidiaMma;
  s.versionMajor = 2;
  s.warpsPerCTA.assign(rank, 1);
  int64_t tile[2] = {16, 8};
  for (int w = log2Of(numWarps); w > 0; --w) {
    unsigned d = rank - 2 + c.below(2);
    // Away from a dim whose warps would leave the shape, toward one where
    // they still fit.
    for (unsigned k = 0; k < 2 && !fitShape.empty(); ++k) {
      unsigned dk = rank - 2 + k;
      if (s.warpsPerCTA[d] * tile[d - (rank - 2)] * 2 > fitShape[d] &&
          s.warpsPerCTA[dk] * tile[k] * 2 <= fitShape[dk])
        d = dk;
    }
    if (rank == 3 && c.chance(1, 4))
      d = 0;
    s.warpsPerCTA[d] *= 2;
  }
  s.instrShape =
      rank == 3 ? std::vector<int64_t>{1, 16, 8} : std::vector<int64_t>{16, 8};
  return s;
}

LayoutSpec mmaV3(ChoiceSource &c, unsigned numWarps) {
  LayoutSpec s;
  s.kind = LayoutKind::NvidiaMma;
  s.versionMajor = 3;
  int w = log2Of(numWarps);
  s.warpsPerCTA = {4, 1};
  for (int i = 2; i < w; ++i)
    s.warpsPerCTA[c.below(2)] *= 2;
  static const int64_t ks[] = {8, 16, 32};
  s.instrShape = {16, int64_t(8) << c.below(6), ks[c.below(3)]};
  return s;
}

LayoutSpec anyMma(ChoiceSource &c, unsigned rank,
                  llvm::ArrayRef<int64_t> fitShape, unsigned numWarps) {
  if (rank == 2 && numWarps >= 4 && c.chance(1, 3))
    return mmaV3(c, numWarps);
  return mmaV2(c, rank, fitShape, numWarps);
}

LayoutSpec sliceOf(unsigned dim, LayoutSpec parent) {
  LayoutSpec s;
  s.kind = LayoutKind::Slice;
  s.dim = dim;
  s.parent = std::make_shared<LayoutSpec>(std::move(parent));
  return s;
}

LayoutSpec dotOperand(ChoiceSource &c, unsigned opIdx, LayoutSpec parent) {
  LayoutSpec s;
  s.kind = LayoutKind::DotOperand;
  bool mma = parent.kind == LayoutKind::NvidiaMma;
  s.opIdx = mma && parent.versionMajor == 3 ? 0 : opIdx;
  s.parent = std::make_shared<LayoutSpec>(std::move(parent));
  if (mma)
    s.kWidth = int64_t(1) << c.below(4);
  return s;
}

LayoutSpec anyDotOperand(ChoiceSource &c, unsigned rank,
                         llvm::ArrayRef<int64_t> fitShape, unsigned numWarps) {
  unsigned opIdx = c.below(2);
  if (c.coin())
    return dotOperand(c, opIdx, blocked(c, rank, numWarps));
  return dotOperand(c, opIdx, anyMma(c, rank, fitShape, numWarps));
}

LayoutSpec swizzledShared(ChoiceSource &c, unsigned rank) {
  LayoutSpec s;
  s.kind = LayoutKind::SwizzledShared;
  s.vec = int64_t(1) << c.below(4);
  s.perPhase = int64_t(1) << c.below(4);
  s.maxPhase = int64_t(1) << c.below(4);
  s.order = permutation(c, rank);
  return s;
}

bool nvmmaSwizzleFits(llvm::ArrayRef<int64_t> shape, const LayoutSpec &s) {
  unsigned rank = shape.size();
  if (rank < 2)
    return false;
  auto box = [&](unsigned d) { return std::min<int64_t>(shape[d], 256); };
  int64_t contiguous = box(s.transposed ? 0 : rank - 1);
  int64_t rows = 1;
  if (s.transposed)
    rows = box(rank - 1);
  else
    for (unsigned d = 0; d + 1 < rank; ++d)
      rows *= box(d);
  return contiguous >= 8 * s.swizzle / s.bits && rows >= 8;
}

LayoutSpec nvmmaShared(ChoiceSource &c, llvm::ArrayRef<int64_t> shape,
                       bool transposedSwizzles) {
  LayoutSpec s;
  s.kind = LayoutKind::NVMMAShared;
  static const int64_t bitsChoices[] = {8, 16, 32};
  s.bits = bitsChoices[c.below(3)];
  s.rank = shape.size();
  static const int64_t swizzles[] = {0, 32, 64, 128};
  s.swizzle = swizzles[c.below(4)];
  s.transposed = (s.swizzle == 0 || transposedSwizzles) && c.coin();
  if (s.swizzle && !nvmmaSwizzleFits(shape, s))
    s.swizzle = 0;
  return s;
}

LayoutSpec sharedLinear(ChoiceSource &c, llvm::ArrayRef<int64_t> shape) {
  LayoutSpec s;
  s.kind = LayoutKind::SharedLinear;
  s.rank = shape.size();
  Bases lane, warp;
  // Exactly one offset per element: every index bit to an offset bit.
  linearBases(c, shape, 0, 0, /*spareRegs=*/false, /*swizzle=*/true, s.offset,
              lane, warp);
  s.alignment = int64_t(1) << c.below(8);
  return s;
}

//===----------------------------------------------------------------------===//
// Mixtures
//===----------------------------------------------------------------------===//

LayoutSpec programLayout(ChoiceSource &c, llvm::ArrayRef<int64_t> shape,
                         unsigned numWarps, bool allowMma) {
  unsigned rank = shape.size();
  bool mmaFits = allowMma && rank == 2 && shape[0] >= 16 && shape[1] >= 8;
  // blocked, slice, linear, dot_op, nvidia_mma v2 (when it fits)
  static const unsigned weights[] = {4, 2, 3, 1, 2};
  switch (c.weighted(llvm::ArrayRef<unsigned>(weights, mmaFits ? 5 : 4))) {
  case 1:
    if (rank <= 3) {
      unsigned dim = c.below(rank + 1);
      return sliceOf(dim, blocked(c, rank + 1, numWarps));
    }
    break;
  case 2:
    return linear(c, shape, numWarps);
  case 3:
    if (rank == 2 || rank == 3) {
      // A dot operand's layout holds any tensor of its rank; the parent is
      // blocked (FMA) or, where it fits, mma v2.
      unsigned opIdx = c.below(2);
      if (mmaFits && c.coin())
        return dotOperand(c, opIdx, mmaV2(c, rank, shape, numWarps));
      return dotOperand(c, opIdx, blocked(c, rank, numWarps));
    }
    break;
  case 4:
    return mmaV2(c, rank, shape, numWarps);
  default:
    break;
  }
  return blocked(c, rank, numWarps);
}

LayoutSpec programSharedLayout(ChoiceSource &c, llvm::ArrayRef<int64_t> shape,
                               unsigned elementBits) {
  int64_t elements = 1;
  for (int64_t d : shape)
    elements *= d;
  bool nvmmaBits = elementBits == 8 || elementBits == 16 || elementBits == 32;
  switch (c.below(3)) {
  case 1:
    if (nvmmaBits) {
      // The attribute's element width is the memdesc's.
      LayoutSpec s = nvmmaShared(c, shape);
      s.bits = elementBits;
      if (s.swizzle && !nvmmaSwizzleFits(shape, s))
        s.swizzle = 0;
      return s;
    }
    break;
  case 2:
    if (elements > 1)
      return sharedLinear(c, shape);
    break;
  default:
    break;
  }
  return swizzledShared(c, unsigned(shape.size()));
}

LayoutSpec anyLayout(ChoiceSource &c, llvm::ArrayRef<int64_t> shape,
                     unsigned numWarps, unsigned &numCTAs) {
  unsigned rank = shape.size();
  static const unsigned weights[] = {6, 4, 4, 3, 3, 2, 2, 2};
  switch (c.weighted(weights)) {
  case 0:
    return blockedInCluster(c, rank, numWarps, numCTAs);
  case 1: {
    if (rank > 3)
      break;
    // Slice of a blocked, linear or (for rank 1) mma parent of rank + 1.
    unsigned dim = c.below(rank + 1);
    std::vector<int64_t> parentShape(shape.begin(), shape.end());
    parentShape.insert(parentShape.begin() + dim, 1);
    unsigned which = c.below(rank == 1 ? 3 : 2);
    return sliceOf(dim, which == 0 ? blocked(c, rank + 1, numWarps)
                        : which == 1
                            ? linear(c, parentShape, numWarps)
                            : mmaV2(c, rank + 1, parentShape, numWarps));
  }
  case 2:
    return linear(c, shape, numWarps);
  case 3:
    if (rank == 2 || rank == 3)
      return anyMma(c, rank, shape, numWarps);
    break;
  case 4:
    if (rank == 2 || rank == 3)
      return anyDotOperand(c, rank, shape, numWarps);
    break;
  case 5:
    return swizzledShared(c, rank);
  case 6:
    return nvmmaShared(c, shape);
  case 7: {
    // The attribute's rank comes from its bases: a one-element tensor has
    // none, so it cannot be written as shared_linear.
    int64_t elements = 1;
    for (int64_t d : shape)
      elements *= d;
    if (elements > 1)
      return sharedLinear(c, shape);
    return swizzledShared(c, rank);
  }
  }
  return blocked(c, rank, numWarps);
}

llvm::Expected<LayoutSpec> anyDistributed(ChoiceSource &c, unsigned rank,
                                          unsigned numWarps, unsigned maxCTAs,
                                          int depth) {
  // Every blocked layout over a CGA of 1..maxCTAs CTAs; wgmma half the time
  // it can be.
  auto blockedOverCGA = [&] {
    LayoutSpec s = blocked(c, rank, numWarps);
    s.cga = cgaBases(c, rank, 1u << c.below(log2Of(maxCTAs) + 1));
    return s;
  };
  auto mma = [&] {
    if (rank == 2 && numWarps >= 4 && c.coin())
      return mmaV3(c, numWarps);
    return mmaV2(c, rank, {}, numWarps);
  };
  switch (c.below(depth < 1 ? 5 : 3)) {
  case 1:
    if (rank == 2 || rank == 3)
      return mma();
    [[fallthrough]];
  case 2:
    // A dot operand of rank 4 has a blocked parent (no mma of rank 4).
    if (rank >= 2) {
      unsigned opIdx = c.below(2);
      return dotOperand(c, opIdx,
                        c.coin() || rank > 3 ? blockedOverCGA() : mma());
    }
    break;
  case 3:
    return anySlice(c, rank, numWarps, maxCTAs, depth);
  case 4: {
    llvm::Expected<LayoutSpec> of =
        anyDistributed(c, rank, numWarps, maxCTAs, depth + 1);
    if (!of)
      return of.takeError();
    std::vector<int64_t> shape;
    for (unsigned d = 0; d < rank; ++d)
      shape.push_back(int64_t(1) << c.below(7));
    return linearOf(*of, shape);
  }
  default:
    break;
  }
  return blockedOverCGA();
}

llvm::Expected<LayoutSpec> anySlice(ChoiceSource &c, unsigned rank,
                                    unsigned numWarps, unsigned maxCTAs,
                                    int depth) {
  unsigned dim = c.below(rank + 1);
  llvm::Expected<LayoutSpec> parent =
      anyDistributed(c, rank + 1, numWarps, maxCTAs, depth + 1);
  if (!parent)
    return parent.takeError();
  return sliceOf(dim, std::move(*parent));
}

} // namespace draw
} // namespace tgpu::gen
