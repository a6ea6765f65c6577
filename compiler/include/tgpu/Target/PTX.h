// The back end after the LLVM dialect: LLVM-dialect module -> llvm::Module
// -> O3 -> PTX (NVPTX TargetMachine) -> cubin (ptxas).
#ifndef TGPU_TARGET_PTX_H
#define TGPU_TARGET_PTX_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class ModuleOp;
} // namespace mlir

namespace mlir::tgpu {

// The GPU architectures tgpu emits PTX for.
struct GpuArch {
  std::string name;  // "sm_80", "sm_90", "sm_90a": the NVPTX CPU and ptxas --gpu-name
  int capability;    // 80, 90: what ttg.target = "cuda:N" names

  // Accepts sm_80, sm_90 and sm_90a; std::nullopt for anything else.
  static std::optional<GpuArch> parse(llvm::StringRef name);
  // The arch a `ttg.target` string ("cuda:80", "cuda:90") names.
  static std::optional<GpuArch> fromTtgTarget(llvm::StringRef target);
  // "cuda:N", as convert-triton-to-tritongpu's `target` option spells it.
  std::string ttgTarget() const { return "cuda:" + std::to_string(capability); }
};

// The PTX ISA version every module is emitted with, as major * 10 + minor.
// 8.4 (CUDA 12.4): LLVM 22 supports it, the CUDA 13 ptxas accepts it, it has
// everything sm_90a needs (wgmma, setmaxnreg, TMA: 8.0), and every driver
// since R550 can JIT it; a newer ISA would only narrow the drivers that load
// our PTX.
inline constexpr unsigned kPtxVersion = 84;
std::string ptxVersionString(); // "8.4"

// Registers the builtin, LLVM and NVVM dialect translations to LLVM IR.
void registerLlvmTranslations(DialectRegistry &registry);

// One NVPTX TargetMachine for one arch and optimisation level, created once
// and reused for every kernel: creating it costs far more than the
// per-kernel work.
class PtxTarget {
public:
  // optLevel 0..3: LLVM's O0..O3 pipeline and code generator level (as
  // clang -O0..-O3); Triton compiles at 3.
  static llvm::Expected<std::unique_ptr<PtxTarget>>
  create(const GpuArch &arch, unsigned optLevel = 3);
  ~PtxTarget();

  const GpuArch &arch() const { return gpuArch; }

  // LLVM-dialect (+ NVVM) module -> LLVM IR with the NVPTX triple and data
  // layout set, verified. Translation diagnostics go to the MLIR context.
  llvm::Expected<std::unique_ptr<llvm::Module>>
  translate(ModuleOp module, llvm::LLVMContext &llvmContext) const;
  // LLVM's default pipeline at this target's level (new pass manager) with
  // the target's hooks.
  llvm::Error optimize(llvm::Module &module) const;
  unsigned optLevel() const { return level; }
  // PTX text for a module translated by `translate`.
  llvm::Expected<std::string> emitPtx(llvm::Module &module) const;

private:
  PtxTarget(GpuArch arch, unsigned optLevel,
            std::unique_ptr<llvm::TargetMachine> tm);
  GpuArch gpuArch;
  unsigned level;
  std::unique_ptr<llvm::TargetMachine> machine;
};

// The libdevice bitcode used when no path is given: $TGPU_LIBDEVICE if set,
// else /usr/local/cuda/nvvm/libdevice/libdevice.10.bc.
std::string defaultLibdevicePath();

// Whether `module` uses a libdevice function (a declared __nv_* function).
bool usesLibdevice(const llvm::Module &module);

// Links into `module` the libdevice functions it uses (and what they use)
// from the bitcode at `path`, internalized, and sets the nvvm-reflect-ftz
// module flag (0: no flush-to-zero) that NVVMReflect, in the optimisation
// pipeline (and NVPTX's code generator, which also runs it at O0),
// resolves libdevice's __nvvm_reflect calls with. The bitcode is parsed once
// per process and path; each distinct set of needed functions is cut from it
// once and cached. Errors name the path: a missing or unreadable file, or a
// __nv_ function libdevice does not have.
llvm::Error linkLibdevice(llvm::Module &module, llvm::StringRef path);

// Text LLVM IR of a module.
std::string printLlvmIr(const llvm::Module &module);

// The ptxas that assembleCubin runs: $TGPU_PTXAS if set, else
// /usr/local/cuda/bin/ptxas.
std::string ptxasPath();

// Runs `ptxas --gpu-name <arch> -O3` on the PTX (through temporary files) and
// returns the cubin bytes; ptxas's own messages come back in the error.
llvm::Expected<std::string> assembleCubin(llvm::StringRef ptx,
                                          const GpuArch &arch);

} // namespace mlir::tgpu

#endif
