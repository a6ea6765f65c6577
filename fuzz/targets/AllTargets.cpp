#include "fuzz/targets/Targets.h"

namespace tgpu::fuzz {

llvm::ArrayRef<const TargetInfo *> allTargets() {
  static const TargetInfo *targets[] = {
      &ttirParserTarget(), &layoutAttrTarget(), &linearLayoutTarget(),
      &pipelineTarget(), &mutateTarget()};
  return targets;
}

const TargetInfo *findTarget(llvm::StringRef name) {
  for (const TargetInfo *t : allTargets())
    if (name == t->name)
      return t;
  return nullptr;
}

} // namespace tgpu::fuzz
