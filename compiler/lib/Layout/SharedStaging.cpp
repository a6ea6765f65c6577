#include "tgpu/Layout/SharedStaging.h"

#include "tgpu/Layout/LdMatrix.h"

#include "llvm/ADT/STLExtras.h"

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

namespace {

// What fixes the low offset bits and the destination's wavefront.
struct Candidate {
  // The tensor vectors of offset bits [0, k).
  std::vector<Vec> low;
  // The source register bit of each, and (plain loads) the destination's.
  std::vector<int> storeBits, loadBits;
  bool ldmatrix = false;
  // Destination vectors one wavefront spreads over distinct slots.
  std::vector<Vec> dstPhase;
};

// The register bit of `l` whose basis is `v`, or -1.
int registerBitOf(const LinearLayout &l, Vec v) {
  for (int i = 0; i < l.getInDimSizeLog2("register"); ++i)
    if (basisWord(l, "register", i) == v)
      return i;
  return -1;
}

// The staging layout for `c`, or none when its accesses would not be
// aligned (or ldmatrix would not read the destination's map).
std::optional<StagingLayout> buildStaging(const LinearLayout &src,
                                          const LinearLayout &dst,
                                          int elementBytes,
                                          const Candidate &c) {
  const int n = src.getTotalOutDimSizeLog2();
  const int vec = int(c.low.size());

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
  // 1. The access vectors.
  for (Vec v : c.low)
    if (!place(v))
      return std::nullopt;
  // 2. The wavefront slot bits: the source's first lanes, in lane order.
  const int slotBits = std::min(
      n - vec, lanesPerWavefrontLog2(int64_t(elementBytes) << vec));
  std::vector<Vec> srcLanes = basesOf(src, "lane");
  for (int j = 0;
       j < int(srcLanes.size()) && int(columns.size()) < vec + slotBits; ++j)
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
    return std::nullopt;

  // M: element vector -> offset word, through the span's tags.
  auto toOffset = [&](Vec v) {
    Vec tag;
    span.reduce(v, tag);
    return tag;
  };
  // A vector must start at a multiple of its size: every basis but the
  // vector's own registers must leave the vector bits of the offset alone
  // (the swizzle below only touches slot bits). planLdMatrix checks the
  // ldmatrix side.
  const Vec vecMask = (Vec(1) << vec) - 1;
  auto aligned = [&](const LinearLayout &l, const std::vector<int> &own) {
    for (const std::string &dim : l.getInDimNames())
      for (int i = 0; i < l.getInDimSizeLog2(dim); ++i)
        if (!(dim == "register" && llvm::is_contained(own, i)) &&
            (toOffset(basisWord(l, dim, i)) & vecMask))
          return false;
    return true;
  };
  if (!aligned(src, c.storeBits) || (!c.ldmatrix && !aligned(dst, c.loadBits)))
    return std::nullopt;
  const Vec slotMask = ((Vec(1) << slotBits) - 1) << vec;
  const Vec upperMask = ~((Vec(1) << (vec + slotBits)) - 1) &
                        ((n >= 64) ? ~Vec(0) : ((Vec(1) << n) - 1));

  // 4. The swizzle X (upper offset bits -> slot bits) that spreads the
  //    destination's wavefront over distinct slots: w_j = s_j ^ X(u_j)
  //    independent where the u_j allow it.
  Span defined; // upper vectors X is defined on, tagged with X's value
  Span slotsUsed;
  for (int j = 0; j < int(c.dstPhase.size()) && j < slotBits; ++j) {
    Vec o = toOffset(c.dstPhase[j]);
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
  if (!shared) {
    llvm::consumeError(shared.takeError());
    return std::nullopt;
  }
  if (c.ldmatrix) {
    auto loadMap = dst.invertAndCompose(*shared);
    if (!loadMap) {
      llvm::consumeError(loadMap.takeError());
      return std::nullopt;
    }
    if (!planLdMatrix(*loadMap, 8 * elementBytes))
      return std::nullopt;
  }
  return StagingLayout{std::move(*shared), c.storeBits, c.loadBits, c.ldmatrix};
}

// Plain vectors: the lowest register bits both layouts share, at most
// 2^maxVectorLog2 elements and 16 bytes.
Candidate plainCandidate(const LinearLayout &src, const LinearLayout &dst,
                         int elementBytes, int maxVectorLog2) {
  Candidate c;
  std::vector<Vec> srcRegs = basesOf(src, "register");
  std::vector<Vec> dstRegs = basesOf(dst, "register");
  Span span;
  for (int i = 0;
       i < maxVectorLog2 && i < int(srcRegs.size()) &&
       i < int(dstRegs.size()) && srcRegs[i] == dstRegs[i] &&
       (int64_t(elementBytes) << (i + 1)) <= 16 && span.insert(srcRegs[i], 0);
       ++i) {
    c.low.push_back(srcRegs[i]);
    c.storeBits.push_back(i);
    c.loadBits.push_back(i);
  }
  std::vector<Vec> dstLanes = basesOf(dst, "lane");
  c.dstPhase = dstLanes;
  return c;
}

// ldmatrix rows (16 bytes of 16-bit elements): the row's three vectors
// are the destination's (register 0, lanes 0, 1), or with .trans its lanes
// 2..4; the source must hold each in a register, so that it writes a row
// with one 16-byte store. The other three of those five bases pick rows.
std::optional<Candidate> ldmatrixCandidate(const LinearLayout &src,
                                           const LinearLayout &dst,
                                           int elementBytes, bool trans) {
  if (elementBytes != 2 || dst.getInDimSizeLog2("lane") != 5 ||
      dst.getInDimSizeLog2("register") < 1)
    return std::nullopt;
  Vec reg0 = basisWord(dst, "register", 0);
  std::vector<Vec> lanes = basesOf(dst, "lane");
  Candidate c;
  c.ldmatrix = true;
  std::vector<Vec> rowWalk = {reg0, lanes[0], lanes[1]};
  std::vector<Vec> rowPick = {lanes[2], lanes[3], lanes[4]};
  if (trans)
    std::swap(rowWalk, rowPick);
  for (Vec v : rowWalk) {
    int bit = v ? registerBitOf(src, v) : -1;
    if (bit < 0)
      return std::nullopt;
    c.low.push_back(v);
    c.storeBits.push_back(bit);
  }
  c.dstPhase = rowPick;
  return c;
}

// Shared-memory instructions a warp issues for `staged`: stores plus loads.
int64_t accessCount(const LinearLayout &src, const LinearLayout &dst,
                    const StagingLayout &staged) {
  int64_t stores =
      src.getInDimSize("register") >> staged.storeRegisterBits.size();
  int64_t dstRegs = dst.getInDimSize("register");
  if (!staged.loadWithLdMatrix)
    return stores + (dstRegs >> staged.loadRegisterBits.size());
  // ldmatrix.x4 fills 8 registers, .x2 4, .x1 2.
  return stores + std::max<int64_t>(1, dstRegs / 8);
}

} // namespace

llvm::Expected<StagingLayout> chooseStagingLayout(const LinearLayout &src,
                                                  const LinearLayout &dst,
                                                  int elementBytes) {
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
  std::optional<StagingLayout> best;
  // Plain vectors as wide as both sides allow; scalars when those would be
  // misaligned.
  for (int maxVec : {4, 0})
    if (!best)
      best = buildStaging(src, dst, elementBytes,
                          plainCandidate(src, dst, elementBytes, maxVec));
  if (!best)
    return llvm::createStringError(
        "staging layout: scalar accesses cannot be misaligned");
  for (bool trans : {false, true})
    if (auto c = ldmatrixCandidate(src, dst, elementBytes, trans))
      if (auto staged = buildStaging(src, dst, elementBytes, *c))
        if (accessCount(src, dst, *staged) < accessCount(src, dst, *best))
          best = std::move(staged);
  return std::move(*best);
}

llvm::Expected<int> countBankConflictWays(const LinearLayout &layout,
                                          const LinearLayout &shared,
                                          int vectorLog2, int elementBytes) {
  auto toOffset = layout.invertAndCompose(shared);
  if (!toOffset)
    return toOffset.takeError();
  return countOffsetBankConflictWays(*toOffset, elementBytes,
                                     int64_t(elementBytes) << vectorLog2);
}

llvm::Expected<int> countOffsetBankConflictWays(const LinearLayout &toOffset,
                                                int elementBytes,
                                                int64_t accessBytes) {
  if (!toOffset.hasOutDim("offset") || !toOffset.hasInDim("lane"))
    return llvm::createStringError(
        "bank conflicts: the map needs a lane in dim and an offset out dim");
  const int phaseLog2 = lanesPerWavefrontLog2(accessBytes);
  const int lanes = toOffset.getInDimSize("lane");
  int worst = 1;
  for (int first = 0; first < lanes; first += 1 << phaseLog2) {
    std::map<int64_t, std::set<int64_t>> wordsPerBank;
    for (int lane = first; lane < std::min(lanes, first + (1 << phaseLog2));
         ++lane) {
      std::vector<LinearLayout::NamedValue> in;
      for (const std::string &dim : toOffset.getInDimNames())
        in.push_back({dim, dim == "lane" ? lane : 0});
      auto out = toOffset.apply(in);
      if (!out)
        return out.takeError();
      int64_t offset = 0;
      for (auto &[name, v] : *out)
        if (name == "offset")
          offset = v;
      int64_t byte = offset * elementBytes;
      for (int64_t w = byte / 4; w <= (byte + accessBytes - 1) / 4; ++w)
        wordsPerBank[w % 32].insert(w);
    }
    for (auto &[bank, words] : wordsPerBank)
      worst = std::max(worst, int(words.size()));
  }
  return worst;
}

} // namespace tgpu::layout
