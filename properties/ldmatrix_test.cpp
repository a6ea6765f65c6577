// planLdMatrix against PTX ldmatrix's definition, simulated: for every
// instruction, warp and thread, the elements ldmatrix hands the thread (row
// t / 4, word t % 4 of each matrix: 32 / bits elements; or with .trans, for
// 16-bit elements, rows 2 (t % 4) + j of column t / 4, a row starting at
// the address its lane of the matrix gave) must be the elements the map
// puts in those registers.
#include "LayoutGenerators.h"

#include "tgpu/Layout/LdMatrix.h"

#include <gtest/gtest.h>

#include <rapidcheck/gtest.h>

using namespace tgpu::layout;
using namespace tgpu::props;

namespace {

int32_t offsetAt(const LinearLayout &l,
                 const std::vector<LinearLayout::NamedValue> &in) {
  auto out = l.apply(in);
  if (!out)
    RC_FAIL("apply failed: " + llvm::toString(out.takeError()));
  for (auto &[name, v] : *out)
    if (name == "offset")
      return v;
  RC_FAIL("no offset out dim");
}

void checkPlan(const LinearLayout &toOffset, const LdMatrixPlan &plan,
               int bits) {
  RC_ASSERT(plan.num == 1 || plan.num == 2 || plan.num == 4);
  const int wordElements = 32 / bits, rowElements = 128 / bits;
  RC_ASSERT(plan.wordElements == wordElements);
  RC_ASSERT(!plan.trans || bits == 16);
  int wordBits = wordElements == 4 ? 2 : wordElements == 2 ? 1 : 0;
  int matrixBits = plan.num == 4 ? 2 : plan.num == 2 ? 1 : 0;
  int groups = plan.addresses.getInDimSize("register");
  int warps = toOffset.getInDimSize("warp");
  RC_ASSERT(int64_t(groups) * plan.num * wordElements ==
            toOffset.getInDimSize("register"));
  for (int w = 0; w < warps; ++w)
    for (int g = 0; g < groups; ++g)
      for (int t = 0; t < 32; ++t)
        for (int i = 0; i < plan.num; ++i)
          for (int j = 0; j < wordElements; ++j) {
            int row = plan.trans ? 2 * (t % 4) + j : t / 4;
            int col = plan.trans ? t / 4 : wordElements * (t % 4) + j;
            int32_t rowStart =
                offsetAt(plan.addresses,
                         {{"register", g}, {"lane", 8 * i + row}, {"warp", w}});
            RC_ASSERT(rowStart % rowElements == 0);
            int32_t reg = (g << (wordBits + matrixBits)) | (i << wordBits) | j;
            int32_t want = offsetAt(
                toOffset, {{"register", reg}, {"lane", t}, {"warp", w}});
            RC_ASSERT(rowStart + col == want);
          }
}

// A map of ldmatrix's shape for `bits`-bit elements over an offset of 2^12:
// the bits within a row (a 32-bit word's elements, then lanes 0 and 1), the
// three row bits, up to two matrix bits, then group and warp bits, each a
// random multiple of a 16-byte row (a random XOR swizzle of rows).
rc::Gen<LinearLayout> genLdMatrixShaped(bool trans, int bits) {
  const int wordElements = 32 / bits, rowElements = 128 / bits;
  const int wordBits = wordElements == 4 ? 2 : wordElements == 2 ? 1 : 0;
  return rc::gen::mapcat(
      rc::gen::pair(rc::gen::inRange(wordBits, wordBits + 5),
                    rc::gen::inRange(0, 3)),
      [=](std::pair<int, int> sizes) {
        int regBits = sizes.first, warpBits = sizes.second;
        int rows = 3 + (regBits - wordBits) + warpBits;
        return rc::gen::map(
            rc::gen::container<std::vector<int32_t>>(
                rows, rc::gen::inRange<int32_t>(0, 4096 / rowElements)),
            [=](const std::vector<int32_t> &raw) {
              size_t k = 0;
              auto next = [&] {
                return LinearLayout::Basis{raw[k++] * rowElements};
              };
              std::vector<LinearLayout::Basis> reg, lane, warp;
              if (trans) {
                reg.push_back(next()); // row bit 0
                lane = {next(), next(), {1}, {2}, {4}};
              } else {
                for (int i = 0; i < wordBits; ++i)
                  reg.push_back({1 << i});
                lane = {
                    {wordElements}, {2 * wordElements}, next(), next(), next()};
              }
              for (int i = trans ? 1 : wordBits; i < regBits; ++i)
                reg.push_back(next());
              for (int i = 0; i < warpBits; ++i)
                warp.push_back(next());
              auto l = LinearLayout::create(
                  {{"register", reg}, {"lane", lane}, {"warp", warp}},
                  {{"offset", 4096}}, false);
              if (!l)
                RC_FAIL("bad layout: " + llvm::toString(l.takeError()));
              return std::move(*l);
            });
      });
}

int genElementBits() { return *rc::gen::element(8, 16, 32); }

} // namespace

RC_GTEST_PROP(LdMatrix, PlansEveryLdMatrixShapedMap, ()) {
  int bits = genElementBits();
  bool trans = bits == 16 && *rc::gen::arbitrary<bool>();
  LinearLayout l = *genLdMatrixShaped(trans, bits);
  auto plan = planLdMatrix(l, bits);
  RC_ASSERT(plan.has_value());
  RC_ASSERT(plan->trans == trans);
  checkPlan(l, *plan, bits);
  RC_TAG(bits, plan->num);
}

// One basis moved by a random amount: either no plan, or a correct one.
RC_GTEST_PROP(LdMatrix, PlansOnlyWhatLdMatrixLoads, ()) {
  int bits = genElementBits();
  bool trans = bits == 16 && *rc::gen::arbitrary<bool>();
  LinearLayout l = *genLdMatrixShaped(trans, bits);
  auto bases = l.getBases();
  size_t d = *rc::gen::inRange<size_t>(0, bases.size());
  RC_PRE(!bases[d].second.empty());
  size_t i = *rc::gen::inRange<size_t>(0, bases[d].second.size());
  bases[d].second[i][0] = *rc::gen::inRange<int32_t>(0, 4096);
  auto moved = LinearLayout::create(bases, {{"offset", 4096}}, false);
  RC_ASSERT(bool(moved));
  auto plan = planLdMatrix(*moved, bits);
  RC_TAG(bits, plan.has_value());
  if (plan)
    checkPlan(*moved, *plan, bits);
}

// 8-, 16- and 32-bit elements, each with its own word shape; 32 lanes.
TEST(LdMatrix, RefusesOtherShapes) {
  auto a = LinearLayout::create(
      {{"register", {{1}, {64}}}, {"lane", {{2}, {4}, {8}, {16}, {32}}}},
      {{"offset", 128}}, false);
  ASSERT_TRUE(bool(a));
  auto plan = planLdMatrix(*a, 16);
  ASSERT_TRUE(plan.has_value());
  EXPECT_FALSE(plan->trans);
  EXPECT_EQ(plan->num, 2);
  EXPECT_FALSE(planLdMatrix(*a, 32).has_value());
  EXPECT_FALSE(planLdMatrix(*a, 8).has_value());
  EXPECT_FALSE(planLdMatrix(*a, 64).has_value());
  // f32: a word is one element, lanes 0 and 1 walk the row's four words;
  // registers 0 and 1 pick the other matrices of an .x4.
  auto f32 = LinearLayout::create(
      {{"register", {{32}, {64}}}, {"lane", {{1}, {2}, {4}, {8}, {16}}}},
      {{"offset", 128}}, false);
  ASSERT_TRUE(bool(f32));
  auto f32Plan = planLdMatrix(*f32, 32);
  ASSERT_TRUE(f32Plan.has_value());
  EXPECT_FALSE(f32Plan->trans);
  EXPECT_EQ(f32Plan->num, 4);
  EXPECT_EQ(f32Plan->wordElements, 1);
  EXPECT_FALSE(planLdMatrix(*f32, 16).has_value());
  auto sixteenLanes = LinearLayout::create(
      {{"register", {{1}, {32}}}, {"lane", {{2}, {4}, {8}, {16}}}},
      {{"offset", 64}}, false);
  ASSERT_TRUE(bool(sixteenLanes));
  EXPECT_FALSE(planLdMatrix(*sixteenLanes, 16).has_value());
}
