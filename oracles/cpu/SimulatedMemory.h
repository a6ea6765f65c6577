// The CPU oracle's simulated memory: global memory made of the caller's
// buffers, shared allocations of TTGIR programs, and the element <-> bits
// conversions of loads, stores and bitcasts.
#ifndef TGPU_ORACLES_CPU_SIMULATEDMEMORY_H
#define TGPU_ORACLES_CPU_SIMULATEDMEMORY_H

#include "oracles/cpu/Values.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

namespace tgpu::cpu::detail {

inline uint64_t loadBits(const uint8_t *p, unsigned size) {
  uint64_t v = 0;
  std::memcpy(&v, p, size);
  return v;
}

inline void storeBits(uint8_t *p, uint64_t v, unsigned size) {
  std::memcpy(p, &v, size);
}

// Buffer k lives at (k + 1) << 40: no pointer arithmetic inside a kernel can
// walk from one buffer into another.
class GlobalMemory {
public:
  // Adds a caller's buffer; returns its base address.
  uint64_t add(std::vector<uint8_t> *bytes) {
    uint64_t base = uint64_t(buffers.size() + 1) << 40;
    buffers.push_back({base, bytes});
    return base;
  }
  // Adds a zeroed buffer of `size` bytes that the memory owns (a program's
  // global scratch); returns its base address.
  uint64_t addOwned(size_t size) {
    owned.emplace_back(size, 0);
    return add(&owned.back());
  }
  // The byte at `addr` of `size` bytes, or null when the access is outside
  // every buffer.
  uint8_t *find(uint64_t addr, unsigned size) {
    uint64_t k = (addr >> 40);
    if (k == 0 || k > buffers.size())
      return nullptr;
    Buffer &b = buffers[k - 1];
    if (addr < b.base || addr - b.base + size > b.bytes->size())
      return nullptr;
    return b.bytes->data() + (addr - b.base);
  }

  // Races between programs through plain loads and stores (SEMANTICS.md
  // §6). Programs run one after another here but at once on a GPU, so a
  // byte one program stored and another reads, or overwrites with other
  // data, is a race; a byte one store writes twice with other data is an
  // element conflict. Atomics are not tracked: they are the way programs
  // may share memory.

  // A program other than `self` that stored one of the `size` bytes at
  // `addr`, or -1.
  int32_t otherStorer(uint64_t addr, unsigned size, int32_t self) {
    Buffer *b = bufferOf(addr);
    if (!b || !b->lastStore)
      return -1;
    const uint32_t *last = b->lastStore.get() + (addr - b->base);
    for (unsigned j = 0; j < size; ++j) {
      int32_t w = storeProgram[last[j]];
      if (w >= 0 && w != self)
        return w;
    }
    return -1;
  }
  // Starts a tt.store execution of program `self`; returns its serial
  // number for recordStore.
  uint32_t beginStore(int32_t self) {
    storeProgram.push_back(self);
    return uint32_t(storeProgram.size() - 1);
  }
  enum class Clash { None, SameStore, OtherProgram, NoShadow };
  // Records that store `serial` of program `self` writes `bits` to the
  // `size` bytes at `addr` (`where`, not yet written). Rewriting the bytes
  // that are there clashes with nothing; otherwise the first byte that
  // another element of the same store wrote is SameStore (the GPU's threads
  // store at once, and which lands is not defined unless they agree), and
  // one another program stored is OtherProgram (a race with `other`).
  // NoShadow: no memory for the buffer's race shadow.
  Clash recordStore(uint64_t addr, const uint8_t *where, uint64_t bits,
                    unsigned size, uint32_t serial, int32_t self,
                    int32_t &other) {
    Buffer *b = bufferOf(addr);
    if (!b)
      return Clash::None;
    if (!b->lastStore && !allocateShadow(*b))
      return Clash::NoShadow;
    uint32_t *last = b->lastStore.get() + (addr - b->base);
    bool same = loadBits(where, size) == maskBits(bits, size * 8);
    for (unsigned j = 0; j < size; ++j) {
      if (!same && last[j] == serial)
        return Clash::SameStore;
      int32_t w = storeProgram[last[j]];
      if (!same && w >= 0 && w != self) {
        other = w;
        return Clash::OtherProgram;
      }
      last[j] = serial;
    }
    return Clash::None;
  }

private:
  struct Buffer {
    uint64_t base;
    std::vector<uint8_t> *bytes;
    // Which tt.store execution last wrote each byte (0: none; see
    // storeProgram), made on the buffer's first store.
    std::unique_ptr<uint32_t, decltype(&std::free)> lastStore{nullptr,
                                                              &std::free};
  };
  std::vector<Buffer> buffers;
  // The bytes of addOwned's buffers; a deque, so that they never move.
  std::deque<std::vector<uint8_t>> owned;
  // The program of each tt.store execution (index: its serial number).
  std::vector<int32_t> storeProgram = {-1};

  // Makes b's shadow on its first store; false when out of memory.
  static bool allocateShadow(Buffer &b) {
    // calloc: pages nothing writes are never touched.
    b.lastStore.reset(static_cast<uint32_t *>(
        std::calloc(std::max<size_t>(1, b.bytes->size()), sizeof(uint32_t))));
    return b.lastStore != nullptr;
  }
  Buffer *bufferOf(uint64_t addr) {
    uint64_t k = addr >> 40;
    return k == 0 || k > buffers.size() ? nullptr : &buffers[k - 1];
  }
};

struct SharedAlloc {
  ElemType type;
  std::vector<uint64_t> i;
  std::vector<double> f;
  std::vector<bool> written;
  // Per element, the id of the pending async copy that will write it (0:
  // none); empty until the first async copy into the allocation, so
  // allocations that only local_store pay nothing. One id is enough: a
  // second pending copy of an element is undefined behaviour, reported when
  // it is issued.
  std::vector<uint32_t> pendingCopy;
  uint32_t pendingAt(int64_t at) const {
    return pendingCopy.empty() ? 0 : pendingCopy[at];
  }
  // Per element, how many TMA stores not yet retired by a
  // ttng.async_tma_store_wait read it (several may: each only reads); empty
  // until the first TMA store from the allocation.
  std::vector<uint32_t> storeReaders;
  uint32_t storeReadersAt(int64_t at) const {
    return storeReaders.empty() ? 0 : storeReaders[at];
  }
};

inline double floatFromBits(uint64_t bits, ScalarKind k) {
  switch (k) {
  case ScalarKind::F16: {
    _Float16 h;
    uint16_t b = uint16_t(bits);
    std::memcpy(&h, &b, 2);
    return double(h);
  }
  case ScalarKind::BF16:
    return floatFromBF16Bits(uint16_t(bits));
  case ScalarKind::F8E4M3FN:
    return floatFromFp8Bits(uint8_t(bits), kE4M3FN);
  case ScalarKind::F8E5M2:
    return floatFromFp8Bits(uint8_t(bits), kE5M2);
  case ScalarKind::F32: {
    float f;
    uint32_t b = uint32_t(bits);
    std::memcpy(&f, &b, 4);
    return f;
  }
  default: {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  }
}

inline uint64_t bitsFromFloat(double v, ScalarKind k) {
  switch (k) {
  case ScalarKind::F16: {
    _Float16 h = static_cast<_Float16>(v);
    uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
  }
  case ScalarKind::BF16:
    return bf16BitsFromFloat(floatRoundToOdd(v));
  case ScalarKind::F8E4M3FN:
    return fp8BitsOfValue(v, kE4M3FN);
  case ScalarKind::F8E5M2:
    return fp8BitsOfValue(v, kE5M2);
  case ScalarKind::F32: {
    float f = float(v);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  default: {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
  }
  }
}

inline bool isFloatKind(ScalarKind k) { return k >= ScalarKind::F16; }

inline ScalarKind kindOfFloat(const ElemType &t) {
  if (t.bits == 8)
    return t.e4m3 ? ScalarKind::F8E4M3FN : ScalarKind::F8E5M2;
  if (t.bits == 16)
    return t.bf16 ? ScalarKind::BF16 : ScalarKind::F16;
  return t.bits == 32 ? ScalarKind::F32 : ScalarKind::F64;
}

} // namespace tgpu::cpu::detail

#endif
