#include "tgpu/Layout/Tma.h"

#include "tgpu/Layout/Encodings.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

using namespace tgpu::layout;

namespace {

llvm::Error err(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

// The element offset `toOffset` gives `coord` (-1: none, or another CTA's).
int64_t elementOffset(const LinearLayout &toOffset,
                      const std::vector<int32_t> &coord) {
  std::vector<LinearLayout::NamedValue> ins;
  for (size_t d = 0; d < coord.size(); ++d)
    ins.push_back({"dim" + std::to_string(d), coord[d]});
  return sharedElementOffset(toOffset, ins);
}

} // namespace

int64_t tgpu::layout::tmaBoxElementAddress(int swizzleBytes,
                                           const std::vector<int32_t> &box,
                                           const std::vector<int32_t> &coord,
                                           int elemBytes, int64_t start) {
  // Dense, innermost dim fastest.
  int64_t linear = 0;
  for (size_t d = 0; d < box.size(); ++d)
    linear = linear * box[d] + coord[d];
  int64_t addr = start + linear * elemBytes;
  if (swizzleBytes == 0)
    return addr;
  // The 16-byte chunk index (bits 4..) XOR the row within the period
  // (bits 7..), as many bits as a swizzle row has chunks.
  int64_t mask = swizzleBytes / 16 - 1;
  return addr ^ (((addr >> 7) & mask) << 4);
}

llvm::Expected<std::vector<int32_t>>
tgpu::layout::tmaBox(const std::vector<int64_t> &shape, int elemBits,
                     int swizzleBytes) {
  if (shape.empty() || shape.size() > 5)
    return err("TMA copies tensors of rank 1 to 5, not " +
               llvm::Twine(shape.size()));
  if (elemBits % 8 != 0 || elemBits == 0 || elemBits > 64)
    return err("TMA copies 8- to 64-bit elements here, not " +
               llvm::Twine(elemBits) + "-bit ones");
  if (swizzleBytes != 0 && swizzleBytes != 32 && swizzleBytes != 64 &&
      swizzleBytes != 128)
    return err("TMA swizzles 32, 64 or 128 bytes, not " +
               llvm::Twine(swizzleBytes));
  int elemBytes = elemBits / 8;
  // Triton's box: at most 256 elements a dim; with a swizzle, the
  // innermost dim is one swizzle span.
  std::vector<int32_t> box;
  for (int64_t size : shape) {
    if (size <= 0)
      return err("TMA block dims must be positive, not " + llvm::Twine(size));
    box.push_back(int32_t(std::min<int64_t>(size, 256)));
  }
  if (swizzleBytes) {
    int32_t span = swizzleBytes / elemBytes;
    if (shape.back() < span)
      return err("the innermost dim (" + llvm::Twine(shape.back()) +
                 " elements) is narrower than the " +
                 llvm::Twine(swizzleBytes) + "-byte swizzle (" +
                 llvm::Twine(span) + " elements)");
    box.back() = span;
  }
  if (int64_t(box.back()) * elemBytes % 16 != 0)
    return err("a TMA box's innermost dim must be a multiple of 16 bytes, "
               "not " +
               llvm::Twine(int64_t(box.back()) * elemBytes));
  return box;
}

llvm::Expected<TmaCopyPlan>
tgpu::layout::planTmaCopy(const std::vector<int64_t> &shape,
                          const LinearLayout &toOffset, int elemBits,
                          int swizzleBytes) {
  size_t rank = shape.size();
  // Checks the rank, element size and swizzle first.
  auto box = tmaBox(shape, elemBits, swizzleBytes);
  if (!box)
    return box.takeError();
  for (int64_t size : shape)
    if (size <= 0 || !llvm::isPowerOf2_64(size))
      return err("TMA buffer dims must be powers of two, not " +
                 llvm::Twine(size));
  int elemBytes = elemBits / 8;
  TmaCopyPlan plan;
  plan.swizzleBytes = swizzleBytes;
  plan.box = std::move(*box);

  // Messages: dim 0's boxes first (the low bits of the message index).
  LinearLayout toCoord;
  for (size_t d = 0; d < rank; ++d) {
    auto part =
        LinearLayout::strided1D(int32_t(shape[d] / plan.box[d]), plan.box[d],
                                "msg", "dim" + std::to_string(d));
    if (!part)
      return part.takeError();
    auto product = toCoord * *part;
    if (!product)
      return product.takeError();
    toCoord = std::move(*product);
  }
  // strided1D(shape / box, box) spans each dim exactly.
  plan.toCoord = std::move(toCoord);

  // Every element of every box where TMA puts it, the buffer starting at
  // offset 0 and each box at its origin's offset.
  int32_t messages = plan.toCoord.getInDimSize("msg");
  int64_t boxElems = 1;
  for (int32_t b : plan.box)
    boxElems *= b;
  std::vector<int64_t> boxOffset(messages);
  std::vector<int32_t> within(rank, 0), coord(rank);
  for (int32_t m = 0; m < messages; ++m) {
    auto origin = plan.toCoord.apply({{"msg", m}});
    if (!origin)
      return origin.takeError();
    std::vector<int32_t> o;
    for (auto &[name, v] : *origin)
      o.push_back(v);
    int64_t base = elementOffset(toOffset, o);
    if (base < 0)
      return err("the buffer's layout has no element at box origin " +
                 llvm::Twine(m));
    boxOffset[m] = base;
    int64_t start = base * elemBytes;
    if (start % plan.requiredAlignment() != 0)
      return err("box " + llvm::Twine(m) + " starts at byte " +
                 llvm::Twine(start) + ", not a multiple of " +
                 llvm::Twine(plan.requiredAlignment()));
    for (int64_t e = 0; e < boxElems; ++e) {
      int64_t rest = e;
      for (size_t d = rank; d-- > 0;) {
        within[d] = int32_t(rest % plan.box[d]);
        rest /= plan.box[d];
      }
      for (size_t d = 0; d < rank; ++d)
        coord[d] = o[d] + within[d];
      int64_t expected = tmaBoxElementAddress(swizzleBytes, plan.box, within,
                                              elemBytes, start);
      int64_t actual = elementOffset(toOffset, coord);
      if (actual < 0 || actual * elemBytes != expected)
        return err("the buffer's layout does not place its elements where a "
                   "TMA box of " +
                   llvm::Twine(boxElems) + " elements with a " +
                   llvm::Twine(swizzleBytes) +
                   "-byte swizzle writes them (box " + llvm::Twine(m) +
                   ", element " + llvm::Twine(e) + ")");
    }
  }
  // The box offsets as a linear map of the message index, checked against
  // every message.
  std::vector<LinearLayout::Basis> bases;
  for (int32_t bit = 1; bit < messages; bit <<= 1)
    bases.push_back({int32_t(boxOffset[bit])});
  int32_t total = 1;
  for (int64_t s : shape)
    total *= int32_t(s);
  auto offsets = LinearLayout::create({{"msg", bases}}, {{"offset", total}},
                                      /*requireSurjective=*/false);
  if (!offsets)
    return offsets.takeError();
  for (int32_t m = 0; m < messages; ++m)
    if (int64_t(offsets->applyFlat(uint64_t(m))) != boxOffset[m])
      return err("the boxes' offsets in the buffer are not linear in the "
                 "message index (box " +
                 llvm::Twine(m) + ")");
  plan.toOffset = std::move(*offsets);
  return plan;
}
