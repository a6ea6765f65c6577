// Runs one image of a bundle and returns what every buffer argument holds
// afterwards. CudaExecutor runs it on the GPU through the CUDA driver API
// (libcuda is opened at run time, so a machine without it gets a clear
// error, not a loader failure); modules and device buffers are kept between
// cases (one executor per worker process). SimulatedExecutor stands in for
// the GPU in the runner's own tests (tgpu-gpu-run --simulate).
#ifndef TGPU_ORACLES_GPU_CUDAEXECUTOR_H
#define TGPU_ORACLES_GPU_CUDAEXECUTOR_H

#include "oracles/gpu/bundle/Bundle.h"

#include <memory>
#include <string>
#include <vector>

namespace tgpu::gpu {

struct ImageRun {
  bool ok = false;
  // A failure after which the CUDA context is unusable (illegal address,
  // launch failure, ...): the worker must exit and be replaced.
  bool sticky = false;
  std::string error;  // "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX: <jit log>"
  double loadMs = 0;  // module load (the driver's JIT for PTX), 0 when cached
  double runMs = 0;   // launch to synchronisation
  // Per argument: the buffer's final bytes (empty for scalars).
  std::vector<std::vector<uint8_t>> buffers;
  // Buffers whose guard bytes before or after the data changed.
  std::vector<std::string> guardViolations;
};

class Executor {
public:
  virtual ~Executor() = default;
  // `inputs[k]` holds argument k's initial bytes (buffers and descriptors).
  // A descriptor argument (bundle::Arg::isDescriptor) is a buffer like the
  // others, in memory and in the result; its kernel parameter is the
  // CUtensorMap over that buffer that bundle::tensorMapParams describes
  // (the image's box and swizzle), passed by value.
  virtual ImageRun run(const bundle::Bundle &b, const bundle::Image &image,
                       const std::vector<std::vector<uint8_t>> &inputs) = 0;
  virtual std::string deviceName() const = 0;
};

class CudaExecutor : public Executor {
public:
  // Initialises the driver and the device's primary context; false with a
  // message when there is no usable GPU.
  static std::unique_ptr<CudaExecutor> create(int device, std::string &error);
  ~CudaExecutor();

  ImageRun run(const bundle::Bundle &b, const bundle::Image &image,
               const std::vector<std::vector<uint8_t>> &inputs) override;
  std::string deviceName() const override;

private:
  struct Impl;
  explicit CudaExecutor(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

// No GPU: an image whose file starts with "// simulate: ACTION" does
// ACTION: `expected` (returns the expected buffers), `inputs` (writes
// nothing), `flip` (the expected with the first element of every output
// changed), `hang`, `crash` (the worker dies), `sticky` (a lost context),
// `load-error`. Any other image behaves as `inputs`. Descriptor arguments
// are buffers here (there is no TMA to encode for).
class SimulatedExecutor : public Executor {
public:
  ImageRun run(const bundle::Bundle &b, const bundle::Image &image,
               const std::vector<std::vector<uint8_t>> &inputs) override;
  std::string deviceName() const override { return "simulated"; }
};

} // namespace tgpu::gpu

#endif
