// A plain (uninstrumented) driver for one target: runs every file named on
// the command line, and every file under each named directory, through the
// target once. Regression files lose their header line first. Prints each
// finding and exits 1 if there was any; a crash is a crash. ctest uses it to
// replay corpus/regressions/<target>/ and the seed corpus.
//
// --repeat-for SECONDS (first argument): a throughput benchmark instead. The
// inputs are read once, then run round after round for that long; prints
// executions per second of the target function alone (ci/fuzz_speed.sh
// --plain).
#include "fuzz/targets/FuzzTarget.h"
#include "fuzz/targets/Targets.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

using namespace tgpu::fuzz;

static void collect(const TargetInfo &target, llvm::StringRef path, std::vector<std::string> &files,
                    bool &ok) {
  if (!llvm::sys::fs::is_directory(path)) {
    if (!llvm::sys::fs::exists(path)) {
      llvm::errs() << target.name << "-replay: no such file '"
                   << path << "'\n";
      ok = false;
      return;
    }
    files.push_back(path.str());
    return;
  }
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(path, ec), end;
       it != end && !ec; it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (name.starts_with(".") || name == "README.md")
      continue;
    if (!llvm::sys::fs::is_directory(it->path()))
      files.push_back(it->path());
  }
  if (ec) {
    llvm::errs() << target.name << "-replay: cannot read '" << path
                 << "': " << ec.message() << "\n";
    ok = false;
  }
}

// Runs the inputs round after round for `seconds`; findings are ignored
// (only the rate is measured).
static int benchmark(const TargetInfo &target, const std::vector<std::string> &files,
                     double seconds) {
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> inputs;
  for (const std::string &path : files) {
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!buffer) {
      llvm::errs() << path << ": " << buffer.getError().message() << "\n";
      return 2;
    }
    inputs.push_back(std::move(*buffer));
  }
  if (inputs.empty()) {
    llvm::errs() << target.name << "-replay: no inputs to time\n";
    return 2;
  }
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  uint64_t execs = 0;
  double elapsed = 0;
  do {
    for (const auto &input : inputs) {
      llvm::StringRef payload;
      std::optional<RegressionHeader> header =
          parseRegressionFile(input->getBuffer(), payload);
      (void)runPayload(target, header ? llvm::StringRef(header->input) : "bytes",
                       payload);
      ++execs;
    }
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < seconds);
  llvm::outs() << target.name << "-replay: " << execs << " execs in "
               << llvm::format("%.2f", elapsed) << " s, "
               << llvm::format("%.0f", execs / elapsed) << " execs/s\n";
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  const TargetInfo &target = tgpu::fuzz::TGPU_FUZZ_TARGET();
  if (argc < 2) {
    llvm::errs() << "usage: " << target.name
                 << "-replay [--repeat-for SECONDS] FILE|DIR...\n";
    return 2;
  }
  double repeatFor = 0;
  int first = 1;
  if (llvm::StringRef(argv[1]) == "--repeat-for") {
    if (argc < 4 || llvm::StringRef(argv[2]).getAsDouble(repeatFor) ||
        !(repeatFor > 0)) {
      llvm::errs() << target.name
                   << "-replay: --repeat-for needs a positive number of "
                      "seconds and inputs\n";
      return 2;
    }
    first = 3;
  }
  std::vector<std::string> files;
  bool ok = true;
  for (int i = first; i < argc; ++i)
    collect(target, argv[i], files, ok);
  std::sort(files.begin(), files.end());
  if (repeatFor > 0)
    return benchmark(target, files, repeatFor);
  unsigned findings = 0;
  for (const std::string &path : files) {
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!buffer) {
      llvm::errs() << path << ": " << buffer.getError().message() << "\n";
      ok = false;
      continue;
    }
    llvm::StringRef payload;
    std::optional<RegressionHeader> header =
        parseRegressionFile((*buffer)->getBuffer(), payload);
    if (header && header->target != target.name) {
      llvm::errs() << path << ": a regression for " << header->target
                   << ", not " << target.name << "\n";
      ok = false;
      continue;
    }
    std::optional<Finding> finding =
        runPayload(target, header ? llvm::StringRef(header->input) : "bytes",
                   payload);
    if (finding) {
      llvm::errs() << path << ":\n";
      printFinding(target.name, *finding);
      ++findings;
    }
  }
  llvm::outs() << target.name << "-replay: " << files.size()
               << " inputs, " << findings << " findings\n";
  return (findings || !ok) ? 1 : 0;
}
