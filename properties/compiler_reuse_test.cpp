// One tgpu::Compiler compiles many modules in a process (fuzzers, the GPU
// oracle): every compile of a kernel must give the same result as the first,
// and kernels compiled in between must not leak into it. (A pass keeping a
// value map across runs once made the second compile of a matmul invalid.)
#include "tgpu/Pipeline/Compiler.h"
#include "tgpu/Target/PTX.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <regex>

namespace {

std::string readKernel(const std::string &rel) {
  auto buffer =
      llvm::MemoryBuffer::getFile(std::string(TGPU_CORPUS_DIR) + "/" + rel);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

std::string compileOrFail(mlir::tgpu::Compiler &compiler,
                          const std::string &rel) {
  std::string text = readKernel(rel);
  EXPECT_FALSE(text.empty()) << rel;
  auto result = compiler.compile(text, rel);
  if (!result) {
    ADD_FAILURE() << rel << ": " << llvm::toString(result.takeError());
    return {};
  }
  return result->output;
}

TEST(CompilerReuse, SameOutputEveryTime) {
  mlir::tgpu::CompilerOptions options;
  options.arch = "sm_90";
  options.numWarps = 4;
  auto compiler = mlir::tgpu::Compiler::create(options);
  ASSERT_TRUE(bool(compiler)) << llvm::toString(compiler.takeError());
  const char *kernels[] = {"triton/matmul_f16_64x64x32_w4_s2.ttir",
                           "vector_add.ttir", "triton/softmax.ttir",
                           "transpose_2d.ttir", "atomics.ttir"};
  std::vector<std::string> first;
  for (const char *k : kernels)
    first.push_back(compileOrFail(**compiler, k));
  for (int round = 0; round < 2; ++round)
    for (size_t i = 0; i < std::size(kernels); ++i)
      EXPECT_EQ(compileOrFail(**compiler, kernels[i]), first[i])
          << kernels[i] << ", round " << round;
  // The same kernel back to back: freed values' memory is reused at once.
  for (int round = 0; round < 3; ++round)
    EXPECT_EQ(compileOrFail(**compiler, kernels[0]), first[0])
        << kernels[0] << ", repeat " << round;
}

// libdevice is parsed once per process and its subsets cached: compiles after
// the first (in the same compiler or another) give the same PTX, and a bad
// path is an error that names it and leaves the next compile unharmed.
// NVPTX numbers call sequences ("{ // callseq 3, 0") per target machine, so
// a reused one numbers on from the last kernel: only those comments differ.
std::string withoutCallseqNumbers(const std::string &ptx) {
  static const std::regex callseq("// callseq [0-9]+");
  return std::regex_replace(ptx, callseq, "// callseq");
}

TEST(CompilerReuse, LibdeviceLinkedTheSameEveryTime) {
  std::string libdevice = mlir::tgpu::defaultLibdevicePath();
  if (!llvm::sys::fs::exists(libdevice))
    GTEST_SKIP() << "no libdevice at " << libdevice;
  mlir::tgpu::CompilerOptions options;
  options.arch = "sm_90";
  auto compiler = mlir::tgpu::Compiler::create(options);
  ASSERT_TRUE(bool(compiler)) << llvm::toString(compiler.takeError());
  const char *kernel = "triton/libdevice_and_assert.ttir";
  std::string first = withoutCallseqNumbers(compileOrFail(**compiler, kernel));
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first.find("__nv_"), std::string::npos);
  EXPECT_EQ(first.find("__nvvm_reflect"), std::string::npos);
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(compileOrFail(**compiler, "vector_add.ttir").find("__nv_"),
              std::string::npos);
    EXPECT_EQ(withoutCallseqNumbers(compileOrFail(**compiler, kernel)), first)
        << "round " << round;
  }

  options.libdevicePath = "/nonexistent/libdevice.10.bc";
  auto missing = mlir::tgpu::Compiler::create(options);
  ASSERT_TRUE(bool(missing)) << llvm::toString(missing.takeError());
  auto failed = (*missing)->compile(readKernel(kernel), kernel);
  ASSERT_FALSE(bool(failed));
  std::string message = llvm::toString(failed.takeError());
  EXPECT_NE(message.find("'/nonexistent/libdevice.10.bc'"), std::string::npos)
      << message;
  EXPECT_EQ(withoutCallseqNumbers(compileOrFail(**compiler, kernel)), first);
}

} // namespace
