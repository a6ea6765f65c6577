// A reusable compiler: TTIR / TTGIR / LLVM-dialect text in, TTGIR, LLVM
// dialect, LLVM IR, PTX or cubin out. The context, the pass managers and the
// NVPTX target machines are made once, so compiling many kernels in one
// process costs only the per-kernel work.
#ifndef TGPU_PIPELINE_COMPILER_H
#define TGPU_PIPELINE_COMPILER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tgpu {

// Mlir: any of the other three, told apart by content once parsed: a tt.func
// module whose tensors have layouts (or, without tensors, that carries
// ttg.num-warps) is TTGIR, other tt.func modules are TTIR, llvm.func modules
// the LLVM dialect.
enum class InputKind { Ttir, Ttgir, LlvmMlir, Mlir };
enum class EmitKind { Ttgir, LlvmMlir, Llir, Ptx, Cubin };

// .ttir, .ttgir, .mlir (any of them, by content); std::nullopt otherwise.
std::optional<InputKind> inputKindFromFileName(llvm::StringRef fileName);
// ttgir, llvm-mlir, llir, ptx, cubin; std::nullopt otherwise.
std::optional<EmitKind> parseEmitKind(llvm::StringRef name);

struct CompilerOptions {
  // sm_80, sm_90, sm_90a. Unset: the module's ttg.target for TTGIR and
  // LLVM-dialect input, else sm_90. Set and different from the module's
  // ttg.target: an error.
  std::optional<std::string> arch;
  // A power of two in 1..32. Unset: the module's ttg.num-warps for TTGIR and
  // LLVM-dialect input, else 4. Set and different: an error.
  std::optional<int> numWarps;
  // tt.dot on tensor cores (mma.sync) when its types and shape allow
  // (TtgirPipelineOptions::tensorCores).
  bool tensorCores = true;
  // Software pipelining stages for TTIR loops that feed dots
  // (TtgirPipelineOptions::numStages; Triton's default). TTGIR and LLVM
  // input is compiled as it is.
  int numStages = 3;
  EmitKind emit = EmitKind::Ptx;
  // The libdevice bitcode linked into kernels that call __nv_* functions
  // (math ops without a PTX instruction, tt.extern_elementwise). Unset:
  // $TGPU_LIBDEVICE, else CUDA's /usr/local/cuda/nvvm/libdevice/libdevice.10.bc.
  // Read only when a kernel needs it.
  std::optional<std::string> libdevicePath;
  // Also describe the kernel (CompileResult::metadata); needs an emit stage
  // at or after llvm-mlir and exactly one kernel in the module.
  bool metadata = false;
  // LLVM's optimisation pipeline and code generator level, 0..3 (clang's
  // -O0..-O3); 3 is what Triton uses. Lower levels compile faster (the
  // fuzzer's choice) and keep every MLIR pass.
  unsigned optLevel = 3;
  // Verify after every pass; otherwise the module is verified once per stage.
  bool verifyEach = false;
  // Print the IR after every MLIR pass and the LLVM IR after translation and
  // after optimisation to `irStream` (MLIR multithreading is turned off for this).
  bool printAfterAll = false;
  llvm::raw_ostream *irStream = &llvm::errs();
  // Time every pass and back-end phase; Compiler::printTiming reports them.
  bool timing = false;
  llvm::raw_ostream *timingStream = &llvm::errs();
};

struct KernelArgument {
  std::string type;  // LLVM IR spelling: "ptr addrspace(1)", "i32", "float"
  bool isPointer = false;
  unsigned addressSpace = 0; // pointers only
  // A parameter passed by value (a CUtensorMap: 128 bytes, 64-byte
  // aligned): `type` is then the value's ("[128 x i8]"), not a pointer.
  int64_t byValueBytes = 0;
  int64_t byValueAlign = 0;
  // A tensor descriptor: how the launcher must encode its CUtensorMap for
  // the kernel's TMA copies (the box per dim, outermost first; the swizzle
  // in bytes, 0 for none; the element size). Empty box: not a descriptor.
  std::vector<int32_t> tmaBox;
  int tmaSwizzleBytes = 0;
  int tmaElemBytes = 0;
};

struct KernelMetadata {
  std::string name; // the public llvm.func with nvvm.kernel
  std::vector<KernelArgument> arguments;
  int numWarps = 0;
  int numStages = 0; // CompileOptions::numStages
  int threadsPerCta = 0;
  int64_t sharedBytes = 0; // module attribute ttg.shared, 0 when absent
  // Global scratch each program needs (ttg.global_scratch_memory_size and
  // _alignment); when nonzero, the kernel's last parameter is the grid's
  // scratch, these bytes per program in linear program order.
  int64_t globalScratchBytes = 0;
  int64_t globalScratchAlign = 0;
  std::string arch;
  std::string ptxVersion; // "8.4"
};

// The artifact of the requested stage: IR or PTX text, or cubin bytes.
struct CompileResult {
  EmitKind emit = EmitKind::Ptx;
  std::string output;
  std::optional<KernelMetadata> metadata;
  // Warnings and remarks MLIR reported on the way (located), if any.
  std::string diagnostics;
};

// The kernel description tgpu-compile --metadata writes, as JSON text.
std::string metadataToJson(const KernelMetadata &metadata);

// A failed compile: MLIR's located diagnostics (text as printed, may be empty)
// and a one-line summary of the stage that failed.
class CompileError : public llvm::ErrorInfo<CompileError> {
public:
  static char ID;
  CompileError(std::string summary, std::string diagnostics)
      : summary(std::move(summary)), diagnostics(std::move(diagnostics)) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

  std::string summary;
  std::string diagnostics;
};

class Compiler {
public:
  // Fails on options that no input could make valid (bad arch, num-warps).
  static llvm::Expected<std::unique_ptr<Compiler>>
  create(const CompilerOptions &options);
  ~Compiler();

  // Compiles one module; the input kind comes from the buffer name's
  // extension. A failure's message carries MLIR's located diagnostics.
  llvm::Expected<CompileResult> compile(llvm::StringRef sourceText,
                                        llvm::StringRef bufferName);
  llvm::Expected<CompileResult> compile(llvm::StringRef sourceText,
                                        llvm::StringRef bufferName,
                                        InputKind kind);

  // Prints and clears the timing gathered so far (options.timing).
  void printTiming();

  const CompilerOptions &options() const;

private:
  struct Impl;
  explicit Compiler(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace mlir::tgpu

#endif
