// Where a random generator's decisions come from: one primitive, `below`,
// and the helpers built on it. The layout generator (LayoutSpecs.h) is
// written against this interface so that two very different sources drive
// the same code:
//   - ByteSource (fuzz/generator/ByteSource.h): libFuzzer's bytes, so that
//     mutations steer the choices and a byte string always means the same
//     layouts;
//   - RapidCheck (properties/EncodingGenerators.h): each choice an
//     `rc::gen::inRange` draw, so that a failing property shrinks its
//     layout choice by choice.
// Every helper goes through `below` and nothing else: a source only decides
// how `below` answers.
//
// No key function (every virtual is pure or inline): the vtable is emitted
// where it is used, so the RapidCheck side (built with RTTI) and the fuzz
// side (without) can both derive from it.
#ifndef TGPU_FUZZ_LAYOUTGEN_CHOICESOURCE_H
#define TGPU_FUZZ_LAYOUTGEN_CHOICESOURCE_H

#include "llvm/ADT/ArrayRef.h"

#include <cstddef>
#include <cstdint>

namespace tgpu::gen {

class ChoiceSource {
public:
  virtual ~ChoiceSource() = default;

  // A value in [0, n); 0 when n <= 1 (and then nothing is drawn).
  virtual uint64_t below(uint64_t n) = 0;

  // In [lo, hi] (lo when hi <= lo).
  int64_t range(int64_t lo, int64_t hi) {
    if (hi <= lo)
      return lo;
    return lo + int64_t(below(uint64_t(hi - lo) + 1));
  }
  bool coin() { return below(2) == 1; }
  // True with probability about num/den.
  bool chance(unsigned num, unsigned den) { return below(den) < num; }
  // An index chosen with the given weights (all zero: 0).
  size_t weighted(llvm::ArrayRef<unsigned> weights) {
    uint64_t total = 0;
    for (unsigned w : weights)
      total += w;
    if (total == 0)
      return 0;
    uint64_t r = below(total);
    for (size_t i = 0; i < weights.size(); ++i) {
      if (r < weights[i])
        return i;
      r -= weights[i];
    }
    return weights.size() - 1;
  }
  template <typename T> const T &pick(llvm::ArrayRef<T> items) {
    return items[below(items.size())];
  }
};

} // namespace tgpu::gen

#endif
