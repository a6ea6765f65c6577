// Compile time per kernel, in one process (the fuzzer's and the GPU oracle's
// situation): MLIRContext, pass managers and NVPTX TargetMachine are set up
// once by tgpu::Compiler; each iteration parses and compiles one kernel to
// PTX for sm_90 at 4 warps. Goals (docs/PERFORMANCE.md): vector add <= 30 ms,
// an fp16 matmul <= 150 ms on the 2-core CI machine.
#include "tgpu/Pipeline/Compiler.h"

#include "llvm/Support/MemoryBuffer.h"

#include <benchmark/benchmark.h>

#include <string>

namespace {

std::string readKernel(const std::string &rel) {
  auto buffer =
      llvm::MemoryBuffer::getFile(std::string(TGPU_CORPUS_DIR) + "/" + rel);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

void BM_CompileToPtx(benchmark::State &state, const char *rel,
                     bool tensorCores = false) {
  std::string text = readKernel(rel);
  if (text.empty()) {
    state.SkipWithError("cannot read the kernel");
    return;
  }
  mlir::tgpu::CompilerOptions options;
  options.arch = "sm_90";
  options.numWarps = 4;
  options.tensorCores = tensorCores;
  auto compiler = mlir::tgpu::Compiler::create(options);
  if (!compiler) {
    state.SkipWithError(llvm::toString(compiler.takeError()).c_str());
    return;
  }
  // The first compile creates the TargetMachine: not per-kernel work.
  auto warm = (*compiler)->compile(text, rel);
  if (!warm) {
    state.SkipWithError(llvm::toString(warm.takeError()).c_str());
    return;
  }
  for (auto _ : state) {
    auto result = (*compiler)->compile(text, rel);
    if (!result) {
      state.SkipWithError(llvm::toString(result.takeError()).c_str());
      return;
    }
    benchmark::DoNotOptimize(result->output.data());
  }
}

BENCHMARK_CAPTURE(BM_CompileToPtx, vector_add, "vector_add.ttir")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileToPtx, softmax, "triton/softmax.ttir")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileToPtx, layernorm, "triton/layernorm.ttir")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileToPtx, matmul_f16_64x64x32,
                  "triton/matmul_f16_64x64x32_w4_s2.ttir")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileToPtx, matmul_f16_128x128x64,
                  "triton/matmul_f16_128x128x64_w4_s3.ttir")
    ->Unit(benchmark::kMillisecond);
// The same dots on tensor cores (mma.sync): MNK / (16 * 8 * 16 * warps)
// instructions per thread instead of MNK / threads fma.
BENCHMARK_CAPTURE(BM_CompileToPtx, matmul_f16_64x64x32_mma,
                  "triton/matmul_f16_64x64x32_w4_s2.ttir", true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileToPtx, matmul_f16_128x128x64_mma,
                  "triton/matmul_f16_128x128x64_w4_s3.ttir", true)
    ->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
