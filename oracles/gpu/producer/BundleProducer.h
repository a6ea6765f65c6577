// The CPU side of the GPU oracle: compiles a kernel with tgpu's compiler,
// runs it on the CPU reference for the expected buffers, and writes one
// self-contained bundle folder (oracles/gpu/BUNDLE.md).
#ifndef TGPU_ORACLES_GPU_BUNDLEPRODUCER_H
#define TGPU_ORACLES_GPU_BUNDLEPRODUCER_H

#include "oracles/cpu/RunArgs.h"

#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace tgpu::oracle {

struct CaseSpec {
  std::string name;       // the bundle's name (unique in a campaign)
  std::string sourcePath; // the kernel file, for the record
  std::string text;       // the kernel (TTIR or TTGIR)
  std::string fileName;   // its name; the extension picks the input kind
  cpu::LaunchSpec launch; // grid, num-warps (TTIR only) and arguments
  // Per output argument, the generator's bound on |GPU - reference|; when
  // absent the bound comes from the kernel's op classes (Precision.h).
  std::optional<std::map<unsigned, double>> absTolerances;
};

struct ProducerOptions {
  // CompilerOptions::arch: unset, the module's ttg.target decides (sm_90 by
  // default, sm_90a where wgmma is used).
  std::optional<std::string> arch;
  unsigned optLevel = 3;
  // tt.dot on tensor cores (CompilerOptions::tensorCores).
  bool tensorCores = true;
  // Software pipelining stages (CompilerOptions::numStages).
  int numStages = 3;
  // Probe each buffer with poison to find write-only outputs (one more CPU
  // run per buffer).
  bool poison = true;
};

class BundleProducer {
public:
  static llvm::Expected<std::unique_ptr<BundleProducer>> create(const ProducerOptions &o);
  ~BundleProducer();

  // Writes the bundle folder `outDir` (created; must not exist yet). Errors:
  // the kernel does not compile, the reference reports undefined behaviour
  // or cannot run it, or the folder cannot be written.
  llvm::Error produce(const CaseSpec &spec, const std::string &outDir);

private:
  struct Impl;
  explicit BundleProducer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace tgpu::oracle

#endif
