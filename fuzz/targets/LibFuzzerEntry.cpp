// The libFuzzer entry point of one target (TGPU_FUZZ_TARGET names the
// function returning its TargetInfo, set by fuzz/CMakeLists.txt).
// A finding is printed and turned into an abort, so libFuzzer keeps the input
// as a crash and ci/fuzz.sh reads the signature from the report.
#include "fuzz/targets/FuzzTarget.h"
#include "fuzz/targets/Targets.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const tgpu::fuzz::TargetInfo &target = tgpu::fuzz::TGPU_FUZZ_TARGET();
  // libFuzzer's copy is heap memory; reads past it from uninstrumented
  // code would go unseen without the guard page.
  if (std::optional<tgpu::fuzz::Finding> finding = target.run(
          tgpu::fuzz::placeBeforeGuardPage(llvm::ArrayRef<uint8_t>(data, size)))) {
    tgpu::fuzz::printFinding(target.name, *finding);
    std::abort();
  }
  return 0;
}

// ASan defaults for every run of a fuzz binary, however it is started:
// - allow_user_poisoning=0: LLVM's allocators poison and unpoison their slabs
//   only where compiled with ASan; our instrumented inline copies and the
//   uninstrumented libMLIR/libLLVM share allocators, which gives false
//   use-after-poison reports;
// - detect_container_overflow=0: the same mix for std::vector annotations;
// - detect_leaks=0: the targets keep one MLIR context per process on purpose;
// - malloc_context_size=4, quarantine_size_mb=64: every allocation of the
//   (uninstrumented) MLIR and LLVM goes through ASan's allocator, and
//   recording 30 frames per malloc plus a 256 MB quarantine made
//   fuzz_pipeline a quarter slower. A report still has the full stack of the
//   bad access; rerun with ASAN_OPTIONS=malloc_context_size=30 for deeper
//   allocation stacks.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0:detect_container_overflow=0:detect_leaks=0:"
         "malloc_context_size=4:quarantine_size_mb=64";
}
