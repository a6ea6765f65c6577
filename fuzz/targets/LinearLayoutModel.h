// The reference model of fuzz_linear_layout: a linear layout as a plain
// GF(2) bit matrix with named, sized dims, and every LinearLayout operation
// derived from that matrix with textbook linear algebra (block matrices,
// matrix products, Gaussian elimination) or, where that is the clearest
// definition, a search over all inputs.
//
// The model is meant to be independent of compiler/lib/Layout: it includes no
// LinearLayout header and shares no algorithm or helper with it, so that a
// mistake in the library is not repeated here. Where the library's result
// rests on a choice (which preimage, which components are cleared), the
// choice is written down as a rule next to the operation and computed here
// in a different way from the library's loop. The fuzz target
// (LinearLayoutTarget.cpp) converts between models and LinearLayouts.
//
// Each fallible operation returns std::nullopt, with the reason in `why`,
// exactly when the library must refuse its arguments.
#ifndef TGPU_FUZZ_TARGETS_LINEARLAYOUTMODEL_H
#define TGPU_FUZZ_TARGETS_LINEARLAYOUTMODEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace tgpu::fuzz::llmodel {

// One pool for in and out dims, so compose / invertAndCompose / quotient can
// line up names (a dim may be both an in and an out dim, e.g. block->block).
constexpr int kNumNames = 8;
extern const std::string kNames[kNumNames];
// Index of "register" in kNames: the dim shrinkOutDims drops bases of.
constexpr uint8_t kRegisterName = 0;

constexpr int kMaxDims = kNumNames;
constexpr int kMaxBits = 63;    // the library's limit per side
constexpr int kMaxDimLog2 = 30; // int32 sizes: 2^30 is the largest power of two

struct Dim {
  uint8_t name = 0, log2 = 0;
};

using NameList = llvm::SmallVector<uint8_t, kMaxDims>;

// A linear map over GF(2) as a matrix M. Columns are the input bits: the in
// dims in order, each from its bit 0 ("flattened input"). Rows are the output
// bits in the same arrangement over the out dims. rows[r] holds row r, bit c
// being M[r][c]; rows past outBits() and bits past inBits() are zero.
struct Model {
  uint8_t nIn = 0, nOut = 0;
  Dim in[kMaxDims], out[kMaxDims];
  uint64_t rows[kMaxBits] = {};

  int inBits() const;
  int outBits() const;
  int inFirst(int i) const;  // first column of in dim i
  int outFirst(int k) const; // first row of out dim k
  int findIn(int name) const;
  int findOut(int name) const;
  NameList inNames() const;
  NameList outNames() const;

  bool entry(int r, int c) const { return rows[r] >> c & 1; }
  void setEntry(int r, int c, bool v);
  // Column c read as the coordinate it gives out dim k (the image of input
  // bit c, one coordinate).
  uint32_t coord(int c, int k) const;
  void setCoord(int c, int k, uint32_t v);
  // Column c as a bit vector over the rows (row r at bit r).
  uint64_t column(int c) const;
  void setColumn(int c, uint64_t v);
  bool isZeroColumn(int c) const { return column(c) == 0; }
  // M x for a flattened input x: bit r of the result is row r · x.
  uint64_t apply(uint64_t x) const;
  // The coordinate of out dim k in a result of apply.
  uint32_t outCoord(uint64_t y, int k) const;
};

using MaybeModel = std::optional<Model>;

// Same dims in the same order with the same sizes and the same matrix (out
// sizes may differ where `ignoreOutSizes`, the coordinates may not).
bool sameModel(const Model &a, const Model &b, bool ignoreOutSizes = false);
// The model printed for a finding.
std::string dump(const Model &m);
// Triton's LinearLayout::toString text of the layout.
std::string tritonText(const Model &m);
int log2OfPow2(int64_t v);

//===----------------------------------------------------------------------===//
// Properties
//===----------------------------------------------------------------------===//

int rank(const Model &m);
// The rank by its definition, log2 of the number of distinct images, counted
// over every input: for layouts of at most kCountingBits input bits.
constexpr int kCountingBits = 8;
int rankByCounting(const Model &m);
// Per in dim, the bits whose column is in the span of the columns before it.
llvm::SmallVector<int32_t, kMaxDims> freeVariableMasks(const Model &m);
// Triton's getNumConsecutiveInOut.
int numConsecutiveInOut(const Model &m);
bool sublayoutIsZero(const Model &m, llvm::ArrayRef<uint8_t> ins,
                     llvm::ArrayRef<uint8_t> outs);
bool isTrivialOver(const Model &m, llvm::ArrayRef<uint8_t> dims);
// For each value v of in dim `i` (other in dims 0): the lowest value of that
// dim with the same image.
llvm::SmallVector<int32_t, 0> lowestSameImage(const Model &m, int i);
bool repeatsThroughNonZeroBases(const Model &m);
bool hasMultiBitBasis(const Model &m);

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

// Out dim sizes as create(bases, outDimNames) infers them: the smallest power
// of two above every coordinate of the dim.
Model withInferredOutSizes(const Model &m);
std::optional<NameList> supremum(llvm::ArrayRef<uint8_t> x,
                                 llvm::ArrayRef<uint8_t> y);
MaybeModel product(const Model &inner, const Model &outer, std::string &why);
MaybeModel compose(const Model &t, const Model &outer, std::string &why);
MaybeModel invertAndCompose(const Model &t, const Model &outer,
                            std::string &why);
MaybeModel pseudoinvert(const Model &m, std::string &why);
MaybeModel invert(const Model &m, std::string &why);
MaybeModel transposeIns(const Model &m, llvm::ArrayRef<uint8_t> order,
                        std::string &why);
MaybeModel transposeOuts(const Model &m, llvm::ArrayRef<uint8_t> order,
                         std::string &why);

struct NewDim {
  uint8_t name;
  int32_t size;
};
MaybeModel reshapeIns(const Model &m, llvm::ArrayRef<NewDim> dims,
                      std::string &why);
MaybeModel reshapeOuts(const Model &m, llvm::ArrayRef<NewDim> dims,
                       std::string &why);
Model flattenIns(const Model &m);
Model flattenOuts(const Model &m);
MaybeModel sublayout(const Model &m, llvm::ArrayRef<uint8_t> ins,
                     llvm::ArrayRef<uint8_t> outs, std::string &why);
MaybeModel resizeInDim(const Model &m, uint8_t name, int32_t size,
                       std::string &why);
MaybeModel resizeOutDim(const Model &m, uint8_t name, int32_t size,
                        std::string &why);
MaybeModel shrinkOutDims(const Model &m, llvm::ArrayRef<NewDim> shape,
                         bool broadcastRegisters, std::string &why);
Model removeZeroBasesAlongDim(const Model &m, uint8_t name);
MaybeModel concatIns(const Model &a, const Model &b, std::string &why);
MaybeModel concatOuts(const Model &a, const Model &b, std::string &why);
// C with A == B * C (left) or A == C * B.
MaybeModel divide(const Model &A, const Model &B, bool left);
MaybeModel quotient(const Model &m, llvm::ArrayRef<uint8_t> dims);

} // namespace tgpu::fuzz::llmodel

#endif
