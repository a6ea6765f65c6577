#include "tgpu/Target/PTX.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

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

PtxTarget::PtxTarget(GpuArch arch, std::unique_ptr<llvm::TargetMachine> tm)
    : gpuArch(std::move(arch)), machine(std::move(tm)) {}
PtxTarget::~PtxTarget() = default;

llvm::Expected<std::unique_ptr<PtxTarget>>
PtxTarget::create(const GpuArch &arch) {
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
      llvm::CodeGenOptLevel::Aggressive));
  if (!tm)
    return llvm::createStringError("cannot create the NVPTX target machine "
                                   "for " + arch.name);
  return std::unique_ptr<PtxTarget>(new PtxTarget(arch, std::move(tm)));
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
  llvm::ModulePassManager mpm =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  ScopedLlvmDiagnostics diagnostics(module.getContext());
  mpm.run(module, mam);
  return diagnostics.takeError("LLVM's O3 pipeline failed");
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
