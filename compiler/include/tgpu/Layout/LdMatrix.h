// When a thread-to-shared-memory map is what PTX ldmatrix delivers: one
// warp-wide ldmatrix.x{1,2,4} (.trans) loads up to four 8x8 matrices of
// 16-bit units, each lane giving the address of one 16-byte row, and hands
// thread t one 32-bit word of each matrix (row t / 4, units 2 (t % 4) and
// + 1; with .trans, rows 2 (t % 4) and + 1 of column t / 4). A word holds
// two 16-bit elements, four 8-bit or one 32-bit element (ldmatrix moves
// bits: only .trans cares that the units are 16 bits). A local_load whose
// register/lane map into the buffer has that shape loads a whole row per
// lane and instruction instead of one vector per thread; stmatrix is the
// store with the same shape.
#ifndef TGPU_LAYOUT_LDMATRIX_H
#define TGPU_LAYOUT_LDMATRIX_H

#include "tgpu/Layout/LinearLayout.h"

#include <optional>

namespace tgpu::layout {

struct LdMatrixPlan {
  bool trans = false;
  int num = 1;          // matrices per instruction: 1, 2 or 4
  int wordElements = 2; // elements in one 32-bit result: 1, 2 or 4
  // Instruction g's row address for each lane: ins "register" (g: the
  // register bits above the log2(wordElements) + log2(num) an instruction
  // fills), "lane", "warp" (and "block" where the map has one) -> the
  // map's outs. Result i of instruction g holds registers
  // (g << (w + log2 num)) | (i << w) | j, w = log2(wordElements), j the
  // element's place in the word, lowest bits first.
  LinearLayout addresses;
};

// `toOffset`: register, lane, warp[, block] -> offset[, block] (a
// distributed layout composed with a shared layout's inverse), 32 lanes,
// elements of `elementBits` (8, 16 or 32). A plan when ldmatrix reads
// exactly those elements into those registers: 16-byte rows that start at
// 16-byte multiples; .trans only for 16-bit elements.
std::optional<LdMatrixPlan> planLdMatrix(const LinearLayout &toOffset,
                                         int elementBits);

} // namespace tgpu::layout

#endif
