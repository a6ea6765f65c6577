// LinearLayout: a linear map over GF(2) from named input dimensions
// (register, lane, warp, block; or offset, block) to named output dimensions
// (dim0, dim1, ...). Every dimension has a power-of-two size, so a value of a
// dimension is a bit vector and the map is fixed by its bases: the images of
// each input bit. Semantics follow Triton's LinearLayout.
//
// The core uses only LLVM's Support library (no MLIR), so property tests,
// fuzzers and benchmarks run without an MLIRContext.
//
// Storage: an input bit's image is one 64-bit word holding every output
// dimension's bits side by side (output dim k at bits [outOffset(k),
// outOffset(k)+log2size(k))). Input bits of all input dims are numbered in
// dim order, the first dim in the low bits ("flattened" input). `apply` is then
// an XOR of the words of the set input bits.
//
// Fallible operations return llvm::Expected / std::optional; nothing that a
// caller's argument can reach aborts.
#ifndef TGPU_LAYOUT_LINEARLAYOUT_H
#define TGPU_LAYOUT_LINEARLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tgpu::layout {

// Most bits a layout's inputs (or outputs) may have in total: one word.
constexpr int kMaxTotalBits = 63;

class LinearLayout {
public:
  // One input dim's bases: bases[i] = L(2^i) as one coordinate per output dim.
  using Basis = std::vector<int32_t>;
  using DimBases = std::pair<std::string, std::vector<Basis>>;
  using NamedValue = std::pair<std::string, int32_t>;
  using NamedSize = std::pair<std::string, int32_t>;

  // The layout with no input and no output dims (the unit of `*`).
  LinearLayout() = default;

  // Builds from bases with the output dims listed in `outDims` (name, size).
  // Fails on a size that is not a power of two, a duplicated name, a basis
  // with the wrong arity or a coordinate outside its dim, an input dim with
  // more than 30 bases, more than kMaxTotalBits bits, or (when
  // `requireSurjective`) a map that is not onto.
  static llvm::Expected<LinearLayout>
  create(llvm::ArrayRef<DimBases> bases, llvm::ArrayRef<NamedSize> outDims,
         bool requireSurjective);
  // As above with each output dim's size inferred as the smallest power of
  // two above every coordinate; the result must be surjective.
  static llvm::Expected<LinearLayout>
  create(llvm::ArrayRef<DimBases> bases,
         llvm::ArrayRef<std::string> outDimNames);

  static LinearLayout empty() { return LinearLayout(); }
  // L(x) = x, size -> size. A size that is not a power of two is an error.
  static llvm::Expected<LinearLayout>
  identity1D(int32_t size, llvm::StringRef inDim, llvm::StringRef outDim);
  // L(x) = 0 into an output dim of `outDimSize`.
  static llvm::Expected<LinearLayout> zeros1D(int32_t size,
                                              llvm::StringRef inDim,
                                              llvm::StringRef outDim,
                                              int32_t outDimSize = 1);
  // L(x) = x * stride into an output dim of size * stride.
  static llvm::Expected<LinearLayout> strided1D(int32_t size, int32_t stride,
                                                llvm::StringRef inDim,
                                                llvm::StringRef outDim);

  // --- Shape --------------------------------------------------------------
  int getNumInDims() const { return ins.size(); }
  int getNumOutDims() const { return outs.size(); }
  std::vector<std::string> getInDimNames() const;
  std::vector<std::string> getOutDimNames() const;
  std::vector<NamedSize> getOutDims() const;
  std::vector<NamedSize> getInDims() const;
  bool hasInDim(llvm::StringRef name) const { return findIn(name) >= 0; }
  bool hasOutDim(llvm::StringRef name) const { return findOut(name) >= 0; }
  // Sizes of an absent dim are 1 (log2 0), as in Triton.
  int getInDimSizeLog2(llvm::StringRef name) const;
  int32_t getInDimSize(llvm::StringRef name) const {
    return int32_t(1) << getInDimSizeLog2(name);
  }
  int getOutDimSizeLog2(llvm::StringRef name) const;
  int32_t getOutDimSize(llvm::StringRef name) const {
    return int32_t(1) << getOutDimSizeLog2(name);
  }
  int getTotalInDimSizeLog2() const { return numInBits; }
  int64_t getTotalInDimSize() const { return int64_t(1) << numInBits; }
  int getTotalOutDimSizeLog2() const { return numOutBits; }
  int64_t getTotalOutDimSize() const { return int64_t(1) << numOutBits; }
  // The position of a dim among the ins/outs, -1 when absent.
  int findIn(llvm::StringRef name) const;
  int findOut(llvm::StringRef name) const;

  // --- Bases --------------------------------------------------------------
  // L(2^i) for input bit i of `inDim`, one coordinate per output dim.
  Basis getBasis(llvm::StringRef inDim, int i) const;
  int32_t getBasis(llvm::StringRef inDim, int i, llvm::StringRef outDim) const;
  std::vector<DimBases> getBases() const;
  // Packed words, one per input bit of the flattened input.
  llvm::ArrayRef<uint64_t> getPackedBases() const { return bases; }

  // --- Evaluation -----------------------------------------------------------
  // Flattened input bits (first in dim lowest) -> packed output word.
  uint64_t applyFlat(uint64_t in) const {
    uint64_t out = 0;
    const uint64_t *b = bases.data();
    for (; in; in &= in - 1)
      out ^= b[__builtin_ctzll(in)];
    return out;
  }
  // Named values (every in dim, any order; each inside its dim) -> one value
  // per output dim in output order.
  llvm::Expected<std::vector<NamedValue>>
  apply(llvm::ArrayRef<NamedValue> ins) const;
  // Packed output word -> per out dim values, in out dim order.
  std::vector<int32_t> unpackOut(uint64_t word) const;
  uint64_t packIn(llvm::ArrayRef<int32_t> perInDim) const;
  uint64_t packOut(llvm::ArrayRef<int32_t> perOutDim) const;
  std::vector<int32_t> unpackIn(uint64_t flat) const;

  // --- Properties -----------------------------------------------------------
  // GF(2) rank of the bases (computed on first use, then cached).
  int rank() const;
  bool isSurjective() const { return rank() == numOutBits; }
  bool isInjective() const { return rank() == numInBits; }
  bool isInvertible() const {
    return numInBits == numOutBits && isSurjective();
  }
  // For each in dim, the bits whose basis lies in the span of the bases of
  // the lower flattened input bits (zero bases included): such an input bit
  // can be set freely once the lower bits are fixed.
  std::vector<std::pair<std::string, int32_t>> getFreeVariableMasks() const;
  // For each value v of in dim `inDim` (the other in dims 0), the lowest
  // value with the same image: v itself unless a lower one holds the same
  // element. Not v & ~freeMask: that is the same element only when the free
  // bases are zero (register bases [4], [4]: register 0b11 holds element 0,
  // register 0b01 element 4). For the first in dim the lowest value is the
  // one without free-variable bits: the copy those masks elect as owner.
  std::vector<int32_t> getLowestSameImage(llvm::StringRef inDim) const;
  // Some output is the image of two inputs that differ only in bits whose
  // bases are not zero: a non-zero basis in the span of the bases before it
  // (flattened input order). Zero bases (broadcast) alone do not count.
  // Triton 3.6 converts such distributed layouts wrongly
  // (docs/FINDINGS.md, finding 2).
  bool repeatsThroughNonZeroBases() const;
  // Some basis moves more than one bit within one output dim ([3], [0, 10]):
  // valid (Triton's verifier only asks that a basis move along one dim), but
  // Triton 3.6 computes wrong values through such #ttg.linear and
  // #ttg.shared_linear layouts (docs/FINDINGS.md, finding 12).
  bool hasMultiBitBasis() const;
  // How many consecutive elements of the first out dim the first in dim
  // holds from 0 (Triton's getNumConsecutiveInOut).
  int getNumConsecutiveInOut() const;
  // Every basis of `inDims` has zero coordinates in `outDims`.
  bool sublayoutIsZero(llvm::ArrayRef<std::string> inDims,
                       llvm::ArrayRef<std::string> outDims) const;
  // Each of `dims` is both an in and an out dim, the layout restricted to
  // them is the identity, and they neither reach nor are reached by the
  // other dims (so the layout is the product of the rest with the identity).
  bool isTrivialOver(llvm::ArrayRef<std::string> dims) const;
  // The layout without `dims`, if it is trivial over them.
  std::optional<LinearLayout> quotient(llvm::ArrayRef<std::string> dims) const;
  // Drops the all-zero bases of `inDim` (out dim sizes are kept).
  LinearLayout removeZeroBasesAlongDim(llvm::StringRef inDim) const;

  // --- Algebra --------------------------------------------------------------
  // Product: ins/outs are the union (this's dims first); dims with the same
  // name stack, `this` in the low bits of the output. Fails when the common
  // dims come in different orders or a stacked dim would exceed 2^30.
  friend llvm::Expected<LinearLayout> operator*(const LinearLayout &inner,
                                                const LinearLayout &outer);
  // (outer ∘ this)(x) = outer(this(x)). outer's ins must be this's outs
  // (same names, same order not needed) with sizes at least this's out sizes.
  llvm::Expected<LinearLayout> compose(const LinearLayout &outer) const;
  // L⁻¹ of an invertible layout: ins <-> outs swapped.
  llvm::Expected<LinearLayout> invert() const;
  // A right inverse of a surjective layout: L(P(y)) = y, choosing for each y
  // the smallest flattened input.
  llvm::Expected<LinearLayout> pseudoinvert() const;
  // C with outer(C(x)) = this(x), where C picks the smallest solution when
  // outer is not injective. outer must have this's outs and cover this's
  // image. C's ins are this's ins, its outs outer's ins.
  llvm::Expected<LinearLayout> invertAndCompose(const LinearLayout &outer) const;

  // --- Reshaping ------------------------------------------------------------
  llvm::Expected<LinearLayout>
  transposeIns(llvm::ArrayRef<std::string> newOrder) const;
  llvm::Expected<LinearLayout>
  transposeOuts(llvm::ArrayRef<std::string> newOrder) const;
  // Split the flattened input (resp. output) anew into the given dims, the
  // first one in the low bits. Total size must be kept.
  llvm::Expected<LinearLayout>
  reshapeIns(llvm::ArrayRef<NamedSize> newInDims) const;
  llvm::Expected<LinearLayout>
  reshapeOuts(llvm::ArrayRef<NamedSize> newOutDims) const;
  // One in (out) dim named as the first one, holding the flattened value.
  LinearLayout flattenIns() const;
  LinearLayout flattenOuts() const;
  // The restriction to `inDims` and projection onto `outDims` (both kept in
  // this layout's order); out dim sizes are kept.
  llvm::Expected<LinearLayout>
  sublayout(llvm::ArrayRef<std::string> inDims,
            llvm::ArrayRef<std::string> outDims) const;
  // Larger: extra zero bases; smaller: the high bases are dropped.
  llvm::Expected<LinearLayout> resizeInDim(llvm::StringRef inDim,
                                           int32_t newSize) const;
  // Shrinks an out dim; a coordinate that does not fit becomes 0.
  llvm::Expected<LinearLayout> resizeOutDim(llvm::StringRef outDim,
                                            int32_t newSize) const;
  // Shrinks out dims to `shape` (Triton's ensureLayoutNotLargerThan): in
  // each dim too large, the largest components (all powers of two) are
  // cleared, largest first, until it fits; bases of `registerDim` are removed
  // instead of cleared unless `broadcastRegisters`. Towards size 1 every
  // component goes, also one of several bits (a #ttg.linear slice parent);
  // elsewhere such a component is an error.
  llvm::Expected<LinearLayout>
  shrinkOutDims(llvm::ArrayRef<NamedSize> shape, bool broadcastRegisters,
                llvm::StringRef registerDim = "register") const;
  // Joint layout over disjoint in dims with the same outs (names and sizes).
  llvm::Expected<LinearLayout> concatIns(const LinearLayout &other) const;
  // Joint layout with the same ins (names and sizes) and disjoint outs.
  llvm::Expected<LinearLayout> concatOuts(const LinearLayout &other) const;

  // C with A = B * C (divideLeft) or A = C * B (divideRight), if one exists.
  friend std::optional<LinearLayout> divideLeft(const LinearLayout &A,
                                                const LinearLayout &B);
  friend std::optional<LinearLayout> divideRight(const LinearLayout &A,
                                                 const LinearLayout &B);

  // --- Identity -------------------------------------------------------------
  // Same dims in the same order with the same sizes and the same bases.
  bool operator==(const LinearLayout &o) const;
  bool operator!=(const LinearLayout &o) const { return !(*this == o); }
  // Equal up to out dim sizes (same names, order and bases).
  bool equalIgnoringOutDimSizes(const LinearLayout &o) const;
  size_t hash() const;
  // Triton's text: "\n", then " - in=1 -> (c0, c1)" and "   in=2 -> ..."
  // lines per in dim, then "where out dims are: [name (size N), ...]".
  std::string toString() const;

private:
  // Dim names are interned (see internDimName): copying a layout copies
  // pointers, not strings.
  struct InDim {
    llvm::StringRef name;
    int log2;  // number of input bits
    int first; // index of its first bit in the flattened input
  };
  struct OutDim {
    llvm::StringRef name;
    int log2;   // number of output bits
    int offset; // position of its low bit in a packed word
  };
  // Inline capacities fit the usual layouts, so building one rarely
  // allocates.
  using InDimVec = llvm::SmallVector<InDim, 4>;
  using OutDimVec = llvm::SmallVector<OutDim, 4>;
  using WordVec = llvm::SmallVector<uint64_t, 24>;
  InDimVec ins;
  OutDimVec outs;
  WordVec bases; // one packed word per flattened input bit
  int numInBits = 0;
  int numOutBits = 0;
  // The rank, or -1 before it is first asked for. Atomic so that layouts
  // shared between threads may fill it concurrently.
  struct RankCache {
    mutable std::atomic<int> value{-1};
    RankCache() = default;
    RankCache(const RankCache &o) : value(o.value.load(std::memory_order_relaxed)) {}
    RankCache &operator=(const RankCache &o) {
      value.store(o.value.load(std::memory_order_relaxed), std::memory_order_relaxed);
      return *this;
    }
  } rankCache;

  static std::optional<LinearLayout> divide(const LinearLayout &A,
                                            const LinearLayout &B, bool bOnLeft);
  // Builds the layout from already validated packed data.
  static LinearLayout fromPacked(InDimVec ins,
                                 OutDimVec outs,
                                 WordVec bases);
  void finish();
  uint64_t outMask(int k) const {
    return ((uint64_t(1) << outs[k].log2) - 1) << outs[k].offset;
  }
  int32_t coord(uint64_t word, int k) const {
    return int32_t((word >> outs[k].offset) & ((uint64_t(1) << outs[k].log2) - 1));
  }
};

llvm::Expected<LinearLayout> operator*(const LinearLayout &inner,
                                       const LinearLayout &outer);
std::optional<LinearLayout> divideLeft(const LinearLayout &A,
                                       const LinearLayout &B);
std::optional<LinearLayout> divideRight(const LinearLayout &A,
                                        const LinearLayout &B);

// Merges two dim-name lists into one that keeps both orders, preferring x's
// dims where either could come first: [a,c] + [b,c] -> [a,b,c]. None when
// the common dims appear in different orders.
std::optional<std::vector<std::string>> supremum(llvm::ArrayRef<std::string> x,
                                                 llvm::ArrayRef<std::string> y);

// A copy of `name` that lives as long as the program (dim names are few).
llvm::StringRef internDimName(llvm::StringRef name);

// log2 of a positive power of two, or -1.
int log2IfPowerOf2(int64_t v);

} // namespace tgpu::layout

#endif
