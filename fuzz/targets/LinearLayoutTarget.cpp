// fuzz_linear_layout: bytes -> a random sequence of LinearLayout operations,
// each result checked against the GF(2) matrix model of LinearLayoutModel.h
// and against algebraic laws.
//
// Every operation is run by both, and the model also decides whether the
// arguments are valid: an llvm::Error on valid arguments is
// "rejected-valid", success on invalid ones "accepted-invalid", any
// difference in dims, sizes or bases (compared with the packed words in the
// format LinearLayout.h documents, and read back through getBasis / apply /
// applyFlat), or a failed law, is "law".
//
// Inputs stay small (at most 8 named dims, a few bits each; results over 24
// bits are checked but not reused; 8 operations per input), so one input
// runs in microseconds; no MLIR.
#include "fuzz/targets/LinearLayoutRun.h"
#include "fuzz/targets/Targets.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace tgpu::layout;
using llvm::Expected;

namespace tgpu::fuzz::llfuzz {

//===----------------------------------------------------------------------===//
// Library <-> model
//===----------------------------------------------------------------------===//

std::vector<LinearLayout::DimBases> basesOf(const Model &m) {
  std::vector<LinearLayout::DimBases> bases;
  for (int i = 0; i < m.nIn; ++i) {
    std::vector<LinearLayout::Basis> bs;
    for (int bit = 0; bit < m.in[i].log2; ++bit) {
      LinearLayout::Basis b;
      for (int k = 0; k < m.nOut; ++k)
        b.push_back(int32_t(m.coord(m.inFirst(i) + bit, k)));
      bs.push_back(std::move(b));
    }
    bases.push_back({kNames[m.in[i].name], std::move(bs)});
  }
  return bases;
}

std::vector<LinearLayout::NamedSize> outDimsOf(const Model &m) {
  std::vector<LinearLayout::NamedSize> outs;
  for (int k = 0; k < m.nOut; ++k)
    outs.push_back({kNames[m.out[k].name], int32_t(1) << m.out[k].log2});
  return outs;
}

// The bases are compared as packed words, whose format the header documents:
// the output bits side by side, first out dim lowest, which is the order of
// the model's rows, so a word is a column of the model's matrix.
// checkEvaluation reads coordinates back through the public getBasis / apply.
std::optional<std::string> difference(const LinearLayout &l, const Model &m) {
  if (l.getNumInDims() != m.nIn || l.getNumOutDims() != m.nOut)
    return std::string("number of dims");
  for (int i = 0; i < m.nIn; ++i) {
    const std::string &n = kNames[m.in[i].name];
    if (l.findIn(n) != i)
      return "in dim " + std::to_string(i) + " is not " + n;
    if (l.getInDimSizeLog2(n) != m.in[i].log2)
      return "size of in dim " + n;
  }
  for (int k = 0; k < m.nOut; ++k) {
    const std::string &n = kNames[m.out[k].name];
    if (l.findOut(n) != k)
      return "out dim " + std::to_string(k) + " is not " + n;
    if (l.getOutDimSizeLog2(n) != m.out[k].log2)
      return "size of out dim " + n;
  }
  if (l.getTotalInDimSizeLog2() != m.inBits() ||
      l.getTotalOutDimSizeLog2() != m.outBits())
    return std::string("total sizes");
  llvm::ArrayRef<uint64_t> words = l.getPackedBases();
  if (int(words.size()) != m.inBits())
    return std::string("number of bases");
  for (int i = 0; i < m.nIn; ++i)
    for (int bit = 0; bit < m.in[i].log2; ++bit)
      if (words[m.inFirst(i) + bit] != m.column(m.inFirst(i) + bit))
        return "basis " + kNames[m.in[i].name] + "=" +
               std::to_string(uint64_t(1) << bit);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Checking
//===----------------------------------------------------------------------===//

void Run::report(const char *kind, const std::string &what,
                 const std::string &detail) {
  if (finding)
    return;
  std::string msg = std::string("operation: ") + op + "\n" + what + "\n";
  for (int i = 0; i < numOperands; ++i)
    msg += "operand " + std::to_string(i) + ":" +
           operandList[i]->lib.toString() + "\n" +
           llmodel::dump(operandList[i]->model) + "\n";
  finding = Finding{kind, normalizeSignature(std::string(op) + ": " + what),
                    msg + detail};
}

LinearLayout Run::toLibrary(const Model &m) {
  Expected<LinearLayout> l =
      LinearLayout::create(basesOf(m), outDimsOf(m), false);
  if (!l) {
    report("rejected-valid",
           "create rejected a valid layout: " + llvm::toString(l.takeError()),
           llmodel::dump(m));
    return LinearLayout();
  }
  return std::move(*l);
}

std::optional<Entry> Run::check(Expected<LinearLayout> got,
                                const MaybeModel &want,
                                const std::string &why) {
  if (!got) {
    std::string msg = llvm::toString(got.takeError());
    if (want)
      report("rejected-valid", "rejected valid arguments: " + msg,
             "expected:\n" + llmodel::dump(*want));
    return std::nullopt;
  }
  if (!want) {
    report("accepted-invalid", "accepted invalid arguments (" + why + ")",
           "got:" + got->toString());
    return std::nullopt;
  }
  return compare(std::move(*got), *want);
}

std::optional<Entry> Run::checkOptional(std::optional<LinearLayout> got,
                                        const MaybeModel &want) {
  if (!got && want) {
    report("law", "returned nothing where a result exists",
           "expected:\n" + llmodel::dump(*want));
    return std::nullopt;
  }
  if (got && !want) {
    report("law", "returned a result where none exists",
           "got:" + got->toString());
    return std::nullopt;
  }
  if (!got)
    return std::nullopt;
  return compare(std::move(*got), *want);
}

std::optional<Entry> Run::compare(LinearLayout got, const Model &want) {
  if (std::optional<std::string> d = difference(got, want)) {
    report("law", "result differs from the model: " + *d,
           "got:" + got.toString() + "\nexpected:\n" + llmodel::dump(want));
    return std::nullopt;
  }
  checkEvaluation(got, want);
  if (failed())
    return std::nullopt;
  return Entry{std::move(got), want};
}

// applyFlat on every input when there are few, else on a sample; sometimes
// also one basis through getBasis and one input through the named apply.
// (The bases themselves were compared already; this covers the evaluation
// paths.)
void Run::checkEvaluation(const LinearLayout &l, const Model &m) {
  int n = m.inBits();
  uint64_t count = n <= 3 ? (uint64_t(1) << n) : 4;
  for (uint64_t t = 0; t < count; ++t) {
    uint64_t x = n <= 3 ? t : randomInput(n);
    uint64_t want = m.apply(x);
    uint64_t got = l.applyFlat(x);
    int outBits = m.outBits();
    if (outBits < 64 && got >> outBits) {
      report("law", "applyFlat sets bits above the out dims", l.toString());
      return;
    }
    if (got != want) {
      report("law", "applyFlat differs from the model",
             "input " + std::to_string(x) + ":" + l.toString() + "\n" +
                 llmodel::dump(m));
      return;
    }
  }
  if (rng() % 4)
    return;
  // One basis through getBasis.
  if (n > 0) {
    int i = rng() % m.nIn;
    if (m.in[i].log2 > 0) {
      int bit = rng() % m.in[i].log2;
      LinearLayout::Basis b = l.getBasis(kNames[m.in[i].name], bit);
      bool same = int(b.size()) == m.nOut;
      for (int k = 0; same && k < m.nOut; ++k)
        same = uint32_t(b[k]) == m.coord(m.inFirst(i) + bit, k);
      if (!same) {
        report("law", "getBasis differs from the model",
               l.toString() + "\n" + llmodel::dump(m));
        return;
      }
    }
  }
  // Named apply with the in dims in a rotated order (any order is allowed).
  uint64_t x = randomInput(n);
  std::vector<LinearLayout::NamedValue> values;
  int rot = m.nIn ? int(rng() % m.nIn) : 0;
  for (int a = 0; a < m.nIn; ++a) {
    int i = (a + rot) % m.nIn;
    values.push_back(
        {kNames[m.in[i].name],
         int32_t((x >> m.inFirst(i)) & ((uint64_t(1) << m.in[i].log2) - 1))});
  }
  uint64_t want = m.apply(x);
  Expected<std::vector<LinearLayout::NamedValue>> r = l.apply(values);
  if (!r) {
    report("rejected-valid",
           "apply rejected valid values: " + llvm::toString(r.takeError()),
           l.toString());
    return;
  }
  for (int k = 0; k < m.nOut; ++k)
    if (k >= int(r->size()) || (*r)[k].first != kNames[m.out[k].name] ||
        uint32_t((*r)[k].second) != m.outCoord(want, k)) {
      report("law", "apply differs from the model",
             l.toString() + "\n" + llmodel::dump(m));
      return;
    }
  // And invalid values: one out of range, one missing, or an unknown dim.
  if (m.nIn == 0)
    return;
  switch (rng() % 3) {
  case 0: {
    int i = rng() % m.nIn;
    values[(i - rot + m.nIn) % m.nIn].second =
        rng() % 2 ? -1 : int32_t(1) << m.in[i].log2;
    break;
  }
  case 1:
    values.pop_back();
    break;
  default:
    values.push_back({"nodim", 0});
    break;
  }
  Expected<std::vector<LinearLayout::NamedValue>> bad = l.apply(values);
  if (bad) {
    report("accepted-invalid", "apply accepted invalid values", l.toString());
    return;
  }
  llvm::consumeError(bad.takeError());
}

//===----------------------------------------------------------------------===//
// Random layouts and arguments
//===----------------------------------------------------------------------===//

void Run::randomDistinctNames(int n, uint8_t *out) {
  uint8_t perm[kNumNames];
  for (int i = 0; i < kNumNames; ++i)
    perm[i] = i;
  for (int i = 0; i < n; ++i) {
    int j = i + int(src.below(kNumNames - i));
    std::swap(perm[i], perm[j]);
    out[i] = perm[i];
  }
}

// Mostly a power of two up to 2^maxLog2; sometimes one that is not (0,
// negative, 3, 6, 2^31 - 1) so the library must refuse it.
int32_t Run::randomSize(int maxLog2) {
  if (src.chance(1, 16)) {
    static const int32_t bad[] = {0, -1, -4, 3, 6, 12, INT32_MAX, INT32_MIN};
    return bad[src.below(8)];
  }
  return int32_t(1) << src.below(maxLog2 + 1);
}

NameList Run::randomOrder(llvm::ArrayRef<uint8_t> names, bool allowDefects) {
  NameList r(names.begin(), names.end());
  for (size_t i = 0; i + 1 < r.size(); ++i)
    std::swap(r[i], r[i + src.below(r.size() - i)]);
  if (!allowDefects || !src.chance(1, 8))
    return r;
  switch (src.below(3)) {
  case 0:
    if (r.size() >= 2)
      r[1] = r[0];
    break;
  case 1:
    if (!r.empty())
      r.pop_back();
    break;
  default:
    if (!r.empty())
      r[src.below(r.size())] = randomName();
    else
      r.push_back(randomName());
    break;
  }
  return r;
}

// Random bases: zeros, powers of two and arbitrary values, mixed.
Model Run::randomModel(int maxDims, int maxLog2) {
  Model m;
  m.nIn = src.below(maxDims + 1);
  m.nOut = src.below(maxDims + 1);
  uint8_t names[kMaxDims];
  randomDistinctNames(m.nIn, names);
  for (int i = 0; i < m.nIn; ++i)
    m.in[i] = {names[i], uint8_t(src.below(maxLog2 + 1))};
  randomDistinctNames(m.nOut, names);
  for (int k = 0; k < m.nOut; ++k)
    m.out[k] = {names[k], uint8_t(src.below(maxLog2 + 1))};
  for (int j = 0, n = m.inBits(); j < n; ++j)
    for (int k = 0; k < m.nOut; ++k) {
      uint32_t size = uint32_t(1) << m.out[k].log2;
      switch (src.below(3)) {
      case 0:
        m.setCoord(j, k, 0);
        break;
      case 1:
        m.setCoord(j, k,
                   (uint32_t(1) << src.below(m.out[k].log2 + 1)) & (size - 1));
        break;
      default:
        m.setCoord(j, k, uint32_t(src.below(size)));
        break;
      }
    }
  return m;
}

// A layout onto `outs`: each out bit given to a distinct random in bit, plus
// `extraBits` in bits that are zero or copies (broadcast), then random XOR
// mixing of images, which keeps their span (and so surjectivity).
Model Run::randomSurjective(llvm::ArrayRef<Dim> outs, int extraBits) {
  Model m;
  m.nOut = outs.size();
  std::copy(outs.begin(), outs.end(), m.out);
  int nOutBits = m.outBits();
  int n = nOutBits + extraBits;
  // Split the in bits over 1..3 in dims with random names (more when
  // needed: a dim holds at most 30 bits).
  m.nIn = std::max<int>(n ? 1 + src.below(3) : src.below(2),
                        (n + kMaxDimLog2 - 1) / kMaxDimLog2);
  uint8_t names[kMaxDims];
  randomDistinctNames(m.nIn, names);
  for (int i = 0; i < m.nIn; ++i)
    m.in[i] = {names[i], 0};
  for (int b = 0; b < n; ++b) {
    int i = src.below(m.nIn);
    while (m.in[i].log2 == kMaxDimLog2)
      i = (i + 1) % m.nIn;
    ++m.in[i].log2;
  }
  llvm::SmallVector<std::pair<int, int>, 64> outBits; // (out dim, bit)
  for (int k = 0; k < m.nOut; ++k)
    for (int b = 0; b < m.out[k].log2; ++b)
      outBits.push_back({k, b});
  llvm::SmallVector<int, 64> slot(n);
  for (int j = 0; j < n; ++j)
    slot[j] = j;
  for (int j = 0; j + 1 < n; ++j)
    std::swap(slot[j], slot[j + src.below(n - j)]);
  for (int t = 0; t < nOutBits; ++t)
    m.setCoord(slot[t], outBits[t].first, uint32_t(1) << outBits[t].second);
  for (int t = nOutBits; t < n; ++t)
    if (nOutBits && src.coin()) {
      int from = slot[src.below(nOutBits)];
      m.setColumn(slot[t], m.column(from));
    }
  for (int r = src.below(2 * n + 1); r > 0 && n > 1; --r) {
    int a = src.below(n), b = src.below(n);
    if (a != b)
      m.setColumn(a, m.column(a) ^ m.column(b));
  }
  return m;
}

Model Run::randomSurjectiveOnRandomOuts(int maxOuts, int maxLog2) {
  Dim outs[kMaxDims];
  int no = src.below(maxOuts + 1);
  uint8_t names[kMaxDims];
  randomDistinctNames(no, names);
  for (int k = 0; k < no; ++k)
    outs[k] = {names[k], uint8_t(src.below(maxLog2 + 1))};
  return randomSurjective({outs, size_t(no)}, src.below(3));
}

//===----------------------------------------------------------------------===//
// The run
//===----------------------------------------------------------------------===//

std::optional<Finding> Run::go() {
  // Two fresh layouts to start from.
  while (poolUsed < 2 && !failed()) {
    op = "create";
    operands({});
    Model m = src.coin() ? randomSurjectiveOnRandomOuts(3, 4) : randomModel(3, 4);
    std::string why;
    keep(check(LinearLayout::create(basesOf(m), outDimsOf(m), false), m, why));
  }
  static const unsigned weights[] = {
      3, // create
      2, // create with inferred sizes
      3, // identity1D / zeros1D / strided1D
      6, // product
      5, // compose
      5, // invert / pseudoinvert
      6, // invertAndCompose
      3, // transposeIns / transposeOuts
      3, // reshapeIns / reshapeOuts
      2, // flattenIns / flattenOuts
      3, // sublayout
      3, // resizeInDim / resizeOutDim
      3, // shrinkOutDims
      3, // concatIns / concatOuts
      4, // divideLeft / divideRight
      3, // quotient
      4, // rank, free variables, consecutive, zero bases
      2, // equality
      1, // toString
      1, // supremum
  };
  for (int steps = 0; steps < kMaxSteps && !src.exhausted() && !failed(); ++steps) {
    switch (src.weighted(weights)) {
    case 0: opCreate(false); break;
    case 1: opCreate(true); break;
    case 2: opFactory(); break;
    case 3: opProduct(); break;
    case 4: opCompose(); break;
    case 5: opInvert(); break;
    case 6: opInvertAndCompose(); break;
    case 7: opTranspose(); break;
    case 8: opReshape(); break;
    case 9: opFlatten(); break;
    case 10: opSublayout(); break;
    case 11: opResize(); break;
    case 12: opShrink(); break;
    case 13: opConcat(); break;
    case 14: opDivide(); break;
    case 15: opQuotient(); break;
    case 16: opQueries(); break;
    case 17: opEquality(); break;
    case 18: opToString(); break;
    default: opSupremum(); break;
    }
  }
  return finding;
}

} // namespace tgpu::fuzz::llfuzz

namespace {
std::optional<tgpu::fuzz::Finding>
runLinearLayout(llvm::ArrayRef<uint8_t> data) {
  tgpu::fuzz::llfuzz::Run run(data);
  return run.go();
}
} // namespace

namespace tgpu::fuzz {
const TargetInfo &linearLayoutTarget() {
  static const TargetInfo info{
      "fuzz_linear_layout",
      "LinearLayout operations against a GF(2) model and algebraic laws",
      runLinearLayout, nullptr};
  return info;
}
} // namespace tgpu::fuzz
