// tgpu-repro: reruns a fuzz finding, or any TTIR/TTGIR file, outside the
// fuzzer.
//
//   tgpu-repro FILE [--target NAME] [--input bytes|ttir|ttgir]
//              [--expect FILE] [--timeout SECONDS] [--in-process]
//   tgpu-repro --list
//
// The target and input kind come from the file's regression header
// (corpus/regressions/<target>/...), else from the options, else from the
// extension (.ttir / .ttgir: fuzz_pipeline). A TTIR/TTGIR file needs no
// launch: without a tgpu.launch attribute it goes through the same passes
// and lowering with the verifier after each pass (compile crashes, invalid
// IR, pass and lowering errors); with one, the CPU reference also checks
// every pass's output. Prints the finding (the diagnostic, the first
// differing buffer element with both values, or a crash's assertion and
// stack trace) and exits 1 while it reproduces, 0 when it does not. The
// run happens in a child process, so that a crash or a hang (past
// --timeout) is a finding too; --in-process runs it in tgpu-repro itself
// (a crash is then tgpu-repro's, for a debugger). With --expect, only a
// finding of the kind and signature written in that file (two lines)
// counts: what tgpu-reduce asks of every reduced candidate, so it never
// slips to a different bug.
#include "fuzz/targets/FuzzTarget.h"
#include "fuzz/targets/Targets.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;
using namespace tgpu::fuzz;

static cl::OptionCategory reproCategory("tgpu-repro options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<reproducer>"),
                                      cl::init(""), cl::cat(reproCategory));
static cl::opt<std::string> targetOpt("target",
                                      cl::desc("the fuzz target (default: from "
                                               "the file's header)"),
                                      cl::init(""), cl::cat(reproCategory));
static cl::opt<std::string> inputOpt("input",
                                     cl::desc("input kind: bytes, ttir or ttgir "
                                              "(default: from the header or "
                                              "the extension)"),
                                     cl::init(""), cl::cat(reproCategory));
static cl::opt<std::string> expectFile("expect",
                                       cl::desc("only this finding counts: a file "
                                                "holding its kind and signature, "
                                                "one per line"),
                                       cl::init(""), cl::cat(reproCategory));
static cl::opt<bool> listTargets("list", cl::desc("list the targets"),
                                 cl::cat(reproCategory));
static cl::opt<unsigned> timeoutSeconds(
    "timeout",
    cl::desc("a run longer than this many seconds is a finding (kind "
             "timeout); 0: no limit"),
    cl::init(0), cl::cat(reproCategory));
static cl::opt<bool> inProcess("in-process",
                               cl::desc("run in this process: a crash ends "
                                        "tgpu-repro (for a debugger)"),
                               cl::cat(reproCategory));
static cl::opt<bool> quiet("quiet", cl::desc("print nothing but errors"),
                           cl::cat(reproCategory));

static int fail(const llvm::Twine &msg) {
  llvm::errs() << "tgpu-repro: " << msg << "\n";
  return 2;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(reproCategory);
  if (!cl::ParseCommandLineOptions(argc, argv, "rerun a fuzz finding\n",
                                   &llvm::errs()))
    return 2;
  if (listTargets) {
    for (const TargetInfo *t : allTargets())
      llvm::outs() << t->name << "  " << t->description << "\n";
    return 0;
  }
  if (inputFile.empty())
    return fail("no reproducer given (see --help)");
  auto buffer = llvm::MemoryBuffer::getFile(inputFile, /*IsText=*/false);
  if (!buffer)
    return fail("cannot read '" + inputFile + "': " + buffer.getError().message());

  Reproducer repro = identifyReproducer(inputFile, (*buffer)->getBuffer(),
                                        targetOpt, inputOpt);
  const std::string &targetName = repro.target, &input = repro.input;
  llvm::StringRef payload = repro.payload;
  if (targetName.empty())
    return fail("cannot tell the target of '" + inputFile +
                "' (no regression header, no .ttir/.ttgir extension): pass "
                "--target (one of --list)");
  const TargetInfo *target = findTarget(targetName);
  if (!target)
    return fail("unknown target '" + targetName + "' (see --list)");
  if (input != "bytes" && input != "ttir" && input != "ttgir")
    return fail("--input must be bytes, ttir or ttgir, not '" + input + "'");

  std::string wantKind, wantSignature;
  if (!expectFile.empty()) {
    auto expect = llvm::MemoryBuffer::getFile(expectFile);
    if (!expect)
      return fail("cannot read '" + expectFile + "': " + expect.getError().message());
    auto [kind, rest] = (*expect)->getBuffer().split('\n');
    wantKind = kind.trim().str();
    wantSignature = rest.split('\n').first.trim().str();
  }

  std::optional<Finding> finding =
      inProcess ? runPayload(*target, input, payload)
                : runPayloadIsolated(*target, input, payload, timeoutSeconds);
  if (finding && finding->kind == "harness")
    return fail("cannot run '" + inputFile + "': " + finding->message);
  if (!finding) {
    if (!quiet)
      llvm::outs() << "tgpu-repro: " << inputFile << " does not reproduce ("
                   << target->name << ", input=" << input << ")\n";
    return 0;
  }
  if (!expectFile.empty() &&
      (finding->kind != wantKind || finding->signature != wantSignature)) {
    if (!quiet)
      llvm::outs() << "tgpu-repro: a different finding (" << finding->kind
                   << ": " << finding->signature << ")\n";
    return 0;
  }
  if (!quiet)
    printFinding(target->name, *finding);
  return 1;
}
