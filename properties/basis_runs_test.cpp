// getBasisRuns (the grouping of one input dim's bases into mask-and-shift
// runs that the index code of the lowering emits) against the bases
// themselves, evaluated bit by bit for every value of the input dim.
#include "LayoutGenerators.h"

#include "tgpu/Layout/BasisRuns.h"

#include <gtest/gtest.h>

#include <rapidcheck/gtest.h>

using namespace tgpu::layout;
using namespace tgpu::props;

namespace {

// A "lane" dim of 2^[0, 5] bits into up to three out dims, each basis drawn
// from kinds that make runs common: zero (1 in 8), one random bit (2 in 8),
// the previous basis moved up one bit (a run goes on: 4 in 8), or a random
// value (often several bits: 1 in 8).
// Drawn at full size: inRange scales with RapidCheck's size, and at the
// small sizes of the first tests every kind would be zero.
rc::Gen<LinearLayout> genRunnyLayout() {
  return rc::gen::resize(100, rc::gen::mapcat(
      rc::gen::pair(rc::gen::inRange(0, 6), genDims(outPool(), 1, 3, 5)),
      [](const std::pair<int, std::vector<LinearLayout::NamedSize>> &d) {
        int bits = d.first;
        std::vector<LinearLayout::NamedSize> outs = d.second;
        return rc::gen::map(
            rc::gen::container<std::vector<std::pair<int, uint32_t>>>(
                bits * outs.size(),
                rc::gen::pair(rc::gen::inRange(0, 8),
                              rc::gen::arbitrary<uint32_t>())),
            [=](const std::vector<std::pair<int, uint32_t>> &draws) {
              std::vector<LinearLayout::Basis> bases(
                  bits, LinearLayout::Basis(outs.size(), 0));
              for (int i = 0; i < bits; ++i)
                for (size_t k = 0; k < outs.size(); ++k) {
                  auto [kind, raw] = draws[i * outs.size() + k];
                  uint32_t size = uint32_t(outs[k].second);
                  int sizeLog2 = __builtin_ctz(size);
                  uint32_t v = 0;
                  if (kind >= 1 && kind <= 2 && sizeLog2 > 0)
                    v = uint32_t(1) << (raw % sizeLog2);
                  else if (kind >= 3 && kind <= 6 && i > 0)
                    v = uint32_t(bases[i - 1][k]) << 1;
                  else if (kind == 7)
                    v = raw;
                  bases[i][k] = int32_t(v % size);
                }
              auto l = LinearLayout::create({{"lane", bases}}, outs, false);
              if (!l)
                RC_FAIL("generator built a bad layout: " +
                        llvm::toString(l.takeError()));
              return std::move(*l);
            });
      }));
}

int32_t contribution(const BasisRun &run, int32_t value) {
  if (run.outBit < 0)
    return (value >> run.inBegin & 1) ? run.basis : 0;
  int32_t mask = (int32_t(1) << (run.inEnd - run.inBegin)) - 1;
  return ((value >> run.inBegin) & mask) << run.outBit;
}

void checkRuns(const LinearLayout &l, const std::string &in,
               const std::string &out) {
  std::vector<BasisRun> runs = getBasisRuns(l, in, out);
  int bits = l.getInDimSizeLog2(in);
  // Each input bit with a non-zero basis in exactly one run, in order.
  std::vector<int> covered(bits, 0);
  int last = 0;
  for (const BasisRun &run : runs) {
    RC_ASSERT(run.inBegin >= last);
    RC_ASSERT(run.inBegin < run.inEnd);
    RC_ASSERT(run.inEnd <= bits);
    last = run.inEnd;
    RC_ASSERT(run.basis == l.getBasis(in, run.inBegin, out));
    if (run.outBit < 0) {
      // A lone input bit whose basis has several bits.
      RC_ASSERT(run.inEnd == run.inBegin + 1);
      RC_ASSERT(__builtin_popcount(uint32_t(run.basis)) >= 2);
    } else {
      // Single bits climbing one position per input bit, and the run stops
      // only where the next basis does not go on climbing.
      for (int i = run.inBegin; i < run.inEnd; ++i)
        RC_ASSERT(l.getBasis(in, i, out) ==
                  int32_t(1) << (run.outBit + i - run.inBegin));
      if (run.inEnd < bits)
        RC_ASSERT(int64_t(l.getBasis(in, run.inEnd, out)) !=
                  int64_t(1) << (run.outBit + run.inEnd - run.inBegin));
    }
    for (int i = run.inBegin; i < run.inEnd; ++i)
      ++covered[i];
  }
  for (int i = 0; i < bits; ++i)
    RC_ASSERT(covered[i] == (l.getBasis(in, i, out) != 0 ? 1 : 0));
  // The runs' contributions XOR to the bases' XOR for every value.
  for (int32_t v = 0; v < (int32_t(1) << bits); ++v) {
    int32_t byRuns = 0, byBases = 0;
    for (const BasisRun &run : runs)
      byRuns ^= contribution(run, v);
    for (int i = 0; i < bits; ++i)
      if (v >> i & 1)
        byBases ^= l.getBasis(in, i, out);
    RC_ASSERT(byRuns == byBases);
  }
}

} // namespace

RC_GTEST_PROP(BasisRuns, MatchTheBasesOnRunnyLayouts, ()) {
  LinearLayout l = *genRunnyLayout();
  bool anyLongRun = false;
  for (const std::string &out : l.getOutDimNames()) {
    checkRuns(l, "lane", out);
    for (const BasisRun &run : getBasisRuns(l, "lane", out))
      anyLongRun |= run.outBit >= 0 && run.inEnd - run.inBegin > 1;
  }
  RC_TAG(anyLongRun);
}

RC_GTEST_PROP(BasisRuns, MatchTheBasesOnRandomLayouts,
              (const LinearLayout &l)) {
  for (const std::string &in : l.getInDimNames())
    for (const std::string &out : l.getOutDimNames())
      checkRuns(l, in, out);
}

// A blocked layout's 32 lanes as 4 x 8 over (dim1, dim0), one register
// column of 4 in dim1: lanes 0-1 go to dim1 bits 2-3, lanes 2-4 to dim0
// bits 0-2; written out by hand from the blocked layout's definition.
TEST(BasisRuns, BlockedLanesByHand) {
  auto l = LinearLayout::create(
      {{"lane", {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}}},
      {{"dim0", 8}, {"dim1", 16}}, false);
  ASSERT_TRUE(bool(l));
  std::vector<BasisRun> dim0 = getBasisRuns(*l, "lane", "dim0");
  ASSERT_EQ(dim0.size(), 1u);
  EXPECT_EQ(dim0[0].inBegin, 2);
  EXPECT_EQ(dim0[0].inEnd, 5);
  EXPECT_EQ(dim0[0].outBit, 0);
  std::vector<BasisRun> dim1 = getBasisRuns(*l, "lane", "dim1");
  ASSERT_EQ(dim1.size(), 1u);
  EXPECT_EQ(dim1[0].inBegin, 0);
  EXPECT_EQ(dim1[0].inEnd, 2);
  EXPECT_EQ(dim1[0].outBit, 2);
  // Absent dims give no runs.
  EXPECT_TRUE(getBasisRuns(*l, "warp", "dim0").empty());
  EXPECT_TRUE(getBasisRuns(*l, "lane", "dim2").empty());
}

// A multi-bit basis between two climbing bits splits the run: lane bases
// [1], [6], [4] are a run of one bit, a lone multi-bit bit, a run of one.
TEST(BasisRuns, MultiBitBasisSplitsARun) {
  auto l = LinearLayout::create({{"lane", {{1}, {6}, {4}}}}, {{"dim0", 8}},
                                false);
  ASSERT_TRUE(bool(l));
  std::vector<BasisRun> runs = getBasisRuns(*l, "lane", "dim0");
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].outBit, 0);
  EXPECT_EQ(runs[0].inEnd, 1);
  EXPECT_EQ(runs[1].outBit, -1);
  EXPECT_EQ(runs[1].basis, 6);
  EXPECT_EQ(runs[2].outBit, 2);
  EXPECT_EQ(runs[2].inBegin, 2);
}
