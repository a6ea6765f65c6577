#include "tgpu/Layout/WarpShuffle.h"

namespace tgpu::layout {

namespace {

// C's image of one input bit, split by source in dim.
struct Source {
  int32_t reg = 0, lane = 0, warp = 0, block = 0;
};

Source sourceOf(const LinearLayout &c, llvm::StringRef inDim, int bit) {
  Source s;
  auto outs = c.getOutDimNames();
  LinearLayout::Basis basis = c.getBasis(inDim, bit);
  for (size_t k = 0; k < outs.size(); ++k) {
    if (outs[k] == "register")
      s.reg = basis[k];
    else if (outs[k] == "lane")
      s.lane = basis[k];
    else if (outs[k] == "warp")
      s.warp = basis[k];
    else if (outs[k] == "block")
      s.block = basis[k];
  }
  return s;
}

int rankOf(std::vector<int32_t> v) {
  int rank = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i])
      continue;
    ++rank;
    int32_t lead = v[i] & -v[i];
    for (size_t j = i + 1; j < v.size(); ++j)
      if (v[j] & lead)
        v[j] ^= v[i];
  }
  return rank;
}

} // namespace

std::optional<WarpShufflePlan> planWarpShuffle(const LinearLayout &src,
                                               const LinearLayout &dst,
                                               int maxSelectBits) {
  auto composed = dst.invertAndCompose(src);
  if (!composed) {
    llvm::consumeError(composed.takeError());
    return std::nullopt;
  }
  const LinearLayout &c = *composed;
  const int laneBits = dst.getInDimSizeLog2("lane");
  if (src.getInDimSizeLog2("lane") != laneBits)
    return std::nullopt;
  // Every element stays in its warp and block.
  for (const char *dim : {"warp", "block"})
    for (int i = 0; i < dst.getInDimSizeLog2(dim); ++i) {
      Source s = sourceOf(c, dim, i);
      int32_t self = llvm::StringRef(dim) == "warp" ? s.warp : s.block;
      int32_t other = llvm::StringRef(dim) == "warp" ? s.block : s.warp;
      if (s.reg || s.lane || other || self != (int32_t(1) << i))
        return std::nullopt;
    }
  for (const char *dim : {"register", "lane"})
    for (int i = 0; i < dst.getInDimSizeLog2(dim); ++i) {
      Source s = sourceOf(c, dim, i);
      if (s.warp || s.block)
        return std::nullopt;
    }
  // A (lane -> lane read) must be a bijection; its inverse by table.
  const int lanes = 1 << laneBits;
  std::vector<int32_t> a(laneBits), b(laneBits);
  for (int t = 0; t < laneBits; ++t) {
    Source s = sourceOf(c, "lane", t);
    a[t] = s.lane;
    b[t] = s.reg;
  }
  if (rankOf(a) != laneBits)
    return std::nullopt;
  auto apply = [](const std::vector<int32_t> &images, int32_t x) {
    int32_t y = 0;
    for (size_t t = 0; t < images.size(); ++t)
      if (x & (int32_t(1) << t))
        y ^= images[t];
    return y;
  };
  std::vector<int32_t> inverse(lanes);
  for (int32_t i = 0; i < lanes; ++i)
    inverse[apply(a, i)] = i;
  WarpShufflePlan plan;
  plan.readLaneOfLaneBit = a;
  for (int t = 0; t < laneBits; ++t)
    plan.sendRegisterOfLaneBit.push_back(
        apply(b, inverse[int32_t(1) << t]));
  if (rankOf(plan.sendRegisterOfLaneBit) > maxSelectBits)
    return std::nullopt;
  const int regBits = dst.getInDimSizeLog2("register");
  std::vector<int32_t> regLane(regBits), regReg(regBits);
  for (int k = 0; k < regBits; ++k) {
    Source s = sourceOf(c, "register", k);
    regLane[k] = s.lane;
    regReg[k] = s.reg;
  }
  for (int32_t r = 0; r < (int32_t(1) << regBits); ++r) {
    int32_t ar = apply(regLane, r), br = apply(regReg, r);
    plan.readLane.push_back(ar);
    plan.sendRegister.push_back(br ^ apply(b, inverse[ar]));
  }
  return plan;
}

} // namespace tgpu::layout
