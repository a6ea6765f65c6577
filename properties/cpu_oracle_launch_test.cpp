// Launch specs (oracles/cpu/RunArgs.h) with the compile fields a generated
// program carries, the generator's draws of them, and the reference's dot
// law that lets every pass be compared bit for bit: a dot split along K at
// a multiple of 16 (what tritongpu-prefetch does) gives the bits of the
// whole dot.
#include "TestContext.h"

#include "fuzz/generator/ByteSource.h"
#include "fuzz/generator/Generator.h"
#include "oracles/cpu/Interpreter.h"
#include "oracles/cpu/RunArgs.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace tgpu::cpu;

namespace {

TEST(LaunchSpec, CompileFieldsRoundTrip) {
  LaunchSpec spec;
  std::string why;
  ASSERT_TRUE(LaunchSpec::parse(
      "--grid 2,3 --num-warps 8 --num-stages 2 --arch sm_80 -- i32=5", spec,
      why))
      << why;
  EXPECT_EQ(spec.numWarps, 8);
  EXPECT_EQ(spec.numStages, 2);
  EXPECT_EQ(spec.arch, "sm_80");
  EXPECT_EQ(spec.str(),
            "--grid 2,3 --num-warps 8 --num-stages 2 --arch sm_80 -- i32=5");
  // Unset fields stay out of the text.
  ASSERT_TRUE(LaunchSpec::parse("--grid 4 -- i32=1", spec, why)) << why;
  EXPECT_EQ(spec.numStages, 0);
  EXPECT_EQ(spec.arch, "");
  EXPECT_EQ(spec.str(), "--grid 4 -- i32=1");
  ASSERT_TRUE(LaunchSpec::parse("--grid 1 --arch=sm_90a -- i32=1", spec, why));
  EXPECT_EQ(spec.arch, "sm_90a");
}

TEST(LaunchSpec, RejectsBadCompileFields) {
  LaunchSpec spec;
  std::string why;
  for (const char *bad :
       {"--grid 1 --num-stages 0 -- i32=1", "--grid 1 --num-stages 9 -- i32=1",
        "--grid 1 --num-stages two -- i32=1", "--grid 1 --arch sm_75 -- i32=1",
        "--grid 1 --arch -- i32=1"}) {
    EXPECT_FALSE(LaunchSpec::parse(bad, spec, why)) << bad;
    EXPECT_FALSE(why.empty()) << bad;
  }
}

// The launch of a generated program: stages 1..4 and both targets when the
// policy leaves them to chance, exactly the policy's values otherwise.
TEST(LaunchSpec, GeneratorDrawsStagesAndTarget) {
  std::set<int> stages;
  std::set<std::string> arches;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    std::vector<uint8_t> bytes = tgpu::gen::ByteSource::fromSeed(seed);
    tgpu::gen::ByteSource src(bytes);
    tgpu::gen::GenPolicy policy;
    auto program = tgpu::gen::generateProgram(src, policy);
    LaunchSpec spec;
    std::string why;
    ASSERT_TRUE(LaunchSpec::parse(program.launch, spec, why)) << why;
    EXPECT_GE(spec.numStages, 1);
    EXPECT_LE(spec.numStages, 4);
    EXPECT_TRUE(spec.arch == "sm_80" || spec.arch == "sm_90") << spec.arch;
    stages.insert(spec.numStages);
    arches.insert(spec.arch);
  }
  EXPECT_EQ(stages.size(), 4u);
  EXPECT_EQ(arches.size(), 2u);
  std::vector<uint8_t> bytes = tgpu::gen::ByteSource::fromSeed(7);
  tgpu::gen::ByteSource src(bytes);
  tgpu::gen::GenPolicy policy;
  policy.numStages = 3;
  policy.arch = 80;
  auto program = tgpu::gen::generateProgram(src, policy);
  LaunchSpec spec;
  std::string why;
  ASSERT_TRUE(LaunchSpec::parse(program.launch, spec, why)) << why;
  EXPECT_EQ(spec.numStages, 3);
  EXPECT_EQ(spec.arch, "sm_80");
}

// c + A * B with K = 64, once whole and once as four dots of K = 16
// chained through the accumulator, A and B read from the same buffers: the
// split's buffer must hold the same bits, for f32 and f16 accumulators.
const char *kWholeAndSplit = R"(
module {
  tt.func public @dots(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<ACC>,
                       %whole: !tt.ptr<ACC>, %split: !tt.ptr<ACC>) {
    %rm = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rk16 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %i = tt.expand_dims %rm {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %j = tt.expand_dims %rm {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %kc = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %kr = tt.expand_dims %rk {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %c64 = arith.constant dense<64> : tensor<16x1xi32>
    %c16r = arith.constant dense<16> : tensor<64x1xi32>
    %c16 = arith.constant dense<16> : tensor<16x1xi32>
    %ia = arith.muli %i, %c64 : tensor<16x1xi32>
    %ia2 = tt.broadcast %ia : tensor<16x1xi32> -> tensor<16x64xi32>
    %ka2 = tt.broadcast %kc : tensor<1x64xi32> -> tensor<16x64xi32>
    %offa = arith.addi %ia2, %ka2 : tensor<16x64xi32>
    %kb = arith.muli %kr, %c16r : tensor<64x1xi32>
    %kb2 = tt.broadcast %kb : tensor<64x1xi32> -> tensor<64x16xi32>
    %jb2 = tt.broadcast %j : tensor<1x16xi32> -> tensor<64x16xi32>
    %offb = arith.addi %kb2, %jb2 : tensor<64x16xi32>
    %ic = arith.muli %i, %c16 : tensor<16x1xi32>
    %ic2 = tt.broadcast %ic : tensor<16x1xi32> -> tensor<16x16xi32>
    %jc2 = tt.broadcast %j : tensor<1x16xi32> -> tensor<16x16xi32>
    %offc = arith.addi %ic2, %jc2 : tensor<16x16xi32>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<16x64x!tt.ptr<f16>>
    %pa2 = tt.addptr %pa, %offa : tensor<16x64x!tt.ptr<f16>>, tensor<16x64xi32>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<64x16x!tt.ptr<f16>>
    %pb2 = tt.addptr %pb, %offb : tensor<64x16x!tt.ptr<f16>>, tensor<64x16xi32>
    %pc = tt.splat %c : !tt.ptr<ACC> -> tensor<16x16x!tt.ptr<ACC>>
    %pc2 = tt.addptr %pc, %offc : tensor<16x16x!tt.ptr<ACC>>, tensor<16x16xi32>
    %va = tt.load %pa2 : tensor<16x64x!tt.ptr<f16>>
    %vb = tt.load %pb2 : tensor<64x16x!tt.ptr<f16>>
    %vc = tt.load %pc2 : tensor<16x16x!tt.ptr<ACC>>
    %d = tt.dot %va, %vb, %vc : tensor<16x64xf16> * tensor<64x16xf16> -> tensor<16x16xACC>
    %pw = tt.splat %whole : !tt.ptr<ACC> -> tensor<16x16x!tt.ptr<ACC>>
    %pw2 = tt.addptr %pw, %offc : tensor<16x16x!tt.ptr<ACC>>, tensor<16x16xi32>
    tt.store %pw2, %d : tensor<16x16x!tt.ptr<ACC>>
    // The same A and B as four K slices of 16.
    %acc = scf.for %s = %rk16_lb to %slices step %one iter_args(%it = %vc) -> (tensor<16x16xACC>) : i32 {
      %k0 = arith.muli %s, %sixteen : i32
      %k0a = tt.splat %k0 : i32 -> tensor<16x16xi32>
      %ks = tt.expand_dims %rk16 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
      %ks2 = tt.broadcast %ks : tensor<1x16xi32> -> tensor<16x16xi32>
      %ia3 = tt.broadcast %ia : tensor<16x1xi32> -> tensor<16x16xi32>
      %oa0 = arith.addi %ia3, %ks2 : tensor<16x16xi32>
      %oa = arith.addi %oa0, %k0a : tensor<16x16xi32>
      %ksr = tt.expand_dims %rk16 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
      %ksr16 = arith.muli %ksr, %c16 : tensor<16x1xi32>
      %ksr2 = tt.broadcast %ksr16 : tensor<16x1xi32> -> tensor<16x16xi32>
      %k0b = arith.muli %k0a, %c16x16 : tensor<16x16xi32>
      %ob0 = arith.addi %ksr2, %jc2 : tensor<16x16xi32>
      %ob = arith.addi %ob0, %k0b : tensor<16x16xi32>
      %qa = tt.splat %a : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
      %qa2 = tt.addptr %qa, %oa : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
      %qb = tt.splat %b : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
      %qb2 = tt.addptr %qb, %ob : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
      %sa = tt.load %qa2 : tensor<16x16x!tt.ptr<f16>>
      %sb = tt.load %qb2 : tensor<16x16x!tt.ptr<f16>>
      %n = tt.dot %sa, %sb, %it : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xACC>
      scf.yield %n : tensor<16x16xACC>
    }
    %ps = tt.splat %split : !tt.ptr<ACC> -> tensor<16x16x!tt.ptr<ACC>>
    %ps2 = tt.addptr %ps, %offc : tensor<16x16x!tt.ptr<ACC>>, tensor<16x16xi32>
    tt.store %ps2, %acc : tensor<16x16x!tt.ptr<ACC>>
    tt.return
  }
}
)";

void checkSplitMatchesWhole(const std::string &acc) {
  std::string text = kWholeAndSplit;
  for (size_t at; (at = text.find("ACC")) != std::string::npos;)
    text.replace(at, 3, acc);
  // Loop constants, defined before their first use.
  text.replace(text.find("    // The same A and B"), 0,
               "    %rk16_lb = arith.constant 0 : i32\n"
               "    %slices = arith.constant 4 : i32\n"
               "    %one = arith.constant 1 : i32\n"
               "    %sixteen = arith.constant 16 : i32\n"
               "    %c16x16 = arith.constant dense<16> : tensor<16x16xi32>\n");
  auto module = mlir::parseSourceString<mlir::ModuleOp>(
      text, mlir::ParserConfig(&tgpu::test::context()));
  ASSERT_TRUE(module) << text;
  LaunchSpec spec;
  std::string why;
  std::string buf = "ptr:" + acc + "=zeros:256";
  ASSERT_TRUE(LaunchSpec::parse("--grid 1 -- ptr:f16=rand:1024:3 "
                                "ptr:f16=rand:1024:5 ptr:" +
                                    acc + "=rand:256:9 " + buf + " " + buf,
                                spec, why))
      << why;
  std::vector<KernelArg> args;
  ASSERT_TRUE(spec.makeArgs(args, why)) << why;
  RunOptions options;
  options.grid = spec.grid;
  options.print = [](const std::string &) {};
  llvm::Error e = runKernel(*module, "", args, options);
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  ASSERT_EQ(args.size(), 5u);
  EXPECT_TRUE(args[3].bytes == args[4].bytes)
      << "a dot split along K at 16 rounds differently (" << acc << ")";
  // Not vacuous: the products do not all vanish.
  EXPECT_NE(args[3].bytes, args[2].bytes);
}

TEST(CpuOracleDot, SplittingAlongKAtSixteenKeepsTheBits) {
  checkSplitMatchesWhole("f32");
  checkSplitMatchesWhole("f16");
}

} // namespace
