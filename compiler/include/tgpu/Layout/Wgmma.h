// How wgmma (PTX wgmma.mma_async, sm_90a) reads an operand from shared
// memory, and when a buffer's layout is one it can read.
//
// A wgmma operand in shared memory is named by a 64-bit matrix descriptor:
// a start address and two byte offsets (the leading and stride dimension
// byte offsets, LBO and SBO) that place 8 x 16-byte "core matrices", plus a
// swizzle mode (none, 32, 64 or 128 bytes). The instruction reads an
// MN x K tile (MN = 64 rows of A, or N columns of B; K = 32 bytes of
// elements) from the addresses that descriptor implies. Rather than a table
// per swizzle mode, planWgmmaOperand reads LBO, SBO and the swizzle off the
// buffer's own element-offset map and then checks, element by element and
// tile by tile, that the instruction would read what the map says.
#ifndef TGPU_LAYOUT_WGMMA_H
#define TGPU_LAYOUT_WGMMA_H

#include "tgpu/Layout/LinearLayout.h"

#include "llvm/Support/Error.h"

#include <cstdint>

namespace tgpu::layout {

struct WgmmaOperandDesc {
  // 0 (no swizzle) or the swizzle width in bytes: 32, 64, 128.
  int swizzleBytes = 0;
  // The operand's MN dim is contiguous in memory (wgmma's "transposed"
  // operand, which only 16-bit element types allow); otherwise K is.
  bool mnMajor = false;
  int64_t leadingByteOffset = 0;
  int64_t strideByteOffset = 0;

  // The byte distance that makes the swizzle pattern repeat: a buffer
  // read through this descriptor must start at a multiple of it.
  int64_t swizzlePeriodBytes() const { return 8 * int64_t(swizzleBytes); }
  // The descriptor's bits (PTX ISA, "Matrix Descriptor Format") for a
  // 16-byte aligned shared address `start`: start >> 4 in bits 0-13,
  // LBO >> 4 in 16-29, SBO >> 4 in 32-45, base offset 0 in 49-51, the
  // swizzle mode in 62-63 (1: 128 bytes, 2: 64, 3: 32, 0: none).
  uint64_t encode(uint32_t start) const;
};

// The shared address wgmma reads element (mn, k) of its operand tile from,
// given the descriptor's fields and the tile's absolute start address: the
// core-matrix placement the descriptor selects, then the swizzle, an XOR
// of address bits 4.. with bits 7.. (as many as the swizzle has 16-byte
// chunks in a row, log2(swizzleBytes / 16)).
int64_t wgmmaElementAddress(const WgmmaOperandDesc &desc, int64_t start, int mn,
                            int k, int elemBytes);

// The byte offset `toOffset` ((mnDim, kDim) -> "offset" in elements) gives
// element (mn, k); -1 when it has none or puts it in another CTA's block.
int64_t operandByteOffset(const LinearLayout &toOffset, llvm::StringRef mnDim,
                          llvm::StringRef kDim, int mn, int k, int elemBytes);

// `toOffset`: the buffer's map from (mnDim, kDim) element indices (its two
// in dims) to an "offset" in elements. The descriptor under which wgmma
// reads every tileMN x tileK tile of the buffer that starts at a multiple
// of the tile shape, the buffer itself starting at a multiple of the
// swizzle period; an error saying what does not fit otherwise.
llvm::Expected<WgmmaOperandDesc>
planWgmmaOperand(const LinearLayout &toOffset, llvm::StringRef mnDim,
                 llvm::StringRef kDim, int tileMN, int tileK, int elemBits);

} // namespace tgpu::layout

#endif
