// The GPU oracle's plain C++ side (oracles/gpu/bundle): the JSON reader the
// runner trusts with every bundle, the element decoding and the comparison
// rules of BUNDLE.md, checked against values worked out by hand.
#include "oracles/gpu/bundle/Bundle.h"
#include "oracles/gpu/bundle/Compare.h"
#include "oracles/gpu/bundle/Json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace tgpu::bundle;

namespace {

Json parsed(const std::string &text) {
  Json j;
  std::string error;
  EXPECT_TRUE(Json::parse(text, j, error)) << error;
  return j;
}

std::string parseError(const std::string &text) {
  Json j;
  std::string error;
  EXPECT_FALSE(Json::parse(text, j, error)) << text;
  return error;
}

template <typename T> std::vector<uint8_t> bytesOf(std::initializer_list<T> values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  std::memcpy(out.data(), std::data(values), out.size());
  return out;
}

} // namespace

TEST(BundleJson, RoundTripKeepsOrderAndNumberText) {
  Json j = parsed(R"({"b": [1, 2.50, -3e2], "a": {"x": "\u00e9\n"}, "u": 18446744073709551615})");
  EXPECT_EQ(j.dump(-1), R"({"b":[1,2.50,-3e2],"a":{"x":"é\n"},"u":18446744073709551615})");
  uint64_t u = 0;
  ASSERT_TRUE(j.get("u")->asUint64(u));
  EXPECT_EQ(u, std::numeric_limits<uint64_t>::max());
  int64_t i = 0;
  EXPECT_FALSE(j.get("u")->asInt64(i)); // does not fit
  EXPECT_EQ(j.get("b")->items()[2].asDouble(), -300.0);
  EXPECT_EQ(parsed(R"("\ud83d\ude00")").asString(), "\xF0\x9F\x98\x80");
}

TEST(BundleJson, ErrorsAreLocated) {
  // (located just after the repeated name)
  EXPECT_EQ(parseError("{\"a\": 1,\n \"a\": 2}"), "line 2, column 5: duplicate member 'a'");
  EXPECT_EQ(parseError("[1, 2] x"), "line 1, column 8: trailing text");
  EXPECT_EQ(parseError("{\"a\" 1}"), "line 1, column 6: expected ':'");
  EXPECT_EQ(parseError("\"\\q\""), "line 1, column 4: bad escape '\\q'");
  EXPECT_EQ(parseError("12x"), "line 1, column 3: trailing text");
  EXPECT_EQ(parseError("-"), "line 1, column 2: bad number");
  EXPECT_EQ(parseError(""), "line 1, column 1: unexpected end of text");
  // Deep nesting is refused, not recursed into until the stack runs out.
  EXPECT_EQ(parseError(std::string(100000, '[')), "line 1, column 66: nested deeper than 64 levels");
}

TEST(BundleElements, DecodeClosedForms) {
  auto half = bytesOf<uint16_t>({0x3C00, 0x7C00, 0x0001, 0xC000, 0x7E00});
  EXPECT_EQ(elemAsDouble(Elem::F16, half.data(), 0), 1.0);
  EXPECT_TRUE(std::isinf(elemAsDouble(Elem::F16, half.data(), 1)));
  EXPECT_EQ(elemAsDouble(Elem::F16, half.data(), 2), std::ldexp(1.0, -24)); // smallest subnormal
  EXPECT_EQ(elemAsDouble(Elem::F16, half.data(), 3), -2.0);
  EXPECT_TRUE(std::isnan(elemAsDouble(Elem::F16, half.data(), 4)));
  auto bf = bytesOf<uint16_t>({0x3F80, 0xC0A0});
  EXPECT_EQ(elemAsDouble(Elem::BF16, bf.data(), 0), 1.0);
  EXPECT_EQ(elemAsDouble(Elem::BF16, bf.data(), 1), -5.0);
  auto i8 = bytesOf<uint8_t>({0xFF, 0x80});
  EXPECT_EQ(elemAsDouble(Elem::I8, i8.data(), 0), -1.0);
  EXPECT_EQ(elemAsDouble(Elem::I8, i8.data(), 1), -128.0);
  EXPECT_EQ(formatElement(Elem::I16, -2, 0xFFFE), "-2");
}

TEST(BundleCompare, IntegersByBitsAndBoolsByTheLowBit) {
  auto want = bytesOf<int32_t>({1, -7, 3});
  auto got = bytesOf<int32_t>({1, -7, 4});
  CompareRule loose{1e9, 1e9, ""}; // tolerances never apply to integers
  BufferVerdict v = compareBuffer(Elem::I32, 3, got.data(), want.data(), loose, false);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.mismatches, 1u);
  ASSERT_EQ(v.first.size(), 1u);
  EXPECT_EQ(v.first[0].index, 2u);
  // i1 is a byte whose low bit is the value.
  auto b1 = bytesOf<uint8_t>({1, 0}), b2 = bytesOf<uint8_t>({0xFF, 0xFE});
  EXPECT_TRUE(compareBuffer(Elem::I1, 2, b2.data(), b1.data(), {}, false).ok);
}

TEST(BundleCompare, FloatRule) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  CompareRule rule{0.25, 0.5, ""}; // |g - e| <= 0.25 + 0.5 |e|
  auto want = bytesOf<float>({2.0f, -0.0f, nan, inf, 1.0f, 4.0f});
  // 2 + 1.25 is exactly at the bound; +0 for -0; NaN where NaN; the same
  // infinity; 1 + 0.75 at the bound.
  auto got = bytesOf<float>({3.25f, 0.0f, -nan, inf, 0.25f, 6.5f});
  BufferVerdict v = compareBuffer(Elem::F32, 6, got.data(), want.data(), rule, false);
  EXPECT_EQ(v.mismatches, 1u); // 6.5 vs 4: 2.5 > 0.25 + 0.5 * 4
  EXPECT_EQ(v.first.at(0).index, 5u);
  EXPECT_DOUBLE_EQ(v.worstError, 1.0);

  auto numberForNan = bytesOf<float>({2.0f, 0.0f, 1.0f, inf, 1.0f, 4.0f});
  v = compareBuffer(Elem::F32, 6, numberForNan.data(), want.data(), rule, false);
  EXPECT_EQ(v.mismatches, 1u);
  EXPECT_EQ(v.first.at(0).index, 2u);
  auto otherInf = bytesOf<float>({2.0f, 0.0f, nan, -inf, 1.0f, 4.0f});
  v = compareBuffer(Elem::F32, 6, otherInf.data(), want.data(), rule, false);
  EXPECT_EQ(v.first.at(0).index, 3u);
  // The exact rule: any difference fails.
  auto close = bytesOf<float>({std::nextafter(2.0f, 3.0f)});
  EXPECT_FALSE(compareBuffer(Elem::F32, 1, close.data(), want.data(), {}, false).ok);
}

TEST(BundleCompare, PoisonMarksUnwrittenElements) {
  std::vector<uint8_t> poison(8, kPoisonByte);
  auto want = bytesOf<float>({1.0f, 2.0f});
  std::vector<uint8_t> got = poison;
  std::memcpy(got.data(), want.data(), 4); // element 0 written, element 1 not
  BufferVerdict v = compareBuffer(Elem::F32, 2, got.data(), want.data(), {}, true);
  EXPECT_EQ(v.mismatches, 1u);
  EXPECT_EQ(v.unwritten, 1u);
  EXPECT_TRUE(v.first.at(0).unwritten);
  EXPECT_EQ(describe(v, 3, Elem::F32, 2, {}),
            "arg3[1]: never written (expected 2 (0x40000000)); 1 of 2 elements differ, 1 never written");
  // Without poison the same element is only a wrong value.
  v = compareBuffer(Elem::F32, 2, got.data(), want.data(), {}, false);
  EXPECT_EQ(v.unwritten, 0u);
}

namespace {

Arg descriptorArg(Elem elem, std::vector<uint64_t> shape,
                  std::vector<uint64_t> strides, uint64_t count) {
  Arg a;
  a.isBuffer = a.isDescriptor = true;
  a.elem = a.buffer.elem = elem;
  a.shape = std::move(shape);
  a.strides = std::move(strides);
  a.buffer.count = count;
  return a;
}

std::string descriptorError(const Arg &a) {
  std::string why;
  EXPECT_FALSE(checkDescriptorArg(a, why));
  return why;
}

} // namespace

TEST(BundleDescriptors, TmaRulesOnShapeAndStrides) {
  std::string why;
  // Contiguous: the count is the product of the shape.
  EXPECT_TRUE(checkDescriptorArg(
      descriptorArg(Elem::F16, {100, 72}, {72, 1}, 7200), why))
      << why;
  EXPECT_TRUE(checkDescriptorArg(
      descriptorArg(Elem::F32, {2, 3, 4}, {12, 4, 1}, 24), why))
      << why;
  EXPECT_TRUE(checkDescriptorArg(descriptorArg(Elem::I8, {5}, {1}, 5), why))
      << why;
  EXPECT_EQ(descriptorError(descriptorArg(Elem::F16, {100, 72}, {72, 1}, 7201)),
            "count 7201 does not match the shape and strides (7200 elements)");
  // Padded rows: row 3 of 4 starts at 3 * 16, its last element is 48 + 7.
  EXPECT_TRUE(
      checkDescriptorArg(descriptorArg(Elem::F32, {4, 8}, {16, 1}, 56), why))
      << why;
  EXPECT_EQ(
      descriptorError(descriptorArg(Elem::F32, {4, 8}, {16, 1}, 55)),
      "count 55 does not match the shape and strides (the last element is 55)");
  // Row strides are multiples of 16 bytes: 8 f16 are, 4 f16 are not.
  EXPECT_TRUE(
      checkDescriptorArg(descriptorArg(Elem::F16, {3, 8}, {8, 1}, 24), why))
      << why;
  EXPECT_EQ(descriptorError(descriptorArg(Elem::F16, {3, 4}, {4, 1}, 12)),
            "strides[0] is 8 bytes; TMA wants a multiple of 16");
  EXPECT_EQ(descriptorError(descriptorArg(Elem::F32, {4, 4}, {4, 2}, 16)),
            "strides[1] is 2; TMA wants the innermost stride 1");
  EXPECT_EQ(descriptorError(descriptorArg(Elem::F32, {4, 4}, {4}, 16)),
            "a descriptor of rank 2 needs as many strides, not 1");
  EXPECT_EQ(descriptorError(descriptorArg(Elem::F32, {}, {}, 16)),
            "a descriptor's shape wants 1 to 5 sizes");
  EXPECT_EQ(descriptorError(descriptorArg(Elem::F32, {1, 1, 1, 1, 1, 4},
                                          {4, 4, 4, 4, 4, 1}, 4)),
            "a descriptor's shape wants 1 to 5 sizes");
  EXPECT_EQ(descriptorError(descriptorArg(Elem::F32, {0, 4}, {4, 1}, 16)),
            "shape[0] wants 1 to 2^32");
}

TEST(BundleDescriptors, TensorMapParamsAreInTheDriversOrder) {
  Bundle b;
  b.args.push_back(
      descriptorArg(Elem::BF16, {3, 40, 64}, {40 * 64, 64, 1}, 3 * 40 * 64));
  Arg scalar;
  b.args.push_back(scalar);
  Image image;
  image.descriptors.push_back({0, {1, 16, 64}, 128, 2});
  TensorMapParams p;
  std::string why;
  ASSERT_TRUE(tensorMapParams(b, image, 0, p, why)) << why;
  EXPECT_EQ(p.rank, 3u);
  EXPECT_EQ(p.elem, Elem::BF16);
  EXPECT_EQ(p.swizzleBytes, 128u);
  // Dimension 0 is the innermost; strides in bytes from dimension 1 on.
  EXPECT_EQ(p.globalDim[0], 64u);
  EXPECT_EQ(p.globalDim[1], 40u);
  EXPECT_EQ(p.globalDim[2], 3u);
  EXPECT_EQ(p.globalStridesBytes[0], 128u);
  EXPECT_EQ(p.globalStridesBytes[1], 5120u);
  EXPECT_EQ(p.boxDim[0], 64u);
  EXPECT_EQ(p.boxDim[1], 16u);
  EXPECT_EQ(p.boxDim[2], 1u);
  EXPECT_EQ(p.elementStrides[0], 1u);
  EXPECT_EQ(p.elementStrides[2], 1u);
  EXPECT_FALSE(tensorMapParams(b, image, 1, p, why));
  EXPECT_EQ(why, "argument 1 is not a descriptor");
  Image bare;
  bare.impl = "triton";
  EXPECT_FALSE(tensorMapParams(b, bare, 0, p, why));
  EXPECT_EQ(why, "image 'triton' gives no encoding (box, swizzle) for "
                 "descriptor argument 0");
}

TEST(BundleDescriptors, JsonRoundTrip) {
  Bundle b;
  b.name = "d";
  b.args.push_back(descriptorArg(Elem::F16, {16, 8}, {8, 1}, 128));
  b.args[0].buffer.input = "in/arg0.bin";
  b.args[0].buffer.expected = "ref/arg0.bin";
  Image image;
  image.file = "kernel.ptx";
  image.entry = "k";
  image.descriptors.push_back({0, {8, 8}, 0, 2});
  b.images.push_back(image);
  EXPECT_EQ(
      bundleToJson(b).dump(-1),
      "{\"format\":\"tgpu-bundle-1\",\"name\":\"d\",\"grid\":[1,1,1],\"args\":["
      "{\"kind\":"
      "\"descriptor\",\"type\":\"f16\",\"count\":128,\"shape\":[16,8],"
      "\"strides\":[8,1],"
      "\"input\":\"in/arg0.bin\",\"expected\":\"ref/"
      "arg0.bin\",\"output\":false}],"
      "\"images\":[{\"impl\":\"tgpu\",\"file\":\"kernel.ptx\",\"entry\":\"k\","
      "\"block\":"
      "[128,1,1],\"shared_bytes\":0,\"descriptors\":[{\"arg\":0,\"box\":[8,8],"
      "\"swizzle_bytes\":0,\"elem_bytes\":2}]}]}");
}
