// Properties of the ttg layout attributes as text: random valid attributes
// (drawn by the fuzzers' layout generator, fuzz/layoutgen) print and re-parse
// to themselves; random malformed ones are rejected with a diagnostic and
// never crash; the legacy CTA fields read as the CGALayout bases computed
// here by a second, independent construction.
#include "fuzz/layoutgen/LayoutSpecs.h"

#include "tgpu/InitAllDialects.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

using namespace mlir;
using namespace mlir::triton::gpu;
namespace gen = ::tgpu::gen;

namespace {

class LayoutText : public ::testing::Test {
protected:
  LayoutText() {
    DialectRegistry registry;
    mlir::tgpu::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  // Parses `text`; returns null and records the diagnostics on failure.
  Attribute parse(const std::string &text) {
    diagnostics.clear();
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      diagnostics += diag.str() + "\n";
      return success();
    });
    return parseAttribute(text, &context);
  }

  static std::string print(Attribute attr) {
    std::string out;
    llvm::raw_string_ostream os(out);
    attr.print(os);
    return out;
  }

  template <typename T> static std::string list(const std::vector<T> &v) {
    std::ostringstream os;
    os << "[";
    for (size_t i = 0; i < v.size(); ++i)
      os << (i ? ", " : "") << v[i];
    os << "]";
    return os.str();
  }

  MLIRContext context;
  std::string diagnostics;
  std::mt19937 rng{20261122};
};

// The layout generator's choices from a fixed-seed generator: the same
// layouts on every run.
class RngChoices final : public gen::ChoiceSource {
public:
  explicit RngChoices(std::mt19937 &rng) : rng(rng) {}
  uint64_t below(uint64_t n) override { return n <= 1 ? 0 : rng() % n; }

private:
  std::mt19937 &rng;
};

// Splits 2^log2Total into `rank` powers of two.
std::vector<unsigned> splitPow2(std::mt19937 &rng, unsigned log2Total, unsigned rank) {
  std::vector<unsigned> parts(rank, 1);
  for (unsigned i = 0; i < log2Total; ++i)
    parts[rng() % rank] *= 2;
  return parts;
}

TEST_F(LayoutText, RandomBlockedLayoutsRoundTrip) {
  RngChoices choices(rng);
  for (int iter = 0; iter < 500; ++iter) {
    unsigned rank = 1 + choices.below(4);
    gen::LayoutSpec s =
        gen::draw::blocked(choices, rank, 1u << choices.below(4));
    std::string text =
        "#ttg.blocked<{sizePerThread = " + list(s.sizePerThread) +
        ", threadsPerWarp = " + list(s.threadsPerWarp) +
        ", warpsPerCTA = " + list(s.warpsPerCTA) +
        ", order = " + list(s.order) + "}>";
    Attribute attr = parse(text);
    ASSERT_TRUE(attr) << text << "\n" << diagnostics;
    EXPECT_EQ(print(attr), text);
    EXPECT_EQ(parse(print(attr)), attr);
  }
}

TEST_F(LayoutText, RandomSwizzledSharedRoundTripAndRejectZero) {
  RngChoices choices(rng);
  for (int iter = 0; iter < 300; ++iter) {
    gen::LayoutSpec s = gen::draw::swizzledShared(choices, 2);
    std::string text = "#ttg.swizzled_shared<{vec = " + std::to_string(s.vec) +
                       ", perPhase = " + std::to_string(s.perPhase) +
                       ", maxPhase = " + std::to_string(s.maxPhase) +
                       ", order = " + list(s.order) + "}>";
    Attribute attr = parse(text);
    ASSERT_TRUE(attr) << text << "\n" << diagnostics;
    EXPECT_EQ(print(attr), text);
  }
  // Each field at zero: a diagnostic that names the field, no crash.
  for (const char *field : {"vec", "perPhase", "maxPhase"}) {
    std::string text = "#ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 2, order = [1, 0]}>";
    size_t pos = text.find(std::string(field) + " = 2");
    text.replace(pos, std::string(field).size() + 4, std::string(field) + " = 0");
    EXPECT_FALSE(parse(text)) << text;
    EXPECT_NE(diagnostics.find(field), std::string::npos) << diagnostics;
  }
}

// The legacy (CTAsPerCGA, CTASplitNum, CTAOrder) triple describes CTA ids
// enumerated dims-in-CTAOrder; within a dim the low log2(split) bits choose a
// tile and the rest repeat it. Build the expected bases by enumerating CTA ids
// and reading off the tile each power-of-two id lands on.
TEST_F(LayoutText, LegacyCTAFieldsMatchEnumeratedBases) {
  for (int iter = 0; iter < 200; ++iter) {
    unsigned rank = 1 + rng() % 3;
    std::vector<unsigned> perCGA(rank), split(rank), order(rank);
    for (unsigned d = 0; d < rank; ++d) {
      perCGA[d] = 1u << (rng() % 3);
      split[d] = perCGA[d] >> (rng() % 2 ? 0 : (perCGA[d] > 1 ? 1 : 0));
      order[d] = d;
    }
    std::shuffle(order.begin(), order.end(), rng);
    unsigned total = 1;
    for (unsigned n : perCGA)
      total *= n;
    std::vector<std::vector<int>> expected;
    for (unsigned id = 1; id < total; id <<= 1) {
      std::vector<int> tile(rank, 0);
      unsigned rest = id;
      for (unsigned d : order) {
        unsigned local = rest % perCGA[d];
        rest /= perCGA[d];
        tile[d] = static_cast<int>(local % split[d]);
      }
      expected.push_back(tile);
    }
    std::string ones = list(std::vector<unsigned>(rank, 1));
    std::string text = "#ttg.blocked<{sizePerThread = " + ones + ", threadsPerWarp = " +
                       list(splitPow2(rng, 5, rank)) + ", warpsPerCTA = " + ones +
                       ", order = " + list(order) + ", CTAsPerCGA = " + list(perCGA) +
                       ", CTASplitNum = " + list(split) + ", CTAOrder = " + list(order) + "}>";
    auto attr = dyn_cast_or_null<BlockedEncodingAttr>(parse(text));
    ASSERT_TRUE(attr) << text << "\n" << diagnostics;
    ArrayRef<int32_t> bases = attr.getCgaBases();
    ASSERT_EQ(bases.size(), expected.size() * rank) << text;
    for (size_t b = 0; b < expected.size(); ++b)
      for (unsigned d = 0; d < rank; ++d)
        EXPECT_EQ(bases[b * rank + d], expected[b][d]) << text << " basis " << b;
  }
}

TEST_F(LayoutText, MalformedFieldsAreDiagnosedNotFatal) {
  const char *cases[] = {
      "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = "
      "[4]}>",
      "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = "
      "[4], order = [1]}>",
      "#ttg.blocked<{sizePerThread = [99999999999], threadsPerWarp = [32], "
      "warpsPerCTA = [4], "
      "order = [0]}>",
      "#ttg.blocked<{sizePerThread = [[1]], threadsPerWarp = [32], warpsPerCTA "
      "= [4], order = [0]}>",
      "#ttg.blocked<{}>",
      "#ttg.blocked<>",
      "#ttg.blocked",
      "#ttg.slice<{dim = 0}>",
      "#ttg.slice<{dim = 0, parent = #ttg.shared_memory}>",
      "#ttg.dot_op<{opIdx = 0, parent = #ttg.dot_op<{opIdx = 0, parent = 1}>}>",
      // The version and instrShape are checked where a tensor has the layout;
      // the attribute itself needs warps in powers of two.
      "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [3, "
      "1], instrShape = []}>",
      "#ttg.linear<{register = [[1, 0], [1]], lane = [], warp = [], block = "
      "[]}>",
      "#ttg.linear<{register = [[-1]], lane = [], warp = [], block = []}>",
      "#ttg.shared_linear<{offset = []}, alignment = 16>",
      "#ttg.shared_linear<{offset = [[1]]}, alignment = 0>",
      "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = 1, "
      "elementBitWidth = 16}>",
      "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
      "elementBitWidth = 16, "
      "rank = 0}>",
  };
  for (const char *text : cases) {
    EXPECT_FALSE(parse(text)) << text;
    EXPECT_FALSE(diagnostics.empty()) << text;
  }
}

} // namespace
