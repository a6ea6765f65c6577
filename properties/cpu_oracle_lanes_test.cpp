// The CPU oracle's lane-wise tt.reduce / tt.scan (the combine region run
// once per step on all lines together, RunOptions::laneWiseCombine) against
// its element-by-element fold, the second implementation: every buffer bit
// for bit, or the same error, on the corpus kernels with a launch and on
// generated programs weighted towards reductions and scans.
#include "TestContext.h"
#include "fuzz/generator/Generator.h"
#include "oracles/cpu/Interpreter.h"
#include "oracles/cpu/RunArgs.h"
#include "tgpu/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace tgpu::cpu;

namespace {

using tgpu::test::context;

struct Outcome {
  std::vector<KernelArg> args;
  std::string error; // empty: the run succeeded
};

Outcome run(mlir::ModuleOp module, const LaunchSpec &spec, bool laneWise) {
  Outcome out;
  std::string why;
  if (!spec.makeArgs(out.args, why)) {
    out.error = "bad launch: " + why;
    return out;
  }
  RunOptions options;
  options.grid = spec.grid;
  options.numWarps = spec.numWarps;
  options.stepBudget = uint64_t(1) << 26;
  options.laneWiseCombine = laneWise;
  options.print = [](const std::string &) {};
  if (llvm::Error e = runKernel(module, "", out.args, options))
    out.error = llvm::toString(std::move(e));
  return out;
}

// Runs `module` both ways and compares; returns whether it has a reduce or
// scan (so the caller can count what was exercised).
bool compareBothWays(mlir::ModuleOp module, const LaunchSpec &spec,
                     const std::string &what) {
  bool combines = false;
  module.walk([&](mlir::Operation *op) {
    llvm::StringRef name = op->getName().getStringRef();
    combines |= name == "tt.reduce" || name == "tt.scan";
  });
  Outcome lanes = run(module, spec, true), fold = run(module, spec, false);
  EXPECT_EQ(lanes.error, fold.error) << what;
  EXPECT_EQ(lanes.args.size(), fold.args.size()) << what;
  for (size_t a = 0; a < lanes.args.size() && a < fold.args.size(); ++a)
    EXPECT_TRUE(lanes.args[a].bytes == fold.args[a].bytes)
        << what << ": argument " << a << " differs";
  return combines;
}

TEST(CpuOracleLanes, CorpusKernels) {
  std::string dir = TGPU_CORPUS_DIR;
  std::ifstream list(dir + "/run_args.txt");
  ASSERT_TRUE(list) << "cannot read " << dir << "/run_args.txt";
  std::string line;
  int kernels = 0, withCombines = 0;
  while (std::getline(list, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    llvm::SmallVector<llvm::StringRef, 4> fields;
    llvm::StringRef(line).split(fields, '|');
    ASSERT_EQ(fields.size(), 4u) << line;
    std::string file = dir + "/" + fields[1].trim().str();
    auto module = mlir::parseSourceFile<mlir::ModuleOp>(
        file, mlir::ParserConfig(&context()));
    ASSERT_TRUE(module) << "cannot parse " << file;
    LaunchSpec spec;
    std::string why;
    ASSERT_TRUE(LaunchSpec::parse(
        (fields[2].trim() + " -- " + fields[3].trim()).str(), spec, why))
        << line << ": " << why;
    ++kernels;
    withCombines += compareBothWays(*module, spec, file);
  }
  EXPECT_GE(kernels, 30);
  EXPECT_GE(withCombines, 5);
}

TEST(CpuOracleLanes, GeneratedPrograms) {
  tgpu::gen::GenPolicy policy;
  policy.wReduce = 12;
  policy.wScan = 8;
  int programs = 0, withCombines = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    std::vector<uint8_t> bytes = tgpu::gen::ByteSource::fromSeed(seed);
    tgpu::gen::ByteSource src(bytes);
    tgpu::gen::GeneratedProgram program = tgpu::gen::generateProgram(src, policy);
    auto module = mlir::parseSourceString<mlir::ModuleOp>(
        program.ttir, mlir::ParserConfig(&context()));
    ASSERT_TRUE(module) << program.ttir;
    LaunchSpec spec;
    std::string why;
    ASSERT_TRUE(LaunchSpec::parse(program.launch, spec, why)) << why;
    ++programs;
    withCombines += compareBothWays(*module, spec,
                                    "seed " + std::to_string(seed) + ":\n" +
                                        program.ttir);
  }
  EXPECT_GE(withCombines, programs / 2);
  std::printf("%d of %d generated programs reduce or scan\n", withCombines, programs);
}

// A combine region whose integer division by zero is reached only in line
// 0 (x / y over the rows (0, 1), (2, 3), (4, 5), (6, 7) of a 4x2 range,
// with x and y swapped: 1 / 0): the lane-wise run fails, and the
// element-by-element fold it falls back to reports the failure exactly as
// it always did.
TEST(CpuOracleLanes, UndefinedBehaviourReportedAsByTheFold) {
  const char *ir = R"(
module {
  tt.func public @kernel(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %a = tt.reshape %r : tensor<8xi32> -> tensor<4x2xi32>
    %s = "tt.reduce"(%a) <{axis = 1 : i32}> ({
    ^bb0(%x: i32, %y: i32):
      %q = arith.divsi %y, %x : i32
      tt.reduce.return %q : i32
    }) : (tensor<4x2xi32>) -> tensor<4xi32>
    %o = tt.splat %out : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
    %i = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %p = tt.addptr %o, %i : tensor<4x!tt.ptr<i32>>, tensor<4xi32>
    tt.store %p, %s : tensor<4x!tt.ptr<i32>>
    tt.return
  }
}
)";
  LaunchSpec spec;
  std::string why;
  ASSERT_TRUE(LaunchSpec::parse("--grid 1 -- ptr:i32=zeros:4", spec, why)) << why;
  auto module =
      mlir::parseSourceString<mlir::ModuleOp>(ir, mlir::ParserConfig(&context()));
  ASSERT_TRUE(module);
  compareBothWays(*module, spec, "division by zero in line 0");
  Outcome failed = run(*module, spec, true);
  EXPECT_NE(failed.error.find("division-by-zero"), std::string::npos)
      << failed.error;
  // Divisor and dividend the other way round: 0 / 1, 2 / 3, ... run, lane-wise
  // and folded alike.
  std::string fine = ir;
  size_t at = fine.find("arith.divsi %y, %x");
  ASSERT_NE(at, std::string::npos);
  fine.replace(at, 18, "arith.divsi %x, %y");
  auto ok = mlir::parseSourceString<mlir::ModuleOp>(fine,
                                                    mlir::ParserConfig(&context()));
  ASSERT_TRUE(ok);
  compareBothWays(*ok, spec, "no division by zero");
  EXPECT_EQ(run(*ok, spec, true).error, "");
}

} // namespace
