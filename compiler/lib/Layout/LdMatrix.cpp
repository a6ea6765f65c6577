#include "tgpu/Layout/LdMatrix.h"

using namespace tgpu::layout;

std::optional<LdMatrixPlan>
tgpu::layout::planLdMatrix(const LinearLayout &toOffset, int elementBits) {
  if (elementBits != 16 || !toOffset.hasOutDim("offset") ||
      !toOffset.hasInDim("register") || !toOffset.hasInDim("lane") ||
      toOffset.getInDimSizeLog2("lane") != 5)
    return std::nullopt;
  int regBits = toOffset.getInDimSizeLog2("register");
  if (regBits < 1)
    return std::nullopt;
  auto offsetOf = [&](llvm::StringRef dim, int i) {
    return toOffset.getBasis(dim, i, "offset");
  };
  auto rowAligned = [&](llvm::StringRef dim, int i) {
    return (offsetOf(dim, i) & 7) == 0;
  };
  // The three bits that walk one 16-byte row, and the three that pick the
  // row (the first of each pair is register bit 0).
  std::pair<const char *, int> rowBits[3];
  LdMatrixPlan plan;
  if (offsetOf("register", 0) == 1 && offsetOf("lane", 0) == 2 &&
      offsetOf("lane", 1) == 4) {
    // Thread t: row t / 4 (lane bits 2..4), columns 2 (t % 4) + j.
    plan.trans = false;
    rowBits[0] = {"lane", 2}, rowBits[1] = {"lane", 3},
    rowBits[2] = {"lane", 4};
  } else if (offsetOf("lane", 2) == 1 && offsetOf("lane", 3) == 2 &&
             offsetOf("lane", 4) == 4) {
    // .trans: column t / 4, rows 2 (t % 4) + j.
    plan.trans = true;
    rowBits[0] = {"register", 0}, rowBits[1] = {"lane", 0},
    rowBits[2] = {"lane", 1};
  } else {
    return std::nullopt;
  }
  for (auto [dim, i] : rowBits)
    if (!rowAligned(dim, i))
      return std::nullopt;
  int matrixBits = std::min(2, regBits - 1);
  plan.num = 1 << matrixBits;
  // Every other input moves whole rows.
  for (int i = 1; i < regBits; ++i)
    if (!rowAligned("register", i))
      return std::nullopt;
  for (const std::string &dim : toOffset.getInDimNames())
    if (dim != "register" && dim != "lane")
      for (int i = 0; i < toOffset.getInDimSizeLog2(dim); ++i)
        if (!rowAligned(dim, i))
          return std::nullopt;

  // Lane l of an instruction: row l % 8 of matrix l / 8 (lanes past the
  // last matrix are not read: any in-range address, here matrix 0's).
  std::vector<LinearLayout::DimBases> bases;
  std::vector<LinearLayout::Basis> groups;
  for (int i = 1 + matrixBits; i < regBits; ++i)
    groups.push_back(toOffset.getBasis("register", i));
  bases.push_back({"register", groups});
  std::vector<LinearLayout::Basis> lanes;
  for (auto [dim, i] : rowBits)
    lanes.push_back(toOffset.getBasis(dim, i));
  for (int m = 0; m < 2; ++m)
    lanes.push_back(m < matrixBits
                        ? toOffset.getBasis("register", 1 + m)
                        : LinearLayout::Basis(toOffset.getNumOutDims(), 0));
  bases.push_back({"lane", lanes});
  for (const std::string &dim : toOffset.getInDimNames())
    if (dim != "register" && dim != "lane") {
      std::vector<LinearLayout::Basis> dimBases;
      for (int i = 0; i < toOffset.getInDimSizeLog2(dim); ++i)
        dimBases.push_back(toOffset.getBasis(dim, i));
      bases.push_back({dim, dimBases});
    }
  auto addresses = LinearLayout::create(bases, toOffset.getOutDims(),
                                        /*requireSurjective=*/false);
  if (!addresses) {
    llvm::consumeError(addresses.takeError());
    return std::nullopt;
  }
  plan.addresses = std::move(*addresses);
  return plan;
}
