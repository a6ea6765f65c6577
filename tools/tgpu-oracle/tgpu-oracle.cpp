// tgpu-oracle: makes GPU-oracle bundles (oracles/gpu/BUNDLE.md) on the CPU
// machine, for tgpu-gpu-run to run on the GPU machine.
//
//   tgpu-oracle bundle KERNEL.{ttir,ttgir} --grid X[,Y[,Z]] [--num-warps N]
//               [--name NAME] -o DIR -- ARG...          one bundle, DIR
//               (no --grid: the launch in the module's tgpu.launch attribute,
//               which generated programs and their reproducers carry)
//   tgpu-oracle bundle --run-args FILE [--warps 1,2,4,8] [--only a,b] -o DIR
//               every kernel of a run_args.txt (corpus/kernels/):
//               DIR/<stem>-w<N>
//   tgpu-oracle bundle --from-gen DIR -o OUT     every program tgpu-gen wrote
//               (TTIR and, when present, its TTGIR variant):
//               OUT/<stem>-ttir, ...
//   common: [--arch sm_90] [-O 0..3] [--no-poison]
//
// ARG is tgpu-run's syntax. Each case is compiled with tgpu's compiler to
// PTX and run on the CPU reference for the expected buffers. A case that
// does not compile or whose reference run fails (undefined behaviour) is
// reported and skipped; the exit status is 1 when any was, 2 on bad usage.
#include "oracles/cpu/RunArgs.h"
#include "oracles/gpu/bundle/Json.h"
#include "oracles/gpu/producer/BundleProducer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <map>
#include <set>

namespace cl = llvm::cl;
using namespace tgpu;

static cl::OptionCategory oracleCategory("tgpu-oracle bundle options");
static cl::opt<std::string> kernelFile(cl::Positional, cl::desc("[KERNEL]"), cl::init(""),
                                       cl::cat(oracleCategory));
static cl::opt<std::string> outDir("o", cl::desc("output folder"), cl::value_desc("DIR"),
                                   cl::Required, cl::cat(oracleCategory));
static cl::opt<std::string> gridOpt("grid", cl::desc("program grid X[,Y[,Z]] (one kernel)"),
                                    cl::init(""), cl::cat(oracleCategory));
static cl::opt<int> numWarps("num-warps", cl::desc("warps of a TTIR kernel (one kernel)"),
                             cl::init(4), cl::cat(oracleCategory));
static cl::opt<std::string> nameOpt("name", cl::desc("bundle name (default: the kernel's stem)"),
                                    cl::init(""), cl::cat(oracleCategory));
static cl::opt<std::string> runArgs("run-args",
                                    cl::desc("bundle every kernel a run_args.txt lists"),
                                    cl::init(""), cl::cat(oracleCategory));
static cl::opt<std::string> warpsOpt("warps",
                                     cl::desc("num-warps to bundle TTIR kernels of "
                                              "--run-args at, comma-separated"),
                                     cl::init("4"), cl::cat(oracleCategory));
static cl::opt<std::string> onlyOpt("only", cl::desc("--run-args: only these stems"),
                                    cl::init(""), cl::cat(oracleCategory));
static cl::opt<std::string> fromGen("from-gen", cl::desc("bundle every program tgpu-gen wrote to DIR"),
                                    cl::init(""), cl::cat(oracleCategory));
static cl::opt<std::string>
    arch("arch",
         cl::desc("sm_80, sm_90, sm_90a (default: the kernel's target; sm_90, "
                  "or sm_90a for wgmma)"),
         cl::init("sm_90"), cl::cat(oracleCategory));
static cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimisation level 0..3"), cl::init(3),
                                  cl::Prefix, cl::cat(oracleCategory));
static cl::opt<bool> tensorCores("tensor-cores",
                                 cl::desc("compile TTIR dots for tensor cores (mma.sync; "
                                          "default, =false: FMA only)"),
                                 cl::init(true), cl::cat(oracleCategory));
static cl::opt<int>
    numStages("num-stages",
              cl::desc("software pipelining stages for TTIR loops that "
                       "feed dots (1..16, default 3; 1: none); a generated "
                       "program's launch (--num-stages, --arch) overrides "
                       "this and --arch"),
              cl::init(3), cl::cat(oracleCategory));
static cl::opt<bool> noPoison("no-poison",
                              cl::desc("do not probe for write-only outputs (saves one "
                                       "reference run per buffer)"),
                              cl::cat(oracleCategory));

namespace {

int usage(const llvm::Twine &msg) {
  llvm::errs() << "tgpu-oracle: " << msg << "\n";
  return 2;
}

bool readText(const std::string &path, std::string &out, std::string &why) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buf) {
    why = "cannot read '" + path + "': " + buf.getError().message();
    return false;
  }
  out = (*buf)->getBuffer().str();
  return true;
}

struct Batch {
  oracle::BundleProducer &producer;
  unsigned made = 0, skipped = 0;

  void add(const oracle::CaseSpec &spec) {
    std::string dir = outDir + "/" + spec.name;
    if (llvm::sys::fs::exists(dir)) {
      llvm::errs() << "skip " << spec.name << ": '" << dir << "' exists\n";
      ++skipped;
      return;
    }
    if (llvm::Error e = producer.produce(spec, dir)) {
      std::string msg = llvm::toString(std::move(e));
      // The first line says what; compiler diagnostics follow.
      llvm::errs() << "skip " << spec.name << ": " << llvm::StringRef(msg).trim() << "\n";
      llvm::sys::fs::remove_directories(dir);
      ++skipped;
      return;
    }
    llvm::outs() << "bundled " << spec.name << "\n";
    ++made;
  }
};

// One case per kernel line of a run_args.txt, at each of `warps`.
int fromRunArgs(Batch &batch) {
  std::string text, why;
  if (!readText(runArgs, text, why))
    return usage(why);
  std::string base = llvm::sys::path::parent_path(runArgs).str();
  std::set<std::string> only;
  if (!onlyOpt.empty()) {
    llvm::SmallVector<llvm::StringRef> names;
    llvm::StringRef(onlyOpt).split(names, ',', -1, false);
    for (llvm::StringRef n : names)
      only.insert(n.trim().str());
  }
  std::vector<int> warps;
  {
    llvm::SmallVector<llvm::StringRef> items;
    llvm::StringRef(warpsOpt).split(items, ',', -1, false);
    for (llvm::StringRef w : items) {
      int v;
      if (w.trim().getAsInteger(10, v) || v < 1 || v > 32 || (v & (v - 1)))
        return usage("--warps wants powers of two up to 32, got '" + w + "'");
      warps.push_back(v);
    }
  }
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(text).split(lines, '\n');
  unsigned lineNo = 0;
  for (llvm::StringRef line : lines) {
    ++lineNo;
    line = line.trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    llvm::SmallVector<llvm::StringRef> parts;
    line.split(parts, '|');
    if (parts.size() != 4)
      return usage(runArgs + ":" + llvm::Twine(lineNo) +
                   ": wants 'stem | file | options | arguments'");
    std::string stem = parts[0].trim().str(), file = parts[1].trim().str();
    if (!only.empty() && !only.count(stem))
      continue;
    oracle::CaseSpec spec;
    spec.sourcePath = base + "/" + file;
    spec.fileName = file;
    if (!readText(spec.sourcePath, spec.text, why))
      return usage(runArgs + ":" + llvm::Twine(lineNo) + ": " + why);
    std::string launch = parts[2].trim().str() + " -- " + parts[3].trim().str();
    if (!cpu::LaunchSpec::parse(launch, spec.launch, why))
      return usage(runArgs + ":" + llvm::Twine(lineNo) + ": " + why);
    bool ttgir = llvm::StringRef(file).ends_with(".ttgir");
    for (int w : ttgir ? std::vector<int>{0} : warps) {
      oracle::CaseSpec c = spec;
      c.name = ttgir ? stem : stem + "-w" + std::to_string(w);
      if (!ttgir)
        c.launch.numWarps = w;
      batch.add(c);
    }
  }
  return 0;
}

// Every DIR/<stem>.json tgpu-gen wrote, with its .ttir and .ttgir.
int fromGenerator(Batch &batch) {
  std::error_code ec;
  std::vector<std::string> stems;
  for (llvm::sys::fs::directory_iterator it(fromGen, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef path = it->path();
    // A program is <stem>.json beside <stem>.ttir (other JSON is not ours).
    std::string stem = llvm::sys::path::stem(path).str();
    if (path.ends_with(".json") && llvm::sys::fs::exists(fromGen + "/" + stem + ".ttir"))
      stems.push_back(stem);
  }
  if (ec)
    return usage("cannot list '" + fromGen + "': " + ec.message());
  if (stems.empty())
    return usage("'" + fromGen + "' holds no tgpu-gen program (<stem>.json)");
  std::sort(stems.begin(), stems.end());
  for (const std::string &stem : stems) {
    std::string jsonPath = fromGen + "/" + stem + ".json", text, why;
    if (!readText(jsonPath, text, why))
      return usage(why);
    bundle::Json meta;
    if (!bundle::Json::parse(text, meta, why))
      return usage(jsonPath + ": " + why);
    const bundle::Json *launch = meta.get("launch");
    const bundle::Json *outputs = meta.get("outputs");
    if (!launch || !launch->isString() || !outputs || !outputs->isArray())
      return usage(jsonPath + ": wants 'launch' and 'outputs'");
    oracle::CaseSpec spec;
    if (!cpu::LaunchSpec::parse(launch->asString(), spec.launch, why))
      return usage(jsonPath + ": launch: " + why);
    int64_t warps = 4;
    if (const bundle::Json *w = meta.get("num_warps"))
      w->asInt64(warps);
    spec.launch.numWarps = int(warps);
    std::map<unsigned, double> tolerances;
    for (const bundle::Json &o : outputs->items()) {
      uint64_t arg = 0;
      const bundle::Json *a = o.get("arg"), *t = o.get("abs_tolerance");
      if (!a || !a->asUint64(arg) || !t || !t->isNumber())
        return usage(jsonPath + ": an output wants 'arg' and 'abs_tolerance'");
      tolerances[unsigned(arg)] = t->asDouble();
    }
    spec.absTolerances = tolerances;
    for (const char *ext : {".ttir", ".ttgir"}) {
      oracle::CaseSpec c = spec;
      c.sourcePath = fromGen + "/" + stem + ext;
      if (!llvm::sys::fs::exists(c.sourcePath))
        continue;
      c.fileName = stem + ext;
      c.name = stem + "-" + (ext + 1);
      if (!readText(c.sourcePath, c.text, why))
        return usage(why);
      batch.add(c);
    }
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (argc < 2 || std::strcmp(argv[1], "bundle") != 0) {
    if (argc >= 2 && (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h"))) {
      llvm::outs() << "usage: tgpu-oracle bundle ... (tgpu-oracle bundle --help)\n";
      return 0;
    }
    return usage("the first argument is the subcommand: bundle");
  }
  std::vector<char *> toolArgs;
  std::vector<std::string> kernelArgs;
  cpu::splitAtDashes(argc, argv, 2, toolArgs, kernelArgs);
  cl::HideUnrelatedOptions(oracleCategory);
  if (!cl::ParseCommandLineOptions(int(toolArgs.size()), toolArgs.data(),
                                   "tgpu GPU-oracle bundle producer\n", &llvm::errs()))
    return 2;
  int modes = !kernelFile.empty() + !runArgs.empty() + !fromGen.empty();
  if (modes != 1)
    return usage("give one of KERNEL, --run-args FILE or --from-gen DIR");

  oracle::ProducerOptions po;
  if (arch.getNumOccurrences())
    po.arch = arch;
  po.optLevel = optLevel;
  po.tensorCores = tensorCores;
  if (numStages < 1 || numStages > 16)
    return usage("--num-stages wants 1..16");
  po.numStages = numStages;
  po.poison = !noPoison;
  auto producer = oracle::BundleProducer::create(po);
  if (!producer)
    return usage(llvm::toString(producer.takeError()));
  Batch batch{**producer};

  int rc = 0;
  if (!kernelFile.empty()) {
    oracle::CaseSpec spec;
    std::string why;
    if (!readText(kernelFile, spec.text, why))
      return usage(why);
    // A generated reproducer carries its launch (module attribute
    // tgpu.launch, tgpu-run syntax); an explicit --grid wins.
    if (gridOpt.empty()) {
      llvm::StringRef text = spec.text;
      size_t at = text.find("tgpu.launch = \"");
      if (at == llvm::StringRef::npos)
        return usage("one kernel needs --grid (or a tgpu.launch module attribute)");
      llvm::StringRef launch = text.substr(at + 15);
      launch = launch.take_until([](char c) { return c == '"'; });
      if (!cpu::LaunchSpec::parse(launch, spec.launch, why))
        return usage("tgpu.launch: " + why);
      if (!kernelArgs.empty())
        return usage("arguments after -- need --grid");
      kernelArgs = spec.launch.args;
      gridOpt = llvm::join(llvm::map_range(spec.launch.grid,
                                           [](int64_t g) { return std::to_string(g); }),
                           ",");
    }
    spec.sourcePath = kernelFile;
    spec.fileName = llvm::sys::path::filename(kernelFile).str();
    spec.name = nameOpt.empty() ? llvm::sys::path::stem(kernelFile).str() : nameOpt.getValue();
    if (!cpu::parseGrid(gridOpt, spec.launch.grid, why))
      return usage("--grid: " + why);
    if (numWarps < 1 || numWarps > 32 || (numWarps & (numWarps - 1)))
      return usage("--num-warps wants a power of two up to 32");
    spec.launch.numWarps = numWarps;
    spec.launch.args = kernelArgs;
    // One kernel: the bundle is the folder itself.
    std::string dir = outDir;
    if (llvm::sys::fs::exists(dir + "/meta.json"))
      return usage("'" + dir + "' already holds a bundle");
    if (llvm::Error e = (*producer)->produce(spec, dir)) {
      llvm::errs() << "tgpu-oracle: " << llvm::StringRef(llvm::toString(std::move(e))).trim()
                   << "\n";
      return 1;
    }
    llvm::outs() << "bundled " << spec.name << " in " << dir << "\n";
    return 0;
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir))
    return usage("cannot create '" + outDir + "': " + ec.message());
  rc = !runArgs.empty() ? fromRunArgs(batch) : fromGenerator(batch);
  if (rc)
    return rc;
  llvm::outs() << batch.made << " bundled, " << batch.skipped << " skipped, in " << outDir
               << "\n";
  return batch.skipped ? 1 : 0;
}
