// Kernel arguments and launches in tgpu-run's syntax, shared by tgpu-run,
// the program generator, the fuzz targets and tgpu-repro:
//   i32=5  f32=1e-5  ptr:f32=zeros:N  ptr:i32=rand:N[:SEED]  ptr:f16=iota:N
//   ptr:f32=@FILE
//   desc:f16=zeros:64x128  desc:f16=rand:64x128[:SEED]  desc:f32=iota:16x8x4
//   desc:f16=@FILE:64x128
// A desc: argument is a buffer of D0*D1*... elements, filled as the ptr:
// forms fill theirs (@FILE: exactly that many values), that a !tt.tensordesc
// parameter sees as an array of shape [D0, D1, ...] with row-major,
// contiguous strides; its rank must be the descriptor's block rank.
// and a launch "--grid X[,Y[,Z]] [--num-warps N] -- ARG...".
#ifndef TGPU_ORACLES_CPU_RUNARGS_H
#define TGPU_ORACLES_CPU_RUNARGS_H

#include "oracles/cpu/Interpreter.h"

#include "llvm/ADT/StringRef.h"

#include <array>
#include <string>
#include <vector>

namespace tgpu::cpu {

// Parses one ARG; `index` (the argument's position) seeds random buffers
// that name no seed. False with `why` on bad text.
bool parseKernelArg(llvm::StringRef text, size_t index, KernelArg &arg,
                    std::string &why);

// "X[,Y[,Z]]", each a positive count.
bool parseGrid(llvm::StringRef text, std::array<int64_t, 3> &grid,
               std::string &why);

// A whole launch: grid, warps and the argument texts, and how a TTIR
// kernel is compiled for it where the launch says (the generator draws
// them per program; the reference ignores them).
struct LaunchSpec {
  std::array<int64_t, 3> grid{1, 1, 1};
  int numWarps = 4;
  int numStages =
      0; // software-pipelining stages, 1..8; 0: the compiler's default
  std::string arch; // sm_80, sm_90 or sm_90a; empty: the compiler's default
  std::vector<std::string> args;

  // "--grid 2,1 --num-warps 4 --num-stages 2 --arch sm_80 -- ptr:f32=rand:64
  // i32=3" (grid trailing ones, the default warps and unset stages and arch
  // left out).
  std::string str() const;
  static bool parse(llvm::StringRef text, LaunchSpec &spec, std::string &why);
  // The arguments, parsed (buffers filled).
  bool makeArgs(std::vector<KernelArg> &out, std::string &why) const;
};

// Whether a launch's compile fields are valid (numStages 1..8, arch sm_80,
// sm_90 or sm_90a); false with `why`. LaunchSpec::parse and tgpu-run's
// options check with it.
bool checkNumStages(int numStages, std::string &why);
bool checkArch(llvm::StringRef arch, std::string &why);

// Splits a command line at the first "--": the tool's own arguments
// (argv[0], then argv[first..] up to "--") for llvm::cl, and the kernel
// arguments after it.
void splitAtDashes(int argc, char **argv, int first, std::vector<char *> &toolArgs,
                   std::vector<std::string> &kernelArgs);

} // namespace tgpu::cpu

#endif
