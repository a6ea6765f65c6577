#include "tgpu/Support/NestingLimit.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

namespace mlir::tgpu {

std::optional<NestingViolation> findExcessiveNesting(llvm::StringRef text,
                                                     unsigned limit) {
  unsigned depth = 0, line = 1;
  size_t lineStart = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    switch (c) {
    case '\n':
      ++line;
      lineStart = i + 1;
      break;
    case '"': // a string literal: brackets inside do not count
      for (++i; i < e && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      if (i < e && text[i] == '\n')
        --i; // let the newline count its line
      break;
    case '/':
      if (i + 1 < e && text[i + 1] == '/')
        while (i + 1 < e && text[i + 1] != '\n')
          ++i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > limit)
        return NestingViolation{i, line, unsigned(i - lineStart + 1),
                                "brackets nest deeper than " +
                                    std::to_string(limit) + " levels"};
      break;
    case '>':
      if (i > 0 && text[i - 1] == '-')
        break; // an arrow
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

LogicalResult checkNesting(llvm::StringRef text, llvm::StringRef bufferName,
                           MLIRContext *context, unsigned limit) {
  std::optional<NestingViolation> v = findExcessiveNesting(text, limit);
  if (!v)
    return success();
  emitError(FileLineColLoc::get(context, bufferName, v->line, v->column))
      << v->message;
  return failure();
}

} // namespace mlir::tgpu
