// The race shadow of global memory: which store last wrote each byte.
#include "SimulatedMemory.h"

#include <algorithm>

namespace tgpu::cpu::detail {

int32_t GlobalMemory::otherStorer(uint64_t addr, unsigned size, int32_t self) {
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

llvm::Expected<GlobalMemory::Clash>
GlobalMemory::recordStore(uint64_t addr, const uint8_t *where, uint64_t bits,
                          unsigned size, uint32_t serial, int32_t self,
                          int32_t &other) {
  Buffer *b = bufferOf(addr);
  if (!b)
    return Clash::None;
  if (!b->lastStore) {
    b->lastStore.reset(static_cast<uint32_t *>(
        std::calloc(std::max<size_t>(1, b->bytes->size()), sizeof(uint32_t))));
    if (!b->lastStore)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "out of memory for the race shadow of a buffer");
  }
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

} // namespace tgpu::cpu::detail
