// fuzz_ttgir_mutate: TTIR/TTGIR text with a launch (tgpu.launch) in, through
// the same per-pass differential as fuzz_pipeline's text inputs. Its
// libFuzzer binary mutates inputs structurally (MutatorEntry.cpp,
// fuzz/mutator/IrMutator.h) rather than byte by byte, so the inputs are
// valid programs the generator cannot write: a mutant the CPU reference
// rejects (undefined behaviour, a runaway loop, an op it lacks) or that does
// not parse is dropped, not reported, and for the others the reference's
// answer on the mutant is the truth every pass must keep.
#include "fuzz/targets/FuzzTarget.h"
#include "fuzz/targets/Targets.h"

#include "fuzz/generator/Generator.h"
#include "fuzz/mutator/IrMutator.h"
#include "oracles/cpu/Interpreter.h"
#include "oracles/cpu/RunArgs.h"
#include "tgpu/Support/NestingLimit.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/Error.h"

#include <string>

namespace tgpu::fuzz {
namespace {

mlir::MLIRContext &context() { return mutate::mutationContext(); }

// "ttir" or "ttgir" when the text is a program the reference runs without
// complaint under its own launch; nullopt for anything to drop.
std::optional<std::string> runnableKind(llvm::StringRef text) {
  if (mlir::tgpu::findExcessiveNesting(text))
    return std::nullopt;
  mlir::ScopedDiagnosticHandler quiet(
      &context(), [](mlir::Diagnostic &) { return mlir::success(); });
  // MLIR's lexer reads on past a buffer without a NUL after it; the input
  // ends at a guard page (placeBeforeGuardPage), so parse a terminated copy.
  std::string owned = text.str();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(owned,
                                              mlir::ParserConfig(&context()));
  if (!module)
    return std::nullopt;
  std::string launch = gen::launchOf(*module), why;
  cpu::LaunchSpec spec;
  std::vector<cpu::KernelArg> args;
  if (launch.empty() || !cpu::LaunchSpec::parse(launch, spec, why) ||
      !spec.makeArgs(args, why))
    return std::nullopt;
  cpu::RunOptions options;
  options.grid = spec.grid;
  options.numWarps = spec.numWarps;
  options.stepBudget = uint64_t(1) << 26;
  options.print = [](const std::string &) {};
  if (llvm::Error e = cpu::runKernel(*module, "", args, options)) {
    llvm::consumeError(std::move(e));
    return std::nullopt;
  }
  return std::string((*module)->hasAttr("ttg.num-warps") ? "ttgir" : "ttir");
}

std::optional<Finding> runMutantText(llvm::StringRef, llvm::StringRef text) {
  std::optional<std::string> kind = runnableKind(text);
  if (!kind)
    return std::nullopt;
  std::optional<Finding> finding = pipelineTarget().runText(*kind, text);
  // A mutant may ask for what the lowering refuses with a located error (a
  // cp.async of 2 bytes from pointers a mutation made less contiguous):
  // tgpu behaving as it should on input it does not take, not a finding.
  // Wrong results, invalid IR after a pass, failing passes and crashes stay.
  if (finding && finding->kind == "lowering")
    return std::nullopt;
  return finding;
}

std::optional<Finding> runMutant(llvm::ArrayRef<uint8_t> data) {
  return runMutantText(
      "", llvm::StringRef(reinterpret_cast<const char *>(data.data()),
                          data.size()));
}

} // namespace

const TargetInfo &mutateTarget() {
  static const TargetInfo info{"fuzz_ttgir_mutate",
                               "TTIR/TTGIR mutated op by op, the reference's "
                               "answer on each mutant kept by every pass",
                               runMutant, runMutantText};
  return info;
}

} // namespace tgpu::fuzz
