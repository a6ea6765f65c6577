// Run-time values of the CPU oracle: dense tensors (scalars are rank 0),
// their element types, and the rounding that gives each float type its own
// precision. Integers are held as their bit pattern, zero-extended to 64
// bits; signed ops sign-extend explicitly.
#ifndef TGPU_ORACLES_CPU_VALUES_H
#define TGPU_ORACLES_CPU_VALUES_H

#include "oracles/cpu/Interpreter.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace tgpu::cpu {

struct ElemType {
  // Desc: a tensor descriptor (tt.make_tensor_descriptor, or a
  // !tt.tensordesc kernel argument).
  enum Kind : uint8_t { Int, Float, Ptr, MemDesc, Token, Desc } kind = Int;
  unsigned bits = 32;   // Int: width; Float: 8, 16, 32 or 64
  bool bf16 = false;    // Float 16: bfloat16 rather than IEEE half
  bool e4m3 = false;    // Float 8: f8E4M3FN rather than f8E5M2
  ScalarKind pointee =
      ScalarKind::I32;   // Ptr / MemDesc / Desc: element type held
  bool blockPtr = false; // Ptr to a tensor (make_tensor_ptr)
  bool isInt() const { return kind == Int; }
  bool isFloat() const { return kind == Float; }
  bool operator==(const ElemType &o) const {
    return kind == o.kind && bits == o.bits && bf16 == o.bf16 &&
           e4m3 == o.e4m3 &&
           ((kind != Ptr && kind != Desc) || pointee == o.pointee);
  }
};

// A dense row-major tensor; shape {} is a scalar. Ints and pointers live in
// `i`, floats in `f`. A memdesc names a shared allocation and a strided
// window into it.
struct Tensor {
  ElemType type;
  std::vector<int64_t> shape;
  std::vector<uint64_t> i;
  std::vector<double> f;
  // Block pointer (!tt.ptr<tensor<...>>) only: the whole tensor's shape and
  // strides (elements) and the block's offsets; `i` holds the base address.
  // A descriptor (Desc) uses bpShape and bpStrides the same way (the array
  // it describes) and `padNan` for what loads read outside it.
  std::vector<int64_t> bpShape, bpStrides, bpOffsets;
  bool padNan = false;
  // MemDesc only.
  int alloc = -1;
  int64_t offset = 0;
  std::vector<int64_t> strides;

  int64_t numel() const {
    int64_t n = 1;
    for (int64_t s : shape)
      n *= s;
    return n;
  }
  void resize(int64_t n) {
    if (type.isFloat())
      f.assign(n, 0.0);
    else
      i.assign(n, 0);
  }
};

inline uint64_t maskBits(uint64_t v, unsigned bits) {
  return bits >= 64 ? v : v & ((uint64_t(1) << bits) - 1);
}
inline int64_t sext(uint64_t v, unsigned bits) {
  if (bits >= 64)
    return int64_t(v);
  uint64_t sign = uint64_t(1) << (bits - 1);
  v = maskBits(v, bits);
  return int64_t((v ^ sign) - sign);
}

// Float rounding to a type's precision (round to nearest even).
inline float floatFromBF16Bits(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint16_t bf16BitsFromFloat(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if (std::isnan(f))
    return uint16_t((u >> 16) | 0x40); // quiet
  uint32_t bias = 0x7FFF + ((u >> 16) & 1);
  return uint16_t((u + bias) >> 16);
}
// double -> float rounding to odd, so that a second rounding to bf16 is
// the same as one rounding from double.
inline float floatRoundToOdd(double v) {
  float t = float(v);
  if (double(t) == v || std::isnan(v))
    return t;
  if (std::fabs(double(t)) > std::fabs(v))
    t = std::nextafter(t, 0.0f);
  uint32_t u;
  std::memcpy(&u, &t, 4);
  u |= 1;
  std::memcpy(&t, &u, 4);
  return t;
}

// The 8-bit floats of Hopper (OCP FP8; PTX .e4m3 / .e5m2; MLIR f8E4M3FN /
// f8E5M2): a sign bit, then exponent and `manBits` mantissa bits. Codes
// are sign-magnitude, and the magnitudes 0..maxFinite are the finite values
// in increasing order. e5m2 (bias 15) is IEEE-like: S.11111.00 is infinity,
// S.11111.xx (xx != 0) NaN. e4m3fn (bias 7) has no infinity, and only
// S.1111.111 is NaN, so S.1111.110 = 448 is its largest finite value.
struct Fp8Format {
  int manBits;
  int minExp;        // exponent of the smallest normal value (1 - bias)
  uint8_t maxFinite; // magnitude code of the largest finite value
  bool hasInf;       // maxFinite + 1 is infinity
};
inline constexpr Fp8Format kE4M3FN{3, -6, 0x7E, false}; // max 448
inline constexpr Fp8Format kE5M2{2, -14, 0x7B, true};   // max 57344
inline const Fp8Format &fp8FormatOf(bool e4m3) {
  return e4m3 ? kE4M3FN : kE5M2;
}

// The exact value of an 8-bit float code.
inline double floatFromFp8Bits(uint8_t code, const Fp8Format &f) {
  unsigned mag = code & 0x7F;
  double sign = (code & 0x80) ? -1.0 : 1.0;
  if (mag > f.maxFinite)
    return f.hasInf && mag == f.maxFinite + 1u
               ? sign * std::numeric_limits<double>::infinity()
               : std::numeric_limits<double>::quiet_NaN();
  unsigned field = mag >> f.manBits, man = mag & ((1u << f.manBits) - 1);
  // Subnormals (field 0) are man * 2^(minExp - manBits); normals add the
  // implicit leading one and scale by their exponent.
  unsigned sig = field ? man | (1u << f.manBits) : man;
  int exp = f.minExp - f.manBits + (field ? int(field) - 1 : 0);
  return sign * std::ldexp(double(sig), exp);
}

// The code of `v`, rounded as PTX's `cvt.rn.satfinite.{e4m3,e5m2}x2` does:
// to nearest even, and magnitudes beyond the largest finite value
// (infinities too) become it, with v's sign; NaN gives 0x7F (a NaN in both
// formats).
// With `towardZero`: rounded toward zero instead, and an infinity stays
// one where the format has it (Triton's f32 -> e5m2 rtz, see
// SEMANTICS.md §4).
inline uint8_t fp8BitsFromDouble(double v, const Fp8Format &f,
                                 bool towardZero = false) {
  if (std::isnan(v))
    return 0x7F;
  uint8_t sign = std::signbit(v) ? 0x80 : 0;
  double a = std::fabs(v);
  if (a == 0)
    return sign;
  if (std::isinf(a))
    return sign | (towardZero && f.hasInf ? f.maxFinite + 1 : f.maxFinite);
  // `a` in units of the spacing of its binade (subnormals: of the smallest
  // normal binade), exact: a power-of-two scaling.
  int e;
  std::frexp(a, &e); // a < 2^e
  int lead = std::max(e - 1, f.minExp);
  double n = std::ldexp(a, f.manBits - lead);
  double r = std::floor(n);
  double rest = n - r;
  if (!towardZero && (rest > 0.5 || (rest == 0.5 && std::fmod(r, 2.0) != 0)))
    r += 1;
  // Codes count values in order, 2^manBits per binade: r = 2^(manBits+1)
  // (rounded up into the next binade) lands on the next binade's first code.
  int64_t code = (int64_t(lead - f.minExp) << f.manBits) + int64_t(r);
  return sign | uint8_t(std::min<int64_t>(code, f.maxFinite));
}

// The code of a value the format holds (infinities included): its bits in
// memory and through bitcasts. NaN gives 0x7F.
inline uint8_t fp8BitsOfValue(double v, const Fp8Format &f) {
  if (std::isinf(v) && f.hasInf)
    return (std::signbit(v) ? 0x80 : 0) | (f.maxFinite + 1);
  return fp8BitsFromDouble(v, f);
}

inline double roundTo(const ElemType &t, double v) {
  switch (t.bits) {
  case 8: {
    const Fp8Format &f = fp8FormatOf(t.e4m3);
    return floatFromFp8Bits(fp8BitsFromDouble(v, f), f);
  }
  case 16:
    if (t.bf16)
      return floatFromBF16Bits(bf16BitsFromFloat(floatRoundToOdd(v)));
    return double(static_cast<_Float16>(v));
  case 32:
    return double(float(v));
  default:
    return v;
  }
}

} // namespace tgpu::cpu

#endif
