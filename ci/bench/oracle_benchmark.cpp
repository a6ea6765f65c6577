// Speed of the CPU reference oracle: the goal is >= 50 M element-ops
// per second per core on a vector add. Counters: element-ops = tensor ops
// executed x elements each (the vector add runs 15 tensor ops per element).
#include "oracles/cpu/Interpreter.h"
#include "tgpu/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <benchmark/benchmark.h>

#include <cstring>

#ifndef TGPU_CORPUS_DIR
#error "TGPU_CORPUS_DIR must name corpus/kernels"
#endif

namespace {

void BM_CpuOracleVectorAdd(benchmark::State &state) {
  mlir::DialectRegistry registry;
  mlir::tgpu::registerAllDialects(registry);
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  auto module = mlir::parseSourceFile<mlir::ModuleOp>(
      TGPU_CORPUS_DIR "/vector_add.ttir", &ctx);
  if (!module) {
    state.SkipWithError("cannot parse vector_add.ttir");
    return;
  }
  int64_t n = state.range(0);
  auto buffer = [&](float v) {
    tgpu::cpu::KernelArg a;
    a.kind = tgpu::cpu::ScalarKind::F32;
    a.isBuffer = true;
    a.bytes.resize(n * 4);
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(a.bytes.data() + 4 * i, &v, 4);
    return a;
  };
  std::vector<tgpu::cpu::KernelArg> args{buffer(1.0f), buffer(2.0f), buffer(0.0f)};
  tgpu::cpu::KernelArg count;
  count.kind = tgpu::cpu::ScalarKind::I32;
  count.intValue = n;
  args.push_back(count);
  tgpu::cpu::RunOptions options;
  options.grid = {n / 1024, 1, 1};
  for (auto _ : state) {
    if (llvm::Error e = tgpu::cpu::runKernel(*module, "", args, options)) {
      state.SkipWithError(llvm::toString(std::move(e)).c_str());
      return;
    }
  }
  state.counters["element-ops/s"] = benchmark::Counter(
      double(15 * n) * state.iterations(), benchmark::Counter::kIsRate);
  state.counters["elements/s"] = benchmark::Counter(
      double(n) * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CpuOracleVectorAdd)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

} // namespace
