// Speed of the layout algebra and conversions (Google Benchmark). The
// targets from the layout issue: apply on a 20-bit layout <= 10 ns,
// invert / compose of 20x20 layouts <= 5 us, toLinearLayout of a blocked
// attribute <= 5 us. Run: ci/bench.sh (prints the table).
#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/InitAllDialects.h"
#include "tgpu/Layout/Encodings.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include <benchmark/benchmark.h>

#include <random>

using namespace tgpu::layout;

namespace {

// Only the benchmark's own fixed layouts come here; a failure is a bug in
// the benchmark, not an input.
LinearLayout must(llvm::Expected<LinearLayout> l) {
  if (!l) {
    llvm::errs() << llvm::toString(l.takeError()) << "\n";
    std::abort();
  }
  return std::move(*l);
}

// A random invertible layout of 20 bits: register(4) lane(5) warp(5)
// block(6) -> dim0(2^10) dim1(2^10).
LinearLayout randomInvertible20(uint32_t seed) {
  std::mt19937 rng(seed);
  for (;;) {
    std::vector<LinearLayout::DimBases> bases;
    for (auto [name, bits] : std::vector<std::pair<const char *, int>>{
             {"register", 4}, {"lane", 5}, {"warp", 5}, {"block", 6}}) {
      std::vector<LinearLayout::Basis> bs;
      for (int i = 0; i < bits; ++i)
        bs.push_back({int32_t(rng() % 1024), int32_t(rng() % 1024)});
      bases.push_back({name, bs});
    }
    auto l = LinearLayout::create(bases, {{"dim0", 1024}, {"dim1", 1024}}, false);
    if (l && l->isInvertible())
      return std::move(*l);
    if (!l)
      llvm::consumeError(l.takeError());
  }
}

void BM_ApplyFlat20Bit(benchmark::State &state) {
  LinearLayout l = randomInvertible20(1);
  std::vector<uint64_t> inputs(4096);
  std::mt19937_64 rng(2);
  for (uint64_t &x : inputs)
    x = rng() & ((1u << 20) - 1);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(l.applyFlat(inputs[i++ & 4095]));
  }
}
BENCHMARK(BM_ApplyFlat20Bit);

void BM_ApplyNamed20Bit(benchmark::State &state) {
  LinearLayout l = randomInvertible20(1);
  std::mt19937 rng(3);
  for (auto _ : state) {
    auto r = l.apply({{"register", int32_t(rng() & 15)},
                      {"lane", int32_t(rng() & 31)},
                      {"warp", int32_t(rng() & 31)},
                      {"block", int32_t(rng() & 63)}});
    benchmark::DoNotOptimize(r);
    if (!r)
      llvm::consumeError(r.takeError());
  }
}
BENCHMARK(BM_ApplyNamed20Bit);

void BM_Invert20x20(benchmark::State &state) {
  LinearLayout l = randomInvertible20(4);
  for (auto _ : state) {
    auto r = l.invert();
    benchmark::DoNotOptimize(r);
    if (!r)
      llvm::consumeError(r.takeError());
  }
}
BENCHMARK(BM_Invert20x20);

void BM_Compose20x20(benchmark::State &state) {
  LinearLayout a = randomInvertible20(5);
  LinearLayout b = must(randomInvertible20(6).invert()); // dims -> ins
  for (auto _ : state) {
    auto r = a.compose(b);
    benchmark::DoNotOptimize(r);
    if (!r)
      llvm::consumeError(r.takeError());
  }
}
BENCHMARK(BM_Compose20x20);

void BM_InvertAndCompose20x20(benchmark::State &state) {
  LinearLayout a = randomInvertible20(7), b = randomInvertible20(8);
  for (auto _ : state) {
    auto r = a.invertAndCompose(b);
    benchmark::DoNotOptimize(r);
    if (!r)
      llvm::consumeError(r.takeError());
  }
}
BENCHMARK(BM_InvertAndCompose20x20);

void BM_ToLinearLayoutBlocked(benchmark::State &state) {
  Encoding e = BlockedEncoding{{4, 4}, {4, 8}, {4, 1}, {1, 0}, {}};
  std::vector<int64_t> shape{128, 128};
  for (auto _ : state) {
    auto r = toLinearLayout(shape, e);
    benchmark::DoNotOptimize(r);
    if (!r)
      llvm::consumeError(r.takeError());
  }
}
BENCHMARK(BM_ToLinearLayoutBlocked);

void BM_ToLinearLayoutBlockedAttr(benchmark::State &state) {
  mlir::DialectRegistry registry;
  mlir::tgpu::registerAllDialects(registry);
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  mlir::Attribute attr = mlir::parseAttribute(
      "#ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], "
      "warpsPerCTA = [4, 1], order = [1, 0]}>",
      &ctx);
  std::vector<int64_t> shape{128, 128};
  for (auto _ : state) {
    auto r = toLinearLayout(shape, attr);
    benchmark::DoNotOptimize(r);
    if (!r)
      llvm::consumeError(r.takeError());
  }
}
BENCHMARK(BM_ToLinearLayoutBlockedAttr);

void BM_ToLinearLayoutMmaV3(benchmark::State &state) {
  Encoding e = NvidiaMmaEncoding{3, 0, {4, 2}, {16, 128, 16}, {}};
  std::vector<int64_t> shape{128, 256};
  for (auto _ : state) {
    auto r = toLinearLayout(shape, e);
    benchmark::DoNotOptimize(r);
    if (!r)
      llvm::consumeError(r.takeError());
  }
}
BENCHMARK(BM_ToLinearLayoutMmaV3);

void BM_ToLinearLayoutNVMMAShared(benchmark::State &state) {
  Encoding e = NVMMASharedEncoding{128, false, 16, false, 2, {}};
  std::vector<int64_t> shape{128, 64};
  for (auto _ : state) {
    auto r = toLinearLayout(shape, e);
    benchmark::DoNotOptimize(r);
    if (!r)
      llvm::consumeError(r.takeError());
  }
}
BENCHMARK(BM_ToLinearLayoutNVMMAShared);

} // namespace

BENCHMARK_MAIN();
