// toLinearLayout against Triton 3.6: (1) the differential data that Triton
// 3.6 computed on the GPU machine for random attributes and shapes
// (properties/data/*.jsonl, made by gen_triton_layouts.py, and for shared
// layouts by gen_triton_shared_layouts.py from the placement an H100 makes),
// case for case;
// (2) the expected layouts of Triton's own unit tests
// (LinearLayoutConversionsTest.cpp), written here as data.
#include "tgpu/Layout/Encodings.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <cctype>
#include <map>

using namespace tgpu::layout;

#ifndef TGPU_PROPERTIES_DATA_DIR
#error "TGPU_PROPERTIES_DATA_DIR must point at properties/data"
#endif

namespace {

using Bases = std::vector<std::vector<int32_t>>;

// Reads `name=[[..],..]` fields from Triton's layout reprs
// ("DistributedLinearLayout(reg_bases=[[1, 0]], ..., shape=[16, 64])") and
// from the short form used below ("register=[[1,0]] lane=[] ...").
class ReprParser {
public:
  explicit ReprParser(const std::string &s) : s(s) {}

  bool parse(std::map<std::string, Bases> &fields,
             std::vector<int64_t> &shape) {
    while (pos < s.size()) {
      if (!std::isalpha(static_cast<unsigned char>(s[pos])) && s[pos] != '_') {
        ++pos;
        continue;
      }
      size_t start = pos;
      while (pos < s.size() &&
             (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_'))
        ++pos;
      std::string name = s.substr(start, pos - start);
      if (pos >= s.size() || s[pos] != '=')
        continue;
      ++pos;
      if (name == "shape") {
        std::vector<int32_t> v;
        if (!parseList(v))
          return false;
        shape.assign(v.begin(), v.end());
        continue;
      }
      if (s[pos] != '[')
        continue; // e.g. alignment=16
      Bases b;
      if (!parseListOfLists(b))
        return false;
      static const std::map<std::string, std::string> rename = {
          {"reg_bases", "register"},
          {"lane_bases", "lane"},
          {"warp_bases", "warp"},
          {"block_bases", "block"},
          {"offset_bases", "offset"}};
      auto it = rename.find(name);
      fields[it == rename.end() ? name : it->second] = b;
    }
    return true;
  }

private:
  void skipSpace() {
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos])))
      ++pos;
  }
  bool parseList(std::vector<int32_t> &v) {
    skipSpace();
    if (s[pos] != '[')
      return false;
    ++pos;
    for (;;) {
      skipSpace();
      if (s[pos] == ']') {
        ++pos;
        return true;
      }
      size_t used = 0;
      v.push_back(std::stoi(s.substr(pos), &used));
      pos += used;
      skipSpace();
      if (s[pos] == ',')
        ++pos;
    }
  }
  bool parseListOfLists(Bases &b) {
    skipSpace();
    if (s[pos] != '[')
      return false;
    ++pos;
    for (;;) {
      skipSpace();
      if (s[pos] == ']') {
        ++pos;
        return true;
      }
      std::vector<int32_t> v;
      if (!parseList(v))
        return false;
      b.push_back(v);
      skipSpace();
      if (s[pos] == ',')
        ++pos;
    }
  }
  std::string s;
  size_t pos = 0;
};

// A distributed layout over register, lane, warp, block with out dims sized
// by `shape`.
LinearLayout expectedLayout(const std::string &repr, std::vector<int64_t> shape,
                            bool shared = false) {
  std::map<std::string, Bases> f;
  std::vector<int64_t> reprShape;
  ReprParser p(repr);
  EXPECT_TRUE(p.parse(f, reprShape)) << repr;
  if (shape.empty())
    shape = reprShape;
  std::vector<LinearLayout::DimBases> bases;
  for (const char *d : shared ? std::vector<const char *>{"offset", "block"}
                              : std::vector<const char *>{"register", "lane",
                                                          "warp", "block"})
    bases.push_back({d, std::vector<LinearLayout::Basis>(f[d].begin(), f[d].end())});
  std::vector<LinearLayout::NamedSize> outs;
  for (size_t d = 0; d < shape.size(); ++d)
    outs.push_back({"dim" + std::to_string(d), int32_t(shape[d])});
  auto l = LinearLayout::create(bases, outs, /*requireSurjective=*/false);
  if (!l) {
    ADD_FAILURE() << "bad expected layout " << repr << ": "
                  << llvm::toString(l.takeError());
    return LinearLayout();
  }
  return *l;
}

std::vector<unsigned> uints(const llvm::json::Value *v) {
  std::vector<unsigned> r;
  if (const llvm::json::Array *a = v ? v->getAsArray() : nullptr)
    for (const llvm::json::Value &x : *a)
      r.push_back(unsigned(x.getAsInteger().value_or(0)));
  return r;
}

std::vector<std::vector<int32_t>> bases(const llvm::json::Value *v) {
  std::vector<std::vector<int32_t>> r;
  if (const llvm::json::Array *a = v ? v->getAsArray() : nullptr)
    for (const llvm::json::Value &x : *a) {
      std::vector<int32_t> b;
      for (unsigned c : uints(&x))
        b.push_back(int32_t(c));
      r.push_back(b);
    }
  return r;
}

BlockedEncoding blockedFrom(const llvm::json::Object &p) {
  BlockedEncoding b;
  b.sizePerThread = uints(p.get("spt"));
  b.threadsPerWarp = uints(p.get("tpw"));
  b.warpsPerCTA = uints(p.get("wpc"));
  b.order = uints(p.get("order"));
  b.cga.blockBases = bases(p.get("cga"));
  return b;
}

NvidiaMmaEncoding mmaFrom(const llvm::json::Object &p) {
  NvidiaMmaEncoding m;
  std::vector<unsigned> v = uints(p.get("version"));
  m.versionMajor = v.at(0);
  m.versionMinor = v.at(1);
  m.warpsPerCTA = uints(p.get("wpc"));
  m.instrShape = uints(p.get("instr"));
  return m;
}

// The encoding a differential record describes, or none for kinds this test
// does not read.
std::optional<Encoding> encodingFrom(const std::string &kind,
                                     const llvm::json::Object &p) {
  if (kind == "blocked" || kind == "blocked_cga")
    return Encoding(blockedFrom(p));
  if (kind == "slice") {
    auto parent = std::make_shared<Encoding>(blockedFrom(p));
    return Encoding(SliceEncoding{unsigned(*p.getInteger("dim")), parent});
  }
  if (kind == "mma_v2" || kind == "mma_v3")
    return Encoding(mmaFrom(p));
  if (kind == "slice_mma_v2")
    return Encoding(SliceEncoding{unsigned(*p.getInteger("dim")),
                                  std::make_shared<Encoding>(mmaFrom(p))});
  if (kind == "dot_v2" || kind == "dot_v3")
    return Encoding(DotOperandEncoding{unsigned(*p.getInteger("opIdx")),
                                       std::make_shared<Encoding>(mmaFrom(p)),
                                       unsigned(*p.getInteger("kWidth"))});
  if (kind == "swizzled_shared")
    return Encoding(SwizzledSharedEncoding{unsigned(*p.getInteger("vec")),
                                           unsigned(*p.getInteger("perPhase")),
                                           unsigned(*p.getInteger("maxPhase")),
                                           uints(p.get("order")),
                                           {}});
  if (kind == "nvmma_shared")
    return Encoding(NVMMASharedEncoding{unsigned(*p.getInteger("swizzle")),
                                        *p.getBoolean("transposed"),
                                        unsigned(*p.getInteger("bits")),
                                        *p.getBoolean("fp4Padded"),
                                        unsigned(*p.getInteger("rank")),
                                        {}});
  if (kind == "dot_blocked")
    return Encoding(DotOperandEncoding{unsigned(*p.getInteger("opIdx")),
                                       std::make_shared<Encoding>(blockedFrom(p)),
                                       0});
  return std::nullopt;
}

struct Tally {
  int agree = 0, total = 0;
};

// Runs every record of one data file; returns per-kind tallies.
std::map<std::string, Tally> runDataFile(const std::string &file) {
  std::map<std::string, Tally> tally;
  auto buf = llvm::MemoryBuffer::getFile(std::string(TGPU_PROPERTIES_DATA_DIR) +
                                         "/" + file);
  if (!buf) {
    ADD_FAILURE() << "cannot read " << file;
    return tally;
  }
  llvm::StringRef rest = (*buf)->getBuffer();
  int reported = 0;
  while (!rest.empty()) {
    auto [line, tail] = rest.split('\n');
    rest = tail;
    if (line.trim().empty())
      continue;
    llvm::Expected<llvm::json::Value> v = llvm::json::parse(line);
    if (!v) {
      ADD_FAILURE() << file << ": " << llvm::toString(v.takeError());
      continue;
    }
    const llvm::json::Object *rec = v->getAsObject();
    if (!rec || !rec->getString("kind"))
      continue; // the header line lists the builder's methods
    std::string kind = rec->getString("kind")->str();
    std::string repr = rec->getString("ll")->str();
    std::vector<int64_t> shape;
    for (unsigned s : uints(rec->get("shape")))
      shape.push_back(s);
    Tally &t = tally[kind];
    if (kind == "linear_from_blocked") {
      // Triton read back its own linear layout at another shape.
      const llvm::json::Object *p = rec->getObject("params");
      std::vector<int64_t> shape0;
      for (unsigned s : uints(p->get("shape0")))
        shape0.push_back(s);
      LinearLayout ll0 = expectedLayout(p->getString("ll0")->str(), shape0);
      auto got = toLinearLayout(shape, Encoding(LinearEncoding{ll0}));
      ++t.total;
      if (got && *got == expectedLayout(repr, shape))
        ++t.agree;
      else if (reported++ < 10)
        ADD_FAILURE() << kind << " " << line.str() << "\n got "
                      << (got ? got->toString() : llvm::toString(got.takeError()));
      continue;
    }
    std::optional<Encoding> enc = encodingFrom(kind, *rec->getObject("params"));
    if (!enc) {
      ADD_FAILURE() << "unknown kind " << kind;
      continue;
    }
    ++t.total;
    auto got = toLinearLayout(shape, *enc);
    if (repr.rfind("ERROR", 0) == 0 || repr.rfind("ABORT", 0) == 0) {
      // Triton rejected it; so must we.
      if (!got) {
        llvm::consumeError(got.takeError());
        ++t.agree;
      } else if (reported++ < 10) {
        ADD_FAILURE() << kind << " Triton rejects but we accept: " << line.str();
      }
      continue;
    }
    bool shared = isSharedEncoding(*enc);
    if (rec->getBoolean("linear") && !*rec->getBoolean("linear")) {
      ADD_FAILURE() << kind << ": the layout Triton placed is not linear: "
                    << line.str();
      continue;
    }
    if (got && *got == expectedLayout(repr, shape, shared)) {
      ++t.agree;
    } else if (reported++ < 10) {
      ADD_FAILURE() << kind << " " << line.str() << "\n got "
                    << (got ? got->toString() : llvm::toString(got.takeError()))
                    << "\n expected "
                    << expectedLayout(repr, shape, shared).toString();
    }
  }
  return tally;
}

void expectAllAgree(const std::map<std::string, Tally> &tally) {
  int total = 0;
  for (auto &[kind, t] : tally) {
    std::printf("  %-20s %4d / %4d agree with Triton 3.6\n", kind.c_str(),
                t.agree, t.total);
    EXPECT_EQ(t.agree, t.total) << kind;
    total += t.total;
  }
  EXPECT_GT(total, 0);
}

TEST(TritonDifferential, BlockedAndSlice) {
  expectAllAgree(runDataFile("triton_layouts_blocked_slice.jsonl"));
}

TEST(TritonDifferential, MmaDotCgaLinear) {
  expectAllAgree(runDataFile("triton_layouts_random.jsonl"));
}

// Shared layouts as an H100 placed them (gen_triton_shared_layouts.py reads
// the buffer back), since Triton's builder cannot print them.
TEST(TritonDifferential, SharedPlacedOnTheGpu) {
  expectAllAgree(runDataFile("triton_shared_layouts.jsonl"));
}

//===----------------------------------------------------------------------===//
// Triton's unit-test expectations (LinearLayoutConversionsTest.cpp).
//===----------------------------------------------------------------------===//

// The CGA layout of Triton's legacy (CTAsPerCGA, CTASplitNum, CTAOrder)
// parameters: per dim in CTAOrder, identity bases for the split, then zero
// bases for the CTAs that repeat the data.
CGALayout cgaFromSplit(std::vector<unsigned> ctasPerCGA,
                       std::vector<unsigned> splitNum,
                       std::vector<unsigned> ctaOrder) {
  CGALayout c;
  unsigned rank = ctaOrder.size();
  for (unsigned d : ctaOrder) {
    for (unsigned s = 1; s < splitNum[d]; s *= 2) {
      std::vector<int32_t> b(rank, 0);
      b[d] = int32_t(s);
      c.blockBases.push_back(b);
    }
    for (unsigned r = 1; r < ctasPerCGA[d] / splitNum[d]; r *= 2)
      c.blockBases.push_back(std::vector<int32_t>(rank, 0));
  }
  return c;
}

BlockedEncoding blocked(std::vector<unsigned> spt, std::vector<unsigned> tpw,
                        std::vector<unsigned> wpc, std::vector<unsigned> cpg,
                        std::vector<unsigned> split, std::vector<unsigned> order,
                        std::vector<unsigned> ctaOrder) {
  return BlockedEncoding{spt, tpw, wpc, order, cgaFromSplit(cpg, split, ctaOrder)};
}

NvidiaMmaEncoding mma(unsigned major, std::vector<unsigned> instr,
                      std::vector<unsigned> wpc,
                      std::vector<unsigned> cpg = {},
                      std::vector<unsigned> split = {},
                      std::vector<unsigned> ctaOrder = {}) {
  NvidiaMmaEncoding m{major, 0, wpc, instr, {}};
  if (!cpg.empty())
    m.cga = cgaFromSplit(cpg, split, ctaOrder);
  return m;
}

Encoding dot(Encoding parent, unsigned opIdx, unsigned kWidth) {
  return DotOperandEncoding{opIdx, std::make_shared<Encoding>(std::move(parent)),
                            kWidth};
}

Encoding slice(Encoding parent, unsigned dim) {
  return SliceEncoding{dim, std::make_shared<Encoding>(std::move(parent))};
}

SwizzledSharedEncoding swizzled(unsigned vec, unsigned perPhase,
                                unsigned maxPhase, std::vector<unsigned> order) {
  return SwizzledSharedEncoding{vec, perPhase, maxPhase, order, {}};
}

NVMMASharedEncoding nvmma(unsigned swizzle, bool transposed, unsigned bits,
                          unsigned rank = 2, bool fp4Padded = false) {
  return NVMMASharedEncoding{swizzle, transposed, bits, fp4Padded, rank, {}};
}

void expectLayout(const Encoding &e, std::vector<int64_t> shape,
                  const std::string &expected) {
  bool shared = isSharedEncoding(e);
  auto got = toLinearLayout(shape, e);
  ASSERT_TRUE(bool(got)) << llvm::toString(got.takeError());
  LinearLayout want = expectedLayout(expected, shape, shared);
  EXPECT_EQ(*got, want) << "got" << got->toString() << "\nexpected"
                        << want.toString();
}

TEST(TritonUnitTests, Blocked) {
  expectLayout(blocked({1}, {4}, {4}, {1}, {1}, {0}, {0}), {16},
               "register=[] lane=[[1],[2]] warp=[[4],[8]] block=[]");
  expectLayout(blocked({1}, {4}, {4}, {4}, {2}, {0}, {0}), {32},
               "register=[] lane=[[1],[2]] warp=[[4],[8]] block=[[16],[0]]");
  expectLayout(blocked({8, 1}, {8, 4}, {1, 4}, {1, 2}, {1, 2}, {0, 1}, {1, 0}),
               {64, 128},
               "register=[[1,0],[2,0],[4,0],[0,16],[0,32]] "
               "lane=[[8,0],[16,0],[32,0],[0,1],[0,2]] warp=[[0,4],[0,8]] "
               "block=[[0,64]]");
  expectLayout(blocked({1}, {4}, {4}, {1}, {1}, {0}, {0}), {128},
               "register=[[16],[32],[64]] lane=[[1],[2]] warp=[[4],[8]] block=[]");
  expectLayout(blocked({1, 1}, {4, 1}, {4, 1}, {1, 1}, {1, 1}, {0, 1}, {1, 0}),
               {128, 1},
               "register=[[16,0],[32,0],[64,0]] lane=[[1,0],[2,0]] "
               "warp=[[4,0],[8,0]] block=[]");
  expectLayout(blocked({4}, {4}, {4}, {1}, {1}, {0}, {0}), {8},
               "register=[[1],[2]] lane=[[4],[0]] warp=[[0],[0]] block=[]");
  expectLayout(blocked({1, 1}, {32, 1}, {1, 8}, {1, 1}, {1, 1}, {0, 1}, {1, 0}),
               {1, 64},
               "register=[[0,8],[0,16],[0,32]] "
               "lane=[[0,0],[0,0],[0,0],[0,0],[0,0]] warp=[[0,1],[0,2],[0,4]] "
               "block=[]");
  expectLayout(blocked({2}, {4}, {1}, {1}, {1}, {0}, {0}), {32},
               "register=[[1],[8],[16]] lane=[[2],[4]] warp=[] block=[]");
  expectLayout(blocked({1, 4}, {8, 4}, {4, 1}, {2, 2}, {2, 1}, {1, 0}, {1, 0}),
               {128, 16},
               "register=[[0,1],[0,2],[32,0]] "
               "lane=[[0,4],[0,8],[1,0],[2,0],[4,0]] warp=[[8,0],[16,0]] "
               "block=[[0,0],[64,0]]");
  expectLayout(blocked({1}, {1}, {4}, {2}, {2}, {0}, {0}), {4},
               "register=[] lane=[] warp=[[1],[0]] block=[[2]]");
  expectLayout(blocked({1}, {1}, {1}, {4}, {4}, {0}, {0}), {2},
               "register=[] lane=[] warp=[] block=[[1],[0]]");
  expectLayout(blocked({8, 1}, {8, 4}, {1, 4}, {1, 2}, {1, 2}, {0, 1}, {0, 1}),
               {64, 1},
               "register=[[1,0],[2,0],[4,0]] "
               "lane=[[8,0],[16,0],[32,0],[0,0],[0,0]] warp=[[0,0],[0,0]] "
               "block=[[0,0]]");
  expectLayout(blocked({2, 2}, {4, 8}, {2, 2}, {2, 2}, {2, 2}, {1, 0}, {1, 0}),
               {1024, 128},
               "register=[[0,1],[1,0],[0,32],[16,0],[32,0],[64,0],[128,0],[256,0]] "
               "lane=[[0,2],[0,4],[0,8],[2,0],[4,0]] warp=[[0,16],[8,0]] "
               "block=[[0,64],[512,0]]");
  expectLayout(blocked({1, 1, 1, 4}, {2, 1, 1, 16}, {1, 2, 4, 1}, {1, 1, 1, 1},
                       {1, 1, 1, 1}, {3, 0, 1, 2}, {3, 2, 1, 0}),
               {2, 1, 1, 1},
               "register=[[0,0,0,0],[0,0,0,0]] "
               "lane=[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0],[1,0,0,0]] "
               "warp=[[0,0,0,0],[0,0,0,0],[0,0,0,0]] block=[]");
}

TEST(TritonUnitTests, Slice) {
  Encoding b = blocked({2, 4}, {4, 2}, {2, 2}, {2, 2}, {2, 2}, {1, 0}, {1, 0});
  expectLayout(slice(b, 0), {128},
               "register=[[1],[2],[16],[32]] lane=[[4],[0],[0]] "
               "warp=[[8],[0]] block=[[64],[0]]");
  expectLayout(slice(b, 1), {128},
               "register=[[1],[16],[32]] lane=[[0],[2],[4]] warp=[[0],[8]] "
               "block=[[0],[64]]");
  expectLayout(slice(blocked({1, 4}, {8, 4}, {2, 2}, {1, 1}, {1, 1}, {0, 1}, {1, 0}), 0),
               {1}, "register=[] lane=[[0],[0],[0],[0],[0]] warp=[[0],[0]] block=[]");
  expectLayout(slice(blocked({1, 1, 1, 4}, {2, 1, 1, 16}, {1, 2, 4, 1},
                             {1, 1, 1, 1}, {1, 1, 1, 1}, {3, 0, 1, 2},
                             {3, 2, 1, 0}),
                     3),
               {2, 1, 1},
               "register=[] lane=[[0,0,0],[0,0,0],[0,0,0],[0,0,0],[1,0,0]] "
               "warp=[[0,0,0],[0,0,0],[0,0,0]] block=[]");
  Encoding m = mma(2, {16, 8}, {2, 2}, {1, 1}, {1, 1}, {0, 1});
  expectLayout(slice(m, 0), {16},
               "register=[[1]] lane=[[2],[4],[0],[0],[0]] warp=[[8],[0]] block=[]");
  expectLayout(slice(m, 0), {128},
               "register=[[1],[16],[32],[64]] lane=[[2],[4],[0],[0],[0]] "
               "warp=[[8],[0]] block=[]");
  expectLayout(slice(m, 1), {8},
               "register=[] lane=[[0],[0],[1],[2],[4]] warp=[[0],[0]] block=[]");
  expectLayout(slice(m, 1), {128},
               "register=[[8],[32],[64]] lane=[[0],[0],[1],[2],[4]] "
               "warp=[[0],[16]] block=[]");
  expectLayout(slice(dot(mma(2, {16, 8}, {1, 1}), 0, 8), 1), {16},
               "register=[[8]] lane=[[0],[0],[1],[2],[4]] warp=[] block=[]");
  expectLayout(slice(dot(mma(3, {16, 16, 8}, {4, 1}), 0, 2), 0), {16},
               "register=[[1],[8]] lane=[[2],[4],[0],[0],[0]] warp=[[0],[0]] "
               "block=[]");
}

TEST(TritonUnitTests, NvidiaMma) {
  const char *lanes2 = "lane=[[0,2],[0,4],[1,0],[2,0],[4,0]] ";
  Encoding v2 = mma(2, {16, 8}, {1, 1}, {1, 1}, {1, 1}, {0, 1});
  expectLayout(v2, {16, 16},
               std::string("register=[[0,1],[8,0],[0,8]] ") + lanes2 +
                   "warp=[] block=[]");
  expectLayout(v2, {32, 32},
               std::string("register=[[0,1],[8,0],[0,8],[0,16],[16,0]] ") +
                   lanes2 + "warp=[] block=[]");
  expectLayout(v2, {16, 128},
               std::string("register=[[0,1],[8,0],[0,8],[0,16],[0,32],[0,64]] ") +
                   lanes2 + "warp=[] block=[]");
  Encoding cga = mma(2, {1, 16, 8}, {16, 1, 1}, {4, 2, 2}, {4, 2, 1}, {2, 1, 0});
  expectLayout(cga, {64, 128, 128},
               "register=[[0,0,1],[0,8,0],[0,0,8],[0,0,16],[0,0,32],[0,0,64],"
               "[0,16,0],[0,32,0]] "
               "lane=[[0,0,2],[0,0,4],[0,1,0],[0,2,0],[0,4,0]] "
               "warp=[[1,0,0],[2,0,0],[4,0,0],[8,0,0]] "
               "block=[[0,0,0],[0,64,0],[16,0,0],[32,0,0]]");
  expectLayout(cga, {1, 128, 128},
               "register=[[0,0,1],[0,8,0],[0,0,8],[0,0,16],[0,0,32],[0,0,64],"
               "[0,16,0],[0,32,0]] "
               "lane=[[0,0,2],[0,0,4],[0,1,0],[0,2,0],[0,4,0]] "
               "warp=[[0,0,0],[0,0,0],[0,0,0],[0,0,0]] "
               "block=[[0,0,0],[0,64,0],[0,0,0],[0,0,0]]");
  Encoding v3 = mma(3, {16, 16, 8}, {4, 1});
  expectLayout(v3, {64, 16},
               std::string("register=[[0,1],[8,0],[0,8]] ") + lanes2 +
                   "warp=[[16,0],[32,0]] block=[]");
  expectLayout(v3, {128, 16},
               std::string("register=[[0,1],[8,0],[0,8],[64,0]] ") + lanes2 +
                   "warp=[[16,0],[32,0]] block=[]");
  expectLayout(v3, {1024, 1024},
               std::string("register=[[0,1],[8,0],[0,8],[0,16],[0,32],[0,64],"
                           "[0,128],[0,256],[0,512],[64,0],[128,0],[256,0],"
                           "[512,0]] ") +
                   lanes2 + "warp=[[16,0],[32,0]] block=[]");
  Encoding v3w = mma(3, {16, 32, 16}, {4, 2});
  expectLayout(v3w, {64, 32},
               std::string("register=[[0,1],[8,0],[0,8],[0,16]] ") + lanes2 +
                   "warp=[[16,0],[32,0],[0,0]] block=[]");
  expectLayout(v3w, {128, 64},
               std::string("register=[[0,1],[8,0],[0,8],[0,16],[64,0]] ") +
                   lanes2 + "warp=[[16,0],[32,0],[0,32]] block=[]");
  Encoding v3x = mma(3, {16, 16, 8}, {4, 4});
  expectLayout(v3x, {32, 32},
               std::string("register=[[0,1],[8,0],[0,8]] ") + lanes2 +
                   "warp=[[16,0],[0,0],[0,16],[0,0]] block=[]");
  expectLayout(v3x, {128, 16},
               std::string("register=[[0,1],[8,0],[0,8],[64,0]] ") + lanes2 +
                   "warp=[[16,0],[32,0],[0,0],[0,0]] block=[]");
}

TEST(TritonUnitTests, DotOperand) {
  Encoding m1 = mma(2, {16, 8}, {1, 1});
  expectLayout(dot(m1, 0, 8), {16, 64},
               "register=[[0,1],[0,2],[0,4],[8,0],[0,32]] "
               "lane=[[0,8],[0,16],[1,0],[2,0],[4,0]] warp=[] block=[]");
  expectLayout(dot(m1, 1, 8), {64, 8},
               "register=[[1,0],[2,0],[4,0],[32,0]] "
               "lane=[[8,0],[16,0],[0,1],[0,2],[0,4]] warp=[] block=[]");
  Encoding m4 = mma(2, {16, 8}, {4, 1});
  expectLayout(dot(m4, 0, 8), {128, 128},
               "register=[[0,1],[0,2],[0,4],[8,0],[0,32],[0,64],[64,0]] "
               "lane=[[0,8],[0,16],[1,0],[2,0],[4,0]] warp=[[16,0],[32,0]] "
               "block=[]");
  expectLayout(dot(m4, 1, 8), {128, 64},
               "register=[[1,0],[2,0],[4,0],[32,0],[64,0],[0,8],[0,16],[0,32]] "
               "lane=[[8,0],[16,0],[0,1],[0,2],[0,4]] warp=[[0,0],[0,0]] "
               "block=[]");
  Encoding m3d = mma(2, {1, 16, 8}, {2, 4, 2});
  expectLayout(dot(m3d, 0, 8), {16, 128, 128},
               "register=[[0,0,1],[0,0,2],[0,0,4],[0,8,0],[0,0,32],[0,0,64],"
               "[0,64,0],[2,0,0],[4,0,0],[8,0,0]] "
               "lane=[[0,0,8],[0,0,16],[0,1,0],[0,2,0],[0,4,0]] "
               "warp=[[0,0,0],[0,16,0],[0,32,0],[1,0,0]] block=[]");
  expectLayout(dot(m3d, 1, 8), {8, 128, 64},
               "register=[[0,1,0],[0,2,0],[0,4,0],[0,32,0],[0,64,0],[0,0,16],"
               "[0,0,32],[2,0,0],[4,0,0]] "
               "lane=[[0,8,0],[0,16,0],[0,0,1],[0,0,2],[0,0,4]] "
               "warp=[[0,0,8],[0,0,0],[0,0,0],[1,0,0]] block=[]");
  expectLayout(dot(mma(3, {16, 16, 8}, {4, 1}), 0, 2), {128, 32},
               "register=[[0,1],[8,0],[0,8],[0,16],[64,0]] "
               "lane=[[0,2],[0,4],[1,0],[2,0],[4,0]] warp=[[16,0],[32,0]] "
               "block=[]");
  expectLayout(dot(mma(3, {16, 16, 8}, {4, 2}), 0, 4), {128, 64},
               "register=[[0,1],[0,2],[8,0],[0,16],[0,32],[64,0]] "
               "lane=[[0,4],[0,8],[1,0],[2,0],[4,0]] warp=[[16,0],[32,0],[0,0]] "
               "block=[]");
  Encoding m22 = mma(2, {16, 8}, {2, 2});
  expectLayout(dot(m22, 1, 8), {128, 32},
               "register=[[1,0],[2,0],[4,0],[32,0],[64,0],[0,16]] "
               "lane=[[8,0],[16,0],[0,1],[0,2],[0,4]] warp=[[0,8],[0,0]] "
               "block=[]");
  Encoding bp = blocked({2, 4}, {8, 4}, {2, 4}, {1, 1}, {1, 1}, {1, 0}, {1, 0});
  expectLayout(dot(bp, 0, 0), {32, 16},
               "register=[[0,1],[0,2],[0,4],[0,8],[1,0]] "
               "lane=[[0,0],[0,0],[2,0],[4,0],[8,0]] warp=[[0,0],[0,0],[16,0]] "
               "block=[]");
  expectLayout(dot(bp, 1, 0), {16, 64},
               "register=[[0,1],[0,2],[1,0],[2,0],[4,0],[8,0]] "
               "lane=[[0,4],[0,8],[0,0],[0,0],[0,0]] warp=[[0,16],[0,32],[0,0]] "
               "block=[]");
  Encoding bp3 = blocked({2, 2, 4}, {2, 4, 4}, {2, 2, 2}, {1, 1, 1}, {1, 1, 1},
                         {2, 1, 0}, {2, 1, 0});
  expectLayout(dot(bp3, 0, 0), {16, 32, 4},
               "register=[[0,0,1],[0,0,2],[0,1,0],[1,0,0],[0,16,0],[8,0,0]] "
               "lane=[[0,0,0],[0,0,0],[0,2,0],[0,4,0],[2,0,0]] "
               "warp=[[0,0,0],[0,8,0],[4,0,0]] block=[]");
  expectLayout(dot(bp3, 1, 0), {16, 4, 64},
               "register=[[0,0,1],[0,0,2],[0,1,0],[0,2,0],[1,0,0],[0,0,32],"
               "[8,0,0]] lane=[[0,0,4],[0,0,8],[0,0,0],[0,0,0],[2,0,0]] "
               "warp=[[0,0,16],[0,0,0],[4,0,0]] block=[]");
}

TEST(TritonUnitTests, SwizzledShared) {
  expectLayout(swizzled(1, 1, 1, {0}), {1024},
               "offset=[[1],[2],[4],[8],[16],[32],[64],[128],[256],[512]] block=[]");
  expectLayout(swizzled(1, 1, 1, {1, 0}), {128, 128},
               "offset=[[0,1],[0,2],[0,4],[0,8],[0,16],[0,32],[0,64],[1,0],"
               "[2,0],[4,0],[8,0],[16,0],[32,0],[64,0]] block=[]");
  expectLayout(swizzled(1, 1, 1, {0, 1}), {128, 128},
               "offset=[[1,0],[2,0],[4,0],[8,0],[16,0],[32,0],[64,0],[0,1],"
               "[0,2],[0,4],[0,8],[0,16],[0,32],[0,64]] block=[]");
  expectLayout(swizzled(1, 1, 4, {1, 0}), {32, 32},
               "offset=[[0,1],[0,2],[0,4],[0,8],[0,16],[1,1],[2,2],[4,0],[8,0],"
               "[16,0]] block=[]");
  expectLayout(swizzled(1, 2, 4, {1, 0}), {32, 32},
               "offset=[[0,1],[0,2],[0,4],[0,8],[0,16],[1,0],[2,1],[4,2],[8,0],"
               "[16,0]] block=[]");
  expectLayout(swizzled(2, 1, 4, {1, 0}), {4, 8},
               "offset=[[0,1],[0,2],[0,4],[1,2],[2,4]] block=[]");
  expectLayout(swizzled(2, 2, 4, {1, 0}), {32, 32},
               "offset=[[0,1],[0,2],[0,4],[0,8],[0,16],[1,0],[2,2],[4,4],[8,0],"
               "[16,0]] block=[]");
  expectLayout(swizzled(2, 2, 4, {3, 2, 1, 0}), {2, 4, 32, 32},
               "offset=[[0,0,0,1],[0,0,0,2],[0,0,0,4],[0,0,0,8],[0,0,0,16],"
               "[0,0,1,0],[0,0,2,2],[0,0,4,4],[0,0,8,0],[0,0,16,0],[0,1,0,0],"
               "[0,2,0,0],[1,0,0,0]] block=[]");
  expectLayout(swizzled(1, 1, 4, {0, 1}), {4, 8},
               "offset=[[1,0],[2,0],[1,1],[2,2],[0,4]] block=[]");
  expectLayout(swizzled(2, 2, 4, {1, 0}), {64, 1},
               "offset=[[1,0],[2,0],[4,0],[8,0],[16,0],[32,0]] block=[]");
}

TEST(TritonUnitTests, NVMMAShared) {
  expectLayout(nvmma(32, false, 16), {8, 16},
               "offset=[[0,1],[0,2],[0,4],[0,8],[1,0],[2,0],[4,8]] block=[]");
  expectLayout(nvmma(32, false, 16), {128, 16},
               "offset=[[0,1],[0,2],[0,4],[0,8],[1,0],[2,0],[4,8],[8,0],[16,0],"
               "[32,0],[64,0]] block=[]");
  expectLayout(nvmma(64, false, 16), {8, 32},
               "offset=[[0,1],[0,2],[0,4],[0,8],[0,16],[1,0],[2,8],[4,16]] block=[]");
  expectLayout(nvmma(128, false, 16), {8, 64},
               "offset=[[0,1],[0,2],[0,4],[0,8],[0,16],[0,32],[1,8],[2,16],"
               "[4,32]] block=[]");
  expectLayout(nvmma(128, false, 32), {8, 64},
               "offset=[[0,1],[0,2],[0,4],[0,8],[0,16],[1,4],[2,8],[4,16],"
               "[0,32]] block=[]");
  expectLayout(nvmma(128, true, 32), {128, 128},
               "offset=[[1,0],[2,0],[4,0],[8,0],[16,0],[4,1],[8,2],[16,4],"
               "[0,8],[0,16],[0,32],[0,64],[32,0],[64,0]] block=[]");
  expectLayout(nvmma(64, false, 32, 3), {32, 4, 64},
               "offset=[[0,0,1],[0,0,2],[0,0,4],[0,0,8],[0,1,0],[0,2,4],[1,0,8],"
               "[2,0,0],[4,0,0],[8,0,0],[16,0,0],[0,0,16],[0,0,32]] block=[]");
  expectLayout(nvmma(64, true, 32, 3), {64, 4, 32},
               "offset=[[1,0,0],[2,0,0],[4,0,0],[8,0,0],[0,0,4],[4,0,8],[8,0,16],"
               "[0,1,0],[0,2,0],[0,0,1],[0,0,2],[16,0,0],[32,0,0]] block=[]");
  expectLayout(nvmma(128, false, 8, 2, /*fp4Padded=*/true), {32, 64},
               "offset=[[0,1],[0,2],[0,4],[0,0],[0,8],[0,16],[0,32],[1,8],"
               "[2,16],[4,32],[8,0],[16,0]] block=[]");
}

} // namespace

namespace {
// Found by MalformedEncodingsAreErrorsNotCrashes: a rank-0 swizzled_shared
// layout read its order out of bounds.
TEST(EncodingExamples, RankZeroSwizzledSharedIsAnError) {
  auto l = toLinearLayout({}, Encoding(SwizzledSharedEncoding{1, 1, 1, {}, {}}));
  ASSERT_FALSE(bool(l));
  EXPECT_NE(llvm::toString(l.takeError()).find("rank"), std::string::npos);
}
} // namespace
