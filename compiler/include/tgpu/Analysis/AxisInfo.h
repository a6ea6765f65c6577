// AxisInfo: what is known, per tensor dim, about the integer (or pointer)
// values of a tensor, as an MLIR sparse forward dataflow analysis. It is the
// same lattice Triton computes, so tritongpu-coalesce picks the same layouts:
//  - contiguity[d]: the length of the shortest run of consecutive values
//    x, x+1, x+2, ... along d (pointers: consecutive elements);
//  - divisibility[d]: the largest power of two known to divide the first
//    value of every such run (pointers: in bytes);
//  - constancy[d]: the length of the shortest run of equal values along d;
//  - constantValue: the value itself when every element is the same known
//    integer.
// Scalars have rank 1. Hints (tt.divisibility / tt.contiguity / tt.constancy
// on function arguments or ops) override what the rules derive; malformed or
// non-positive hints are clamped or ignored, never asserted on.
#ifndef TGPU_ANALYSIS_AXISINFO_H
#define TGPU_ANALYSIS_AXISINFO_H

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace mlir::tgpu {

class AxisInfo {
public:
  using DimVector = SmallVector<int64_t, 4>;
  // The cap of every entry: "divisible by anything we care about".
  static constexpr int64_t kMaxDivisor = int64_t(1) << 62;

  AxisInfo() = default;
  AxisInfo(ArrayRef<int64_t> contiguity, ArrayRef<int64_t> divisibility,
           ArrayRef<int64_t> constancy,
           std::optional<int64_t> constantValue = std::nullopt)
      : contiguity(contiguity), divisibility(divisibility),
        constancy(constancy), constantValue(constantValue) {}

  // Nothing known: 1 everywhere, plus any hints the value carries.
  static AxisInfo getPessimisticValueState(Value value);
  // The least upper bound: the facts that hold for both.
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);

  // Rank 0 means "not computed yet" (the lattice's bottom).
  int getRank() const { return contiguity.size(); }
  int64_t getContiguity(unsigned d) const { return contiguity[d]; }
  int64_t getDivisibility(unsigned d) const { return divisibility[d]; }
  int64_t getConstancy(unsigned d) const { return constancy[d]; }
  const DimVector &getContiguity() const { return contiguity; }
  const DimVector &getDivisibility() const { return divisibility; }
  const DimVector &getConstancy() const { return constancy; }
  std::optional<int64_t> getConstantValue() const { return constantValue; }

  bool operator==(const AxisInfo &other) const {
    return contiguity == other.contiguity &&
           divisibility == other.divisibility && constancy == other.constancy &&
           constantValue == other.constantValue;
  }

  // Triton's text: "contiguity = [..], divisibility = [..], constancy = [..],
  // constant_value = <none>|N".
  void print(raw_ostream &os) const;

  // Overwrites `vec` with the hint `attr` holds (an integer for rank 1, or a
  // dense integer array of `vec`'s rank); anything else is ignored. Entries
  // are clamped to [1, kMaxDivisor].
  static void applyHint(Attribute attr, DimVector &vec);

private:
  DimVector contiguity, divisibility, constancy;
  std::optional<int64_t> constantValue;
};

// The dataflow analysis over one function (loaded into a DataFlowSolver next
// to DeadCodeAnalysis and SparseConstantPropagation).
class AxisInfoAnalysis
    : public dataflow::SparseForwardDataFlowAnalysis<
          dataflow::Lattice<AxisInfo>> {
public:
  using Lattice = dataflow::Lattice<AxisInfo>;
  // What the call sites pass to each argument of a called function (rank 1),
  // merged into its hints; may be null.
  using CallSiteInfo = llvm::DenseMap<Value, AxisInfo>;
  AxisInfoAnalysis(DataFlowSolver &solver, const CallSiteInfo *callSites)
      : SparseForwardDataFlowAnalysis(solver), callSites(callSites) {}
  using SparseForwardDataFlowAnalysis::getLatticeElement;

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const Lattice *> operands,
                               ArrayRef<Lattice *> results) override;

protected:
  void setToEntryState(Lattice *lattice) override;
  void visitNonControlFlowArguments(Operation *op,
                                    const RegionSuccessor &successor,
                                    ArrayRef<Lattice *> argLattices,
                                    unsigned firstIndex) override;

private:
  const CallSiteInfo *callSites;
};

// AxisInfo of every value of a module's functions. Functions are analysed
// callers first; what the call sites pass (scalar arguments only) is merged
// into the callee's argument hints, as Triton does (without rewriting the
// callee's attributes).
class ModuleAxisInfoAnalysis {
public:
  explicit ModuleAxisInfoAnalysis(ModuleOp module);

  // Null for values the analysis has not seen (e.g. outside functions).
  const AxisInfo *getAxisInfo(Value value) const;

private:
  llvm::DenseMap<Value, AxisInfo> infos;
};

} // namespace mlir::tgpu

#endif
