// A convert_layout that keeps every element in its warp can move data with
// shfl.sync.idx instead of shared memory. With C = dst⁻¹-then-src (the
// source register/lane holding what each destination register/lane needs,
// LinearLayout::invertAndCompose), destination register r of lane i needs
// source lane a(r) ^ A(i), register b(r) ^ B(i). In one shuffle per r every
// lane j sends one of its registers and reads from lane a(r) ^ A(i); when A
// is a bijection of the lanes, the lane read from is j = a(r) ^ A(i), so j
// must send register b(r) ^ B(A⁻¹(j ^ a(r))) = c(r) ^ M(j), an affine
// function of its own lane: c(r) = b(r) ^ B(A⁻¹(a(r))), M = B∘A⁻¹.
#ifndef TGPU_LAYOUT_WARPSHUFFLE_H
#define TGPU_LAYOUT_WARPSHUFFLE_H

#include "tgpu/Layout/LinearLayout.h"

#include <optional>

namespace tgpu::layout {

struct WarpShufflePlan {
  // Images of the calling lane's bits: the lane to read from (A) and the
  // register to send (M) are a per-register constant XOR these.
  std::vector<int32_t> readLaneOfLaneBit;
  std::vector<int32_t> sendRegisterOfLaneBit;
  // Per destination register r: a(r) and c(r).
  std::vector<int32_t> readLane;
  std::vector<int32_t> sendRegister;
};

// The plan, when the two distributed layouts keep every element in its
// warp (same warp and block bases), the lanes read from are a bijection of
// the lanes, and each lane chooses among at most 2^maxSelectBits registers
// to send; nothing otherwise (the caller goes through shared memory).
std::optional<WarpShufflePlan> planWarpShuffle(const LinearLayout &src,
                                               const LinearLayout &dst,
                                               int maxSelectBits = 2);

} // namespace tgpu::layout

#endif
