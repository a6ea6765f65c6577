// planWgmmaOperand against the PTX ISA's canonical layouts for wgmma
// operands in shared memory, written here as CuTe-style (shape):(stride)
// tables in elements, one per swizzle mode and majorness, with the swizzle
// Swizzle<log2(bytes / 16), 4, 3> applied to the byte address:
//
//   K-major   none  ((8,m),(T,2k)) : ((T,SBO),(1,LBO))
//             32B   ((8,m),(T,2k)) : ((2T,SBO),(1,T))
//             64B   ((8,m),(T,2k)) : ((4T,SBO),(1,T))
//             128B  ((8,m),(T,2k)) : ((8T,SBO),(1,T))
//   MN-major  none  ((T,1,m),(8,k)) : ((1,T,SBO),(T,LBO))
//             32B   ((T,2,m),(8,k)) : ((1,T,LBO),(2T,SBO))
//             64B   ((T,4,m),(8,k)) : ((1,T,LBO),(4T,SBO))
//             128B  ((T,8,m),(8,k)) : ((1,T,LBO),(8T,SBO))
//
// T = 16 bytes / element size. For every buffer of Triton's nvmma_shared
// layouts wgmma can read, every element of every instruction tile must be
// where the table puts it under the descriptor planWgmmaOperand derived.
#include "tgpu/Layout/Encodings.h"
#include "tgpu/Layout/Wgmma.h"

#include <gtest/gtest.h>

#include <rapidcheck/gtest.h>

using namespace tgpu::layout;

namespace {

// One mode of a CuTe layout: its shape and stride, the coordinate split
// colexicographically (first entry fastest).
struct Mode {
  std::vector<int64_t> shape, stride;
  int64_t apply(int64_t x) const {
    int64_t off = 0;
    for (size_t i = 0; i < shape.size(); ++i) {
      int64_t c = i + 1 < shape.size() ? x % shape[i] : x;
      off += c * stride[i];
      x /= shape[i];
    }
    return off;
  }
};

// The byte address the table above gives element (mn, k) of a tile that
// starts at `start` (a multiple of the swizzle period), for descriptor
// fields in bytes.
int64_t canonicalAddress(const WgmmaOperandDesc &d, int64_t start, int mn,
                         int k, int elemBytes) {
  int64_t t = 16 / elemBytes;
  int64_t lbo = d.leadingByteOffset / elemBytes;
  int64_t sbo = d.strideByteOffset / elemBytes;
  int64_t w = d.swizzleBytes / 16; // chunks per swizzled row; 0: none
  Mode mnMode, kMode;
  if (!d.mnMajor) {
    mnMode = {{8, 1 << 20}, {w ? w * t : t, sbo}};
    kMode = {{t, 1 << 20}, {1, w ? t : lbo}};
  } else if (w == 0) {
    mnMode = {{t, 1, 1 << 20}, {1, t, sbo}};
    kMode = {{8, 1 << 20}, {t, lbo}};
  } else {
    mnMode = {{t, w, 1 << 20}, {1, t, lbo}};
    kMode = {{8, 1 << 20}, {w * t, sbo}};
  }
  int64_t byte = start + (mnMode.apply(mn) + kMode.apply(k)) * elemBytes;
  // Swizzle<B, 4, 3>: bits [4, 4 + B) ^= bits [7, 7 + B).
  int bits = w == 8 ? 3 : w == 4 ? 2 : w == 2 ? 1 : 0;
  int64_t yyy = (byte >> 7) & ((1 << bits) - 1);
  return byte ^ (yyy << 4);
}

struct Operand {
  NVMMASharedEncoding enc;
  std::vector<int64_t> shape; // [rows, cols]
  bool isB;                   // B is [K, N]; A is [M, K]
  int tileMN, tileK;
};

void showValue(const Operand &o, std::ostream &os) {
  os << (o.isB ? "B " : "A ") << "[" << o.shape[0] << ", " << o.shape[1]
     << "] nvmma swizzle " << o.enc.swizzlingByteWidth << " transposed "
     << o.enc.transposed << " bits " << o.enc.elementBitWidth << " tile "
     << o.tileMN << "x" << o.tileK;
}

rc::Gen<Operand> genOperand() {
  return rc::gen::exec([] {
    Operand o;
    int elemBits = *rc::gen::element(8, 16, 32);
    o.enc.elementBitWidth = elemBits;
    o.enc.swizzlingByteWidth = *rc::gen::element(0u, 32u, 64u, 128u);
    o.enc.transposed = *rc::gen::arbitrary<bool>();
    o.isB = *rc::gen::arbitrary<bool>();
    o.tileK = 256 / elemBits;
    o.tileMN = o.isB ? 8 << *rc::gen::inRange(0, 6) : 64;
    int mnSize = o.tileMN << *rc::gen::inRange(0, 2);
    int kSize = o.tileK << *rc::gen::inRange(0, 4);
    o.shape = o.isB ? std::vector<int64_t>{kSize, mnSize}
                    : std::vector<int64_t>{mnSize, kSize};
    return o;
  });
}

// (mn, k) -> byte offset in the buffer, from the encoding's layout.
struct BufferMap {
  LinearLayout toOffset;
  std::string mnDim, kDim;
};

std::optional<BufferMap> bufferMap(const Operand &o) {
  Encoding e = o.enc;
  auto l = toLinearLayout(o.shape, e);
  if (!l) {
    llvm::consumeError(l.takeError());
    return std::nullopt;
  }
  auto inv = l->invert();
  if (!inv)
    RC_FAIL("nvmma layout not invertible: " + llvm::toString(inv.takeError()));
  return BufferMap{std::move(*inv), o.isB ? "dim1" : "dim0",
                   o.isB ? "dim0" : "dim1"};
}

int64_t layoutByte(const BufferMap &m, int mn, int k, int elemBytes) {
  auto out = m.toOffset.apply({{m.mnDim, mn}, {m.kDim, k}});
  if (!out)
    RC_FAIL(llvm::toString(out.takeError()));
  for (auto &[name, v] : *out)
    if (name == "offset")
      return int64_t(v) * elemBytes;
  RC_FAIL("no offset");
}

} // namespace

// Whatever descriptor is planned reads every tile as the canonical layout
// table says the hardware does.
RC_GTEST_PROP(Wgmma, PlannedDescriptorsReadTheBuffer, ()) {
  Operand o = *genOperand();
  auto m = bufferMap(o);
  RC_PRE(m.has_value());
  int elemBytes = o.enc.elementBitWidth / 8;
  auto d = planWgmmaOperand(m->toOffset, m->mnDim, m->kDim, o.tileMN, o.tileK,
                            o.enc.elementBitWidth);
  RC_TAG(d ? "planned" : "refused");
  if (!d) {
    llvm::consumeError(d.takeError());
    return;
  }
  int sizeMN = o.shape[o.isB ? 1 : 0], sizeK = o.shape[o.isB ? 0 : 1];
  for (int mn0 = 0; mn0 < sizeMN; mn0 += o.tileMN)
    for (int k0 = 0; k0 < sizeK; k0 += o.tileK) {
      int64_t start = layoutByte(*m, mn0, k0, elemBytes);
      for (int mn = 0; mn < o.tileMN; ++mn)
        for (int k = 0; k < o.tileK; ++k)
          RC_ASSERT(canonicalAddress(*d, start, mn, k, elemBytes) ==
                    layoutByte(*m, mn0 + mn, k0 + k, elemBytes));
    }
}

// The nvmma_shared layouts Triton gives wgmma operands are all planned: a
// swizzle as wide as the contiguous dim allows (its row of 8 x swizzle
// bytes fits), or none when that dim is one 16-byte chunk; MN-major only
// for 16-bit elements.
RC_GTEST_PROP(Wgmma, PlansTritonsOperandLayouts, ()) {
  Operand o = *genOperand();
  int elemBytes = o.enc.elementBitWidth / 8;
  // Whether the contiguous dim is MN (A transposed, or B not).
  bool mnMajor = o.isB != o.enc.transposed;
  int contiguous = o.shape[o.enc.transposed ? 0 : 1];
  int64_t bytes = int64_t(contiguous) * elemBytes;
  unsigned sw = o.enc.swizzlingByteWidth;
  bool swizzleFits = sw == 0 ? bytes == 16 : bytes >= int64_t(sw);
  RC_PRE(swizzleFits);
  bool readable = !mnMajor || elemBytes == 2;
  RC_PRE(readable);
  auto m = bufferMap(o);
  RC_ASSERT(m.has_value());
  auto d = planWgmmaOperand(m->toOffset, m->mnDim, m->kDim, o.tileMN, o.tileK,
                            o.enc.elementBitWidth);
  if (!d)
    RC_FAIL(llvm::toString(d.takeError()));
  RC_ASSERT(d->mnMajor == mnMajor);
  RC_ASSERT(d->swizzleBytes == int(sw));
  RC_TAG(sw, mnMajor);
}

// The address model the planner checks with is the table's, for any
// descriptor fields.
RC_GTEST_PROP(Wgmma, ElementAddressIsTheCanonicalLayout, ()) {
  WgmmaOperandDesc d;
  d.swizzleBytes = *rc::gen::element(0, 32, 64, 128);
  int elemBytes = *rc::gen::element(1, 2, 4);
  d.mnMajor = elemBytes == 2 && *rc::gen::arbitrary<bool>();
  d.leadingByteOffset = 16 * *rc::gen::inRange(0, 1024);
  d.strideByteOffset = 16 * *rc::gen::inRange(0, 1024);
  int64_t period = d.swizzleBytes ? d.swizzlePeriodBytes() : 16;
  int64_t start = period * *rc::gen::inRange(0, 64);
  int tileK = 32 / elemBytes;
  int tileMN = 8 * *rc::gen::inRange(1, 33);
  int mn = *rc::gen::inRange(0, tileMN);
  int k = *rc::gen::inRange(0, tileK);
  RC_ASSERT(wgmmaElementAddress(d, start, mn, k, elemBytes) ==
            canonicalAddress(d, start, mn, k, elemBytes));
}

// Descriptor bits worked out by hand from the PTX ISA's field table.
TEST(Wgmma, EncodesTheDescriptorFields) {
  WgmmaOperandDesc d;
  d.swizzleBytes = 128;
  d.leadingByteOffset = 16;
  d.strideByteOffset = 1024;
  // start 0x400 >> 4 = 0x40; LBO 1 << 16; SBO 0x40 << 32; mode 1 << 62.
  EXPECT_EQ(d.encode(0x400), 0x4000004000010040ull);
  d.swizzleBytes = 32;
  d.leadingByteOffset = 0;
  d.strideByteOffset = 256;
  // 0x3 << 62 | 0x10 << 32 | 0x2000 >> 4.
  EXPECT_EQ(d.encode(0x2000), 0xC000001000000200ull);
  d.swizzleBytes = 0;
  d.leadingByteOffset = 128;
  d.strideByteOffset = 256;
  EXPECT_EQ(d.encode(16), 0x0000001000080001ull);
}

// Rows 48 bytes apart fit no mode (rows are 16, 32, 64 or 128 bytes apart); a
// column of 4-byte elements MN-major is not something wgmma reads.
TEST(Wgmma, RefusesWhatNoDescriptorDescribes) {
  auto rows48 =
      LinearLayout::create({{"dim1", {{1}, {2}, {4}, {8}}},
                            {"dim0", {{24}, {48}, {96}, {192}, {384}, {768}}}},
                           {{"offset", 2048}}, false);
  ASSERT_TRUE(bool(rows48));
  auto d = planWgmmaOperand(*rows48, "dim0", "dim1", 64, 16, 16);
  ASSERT_FALSE(bool(d));
  EXPECT_NE(llvm::toString(d.takeError()).find("no wgmma descriptor reads"),
            std::string::npos);
  auto mnMajor32 =
      LinearLayout::create({{"dim0", {{1}, {2}, {4}, {8}, {16}, {32}}},
                            {"dim1", {{64}, {128}, {256}}}},
                           {{"offset", 512}}, false);
  ASSERT_TRUE(bool(mnMajor32));
  auto e = planWgmmaOperand(*mnMajor32, "dim0", "dim1", 64, 8, 32);
  ASSERT_FALSE(bool(e));
  EXPECT_NE(llvm::toString(e.takeError()).find("K-major only"),
            std::string::npos);
}
