// fuzz_ttir_parser: bytes -> parse -> verify -> print -> reparse -> print,
// which must be a fixed point. Findings:
// - "silent-parse-failure": the parser rejected the input without an error;
// - "round-trip": a module that verified does not parse back from its own
//   printed form, or parses back and no longer verifies;
// - "unstable-print": printing the reparsed module gives different text;
// - "generic-round-trip": the generic form does not come back to the same
//   custom form.
// Crashes (asserts, sanitizer reports) are crashes. The context holds the
// dialects TTIR and TTGIR use: ours, arith, math, scf, cf, ub.
#include "fuzz/targets/FuzzTarget.h"
#include "fuzz/targets/Targets.h"

#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "tgpu/Support/NestingLimit.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ::tgpu::fuzz;

namespace {

MLIRContext &parserContext() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    registry.insert<triton::TritonDialect, triton::gpu::TritonGPUDialect,
                    triton::nvidia_gpu::TritonNvidiaGPUDialect, arith::ArithDialect,
                    math::MathDialect, scf::SCFDialect, cf::ControlFlowDialect,
                    ub::UBDialect>();
    auto *c = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    c->loadAllAvailableDialects();
    c->printOpOnDiagnostic(false);
    return c;
  }();
  return *ctx;
}

struct Parsed {
  OwningOpRef<ModuleOp> module;
  std::string errors; // error diagnostics, one per line
  unsigned numErrors = 0;
};

Parsed parseAndVerify(llvm::StringRef text, bool verifyAfterParse) {
  MLIRContext &ctx = parserContext();
  Parsed out;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error) {
      ++out.numErrors;
      if (out.errors.size() < 4000)
        out.errors += d.str() + "\n";
    }
    return success();
  });
  out.module = parseSourceString<ModuleOp>(
      text, ParserConfig(&ctx, verifyAfterParse));
  return out;
}

std::string print(ModuleOp module, bool generic) {
  std::string s;
  llvm::raw_string_ostream os(s);
  OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  module->print(os, flags);
  return s;
}

std::optional<Finding> run(llvm::ArrayRef<uint8_t> data) {
  // Past 64 KiB the parser's cost only slows the campaign down.
  if (data.size() > 65536)
    return std::nullopt;
  // MLIR's lexer finds the end of its buffer by the NUL after it
  // (parseSourceString does not copy), so the bytes go into a std::string.
  const std::string owned(reinterpret_cast<const char *>(data.data()), data.size());
  llvm::StringRef text(owned);
  // Deeper than the tools accept: rejected before MLIR's parser (which has
  // no depth limit and would overflow the stack), as tgpu-opt does.
  if (mlir::tgpu::findExcessiveNesting(text))
    return std::nullopt;
  Parsed first = parseAndVerify(text, /*verifyAfterParse=*/false);
  if (!first.module) {
    if (first.numErrors == 0)
      return Finding{"silent-parse-failure", "parser failed without a diagnostic",
                     "input:\n" + text.str()};
    return std::nullopt;
  }
  {
    // Verification failures are fine as long as they say so.
    MLIRContext &ctx = parserContext();
    unsigned errors = 0;
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      errors += d.getSeverity() == DiagnosticSeverity::Error;
      return success();
    });
    if (failed(verify(*first.module))) {
      if (errors == 0)
        return Finding{"silent-verifier-failure",
                       "verifier failed without a diagnostic",
                       "input:\n" + text.str()};
      return std::nullopt;
    }
  }
  std::string printed = print(*first.module, false);
  Parsed second = parseAndVerify(printed, /*verifyAfterParse=*/true);
  if (!second.module)
    return Finding{"round-trip", normalizeSignature(second.errors),
                   "the printed form of a valid module does not parse or "
                   "verify:\n" + second.errors + "\nprinted:\n" + printed +
                       "\ninput:\n" + text.str()};
  std::string reprinted = print(*second.module, false);
  if (reprinted != printed)
    return Finding{"unstable-print", "print(parse(print(m))) != print(m)",
                   "first print:\n" + printed + "\nsecond print:\n" + reprinted};
  std::string generic = print(*second.module, true);
  Parsed third = parseAndVerify(generic, /*verifyAfterParse=*/true);
  if (!third.module)
    return Finding{"generic-round-trip", normalizeSignature(third.errors),
                   "the generic form of a valid module does not parse or "
                   "verify:\n" + third.errors + "\ngeneric:\n" + generic};
  std::string fromGeneric = print(*third.module, false);
  if (fromGeneric != printed)
    return Finding{"generic-round-trip", "custom form changes through the generic form",
                   "custom:\n" + printed + "\nthrough generic:\n" + fromGeneric};
  return std::nullopt;
}

std::optional<Finding> runText(llvm::StringRef, llvm::StringRef text) {
  return run(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(text.data()),
                                     text.size()));
}

} // namespace

namespace tgpu::fuzz {
const TargetInfo &ttirParserTarget() {
  static const TargetInfo info{
      "fuzz_ttir_parser",
      "TTIR/TTGIR text: parse, verify, print, reparse must be a fixed point",
      run, runText};
  return info;
}
} // namespace tgpu::fuzz
