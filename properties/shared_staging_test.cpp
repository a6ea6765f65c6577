// Laws of the convert_layout staging layout (SharedStaging.h) on random
// pairs of distributed layouts: it is a bijection, both sides' vectors are
// aligned runs of the registers they name (or rows ldmatrix reads), and the
// source side is free of bank conflicts whenever its lanes can be. On mma
// accumulators of 16-bit elements read into layouts with runs of
// consecutive elements, the destination reads with ldmatrix and both sides
// are conflict free. Concrete transposes check that the destination side is
// conflict free too, where row-major staging has 32-way conflicts (counted
// by the same bank model, so the model can fail).
#include "EncodingGenerators.h"
#include "LayoutGenerators.h"

#include "tgpu/Layout/LdMatrix.h"
#include "tgpu/Layout/SharedStaging.h"

#include <gtest/gtest.h>

#include <rapidcheck/gtest.h>

#include <set>

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
// offset bit i is register bit bits[i], the other inputs leave those
// offset bits alone.
void checkVectorRuns(const LinearLayout &toOffset,
                     const std::vector<int> &bits) {
  const int regBits = toOffset.getInDimSizeLog2("register");
  for (uint64_t x = 0; x < uint64_t(toOffset.getTotalInDimSize()); ++x) {
    int64_t offset = toOffset.unpackOut(toOffset.applyFlat(x))[0];
    // The register dim is the first in dim: its bits are the low ones.
    for (size_t i = 0; i < bits.size(); ++i) {
      RC_ASSERT(bits[i] < regBits);
      RC_ASSERT(((offset >> i) & 1) == int64_t((x >> bits[i]) & 1));
    }
  }
}

// Whether the source's 2^bits.size()-element stores can be conflict free:
// the vector's registers and the lanes of one wavefront are independent.
bool sourceCanBeConflictFree(const LinearLayout &src,
                             const std::vector<int> &bits, int bytes) {
  const int vec = int(bits.size());
  int lanesLog2 = 0;
  for (int64_t span = 128 / (int64_t(bytes) << vec); span > 1 && lanesLog2 < 5;
       span /= 2)
    ++lanesLog2;
  lanesLog2 = std::min(lanesLog2, src.getInDimSizeLog2("lane"));
  std::vector<uint64_t> words;
  for (int bit : bits)
    words.push_back(basisWord(src, "register", bit));
  for (int j = 0; j < lanesLog2; ++j)
    words.push_back(basisWord(src, "lane", j));
  return rankOf(words) == int(words.size()) &&
         int(words.size()) <= src.getTotalOutDimSizeLog2();
}

// The checks every staging layout passes; returns the destination's
// ldmatrix plan where it reads with ldmatrix.
std::optional<LdMatrixPlan> checkStaging(const LinearLayout &src,
                                         const LinearLayout &dst, int bytes,
                                         const StagingLayout &staged) {
  RC_ASSERT(staged.shared.isInvertible());
  RC_ASSERT((int64_t(bytes) << staged.storeRegisterBits.size()) <= 16);
  auto storeMap = src.invertAndCompose(staged.shared);
  auto loadMap = dst.invertAndCompose(staged.shared);
  RC_ASSERT(bool(storeMap) && bool(loadMap));
  checkVectorRuns(*storeMap, staged.storeRegisterBits);
  std::optional<LdMatrixPlan> plan;
  if (staged.loadWithLdMatrix) {
    RC_ASSERT(bytes == 2);
    RC_ASSERT(staged.loadRegisterBits.empty());
    plan = planLdMatrix(*loadMap, 16);
    RC_ASSERT(plan.has_value());
  } else {
    RC_ASSERT((int64_t(bytes) << staged.loadRegisterBits.size()) <= 16);
    checkVectorRuns(*loadMap, staged.loadRegisterBits);
  }
  if (sourceCanBeConflictFree(src, staged.storeRegisterBits, bytes)) {
    auto ways = countBankConflictWays(
        src, staged.shared, int(staged.storeRegisterBits.size()), bytes);
    RC_ASSERT(bool(ways));
    RC_ASSERT(*ways == 1);
  }
  return plan;
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
  checkStaging(src, dst, bytes, *staged);
}

// An mma accumulator (v2, or v3 with warps in groups of 4 along M) of
// 16-bit elements converted to a blocked layout with a run of 2^k
// elements along N: the epilogue of a matmul.
RC_GTEST_PROP(SharedStaging, MmaAccumulatorsAreConflictFreeBothWays, ()) {
  const bool v3 = *rc::gen::arbitrary<bool>();
  const unsigned numWarps = 1u << *rc::gen::inRange(v3 ? 2 : 0, 4);
  const unsigned warpsM =
      v3 ? 4u << *rc::gen::inRange(0, int(numWarps == 8) + 1)
         : 1u << *rc::gen::inRange(0, 1 + __builtin_ctz(numWarps));
  const unsigned warpsN = numWarps / warpsM;
  const int64_t m = 16 * int64_t(warpsM) << *rc::gen::inRange(0, 3);
  const unsigned instrN = v3 ? 8u << *rc::gen::inRange(0, 6) : 8u;
  const int64_t n = int64_t(instrN) * warpsN << *rc::gen::inRange(0, 3);
  RC_PRE(m * n <= (int64_t(1) << 16));
  const std::vector<int64_t> shape = {m, n};
  NvidiaMmaEncoding mma{v3 ? 3u : 2u,
                        0,
                        {warpsM, warpsN},
                        v3 ? std::vector<unsigned>{16, instrN, 16}
                           : std::vector<unsigned>{16, 8},
                        CGALayout{}};
  // Mostly the shapes whose rows ldmatrix can read.
  const unsigned run = *rc::gen::element(1u, 2u, 4u, 8u, 8u, 8u);
  const unsigned lanesN = *rc::gen::element(1u, 2u, 4u, 8u, 16u, 32u, 32u);
  const unsigned dstWarpsM =
      1u << *rc::gen::inRange(0, 1 + __builtin_ctz(numWarps));
  const LinearLayout src = layoutOf(Encoding(mma), shape);
  const LinearLayout dst =
      layoutOf(Encoding(BlockedEncoding{{1, run},
                                        {32 / lanesN, lanesN},
                                        {dstWarpsM, numWarps / dstWarpsM},
                                        {1, 0},
                                        CGALayout{}}),
               shape);
  auto staged = chooseStagingLayout(src, dst, 2);
  RC_ASSERT(bool(staged));
  auto plan = checkStaging(src, dst, 2, *staged);
  RC_TAG(plan ? "ldmatrix" : "plain");
  if (!plan)
    return;
  // 16-byte stores; ldmatrix's 8 rows per matrix in distinct bank groups
  // whenever the rows' bases are independent of each other and of the
  // source's: then the staging's swizzle can separate them.
  RC_ASSERT(staged->storeRegisterBits.size() == 3u);
  std::vector<uint64_t> words;
  for (int bit : staged->storeRegisterBits)
    words.push_back(basisWord(src, "register", bit));
  for (int j = 0; j < 3; ++j)
    words.push_back(basisWord(src, "lane", j));
  // The bases that pick an ldmatrix row (LdMatrix.h).
  std::vector<uint64_t> rows =
      plan->trans ? std::vector<uint64_t>{basisWord(dst, "register", 0),
                                          basisWord(dst, "lane", 0),
                                          basisWord(dst, "lane", 1)}
                  : std::vector<uint64_t>{basisWord(dst, "lane", 2),
                                          basisWord(dst, "lane", 3),
                                          basisWord(dst, "lane", 4)};
  words.insert(words.end(), rows.begin(), rows.end());
  if (rankOf(words) == int(words.size())) {
    auto ways = countOffsetBankConflictWays(plan->addresses, 2, 16);
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
  // The two sides share no register run.
  EXPECT_TRUE(staged.storeRegisterBits.empty());
  EXPECT_TRUE(staged.loadRegisterBits.empty());
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
  EXPECT_EQ(staged.storeRegisterBits, (std::vector<int>{0, 1}));
  EXPECT_EQ(staged.loadRegisterBits, (std::vector<int>{0, 1}));
  EXPECT_FALSE(staged.loadWithLdMatrix);
  EXPECT_EQ(llvm::cantFail(countBankConflictWays(a, staged.shared, 2, 4)), 1);
  EXPECT_EQ(llvm::cantFail(countBankConflictWays(b, staged.shared, 2, 4)), 1);
}

TEST(SharedStaging, WgmmaEpilogueStoresRowsAndReadsWithLdMatrix) {
  // The 128x256 f16 tile of an 8-warp wgmma matmul (instrShape 64x256),
  // converted to the store layout coalesce picks (8 consecutive f16 a
  // thread, a warp a row of 256). Each thread holds 128 elements. Triton
  // 3.6's PTX for this kernel (dumped on an H100, 2026-11-27) uses 16
  // st.shared.v4.b32 and 16 ldmatrix.x4 a thread; pairs-only staging
  // needs 64 4-byte stores and 64 4-byte loads.
  const std::vector<int64_t> shape = {128, 256};
  auto acc = llvm::cantFail(toLinearLayout(
      shape, Encoding(NvidiaMmaEncoding{3, 0, {8, 1}, {16, 256, 16}, {}})));
  auto store = llvm::cantFail(toLinearLayout(
      shape, Encoding(blocked({1, 8}, {1, 32}, {8, 1}, {1, 0}))));
  auto staged = llvm::cantFail(chooseStagingLayout(acc, store, 2));
  ASSERT_TRUE(staged.loadWithLdMatrix);
  // A store's 8 elements: columns c, c+1, c+8, c+9, c+16, c+17, c+24, c+25.
  std::set<int32_t> columns;
  for (int i = 0; i < 8; ++i) {
    int32_t reg = 0;
    for (size_t j = 0; j < staged.storeRegisterBits.size(); ++j)
      if (i & (1 << j))
        reg |= 1 << staged.storeRegisterBits[j];
    auto coords = llvm::cantFail(
        acc.apply({{"register", reg}, {"lane", 0}, {"warp", 0}, {"block", 0}}));
    columns.insert(coords[1].second);
  }
  EXPECT_EQ(columns, (std::set<int32_t>{0, 1, 8, 9, 16, 17, 24, 25}));
  EXPECT_EQ(acc.getInDimSize("register") >> staged.storeRegisterBits.size(),
            16);
  auto loadMap = llvm::cantFail(store.invertAndCompose(staged.shared));
  auto plan = planLdMatrix(loadMap, 16);
  ASSERT_TRUE(plan.has_value());
  EXPECT_EQ(plan->num, 4);
  EXPECT_EQ(plan->addresses.getInDimSize("register"), 16);
  EXPECT_EQ(llvm::cantFail(countBankConflictWays(acc, staged.shared, 3, 2)), 1);
  EXPECT_EQ(llvm::cantFail(countOffsetBankConflictWays(plan->addresses, 2, 16)),
            1);
}
