// The driver of fuzz_linear_layout: one Run turns the input bytes into a
// sequence of LinearLayout operations, runs each on the library and on the
// model (LinearLayoutModel.h) and compares. LinearLayoutTarget.cpp holds the
// comparison, the random layouts and the target entry; LinearLayoutOps.cpp
// the operations.
#ifndef TGPU_FUZZ_TARGETS_LINEARLAYOUTRUN_H
#define TGPU_FUZZ_TARGETS_LINEARLAYOUTRUN_H

#include "fuzz/targets/FuzzTarget.h"
#include "fuzz/targets/LinearLayoutModel.h"

#include "../generator/ByteSource.h"

#include "tgpu/Layout/LinearLayout.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace tgpu::fuzz::llfuzz {

using llmodel::Dim;
using llmodel::kMaxDimLog2;
using llmodel::kMaxDims;
using llmodel::kNames;
using llmodel::kNumNames;
using llmodel::MaybeModel;
using llmodel::Model;
using llmodel::NameList;
using llmodel::NewDim;
using tgpu::layout::LinearLayout;

constexpr int kPoolBits = 24; // larger results are checked but not reused
constexpr int kMaxSteps = 8;  // operations per input
constexpr int kPoolSize = 4;

// The library <-> model boundary: create()'s arguments for a model, and the
// first difference between a library layout and a model, if any.
std::vector<LinearLayout::DimBases> basesOf(const Model &m);
std::vector<LinearLayout::NamedSize> outDimsOf(const Model &m);
std::optional<std::string> difference(const LinearLayout &l, const Model &m);

struct Entry {
  LinearLayout lib;
  Model model;
};

class Run {
public:
  explicit Run(llvm::ArrayRef<uint8_t> bytes) : src(bytes) {}
  std::optional<Finding> go();

private:
  tgpu::gen::ByteSource src;
  // Random inputs for evaluation come from here, so the fuzzer's bytes steer
  // the operations only.
  uint64_t rngState = 0x9E3779B97F4A7C15ull;
  std::optional<Finding> finding;
  Entry pool[kPoolSize];
  int poolUsed = 0;
  const char *op = "";
  // The operands of the current operation, printed only with a finding.
  const Entry *operandList[3] = {};
  int numOperands = 0;

  uint64_t rng() {
    uint64_t z = (rngState += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // A random flattened input of `bits` bits.
  uint64_t randomInput(int bits) {
    return bits >= 64 ? rng() : rng() & ((uint64_t(1) << bits) - 1);
  }
  bool failed() const { return finding.has_value(); }
  void operands(std::initializer_list<const Entry *> es) {
    numOperands = 0;
    for (const Entry *e : es)
      operandList[numOperands++] = e;
  }
  void report(const char *kind, const std::string &what,
              const std::string &detail);
  // The library's layout for a valid model (create with explicit sizes).
  LinearLayout toLibrary(const Model &m);

  // Compares the outcome of a library call with the model's verdict; on
  // agreement and success, the result against the model. Returns the result
  // when both succeeded.
  std::optional<Entry> check(llvm::Expected<LinearLayout> got,
                             const MaybeModel &want, const std::string &why);
  std::optional<Entry> checkOptional(std::optional<LinearLayout> got,
                                     const MaybeModel &want);
  std::optional<Entry> compare(LinearLayout got, const Model &want);
  // Evaluation through applyFlat, getBasis and the named apply against the
  // model's matrix-vector product.
  void checkEvaluation(const LinearLayout &l, const Model &m);

  // Keeps a result for later operations (small ones only).
  void keep(std::optional<Entry> e) {
    if (!e || failed() || e->model.inBits() > kPoolBits ||
        e->model.outBits() > kPoolBits)
      return;
    int slot = poolUsed < kPoolSize ? poolUsed++ : int(src.below(kPoolSize));
    pool[slot] = std::move(*e);
  }
  Entry &pick() { return pool[src.below(poolUsed)]; }
  // A fresh entry for a valid model.
  Entry fresh(const Model &m) { return Entry{toLibrary(m), m}; }

  // Random layouts and arguments.
  Model randomModel(int maxDims, int maxLog2);
  Model randomSurjective(llvm::ArrayRef<Dim> outs, int extraBits);
  Model randomSurjectiveOnRandomOuts(int maxOuts, int maxLog2);
  uint8_t randomName() { return uint8_t(src.below(kNumNames)); }
  void randomDistinctNames(int n, uint8_t *out);
  int32_t randomSize(int maxLog2);
  // A permutation of `names`, sometimes (when `allowDefects`) with a
  // duplicate, a missing or an unknown name.
  NameList randomOrder(llvm::ArrayRef<uint8_t> names, bool allowDefects);

  // Operations (LinearLayoutOps.cpp).
  void opCreate(bool inferSizes);
  void opFactory();
  void opProduct();
  void opCompose();
  void opInvert();
  void opInvertAndCompose();
  void opTranspose();
  void opReshape();
  void opFlatten();
  void opSublayout();
  void opResize();
  void opShrink();
  void opConcat();
  void opDivide();
  void opQuotient();
  void opQueries();
  void opEquality();
  void opToString();
  void opSupremum();
};

} // namespace tgpu::fuzz::llfuzz

#endif
