// Kernels run on the CPU reference oracle (oracles/cpu) and checked against
// closed forms computed here with plain loops, independently of the
// interpreter:
//   - the hand-written TTIR kernels of corpus/kernels/,
//   - the kernels Triton dumped (corpus/kernels/triton/, see dump_triton.py),
//     as TTIR and as TTGIR, whose outputs must also be bit-identical,
//   - one kernel per kind of undefined behaviour (corpus/kernels/ub/), whose
//     UBReport must name the kind, the op and the op's file and line.
//
// Integers are compared exactly. Floats are compared against the exact
// (double) closed form within an error bound derived for each kernel from
// the oracle's float semantics: every op rounds to its type (unit roundoff
// u = 2^-24 for f32, 2^-11 for f16), tt.dot sums exact products and rounds
// once into the accumulator per dot, tt.reduce folds left to right. A sum
// whose chain of additions is d roundings deep is within d * u * sum|terms|
// of the exact sum (first order); each bound below states its chain.
#include "TestContext.h"
#include "oracles/cpu/Interpreter.h"
#include "tgpu/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace tgpu::cpu;

namespace {

constexpr double kU32 = 1.0 / (1 << 24); // f32 unit roundoff
constexpr double kU64 = 1.0 / 9007199254740992.0; // 2^-53

//===----------------------------------------------------------------------===//
// Parsing and running
//===----------------------------------------------------------------------===//

using tgpu::test::context;

std::string corpusPath(const std::string &rel) {
  return std::string(TGPU_CORPUS_DIR) + "/" + rel;
}

// Parses corpus/kernels/REL; a parse failure is a test failure (with the
// diagnostics) and returns null.
mlir::OwningOpRef<mlir::ModuleOp> parseKernel(const std::string &rel) {
  std::string path = corpusPath(rel);
  std::string diags;
  mlir::ScopedDiagnosticHandler handler(&context(), [&](mlir::Diagnostic &d) {
    diags += d.str() + "\n";
    return mlir::success();
  });
  auto module =
      mlir::parseSourceFile<mlir::ModuleOp>(path, mlir::ParserConfig(&context()));
  EXPECT_TRUE(module) << "cannot parse " << path << ":\n" << diags;
  return module;
}

// The 1-based number of the first non-comment line of corpus/kernels/REL
// containing `marker` (0 when none does).
int lineOf(const std::string &rel, const std::string &marker) {
  std::ifstream in(corpusPath(rel));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    size_t text = line.find_first_not_of(" \t");
    if (text != std::string::npos && line.compare(text, 2, "//") == 0)
      continue;
    if (line.find(marker) != std::string::npos)
      return n;
  }
  return 0;
}

llvm::Error run(mlir::ModuleOp m, std::vector<KernelArg> &args,
                std::array<int64_t, 3> grid, int numWarps = 4,
                uint64_t stepBudget = uint64_t(1) << 28) {
  RunOptions options;
  options.grid = grid;
  options.numWarps = numWarps;
  options.stepBudget = stepBudget;
  options.print = [](const std::string &) {};
  return runKernel(m, "", args, options);
}

// Runs and fails the test (returning from it) on any error.
#define ASSERT_RUNS(expr)                                                      \
  do {                                                                         \
    llvm::Error err_ = (expr);                                                 \
    if (err_)                                                                  \
      FAIL() << "run failed: " << llvm::toString(std::move(err_));             \
  } while (0)

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

template <class T> KernelArg buffer(ScalarKind kind, const std::vector<T> &v) {
  KernelArg a;
  a.kind = kind;
  a.isBuffer = true;
  a.bytes.resize(v.size() * sizeof(T));
  if (!v.empty())
    std::memcpy(a.bytes.data(), v.data(), a.bytes.size());
  return a;
}

template <class T> std::vector<T> contents(const KernelArg &a) {
  std::vector<T> v(a.bytes.size() / sizeof(T));
  if (!v.empty())
    std::memcpy(v.data(), a.bytes.data(), v.size() * sizeof(T));
  return v;
}

KernelArg i32(int64_t v) {
  KernelArg a;
  a.kind = ScalarKind::I32;
  a.intValue = v;
  return a;
}

KernelArg f32(double v) {
  KernelArg a;
  a.kind = ScalarKind::F32;
  a.floatValue = v;
  return a;
}

// splitmix64: deterministic inputs.
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * double(next() >> 11) / 9007199254740992.0;
  }
  int64_t range(int64_t lo, int64_t hi) { // [lo, hi]
    return lo + int64_t(next() % uint64_t(hi - lo + 1));
  }
};

std::vector<float> randomF32(size_t n, uint64_t seed, double lo, double hi) {
  Rng r(seed);
  std::vector<float> v(n);
  for (float &x : v)
    x = float(r.uniform(lo, hi));
  return v;
}

uint16_t f16Bits(double v) {
  _Float16 h = static_cast<_Float16>(v);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}

double f16Value(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return double(h);
}

std::vector<uint16_t> randomF16(size_t n, uint64_t seed, double lo, double hi) {
  Rng r(seed);
  std::vector<uint16_t> v(n);
  for (uint16_t &x : v)
    x = f16Bits(r.uniform(lo, hi));
  return v;
}

// The distance between f16 neighbours at magnitude |x|.
double ulp16(double x) {
  x = std::fabs(x);
  if (x < std::ldexp(1.0, -14))
    return std::ldexp(1.0, -24);
  return std::ldexp(1.0, std::ilogb(x) - 10);
}

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Collects float mismatches and reports the first few.
struct Checker {
  std::string what;
  int bad = 0;
  std::ostringstream os;
  explicit Checker(std::string w) : what(std::move(w)) {}
  void close(double got, double want, double bound, const std::string &at) {
    bool ok = std::fabs(got - want) <= bound ||
              (std::isnan(got) && std::isnan(want)) || (got == want);
    if (!ok && bad++ < 6)
      os << "  " << at << ": got " << got << ", want " << want << " (|diff| "
         << std::fabs(got - want) << " > bound " << bound << ")\n";
  }
  void eq(int64_t got, int64_t want, const std::string &at) {
    if (got != want && bad++ < 6)
      os << "  " << at << ": got " << got << ", want " << want << "\n";
  }
  ~Checker() {
    EXPECT_EQ(bad, 0) << what << ": " << bad << " mismatches\n" << os.str();
  }
};

std::string at(int64_t i) { return "[" + std::to_string(i) + "]"; }
std::string at(int64_t i, int64_t j) {
  return "[" + std::to_string(i) + ", " + std::to_string(j) + "]";
}

//===----------------------------------------------------------------------===//
// Closed forms shared by several kernels
//===----------------------------------------------------------------------===//

// Row layer norm statistics in double, with first-order bounds on what an
// f32 evaluation makes of them. `depth` is the number of roundings in the
// summation chains (fold length).
struct LayerNormRow {
  double mean, var, rstd;
  double meanErr; // |mean_f32 - mean|
  double dErr;    // bound on |d_f32 - d| for every d = x - mean
  double rstdRel; // relative bound on rstd_f32
};

LayerNormRow layerNormRow(const std::vector<double> &x, double eps,
                          double depth) {
  size_t n = x.size();
  LayerNormRow r;
  double sum = 0, sumAbs = 0;
  for (double v : x) {
    sum += v;
    sumAbs += std::fabs(v);
  }
  r.mean = sum / double(n);
  double sq = 0, dAbs = 0, dMax = 0;
  for (double v : x) {
    double d = v - r.mean;
    sq += d * d;
    dAbs += std::fabs(d);
    dMax = std::max(dMax, std::fabs(d));
  }
  r.var = sq / double(n);
  r.rstd = 1.0 / std::sqrt(r.var + eps);
  // mean = fl(fl-sum / n): sum chain (depth roundings) + the division.
  r.meanErr = (depth + 1) * kU32 * sumAbs / double(n);
  // d = fl(x - mean): the mean's error plus one rounding.
  r.dErr = r.meanErr + kU32 * (dMax + r.meanErr);
  // var = fl(fl-sum(fl(d*d)) / n): chain + squares + division, plus the
  // propagated error 2|d| dErr of each square; + one rounding for + eps.
  double varErr = (depth + 3) * kU32 * r.var + 2 * r.dErr * dAbs / double(n) +
                  kU32 * (r.var + eps);
  // rstd = rsqrt(v) (or 1 / sqrt(v)): half the relative error of v, plus at
  // most two roundings.
  r.rstdRel = 0.5 * varErr / (r.var + eps) + 2 * kU32;
  return r;
}

//===----------------------------------------------------------------------===//
// Hand-written TTIR kernels (corpus/kernels/*.ttir)
//===----------------------------------------------------------------------===//

TEST(CpuOracleKernels, MaskedAddTail) {
  auto m = parseKernel("masked_add_tail.ttir");
  ASSERT_TRUE(m);
  for (int64_t n : {1, 63, 64, 200, 257}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    Rng r(n);
    std::vector<int32_t> a(n), b(n);
    for (int64_t i = 0; i < n; ++i) {
      a[i] = int32_t(uint32_t(r.next()));
      b[i] = int32_t(uint32_t(r.next()));
    }
    a[0] = std::numeric_limits<int32_t>::max(); // wraps
    b[0] = 1;
    // Buffers are exactly n long: an unmasked tail lane would be out of
    // bounds and reported.
    std::vector<KernelArg> args{buffer(ScalarKind::I32, a),
                                buffer(ScalarKind::I32, b),
                                buffer(ScalarKind::I32, std::vector<int32_t>(n, -7)),
                                i32(n)};
    ASSERT_RUNS(run(*m, args, {cdiv(n, 64), 1, 1}));
    auto c = contents<int32_t>(args[2]);
    Checker ck("masked_add_tail");
    for (int64_t i = 0; i < n; ++i)
      ck.eq(c[i], int32_t(uint32_t(a[i]) + uint32_t(b[i])), at(i));
  }
}

// Softmax: with R = max |x - max| the shift x - m rounds with error <= u R,
// so each exp term is within (R + 1) u relative; the sum of n positive terms
// adds (n - 1) u; the division one more u. Relative bound:
// (2 (R + 1) + n) u, with 10% slack for second-order terms.
double softmaxRelBound(const std::vector<double> &row) {
  double mx = *std::max_element(row.begin(), row.end());
  double mn = *std::min_element(row.begin(), row.end());
  double R = mx - mn;
  return 1.1 * (2 * (R + 1) + double(row.size()) + 1) * kU32;
}

std::vector<double> softmaxRow(const std::vector<double> &row) {
  double mx = *std::max_element(row.begin(), row.end());
  double den = 0;
  for (double v : row)
    den += std::exp(v - mx);
  std::vector<double> out;
  for (double v : row)
    out.push_back(std::exp(v - mx) / den);
  return out;
}

TEST(CpuOracleKernels, SoftmaxRows) {
  auto m = parseKernel("softmax_rows.ttir");
  ASSERT_TRUE(m);
  const int64_t rows = 5, stride = 130;
  const float sentinel = 12345.0f;
  for (int64_t nCols : {1, 37, 128}) {
    SCOPED_TRACE("n_cols = " + std::to_string(nCols));
    auto in = randomF32(rows * stride, 100 + nCols, -4, 4);
    std::vector<KernelArg> args{
        buffer(ScalarKind::F32, in),
        buffer(ScalarKind::F32, std::vector<float>(rows * stride, sentinel)),
        i32(nCols), i32(stride)};
    ASSERT_RUNS(run(*m, args, {rows, 1, 1}));
    auto out = contents<float>(args[1]);
    Checker ck("softmax_rows");
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<double> row(in.begin() + r * stride,
                              in.begin() + r * stride + nCols);
      std::vector<double> want = softmaxRow(row);
      double rel = softmaxRelBound(row);
      for (int64_t j = 0; j < stride; ++j) {
        double got = out[r * stride + j];
        if (j < nCols)
          ck.close(got, want[j], rel * want[j], at(r, j));
        else // masked columns are not stored
          ck.close(got, sentinel, 0, at(r, j));
      }
    }
  }
}

TEST(CpuOracleKernels, LayerNormRows) {
  auto m = parseKernel("layernorm_rows.ttir");
  ASSERT_TRUE(m);
  const int64_t rows = 4, stride = 70;
  const double eps = 1e-5;
  for (int64_t n : {1, 50, 64}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto x = randomF32(rows * stride, 200 + n, -2, 2);
    for (int64_t r = 0; r < rows; ++r) // rows with a large mean: cancellation
      for (int64_t j = 0; j < stride; ++j)
        x[r * stride + j] += float(3 * r);
    std::vector<KernelArg> args{
        buffer(ScalarKind::F32, x),
        buffer(ScalarKind::F32, std::vector<float>(rows * stride, 99.0f)),
        buffer(ScalarKind::F32, std::vector<float>(rows, 0)),
        buffer(ScalarKind::F32, std::vector<float>(rows, 0)),
        i32(n), i32(stride), f32(eps)};
    ASSERT_RUNS(run(*m, args, {rows, 1, 1}));
    auto y = contents<float>(args[1]);
    auto mean = contents<float>(args[2]);
    auto rstd = contents<float>(args[3]);
    Checker ck("layernorm_rows");
    // eps is rounded to f32 when passed.
    double epsF = double(float(eps));
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<double> row(x.begin() + r * stride, x.begin() + r * stride + n);
      // One tt.reduce over 64 lanes: 63 roundings per sum.
      LayerNormRow s = layerNormRow(row, epsF, 63);
      ck.close(mean[r], s.mean, s.meanErr, "mean" + at(r));
      ck.close(rstd[r], s.rstd, s.rstdRel * s.rstd, "rstd" + at(r));
      for (int64_t j = 0; j < stride; ++j) {
        if (j >= n) {
          ck.close(y[r * stride + j], 99.0, 0, at(r, j));
          continue;
        }
        double d = row[j] - s.mean, want = d * s.rstd;
        // y = fl(d_f * rstd_f): d's error times rstd, rstd's relative error
        // times |y|, one rounding; x2 for second-order terms.
        double bound = 2 * (s.dErr * s.rstd +
                            std::fabs(want) * (s.rstdRel + kU32));
        ck.close(y[r * stride + j], want, bound, at(r, j));
      }
    }
  }
}

TEST(CpuOracleKernels, RowSumLoop) {
  auto m = parseKernel("row_sum_loop_blocks.ttir");
  ASSERT_TRUE(m);
  const int64_t rows = 3, stride = 101;
  for (int64_t n : {5, 32, 100}) {
    SCOPED_TRACE("n_cols = " + std::to_string(n));
    auto x = randomF32(rows * stride, 300 + n, -1, 1);
    std::vector<KernelArg> args{buffer(ScalarKind::F32, x),
                                buffer(ScalarKind::F32, std::vector<float>(rows, -1)),
                                i32(n), i32(stride)};
    ASSERT_RUNS(run(*m, args, {rows, 1, 1}));
    auto out = contents<float>(args[1]);
    Checker ck("row_sum_loop");
    for (int64_t r = 0; r < rows; ++r) {
      double want = 0, sumAbs = 0;
      for (int64_t j = 0; j < n; ++j) {
        want += x[r * stride + j];
        sumAbs += std::fabs(x[r * stride + j]);
      }
      // Chain: ceil(n/32) additions per lane, then 31 in the 32-lane fold.
      double depth = double(cdiv(n, 32)) + 31;
      ck.close(out[r], want, depth * kU32 * sumAbs, at(r));
    }
  }
}

TEST(CpuOracleKernels, Transpose2d) {
  auto m = parseKernel("transpose_2d.ttir");
  ASSERT_TRUE(m);
  const int64_t M = 37, N = 21;
  auto x = randomF32(M * N, 400, -10, 10);
  // The output is exactly N x M: a lane stored outside it would be reported.
  std::vector<KernelArg> args{buffer(ScalarKind::F32, x),
                              buffer(ScalarKind::F32, std::vector<float>(N * M, -1)),
                              i32(M), i32(N)};
  ASSERT_RUNS(run(*m, args, {cdiv(M, 16), cdiv(N, 8), 1}));
  auto out = contents<float>(args[1]);
  Checker ck("transpose_2d");
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) // data movement: exact
      ck.close(out[j * M + i], x[i * N + j], 0, at(j, i));
}

// C = A B with f32 inputs: the oracle rounds the accumulator once per tt.dot
// (one per K block of 8), so the result is within (nb + 1) u sum_k |a b|
// (+ K 2^-53 for the double sums) of the exact product.
void checkMatmulF32(const std::vector<float> &a, const std::vector<float> &b,
                    const std::vector<float> &c, int64_t M, int64_t N,
                    int64_t K, bool exact) {
  Checker ck(exact ? "matmul_f32_dot (integers)" : "matmul_f32_dot");
  double nb = double(cdiv(K, 8));
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double want = 0, mag = 0;
      for (int64_t k = 0; k < K; ++k) {
        want += double(a[i * K + k]) * double(b[k * N + j]);
        mag += std::fabs(double(a[i * K + k]) * double(b[k * N + j]));
      }
      double bound = exact ? 0 : ((nb + 1) * kU32 + double(K) * kU64) * mag;
      ck.close(c[i * N + j], want, bound, at(i, j));
    }
}

TEST(CpuOracleKernels, MatmulF32Dot) {
  auto m = parseKernel("matmul_f32_dot.ttir");
  ASSERT_TRUE(m);
  const int64_t M = 37, N = 21, K = 43;
  for (bool integers : {false, true}) {
    SCOPED_TRACE(integers ? "small integers" : "random floats");
    std::vector<float> a, b;
    if (integers) {
      // Small integers: every partial sum is exact, so the result must be.
      Rng r(501);
      for (int64_t i = 0; i < M * K; ++i)
        a.push_back(float(r.range(-8, 8)));
      for (int64_t i = 0; i < K * N; ++i)
        b.push_back(float(r.range(-8, 8)));
    } else {
      a = randomF32(M * K, 502, -1, 1);
      b = randomF32(K * N, 503, -1, 1);
    }
    std::vector<KernelArg> args{buffer(ScalarKind::F32, a), buffer(ScalarKind::F32, b),
                                buffer(ScalarKind::F32, std::vector<float>(M * N, 0)),
                                i32(M), i32(N), i32(K)};
    ASSERT_RUNS(run(*m, args, {cdiv(M, 16), cdiv(N, 16), 1}));
    checkMatmulF32(a, b, contents<float>(args[2]), M, N, K, integers);
  }
}

TEST(CpuOracleKernels, IntBitTricks) {
  auto m = parseKernel("int_bit_tricks.ttir");
  ASSERT_TRUE(m);
  std::vector<int32_t> x = {std::numeric_limits<int32_t>::min(),
                            std::numeric_limits<int32_t>::max(),
                            -1, 0, 1, -7, 7, -8, 127, 128, -128, -129, 255, 256,
                            12345, 12346, -1000, -1001, -999, 0x5A5A5A5A,
                            int32_t(0xA5A5A5A5u), 156, 28, -100};
  Rng r(600);
  while (x.size() < 64)
    x.push_back(int32_t(uint32_t(r.next())));
  std::vector<KernelArg> args{buffer(ScalarKind::I32, x),
                              buffer(ScalarKind::I32, std::vector<int32_t>(8 * 64, 0)),
                              buffer(ScalarKind::I64, std::vector<int64_t>(64, 0)),
                              buffer(ScalarKind::I8, std::vector<int8_t>(64, 0))};
  ASSERT_RUNS(run(*m, args, {1, 1, 1}));
  auto o32 = contents<int32_t>(args[1]);
  auto o64 = contents<int64_t>(args[2]);
  auto o8 = contents<int8_t>(args[3]);
  Checker ck("int_bit_tricks");
  for (int i = 0; i < 64; ++i) {
    uint32_t ux = uint32_t(x[i]);
    unsigned s = unsigned(i) & 31;
    int32_t sx = x[i];
    // Arithmetic right shift without relying on implementation-defined >>.
    int32_t sra = int32_t(sx < 0 ? ~(~ux >> s) : ux >> s);
    uint8_t t2 = uint8_t(uint8_t(ux) + 100);
    int8_t st2 = int8_t(t2);
    int32_t want[8] = {
        int32_t(ux ^ 0x5A5A5A5Au),
        int32_t(ux << s),
        int32_t(ux >> s),
        sra,
        int32_t(ux * 0x9E3779B1u),
        sx % 7, // C++ truncates like remsi
        sx < 0 ? std::max(sx, -1000) : int32_t(std::min(ux, 12345u)),
        int32_t(st2),
    };
    for (int k = 0; k < 8; ++k)
      ck.eq(o32[k * 64 + i], want[k], "slot " + std::to_string(k) + at(i));
    uint64_t w = uint64_t(int64_t(sx));
    ck.eq(o64[i], int64_t(((w * 0x100000001ull) >> 17) ^ (w << 40)), "i64" + at(i));
    int8_t sh = int8_t(st2 < 0 ? ~(uint8_t(~t2) >> 2) : t2 >> 2);
    ck.eq(o8[i], sh, "i8" + at(i));
  }
}

TEST(CpuOracleKernels, ScfIf) {
  auto m = parseKernel("scf_if.ttir");
  ASSERT_TRUE(m);
  const int64_t P = 7;
  std::vector<KernelArg> args{buffer(ScalarKind::I32, std::vector<int32_t>(P, -1)),
                              buffer(ScalarKind::F32, std::vector<float>(P, 0)),
                              buffer(ScalarKind::I32, std::vector<int32_t>(16 * P, -1)),
                              buffer(ScalarKind::I32, std::vector<int32_t>(1, 0))};
  ASSERT_RUNS(run(*m, args, {P, 1, 1}));
  auto oi = contents<int32_t>(args[0]);
  auto of = contents<float>(args[1]);
  auto ot = contents<int32_t>(args[2]);
  Checker ck("scf_if");
  for (int64_t p = 0; p < P; ++p) {
    bool odd = p & 1;
    ck.eq(oi[p], odd ? 3 * p : p + 100, "out_i" + at(p));
    ck.close(of[p], odd ? 1.5 : -2.0, 0, "out_f" + at(p));
    for (int64_t j = 0; j < 16; ++j)
      ck.eq(ot[16 * p + j], odd ? p + j : 2 * p, "out_t" + at(p, j));
  }
  ck.eq(contents<int32_t>(args[3])[0], 7, "flag");
}

TEST(CpuOracleKernels, Atomics) {
  auto m = parseKernel("atomics.ttir");
  ASSERT_TRUE(m);
  const int64_t P = 4;
  Rng r(700);
  std::vector<int32_t> data(32 * P);
  for (int32_t &v : data)
    v = int32_t(r.range(-1000, 1000));
  std::vector<KernelArg> args{
      buffer(ScalarKind::I32, data), buffer(ScalarKind::I32, std::vector<int32_t>(1, 0)),
      buffer(ScalarKind::I32, std::vector<int32_t>(8, 0)),
      buffer(ScalarKind::F32, std::vector<float>(1, 0)),
      buffer(ScalarKind::I32,
             std::vector<int32_t>(1, std::numeric_limits<int32_t>::min()))};
  ASSERT_RUNS(run(*m, args, {P, 1, 1}));
  Checker ck("atomics");
  ck.eq(contents<int32_t>(args[1])[0], P * (P + 1) / 2, "counter");
  std::vector<int64_t> hist(8, 0);
  double fsum = 0;
  int32_t mx = std::numeric_limits<int32_t>::min();
  for (int32_t v : data) {
    ++hist[v & 7];
    fsum += double(v & 15); // small integers: every order sums exactly
    mx = std::max(mx, v);
  }
  auto h = contents<int32_t>(args[2]);
  for (int b = 0; b < 8; ++b)
    ck.eq(h[b], hist[b], "hist" + at(b));
  ck.close(contents<float>(args[3])[0], fsum, 0, "fsum");
  ck.eq(contents<int32_t>(args[4])[0], mx, "max");
}

TEST(CpuOracleKernels, Grid3d) {
  auto m = parseKernel("grid_3d.ttir");
  ASSERT_TRUE(m);
  const int64_t nx = 3, ny = 2, nz = 4;
  std::vector<KernelArg> args{
      buffer(ScalarKind::I32, std::vector<int32_t>(4 * nx * ny * nz, -1))};
  ASSERT_RUNS(run(*m, args, {nx, ny, nz}));
  auto out = contents<int32_t>(args[0]);
  Checker ck("grid_3d");
  for (int64_t z = 0; z < nz; ++z)
    for (int64_t y = 0; y < ny; ++y)
      for (int64_t x = 0; x < nx; ++x) {
        int64_t s = x + nx * (y + ny * z);
        ck.eq(out[4 * s], x + 10 * y + 100 * z, "value" + at(s));
        ck.eq(out[4 * s + 1], nx, "nx" + at(s));
        ck.eq(out[4 * s + 2], ny, "ny" + at(s));
        ck.eq(out[4 * s + 3], nz, "nz" + at(s));
      }
}

//===----------------------------------------------------------------------===//
// Kernels dumped by Triton (corpus/kernels/triton/): TTIR and TTGIR
//===----------------------------------------------------------------------===//

struct TritonCase {
  std::string name;
  std::array<int64_t, 3> grid;
  int numWarps;
  std::function<std::vector<KernelArg>()> make;
  std::function<void(const std::vector<KernelArg> &)> check;
};

// Runs NAME.ttir and NAME.ttgir on the same inputs, checks each against the
// closed form, and requires every buffer to come out bit-identical.
void runTriton(const TritonCase &c) {
  std::vector<std::vector<KernelArg>> results;
  for (const char *ext : {"ttir", "ttgir"}) {
    std::string file = "triton/" + c.name + "." + ext;
    SCOPED_TRACE(file);
    auto m = parseKernel(file);
    if (!m)
      continue;
    std::vector<KernelArg> args = c.make();
    if (llvm::Error e = run(*m, args, c.grid, c.numWarps)) {
      ADD_FAILURE() << "run failed: " << llvm::toString(std::move(e));
      continue;
    }
    c.check(args);
    results.push_back(std::move(args));
  }
  if (results.size() != 2)
    return;
  for (size_t k = 0; k < results[0].size(); ++k) {
    if (!results[0][k].isBuffer)
      continue;
    const auto &p = results[0][k].bytes, &q = results[1][k].bytes;
    ASSERT_EQ(p.size(), q.size());
    auto diff = std::mismatch(p.begin(), p.end(), q.begin());
    EXPECT_TRUE(diff.first == p.end())
        << c.name << ": .ttir and .ttgir differ in argument " << k
        << " at byte " << (diff.first - p.begin());
  }
}

TEST(CpuOracleTriton, VectorAdd) {
  const int64_t n = 2000; // tt.divisibility = 16 on n
  auto x = randomF32(n, 800, -100, 100), y = randomF32(n, 801, -100, 100);
  runTriton({"vector_add_w4", {cdiv(n, 1024), 1, 1}, 4,
             [&] {
               return std::vector<KernelArg>{
                   buffer(ScalarKind::F32, x), buffer(ScalarKind::F32, y),
                   buffer(ScalarKind::F32, std::vector<float>(n, 0)), i32(n)};
             },
             [&](const std::vector<KernelArg> &args) {
               auto out = contents<float>(args[2]);
               Checker ck("vector_add");
               // One correctly rounded f32 addition: float(x) + float(y).
               for (int64_t i = 0; i < n; ++i)
                 ck.close(out[i], x[i] + y[i], 0, at(i));
             }});
}

TEST(CpuOracleTriton, Softmax) {
  // softmax(out, in, in_stride, out_stride, n_cols), BLOCK = 1024.
  const int64_t rows = 3, nCols = 100, inStride = 100, outStride = 112;
  const float sentinel = -5.0f;
  auto in = randomF32(rows * inStride, 810, -4, 4);
  runTriton({"softmax", {rows, 1, 1}, 8,
             [&] {
               return std::vector<KernelArg>{
                   buffer(ScalarKind::F32,
                          std::vector<float>(rows * outStride, sentinel)),
                   buffer(ScalarKind::F32, in), i32(inStride), i32(outStride),
                   i32(nCols)};
             },
             [&](const std::vector<KernelArg> &args) {
               auto out = contents<float>(args[0]);
               Checker ck("softmax");
               for (int64_t r = 0; r < rows; ++r) {
                 std::vector<double> row(in.begin() + r * inStride,
                                         in.begin() + r * inStride + nCols);
                 auto want = softmaxRow(row);
                 double rel = softmaxRelBound(row);
                 for (int64_t j = 0; j < outStride; ++j)
                   ck.close(out[r * outStride + j],
                            j < nCols ? want[j] : double(sentinel),
                            j < nCols ? rel * want[j] : 0, at(r, j));
               }
             }});
}

TEST(CpuOracleTriton, LayerNorm) {
  // layernorm(x f16, y f16, w, b, mean, rstd, stride, n, eps), BLOCK = 256:
  // y = (x - mean) * rstd * w + b, rstd = 1 / sqrt(var + eps).
  const int64_t rows = 3, n = 300, stride = 304, block = 256;
  const double eps = 1e-5;
  auto x = randomF16(rows * stride, 820, -2, 2);
  for (int64_t j = 0; j < stride; ++j) // a row with a large mean
    x[2 * stride + j] = f16Bits(f16Value(x[2 * stride + j]) + 6);
  auto w = randomF32(n, 821, 0.5, 1.5), b = randomF32(n, 822, -1, 1);
  runTriton({"layernorm", {rows, 1, 1}, 4,
             [&] {
               return std::vector<KernelArg>{
                   buffer(ScalarKind::F16, x),
                   buffer(ScalarKind::F16, std::vector<uint16_t>(rows * stride, 0)),
                   buffer(ScalarKind::F32, w), buffer(ScalarKind::F32, b),
                   buffer(ScalarKind::F32, std::vector<float>(rows, 0)),
                   buffer(ScalarKind::F32, std::vector<float>(rows, 0)),
                   i32(stride), i32(n), f32(eps)};
             },
             [&](const std::vector<KernelArg> &args) {
               auto y = contents<uint16_t>(args[1]);
               auto mean = contents<float>(args[4]);
               auto rstd = contents<float>(args[5]);
               Checker ck("layernorm");
               double epsF = double(float(eps));
               // Sums: ceil(n / 256) additions per lane, 255 in the fold.
               double depth = double(cdiv(n, block)) + block - 1;
               for (int64_t r = 0; r < rows; ++r) {
                 std::vector<double> row;
                 for (int64_t j = 0; j < n; ++j)
                   row.push_back(f16Value(x[r * stride + j]));
                 LayerNormRow s = layerNormRow(row, epsF, depth);
                 ck.close(mean[r], s.mean, s.meanErr, "mean" + at(r));
                 ck.close(rstd[r], s.rstd, s.rstdRel * s.rstd, "rstd" + at(r));
                 for (int64_t j = 0; j < stride; ++j) {
                   double got = f16Value(y[r * stride + j]);
                   if (j >= n) {
                     ck.close(got, 0, 0, at(r, j));
                     continue;
                   }
                   double t = (row[j] - s.mean) * s.rstd;
                   double want = t * w[j] + b[j];
                   // f32 part: t's error (as in LayerNormRows) times |w|,
                   // two roundings (* w, + b), x2 slack; then the rounding
                   // to f16, half an f16 ulp.
                   double f32Err =
                       2 * ((s.dErr * s.rstd + std::fabs(t) * (s.rstdRel + kU32)) *
                                std::fabs(w[j]) +
                            kU32 * (std::fabs(t * w[j]) + std::fabs(want)));
                   double bound =
                       f32Err + 0.5 * ulp16(std::max(std::fabs(want), std::fabs(got)));
                   ck.close(got, want, bound, at(r, j));
                 }
               }
             }});
}

TEST(CpuOracleTriton, RowSumLoop) {
  // row_sum_loop(x, out, n_cols, stride), BLOCK = 512.
  const int64_t rows = 3, n = 1100, stride = 1104, block = 512;
  auto x = randomF32(rows * stride, 830, -1, 1);
  runTriton({"row_sum_loop", {rows, 1, 1}, 4,
             [&] {
               return std::vector<KernelArg>{
                   buffer(ScalarKind::F32, x),
                   buffer(ScalarKind::F32, std::vector<float>(rows, 0)), i32(n),
                   i32(stride)};
             },
             [&](const std::vector<KernelArg> &args) {
               auto out = contents<float>(args[1]);
               Checker ck("row_sum_loop");
               for (int64_t r = 0; r < rows; ++r) {
                 double want = 0, mag = 0;
                 for (int64_t j = 0; j < n; ++j) {
                   want += x[r * stride + j];
                   mag += std::fabs(x[r * stride + j]);
                 }
                 // ceil(n / 512) additions per lane, 511 in the fold.
                 double depth = double(cdiv(n, block)) + block - 1;
                 ck.close(out[r], want, depth * kU32 * mag, at(r));
               }
             }});
}

TEST(CpuOracleTriton, Transpose) {
  // transpose(in, out, M, N), 64 x 64 tiles on a 2-D grid.
  const int64_t M = 70, N = 80;
  auto x = randomF32(M * N, 840, -10, 10);
  runTriton({"transpose", {cdiv(M, 64), cdiv(N, 64), 1}, 4,
             [&] {
               return std::vector<KernelArg>{
                   buffer(ScalarKind::F32, x),
                   buffer(ScalarKind::F32, std::vector<float>(N * M, -1)), i32(M),
                   i32(N)};
             },
             [&](const std::vector<KernelArg> &args) {
               auto out = contents<float>(args[1]);
               Checker ck("transpose");
               for (int64_t i = 0; i < M; ++i)
                 for (int64_t j = 0; j < N; ++j)
                   ck.close(out[j * M + i], x[i * N + j], 0, at(j, i));
             }});
}

TEST(CpuOracleTriton, TransOp) {
  // trans_op(in, out): in is 32 x 64, out = in^T (64 x 32), one program.
  auto x = randomF32(32 * 64, 850, -10, 10);
  runTriton({"trans_op", {1, 1, 1}, 4,
             [&] {
               return std::vector<KernelArg>{
                   buffer(ScalarKind::F32, x),
                   buffer(ScalarKind::F32, std::vector<float>(64 * 32, -1))};
             },
             [&](const std::vector<KernelArg> &args) {
               auto out = contents<float>(args[1]);
               Checker ck("trans_op");
               for (int64_t i = 0; i < 32; ++i)
                 for (int64_t j = 0; j < 64; ++j)
                   ck.close(out[j * 32 + i], x[i * 64 + j], 0, at(j, i));
             }});
}

// C (f16) = A B with f16 or f32 inputs (`a`, `b`: their values) and an f32
// accumulator rounded once per tt.dot (BK = 32 per dot): each product is
// exact in double, and the result is within (nb + 1) u32 sum|a b| before
// the final rounding to f16, which adds half an f16 ulp.
void checkMatmulToF16(const std::vector<double> &a,
                      const std::vector<double> &b,
                      const std::vector<uint16_t> &c, int64_t M, int64_t N,
                      int64_t K, int64_t sam, int64_t sak, int64_t sbk,
                      int64_t sbn, int64_t scm, int64_t scn,
                      const std::string &what) {
  Checker ck(what);
  double nb = double(cdiv(K, 32));
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double want = 0, mag = 0;
      for (int64_t k = 0; k < K; ++k) {
        double p = a[i * sam + k * sak] * b[k * sbk + j * sbn];
        want += p;
        mag += std::fabs(p);
      }
      double got = f16Value(c[i * scm + j * scn]);
      double bound = ((nb + 1) * kU32 + double(K) * kU64) * mag +
                     0.5 * ulp16(std::max(std::fabs(want), std::fabs(got)));
      ck.close(got, want, bound, at(i, j));
    }
}

void checkMatmulF16(const std::vector<uint16_t> &a,
                    const std::vector<uint16_t> &b,
                    const std::vector<uint16_t> &c, int64_t M, int64_t N,
                    int64_t K, int64_t sam, int64_t sak, int64_t sbk,
                    int64_t sbn, int64_t scm, int64_t scn,
                    const std::string &what) {
  std::vector<double> av(a.size()), bv(b.size());
  std::transform(a.begin(), a.end(), av.begin(), f16Value);
  std::transform(b.begin(), b.end(), bv.begin(), f16Value);
  checkMatmulToF16(av, bv, c, M, N, K, sam, sak, sbk, sbn, scm, scn, what);
}

TEST(CpuOracleTriton, MatmulF16Hopper) {
  // matmul(a, b, c, M, N, K, sam, sbk, scm): Triton dropped sak = sbn =
  // scn = 1 and marked the rest divisible by 16. BM = BN = 64, BK = 32.
  // K = 80 leaves a masked half block.
  const int64_t M = 128, N = 64, K = 80;
  auto a = randomF16(M * K, 860, -1, 1), b = randomF16(K * N, 861, -1, 1);
  runTriton({"matmul_f16_64x64x32_w4_s2", {cdiv(M, 64) * cdiv(N, 64), 1, 1}, 4,
             [&] {
               return std::vector<KernelArg>{
                   buffer(ScalarKind::F16, a), buffer(ScalarKind::F16, b),
                   buffer(ScalarKind::F16, std::vector<uint16_t>(M * N, 0)),
                   i32(M), i32(N), i32(K), i32(K), i32(N), i32(N)};
             },
             [&](const std::vector<KernelArg> &args) {
               checkMatmulF16(a, b, contents<uint16_t>(args[2]), M, N, K, K, 1, N, 1,
                              N, 1, "matmul_f16_64x64x32_w4_s2");
             }});
}

TEST(CpuOracleTriton, MatmulF16Sm80) {
  // matmul(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn), all strides
  // explicit. BM = 128, BN = 64, BK = 32. A row-major, B and C column-major;
  // K = 48 leaves a masked half block.
  const int64_t M = 128, N = 128, K = 48;
  auto a = randomF16(M * K, 870, -1, 1), b = randomF16(K * N, 871, -1, 1);
  runTriton({"matmul_f16_sm80", {cdiv(M, 128) * cdiv(N, 64), 1, 1}, 4,
             [&] {
               return std::vector<KernelArg>{
                   buffer(ScalarKind::F16, a), buffer(ScalarKind::F16, b),
                   buffer(ScalarKind::F16, std::vector<uint16_t>(M * N, 0)),
                   i32(M), i32(N), i32(K), i32(K), i32(1), i32(1), i32(K), i32(1),
                   i32(M)};
             },
             [&](const std::vector<KernelArg> &args) {
               checkMatmulF16(a, b, contents<uint16_t>(args[2]), M, N, K, K, 1, 1, K,
                              1, M, "matmul_f16_sm80");
             }});
}

TEST(CpuOracleTriton, MatmulF32Sm80Tf32) {
  // The matmul of MatmulF16Sm80 on f32 inputs (tf32 dots, which the
  // reference computes exactly), with corpus/kernels/run_args.txt's
  // arguments. Its TTGIR is Triton's 3-stage cp.async pipeline: two slots,
  // two commit groups (A, B) per block, {num = 2} waits. BM = 128, BN = 64,
  // BK = 32; K = 48 leaves a masked half block, and the refills of the last
  // two iterations are masked off entirely.
  const int64_t M = 128, N = 128, K = 48;
  auto a = randomF32(M * K, 890, -1, 1), b = randomF32(K * N, 891, -1, 1);
  auto make = [&] {
    return std::vector<KernelArg>{
        buffer(ScalarKind::F32, a),
        buffer(ScalarKind::F32, b),
        buffer(ScalarKind::F16, std::vector<uint16_t>(M * N, 0)),
        i32(M),
        i32(N),
        i32(K),
        i32(K),
        i32(1),
        i32(1),
        i32(K),
        i32(1),
        i32(M)};
  };
  auto check = [&](const std::vector<KernelArg> &args) {
    checkMatmulToF16(std::vector<double>(a.begin(), a.end()),
                     std::vector<double>(b.begin(), b.end()),
                     contents<uint16_t>(args[2]), M, N, K, K, 1, 1, K, 1, M,
                     "matmul_f32_sm80_tf32");
  };
  runTriton({"matmul_f32_sm80_tf32",
             {cdiv(M, 128) * cdiv(N, 64), 1, 1},
             4,
             make,
             check});
}

TEST(CpuOracleTriton, WhileLoop) {
  // while_loop(x, out, n): out[0] = x[0] + ... + x[n-1], one at a time.
  const int64_t n = 10;
  auto x = randomF32(n, 880, -1, 1);
  runTriton({"while_loop", {1, 1, 1}, 1,
             [&] {
               return std::vector<KernelArg>{
                   buffer(ScalarKind::F32, x),
                   buffer(ScalarKind::F32, std::vector<float>(1, -1)), i32(n)};
             },
             [&](const std::vector<KernelArg> &args) {
               double want = 0, mag = 0;
               for (float v : x) {
                 want += v;
                 mag += std::fabs(v);
               }
               Checker ck("while_loop");
               // n sequential roundings (the first, 0 + x[0], is exact).
               ck.close(contents<float>(args[1])[0], want, double(n) * kU32 * mag,
                        "out");
             }});
}

//===----------------------------------------------------------------------===//
// cp.async groups (corpus/kernels/async/)
//===----------------------------------------------------------------------===//

std::vector<int32_t> randomI32(size_t n, uint64_t seed) {
  Rng r(seed);
  std::vector<int32_t> v(n);
  for (int32_t &x : v)
    x = int32_t(uint32_t(r.next()));
  return v;
}

// horner_blocks: acc = 3 acc + block over the blocks of 16 of row p of x
// (n long, the tail reading 0), in wrapping i32.
std::vector<int32_t> hornerBlocks(const std::vector<int32_t> &x, int64_t n,
                                  int64_t programs) {
  std::vector<int32_t> out(16 * programs);
  for (int64_t p = 0; p < programs; ++p)
    for (int64_t j = 0; j < 16; ++j) {
      uint32_t acc = 0;
      for (int64_t b = 0; b < cdiv(n, 16); ++b) {
        int64_t k = b * 16 + j;
        acc = acc * 3 + uint32_t(k < n ? x[p * n + k] : 0);
      }
      out[p * 16 + j] = int32_t(acc);
    }
  return out;
}

TEST(CpuOracleAsync, PipelinedLoopMatchesUnpipelined) {
  // Two programs (the pending copies are per program). n = 75: 5 blocks,
  // the last with 11 elements; n = 16 and 1: one block, so the prologue's
  // second copy and every refill are masked off; n = 32: two blocks.
  for (int64_t n : {75, 16, 1, 32}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto x = randomI32(2 * n, 900 + n);
    std::vector<std::vector<uint8_t>> outs;
    for (const char *file :
         {"async/horner_blocks.ttir", "async/horner_blocks_pipelined.ttgir"}) {
      SCOPED_TRACE(file);
      auto m = parseKernel(file);
      ASSERT_TRUE(m);
      std::vector<KernelArg> args = {
          buffer(ScalarKind::I32, x),
          buffer(ScalarKind::I32, std::vector<int32_t>(32, -1)), i32(n)};
      ASSERT_RUNS(run(*m, args, {2, 1, 1}, 1));
      EXPECT_EQ(contents<int32_t>(args[1]), hornerBlocks(x, n, 2));
      outs.push_back(args[1].bytes);
    }
    EXPECT_EQ(outs[0], outs[1]);
  }
}

TEST(CpuOracleAsync, GroupRules) {
  // See the kernel's comment: every rule it relies on must hold for it to
  // run at all; the output says each copy landed where it was sent.
  auto m = parseKernel("async/groups.ttgir");
  ASSERT_TRUE(m);
  auto x = randomI32(64, 910);
  std::vector<KernelArg> args = {
      buffer(ScalarKind::I32, x),
      buffer(ScalarKind::I32, std::vector<int32_t>(64, -1))};
  ASSERT_RUNS(run(*m, args, {1, 1, 1}, 1));
  std::vector<int32_t> want(x.begin(), x.begin() + 48);
  for (int64_t s = 0; s < 16; ++s) // slot element 4 j + i holds x[48 + 4 i + j]
    want.push_back(x[48 + 4 * (s % 4) + s / 4]);
  EXPECT_EQ(contents<int32_t>(args[1]), want);
}

//===----------------------------------------------------------------------===//
// Undefined behaviour (corpus/kernels/ub/)
//===----------------------------------------------------------------------===//

struct UBExpect {
  std::string file;   // under corpus/kernels/ub/
  std::string kind;   // UBReport::kind
  std::string op;     // UBReport::op
  std::string marker; // text on the op's line
  std::vector<int64_t> element;
  std::array<int64_t, 3> grid{1, 1, 1};
  uint64_t stepBudget = uint64_t(1) << 28;
  // Async copy UB: text on the line of the pending copy the message must
  // name (empty: not checked).
  std::string copyMarker;
};

// Runs the kernel, which must stop with UndefinedBehavior; returns the report.
std::optional<UBReport> runExpectingUB(const UBExpect &e,
                                       std::vector<KernelArg> args) {
  auto m = parseKernel("ub/" + e.file);
  if (!m)
    return std::nullopt;
  llvm::Error err = run(*m, args, e.grid, 4, e.stepBudget);
  if (!err) {
    ADD_FAILURE() << e.file << ": ran without undefined behaviour";
    return std::nullopt;
  }
  std::optional<UBReport> report;
  std::string other;
  llvm::handleAllErrors(
      std::move(err), [&](const UndefinedBehavior &u) { report = u.report; },
      [&](const llvm::ErrorInfoBase &b) { other = b.message(); });
  if (!report)
    ADD_FAILURE() << e.file << ": failed with another error: " << other;
  return report;
}

void expectUB(const UBExpect &e, std::vector<KernelArg> args) {
  SCOPED_TRACE("ub/" + e.file);
  std::optional<UBReport> r = runExpectingUB(e, std::move(args));
  if (!r)
    return;
  EXPECT_EQ(r->kind, e.kind) << r->str();
  EXPECT_EQ(r->op, e.op) << r->str();
  int line = lineOf("ub/" + e.file, e.marker);
  ASSERT_GT(line, 0) << "marker '" << e.marker << "' not in the file";
  std::string want = corpusPath("ub/" + e.file) + ":" + std::to_string(line) + ":";
  EXPECT_EQ(r->location.rfind(want, 0), 0u)
      << "location '" << r->location << "' should start with '" << want << "'";
  EXPECT_EQ(r->pid, (std::array<int64_t, 3>{0, 0, 0})) << r->str();
  EXPECT_EQ(r->element, e.element) << r->str();
  EXPECT_FALSE(r->message.empty());
  if (!e.copyMarker.empty()) {
    int copyLine = lineOf("ub/" + e.file, e.copyMarker);
    ASSERT_GT(copyLine, 0) << "marker '" << e.copyMarker << "' not in the file";
    std::string copyAt =
        " " + corpusPath("ub/" + e.file) + ":" + std::to_string(copyLine) + ":";
    EXPECT_NE(r->message.find(copyAt), std::string::npos)
        << "message should name the pending copy at" << copyAt << ": "
        << r->str();
  }
}

TEST(CpuOracleUB, OutOfBoundsLoad) {
  expectUB({"oob_load.ttir", "out-of-bounds", "tt.load", "%v = tt.load", {10}},
           {buffer(ScalarKind::F32, std::vector<float>(10, 1)),
            buffer(ScalarKind::F32, std::vector<float>(16, 0))});
}

TEST(CpuOracleUB, MisalignedBitcastPointer) {
  expectUB({"misaligned_bitcast.ttir", "misaligned-access", "tt.load",
            "%v = tt.load", {}},
           {buffer(ScalarKind::I8, std::vector<int8_t>(16, 0)),
            buffer(ScalarKind::I32, std::vector<int32_t>(1, 0))});
}

TEST(CpuOracleUB, MisalignedIntToPtr) {
  expectUB({"misaligned_int_to_ptr.ttir", "misaligned-access", "tt.store",
            "tt.store %p", {}},
           {buffer(ScalarKind::F32, std::vector<float>(4, 0))});
}

TEST(CpuOracleUB, DivisionByZero) {
  std::vector<int32_t> b(16, 3);
  b[5] = 0;
  expectUB({"div_by_zero.ttir", "division-by-zero", "arith.divsi", "arith.divsi",
            {5}},
           {buffer(ScalarKind::I32, std::vector<int32_t>(16, 100)),
            buffer(ScalarKind::I32, b),
            buffer(ScalarKind::I32, std::vector<int32_t>(16, 0))});
}

TEST(CpuOracleUB, IntMinDividedByMinusOne) {
  expectUB({"int_min_div.ttir", "division-overflow", "arith.divsi", "arith.divsi",
            {}},
           {buffer(ScalarKind::I32,
                   std::vector<int32_t>(1, std::numeric_limits<int32_t>::min())),
            buffer(ScalarKind::I32, std::vector<int32_t>(1, 0))});
}

TEST(CpuOracleUB, ShiftTooLarge) {
  expectUB({"shift_too_large.ttir", "shift-too-large", "arith.shli", "arith.shli",
            {12}},
           {buffer(ScalarKind::I32, std::vector<int32_t>(16, 1)),
            buffer(ScalarKind::I32, std::vector<int32_t>(16, 0))});
}

TEST(CpuOracleUB, UninitializedSharedRead) {
  expectUB({"uninit_shared.ttgir", "uninitialized-shared-read", "ttg.local_load",
            "ttg.local_load", {0}},
           {buffer(ScalarKind::F32, std::vector<float>(16, 0))});
}

std::vector<KernelArg> hornerArgs(int64_t n) {
  return {buffer(ScalarKind::I32, randomI32(2 * n, 920)),
          buffer(ScalarKind::I32, std::vector<int32_t>(32, 0)), i32(n)};
}

TEST(CpuOracleUB, AsyncCopyReadBeforeWait) {
  // {num = 2} leaves block 0's copy (the prologue's first) in flight when
  // iteration 0 reads slot 0.
  UBExpect e{"async_read_before_wait.ttgir",
             "async-copy-read-before-wait",
             "ttg.local_load",
             "ttg.local_load",
             {0}};
  e.grid = {2, 1, 1};
  e.copyMarker = "%t0 = ttg.async_copy_global_to_local";
  expectUB(e, hornerArgs(75));
}

TEST(CpuOracleUB, AsyncCopyIntoSlotStillPending) {
  // Iteration 0 refills slot 1, whose copy of block 1 is still in flight.
  UBExpect e{"async_write_conflict.ttgir",
             "async-copy-write-conflict",
             "ttg.async_copy_global_to_local",
             "%tn = ttg.async_copy_global_to_local",
             {0}};
  e.grid = {2, 1, 1};
  e.copyMarker = "%t1 = ttg.async_copy_global_to_local";
  expectUB(e, hornerArgs(75));
}

TEST(CpuOracleUB, AsyncWaitDoesNotCompleteUncommittedCopies) {
  UBExpect e{"async_uncommitted.ttgir",
             "async-copy-read-before-wait",
             "ttg.local_load",
             "%v1 = ttg.local_load",
             {0}};
  e.copyMarker = "%t1 = ttg.async_copy_global_to_local";
  auto x = randomI32(32, 930);
  auto args = [&] {
    return std::vector<KernelArg>{
        buffer(ScalarKind::I32, x),
        buffer(ScalarKind::I32, std::vector<int32_t>(32, 0))};
  };
  expectUB(e, args());
  // The same wait did complete the committed copy: out[0..16) was stored
  // from slot 0 before the report (buffers keep what was written).
  auto m = parseKernel("ub/" + e.file);
  ASSERT_TRUE(m);
  std::vector<KernelArg> a = args();
  std::string report = llvm::toString(run(*m, a, {1, 1, 1}));
  EXPECT_NE(report.find("not committed"), std::string::npos) << report;
  auto out = contents<int32_t>(a[1]);
  EXPECT_EQ(std::vector<int32_t>(out.begin(), out.begin() + 16),
            std::vector<int32_t>(x.begin(), x.begin() + 16));
  EXPECT_EQ(std::vector<int32_t>(out.begin() + 16, out.end()),
            std::vector<int32_t>(16, 0));
}

TEST(CpuOracleUB, AsyncCopySourceOverwritten) {
  auto x = randomI32(16, 940);
  std::vector<int32_t> y = x;
  y[5] ^= 1;
  expectUB({"async_source_overwritten.ttgir",
            "async-copy-source-overwritten",
            "tt.store",
            "tt.store %xp",
            {5}},
           {buffer(ScalarKind::I32, x), buffer(ScalarKind::I32, y),
            buffer(ScalarKind::I32, std::vector<int32_t>(16, 0))});
  // Storing the bytes that are there is defined; the copy delivers x.
  auto m = parseKernel("ub/async_source_overwritten.ttgir");
  ASSERT_TRUE(m);
  std::vector<KernelArg> same = {
      buffer(ScalarKind::I32, x), buffer(ScalarKind::I32, x),
      buffer(ScalarKind::I32, std::vector<int32_t>(16, 0))};
  ASSERT_RUNS(run(*m, same, {1, 1, 1}));
  EXPECT_EQ(contents<int32_t>(same[2]), x);
}

TEST(CpuOracleUB, DeallocWithPendingCopy) {
  UBExpect e{"async_dealloc_pending.ttgir",
             "async-copy-write-conflict",
             "ttg.local_dealloc",
             "ttg.local_dealloc",
             {}};
  e.copyMarker = "ttg.async_copy_global_to_local";
  expectUB(e, {buffer(ScalarKind::I32, std::vector<int32_t>(16, 1))});
}

TEST(CpuOracleUB, GatherIndexOutOfRange) {
  std::vector<int32_t> idx(16);
  for (int i = 0; i < 16; ++i)
    idx[i] = 15 - i;
  idx[3] = 16;
  expectUB({"gather_oob.ttir", "index-out-of-range", "tt.gather", "tt.gather", {3}},
           {buffer(ScalarKind::F32, std::vector<float>(16, 1)),
            buffer(ScalarKind::I32, idx),
            buffer(ScalarKind::F32, std::vector<float>(16, 0))});
}

TEST(CpuOracleUB, AssertionFailed) {
  expectUB({"assert_fail.ttir", "assertion-failed", "tt.assert", "tt.assert", {10}},
           {buffer(ScalarKind::F32, std::vector<float>(1, 0))});
}

TEST(CpuOracleUB, StoreConflictWithinOneStore) {
  std::vector<int32_t> x(16, 7);
  x[4] = 8; // lane 4 writes y[0] after lane 0, with other data
  expectUB({"store_conflict.ttir", "store-conflict", "tt.store", "tt.store %yp", {4}},
           {buffer(ScalarKind::I32, x), buffer(ScalarKind::I32, std::vector<int32_t>(4, 0))});
  // The same data from every lane is defined.
  auto m = parseKernel("ub/store_conflict.ttir");
  ASSERT_TRUE(m);
  std::vector<KernelArg> same = {buffer(ScalarKind::I32, std::vector<int32_t>(16, 7)),
                                 buffer(ScalarKind::I32, std::vector<int32_t>(4, 0))};
  ASSERT_RUNS(run(*m, same, {1, 1, 1}));
  EXPECT_EQ(contents<int32_t>(same[1]), (std::vector<int32_t>{7, 7, 7, 7}));
}

// A race is found at the second program of the pair (x fastest).
void expectRace(const std::string &file, const std::string &kind,
                const std::string &op, const std::string &marker,
                std::vector<KernelArg> args) {
  SCOPED_TRACE("ub/" + file);
  UBExpect e{file, kind, op, marker, {}};
  e.grid = {2, 1, 1};
  std::optional<UBReport> r = runExpectingUB(e, std::move(args));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kind, kind) << r->str();
  EXPECT_EQ(r->op, op) << r->str();
  EXPECT_EQ(r->pid, (std::array<int64_t, 3>{1, 0, 0})) << r->str();
  int line = lineOf("ub/" + file, marker);
  EXPECT_EQ(r->location.rfind(corpusPath("ub/" + file) + ":" + std::to_string(line) + ":", 0),
            0u)
      << r->location;
  EXPECT_NE(r->message.find("program 0"), std::string::npos) << r->message;
}

TEST(CpuOracleUB, StoreRaceBetweenPrograms) {
  expectRace("store_race.ttir", "store-race", "tt.store", "tt.store %y",
             {buffer(ScalarKind::F32, std::vector<float>{1.5f, 2.5f}),
              buffer(ScalarKind::F32, std::vector<float>(1, 0))});
  // Both programs storing the same value is defined.
  auto m = parseKernel("ub/store_race.ttir");
  ASSERT_TRUE(m);
  std::vector<KernelArg> same = {buffer(ScalarKind::F32, std::vector<float>{1.5f, 1.5f}),
                                 buffer(ScalarKind::F32, std::vector<float>(1, 0))};
  ASSERT_RUNS(run(*m, same, {2, 1, 1}));
}

TEST(CpuOracleUB, LoadOfAnotherProgramsStore) {
  expectRace("load_race.ttir", "load-race", "tt.load", "%w = tt.load",
             {buffer(ScalarKind::I32, std::vector<int32_t>{3, 4}),
              buffer(ScalarKind::I32, std::vector<int32_t>(2, 0)),
              buffer(ScalarKind::I32, std::vector<int32_t>(2, 0))});
  // One program reading back its own store is defined.
  auto m = parseKernel("ub/load_race.ttir");
  ASSERT_TRUE(m);
  std::vector<KernelArg> one = {buffer(ScalarKind::I32, std::vector<int32_t>{3, 4}),
                                buffer(ScalarKind::I32, std::vector<int32_t>(2, 0)),
                                buffer(ScalarKind::I32, std::vector<int32_t>(2, 0))};
  ASSERT_RUNS(run(*m, one, {1, 1, 1}));
}

TEST(CpuOracleUB, AsyncCopyOfAnotherProgramsStore) {
  expectRace("async_load_race.ttgir", "load-race",
             "ttg.async_copy_global_to_local", "ttg.async_copy_global_to_local",
             {buffer(ScalarKind::I32, std::vector<int32_t>{3, 4}),
              buffer(ScalarKind::I32, std::vector<int32_t>(2, 0)),
              buffer(ScalarKind::I32, std::vector<int32_t>(2, 0))});
  // One program copying back its own store is defined.
  auto m = parseKernel("ub/async_load_race.ttgir");
  ASSERT_TRUE(m);
  std::vector<KernelArg> one = {
      buffer(ScalarKind::I32, std::vector<int32_t>{3, 4}),
      buffer(ScalarKind::I32, std::vector<int32_t>(2, 0)),
      buffer(ScalarKind::I32, std::vector<int32_t>(2, 0))};
  ASSERT_RUNS(run(*m, one, {1, 1, 1}));
  EXPECT_EQ(contents<int32_t>(one[2]), (std::vector<int32_t>{3, 0}));
}

TEST(CpuOracleUB, RunawayWhileStoppedByStepBudget) {
  // Which op of the loop trips the budget depends on how steps are counted;
  // it must be one inside the scf.while, on a line between it and its end.
  UBExpect e{"runaway_while.ttir", "step-budget", "", "", {}};
  e.stepBudget = 1000;
  SCOPED_TRACE("ub/" + e.file);
  std::optional<UBReport> r =
      runExpectingUB(e, {buffer(ScalarKind::I32, std::vector<int32_t>(1, 0))});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kind, "step-budget") << r->str();
  std::vector<std::string> loopOps = {"arith.cmpi", "scf.condition", "arith.addi",
                                      "scf.yield", "scf.while"};
  EXPECT_NE(std::find(loopOps.begin(), loopOps.end(), r->op), loopOps.end())
      << r->str();
  int first = lineOf("ub/" + e.file, "scf.while"),
      last = lineOf("ub/" + e.file, "tt.store %out");
  std::string prefix = corpusPath("ub/" + e.file) + ":";
  ASSERT_EQ(r->location.rfind(prefix, 0), 0u) << r->location;
  int line = std::atoi(r->location.c_str() + prefix.size());
  EXPECT_GE(line, first) << r->location;
  EXPECT_LT(line, last) << r->location;
}

} // namespace
