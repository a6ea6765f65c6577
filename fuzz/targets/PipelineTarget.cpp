// fuzz_pipeline: bytes -> a generated program -> every pass of tgpu-compile,
// verified after each, up to PTX. Findings:
// - a pass that fails or leaves invalid IR ("pass-failure");
// - a pass after which the CPU oracle's buffers differ from the TTIR's
//   ("miscompile": the pass changed what the kernel computes);
// - a lowering or back-end failure on a valid TTGIR ("lowering");
// - TTGIR that does not print and parse back ("round-trip");
// - the generator's own bugs: a program that does not verify
//   ("generator-invalid"), that the oracle finds undefined ("generator-ub")
//   or cannot run ("generator-unsupported").
// Every program runs twice: as TTIR through the whole pipeline, and as a
// TTGIR variant with random layouts and convert_layouts (optionally through
// the TTGIR passes), the oracle checking both. One of the two, drawn from the
// input (the variant three times in four), goes on to PTX, mostly at LLVM
// -O0 and one time in thirty-two at -O3: the back end was nine tenths of a
// run, -O0 still selects every instruction, and an -O3 run costs four -O0
// ones. Text reproducers lower at both.
#include "fuzz/targets/FuzzTarget.h"
#include "fuzz/targets/Targets.h"

#include "fuzz/generator/Generator.h"
#include "oracles/cpu/Interpreter.h"
#include "oracles/cpu/RunArgs.h"
#include "oracles/gpu/bundle/Compare.h"
#include "oracles/gpu/producer/Precision.h"

#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h"
#include "tgpu/InitAllDialects.h"
#include "tgpu/Pipeline/Compiler.h"
#include "tgpu/Pipeline/Pipelines.h"
#include "tgpu/Support/NestingLimit.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>

using namespace mlir;
using namespace ::tgpu::fuzz;
namespace cpu = ::tgpu::cpu;
namespace gen = ::tgpu::gen;

namespace {

// TGPU_FUZZ_PROFILE=1: where the time of a run goes, per phase, printed at
// exit (to see what to make faster; the phases do not overlap).
struct PhaseProfile {
  bool enabled = std::getenv("TGPU_FUZZ_PROFILE") != nullptr;
  std::map<std::string, std::pair<double, unsigned>> seconds; // total, count
  ~PhaseProfile();
};
PhaseProfile &profile() {
  static PhaseProfile p;
  return p;
}
// Adds its self time (minus nested phases) to one phase while alive.
class Phase {
public:
  explicit Phase(const char *name) : name(name), parent(current()) {
    if (parent)
      parent->flush();
    current() = this;
    start = Clock::now();
  }
  ~Phase() {
    flush();
    ++profile().seconds[name].second;
    current() = parent;
    if (parent)
      parent->start = Clock::now();
  }

private:
  using Clock = std::chrono::steady_clock;
  static Phase *&current() {
    static Phase *top = nullptr;
    return top;
  }
  void flush() {
    if (profile().enabled)
      profile().seconds[name].first +=
          std::chrono::duration<double>(Clock::now() - start).count();
    start = Clock::now();
  }
  const char *name;
  Phase *parent;
  Clock::time_point start;
};

// Everything made once per process: the context, the compilers (LLVM -O0
// and -O3).
struct PipelineEnv {
  PipelineEnv() : context(makeRegistry()) {
    context.loadAllAvailableDialects();
    context.disableMultithreading();
    context.printOpOnDiagnostic(false);
    for (unsigned level : {0u, 3u}) {
      mlir::tgpu::CompilerOptions options;
      options.emit = mlir::tgpu::EmitKind::Ptx;
      // Verified once per stage: a failure still names the stage, and
      // verifying the large LLVM-dialect module after every lowering pass
      // costs a fifth of a run.
      options.verifyEach = false;
      options.optLevel = level;
      options.timing = profile().enabled;
      auto created = mlir::tgpu::Compiler::create(options);
      if (!created) {
        llvm::errs() << "fuzz_pipeline: "
                     << llvm::toString(created.takeError()) << "\n";
        std::abort();
      }
      (level == 0 ? compilerO0 : compilerO3) = std::move(*created);
    }
  }
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    mlir::tgpu::registerAllDialects(registry);
    return registry;
  }
  mlir::tgpu::Compiler &compiler(unsigned optLevel) {
    return optLevel == 0 ? *compilerO0 : *compilerO3;
  }
  MLIRContext context;
  std::unique_ptr<mlir::tgpu::Compiler> compilerO0, compilerO3;
};

// Never destroyed: the profile printed at exit still reads the compiler.
PipelineEnv &env() {
  static PipelineEnv *e = new PipelineEnv;
  return *e;
}

PhaseProfile::~PhaseProfile() {
  if (!enabled)
    return;
  double total = 0;
  for (auto &[name, sc] : seconds)
    total += sc.first;
  llvm::errs() << "fuzz_pipeline phases (seconds, calls, share):\n";
  for (auto &[name, sc] : seconds)
    llvm::errs() << llvm::format("  %-30s %8.3f %7u %5.1f%%\n", name.c_str(),
                                 sc.first, sc.second, 100 * sc.first / total);
  for (unsigned level : {0u, 3u}) {
    llvm::errs() << "lowering to PTX at -O" << level << ", by compiler phase:\n";
    env().compiler(level).printTiming();
  }
}

// Collects error diagnostics as text while alive.
struct DiagnosticCollector {
  explicit DiagnosticCollector(MLIRContext &ctx)
      : handler(&ctx, [this](Diagnostic &d) {
          if (d.getSeverity() == DiagnosticSeverity::Error) {
            llvm::raw_string_ostream os(text);
            os << d.getLocation() << ": error: " << d << "\n";
            if (first.empty())
              first = d.str();
          }
          return success();
        }) {}
  std::string text, first;
  ScopedDiagnosticHandler handler;
};

std::string printed(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  OpPrintingFlags flags;
  flags.enableDebugInfo(false);
  op->print(os, flags);
  return s;
}

using Buffers = std::vector<cpu::KernelArg>;

// A program's launch and the argument buffers it starts from, made once:
// every oracle run starts from a copy (making them from the spec again cost
// a twentieth of a run).
struct Launch {
  cpu::LaunchSpec spec;
  Buffers args;
  // A generated program's error bounds per output argument (its GPU
  // comparison rule); empty for reproducer files.
  std::map<unsigned, double> absTolerances;
  // Parses `text` and makes the buffers; false with `why` when it cannot.
  bool init(llvm::StringRef text, std::string &why) {
    return cpu::LaunchSpec::parse(text, spec, why) && spec.makeArgs(args, why);
  }
};

// Runs the kernel on the CPU oracle with the module's launch.
llvm::Expected<Buffers> runOracle(ModuleOp module, const Launch &launch) {
  Buffers args = launch.args;
  cpu::RunOptions options;
  options.grid = launch.spec.grid;
  options.numWarps = launch.spec.numWarps;
  options.stepBudget = uint64_t(1) << 26;
  options.print = [](const std::string &) {};
  if (llvm::Error e = cpu::runKernel(module, "", args, options))
    return std::move(e);
  return args;
}

double elementAsDouble(const cpu::KernelArg &a, size_t i, uint64_t &bits) {
  unsigned size = cpu::byteSize(a.kind);
  bits = 0;
  std::memcpy(&bits, a.bytes.data() + i * size, size);
  switch (a.kind) {
  case cpu::ScalarKind::F32: {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  case cpu::ScalarKind::F64: {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  case cpu::ScalarKind::F16: {
    _Float16 h;
    std::memcpy(&h, &bits, 2);
    return double(h);
  }
  default: {
    unsigned bitsWide = size * 8;
    int64_t v = int64_t(bits << (64 - bitsWide)) >> (64 - bitsWide);
    return double(v);
  }
  }
}

bool isFloatKind(cpu::ScalarKind k) {
  return k == cpu::ScalarKind::F16 || k == cpu::ScalarKind::BF16 ||
         k == cpu::ScalarKind::F32 || k == cpu::ScalarKind::F64;
}

// The first element where two runs' buffers differ (bit patterns; any NaN
// equals any NaN), described with both values; empty when they agree.
std::string firstDifference(const Buffers &expected, const Buffers &got) {
  for (size_t a = 0; a < expected.size() && a < got.size(); ++a) {
    const cpu::KernelArg &e = expected[a], &g = got[a];
    if (!e.isBuffer || e.bytes == g.bytes)
      continue;
    unsigned size = cpu::byteSize(e.kind);
    for (size_t i = 0; i * size < e.bytes.size(); ++i) {
      uint64_t eb, gb;
      double ev = elementAsDouble(e, i, eb), gv = elementAsDouble(g, i, gb);
      if (eb == gb || (isFloatKind(e.kind) && std::isnan(ev) && std::isnan(gv)))
        continue;
      std::string s;
      llvm::raw_string_ostream os(s);
      auto show = [&](double v, uint64_t b) {
        if (isFloatKind(e.kind))
          os << v;
        else
          os << int64_t(v);
        os << " (0x" << llvm::format_hex_no_prefix(b, size * 2) << ")";
      };
      os << "argument " << a << " (ptr:" << cpu::name(e.kind) << ") element "
         << i << ": expected ";
      show(ev, eb);
      os << ", got ";
      show(gv, gb);
      return s;
    }
  }
  return "";
}

// Passes that may reassociate floating-point accumulation, as Triton's
// may (tt.reduce leaves the order open): after one of them the float
// outputs may differ from the reference within the rule the GPU oracle
// compares a run of the program with (the op classes' bound,
// oracles/gpu/BUNDLE.md), and the results become the reference for the
// passes after it.
bool reassociatesFloats(llvm::StringRef pass) {
  return pass == "tritongpu-optimize-thread-locality";
}

// The first output of `got` outside the GPU oracle's rule for `module`
// against `expected` (a generated program's own error bound where it has
// one; integers and other buffers bit for bit); empty when none is.
std::string differenceBeyondRule(ModuleOp module, const Launch &launch,
                                 const Buffers &expected, const Buffers &got) {
  ::tgpu::oracle::KernelPrecision precision =
      ::tgpu::oracle::analyzePrecision(module, launch.spec.grid);
  for (size_t a = 0; a < expected.size() && a < got.size(); ++a) {
    const cpu::KernelArg &e = expected[a], &g = got[a];
    if (!e.isBuffer || e.bytes == g.bytes)
      continue;
    ::tgpu::bundle::Elem elem = ::tgpu::bundle::Elem::I32;
    if (!isFloatKind(e.kind) ||
        !::tgpu::bundle::parseElem(cpu::name(e.kind).str(), elem) ||
        e.bytes.size() != g.bytes.size()) {
      Buffers onlyExpected(a + 1), onlyGot(a + 1);
      onlyExpected[a] = e;
      onlyGot[a] = g;
      return firstDifference(onlyExpected, onlyGot);
    }
    uint64_t count = e.bytes.size() / cpu::byteSize(e.kind);
    ::tgpu::bundle::CompareRule rule =
        ::tgpu::oracle::ruleForExpected(precision, elem, e.bytes.data(), count);
    if (auto given = launch.absTolerances.find(unsigned(a));
        given != launch.absTolerances.end())
      rule = {given->second, 0, "the generator's error analysis"};
    ::tgpu::bundle::BufferVerdict verdict = ::tgpu::bundle::compareBuffer(
        elem, count, g.bytes.data(), e.bytes.data(), rule, /*poisoned=*/false);
    if (!verdict.ok)
      return ::tgpu::bundle::describe(verdict, unsigned(a), elem, count, rule);
  }
  return "";
}

// What a pass can change in a module, as one 64-bit hash: every op's
// address, parent, attributes, properties, location, operands, successors,
// result types and blocks with their arguments. The fields of MLIR's
// OperationFingerPrint (what --mlir-print-ir-after-change compares), hashed
// with xxh3 instead of SHA-1, which was a thirtieth of a run.
uint64_t fingerprint(Operation *top) {
  llvm::SmallVector<uint64_t, 1024> words;
  auto add = [&](const void *p) { words.push_back(uint64_t(uintptr_t(p))); };
  top->walk([&](Operation *op) {
    add(op);
    if (op != top)
      add(op->getParentOp());
    add(op->getRawDictionaryAttrs().getAsOpaquePointer());
    words.push_back(uint64_t(op->hashProperties()));
    add(op->getLoc().getAsOpaquePointer());
    for (Region &region : op->getRegions())
      for (Block &block : region) {
        add(&block);
        for (BlockArgument arg : block.getArguments()) {
          add(arg.getAsOpaquePointer());
          add(arg.getType().getAsOpaquePointer());
        }
      }
    for (Value operand : op->getOperands())
      add(operand.getAsOpaquePointer());
    for (Block *successor : op->getSuccessors())
      add(successor);
    for (Type type : op->getResultTypes())
      add(type.getAsOpaquePointer());
  });
  return llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(words.data()), words.size() * 8));
}

// After every pass that changed the IR: it must verify and, given a launch,
// compute what the reference did. Unchanged IR (same fingerprint) was
// checked already: a third of the passes change nothing on a typical
// program.
class OracleAfterEachPass : public PassInstrumentation {
public:
  OracleAfterEachPass(ModuleOp input, const Buffers *reference,
                      const Launch *launch, std::optional<Finding> &finding,
                      std::string stage)
      : lastChecked(fingerprint(input)), reference(reference), launch(launch),
        finding(finding), stage(std::move(stage)) {}

  void runAfterPass(Pass *pass, Operation *op) override {
    if (finding)
      return;
    auto module = dyn_cast<ModuleOp>(op);
    if (!module)
      module = op->getParentOfType<ModuleOp>();
    if (!module)
      return;
    uint64_t now = fingerprint(module);
    if (now == lastChecked)
      return;
    lastChecked = now;
    std::string passName = pass->getArgument().str();
    if (passName.empty())
      passName = pass->getName().str();
    Phase phase("verify + oracle after a pass");
    if (failed(verify(module))) {
      finding = Finding{"pass-failure", "invalid IR after " + passName,
                        stage + ": the IR does not verify after " + passName +
                            "\n" + printed(module)};
      return;
    }
    if (!launch)
      return;
    llvm::Expected<Buffers> got = runOracle(module, *launch);
    if (!got) {
      std::string msg = llvm::toString(got.takeError());
      finding = Finding{"miscompile",
                        "oracle fails after " + passName + ": " + normalizeSignature(msg, 80),
                        stage + ": after " + passName + " the oracle reports: " + msg +
                            "\n" + printed(module)};
      return;
    }
    std::string diff = firstDifference(*reference, *got);
    if (!diff.empty() && reassociatesFloats(passName)) {
      diff = differenceBeyondRule(module, *launch, *reference, *got);
      if (diff.empty()) {
        rebased = std::move(*got);
        reference = &*rebased;
        return;
      }
      diff = "beyond the rounding a reassociation may add: " + diff;
    }
    if (!diff.empty())
      finding = Finding{"miscompile", "results differ after " + passName,
                        stage + ": after " + passName + ", " + diff + "\n" +
                            printed(module)};
  }

private:
  uint64_t lastChecked; // the module as the oracle last saw it
  const Buffers *reference; // null with launch: verification only
  // The results after a pass that reassociated floats, the reference since.
  std::optional<Buffers> rebased;
  const Launch *launch;
  std::optional<Finding> &finding;
  std::string stage;
};

// Runs `pm` on `module` with the checks after every pass (the oracle when
// `launch` is given); a failing pass is a finding with its diagnostics.
std::optional<Finding> runChecked(PassManager &pm, ModuleOp module,
                                  const Buffers *reference,
                                  const Launch *launch,
                                  const std::string &stage) {
  std::optional<Finding> finding;
  pm.enableVerifier(false); // the instrumentation verifies, with a message
  pm.addInstrumentation(
      std::make_unique<OracleAfterEachPass>(module, reference, launch, finding, stage));
  DiagnosticCollector diags(*module.getContext());
  // The IR is printed only on failure (as the failing pass left it; the
  // program itself comes back from the reproducer), not before every run.
  if (failed(pm.run(module)) && !finding)
    finding = Finding{"pass-failure", normalizeSignature(diags.first),
                      stage + ": a pass failed:\n" + diags.text +
                          "\nIR after the failure:\n" + printed(module)};
  return finding;
}

// TTGIR text -> PTX through the reusable compiler at one LLVM level.
std::optional<Finding> lowerToPtx(ModuleOp module, const std::string &stage,
                                  unsigned optLevel) {
  Phase phase("lowering to PTX");
  std::string text = printed(module);
  auto result = env().compiler(optLevel).compile(text, "fuzz.ttgir");
  if (result)
    return std::nullopt;
  std::string message, first;
  llvm::handleAllErrors(result.takeError(), [&](const mlir::tgpu::CompileError &e) {
    message = e.summary + "\n" + e.diagnostics;
    llvm::StringRef diag(e.diagnostics);
    // The first "error: ..." line says what failed.
    size_t at = diag.find("error: ");
    first = at == llvm::StringRef::npos ? e.summary
                                        : diag.drop_front(at + 7).split('\n').first.str();
  }, [&](const llvm::ErrorInfoBase &e) { message = first = e.message(); });
  llvm::StringRef kind = llvm::StringRef(message).starts_with("cannot parse")
                             ? "round-trip"
                             : "lowering";
  return Finding{kind.str(), normalizeSignature(first),
                 stage + " (LLVM -O" + std::to_string(optLevel) + "): " +
                     message + "\ninput:\n" + text};
}

// Which LLVM levels a module goes to PTX at: none, -O0, -O3, or both.
using OptLevels = llvm::SmallVector<unsigned, 2>;

std::optional<Finding> lowerAt(ModuleOp module, const std::string &stage,
                               const OptLevels &levels) {
  for (unsigned level : levels)
    if (auto f = lowerToPtx(module, stage, level))
      return f;
  return std::nullopt;
}

// The checks on one TTIR module (owned by the caller, consumed); without a
// launch (null), everything but the oracle.
std::optional<Finding> checkTtir(ModuleOp module, const Launch *launch,
                                 const Buffers *reference, int numWarps,
                                 const OptLevels &lowerLevels) {
  MLIRContext &ctx = env().context;
  PassManager pm(&ctx);
  mlir::tgpu::buildTtirPipeline(pm);
  mlir::tgpu::TtgirPipelineOptions options;
  // The program's launch says how it is compiled (the generator draws
  // stages and target per program); else sm_90 at Triton's 3 stages.
  options.target =
      launch && launch->spec.arch == "sm_80" ? "cuda:80" : "cuda:90";
  if (launch && launch->spec.numStages)
    options.numStages = launch->spec.numStages;
  options.numWarps = numWarps;
  // Tensor cores on: the dots that fit go through accelerate-matmul and the
  // mma.sync lowering (the CPU oracle checks the TTGIR after each pass; the
  // lowering checks every fragment against the layouts).
  options.tensorCores = true;
  mlir::tgpu::buildTtirToTtgirPipeline(pm, options);
  Phase phase("ttir passes");
  if (auto f = runChecked(pm, module, reference, launch, "ttir pipeline"))
    return f;
  return lowerAt(module, "ttir pipeline", lowerLevels);
}

// The checks on one TTGIR module: optionally the TTGIR passes, then PTX.
std::optional<Finding> checkTtgir(ModuleOp module, const Launch *launch,
                                  const Buffers *reference, bool optimize,
                                  const OptLevels &lowerLevels) {
  if (optimize) {
    PassManager pm(&env().context);
    pm.addPass(mlir::tgpu::createTritonGPUCoalesce());
    pm.addPass(mlir::tgpu::createTritonGPUAccelerateMatmul());
    pm.addPass(mlir::tgpu::createTritonGPURemoveLayoutConversions());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    Phase phase("ttgir passes");
    if (auto f = runChecked(pm, module, reference, launch, "ttgir passes"))
      return f;
  }
  return lowerAt(module, "ttgir", lowerLevels);
}

OwningOpRef<ModuleOp> parse(llvm::StringRef text, std::string &diagnostics) {
  DiagnosticCollector diags(env().context);
  // A copy: MLIR's lexer stops at the NUL after the buffer, and a slice of
  // a reproducer file need not have one.
  const std::string owned = text.str();
  OwningOpRef<ModuleOp> module;
  if (succeeded(mlir::tgpu::checkNesting(owned, "input", &env().context)))
    module = parseSourceString<ModuleOp>(
        owned, ParserConfig(&env().context, /*verifyAfterParse=*/true));
  diagnostics = diags.text;
  return module;
}

bool parseLaunch(ModuleOp module, Launch &launch, std::string &why) {
  std::string text = gen::launchOf(module);
  if (text.empty()) {
    why = "the module has no tgpu.launch attribute";
    return false;
  }
  return launch.init(text, why);
}

// The reference run; a generated program the oracle rejects is a generator
// finding.
std::optional<Finding> reference(ModuleOp module, const Launch &launch,
                                 Buffers &out, llvm::StringRef text) {
  llvm::Expected<Buffers> ref = runOracle(module, launch);
  if (ref) {
    out = std::move(*ref);
    return std::nullopt;
  }
  std::string kind = "generator-unsupported", msg;
  llvm::handleAllErrors(
      ref.takeError(),
      [&](const cpu::UndefinedBehavior &ub) {
        kind = "generator-ub";
        msg = ub.report.kind + " in " + ub.report.op;
      },
      [&](const llvm::ErrorInfoBase &e) { msg = e.message(); });
  return Finding{kind, normalizeSignature(msg), msg + "\nprogram:\n" + text.str()};
}

std::optional<Finding> runBytes(llvm::ArrayRef<uint8_t> data) {
  gen::ByteSource src(data);
  gen::GenPolicy policy;
  policy.swarm = 1; // each input draws its program's own policy
  std::optional<Phase> phase;
  phase.emplace("generate + parse");
  gen::GeneratedProgram program = gen::generateProgram(src, policy);
  std::string diagnostics;
  OwningOpRef<ModuleOp> module = parse(program.ttir, diagnostics);
  phase.reset();
  if (!module)
    return Finding{"generator-invalid", normalizeSignature(diagnostics),
                   diagnostics + "\nprogram:\n" + program.ttir};
  Launch launch;
  std::string why;
  if (!launch.init(program.launch, why))
    return Finding{"generator-invalid", "bad launch", why};
  for (const gen::OutputSpec &output : program.outputs)
    launch.absTolerances[output.argIndex] = output.absTolerance;
  Buffers ref;
  phase.emplace("reference oracle");
  if (auto f = reference(*module, launch, ref, program.ttir))
    return f;
  phase.reset();
  gen::VariantChoices choices = gen::drawVariantChoices(src, policy);

  // The TTGIR variant is made from a copy of the TTIR before the pipeline
  // consumes it.
  OwningOpRef<ModuleOp> variant = module->clone();
  // The pipeline's output goes to PTX later, if the draw says so.
  if (auto f = checkTtir(*module, &launch, &ref, choices.pipelineWarps, {}))
    return f;
  phase.emplace("ttgir variant + oracle");
  {
    DiagnosticCollector diags(env().context);
    if (failed(gen::makeTtgirVariant(*variant, src, policy, choices.variantWarps)))
      return Finding{"generator-invalid", normalizeSignature(diags.first),
                     "the TTGIR variant is invalid:\n" + diags.text + "\n" +
                         printed(*variant)};
  }
  llvm::Expected<Buffers> got = runOracle(*variant, launch);
  if (!got)
    return Finding{"generator-unsupported", "ttgir variant does not run",
                   llvm::toString(got.takeError()) + "\n" + printed(*variant)};
  std::string diff = firstDifference(ref, *got);
  if (!diff.empty())
    return Finding{"miscompile", "ttgir variant differs",
                   "convert-triton-to-tritongpu + random layouts: " + diff + "\n" +
                       printed(*variant)};
  phase.reset();
  // Drawn after the variant's bytes, so tgpu-gen --from-bytes (which does
  // not lower) makes the same variant.
  OptLevels level = {src.below(32) == 31 ? 3u : 0u};
  if (src.below(4) == 3) {
    if (auto f = lowerAt(*module, "ttir pipeline", level))
      return f;
    return checkTtgir(*variant, &launch, &ref, choices.optimizeVariant, {});
  }
  return checkTtgir(*variant, &launch, &ref, choices.optimizeVariant, level);
}

// The warps a module's own attributes give (a TTGIR module's
// ttg.num-warps), else Triton's default.
int moduleNumWarps(ModuleOp module) {
  if (auto warps = module->getAttrOfType<IntegerAttr>("ttg.num-warps"))
    if (warps.getInt() >= 1 && warps.getInt() <= 32)
      return int(warps.getInt());
  return 4;
}

// A reproducer file: with a tgpu.launch, the reference runs it and every
// pass's output must compute the same; without one (a compiler crash or
// error found elsewhere, a file from a user), the same passes and lowering
// run with the verifier after each pass, as triton-opt runs a reproducer.
std::optional<Finding> runText(llvm::StringRef kind, llvm::StringRef text) {
  if (kind != "ttir" && kind != "ttgir")
    return Finding{"bad-reproducer", "input kind",
                   "fuzz_pipeline reads input=bytes, ttir or ttgir, not " +
                       kind.str()};
  std::string diagnostics;
  OwningOpRef<ModuleOp> module = parse(text, diagnostics);
  if (!module)
    return Finding{
        "parse",
        normalizeSignature(llvm::StringRef(diagnostics).split('\n').first),
        "the reproducer does not parse or verify:\n" + diagnostics};
  const OptLevels both = {0, 3};
  if (gen::launchOf(*module).empty()) {
    if (kind == "ttir")
      return checkTtir(*module, nullptr, nullptr, moduleNumWarps(*module),
                       both);
    return checkTtgir(*module, nullptr, nullptr, /*optimize=*/true, both);
  }
  Launch launch;
  std::string why;
  if (!parseLaunch(*module, launch, why))
    return Finding{"bad-reproducer", "bad launch", why};
  Buffers ref;
  if (auto f = reference(*module, launch, ref, text))
    return f;
  if (kind == "ttir")
    return checkTtir(*module, &launch, &ref, launch.spec.numWarps, both);
  return checkTtgir(*module, &launch, &ref, /*optimize=*/true, both);
}

} // namespace

namespace tgpu::fuzz {
const TargetInfo &pipelineTarget() {
  static const TargetInfo info{
      "fuzz_pipeline",
      "generated programs through every pass (CPU oracle after each) to PTX",
      runBytes, runText};
  return info;
}
} // namespace tgpu::fuzz
