// fuzz_linear_layout: bytes -> a random sequence of LinearLayout operations,
// each result checked against a GF(2) model written here from the semantics
// (docs/ARCHITECTURE.md "Layout math", docs/layout/triton_linear_layout_semantics.md)
// and against algebraic laws.
//
// The model keeps a layout as plain per-out-dim coordinates of the image of
// every input bit and computes each operation itself (its own elimination,
// smallest-solution search, name merge; no code shared with the library).
// Every operation is run by both, and the model also decides whether the
// arguments are valid: an llvm::Error on valid arguments is
// "rejected-valid", success on invalid ones "accepted-invalid", any
// difference in dims, sizes or bases (compared with the packed words in the
// format LinearLayout.h documents, and read back through getBasis / apply /
// applyFlat), or a failed law, is "law".
//
// Inputs stay small (at most 8 named dims, a few bits each; results over 24
// bits are checked but not reused; 8 operations per input), so one input
// runs in microseconds; no MLIR.
#include "FuzzTarget.h"
#include "Targets.h"

#include "../generator/ByteSource.h"

#include "tgpu/Layout/LinearLayout.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>

using namespace tgpu::layout;
using tgpu::fuzz::Finding;
using tgpu::gen::ByteSource;
using llvm::Expected;

namespace {

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

// One pool for in and out dims, so compose / invertAndCompose / quotient can
// line up names (a dim may be both an in and an out dim, e.g. block->block).
constexpr int kNumNames = 8;
const std::string kNames[kNumNames] = {"register", "lane", "warp", "block",
                                       "dim0",     "dim1", "dim2", "dim3"};
constexpr int kMaxDims = kNumNames;
constexpr int kMaxBits = 63;      // the library's limit per side
constexpr int kMaxDimLog2 = 30;   // int32 sizes: 2^30 is the largest power of two
constexpr int kPoolBits = 24;     // larger results are checked but not reused
constexpr int kMaxSteps = 8;      // operations per input

//===----------------------------------------------------------------------===//
// The model
//===----------------------------------------------------------------------===//

struct Dim {
  uint8_t name = 0, log2 = 0;
};

// A linear map over GF(2): for flattened input bit j (in dims in order, bit 0
// of each dim first) and out dim k, coord[j][k] is the k-th coordinate of the
// image of that bit.
struct Model {
  uint8_t nIn = 0, nOut = 0;
  Dim in[kMaxDims], out[kMaxDims];
  uint32_t coord[kMaxBits][kMaxDims];

  int inBits() const {
    int s = 0;
    for (int i = 0; i < nIn; ++i)
      s += in[i].log2;
    return s;
  }
  int outBits() const {
    int s = 0;
    for (int k = 0; k < nOut; ++k)
      s += out[k].log2;
    return s;
  }
  int inFirst(int i) const {
    int s = 0;
    for (int d = 0; d < i; ++d)
      s += in[d].log2;
    return s;
  }
  int findIn(int name) const {
    for (int i = 0; i < nIn; ++i)
      if (in[i].name == name)
        return i;
    return -1;
  }
  int findOut(int name) const {
    for (int k = 0; k < nOut; ++k)
      if (out[k].name == name)
        return k;
    return -1;
  }
  bool isZero(int bit) const {
    for (int k = 0; k < nOut; ++k)
      if (coord[bit][k])
        return false;
    return true;
  }
  // The image of the flattened input `x`, one coordinate per out dim.
  void eval(uint64_t x, uint32_t *res) const {
    for (int k = 0; k < nOut; ++k)
      res[k] = 0;
    for (int j = 0; x; ++j, x >>= 1)
      if (x & 1)
        for (int k = 0; k < nOut; ++k)
          res[k] ^= coord[j][k];
  }
  // The coordinates of one image as a bit vector (out dims side by side, in
  // out-dim order, first dim lowest): the model's own vector space.
  uint64_t vec(const uint32_t *c) const {
    uint64_t v = 0;
    int off = 0;
    for (int k = 0; k < nOut; ++k) {
      v |= uint64_t(c[k]) << off;
      off += out[k].log2;
    }
    return v;
  }
  uint64_t vecOf(int bit) const { return vec(coord[bit]); }
};

Model emptyModel() {
  Model m;
  std::memset(m.coord, 0, sizeof(m.coord));
  return m;
}

bool sameModel(const Model &a, const Model &b, bool ignoreOutSizes = false) {
  if (a.nIn != b.nIn || a.nOut != b.nOut)
    return false;
  for (int i = 0; i < a.nIn; ++i)
    if (a.in[i].name != b.in[i].name || a.in[i].log2 != b.in[i].log2)
      return false;
  for (int k = 0; k < a.nOut; ++k)
    if (a.out[k].name != b.out[k].name ||
        (!ignoreOutSizes && a.out[k].log2 != b.out[k].log2))
      return false;
  for (int j = 0, n = a.inBits(); j < n; ++j)
    for (int k = 0; k < a.nOut; ++k)
      if (a.coord[j][k] != b.coord[j][k])
        return false;
  return true;
}

// Span membership over GF(2) on the model's vectors: a list of reduced rows
// with distinct leading bits, each remembering which input bit created it, so
// "is v in the span of the first i vectors" is a reduction by the rows made
// before i.
class Span {
public:
  // Returns whether `v` was independent of the vectors added before.
  bool add(uint64_t v, int index) {
    v = reduce(v, INT32_MAX);
    if (!v)
      return false;
    Row r{v, uint64_t(1) << (63 - __builtin_clzll(v)), index};
    size_t at = 0;
    while (at < n && rows[at].lead > r.lead)
      ++at;
    for (size_t i = n; i > at; --i)
      rows[i] = rows[i - 1];
    rows[at] = r;
    ++n;
    return true;
  }
  // `v` reduced by the rows of vectors with index < `before`.
  uint64_t reduce(uint64_t v, int before) const {
    for (size_t i = 0; i < n; ++i)
      if (rows[i].index < before && (v & rows[i].lead))
        v ^= rows[i].vec;
    return v;
  }
  int rank() const { return int(n); }

private:
  struct Row {
    uint64_t vec, lead;
    int index;
  };
  Row rows[64];
  size_t n = 0;
};

int modelRank(const Model &m) {
  Span s;
  for (int j = 0, n = m.inBits(); j < n; ++j)
    s.add(m.vecOf(j), j);
  return s.rank();
}

// The numerically smallest x (bit i = column i) with XOR of cols[i] over the
// set bits of x equal to `target`, using only columns in `allowed`. Greedy
// from the top: column i is used iff the rest of the target is not in the
// span of the allowed columns below i.
std::optional<uint64_t> smallestSolution(const uint64_t *cols, int n,
                                         uint64_t allowed, uint64_t target) {
  Span s;
  for (int i = 0; i < n; ++i)
    if (allowed >> i & 1)
      s.add(cols[i], i);
  if (s.reduce(target, n))
    return std::nullopt;
  uint64_t x = 0;
  for (int i = n - 1; i >= 0; --i) {
    if (!(allowed >> i & 1))
      continue;
    if (s.reduce(target, i)) {
      x |= uint64_t(1) << i;
      target ^= cols[i];
    }
  }
  return x;
}

//===----------------------------------------------------------------------===//
// The model's operations. Each returns std::nullopt (with `why`) exactly when
// the library must return an error (or std::nullopt) for those arguments.
//===----------------------------------------------------------------------===//

using MaybeModel = std::optional<Model>;

bool dimsTooLarge(const Model &m, std::string &why) {
  for (int i = 0; i < m.nIn; ++i)
    if (m.in[i].log2 > kMaxDimLog2) {
      why = "in dim " + kNames[m.in[i].name] + " larger than 2^30";
      return true;
    }
  for (int k = 0; k < m.nOut; ++k)
    if (m.out[k].log2 > kMaxDimLog2) {
      why = "out dim " + kNames[m.out[k].name] + " larger than 2^30";
      return true;
    }
  if (m.inBits() > kMaxBits || m.outBits() > kMaxBits) {
    why = "more than 63 bits";
    return true;
  }
  return false;
}

// Triton's supremum (see the notes, section 4.1): merge two name lists keeping
// both orders; an error when the common names appear in different orders.
std::optional<llvm::SmallVector<uint8_t, kMaxDims>>
modelSupremum(llvm::ArrayRef<uint8_t> x, llvm::ArrayRef<uint8_t> y) {
  auto pos = [](llvm::ArrayRef<uint8_t> l, uint8_t n) {
    for (size_t i = 0; i < l.size(); ++i)
      if (l[i] == n)
        return int(i);
    return -1;
  };
  // Common names in the same relative order?
  int last = -1;
  for (uint8_t n : x) {
    int p = pos(y, n);
    if (p < 0)
      continue;
    if (p < last)
      return std::nullopt;
    last = p;
  }
  llvm::SmallVector<uint8_t, kMaxDims> result;
  auto inResult = [&](uint8_t n) { return pos(result, n) >= 0; };
  size_t i = 0, j = 0;
  const int kInf = INT32_MAX;
  while (i < x.size() || j < y.size()) {
    while (i < x.size() && inResult(x[i]))
      ++i;
    while (j < y.size() && inResult(y[j]))
      ++j;
    if (i >= x.size() && j >= y.size())
      break;
    if (i < x.size() && j < y.size() && x[i] == y[j]) {
      result.push_back(x[i]);
      ++i, ++j;
      continue;
    }
    int candX = kInf, candY = kInf;
    if (i < x.size() && pos(y, x[i]) >= int(j))
      candX = pos(y, x[i]);
    if (j < y.size() && pos(x, y[j]) >= int(i))
      candY = pos(x, y[j]);
    if (i < x.size() && candX == kInf) {
      result.push_back(x[i++]);
      continue;
    }
    if (j < y.size() && candY == kInf) {
      result.push_back(y[j++]);
      continue;
    }
    if (candX <= candY)
      result.push_back(x[i++]);
    else
      result.push_back(y[j++]);
  }
  return result;
}

llvm::SmallVector<uint8_t, kMaxDims> inNames(const Model &m) {
  llvm::SmallVector<uint8_t, kMaxDims> r;
  for (int i = 0; i < m.nIn; ++i)
    r.push_back(m.in[i].name);
  return r;
}
llvm::SmallVector<uint8_t, kMaxDims> outNames(const Model &m) {
  llvm::SmallVector<uint8_t, kMaxDims> r;
  for (int k = 0; k < m.nOut; ++k)
    r.push_back(m.out[k].name);
  return r;
}

// inner * outer (notes 4.2): per dim, inner's bits low, outer's above.
MaybeModel modelProduct(const Model &a, const Model &b, std::string &why) {
  auto ins = modelSupremum(inNames(a), inNames(b));
  auto outs = modelSupremum(outNames(a), outNames(b));
  if (!ins || !outs) {
    why = "common dims in different orders";
    return std::nullopt;
  }
  Model r = emptyModel();
  r.nIn = ins->size();
  r.nOut = outs->size();
  for (size_t k = 0; k < outs->size(); ++k) {
    int ka = a.findOut((*outs)[k]), kb = b.findOut((*outs)[k]);
    r.out[k] = {(*outs)[k], uint8_t((ka >= 0 ? a.out[ka].log2 : 0) +
                                    (kb >= 0 ? b.out[kb].log2 : 0))};
  }
  for (size_t i = 0; i < ins->size(); ++i) {
    int ia = a.findIn((*ins)[i]), ib = b.findIn((*ins)[i]);
    r.in[i] = {(*ins)[i], uint8_t((ia >= 0 ? a.in[ia].log2 : 0) +
                                  (ib >= 0 ? b.in[ib].log2 : 0))};
  }
  if (dimsTooLarge(r, why))
    return std::nullopt;
  int j = 0;
  for (size_t i = 0; i < ins->size(); ++i) {
    int ia = a.findIn((*ins)[i]), ib = b.findIn((*ins)[i]);
    if (ia >= 0)
      for (int bit = 0; bit < a.in[ia].log2; ++bit, ++j)
        for (int k = 0; k < r.nOut; ++k) {
          int ka = a.findOut(r.out[k].name);
          if (ka >= 0)
            r.coord[j][k] = a.coord[a.inFirst(ia) + bit][ka];
        }
    if (ib >= 0)
      for (int bit = 0; bit < b.in[ib].log2; ++bit, ++j)
        for (int k = 0; k < r.nOut; ++k) {
          int kb = b.findOut(r.out[k].name);
          int ka = a.findOut(r.out[k].name);
          int shift = ka >= 0 ? a.out[ka].log2 : 0;
          if (kb >= 0)
            r.coord[j][k] = b.coord[b.inFirst(ib) + bit][kb] << shift;
        }
  }
  return r;
}

// (outer ∘ this): this's outs feed outer's ins by name.
MaybeModel modelCompose(const Model &t, const Model &outer, std::string &why) {
  if (outer.nIn != t.nOut) {
    why = "outer's ins are not this's outs";
    return std::nullopt;
  }
  for (int k = 0; k < t.nOut; ++k) {
    int i = outer.findIn(t.out[k].name);
    if (i < 0) {
      why = "outer lacks in dim " + kNames[t.out[k].name];
      return std::nullopt;
    }
    if (outer.in[i].log2 < t.out[k].log2) {
      why = "outer in dim smaller than this out dim";
      return std::nullopt;
    }
  }
  Model r = emptyModel();
  r.nIn = t.nIn;
  r.nOut = outer.nOut;
  std::copy(t.in, t.in + t.nIn, r.in);
  std::copy(outer.out, outer.out + outer.nOut, r.out);
  for (int j = 0, n = t.inBits(); j < n; ++j) {
    uint64_t x = 0;
    for (int k = 0; k < t.nOut; ++k) {
      int i = outer.findIn(t.out[k].name);
      x |= uint64_t(t.coord[j][k]) << outer.inFirst(i);
    }
    outer.eval(x, r.coord[j]);
  }
  return r;
}

// C with outer(C(x)) = this(x): in dims both have with identical bases map to
// themselves (Triton's shortcut); every other basis takes the smallest
// solution over outer's other columns, else over all of them.
MaybeModel modelInvertAndCompose(const Model &t, const Model &outer,
                                 std::string &why) {
  if (outer.nOut != t.nOut) {
    why = "different out dims";
    return std::nullopt;
  }
  for (int k = 0; k < t.nOut; ++k)
    if (outer.findOut(t.out[k].name) < 0) {
      why = "outer lacks out dim " + kNames[t.out[k].name];
      return std::nullopt;
    }
  int n = outer.inBits();
  uint64_t cols[kMaxBits];
  for (int j = 0; j < n; ++j)
    cols[j] = outer.vecOf(j);
  // this's image of bit j in outer's out space; false if it does not fit.
  auto target = [&](int j, uint64_t &v) {
    uint32_t c[kMaxDims] = {};
    for (int k = 0; k < t.nOut; ++k) {
      int ko = outer.findOut(t.out[k].name);
      if (t.coord[j][k] >> outer.out[ko].log2)
        return false;
      c[ko] = t.coord[j][k];
    }
    v = outer.vec(c);
    return true;
  };
  bool identity[kMaxDims] = {};
  uint64_t identityCols = 0;
  for (int i = 0; i < t.nIn; ++i) {
    int o = outer.findIn(t.in[i].name);
    if (o < 0 || outer.in[o].log2 != t.in[i].log2)
      continue;
    bool same = true;
    for (int bit = 0; bit < t.in[i].log2 && same; ++bit)
      for (int k = 0; k < t.nOut; ++k) {
        int ko = outer.findOut(t.out[k].name);
        if (t.coord[t.inFirst(i) + bit][k] !=
            outer.coord[outer.inFirst(o) + bit][ko])
          same = false;
      }
    if (same) {
      identity[i] = true;
      for (int bit = 0; bit < outer.in[o].log2; ++bit)
        identityCols |= uint64_t(1) << (outer.inFirst(o) + bit);
    }
  }
  Model r = emptyModel();
  r.nIn = t.nIn;
  std::copy(t.in, t.in + t.nIn, r.in);
  r.nOut = outer.nIn;
  std::copy(outer.in, outer.in + outer.nIn, r.out);
  uint64_t all = n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
  for (int i = 0; i < t.nIn; ++i)
    for (int bit = 0; bit < t.in[i].log2; ++bit) {
      int j = t.inFirst(i) + bit;
      uint64_t x;
      if (identity[i]) {
        int o = outer.findIn(t.in[i].name);
        x = uint64_t(1) << (outer.inFirst(o) + bit);
      } else {
        uint64_t v;
        std::optional<uint64_t> s;
        if (target(j, v)) {
          s = smallestSolution(cols, n, all & ~identityCols, v);
          if (!s)
            s = smallestSolution(cols, n, all, v);
        }
        if (!s) {
          why = "basis outside outer's image";
          return std::nullopt;
        }
        x = *s;
      }
      // Split x into outer's in dims.
      for (int o = 0; o < outer.nIn; ++o)
        r.coord[j][o] = uint32_t((x >> outer.inFirst(o)) &
                                 ((uint64_t(1) << outer.in[o].log2) - 1));
    }
  return r;
}

Model identityOnOuts(const Model &m) {
  Model id = emptyModel();
  id.nIn = id.nOut = m.nOut;
  int j = 0;
  for (int k = 0; k < m.nOut; ++k) {
    id.in[k] = id.out[k] = m.out[k];
    for (int bit = 0; bit < m.out[k].log2; ++bit, ++j)
      id.coord[j][k] = uint32_t(1) << bit;
  }
  return id;
}

MaybeModel modelPseudoinvert(const Model &m, std::string &why) {
  if (modelRank(m) != m.outBits()) {
    why = "not surjective";
    return std::nullopt;
  }
  return modelInvertAndCompose(identityOnOuts(m), m, why);
}

// The true inverse, solved bit by bit (unique when it exists).
MaybeModel modelInvert(const Model &m, std::string &why) {
  int n = m.inBits();
  if (n != m.outBits() || modelRank(m) != n) {
    why = "not invertible";
    return std::nullopt;
  }
  uint64_t cols[kMaxBits];
  for (int j = 0; j < n; ++j)
    cols[j] = m.vecOf(j);
  Model r = emptyModel();
  r.nIn = m.nOut;
  std::copy(m.out, m.out + m.nOut, r.in);
  r.nOut = m.nIn;
  std::copy(m.in, m.in + m.nIn, r.out);
  uint64_t all = n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
  for (int y = 0; y < n; ++y) {
    std::optional<uint64_t> x = smallestSolution(cols, n, all, uint64_t(1) << y);
    if (!x) {
      why = "internal: no preimage";
      return std::nullopt;
    }
    for (int o = 0; o < m.nIn; ++o)
      r.coord[y][o] = uint32_t((*x >> m.inFirst(o)) &
                               ((uint64_t(1) << m.in[o].log2) - 1));
  }
  return r;
}

// A permutation of the dims by name: `order` must name each dim once.
bool isPermutationOf(llvm::ArrayRef<uint8_t> order,
                     llvm::ArrayRef<uint8_t> names) {
  if (order.size() != names.size())
    return false;
  for (size_t a = 0; a < order.size(); ++a) {
    if (!llvm::is_contained(names, order[a]))
      return false;
    for (size_t b = a + 1; b < order.size(); ++b)
      if (order[a] == order[b])
        return false;
  }
  return true;
}

MaybeModel modelTransposeIns(const Model &m, llvm::ArrayRef<uint8_t> order,
                             std::string &why) {
  if (!isPermutationOf(order, inNames(m))) {
    why = "not a permutation of the ins";
    return std::nullopt;
  }
  Model r = emptyModel();
  r.nIn = m.nIn;
  r.nOut = m.nOut;
  std::copy(m.out, m.out + m.nOut, r.out);
  int j = 0;
  for (size_t a = 0; a < order.size(); ++a) {
    int i = m.findIn(order[a]);
    r.in[a] = m.in[i];
    for (int bit = 0; bit < m.in[i].log2; ++bit, ++j)
      std::copy(m.coord[m.inFirst(i) + bit], m.coord[m.inFirst(i) + bit] + kMaxDims,
                r.coord[j]);
  }
  return r;
}

MaybeModel modelTransposeOuts(const Model &m, llvm::ArrayRef<uint8_t> order,
                              std::string &why) {
  if (!isPermutationOf(order, outNames(m))) {
    why = "not a permutation of the outs";
    return std::nullopt;
  }
  Model r = emptyModel();
  r.nIn = m.nIn;
  r.nOut = m.nOut;
  std::copy(m.in, m.in + m.nIn, r.in);
  for (size_t a = 0; a < order.size(); ++a) {
    int k = m.findOut(order[a]);
    r.out[a] = m.out[k];
    for (int j = 0, n = m.inBits(); j < n; ++j)
      r.coord[j][a] = m.coord[j][k];
  }
  return r;
}

struct NewDim {
  uint8_t name;
  int32_t size;
};

int log2OfPow2(int64_t v) {
  if (v <= 0 || (v & (v - 1)))
    return -1;
  int l = 0;
  while ((int64_t(1) << l) < v)
    ++l;
  return l;
}

bool checkNewDims(llvm::ArrayRef<NewDim> dims, int total, std::string &why) {
  int sum = 0;
  for (size_t a = 0; a < dims.size(); ++a) {
    int l = log2OfPow2(dims[a].size);
    if (l < 0) {
      why = "size not a power of two";
      return false;
    }
    sum += l;
    for (size_t b = a + 1; b < dims.size(); ++b)
      if (dims[a].name == dims[b].name) {
        why = "duplicate dim";
        return false;
      }
  }
  if (sum != total) {
    why = "total size changes";
    return false;
  }
  return true;
}

// New in dims take the flattened bases in order.
MaybeModel modelReshapeIns(const Model &m, llvm::ArrayRef<NewDim> dims,
                           std::string &why) {
  if (!checkNewDims(dims, m.inBits(), why))
    return std::nullopt;
  Model r = m;
  r.nIn = dims.size();
  for (size_t a = 0; a < dims.size(); ++a)
    r.in[a] = {dims[a].name, uint8_t(log2OfPow2(dims[a].size))};
  return r;
}

// Each image read as one number (first out dim lowest), split anew.
MaybeModel modelReshapeOuts(const Model &m, llvm::ArrayRef<NewDim> dims,
                            std::string &why) {
  if (!checkNewDims(dims, m.outBits(), why))
    return std::nullopt;
  Model r = emptyModel();
  r.nIn = m.nIn;
  std::copy(m.in, m.in + m.nIn, r.in);
  r.nOut = dims.size();
  for (size_t a = 0; a < dims.size(); ++a)
    r.out[a] = {dims[a].name, uint8_t(log2OfPow2(dims[a].size))};
  for (int j = 0, n = m.inBits(); j < n; ++j) {
    uint64_t flat = 0;
    int shift = 0;
    for (int k = 0; k < m.nOut; ++k) {
      flat += uint64_t(m.coord[j][k]) << shift;
      shift += m.out[k].log2;
    }
    for (int k = 0; k < r.nOut; ++k) {
      r.coord[j][k] = uint32_t(flat % (uint64_t(1) << r.out[k].log2));
      flat >>= r.out[k].log2;
    }
  }
  return r;
}

MaybeModel modelSublayout(const Model &m, llvm::ArrayRef<uint8_t> ins,
                          llvm::ArrayRef<uint8_t> outs, std::string &why) {
  for (uint8_t n : ins)
    if (m.findIn(n) < 0) {
      why = "unknown in dim";
      return std::nullopt;
    }
  for (uint8_t n : outs)
    if (m.findOut(n) < 0) {
      why = "unknown out dim";
      return std::nullopt;
    }
  for (size_t a = 0; a < ins.size(); ++a)
    for (size_t b = a + 1; b < ins.size(); ++b)
      if (ins[a] == ins[b]) {
        why = "duplicate in dim";
        return std::nullopt;
      }
  for (size_t a = 0; a < outs.size(); ++a)
    for (size_t b = a + 1; b < outs.size(); ++b)
      if (outs[a] == outs[b]) {
        why = "duplicate out dim";
        return std::nullopt;
      }
  Model r = emptyModel();
  int keptOut[kMaxDims];
  for (int k = 0; k < m.nOut; ++k)
    if (llvm::is_contained(outs, m.out[k].name)) {
      keptOut[r.nOut] = k;
      r.out[r.nOut++] = m.out[k];
    }
  int j = 0;
  for (int i = 0; i < m.nIn; ++i) {
    if (!llvm::is_contained(ins, m.in[i].name))
      continue;
    r.in[r.nIn++] = m.in[i];
    for (int bit = 0; bit < m.in[i].log2; ++bit, ++j)
      for (int k = 0; k < r.nOut; ++k)
        r.coord[j][k] = m.coord[m.inFirst(i) + bit][keptOut[k]];
  }
  return r;
}

MaybeModel modelResizeInDim(const Model &m, uint8_t name, int32_t size,
                            std::string &why) {
  int i = m.findIn(name), l = log2OfPow2(size);
  if (i < 0 || l < 0) {
    why = i < 0 ? "unknown in dim" : "size not a power of two";
    return std::nullopt;
  }
  if (m.inBits() - m.in[i].log2 + l > kMaxBits) {
    why = "too many bits";
    return std::nullopt;
  }
  Model r = emptyModel();
  r.nIn = m.nIn;
  r.nOut = m.nOut;
  std::copy(m.in, m.in + m.nIn, r.in);
  std::copy(m.out, m.out + m.nOut, r.out);
  r.in[i].log2 = l;
  int j = 0;
  for (int d = 0; d < m.nIn; ++d)
    for (int bit = 0; bit < r.in[d].log2; ++bit, ++j)
      if (bit < m.in[d].log2)
        std::copy(m.coord[m.inFirst(d) + bit],
                  m.coord[m.inFirst(d) + bit] + kMaxDims, r.coord[j]);
  return r;
}

MaybeModel modelResizeOutDim(const Model &m, uint8_t name, int32_t size,
                             std::string &why) {
  int k = m.findOut(name), l = log2OfPow2(size);
  if (k < 0 || l < 0 || l > m.out[k].log2) {
    why = "bad out dim or size";
    return std::nullopt;
  }
  Model r = m;
  r.out[k].log2 = l;
  for (int j = 0, n = m.inBits(); j < n; ++j)
    if (r.coord[j][k] >= uint32_t(size))
      r.coord[j][k] = 0;
  return r;
}

// Triton's ensureLayoutNotLargerThan, as tgpu documents shrinkOutDims: per
// out dim in order, the non-zero components (powers of two) largest first
// (ties: lower input bit first) are cleared until the declared size fits
// (towards size 1: all of them, of any bits);
// register bases are removed instead when !broadcastRegisters (a removed
// basis still counts as a candidate of later dims, as in Triton).
MaybeModel modelShrinkOutDims(const Model &m, llvm::ArrayRef<NewDim> shape,
                              bool broadcastRegisters, std::string &why) {
  Model w = m;
  bool removed[kMaxBits] = {};
  int reg = m.findIn(0); // "register"
  int regFirst = reg >= 0 ? m.inFirst(reg) : 0;
  int regEnd = reg >= 0 ? regFirst + m.in[reg].log2 : 0;
  int n = m.inBits();
  for (int k = 0; k < m.nOut; ++k) {
    const NewDim *want = nullptr;
    for (const NewDim &s : shape)
      if (s.name == m.out[k].name)
        want = &s;
    if (!want)
      continue;
    int wantLog2 = log2OfPow2(want->size);
    if (wantLog2 < 0) {
      why = "shape not a power of two";
      return std::nullopt;
    }
    int have = m.out[k].log2;
    if (have <= wantLog2)
      continue;
    llvm::SmallVector<std::pair<uint32_t, int>, 64> cands;
    for (int j = 0; j < n; ++j) {
      uint32_t v = w.coord[j][k];
      if (!v)
        continue;
      if ((v & (v - 1)) && wantLog2 != 0) {
        why = "component not a power of two";
        return std::nullopt;
      }
      cands.push_back({v, j});
    }
    if (wantLog2 == 0) // size 1: every component goes, whatever its bits
      have = int(cands.size());
    std::sort(cands.begin(), cands.end(), [](auto &a, auto &b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (auto &[v, j] : cands) {
      if (have <= wantLog2)
        break;
      if (!broadcastRegisters && j >= regFirst && j < regEnd)
        removed[j] = true;
      else
        w.coord[j][k] = 0;
      --have;
    }
    w.out[k].log2 = wantLog2;
  }
  Model r = emptyModel();
  r.nIn = m.nIn;
  r.nOut = m.nOut;
  std::copy(w.out, w.out + w.nOut, r.out);
  int dst = 0;
  for (int i = 0; i < m.nIn; ++i) {
    int kept = 0;
    for (int bit = 0; bit < m.in[i].log2; ++bit) {
      int j = m.inFirst(i) + bit;
      if (removed[j])
        continue;
      for (int k = 0; k < m.nOut; ++k)
        if (w.coord[j][k] >> w.out[k].log2) {
          why = "still too large";
          return std::nullopt;
        }
      std::copy(w.coord[j], w.coord[j] + kMaxDims, r.coord[dst++]);
      ++kept;
    }
    r.in[i] = {m.in[i].name, uint8_t(kept)};
  }
  return r;
}

MaybeModel modelConcatIns(const Model &a, const Model &b, std::string &why) {
  if (a.nOut != b.nOut) {
    why = "outs differ";
    return std::nullopt;
  }
  for (int k = 0; k < a.nOut; ++k)
    if (a.out[k].name != b.out[k].name || a.out[k].log2 != b.out[k].log2) {
      why = "outs differ";
      return std::nullopt;
    }
  for (int i = 0; i < b.nIn; ++i)
    if (a.findIn(b.in[i].name) >= 0) {
      why = "shared in dim";
      return std::nullopt;
    }
  if (a.inBits() + b.inBits() > kMaxBits) {
    why = "too many bits";
    return std::nullopt;
  }
  Model r = a;
  int base = a.inBits();
  for (int i = 0; i < b.nIn; ++i)
    r.in[r.nIn++] = b.in[i];
  for (int j = 0, n = b.inBits(); j < n; ++j)
    std::copy(b.coord[j], b.coord[j] + kMaxDims, r.coord[base + j]);
  return r;
}

MaybeModel modelConcatOuts(const Model &a, const Model &b, std::string &why) {
  if (a.nIn != b.nIn) {
    why = "ins differ";
    return std::nullopt;
  }
  for (int i = 0; i < a.nIn; ++i)
    if (a.in[i].name != b.in[i].name || a.in[i].log2 != b.in[i].log2) {
      why = "ins differ";
      return std::nullopt;
    }
  for (int k = 0; k < b.nOut; ++k)
    if (a.findOut(b.out[k].name) >= 0) {
      why = "shared out dim";
      return std::nullopt;
    }
  if (a.outBits() + b.outBits() > kMaxBits) {
    why = "too many bits";
    return std::nullopt;
  }
  Model r = a;
  for (int k = 0; k < b.nOut; ++k) {
    r.out[r.nOut + k] = b.out[k];
    for (int j = 0, n = a.inBits(); j < n; ++j)
      r.coord[j][r.nOut + k] = b.coord[j][k];
  }
  r.nOut += b.nOut;
  return r;
}

// C with A == B * C (left) or A == C * B: C has A's dims in A's order, its
// bases read off A, and is kept only if the product gives A back exactly.
MaybeModel modelDivide(const Model &A, const Model &B, bool left,
                       std::string &why) {
  why = "not divisible";
  for (int i = 0; i < B.nIn; ++i) {
    int a = A.findIn(B.in[i].name);
    if (a < 0 || A.in[a].log2 < B.in[i].log2)
      return std::nullopt;
  }
  for (int k = 0; k < B.nOut; ++k) {
    int a = A.findOut(B.out[k].name);
    if (a < 0 || A.out[a].log2 < B.out[k].log2)
      return std::nullopt;
  }
  Model C = emptyModel();
  C.nIn = A.nIn;
  C.nOut = A.nOut;
  for (int k = 0; k < A.nOut; ++k) {
    int kb = B.findOut(A.out[k].name);
    C.out[k] = {A.out[k].name,
                uint8_t(A.out[k].log2 - (kb >= 0 ? B.out[kb].log2 : 0))};
  }
  int j = 0;
  for (int i = 0; i < A.nIn; ++i) {
    int ib = B.findIn(A.in[i].name);
    int bBits = ib >= 0 ? B.in[ib].log2 : 0;
    C.in[i] = {A.in[i].name, uint8_t(A.in[i].log2 - bBits)};
    int first = left ? bBits : 0;
    for (int bit = first; bit < first + C.in[i].log2; ++bit, ++j)
      for (int k = 0; k < A.nOut; ++k) {
        int kb = B.findOut(A.out[k].name);
        uint32_t v = A.coord[A.inFirst(i) + bit][k];
        // Left: C's coordinates sit above B's; right: in the low bits.
        if (left)
          v >>= kb >= 0 ? B.out[kb].log2 : 0;
        else
          v &= (uint32_t(1) << C.out[k].log2) - 1;
        C.coord[j][k] = v;
      }
  }
  std::string w;
  MaybeModel prod = left ? modelProduct(B, C, w) : modelProduct(C, B, w);
  if (!prod || !sameModel(*prod, A))
    return std::nullopt;
  return C;
}

// Notes 8.5: each dim both in and out with one size, no other in dim reaches
// them, they reach no other out dim, and the square block (flattened in the
// layout's in order and out order) is the identity.
bool modelIsTrivialOver(const Model &m, llvm::ArrayRef<uint8_t> dims) {
  for (uint8_t d : dims) {
    int i = m.findIn(d), k = m.findOut(d);
    if (i < 0 || k < 0 || m.in[i].log2 != m.out[k].log2)
      return false;
  }
  // Out bit positions of `dims`, flattened in out order.
  llvm::SmallVector<std::pair<int, int>, 64> dimOutBits; // (out dim, bit)
  for (int k = 0; k < m.nOut; ++k)
    if (llvm::is_contained(dims, m.out[k].name))
      for (int bit = 0; bit < m.out[k].log2; ++bit)
        dimOutBits.push_back({k, bit});
  int e = 0;
  for (int i = 0; i < m.nIn; ++i) {
    bool isDim = llvm::is_contained(dims, m.in[i].name);
    for (int bit = 0; bit < m.in[i].log2; ++bit) {
      int j = m.inFirst(i) + bit;
      for (int k = 0; k < m.nOut; ++k) {
        bool outIsDim = llvm::is_contained(dims, m.out[k].name);
        uint32_t expect = 0;
        if (isDim && outIsDim) {
          if (dimOutBits[e].first == k)
            expect = uint32_t(1) << dimOutBits[e].second;
        } else if (isDim != outIsDim) {
          expect = 0; // no crossing between dims and the rest
        } else {
          continue;   // the rest maps freely
        }
        if (m.coord[j][k] != expect)
          return false;
      }
      if (isDim)
        ++e;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Library <-> model
//===----------------------------------------------------------------------===//

// create()'s arguments for a model.
std::vector<LinearLayout::DimBases> basesOf(const Model &m) {
  std::vector<LinearLayout::DimBases> bases;
  for (int i = 0; i < m.nIn; ++i) {
    std::vector<LinearLayout::Basis> bs;
    for (int bit = 0; bit < m.in[i].log2; ++bit)
      bs.emplace_back(m.coord[m.inFirst(i) + bit],
                      m.coord[m.inFirst(i) + bit] + m.nOut);
    bases.push_back({kNames[m.in[i].name], std::move(bs)});
  }
  return bases;
}

std::vector<LinearLayout::NamedSize> outDimsOf(const Model &m) {
  std::vector<LinearLayout::NamedSize> outs;
  for (int k = 0; k < m.nOut; ++k)
    outs.push_back({kNames[m.out[k].name], int32_t(1) << m.out[k].log2});
  return outs;
}

std::string dump(const Model &m) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "model:";
  for (int i = 0; i < m.nIn; ++i) {
    os << "\n  " << kNames[m.in[i].name] << ":";
    for (int bit = 0; bit < m.in[i].log2; ++bit) {
      os << " (";
      for (int k = 0; k < m.nOut; ++k)
        os << (k ? "," : "") << m.coord[m.inFirst(i) + bit][k];
      os << ")";
    }
  }
  os << "\n  outs:";
  for (int k = 0; k < m.nOut; ++k)
    os << " " << kNames[m.out[k].name] << "(" << (uint64_t(1) << m.out[k].log2)
       << ")";
  return s;
}

// The first difference between a library layout and the model, if any. The
// bases are compared as packed words, whose format the header documents (the
// model packs its coordinates itself); checkEvaluation reads coordinates back
// through the public getBasis / apply.
std::optional<std::string> difference(const LinearLayout &l, const Model &m) {
  if (l.getNumInDims() != m.nIn || l.getNumOutDims() != m.nOut)
    return std::string("number of dims");
  for (int i = 0; i < m.nIn; ++i) {
    const std::string &n = kNames[m.in[i].name];
    if (l.findIn(n) != i)
      return "in dim " + std::to_string(i) + " is not " + n;
    if (l.getInDimSizeLog2(n) != m.in[i].log2)
      return "size of in dim " + n;
  }
  for (int k = 0; k < m.nOut; ++k) {
    const std::string &n = kNames[m.out[k].name];
    if (l.findOut(n) != k)
      return "out dim " + std::to_string(k) + " is not " + n;
    if (l.getOutDimSizeLog2(n) != m.out[k].log2)
      return "size of out dim " + n;
  }
  if (l.getTotalInDimSizeLog2() != m.inBits() ||
      l.getTotalOutDimSizeLog2() != m.outBits())
    return std::string("total sizes");
  llvm::ArrayRef<uint64_t> words = l.getPackedBases();
  if (int(words.size()) != m.inBits())
    return std::string("number of bases");
  for (int i = 0; i < m.nIn; ++i)
    for (int bit = 0; bit < m.in[i].log2; ++bit)
      if (words[m.inFirst(i) + bit] != m.vecOf(m.inFirst(i) + bit))
        return "basis " + kNames[m.in[i].name] + "=" +
               std::to_string(uint64_t(1) << bit);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// The run
//===----------------------------------------------------------------------===//

struct Entry {
  LinearLayout lib;
  Model model;
};

constexpr int kPoolSize = 4;

class Run {
public:
  explicit Run(llvm::ArrayRef<uint8_t> bytes) : src(bytes) {}
  std::optional<Finding> go();

private:
  ByteSource src;
  // Random inputs for evaluation come from here, so the fuzzer's bytes steer
  // the operations only.
  uint64_t rngState = 0x9E3779B97F4A7C15ull;
  std::optional<Finding> finding;
  Entry pool[kPoolSize];
  int poolUsed = 0;
  const char *op = "";
  // The operands of the current operation, printed only with a finding.
  const Entry *operandList[3] = {};
  int numOperands = 0;

  uint64_t rng() {
    uint64_t z = (rngState += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // A random flattened input of `bits` bits.
  uint64_t randomInput(int bits) {
    return bits >= 64 ? rng() : rng() & ((uint64_t(1) << bits) - 1);
  }
  bool failed() const { return finding.has_value(); }
  void operands(std::initializer_list<const Entry *> es) {
    numOperands = 0;
    for (const Entry *e : es)
      operandList[numOperands++] = e;
  }
  void report(const char *kind, const std::string &what,
              const std::string &detail) {
    if (finding)
      return;
    std::string msg = std::string("operation: ") + op + "\n" + what + "\n";
    for (int i = 0; i < numOperands; ++i)
      msg += "operand " + std::to_string(i) + ":" +
             operandList[i]->lib.toString() + "\n" +
             dump(operandList[i]->model) + "\n";
    finding = Finding{kind,
                      tgpu::fuzz::normalizeSignature(std::string(op) + ": " + what),
                      msg + detail};
  }
  // The library's layout for a valid model (create with explicit sizes).
  LinearLayout toLibrary(const Model &m) {
    Expected<LinearLayout> l =
        LinearLayout::create(basesOf(m), outDimsOf(m), false);
    if (!l) {
      report("rejected-valid", "create rejected a valid layout: " +
                                   llvm::toString(l.takeError()),
             dump(m));
      return LinearLayout();
    }
    return std::move(*l);
  }

  // Compares the outcome of a library call with the model's verdict; on
  // agreement and success, the result against the model. Returns the result
  // when both succeeded.
  std::optional<Entry> check(Expected<LinearLayout> got, const MaybeModel &want,
                             const std::string &why) {
    if (!got) {
      std::string msg = llvm::toString(got.takeError());
      if (want)
        report("rejected-valid", "rejected valid arguments: " + msg,
               "expected:\n" + dump(*want));
      return std::nullopt;
    }
    if (!want) {
      report("accepted-invalid", "accepted invalid arguments (" + why + ")",
             "got:" + got->toString());
      return std::nullopt;
    }
    return compare(std::move(*got), *want);
  }
  std::optional<Entry> checkOptional(std::optional<LinearLayout> got,
                                     const MaybeModel &want) {
    if (!got && want) {
      report("law", "returned nothing where a result exists",
             "expected:\n" + dump(*want));
      return std::nullopt;
    }
    if (got && !want) {
      report("law", "returned a result where none exists",
             "got:" + got->toString());
      return std::nullopt;
    }
    if (!got)
      return std::nullopt;
    return compare(std::move(*got), *want);
  }
  std::optional<Entry> compare(LinearLayout got, const Model &want) {
    if (std::optional<std::string> d = difference(got, want)) {
      report("law", "result differs from the model: " + *d,
             "got:" + got.toString() + "\nexpected:\n" + dump(want));
      return std::nullopt;
    }
    checkEvaluation(got, want);
    if (failed())
      return std::nullopt;
    return Entry{std::move(got), want};
  }

  // Evaluation through applyFlat (every input when there are few, else a
  // sample), through getBasis and through the named apply, against the
  // model's XOR of bases. (The bases themselves were compared already; this
  // covers the evaluation paths.)
  void checkEvaluation(const LinearLayout &l, const Model &m) {
    int n = m.inBits();
    uint64_t count = n <= 3 ? (uint64_t(1) << n) : 4;
    uint32_t want[kMaxDims];
    for (uint64_t t = 0; t < count; ++t) {
      uint64_t x = n <= 3 ? t : randomInput(n);
      m.eval(x, want);
      uint64_t got = l.applyFlat(x);
      int off = 0;
      for (int k = 0; k < m.nOut; ++k) {
        uint64_t c = (got >> off) & ((uint64_t(1) << m.out[k].log2) - 1);
        if (c != want[k]) {
          report("law", "applyFlat differs from the model",
                 "input " + std::to_string(x) + ":" + l.toString() + "\n" +
                     dump(m));
          return;
        }
        off += m.out[k].log2;
      }
      if (off < 64 && got >> off) {
        report("law", "applyFlat sets bits above the out dims", l.toString());
        return;
      }
    }
    if (rng() % 4)
      return;
    // One basis through getBasis.
    if (n > 0) {
      int i = rng() % m.nIn;
      if (m.in[i].log2 > 0) {
        int bit = rng() % m.in[i].log2;
        LinearLayout::Basis b = l.getBasis(kNames[m.in[i].name], bit);
        bool same = int(b.size()) == m.nOut;
        for (int k = 0; same && k < m.nOut; ++k)
          same = uint32_t(b[k]) == m.coord[m.inFirst(i) + bit][k];
        if (!same) {
          report("law", "getBasis differs from the model",
                 l.toString() + "\n" + dump(m));
          return;
        }
      }
    }
    // Named apply with the in dims in a rotated order (any order is allowed).
    uint64_t x = randomInput(n);
    std::vector<LinearLayout::NamedValue> values;
    int rot = m.nIn ? int(rng() % m.nIn) : 0;
    for (int a = 0; a < m.nIn; ++a) {
      int i = (a + rot) % m.nIn;
      values.push_back({kNames[m.in[i].name],
                        int32_t((x >> m.inFirst(i)) &
                                ((uint64_t(1) << m.in[i].log2) - 1))});
    }
    m.eval(x, want);
    Expected<std::vector<LinearLayout::NamedValue>> r = l.apply(values);
    if (!r) {
      report("rejected-valid", "apply rejected valid values: " +
                                   llvm::toString(r.takeError()),
             l.toString());
      return;
    }
    for (int k = 0; k < m.nOut; ++k)
      if (k >= int(r->size()) || (*r)[k].first != kNames[m.out[k].name] ||
          uint32_t((*r)[k].second) != want[k]) {
        report("law", "apply differs from the model",
               l.toString() + "\n" + dump(m));
        return;
      }
    // And invalid values: one out of range, one missing, or an unknown dim.
    if (m.nIn == 0)
      return;
    switch (rng() % 3) {
    case 0: {
      int i = rng() % m.nIn;
      values[(i - rot + m.nIn) % m.nIn].second =
          rng() % 2 ? -1 : int32_t(1) << m.in[i].log2;
      break;
    }
    case 1:
      values.pop_back();
      break;
    default:
      values.push_back({"nodim", 0});
      break;
    }
    Expected<std::vector<LinearLayout::NamedValue>> bad = l.apply(values);
    if (bad) {
      report("accepted-invalid", "apply accepted invalid values", l.toString());
      return;
    }
    llvm::consumeError(bad.takeError());
  }

  // Keeps a result for later operations (small ones only).
  void keep(std::optional<Entry> e) {
    if (!e || failed() || e->model.inBits() > kPoolBits ||
        e->model.outBits() > kPoolBits)
      return;
    int slot = poolUsed < kPoolSize ? poolUsed++ : int(src.below(kPoolSize));
    pool[slot] = std::move(*e);
  }
  Entry &pick() { return pool[src.below(poolUsed)]; }
  // A fresh entry for a valid model.
  Entry fresh(const Model &m) { return Entry{toLibrary(m), m}; }

  // Random layouts and arguments.
  Model randomModel(int maxDims, int maxLog2);
  Model randomSurjective(llvm::ArrayRef<Dim> outs, int extraBits);
  Model randomSurjectiveOnRandomOuts(int maxOuts, int maxLog2);
  uint8_t randomName() { return uint8_t(src.below(kNumNames)); }
  void randomDistinctNames(int n, uint8_t *out);
  int32_t randomSize(int maxLog2);
  // A permutation of `names`, sometimes (when `allowDefects`) with a
  // duplicate, a missing or an unknown name.
  llvm::SmallVector<uint8_t, kMaxDims> randomOrder(llvm::ArrayRef<uint8_t> names,
                                                   bool allowDefects);

  // Operations.
  void opCreate(bool inferSizes);
  void opFactory();
  void opProduct();
  void opCompose();
  void opInvert();
  void opInvertAndCompose();
  void opTranspose();
  void opReshape();
  void opFlatten();
  void opSublayout();
  void opResize();
  void opShrink();
  void opConcat();
  void opDivide();
  void opQuotient();
  void opQueries();
  void opEquality();
  void opToString();
  void opSupremum();
};

void Run::randomDistinctNames(int n, uint8_t *out) {
  uint8_t perm[kNumNames];
  for (int i = 0; i < kNumNames; ++i)
    perm[i] = i;
  for (int i = 0; i < n; ++i) {
    int j = i + int(src.below(kNumNames - i));
    std::swap(perm[i], perm[j]);
    out[i] = perm[i];
  }
}

// Mostly a power of two up to 2^maxLog2; sometimes one that is not (0,
// negative, 3, 6, 2^31 - 1) so the library must refuse it.
int32_t Run::randomSize(int maxLog2) {
  if (src.chance(1, 16)) {
    static const int32_t bad[] = {0, -1, -4, 3, 6, 12, INT32_MAX, INT32_MIN};
    return bad[src.below(8)];
  }
  return int32_t(1) << src.below(maxLog2 + 1);
}

llvm::SmallVector<uint8_t, kMaxDims>
Run::randomOrder(llvm::ArrayRef<uint8_t> names, bool allowDefects) {
  llvm::SmallVector<uint8_t, kMaxDims> r(names.begin(), names.end());
  for (size_t i = 0; i + 1 < r.size(); ++i)
    std::swap(r[i], r[i + src.below(r.size() - i)]);
  if (!allowDefects || !src.chance(1, 8))
    return r;
  switch (src.below(3)) {
  case 0:
    if (r.size() >= 2)
      r[1] = r[0];
    break;
  case 1:
    if (!r.empty())
      r.pop_back();
    break;
  default:
    if (!r.empty())
      r[src.below(r.size())] = randomName();
    else
      r.push_back(randomName());
    break;
  }
  return r;
}

// Random bases: zeros, powers of two and arbitrary values, mixed.
Model Run::randomModel(int maxDims, int maxLog2) {
  Model m = emptyModel();
  m.nIn = src.below(maxDims + 1);
  m.nOut = src.below(maxDims + 1);
  uint8_t names[kMaxDims];
  randomDistinctNames(m.nIn, names);
  for (int i = 0; i < m.nIn; ++i)
    m.in[i] = {names[i], uint8_t(src.below(maxLog2 + 1))};
  randomDistinctNames(m.nOut, names);
  for (int k = 0; k < m.nOut; ++k)
    m.out[k] = {names[k], uint8_t(src.below(maxLog2 + 1))};
  for (int j = 0, n = m.inBits(); j < n; ++j)
    for (int k = 0; k < m.nOut; ++k) {
      uint32_t size = uint32_t(1) << m.out[k].log2;
      switch (src.below(3)) {
      case 0:
        m.coord[j][k] = 0;
        break;
      case 1:
        m.coord[j][k] = (uint32_t(1) << src.below(m.out[k].log2 + 1)) & (size - 1);
        break;
      default:
        m.coord[j][k] = uint32_t(src.below(size));
        break;
      }
    }
  return m;
}

// A layout onto `outs`: each out bit given to a distinct random in bit, plus
// `extraBits` in bits that are zero or copies (broadcast), then random XOR
// mixing of images, which keeps their span (and so surjectivity).
Model Run::randomSurjective(llvm::ArrayRef<Dim> outs, int extraBits) {
  Model m = emptyModel();
  m.nOut = outs.size();
  std::copy(outs.begin(), outs.end(), m.out);
  int nOutBits = m.outBits();
  int n = nOutBits + extraBits;
  // Split the in bits over 1..3 in dims with random names (more when
  // needed: a dim holds at most 30 bits).
  m.nIn = std::max<int>(n ? 1 + src.below(3) : src.below(2),
                        (n + kMaxDimLog2 - 1) / kMaxDimLog2);
  uint8_t names[kMaxDims];
  randomDistinctNames(m.nIn, names);
  for (int i = 0; i < m.nIn; ++i)
    m.in[i] = {names[i], 0};
  for (int b = 0; b < n; ++b) {
    int i = src.below(m.nIn);
    while (m.in[i].log2 == kMaxDimLog2)
      i = (i + 1) % m.nIn;
    ++m.in[i].log2;
  }
  llvm::SmallVector<std::pair<int, int>, 64> outBits; // (out dim, bit)
  for (int k = 0; k < m.nOut; ++k)
    for (int b = 0; b < m.out[k].log2; ++b)
      outBits.push_back({k, b});
  llvm::SmallVector<int, 64> slot(n);
  for (int j = 0; j < n; ++j)
    slot[j] = j;
  for (int j = 0; j + 1 < n; ++j)
    std::swap(slot[j], slot[j + src.below(n - j)]);
  for (int t = 0; t < nOutBits; ++t)
    m.coord[slot[t]][outBits[t].first] = uint32_t(1) << outBits[t].second;
  for (int t = nOutBits; t < n; ++t)
    if (nOutBits && src.coin()) {
      int from = slot[src.below(nOutBits)];
      std::copy(m.coord[from], m.coord[from] + kMaxDims, m.coord[slot[t]]);
    }
  for (int r = src.below(2 * n + 1); r > 0 && n > 1; --r) {
    int a = src.below(n), b = src.below(n);
    if (a != b)
      for (int k = 0; k < m.nOut; ++k)
        m.coord[a][k] ^= m.coord[b][k];
  }
  return m;
}

Model Run::randomSurjectiveOnRandomOuts(int maxOuts, int maxLog2) {
  Dim outs[kMaxDims];
  int no = src.below(maxOuts + 1);
  uint8_t names[kMaxDims];
  randomDistinctNames(no, names);
  for (int k = 0; k < no; ++k)
    outs[k] = {names[k], uint8_t(src.below(maxLog2 + 1))};
  return randomSurjective({outs, size_t(no)}, src.below(3));
}

// create(bases, outDims, requireSurjective) or create(bases, outDimNames)
// (sizes inferred: the smallest power of two above every coordinate, and
// the layout must be onto them), sometimes with a defect.
void Run::opCreate(bool inferSizes) {
  op = inferSizes ? "create-inferred" : "create";
  operands({});
  Model m = src.coin() ? randomModel(3, 4) : randomSurjectiveOnRandomOuts(3, 4);
  bool requireSurjective = inferSizes || src.coin();
  std::vector<LinearLayout::DimBases> bases = basesOf(m);
  std::vector<LinearLayout::NamedSize> outs = outDimsOf(m);
  MaybeModel want = m;
  std::string why;
  if (inferSizes) {
    for (int k = 0; k < m.nOut; ++k) {
      uint32_t maxC = 0;
      for (int j = 0, n = m.inBits(); j < n; ++j)
        maxC = std::max(maxC, m.coord[j][k]);
      int l = 0;
      while ((uint32_t(1) << l) <= maxC)
        ++l;
      want->out[k].log2 = l;
    }
  }
  if (requireSurjective && modelRank(*want) != want->outBits()) {
    want.reset();
    why = "not surjective";
  }
  // A defect the library must refuse.
  if (src.chance(1, 6)) {
    int kind = src.below(7);
    std::vector<LinearLayout::Basis> *dimBases =
        bases.empty() ? nullptr : &bases[src.below(bases.size())].second;
    if (kind == 0 && dimBases && !dimBases->empty() && m.nOut > 0) {
      int k = src.below(m.nOut);
      (*dimBases)[src.below(dimBases->size())][k] =
          src.coin() && !inferSizes ? outs[k].second : -1;
      want.reset();
      why = "coordinate outside its dim";
    } else if (kind == 1 && dimBases && !dimBases->empty()) {
      LinearLayout::Basis &basis = (*dimBases)[src.below(dimBases->size())];
      if (src.coin() || basis.empty())
        basis.push_back(0);
      else
        basis.pop_back();
      want.reset();
      why = "basis with the wrong arity";
    } else if (kind == 2 && m.nOut > 0 && !inferSizes) {
      static const int32_t bad[] = {0, 3, -2, 12};
      outs[src.below(m.nOut)].second = bad[src.below(4)];
      want.reset();
      why = "out size not a power of two";
    } else if (kind == 3 && bases.size() >= 2) {
      bases[1].first = bases[0].first;
      want.reset();
      why = "duplicate in dim";
    } else if (kind == 4 && outs.size() >= 2) {
      outs[1].first = outs[0].first;
      want.reset();
      why = "duplicate out dim";
    } else if (kind == 5) {
      std::vector<LinearLayout::Basis> many(64, LinearLayout::Basis(m.nOut, 0));
      bases.push_back({"lots", std::move(many)});
      want.reset();
      why = "more than 63 bits";
    } else if (kind == 6) {
      // One in dim of 2^31 elements (sizes are int32).
      std::vector<LinearLayout::Basis> many(31, LinearLayout::Basis(m.nOut, 0));
      bases.push_back({"lots", std::move(many)});
      want.reset();
      why = "an in dim larger than 2^30";
    }
  }
  if (inferSizes) {
    std::vector<std::string> names;
    for (auto &o : outs)
      names.push_back(o.first);
    keep(check(LinearLayout::create(bases, names), want, why));
  } else {
    keep(check(LinearLayout::create(bases, outs, requireSurjective), want, why));
  }
}

// identity1D / zeros1D / strided1D, with good and bad sizes.
void Run::opFactory() {
  operands({});
  uint8_t names[2];
  randomDistinctNames(2, names);
  uint8_t in = names[0], out = src.coin() ? names[1] : names[0];
  int32_t size = randomSize(8);
  int ls = log2OfPow2(size);
  Model m = emptyModel();
  m.nIn = m.nOut = 1;
  MaybeModel want;
  std::string why = "sizes not powers of two or too large";
  switch (src.below(3)) {
  case 0:
    op = "identity1D";
    if (ls >= 0 && ls <= kMaxDimLog2) {
      m.in[0] = {in, uint8_t(ls)};
      m.out[0] = {out, uint8_t(ls)};
      for (int b = 0; b < ls; ++b)
        m.coord[b][0] = uint32_t(1) << b;
      want = m;
    }
    keep(check(LinearLayout::identity1D(size, kNames[in], kNames[out]), want, why));
    return;
  case 1: {
    op = "zeros1D";
    int32_t outSize = src.coin() ? 1 : randomSize(6);
    int lo = log2OfPow2(outSize);
    if (ls >= 0 && lo >= 0) {
      m.in[0] = {in, uint8_t(ls)};
      m.out[0] = {out, uint8_t(lo)};
      want = m;
    }
    keep(check(LinearLayout::zeros1D(size, kNames[in], kNames[out], outSize),
               want, why));
    return;
  }
  default: {
    op = "strided1D";
    int32_t stride = randomSize(6);
    int lst = log2OfPow2(stride);
    if (ls >= 0 && lst >= 0 && ls + lst <= kMaxDimLog2) {
      m.in[0] = {in, uint8_t(ls)};
      m.out[0] = {out, uint8_t(ls + lst)};
      for (int b = 0; b < ls; ++b)
        m.coord[b][0] = uint32_t(stride) << b;
      want = m;
    }
    keep(check(LinearLayout::strided1D(size, stride, kNames[in], kNames[out]),
               want, why));
    return;
  }
  }
}

void Run::opProduct() {
  op = "product";
  Entry &a = pick();
  Entry b = src.coin() ? pick() : fresh(randomModel(3, 3));
  operands({&a, &b});
  std::string why;
  MaybeModel want = modelProduct(a.model, b.model, why);
  std::optional<Entry> r = check(a.lib * b.lib, want, why);
  if (!r || failed())
    return;
  // Associativity with a third factor: (a * b) * c and a * (b * c) are the
  // same map. The dim orders may differ (the merge of name lists is not
  // associative, so one side may even fail), so compare after transposing.
  if (src.chance(1, 4)) {
    Entry &c = pick();
    operands({&a, &b, &c});
    Expected<LinearLayout> left = r->lib * c.lib;
    Expected<LinearLayout> bc = b.lib * c.lib;
    Expected<LinearLayout> right =
        bc ? a.lib * *bc : Expected<LinearLayout>(bc.takeError());
    if (left && right) {
      Expected<LinearLayout> rt =
          right->transposeIns(left->getInDimNames());
      Expected<LinearLayout> rto =
          rt ? rt->transposeOuts(left->getOutDimNames())
             : Expected<LinearLayout>(rt.takeError());
      if (!rto)
        report("law", "(a * b) * c and a * (b * c) have different dims: " +
                          llvm::toString(rto.takeError()), "");
      else if (*left != *rto)
        report("law", "product is not associative",
               "(a*b)*c:" + left->toString() + "\na*(b*c):" + right->toString());
    }
    if (!left)
      llvm::consumeError(left.takeError());
    if (!right)
      llvm::consumeError(right.takeError());
  }
  keep(std::move(r));
}

// compose: mostly with an outer layout built on this layout's outs.
void Run::opCompose() {
  op = "compose";
  Entry &t = pick();
  Entry outer;
  if (src.chance(3, 4)) {
    // outer's ins: t's outs shuffled, sometimes larger or smaller, sometimes
    // one missing or one extra (distinct names, so outer itself is valid).
    Model o = emptyModel();
    llvm::SmallVector<uint8_t, kMaxDims> ins = randomOrder(outNames(t.model), false);
    if (src.chance(1, 10) && !ins.empty())
      ins.pop_back();
    else if (src.chance(1, 10)) {
      uint8_t n = randomName();
      if (!llvm::is_contained(ins, n))
        ins.push_back(n);
    }
    o.nIn = ins.size();
    for (size_t a = 0; a < ins.size(); ++a) {
      int k = t.model.findOut(ins[a]);
      int l = k >= 0 ? t.model.out[k].log2 : 2;
      if (src.chance(1, 4))
        l += 1;
      else if (src.chance(1, 10))
        l -= 1;
      o.in[a] = {ins[a], uint8_t(std::clamp(l, 0, 12))};
    }
    o.nOut = src.below(4);
    uint8_t names[kMaxDims];
    randomDistinctNames(o.nOut, names);
    for (int k = 0; k < o.nOut; ++k)
      o.out[k] = {names[k], uint8_t(src.below(5))};
    for (int j = 0, n = o.inBits(); j < n; ++j)
      for (int k = 0; k < o.nOut; ++k)
        o.coord[j][k] = uint32_t(src.below(uint64_t(1) << o.out[k].log2));
    outer = fresh(o);
  } else {
    outer = pick();
  }
  operands({&t, &outer});
  std::string why;
  MaybeModel want = modelCompose(t.model, outer.model, why);
  std::optional<Entry> r = check(t.lib.compose(outer.lib), want, why);
  if (!r || failed())
    return;
  // Associativity: (t ∘ outer) ∘ c == t ∘ (outer ∘ c) for a c on outer's outs.
  if (src.chance(1, 3)) {
    Model c = emptyModel();
    c.nIn = outer.model.nOut;
    std::copy(outer.model.out, outer.model.out + c.nIn, c.in);
    std::reverse(c.in, c.in + c.nIn);
    c.nOut = 1 + src.below(2);
    uint8_t names[kMaxDims];
    randomDistinctNames(c.nOut, names);
    for (int k = 0; k < c.nOut; ++k)
      c.out[k] = {names[k], uint8_t(src.below(4))};
    for (int j = 0, n = c.inBits(); j < n; ++j)
      for (int k = 0; k < c.nOut; ++k)
        c.coord[j][k] = uint32_t(src.below(uint64_t(1) << c.out[k].log2));
    LinearLayout cl = toLibrary(c);
    Expected<LinearLayout> left = r->lib.compose(cl);
    Expected<LinearLayout> oc = outer.lib.compose(cl);
    if (left && oc) {
      Expected<LinearLayout> right = t.lib.compose(*oc);
      if (!right)
        report("rejected-valid", "t.compose(outer.compose(c)) failed: " +
                                     llvm::toString(right.takeError()),
               "c:" + cl.toString());
      else if (*left != *right)
        report("law", "compose is not associative", "c:" + cl.toString());
    } else if (!failed()) {
      report("rejected-valid", "composing with a matching c failed",
             "c:" + cl.toString());
    }
    if (!left)
      llvm::consumeError(left.takeError());
    if (!oc)
      llvm::consumeError(oc.takeError());
  }
  keep(std::move(r));
}

// invert and pseudoinvert, with their laws.
void Run::opInvert() {
  Entry *e = &pick();
  Entry made;
  if (src.coin()) {
    // A surjective layout, square half of the time.
    Dim outs[3];
    int no = 1 + src.below(3);
    uint8_t names[kMaxDims];
    randomDistinctNames(no, names);
    for (int k = 0; k < no; ++k)
      outs[k] = {names[k], uint8_t(src.below(4))};
    made = fresh(randomSurjective({outs, size_t(no)}, src.coin() ? 0 : src.below(3)));
    e = &made;
  }
  operands({e});
  std::string why;
  if (src.coin()) {
    op = "invert";
    MaybeModel want = modelInvert(e->model, why);
    std::optional<Entry> r = check(e->lib.invert(), want, why);
    if (!r || failed())
      return;
    // L⁻¹ ∘ L = id on L's ins, and (L⁻¹)⁻¹ = L.
    Expected<LinearLayout> round = e->lib.compose(r->lib);
    if (!round) {
      report("rejected-valid", "L.compose(L.invert()) failed: " +
                                   llvm::toString(round.takeError()), "");
      return;
    }
    for (int s = 0; s < 8; ++s) {
      uint64_t x = randomInput(e->model.inBits());
      if (round->applyFlat(x) != x) {
        report("law", "invert(L)(L(x)) != x", "x = " + std::to_string(x));
        return;
      }
    }
    Expected<LinearLayout> twice = r->lib.invert();
    if (!twice)
      report("rejected-valid", "invert of an inverse failed: " +
                                   llvm::toString(twice.takeError()), "");
    else if (*twice != e->lib)
      report("law", "invert(invert(L)) != L", twice->toString());
    keep(std::move(r));
  } else {
    op = "pseudoinvert";
    MaybeModel want = modelPseudoinvert(e->model, why);
    std::optional<Entry> r = check(e->lib.pseudoinvert(), want, why);
    if (!r || failed())
      return;
    // L(P(y)) = y.
    Expected<LinearLayout> round = r->lib.compose(e->lib);
    if (!round) {
      report("rejected-valid", "P.compose(L) failed: " +
                                   llvm::toString(round.takeError()), "");
      return;
    }
    for (int s = 0; s < 8; ++s) {
      uint64_t y = randomInput(e->model.outBits());
      if (round->applyFlat(y) != y) {
        report("law", "L(pseudoinvert(L)(y)) != y", "y = " + std::to_string(y));
        return;
      }
    }
    keep(std::move(r));
  }
}

// invertAndCompose: mostly with an outer layout onto this layout's outs.
void Run::opInvertAndCompose() {
  op = "invertAndCompose";
  Entry &t = pick();
  Entry outer;
  if (src.chance(3, 4)) {
    // outer: onto t's out dims (maybe reordered, maybe larger or smaller),
    // sometimes sharing an in dim of t with the same bases (Triton's
    // identity-dim shortcut).
    llvm::SmallVector<Dim, kMaxDims> outs;
    for (uint8_t n : randomOrder(outNames(t.model), false)) {
      int l = t.model.out[t.model.findOut(n)].log2;
      if (src.chance(1, 4))
        l += 1;
      else if (src.chance(1, 8) && l > 0)
        l -= 1;
      outs.push_back({n, uint8_t(l)});
    }
    Model o = randomSurjective(outs, src.below(3));
    if (src.coin() && t.model.nIn > 0) {
      int i = src.below(t.model.nIn);
      Model shared = emptyModel();
      shared.nIn = 1;
      shared.in[0] = t.model.in[i];
      shared.nOut = o.nOut;
      std::copy(o.out, o.out + o.nOut, shared.out);
      bool fits = o.findIn(t.model.in[i].name) < 0;
      for (int bit = 0; bit < t.model.in[i].log2; ++bit)
        for (int k = 0; k < t.model.nOut; ++k) {
          int ko = o.findOut(t.model.out[k].name);
          uint32_t c = t.model.coord[t.model.inFirst(i) + bit][k];
          if (c >> o.out[ko].log2)
            fits = false;
          shared.coord[bit][ko] = c;
        }
      std::string w;
      if (fits)
        if (MaybeModel c = src.coin() ? modelConcatIns(shared, o, w)
                                      : modelConcatIns(o, shared, w))
          o = *c;
    }
    outer = fresh(o);
  } else {
    outer = pick();
  }
  operands({&t, &outer});
  std::string why;
  MaybeModel want = modelInvertAndCompose(t.model, outer.model, why);
  std::optional<Entry> r = check(t.lib.invertAndCompose(outer.lib), want, why);
  if (!r || failed())
    return;
  // outer(C(x)) = t(x) (sampled).
  Expected<LinearLayout> round = r->lib.compose(outer.lib);
  if (!round) {
    report("rejected-valid", "C.compose(outer) failed: " +
                                 llvm::toString(round.takeError()), "");
    return;
  }
  for (int s = 0; s < 8; ++s) {
    uint64_t x = randomInput(t.model.inBits());
    uint32_t want1[kMaxDims];
    t.model.eval(x, want1);
    std::vector<int32_t> got = round->unpackOut(round->applyFlat(x));
    for (int k = 0; k < t.model.nOut; ++k) {
      int ko = round->findOut(kNames[t.model.out[k].name]);
      if (ko < 0 || uint32_t(got[ko]) != want1[k]) {
        report("law", "outer(invertAndCompose(outer)(x)) != this(x)",
               "C:" + r->lib.toString());
        return;
      }
    }
  }
  keep(std::move(r));
}

void Run::opTranspose() {
  Entry &e = pick();
  operands({&e});
  bool ins = src.coin();
  op = ins ? "transposeIns" : "transposeOuts";
  auto order = randomOrder(ins ? inNames(e.model) : outNames(e.model), true);
  std::vector<std::string> names;
  for (uint8_t n : order)
    names.push_back(kNames[n]);
  std::string why;
  MaybeModel want = ins ? modelTransposeIns(e.model, order, why)
                        : modelTransposeOuts(e.model, order, why);
  std::optional<Entry> r =
      check(ins ? e.lib.transposeIns(names) : e.lib.transposeOuts(names), want, why);
  if (!r || failed())
    return;
  // Transposing back gives the layout again.
  Expected<LinearLayout> back = ins ? r->lib.transposeIns(e.lib.getInDimNames())
                                    : r->lib.transposeOuts(e.lib.getOutDimNames());
  if (!back || *back != e.lib)
    report("law", "transposing back does not restore the layout", "");
  if (!back)
    llvm::consumeError(back.takeError());
  keep(std::move(r));
}

void Run::opReshape() {
  Entry &e = pick();
  operands({&e});
  bool ins = src.coin();
  op = ins ? "reshapeIns" : "reshapeOuts";
  int total = ins ? e.model.inBits() : e.model.outBits();
  // Split the bits over 0..3 new dims (random names), sometimes wrongly.
  llvm::SmallVector<NewDim, 4> dims;
  int nd = total ? 1 + src.below(3) : src.below(2);
  uint8_t names[kMaxDims];
  randomDistinctNames(nd, names);
  int left = total;
  for (int a = 0; a < nd; ++a) {
    int l = a + 1 == nd ? left : int(src.below(left + 1));
    left -= l;
    if (l > kMaxDimLog2)
      return; // not expressible with int32 sizes
    dims.push_back({names[a], int32_t(1) << l});
  }
  if (src.chance(1, 8) && !dims.empty()) {
    switch (src.below(3)) {
    case 0: {
      NewDim &d = dims[src.below(dims.size())];
      d.size = d.size < (1 << 30) ? d.size * 2 : d.size / 2;
      break;
    }
    case 1:
      dims[src.below(dims.size())].size = 3;
      break;
    default:
      dims.push_back(dims[0]);
      break;
    }
  }
  std::vector<LinearLayout::NamedSize> arg;
  for (const NewDim &d : dims)
    arg.push_back({kNames[d.name], d.size});
  std::string why;
  MaybeModel want = ins ? modelReshapeIns(e.model, dims, why)
                        : modelReshapeOuts(e.model, dims, why);
  std::optional<Entry> r =
      check(ins ? e.lib.reshapeIns(arg) : e.lib.reshapeOuts(arg), want, why);
  if (!r || failed())
    return;
  // Reshaping back restores the layout.
  Expected<LinearLayout> back = ins ? r->lib.reshapeIns(e.lib.getInDims())
                                    : r->lib.reshapeOuts(e.lib.getOutDims());
  if (!back || *back != e.lib)
    report("law", "reshaping back does not restore the layout", "");
  if (!back)
    llvm::consumeError(back.takeError());
  keep(std::move(r));
}

void Run::opFlatten() {
  Entry &e = pick();
  operands({&e});
  bool ins = src.coin();
  op = ins ? "flattenIns" : "flattenOuts";
  // flatten has no error channel: only ask when the result fits in int32.
  int total = ins ? e.model.inBits() : e.model.outBits();
  if (total > kMaxDimLog2)
    return;
  Model m = e.model;
  if (ins && m.nIn > 0) {
    m.in[0].log2 = total;
    m.nIn = 1;
  } else if (!ins && m.nOut > 0) {
    std::string w;
    NewDim d{m.out[0].name, int32_t(1) << total};
    m = *modelReshapeOuts(m, d, w);
  }
  keep(compare(ins ? e.lib.flattenIns() : e.lib.flattenOuts(), m));
}

void Run::opSublayout() {
  op = "sublayout";
  Entry &e = pick();
  operands({&e});
  // A random subset of each side in a random order, sometimes an unknown or
  // repeated name.
  auto subset = [&](llvm::ArrayRef<uint8_t> names) {
    llvm::SmallVector<uint8_t, kMaxDims> r;
    for (uint8_t n : names)
      if (src.coin())
        r.push_back(n);
    for (size_t i = 0; i + 1 < r.size(); ++i)
      std::swap(r[i], r[i + src.below(r.size() - i)]);
    if (src.chance(1, 10))
      r.push_back(src.coin() && !r.empty() ? r[0] : randomName());
    return r;
  };
  auto ins = subset(inNames(e.model)), outs = subset(outNames(e.model));
  std::vector<std::string> inArg, outArg;
  for (uint8_t n : ins)
    inArg.push_back(kNames[n]);
  for (uint8_t n : outs)
    outArg.push_back(kNames[n]);
  std::string why;
  MaybeModel want = modelSublayout(e.model, ins, outs, why);
  std::optional<Entry> r = check(e.lib.sublayout(inArg, outArg), want, why);
  if (r && !failed()) {
    // sublayoutIsZero agrees with the sublayout's bases.
    bool zero = true;
    for (int j = 0, n = r->model.inBits(); j < n; ++j)
      zero &= r->model.isZero(j);
    if (e.lib.sublayoutIsZero(inArg, outArg) != zero)
      report("law", "sublayoutIsZero disagrees with the sublayout", "");
  }
  keep(std::move(r));
}

void Run::opResize() {
  Entry &e = pick();
  operands({&e});
  std::string why;
  bool ins = src.coin();
  op = ins ? "resizeInDim" : "resizeOutDim";
  int n = ins ? e.model.nIn : e.model.nOut;
  uint8_t name = n && !src.chance(1, 10)
                     ? (ins ? e.model.in : e.model.out)[src.below(n)].name
                     : randomName();
  int32_t size = randomSize(6);
  MaybeModel want = ins ? modelResizeInDim(e.model, name, size, why)
                        : modelResizeOutDim(e.model, name, size, why);
  keep(check(ins ? e.lib.resizeInDim(kNames[name], size)
                 : e.lib.resizeOutDim(kNames[name], size),
             want, why));
}

// shrinkOutDims on layouts whose components are mostly powers of two (as in
// distributed layouts).
void Run::opShrink() {
  op = "shrinkOutDims";
  Entry e;
  if (src.coin()) {
    e = pick();
  } else {
    Dim outs[3];
    int no = 1 + src.below(3);
    uint8_t names[kMaxDims];
    randomDistinctNames(no, names);
    for (int k = 0; k < no; ++k)
      outs[k] = {names[k], uint8_t(src.below(5))};
    Model m = randomSurjective({outs, size_t(no)}, src.below(3));
    // Mostly single-bit components again (undo the mixing).
    for (int j = 0, n = m.inBits(); j < n; ++j)
      for (int k = 0; k < m.nOut; ++k)
        if (uint32_t c = m.coord[j][k]; (c & (c - 1)) && !src.chance(1, 8))
          m.coord[j][k] = c & (0u - c);
    e = fresh(m);
  }
  operands({&e});
  llvm::SmallVector<NewDim, 4> shape;
  for (int k = 0; k < e.model.nOut; ++k)
    if (!src.chance(1, 5))
      shape.push_back(
          {e.model.out[k].name,
           src.chance(1, 16)
               ? 3
               : int32_t(1) << std::min<int>(src.below(e.model.out[k].log2 + 2), 30)});
  if (src.chance(1, 8) && !shape.empty())
    shape.push_back(shape[0]); // a repeated name: the last entry counts
  bool broadcastRegisters = src.coin();
  std::vector<LinearLayout::NamedSize> arg;
  for (const NewDim &d : shape)
    arg.push_back({kNames[d.name], d.size});
  std::string why;
  MaybeModel want = modelShrinkOutDims(e.model, shape, broadcastRegisters, why);
  keep(check(e.lib.shrinkOutDims(arg, broadcastRegisters), want, why));
}

void Run::opConcat() {
  Entry &a = pick();
  Entry b;
  bool ins = src.coin();
  op = ins ? "concatIns" : "concatOuts";
  if (src.chance(3, 4)) {
    // A partner with matching outs (ins) and random names on the other side.
    Model m = emptyModel();
    uint8_t names[kMaxDims];
    if (ins) {
      m.nOut = a.model.nOut;
      std::copy(a.model.out, a.model.out + a.model.nOut, m.out);
      m.nIn = src.below(3);
      randomDistinctNames(m.nIn, names);
      for (int i = 0; i < m.nIn; ++i)
        m.in[i] = {names[i], uint8_t(src.below(4))};
    } else {
      m.nIn = a.model.nIn;
      std::copy(a.model.in, a.model.in + a.model.nIn, m.in);
      m.nOut = src.below(3);
      randomDistinctNames(m.nOut, names);
      for (int k = 0; k < m.nOut; ++k)
        m.out[k] = {names[k], uint8_t(src.below(4))};
    }
    for (int j = 0, n = m.inBits(); j < n; ++j)
      for (int k = 0; k < m.nOut; ++k)
        m.coord[j][k] = uint32_t(src.below(uint64_t(1) << m.out[k].log2));
    b = fresh(m);
  } else {
    b = pick();
  }
  operands({&a, &b});
  std::string why;
  MaybeModel want = ins ? modelConcatIns(a.model, b.model, why)
                        : modelConcatOuts(a.model, b.model, why);
  keep(check(ins ? a.lib.concatIns(b.lib) : a.lib.concatOuts(b.lib), want, why));
}

// divideLeft / divideRight, mostly of a product by one of its factors.
void Run::opDivide() {
  bool left = src.coin();
  op = left ? "divideLeft" : "divideRight";
  Entry a = pick();
  Entry b = pick();
  Entry A = a;
  if (src.chance(2, 3)) {
    std::string w;
    MaybeModel p = left ? modelProduct(b.model, a.model, w)
                        : modelProduct(a.model, b.model, w);
    if (p && p->inBits() <= kPoolBits && p->outBits() <= kPoolBits)
      A = fresh(*p);
  }
  operands({&A, &b});
  std::string why;
  MaybeModel want = modelDivide(A.model, b.model, left, why);
  std::optional<LinearLayout> got =
      left ? divideLeft(A.lib, b.lib) : divideRight(A.lib, b.lib);
  std::optional<Entry> r = checkOptional(std::move(got), want);
  if (r && !failed()) {
    Expected<LinearLayout> back = left ? b.lib * r->lib : r->lib * b.lib;
    if (!back || *back != A.lib)
      report("law", "the quotient does not multiply back", "");
    if (!back)
      llvm::consumeError(back.takeError());
  }
  keep(std::move(r));
}

// quotient / isTrivialOver, on layouts that are often trivial over some dims
// (a product with an identity).
void Run::opQuotient() {
  op = "quotient";
  Entry e = pick();
  if (src.coin()) {
    uint8_t d = randomName();
    int l = src.below(4);
    Model id = emptyModel();
    id.nIn = id.nOut = 1;
    id.in[0] = id.out[0] = {d, uint8_t(l)};
    for (int b = 0; b < l; ++b)
      id.coord[b][0] = uint32_t(1) << b;
    std::string w;
    MaybeModel p =
        src.coin() ? modelProduct(e.model, id, w) : modelProduct(id, e.model, w);
    if (p && p->inBits() <= kPoolBits && p->outBits() <= kPoolBits)
      e = fresh(*p);
  }
  operands({&e});
  llvm::SmallVector<uint8_t, kMaxDims> dims;
  for (int n = src.below(3); n > 0; --n)
    dims.push_back(src.coin() && e.model.nIn
                       ? e.model.in[src.below(e.model.nIn)].name
                       : randomName());
  std::vector<std::string> arg;
  for (uint8_t n : dims)
    arg.push_back(kNames[n]);
  bool trivial = modelIsTrivialOver(e.model, dims);
  if (e.lib.isTrivialOver(arg) != trivial) {
    report("law", std::string("isTrivialOver should be ") +
                      (trivial ? "true" : "false"), "");
    return;
  }
  MaybeModel want;
  bool allIns = true;
  for (uint8_t n : dims)
    allIns &= e.model.findIn(n) >= 0;
  if (allIns && trivial) {
    llvm::SmallVector<uint8_t, kMaxDims> keepIns, keepOuts;
    for (int i = 0; i < e.model.nIn; ++i)
      if (!llvm::is_contained(dims, e.model.in[i].name))
        keepIns.push_back(e.model.in[i].name);
    for (int k = 0; k < e.model.nOut; ++k)
      if (!llvm::is_contained(dims, e.model.out[k].name))
        keepOuts.push_back(e.model.out[k].name);
    std::string w;
    want = modelSublayout(e.model, keepIns, keepOuts, w);
  }
  keep(checkOptional(e.lib.quotient(arg), want));
}

// Rank and friends, free variables, consecutive elements, zero bases.
void Run::opQueries() {
  op = "rank";
  Entry &e = pick();
  operands({&e});
  const Model &m = e.model;
  int rank = modelRank(m);
  if (e.lib.rank() != rank || e.lib.isSurjective() != (rank == m.outBits()) ||
      e.lib.isInjective() != (rank == m.inBits()) ||
      e.lib.isInvertible() != (rank == m.outBits() && rank == m.inBits())) {
    report("law", "rank / isSurjective / isInjective / isInvertible",
           "model rank " + std::to_string(rank));
    return;
  }
  // Free variables: bit i of a dim is free iff its image is in the span of
  // all earlier flattened images (zero images included).
  op = "getFreeVariableMasks";
  std::vector<std::pair<std::string, int32_t>> masks = e.lib.getFreeVariableMasks();
  if (int(masks.size()) != m.nIn) {
    report("law", "one mask per in dim", "");
    return;
  }
  Span span;
  for (int i = 0; i < m.nIn; ++i) {
    int32_t mask = 0;
    for (int bit = 0; bit < m.in[i].log2; ++bit) {
      int j = m.inFirst(i) + bit;
      if (!span.add(m.vecOf(j), j))
        mask |= int32_t(1) << bit;
    }
    if (masks[i].first != kNames[m.in[i].name] || masks[i].second != mask) {
      report("law", "free variable mask of " + kNames[m.in[i].name],
             "expected " + std::to_string(mask) + ", got " +
                 std::to_string(masks[i].second));
      return;
    }
  }
  // Consecutive elements: the largest 2^c such that the first c bases of the
  // first in dim are the unit steps of the first out dim (nothing elsewhere)
  // and every other basis is a multiple of 2^c there, i.e. the layout is
  // identity1D(2^c) * C (Triton: the largest divideLeft by an identity).
  op = "getNumConsecutiveInOut";
  int consec = 0;
  if (m.nIn > 0 && m.nOut > 0) {
    auto isUnit = [&](int j, int c) {
      for (int k = 0; k < m.nOut; ++k)
        if (m.coord[j][k] != (k == 0 ? uint32_t(1) << c : 0))
          return false;
      return true;
    };
    for (int c = 1; c <= m.in[0].log2; ++c) {
      bool ok = isUnit(c - 1, c - 1);
      for (int j = c, n = m.inBits(); j < n && ok; ++j)
        ok = (m.coord[j][0] & ((uint32_t(1) << c) - 1)) == 0;
      if (!ok)
        break;
      consec = c;
    }
  }
  if (e.lib.getNumConsecutiveInOut() != (1 << consec)) {
    report("law", "getNumConsecutiveInOut",
           "expected " + std::to_string(1 << consec) + ", got " +
               std::to_string(e.lib.getNumConsecutiveInOut()));
    return;
  }
  op = "removeZeroBasesAlongDim";
  uint8_t name = m.nIn && src.coin() ? m.in[src.below(m.nIn)].name : randomName();
  Model z = emptyModel();
  z.nIn = m.nIn;
  z.nOut = m.nOut;
  std::copy(m.out, m.out + m.nOut, z.out);
  int dst = 0;
  for (int i = 0; i < m.nIn; ++i) {
    int kept = 0;
    for (int bit = 0; bit < m.in[i].log2; ++bit) {
      int j = m.inFirst(i) + bit;
      if (m.in[i].name == name && m.isZero(j))
        continue;
      std::copy(m.coord[j], m.coord[j] + kMaxDims, z.coord[dst++]);
      ++kept;
    }
    z.in[i] = {m.in[i].name, uint8_t(kept)};
  }
  keep(compare(e.lib.removeZeroBasesAlongDim(kNames[name]), z));
}

void Run::opEquality() {
  op = "equality";
  Entry &a = pick();
  Entry &b = pick();
  operands({&a, &b});
  bool same = sameModel(a.model, b.model);
  bool sameIgnoring = sameModel(a.model, b.model, /*ignoreOutSizes=*/true);
  if ((a.lib == b.lib) != same || (a.lib != b.lib) == same ||
      a.lib.equalIgnoringOutDimSizes(b.lib) != sameIgnoring)
    report("law", "== / equalIgnoringOutDimSizes", "");
  else if (same && a.lib.hash() != b.lib.hash())
    report("law", "equal layouts with different hashes", "");
  // A copy through getBases() / getOutDims() and create() is the same layout.
  if (!failed() && src.chance(1, 4)) {
    Expected<LinearLayout> copy =
        LinearLayout::create(a.lib.getBases(), a.lib.getOutDims(), false);
    if (!copy)
      report("rejected-valid", "create from getBases() failed: " +
                                   llvm::toString(copy.takeError()), "");
    else if (*copy != a.lib || copy->hash() != a.lib.hash())
      report("law", "create(getBases()) is a different layout", "");
  }
}

// toString in Triton's text (notes 13.4), written from the model.
void Run::opToString() {
  op = "toString";
  Entry &e = pick();
  operands({&e});
  const Model &m = e.model;
  std::string outs = "[";
  for (int k = 0; k < m.nOut; ++k)
    outs += (k ? ", " : "") + kNames[m.out[k].name] + " (size " +
            std::to_string(uint64_t(1) << m.out[k].log2) + ")";
  outs += "]";
  std::string want;
  if (m.nIn == 0) {
    want = m.nOut == 0 ? "\n(empty layout)"
                       : "\n(empty layout with out-dims " + outs + ")";
  } else {
    want = "\n";
    for (int i = 0; i < m.nIn; ++i) {
      const std::string &n = kNames[m.in[i].name];
      if (m.in[i].log2 == 0) {
        want += " - " + n + " is a size 1 dimension\n";
        continue;
      }
      for (int bit = 0; bit < m.in[i].log2; ++bit) {
        want += (bit == 0 ? " - " : "\n   ") + n + "=" +
                std::to_string(uint64_t(1) << bit) + " -> (";
        for (int k = 0; k < m.nOut; ++k)
          want += (k ? ", " : "") + std::to_string(m.coord[m.inFirst(i) + bit][k]);
        want += ")";
      }
      want += "\n";
    }
    want += "where out dims are: " + outs;
  }
  std::string got = e.lib.toString();
  if (got != want)
    report("law", "toString differs from Triton's format",
           "got:" + got + "\nexpected:" + want);
}

void Run::opSupremum() {
  op = "supremum";
  operands({});
  llvm::SmallVector<uint8_t, kMaxDims> x, y;
  uint8_t names[kMaxDims];
  int nx = src.below(5), ny = src.below(5);
  randomDistinctNames(nx, names);
  x.assign(names, names + nx);
  randomDistinctNames(ny, names);
  y.assign(names, names + ny);
  std::vector<std::string> xs, ys;
  for (uint8_t n : x)
    xs.push_back(kNames[n]);
  for (uint8_t n : y)
    ys.push_back(kNames[n]);
  auto want = modelSupremum(x, y);
  auto got = supremum(xs, ys);
  bool same = want.has_value() == got.has_value();
  if (same && want) {
    same = want->size() == got->size();
    for (size_t i = 0; same && i < want->size(); ++i)
      same = kNames[(*want)[i]] == (*got)[i];
  }
  if (!same) {
    std::string s = "x = [";
    for (auto &n : xs)
      s += n + " ";
    s += "], y = [";
    for (auto &n : ys)
      s += n + " ";
    report("law", "supremum differs from Triton's merge", s + "]");
  }
}

std::optional<Finding> Run::go() {
  // Two fresh layouts to start from.
  while (poolUsed < 2 && !failed()) {
    op = "create";
    operands({});
    Model m = src.coin() ? randomSurjectiveOnRandomOuts(3, 4) : randomModel(3, 4);
    std::string why;
    keep(check(LinearLayout::create(basesOf(m), outDimsOf(m), false), m, why));
  }
  static const unsigned weights[] = {
      3, // create
      2, // create with inferred sizes
      3, // identity1D / zeros1D / strided1D
      6, // product
      5, // compose
      5, // invert / pseudoinvert
      6, // invertAndCompose
      3, // transposeIns / transposeOuts
      3, // reshapeIns / reshapeOuts
      2, // flattenIns / flattenOuts
      3, // sublayout
      3, // resizeInDim / resizeOutDim
      3, // shrinkOutDims
      3, // concatIns / concatOuts
      4, // divideLeft / divideRight
      3, // quotient
      4, // rank, free variables, consecutive, zero bases
      2, // equality
      1, // toString
      1, // supremum
  };
  for (int steps = 0; steps < kMaxSteps && !src.exhausted() && !failed(); ++steps) {
    switch (src.weighted(weights)) {
    case 0: opCreate(false); break;
    case 1: opCreate(true); break;
    case 2: opFactory(); break;
    case 3: opProduct(); break;
    case 4: opCompose(); break;
    case 5: opInvert(); break;
    case 6: opInvertAndCompose(); break;
    case 7: opTranspose(); break;
    case 8: opReshape(); break;
    case 9: opFlatten(); break;
    case 10: opSublayout(); break;
    case 11: opResize(); break;
    case 12: opShrink(); break;
    case 13: opConcat(); break;
    case 14: opDivide(); break;
    case 15: opQuotient(); break;
    case 16: opQueries(); break;
    case 17: opEquality(); break;
    case 18: opToString(); break;
    default: opSupremum(); break;
    }
  }
  return finding;
}

std::optional<Finding> runLinearLayout(llvm::ArrayRef<uint8_t> data) {
  Run run(data);
  return run.go();
}

} // namespace

namespace tgpu::fuzz {
const TargetInfo &linearLayoutTarget() {
  static const TargetInfo info{
      "fuzz_linear_layout",
      "LinearLayout operations against a GF(2) model and algebraic laws",
      runLinearLayout, nullptr};
  return info;
}
} // namespace tgpu::fuzz
