// The libFuzzer entry point of one target (TGPU_FUZZ_TARGET names the
// function returning its TargetInfo, set by fuzz/CMakeLists.txt).
// A finding is printed and turned into an abort, so libFuzzer keeps the input
// as a crash and ci/fuzz.sh reads the signature from the report.
#include "FuzzTarget.h"
#include "Targets.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const tgpu::fuzz::TargetInfo &target = tgpu::fuzz::TGPU_FUZZ_TARGET();
  if (std::optional<tgpu::fuzz::Finding> finding =
          target.run(llvm::ArrayRef<uint8_t>(data, size))) {
    tgpu::fuzz::printFinding(target.name, *finding);
    std::abort();
  }
  return 0;
}
