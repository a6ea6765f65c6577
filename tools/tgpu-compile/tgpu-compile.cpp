// tgpu-compile: compiles one kernel to TTGIR, the LLVM dialect, LLVM IR, PTX
// or a cubin.
//
//   tgpu-compile KERNEL.{ttir,ttgir,mlir} [-o OUT] [--arch sm_80|sm_90|sm_90a]
//                [--num-warps N] [--emit ttgir|llvm-mlir|llir|ptx|cubin]
//                [--metadata OUT.json] [--print-after-all] [--verify-each]
//                [--timing] [--libdevice PATH]
//
// .mlir input may be any of TTIR, TTGIR or the LLVM dialect (told apart by
// content; for the LLVM dialect only the back end runs). Exit status
// 0 on success, 1 on any bad input or failed stage (with a message on stderr).
#include "tgpu/Pipeline/Compiler.h"
#include "tgpu/Support/DebugOptions.h"
#include "tgpu/Target/PTX.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir::tgpu;
namespace cl = llvm::cl;

static int fail(const llvm::Twine &message) {
  llvm::errs() << "tgpu-compile: error: " << message << "\n";
  return 1;
}

static bool writeFile(llvm::StringRef path, llvm::StringRef contents,
                      std::string &error) {
  std::unique_ptr<llvm::ToolOutputFile> out =
      mlir::openOutputFile(path, &error);
  if (!out)
    return false;
  out->os() << contents;
  out->os().flush();
  if (out->os().has_error()) {
    error = "cannot write '" + path.str() + "': " + out->os().error().message();
    out->os().clear_error();
    return false;
  }
  out->keep();
  return true;
}

namespace {
// The command line. Constructed in main, after dropping libLLVM's own
// options of the same names (LLVM's --print-after-all would clash).
struct CommandLine {
  cl::OptionCategory category{"tgpu-compile options"};
  cl::opt<std::string> inputFile{cl::Positional,
                                 cl::desc("<kernel.{ttir,ttgir,mlir}>"),
                                 cl::Required, cl::cat(category)};
  cl::opt<std::string> outputFile{"o", cl::desc("output file ('-' = stdout)"),
                                  cl::value_desc("file"), cl::init("-"),
                                  cl::cat(category)};
  cl::opt<std::string> arch{
      "arch", cl::desc("GPU architecture: sm_80, sm_90 (default), sm_90a"),
      cl::init("sm_90"), cl::cat(category)};
  cl::opt<int> numWarps{"num-warps",
                        cl::desc("warps per CTA, a power of two in 1..32 "
                                 "(default 4)"),
                        cl::init(4), cl::cat(category)};
  cl::opt<std::string> emit{"emit",
                            cl::desc("what to write: ttgir, llvm-mlir, llir, "
                                     "ptx (default), cubin"),
                            cl::init("ptx"), cl::cat(category)};
  cl::opt<std::string> metadataFile{
      "metadata", cl::desc("also write the kernel's description as JSON"),
      cl::value_desc("file"), cl::init(""), cl::cat(category)};
  cl::opt<bool> printAfterAll{
      "print-after-all",
      cl::desc("print the IR after every MLIR pass, and the LLVM IR after "
               "translation and after optimisation (to stderr)"),
      cl::cat(category)};
  cl::opt<unsigned> optLevel{
      "O", cl::desc("LLVM optimisation level: -O0, -O1, -O2, -O3 (default, "
                    "as Triton)"),
      cl::Prefix, cl::init(3), cl::cat(category)};
  cl::opt<bool> verifyEach{"verify-each",
                           cl::desc("verify the IR after every pass"),
                           cl::cat(category)};
  cl::opt<bool> timing{"timing",
                       cl::desc("report the time of every pass and back-end "
                                "phase (to stderr)"),
                       cl::cat(category)};
  cl::opt<std::string> libdevice{
      "libdevice",
      cl::desc("libdevice bitcode for kernels that call __nv_* functions "
               "(default: $TGPU_LIBDEVICE, else "
               "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc)"),
      cl::value_desc("file"), cl::init(""), cl::cat(category)};
  cl::opt<bool> tensorCores{
      "tensor-cores",
      cl::desc("put TTIR dots on tensor cores (mma.sync) where their types "
               "and shapes allow (default; --tensor-cores=false: FMA only)"),
      cl::init(true), cl::cat(category)};
  cl::opt<int> numStages{
      "num-stages",
      cl::desc("software pipelining stages for TTIR loops that feed dots: "
               "their loads are issued num-stages - 1 iterations ahead with "
               "cp.async (default 3, as Triton; 1: no pipelining). A loop "
               "with its own tt.num_stages uses that, for all its loads"),
      cl::init(3), cl::cat(category)};
};

// LLVM's code generator stops the process on what it cannot select (an
// sm_90 intrinsic compiled for sm_80, ...). That is bad input or a lowering
// bug, not a crash: say so and exit 1 at once (LLVM would abort after this
// handler; nothing half-written needs cleaning up, as the output is written
// only after a successful compile).
void onLlvmFatalError(void *, const char *reason, bool) {
  llvm::errs() << "tgpu-compile: error: LLVM cannot compile this kernel: "
               << reason << "\n";
  llvm::errs().flush();
  llvm::sys::RunInterruptHandlers();
  std::_Exit(1);
}

void dropLlvmOptions(std::initializer_list<llvm::StringRef> names) {
  auto &registered = cl::getRegisteredOptions();
  for (llvm::StringRef name : names)
    if (cl::Option *option = registered.lookup(name))
      option->removeArgument();
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::install_fatal_error_handler(onLlvmFatalError);
  dropLlvmOptions({"o", "O", "arch", "num-warps", "emit", "metadata",
                   "print-after-all", "verify-each", "timing", "libdevice",
                   "tensor-cores", "num-stages"});
  CommandLine cli;
  auto &[category, inputFile, outputFile, arch, numWarps, emit, metadataFile,
         printAfterAll, optLevel, verifyEach, timing, libdevice, tensorCores,
         numStages] = cli;
  mlir::tgpu::registerDebugOptions();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "tgpu kernel compiler\n");

  CompilerOptions options;
  // Explicit values only: unset ones let a TTGIR module's own ttg.target and
  // ttg.num-warps decide.
  if (arch.getNumOccurrences())
    options.arch = arch;
  options.tensorCores = tensorCores;
  if (numWarps.getNumOccurrences()) {
    if (numWarps < 1 || numWarps > 32 || (numWarps & (numWarps - 1)))
      return fail("--num-warps must be a power of two in 1..32, got " +
                  llvm::Twine(numWarps));
    options.numWarps = int(numWarps);
  }
  if (numStages < 1 || numStages > 16)
    return fail("--num-stages must be in 1..16, got " +
                llvm::Twine(int(numStages)));
  options.numStages = numStages;
  if (optLevel > 3)
    return fail("-O must be 0, 1, 2 or 3, got -O" + llvm::Twine(optLevel));
  options.optLevel = optLevel;
  std::optional<EmitKind> emitKind = parseEmitKind(emit);
  if (!emitKind)
    return fail("unknown --emit '" + emit +
                "' (expected ttgir, llvm-mlir, llir, ptx or cubin)");
  options.emit = *emitKind;
  options.metadata = !metadataFile.empty();
  options.printAfterAll = printAfterAll;
  options.verifyEach = verifyEach;
  options.timing = timing;
  if (!libdevice.empty())
    options.libdevicePath = libdevice.getValue();

  std::optional<InputKind> inputKind = inputKindFromFileName(inputFile);
  if (!inputKind)
    return fail("unknown input kind '" + inputFile +
                "' (expected a .ttir, .ttgir or .mlir file)");

  auto compiler = Compiler::create(options);
  if (!compiler)
    return fail(llvm::toString(compiler.takeError()));

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFile, &error);
  if (!input)
    return fail(error);

  auto result = (*compiler)->compile(input->getBuffer(), inputFile, *inputKind);
  (*compiler)->printTiming();
  if (!result) {
    llvm::handleAllErrors(
        result.takeError(),
        [](const CompileError &e) {
          llvm::errs() << e.diagnostics;
          fail(e.summary);
        },
        [](const llvm::ErrorInfoBase &e) { fail(e.message()); });
    return 1;
  }
  llvm::errs() << result->diagnostics;

  if (!writeFile(outputFile, result->output, error))
    return fail(error);
  if (result->metadata &&
      !writeFile(metadataFile, metadataToJson(*result->metadata), error))
    return fail(error);
  return 0;
}
