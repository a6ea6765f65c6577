// The `--policy key=value,...` overrides of GenPolicy and their checks.
#include "fuzz/generator/GenPolicy.h"

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
  return true;
}

} // namespace tgpu::gen
