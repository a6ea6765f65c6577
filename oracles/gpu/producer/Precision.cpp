#include "oracles/gpu/producer/Precision.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tgpu::oracle {

namespace {

// Trip count assumed for a loop whose bounds are not constants.
constexpr double kUnknownTrips = 64;

mlir::Type elementOf(mlir::Type t) {
  if (auto shaped = mlir::dyn_cast<mlir::ShapedType>(t))
    return shaped.getElementType();
  return t;
}

double unitRoundoff(mlir::Type t) {
  if (t.isF16())
    return std::ldexp(1.0, -11);
  if (t.isBF16())
    return std::ldexp(1.0, -8);
  if (t.isF32())
    return std::ldexp(1.0, -24);
  if (t.isF64())
    return std::ldexp(1.0, -53);
  if (mlir::isa<mlir::FloatType>(t)) // fp8 and friends
    return std::ldexp(1.0, -3);
  return 0;
}

bool producesFloat(mlir::Operation *op) {
  for (mlir::Type t : op->getResultTypes())
    if (mlir::isa<mlir::FloatType>(elementOf(t)))
      return true;
  return false;
}

int64_t constantOf(mlir::Value v) {
  llvm::APInt value;
  if (mlir::matchPattern(v, mlir::m_ConstantInt(&value)))
    return value.getSExtValue();
  return -1;
}

// Extent of the axis a reduce or scan combines.
double axisExtent(mlir::Operation *op) {
  auto axis = op->getAttrOfType<mlir::IntegerAttr>("axis");
  if (!axis || op->getNumOperands() == 0)
    return 1;
  auto type = mlir::dyn_cast<mlir::RankedTensorType>(op->getOperand(0).getType());
  int64_t a = axis.getInt();
  if (!type || a < 0 || a >= type.getRank())
    return 1;
  return double(type.getDimSize(a));
}

} // namespace

KernelPrecision analyzePrecision(mlir::ModuleOp module, const std::array<int64_t, 3> &grid) {
  // Float ops the GPU reproduces exactly: moves, selects, compares, sign
  // and exponent manipulation, exact widening.
  static const llvm::StringSet<> exact = {
      "arith.constant", "arith.select", "arith.cmpf", "arith.negf", "arith.extf",
      "arith.minimumf", "arith.maximumf", "arith.minnumf", "arith.maxnumf",
      "arith.bitcast", "math.absf", "math.copysign", "math.floor", "math.ceil",
      "math.trunc", "math.round", "math.roundeven", "tt.load", "tt.splat",
      "tt.broadcast", "tt.expand_dims", "tt.reshape", "tt.trans", "tt.join",
      "tt.split", "tt.cat", "tt.gather", "tt.bitcast", "tt.clampf",
      "ttg.convert_layout", "ttg.local_load", "ttg.local_alloc", "tt.reduce.return",
      "tt.scan.return", "scf.yield", "scf.if", "scf.for", "scf.while",
      "scf.condition", "tt.atomic_cas", "ub.poison"};
  // Correctly rounded on both sides; they differ only where the compiler
  // contracts a multiply and an add into an fma, or converts in another order.
  static const llvm::StringSet<> rounding = {
      "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.remf",
      "math.fma", "arith.truncf", "arith.sitofp", "arith.uitofp", "tt.fp_to_fp",
      "tt.precise_divf", "tt.precise_sqrt", "tt.mulhiui"};
  KernelPrecision p;
  module.walk([&](mlir::Operation *op) {
    llvm::StringRef name = op->getName().getStringRef();
    if (name == "scf.for") {
      // A loop that carries floats may accumulate across its iterations.
      bool carriesFloat = llvm::any_of(op->getResultTypes(), [](mlir::Type t) {
        return mlir::isa<mlir::FloatType>(elementOf(t));
      });
      if (carriesFloat && op->getNumOperands() >= 3) {
        int64_t lb = constantOf(op->getOperand(0)), ub = constantOf(op->getOperand(1)),
                step = constantOf(op->getOperand(2));
        double trips = (lb >= 0 && ub >= 0 && step > 0)
                           ? std::max<double>(1, std::ceil(double(ub - lb) / double(step)))
                           : kUnknownTrips;
        p.accumulatedTerms += trips;
      }
      return;
    }
    if (!producesFloat(op))
      return;
    for (mlir::Type t : op->getResultTypes())
      p.epsilon = std::max(p.epsilon, unitRoundoff(elementOf(t)));
    if (name == "tt.reduce" || name == "tt.scan") {
      p.accumulatedTerms += axisExtent(op);
    } else if (name == "tt.dot" || name == "tt.dot_scaled") {
      auto a = mlir::dyn_cast<mlir::RankedTensorType>(op->getOperand(0).getType());
      p.accumulatedTerms += a && a.getRank() >= 1 ? double(a.getShape().back()) : 1;
      for (mlir::Value v : op->getOperands().take_front(2))
        p.epsilon = std::max(p.epsilon, unitRoundoff(elementOf(v.getType())));
      // inputPrecision = tf32: tensor cores read f32 operands with 10
      // mantissa bits (tf32x3 recovers f32's precision; ieee is exact f32).
      if (mlir::Attribute ip = op->getAttr("inputPrecision")) {
        std::string text;
        llvm::raw_string_ostream os(text);
        ip.print(os);
        if (text.find("tf32") != std::string::npos &&
            text.find("tf32x3") == std::string::npos)
          p.epsilon = std::max(p.epsilon, std::ldexp(1.0, -11));
      }
    } else if (name == "tt.atomic_rmw") {
      p.accumulatedTerms += double(grid[0] * grid[1] * grid[2]);
    } else if (exact.contains(name)) {
      ++p.exactOps;
    } else if (rounding.contains(name)) {
      ++p.roundingOps;
    } else {
      ++p.approxOps; // math.exp/log/sin/..., libdevice, inline asm, unknown
    }
  });
  char buf[160];
  std::snprintf(buf, sizeof buf, "%u rounding, %u approximate, %g accumulated terms",
                p.roundingOps, p.approxOps, p.accumulatedTerms);
  p.summary = buf;
  return p;
}

bundle::CompareRule ruleFor(const KernelPrecision &p, bundle::Elem elem, double maxAbs) {
  bundle::CompareRule rule;
  if (!bundle::isFloat(elem))
    return rule;
  if (p.roundingOps == 0 && p.approxOps == 0 && p.accumulatedTerms == 0) {
    rule.why = "exact float ops only";
    return rule;
  }
  // Each rounding may land one unit roundoff u away (contraction, another
  // order); an approximation is within 2^-21 relative (PTX ex2/lg2/sin/cos
  // .approx and libdevice, with range reduction); a sum of n terms in
  // another order is within n*u of the sum of the terms' magnitudes, which
  // the output's largest magnitude stands in for. The output's own rounding
  // adds one unit of its type.
  double u = p.epsilon > 0 ? p.epsilon : bundle::elemEpsilon(elem) / 2;
  double rel = u * (2.0 * p.roundingOps + p.accumulatedTerms) +
               std::ldexp(1.0, -21) * p.approxOps + bundle::elemEpsilon(elem);
  rule.rtol = rel;
  rule.atol = rel * (std::isfinite(maxAbs) ? maxAbs : 0);
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s: |got - expected| <= %.3g * (|expected| + %.3g)",
                p.summary.c_str(), rel, maxAbs);
  rule.why = buf;
  return rule;
}

bundle::CompareRule ruleForExpected(const KernelPrecision &p, bundle::Elem elem,
                                    const uint8_t *expected, uint64_t count) {
  double maxAbs = 0;
  for (uint64_t i = 0; i < count; ++i) {
    double v = std::fabs(bundle::elemAsDouble(elem, expected, i));
    if (std::isfinite(v))
      maxAbs = std::max(maxAbs, v);
  }
  return ruleFor(p, elem, maxAbs);
}

} // namespace tgpu::oracle
