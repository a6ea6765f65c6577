// The CPU oracle's 8-bit float codecs (oracles/cpu/Values.h) against LLVM's
// APFloat, an independent implementation of f8E4M3FN and f8E5M2:
//   - decoding: every code;
//   - rounding to nearest even with PTX's .satfinite: every f16 and bf16
//     value and a sweep of f32 values (every sign, exponent and top eight
//     mantissa bits, with low bits that make ties and near-ties), the
//     expected code being APFloat's unless APFloat overflows (infinity, or
//     NaN for e4m3fn), where .satfinite gives the largest finite value;
//   - f32 -> e5m2 toward zero against the sequence Triton emits for it
//     (cvt.rz.f16.f32, then the high byte of the f16), done with APFloat;
//   - each code's value encodes back to the code.
#include "oracles/cpu/Values.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace tgpu::cpu;
using llvm::APFloat;

namespace {

struct Format {
  const char *name;
  const Fp8Format &codec;
  const llvm::fltSemantics &sem;
  uint8_t maxCode; // the largest finite magnitude, from the format's definition
};

const Format kFormats[] = {
    {"e4m3fn", kE4M3FN, APFloat::Float8E4M3FN(), 0x7E}, // 448
    {"e5m2", kE5M2, APFloat::Float8E5M2(), 0x7B},       // 57344
};

// The code cvt.rn.satfinite gives for `src` (a value of some wider format).
uint8_t expectedSatFinite(APFloat src, const Format &f) {
  if (src.isNaN())
    return 0x7F; // the oracle's NaN code (a NaN in both formats)
  uint8_t sign = src.isNegative() ? 0x80 : 0;
  bool lost = false;
  APFloat r = src;
  r.convert(f.sem, APFloat::rmNearestTiesToEven, &lost);
  if (src.isInfinity() || !r.isFinite())
    return sign | f.maxCode;
  return uint8_t(r.bitcastToAPInt().getZExtValue());
}

void checkSatFinite(const APFloat &src, const Format &f) {
  uint8_t want = expectedSatFinite(src, f);
  double v = src.convertToDouble(); // exact: f16, bf16 and f32 fit a double
  uint8_t got = fp8BitsFromDouble(v, f.codec);
  ASSERT_EQ(int(got), int(want))
      << f.name << " of " << v << " (bits 0x" << std::hex
      << src.bitcastToAPInt().getZExtValue() << ")";
}

APFloat f32FromBits(uint32_t bits) {
  return APFloat(APFloat::IEEEsingle(), llvm::APInt(32, bits));
}

// Every sign, exponent and top-8 mantissa bits of f32, with low 15 bits
// 0, 1, just below and at the half of bit 15, and all ones.
std::vector<uint32_t> f32Sweep() {
  std::vector<uint32_t> r;
  for (uint32_t high = 0; high < (1u << 17); ++high)
    for (uint32_t low : {0x0u, 0x1u, 0x3FFFu, 0x4000u, 0x7FFFu})
      r.push_back(high << 15 | low);
  return r;
}

TEST(CpuOracleFp8, DecodeEveryCode) {
  for (const Format &f : kFormats)
    for (unsigned c = 0; c < 256; ++c) {
      APFloat want(f.sem, llvm::APInt(8, c));
      double got = floatFromFp8Bits(uint8_t(c), f.codec);
      if (want.isNaN()) {
        EXPECT_TRUE(std::isnan(got)) << f.name << " code " << c;
        continue;
      }
      double w = want.convertToDouble();
      EXPECT_EQ(got, w) << f.name << " code " << c;
      EXPECT_EQ(std::signbit(got), std::signbit(w)) << f.name << " code " << c;
    }
}

TEST(CpuOracleFp8, LargestFiniteAndSpecialCodes) {
  // From the formats' definitions, not from APFloat.
  EXPECT_EQ(floatFromFp8Bits(0x7E, kE4M3FN), 448.0);
  EXPECT_EQ(floatFromFp8Bits(0x01, kE4M3FN), std::ldexp(1.0, -9));
  EXPECT_TRUE(std::isnan(floatFromFp8Bits(0x7F, kE4M3FN)));
  EXPECT_TRUE(std::isnan(floatFromFp8Bits(0xFF, kE4M3FN)));
  EXPECT_EQ(floatFromFp8Bits(0x7B, kE5M2), 57344.0);
  EXPECT_EQ(floatFromFp8Bits(0x01, kE5M2), std::ldexp(1.0, -16));
  EXPECT_TRUE(std::isinf(floatFromFp8Bits(0x7C, kE5M2)));
  EXPECT_TRUE(std::isinf(floatFromFp8Bits(0xFC, kE5M2)));
  for (uint8_t nan : {0x7D, 0x7E, 0x7F, 0xFD, 0xFE, 0xFF})
    EXPECT_TRUE(std::isnan(floatFromFp8Bits(nan, kE5M2)));
}

TEST(CpuOracleFp8, SatFiniteFromEveryF16AndBF16) {
  for (const Format &f : kFormats)
    for (uint32_t b = 0; b < 0x10000; ++b) {
      checkSatFinite(APFloat(APFloat::IEEEhalf(), llvm::APInt(16, b)), f);
      checkSatFinite(APFloat(APFloat::BFloat(), llvm::APInt(16, b)), f);
    }
}

TEST(CpuOracleFp8, SatFiniteFromF32Sweep) {
  std::vector<uint32_t> sweep = f32Sweep();
  for (const Format &f : kFormats)
    for (uint32_t b : sweep)
      checkSatFinite(f32FromBits(b), f);
}

// Triton lowers f32 -> f8E5M2 with rounding = rtz as cvt.rz.f16.f32 and then
// the f16's high byte (the e5m2 code is an f16's top 8 bits).
TEST(CpuOracleFp8, TowardZeroE5M2AsTritonsSequence) {
  for (uint32_t b : f32Sweep()) {
    APFloat src = f32FromBits(b);
    APFloat half = src;
    bool lost = false;
    half.convert(APFloat::IEEEhalf(), APFloat::rmTowardZero, &lost);
    uint8_t want = uint8_t(half.bitcastToAPInt().getZExtValue() >> 8);
    double v = src.convertToDouble();
    uint8_t got = fp8BitsFromDouble(v, kE5M2, /*towardZero=*/true);
    if (src.isNaN()) {
      EXPECT_TRUE(std::isnan(floatFromFp8Bits(got, kE5M2))) << v;
      continue;
    }
    ASSERT_EQ(int(got), int(want)) << v << " (bits 0x" << std::hex << b << ")";
  }
}

TEST(CpuOracleFp8, EveryValueEncodesToItsCode) {
  for (const Format &f : kFormats)
    for (unsigned c = 0; c < 256; ++c) {
      double v = floatFromFp8Bits(uint8_t(c), f.codec);
      if (std::isnan(v))
        continue;
      EXPECT_EQ(int(fp8BitsOfValue(v, f.codec)), int(c)) << f.name << " " << v;
      if (std::isfinite(v))
        EXPECT_EQ(int(fp8BitsFromDouble(v, f.codec)), int(c))
            << f.name << " " << v;
    }
}

TEST(CpuOracleFp8, ScalarKindNames) {
  ScalarKind k;
  ASSERT_TRUE(parseScalarKind("f8E4M3FN", k));
  EXPECT_EQ(k, ScalarKind::F8E4M3FN);
  EXPECT_EQ(byteSize(k), 1u);
  ASSERT_TRUE(parseScalarKind("f8E5M2", k));
  EXPECT_EQ(k, ScalarKind::F8E5M2);
  EXPECT_EQ(name(k), "f8E5M2");
}

} // namespace
