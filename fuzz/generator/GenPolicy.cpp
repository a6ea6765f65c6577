// The `--policy key=value,...` overrides of GenPolicy and their checks.
#include "fuzz/generator/GenPolicy.h"

#include "fuzz/generator/ByteSource.h"

#include "llvm/ADT/SmallVector.h"

namespace tgpu::gen {

llvm::ArrayRef<PolicyKey> policyKeys() {
  static const PolicyKey keys[] = {
      {"int", &GenPolicy::wIntArith},
      {"float", &GenPolicy::wFloatArith},
      {"math", &GenPolicy::wMath},
      {"compare", &GenPolicy::wCompare},
      {"cast", &GenPolicy::wCast},
      {"view", &GenPolicy::wView},
      {"load", &GenPolicy::wLoad},
      {"reduce", &GenPolicy::wReduce},
      {"scan", &GenPolicy::wScan},
      {"dot", &GenPolicy::wDot},
      {"atomic", &GenPolicy::wAtomic},
      {"for", &GenPolicy::wFor},
      {"if", &GenPolicy::wIf},
      {"while", &GenPolicy::wWhile},
      {"permute", &GenPolicy::wPermute},
      {"ops", &GenPolicy::maxOps},
      {"depth", &GenPolicy::maxDepth},
      {"numel-log2", &GenPolicy::maxLog2Numel},
      {"rank", &GenPolicy::maxRank},
      {"outputs", &GenPolicy::maxOutputs},
      {"trips", &GenPolicy::maxTripCount},
      {"relayouts", &GenPolicy::maxRelayouts},
      {"convert-pairs", &GenPolicy::maxConvertPairs},
      {"num-stages", &GenPolicy::numStages},
      {"arch", &GenPolicy::arch},
      {"swarm", &GenPolicy::swarm},
  };
  return keys;
}

std::string policyKeyList() {
  std::string out;
  for (const PolicyKey &k : policyKeys())
    out += (out.empty() ? "" : ", ") + std::string(k.name);
  return out;
}

bool applyPolicyOverrides(llvm::StringRef text, GenPolicy &p,
                          std::string &why) {
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',', -1, false);
  for (llvm::StringRef item : items) {
    auto [k, v] = item.split('=');
    llvm::StringRef key = k.trim();
    const PolicyKey *found = nullptr;
    for (const PolicyKey &pk : policyKeys())
      if (key == pk.name)
        found = &pk;
    unsigned value;
    if (!found) {
      why = "unknown policy key '" + k.str() + "'";
      return false;
    }
    if (v.trim().getAsInteger(10, value)) {
      why = "policy '" + k.str() + "' needs a number, got '" + v.str() + "'";
      return false;
    }
    p.*(found->field) = value;
  }
  if (p.maxLog2Numel < 4 || p.maxLog2Numel > 14) {
    why = "numel-log2 must be in 4..14";
    return false;
  }
  if (p.maxRank < 1 || p.maxRank > 3) {
    why = "rank must be 1, 2 or 3";
    return false;
  }
  if (p.maxTripCount < 1 || p.maxOutputs < 1) {
    why = "trips and outputs must be at least 1";
    return false;
  }
  if (p.numStages > 8) {
    why = "num-stages must be in 0..8 (0: random 1..4)";
    return false;
  }
  if (p.arch != 0 && p.arch != 80 && p.arch != 90) {
    why = "arch must be 0 (random), 80 or 90";
    return false;
  }
  if (p.swarm > 1) {
    why = "swarm must be 0 or 1";
    return false;
  }
  return true;
}

GenPolicy drawSwarmPolicy(ByteSource &src, const GenPolicy &base) {
  GenPolicy p = base;
  p.swarm = 0;
  unsigned GenPolicy::*families[] = {
      &GenPolicy::wIntArith, &GenPolicy::wFloatArith, &GenPolicy::wMath,
      &GenPolicy::wCompare,  &GenPolicy::wCast,       &GenPolicy::wView,
      &GenPolicy::wLoad,     &GenPolicy::wReduce,     &GenPolicy::wScan,
      &GenPolicy::wDot,      &GenPolicy::wAtomic,     &GenPolicy::wFor,
      &GenPolicy::wIf,       &GenPolicy::wWhile,      &GenPolicy::wPermute};
  for (unsigned GenPolicy::*family : families)
    if (src.chance(1, 3))
      p.*family = 0;
  if (base.wDot != 0 && src.chance(2, 3)) {
    p.wDot = std::max(base.wDot, 40u);
    p.maxLog2Numel = std::max(base.maxLog2Numel, 10u);
  } else if (src.coin()) {
    unsigned GenPolicy::*focus = families[src.below(std::size(families))];
    p.*focus = 8 * std::max(base.*focus, 1u);
  }
  return p;
}

} // namespace tgpu::gen
