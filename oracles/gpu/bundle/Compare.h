// Compares a buffer a GPU run left with the expected one, under the
// buffer's CompareRule (Bundle.h). Shared by the runner and the tests.
#ifndef TGPU_ORACLES_GPU_COMPARE_H
#define TGPU_ORACLES_GPU_COMPARE_H

#include "oracles/gpu/bundle/Bundle.h"

#include <string>
#include <vector>

namespace tgpu::bundle {

struct Mismatch {
  uint64_t index = 0;
  double got = 0, expected = 0; // as doubles (integers: their values)
  uint64_t gotBits = 0, expectedBits = 0;
  bool unwritten = false; // the run left the poison there
};

struct BufferVerdict {
  bool ok = true;
  uint64_t mismatches = 0;   // elements outside the rule
  uint64_t unwritten = 0;    // of those, elements still holding the poison
  double worstError = 0;     // max |got - expected| / allowed among floats that passed
  std::vector<Mismatch> first; // the first few, in index order
};

// `got` and `expected` hold count elements of `elem`. With `poisoned`, an
// element whose bits are the poison pattern where the expected's are not is
// reported as never written. `keep` bounds `first`.
BufferVerdict compareBuffer(Elem elem, uint64_t count, const uint8_t *got,
                            const uint8_t *expected, const CompareRule &rule,
                            bool poisoned, unsigned keep = 4);

// "arg2[17]: got 1.5, expected 1.25 (allowed 1e-06); 3 of 4096 differ"
std::string describe(const BufferVerdict &v, unsigned argIndex, Elem elem,
                     uint64_t count, const CompareRule &rule);

// The element's value as text: integers exactly, floats with %.9g (f64
// %.17g) and the bits in hex.
std::string formatElement(Elem elem, double value, uint64_t bits);

} // namespace tgpu::bundle

#endif
