#include "fuzz/targets/LinearLayoutModel.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace tgpu::fuzz::llmodel {

const std::string kNames[kNumNames] = {"register", "lane", "warp", "block",
                                       "dim0",     "dim1", "dim2", "dim3"};

namespace {

uint64_t bit(int i) { return uint64_t(1) << i; }
uint64_t lowBits(int n) { return n >= 64 ? ~uint64_t(0) : bit(n) - 1; }
bool parity(uint64_t v) { return __builtin_popcountll(v) & 1; }

bool contains(llvm::ArrayRef<uint8_t> list, uint8_t name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// The columns of `m` (column c at index c, row r at bit r of it).
void columnsOf(const Model &m, uint64_t *cols) {
  int n = m.inBits();
  std::fill(cols, cols + n, 0);
  for (int r = 0, nr = m.outBits(); r < nr; ++r)
    for (uint64_t x = m.rows[r]; x; x &= x - 1)
      cols[__builtin_ctzll(x)] |= bit(r);
}

// Gaussian elimination of a matrix (rows as bit sets over `numCols` columns)
// to row echelon form, going through the columns from the first: returns the
// set of pivot columns. Row operations keep the linear relations between
// columns, so a column is a pivot exactly when it is not in the span of the
// columns before it; the number of pivots is the rank.
uint64_t pivotColumns(const uint64_t *rowsIn, int numRows, int numCols) {
  uint64_t a[kMaxBits];
  std::copy(rowsIn, rowsIn + numRows, a);
  uint64_t pivots = 0;
  int top = 0;
  for (int c = 0; c < numCols && top < numRows; ++c) {
    int p = top;
    while (p < numRows && !(a[p] >> c & 1))
      ++p;
    if (p == numRows)
      continue;
    std::swap(a[p], a[top]);
    for (int r = top + 1; r < numRows; ++r)
      if (a[r] >> c & 1)
        a[r] ^= a[top];
    pivots |= bit(c);
    ++top;
  }
  return pivots;
}

bool tooLarge(const Model &m, std::string &why) {
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

bool hasDuplicate(llvm::ArrayRef<uint8_t> names) {
  for (size_t a = 0; a < names.size(); ++a)
    for (size_t b = a + 1; b < names.size(); ++b)
      if (names[a] == names[b])
        return true;
  return false;
}

bool isPermutationOf(llvm::ArrayRef<uint8_t> order,
                     llvm::ArrayRef<uint8_t> names) {
  if (order.size() != names.size() || hasDuplicate(order))
    return false;
  for (uint8_t n : order)
    if (!contains(names, n))
      return false;
  return true;
}

// The matrix whose rows are rows[rowList[i]] of `m` restricted to the columns
// colList (new column j = old column colList[j]).
void selectEntries(const Model &m, llvm::ArrayRef<int> rowList,
                   llvm::ArrayRef<int> colList, Model &r) {
  for (size_t i = 0; i < rowList.size(); ++i) {
    uint64_t v = 0;
    for (size_t j = 0; j < colList.size(); ++j)
      v |= uint64_t(m.rows[rowList[i]] >> colList[j] & 1) << j;
    r.rows[i] = v;
  }
}

// The smallest solution x (the flattened input read as an integer) of
// M x = y among the inputs whose bits all lie in `allowed`.
//
// Up to 2^kBruteForceBits inputs: by listing every allowed input's image in
// increasing order of the input and taking the first match. Above: by
// Gauss-Jordan elimination, a particular solution x0 (pivots taken from the
// last column down, free variables 0), then the least element of the coset
// x0 + ker M, from a kernel basis with distinct highest bits.
class SmallestPreimage {
public:
  static constexpr int kBruteForceBits = 8;

  SmallestPreimage(const Model &m, uint64_t allowed) {
    int n = m.inBits();
    allowed &= lowBits(n);
    uint64_t cols[kMaxBits];
    columnsOf(m, cols);
    if (n <= kBruteForceBits) {
      bruteForce = true;
      // The allowed inputs in increasing order: the submasks of `allowed`.
      uint64_t x = 0;
      do {
        uint64_t image = 0;
        for (uint64_t b = x; b; b &= b - 1)
          image ^= cols[__builtin_ctzll(b)];
        table.push_back({x, image});
        x = ((x | ~allowed) + 1) & allowed;
      } while (x != 0);
      return;
    }
    // Row-reduce [M | I]: afterwards ops[i] says which rows of M sum to row
    // i, so M x = y becomes R x = U y with R in reduced row echelon form.
    numRows = m.outBits();
    for (int r = 0; r < numRows; ++r) {
      red[r] = m.rows[r] & allowed;
      ops[r] = bit(r);
    }
    for (int c = n - 1; c >= 0 && rankR < numRows; --c) {
      if (!(allowed >> c & 1))
        continue;
      int p = rankR;
      while (p < numRows && !(red[p] >> c & 1))
        ++p;
      if (p == numRows)
        continue;
      std::swap(red[p], red[rankR]);
      std::swap(ops[p], ops[rankR]);
      for (int r = 0; r < numRows; ++r)
        if (r != rankR && (red[r] >> c & 1)) {
          red[r] ^= red[rankR];
          ops[r] ^= ops[rankR];
        }
      pivot[rankR++] = c;
    }
    // One kernel vector per free column f: x_f = 1, each pivot variable
    // cancelling f in its row. Then a basis with distinct highest bits.
    uint64_t pivots = 0;
    for (int i = 0; i < rankR; ++i)
      pivots |= bit(pivot[i]);
    for (uint64_t free = allowed & ~pivots; free; free &= free - 1) {
      int f = __builtin_ctzll(free);
      uint64_t v = bit(f);
      for (int i = 0; i < rankR; ++i)
        if (red[i] >> f & 1)
          v |= bit(pivot[i]);
      for (int b = 63; b >= 0 && v; --b) {
        if (!(v >> b & 1))
          continue;
        if (!byTop[b]) {
          byTop[b] = v;
          break;
        }
        v ^= byTop[b];
      }
    }
  }

  std::optional<uint64_t> operator()(uint64_t y) const {
    if (bruteForce) {
      for (const auto &[x, image] : table)
        if (image == y)
          return x;
      return std::nullopt;
    }
    if (y & ~lowBits(numRows))
      return std::nullopt;
    for (int i = rankR; i < numRows; ++i)
      if (parity(ops[i] & y))
        return std::nullopt; // a zero row of R against a non-zero of U y
    uint64_t x = 0;
    for (int i = 0; i < rankR; ++i)
      if (parity(ops[i] & y))
        x |= bit(pivot[i]);
    // Clearing the highest set bit that a kernel vector can clear, from the
    // top, gives the least element of the coset.
    for (int b = 63; b >= 0; --b)
      if ((x >> b & 1) && byTop[b])
        x ^= byTop[b];
    return x;
  }

private:
  bool bruteForce = false;
  llvm::SmallVector<std::pair<uint64_t, uint64_t>, 64> table;
  int numRows = 0, rankR = 0;
  uint64_t red[kMaxBits] = {}, ops[kMaxBits] = {};
  int pivot[kMaxBits] = {};
  uint64_t byTop[64] = {};
};

} // namespace

//===----------------------------------------------------------------------===//
// Model
//===----------------------------------------------------------------------===//

int Model::inBits() const {
  int s = 0;
  for (int i = 0; i < nIn; ++i)
    s += in[i].log2;
  return s;
}

int Model::outBits() const {
  int s = 0;
  for (int k = 0; k < nOut; ++k)
    s += out[k].log2;
  return s;
}

int Model::inFirst(int i) const {
  int s = 0;
  for (int d = 0; d < i; ++d)
    s += in[d].log2;
  return s;
}

int Model::outFirst(int k) const {
  int s = 0;
  for (int d = 0; d < k; ++d)
    s += out[d].log2;
  return s;
}

int Model::findIn(int name) const {
  for (int i = 0; i < nIn; ++i)
    if (in[i].name == name)
      return i;
  return -1;
}

int Model::findOut(int name) const {
  for (int k = 0; k < nOut; ++k)
    if (out[k].name == name)
      return k;
  return -1;
}

NameList Model::inNames() const {
  NameList r;
  for (int i = 0; i < nIn; ++i)
    r.push_back(in[i].name);
  return r;
}

NameList Model::outNames() const {
  NameList r;
  for (int k = 0; k < nOut; ++k)
    r.push_back(out[k].name);
  return r;
}

void Model::setEntry(int r, int c, bool v) {
  rows[r] = (rows[r] & ~bit(c)) | (uint64_t(v) << c);
}

uint32_t Model::coord(int c, int k) const {
  int f = outFirst(k);
  uint32_t v = 0;
  for (int b = 0; b < out[k].log2; ++b)
    v |= uint32_t(rows[f + b] >> c & 1) << b;
  return v;
}

void Model::setCoord(int c, int k, uint32_t v) {
  int f = outFirst(k);
  for (int b = 0; b < out[k].log2; ++b)
    setEntry(f + b, c, v >> b & 1);
}

uint64_t Model::column(int c) const {
  uint64_t v = 0;
  for (int r = 0, n = outBits(); r < n; ++r)
    v |= (rows[r] >> c & 1) << r;
  return v;
}

void Model::setColumn(int c, uint64_t v) {
  for (int r = 0, n = outBits(); r < n; ++r)
    setEntry(r, c, v >> r & 1);
}

uint64_t Model::apply(uint64_t x) const {
  uint64_t y = 0;
  for (int r = 0, n = outBits(); r < n; ++r)
    y |= uint64_t(parity(rows[r] & x)) << r;
  return y;
}

uint32_t Model::outCoord(uint64_t y, int k) const {
  return uint32_t((y >> outFirst(k)) & lowBits(out[k].log2));
}

bool sameModel(const Model &a, const Model &b, bool ignoreOutSizes) {
  if (a.nIn != b.nIn || a.nOut != b.nOut)
    return false;
  for (int i = 0; i < a.nIn; ++i)
    if (a.in[i].name != b.in[i].name || a.in[i].log2 != b.in[i].log2)
      return false;
  for (int k = 0; k < a.nOut; ++k)
    if (a.out[k].name != b.out[k].name ||
        (!ignoreOutSizes && a.out[k].log2 != b.out[k].log2))
      return false;
  if (!ignoreOutSizes) {
    for (int r = 0, n = a.outBits(); r < n; ++r)
      if (a.rows[r] != b.rows[r])
        return false;
    return true;
  }
  // Rows sit differently when sizes differ: compare coordinates.
  for (int c = 0, n = a.inBits(); c < n; ++c)
    for (int k = 0; k < a.nOut; ++k)
      if (a.coord(c, k) != b.coord(c, k))
        return false;
  return true;
}

std::string dump(const Model &m) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "model:";
  for (int i = 0; i < m.nIn; ++i) {
    os << "\n  " << kNames[m.in[i].name] << ":";
    for (int b = 0; b < m.in[i].log2; ++b) {
      os << " (";
      for (int k = 0; k < m.nOut; ++k)
        os << (k ? "," : "") << m.coord(m.inFirst(i) + b, k);
      os << ")";
    }
  }
  os << "\n  outs:";
  for (int k = 0; k < m.nOut; ++k)
    os << " " << kNames[m.out[k].name] << "(" << (uint64_t(1) << m.out[k].log2)
       << ")";
  return s;
}

// Triton's text (docs/layout/triton_linear_layout_semantics.md,
// 13.4).
std::string tritonText(const Model &m) {
  std::string outs = "[";
  for (int k = 0; k < m.nOut; ++k)
    outs += (k ? ", " : "") + kNames[m.out[k].name] + " (size " +
            std::to_string(uint64_t(1) << m.out[k].log2) + ")";
  outs += "]";
  if (m.nIn == 0)
    return m.nOut == 0 ? "\n(empty layout)"
                       : "\n(empty layout with out-dims " + outs + ")";
  std::string s = "\n";
  for (int i = 0; i < m.nIn; ++i) {
    const std::string &n = kNames[m.in[i].name];
    if (m.in[i].log2 == 0) {
      s += " - " + n + " is a size 1 dimension\n";
      continue;
    }
    for (int b = 0; b < m.in[i].log2; ++b) {
      s += (b == 0 ? " - " : "\n   ") + n + "=" +
           std::to_string(uint64_t(1) << b) + " -> (";
      for (int k = 0; k < m.nOut; ++k)
        s += (k ? ", " : "") + std::to_string(m.coord(m.inFirst(i) + b, k));
      s += ")";
    }
    s += "\n";
  }
  return s + "where out dims are: " + outs;
}

int log2OfPow2(int64_t v) {
  if (v <= 0 || (v & (v - 1)))
    return -1;
  int l = 0;
  while ((int64_t(1) << l) < v)
    ++l;
  return l;
}

//===----------------------------------------------------------------------===//
// Properties
//===----------------------------------------------------------------------===//

int rank(const Model &m) {
  return __builtin_popcountll(pivotColumns(m.rows, m.outBits(), m.inBits()));
}

int rankByCounting(const Model &m) {
  int n = m.inBits();
  uint64_t cols[kMaxBits];
  columnsOf(m, cols);
  // images[x] = M x, each from an input with one bit fewer.
  llvm::SmallVector<uint64_t, 0> images(size_t(1) << n);
  for (size_t x = 1; x < images.size(); ++x)
    images[x] = images[x & (x - 1)] ^ cols[__builtin_ctzll(x)];
  std::sort(images.begin(), images.end());
  int64_t distinct = std::unique(images.begin(), images.end()) - images.begin();
  return log2OfPow2(distinct);
}

llvm::SmallVector<int32_t, kMaxDims> freeVariableMasks(const Model &m) {
  uint64_t free =
      ~pivotColumns(m.rows, m.outBits(), m.inBits()) & lowBits(m.inBits());
  llvm::SmallVector<int32_t, kMaxDims> masks;
  for (int i = 0; i < m.nIn; ++i)
    masks.push_back(int32_t((free >> m.inFirst(i)) & lowBits(m.in[i].log2)));
  return masks;
}

// Triton's definition: the largest V = 2^c, up to the sizes of the first in
// and first out dim, for which identity1D(V, first in, first out) divides the
// layout on the left, i.e. input values below V of the first in dim land on
// exactly those values of the first out dim and nothing else reaches them.
int numConsecutiveInOut(const Model &m) {
  if (m.nIn == 0 || m.nOut == 0)
    return 1;
  int best = 0;
  for (int c = 1; c <= std::min(m.in[0].log2, m.out[0].log2); ++c) {
    Model id;
    id.nIn = id.nOut = 1;
    id.in[0] = {m.in[0].name, uint8_t(c)};
    id.out[0] = {m.out[0].name, uint8_t(c)};
    for (int b = 0; b < c; ++b)
      id.rows[b] = bit(b);
    if (divide(m, id, /*left=*/true))
      best = c;
  }
  return 1 << best;
}

bool sublayoutIsZero(const Model &m, llvm::ArrayRef<uint8_t> ins,
                     llvm::ArrayRef<uint8_t> outs) {
  uint64_t cols = 0;
  for (uint8_t n : ins)
    if (int i = m.findIn(n); i >= 0)
      cols |= lowBits(m.in[i].log2) << m.inFirst(i);
  for (uint8_t n : outs)
    if (int k = m.findOut(n); k >= 0)
      for (int b = 0; b < m.out[k].log2; ++b)
        if (m.rows[m.outFirst(k) + b] & cols)
          return false;
  return true;
}

// The block of M from the dims' input bits (in the layout's in order) to
// their output bits (in the layout's out order) is the identity, and the
// blocks between them and the other dims are zero.
bool isTrivialOver(const Model &m, llvm::ArrayRef<uint8_t> dims) {
  for (uint8_t d : dims) {
    int i = m.findIn(d), k = m.findOut(d);
    if (i < 0 || k < 0 || m.in[i].log2 != m.out[k].log2)
      return false;
  }
  llvm::SmallVector<int, kMaxBits> dimCols, dimRows;
  for (int i = 0; i < m.nIn; ++i)
    if (contains(dims, m.in[i].name))
      for (int b = 0; b < m.in[i].log2; ++b)
        dimCols.push_back(m.inFirst(i) + b);
  for (int k = 0; k < m.nOut; ++k)
    if (contains(dims, m.out[k].name))
      for (int b = 0; b < m.out[k].log2; ++b)
        dimRows.push_back(m.outFirst(k) + b);
  auto position = [](llvm::ArrayRef<int> list, int v) {
    auto it = std::find(list.begin(), list.end(), v);
    return it == list.end() ? -1 : int(it - list.begin());
  };
  for (int r = 0, nr = m.outBits(); r < nr; ++r) {
    int pr = position(dimRows, r);
    for (int c = 0, nc = m.inBits(); c < nc; ++c) {
      int pc = position(dimCols, c);
      if (pr < 0 && pc < 0)
        continue; // the other dims map freely
      bool want = pr >= 0 && pc >= 0 && pr == pc;
      if (m.entry(r, c) != want)
        return false;
    }
  }
  return true;
}

llvm::SmallVector<int32_t, 0> lowestSameImage(const Model &m, int i) {
  int first = m.inFirst(i);
  int32_t size = int32_t(1) << m.in[i].log2;
  // (image, value) sorted by image then value: the first of each image run
  // is its lowest value.
  llvm::SmallVector<std::pair<uint64_t, int32_t>, 0> byImage;
  for (int32_t v = 0; v < size; ++v)
    byImage.push_back({m.apply(uint64_t(v) << first), v});
  std::sort(byImage.begin(), byImage.end());
  llvm::SmallVector<int32_t, 0> lowest(size);
  size_t runStart = 0;
  for (size_t a = 0; a < byImage.size(); ++a) {
    if (byImage[a].first != byImage[runStart].first)
      runStart = a;
    lowest[byImage[a].second] = byImage[runStart].second;
  }
  return lowest;
}

// Two inputs that differ only in bits with non-zero columns have the same
// image exactly when the non-zero columns are linearly dependent.
bool repeatsThroughNonZeroBases(const Model &m) {
  uint64_t nonZero = 0;
  for (int r = 0, n = m.outBits(); r < n; ++r)
    nonZero |= m.rows[r];
  uint64_t pivots = pivotColumns(m.rows, m.outBits(), m.inBits());
  return pivots != nonZero;
}

bool hasMultiBitBasis(const Model &m) {
  for (int c = 0, n = m.inBits(); c < n; ++c)
    for (int k = 0; k < m.nOut; ++k)
      if (__builtin_popcount(m.coord(c, k)) > 1)
        return true;
  return false;
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

Model withInferredOutSizes(const Model &m) {
  Model r = m;
  for (int k = 0; k < m.nOut; ++k) {
    uint32_t maxC = 0;
    for (int c = 0, n = m.inBits(); c < n; ++c)
      maxC = std::max(maxC, m.coord(c, k));
    int l = 0;
    while ((uint32_t(1) << l) <= maxC)
      ++l;
    r.out[k].log2 = l;
  }
  std::fill(std::begin(r.rows), std::end(r.rows), 0);
  for (int c = 0, n = m.inBits(); c < n; ++c)
    for (int k = 0; k < m.nOut; ++k)
      r.setCoord(c, k, m.coord(c, k));
  return r;
}

// Triton's supremum: one list holding both lists' names and keeping both
// orders, x's names first wherever the orders allow, an error where the
// names both have come in different orders. Computed as the least
// topological order of the union under "comes before in x" and "comes before
// in y", ranking every name of x (by position) before the names only y has
// (by position); a cycle (no name can come next) is the error.
std::optional<NameList> supremum(llvm::ArrayRef<uint8_t> x,
                                 llvm::ArrayRef<uint8_t> y) {
  int posX[kNumNames], posY[kNumNames];
  std::fill(posX, posX + kNumNames, -1);
  std::fill(posY, posY + kNumNames, -1);
  for (size_t i = 0; i < x.size(); ++i)
    posX[x[i]] = i;
  for (size_t j = 0; j < y.size(); ++j)
    posY[y[j]] = j;
  NameList all(x.begin(), x.end());
  for (uint8_t n : y)
    if (posX[n] < 0)
      all.push_back(n); // `all` is in rank order already
  auto precedes = [&](uint8_t a, uint8_t b) {
    return (posX[a] >= 0 && posX[b] >= 0 && posX[a] < posX[b]) ||
           (posY[a] >= 0 && posY[b] >= 0 && posY[a] < posY[b]);
  };
  NameList result;
  bool placed[kNumNames] = {};
  while (result.size() < all.size()) {
    int next = -1;
    for (uint8_t n : all) {
      if (placed[n])
        continue;
      bool ready = true;
      for (uint8_t p : all)
        ready &= placed[p] || !precedes(p, n);
      if (ready) {
        next = n;
        break;
      }
    }
    if (next < 0)
      return std::nullopt;
    placed[next] = true;
    result.push_back(next);
  }
  return result;
}

// The direct sum: in and out dims merged by supremum, a dim of both getting
// inner's bits low and outer's above; the matrix is block diagonal, inner's
// block on inner's bits and outer's on outer's.
MaybeModel product(const Model &inner, const Model &outer, std::string &why) {
  auto ins = supremum(inner.inNames(), outer.inNames());
  auto outs = supremum(inner.outNames(), outer.outNames());
  if (!ins || !outs) {
    why = "common dims in different orders";
    return std::nullopt;
  }
  auto log2In = [](const Model &m, uint8_t n) {
    int i = m.findIn(n);
    return i >= 0 ? int(m.in[i].log2) : 0;
  };
  auto log2Out = [](const Model &m, uint8_t n) {
    int k = m.findOut(n);
    return k >= 0 ? int(m.out[k].log2) : 0;
  };
  // Sizes first: a stacked dim past 2^30, or past 63 bits in all, is an
  // error.
  Model r;
  r.nIn = ins->size();
  r.nOut = outs->size();
  for (size_t i = 0; i < ins->size(); ++i)
    r.in[i] = {(*ins)[i],
               uint8_t(log2In(inner, (*ins)[i]) + log2In(outer, (*ins)[i]))};
  for (size_t k = 0; k < outs->size(); ++k)
    r.out[k] = {(*outs)[k], uint8_t(log2Out(inner, (*outs)[k]) +
                                    log2Out(outer, (*outs)[k]))};
  if (tooLarge(r, why))
    return std::nullopt;
  // Where each operand's rows and columns land in the result.
  auto place = [&](const Model &m, bool isOuter) {
    int colAt[kMaxBits], rowAt[kMaxBits];
    for (int i = 0; i < m.nIn; ++i) {
      uint8_t n = m.in[i].name;
      int ri = r.findIn(n);
      int base = r.inFirst(ri) + (isOuter ? log2In(inner, n) : 0);
      for (int b = 0; b < m.in[i].log2; ++b)
        colAt[m.inFirst(i) + b] = base + b;
    }
    for (int k = 0; k < m.nOut; ++k) {
      uint8_t n = m.out[k].name;
      int rk = r.findOut(n);
      int base = r.outFirst(rk) + (isOuter ? log2Out(inner, n) : 0);
      for (int b = 0; b < m.out[k].log2; ++b)
        rowAt[m.outFirst(k) + b] = base + b;
    }
    for (int row = 0, nr = m.outBits(); row < nr; ++row)
      for (uint64_t x = m.rows[row]; x; x &= x - 1)
        r.setEntry(rowAt[row], colAt[__builtin_ctzll(x)], true);
  };
  place(inner, false);
  place(outer, true);
  return r;
}

// outer ∘ t as the matrix product outer.M · E · t.M, E feeding t's out bit b
// of a dim into outer's in bit b of the dim with that name.
MaybeModel compose(const Model &t, const Model &outer, std::string &why) {
  if (outer.nIn != t.nOut) {
    why = "outer's ins are not this's outs";
    return std::nullopt;
  }
  uint64_t et[kMaxBits] = {}; // rows of E · t.M, one per input bit of outer
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
    for (int b = 0; b < t.out[k].log2; ++b)
      et[outer.inFirst(i) + b] = t.rows[t.outFirst(k) + b];
  }
  Model r;
  r.nIn = t.nIn;
  r.nOut = outer.nOut;
  std::copy(t.in, t.in + t.nIn, r.in);
  std::copy(outer.out, outer.out + outer.nOut, r.out);
  for (int row = 0, nr = r.outBits(); row < nr; ++row) {
    uint64_t acc = 0;
    for (uint64_t x = outer.rows[row]; x; x &= x - 1)
      acc ^= et[__builtin_ctzll(x)];
    r.rows[row] = acc;
  }
  return r;
}

// C with outer(C(x)) = t(x). C's ins are t's, its outs outer's ins. The
// choice among solutions, as documented for Triton's invertAndCompose and
// LinearLayout.h:
//  - an in dim both have, with the same size and the same coordinates in
//    every basis, maps to itself (Triton's identity-dim rule);
//  - every other basis of t maps to the smallest input of outer (the
//    flattened input as an integer) with the same image that leaves the
//    identity dims' bits clear, or failing that the smallest input of all;
//  - a basis whose image is no image of outer is an error.
MaybeModel invertAndCompose(const Model &t, const Model &outer,
                            std::string &why) {
  if (outer.nOut != t.nOut) {
    why = "different out dims";
    return std::nullopt;
  }
  int outerOut[kMaxDims]; // t's out dim k is outer's out dim outerOut[k]
  for (int k = 0; k < t.nOut; ++k) {
    outerOut[k] = outer.findOut(t.out[k].name);
    if (outerOut[k] < 0) {
      why = "outer lacks out dim " + kNames[t.out[k].name];
      return std::nullopt;
    }
  }
  bool identity[kMaxDims] = {};
  uint64_t identityBits = 0; // outer's input bits of the identity dims
  for (int i = 0; i < t.nIn; ++i) {
    int o = outer.findIn(t.in[i].name);
    if (o < 0 || outer.in[o].log2 != t.in[i].log2)
      continue;
    bool same = true;
    for (int b = 0; b < t.in[i].log2; ++b)
      for (int k = 0; k < t.nOut; ++k)
        same &= t.coord(t.inFirst(i) + b, k) ==
                outer.coord(outer.inFirst(o) + b, outerOut[k]);
    if (same) {
      identity[i] = true;
      identityBits |= lowBits(outer.in[o].log2) << outer.inFirst(o);
    }
  }
  Model r;
  r.nIn = t.nIn;
  std::copy(t.in, t.in + t.nIn, r.in);
  r.nOut = outer.nIn;
  std::copy(outer.in, outer.in + outer.nIn, r.out);
  SmallestPreimage avoidingIdentity(outer, ~identityBits);
  std::optional<SmallestPreimage> anywhere;
  for (int i = 0; i < t.nIn; ++i)
    for (int b = 0; b < t.in[i].log2; ++b) {
      int c = t.inFirst(i) + b;
      if (identity[i]) {
        int o = outer.findIn(t.in[i].name);
        r.setColumn(c, bit(outer.inFirst(o) + b));
        continue;
      }
      // t's image of this bit as a vector over outer's output bits.
      uint64_t y = 0;
      bool fits = true;
      for (int k = 0; k < t.nOut; ++k) {
        uint32_t v = t.coord(c, k);
        if (v >> outer.out[outerOut[k]].log2)
          fits = false;
        else
          y |= uint64_t(v) << outer.outFirst(outerOut[k]);
      }
      std::optional<uint64_t> x;
      if (fits) {
        x = avoidingIdentity(y);
        if (!x) {
          if (!anywhere)
            anywhere.emplace(outer, ~uint64_t(0));
          x = (*anywhere)(y);
        }
      }
      if (!x) {
        why = "basis outside outer's image";
        return std::nullopt;
      }
      r.setColumn(c, *x);
    }
  return r;
}

// Triton's definition: the identity on the outs, inverted and composed with
// the layout (so the identity-dim rule applies to dims named on both sides).
MaybeModel pseudoinvert(const Model &m, std::string &why) {
  if (rank(m) != m.outBits()) {
    why = "not surjective";
    return std::nullopt;
  }
  Model id;
  id.nIn = id.nOut = m.nOut;
  std::copy(m.out, m.out + m.nOut, id.in);
  std::copy(m.out, m.out + m.nOut, id.out);
  for (int r = 0, n = m.outBits(); r < n; ++r)
    id.rows[r] = bit(r);
  return invertAndCompose(id, m, why);
}

// The inverse matrix by Gauss-Jordan elimination of [M | I].
MaybeModel invert(const Model &m, std::string &why) {
  int n = m.inBits();
  if (n != m.outBits() || rank(m) != n) {
    why = "not invertible";
    return std::nullopt;
  }
  uint64_t a[kMaxBits], inv[kMaxBits];
  for (int r = 0; r < n; ++r) {
    a[r] = m.rows[r];
    inv[r] = bit(r);
  }
  for (int c = 0; c < n; ++c) {
    int p = c;
    while (!(a[p] >> c & 1))
      ++p; // full rank: some row below has it
    std::swap(a[p], a[c]);
    std::swap(inv[p], inv[c]);
    for (int r = 0; r < n; ++r)
      if (r != c && (a[r] >> c & 1)) {
        a[r] ^= a[c];
        inv[r] ^= inv[c];
      }
  }
  Model r;
  r.nIn = m.nOut;
  std::copy(m.out, m.out + m.nOut, r.in);
  r.nOut = m.nIn;
  std::copy(m.in, m.in + m.nIn, r.out);
  std::copy(inv, inv + n, r.rows);
  return r;
}

MaybeModel transposeIns(const Model &m, llvm::ArrayRef<uint8_t> order,
                        std::string &why) {
  if (!isPermutationOf(order, m.inNames())) {
    why = "not a permutation of the ins";
    return std::nullopt;
  }
  Model r;
  r.nIn = m.nIn;
  r.nOut = m.nOut;
  std::copy(m.out, m.out + m.nOut, r.out);
  llvm::SmallVector<int, kMaxBits> cols, rowList;
  for (size_t a = 0; a < order.size(); ++a) {
    int i = m.findIn(order[a]);
    r.in[a] = m.in[i];
    for (int b = 0; b < m.in[i].log2; ++b)
      cols.push_back(m.inFirst(i) + b);
  }
  for (int row = 0, n = m.outBits(); row < n; ++row)
    rowList.push_back(row);
  selectEntries(m, rowList, cols, r);
  return r;
}

MaybeModel transposeOuts(const Model &m, llvm::ArrayRef<uint8_t> order,
                         std::string &why) {
  if (!isPermutationOf(order, m.outNames())) {
    why = "not a permutation of the outs";
    return std::nullopt;
  }
  Model r;
  r.nIn = m.nIn;
  r.nOut = m.nOut;
  std::copy(m.in, m.in + m.nIn, r.in);
  int row = 0;
  for (size_t a = 0; a < order.size(); ++a) {
    int k = m.findOut(order[a]);
    r.out[a] = m.out[k];
    for (int b = 0; b < m.out[k].log2; ++b)
      r.rows[row++] = m.rows[m.outFirst(k) + b];
  }
  return r;
}

namespace {
bool checkNewDims(llvm::ArrayRef<NewDim> dims, int total, std::string &why) {
  int sum = 0;
  NameList names;
  for (const NewDim &d : dims) {
    int l = log2OfPow2(d.size);
    if (l < 0) {
      why = "size not a power of two";
      return false;
    }
    sum += l;
    names.push_back(d.name);
  }
  if (hasDuplicate(names)) {
    why = "duplicate dim";
    return false;
  }
  if (sum != total) {
    why = "total size changes";
    return false;
  }
  return true;
}
} // namespace

// Reshaping splits the same flattened input (output) anew: the matrix stays.
MaybeModel reshapeIns(const Model &m, llvm::ArrayRef<NewDim> dims,
                      std::string &why) {
  if (!checkNewDims(dims, m.inBits(), why))
    return std::nullopt;
  Model r = m;
  r.nIn = dims.size();
  for (size_t a = 0; a < dims.size(); ++a)
    r.in[a] = {dims[a].name, uint8_t(log2OfPow2(dims[a].size))};
  return r;
}

MaybeModel reshapeOuts(const Model &m, llvm::ArrayRef<NewDim> dims,
                       std::string &why) {
  if (!checkNewDims(dims, m.outBits(), why))
    return std::nullopt;
  Model r = m;
  r.nOut = dims.size();
  for (size_t a = 0; a < dims.size(); ++a)
    r.out[a] = {dims[a].name, uint8_t(log2OfPow2(dims[a].size))};
  return r;
}

Model flattenIns(const Model &m) {
  Model r = m;
  if (m.nIn > 0) {
    r.nIn = 1;
    r.in[0] = {m.in[0].name, uint8_t(m.inBits())};
  }
  return r;
}

Model flattenOuts(const Model &m) {
  Model r = m;
  if (m.nOut > 0) {
    r.nOut = 1;
    r.out[0] = {m.out[0].name, uint8_t(m.outBits())};
  }
  return r;
}

// The rows of the kept out dims and the columns of the kept in dims, both in
// the layout's order.
MaybeModel sublayout(const Model &m, llvm::ArrayRef<uint8_t> ins,
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
  if (hasDuplicate(ins)) {
    why = "duplicate in dim";
    return std::nullopt;
  }
  if (hasDuplicate(outs)) {
    why = "duplicate out dim";
    return std::nullopt;
  }
  Model r;
  llvm::SmallVector<int, kMaxBits> rowList, cols;
  for (int k = 0; k < m.nOut; ++k)
    if (contains(outs, m.out[k].name)) {
      r.out[r.nOut++] = m.out[k];
      for (int b = 0; b < m.out[k].log2; ++b)
        rowList.push_back(m.outFirst(k) + b);
    }
  for (int i = 0; i < m.nIn; ++i)
    if (contains(ins, m.in[i].name)) {
      r.in[r.nIn++] = m.in[i];
      for (int b = 0; b < m.in[i].log2; ++b)
        cols.push_back(m.inFirst(i) + b);
    }
  selectEntries(m, rowList, cols, r);
  return r;
}

// Larger: zero columns appended to the dim; smaller: its high columns go.
MaybeModel resizeInDim(const Model &m, uint8_t name, int32_t size,
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
  Model r = m;
  r.in[i].log2 = l;
  std::fill(std::begin(r.rows), std::end(r.rows), 0);
  for (int d = 0; d < m.nIn; ++d)
    for (int b = 0; b < std::min(m.in[d].log2, r.in[d].log2); ++b)
      r.setColumn(r.inFirst(d) + b, m.column(m.inFirst(d) + b));
  return r;
}

// Shrinks out dim `name`: a coordinate that fits is kept, one that does not
// becomes 0.
MaybeModel resizeOutDim(const Model &m, uint8_t name, int32_t size,
                        std::string &why) {
  int k = m.findOut(name), l = log2OfPow2(size);
  if (k < 0 || l < 0 || l > m.out[k].log2) {
    why = "bad out dim or size";
    return std::nullopt;
  }
  Model r = m;
  r.out[k].log2 = l;
  std::fill(std::begin(r.rows), std::end(r.rows), 0);
  for (int c = 0, n = m.inBits(); c < n; ++c)
    for (int d = 0; d < m.nOut; ++d) {
      uint32_t v = m.coord(c, d);
      r.setCoord(c, d, d == k && v >= uint32_t(size) ? 0 : v);
    }
  return r;
}

// Triton's ensureLayoutNotLargerThan as LinearLayout.h documents it. For each
// out dim named in `shape` (the last entry of a name counts) that is larger
// than asked: its candidates are the input bits whose coordinate in that dim
// is non-zero; the r of them that come first when ordered by coordinate,
// largest first, and then by input bit, lowest first, lose that coordinate,
// where r is log2(size) - log2(asked), or every candidate when asked for
// size 1. Each dim's candidates are taken from the layout as given (clearing
// one dim's coordinates does not touch another's). A register bit that loses
// a coordinate is dropped instead when !broadcastRegisters. Errors: an asked
// size that is not a power of two; a candidate coordinate of several bits
// unless towards size 1; a kept coordinate that still does not fit.
MaybeModel shrinkOutDims(const Model &m, llvm::ArrayRef<NewDim> shape,
                         bool broadcastRegisters, std::string &why) {
  int n = m.inBits();
  int reg = m.findIn(kRegisterName);
  uint64_t registerBits =
      reg >= 0 ? lowBits(m.in[reg].log2) << m.inFirst(reg) : 0;
  uint64_t dropped = 0;
  uint8_t clearedDims[kMaxBits] = {}; // per input bit: out dims cleared
  uint8_t newLog2[kMaxDims];
  for (int k = 0; k < m.nOut; ++k) {
    newLog2[k] = m.out[k].log2;
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
    if (m.out[k].log2 <= wantLog2)
      continue;
    uint32_t v[kMaxBits];
    int numCands = 0;
    for (int c = 0; c < n; ++c) {
      v[c] = m.coord(c, k);
      if (!v[c])
        continue;
      ++numCands;
      if ((v[c] & (v[c] - 1)) && wantLog2 != 0) {
        why = "component not a power of two";
        return std::nullopt;
      }
    }
    int toClear = wantLog2 == 0 ? numCands : m.out[k].log2 - wantLog2;
    for (int c = 0; c < n; ++c) {
      if (!v[c])
        continue;
      int ahead = 0; // candidates that come before c
      for (int d = 0; d < n; ++d)
        if (v[d] > v[c] || (d < c && v[d] == v[c]))
          ++ahead;
      if (ahead >= toClear)
        continue;
      if (!broadcastRegisters && (registerBits >> c & 1))
        dropped |= bit(c);
      else
        clearedDims[c] |= 1u << k;
    }
    newLog2[k] = wantLog2;
  }
  Model r;
  r.nIn = m.nIn;
  r.nOut = m.nOut;
  for (int k = 0; k < m.nOut; ++k)
    r.out[k] = {m.out[k].name, newLog2[k]};
  for (int i = 0; i < m.nIn; ++i) {
    int kept = 0;
    for (int b = 0; b < m.in[i].log2; ++b)
      kept += !(dropped >> (m.inFirst(i) + b) & 1);
    r.in[i] = {m.in[i].name, uint8_t(kept)};
  }
  int dst = 0;
  for (int c = 0; c < n; ++c) {
    if (dropped >> c & 1)
      continue;
    for (int k = 0; k < m.nOut; ++k) {
      uint32_t v = clearedDims[c] >> k & 1 ? 0 : m.coord(c, k);
      if (v >> newLog2[k]) {
        why = "still too large";
        return std::nullopt;
      }
      r.setCoord(dst, k, v);
    }
    ++dst;
  }
  return r;
}

Model removeZeroBasesAlongDim(const Model &m, uint8_t name) {
  Model r = m;
  std::fill(std::begin(r.rows), std::end(r.rows), 0);
  llvm::SmallVector<int, kMaxBits> cols, rowList;
  for (int i = 0; i < m.nIn; ++i) {
    int kept = 0;
    for (int b = 0; b < m.in[i].log2; ++b) {
      int c = m.inFirst(i) + b;
      if (m.in[i].name == name && m.isZeroColumn(c))
        continue;
      cols.push_back(c);
      ++kept;
    }
    r.in[i].log2 = kept;
  }
  for (int row = 0, n = m.outBits(); row < n; ++row)
    rowList.push_back(row);
  selectEntries(m, rowList, cols, r);
  return r;
}

// [A B]: b's in dims after a's, over the same outs.
MaybeModel concatIns(const Model &a, const Model &b, std::string &why) {
  bool sameOuts = a.nOut == b.nOut;
  for (int k = 0; sameOuts && k < a.nOut; ++k)
    sameOuts = a.out[k].name == b.out[k].name && a.out[k].log2 == b.out[k].log2;
  if (!sameOuts) {
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
  std::copy(b.in, b.in + b.nIn, r.in + a.nIn);
  r.nIn = a.nIn + b.nIn;
  for (int row = 0, n = a.outBits(); row < n; ++row)
    r.rows[row] = a.rows[row] | b.rows[row] << a.inBits();
  return r;
}

// [A; B]: b's out dims after a's, over the same ins.
MaybeModel concatOuts(const Model &a, const Model &b, std::string &why) {
  bool sameIns = a.nIn == b.nIn;
  for (int i = 0; sameIns && i < a.nIn; ++i)
    sameIns = a.in[i].name == b.in[i].name && a.in[i].log2 == b.in[i].log2;
  if (!sameIns) {
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
  std::copy(b.out, b.out + b.nOut, r.out + a.nOut);
  r.nOut = a.nOut + b.nOut;
  std::copy(b.rows, b.rows + b.outBits(), r.rows + a.outBits());
  return r;
}

// The C with B * C == A (left) or C * B == A (right), where C has all of A's
// dims in A's order. The product puts C's part of every dim above B's (left)
// or below it (right), so C can only be that block of A's matrix; it is the
// answer when the product gives A back exactly.
MaybeModel divide(const Model &A, const Model &B, bool left) {
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
  Model C;
  C.nIn = A.nIn;
  C.nOut = A.nOut;
  llvm::SmallVector<int, kMaxBits> cols, rowList;
  for (int i = 0; i < A.nIn; ++i) {
    int ib = B.findIn(A.in[i].name);
    int bBits = ib >= 0 ? B.in[ib].log2 : 0;
    C.in[i] = {A.in[i].name, uint8_t(A.in[i].log2 - bBits)};
    int from = left ? bBits : 0;
    for (int b = 0; b < C.in[i].log2; ++b)
      cols.push_back(A.inFirst(i) + from + b);
  }
  for (int k = 0; k < A.nOut; ++k) {
    int kb = B.findOut(A.out[k].name);
    int bBits = kb >= 0 ? B.out[kb].log2 : 0;
    C.out[k] = {A.out[k].name, uint8_t(A.out[k].log2 - bBits)};
    int from = left ? bBits : 0;
    for (int b = 0; b < C.out[k].log2; ++b)
      rowList.push_back(A.outFirst(k) + from + b);
  }
  selectEntries(A, rowList, cols, C);
  std::string why;
  MaybeModel back = left ? product(B, C, why) : product(C, B, why);
  if (!back || !sameModel(*back, A))
    return std::nullopt;
  return C;
}

MaybeModel quotient(const Model &m, llvm::ArrayRef<uint8_t> dims) {
  for (uint8_t d : dims)
    if (m.findIn(d) < 0)
      return std::nullopt;
  if (!isTrivialOver(m, dims))
    return std::nullopt;
  NameList keepIns, keepOuts;
  for (int i = 0; i < m.nIn; ++i)
    if (!contains(dims, m.in[i].name))
      keepIns.push_back(m.in[i].name);
  for (int k = 0; k < m.nOut; ++k)
    if (!contains(dims, m.out[k].name))
      keepOuts.push_back(m.out[k].name);
  std::string why;
  return sublayout(m, keepIns, keepOuts, why);
}

} // namespace tgpu::fuzz::llmodel
