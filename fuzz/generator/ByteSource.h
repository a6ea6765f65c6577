// Choices drawn from a byte string, FuzzedDataProvider style: libFuzzer's
// mutations of the bytes steer every decision, and a shorter input still makes
// a complete program (an exhausted source answers 0, the first choice). The
// CLI makes the byte string from a seed (fromSeed), so one code path serves
// both. The helpers (range, coin, chance, weighted, pick) are
// ChoiceSource's, so the layout generator draws from these bytes exactly as
// the rest of the program generator does.
#ifndef TGPU_FUZZ_GENERATOR_BYTESOURCE_H
#define TGPU_FUZZ_GENERATOR_BYTESOURCE_H

#include "fuzz/layoutgen/ChoiceSource.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tgpu::gen {

class ByteSource final : public ChoiceSource {
public:
  explicit ByteSource(llvm::ArrayRef<uint8_t> bytes) : bytes(bytes) {}

  // `size` bytes of splitmix64 output seeded with `seed`.
  static std::vector<uint8_t> fromSeed(uint64_t seed, size_t size = 4096) {
    std::vector<uint8_t> out(size);
    uint64_t state = seed;
    for (size_t i = 0; i < size; i += 8) {
      uint64_t z = (state += 0x9E3779B97F4A7C15ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      z ^= z >> 31;
      for (size_t b = 0; b < 8 && i + b < size; ++b)
        out[i + b] = uint8_t(z >> (8 * b));
    }
    return out;
  }

  bool exhausted() const { return pos >= bytes.size(); }
  size_t consumed() const { return pos; }

  // A uniform-ish value in [0, n) (n >= 1), from as few bytes as cover n.
  uint64_t below(uint64_t n) override {
    if (n <= 1)
      return 0;
    uint64_t v = 0;
    for (uint64_t range = 1; range < n && range != 0; range <<= 8)
      v = (v << 8) | nextByte();
    return v % n;
  }
  uint64_t bits64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v = (v << 8) | nextByte();
    return v;
  }

private:
  uint8_t nextByte() { return pos < bytes.size() ? bytes[pos++] : 0; }

  llvm::ArrayRef<uint8_t> bytes;
  size_t pos = 0;
};

} // namespace tgpu::gen

#endif
