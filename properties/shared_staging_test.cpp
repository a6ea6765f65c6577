// Laws of the convert_layout staging layout (SharedStaging.h) on random
// pairs of distributed layouts: it is a bijection, both sides' vectors are
// aligned runs of consecutive registers, and the source side is free of
// bank conflicts whenever its lanes can be. Concrete transposes check that
// the destination side is conflict free too, where row-major staging has
// 32-way conflicts (counted by the same bank model, so the model can fail).
#include "EncodingGenerators.h"
#include "LayoutGenerators.h"

#include "tgpu/Layout/SharedStaging.h"

#include <gtest/gtest.h>

#include <rapidcheck/gtest.h>

using namespace tgpu::layout;
using namespace tgpu::props;

namespace {

LinearLayout layoutOf(const Encoding &e, const std::vector<int64_t> &shape) {
  auto l = toLinearLayout(shape, e);
  if (!l)
    RC_FAIL("does not convert: " + llvm::toString(l.takeError()));
  return *l;
}

// The GF(2) rank of `words`.
int rankOf(std::vector<uint64_t> words) {
  int rank = 0;
  for (size_t i = 0; i < words.size(); ++i) {
    uint64_t w = words[i];
    if (!w)
      continue;
    ++rank;
    uint64_t lead = w & -w;
    for (size_t j = i + 1; j < words.size(); ++j)
      if (words[j] & lead)
        words[j] ^= w;
  }
  return rank;
}

uint64_t basisWord(const LinearLayout &l, const char *dim, int i) {
  return l.packOut(l.getBasis(dim, i));
}

// Every input of `toOffset` (register, lane, warp, block -> offset):
// the low `vec` register bits are the low offset bits, the rest leave them
// alone.
void checkVectorRuns(const LinearLayout &toOffset, int vec) {
  const int regBits = toOffset.getInDimSizeLog2("register");
  for (uint64_t x = 0; x < uint64_t(toOffset.getTotalInDimSize()); ++x) {
    int64_t offset = toOffset.unpackOut(toOffset.applyFlat(x))[0];
    // The register dim is the first in dim: its bits are the low ones.
    uint64_t lowRegs = x & ((uint64_t(1) << std::min(vec, regBits)) - 1);
    RC_ASSERT(uint64_t(offset & ((int64_t(1) << vec) - 1)) == lowRegs);
  }
}

} // namespace

RC_GTEST_PROP(SharedStaging, BijectiveAlignedAndSourceConflictFree, ()) {
  const unsigned rank = *rc::gen::inRange(1u, 4u);
  const auto shape = *genShape(rank, 0, 12 / rank);
  const unsigned numWarps = *genNumWarps();
  const LinearLayout src = layoutOf(*genDistributed(rank, numWarps, 1), shape);
  const LinearLayout dst = layoutOf(*genDistributed(rank, numWarps, 1), shape);
  RC_PRE(src.getInDimSize("warp") == dst.getInDimSize("warp") &&
         src.getInDimSize("block") == 1 && dst.getInDimSize("block") == 1);
  const int bytes = *rc::gen::element(1, 2, 4, 8);
  auto staged = chooseStagingLayout(src, dst, bytes);
  RC_ASSERT(bool(staged));
  RC_ASSERT(staged->shared.isInvertible());
  RC_ASSERT((int64_t(bytes) << staged->vectorLog2) <= 16);
  for (const LinearLayout *side : {&src, &dst}) {
    auto toOffset = side->invertAndCompose(staged->shared);
    RC_ASSERT(bool(toOffset));
    checkVectorRuns(*toOffset, staged->vectorLog2);
  }
  // Source side: when the lanes of one wavefront and the vector's
  // registers are independent, one wavefront per phase.
  const int vec = staged->vectorLog2;
  int lanesLog2 = 0;
  for (int64_t span = 128 / (int64_t(bytes) << vec); span > 1 && lanesLog2 < 5;
       span /= 2)
    ++lanesLog2;
  lanesLog2 = std::min(lanesLog2, src.getInDimSizeLog2("lane"));
  std::vector<uint64_t> words;
  for (int i = 0; i < vec; ++i)
    words.push_back(basisWord(src, "register", i));
  for (int j = 0; j < lanesLog2; ++j)
    words.push_back(basisWord(src, "lane", j));
  if (rankOf(words) == int(words.size()) &&
      int(words.size()) <= src.getTotalOutDimSizeLog2()) {
    auto ways = countBankConflictWays(src, staged->shared, vec, bytes);
    RC_ASSERT(bool(ways));
    RC_ASSERT(*ways == 1);
  }
}

namespace {

// Row-major staging: offset = the linear index, last dim fastest.
LinearLayout rowMajor(const std::vector<int64_t> &shape) {
  std::vector<LinearLayout::Basis> bases;
  for (int d = int(shape.size()) - 1; d >= 0; --d)
    for (int64_t v = 1; v < shape[d]; v *= 2) {
      LinearLayout::Basis b(shape.size(), 0);
      b[d] = int32_t(v);
      bases.push_back(b);
    }
  std::vector<LinearLayout::NamedSize> outs;
  for (size_t d = 0; d < shape.size(); ++d)
    outs.push_back({"dim" + std::to_string(d), int32_t(shape[d])});
  return llvm::cantFail(LinearLayout::create({{"offset", bases}}, outs, true));
}

BlockedEncoding blocked(std::vector<unsigned> spt, std::vector<unsigned> tpw,
                        std::vector<unsigned> wpc, std::vector<unsigned> order) {
  return BlockedEncoding{spt, tpw, wpc, order, CGALayout{}};
}

} // namespace

TEST(SharedStaging, TransposeIsConflictFreeBothWays) {
  const std::vector<int64_t> shape = {64, 64};
  // Rows fastest vs columns fastest, 4 elements per thread, 4 warps.
  auto rows = llvm::cantFail(toLinearLayout(
      shape, Encoding(blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}))));
  auto cols = llvm::cantFail(toLinearLayout(
      shape, Encoding(blocked({4, 1}, {8, 4}, {1, 4}, {0, 1}))));
  auto staged = llvm::cantFail(chooseStagingLayout(rows, cols, 4));
  EXPECT_EQ(staged.vectorLog2, 0); // the two sides share no register run
  EXPECT_EQ(llvm::cantFail(countBankConflictWays(rows, staged.shared, 0, 4)), 1);
  EXPECT_EQ(llvm::cantFail(countBankConflictWays(cols, staged.shared, 0, 4)), 1);
  // The row-major buffer the lowering used before. Scalar writes of the
  // row layout: lanes 0..7 write columns 0, 4, .., 28 of a row (banks 0, 4,
  // .., 28), lanes 8..15 the next row, 256 bytes on: 4 rows per bank set,
  // 4 ways. Reads of the column layout: 8 lanes down a column, 256 bytes
  // apart, all in one bank, each of 4 columns: 8 ways.
  LinearLayout plain = rowMajor(shape);
  EXPECT_EQ(llvm::cantFail(countBankConflictWays(rows, plain, 0, 4)), 4);
  EXPECT_EQ(llvm::cantFail(countBankConflictWays(cols, plain, 0, 4)), 8);
}

TEST(SharedStaging, SharedRegisterRunsAreVectorised) {
  // Both layouts hold 4 consecutive f32 of a row; the warps differ.
  const std::vector<int64_t> shape = {32, 128};
  auto a = llvm::cantFail(toLinearLayout(
      shape, Encoding(blocked({1, 4}, {1, 32}, {4, 1}, {1, 0}))));
  auto b = llvm::cantFail(toLinearLayout(
      shape, Encoding(blocked({1, 4}, {2, 16}, {1, 4}, {1, 0}))));
  auto staged = llvm::cantFail(chooseStagingLayout(a, b, 4));
  EXPECT_EQ(staged.vectorLog2, 2);
  EXPECT_EQ(llvm::cantFail(countBankConflictWays(a, staged.shared, 2, 4)), 1);
  EXPECT_EQ(llvm::cantFail(countBankConflictWays(b, staged.shared, 2, 4)), 1);
}
