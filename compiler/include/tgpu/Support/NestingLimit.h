// MLIR's parser descends once per nested bracket and has no depth limit of
// its own: an input of a few ten thousand '[' (or '(' or '<') overflows the
// stack. Every tool and fuzz target that parses text the user gives it checks
// the nesting first and rejects deeper input with a located error, as a
// parser with a limit would (Triton's IR nests a few dozen deep at most).
#ifndef TGPU_SUPPORT_NESTINGLIMIT_H
#define TGPU_SUPPORT_NESTINGLIMIT_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>
#include <string>

namespace mlir::tgpu {

inline constexpr unsigned kMaxNestingDepth = 256;

struct NestingViolation {
  size_t offset;         // of the bracket that went one level too deep
  unsigned line, column; // 1-based
  std::string message;   // "brackets nest deeper than 256 levels"
};

// The first place where ( [ { < nest deeper than `limit` in MLIR assembly
// text, skipping string literals and // comments ('->' is no bracket).
std::optional<NestingViolation>
findExcessiveNesting(llvm::StringRef text, unsigned limit = kMaxNestingDepth);

// The same check, reported as an MLIR error at bufferName:line:col through
// the context's diagnostic handlers; failure() when the text nests too deep.
LogicalResult checkNesting(llvm::StringRef text, llvm::StringRef bufferName,
                           MLIRContext *context,
                           unsigned limit = kMaxNestingDepth);

} // namespace mlir::tgpu

#endif
