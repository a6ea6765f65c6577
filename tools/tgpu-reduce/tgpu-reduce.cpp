// tgpu-reduce: minimizes a TTIR/TTGIR reproducer with MLIR's reduction
// library (mlirReduceMain over tgpu's dialects).
//
//   tgpu-reduce FILE -o OUT [--target NAME] [--input ttir|ttgir]
//               [--timeout SECONDS]
//       Reruns FILE's finding, then reduces it with the reduction-tree pass;
//       a candidate is kept when `tgpu-repro --expect` says it still shows
//       the same finding (kind and signature). OUT gets the regression
//       header back. Every run is a child process: a compile crash reduces
//       like a wrong answer (its assertion is the signature), a candidate
//       that crashes otherwise or runs past the timeout (default 60 s) is
//       just not kept.
//   tgpu-reduce --mlir-reduce [mlir-reduce options] FILE
//       mlir-reduce itself, with tgpu's dialects, for custom strategies.
//
// Byte inputs (the layout and linear-layout targets) are minimized by
// libFuzzer itself: `fuzz_X -minimize_crash=1 -runs=N FILE`.
#include "fuzz/targets/FuzzTarget.h"
#include "fuzz/targets/Targets.h"

#include "tgpu/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <string>
#include <vector>

using namespace tgpu::fuzz;

static int fail(const llvm::Twine &msg) {
  llvm::errs() << "tgpu-reduce: " << msg << "\n";
  return 1;
}

static int usage() {
  llvm::errs()
      << "usage: tgpu-reduce FILE -o OUT [--target NAME] [--input ttir|ttgir] "
         "[--timeout SECONDS]\n"
         "       tgpu-reduce --mlir-reduce [mlir-reduce options] FILE\n";
  return 1;
}

static int runMlirReduce(std::vector<std::string> args) {
  mlir::DialectRegistry registry;
  mlir::tgpu::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  std::vector<char *> argv;
  for (std::string &a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  return mlir::failed(mlir::mlirReduceMain(int(args.size()), argv.data(), context));
}

// After mlir-reduce, one op at a time, last first, keeping each change
// that still shows the same finding; sweep until nothing more goes:
//  - delete an op whose results are unused (stores, atomics, dead values):
//    the reduction tree removes large chunks fast but leaves such ops when
//    they sit in ranges it never tries alone;
//  - bypass an op with one result: its uses read one of its operands of the
//    same type instead, and it goes (what llvm-reduce's operand passes do;
//    mlir-reduce only deletes). Then what only it used can go too.
static std::string reduceOpsGreedily(const std::string &text,
                                     const TargetInfo &target,
                                     llvm::StringRef input, const Finding &want,
                                     unsigned timeoutSeconds) {
  mlir::DialectRegistry registry;
  mlir::tgpu::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic &) {
    return mlir::success();
  });
  auto same = [&](llvm::StringRef candidate) {
    std::optional<Finding> f =
        runPayloadIsolated(target, input, candidate, timeoutSeconds);
    return f && f->kind == want.kind && f->signature == want.signature;
  };
  auto removable = [](mlir::Operation *op) {
    return !op->hasTrait<mlir::OpTrait::IsTerminator>() &&
           !mlir::isa<mlir::ModuleOp>(op) &&
           !op->hasTrait<mlir::OpTrait::SymbolTable>() &&
           !mlir::isa<mlir::SymbolOpInterface>(op);
  };
  // A change: the op at a walk position (so that a clone can find it) and
  // the operand that replaces its result, or -1 to delete the unused op.
  struct Change {
    unsigned position;
    int operand;
  };
  std::string best = text;
  for (bool changed = true; changed;) {
    changed = false;
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(best, &context);
    if (!module)
      return best;
    std::vector<Change> changes;
    unsigned pos = 0;
    module->walk([&](mlir::Operation *op) {
      unsigned here = pos++;
      if (!removable(op))
        return;
      if (op->use_empty()) {
        changes.push_back({here, -1});
        return;
      }
      if (op->getNumResults() != 1 || op->getNumRegions() != 0)
        return;
      for (auto [i, operand] : llvm::enumerate(op->getOperands()))
        if (operand.getType() == op->getResult(0).getType())
          changes.push_back({here, int(i)});
    });
    for (auto it = changes.rbegin(); it != changes.rend(); ++it) {
      mlir::OwningOpRef<mlir::ModuleOp> copy = module->clone();
      mlir::Operation *victim = nullptr;
      unsigned at = 0;
      copy->walk([&](mlir::Operation *op) {
        if (at++ == it->position)
          victim = op;
      });
      if (!victim)
        continue;
      if (it->operand >= 0)
        victim->getResult(0).replaceAllUsesWith(
            victim->getOperand(unsigned(it->operand)));
      victim->erase();
      if (mlir::failed(mlir::verify(*copy)))
        continue;
      std::string candidate;
      llvm::raw_string_ostream os(candidate);
      copy->print(os);
      if (candidate.size() < best.size() && same(candidate)) {
        best = candidate;
        changed = true;
        break; // positions moved: collect them again
      }
    }
  }
  return best;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (argc >= 2 && std::strcmp(argv[1], "--mlir-reduce") == 0) {
    std::vector<std::string> args = {argv[0]};
    for (int i = 2; i < argc; ++i)
      args.push_back(argv[i]);
    return runMlirReduce(args);
  }

  std::string file, out, targetName, input, timeoutText = "60";
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a(argv[i]);
    auto value = [&](llvm::StringRef flag, std::string &dst) {
      if (a == flag && i + 1 < argc) {
        dst = argv[++i];
        return true;
      }
      if (a.consume_front(flag) && a.consume_front("=")) {
        dst = a.str();
        return true;
      }
      return false;
    };
    if (a == "--help" || a == "-h")
      return usage();
    if (value("-o", out) || value("--target", targetName) ||
        value("--input", input) || value("--timeout", timeoutText))
      continue;
    if (a.starts_with("-"))
      return fail("unknown option '" + a + "'");
    if (!file.empty())
      return fail("more than one input file");
    file = a.str();
  }
  if (file.empty() || out.empty())
    return usage();
  unsigned timeoutSeconds = 0;
  if (llvm::StringRef(timeoutText).getAsInteger(10, timeoutSeconds))
    return fail("--timeout takes a number of seconds, not '" + timeoutText +
                "'");

  auto buffer = llvm::MemoryBuffer::getFile(file);
  if (!buffer)
    return fail("cannot read '" + file + "': " + buffer.getError().message());
  Reproducer identified =
      identifyReproducer(file, (*buffer)->getBuffer(), targetName, input);
  targetName = identified.target;
  input = identified.input;
  llvm::StringRef payload = identified.payload;
  if (input != "ttir" && input != "ttgir")
    return fail("'" + file + "' is not a TTIR/TTGIR reproducer (input=" +
                (input.empty() ? std::string("?") : input) +
                "); minimize byte inputs with libFuzzer's -minimize_crash=1");
  const TargetInfo *target = findTarget(targetName);
  if (!target)
    return fail("unknown target '" + targetName + "'");

  std::optional<Finding> finding =
      runPayloadIsolated(*target, input, payload, timeoutSeconds);
  if (!finding)
    return fail("'" + file + "' does not reproduce: nothing to reduce");
  if (finding->kind == "harness")
    return fail("cannot run '" + file + "': " + finding->message);
  llvm::errs() << "tgpu-reduce: reducing " << finding->kind << ": "
               << finding->signature << "\n";

  // The candidate files mlir-reduce writes and tgpu-repro reads.
  llvm::SmallString<128> expectPath, inputPath;
  int fd;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("tgpu-reduce", "expect", fd, expectPath))
    return fail("cannot make a temporary file: " + ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << finding->kind << "\n" << finding->signature << "\n";
  }
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("tgpu-reduce", "mlir", fd, inputPath))
    return fail("cannot make a temporary file: " + ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << payload;
  }

  std::string self = llvm::sys::fs::getMainExecutable(argv[0], (void *)&usage);
  llvm::SmallString<128> logPath;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("tgpu-reduce", "log", logPath))
    return fail("cannot make a temporary file: " + ec.message());
  // tgpu-repro beside this binary, of the same build: tgpu-reduce-X runs
  // tgpu-repro-X (the planted-bug twins reduce with their own twin).
  std::string reproName = llvm::sys::path::filename(self).str();
  if (size_t at = reproName.find("tgpu-reduce"); at != std::string::npos)
    reproName.replace(at, strlen("tgpu-reduce"), "tgpu-repro");
  else
    reproName = "tgpu-repro";
  llvm::SmallString<256> repro(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(repro, reproName);
  if (!llvm::sys::fs::can_execute(repro))
    return fail("cannot find " + reproName + " beside tgpu-reduce ('" + repro +
                "')");

  std::string testArgs = "--target=" + targetName + ",--input=" + input +
                         ",--expect=" + expectPath.str().str() +
                         ",--timeout=" + std::to_string(timeoutSeconds) +
                         ",--quiet";
  // One reduction-tree run removes what it can in one sweep; deleting a
  // user can make its producers removable, so sweep again while it shrinks.
  std::string current = payload.str();
  for (int round = 0; round < 8; ++round) {
    {
      std::error_code ec;
      llvm::raw_fd_ostream os(inputPath, ec);
      if (ec)
        return fail("cannot write '" + inputPath + "': " + ec.message());
      os << current;
    }
    // mlir-reduce parses the process's command line once: each round is a
    // child process. Its stderr holds the rejected candidates' verifier
    // errors, shown only if the round fails.
    std::string pipeline = "--reduction-tree=traversal-mode=0 test=" +
                           repro.str().str() + " test-arg=" + testArgs;
    llvm::SmallVector<llvm::StringRef> args = {self, "--mlir-reduce", inputPath,
                                               "-o", out, pipeline};
    std::optional<llvm::StringRef> redirects[] = {std::nullopt, std::nullopt,
                                                  llvm::StringRef(logPath)};
    std::string err;
    int rc = llvm::sys::ExecuteAndWait(self, args, std::nullopt, redirects, 0, 0, &err);
    if (rc != 0) {
      // MLIR's reduction tree can crash on some inputs (an Operation::clone
      // in ReductionNode::initialize, seen on 2026-11-23): keep what the
      // rounds before reached and go on with our own op deletions.
      auto log = llvm::MemoryBuffer::getFile(logPath);
      llvm::errs() << (log ? (*log)->getBuffer() : llvm::StringRef(err));
      llvm::errs() << "tgpu-reduce: warning: mlir-reduce round " << round + 1
                   << " failed (status " << rc
                   << "); going on with single-op reductions\n";
      break;
    }
    auto next = llvm::MemoryBuffer::getFile(out);
    if (!next)
      return fail("cannot read '" + out + "': " + next.getError().message());
    std::string text = (*next)->getBuffer().str();
    bool shrank = text.size() < current.size();
    llvm::errs() << "tgpu-reduce: round " << round + 1 << ": " << current.size()
                 << " -> " << text.size() << " bytes\n";
    if (shrank || round == 0)
      current = std::move(text);
    if (!shrank)
      break;
  }
  llvm::sys::fs::remove(expectPath);
  llvm::sys::fs::remove(inputPath);
  llvm::sys::fs::remove(logPath);
  size_t before = current.size();
  current =
      reduceOpsGreedily(current, *target, input, *finding, timeoutSeconds);
  llvm::errs() << "tgpu-reduce: single-op deletions and bypasses: " << before
               << " -> " << current.size() << " bytes\n";
  auto reduced = llvm::MemoryBuffer::getMemBufferCopy(current);
  RegressionHeader h{targetName, finding->kind, input, finding->signature};
  std::string text = formatRegressionHeader(h) + "\n" + reduced->getBuffer().str();
  std::error_code ec;
  llvm::raw_fd_ostream os(out, ec);
  if (ec)
    return fail("cannot write '" + out + "': " + ec.message());
  os << text;
  llvm::errs() << "tgpu-reduce: " << payload.size() << " -> "
               << reduced->getBuffer().size() << " bytes in '" << out << "'\n";
  return 0;
}
