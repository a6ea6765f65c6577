// tgpu-run: runs a TTIR/TTGIR kernel on the CPU reference oracle.
//
//   tgpu-run KERNEL.{ttir,ttgir,mlir} [--kernel NAME] --grid X[,Y[,Z]]
//            [--num-warps N] [--num-stages N] [--arch sm_XX] [--dump DIR]
//            [--dump-inputs DIR] -- ARG...
//
// --num-stages and --arch say how tgpu compiles the kernel for this launch
// (a generated program's launch carries them); the reference runs the
// program as written and only checks them, so that every launch line runs.
//
// One ARG per kernel argument: i1=V ... i64=V, f16=V, bf16=V, f32=V, f64=V,
// f8E4M3FN=V, f8E5M2=V, or a buffer ptr:T=zeros:N | ptr:T=rand:N[:SEED] |
// ptr:T=iota:N | ptr:T=@FILE, or a buffer seen through a tensor descriptor
// desc:T=zeros:SHAPE | desc:T=rand:SHAPE[:SEED] | desc:T=iota:SHAPE |
// desc:T=@FILE:SHAPE (SHAPE D0xD1x..., row-major). Exit status: 0 success,
// 1 bad input or unsupported op, 2 undefined behaviour (or a failed device
// assertion) in the kernel.
#include "oracles/cpu/Interpreter.h"
#include "oracles/cpu/RunArgs.h"
#include "oracles/cpu/Values.h"
#include "tgpu/InitAllDialects.h"
#include "tgpu/Support/NestingLimit.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace tgpu::cpu;
namespace cl = llvm::cl;

// --help lists these, not every option the linked LLVM libraries register.
static cl::OptionCategory runCategory("tgpu-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<kernel file>"),
                                      cl::Required, cl::cat(runCategory));
static cl::opt<std::string> kernelName("kernel",
                                       cl::desc("the tt.func to run (default: "
                                                "the only public one)"),
                                       cl::init(""), cl::cat(runCategory));
static cl::opt<std::string> gridOpt("grid", cl::desc("program grid X[,Y[,Z]]"),
                                    cl::Required, cl::cat(runCategory));
static cl::opt<int> numWarps("num-warps", cl::desc("warps per program"),
                             cl::init(4), cl::cat(runCategory));
static cl::opt<int> numStagesOpt(
    "num-stages",
    cl::desc("pipelining stages tgpu compiles this launch with (1..8; not "
             "used by the reference)"),
    cl::init(0), cl::cat(runCategory));
static cl::opt<std::string>
    archOpt("arch",
            cl::desc("GPU target tgpu compiles this launch for (sm_80, sm_90, "
                     "sm_90a; not used by the reference)"),
            cl::init(""), cl::cat(runCategory));
static cl::opt<std::string> dumpDir("dump",
                                    cl::desc("write every buffer argument's "
                                             "(ptr: and desc:) final contents "
                                             "to DIR/argK.bin"),
                                    cl::init(""), cl::cat(runCategory));
static cl::opt<std::string> dumpInputsDir(
    "dump-inputs",
    cl::desc("write every buffer argument's initial contents to "
             "DIR/argK.bin (the inputs another runner, e.g. the GPU, "
             "needs to reproduce this run)"),
    cl::init(""), cl::cat(runCategory));
static cl::opt<uint64_t> stepBudget(
    "step-budget",
    cl::desc("element operations per program (each op costs the elements of "
             "its result, a dot M*N*K) before a run is stopped as runaway"),
    cl::init(uint64_t(1) << 32), cl::cat(runCategory));

namespace {

int fail(const llvm::Twine &msg) {
  llvm::errs() << "tgpu-run: " << msg << "\n";
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Everything after "--" is a kernel argument.
  std::vector<char *> toolArgs;
  std::vector<std::string> kernelArgs;
  splitAtDashes(argc, argv, 1, toolArgs, kernelArgs);
  cl::HideUnrelatedOptions(runCategory);
  if (!cl::ParseCommandLineOptions(int(toolArgs.size()), toolArgs.data(),
                                   "tgpu CPU reference oracle\n", &llvm::errs()))
    return 1;

  RunOptions options;
  options.numWarps = numWarps;
  options.stepBudget = stepBudget;
  {
    std::string why;
    if (!parseGrid(gridOpt, options.grid, why))
      return fail(why);
  }
  if (numWarps < 1 || numWarps > 32)
    return fail("--num-warps must be between 1 and 32");
  if (std::string why;
      numStagesOpt.getNumOccurrences() && !checkNumStages(numStagesOpt, why))
    return fail(why);
  if (std::string why; archOpt.getNumOccurrences() && !checkArch(archOpt, why))
    return fail(why);

  std::vector<KernelArg> args;
  for (size_t i = 0; i < kernelArgs.size(); ++i) {
    KernelArg a;
    std::string why;
    if (!parseKernelArg(kernelArgs[i], i, a, why))
      return fail("argument " + llvm::Twine(i) + " '" + kernelArgs[i] +
                  "': " + why);
    args.push_back(std::move(a));
  }

  mlir::DialectRegistry registry;
  mlir::tgpu::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  std::string error;
  auto file = mlir::openInputFile(inputFile, &error);
  if (!file)
    return fail(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler diag(sourceMgr, &context);
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(1);
  if (failed(mlir::tgpu::checkNesting(buffer->getBuffer(),
                                      buffer->getBufferIdentifier(), &context)))
    return 1;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1; // the diagnostic is printed with its location

  // Writes every buffer argument to DIR/argK.bin.
  auto dumpBuffers = [&](const std::string &dir) -> int {
    if (std::error_code ec = llvm::sys::fs::create_directories(dir))
      return fail("cannot create '" + dir + "': " + ec.message());
    for (size_t i = 0; i < args.size(); ++i) {
      if (!args[i].isBuffer)
        continue;
      llvm::SmallString<256> path(dir);
      llvm::sys::path::append(path, "arg" + std::to_string(i) + ".bin");
      std::error_code ec;
      llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
      if (ec)
        return fail("cannot write '" + path + "': " + ec.message());
      os.write(reinterpret_cast<const char *>(args[i].bytes.data()),
               args[i].bytes.size());
    }
    return 0;
  };
  if (!dumpInputsDir.empty())
    if (int rc = dumpBuffers(dumpInputsDir))
      return rc;

  if (llvm::Error e = runKernel(*module, kernelName, args, options)) {
    int code = 1;
    llvm::handleAllErrors(
        std::move(e),
        [&](const UndefinedBehavior &ub) {
          llvm::errs() << "tgpu-run: undefined behaviour: " << ub.report.str()
                       << "\n";
          code = 2;
        },
        [&](const llvm::ErrorInfoBase &other) {
          llvm::errs() << "tgpu-run: " << other.message() << "\n";
        });
    return code;
  }

  if (!dumpDir.empty())
    return dumpBuffers(dumpDir);
  return 0;
}
