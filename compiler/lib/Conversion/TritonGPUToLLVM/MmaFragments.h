// Which register of a distributed layout holds which element of a tensor-
// core instruction's fragment. The fragment positions come from the PTX ISA
// (per lane, warp and element); the layouts' registers are looked up for
// every lane and warp, so a layout that does not deliver the fragments is
// rejected, not miscompiled.
#ifndef TGPU_CONVERSION_TRITONGPUTOLLVM_MMAFRAGMENTS_H
#define TGPU_CONVERSION_TRITONGPUTOLLVM_MMAFRAGMENTS_H

#include "tgpu/Layout/LinearLayout.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <utility>

namespace mlir::tgpu {

using ::tgpu::layout::LinearLayout;
using Pos = std::pair<int32_t, int32_t>; // (row, col) of a 2-D tensor

inline Pos positionOf(const LinearLayout &layout, int32_t reg, int32_t lane,
                      int32_t warp) {
  SmallVector<int32_t> in;
  for (const std::string &dim : layout.getInDimNames())
    in.push_back(dim == "register" ? reg
                 : dim == "lane"   ? lane
                 : dim == "warp"   ? warp
                                   : 0);
  std::vector<int32_t> out =
      layout.unpackOut(layout.applyFlat(layout.packIn(in)));
  return {out[0], out[1]};
}

inline int32_t sizeOf(const LinearLayout &layout, StringRef dim) {
  return layout.hasInDim(dim) ? layout.getInDimSize(dim) : 1;
}

// Where each element sits in one layout: the register of the calling thread
// that holds a position (lane 0, warp 0 view; lowest register first), and a
// check that a register holds, in every lane and warp, the position a
// fragment wants there.
class Registers {
public:
  explicit Registers(const LinearLayout &layout) : layout(layout) {
    for (int32_t r = 0, e = sizeOf(layout, "register"); r < e; ++r)
      byPosition.emplace(positionOf(layout, r, 0, 0), r);
    lanes = sizeOf(layout, "lane");
    warps = sizeOf(layout, "warp");
  }

  // The register holding `origin(warp) + frag(lane, warp, i)` in every lane
  // and warp, where origin(warp) is `warpOrigin(warp)`; -1 if there is none.
  template <typename WarpOrigin, typename Frag>
  int32_t find(WarpOrigin warpOrigin, Frag frag, int i) const {
    Pos o = warpOrigin(0), f = frag(0, 0, i);
    auto it = byPosition.find({o.first + f.first, o.second + f.second});
    if (it == byPosition.end())
      return -1;
    for (int32_t w = 0; w < warps; ++w) {
      Pos ow = warpOrigin(w);
      for (int32_t l = 0; l < lanes; ++l) {
        Pos fl = frag(l, w, i);
        if (positionOf(layout, it->second, l, w) !=
            Pos{ow.first + fl.first, ow.second + fl.second})
          return -1;
      }
    }
    return it->second;
  }

  const LinearLayout &layout;
  std::map<Pos, int32_t> byPosition;
  int32_t lanes = 1, warps = 1;
};

// A fragment that depends on the lane only (mma.sync's), as one of the
// lane, warp and element that Registers::find takes.
template <typename Frag> auto laneFragment(Frag frag) {
  return [frag](int lane, int /*warp*/, int i) { return frag(lane, i); };
}

} // namespace mlir::tgpu

#endif
