// RapidCheck generators (rc::Arbitrary) for layout encodings, and for tensor
// shapes that suit them.
//
// The encodings come from the layout generator the fuzzers use
// (fuzz/layoutgen/LayoutSpecs.h) driven by RapidCheck's choices: each
// decision of a draw is an `rc::gen::inRange` inside `rc::gen::exec`, so a
// failing property shrinks its layout decision by decision, toward the first
// choice of each (blocked before the other kinds, fewer warps, no CGA, ...).
#ifndef TGPU_PROPERTIES_ENCODINGGENERATORS_H
#define TGPU_PROPERTIES_ENCODINGGENERATORS_H

#include "fuzz/layoutgen/LayoutSpecs.h"

#include "tgpu/Layout/Encodings.h"

#include <rapidcheck.h>

#include <ostream>

namespace tgpu::layout {
inline void showValue(const Encoding &e, std::ostream &os) { os << describe(e); }
inline void showValue(const BlockedEncoding &e, std::ostream &os) {
  os << describe(Encoding(e));
}
inline void showValue(const NvidiaMmaEncoding &e, std::ostream &os) {
  os << describe(Encoding(e));
}
inline void showValue(const SwizzledSharedEncoding &e, std::ostream &os) {
  os << describe(Encoding(e));
}
inline void showValue(const NVMMASharedEncoding &e, std::ostream &os) {
  os << describe(Encoding(e));
}
inline void showValue(const SliceEncoding &e, std::ostream &os) {
  os << describe(Encoding(e));
}
inline void showValue(const DotOperandEncoding &e, std::ostream &os) {
  os << describe(Encoding(e));
}
} // namespace tgpu::layout

namespace tgpu::props {

using namespace tgpu::layout;
namespace draw = tgpu::gen::draw;

// RapidCheck as the layout generator's source of choices. Only valid while
// a generator runs (inside rc::gen::exec or a property). Each choice is
// uniform over its range whatever the test's size, like a pick of
// rc::gen::element and like the fuzzer's bytes, so the generator's weights
// hold (a size-scaled inRange would answer 0, the first option, to every
// choice of the small sizes); unlike rc::gen::element it shrinks, toward
// the first option. The test's size still steers the shapes (genShape).
class RapidCheckChoices final : public gen::ChoiceSource {
public:
  uint64_t below(uint64_t n) override {
    if (n <= 1)
      return 0;
    return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<uint64_t>(0, n));
  }
};

// The encoding of a drawn description; a description that does not make
// one fails the property (a generator bug).
inline Encoding encodingOf(llvm::Expected<gen::LayoutSpec> spec) {
  if (!spec) {
    std::string msg = llvm::toString(spec.takeError());
    RC_FAIL("generator: " + msg);
  }
  llvm::Expected<Encoding> e = gen::toEncoding(*spec);
  if (!e) {
    std::string msg = llvm::toString(e.takeError());
    RC_FAIL("generator: " + msg);
  }
  return std::move(*e);
}

// 2^[lo, hi].
inline rc::Gen<unsigned> genPow2(int lo, int hi) {
  return rc::gen::map(rc::gen::inRange(lo, hi + 1),
                      [](int e) { return 1u << e; });
}

inline rc::Gen<std::vector<int64_t>> genShape(unsigned rank, int lo = 0,
                                              int hi = 7) {
  return rc::gen::container<std::vector<int64_t>>(
      rank, rc::gen::map(rc::gen::inRange(lo, hi + 1),
                         [](int e) { return int64_t(1) << e; }));
}

// The warps of a layout: 1..16 (wgmma takes 4, 8 or 16).
inline unsigned drawNumWarps(gen::ChoiceSource &c) { return 1u << c.below(5); }
inline rc::Gen<unsigned> genNumWarps() {
  return rc::gen::exec([] {
    RapidCheckChoices c;
    return drawNumWarps(c);
  });
}

// Blocked, one CTA.
inline rc::Gen<BlockedEncoding> genBlocked(unsigned rank) {
  return rc::gen::exec([=] {
    RapidCheckChoices c;
    unsigned numWarps = drawNumWarps(c);
    return std::get<BlockedEncoding>(
        encodingOf(draw::blocked(c, rank, numWarps)));
  });
}

inline rc::Gen<SwizzledSharedEncoding> genSwizzled(unsigned rank) {
  return rc::gen::exec([=] {
    RapidCheckChoices c;
    return std::get<SwizzledSharedEncoding>(
        encodingOf(draw::swizzledShared(c, rank)));
  });
}

// An nvmma_shared layout (any swizzle, transposed or not) with a shape it
// fits: drawn for the largest TMA box (256 per dim), so that every swizzle
// stays, then a random shape of up to 256 per dim grows until it holds the
// swizzle (the contiguous dim one swizzle row, then the rows the 8-row atom).
inline rc::Gen<std::pair<NVMMASharedEncoding, std::vector<int64_t>>>
genNVMMAWithShape(unsigned rank) {
  return rc::gen::exec([=] {
    RapidCheckChoices c;
    gen::LayoutSpec s = draw::nvmmaShared(c, std::vector<int64_t>(rank, 256),
                                          /*transposedSwizzles=*/true);
    std::vector<int64_t> shape = *genShape(rank, 0, 8);
    unsigned contiguous = s.transposed ? 0 : rank - 1;
    unsigned rows = s.transposed ? rank - 1 : 0;
    while (s.swizzle && !draw::nvmmaSwizzleFits(shape, s))
      shape[shape[contiguous] < 8 * s.swizzle / s.bits ? contiguous : rows] *=
          2;
    return std::make_pair(std::get<NVMMASharedEncoding>(encodingOf(s)), shape);
  });
}

// Any distributed encoding of `rank` (draw::anyDistributed: blocked, mma,
// dot_op, slice, linear) for `numWarps` warps and up to `maxCTAs` CTAs.
inline rc::Gen<Encoding> genDistributed(unsigned rank, unsigned numWarps,
                                        unsigned maxCTAs) {
  return rc::gen::exec([=] {
    RapidCheckChoices c;
    return encodingOf(draw::anyDistributed(c, rank, numWarps, maxCTAs));
  });
}
// The same for 1..16 warps and up to 4 CTAs.
inline rc::Gen<Encoding> genDistributed(unsigned rank) {
  return rc::gen::exec([=] {
    RapidCheckChoices c;
    unsigned numWarps = drawNumWarps(c);
    return encodingOf(draw::anyDistributed(c, rank, numWarps));
  });
}

} // namespace tgpu::props

// Arbitrary instances: rank 1..3 where the kind allows it.
namespace rc {
// Any distributed encoding (blocked, mma, dot_op, slice, linear) of rank
// 1..3, nested up to two levels.
template <> struct Arbitrary<tgpu::layout::Encoding> {
  static Gen<tgpu::layout::Encoding> arbitrary() {
    return gen::mapcat(gen::inRange(1u, 4u), [](unsigned r) {
      return tgpu::props::genDistributed(r);
    });
  }
};
// A slice of rank 1..2 (its parent of rank 2..3 one level deep).
template <> struct Arbitrary<tgpu::layout::SliceEncoding> {
  static Gen<tgpu::layout::SliceEncoding> arbitrary() {
    return gen::exec([] {
      tgpu::props::RapidCheckChoices c;
      unsigned rank = 1 + c.below(2);
      unsigned numWarps = tgpu::props::drawNumWarps(c);
      return std::get<tgpu::layout::SliceEncoding>(tgpu::props::encodingOf(
          tgpu::props::draw::anySlice(c, rank, numWarps)));
    });
  }
};
} // namespace rc

#endif
