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

// getAlignedRegisterRun, brute force: for every value of every input dim
// with the register a multiple of the run k, registers r .. r + k - 1 must
// hold elements that agree in every out dim but `d`, and run from a
// multiple of k up by one in `d`.
namespace {

void checkAlignedRun(const LinearLayout &l, int d) {
  int64_t k = getAlignedRegisterRun(l, d);
  RC_ASSERT(k >= 1);
  RC_ASSERT((k & (k - 1)) == 0);
  RC_ASSERT(k <= l.getInDimSize("register"));
  int total = l.getTotalInDimSizeLog2();
  RC_PRE(total <= 14);
  int reg = l.findIn("register");
  for (uint64_t flat = 0; flat < (uint64_t(1) << total); ++flat) {
    std::vector<int32_t> ins = l.unpackIn(flat);
    if (reg < 0 || ins[reg] % k != 0)
      continue;
    std::vector<int32_t> first = l.unpackOut(l.applyFlat(flat));
    RC_ASSERT(first[d] % k == 0);
    for (int64_t i = 1; i < k; ++i) {
      std::vector<int32_t> at = ins;
      at[reg] += int32_t(i);
      std::vector<int32_t> out = l.unpackOut(l.applyFlat(l.packIn(at)));
      for (int o = 0; o < l.getNumOutDims(); ++o)
        RC_ASSERT(out[o] == (o == d ? first[o] + int32_t(i) : first[o]));
    }
  }
}

// Register bases that climb 1, 2, 4, ... along one out dim for a drawn
// number of bits, then a random layout's bases; with `clean`, the other
// bases keep that dim's low bits clear, so the run is at least the climb.
rc::Gen<std::pair<LinearLayout, std::pair<int, int>>> genClimbingRegisters() {
  return rc::gen::mapcat(
      rc::gen::tuple(genSmallLayout(4, /*keepOrder=*/true),
                     rc::gen::inRange(0, 4), rc::gen::arbitrary<bool>()),
      [](const std::tuple<LinearLayout, int, bool> &t) {
        const LinearLayout &base = std::get<0>(t);
        int climbWanted = std::get<1>(t);
        bool clean = std::get<2>(t);
        auto outs = base.getOutDims();
        if (outs.empty())
          return rc::gen::just(std::make_pair(base, std::make_pair(0, 0)));
        return rc::gen::map(
            rc::gen::inRange<int>(0, int(outs.size())), [=](int d) {
              int dimBits = __builtin_ctz(uint32_t(outs[d].second));
              int climb = std::min(climbWanted, dimBits);
              std::vector<LinearLayout::DimBases> bases;
              bool sawRegister = false;
              for (auto dimBases : base.getBases()) {
                const std::string &name = dimBases.first;
                std::vector<LinearLayout::Basis> &bs = dimBases.second;
                if (clean)
                  for (auto &b : bs)
                    b[d] &= ~((int32_t(1) << climb) - 1);
                if (name == "register") {
                  sawRegister = true;
                  std::vector<LinearLayout::Basis> climbing;
                  for (int i = 0; i < climb; ++i) {
                    LinearLayout::Basis b(outs.size(), 0);
                    b[d] = int32_t(1) << i;
                    climbing.push_back(b);
                  }
                  bs.insert(bs.begin(), climbing.begin(), climbing.end());
                }
                bases.push_back({name, bs});
              }
              if (!sawRegister) {
                std::vector<LinearLayout::Basis> climbing;
                for (int i = 0; i < climb; ++i) {
                  LinearLayout::Basis b(outs.size(), 0);
                  b[d] = int32_t(1) << i;
                  climbing.push_back(b);
                }
                bases.insert(bases.begin(), {"register", climbing});
              }
              auto l = LinearLayout::create(bases, outs, false);
              if (!l)
                RC_FAIL("generator built a bad layout: " +
                        llvm::toString(l.takeError()));
              return std::make_pair(std::move(*l),
                                    std::make_pair(d, clean ? climb : 0));
            });
      });
}

} // namespace

RC_GTEST_PROP(AlignedRegisterRun, IsSoundOnRandomLayouts,
              (const LinearLayout &l)) {
  for (int d = 0; d < l.getNumOutDims(); ++d)
    checkAlignedRun(l, d);
}

RC_GTEST_PROP(AlignedRegisterRun, FindsClimbingRegisters, ()) {
  auto [l, expect] = *genClimbingRegisters();
  if (l.getNumOutDims() == 0) {
    RC_ASSERT(getAlignedRegisterRun(l, 0) == 1);
    return;
  }
  auto [d, climb] = expect;
  checkAlignedRun(l, d);
  RC_ASSERT(getAlignedRegisterRun(l, d) >= (int64_t(1) << climb));
  RC_TAG(climb);
}

// A blocked layout's f16 x 8 per thread (register bases 1, 2, 4 along dim1)
// into a buffer swizzled in pairs (lane 1 at offset 8 ^ 2): the run stops
// at 2 in the shared view; with the lane at 8 alone it is the whole 8.
TEST(AlignedRegisterRun, SwizzleShortensTheRun) {
  auto swizzled =
      LinearLayout::create({{"register", {{1}, {2}, {4}}}, {"lane", {{10}}}},
                           {{"offset", 16}}, false);
  ASSERT_TRUE(bool(swizzled));
  EXPECT_EQ(getAlignedRegisterRun(*swizzled, 0), 2);
  auto plain =
      LinearLayout::create({{"register", {{1}, {2}, {4}}}, {"lane", {{8}}}},
                           {{"offset", 16}}, false);
  ASSERT_TRUE(bool(plain));
  EXPECT_EQ(getAlignedRegisterRun(*plain, 0), 8);
  // No register dim, or an out dim out of range: 1.
  EXPECT_EQ(getAlignedRegisterRun(*plain, 1), 1);
  auto lanesOnly =
      LinearLayout::create({{"lane", {{1}}}}, {{"offset", 2}}, false);
  ASSERT_TRUE(bool(lanesOnly));
  EXPECT_EQ(getAlignedRegisterRun(*lanesOnly, 0), 1);
}
