#include "oracles/gpu/producer/BundleProducer.h"

#include "oracles/cpu/Interpreter.h"
#include "oracles/gpu/bundle/Bundle.h"
#include "oracles/gpu/producer/Precision.h"
#include "tgpu/InitAllDialects.h"
#include "tgpu/Pipeline/Compiler.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <tuple>

namespace tgpu::oracle {

namespace {

llvm::Error error(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

bundle::Elem elemOf(cpu::ScalarKind k) {
  bundle::Elem e = bundle::Elem::I32;
  bundle::parseElem(cpu::name(k).str(), e);
  return e;
}

uint64_t scalarBits(const cpu::KernelArg &a) {
  switch (a.kind) {
  case cpu::ScalarKind::I1: return uint64_t(a.intValue) & 1;
  case cpu::ScalarKind::I8: return uint64_t(a.intValue) & 0xFF;
  case cpu::ScalarKind::I16: return uint64_t(a.intValue) & 0xFFFF;
  case cpu::ScalarKind::I32: return uint64_t(a.intValue) & 0xFFFFFFFFu;
  case cpu::ScalarKind::I64: return uint64_t(a.intValue);
  case cpu::ScalarKind::F64: {
    uint64_t bits;
    std::memcpy(&bits, &a.floatValue, 8);
    return bits;
  }
  default: {
    const llvm::fltSemantics &sem = a.kind == cpu::ScalarKind::F16    ? llvm::APFloat::IEEEhalf()
                                    : a.kind == cpu::ScalarKind::BF16 ? llvm::APFloat::BFloat()
                                                                      : llvm::APFloat::IEEEsingle();
    llvm::APFloat f(a.floatValue);
    bool lost = false;
    f.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
    return f.bitcastToAPInt().getZExtValue();
  }
  }
}

// Runs the reference; UB and unsupported ops become one-line errors.
llvm::Error runReference(mlir::ModuleOp module, std::vector<cpu::KernelArg> &args,
                         const cpu::LaunchSpec &launch) {
  cpu::RunOptions options;
  options.grid = launch.grid;
  options.numWarps = launch.numWarps;
  options.print = [](const std::string &) {}; // tt.print output is not compared
  llvm::Error e = cpu::runKernel(module, "", args, options);
  if (!e)
    return llvm::Error::success();
  std::string why;
  llvm::handleAllErrors(
      std::move(e),
      [&](const cpu::UndefinedBehavior &ub) { why = "undefined behaviour: " + ub.report.str(); },
      [&](const llvm::ErrorInfoBase &other) { why = other.message(); });
  return error("the CPU reference: " + why);
}

// The CUtensorMap encoding tgpu's kernel expects for each descriptor
// argument: the "tma" member ({"box", "swizzle_bytes", "elem_bytes"}) of its
// parameter in the compiler's metadata, where the compiler gives one.
llvm::Error descriptorEncodings(const mlir::tgpu::KernelMetadata &md,
                                const bundle::Bundle &b,
                                std::vector<bundle::ImageDescriptor> &out) {
  bundle::Json meta;
  std::string why;
  if (!bundle::Json::parse(mlir::tgpu::metadataToJson(md), meta, why))
    return error("the compiler's metadata: " + why);
  const bundle::Json *params = meta.get("arguments");
  if (!params || !params->isArray())
    return error("the compiler's metadata has no argument list");
  for (size_t k = 0; k < b.args.size() && k < params->items().size(); ++k) {
    const bundle::Json *tma = params->items()[k].get("tma");
    if (!b.args[k].isDescriptor || !tma)
      continue;
    auto bad = [&](const std::string &what) {
      return error("the compiler's metadata: arguments[" + llvm::Twine(k) +
                   "].tma: " + what);
    };
    const bundle::Json *box = tma->get("box"),
                       *swizzle = tma->get("swizzle_bytes"),
                       *elem = tma->get("elem_bytes");
    bundle::ImageDescriptor d;
    d.arg = unsigned(k);
    uint64_t v;
    if (!box || !box->isArray())
      return bad("no box");
    for (const bundle::Json &e : box->items()) {
      if (!e.asUint64(v) || v > UINT32_MAX)
        return bad("a box size is not a count");
      d.box.push_back(uint32_t(v));
    }
    if (!swizzle || !swizzle->asUint64(v) || v > 128)
      return bad("no swizzle_bytes");
    d.swizzleBytes = unsigned(v);
    if (!elem || !elem->asUint64(v) || v > 8)
      return bad("no elem_bytes");
    d.elemBytes = unsigned(v);
    out.push_back(std::move(d));
  }
  return llvm::Error::success();
}

bool allZero(const std::vector<uint8_t> &bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; });
}

llvm::Error writeBytes(const std::string &path, const void *data, size_t size) {
  std::string why;
  if (!bundle::writeFile(path, data, size, why))
    return error(why);
  return llvm::Error::success();
}

} // namespace

struct BundleProducer::Impl {
  ProducerOptions options;
  mlir::MLIRContext context;
  // One compiler per (num-warps, stages, arch) of TTIR input; warps 0 for
  // TTGIR, which carries its own.
  std::map<std::tuple<int, int, std::string>,
           std::unique_ptr<mlir::tgpu::Compiler>>
      compilers;

  explicit Impl(const ProducerOptions &o, mlir::DialectRegistry &registry)
      : options(o), context(registry) {
    context.loadAllAvailableDialects();
  }

  // `stages` and `arch` from a case's launch, 0 and empty: the options'.
  llvm::Expected<mlir::tgpu::Compiler *>
  compiler(int warps, int stages = 0, const std::string &arch = "") {
    auto &slot = compilers[{warps, stages, arch}];
    if (!slot) {
      mlir::tgpu::CompilerOptions co;
      co.arch = options.arch;
      if (!arch.empty())
        co.arch = arch;
      if (warps)
        co.numWarps = warps;
      co.emit = mlir::tgpu::EmitKind::Ptx;
      co.metadata = true;
      co.optLevel = options.optLevel;
      co.tensorCores = options.tensorCores;
      co.numStages = stages ? stages : options.numStages;
      auto made = mlir::tgpu::Compiler::create(co);
      if (!made)
        return made.takeError();
      slot = std::move(*made);
    }
    return slot.get();
  }
};

BundleProducer::BundleProducer(std::unique_ptr<Impl> i) : impl(std::move(i)) {}
BundleProducer::~BundleProducer() = default;

llvm::Expected<std::unique_ptr<BundleProducer>>
BundleProducer::create(const ProducerOptions &o) {
  if (o.optLevel > 3)
    return error("the optimisation level must be 0 to 3");
  mlir::DialectRegistry registry;
  mlir::tgpu::registerAllDialects(registry);
  auto impl = std::make_unique<Impl>(o, registry);
  // Fail early on a bad arch.
  if (auto c = impl->compiler(4); !c)
    return c.takeError();
  return std::unique_ptr<BundleProducer>(new BundleProducer(std::move(impl)));
}

llvm::Error BundleProducer::produce(const CaseSpec &spec, const std::string &outDir) {
  auto kind = mlir::tgpu::inputKindFromFileName(spec.fileName);
  if (!kind || *kind == mlir::tgpu::InputKind::LlvmMlir ||
      *kind == mlir::tgpu::InputKind::Mlir)
    return error("'" + spec.fileName + "': a bundle is made from .ttir or .ttgir");
  const bool isTtir = *kind == mlir::tgpu::InputKind::Ttir;

  // Compile.
  // A TTIR case's launch may say how to compile it (generated programs
  // draw stages and target); TTGIR carries both.
  auto compiler = isTtir
                      ? impl->compiler(spec.launch.numWarps,
                                       spec.launch.numStages, spec.launch.arch)
                      : impl->compiler(0);
  if (!compiler)
    return compiler.takeError();
  auto compiled = (*compiler)->compile(spec.text, spec.fileName);
  if (!compiled)
    return compiled.takeError();
  const mlir::tgpu::KernelMetadata &md = *compiled->metadata;

  // Parse for the reference (diagnostics were reported by the compile).
  std::string diagText;
  mlir::ScopedDiagnosticHandler quiet(&impl->context, [&](mlir::Diagnostic &d) {
    llvm::raw_string_ostream(diagText) << d << "\n";
    return mlir::success();
  });
  mlir::ParserConfig config(&impl->context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(spec.text, config, spec.fileName);
  if (!module)
    return error("cannot parse '" + spec.fileName + "': " + diagText);

  // Reference run on the given inputs.
  std::vector<cpu::KernelArg> initial;
  std::string why;
  if (!spec.launch.makeArgs(initial, why))
    return error("arguments: " + why);
  for (const cpu::KernelArg &a : initial) {
    bundle::Elem e;
    if (!bundle::parseElem(cpu::name(a.kind).str(), e)) // f8E4M3FN, f8E5M2
      return error("arguments: bundles do not hold " + cpu::name(a.kind) +
                   " values yet");
  }
  std::vector<cpu::KernelArg> final1 = initial;
  if (llvm::Error e = runReference(*module, final1, spec.launch))
    return e;

  // Poison probes: a buffer is a write-only output when filling it with the
  // poison byte changes nothing but its untouched elements. The GPU then
  // starts from the poison too, so an element it fails to write shows.
  const size_t n = initial.size();
  std::vector<bool> poisoned(n, false), output(n, false);
  std::vector<std::vector<uint8_t>> inputBytes(n), expectedBytes(n);
  for (size_t k = 0; k < n; ++k) {
    if (!initial[k].isBuffer)
      continue;
    inputBytes[k] = initial[k].bytes;
    expectedBytes[k] = final1[k].bytes;
    output[k] = final1[k].bytes != initial[k].bytes;
  }
  if (impl->options.poison) {
    for (size_t k = 0; k < n; ++k) {
      if (!initial[k].isBuffer || !(output[k] || allZero(initial[k].bytes)))
        continue;
      // Two probes, the poison byte and its complement: a value an op
      // absorbs (0xA5A5A5A5 is -2.9e-16 as f32, lost in any sum of larger
      // terms; a very negative i32 loses every max) must not pass for a
      // buffer nobody reads.
      std::vector<cpu::KernelArg> probe;
      bool independent = true, wroteAny = false;
      for (uint8_t fill : {bundle::kPoisonByte, uint8_t(~bundle::kPoisonByte)}) {
        std::vector<cpu::KernelArg> run = initial;
        std::fill(run[k].bytes.begin(), run[k].bytes.end(), fill);
        if (llvm::Error e = runReference(*module, run, spec.launch)) {
          llvm::consumeError(std::move(e)); // it reads the buffer: keep its input
          independent = false;
          break;
        }
        for (size_t j = 0; j < n && independent; ++j)
          if (j != k && initial[j].isBuffer)
            independent = run[j].bytes == final1[j].bytes;
        const unsigned size = bundle::elemBytes(elemOf(initial[k].kind));
        const std::vector<uint8_t> &a = final1[k].bytes, &b = run[k].bytes,
                                   &before = initial[k].bytes;
        for (size_t off = 0; off + size <= a.size() && independent; off += size) {
          bool same = std::memcmp(&a[off], &b[off], size) == 0;
          bool untouched = std::memcmp(&a[off], &before[off], size) == 0 &&
                           std::all_of(&b[off], &b[off] + size,
                                       [&](uint8_t x) { return x == fill; });
          independent = same || untouched;
          wroteAny |= same && !untouched;
        }
        if (fill == bundle::kPoisonByte)
          probe = std::move(run);
      }
      if (!independent || !wroteAny)
        continue;
      poisoned[k] = output[k] = true;
      inputBytes[k].assign(final1[k].bytes.size(), bundle::kPoisonByte);
      expectedBytes[k] = probe[k].bytes;
    }
  }

  // The bundle.
  KernelPrecision precision = analyzePrecision(*module, spec.launch.grid);
  bundle::Bundle b;
  b.dir = outDir;
  b.name = spec.name;
  b.source = spec.sourcePath;
  b.launch = spec.launch.str();
  for (int d = 0; d < 3; ++d)
    b.grid[d] = uint64_t(spec.launch.grid[d]);
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir + "/in"))
    return error("cannot create '" + outDir + "/in': " + ec.message());
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir + "/ref"))
    return error("cannot create '" + outDir + "/ref': " + ec.message());
  for (size_t k = 0; k < n; ++k) {
    bundle::Arg arg;
    arg.elem = elemOf(initial[k].kind);
    if (!initial[k].isBuffer) {
      arg.scalarBits = scalarBits(initial[k]);
      arg.text = k < spec.launch.args.size() ? spec.launch.args[k] : "";
      b.args.push_back(arg);
      continue;
    }
    arg.isBuffer = true;
    bundle::Buffer &buf = arg.buffer;
    buf.elem = arg.elem;
    buf.count = inputBytes[k].size() / bundle::elemBytes(arg.elem);
    if (initial[k].isDescriptor) {
      arg.isDescriptor = true;
      arg.shape.assign(initial[k].descShape.begin(),
                       initial[k].descShape.end());
      arg.strides.assign(initial[k].descStrides.begin(),
                         initial[k].descStrides.end());
      if (!bundle::checkDescriptorArg(arg, why))
        return error("argument " + llvm::Twine(k) + " '" + spec.launch.args[k] +
                     "': a GPU descriptor cannot describe it: " + why);
    }
    buf.input = "in/arg" + std::to_string(k) + ".bin";
    buf.expected = "ref/arg" + std::to_string(k) + ".bin";
    buf.output = output[k];
    buf.poisoned = poisoned[k];
    if (buf.output) {
      auto given = spec.absTolerances ? spec.absTolerances->find(unsigned(k))
                                      : std::map<unsigned, double>::const_iterator();
      if (spec.absTolerances && given != spec.absTolerances->end()) {
        buf.rule.atol = bundle::isFloat(arg.elem) ? given->second : 0;
        buf.rule.why = buf.rule.atol > 0 ? "the generator's error analysis" : "exact";
      } else {
        buf.rule = ruleForExpected(precision, arg.elem, expectedBytes[k].data(),
                                   buf.count);
      }
    }
    if (llvm::Error e = writeBytes(outDir + "/" + buf.input, inputBytes[k].data(),
                                   inputBytes[k].size()))
      return e;
    if (llvm::Error e = writeBytes(outDir + "/" + buf.expected, expectedBytes[k].data(),
                                   expectedBytes[k].size()))
      return e;
    b.args.push_back(arg);
  }

  bundle::Image image;
  image.impl = "tgpu";
  image.file = "kernel.ptx";
  image.entry = md.name;
  image.block = {unsigned(md.threadsPerCta), 1, 1};
  image.sharedBytes = uint64_t(md.sharedBytes);
  // A kernel with global scratch (descriptors made in the kernel) takes the
  // grid's scratch as its last parameter.
  if (md.globalScratchBytes > 0)
    image.scratchPerProgram = {uint64_t(md.globalScratchBytes)};
  if (llvm::Error e = descriptorEncodings(md, b, image.descriptors))
    return e;
  b.images.push_back(image);
  if (llvm::Error e = writeBytes(outDir + "/kernel.ptx", compiled->output.data(),
                                 compiled->output.size()))
    return e;
  // The kernel itself, so the GPU side can compile it with Triton too.
  std::string kernelFile = isTtir ? "kernel.ttir" : "kernel.ttgir";
  if (llvm::Error e = writeBytes(outDir + "/" + kernelFile, spec.text.data(), spec.text.size()))
    return e;
  b.extra = bundle::Json::object();
  b.extra.set("kernel", kernelFile);
  b.extra.set("num_warps", md.numWarps);
  if (isTtir)
    b.extra.set("num_stages", md.numStages);
  b.extra.set("arch", md.arch);
  std::string err;
  if (!bundle::saveBundleMeta(b, err))
    return error(err);
  // The runner's checks, so that no bundle written here is refused there.
  bundle::Bundle check;
  if (!bundle::loadBundle(outDir, check, err))
    return error("the bundle written is not valid: " + err);
  return llvm::Error::success();
}

} // namespace tgpu::oracle
