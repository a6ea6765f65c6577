// planTmaCopy against a model of what TMA writes, stated as the CUDA driver
// documents the swizzled box (cuTensorMapEncodeTiled, CUtensorMapSwizzle):
// the box is stored row after row, a row being its innermost dim; with a
// swizzle of S bytes each row is S bytes and the 16-byte chunk c of a row
// that starts in 128-byte line l of the box is stored at chunk position
// c ^ (l mod (S / 16)) (CUTLASS's Swizzle<log2(S / 16), 4, 3>: the
// pattern repeats every 8 lines). Without a swizzle the box is dense. The
// buffers are Triton's nvmma_shared layouts (their element placement from
// toLinearLayout, checked against Triton elsewhere).
#include "tgpu/Layout/Encodings.h"
#include "tgpu/Layout/Tma.h"

#include <gtest/gtest.h>

#include <rapidcheck/gtest.h>

using namespace tgpu::layout;

namespace {

// The byte (from the box's start) the documented placement gives element
// `within` of a box.
int64_t documentedByte(int swizzleBytes, const std::vector<int32_t> &box,
                       const std::vector<int32_t> &within, int elemBytes) {
  int64_t row = 0;
  for (size_t d = 0; d + 1 < box.size(); ++d)
    row = row * box[d] + within[d];
  int64_t rowBytes = int64_t(box.back()) * elemBytes;
  int64_t inRow = int64_t(within.back()) * elemBytes;
  if (swizzleBytes == 0)
    return row * rowBytes + inRow;
  int64_t chunk = inRow / 16, inChunk = inRow % 16;
  int64_t chunks = swizzleBytes / 16;
  int64_t line = row * rowBytes / 128;
  int64_t placed = chunk ^ (line % chunks);
  return row * rowBytes + placed * 16 + inChunk;
}

struct Buffer {
  NVMMASharedEncoding enc;
  std::vector<int64_t> shape;
};

void showValue(const Buffer &b, std::ostream &os) {
  os << "[";
  for (size_t i = 0; i < b.shape.size(); ++i)
    os << (i ? ", " : "") << b.shape[i];
  os << "] nvmma swizzle " << b.enc.swizzlingByteWidth << " bits "
     << b.enc.elementBitWidth;
}

rc::Gen<Buffer> genBuffer() {
  return rc::gen::exec([] {
    Buffer b;
    b.enc.elementBitWidth = *rc::gen::element(8u, 16u, 32u);
    b.enc.swizzlingByteWidth = *rc::gen::element(0u, 32u, 64u, 128u);
    unsigned rank = *rc::gen::inRange(2u, 4u);
    b.enc.rank = rank;
    for (unsigned d = 0; d + 1 < rank; ++d)
      b.shape.push_back(int64_t(1) << *rc::gen::inRange(0, 9));
    // The innermost dim: from one 16-byte chunk to 1024 bytes.
    int elemBytes = b.enc.elementBitWidth / 8;
    b.shape.push_back((16 / elemBytes) << *rc::gen::inRange(0, 7));
    return b;
  });
}

LinearLayout elementToOffset(const Buffer &b) {
  Encoding e = b.enc;
  auto l = toLinearLayout(b.shape, e);
  // Buffers smaller than the layout's swizzle atom do not exist.
  if (!l)
    llvm::consumeError(l.takeError());
  RC_PRE(bool(l));
  auto inv = l->invert();
  if (!inv)
    RC_FAIL("not invertible: " + llvm::toString(inv.takeError()));
  return std::move(*inv);
}

int64_t elementByte(const LinearLayout &toOffset,
                    const std::vector<int32_t> &coord, int elemBytes) {
  std::vector<LinearLayout::NamedValue> ins;
  for (size_t d = 0; d < coord.size(); ++d)
    ins.push_back({"dim" + std::to_string(d), coord[d]});
  auto out = toOffset.apply(ins);
  if (!out)
    RC_FAIL(llvm::toString(out.takeError()));
  for (auto &[name, v] : *out)
    if (name == "offset")
      return int64_t(v) * elemBytes;
  RC_FAIL("no offset");
}

int64_t product(const std::vector<int32_t> &v) {
  int64_t p = 1;
  for (int32_t x : v)
    p *= x;
  return p;
}

} // namespace

// Triton's rule for the box: 256 at most a dim, one swizzle span along the
// innermost dim; the boxes tile the buffer (dim 0's first); each box lies
// in the buffer where the documented placement puts its elements.
RC_GTEST_PROP(Tma, PlansEveryNvmmaBufferAsTmaWritesIt, ()) {
  Buffer b = *genBuffer();
  int elemBytes = b.enc.elementBitWidth / 8;
  int sw = int(b.enc.swizzlingByteWidth);
  int64_t inner = b.shape.back() * elemBytes;
  // A swizzled row needs the whole span; the check below visits every
  // element.
  RC_PRE(sw == 0 || inner >= sw);
  int64_t elems = 1;
  for (int64_t s : b.shape)
    elems *= s;
  RC_PRE(elems <= (int64_t(1) << 16));
  LinearLayout toOffset = elementToOffset(b);
  auto plan = planTmaCopy(b.shape, toOffset, b.enc.elementBitWidth, sw);
  if (!plan)
    RC_FAIL(llvm::toString(plan.takeError()));
  size_t rank = b.shape.size();
  for (size_t d = 0; d < rank; ++d) {
    int64_t want = std::min<int64_t>(b.shape[d], 256);
    if (d + 1 == rank && sw)
      want = sw / elemBytes;
    RC_ASSERT(plan->box[d] == want);
  }
  int64_t total = 1;
  for (int64_t s : b.shape)
    total *= s;
  RC_ASSERT(plan->numMessages() * product(plan->box) == total);

  std::vector<bool> seen(size_t(total), false);
  std::vector<int32_t> within(rank), coord(rank);
  for (int32_t m = 0; m < plan->numMessages(); ++m) {
    auto origin = plan->toCoord.apply({{"msg", m}});
    RC_ASSERT(bool(origin));
    auto offset = plan->toOffset.apply({{"msg", m}});
    RC_ASSERT(bool(offset));
    int64_t start = int64_t((*offset)[0].second) * elemBytes;
    // Message m's box: dim 0's boxes vary fastest with m.
    int64_t rest = m;
    for (size_t d = 0; d < rank; ++d) {
      int64_t boxes = b.shape[d] / plan->box[d];
      RC_ASSERT((*origin)[d].second == (rest % boxes) * plan->box[d]);
      rest /= boxes;
    }
    for (int64_t e = 0; e < product(plan->box); ++e) {
      int64_t r = e;
      for (size_t d = rank; d-- > 0;) {
        within[d] = int32_t(r % plan->box[d]);
        r /= plan->box[d];
      }
      for (size_t d = 0; d < rank; ++d)
        coord[d] = (*origin)[d].second + within[d];
      int64_t byte = elementByte(toOffset, coord, elemBytes);
      RC_ASSERT(byte ==
                start + documentedByte(sw, plan->box, within, elemBytes));
      RC_ASSERT(!seen[size_t(byte / elemBytes)]);
      seen[size_t(byte / elemBytes)] = true;
    }
  }
  RC_TAG(sw, plan->numMessages() > 1 ? "several boxes" : "one box");
}

// The address model planTmaCopy checks with is the documented placement,
// for boxes starting on a swizzle period.
RC_GTEST_PROP(Tma, BoxElementAddressIsTheDocumentedPlacement, ()) {
  int sw = *rc::gen::element(0, 32, 64, 128);
  int elemBytes = *rc::gen::element(1, 2, 4, 8);
  std::vector<int32_t> box;
  unsigned rank = *rc::gen::inRange(1u, 6u);
  for (unsigned d = 0; d + 1 < rank; ++d)
    box.push_back(1 << *rc::gen::inRange(0, 9));
  box.push_back(sw ? sw / elemBytes
                   : (16 / elemBytes) << *rc::gen::inRange(0, 5));
  RC_PRE(box.back() >= 1);
  std::vector<int32_t> within;
  for (int32_t b : box)
    within.push_back(*rc::gen::inRange(0, b));
  int64_t period = sw ? 8 * sw : 128;
  int64_t start = period * *rc::gen::inRange(0, 64);
  RC_ASSERT(tmaBoxElementAddress(sw, box, within, elemBytes, start) ==
            start + documentedByte(sw, box, within, elemBytes));
}

// What TMA cannot copy is refused with a reason, not planned wrongly.
TEST(Tma, RefusesWhatItCannotCopy) {
  // Each is refused before the buffer's layout is read.
  auto dense = [](std::vector<int64_t> shape, int bits, int sw) {
    return planTmaCopy(shape, LinearLayout(), bits, sw);
  };
  // 32 x 16-bit = 64 bytes: narrower than a 128-byte swizzle row.
  auto narrow = dense({64, 32}, 16, 128);
  ASSERT_FALSE(bool(narrow));
  EXPECT_NE(llvm::toString(narrow.takeError()).find("narrower"),
            std::string::npos);
  // A 4-bit element type is not planned here.
  auto fp4 = planTmaCopy({64, 64}, LinearLayout(), 4, 0);
  ASSERT_FALSE(bool(fp4));
  llvm::consumeError(fp4.takeError());
  // An innermost dim of 8 bytes: not a multiple of 16.
  auto thin = dense({64, 8}, 8, 0);
  ASSERT_FALSE(bool(thin));
  EXPECT_NE(llvm::toString(thin.takeError()).find("multiple of 16"),
            std::string::npos);
}
