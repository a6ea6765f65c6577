// RapidCheck generators (rc::Arbitrary) for every layout encoding kind, and
// for tensor shapes that suit them.
#ifndef TGPU_PROPERTIES_ENCODINGGENERATORS_H
#define TGPU_PROPERTIES_ENCODINGGENERATORS_H

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

// 2^[lo, hi].
inline rc::Gen<unsigned> genPow2(int lo, int hi) {
  return rc::gen::map(rc::gen::inRange(lo, hi + 1),
                      [](int e) { return 1u << e; });
}

// `rank` powers of two whose product is 2^totalLog2.
inline rc::Gen<std::vector<unsigned>> genSplit(unsigned rank, int totalLog2) {
  return rc::gen::map(
      rc::gen::container<std::vector<unsigned>>(
          totalLog2, rc::gen::inRange(0u, rank)),
      [rank](const std::vector<unsigned> &where) {
        std::vector<unsigned> v(rank, 1);
        for (unsigned d : where)
          v[d] *= 2;
        return v;
      });
}

inline rc::Gen<std::vector<unsigned>> genPermutation(unsigned rank) {
  return rc::gen::map(
      rc::gen::container<std::vector<int>>(rank, rc::gen::arbitrary<int>()),
      [rank](const std::vector<int> &keys) {
        std::vector<unsigned> p(rank);
        for (unsigned i = 0; i < rank; ++i)
          p[i] = i;
        // Sort by random key, ties by index (a stable order).
        std::sort(p.begin(), p.end(), [&](unsigned a, unsigned b) {
          return keys[a] != keys[b] ? keys[a] < keys[b] : a < b;
        });
        return p;
      });
}

inline rc::Gen<std::vector<int64_t>> genShape(unsigned rank, int lo = 0,
                                              int hi = 7) {
  return rc::gen::container<std::vector<int64_t>>(
      rank, rc::gen::map(rc::gen::inRange(lo, hi + 1),
                         [](int e) { return int64_t(1) << e; }));
}

// CGA bases as Triton's split parameters build them: per dim in a random
// order, identity bases for the CTAs that split it, then zero bases for
// CTAs that repeat the data. Up to 4 CTAs.
inline rc::Gen<CGALayout> genCGA(unsigned rank) {
  return rc::gen::map(
      rc::gen::tuple(genPermutation(rank),
                     rc::gen::container<std::vector<int>>(
                         rank, rc::gen::inRange(0, 3)),
                     rc::gen::container<std::vector<int>>(
                         rank, rc::gen::inRange(0, 3)),
                     rc::gen::inRange(0, 3)),
      [rank](const std::tuple<std::vector<unsigned>, std::vector<int>,
                              std::vector<int>, int> &t) {
        auto &[order, split, rep, total] = t;
        CGALayout c;
        int left = total;
        for (unsigned d : order) {
          int s = std::min(split[d], left);
          left -= s;
          int r = std::min(rep[d], left);
          left -= r;
          for (int i = 0; i < s; ++i) {
            std::vector<int32_t> b(rank, 0);
            b[d] = 1 << i;
            c.blockBases.push_back(b);
          }
          for (int i = 0; i < r; ++i)
            c.blockBases.push_back(std::vector<int32_t>(rank, 0));
        }
        return c;
      });
}

inline rc::Gen<BlockedEncoding> genBlocked(unsigned rank, bool withCGA = true) {
  return rc::gen::mapcat(rc::gen::inRange(0, 4), [=](int warpsLog2) {
    return rc::gen::map(
        rc::gen::tuple(
            rc::gen::container<std::vector<unsigned>>(rank, genPow2(0, 3)),
            genSplit(rank, 5), genSplit(rank, warpsLog2), genPermutation(rank),
            withCGA ? genCGA(rank) : rc::gen::just(CGALayout{})),
        [](const std::tuple<std::vector<unsigned>, std::vector<unsigned>,
                            std::vector<unsigned>, std::vector<unsigned>,
                            CGALayout> &t) {
          auto &[spt, tpw, wpc, order, cga] = t;
          return BlockedEncoding{spt, tpw, wpc, order, cga};
        });
  });
}

inline rc::Gen<NvidiaMmaEncoding> genMma(unsigned rank) {
  std::vector<unsigned> instr(rank, 1);
  instr[rank - 2] = 16;
  instr[rank - 1] = 8;
  auto ampere = rc::gen::mapcat(rc::gen::inRange(0, 4), [=](int warpsLog2) {
    return rc::gen::map(genSplit(rank, warpsLog2),
                        [instr](const std::vector<unsigned> &w) {
                          return NvidiaMmaEncoding{2, 0, w, instr, {}};
                        });
  });
  if (rank != 2)
    return ampere;
  // Hopper: warps in warp groups of 4 along M; N a multiple of 8.
  auto hopper = rc::gen::map(
      rc::gen::pair(rc::gen::elementOf(std::vector<std::vector<unsigned>>{
                        {4, 1}, {4, 2}, {8, 1}, {4, 4}, {8, 2}}),
                    genPow2(3, 8)),
      [](const std::pair<std::vector<unsigned>, unsigned> &p) {
        return NvidiaMmaEncoding{3, 0, p.first, {16, p.second, 16}, {}};
      });
  return rc::gen::oneOf(ampere, hopper);
}

inline rc::Gen<SwizzledSharedEncoding> genSwizzled(unsigned rank) {
  return rc::gen::map(
      rc::gen::tuple(genPow2(0, 3), genPow2(0, 3), genPow2(0, 3),
                     genPermutation(rank)),
      [](const std::tuple<unsigned, unsigned, unsigned, std::vector<unsigned>> &t) {
        auto &[vec, perPhase, maxPhase, order] = t;
        return SwizzledSharedEncoding{vec, perPhase, maxPhase, order, {}};
      });
}

// An nvmma_shared layout with a shape large enough for its swizzle.
inline rc::Gen<std::pair<NVMMASharedEncoding, std::vector<int64_t>>>
genNVMMAWithShape(unsigned rank) {
  unsigned sw = *rc::gen::element(0u, 32u, 64u, 128u);
  unsigned bits = *rc::gen::element(8u, 16u, 32u);
  bool transposed = *rc::gen::arbitrary<bool>();
  std::vector<int64_t> shape = *genShape(rank, 0, 8);
  unsigned cd = transposed ? 0 : rank - 1;
  int64_t minContig = sw ? 8 * int64_t(sw) / bits : 1;
  shape[cd] = std::max(shape[cd], minContig);
  // The swizzle atom needs 8 rows: the dims before the last, flattened (or,
  // transposed, the last dim).
  if (transposed) {
    shape[rank - 1] = std::max<int64_t>(shape[rank - 1], 8);
  } else {
    int64_t rows = 1;
    for (unsigned d = 0; d + 1 < rank; ++d)
      rows *= std::min<int64_t>(shape[d], 256);
    if (rows < 8)
      shape[0] *= 8;
  }
  return rc::gen::just(std::make_pair(
      NVMMASharedEncoding{sw, transposed, bits, false, rank, {}}, shape));
}

// Any distributed encoding of `rank` (blocked, mma, dot_op, slice, linear).
inline rc::Gen<Encoding> genDistributed(unsigned rank, int depth = 0) {
  int kind = *rc::gen::inRange(0, depth < 1 ? 5 : 3);
  switch (kind) {
  case 0:
    return rc::gen::map(genBlocked(rank), [](BlockedEncoding b) { return Encoding(b); });
  case 1:
    // mma (and dot operands of mma) exist for rank 2 and 3.
    if (rank >= 2 && rank <= 3)
      return rc::gen::map(genMma(rank), [](NvidiaMmaEncoding m) { return Encoding(m); });
    [[fallthrough]];
  case 2: {
    // dot_op of an mma (v2 any operand, v3 operand A) or of a blocked layout.
    if (rank < 2)
      return rc::gen::map(genBlocked(rank), [](BlockedEncoding b) { return Encoding(b); });
    if (rank <= 3 && *rc::gen::arbitrary<bool>()) {
      NvidiaMmaEncoding m = *genMma(rank);
      unsigned opIdx = m.versionMajor == 3 ? 0 : *rc::gen::inRange(0u, 2u);
      unsigned kWidth = *genPow2(0, m.versionMajor == 3 ? 2 : 3);
      return rc::gen::just(Encoding(DotOperandEncoding{
          opIdx, std::make_shared<Encoding>(m), kWidth}));
    }
    BlockedEncoding b = *genBlocked(rank);
    return rc::gen::just(Encoding(DotOperandEncoding{
        *rc::gen::inRange(0u, 2u), std::make_shared<Encoding>(b), 0}));
  }
  case 3: {
    unsigned dim = *rc::gen::inRange(0u, rank + 1);
    Encoding parent = *genDistributed(rank + 1, depth + 1);
    return rc::gen::just(
        Encoding(SliceEncoding{dim, std::make_shared<Encoding>(parent)}));
  }
  default: {
    // A linear layout: some other encoding's layout at some shape.
    Encoding src = *genDistributed(rank, depth + 1);
    std::vector<int64_t> shape = *genShape(rank, 0, 6);
    auto l = toLinearLayout(shape, src);
    if (!l) {
      std::string msg = llvm::toString(l.takeError());
      RC_FAIL("generator: " + describe(src) + " does not convert: " + msg);
    }
    return rc::gen::just(Encoding(LinearEncoding{*l}));
  }
  }
}

} // namespace tgpu::props

#endif

// Arbitrary instances: rank 1..3 where the kind allows it.
namespace rc {
template <> struct Arbitrary<tgpu::layout::BlockedEncoding> {
  static Gen<tgpu::layout::BlockedEncoding> arbitrary() {
    return gen::mapcat(gen::inRange(1u, 4u),
                       [](unsigned r) { return tgpu::props::genBlocked(r); });
  }
};
template <> struct Arbitrary<tgpu::layout::NvidiaMmaEncoding> {
  static Gen<tgpu::layout::NvidiaMmaEncoding> arbitrary() {
    return gen::mapcat(gen::inRange(2u, 4u),
                       [](unsigned r) { return tgpu::props::genMma(r); });
  }
};
template <> struct Arbitrary<tgpu::layout::NVMMASharedEncoding> {
  static Gen<tgpu::layout::NVMMASharedEncoding> arbitrary() {
    return gen::exec([] {
      return (*tgpu::props::genNVMMAWithShape(*gen::inRange(2u, 4u))).first;
    });
  }
};
// Any distributed encoding (blocked, mma, dot_op, slice, linear) of rank
// 1..3, nested up to two levels.
template <> struct Arbitrary<tgpu::layout::Encoding> {
  static Gen<tgpu::layout::Encoding> arbitrary() {
    return gen::exec(
        [] { return *tgpu::props::genDistributed(*gen::inRange(1u, 4u)); });
  }
};
template <> struct Arbitrary<tgpu::layout::DotOperandEncoding> {
  static Gen<tgpu::layout::DotOperandEncoding> arbitrary() {
    return gen::exec([] {
      for (;;) {
        tgpu::layout::Encoding e = *tgpu::props::genDistributed(*gen::inRange(2u, 4u));
        if (auto *d = std::get_if<tgpu::layout::DotOperandEncoding>(&e))
          return *d;
      }
    });
  }
};
template <> struct Arbitrary<tgpu::layout::SliceEncoding> {
  static Gen<tgpu::layout::SliceEncoding> arbitrary() {
    return gen::exec([] {
      unsigned rank = *gen::inRange(1u, 3u);
      tgpu::layout::Encoding parent = *tgpu::props::genDistributed(rank + 1, 1);
      return tgpu::layout::SliceEncoding{
          *gen::inRange(0u, rank + 1),
          std::make_shared<tgpu::layout::Encoding>(parent)};
    });
  }
};
template <> struct Arbitrary<tgpu::layout::SwizzledSharedEncoding> {
  static Gen<tgpu::layout::SwizzledSharedEncoding> arbitrary() {
    return gen::mapcat(gen::inRange(1u, 4u),
                       [](unsigned r) { return tgpu::props::genSwizzled(r); });
  }
};
} // namespace rc
