#include "oracles/gpu/runner/CudaExecutor.h"

#include <cstdlib>
#include <unistd.h>

namespace tgpu::gpu {

ImageRun SimulatedExecutor::run(const bundle::Bundle &b, const bundle::Image &image,
                                const std::vector<std::vector<uint8_t>> &inputs) {
  ImageRun r;
  std::string text, why;
  if (!bundle::readFile(bundle::joinPath(b.dir, image.file), text, why)) {
    r.error = why;
    return r;
  }
  const std::string tag = "// simulate: ";
  std::string action = "inputs";
  if (text.rfind(tag, 0) == 0)
    action = text.substr(tag.size(), text.find('\n') - tag.size());

  if (action == "hang")
    while (true)
      pause();
  // Deliberate, and only under --simulate: stands in for a driver that
  // kills the worker process, which the parent must report as ERROR and
  // replace (simulate.test). The parent process never gets here.
  if (action == "crash")
    std::abort();
  if (action == "sticky" || action == "load-error") {
    r.sticky = action == "sticky";
    r.error = "simulated " + action;
    return r;
  }
  r.buffers = inputs;
  if (action == "expected" || action == "flip") {
    for (size_t k = 0; k < b.args.size(); ++k) {
      if (!b.args[k].isBuffer)
        continue;
      if (!bundle::readFile(bundle::joinPath(b.dir, b.args[k].buffer.expected), text, why)) {
        r.error = why;
        return r;
      }
      r.buffers[k].assign(text.begin(), text.end());
      if (action == "flip" && b.args[k].buffer.output)
        for (unsigned i = 0; i < bundle::elemBytes(b.args[k].elem); ++i)
          r.buffers[k][i] = uint8_t(~r.buffers[k][i]);
    }
  }
  r.ok = true;
  return r;
}

} // namespace tgpu::gpu
