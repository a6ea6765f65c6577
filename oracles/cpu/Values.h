// Run-time values of the CPU oracle: dense tensors (scalars are rank 0),
// their element types, and the rounding that gives each float type its own
// precision. Integers are held as their bit pattern, zero-extended to 64
// bits; signed ops sign-extend explicitly.
#ifndef TGPU_ORACLES_CPU_VALUES_H
#define TGPU_ORACLES_CPU_VALUES_H

#include "oracles/cpu/Interpreter.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace tgpu::cpu {

struct ElemType {
  enum Kind : uint8_t { Int, Float, Ptr, MemDesc, Token } kind = Int;
  unsigned bits = 32;   // Int: width; Float: 16, 32 or 64
  bool bf16 = false;    // Float 16: bfloat16 rather than IEEE half
  ScalarKind pointee = ScalarKind::I32; // Ptr / MemDesc: element type held
  bool blockPtr = false; // Ptr to a tensor (make_tensor_ptr)
  bool isInt() const { return kind == Int; }
  bool isFloat() const { return kind == Float; }
  bool operator==(const ElemType &o) const {
    return kind == o.kind && bits == o.bits && bf16 == o.bf16 &&
           (kind != Ptr || pointee == o.pointee);
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
  std::vector<int64_t> bpShape, bpStrides, bpOffsets;
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
inline double roundTo(const ElemType &t, double v) {
  switch (t.bits) {
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
