#include "oracles/gpu/bundle/Compare.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>

namespace tgpu::bundle {

namespace {

uint64_t poisonBits(Elem e) {
  uint64_t v = 0;
  for (unsigned i = 0; i < elemBytes(e); ++i)
    v = (v << 8) | kPoisonByte;
  return v;
}

// Whether a float element passes; `ratio` gets |g - e| / allowed when it
// does and they differ.
bool floatPasses(double g, double e, const CompareRule &rule, double &ratio) {
  ratio = 0;
  if (std::isnan(e) || std::isnan(g))
    return std::isnan(e) && std::isnan(g);
  if (std::isinf(e) || std::isinf(g))
    return g == e;
  if (g == e) // also -0 == +0
    return true;
  double allowed = rule.atol + rule.rtol * std::fabs(e);
  double err = std::fabs(g - e);
  if (!(err <= allowed))
    return false;
  ratio = err / allowed;
  return true;
}

} // namespace

BufferVerdict compareBuffer(Elem elem, uint64_t count, const uint8_t *got,
                            const uint8_t *expected, const CompareRule &rule,
                            bool poisoned, unsigned keep) {
  BufferVerdict v;
  const uint64_t poison = poisonBits(elem);
  const bool bitwise = !isFloat(elem);
  // i1 is one byte holding 0 or 1: only the low bit is the value.
  const uint64_t mask = elem == Elem::I1 ? 1 : ~uint64_t(0);
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t gb = elemBits(elem, got, i), eb = elemBits(elem, expected, i);
    bool pass;
    if (bitwise) {
      pass = (gb & mask) == (eb & mask);
    } else {
      double ratio = 0;
      pass = floatPasses(elemAsDouble(elem, got, i), elemAsDouble(elem, expected, i),
                         rule, ratio);
      if (pass && ratio > v.worstError)
        v.worstError = ratio;
    }
    if (pass)
      continue;
    v.ok = false;
    ++v.mismatches;
    bool unwritten = poisoned && gb == poison && eb != poison;
    v.unwritten += unwritten;
    if (v.first.size() < keep)
      v.first.push_back({i, elemAsDouble(elem, got, i), elemAsDouble(elem, expected, i),
                         gb, eb, unwritten});
  }
  return v;
}

std::string formatElement(Elem elem, double value, uint64_t bits) {
  char buf[96];
  switch (elem) {
  case Elem::I1:
    return (bits & 1) ? "1" : "0";
  case Elem::I8: case Elem::I16: case Elem::I32: case Elem::I64: {
    unsigned shift = 64 - 8 * elemBytes(elem);
    int64_t s = int64_t(bits << shift) >> shift;
    std::snprintf(buf, sizeof buf, "%" PRId64, s);
    return buf;
  }
  default: {
    unsigned digits = 2 * elemBytes(elem);
    std::snprintf(buf, sizeof buf, elem == Elem::F64 ? "%.17g (0x%0*" PRIx64 ")"
                                                      : "%.9g (0x%0*" PRIx64 ")",
                  value, int(digits), bits);
    return buf;
  }
  }
}

std::string describe(const BufferVerdict &v, unsigned argIndex, Elem elem,
                     uint64_t count, const CompareRule &rule) {
  std::string out;
  for (const Mismatch &m : v.first) {
    if (!out.empty())
      out += "; ";
    out += "arg" + std::to_string(argIndex) + "[" + std::to_string(m.index) + "]: ";
    if (m.unwritten) {
      out += "never written (expected " + formatElement(elem, m.expected, m.expectedBits) + ")";
      continue;
    }
    out += "got " + formatElement(elem, m.got, m.gotBits) + ", expected " +
           formatElement(elem, m.expected, m.expectedBits);
    if (isFloat(elem) && !std::isnan(m.expected) && !std::isinf(m.expected)) {
      char buf[48];
      std::snprintf(buf, sizeof buf, " (allowed %.3g)",
                    rule.atol + rule.rtol * std::fabs(m.expected));
      out += buf;
    }
  }
  out += "; " + std::to_string(v.mismatches) + " of " + std::to_string(count) +
         " elements differ";
  if (v.unwritten)
    out += ", " + std::to_string(v.unwritten) + " never written";
  return out;
}

} // namespace tgpu::bundle
