// tgpu-run: runs a TTIR/TTGIR kernel on the CPU reference oracle.
//
//   tgpu-run KERNEL.{ttir,ttgir,mlir} [--kernel NAME] --grid X[,Y[,Z]]
//            [--num-warps N] [--dump DIR] [--dump-inputs DIR] -- ARG...
//
// One ARG per kernel argument: i1=V ... i64=V, f16=V, bf16=V, f32=V, f64=V,
// or a buffer ptr:T=zeros:N | ptr:T=rand:N[:SEED] | ptr:T=iota:N |
// ptr:T=@FILE. Exit status: 0 success, 1 bad input or unsupported op,
// 2 undefined behaviour (or a failed device assertion) in the kernel.
#include "Interpreter.h"
#include "Values.h"
#include "tgpu/InitAllDialects.h"

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
static cl::opt<std::string> dumpDir("dump",
                                    cl::desc("write every buffer argument's "
                                             "final contents to DIR/argK.bin"),
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

// splitmix64: a small, well-mixed deterministic generator.
uint64_t nextRandom(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void putElement(std::vector<uint8_t> &bytes, size_t k, ScalarKind kind,
                double fv, int64_t iv) {
  unsigned size = byteSize(kind);
  uint64_t bits = 0;
  switch (kind) {
  case ScalarKind::F16: {
    _Float16 h = static_cast<_Float16>(fv);
    std::memcpy(&bits, &h, 2);
    break;
  }
  case ScalarKind::BF16:
    bits = bf16BitsFromFloat(floatRoundToOdd(fv));
    break;
  case ScalarKind::F32: {
    float f = float(fv);
    std::memcpy(&bits, &f, 4);
    break;
  }
  case ScalarKind::F64:
    std::memcpy(&bits, &fv, 8);
    break;
  case ScalarKind::I1:
    bits = iv & 1;
    break;
  default:
    bits = uint64_t(iv);
    break;
  }
  std::memcpy(bytes.data() + k * size, &bits, size);
}

bool isFloat(ScalarKind k) { return k >= ScalarKind::F16; }

// Parses one ARG; `index` seeds random buffers that name no seed.
bool parseArg(llvm::StringRef text, size_t index, KernelArg &arg,
              std::string &why) {
  auto [lhs, rhs] = text.split('=');
  if (rhs.empty() && !text.contains('=')) {
    why = "expected TYPE=VALUE";
    return false;
  }
  if (lhs.consume_front("ptr:")) {
    if (!parseScalarKind(lhs, arg.kind)) {
      why = "unknown element type '" + lhs.str() + "'";
      return false;
    }
    arg.isBuffer = true;
    unsigned size = byteSize(arg.kind);
    if (rhs.consume_front("@")) {
      auto buf = llvm::MemoryBuffer::getFile(rhs);
      if (!buf) {
        why = "cannot read '" + rhs.str() + "': " + buf.getError().message();
        return false;
      }
      llvm::StringRef data = (*buf)->getBuffer();
      if (data.size() % size) {
        why = "file '" + rhs.str() + "' holds " + std::to_string(data.size()) +
              " bytes, not a whole number of " + lhs.str() + " values";
        return false;
      }
      arg.bytes.assign(data.begin(), data.end());
      return true;
    }
    llvm::SmallVector<llvm::StringRef, 3> parts;
    rhs.split(parts, ':');
    uint64_t n = 0, seed = index + 1;
    if (parts.size() < 2 || parts[1].getAsInteger(0, n) ||
        (parts.size() == 3 && parts[2].getAsInteger(0, seed)) ||
        parts.size() > 3) {
      why = "expected zeros:N, rand:N[:SEED], iota:N or @FILE";
      return false;
    }
    if (n > (uint64_t(1) << 30)) {
      why = "buffer of " + std::to_string(n) + " elements is too large";
      return false;
    }
    arg.bytes.assign(n * size, 0);
    if (parts[0] == "zeros")
      return true;
    if (parts[0] == "iota") {
      for (uint64_t k = 0; k < n; ++k)
        putElement(arg.bytes, k, arg.kind, double(k), int64_t(k));
      return true;
    }
    if (parts[0] == "rand") {
      // Floats uniform in [-1, 1); integers in [-8, 8) (i1: 0 or 1).
      uint64_t state = seed;
      for (uint64_t k = 0; k < n; ++k) {
        uint64_t r = nextRandom(state);
        double fv = double(r >> 11) * 0x1.0p-53 * 2.0 - 1.0;
        int64_t iv = arg.kind == ScalarKind::I1 ? int64_t(r & 1)
                                                : int64_t(r % 16) - 8;
        putElement(arg.bytes, k, arg.kind, fv, iv);
      }
      return true;
    }
    why = "unknown buffer initializer '" + parts[0].str() + "'";
    return false;
  }
  if (!parseScalarKind(lhs, arg.kind)) {
    why = "unknown scalar type '" + lhs.str() + "'";
    return false;
  }
  if (isFloat(arg.kind)) {
    std::string s = rhs.str();
    char *end = nullptr;
    arg.floatValue = std::strtod(s.c_str(), &end);
    if (s.empty() || *end) {
      why = "'" + s + "' is not a number";
      return false;
    }
    return true;
  }
  if (rhs.getAsInteger(0, arg.intValue)) {
    uint64_t u;
    if (rhs.getAsInteger(0, u)) {
      why = "'" + rhs.str() + "' is not an integer";
      return false;
    }
    arg.intValue = int64_t(u);
  }
  unsigned bits = byteSize(arg.kind) * 8;
  if (arg.kind == ScalarKind::I1)
    bits = 1;
  if (bits < 64) {
    int64_t lo = -(int64_t(1) << (bits - 1)), hi = (int64_t(1) << bits) - 1;
    if (arg.kind == ScalarKind::I1)
      lo = 0;
    if (arg.intValue < lo || arg.intValue > hi) {
      why = "value " + rhs.str() + " does not fit " + lhs.str();
      return false;
    }
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Everything after "--" is a kernel argument.
  std::vector<char *> toolArgs;
  std::vector<std::string> kernelArgs;
  bool afterDashes = false;
  for (int i = 0; i < argc; ++i) {
    if (!afterDashes && std::strcmp(argv[i], "--") == 0) {
      afterDashes = true;
      continue;
    }
    if (afterDashes)
      kernelArgs.push_back(argv[i]);
    else
      toolArgs.push_back(argv[i]);
  }
  cl::HideUnrelatedOptions(runCategory);
  if (!cl::ParseCommandLineOptions(int(toolArgs.size()), toolArgs.data(),
                                   "tgpu CPU reference oracle\n", &llvm::errs()))
    return 1;

  RunOptions options;
  options.numWarps = numWarps;
  options.stepBudget = stepBudget;
  llvm::SmallVector<llvm::StringRef, 3> dims;
  llvm::StringRef(gridOpt).split(dims, ',');
  if (dims.empty() || dims.size() > 3)
    return fail("--grid takes X[,Y[,Z]], got '" + gridOpt + "'");
  for (size_t d = 0; d < dims.size(); ++d) {
    int64_t v;
    if (dims[d].trim().getAsInteger(10, v) || v < 1 || v > (int64_t(1) << 31))
      return fail("--grid: '" + dims[d] + "' is not a positive count");
    options.grid[d] = v;
  }
  if (numWarps < 1 || numWarps > 32)
    return fail("--num-warps must be between 1 and 32");

  std::vector<KernelArg> args;
  for (size_t i = 0; i < kernelArgs.size(); ++i) {
    KernelArg a;
    std::string why;
    if (!parseArg(kernelArgs[i], i, a, why))
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
