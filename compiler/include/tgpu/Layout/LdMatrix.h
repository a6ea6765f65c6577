// When a thread-to-shared-memory map is what PTX ldmatrix delivers: one
// warp-wide ldmatrix.x{1,2,4} (.trans) loads up to four 8x8 matrices of
// 16-bit elements, each lane giving the address of one 16-byte row, and
// hands thread t two consecutive elements of each matrix (row t / 4,
// columns 2 (t % 4) and + 1; with .trans, rows 2 (t % 4) and + 1 of column
// t / 4). A local_load whose register/lane map into the buffer has that
// shape loads 8 elements per instruction instead of 1 or 2.
#ifndef TGPU_LAYOUT_LDMATRIX_H
#define TGPU_LAYOUT_LDMATRIX_H

#include "tgpu/Layout/LinearLayout.h"

#include <optional>

namespace tgpu::layout {

struct LdMatrixPlan {
  bool trans = false;
  int num = 1; // matrices per instruction: 1, 2 or 4
  // Instruction g's row address for each lane: ins "register" (g: the
  // register bits above the 1 + log2(num) an instruction fills), "lane",
  // "warp" (and "block" where the map has one) -> the map's outs. Result
  // i of instruction g holds registers (g << (1 + log2 num)) | (i << 1) | j,
  // j = 0, 1 its low and high half.
  LinearLayout addresses;
};

// `toOffset`: register, lane, warp[, block] -> offset[, block] (a
// distributed layout composed with a shared layout's inverse), 32 lanes,
// elements of `elementBits`. A plan when ldmatrix reads exactly those
// elements into those registers: 16-bit elements, two registers a 32-bit
// result, 16-byte rows that start at multiples of 8 elements.
std::optional<LdMatrixPlan> planLdMatrix(const LinearLayout &toOffset,
                                         int elementBits);

} // namespace tgpu::layout

#endif
