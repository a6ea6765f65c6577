#include "tgpu/Layout/LdMatrix.h"

#include "llvm/Support/MathExtras.h"

using namespace tgpu::layout;

std::optional<LdMatrixPlan>
tgpu::layout::planLdMatrix(const LinearLayout &toOffset, int elementBits) {
  if ((elementBits != 8 && elementBits != 16 && elementBits != 32) ||
      !toOffset.hasOutDim("offset") || !toOffset.hasInDim("register") ||
      !toOffset.hasInDim("lane") || toOffset.getInDimSizeLog2("lane") != 5)
    return std::nullopt;
  const int wordElements = 32 / elementBits;
  const int wordBits = llvm::Log2_32(wordElements);
  const int rowElements = 128 / elementBits; // 16 bytes
  int regBits = toOffset.getInDimSizeLog2("register");
  if (regBits < wordBits)
    return std::nullopt;
  auto offsetOf = [&](llvm::StringRef dim, int i) {
    return toOffset.getBasis(dim, i, "offset");
  };
  auto rowAligned = [&](llvm::StringRef dim, int i) {
    return offsetOf(dim, i) % rowElements == 0;
  };
  // The bits that walk one 16-byte row (the first of each pair a register
  // bit with 16-bit elements), and the three that pick the row.
  std::vector<std::pair<std::string, int>> rowBits;
  LdMatrixPlan plan;
  plan.wordElements = wordElements;
  bool plain = true;
  for (int i = 0; i < wordBits; ++i)
    plain &= offsetOf("register", i) == (1 << i);
  plain &= offsetOf("lane", 0) == wordElements &&
           offsetOf("lane", 1) == 2 * wordElements;
  if (plain) {
    // Thread t: row t / 4 (lane bits 2..4), word t % 4 of it.
    plan.trans = false;
    rowBits = {{"lane", 2}, {"lane", 3}, {"lane", 4}};
  } else if (elementBits == 16 && regBits >= 1 && offsetOf("lane", 2) == 1 &&
             offsetOf("lane", 3) == 2 && offsetOf("lane", 4) == 4) {
    // .trans: column t / 4, rows 2 (t % 4) + j.
    plan.trans = true;
    rowBits = {{"register", 0}, {"lane", 0}, {"lane", 1}};
  } else {
    return std::nullopt;
  }
  for (auto [dim, i] : rowBits)
    if (!rowAligned(dim, i))
      return std::nullopt;
  int matrixBits = std::min(2, regBits - wordBits);
  plan.num = 1 << matrixBits;
  // Every other input moves whole rows.
  for (int i = wordBits; i < regBits; ++i)
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
  for (int i = wordBits + matrixBits; i < regBits; ++i)
    groups.push_back(toOffset.getBasis("register", i));
  bases.push_back({"register", groups});
  std::vector<LinearLayout::Basis> lanes;
  for (auto [dim, i] : rowBits)
    lanes.push_back(toOffset.getBasis(dim, i));
  for (int m = 0; m < 2; ++m)
    lanes.push_back(m < matrixBits
                        ? toOffset.getBasis("register", wordBits + m)
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
