#include "tgpu/Target/PTX.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <mutex>

using namespace mlir;
using namespace mlir::tgpu;

static constexpr llvm::StringLiteral kTriple = "nvptx64-nvidia-cuda";

std::optional<GpuArch> GpuArch::parse(llvm::StringRef name) {
  if (name == "sm_80")
    return GpuArch{"sm_80", 80};
  if (name == "sm_90")
    return GpuArch{"sm_90", 90};
  if (name == "sm_90a")
    return GpuArch{"sm_90a", 90};
  return std::nullopt;
}

std::optional<GpuArch> GpuArch::fromTtgTarget(llvm::StringRef target) {
  if (target == "cuda:80")
    return parse("sm_80");
  if (target == "cuda:90")
    return parse("sm_90");
  return std::nullopt;
}

std::string mlir::tgpu::ptxVersionString() {
  return std::to_string(kPtxVersion / 10) + "." +
         std::to_string(kPtxVersion % 10);
}

void mlir::tgpu::registerLlvmTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

// Only NVPTX: initialising every target libLLVM carries would cost start-up
// time for nothing.
static void initializeNvptx() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // Shared, constant and local pointers in 32 bits, as Triton compiles
    // (its LLVM flag nvptx-short-ptr): shared-memory address arithmetic is
    // then one 32-bit instruction instead of a 64-bit pair, and the uniform
    // datapath computes wgmma descriptors from it directly.
    auto &options = llvm::cl::getRegisteredOptions();
    auto shortPointers = options.find("nvptx-short-ptr");
    if (shortPointers != options.end())
      static_cast<llvm::cl::opt<bool> *>(shortPointers->second)->setValue(true);
  });
}

namespace {
// Collects the errors LLVM reports through its context (unsupported features,
// bad inline asm, ...) while in scope: the default handler would print them
// and exit the process.
class ScopedLlvmDiagnostics {
public:
  explicit ScopedLlvmDiagnostics(llvm::LLVMContext &context)
      : context(context), previous(context.getDiagnosticHandler()) {
    context.setDiagnosticHandler(std::make_unique<Collector>(errors));
  }
  ~ScopedLlvmDiagnostics() { context.setDiagnosticHandler(std::move(previous)); }

  llvm::Error takeError(const llvm::Twine &what) {
    if (errors.empty())
      return llvm::Error::success();
    return llvm::createStringError(what + ":\n" + llvm::StringRef(errors).rtrim());
  }

private:
  struct Collector : llvm::DiagnosticHandler {
    explicit Collector(std::string &errors) : errors(errors) {}
    bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
      if (info.getSeverity() == llvm::DS_Error) {
        llvm::raw_string_ostream os(errors);
        llvm::DiagnosticPrinterRawOStream printer(os);
        info.print(printer);
        os << "\n";
      }
      return true; // warnings and remarks are dropped
    }
    std::string &errors;
  };

  llvm::LLVMContext &context;
  std::unique_ptr<llvm::DiagnosticHandler> previous;
  std::string errors;
};
} // namespace

PtxTarget::PtxTarget(GpuArch arch, unsigned optLevel,
                     std::unique_ptr<llvm::TargetMachine> tm)
    : gpuArch(std::move(arch)), level(optLevel), machine(std::move(tm)) {}
PtxTarget::~PtxTarget() = default;

llvm::Expected<std::unique_ptr<PtxTarget>>
PtxTarget::create(const GpuArch &arch, unsigned optLevel) {
  if (optLevel > 3)
    return llvm::createStringError("optimisation level " +
                                   std::to_string(optLevel) +
                                   " is not one of 0, 1, 2, 3");
  initializeNvptx();
  llvm::Triple triple(kTriple);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("NVPTX target unavailable: " + error);
  llvm::TargetOptions options;
  // Triton's default (enable_fp_fusion): a * b + c may become one fma.
  options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  std::string features = "+ptx" + std::to_string(kPtxVersion);
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, arch.name, features, options, std::nullopt, std::nullopt,
      *llvm::CodeGenOpt::getLevel(int(optLevel))));
  if (!tm)
    return llvm::createStringError("cannot create the NVPTX target machine "
                                   "for " + arch.name);
  return std::unique_ptr<PtxTarget>(new PtxTarget(arch, optLevel, std::move(tm)));
}

llvm::Expected<std::unique_ptr<llvm::Module>>
PtxTarget::translate(ModuleOp module, llvm::LLVMContext &llvmContext) const {
  // Verification below, so its message comes back in the error instead of
  // going to stderr.
  std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(
      module, llvmContext, "tgpu", /*disableVerification=*/true);
  if (!llvmModule)
    return llvm::createStringError("translation to LLVM IR failed");
  llvmModule->setTargetTriple(llvm::Triple(kTriple));
  llvmModule->setDataLayout(machine->createDataLayout());
  std::string message;
  llvm::raw_string_ostream os(message);
  if (llvm::verifyModule(*llvmModule, &os))
    return llvm::createStringError("the translated LLVM IR is invalid:\n" +
                                   message);
  return std::move(llvmModule);
}

llvm::Error PtxTarget::optimize(llvm::Module &module) const {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  // With the target machine, the builder registers NVPTX's own passes and
  // cost model (NVVMReflect, address-space inference, TTI).
  llvm::PassBuilder builder(machine.get());
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  llvm::ModulePassManager mpm =
      level == 0 ? builder.buildO0DefaultPipeline(levels[0])
                 : builder.buildPerModuleDefaultPipeline(levels[level]);
  ScopedLlvmDiagnostics diagnostics(module.getContext());
  mpm.run(module, mam);
  return diagnostics.takeError("LLVM's O" + std::to_string(level) +
                               " pipeline failed");
}

llvm::Expected<std::string> PtxTarget::emitPtx(llvm::Module &module) const {
  module.setTargetTriple(llvm::Triple(kTriple));
  module.setDataLayout(machine->createDataLayout());
  llvm::SmallString<0> ptx;
  ScopedLlvmDiagnostics diagnostics(module.getContext());
  {
    llvm::raw_svector_ostream os(ptx);
    llvm::legacy::PassManager pm;
    if (machine->addPassesToEmitFile(pm, os, nullptr,
                                     llvm::CodeGenFileType::AssemblyFile))
      return llvm::createStringError("the NVPTX target cannot emit PTX");
    pm.run(module);
  }
  if (llvm::Error error = diagnostics.takeError("PTX emission failed"))
    return std::move(error);
  return std::string(ptx.str());
}

//===----------------------------------------------------------------------===//
// libdevice
//===----------------------------------------------------------------------===//

std::string mlir::tgpu::defaultLibdevicePath() {
  if (std::optional<std::string> fromEnv =
          llvm::sys::Process::GetEnv("TGPU_LIBDEVICE"))
    if (!fromEnv->empty())
      return *fromEnv;
  return "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc";
}

// The libdevice functions `module` declares (and so calls), sorted.
static llvm::SmallVector<std::string>
libdeviceDeclarations(const llvm::Module &module) {
  llvm::SmallVector<std::string> names;
  for (const llvm::Function &f : module.functions())
    if (f.isDeclaration() && f.getName().starts_with("__nv_"))
      names.push_back(f.getName().str());
  llvm::sort(names);
  return names;
}

bool mlir::tgpu::usesLibdevice(const llvm::Module &module) {
  return !libdeviceDeclarations(module).empty();
}

namespace {
// libdevice modules parsed once per process, each in its own context, and
// the bitcode of the subsets kernels needed. A kernel's module lives in
// another context, which LLVM cannot clone into: the subset (a few functions
// out of ~500) travels as bitcode, which is quick to parse.
class LibdeviceCache {
public:
  static LibdeviceCache &get() {
    static LibdeviceCache cache;
    return cache;
  }

  // The bitcode of the definitions of `names` and everything they reference
  // in the libdevice at `path`. The returned reference stays valid.
  llvm::Expected<const std::string &>
  subset(llvm::StringRef path, llvm::ArrayRef<std::string> names) {
    std::lock_guard<std::mutex> lock(mutex);
    auto found = libraries.find(path);
    if (found == libraries.end()) {
      auto loaded = load(path);
      if (!loaded)
        return loaded.takeError();
      found = libraries.try_emplace(path, std::move(*loaded)).first;
    }
    Library &library = found->second;
    std::string key = llvm::join(names, ",");
    auto cached = library.subsets.find(key);
    if (cached != library.subsets.end())
      return cached->second;
    auto bitcode = cut(*library.module, path, names);
    if (!bitcode)
      return bitcode.takeError();
    return library.subsets.try_emplace(key, std::move(*bitcode))
        .first->second;
  }

private:
  struct Library {
    std::unique_ptr<llvm::LLVMContext> context;
    std::unique_ptr<llvm::Module> module;
    llvm::StringMap<std::string> subsets; // by the needed names, joined
  };

  static llvm::Expected<Library> load(llvm::StringRef path) {
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer)
      return llvm::createStringError(
          buffer.getError(),
          "cannot read libdevice '" + path + "': " +
              buffer.getError().message() +
              " (install CUDA, or set TGPU_LIBDEVICE or --libdevice to "
              "libdevice.10.bc)");
    Library library;
    library.context = std::make_unique<llvm::LLVMContext>();
    ScopedLlvmDiagnostics diagnostics(*library.context);
    auto module =
        llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), *library.context);
    if (!module)
      return llvm::createStringError("libdevice '" + path +
                                     "' is not LLVM bitcode: " +
                                     llvm::toString(module.takeError()));
    library.module = std::move(*module);
    return std::move(library);
  }

  // The definitions `names` need, transitively (callees, tables they read).
  static llvm::DenseSet<const llvm::GlobalValue *>
  closure(llvm::ArrayRef<const llvm::GlobalValue *> roots) {
    llvm::DenseSet<const llvm::GlobalValue *> needed;
    llvm::SmallVector<const llvm::GlobalValue *> work;
    llvm::DenseSet<const llvm::Constant *> seen;
    llvm::SmallVector<const llvm::Value *> values;
    auto visit = [&](const llvm::Value *root) {
      values.push_back(root);
      while (!values.empty()) {
        const llvm::Value *v = values.pop_back_val();
        if (auto *gv = llvm::dyn_cast<llvm::GlobalValue>(v)) {
          if (needed.insert(gv).second)
            work.push_back(gv);
        } else if (auto *c = llvm::dyn_cast<llvm::Constant>(v)) {
          if (seen.insert(c).second)
            for (const llvm::Use &u : c->operands())
              values.push_back(u.get());
        }
      }
    };
    for (const llvm::GlobalValue *root : roots)
      visit(root);
    while (!work.empty()) {
      const llvm::GlobalValue *gv = work.pop_back_val();
      if (auto *f = llvm::dyn_cast<llvm::Function>(gv)) {
        for (const llvm::BasicBlock &block : *f)
          for (const llvm::Instruction &inst : block)
            for (const llvm::Use &u : inst.operands())
              visit(u.get());
      } else if (auto *var = llvm::dyn_cast<llvm::GlobalVariable>(gv)) {
        if (var->hasInitializer())
          visit(var->getInitializer());
      }
    }
    return needed;
  }

  static llvm::Expected<std::string> cut(const llvm::Module &library,
                                         llvm::StringRef path,
                                         llvm::ArrayRef<std::string> names) {
    llvm::SmallVector<const llvm::GlobalValue *> roots;
    for (const std::string &name : names) {
      const llvm::Function *f = library.getFunction(name);
      if (!f || f->isDeclaration())
        return llvm::createStringError("libdevice '" + path +
                                       "' has no function '" + name + "'");
      roots.push_back(f);
    }
    llvm::DenseSet<const llvm::GlobalValue *> needed = closure(roots);
    llvm::ValueToValueMapTy map;
    std::unique_ptr<llvm::Module> subset = llvm::CloneModule(
        library, map,
        [&](const llvm::GlobalValue *gv) { return needed.contains(gv); });
    // The other ~500 functions became declarations nothing calls.
    for (llvm::Function &f : llvm::make_early_inc_range(subset->functions()))
      if (f.isDeclaration() && f.use_empty())
        f.eraseFromParent();
    for (llvm::GlobalVariable &var :
         llvm::make_early_inc_range(subset->globals()))
      if (var.isDeclaration() && var.use_empty())
        var.eraseFromParent();
    std::string bitcode;
    llvm::raw_string_ostream os(bitcode);
    llvm::WriteBitcodeToFile(*subset, os);
    os.flush();
    return bitcode;
  }

  std::mutex mutex;
  llvm::StringMap<Library> libraries; // by path
};
} // namespace

llvm::Error mlir::tgpu::linkLibdevice(llvm::Module &module,
                                      llvm::StringRef path) {
  llvm::SmallVector<std::string> names = libdeviceDeclarations(module);
  if (names.empty())
    return llvm::Error::success();
  auto bitcode = LibdeviceCache::get().subset(path, names);
  if (!bitcode)
    return bitcode.takeError();

  ScopedLlvmDiagnostics diagnostics(module.getContext());
  auto library = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(*bitcode, "libdevice"), module.getContext());
  if (!library)
    return llvm::createStringError("cannot read the libdevice subset of '" +
                                   path + "': " +
                                   llvm::toString(library.takeError()));
  // libdevice says nvptx64-nvidia-gpulibs and an older data layout; the
  // kernel's own keep the linker quiet and are what the code is built for.
  (*library)->setTargetTriple(module.getTargetTriple());
  (*library)->setDataLayout(module.getDataLayout());
  llvm::StringSet<> linked;
  for (const llvm::GlobalValue &gv : (*library)->global_values())
    if (!gv.isDeclaration())
      linked.insert(gv.getName());
  bool failed = llvm::Linker::linkModules(module, std::move(*library),
                                         llvm::Linker::LinkOnlyNeeded);
  if (llvm::Error error =
          diagnostics.takeError("linking libdevice '" + path + "' failed"))
    return error;
  if (failed)
    return llvm::createStringError("linking libdevice '" + path + "' failed");
  // Internal: LLVM may inline and drop them, and they do not clash with
  // another module's copy.
  for (llvm::StringRef name : linked.keys())
    if (llvm::GlobalValue *gv = module.getNamedValue(name))
      if (!gv->isDeclaration() && !gv->hasLocalLinkage()) {
        gv->setLinkage(llvm::GlobalValue::InternalLinkage);
        gv->setVisibility(llvm::GlobalValue::DefaultVisibility);
      }
  // libdevice picks its flush-to-zero variants with
  // __nvvm_reflect("__CUDA_FTZ"); NVVMReflect answers from this flag.
  if (!module.getModuleFlag("nvvm-reflect-ftz"))
    module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                         uint32_t(0));
  return llvm::Error::success();
}

std::string mlir::tgpu::printLlvmIr(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return text;
}

std::string mlir::tgpu::ptxasPath() {
  if (std::optional<std::string> fromEnv =
          llvm::sys::Process::GetEnv("TGPU_PTXAS"))
    if (!fromEnv->empty())
      return *fromEnv;
  return "/usr/local/cuda/bin/ptxas";
}

static llvm::Error fileError(const llvm::Twine &what, std::error_code ec) {
  return llvm::createStringError(ec, what + ": " + ec.message());
}

llvm::Expected<std::string> mlir::tgpu::assembleCubin(llvm::StringRef ptx,
                                                      const GpuArch &arch) {
  std::string ptxas = ptxasPath();
  if (!llvm::sys::fs::can_execute(ptxas))
    return llvm::createStringError(
        "ptxas not found at '" + ptxas +
        "' (install CUDA or set TGPU_PTXAS to the ptxas to use)");

  llvm::SmallString<128> ptxFile, cubinFile, logFile;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tgpu", "ptx", ptxFile))
    return fileError("cannot create a temporary file", ec);
  llvm::FileRemover removePtx(ptxFile);
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tgpu", "cubin", cubinFile))
    return fileError("cannot create a temporary file", ec);
  llvm::FileRemover removeCubin(cubinFile);
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tgpu", "log", logFile))
    return fileError("cannot create a temporary file", ec);
  llvm::FileRemover removeLog(logFile);

  {
    std::error_code ec;
    llvm::raw_fd_ostream os(ptxFile, ec);
    if (ec)
      return fileError("cannot write " + ptxFile, ec);
    os << ptx;
    os.close();
    if (os.has_error())
      return fileError("cannot write " + ptxFile, os.error());
  }

  llvm::SmallVector<llvm::StringRef> args = {
      ptxas, "--gpu-name", arch.name, "-O3", ptxFile, "-o", cubinFile};
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""),
                                                logFile.str(), logFile.str()};
  std::string execError;
  bool execFailed = false;
  int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &execError,
                                         &execFailed);
  if (execFailed)
    return llvm::createStringError("cannot run " + ptxas + ": " + execError);
  if (status != 0) {
    std::string log;
    if (auto buffer = llvm::MemoryBuffer::getFile(logFile))
      log = (*buffer)->getBuffer().rtrim().str();
    return llvm::createStringError("ptxas failed (exit status " +
                                   std::to_string(status) + ")" +
                                   (log.empty() ? "" : ":\n" + log));
  }
  auto cubin = llvm::MemoryBuffer::getFile(cubinFile, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!cubin)
    return fileError("cannot read ptxas's output " + cubinFile,
                     cubin.getError());
  return (*cubin)->getBuffer().str();
}
