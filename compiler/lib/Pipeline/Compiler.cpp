#include "tgpu/Pipeline/Compiler.h"

#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"
#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "tgpu/InitAllDialects.h"
#include "tgpu/Pipeline/Pipelines.h"
#include "tgpu/Support/NestingLimit.h"
#include "tgpu/Target/PTX.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/TypeToLLVM.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Type.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <map>

using namespace mlir;
using namespace mlir::tgpu;

char CompileError::ID = 0;

void CompileError::log(llvm::raw_ostream &os) const {
  os << diagnostics << summary;
}

std::error_code CompileError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

std::optional<InputKind> mlir::tgpu::inputKindFromFileName(llvm::StringRef fileName) {
  llvm::StringRef ext = llvm::sys::path::extension(fileName);
  if (ext == ".ttir")
    return InputKind::Ttir;
  if (ext == ".ttgir")
    return InputKind::Ttgir;
  if (ext == ".mlir")
    return InputKind::Mlir;
  return std::nullopt;
}

// What a parsed .mlir module holds: TTIR, TTGIR or the LLVM dialect.
static FailureOr<InputKind> inputKindFromContent(ModuleOp module) {
  bool ttFunc = false, llvmFunc = false, tensors = false;
  auto note = [&](Type t) { tensors |= isa<RankedTensorType>(t); };
  module.walk([&](Operation *op) {
    if (isa<triton::FuncOp>(op))
      ttFunc = true;
    else if (isa<LLVM::LLVMFuncOp>(op))
      llvmFunc = true;
    llvm::for_each(op->getResultTypes(), note);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        llvm::for_each(block.getArgumentTypes(), note);
  });
  bool layouts = triton::gpu::findOpWithLayout(module) != nullptr;
  // Tensors with layouts make TTGIR, tensors without them TTIR (whatever
  // module attributes it carries); without tensors, ttg.num-warps says the
  // module was made for a number of warps (TTGIR).
  if (ttFunc) {
    if (layouts || (!tensors && module->hasAttr("ttg.num-warps")))
      return InputKind::Ttgir;
    return InputKind::Ttir;
  }
  if (llvmFunc)
    return InputKind::LlvmMlir;
  return module.emitError(
      "the module has neither a tt.func (TTIR, TTGIR) nor an llvm.func (the "
      "LLVM dialect): nothing to compile");
}

std::optional<EmitKind> mlir::tgpu::parseEmitKind(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<EmitKind>>(name)
      .Case("ttgir", EmitKind::Ttgir)
      .Case("llvm-mlir", EmitKind::LlvmMlir)
      .Case("llir", EmitKind::Llir)
      .Case("ptx", EmitKind::Ptx)
      .Case("cubin", EmitKind::Cubin)
      .Default(std::nullopt);
}

std::string mlir::tgpu::metadataToJson(const KernelMetadata &metadata) {
  llvm::json::Array arguments;
  for (const KernelArgument &arg : metadata.arguments) {
    llvm::json::Object entry{{"type", arg.type}, {"is_pointer", arg.isPointer}};
    if (arg.isPointer)
      entry["address_space"] = int64_t(arg.addressSpace);
    if (arg.byValueBytes) {
      entry["by_value_bytes"] = arg.byValueBytes;
      entry["align"] = arg.byValueAlign;
    }
    if (!arg.tmaBox.empty())
      entry["tma"] = llvm::json::Object{{"box", llvm::json::Array(arg.tmaBox)},
                                        {"swizzle_bytes", arg.tmaSwizzleBytes},
                                        {"elem_bytes", arg.tmaElemBytes}};
    arguments.push_back(std::move(entry));
  }
  llvm::json::Object root{
      {"kernel", metadata.name},
      {"arguments", std::move(arguments)},
      {"num_warps", metadata.numWarps},
      {"num_stages", metadata.numStages},
      {"threads_per_cta", metadata.threadsPerCta},
      {"shared_memory_bytes", metadata.sharedBytes},
      {"global_scratch_bytes", metadata.globalScratchBytes},
      {"global_scratch_align", metadata.globalScratchAlign},
      {"arch", metadata.arch},
      {"ptx_version", metadata.ptxVersion},
  };
  return llvm::formatv("{0:2}", llvm::json::Value(std::move(root))).str() +
         "\n";
}

static bool isValidNumWarps(int n) {
  return n >= 1 && n <= 32 && llvm::isPowerOf2_32(unsigned(n));
}

//===----------------------------------------------------------------------===//
// Compiler::Impl
//===----------------------------------------------------------------------===//

struct Compiler::Impl {
  explicit Impl(const CompilerOptions &options, DialectRegistry &registry)
      : options(options), context(registry) {}
  ~Impl() {
    // The pass managers' timing instrumentation refers to rootTiming: both go
    // before the manager, which reports only through printTiming.
    ttirToTtgir.reset();
    ttgirToLlvm.reset();
    rootTiming = TimingScope();
    timing.setEnabled(false);
  }

  void buildPassManagers();
  llvm::Expected<const PtxTarget *> targetFor(const GpuArch &arch);
  LogicalResult resolveArchAndWarps(ModuleOp module, GpuArch &arch,
                                    int &numWarps);
  FailureOr<KernelMetadata>
  describeKernel(ModuleOp module, const GpuArch &arch, int numWarps,
                 const std::map<unsigned, TmaBox> &descriptors);
  void printLlvmAfter(llvm::StringRef what, const llvm::Module &module);

  CompilerOptions options;
  GpuArch defaultArch;
  MLIRContext context;
  DefaultTimingManager timing;
  TimingScope rootTiming;
  // TTIR passes + TTIR -> TTGIR (for .ttir), TTGIR -> LLVM dialect.
  std::unique_ptr<PassManager> ttirToTtgir;
  std::unique_ptr<PassManager> ttgirToLlvm;
  // One target machine per arch, made on first use.
  llvm::StringMap<std::unique_ptr<PtxTarget>> targets;
};

void Compiler::Impl::buildPassManagers() {
  rootTiming = timing.getRootScope();
  auto configure = [&](PassManager &pm) {
    pm.enableVerifier(options.verifyEach);
    if (options.printAfterAll)
      pm.enableIRPrinting(
          /*shouldPrintBeforePass=*/[](Pass *, Operation *) { return false; },
          /*shouldPrintAfterPass=*/[](Pass *, Operation *) { return true; },
          /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
          /*printAfterOnlyOnFailure=*/false, *options.irStream);
    // Timing last, so it does not time the other instrumentations.
    if (options.timing)
      pm.enableTiming(rootTiming);
  };

  ttirToTtgir = std::make_unique<PassManager>(&context);
  buildTtirPipeline(*ttirToTtgir);
  TtgirPipelineOptions ttgirOptions;
  ttgirOptions.target = defaultArch.ttgTarget();
  ttgirOptions.numWarps = options.numWarps.value_or(4);
  ttgirOptions.tensorCores = options.tensorCores;
  ttgirOptions.numStages = options.numStages;
  buildTtirToTtgirPipeline(*ttirToTtgir, ttgirOptions);
  configure(*ttirToTtgir);

  ttgirToLlvm = std::make_unique<PassManager>(&context);
  buildTtgirToLlvmPipeline(*ttgirToLlvm);
  configure(*ttgirToLlvm);
}

llvm::Expected<const PtxTarget *>
Compiler::Impl::targetFor(const GpuArch &arch) {
  std::unique_ptr<PtxTarget> &slot = targets[arch.name];
  if (!slot) {
    auto created = PtxTarget::create(arch, options.optLevel);
    if (!created)
      return created.takeError();
    slot = std::move(*created);
  }
  return slot.get();
}

// The module's ttg.target / ttg.num-warps (set for TTGIR, and for LLVM-dialect
// modules that came from TTGIR) win over the defaults; an explicit option that
// disagrees with them is an error rather than a silent choice.
LogicalResult Compiler::Impl::resolveArchAndWarps(ModuleOp module,
                                                  GpuArch &arch,
                                                  int &numWarps) {
  arch = defaultArch;
  if (auto target = module->getAttrOfType<StringAttr>("ttg.target")) {
    std::optional<GpuArch> fromModule = GpuArch::fromTtgTarget(target.getValue());
    if (!fromModule)
      return module.emitError()
             << "unsupported ttg.target \"" << target.getValue()
             << "\" (tgpu compiles for cuda:80 and cuda:90)";
    if (options.arch && fromModule->capability != defaultArch.capability)
      return module.emitError()
             << "--arch " << *options.arch << " conflicts with the module's "
             << "ttg.target = \"" << target.getValue() << "\"";
    if (!options.arch)
      arch = *fromModule;
  }
  // wgmma and tensormap.replace (a CUtensorMap made in the kernel) exist
  // only in the arch-specific sm_90a target: a cuda:90 kernel that uses
  // them is compiled for sm_90a (which runs on the same GPUs), as Triton
  // does.
  Operation *needs90a = nullptr;
  module.walk([&](Operation *op) {
    if (!isa<triton::nvidia_gpu::WarpGroupDotOp,
             triton::nvidia_gpu::TensormapCreateOp>(op))
      return WalkResult::advance();
    needs90a = op;
    return WalkResult::interrupt();
  });
  if (needs90a && arch.name != "sm_90a") {
    if (arch.capability != 90)
      return needs90a->emitError()
             << (isa<triton::nvidia_gpu::WarpGroupDotOp>(needs90a)
                     ? "wgmma"
                     : "tensormap.replace")
             << " needs the sm_90a target, not " << arch.name;
    arch = *GpuArch::parse("sm_90a");
  }

  numWarps = options.numWarps.value_or(4);
  if (Attribute attr = module->getAttr("ttg.num-warps")) {
    auto intAttr = dyn_cast<IntegerAttr>(attr);
    if (!intAttr || !isValidNumWarps(int(intAttr.getInt())))
      return module.emitError()
             << "ttg.num-warps must be a power of two in 1..32, got " << attr;
    int fromModule = int(intAttr.getInt());
    if (options.numWarps && *options.numWarps != fromModule)
      return module.emitError()
             << "--num-warps " << *options.numWarps
             << " conflicts with the module's ttg.num-warps = " << fromModule;
    numWarps = fromModule;
  }
  return success();
}

// The CUtensorMap box and swizzle of each tensor-descriptor parameter of
// the module's kernel (by parameter index), read off the TTGIR before the
// descriptors become opaque by-value parameters. A descriptor whose block
// has no shared layout (no TMA copy uses it) is left out.
static FailureOr<std::map<unsigned, TmaBox>>
describeDescriptorParams(ModuleOp module) {
  std::map<unsigned, TmaBox> boxes;
  for (auto func : module.getOps<triton::FuncOp>()) {
    if (func.isExternal() || !func.isPublic())
      continue;
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
      auto desc = dyn_cast<triton::TensorDescType>(type);
      if (!desc || !desc.getBlockType().getEncoding())
        continue;
      RankedTensorType block = desc.getBlockType();
      FailureOr<TmaBox> box = planTmaBox(
          func, block.getShape(), block.getElementType(), block.getEncoding());
      if (failed(box))
        return failure();
      boxes[unsigned(i)] = std::move(*box);
    }
  }
  return boxes;
}

FailureOr<KernelMetadata>
Compiler::Impl::describeKernel(ModuleOp module, const GpuArch &arch,
                               int numWarps,
                               const std::map<unsigned, TmaBox> &descriptors) {
  llvm::StringRef kernelAttr = NVVM::NVVMDialect::getKernelFuncAttrName();
  SmallVector<LLVM::LLVMFuncOp> kernels;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    if (!func.isExternal() && func.isPublic() &&
        (func->hasAttr(kernelAttr) ||
         func.getCConv() == LLVM::cconv::CConv::PTX_Kernel))
      kernels.push_back(func);
  if (kernels.size() != 1) {
    InFlightDiagnostic diag = module.emitError()
                              << "--metadata needs exactly one kernel (a "
                                 "public llvm.func with nvvm.kernel), found "
                              << kernels.size();
    for (LLVM::LLVMFuncOp kernel : kernels)
      diag.attachNote(kernel.getLoc()) << "kernel @" << kernel.getName();
    return failure();
  }

  KernelMetadata metadata;
  LLVM::LLVMFuncOp kernel = kernels.front();
  metadata.name = kernel.getName().str();
  llvm::LLVMContext llvmContext;
  LLVM::TypeToLLVMIRTranslator translator(llvmContext);
  for (auto [i, type] : llvm::enumerate(kernel.getFunctionType().getParams())) {
    KernelArgument arg;
    llvm::raw_string_ostream os(arg.type);
    // A by-value parameter (a TMA descriptor) is its value to the launcher.
    if (auto byval = kernel.getArgAttrOfType<TypeAttr>(
            i, LLVM::LLVMDialect::getByValAttrName())) {
      llvm::Type *value = translator.translateType(byval.getValue());
      value->print(os);
      arg.byValueBytes =
          int64_t(llvm::DataLayout("").getTypeAllocSize(value).getFixedValue());
      auto align = kernel.getArgAttrOfType<IntegerAttr>(
          i, LLVM::LLVMDialect::getAlignAttrName());
      arg.byValueAlign = align ? align.getInt() : 1;
      auto desc = descriptors.find(unsigned(i));
      if (desc != descriptors.end()) {
        arg.tmaBox = desc->second.box;
        arg.tmaSwizzleBytes = desc->second.swizzleBytes;
        arg.tmaElemBytes = desc->second.elemBytes;
      }
      metadata.arguments.push_back(std::move(arg));
      continue;
    }
    translator.translateType(type)->print(os);
    if (auto ptr = dyn_cast<LLVM::LLVMPointerType>(type)) {
      arg.isPointer = true;
      arg.addressSpace = ptr.getAddressSpace();
    }
    metadata.arguments.push_back(std::move(arg));
  }
  metadata.numWarps = numWarps;
  metadata.numStages = options.numStages;
  metadata.threadsPerCta = numWarps * 32;
  if (Attribute attr = module->getAttr("ttg.shared")) {
    auto intAttr = dyn_cast<IntegerAttr>(attr);
    if (!intAttr || intAttr.getInt() < 0)
      return module.emitError()
             << "ttg.shared must be a non-negative integer, got " << attr;
    metadata.sharedBytes = intAttr.getInt();
  }
  for (auto [name, field] : {std::pair{"ttg.global_scratch_memory_size",
                                       &metadata.globalScratchBytes},
                             std::pair{"ttg.global_scratch_memory_alignment",
                                       &metadata.globalScratchAlign}})
    if (auto attr = module->getAttrOfType<IntegerAttr>(name))
      *field = attr.getInt();
  metadata.arch = arch.name;
  metadata.ptxVersion = ptxVersionString();
  return metadata;
}

void Compiler::Impl::printLlvmAfter(llvm::StringRef what,
                                    const llvm::Module &module) {
  *options.irStream << "; *** LLVM IR after " << what << " ***\n"
                    << printLlvmIr(module);
}

//===----------------------------------------------------------------------===//
// Compiler
//===----------------------------------------------------------------------===//

Compiler::Compiler(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Compiler::~Compiler() = default;

const CompilerOptions &Compiler::options() const { return impl->options; }

llvm::Expected<std::unique_ptr<Compiler>>
Compiler::create(const CompilerOptions &options) {
  std::optional<GpuArch> arch = GpuArch::parse(options.arch.value_or("sm_90"));
  if (!arch)
    return llvm::createStringError("unknown arch '" + *options.arch +
                                   "' (expected sm_80, sm_90 or sm_90a)");
  if (options.numWarps && !isValidNumWarps(*options.numWarps))
    return llvm::createStringError(
        "num-warps must be a power of two in 1..32, got " +
        std::to_string(*options.numWarps));
  if (options.numStages < 1 || options.numStages > 16)
    return llvm::createStringError("num-stages must be in 1..16, got " +
                                   std::to_string(options.numStages));
  if (options.optLevel > 3)
    return llvm::createStringError("optimisation level must be 0..3, got " +
                                   std::to_string(options.optLevel));
  if (options.metadata && options.emit == EmitKind::Ttgir)
    return llvm::createStringError(
        "metadata needs an emit stage at or after llvm-mlir");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerLlvmTranslations(registry);
  auto impl = std::make_unique<Impl>(options, registry);
  impl->defaultArch = *arch;
  // Printing the whole module after each pass needs one thread.
  if (options.printAfterAll)
    impl->context.disableMultithreading();
  // The location says where; a dump of the op (often the whole module) after
  // every error would bury the message.
  impl->context.printOpOnDiagnostic(false);
  if (options.timing) {
    impl->timing.setEnabled(true);
    impl->timing.setOutput(createOutputStrategy(
        DefaultTimingManager::OutputFormat::Text, *options.timingStream));
  }
  impl->buildPassManagers();
  return std::unique_ptr<Compiler>(new Compiler(std::move(impl)));
}

void Compiler::printTiming() {
  if (!impl->options.timing)
    return;
  // Printing clears the timers, which the pass managers' instrumentation
  // refers to: drop them first; the next compile builds them again.
  impl->ttirToTtgir.reset();
  impl->ttgirToLlvm.reset();
  impl->rootTiming = TimingScope();
  impl->timing.print();
}

llvm::Expected<CompileResult> Compiler::compile(llvm::StringRef sourceText,
                                                llvm::StringRef bufferName) {
  std::optional<InputKind> kind = inputKindFromFileName(bufferName);
  if (!kind)
    return llvm::make_error<CompileError>(
        "unknown input kind for '" + bufferName.str() +
            "' (expected .ttir, .ttgir or .mlir)",
        "");
  return compile(sourceText, bufferName, *kind);
}

llvm::Expected<CompileResult> Compiler::compile(llvm::StringRef sourceText,
                                                llvm::StringRef bufferName,
                                                InputKind kind) {
  Impl &self = *impl;
  const CompilerOptions &options = self.options;
  if (!self.ttirToTtgir)
    self.buildPassManagers();

  // Every diagnostic of this compile, located in the source buffer.
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(sourceText, bufferName),
      llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &self.context, diagStream);
  auto fail = [&](const llvm::Twine &summary) -> llvm::Error {
    return llvm::make_error<CompileError>(summary.str(), diagnostics);
  };
  auto failWith = [&](llvm::Error error) -> llvm::Error {
    return fail(llvm::toString(std::move(error)));
  };

  CompileResult result;
  result.emit = options.emit;
  auto printModule = [&](ModuleOp module) {
    llvm::raw_string_ostream os(result.output);
    module.print(os);
  };

  OwningOpRef<ModuleOp> module;
  {
    TimingScope scope = self.rootTiming.nest("parse");
    // Verified below, so that a verifier error gets its own summary.
    if (succeeded(checkNesting(sourceText, bufferName, &self.context)))
      module = parseSourceFile<ModuleOp>(
          sourceMgr, ParserConfig(&self.context, /*verifyAfterParse=*/false));
  }
  if (!module)
    return fail("cannot parse " + bufferName);
  if (failed(verify(*module)))
    return fail(bufferName + " is invalid IR");
  if (kind == InputKind::Mlir) {
    FailureOr<InputKind> detected = inputKindFromContent(*module);
    if (failed(detected))
      return fail("cannot tell what kind of IR " + bufferName + " holds");
    kind = *detected;
  }

  if (kind == InputKind::LlvmMlir && options.emit == EmitKind::Ttgir)
    return fail("cannot emit ttgir from an LLVM-dialect input");
  // Ops tgpu reads but cannot compile stop here, before any pass meets them
  // (a TTGIR input printed back as TTGIR runs no pass).
  bool runsPasses =
      kind == InputKind::Ttir ||
      (kind == InputKind::Ttgir && options.emit != EmitKind::Ttgir);
  if (runsPasses &&
      failed(checkOpsSupported(*module,
                               /*ttgirPassesFollow=*/kind == InputKind::Ttir)))
    return fail(bufferName + " uses an op tgpu cannot compile yet");

  if (kind == InputKind::Ttir) {
    if (failed(self.ttirToTtgir->run(*module)))
      return fail("the TTIR -> TTGIR passes failed");
    if (!options.verifyEach && failed(verify(*module)))
      return fail("the TTIR -> TTGIR passes produced invalid IR");
  }

  GpuArch arch;
  int numWarps = 0;
  if (failed(self.resolveArchAndWarps(*module, arch, numWarps)))
    return fail("inconsistent target options");

  if (options.emit == EmitKind::Ttgir) {
    printModule(*module);
    result.diagnostics = diagnostics;
    return std::move(result);
  }

  std::map<unsigned, TmaBox> descriptors;
  if (options.metadata && kind != InputKind::LlvmMlir) {
    auto found = describeDescriptorParams(*module);
    if (failed(found))
      return fail("cannot describe the kernel's tensor descriptors");
    descriptors = std::move(*found);
  }

  if (kind != InputKind::LlvmMlir) {
    if (failed(self.ttgirToLlvm->run(*module)))
      return fail("the TTGIR -> LLVM dialect passes failed");
    if (!options.verifyEach && failed(verify(*module)))
      return fail("the TTGIR -> LLVM dialect passes produced invalid IR");
  }

  if (options.metadata) {
    FailureOr<KernelMetadata> metadata =
        self.describeKernel(*module, arch, numWarps, descriptors);
    if (failed(metadata))
      return fail("cannot describe the kernel");
    result.metadata = std::move(*metadata);
  }

  if (options.emit == EmitKind::LlvmMlir) {
    printModule(*module);
    result.diagnostics = diagnostics;
    return std::move(result);
  }

  llvm::Expected<const PtxTarget *> target = self.targetFor(arch);
  if (!target)
    return failWith(target.takeError());

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  {
    TimingScope scope = self.rootTiming.nest("translate to LLVM IR");
    auto translated = (*target)->translate(*module, llvmContext);
    if (!translated)
      return failWith(translated.takeError());
    llvmModule = std::move(*translated);
  }
  if (usesLibdevice(*llvmModule)) {
    TimingScope scope = self.rootTiming.nest("link libdevice");
    if (llvm::Error error = linkLibdevice(
            *llvmModule, options.libdevicePath.value_or(defaultLibdevicePath())))
      return failWith(std::move(error));
  }
  if (options.printAfterAll)
    self.printLlvmAfter("translation", *llvmModule);

  {
    TimingScope scope =
        self.rootTiming.nest("LLVM O" + std::to_string(options.optLevel));
    if (llvm::Error error = (*target)->optimize(*llvmModule))
      return failWith(std::move(error));
  }
  if (options.printAfterAll)
    self.printLlvmAfter("O" + std::to_string(options.optLevel), *llvmModule);

  // Like Triton's kernel.asm['llir']: the LLVM IR after optimisation.
  if (options.emit == EmitKind::Llir) {
    result.output = printLlvmIr(*llvmModule);
    result.diagnostics = diagnostics;
    return std::move(result);
  }

  std::string ptx;
  {
    TimingScope scope = self.rootTiming.nest("PTX emission");
    auto emitted = (*target)->emitPtx(*llvmModule);
    if (!emitted)
      return failWith(emitted.takeError());
    ptx = std::move(*emitted);
  }
  if (options.emit == EmitKind::Ptx) {
    result.output = std::move(ptx);
    result.diagnostics = diagnostics;
    return std::move(result);
  }

  {
    TimingScope scope = self.rootTiming.nest("ptxas");
    auto cubin = assembleCubin(ptx, arch);
    if (!cubin)
      return failWith(cubin.takeError());
    result.output = std::move(*cubin);
  }
  result.diagnostics = diagnostics;
  return std::move(result);
}
