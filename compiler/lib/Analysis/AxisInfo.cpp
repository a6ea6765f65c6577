// AxisInfo rules. Each op's rule says what its result's contiguity,
// divisibility and constancy are, given its operands'; they follow Triton's
// (so layouts chosen from them agree), with three deliberate differences:
// constants are folded at the type's bit width with wrap-around (Triton folds
// zero-extended values in 64 bits, which makes e.g. `-1 < 0` false), folds that
// would divide by zero or shift out of range give no constant instead of
// undefined behaviour, and bad hints are clamped instead of asserted on.
#include "tgpu/Analysis/AxisInfo.h"
#include "tgpu/Analysis/AccessWidth.h"

#include "tgpu/Layout/BasisRuns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

constexpr int64_t kMax = AxisInfo::kMaxDivisor;

// gcd where 0 stands for "no constraint".
int64_t gcd(int64_t a, int64_t b) {
  if (a == 0)
    return b;
  if (b == 0)
    return a;
  return std::gcd(a, b);
}
template <typename... T> int64_t gcd(int64_t a, int64_t b, T... rest) {
  return gcd(gcd(a, b), rest...);
}

// The largest power of two dividing n (kMax for 0 and for INT64_MIN).
int64_t highestPowOf2Divisor(int64_t n) {
  uint64_t u = uint64_t(n);
  if (u == 0)
    return kMax;
  uint64_t p = u & (~u + 1);
  return p >= uint64_t(kMax) ? kMax : int64_t(p);
}

int64_t multiplyDivisor(int64_t a, int64_t b) {
  if (b != 0 && a > kMax / b)
    return kMax;
  return a * b;
}

// The integer bit width of a value's elements (pointers: 64), or 0.
unsigned intBitWidth(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    type = tensor.getElementType();
  if (isa<tt::PointerType>(type) || type.isIndex())
    return 64;
  if (auto intTy = dyn_cast<IntegerType>(type))
    return intTy.getWidth();
  return 0;
}

// `v` wrapped to `width` bits and sign-extended back to 64.
// (i1 is the exception: true is 1, as Triton has it.)
int64_t wrapToWidth(uint64_t v, unsigned width) {
  if (width == 0 || width >= 64)
    return int64_t(v);
  if (width == 1)
    return int64_t(v & 1);
  return llvm::SignExtend64(v, width);
}
uint64_t zextFromWidth(int64_t v, unsigned width) {
  if (width == 0 || width >= 64)
    return uint64_t(v);
  return uint64_t(v) & ((uint64_t(1) << width) - 1);
}

unsigned rankOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getRank();
  if (auto ptr = dyn_cast<tt::PointerType>(type))
    if (auto tensor = dyn_cast<RankedTensorType>(ptr.getPointeeType()))
      return tensor.getRank();
  return 1;
}

// The shape of a tensor result, or {1} for scalars.
SmallVector<int64_t, 4> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t, 4>(tensor.getShape());
  return SmallVector<int64_t, 4>(rankOf(type), 1);
}

AxisInfo constantInfo(Type type, int64_t value) {
  unsigned rank = rankOf(type);
  auto shape = shapeOf(type);
  bool scalar = !isa<RankedTensorType>(type);
  return AxisInfo(AxisInfo::DimVector(rank, 1),
                  AxisInfo::DimVector(rank, highestPowOf2Divisor(value)),
                  scalar ? AxisInfo::DimVector(rank, 1)
                         : AxisInfo::DimVector(shape),
                  value);
}

// Contiguity changes under select/max/min/join: a run's first element need not
// be one the operands' divisibility speaks of, unless the runs line up.
int64_t divisibilityAcrossRuns(const AxisInfo &lhs, const AxisInfo &rhs,
                               unsigned d) {
  if (lhs.getContiguity(d) == rhs.getContiguity(d) ||
      lhs.getContiguity(d) == kMax || rhs.getContiguity(d) == kMax)
    return gcd(lhs.getDivisibility(d), rhs.getDivisibility(d));
  return gcd(lhs.getDivisibility(d), rhs.getDivisibility(d),
             lhs.getContiguity(d), rhs.getContiguity(d));
}

bool isFullDim(int64_t v, ArrayRef<int64_t> shape, unsigned d) {
  return v == shape[d];
}

int64_t pointeeBytes(Type ptrOrTensor) {
  Type elem = ptrOrTensor;
  if (auto tensor = dyn_cast<RankedTensorType>(elem))
    elem = tensor.getElementType();
  if (auto ptr = dyn_cast<tt::PointerType>(elem))
    elem = ptr.getPointeeType();
  if (auto tensor = dyn_cast<RankedTensorType>(elem))
    elem = tensor.getElementType();
  if (elem.isIntOrFloat())
    return std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
  return 1;
}

//===----------------------------------------------------------------------===//
// Binary integer ops: contiguity, divisibility and constancy per dim, and the
// folded constant.
//===----------------------------------------------------------------------===//

struct BinaryRule {
  // Each returns the dim's value; the default is Triton's generic rule.
  virtual int64_t contiguity(const AxisInfo &, const AxisInfo &, unsigned) {
    return 1;
  }
  virtual int64_t divisibility(const AxisInfo &, const AxisInfo &, unsigned) {
    return 1;
  }
  virtual int64_t constancy(const AxisInfo &l, const AxisInfo &r, unsigned d) {
    return gcd(l.getConstancy(d), r.getConstancy(d));
  }
  virtual std::optional<int64_t> fold(int64_t, int64_t) { return {}; }
  // A constant result even when only one side is known (x * 0, x % 1).
  virtual std::optional<int64_t> foldPartial(std::optional<int64_t>,
                                             std::optional<int64_t>) {
    return {};
  }
  virtual ~BinaryRule() = default;

  Operation *op = nullptr;
  unsigned width = 64;
  SmallVector<int64_t, 4> shape;
  bool isTensor = false;

  std::optional<int64_t> wrapped(std::optional<int64_t> v) const {
    if (!v)
      return v;
    return wrapToWidth(uint64_t(*v), width);
  }

  AxisInfo apply(const AxisInfo &lhs, const AxisInfo &rhs) {
    std::optional<int64_t> c;
    if (lhs.getConstantValue() && rhs.getConstantValue())
      c = fold(*lhs.getConstantValue(), *rhs.getConstantValue());
    if (!c)
      c = foldPartial(lhs.getConstantValue(), rhs.getConstantValue());
    c = wrapped(c);
    if (c)
      return constantInfo(op->getResult(0).getType(), *c);
    AxisInfo::DimVector cont, div, cst;
    for (unsigned d = 0, e = lhs.getRank(); d < e; ++d) {
      cont.push_back(contiguity(lhs, rhs, d));
      div.push_back(divisibility(lhs, rhs, d));
      cst.push_back(constancy(lhs, rhs, d));
    }
    return AxisInfo(cont, div, cst);
  }
};

struct AddSubRule : BinaryRule {
  bool isSub = false, isPtr = false;
  int64_t elemBytes = 1;
  int64_t contiguity(const AxisInfo &l, const AxisInfo &r,
                     unsigned d) override {
    // Runs must increase: x - (a run) is not a run.
    if (isSub)
      return gcd(l.getContiguity(d), r.getConstancy(d));
    return std::max(gcd(l.getConstancy(d), r.getContiguity(d)),
                    gcd(l.getContiguity(d), r.getConstancy(d)));
  }
  int64_t divisibility(const AxisInfo &l, const AxisInfo &r,
                       unsigned d) override {
    // k·a + p·b is a multiple of gcd(a, b); pointer offsets count elements.
    int64_t rhsDiv = isPtr ? multiplyDivisor(r.getDivisibility(d), elemBytes)
                           : r.getDivisibility(d);
    return gcd(l.getDivisibility(d), rhsDiv);
  }
  std::optional<int64_t> fold(int64_t a, int64_t b) override {
    if (isPtr)
      return int64_t(uint64_t(a) + uint64_t(b) * uint64_t(elemBytes));
    return isSub ? int64_t(uint64_t(a) - uint64_t(b))
                 : int64_t(uint64_t(a) + uint64_t(b));
  }
};

struct MulRule : BinaryRule {
  int64_t contiguity(const AxisInfo &l, const AxisInfo &r,
                     unsigned d) override {
    int64_t fromLhs = r.getConstantValue() == 1 ? l.getContiguity(d) : 1;
    int64_t fromRhs = l.getConstantValue() == 1 ? r.getContiguity(d) : 1;
    return std::max(fromLhs, fromRhs);
  }
  int64_t divisibility(const AxisInfo &l, const AxisInfo &r,
                       unsigned d) override {
    // Within a run only its first element has the run's divisibility.
    int64_t ld = l.getContiguity(d) > 1 && r.getConstantValue() != 1
                     ? 1
                     : l.getDivisibility(d);
    int64_t rd = r.getContiguity(d) > 1 && l.getConstantValue() != 1
                     ? 1
                     : r.getDivisibility(d);
    return multiplyDivisor(ld, rd);
  }
  std::optional<int64_t> fold(int64_t a, int64_t b) override {
    return int64_t(uint64_t(a) * uint64_t(b));
  }
  std::optional<int64_t> foldPartial(std::optional<int64_t> a,
                                     std::optional<int64_t> b) override {
    if (a == 0 || b == 0)
      return 0;
    return {};
  }
};

struct DivRule : BinaryRule {
  bool isUnsigned = false;
  int64_t contiguity(const AxisInfo &l, const AxisInfo &r,
                     unsigned d) override {
    return r.getConstantValue() == 1 ? l.getContiguity(d) : 1;
  }
  int64_t constancy(const AxisInfo &l, const AxisInfo &r,
                    unsigned d) override {
    int64_t c = BinaryRule::constancy(l, r, d);
    if (!isTensor)
      return c;
    // A run divided by a constant is constant over stretches of
    // gcd(run, its alignment, the divisor's alignment).
    if (isFullDim(l.getContiguity(d), shape, d) &&
        isFullDim(r.getConstancy(d), shape, d))
      c = std::max(c, gcd(l.getContiguity(d), l.getDivisibility(d),
                          r.getDivisibility(d)));
    return c;
  }
  int64_t divisibility(const AxisInfo &l, const AxisInfo &r,
                       unsigned d) override {
    if (l.getConstantValue() == 0 || r.getConstantValue() == 1)
      return l.getDivisibility(d);
    if (auto c = r.getConstantValue();
        c && *c != INT64_MIN && llvm::isPowerOf2_64(std::abs(*c)) &&
        l.getContiguity(d) == 1)
      return std::max<int64_t>(1, l.getDivisibility(d) / std::abs(*c));
    return 1;
  }
  std::optional<int64_t> fold(int64_t a, int64_t b) override {
    if (isUnsigned) {
      uint64_t ua = zextFromWidth(a, width), ub = zextFromWidth(b, width);
      if (ub == 0)
        return {};
      return int64_t(ua / ub);
    }
    if (b == 0 || (a == INT64_MIN && b == -1))
      return {};
    return a / b;
  }
};

struct RemRule : BinaryRule {
  bool isUnsigned = false;
  int64_t contiguity(const AxisInfo &l, const AxisInfo &r,
                     unsigned d) override {
    if (!isTensor)
      return 1;
    if (isFullDim(l.getContiguity(d), shape, d) &&
        isFullDim(r.getConstancy(d), shape, d))
      return gcd(l.getContiguity(d), l.getDivisibility(d),
                 r.getDivisibility(d));
    return 1;
  }
  int64_t divisibility(const AxisInfo &l, const AxisInfo &r,
                       unsigned d) override {
    // x - q·y keeps what divides both x and y, when y is constant nearby.
    if (r.getConstancy(d) > 1)
      return gcd(l.getDivisibility(d), r.getDivisibility(d));
    return 1;
  }
  int64_t constancy(const AxisInfo &l, const AxisInfo &r,
                    unsigned d) override {
    if (isTensor && r.getConstantValue() == 1)
      return shape[d];
    return BinaryRule::constancy(l, r, d);
  }
  std::optional<int64_t> fold(int64_t a, int64_t b) override {
    if (isUnsigned) {
      uint64_t ua = zextFromWidth(a, width), ub = zextFromWidth(b, width);
      if (ub == 0)
        return {};
      return int64_t(ua % ub);
    }
    if (b == 0 || (a == INT64_MIN && b == -1))
      return {};
    return a % b;
  }
  std::optional<int64_t> foldPartial(std::optional<int64_t>,
                                     std::optional<int64_t> b) override {
    if (b == 1)
      return 0;
    return {};
  }
};

struct LogicalRule : BinaryRule {
  enum Kind { And, Or, Xor } kind = And;
  std::optional<int64_t> fold(int64_t a, int64_t b) override {
    switch (kind) {
    case And:
      return a & b;
    case Or:
      return a | b;
    case Xor:
      return a ^ b;
    }
    return {};
  }
};

struct ShiftRule : BinaryRule {
  enum Kind { Shl, ShrU, ShrS } kind = Shl;
  bool inRange(std::optional<int64_t> s) const {
    return s && *s >= 0 && *s < int64_t(std::min(width, 63u));
  }
  int64_t contiguity(const AxisInfo &l, const AxisInfo &r,
                     unsigned d) override {
    return r.getConstantValue() == 0 ? l.getContiguity(d) : 1;
  }
  int64_t divisibility(const AxisInfo &l, const AxisInfo &r,
                       unsigned d) override {
    std::optional<int64_t> shift = r.getConstantValue();
    if (kind == Shl && !shift)
      shift = 0; // x << unknown is at least as divisible as x.
    if (!inRange(shift))
      return 1;
    int64_t ld = l.getContiguity(d) > 1 && *shift ? 1 : l.getDivisibility(d);
    if (kind == Shl)
      return multiplyDivisor(ld, int64_t(1) << *shift);
    return std::max<int64_t>(1, ld / (int64_t(1) << *shift));
  }
  std::optional<int64_t> fold(int64_t a, int64_t s) override {
    if (!inRange(s))
      return {};
    switch (kind) {
    case Shl:
      return int64_t(uint64_t(a) << s);
    case ShrU:
      return int64_t(zextFromWidth(a, width) >> s);
    case ShrS:
      return a >> s;
    }
    return {};
  }
};

// Builds the rule for a binary integer op, or null for other ops.
std::unique_ptr<BinaryRule> binaryRuleFor(Operation *op) {
  std::unique_ptr<BinaryRule> rule =
      llvm::TypeSwitch<Operation *, std::unique_ptr<BinaryRule>>(op)
          .Case<arith::AddIOp, arith::SubIOp, tt::AddPtrOp>([](auto o) {
            auto r = std::make_unique<AddSubRule>();
            r->isSub = isa<arith::SubIOp>(o.getOperation());
            if constexpr (std::is_same_v<decltype(o), tt::AddPtrOp>) {
              r->isPtr = true;
              r->elemBytes = pointeeBytes(o.getPtr().getType());
            }
            return r;
          })
          .Case<arith::MulIOp>([](auto) { return std::make_unique<MulRule>(); })
          .Case<arith::DivSIOp, arith::DivUIOp>([](auto o) {
            auto r = std::make_unique<DivRule>();
            r->isUnsigned = isa<arith::DivUIOp>(o.getOperation());
            return r;
          })
          .Case<arith::RemSIOp, arith::RemUIOp>([](auto o) {
            auto r = std::make_unique<RemRule>();
            r->isUnsigned = isa<arith::RemUIOp>(o.getOperation());
            return r;
          })
          .Case<arith::AndIOp, arith::OrIOp, arith::XOrIOp>([](auto o) {
            auto r = std::make_unique<LogicalRule>();
            r->kind = isa<arith::AndIOp>(o.getOperation())  ? LogicalRule::And
                      : isa<arith::OrIOp>(o.getOperation()) ? LogicalRule::Or
                                                            : LogicalRule::Xor;
            return r;
          })
          .Case<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>([](auto o) {
            auto r = std::make_unique<ShiftRule>();
            r->kind = isa<arith::ShLIOp>(o.getOperation())    ? ShiftRule::Shl
                      : isa<arith::ShRUIOp>(o.getOperation()) ? ShiftRule::ShrU
                                                              : ShiftRule::ShrS;
            return r;
          })
          .Default([](Operation *) { return nullptr; });
  if (!rule)
    return nullptr;
  Type type = op->getResult(0).getType();
  rule->op = op;
  rule->width = intBitWidth(type);
  rule->shape = shapeOf(type);
  rule->isTensor = isa<RankedTensorType>(type);
  return rule;
}

//===----------------------------------------------------------------------===//
// The other ops.
//===----------------------------------------------------------------------===//

bool predIs(arith::CmpIPredicate p, arith::CmpIPredicate s,
            arith::CmpIPredicate u) {
  return p == s || p == u;
}

std::optional<bool> foldCompare(arith::CmpIPredicate p, int64_t a, int64_t b,
                                unsigned width) {
  uint64_t ua = zextFromWidth(a, width), ub = zextFromWidth(b, width);
  using P = arith::CmpIPredicate;
  switch (p) {
  case P::eq:
    return a == b;
  case P::ne:
    return a != b;
  case P::slt:
    return a < b;
  case P::sle:
    return a <= b;
  case P::sgt:
    return a > b;
  case P::sge:
    return a >= b;
  case P::ult:
    return ua < ub;
  case P::ule:
    return ua <= ub;
  case P::ugt:
    return ua > ub;
  case P::uge:
    return ua >= ub;
  }
  return std::nullopt;
}

AxisInfo visitCmp(arith::CmpIOp op, const AxisInfo &lhs, const AxisInfo &rhs) {
  auto resTy = dyn_cast<RankedTensorType>(op.getType());
  unsigned width = intBitWidth(op.getLhs().getType());
  if (lhs.getConstantValue() && rhs.getConstantValue())
    if (auto r = foldCompare(op.getPredicate(), *lhs.getConstantValue(),
                             *rhs.getConstantValue(), width)) {
      if (!resTy)
        return AxisInfo({1}, {1}, {1}, int64_t(*r));
      AxisInfo::DimVector shape(resTy.getShape());
      return AxisInfo(AxisInfo::DimVector(shape.size(), 1),
                      AxisInfo::DimVector(shape.size(), 1), shape,
                      int64_t(*r));
    }
  if (!resTy)
    return AxisInfo::getPessimisticValueState(op.getResult());
  using P = arith::CmpIPredicate;
  P p = op.getPredicate();
  ArrayRef<int64_t> shape = resTy.getShape();
  AxisInfo::DimVector cont, div, cst;
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t c = gcd(lhs.getConstancy(d), rhs.getConstancy(d));
    // A constant compared with an aligned run flips at most once per
    // gcd(run, alignments) elements, and only at the stretch's start.
    if ((predIs(p, P::sgt, P::ugt) || predIs(p, P::sle, P::ule)) &&
        isFullDim(lhs.getConstancy(d), shape, d))
      c = std::max(c, gcd(rhs.getContiguity(d), lhs.getDivisibility(d),
                          rhs.getDivisibility(d)));
    else if ((predIs(p, P::slt, P::ult) || predIs(p, P::sge, P::uge)) &&
             isFullDim(rhs.getConstancy(d), shape, d))
      c = std::max(c, gcd(lhs.getContiguity(d), lhs.getDivisibility(d),
                          rhs.getDivisibility(d)));
    cont.push_back(1);
    div.push_back(1);
    cst.push_back(c);
  }
  return AxisInfo(cont, div, cst);
}

AxisInfo visitSelect(arith::SelectOp op, const AxisInfo &cond,
                     const AxisInfo &lhs, const AxisInfo &rhs) {
  if (auto c = cond.getConstantValue())
    return *c == 0 ? rhs : lhs;
  bool scalarCond = !isa<RankedTensorType>(op.getCondition().getType());
  AxisInfo::DimVector cont, div, cst;
  for (int d = 0; d < lhs.getRank(); ++d) {
    int64_t condRun = scalarCond ? 0 : cond.getConstancy(d);
    cst.push_back(gcd(lhs.getConstancy(d), rhs.getConstancy(d), condRun));
    cont.push_back(gcd(lhs.getContiguity(d), rhs.getContiguity(d), condRun));
    div.push_back(divisibilityAcrossRuns(lhs, rhs, d));
  }
  if (lhs.getConstantValue() && lhs.getConstantValue() == rhs.getConstantValue())
    return AxisInfo(cont, div, shapeOf(op.getType()), lhs.getConstantValue());
  return AxisInfo(cont, div, cst);
}

template <typename OpT>
AxisInfo visitMaxMin(OpT op, const AxisInfo &lhs, const AxisInfo &rhs) {
  if (lhs.getConstantValue() && rhs.getConstantValue()) {
    unsigned width = intBitWidth(op.getType());
    int64_t a = *lhs.getConstantValue(), b = *rhs.getConstantValue();
    uint64_t ua = zextFromWidth(a, width), ub = zextFromWidth(b, width);
    int64_t v;
    if constexpr (std::is_same_v<OpT, arith::MaxSIOp>)
      v = std::max(a, b);
    else if constexpr (std::is_same_v<OpT, arith::MinSIOp>)
      v = std::min(a, b);
    else if constexpr (std::is_same_v<OpT, arith::MaxUIOp>)
      v = ua >= ub ? a : b;
    else
      v = ua <= ub ? a : b;
    return constantInfo(op.getType(), v);
  }
  AxisInfo::DimVector cont, div, cst;
  for (int d = 0; d < lhs.getRank(); ++d) {
    cst.push_back(gcd(lhs.getConstancy(d), rhs.getConstancy(d)));
    div.push_back(divisibilityAcrossRuns(lhs, rhs, d));
    cont.push_back(gcd(lhs.getContiguity(d), rhs.getContiguity(d)));
  }
  return AxisInfo(cont, div, cst);
}

AxisInfo visitConstant(arith::ConstantOp op) {
  Attribute value = op.getValue();
  unsigned width = intBitWidth(op.getType());
  if (auto intAttr = dyn_cast<IntegerAttr>(value))
    return constantInfo(op.getType(),
                        wrapToWidth(intAttr.getValue().getLimitedValue(
                                        UINT64_MAX),
                                    width));
  if (auto splat = dyn_cast<SplatElementsAttr>(value))
    if (splat.getElementType().isIntOrIndex())
      return constantInfo(
          op.getType(),
          wrapToWidth(splat.getSplatValue<APInt>().getLimitedValue(UINT64_MAX),
                      width));
  return AxisInfo();
}

AxisInfo visitExpandDims(tt::ExpandDimsOp op, const AxisInfo &src) {
  AxisInfo::DimVector cont = src.getContiguity(), div = src.getDivisibility(),
                      cst = src.getConstancy();
  int64_t newDiv = 1;
  if (auto c = src.getConstantValue()) {
    newDiv = highestPowOf2Divisor(*c);
  } else if (src.getRank() > 0) {
    // Along the new unit dim every element starts a run; only what divides
    // every element holds, and inside a run that is 1.
    newDiv = src.getContiguity(0) > 1 ? 1 : src.getDivisibility(0);
    for (int d = 1; d < src.getRank(); ++d)
      newDiv = gcd(newDiv, src.getContiguity(d) > 1 ? 1 : src.getDivisibility(d));
  }
  unsigned axis = std::min<unsigned>(op.getAxis(), cont.size());
  cont.insert(cont.begin() + axis, 1);
  div.insert(div.begin() + axis, newDiv);
  cst.insert(cst.begin() + axis, 1);
  return AxisInfo(cont, div, cst, src.getConstantValue());
}

AxisInfo visitBroadcast(tt::BroadcastOp op, const AxisInfo &src) {
  auto srcShape = cast<RankedTensorType>(op.getSrc().getType()).getShape();
  auto dstShape = cast<RankedTensorType>(op.getType()).getShape();
  AxisInfo::DimVector cont, div, cst;
  for (unsigned d = 0; d < dstShape.size(); ++d) {
    cont.push_back(srcShape[d] == 1 ? 1 : src.getContiguity(d));
    div.push_back(src.getDivisibility(d));
    cst.push_back(srcShape[d] == 1 ? dstShape[d] : src.getConstancy(d));
  }
  return AxisInfo(cont, div, cst, src.getConstantValue());
}

AxisInfo visitSplat(tt::SplatOp op, const AxisInfo &src) {
  auto shape = cast<RankedTensorType>(op.getType()).getShape();
  return AxisInfo(AxisInfo::DimVector(shape.size(), 1),
                  AxisInfo::DimVector(shape.size(), src.getDivisibility(0)),
                  AxisInfo::DimVector(shape), src.getConstantValue());
}

AxisInfo visitTrans(tt::TransOp op, const AxisInfo &src) {
  AxisInfo::DimVector cont, div, cst;
  for (int32_t from : op.getOrder()) {
    cont.push_back(src.getContiguity(from));
    div.push_back(src.getDivisibility(from));
    cst.push_back(src.getConstancy(from));
  }
  return AxisInfo(cont, div, cst, src.getConstantValue());
}

// reshape without reordering keeps the row-major sequence, so facts about the
// innermost dim survive when its size does; everything else starts over.
AxisInfo visitReshape(tt::ReshapeOp op, const AxisInfo &src) {
  auto srcShape = cast<RankedTensorType>(op.getSrc().getType()).getShape();
  auto dstShape = cast<RankedTensorType>(op.getType()).getShape();
  if (auto c = src.getConstantValue())
    return constantInfo(op.getType(), *c);
  unsigned rank = dstShape.size();
  AxisInfo::DimVector cont(rank, 1), div(rank, 1), cst(rank, 1);
  if (!op.getAllowReorder() && !srcShape.empty() && !dstShape.empty() &&
      srcShape.back() == dstShape.back()) {
    unsigned s = srcShape.size() - 1;
    cont.back() = src.getContiguity(s);
    div.back() = src.getDivisibility(s);
    cst.back() = src.getConstancy(s);
  }
  return AxisInfo(cont, div, cst);
}

AxisInfo visitLoad(tt::LoadOp op, ArrayRef<const AxisInfoAnalysis::Lattice *>
                                      operands) {
  // Equal pointers under an equal mask load equal values.
  const AxisInfo &ptr = operands[0]->getValue();
  const AxisInfo *mask =
      op.getMask() ? &operands[1]->getValue() : nullptr;
  AxisInfo::DimVector cont, div, cst;
  for (int d = 0; d < ptr.getRank(); ++d) {
    cont.push_back(1);
    div.push_back(1);
    cst.push_back(gcd(ptr.getConstancy(d), mask ? mask->getConstancy(d) : 0));
  }
  return AxisInfo(cont, div, cst);
}

// The rule for `op`, or a rank-0 AxisInfo when there is none.
AxisInfo deriveAxisInfo(Operation *op,
               ArrayRef<const AxisInfoAnalysis::Lattice *> operands) {
  auto in = [&](unsigned i) -> const AxisInfo & {
    return operands[i]->getValue();
  };
  if (op->getNumResults() != 1)
    return AxisInfo();
  if (auto rule = binaryRuleFor(op))
    return rule->apply(in(0), in(1));
  return llvm::TypeSwitch<Operation *, AxisInfo>(op)
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
            ttg::ConvertLayoutOp>([&](auto) { return in(0); })
      // Mid-lowering casts carry tensors through LLVM structs and back.
      .Case<UnrealizedConversionCastOp>([&](auto) { return in(0); })
      .Case<tt::BitcastOp>([&](tt::BitcastOp o) {
        // The same bits: integers (and byte addresses) stay what they were,
        // as long as elements keep their size.
        Type from = getElementTypeOrSelf(o.getSrc().getType());
        Type to = getElementTypeOrSelf(o.getType());
        bool fromPtr = isa<tt::PointerType>(from), toPtr = isa<tt::PointerType>(to);
        if (fromPtr && toPtr && pointeeBytes(from) == pointeeBytes(to))
          return in(0);
        if (!fromPtr && !toPtr && from.isIntOrFloat() && to.isIntOrFloat() &&
            from.getIntOrFloatBitWidth() == to.getIntOrFloatBitWidth())
          return in(0);
        return AxisInfo();
      })
      .Case<tt::MakeRangeOp>([&](tt::MakeRangeOp o) {
        int64_t start = o.getStart();
        // Triton takes the divisor of the 32-bit start: 2^30 for 0.
        int64_t div = start == 0 ? int64_t(1) << 30 : highestPowOf2Divisor(start);
        return AxisInfo({int64_t(o.getEnd()) - start}, {div}, {1});
      })
      .Case<arith::ConstantOp>([&](auto o) { return visitConstant(o); })
      .Case<tt::SplatOp>([&](auto o) { return visitSplat(o, in(0)); })
      .Case<tt::ExpandDimsOp>([&](auto o) { return visitExpandDims(o, in(0)); })
      .Case<tt::BroadcastOp>([&](auto o) { return visitBroadcast(o, in(0)); })
      .Case<tt::TransOp>([&](auto o) { return visitTrans(o, in(0)); })
      .Case<tt::ReshapeOp>([&](auto o) { return visitReshape(o, in(0)); })
      .Case<arith::CmpIOp>([&](auto o) { return visitCmp(o, in(0), in(1)); })
      .Case<arith::SelectOp>(
          [&](auto o) { return visitSelect(o, in(0), in(1), in(2)); })
      .Case<arith::MaxSIOp, arith::MaxUIOp, arith::MinSIOp, arith::MinUIOp>(
          [&](auto o) { return visitMaxMin(o, in(0), in(1)); })
      .Case<tt::LoadOp>([&](auto o) { return visitLoad(o, operands); })
      .Case<ub::PoisonOp>([&](ub::PoisonOp o) {
        // A poison value is never read defined, so it may be taken as
        // anything: the most that each property can be (runs and constancy
        // the whole dim, any divisor), which a join then narrows to what
        // the other side holds, as in Triton.
        Type type = o.getType();
        unsigned rank = rankOf(type);
        AxisInfo::DimVector whole = isa<RankedTensorType>(type)
                                        ? AxisInfo::DimVector(shapeOf(type))
                                        : AxisInfo::DimVector(rank, 1);
        return AxisInfo(whole, AxisInfo::DimVector(rank, kMax), whole);
      })
      .Default([](Operation *) { return AxisInfo(); });
}

} // namespace

//===----------------------------------------------------------------------===//
// AxisInfo
//===----------------------------------------------------------------------===//

void AxisInfo::print(raw_ostream &os) const {
  auto list = [&](StringRef name, const DimVector &v) {
    os << name << " = [";
    llvm::interleaveComma(v, os);
    os << "]";
  };
  list("contiguity", contiguity);
  list(", divisibility", divisibility);
  list(", constancy", constancy);
  os << ", constant_value = ";
  if (constantValue)
    os << *constantValue;
  else
    os << "<none>";
}

void AxisInfo::applyHint(Attribute attr, DimVector &vec) {
  auto clamp = [](int64_t v) { return std::clamp<int64_t>(v, 1, kMax); };
  if (auto intAttr = dyn_cast_or_null<IntegerAttr>(attr)) {
    if (vec.size() == 1)
      vec[0] = clamp(intAttr.getValue().getSExtValue());
    return;
  }
  auto dense = dyn_cast_or_null<DenseIntElementsAttr>(attr);
  if (!dense || dense.getNumElements() != int64_t(vec.size()))
    return;
  unsigned i = 0;
  for (const APInt &v : dense)
    vec[i++] = clamp(v.getSExtValue());
}

AxisInfo AxisInfo::getPessimisticValueState(Value value) {
  unsigned rank = rankOf(value.getType());
  DimVector cont(rank, 1), div(rank, 1), cst(rank, 1);
  auto arg = dyn_cast<BlockArgument>(value);
  if (arg && arg.getOwner()->isEntryBlock()) {
    if (auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
        func && arg.getArgNumber() < func.getNumArguments()) {
      applyHint(func.getArgAttr(arg.getArgNumber(), "tt.contiguity"), cont);
      applyHint(func.getArgAttr(arg.getArgNumber(), "tt.divisibility"), div);
      applyHint(func.getArgAttr(arg.getArgNumber(), "tt.constancy"), cst);
    }
  } else if (Operation *op = value.getDefiningOp()) {
    applyHint(op->getDiscardableAttr("tt.contiguity"), cont);
    applyHint(op->getDiscardableAttr("tt.divisibility"), div);
    applyHint(op->getDiscardableAttr("tt.constancy"), cst);
  }
  return AxisInfo(cont, div, cst);
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (lhs.getRank() == 0)
    return rhs;
  if (rhs.getRank() == 0)
    return lhs;
  if (lhs.getRank() != rhs.getRank()) // Cannot happen in verified IR.
    return lhs;
  DimVector cont, div, cst;
  for (int d = 0; d < lhs.getRank(); ++d) {
    cont.push_back(gcd(lhs.getContiguity(d), rhs.getContiguity(d)));
    div.push_back(divisibilityAcrossRuns(lhs, rhs, d));
    cst.push_back(gcd(lhs.getConstancy(d), rhs.getConstancy(d)));
  }
  std::optional<int64_t> c;
  if (lhs.getConstantValue() == rhs.getConstantValue())
    c = lhs.getConstantValue();
  return AxisInfo(cont, div, cst, c);
}

//===----------------------------------------------------------------------===//
// AxisInfoAnalysis
//===----------------------------------------------------------------------===//

void AxisInfoAnalysis::setToEntryState(Lattice *lattice) {
  Value anchor = lattice->getAnchor();
  AxisInfo info = AxisInfo::getPessimisticValueState(anchor);
  if (callSites)
    if (auto it = callSites->find(anchor); it != callSites->end()) {
      // The callee's own hints (or "anything" without one), narrowed by every
      // call site's argument.
      auto arg = cast<BlockArgument>(anchor);
      auto func = cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
      AxisInfo::DimVector cont(1, kMax), div(1, kMax), cst(1, kMax);
      AxisInfo::applyHint(func.getArgAttr(arg.getArgNumber(), "tt.contiguity"),
                          cont);
      AxisInfo::applyHint(
          func.getArgAttr(arg.getArgNumber(), "tt.divisibility"), div);
      AxisInfo::applyHint(func.getArgAttr(arg.getArgNumber(), "tt.constancy"),
                          cst);
      const AxisInfo &site = it->second;
      info = AxisInfo({gcd(cont[0], site.getContiguity(0))},
                      {gcd(div[0], site.getDivisibility(0))},
                      {gcd(cst[0], site.getConstancy(0))});
    }
  propagateIfChanged(lattice, lattice->join(info));
}

void AxisInfoAnalysis::visitNonControlFlowArguments(
    Operation *op, const RegionSuccessor &successor,
    ArrayRef<Lattice *> argLattices, unsigned firstIndex) {
  auto forOp = dyn_cast<scf::ForOp>(op);
  if (!forOp) {
    SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
        op, successor, argLattices, firstIndex);
    return;
  }
  // The induction variable lb, lb + step, ...: as divisible as both.
  ProgramPoint *point = getProgramPointAfter(op);
  const Lattice *lb = getLatticeElementFor(point, forOp.getLowerBound());
  const Lattice *step = getLatticeElementFor(point, forOp.getStep());
  if (lb->getValue().getRank() == 0 || step->getValue().getRank() == 0)
    return;
  AxisInfo iv({1},
              {gcd(lb->getValue().getDivisibility(0),
                   step->getValue().getDivisibility(0))},
              {1});
  propagateIfChanged(argLattices[0], argLattices[0]->join(iv));
}

LogicalResult
AxisInfoAnalysis::visitOperation(Operation *op,
                                 ArrayRef<const Lattice *> operands,
                                 ArrayRef<Lattice *> results) {
  // Wait until every operand is known.
  for (const Lattice *operand : operands)
    if (operand->getValue().getRank() == 0)
      return success();
  AxisInfo info = deriveAxisInfo(op, operands);
  Type resultType = op->getNumResults() == 1 ? op->getResult(0).getType()
                                              : Type();
  bool opaqueResult = isa<UnrealizedConversionCastOp>(op) && resultType &&
                      !isa<RankedTensorType>(resultType);
  if (info.getRank() == 0 ||
      (resultType && !opaqueResult &&
       info.getRank() != int(rankOf(resultType)))) {
    setAllToEntryStates(results);
    return success();
  }
  AxisInfo::DimVector cont = info.getContiguity(),
                      div = info.getDivisibility(),
                      cst = info.getConstancy();
  AxisInfo::applyHint(op->getDiscardableAttr("tt.contiguity"), cont);
  AxisInfo::applyHint(op->getDiscardableAttr("tt.divisibility"), div);
  AxisInfo::applyHint(op->getDiscardableAttr("tt.constancy"), cst);
  info = AxisInfo(cont, div, cst, info.getConstantValue());
  for (Lattice *result : results)
    propagateIfChanged(result, result->join(info));
  return success();
}

//===----------------------------------------------------------------------===//
// ModuleAxisInfoAnalysis
//===----------------------------------------------------------------------===//

ModuleAxisInfoAnalysis::ModuleAxisInfoAnalysis(ModuleOp module) {
  // Callers before callees: a function's call sites are all analysed before
  // it is. Recursion (not valid Triton) just leaves the hints as they are.
  SmallVector<FunctionOpInterface> funcs;
  module.walk([&](FunctionOpInterface f) { funcs.push_back(f); });
  SymbolTableCollection symbols;
  llvm::DenseMap<Operation *, SmallVector<Operation *>> callees;
  llvm::DenseMap<Operation *, unsigned> callers;
  for (FunctionOpInterface f : funcs)
    f.walk([&](CallOpInterface call) {
      if (auto callee = dyn_cast_or_null<FunctionOpInterface>(
              call.resolveCallableInTable(&symbols))) {
        callees[f].push_back(callee);
        ++callers[callee];
      }
    });
  SmallVector<FunctionOpInterface> order, ready;
  for (FunctionOpInterface f : funcs)
    if (!callers.count(f))
      ready.push_back(f);
  while (!ready.empty()) {
    FunctionOpInterface f = ready.pop_back_val();
    order.push_back(f);
    for (Operation *callee : callees[f])
      if (--callers[callee] == 0)
        ready.push_back(cast<FunctionOpInterface>(callee));
  }
  for (FunctionOpInterface f : funcs) // functions on call cycles
    if (!llvm::is_contained(order, f))
      order.push_back(f);

  AxisInfoAnalysis::CallSiteInfo callSites;
  for (FunctionOpInterface func : order) {
    DataFlowSolver solver;
    dataflow::loadBaselineAnalyses(solver);
    auto *analysis = solver.load<AxisInfoAnalysis>(&callSites);
    if (failed(solver.initializeAndRun(func)))
      continue;
    auto record = [&](Value v) {
      AxisInfo info = analysis->getLatticeElement(v)->getValue();
      if (info.getRank() == 0)
        info = AxisInfo::getPessimisticValueState(v);
      AxisInfo &slot = infos[v];
      slot = AxisInfo::join(info, slot);
    };
    func.walk([&](Operation *op) {
      for (Value r : op->getResults())
        record(r);
    });
    func.walk([&](Block *block) {
      for (Value a : block->getArguments())
        record(a);
    });
    func.walk([&](CallOpInterface call) {
      auto callee = dyn_cast_or_null<FunctionOpInterface>(
          call.resolveCallableInTable(&symbols));
      if (!callee || callee.isExternal())
        return;
      Block &entry = callee.getFunctionBody().front();
      for (auto [operand, arg] :
           llvm::zip(call.getArgOperands(), entry.getArguments())) {
        auto it = infos.find(operand);
        if (it == infos.end() || it->second.getRank() != 1)
          continue;
        auto [slot, fresh] = callSites.try_emplace(arg, it->second);
        if (!fresh)
          slot->second = AxisInfo(
              {gcd(slot->second.getContiguity(0), it->second.getContiguity(0))},
              {gcd(slot->second.getDivisibility(0),
                   it->second.getDivisibility(0))},
              {gcd(slot->second.getConstancy(0), it->second.getConstancy(0))});
      }
    });
  }
}

const AxisInfo *ModuleAxisInfoAnalysis::getAxisInfo(Value value) const {
  auto it = infos.find(value);
  return it == infos.end() ? nullptr : &it->second;
}

int64_t
mlir::tgpu::getAccessVectorWidth(const ModuleAxisInfoAnalysis *axisInfo,
                                 Value ptr, Value mask,
                                 const ::tgpu::layout::LinearLayout &layout,
                                 int64_t elemBytes, int64_t maxBytes) {
  const AxisInfo *ptrInfo = axisInfo ? axisInfo->getAxisInfo(ptr) : nullptr;
  const AxisInfo *maskInfo =
      mask && axisInfo ? axisInfo->getAxisInfo(mask) : nullptr;
  int rank = layout.getNumOutDims();
  if (!ptrInfo || ptrInfo->getRank() != rank)
    return 1;
  if (mask && (!maskInfo || maskInfo->getRank() != rank))
    return 1;
  elemBytes = std::max<int64_t>(elemBytes, 1);
  int64_t best = 1;
  for (int d = 0; d < rank; ++d) {
    int64_t aligned =
        std::max<int64_t>(ptrInfo->getDivisibility(d) / elemBytes, 1);
    int64_t vec = std::min({::tgpu::layout::getAlignedRegisterRun(layout, d),
                            aligned, ptrInfo->getContiguity(d),
                            std::max<int64_t>(maxBytes / elemBytes, 1)});
    if (maskInfo)
      vec = std::min(vec, maskInfo->getConstancy(d));
    best =
        std::max(best, vec <= 1 ? int64_t(1)
                                : int64_t(1) << llvm::Log2_64(uint64_t(vec)));
  }
  return best;
}
