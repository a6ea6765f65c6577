#include "tgpu/Layout/LinearLayout.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <unordered_map>
#include <mutex>

using namespace tgpu::layout;
using llvm::ArrayRef;
using llvm::Expected;
using llvm::StringRef;

namespace {

llvm::Error err(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

// Row echelon form over GF(2) of a growing set of packed vectors, each with
// the combination of inserted vectors (by insertion index) that made it.
// Vectors are inserted in order; one that reduces to zero depends on the
// earlier ones. Reducing a target by the rows gives the combination of
// inserted vectors with every dependent ("free") index clear, which is the
// numerically smallest solution of the system.
class Echelon {
public:
  // Returns false when `v` is in the span of the vectors inserted before.
  bool insert(uint64_t v, int index) {
    uint64_t combo = uint64_t(1) << index;
    for (const Row &r : rows)
      if (v & r.lead) {
        v ^= r.vec;
        combo ^= r.combo;
      }
    if (!v)
      return false;
    uint64_t lead = uint64_t(1) << llvm::Log2_64(v);
    // Keep the rows fully reduced so that one pass of `solve` suffices.
    for (Row &r : rows)
      if (r.vec & lead) {
        r.vec ^= v;
        r.combo ^= combo;
      }
    rows.push_back({v, lead, combo});
    return true;
  }
  // The combination of inserted vectors equal to `target`, if any.
  std::optional<uint64_t> solve(uint64_t target) const {
    uint64_t combo = 0;
    for (const Row &r : rows)
      if (target & r.lead) {
        target ^= r.vec;
        combo ^= r.combo;
      }
    if (target)
      return std::nullopt;
    return combo;
  }
  int rank() const { return rows.size(); }

private:
  struct Row {
    uint64_t vec, lead, combo;
  };
  std::vector<Row> rows;
};

bool hasDuplicates(ArrayRef<std::string> names) {
  // Dim lists are short: a quadratic scan allocates nothing.
  for (size_t i = 0; i < names.size(); ++i)
    for (size_t j = i + 1; j < names.size(); ++j)
      if (names[i] == names[j])
        return true;
  return false;
}

std::string joinNames(ArrayRef<std::string> names) {
  std::string s = "[";
  for (size_t i = 0; i < names.size(); ++i)
    s += (i ? ", " : "") + names[i];
  return s + "]";
}

} // namespace

namespace {
using NameList = llvm::SmallVector<StringRef, 8>;

// The merge behind `supremum`, on borrowed names (no allocation).
// Both lists hold interned names, so equal names are equal pointers.
std::optional<NameList> mergeNames(ArrayRef<StringRef> x, ArrayRef<StringRef> y) {
  auto has = [](ArrayRef<StringRef> list, StringRef n) {
    for (StringRef m : list)
      if (m.data() == n.data())
        return true;
    return false;
  };
  // The dims both lists have must come in the same relative order.
  NameList common;
  for (StringRef n : x)
    if (has(y, n))
      common.push_back(n);
  size_t next = 0;
  for (StringRef n : y)
    if (has(x, n) && (next >= common.size() || common[next++].data() != n.data()))
      return std::nullopt;
  // Walk both lists; a dim only one list has is emitted as soon as it comes
  // up (x's first); a common dim waits until both lists reach it.
  NameList r;
  size_t i = 0, j = 0;
  while (i < x.size() || j < y.size()) {
    if (i < x.size() && !has(y, x[i])) {
      r.push_back(x[i++]);
    } else if (j < y.size() && !has(x, y[j])) {
      r.push_back(y[j++]);
    } else if (i < x.size() && j < y.size()) {
      r.push_back(x[i]); // both point at the same common dim
      ++i;
      ++j;
    } else if (i < x.size()) {
      r.push_back(x[i++]);
    } else {
      r.push_back(y[j++]);
    }
  }
  return r;
}

template <typename Dims> NameList namesOf(const Dims &dims) {
  NameList r;
  for (const auto &d : dims)
    r.push_back(d.name);
  return r;
}
} // namespace

std::optional<std::vector<std::string>>
tgpu::layout::supremum(ArrayRef<std::string> x, ArrayRef<std::string> y) {
  NameList xs, ys;
  for (const std::string &n : x)
    xs.push_back(internDimName(n));
  for (const std::string &n : y)
    ys.push_back(internDimName(n));
  std::optional<NameList> m = mergeNames(xs, ys);
  if (!m)
    return std::nullopt;
  return std::vector<std::string>(m->begin(), m->end());
}

llvm::StringRef tgpu::layout::internDimName(llvm::StringRef name) {
  static std::mutex mutex;
  static llvm::StringSet<> *names = new llvm::StringSet<>();
  std::lock_guard<std::mutex> lock(mutex);
  return names->insert(name).first->getKey();
}

int tgpu::layout::log2IfPowerOf2(int64_t v) {
  if (v <= 0 || (v & (v - 1)))
    return -1;
  return llvm::Log2_64(uint64_t(v));
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

void LinearLayout::finish() {
  numInBits = 0;
  for (InDim &d : ins) {
    d.first = numInBits;
    numInBits += d.log2;
  }
  numOutBits = 0;
  for (OutDim &d : outs) {
    d.offset = numOutBits;
    numOutBits += d.log2;
  }
  rankCache.value.store(-1, std::memory_order_relaxed);
}

LinearLayout LinearLayout::fromPacked(InDimVec ins,
                                      OutDimVec outs,
                                      WordVec bases) {
  LinearLayout l;
  l.ins = std::move(ins);
  l.outs = std::move(outs);
  l.bases = std::move(bases);
  l.finish();
  assert(int(l.bases.size()) == l.numInBits && "packed bases do not match ins");
  return l;
}

Expected<LinearLayout> LinearLayout::create(ArrayRef<DimBases> inBases,
                                            ArrayRef<NamedSize> outDims,
                                            bool requireSurjective) {
  std::vector<std::string> inNames, outNames;
  for (const DimBases &d : inBases)
    inNames.push_back(d.first);
  for (const NamedSize &d : outDims)
    outNames.push_back(d.first);
  if (hasDuplicates(inNames))
    return err("duplicate input dimension in " + joinNames(inNames));
  if (hasDuplicates(outNames))
    return err("duplicate output dimension in " + joinNames(outNames));

  LinearLayout l;
  int outBits = 0;
  for (const NamedSize &d : outDims) {
    int lg = log2IfPowerOf2(d.second);
    if (lg < 0)
      return err("size of output dimension '" + d.first + "' is " +
                 llvm::Twine(d.second) + ", not a power of two");
    outBits += lg;
    l.outs.push_back({internDimName(d.first), lg, 0});
  }
  if (outBits > kMaxTotalBits)
    return err("output dimensions have " + llvm::Twine(outBits) +
               " bits in total; at most " + llvm::Twine(kMaxTotalBits) +
               " are supported");
  int inBits = 0;
  for (const DimBases &d : inBases)
    inBits += d.second.size();
  if (inBits > kMaxTotalBits)
    return err("input dimensions have " + llvm::Twine(inBits) +
               " bits in total; at most " + llvm::Twine(kMaxTotalBits) +
               " are supported");
  // In-dim sizes are int32 (getInDimSize, apply), like the out sizes.
  for (const DimBases &d : inBases)
    if (d.second.size() > 30)
      return err("input dimension '" + d.first + "' has " +
                 llvm::Twine(d.second.size()) +
                 " bases; at most 30 (2^30 elements) are supported");
  for (const DimBases &d : inBases)
    l.ins.push_back({internDimName(d.first), int(d.second.size()), 0});
  l.finish();

  for (const DimBases &d : inBases) {
    for (size_t i = 0; i < d.second.size(); ++i) {
      const Basis &b = d.second[i];
      if (b.size() != outDims.size())
        return err("basis " + llvm::Twine(i) + " of input dimension '" +
                   d.first + "' has " + llvm::Twine(b.size()) +
                   " coordinates; expected " + llvm::Twine(outDims.size()));
      uint64_t word = 0;
      for (size_t k = 0; k < b.size(); ++k) {
        if (b[k] < 0 || b[k] >= outDims[k].second)
          return err("basis " + llvm::Twine(i) + " of input dimension '" +
                     d.first + "' has coordinate " + llvm::Twine(b[k]) +
                     " outside output dimension '" + outDims[k].first +
                     "' of size " + llvm::Twine(outDims[k].second));
        word |= uint64_t(b[k]) << l.outs[k].offset;
      }
      l.bases.push_back(word);
    }
  }
  l.finish();
  if (requireSurjective && !l.isSurjective())
    return err("layout is not surjective:\n" + l.toString());
  return l;
}

Expected<LinearLayout> LinearLayout::create(ArrayRef<DimBases> inBases,
                                            ArrayRef<std::string> outDimNames) {
  std::vector<NamedSize> outDims;
  for (size_t k = 0; k < outDimNames.size(); ++k) {
    int64_t size = 1;
    for (const DimBases &d : inBases)
      for (const Basis &b : d.second) {
        if (b.size() != outDimNames.size())
          return err("a basis of input dimension '" + d.first + "' has " +
                     llvm::Twine(b.size()) + " coordinates; expected " +
                     llvm::Twine(outDimNames.size()));
        if (b[k] < 0)
          return err("negative coordinate " + llvm::Twine(b[k]) +
                     " in a basis of input dimension '" + d.first + "'");
        size = std::max<int64_t>(size, int64_t(llvm::NextPowerOf2(b[k])));
      }
    if (size > (int64_t(1) << 30))
      return err("output dimension '" + outDimNames[k] + "' is too large");
    outDims.push_back({outDimNames[k], int32_t(size)});
  }
  return create(inBases, outDims, /*requireSurjective=*/true);
}

Expected<LinearLayout> LinearLayout::identity1D(int32_t size, StringRef inDim,
                                                StringRef outDim) {
  if (log2IfPowerOf2(size) < 0)
    return err("identity1D: size " + llvm::Twine(size) +
               " is not a power of two");
  return strided1D(size, 1, inDim, outDim);
}

Expected<LinearLayout> LinearLayout::zeros1D(int32_t size, StringRef inDim,
                                             StringRef outDim,
                                             int32_t outDimSize) {
  int lg = log2IfPowerOf2(size);
  if (lg < 0)
    return err("zeros1D: size " + llvm::Twine(size) + " is not a power of two");
  int lo = log2IfPowerOf2(outDimSize);
  if (lo < 0)
    return err("zeros1D: out size " + llvm::Twine(outDimSize) +
               " is not a power of two");
  return fromPacked({{internDimName(inDim), lg, 0}},
                    {{internDimName(outDim), lo, 0}}, WordVec(lg, 0));
}

Expected<LinearLayout> LinearLayout::strided1D(int32_t size, int32_t stride,
                                               StringRef inDim,
                                               StringRef outDim) {
  int lg = log2IfPowerOf2(size), ls = log2IfPowerOf2(stride);
  if (lg < 0 || ls < 0)
    return err("strided1D: size " + llvm::Twine(size) + " and stride " +
               llvm::Twine(stride) + " must be powers of two");
  if (lg + ls > 30)
    return err("strided1D: size * stride is too large");
  // Words: the single out dim sits at offset 0.
  WordVec b;
  for (int i = 0; i < lg; ++i)
    b.push_back(uint64_t(stride) << i);
  return fromPacked({{internDimName(inDim), lg, 0}},
                    {{internDimName(outDim), lg + ls, 0}}, std::move(b));
}

//===----------------------------------------------------------------------===//
// Shape and bases
//===----------------------------------------------------------------------===//

int LinearLayout::findIn(StringRef name) const {
  for (size_t i = 0; i < ins.size(); ++i)
    if (ins[i].name == name)
      return i;
  return -1;
}

int LinearLayout::findOut(StringRef name) const {
  for (size_t i = 0; i < outs.size(); ++i)
    if (outs[i].name == name)
      return i;
  return -1;
}

std::vector<std::string> LinearLayout::getInDimNames() const {
  std::vector<std::string> r;
  for (const InDim &d : ins)
    r.push_back(d.name.str());
  return r;
}

std::vector<std::string> LinearLayout::getOutDimNames() const {
  std::vector<std::string> r;
  for (const OutDim &d : outs)
    r.push_back(d.name.str());
  return r;
}

std::vector<LinearLayout::NamedSize> LinearLayout::getOutDims() const {
  std::vector<NamedSize> r;
  for (const OutDim &d : outs)
    r.push_back({d.name.str(), int32_t(1) << d.log2});
  return r;
}

std::vector<LinearLayout::NamedSize> LinearLayout::getInDims() const {
  std::vector<NamedSize> r;
  for (const InDim &d : ins)
    r.push_back({d.name.str(), int32_t(1) << d.log2});
  return r;
}

int LinearLayout::getInDimSizeLog2(StringRef name) const {
  int i = findIn(name);
  return i < 0 ? 0 : ins[i].log2;
}

int LinearLayout::getOutDimSizeLog2(StringRef name) const {
  int k = findOut(name);
  return k < 0 ? 0 : outs[k].log2;
}

LinearLayout::Basis LinearLayout::getBasis(StringRef inDim, int i) const {
  int d = findIn(inDim);
  Basis b(outs.size(), 0);
  if (d < 0 || i < 0 || i >= ins[d].log2)
    return b;
  uint64_t w = bases[ins[d].first + i];
  for (size_t k = 0; k < outs.size(); ++k)
    b[k] = coord(w, k);
  return b;
}

int32_t LinearLayout::getBasis(StringRef inDim, int i, StringRef outDim) const {
  int k = findOut(outDim);
  if (k < 0)
    return 0;
  return getBasis(inDim, i)[k];
}

std::vector<LinearLayout::DimBases> LinearLayout::getBases() const {
  std::vector<DimBases> r;
  for (const InDim &d : ins) {
    std::vector<Basis> bs;
    for (int i = 0; i < d.log2; ++i)
      bs.push_back(getBasis(d.name, i));
    r.push_back({d.name.str(), std::move(bs)});
  }
  return r;
}

std::vector<int32_t> LinearLayout::unpackOut(uint64_t word) const {
  std::vector<int32_t> r(outs.size());
  for (size_t k = 0; k < outs.size(); ++k)
    r[k] = coord(word, k);
  return r;
}

std::vector<int32_t> LinearLayout::unpackIn(uint64_t flat) const {
  std::vector<int32_t> r(ins.size());
  for (size_t i = 0; i < ins.size(); ++i)
    r[i] = int32_t((flat >> ins[i].first) & ((uint64_t(1) << ins[i].log2) - 1));
  return r;
}

uint64_t LinearLayout::packIn(ArrayRef<int32_t> perInDim) const {
  uint64_t w = 0;
  for (size_t i = 0; i < ins.size() && i < perInDim.size(); ++i)
    w |= (uint64_t(uint32_t(perInDim[i])) & ((uint64_t(1) << ins[i].log2) - 1))
         << ins[i].first;
  return w;
}

uint64_t LinearLayout::packOut(ArrayRef<int32_t> perOutDim) const {
  uint64_t w = 0;
  for (size_t k = 0; k < outs.size() && k < perOutDim.size(); ++k)
    w |= (uint64_t(uint32_t(perOutDim[k])) & ((uint64_t(1) << outs[k].log2) - 1))
         << outs[k].offset;
  return w;
}

Expected<std::vector<LinearLayout::NamedValue>>
LinearLayout::apply(ArrayRef<NamedValue> values) const {
  if (values.size() != ins.size())
    return err("apply: got " + llvm::Twine(values.size()) +
               " input values for " + llvm::Twine(ins.size()) +
               " input dimensions");
  uint64_t flat = 0;
  std::vector<bool> seen(ins.size());
  for (const NamedValue &v : values) {
    int i = findIn(v.first);
    if (i < 0)
      return err("apply: unknown input dimension '" + v.first + "'");
    if (seen[i])
      return err("apply: input dimension '" + v.first + "' given twice");
    seen[i] = true;
    if (v.second < 0 || v.second >= (int64_t(1) << ins[i].log2))
      return err("apply: value " + llvm::Twine(v.second) +
                 " is outside input dimension '" + v.first + "' of size " +
                 llvm::Twine(int64_t(1) << ins[i].log2));
    flat |= uint64_t(v.second) << ins[i].first;
  }
  uint64_t w = applyFlat(flat);
  std::vector<NamedValue> r;
  for (size_t k = 0; k < outs.size(); ++k)
    r.push_back({outs[k].name.str(), coord(w, k)});
  return r;
}

//===----------------------------------------------------------------------===//
// Properties
//===----------------------------------------------------------------------===//

int LinearLayout::rank() const {
  int r = rankCache.value.load(std::memory_order_relaxed);
  if (r >= 0)
    return r;
  // Rows with distinct leading bits, kept in decreasing order so that one
  // pass reduces a vector (min(v, v ^ row) clears the row's leading bit).
  uint64_t rows[64];
  int n = 0;
  for (uint64_t v : bases) {
    for (int i = 0; i < n && v; ++i)
      v = std::min(v, v ^ rows[i]);
    if (!v)
      continue;
    int at = n++;
    for (; at > 0 && rows[at - 1] < v; --at)
      rows[at] = rows[at - 1];
    rows[at] = v;
  }
  rankCache.value.store(n, std::memory_order_relaxed);
  return n;
}

std::vector<std::pair<std::string, int32_t>>
LinearLayout::getFreeVariableMasks() const {
  Echelon e;
  std::vector<std::pair<std::string, int32_t>> r;
  for (const InDim &d : ins) {
    int32_t mask = 0;
    for (int i = 0; i < d.log2; ++i)
      if (!e.insert(bases[d.first + i], d.first + i))
        mask |= int32_t(1) << i;
    r.push_back({d.name.str(), mask});
  }
  return r;
}

std::vector<int32_t> LinearLayout::getLowestSameImage(StringRef inDim) const {
  int d = findIn(inDim);
  if (d < 0)
    return {0};
  const InDim &in = ins[d];
  std::vector<int32_t> lowest(size_t(1) << in.log2);
  // Not a DenseMap: any packed word, all ones included, is a valid key.
  std::unordered_map<uint64_t, int32_t> first;
  for (int32_t v = 0; v < int32_t(lowest.size()); ++v) {
    uint64_t image = 0;
    for (int i = 0; i < in.log2; ++i)
      if (v >> i & 1)
        image ^= bases[in.first + i];
    lowest[v] = first.try_emplace(image, v).first->second;
  }
  return lowest;
}

bool LinearLayout::repeatsThroughNonZeroBases() const {
  Echelon e;
  for (size_t i = 0; i < bases.size(); ++i)
    if (bases[i] && !e.insert(bases[i], int(i)))
      return true;
  return false;
}

bool LinearLayout::hasMultiBitBasis() const {
  for (uint64_t basis : bases)
    for (size_t k = 0; k < outs.size(); ++k)
      if (llvm::popcount(basis & outMask(int(k))) > 1)
        return true;
  return false;
}

int LinearLayout::getNumConsecutiveInOut() const {
  if (ins.empty() || outs.empty())
    return 1;
  // The leading bases of the first in dim that step through the first out
  // dim one element at a time (and touch no other out dim; a step past the
  // first out dim's size would be the next out dim's bit) ...
  const InDim &d = ins[0];
  int consec = 0;
  while (consec < d.log2 && consec < outs[0].log2 &&
         bases[d.first + consec] == (uint64_t(1) << (outs[0].offset + consec)))
    ++consec;
  // ... as long as no other basis lands inside that run.
  uint64_t other = 0;
  for (int j = d.first + consec; j < numInBits; ++j)
    other |= bases[j];
  other = (other & outMask(0)) >> outs[0].offset;
  if (other)
    consec = std::min(consec, int(llvm::countr_zero(other)));
  return 1 << consec;
}

bool LinearLayout::sublayoutIsZero(ArrayRef<std::string> inDims,
                                   ArrayRef<std::string> outDims) const {
  uint64_t mask = 0;
  for (const std::string &o : outDims) {
    int k = findOut(o);
    if (k >= 0)
      mask |= outMask(k);
  }
  for (const std::string &n : inDims) {
    int i = findIn(n);
    if (i < 0)
      continue;
    for (int b = 0; b < ins[i].log2; ++b)
      if (bases[ins[i].first + b] & mask)
        return false;
  }
  return true;
}

bool LinearLayout::isTrivialOver(ArrayRef<std::string> dims) const {
  // dims -> dims is the identity (flattened in this layout's orders), no
  // other in dim reaches `dims` and `dims` reach no other out dim.
  for (const std::string &d : dims)
    if (!hasInDim(d) || !hasOutDim(d) ||
        getInDimSizeLog2(d) != getOutDimSizeLog2(d))
      return false;
  std::vector<std::string> otherIns, otherOuts;
  for (const InDim &d : ins)
    if (!llvm::is_contained(dims, d.name))
      otherIns.push_back(d.name.str());
  for (const OutDim &d : outs)
    if (!llvm::is_contained(dims, d.name))
      otherOuts.push_back(d.name.str());
  if (!sublayoutIsZero(otherIns, dims) || !sublayoutIsZero(dims, otherOuts))
    return false;
  // Pack the square block's out bits in out order and compare with 1, 2, 4..
  uint64_t dimsMask = 0;
  for (size_t k = 0; k < outs.size(); ++k)
    if (llvm::is_contained(dims, outs[k].name))
      dimsMask |= outMask(k);
  int expect = 0;
  for (const InDim &d : ins) {
    if (!llvm::is_contained(dims, d.name))
      continue;
    for (int b = 0; b < d.log2; ++b, ++expect) {
      // The expect-th bit among dimsMask's set bits.
      uint64_t m = dimsMask;
      for (int t = 0; t < expect; ++t)
        m &= m - 1;
      if ((bases[d.first + b] & dimsMask) != (m & (0 - m)))
        return false;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Algebra
//===----------------------------------------------------------------------===//

namespace {
// Moves packed words from one out-dim arrangement to another: source out dim
// k goes to destination offset `dst[k]` (shifted up by `shift[k]` bits).
struct Repacker {
  llvm::SmallVector<int, 8> srcOffset, srcLog2, dstOffset;
  uint64_t operator()(uint64_t w) const {
    uint64_t r = 0;
    for (size_t k = 0; k < srcOffset.size(); ++k)
      r |= ((w >> srcOffset[k]) & ((uint64_t(1) << srcLog2[k]) - 1))
           << dstOffset[k];
    return r;
  }
};
} // namespace

Expected<LinearLayout> tgpu::layout::operator*(const LinearLayout &inner,
                                               const LinearLayout &outer) {
  using InDimVec = LinearLayout::InDimVec;
  using OutDimVec = LinearLayout::OutDimVec;
  using WordVec = LinearLayout::WordVec;
  // Dims are merged keeping both operands' orders (inner's first where
  // free); dims of the same name add their bits.
  std::optional<NameList> outNames =
      mergeNames(namesOf(inner.outs), namesOf(outer.outs));
  std::optional<NameList> inNames =
      mergeNames(namesOf(inner.ins), namesOf(outer.ins));
  if (!outNames || !inNames)
    return err("product: the dimensions both layouts have appear in different "
               "orders: ins " + joinNames(inner.getInDimNames()) + " and " +
               joinNames(outer.getInDimNames()) + ", outs " +
               joinNames(inner.getOutDimNames()) + " and " +
               joinNames(outer.getOutDimNames()));
  // Names are interned: the same name is the same pointer.
  auto indexOf = [](const auto &dims, StringRef n) {
    for (size_t i = 0; i < dims.size(); ++i)
      if (dims[i].name.data() == n.data())
        return int(i);
    return -1;
  };
  OutDimVec outs;
  llvm::SmallVector<int, 8> outInner, outOuter;
  int outBits = 0;
  for (StringRef n : *outNames) {
    int i = indexOf(inner.outs, n), o = indexOf(outer.outs, n);
    int lg = (i >= 0 ? inner.outs[i].log2 : 0) + (o >= 0 ? outer.outs[o].log2 : 0);
    outs.push_back({n, lg, outBits});
    outInner.push_back(i);
    outOuter.push_back(o);
    outBits += lg;
  }
  InDimVec ins;
  llvm::SmallVector<int, 8> inInner, inOuter;
  int inBits = 0;
  for (StringRef n : *inNames) {
    int i = indexOf(inner.ins, n), o = indexOf(outer.ins, n);
    int lg = (i >= 0 ? inner.ins[i].log2 : 0) + (o >= 0 ? outer.ins[o].log2 : 0);
    ins.push_back({n, lg, inBits});
    inInner.push_back(i);
    inOuter.push_back(o);
    inBits += lg;
  }
  if (inBits > kMaxTotalBits || outBits > kMaxTotalBits)
    return err("product has " + llvm::Twine(std::max(inBits, outBits)) +
               " bits in a dimension set; at most " +
               llvm::Twine(kMaxTotalBits) + " are supported");
  // Sizes are int32 (getInDimSize, getOutDimSize, apply): a stacked dim may
  // not grow past 2^30.
  auto tooLarge = [](StringRef name, int log2) {
    return err("product: dimension '" + name + "' would have 2^" +
               llvm::Twine(log2) + " elements; at most 2^30 are supported");
  };
  for (const auto &d : ins)
    if (d.log2 > 30)
      return tooLarge(d.name, d.log2);
  for (const auto &d : outs)
    if (d.log2 > 30)
      return tooLarge(d.name, d.log2);

  // Place both operands' out dims in the result's packing: inner's in the
  // low bits of each dim, outer's above them.
  Repacker fromInner, fromOuter;
  for (size_t k = 0; k < outs.size(); ++k) {
    int shift = 0;
    if (int i = outInner[k]; i >= 0) {
      fromInner.srcOffset.push_back(inner.outs[i].offset);
      fromInner.srcLog2.push_back(inner.outs[i].log2);
      fromInner.dstOffset.push_back(outs[k].offset);
      shift = inner.outs[i].log2;
    }
    if (int o = outOuter[k]; o >= 0) {
      fromOuter.srcOffset.push_back(outer.outs[o].offset);
      fromOuter.srcLog2.push_back(outer.outs[o].log2);
      fromOuter.dstOffset.push_back(outs[k].offset + shift);
    }
  }
  WordVec bases;
  bases.reserve(inBits);
  for (size_t j = 0; j < ins.size(); ++j) {
    if (int i = inInner[j]; i >= 0)
      for (int b = 0; b < inner.ins[i].log2; ++b)
        bases.push_back(fromInner(inner.bases[inner.ins[i].first + b]));
    if (int o = inOuter[j]; o >= 0)
      for (int b = 0; b < outer.ins[o].log2; ++b)
        bases.push_back(fromOuter(outer.bases[outer.ins[o].first + b]));
  }
  return LinearLayout::fromPacked(std::move(ins), std::move(outs),
                                  std::move(bases));
}

Expected<LinearLayout> LinearLayout::compose(const LinearLayout &outer) const {
  // This layout's out dims feed outer's in dims by name.
  if (outer.ins.size() != outs.size())
    return err("compose: outer layout has input dimensions " +
               joinNames(outer.getInDimNames()) + " but this layout outputs " +
               joinNames(getOutDimNames()));
  Repacker toOuter;
  for (const OutDim &d : outs) {
    int i = outer.findIn(d.name);
    if (i < 0)
      return err("compose: outer layout has no input dimension '" + d.name +
                 "'");
    if (outer.ins[i].log2 < d.log2)
      return err("compose: outer input dimension '" + d.name + "' has size " +
                 llvm::Twine(1 << outer.ins[i].log2) + ", less than " +
                 llvm::Twine(1 << d.log2));
    toOuter.srcOffset.push_back(d.offset);
    toOuter.srcLog2.push_back(d.log2);
    toOuter.dstOffset.push_back(outer.ins[i].first);
  }
  WordVec nb;
  nb.reserve(bases.size());
  for (uint64_t w : bases)
    nb.push_back(outer.applyFlat(toOuter(w)));
  return fromPacked(ins, outer.outs, std::move(nb));
}

Expected<LinearLayout>
LinearLayout::invertAndCompose(const LinearLayout &outer) const {
  if (outer.outs.size() != outs.size())
    return err("invertAndCompose: layouts output " +
               joinNames(getOutDimNames()) + " and " +
               joinNames(outer.getOutDimNames()));
  Repacker toOuter;
  // Bits of this layout's outputs that outer's output dims cannot hold.
  uint64_t tooWide = 0;
  for (size_t j = 0; j < outs.size(); ++j) {
    const OutDim &d = outs[j];
    int k = outer.findOut(d.name);
    if (k < 0)
      return err("invertAndCompose: outer layout has no output dimension '" +
                 d.name + "'");
    int fit = std::min(d.log2, outer.outs[k].log2);
    tooWide |= outMask(j) & ~(((uint64_t(1) << fit) - 1) << d.offset);
    toOuter.srcOffset.push_back(d.offset);
    toOuter.srcLog2.push_back(fit);
    toOuter.dstOffset.push_back(outer.outs[k].offset);
  }
  // Triton's shortcut: an in dim both layouts have with the same bases maps
  // to itself, even where another solution would be smaller (e.g. a `block`
  // dim that broadcasts on both sides stays `block -> block`).
  auto sameDim = [&](const InDim &d) {
    int o = outer.findIn(d.name);
    if (o < 0 || outer.ins[o].log2 != d.log2)
      return false;
    for (int b = 0; b < d.log2; ++b)
      if ((bases[d.first + b] & tooWide) ||
          toOuter(bases[d.first + b]) != outer.bases[outer.ins[o].first + b])
        return false;
    return true;
  };
  std::vector<bool> identityIn(outer.numInBits, false);
  std::vector<bool> isIdentity(ins.size(), false);
  for (size_t i = 0; i < ins.size(); ++i)
    if (sameDim(ins[i])) {
      isIdentity[i] = true;
      const InDim &od = outer.ins[outer.findIn(ins[i].name)];
      for (int b = 0; b < od.log2; ++b)
        identityIn[od.first + b] = true;
    }
  // The other dims take the smallest solution over outer's other columns;
  // where none exists (Triton asserts there), over all of outer's columns.
  Echelon e, all;
  for (size_t j = 0; j < outer.bases.size(); ++j) {
    if (!identityIn[j])
      e.insert(outer.bases[j], j);
    all.insert(outer.bases[j], j);
  }
  WordVec nb;
  nb.reserve(bases.size());
  for (size_t i = 0; i < ins.size(); ++i) {
    const InDim &d = ins[i];
    if (isIdentity[i]) {
      int first = outer.ins[outer.findIn(d.name)].first;
      for (int b = 0; b < d.log2; ++b)
        nb.push_back(uint64_t(1) << (first + b));
      continue;
    }
    for (int b = 0; b < d.log2; ++b) {
      uint64_t w = bases[d.first + b];
      std::optional<uint64_t> x;
      if (!(w & tooWide)) {
        x = e.solve(toOuter(w));
        if (!x)
          x = all.solve(toOuter(w));
      }
      if (!x)
        return err("invertAndCompose: " + d.name + "=" +
                   llvm::Twine(1 << b) +
                   " maps outside the image of the outer layout");
      nb.push_back(*x);
    }
  }
  OutDimVec nouts;
  for (const InDim &d : outer.ins)
    nouts.push_back({d.name, d.log2, 0});
  return fromPacked(ins, std::move(nouts), std::move(nb));
}

Expected<LinearLayout> LinearLayout::pseudoinvert() const {
  if (!isSurjective())
    return err("pseudoinvert: layout is not surjective");
  InDimVec idIns;
  WordVec idBases;
  for (const OutDim &d : outs) {
    idIns.push_back({d.name, d.log2, 0});
    for (int b = 0; b < d.log2; ++b)
      idBases.push_back(uint64_t(1) << (d.offset + b));
  }
  return fromPacked(std::move(idIns), outs, std::move(idBases))
      .invertAndCompose(*this);
}

Expected<LinearLayout> LinearLayout::invert() const {
  if (!isInvertible())
    return err("invert: layout is not invertible (" +
               llvm::Twine(numInBits) + " input bits, " +
               llvm::Twine(numOutBits) + " output bits, rank " +
               llvm::Twine(rank()) + ")");
  return pseudoinvert();
}

//===----------------------------------------------------------------------===//
// Reshaping
//===----------------------------------------------------------------------===//

Expected<LinearLayout>
LinearLayout::transposeIns(ArrayRef<std::string> newOrder) const {
  if (newOrder.size() != ins.size() || hasDuplicates(newOrder))
    return err("transposeIns: " + joinNames(newOrder) +
               " is not a permutation of " + joinNames(getInDimNames()));
  InDimVec nins;
  WordVec nb;
  for (const std::string &n : newOrder) {
    int i = findIn(n);
    if (i < 0)
      return err("transposeIns: " + joinNames(newOrder) +
                 " is not a permutation of " + joinNames(getInDimNames()));
    nins.push_back(ins[i]);
    nb.insert(nb.end(), bases.begin() + ins[i].first,
              bases.begin() + ins[i].first + ins[i].log2);
  }
  return fromPacked(std::move(nins), outs, std::move(nb));
}

Expected<LinearLayout>
LinearLayout::transposeOuts(ArrayRef<std::string> newOrder) const {
  if (newOrder.size() != outs.size() || hasDuplicates(newOrder))
    return err("transposeOuts: " + joinNames(newOrder) +
               " is not a permutation of " + joinNames(getOutDimNames()));
  OutDimVec nouts;
  for (const std::string &n : newOrder) {
    int k = findOut(n);
    if (k < 0)
      return err("transposeOuts: " + joinNames(newOrder) +
                 " is not a permutation of " + joinNames(getOutDimNames()));
    nouts.push_back(outs[k]);
  }
  LinearLayout shape = fromPacked(ins, nouts, bases);
  Repacker r;
  for (size_t k = 0; k < outs.size(); ++k) {
    r.srcOffset.push_back(outs[k].offset);
    r.srcLog2.push_back(outs[k].log2);
    r.dstOffset.push_back(shape.outs[shape.findOut(outs[k].name)].offset);
  }
  WordVec nb;
  for (uint64_t w : bases)
    nb.push_back(r(w));
  return fromPacked(ins, std::move(nouts), std::move(nb));
}

namespace {
llvm::Error checkNewDims(StringRef what, ArrayRef<LinearLayout::NamedSize> dims,
                         int totalLog2, std::vector<int> &log2s) {
  std::vector<std::string> names;
  int sum = 0;
  for (const auto &d : dims) {
    int lg = log2IfPowerOf2(d.second);
    if (lg < 0)
      return err(what + ": size " + llvm::Twine(d.second) + " of '" +
                 d.first + "' is not a power of two");
    names.push_back(d.first);
    log2s.push_back(lg);
    sum += lg;
  }
  if (hasDuplicates(names))
    return err(what + ": duplicate dimension in " + joinNames(names));
  if (sum != totalLog2)
    return err(what + ": new dimensions hold 2^" + llvm::Twine(sum) +
               " values, the layout 2^" + llvm::Twine(totalLog2));
  return llvm::Error::success();
}
} // namespace

Expected<LinearLayout>
LinearLayout::reshapeIns(ArrayRef<NamedSize> newInDims) const {
  std::vector<int> log2s;
  if (llvm::Error e = checkNewDims("reshapeIns", newInDims, numInBits, log2s))
    return std::move(e);
  InDimVec nins;
  for (size_t i = 0; i < newInDims.size(); ++i)
    nins.push_back({internDimName(newInDims[i].first), log2s[i], 0});
  return fromPacked(std::move(nins), outs, bases);
}

Expected<LinearLayout>
LinearLayout::reshapeOuts(ArrayRef<NamedSize> newOutDims) const {
  std::vector<int> log2s;
  if (llvm::Error e =
          checkNewDims("reshapeOuts", newOutDims, numOutBits, log2s))
    return std::move(e);
  // Out dims are packed contiguously, first dim lowest: the packed word is
  // already the flattened output value.
  OutDimVec nouts;
  for (size_t k = 0; k < newOutDims.size(); ++k)
    nouts.push_back({internDimName(newOutDims[k].first), log2s[k], 0});
  return fromPacked(ins, std::move(nouts), bases);
}

LinearLayout LinearLayout::flattenIns() const {
  if (ins.empty())
    return *this;
  return fromPacked({{ins[0].name, numInBits, 0}}, outs, bases);
}

LinearLayout LinearLayout::flattenOuts() const {
  if (outs.empty())
    return *this;
  return fromPacked(ins, {{outs[0].name, numOutBits, 0}}, bases);
}

Expected<LinearLayout>
LinearLayout::sublayout(ArrayRef<std::string> inDims,
                        ArrayRef<std::string> outDims) const {
  for (const std::string &n : inDims)
    if (!hasInDim(n))
      return err("sublayout: no input dimension '" + n + "' in " +
                 joinNames(getInDimNames()));
  for (const std::string &n : outDims)
    if (!hasOutDim(n))
      return err("sublayout: no output dimension '" + n + "' in " +
                 joinNames(getOutDimNames()));
  if (hasDuplicates(inDims) || hasDuplicates(outDims))
    return err("sublayout: duplicate dimension name");
  InDimVec nins;
  OutDimVec nouts;
  Repacker r;
  for (const OutDim &d : outs)
    if (llvm::is_contained(outDims, d.name)) {
      r.srcOffset.push_back(d.offset);
      r.srcLog2.push_back(d.log2);
      nouts.push_back(d);
    }
  LinearLayout shape = fromPacked({}, nouts, {});
  for (const OutDim &d : shape.outs)
    r.dstOffset.push_back(d.offset);
  WordVec nb;
  for (const InDim &d : ins)
    if (llvm::is_contained(inDims, d.name)) {
      nins.push_back(d);
      for (int b = 0; b < d.log2; ++b)
        nb.push_back(r(bases[d.first + b]));
    }
  return fromPacked(std::move(nins), std::move(nouts), std::move(nb));
}

Expected<LinearLayout> LinearLayout::resizeInDim(StringRef inDim,
                                                 int32_t newSize) const {
  int i = findIn(inDim);
  int lg = log2IfPowerOf2(newSize);
  if (i < 0)
    return err("resizeInDim: no input dimension '" + inDim + "'");
  if (lg < 0)
    return err("resizeInDim: size " + llvm::Twine(newSize) +
               " is not a power of two");
  if (numInBits - ins[i].log2 + lg > kMaxTotalBits)
    return err("resizeInDim: too many input bits");
  InDimVec nins = ins;
  WordVec nb;
  for (size_t j = 0; j < ins.size(); ++j) {
    int keep = j == size_t(i) ? std::min(lg, ins[j].log2) : ins[j].log2;
    nb.insert(nb.end(), bases.begin() + ins[j].first,
              bases.begin() + ins[j].first + keep);
    if (j == size_t(i)) {
      nb.insert(nb.end(), std::max(0, lg - ins[j].log2), 0);
      nins[j].log2 = lg;
    }
  }
  return fromPacked(std::move(nins), outs, std::move(nb));
}

Expected<LinearLayout> LinearLayout::resizeOutDim(StringRef outDim,
                                                  int32_t newSize) const {
  int k = findOut(outDim);
  int lg = log2IfPowerOf2(newSize);
  if (k < 0)
    return err("resizeOutDim: no output dimension '" + outDim + "'");
  if (lg < 0 || lg > outs[k].log2)
    return err("resizeOutDim: size " + llvm::Twine(newSize) +
               " is not a power of two no larger than " +
               llvm::Twine(1 << outs[k].log2));
  // A coordinate that does not fit becomes 0 (it is not wrapped).
  OutDimVec nouts = outs;
  nouts[k].log2 = lg;
  LinearLayout shape = fromPacked({}, nouts, {});
  Repacker r;
  for (size_t j = 0; j < outs.size(); ++j) {
    r.srcOffset.push_back(outs[j].offset);
    r.srcLog2.push_back(j == size_t(k) ? lg : outs[j].log2);
    r.dstOffset.push_back(shape.outs[j].offset);
  }
  WordVec nb;
  for (uint64_t w : bases) {
    if (coord(w, k) >= newSize)
      w &= ~outMask(k);
    nb.push_back(r(w));
  }
  return fromPacked(ins, std::move(nouts), std::move(nb));
}

Expected<LinearLayout>
LinearLayout::shrinkOutDims(ArrayRef<NamedSize> shape, bool broadcastRegisters,
                            StringRef registerDim) const {
  WordVec words = bases;
  OutDimVec nouts = outs;
  llvm::SmallVector<bool, 24> removed(numInBits, false);
  int reg = findIn(registerDim);
  for (size_t k = 0; k < outs.size(); ++k) {
    const NamedSize *want = nullptr;
    for (const NamedSize &s : shape)
      if (s.first == outs[k].name)
        want = &s;
    if (!want)
      continue;
    int wantLog2 = log2IfPowerOf2(want->second);
    if (wantLog2 < 0)
      return err("cannot shrink dimension '" + outs[k].name + "' to " +
                 llvm::Twine(want->second) + ", not a power of two");
    int have = outs[k].log2;
    if (have <= wantLog2)
      continue;
    // Candidates: non-zero components, largest first, then input order.
    // A component of several bits (a #ttg.linear basis such as [0, 3, 0])
    // has no largest-bit order to follow, except towards size 1 (a slice's
    // parent), where every component must go whatever its bits.
    llvm::SmallVector<std::pair<int32_t, int>, 24> cands;
    for (int j = 0; j < numInBits; ++j) {
      int32_t v = coord(words[j], k);
      if (v == 0)
        continue;
      if ((v & (v - 1)) && wantLog2 != 0)
        return err("cannot shrink dimension '" + outs[k].name + "' to " +
                   llvm::Twine(want->second) + ": a basis has component " +
                   llvm::Twine(v) + ", not a power of two");
      cands.push_back({v, j});
    }
    if (wantLog2 == 0)
      have = int(cands.size());
    std::sort(cands.begin(), cands.end(), [](auto &a, auto &b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (auto &[v, j] : cands) {
      if (have <= wantLog2)
        break;
      bool isReg = reg >= 0 && j >= ins[reg].first && j < ins[reg].first + ins[reg].log2;
      if (!broadcastRegisters && isReg)
        removed[j] = true;
      else
        words[j] &= ~outMask(k);
      --have;
    }
    nouts[k].log2 = wantLog2;
  }
  // Repack into the new sizes; a component that still does not fit means
  // the layout cannot be shrunk this way.
  LinearLayout shapeOnly = fromPacked({}, nouts, {});
  Repacker r;
  uint64_t overflow = 0;
  for (size_t k = 0; k < outs.size(); ++k) {
    r.srcOffset.push_back(outs[k].offset);
    r.srcLog2.push_back(nouts[k].log2);
    r.dstOffset.push_back(shapeOnly.outs[k].offset);
    if (nouts[k].log2 < outs[k].log2)
      overflow |= outMask(k) & ~(((uint64_t(1) << nouts[k].log2) - 1) << outs[k].offset);
  }
  InDimVec nins = ins;
  WordVec nb;
  for (size_t i = 0; i < ins.size(); ++i) {
    int kept = 0;
    for (int b = 0; b < ins[i].log2; ++b) {
      int j = ins[i].first + b;
      if (removed[j])
        continue;
      if (words[j] & overflow)
        return err("cannot shrink: " + ins[i].name + "=" + llvm::Twine(1 << b) +
                   " still maps outside the smaller dimensions");
      nb.push_back(r(words[j]));
      ++kept;
    }
    nins[i].log2 = kept;
  }
  return fromPacked(std::move(nins), std::move(nouts), std::move(nb));
}

LinearLayout LinearLayout::removeZeroBasesAlongDim(StringRef inDim) const {
  InDimVec nins = ins;
  WordVec nb;
  for (InDim &d : nins) {
    int kept = 0;
    for (int b = 0; b < d.log2; ++b) {
      uint64_t w = bases[d.first + b];
      if (d.name == inDim && w == 0)
        continue;
      nb.push_back(w);
      ++kept;
    }
    d.log2 = kept;
  }
  return fromPacked(std::move(nins), outs, std::move(nb));
}

std::optional<LinearLayout>
LinearLayout::quotient(ArrayRef<std::string> dims) const {
  for (const std::string &d : dims)
    if (!hasInDim(d))
      return std::nullopt;
  if (!isTrivialOver(dims))
    return std::nullopt;
  std::vector<std::string> keepIns, keepOuts;
  for (const InDim &d : ins)
    if (!llvm::is_contained(dims, d.name))
      keepIns.push_back(d.name.str());
  for (const OutDim &d : outs)
    if (!llvm::is_contained(dims, d.name))
      keepOuts.push_back(d.name.str());
  Expected<LinearLayout> q = sublayout(keepIns, keepOuts);
  if (!q) {
    llvm::consumeError(q.takeError());
    return std::nullopt;
  }
  return std::move(*q);
}

Expected<LinearLayout> LinearLayout::concatIns(const LinearLayout &other) const {
  if (getOutDims() != other.getOutDims())
    return err("concatIns: output dimensions differ");
  for (const InDim &d : other.ins)
    if (hasInDim(d.name))
      return err("concatIns: input dimension '" + d.name +
                 "' is in both layouts");
  if (numInBits + other.numInBits > kMaxTotalBits)
    return err("concatIns: too many input bits");
  InDimVec nins = ins;
  nins.insert(nins.end(), other.ins.begin(), other.ins.end());
  WordVec nb = bases;
  nb.insert(nb.end(), other.bases.begin(), other.bases.end());
  return fromPacked(std::move(nins), outs, std::move(nb));
}

Expected<LinearLayout>
LinearLayout::concatOuts(const LinearLayout &other) const {
  if (getInDims() != other.getInDims())
    return err("concatOuts: input dimensions differ");
  for (const OutDim &d : other.outs)
    if (hasOutDim(d.name))
      return err("concatOuts: output dimension '" + d.name +
                 "' is in both layouts");
  if (numOutBits + other.numOutBits > kMaxTotalBits)
    return err("concatOuts: too many output bits");
  OutDimVec nouts = outs;
  nouts.insert(nouts.end(), other.outs.begin(), other.outs.end());
  WordVec nb;
  for (size_t j = 0; j < bases.size(); ++j)
    nb.push_back(bases[j] | (other.bases[j] << numOutBits));
  return fromPacked(ins, std::move(nouts), std::move(nb));
}

// The C of A = B * C (B on the left: A's bases of each in dim start with B's
// and go on with C's, whose coordinates sit above B's out sizes) or of
// A = C * B (B on the right: C's bases come first, in the low coordinates).
// Built from A's bases and then checked by multiplying back.
std::optional<LinearLayout> LinearLayout::divide(const LinearLayout &A,
                                                 const LinearLayout &B,
                                                 bool bOnLeft) {
  for (const InDim &d : B.ins)
    if (!A.hasInDim(d.name) || A.getInDimSizeLog2(d.name) < d.log2)
      return std::nullopt;
  for (const OutDim &d : B.outs)
    if (!A.hasOutDim(d.name) || A.getOutDimSizeLog2(d.name) < d.log2)
      return std::nullopt;
  // C has all of A's dims (some of size 1), so the product orders as A.
  InDimVec cins;
  OutDimVec couts;
  for (const InDim &d : A.ins)
    cins.push_back({d.name, d.log2 - B.getInDimSizeLog2(d.name), 0});
  for (const OutDim &d : A.outs)
    couts.push_back({d.name, d.log2 - B.getOutDimSizeLog2(d.name), 0});
  LinearLayout shape = fromPacked({}, couts, {});
  Repacker take;
  for (size_t k = 0; k < A.outs.size(); ++k) {
    int skip = bOnLeft ? B.getOutDimSizeLog2(A.outs[k].name) : 0;
    take.srcOffset.push_back(A.outs[k].offset + skip);
    take.srcLog2.push_back(shape.outs[k].log2);
    take.dstOffset.push_back(shape.outs[k].offset);
  }
  WordVec cb;
  for (size_t i = 0; i < A.ins.size(); ++i) {
    int first = bOnLeft ? A.ins[i].log2 - cins[i].log2 : 0;
    for (int b = first; b < first + cins[i].log2; ++b)
      cb.push_back(take(A.bases[A.ins[i].first + b]));
  }
  LinearLayout C = fromPacked(std::move(cins), std::move(couts), std::move(cb));
  Expected<LinearLayout> prod = bOnLeft ? B * C : C * B;
  if (!prod) {
    llvm::consumeError(prod.takeError());
    return std::nullopt;
  }
  if (*prod != A)
    return std::nullopt;
  return C;
}

std::optional<LinearLayout> tgpu::layout::divideLeft(const LinearLayout &A,
                                                     const LinearLayout &B) {
  return LinearLayout::divide(A, B, /*bOnLeft=*/true);
}

std::optional<LinearLayout> tgpu::layout::divideRight(const LinearLayout &A,
                                                      const LinearLayout &B) {
  return LinearLayout::divide(A, B, /*bOnLeft=*/false);
}

//===----------------------------------------------------------------------===//
// Identity and text
//===----------------------------------------------------------------------===//

bool LinearLayout::operator==(const LinearLayout &o) const {
  if (ins.size() != o.ins.size() || outs.size() != o.outs.size() ||
      bases != o.bases)
    return false;
  for (size_t i = 0; i < ins.size(); ++i)
    if (ins[i].name != o.ins[i].name || ins[i].log2 != o.ins[i].log2)
      return false;
  for (size_t k = 0; k < outs.size(); ++k)
    if (outs[k].name != o.outs[k].name || outs[k].log2 != o.outs[k].log2)
      return false;
  return true;
}

bool LinearLayout::equalIgnoringOutDimSizes(const LinearLayout &o) const {
  if (ins.size() != o.ins.size() || outs.size() != o.outs.size())
    return false;
  for (size_t i = 0; i < ins.size(); ++i)
    if (ins[i].name != o.ins[i].name || ins[i].log2 != o.ins[i].log2)
      return false;
  for (size_t k = 0; k < outs.size(); ++k)
    if (outs[k].name != o.outs[k].name)
      return false;
  for (const InDim &d : ins)
    for (int b = 0; b < d.log2; ++b)
      if (getBasis(d.name, b) != o.getBasis(d.name, b))
        return false;
  return true;
}

size_t LinearLayout::hash() const {
  llvm::hash_code h = llvm::hash_combine_range(bases.begin(), bases.end());
  for (const InDim &d : ins)
    h = llvm::hash_combine(h, d.name, d.log2);
  for (const OutDim &d : outs)
    h = llvm::hash_combine(h, d.name, d.log2);
  return h;
}

std::string LinearLayout::toString() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  auto printOuts = [&] {
    os << "[";
    for (size_t k = 0; k < outs.size(); ++k)
      os << (k ? ", " : "") << outs[k].name << " (size "
         << (int64_t(1) << outs[k].log2) << ")";
    os << "]";
  };
  if (ins.empty()) {
    if (outs.empty()) {
      os << "\n(empty layout)";
    } else {
      os << "\n(empty layout with out-dims ";
      printOuts();
      os << ")";
    }
    return s;
  }
  os << "\n";
  for (const InDim &d : ins) {
    if (d.log2 == 0) {
      os << " - " << d.name << " is a size 1 dimension\n";
      continue;
    }
    for (int b = 0; b < d.log2; ++b) {
      os << (b == 0 ? " - " : "\n   ") << d.name << "=" << (int64_t(1) << b)
         << " -> (";
      uint64_t w = bases[d.first + b];
      for (size_t k = 0; k < outs.size(); ++k)
        os << (k ? ", " : "") << coord(w, k);
      os << ")";
    }
    os << "\n";
  }
  os << "where out dims are: ";
  printOuts();
  return s;
}
