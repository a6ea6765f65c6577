// One case: every image of a bundle run on the same inputs, each compared
// with the expected buffers, then the three-way verdict (tgpu, Triton, the
// CPU reference): when all images fail, they are compared with each other to
// tell a wrong reference from images that are wrong in different ways.
#ifndef TGPU_ORACLES_GPU_CASE_H
#define TGPU_ORACLES_GPU_CASE_H

#include "oracles/gpu/bundle/Bundle.h"
#include "oracles/gpu/bundle/Json.h"
#include "oracles/gpu/runner/CudaExecutor.h"

#include <string>

namespace tgpu::gpu {

struct CaseOptions {
  // Where to write the buffers of images that failed (DIR/<case>/<impl>/argK.bin);
  // empty: nowhere.
  std::string saveFailedDir;
};

// Returns the case's result as JSON:
//   {"case": name, "dir": ..., "status": "PASS"|"FAIL"|"ERROR",
//    "against": [impls or "reference"], "detail": "...",
//    "images": [{"impl", "status": "pass"|"fail"|"error", "detail",
//                "load_ms", "run_ms"}]}
// `sticky` is set when the CUDA context is lost (the worker must exit).
bundle::Json runCase(Executor &exec, const std::string &dir,
                     const CaseOptions &options, bool &sticky);

} // namespace tgpu::gpu

#endif
