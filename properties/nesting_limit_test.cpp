// findExcessiveNesting against a brute-force reference: the depth of every
// bracket recomputed from scratch over the text before it.
#include "tgpu/Support/NestingLimit.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

using mlir::tgpu::findExcessiveNesting;

namespace {

// The nesting depth after text[0..end): brackets outside strings and
// comments, '->' not closing, never below zero.
unsigned depthBefore(const std::string &text, size_t end) {
  unsigned depth = 0;
  bool inString = false, inComment = false;
  for (size_t i = 0; i < end; ++i) {
    char c = text[i];
    if (inComment) {
      inComment = c != '\n';
      continue;
    }
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"' || c == '\n')
        inString = false;
      continue;
    }
    if (c == '"')
      inString = true;
    else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/')
      inComment = true;
    else if (c == '(' || c == '[' || c == '{' || c == '<')
      ++depth;
    else if ((c == ')' || c == ']' || c == '}' || (c == '>' && !(i > 0 && text[i - 1] == '-'))) &&
             depth > 0)
      --depth;
  }
  return depth;
}

// Three levels: the blocked layout's <{[; brackets in strings, comments and
// the '->' of a function type do not count.
TEST(NestingLimit, AcceptsTritonShapedText) {
  EXPECT_FALSE(findExcessiveNesting(
      "#blocked = #ttg.blocked<{sizePerThread = [1, 4]}>\n"
      "tt.func @f(%a: !tt.ptr<f32>) -> tensor<4xf32> { // ((((\n"
      "  %0 = \"tt.x\"() {s = \"[[[[\"} : () -> i32\n}",
      3));
}

TEST(NestingLimit, ReportsTheFirstBracketTooDeep) {
  auto v = findExcessiveNesting("a\n  [[[[", 3);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->offset, 7u);
  EXPECT_EQ(v->line, 2u);
  EXPECT_EQ(v->column, 6u);
  EXPECT_EQ(v->message, "brackets nest deeper than 3 levels");
}

TEST(NestingLimit, AgreesWithRecomputationOnRandomText) {
  const char alphabet[] = "([{<>}])-\"\\/\nab ";
  std::mt19937 rng(7);
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    size_t n = rng() % 120;
    for (size_t i = 0; i < n; ++i)
      text += alphabet[rng() % (sizeof(alphabet) - 1)];
    unsigned limit = 1 + rng() % 6;
    // The reference: the first opening bracket (outside strings and
    // comments) whose depth after it exceeds the limit.
    std::optional<size_t> expected;
    for (size_t i = 0; i < text.size() && !expected; ++i)
      if (depthBefore(text, i + 1) > limit && depthBefore(text, i + 1) > depthBefore(text, i))
        expected = i;
    auto got = findExcessiveNesting(text, limit);
    ASSERT_EQ(got.has_value(), expected.has_value()) << text;
    if (got)
      ASSERT_EQ(got->offset, *expected) << text;
  }
}

} // namespace
