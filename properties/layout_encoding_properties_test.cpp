// Laws of the encoding -> LinearLayout conversions on random attributes of
// every kind and random shapes: coverage, the closed formulas of blocked and
// swizzled layouts, slices, the #ttg.linear round trip, shared bijectivity,
// and the attribute text fixed point.
#include "EncodingGenerators.h"
#include "LayoutGenerators.h"

#include "TestContext.h"
#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/InitAllDialects.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <rapidcheck/gtest.h>

#include <set>

using namespace tgpu::layout;
using namespace tgpu::props;

namespace {

std::vector<int32_t> image(const LinearLayout &l, uint64_t in) {
  return l.unpackOut(l.applyFlat(in));
}

// Per-dim mixed-radix digits of `v`, the first dim of `order` fastest.
std::vector<int64_t> digits(int64_t v, const std::vector<int64_t> &radix,
                            const std::vector<unsigned> &order) {
  std::vector<int64_t> d(radix.size(), 0);
  for (unsigned dim : order) {
    d[dim] = v % radix[dim];
    v /= radix[dim];
  }
  return d;
}

using tgpu::test::context;

std::string print(mlir::Attribute a) {
  std::string s;
  llvm::raw_string_ostream os(s);
  a.print(os);
  return s;
}

} // namespace

RC_GTEST_PROP(EncodingLaws, DistributedLayoutsCoverEveryElement,
              (const Encoding &e)) {
  unsigned rank = getRank(e);
  std::vector<int64_t> shape = *genShape(rank);
  LinearLayout l = ok(toLinearLayout(shape, e));
  RC_ASSERT(l.getInDimNames() ==
            (std::vector<std::string>{"register", "lane", "warp", "block"}));
  RC_ASSERT(l.getOutDimNames() == standardOutDimNames(rank));
  for (unsigned d = 0; d < rank; ++d)
    RC_ASSERT(l.getOutDimSize("dim" + std::to_string(d)) == shape[d]);
  RC_ASSERT(l.getInDimSize("lane") == 32);
  RC_ASSERT(l.isSurjective());
  // Brute force where it is cheap: every element is owned by someone.
  if (l.getTotalInDimSizeLog2() <= 16) {
    std::set<std::vector<int32_t>> seen;
    for (uint64_t x = 0; x < uint64_t(l.getTotalInDimSize()); ++x)
      seen.insert(image(l, x));
    int64_t elements = 1;
    for (int64_t s : shape)
      elements *= s;
    RC_ASSERT(int64_t(seen.size()) == elements);
  }
}

RC_GTEST_PROP(EncodingLaws, BlockedMatchesItsClosedFormula, ()) {
  unsigned rank = *rc::gen::inRange(1u, 4u);
  BlockedEncoding b = *genBlocked(rank);
  std::vector<int64_t> shape = *genShape(rank);
  LinearLayout l = ok(toLinearLayout(shape, Encoding(b)));
  // Element of (register r, lane, warp): the tile of spt x tpw x wpc repeats
  // over the tensor (repeats numbered after the spt registers, dims in
  // `order`); a tile larger than the tensor wraps (several owners).
  std::vector<int64_t> spt(b.sizePerThread.begin(), b.sizePerThread.end());
  std::vector<int64_t> tpw(b.threadsPerWarp.begin(), b.threadsPerWarp.end());
  std::vector<int64_t> wpc(b.warpsPerCTA.begin(), b.warpsPerCTA.end());
  std::vector<int64_t> reps(rank);
  int64_t sptTotal = 1;
  for (unsigned d = 0; d < rank; ++d) {
    reps[d] = std::max<int64_t>(1, shape[d] / (spt[d] * tpw[d] * wpc[d]));
    sptTotal *= spt[d];
  }
  RC_ASSERT(int64_t(l.getInDimSize("register")) ==
            sptTotal * [&] {
              int64_t r = 1;
              for (int64_t x : reps)
                r *= x;
              return r;
            }());
  for (int64_t r = 0; r < l.getInDimSize("register"); ++r)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t w = 0; w < l.getInDimSize("warp"); ++w) {
        std::vector<int64_t> inner = digits(r % sptTotal, spt, b.order);
        std::vector<int64_t> rep = digits(r / sptTotal, reps, b.order);
        std::vector<int64_t> ln = digits(lane, tpw, b.order);
        std::vector<int64_t> wp = digits(w, wpc, b.order);
        std::vector<int32_t> expect(rank);
        for (unsigned d = 0; d < rank; ++d)
          expect[d] = int32_t((rep[d] * spt[d] * tpw[d] * wpc[d] +
                               wp[d] * spt[d] * tpw[d] + ln[d] * spt[d] +
                               inner[d]) %
                              shape[d]);
        auto got = ok(l.apply({{"register", int32_t(r)},
                               {"lane", int32_t(lane)},
                               {"warp", int32_t(w)},
                               {"block", 0}}));
        for (unsigned d = 0; d < rank; ++d)
          RC_ASSERT(got[d].second == expect[d]);
      }
}

RC_GTEST_PROP(EncodingLaws, SwizzledSharedMatchesItsClosedFormula, ()) {
  SwizzledSharedEncoding s = *genSwizzled(2);
  std::vector<int64_t> shape = *genShape(2, 0, 6);
  LinearLayout l = ok(toLinearLayout(shape, Encoding(s)));
  RC_ASSERT(l.isInvertible());
  // docs/ARCHITECTURE.md ("Shared layouts"): element (i, j) (i along the slow
  // dim order[1], j along the fast dim order[0]) is stored in row i at column
  // (j % vec) + ((j / vec) ^ ((i / perPhase) % maxPhase)) * vec, the
  // swizzled part wrapping inside a row narrower than the pattern.
  unsigned col = s.order[0], row = s.order[1];
  int64_t rows = shape[row], cols = shape[col];
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      int64_t phase = (i / s.perPhase) % s.maxPhase;
      int64_t c = j % s.vec + (((j / s.vec) ^ phase) * s.vec) % cols;
      int64_t offset = i * cols + c;
      std::vector<int32_t> got = image(l, uint64_t(offset));
      RC_ASSERT(got[row] == i);
      RC_ASSERT(got[col] == j);
    }
}

RC_GTEST_PROP(EncodingLaws, SharedLayoutsAreBijections, ()) {
  unsigned rank = *rc::gen::inRange(1u, 4u);
  if (*rc::gen::arbitrary<bool>() || rank < 2) {
    SwizzledSharedEncoding s = *genSwizzled(rank);
    std::vector<int64_t> shape = *genShape(rank, 0, 6);
    LinearLayout l = ok(toLinearLayout(shape, Encoding(s)));
    RC_ASSERT(l.getInDimNames() == (std::vector<std::string>{"offset", "block"}));
    RC_ASSERT(l.isInvertible());
  } else {
    auto [n, shape] = *genNVMMAWithShape(rank);
    LinearLayout l = ok(toLinearLayout(shape, Encoding(n)));
    for (unsigned d = 0; d < rank; ++d)
      RC_ASSERT(l.getOutDimSize("dim" + std::to_string(d)) == shape[d]);
    // Every element has exactly one place.
    RC_ASSERT(l.isInvertible());
  }
}

RC_GTEST_PROP(EncodingLaws, SliceIsTheParentWithTheDimRemoved,
              (const SliceEncoding &slice)) {
  unsigned dim = slice.dim;
  const Encoding &parent = *slice.parent;
  unsigned rank = getRank(parent) - 1;
  std::vector<int64_t> shape = *genShape(rank);
  LinearLayout s = ok(toLinearLayout(
      shape, Encoding(SliceEncoding{dim, std::make_shared<Encoding>(parent)})));
  std::vector<int64_t> pshape = shape;
  pshape.insert(pshape.begin() + dim, 1);
  LinearLayout p = ok(toLinearLayout(pshape, parent));
  // Same non-register bases with component `dim` dropped; the registers are
  // the parent's non-zero ones, in order.
  for (auto &[name, bases] : p.getBases()) {
    std::vector<LinearLayout::Basis> expect;
    for (auto b : bases) {
      b.erase(b.begin() + dim);
      if (name == "register" &&
          std::all_of(b.begin(), b.end(), [](int32_t v) { return v == 0; }))
        continue;
      expect.push_back(b);
    }
    RC_ASSERT(int(expect.size()) == s.getInDimSizeLog2(name));
    for (size_t i = 0; i < expect.size(); ++i)
      RC_ASSERT(s.getBasis(name, i) == expect[i]);
  }
}

// tt.split's result layout, checked element by element: every input of the
// source layout with the half-selecting register bit clear lands on half 0
// where the result layout puts it, the same input with the bit set on half 1
// of the same element; and when the split is refused, some input bit other
// than one lone register bit moves along the last dimension.
RC_GTEST_PROP(EncodingLaws, SplitKeepsEachHalfInPlace, ()) {
  unsigned rank = *rc::gen::inRange(2u, 4u);
  Encoding e = *genDistributed(rank);
  std::vector<int64_t> shape = *genShape(rank - 1);
  shape.push_back(2);
  LinearLayout src = ok(toLinearLayout(shape, e));
  int total = src.getTotalInDimSizeLog2();
  // The input bits (flattened) whose image moves along the last dimension.
  std::vector<int> movers;
  for (int bit = 0; bit < total; ++bit)
    if (src.unpackOut(src.applyFlat(uint64_t(1) << bit)).back() != 0)
      movers.push_back(bit);
  llvm::Expected<LinearLayout> halves = splitLastDimLayout(src);
  int registers = src.getInDimSizeLog2("register");
  RC_TAG(halves ? "split" : "refused");
  if (!halves) {
    llvm::consumeError(halves.takeError());
    // A lone register bit that moves only along the last dim would split.
    bool splittable = movers.size() == 1 && movers[0] < registers && [&] {
      std::vector<int32_t> c =
          src.unpackOut(src.applyFlat(uint64_t(1) << movers[0]));
      return std::all_of(c.begin(), c.end() - 1,
                         [](int32_t v) { return v == 0; });
    }();
    RC_ASSERT(!splittable);
    return;
  }
  RC_ASSERT(movers.size() == 1u);
  int half = movers[0];
  RC_ASSERT(half < registers);
  RC_ASSERT(halves->getTotalInDimSizeLog2() == total - 1);
  uint64_t count = uint64_t(1) << (total - 1);
  uint64_t step = std::max<uint64_t>(1, count / 4096);
  for (uint64_t x = 0; x < count; x += step) {
    // Insert a 0 (then a 1) at bit `half` of the result's flattened input.
    uint64_t low = x & ((uint64_t(1) << half) - 1), high = (x >> half)
                                                           << (half + 1);
    std::vector<int32_t> want = halves->unpackOut(halves->applyFlat(x));
    for (uint64_t h = 0; h < 2; ++h) {
      std::vector<int32_t> got =
          src.unpackOut(src.applyFlat(high | (h << half) | low));
      RC_ASSERT(got.back() == int32_t(h));
      got.pop_back();
      RC_ASSERT(got == want);
    }
  }
}

// tt.reshape's result layout, checked element by element: every input
// (register, lane, warp) names the same row-major element position in the
// source shape under the source layout as in the result shape under the
// reshaped layout.
RC_GTEST_PROP(EncodingLaws, ReshapeKeepsEveryElementInPlace, ()) {
  unsigned rank = *rc::gen::inRange(1u, 4u);
  Encoding e = *genDistributed(rank);
  std::vector<int64_t> shape = *genShape(rank);
  LinearLayout src = ok(toLinearLayout(shape, e));
  // Another split of the same element count, of rank 1 to 4.
  int64_t total = 1;
  for (int64_t d : shape)
    total *= d;
  unsigned newRank = *rc::gen::inRange(1u, 5u);
  std::vector<int64_t> to(newRank, 1);
  for (int64_t n = total; n > 1; n /= 2)
    to[*rc::gen::inRange(0u, newRank)] *= 2;
  LinearLayout dst = ok(reshapeLayout(src, to));
  auto flat = [](const std::vector<int32_t> &c,
                 const std::vector<int64_t> &dims) {
    int64_t i = 0;
    for (size_t d = 0; d < dims.size(); ++d)
      i = i * dims[d] + c[d];
    return i;
  };
  RC_ASSERT(dst.getTotalInDimSizeLog2() == src.getTotalInDimSizeLog2());
  uint64_t count = uint64_t(1) << src.getTotalInDimSizeLog2();
  uint64_t step = std::max<uint64_t>(1, count / 4096);
  for (uint64_t x = 0; x < count; x += step)
    RC_ASSERT(flat(src.unpackOut(src.applyFlat(x)), shape) ==
              flat(dst.unpackOut(dst.applyFlat(x)), to));
  // A different element count is refused.
  to[0] *= 2;
  llvm::Expected<LinearLayout> bad = reshapeLayout(src, to);
  RC_ASSERT(!bad);
  llvm::consumeError(bad.takeError());
}

// Whatever blockedEncodingOf returns gives back the layout it was asked
// about; for the layout of a blocked encoding (one CTA) on a tensor that
// covers its tile (no zero basis) it always finds one. A layout of another
// family (an mma, a slice, a linear) is recognised the same way or refused.
RC_GTEST_PROP(EncodingLaws, BlockedEncodingOfRecoversBlocked, ()) {
  unsigned rank = *rc::gen::inRange(1u, 4u);
  bool blocked = *rc::gen::arbitrary<bool>();
  Encoding e = blocked ? Encoding(*genBlocked(rank)) : *genDistributed(rank);
  std::vector<int64_t> shape = *genShape(rank);
  // Half the blocked cases on a tensor of whole tiles (every basis used).
  if (blocked && *rc::gen::arbitrary<bool>()) {
    const auto &b = std::get<BlockedEncoding>(e);
    for (unsigned d = 0; d < rank; ++d)
      shape[d] =
          int64_t(b.sizePerThread[d]) * b.threadsPerWarp[d] * b.warpsPerCTA[d]
          << *rc::gen::inRange(0, 2);
  }
  LinearLayout l = ok(toLinearLayout(shape, e));
  bool zeroBasis = false;
  for (const auto &[in, bases] : l.getBases())
    for (const LinearLayout::Basis &b : bases)
      zeroBasis |=
          std::all_of(b.begin(), b.end(), [](int32_t c) { return c == 0; });
  std::optional<BlockedEncoding> found = blockedEncodingOf(l, shape);
  RC_TAG(blocked ? "blocked" : "any", zeroBasis ? "zeros" : "covering",
         found ? "found" : "none");
  if (blocked && !zeroBasis)
    RC_ASSERT(found.has_value());
  if (found)
    RC_ASSERT(ok(toLinearLayout(shape, Encoding(*found))) == l);
}

RC_GTEST_PROP(EncodingLaws, LinearEncodingRoundTrips, ()) {
  unsigned rank = *rc::gen::inRange(1u, 4u);
  Encoding e = *genDistributed(rank);
  std::vector<int64_t> shape = *genShape(rank);
  LinearLayout l = ok(toLinearLayout(shape, e));
  RC_ASSERT(ok(toLinearLayout(shape, Encoding(LinearEncoding{l}))) == l);
  // And through the #ttg.linear attribute and its text.
  mlir::MLIRContext &ctx = context();
  auto attr = ok(toLinearEncodingAttr(&ctx, l));
  mlir::Attribute reparsed = mlir::parseAttribute(print(attr), &ctx);
  RC_ASSERT(bool(reparsed));
  RC_ASSERT(ok(toLinearLayout(shape, reparsed)) == l);
}

RC_GTEST_PROP(EncodingLaws, AttributeTextIsAFixedPoint, ()) {
  unsigned rank = *rc::gen::inRange(1u, 4u);
  Encoding e;
  switch (*rc::gen::inRange(0, 3)) {
  case 0:
    e = *genDistributed(rank);
    break;
  case 1:
    e = *genSwizzled(rank);
    break;
  default:
    e = (*genNVMMAWithShape(std::max(rank, 2u))).first;
    break;
  }
  mlir::MLIRContext &ctx = context();
  std::string diags;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    diags += d.str() + "\n";
    return mlir::success();
  });
  std::string text = describe(e);
  mlir::Attribute a = mlir::parseAttribute(text, &ctx);
  if (!a)
    RC_FAIL("does not parse: " + text + "\n" + diags);
  std::string once = print(a);
  mlir::Attribute b = mlir::parseAttribute(once, &ctx);
  RC_ASSERT(bool(b));
  RC_ASSERT(print(b) == once);
  RC_ASSERT(a == b);
  // The attribute converts to the same layout as the plain value.
  std::vector<int64_t> shape = *genShape(getRank(e), 3, 8);
  auto direct = toLinearLayout(shape, e);
  auto viaAttr = toLinearLayout(shape, a);
  RC_ASSERT(bool(direct) == bool(viaAttr));
  if (direct)
    RC_ASSERT(*direct == *viaAttr);
  else {
    llvm::consumeError(direct.takeError());
    llvm::consumeError(viaAttr.takeError());
  }
}

// Arbitrary (mostly malformed) parameters: every conversion either returns
// an error or a layout that covers the shape; none may crash or assert.
RC_GTEST_PROP(EncodingLaws, MalformedEncodingsAreErrorsNotCrashes, ()) {
  auto smallVec = [](int maxLen) {
    return rc::gen::container<std::vector<unsigned>>(
        *rc::gen::inRange(0, maxLen + 1),
        rc::gen::oneOf(rc::gen::inRange(0u, 9u), genPow2(0, 6),
                       rc::gen::just(0xffffffffu)));
  };
  auto anyCGA = [&] {
    CGALayout c;
    int n = *rc::gen::inRange(0, 3);
    for (int i = 0; i < n; ++i) {
      std::vector<int32_t> b;
      for (unsigned x : *smallVec(4))
        b.push_back(int32_t(x));
      c.blockBases.push_back(b);
    }
    return c;
  };
  Encoding e;
  switch (*rc::gen::inRange(0, 7)) {
  case 0:
    e = BlockedEncoding{*smallVec(4), *smallVec(4), *smallVec(4), *smallVec(4), anyCGA()};
    break;
  case 1:
    e = NvidiaMmaEncoding{*rc::gen::inRange(0u, 5u), *rc::gen::inRange(0u, 2u),
                          *smallVec(4), *smallVec(4), anyCGA()};
    break;
  case 2:
    e = DotOperandEncoding{
        *rc::gen::inRange(0u, 3u),
        std::make_shared<Encoding>(NvidiaMmaEncoding{
            *rc::gen::inRange(1u, 4u), 0, *smallVec(3), *smallVec(3), {}}),
        *rc::gen::inRange(0u, 17u)};
    break;
  case 3:
    e = SliceEncoding{*rc::gen::inRange(0u, 5u),
                      std::make_shared<Encoding>(BlockedEncoding{
                          *smallVec(3), *smallVec(3), *smallVec(3), *smallVec(3), {}})};
    break;
  case 4:
    e = SwizzledSharedEncoding{*rc::gen::inRange(0u, 20u), *rc::gen::inRange(0u, 20u),
                               *rc::gen::inRange(0u, 20u), *smallVec(4), anyCGA()};
    break;
  case 5:
    e = NVMMASharedEncoding{*rc::gen::element(0u, 16u, 32u, 64u, 128u, 256u),
                            *rc::gen::arbitrary<bool>(),
                            *rc::gen::element(0u, 1u, 4u, 8u, 16u, 32u, 64u, 24u),
                            *rc::gen::arbitrary<bool>(), *rc::gen::inRange(0u, 5u),
                            anyCGA()};
    break;
  default:
    e = DotOperandEncoding{*rc::gen::inRange(0u, 3u), nullptr, 0};
    break;
  }
  std::vector<int64_t> shape = *rc::gen::container<std::vector<int64_t>>(
      *rc::gen::inRange(0, 5),
      rc::gen::oneOf(rc::gen::inRange<int64_t>(-2, 9),
                     rc::gen::map(rc::gen::inRange(0, 12),
                                  [](int s) { return int64_t(1) << s; })));
  auto l = toLinearLayout(shape, e);
  if (!l) {
    llvm::consumeError(l.takeError());
    return;
  }
  RC_ASSERT(l->getNumOutDims() == int(shape.size()));
  for (size_t d = 0; d < shape.size(); ++d)
    RC_ASSERT(l->getOutDimSize("dim" + std::to_string(d)) == shape[d]);
}
