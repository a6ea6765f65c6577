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
// TTGIR variant with random layouts and convert_layouts through the TTGIR
// passes and the lowering.
#include "FuzzTarget.h"
#include "Targets.h"

#include "Generator.h"
#include "Interpreter.h"
#include "RunArgs.h"

#include "tgpu/InitAllDialects.h"
#include "tgpu/Pipeline/Compiler.h"
#include "tgpu/Pipeline/Pipelines.h"
#include "tgpu/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace ::tgpu::fuzz;
namespace cpu = ::tgpu::cpu;
namespace gen = ::tgpu::gen;

namespace {

// Everything made once per process: the context, the compiler.
struct PipelineEnv {
  PipelineEnv() : context(makeRegistry()) {
    context.loadAllAvailableDialects();
    context.disableMultithreading();
    context.printOpOnDiagnostic(false);
    mlir::tgpu::CompilerOptions options;
    options.emit = mlir::tgpu::EmitKind::Ptx;
    options.verifyEach = true;
    auto created = mlir::tgpu::Compiler::create(options);
    if (!created) {
      llvm::errs() << "fuzz_pipeline: " << llvm::toString(created.takeError())
                   << "\n";
      std::abort();
    }
    compiler = std::move(*created);
  }
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    mlir::tgpu::registerAllDialects(registry);
    return registry;
  }
  MLIRContext context;
  std::unique_ptr<mlir::tgpu::Compiler> compiler;
};

PipelineEnv &env() {
  static PipelineEnv e;
  return e;
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

// Runs the kernel on the CPU oracle with the module's launch.
llvm::Expected<Buffers> runOracle(ModuleOp module, const cpu::LaunchSpec &launch) {
  Buffers args;
  std::string why;
  if (!launch.makeArgs(args, why))
    return llvm::createStringError("bad launch: " + why);
  cpu::RunOptions options;
  options.grid = launch.grid;
  options.numWarps = launch.numWarps;
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

// After every pass: the IR must verify and compute what the reference did.
class OracleAfterEachPass : public PassInstrumentation {
public:
  OracleAfterEachPass(const Buffers &reference, const cpu::LaunchSpec &launch,
                      std::optional<Finding> &finding, std::string stage)
      : reference(reference), launch(launch), finding(finding),
        stage(std::move(stage)) {}

  void runAfterPass(Pass *pass, Operation *op) override {
    if (finding)
      return;
    auto module = dyn_cast<ModuleOp>(op);
    if (!module)
      module = op->getParentOfType<ModuleOp>();
    if (!module)
      return;
    std::string passName = pass->getArgument().str();
    if (passName.empty())
      passName = pass->getName().str();
    if (failed(verify(module))) {
      finding = Finding{"pass-failure", "invalid IR after " + passName,
                        stage + ": the IR does not verify after " + passName +
                            "\n" + printed(module)};
      return;
    }
    llvm::Expected<Buffers> got = runOracle(module, launch);
    if (!got) {
      std::string msg = llvm::toString(got.takeError());
      finding = Finding{"miscompile",
                        "oracle fails after " + passName + ": " + normalizeSignature(msg, 80),
                        stage + ": after " + passName + " the oracle reports: " + msg +
                            "\n" + printed(module)};
      return;
    }
    std::string diff = firstDifference(reference, *got);
    if (!diff.empty())
      finding = Finding{"miscompile", "results differ after " + passName,
                        stage + ": after " + passName + ", " + diff + "\n" +
                            printed(module)};
  }

private:
  const Buffers &reference;
  const cpu::LaunchSpec &launch;
  std::optional<Finding> &finding;
  std::string stage;
};

// Runs `pm` on `module` with the oracle after every pass; a failing pass is a
// finding with its diagnostics.
std::optional<Finding> runChecked(PassManager &pm, ModuleOp module,
                                  const Buffers &reference,
                                  const cpu::LaunchSpec &launch,
                                  const std::string &stage) {
  std::optional<Finding> finding;
  pm.enableVerifier(false); // the instrumentation verifies, with a message
  pm.addInstrumentation(
      std::make_unique<OracleAfterEachPass>(reference, launch, finding, stage));
  DiagnosticCollector diags(*module.getContext());
  // The IR is printed only on failure (as the failing pass left it; the
  // program itself comes back from the reproducer), not before every run.
  if (failed(pm.run(module)) && !finding)
    finding = Finding{"pass-failure", normalizeSignature(diags.first),
                      stage + ": a pass failed:\n" + diags.text +
                          "\nIR after the failure:\n" + printed(module)};
  return finding;
}

// TTGIR text -> PTX through the reusable compiler.
std::optional<Finding> lowerToPtx(ModuleOp module, const std::string &stage) {
  std::string text = printed(module);
  auto result = env().compiler->compile(text, "fuzz.ttgir");
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
                 stage + ": " + message + "\ninput:\n" + text};
}

// The checks on one TTIR module (owned by the caller, consumed).
std::optional<Finding> checkTtir(ModuleOp module, const cpu::LaunchSpec &launch,
                                 const Buffers &reference, int numWarps) {
  MLIRContext &ctx = env().context;
  PassManager pm(&ctx);
  mlir::tgpu::buildTtirPipeline(pm);
  mlir::tgpu::TtgirPipelineOptions options;
  options.target = "cuda:90";
  options.numWarps = numWarps;
  mlir::tgpu::buildTtirToTtgirPipeline(pm, options);
  if (auto f = runChecked(pm, module, reference, launch, "ttir pipeline"))
    return f;
  return lowerToPtx(module, "ttir pipeline");
}

// The checks on one TTGIR module: optionally the TTGIR passes, then PTX.
std::optional<Finding> checkTtgir(ModuleOp module, const cpu::LaunchSpec &launch,
                                  const Buffers &reference, bool optimize) {
  if (optimize) {
    PassManager pm(&env().context);
    pm.addPass(mlir::tgpu::createTritonGPUCoalesce());
    pm.addPass(mlir::tgpu::createTritonGPURemoveLayoutConversions());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    if (auto f = runChecked(pm, module, reference, launch, "ttgir passes"))
      return f;
  }
  return lowerToPtx(module, "ttgir");
}

OwningOpRef<ModuleOp> parse(llvm::StringRef text, std::string &diagnostics) {
  DiagnosticCollector diags(env().context);
  // A copy: MLIR's lexer stops at the NUL after the buffer, and a slice of
  // a reproducer file need not have one.
  const std::string owned = text.str();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      owned, ParserConfig(&env().context, /*verifyAfterParse=*/true));
  diagnostics = diags.text;
  return module;
}

bool parseLaunch(ModuleOp module, cpu::LaunchSpec &launch, std::string &why) {
  std::string text = gen::launchOf(module);
  if (text.empty()) {
    why = "the module has no tgpu.launch attribute";
    return false;
  }
  return cpu::LaunchSpec::parse(text, launch, why);
}

// The reference run; a generated program the oracle rejects is a generator
// finding.
std::optional<Finding> reference(ModuleOp module, const cpu::LaunchSpec &launch,
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
  gen::GeneratedProgram program = gen::generateProgram(src, policy);
  std::string diagnostics;
  OwningOpRef<ModuleOp> module = parse(program.ttir, diagnostics);
  if (!module)
    return Finding{"generator-invalid", normalizeSignature(diagnostics),
                   diagnostics + "\nprogram:\n" + program.ttir};
  cpu::LaunchSpec launch;
  std::string why;
  if (!cpu::LaunchSpec::parse(program.launch, launch, why))
    return Finding{"generator-invalid", "bad launch", why};
  Buffers ref;
  if (auto f = reference(*module, launch, ref, program.ttir))
    return f;
  gen::VariantChoices choices = gen::drawVariantChoices(src, policy);
  policy.allowLinearLayouts = !choices.optimizeVariant;

  // The TTGIR variant is made from a copy of the TTIR before the pipeline
  // consumes it.
  OwningOpRef<ModuleOp> variant = module->clone();
  if (auto f = checkTtir(*module, launch, ref, choices.pipelineWarps))
    return f;
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
  return checkTtgir(*variant, launch, ref, choices.optimizeVariant);
}

std::optional<Finding> runText(llvm::StringRef kind, llvm::StringRef text) {
  std::string diagnostics;
  OwningOpRef<ModuleOp> module = parse(text, diagnostics);
  if (!module)
    return Finding{"bad-reproducer", "does not parse", diagnostics};
  cpu::LaunchSpec launch;
  std::string why;
  if (!parseLaunch(*module, launch, why))
    return Finding{"bad-reproducer", "no launch", why};
  Buffers ref;
  if (auto f = reference(*module, launch, ref, text))
    return f;
  if (kind == "ttir") {
    int numWarps = launch.numWarps;
    return checkTtir(*module, launch, ref, numWarps);
  }
  if (kind == "ttgir")
    return checkTtgir(*module, launch, ref, /*optimize=*/true);
  return Finding{"bad-reproducer", "input kind",
                 "fuzz_pipeline reads input=bytes, ttir or ttgir, not " + kind.str()};
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
