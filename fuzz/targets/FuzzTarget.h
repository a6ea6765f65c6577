// What every fuzz target shares: the finding it reports, the regression-file
// header, and the entry points the libFuzzer binary, the replay driver and
// tgpu-repro call.
//
// A target is a function from input bytes to an optional Finding. Bugs that
// crash (sanitizer reports, aborts, signals) are crashes; bugs that are wrong
// answers (a verifier failure after a pass, a difference between oracles, a
// rejected valid input) come back as a Finding, which the libFuzzer entry
// point prints and turns into an abort so libFuzzer saves the input.
#ifndef TGPU_FUZZ_TARGETS_FUZZTARGET_H
#define TGPU_FUZZ_TARGETS_FUZZTARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tgpu::fuzz {

struct Finding {
  // A short class: "verifier", "miscompile", "crash", "round-trip", "law",
  // "accepted-malformed", "generator-invalid", "generator-ub", ...
  std::string kind;
  // What identifies this bug among others of its kind, for deduplication:
  // the failing pass and op, the law, the first line of a diagnostic with
  // numbers and SSA names blanked out.
  std::string signature;
  // Everything a reader needs: diagnostics, the first differing element with
  // both values, the input that shows it.
  std::string message;
};

using TargetFn = std::optional<Finding> (*)(llvm::ArrayRef<uint8_t> data);
// Runs a text reproducer (a regression file with input=ttir or input=ttgir,
// e.g. a program tgpu-reduce minimized).
using TextTargetFn = std::optional<Finding> (*)(llvm::StringRef inputKind,
                                                llvm::StringRef text);

struct TargetInfo {
  const char *name;        // "fuzz_linear_layout"
  const char *description; // one line for tgpu-repro --list and ci/fuzz.sh
  TargetFn run;
  TextTargetFn runText;    // nullptr: the target takes bytes only
};

// A copy of `data` that ends where a PROT_NONE page begins, so a read past
// the input's end faults at once, also in the uninstrumented libMLIR/libLLVM
// that ASan does not watch (MLIR's lexer, given a buffer without a NUL after
// it, reads on). The copy lives until the next call; single-threaded.
// When no guarded copy can be mapped, `data` itself comes back (unguarded).
llvm::ArrayRef<uint8_t> placeBeforeGuardPage(llvm::ArrayRef<uint8_t> data);

// Runs a regression file's payload the way its header says, from a copy
// placed before a guard page.
std::optional<Finding> runPayload(const TargetInfo &target,
                                  llvm::StringRef inputKind,
                                  llvm::StringRef payload);

// runPayload in a child process, so that what would end the caller ends
// only the child and comes back as a Finding: "crash" for a signal, an
// abort or a sanitizer's exit (signature: the line saying what failed --
// an assertion, an LLVM fatal error, a sanitizer summary -- else the
// signal), "timeout" past `timeoutSeconds` (0: no limit). The message
// holds the child's stderr (its stack trace). What tgpu-repro and
// tgpu-reduce run, so that crashes reproduce and reduce like wrong
// answers.
std::optional<Finding> runPayloadIsolated(const TargetInfo &target,
                                          llvm::StringRef inputKind,
                                          llvm::StringRef payload,
                                          unsigned timeoutSeconds);

// The header line of a file in corpus/regressions/<target>/:
//   // tgpu-regression: target=fuzz_pipeline kind=miscompile input=ttir signature=...
// The payload (the target's input) is everything after the first newline.
struct RegressionHeader {
  std::string target;
  std::string kind;
  std::string input; // "bytes" (raw target input), "ttir" or "ttgir" (text)
  std::string signature;
};

constexpr llvm::StringLiteral kRegressionPrefix = "// tgpu-regression:";

// Splits a file into its header and payload; no header: std::nullopt and the
// whole file is the payload.
std::optional<RegressionHeader> parseRegressionFile(llvm::StringRef file,
                                                    llvm::StringRef &payload);
std::string formatRegressionHeader(const RegressionHeader &header);

// Which target and input kind a reproducer file is for: the overrides when
// given, else its regression header, else its extension (.ttir / .ttgir are
// fuzz_pipeline's text inputs). `target` stays empty when nothing says;
// `input` defaults to "bytes". `payload` is the file minus its header.
struct Reproducer {
  std::string target, input;
  llvm::StringRef payload;
};
Reproducer identifyReproducer(llvm::StringRef path, llvm::StringRef file,
                              llvm::StringRef targetOverride,
                              llvm::StringRef inputOverride);

// Blanks out what varies between occurrences of one bug: numbers, SSA names,
// file:line:col prefixes; keeps at most `maxLength` characters.
std::string normalizeSignature(llvm::StringRef text, size_t maxLength = 160);

// Prints a finding in the form ci/fuzz.sh and tgpu-repro read:
//   ==tgpu-finding== target=<t> kind=<k> signature=<s>
//   <message>
void printFinding(llvm::StringRef target, const Finding &finding);

} // namespace tgpu::fuzz

#endif
