#include "tgpu/Layout/SharedStaging.h"

#include <algorithm>
#include <map>
#include <set>

namespace tgpu::layout {

namespace {

// Vectors over GF(2) are packed out words of the tensor's dims (the
// LinearLayout's packOut format), at most kMaxTotalBits bits.
using Vec = uint64_t;

// Incremental Gaussian elimination: a basis with distinct leading bits,
// each row remembering which vectors it was made of (`tag`), so that a
// vector in the span can be written as a combination of the inserted ones.
class Span {
public:
  // Reduces `v` by the rows; returns the remainder and, in `tag`, the
  // combination of inserted tags used.
  Vec reduce(Vec v, Vec &tag) const {
    tag = 0;
    for (const Row &row : rows)
      if (v & row.lead) {
        v ^= row.v;
        tag ^= row.tag;
      }
    return v;
  }
  bool contains(Vec v) const {
    Vec tag;
    return reduce(v, tag) == 0;
  }
  // Adds `v` (tagged `tag`) if independent; returns whether it was.
  bool insert(Vec v, Vec tag) {
    Vec used;
    v = reduce(v, used);
    if (!v)
      return false;
    tag ^= used;
    Vec lead = v & -v;
    // Keep rows reduced against the new leading bit.
    for (Row &row : rows)
      if (row.v & lead) {
        row.v ^= v;
        row.tag ^= tag;
      }
    rows.push_back({v, tag, lead});
    return true;
  }

private:
  struct Row {
    Vec v, tag, lead;
  };
  std::vector<Row> rows;
};

Vec basisWord(const LinearLayout &l, llvm::StringRef inDim, int i) {
  return l.packOut(l.getBasis(inDim, i));
}

std::vector<Vec> basesOf(const LinearLayout &l, llvm::StringRef inDim) {
  std::vector<Vec> out;
  for (int i = 0; i < l.getInDimSizeLog2(inDim); ++i)
    out.push_back(basisWord(l, inDim, i));
  return out;
}

int log2Floor(int64_t v) {
  int r = 0;
  while (v > 1) {
    v >>= 1;
    ++r;
  }
  return r;
}

// Lanes served by one shared-memory wavefront for `bytes`-wide accesses.
int lanesPerWavefrontLog2(int64_t bytes) {
  return std::min(5, log2Floor(std::max<int64_t>(1, 128 / bytes)));
}

} // namespace

// As chooseStagingLayout with at most 2^maxVectorLog2 elements per access;
// fails (no layout) when some thread's vector would not start at a multiple
// of the vector size.
static llvm::Expected<std::optional<StagingLayout>>
chooseWithVectorLimit(const LinearLayout &src, const LinearLayout &dst,
                      int elementBytes, int maxVectorLog2) {
  if (src.getOutDims() != dst.getOutDims())
    return llvm::createStringError(
        "staging layout: the two layouts have different out dims");
  if (!src.isSurjective() || !dst.isSurjective())
    return llvm::createStringError(
        "staging layout: a layout does not cover its tensor");
  if (elementBytes <= 0 || elementBytes > 16 ||
      (elementBytes & (elementBytes - 1)))
    return llvm::createStringError(
        "staging layout: element size must be 1, 2, 4, 8 or 16 bytes");
  const int n = src.getTotalOutDimSizeLog2();

  // offset bit i -> the tensor element vector it selects (M⁻¹).
  std::vector<Vec> columns;
  Span span;
  auto place = [&](Vec v) {
    if (v && span.insert(v, Vec(1) << columns.size())) {
      columns.push_back(v);
      return true;
    }
    return false;
  };

  // 1. The shared lowest register bits, up to 16 bytes.
  std::vector<Vec> srcRegs = basesOf(src, "register");
  std::vector<Vec> dstRegs = basesOf(dst, "register");
  int vec = 0;
  while (vec < maxVectorLog2 && vec < int(srcRegs.size()) &&
         vec < int(dstRegs.size()) &&
         srcRegs[vec] == dstRegs[vec] &&
         (int64_t(elementBytes) << (vec + 1)) <= 16 && place(srcRegs[vec]))
    ++vec;

  // 2. The wavefront slot bits: the source's first lanes, in lane order.
  const int slotBits = std::min(
      n - vec, lanesPerWavefrontLog2(int64_t(elementBytes) << vec));
  std::vector<Vec> srcLanes = basesOf(src, "lane");
  for (int j = 0; j < int(srcLanes.size()) && int(columns.size()) < vec + slotBits;
       ++j)
    place(srcLanes[j]);
  // 3. The rest: the source's other bases, then unit vectors, so that the
  //    columns span every element.
  for (llvm::StringRef dim : {"register", "lane", "warp", "block"})
    if (src.hasInDim(dim))
      for (Vec v : basesOf(src, dim))
        place(v);
  for (int b = 0; b < n; ++b)
    place(Vec(1) << b);
  if (int(columns.size()) != n)
    return llvm::createStringError("staging layout: internal rank error");

  // M: element vector -> offset word, through the span's tags.
  auto toOffset = [&](Vec v) {
    Vec tag;
    span.reduce(v, tag);
    return tag;
  };
  // A vector must start at a multiple of its size: every basis but the
  // vector's own registers must leave the vector bits of the offset alone
  // (the swizzle below only touches slot bits).
  const Vec vecMask = (Vec(1) << vec) - 1;
  for (const LinearLayout *l : {&src, &dst})
    for (const std::string &dim : l->getInDimNames())
      for (int i = dim == "register" ? vec : 0; i < l->getInDimSizeLog2(dim);
           ++i)
        if (toOffset(basisWord(*l, dim, i)) & vecMask)
          return std::nullopt;
  const Vec slotMask = ((Vec(1) << slotBits) - 1) << vec;
  const Vec upperMask = ~((Vec(1) << (vec + slotBits)) - 1) &
                        ((n >= 64) ? ~Vec(0) : ((Vec(1) << n) - 1));

  // 4. The swizzle X (upper offset bits -> slot bits) that spreads the
  //    destination's first lanes over distinct slots: w_j = s_j ^ X(u_j)
  //    independent where the u_j allow it.
  Span defined; // upper vectors X is defined on, tagged with X's value
  Span slotsUsed;
  std::vector<Vec> dstLanes = basesOf(dst, "lane");
  for (int j = 0; j < int(dstLanes.size()) && j < slotBits; ++j) {
    Vec o = toOffset(dstLanes[j]);
    Vec s = o & slotMask, u = o & upperMask;
    Vec xu;
    Vec rest = defined.reduce(u, xu);
    if (!rest) {
      slotsUsed.insert(s ^ xu, 0); // determined; a conflict if dependent
      continue;
    }
    // Map u to whatever makes w_j the lowest slot bit not yet reached.
    for (int t = vec; t < vec + slotBits; ++t) {
      Vec target = Vec(1) << t;
      if (slotsUsed.contains(target))
        continue;
      // X(rest) = target ^ s ^ X(u - rest), so that X(u) = target ^ s.
      defined.insert(rest, target ^ s ^ xu);
      slotsUsed.insert(target, 0);
      break;
    }
  }
  // 5. S(e_i) = column i, plus the columns of X(e_i)'s slot bits.
  std::vector<LinearLayout::Basis> offsetBases;
  for (int i = 0; i < n; ++i) {
    Vec word = columns[i];
    if ((Vec(1) << i) & upperMask) {
      Vec x;
      Vec rest = defined.reduce(Vec(1) << i, x);
      if (rest) // outside X's domain: X is 0 there
        x = 0, (void)defined.insert(Vec(1) << i, 0);
      for (int t = vec; t < vec + slotBits; ++t)
        if (x & (Vec(1) << t))
          word ^= columns[t];
    }
    std::vector<int32_t> coords = src.unpackOut(word);
    offsetBases.push_back(LinearLayout::Basis(coords.begin(), coords.end()));
  }
  auto shared = LinearLayout::create({{"offset", offsetBases}},
                                     src.getOutDims(),
                                     /*requireSurjective=*/true);
  if (!shared)
    return shared.takeError();
  return StagingLayout{std::move(*shared), vec};
}

llvm::Expected<StagingLayout> chooseStagingLayout(const LinearLayout &src,
                                                  const LinearLayout &dst,
                                                  int elementBytes) {
  for (int maxVec = 4;; maxVec = 0) {
    auto staged = chooseWithVectorLimit(src, dst, elementBytes, maxVec);
    if (!staged)
      return staged.takeError();
    if (*staged)
      return std::move(**staged);
    if (maxVec == 0)
      return llvm::createStringError(
          "staging layout: scalar accesses cannot be misaligned");
  }
}

llvm::Expected<int> countBankConflictWays(const LinearLayout &layout,
                                          const LinearLayout &shared,
                                          int vectorLog2, int elementBytes) {
  auto toOffset = layout.invertAndCompose(shared);
  if (!toOffset)
    return toOffset.takeError();
  const int64_t bytes = int64_t(elementBytes) << vectorLog2;
  const int phaseLog2 = lanesPerWavefrontLog2(bytes);
  const int lanes = layout.getInDimSize("lane");
  int worst = 1;
  for (int first = 0; first < lanes; first += 1 << phaseLog2) {
    std::map<int64_t, std::set<int64_t>> wordsPerBank;
    for (int lane = first; lane < std::min(lanes, first + (1 << phaseLog2));
         ++lane) {
      std::vector<LinearLayout::NamedValue> in;
      for (const std::string &dim : layout.getInDimNames())
        in.push_back({dim, dim == "lane" ? lane : 0});
      auto out = toOffset->apply(in);
      if (!out)
        return out.takeError();
      int64_t offset = 0;
      for (auto &[name, v] : *out)
        if (name == "offset")
          offset = v;
      int64_t byte = offset * elementBytes;
      for (int64_t w = byte / 4; w <= (byte + bytes - 1) / 4; ++w)
        wordsPerBank[w % 32].insert(w);
    }
    for (auto &[bank, words] : wordsPerBank)
      worst = std::max(worst, int(words.size()));
  }
  return worst;
}

} // namespace tgpu::layout
