// RapidCheck generators for linear layouts, shared by the property suites.
#ifndef TGPU_PROPERTIES_LAYOUTGENERATORS_H
#define TGPU_PROPERTIES_LAYOUTGENERATORS_H

#include "tgpu/Layout/LinearLayout.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <ostream>

namespace tgpu::layout {
// RapidCheck prints counterexamples through this (found by ADL).
inline void showValue(const LinearLayout &l, std::ostream &os) {
  os << "\n" << l.toString() << "\n";
}
} // namespace tgpu::layout

namespace tgpu::props {

using layout::LinearLayout;
using NamedSize = LinearLayout::NamedSize;

// Unwraps a result the test expects to succeed; a failure fails the property
// with the error's text.
template <typename T> T ok(llvm::Expected<T> v) {
  if (!v) {
    std::string msg = llvm::toString(v.takeError());
    RC_FAIL("unexpected error: " + msg);
  }
  return std::move(*v);
}

// Unwraps a result outside a property (gtest examples).
template <typename T> T ok2(llvm::Expected<T> v) {
  if (!v) {
    ADD_FAILURE() << llvm::toString(v.takeError());
    return T();
  }
  return std::move(*v);
}

// Dims with random names drawn (without repetition) from `pool`, in random
// order, each of size 2^[0, maxLog2].
// With `keepOrder`, the dims come in pool order (products need the dims two
// layouts share in the same relative order).
inline rc::Gen<std::vector<NamedSize>>
genDims(std::vector<std::string> pool, int minCount, int maxCount,
        int maxLog2, bool keepOrder = false) {
  return rc::gen::mapcat(
      rc::gen::inRange(minCount, maxCount + 1), [=](int count) {
        return rc::gen::map(
            rc::gen::pair(rc::gen::container<std::vector<int>>(
                              count, rc::gen::inRange(0, maxLog2 + 1)),
                          rc::gen::container<std::vector<int>>(
                              pool.size(), rc::gen::arbitrary<int>())),
            [=](const std::pair<std::vector<int>, std::vector<int>> &p) {
              // A random permutation of the pool from the random keys.
              std::vector<int> idx(pool.size());
              for (size_t i = 0; i < idx.size(); ++i)
                idx[i] = i;
              std::sort(idx.begin(), idx.end(), [&](int a, int b) {
                return p.second[a] != p.second[b] ? p.second[a] < p.second[b]
                                                  : a < b;
              });
              std::vector<int> chosen(idx.begin(), idx.begin() + count);
              if (keepOrder)
                std::sort(chosen.begin(), chosen.end());
              std::vector<NamedSize> dims;
              for (int i = 0; i < count; ++i)
                dims.push_back({pool[chosen[i]], int32_t(1) << p.first[i]});
              return dims;
            });
      });
}

// A layout with exactly these dims and random bases (not necessarily
// surjective).
inline rc::Gen<LinearLayout> genLayoutWithDims(std::vector<NamedSize> ins,
                                               std::vector<NamedSize> outs) {
  int inBits = 0;
  for (auto &d : ins)
    inBits += layout::log2IfPowerOf2(d.second);
  // One random word per input bit, each coordinate reduced into its dim.
  return rc::gen::map(
      rc::gen::container<std::vector<std::vector<uint32_t>>>(
          inBits, rc::gen::container<std::vector<uint32_t>>(
                      outs.size(), rc::gen::arbitrary<uint32_t>())),
      [=](const std::vector<std::vector<uint32_t>> &raw) {
        std::vector<LinearLayout::DimBases> bases;
        size_t next = 0;
        for (auto &d : ins) {
          std::vector<LinearLayout::Basis> bs;
          for (int i = 0; i < layout::log2IfPowerOf2(d.second); ++i, ++next) {
            LinearLayout::Basis b;
            for (size_t k = 0; k < outs.size(); ++k)
              b.push_back(int32_t(raw[next][k] % uint32_t(outs[k].second)));
            bs.push_back(b);
          }
          bases.push_back({d.first, bs});
        }
        auto l = LinearLayout::create(bases, outs, false);
        if (!l) {
          std::string msg = llvm::toString(l.takeError());
          RC_FAIL("generator built a bad layout: " + msg);
        }
        return std::move(*l);
      });
}

inline const std::vector<std::string> &inPool() {
  static std::vector<std::string> p{"register", "lane", "warp", "block"};
  return p;
}
inline const std::vector<std::string> &outPool() {
  static std::vector<std::string> p{"dim0", "dim1", "dim2"};
  return p;
}

// A random small layout: up to 4 in dims and 3 out dims, each up to 2^4.
inline rc::Gen<LinearLayout> genSmallLayout(int maxLog2 = 4,
                                            bool keepOrder = false) {
  return rc::gen::mapcat(
      rc::gen::pair(genDims(inPool(), 0, 4, maxLog2, keepOrder),
                    genDims(outPool(), 0, 3, maxLog2, keepOrder)),
      [](const std::pair<std::vector<NamedSize>, std::vector<NamedSize>> &d) {
        return genLayoutWithDims(d.first, d.second);
      });
}

// A random layout whose image is everything: bases of random words plus a
// random selection that spans the output.
inline rc::Gen<LinearLayout> genSurjectiveLayout(int maxLog2 = 4) {
  return rc::gen::suchThat(genSmallLayout(maxLog2), [](const LinearLayout &l) {
    return l.isSurjective();
  });
}

// An invertible layout: the out dims split the ins' bits at random points.
inline rc::Gen<LinearLayout> genInvertibleLayout(int maxLog2 = 3) {
  return rc::gen::mapcat(
      rc::gen::pair(genDims(inPool(), 1, 3, maxLog2),
                    rc::gen::pair(rc::gen::inRange(1, 4),
                                  rc::gen::container<std::vector<int>>(
                                      2, rc::gen::inRange(0, 64)))),
      [](const std::pair<std::vector<NamedSize>,
                         std::pair<int, std::vector<int>>> &d) {
        int bits = 0;
        for (auto &x : d.first)
          bits += layout::log2IfPowerOf2(x.second);
        int count = d.second.first;
        std::vector<int> cuts{0, bits};
        for (int c = 0; c + 1 < count; ++c)
          cuts.push_back(d.second.second[c] % (bits + 1));
        std::sort(cuts.begin(), cuts.end());
        std::vector<NamedSize> outs;
        for (int k = 0; k < count; ++k)
          outs.push_back({outPool()[k], int32_t(1) << (cuts[k + 1] - cuts[k])});
        return rc::gen::suchThat(genLayoutWithDims(d.first, outs),
                                 [](const LinearLayout &l) {
                                   return l.isInvertible();
                                 });
      });
}

} // namespace tgpu::props

namespace rc {
// A random small layout (up to 4 in dims and 3 out dims of up to 2^4).
template <> struct Arbitrary<tgpu::layout::LinearLayout> {
  static Gen<tgpu::layout::LinearLayout> arbitrary() {
    return tgpu::props::genSmallLayout();
  }
};
} // namespace rc

#endif
