#include "oracles/gpu/runner/CudaExecutor.h"

#include <cuda.h>

#include <chrono>
#include <cstring>
#include <dlfcn.h>
#include <map>

namespace tgpu::gpu {

namespace {

// Guard bytes around every buffer: 256 keeps the data 256-byte aligned as
// cuMemAlloc's own allocations are, so kernels see the alignment they
// would get from PyTorch or Triton's launcher.
constexpr size_t kGuard = 256;
constexpr uint8_t kGuardByte = 0x5A;
// Modules kept loaded; beyond this the cache is emptied (campaigns rarely
// repeat a kernel, sweeps over sizes do).
constexpr size_t kModuleCacheLimit = 256;

// The driver functions, looked up in libcuda.so.1 at run time. cuda.h maps
// some names to versioned symbols (cuMemAlloc -> cuMemAlloc_v2); the
// lookup uses the same expansion, so the symbol matches the prototype.
#define TGPU_CUDA_FUNCTIONS(X)                                                 \
  X(cuInit)                                                                    \
  X(cuDeviceGet) X(cuDeviceGetName) X(cuDevicePrimaryCtxRetain)                \
      X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent) X(cuCtxSynchronize)      \
          X(cuModuleLoadDataEx) X(cuModuleUnload) X(cuModuleGetFunction)       \
              X(cuFuncSetAttribute) X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD) \
                  X(cuMemcpyDtoH) X(cuMemsetD8) X(cuLaunchKernel)              \
                      X(cuGetErrorName) X(cuTensorMapEncodeTiled)
#define TGPU_STRINGIFY2(x) #x
#define TGPU_STRINGIFY(x) TGPU_STRINGIFY2(x)

struct Driver {
#define TGPU_MEMBER(f) decltype(&::f) f = nullptr;
  TGPU_CUDA_FUNCTIONS(TGPU_MEMBER)
#undef TGPU_MEMBER

  bool load(std::string &error) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char *e = dlerror();
      error = std::string("cannot load the CUDA driver (libcuda.so.1): ") + (e ? e : "?");
      return false;
    }
#define TGPU_LOOKUP(f)                                                         \
  f = reinterpret_cast<decltype(f)>(dlsym(lib, TGPU_STRINGIFY(f)));            \
  if (!f) {                                                                    \
    error = "libcuda.so.1 lacks " TGPU_STRINGIFY(f);                           \
    return false;                                                              \
  }
    TGPU_CUDA_FUNCTIONS(TGPU_LOOKUP)
#undef TGPU_LOOKUP
    return true;
  }
};

Driver drv;

// The driver's element type for a descriptor's elements (i1 is a byte).
CUtensorMapDataType tensorMapDataType(bundle::Elem e) {
  switch (e) {
  case bundle::Elem::I1:
  case bundle::Elem::I8:
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  case bundle::Elem::I16:
    return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  case bundle::Elem::I32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case bundle::Elem::I64:
    return CU_TENSOR_MAP_DATA_TYPE_INT64;
  case bundle::Elem::F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case bundle::Elem::BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case bundle::Elem::F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case bundle::Elem::F64:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  }
  return CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

CUtensorMapSwizzle tensorMapSwizzle(unsigned bytes) {
  switch (bytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

std::string errorName(CUresult rc) {
  const char *name = nullptr;
  if (drv.cuGetErrorName(rc, &name) != CUDA_SUCCESS || !name)
    return "CUDA error " + std::to_string(int(rc));
  return name;
}

double msSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t)
      .count();
}

} // namespace

struct CudaExecutor::Impl {
  CUdevice device = 0;
  CUcontext context = nullptr;
  std::map<std::string, CUmodule> modules; // image bytes -> module
  struct Allocation {
    CUdeviceptr base = 0;
    size_t bytes = 0;
  };
  std::vector<Allocation> pool; // reused across cases, by position

  ~Impl() {
    for (auto &m : modules)
      drv.cuModuleUnload(m.second);
    for (Allocation &a : pool)
      if (a.base)
        drv.cuMemFree(a.base);
    if (context)
      drv.cuDevicePrimaryCtxRelease(device);
  }

  // Device memory of at least `bytes` at pool slot `slot`.
  CUresult allocation(size_t slot, size_t bytes, CUdeviceptr &out) {
    if (pool.size() <= slot)
      pool.resize(slot + 1);
    Allocation &a = pool[slot];
    if (a.bytes < bytes) {
      if (a.base)
        drv.cuMemFree(a.base);
      a = Allocation();
      if (CUresult rc = drv.cuMemAlloc(&a.base, bytes))
        return rc;
      a.bytes = bytes;
    }
    out = a.base;
    return CUDA_SUCCESS;
  }
};

CudaExecutor::CudaExecutor(std::unique_ptr<Impl> i) : impl(std::move(i)) {}
CudaExecutor::~CudaExecutor() = default;

std::unique_ptr<CudaExecutor> CudaExecutor::create(int device, std::string &error) {
  if (!drv.cuInit && !drv.load(error))
    return nullptr;
  auto impl = std::make_unique<Impl>();
  CUresult rc = drv.cuInit(0);
  if (rc == CUDA_SUCCESS)
    rc = drv.cuDeviceGet(&impl->device, device);
  if (rc == CUDA_SUCCESS)
    rc = drv.cuDevicePrimaryCtxRetain(&impl->context, impl->device);
  if (rc == CUDA_SUCCESS)
    rc = drv.cuCtxSetCurrent(impl->context);
  if (rc != CUDA_SUCCESS) {
    impl->context = nullptr;
    error = "cannot initialise CUDA device " + std::to_string(device) + ": " + errorName(rc);
    return nullptr;
  }
  return std::unique_ptr<CudaExecutor>(new CudaExecutor(std::move(impl)));
}

std::string CudaExecutor::deviceName() const {
  char name[256] = {0};
  if (drv.cuDeviceGetName(name, sizeof name - 1, impl->device) != CUDA_SUCCESS)
    return "?";
  return name;
}

ImageRun CudaExecutor::run(const bundle::Bundle &b, const bundle::Image &image,
                           const std::vector<std::vector<uint8_t>> &inputs) {
  ImageRun r;
  auto fail = [&](const std::string &what, CUresult rc, bool sticky) {
    r.ok = false;
    r.sticky = sticky;
    r.error = what + ": " + errorName(rc) + (r.error.empty() ? "" : ": " + r.error);
    return r;
  };

  // Load (or reuse) the module.
  std::string bytes, why;
  if (!bundle::readFile(bundle::joinPath(b.dir, image.file), bytes, why)) {
    r.error = why;
    return r;
  }
  CUmodule module = nullptr;
  auto cached = impl->modules.find(bytes);
  if (cached != impl->modules.end()) {
    module = cached->second;
  } else {
    if (impl->modules.size() >= kModuleCacheLimit) {
      for (auto &m : impl->modules)
        drv.cuModuleUnload(m.second);
      impl->modules.clear();
    }
    // PTX must be NUL-terminated for the JIT (std::string's data is); a
    // cubin is taken as is.
    char log[16384] = {0};
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, reinterpret_cast<void *>(uintptr_t(sizeof log - 1))};
    auto start = std::chrono::steady_clock::now();
    CUresult rc = drv.cuModuleLoadDataEx(&module, bytes.c_str(), 2, opts, vals);
    r.loadMs = msSince(start);
    if (rc != CUDA_SUCCESS) {
      r.error = log;
      while (!r.error.empty() && (r.error.back() == '\n' || r.error.back() == ' '))
        r.error.pop_back();
      return fail("cuModuleLoadDataEx", rc, false);
    }
    impl->modules.emplace(std::move(bytes), module);
  }
  CUfunction function = nullptr;
  if (CUresult rc = drv.cuModuleGetFunction(&function, module, image.entry.c_str()))
    return fail("drv.cuModuleGetFunction(" + image.entry + ")", rc, false);
  if (image.sharedBytes > 48 * 1024)
    if (CUresult rc = drv.cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                         int(image.sharedBytes)))
      return fail("drv.cuFuncSetAttribute(max dynamic shared = " +
                      std::to_string(image.sharedBytes) + ")",
                  rc, false);

  // Buffers: guard, data, guard; then the scalars' bits and the scratch.
  const size_t nargs = b.args.size();
  std::vector<CUdeviceptr> pointers(nargs + image.scratchPerProgram.size(), 0);
  std::vector<uint64_t> scalars(nargs, 0);
  // Descriptor parameters: a CUtensorMap over the argument's buffer, passed
  // by value (cuLaunchKernel copies the parameter's 128 bytes).
  std::vector<CUtensorMap> maps(nargs);
  std::vector<void *> params;
  std::vector<uint8_t> guard(kGuard, kGuardByte);
  for (size_t k = 0; k < nargs; ++k) {
    const bundle::Arg &a = b.args[k];
    if (!a.isBuffer) {
      scalars[k] = a.scalarBits;
      params.push_back(&scalars[k]);
      continue;
    }
    size_t size = inputs[k].size();
    CUdeviceptr base;
    if (CUresult rc = impl->allocation(k, size + 2 * kGuard, base))
      return fail("drv.cuMemAlloc(" + std::to_string(size) + " bytes)", rc, false);
    CUresult rc = drv.cuMemcpyHtoD(base, guard.data(), kGuard);
    if (rc == CUDA_SUCCESS)
      rc = drv.cuMemcpyHtoD(base + kGuard, inputs[k].data(), size);
    if (rc == CUDA_SUCCESS)
      rc = drv.cuMemcpyHtoD(base + kGuard + size, guard.data(), kGuard);
    if (rc != CUDA_SUCCESS)
      return fail("cuMemcpyHtoD", rc, true);
    pointers[k] = base + kGuard;
    if (!a.isDescriptor) {
      params.push_back(&pointers[k]);
      continue;
    }
    // The box and swizzle are the image's (each compiler chose them for its
    // own copies); out-of-bounds elements of a box read as zero.
    bundle::TensorMapParams tm;
    std::string why;
    if (!bundle::tensorMapParams(b, image, unsigned(k), tm, why)) {
      r.ok = false;
      r.error = why;
      return r;
    }
    rc = drv.cuTensorMapEncodeTiled(
        &maps[k], tensorMapDataType(tm.elem), tm.rank,
        reinterpret_cast<void *>(pointers[k]), tm.globalDim.data(),
        tm.globalStridesBytes.data(), tm.boxDim.data(),
        tm.elementStrides.data(), CU_TENSOR_MAP_INTERLEAVE_NONE,
        tensorMapSwizzle(tm.swizzleBytes), CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (rc != CUDA_SUCCESS)
      return fail("cuTensorMapEncodeTiled (argument " + std::to_string(k) + ")",
                  rc, false);
    params.push_back(&maps[k]);
  }
  const uint64_t programs = b.grid[0] * b.grid[1] * b.grid[2];
  for (size_t s = 0; s < image.scratchPerProgram.size(); ++s) {
    CUdeviceptr &p = pointers[nargs + s];
    if (uint64_t per = image.scratchPerProgram[s]) {
      if (CUresult rc = impl->allocation(nargs + s, per * programs, p))
        return fail("drv.cuMemAlloc(scratch)", rc, false);
      if (CUresult rc = drv.cuMemsetD8(p, 0, per * programs))
        return fail("drv.cuMemsetD8(scratch)", rc, true);
    }
    params.push_back(&p);
  }

  auto start = std::chrono::steady_clock::now();
  CUresult rc = drv.cuLaunchKernel(function, unsigned(b.grid[0]), unsigned(b.grid[1]),
                               unsigned(b.grid[2]), image.block[0], image.block[1],
                               image.block[2], unsigned(image.sharedBytes), nullptr,
                               params.data(), nullptr);
  if (rc != CUDA_SUCCESS) // a bad configuration leaves the context usable
    return fail("cuLaunchKernel", rc, rc != CUDA_ERROR_INVALID_VALUE &&
                                          rc != CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
  rc = drv.cuCtxSynchronize();
  r.runMs = msSince(start);
  if (rc != CUDA_SUCCESS) // illegal address, trap, assert: the context is lost
    return fail("kernel execution (cuCtxSynchronize)", rc, true);

  r.buffers.resize(nargs);
  std::vector<uint8_t> front(kGuard), back(kGuard);
  for (size_t k = 0; k < nargs; ++k) {
    if (!b.args[k].isBuffer)
      continue;
    size_t size = inputs[k].size();
    r.buffers[k].resize(size);
    CUdeviceptr data = pointers[k];
    CUresult rc = drv.cuMemcpyDtoH(r.buffers[k].data(), data, size);
    if (rc == CUDA_SUCCESS)
      rc = drv.cuMemcpyDtoH(front.data(), data - kGuard, kGuard);
    if (rc == CUDA_SUCCESS)
      rc = drv.cuMemcpyDtoH(back.data(), data + size, kGuard);
    if (rc != CUDA_SUCCESS)
      return fail("cuMemcpyDtoH", rc, true);
    if (front != guard)
      r.guardViolations.push_back("arg" + std::to_string(k) + ": wrote before the buffer");
    if (back != guard)
      r.guardViolations.push_back("arg" + std::to_string(k) + ": wrote past the end");
  }
  r.ok = true;
  return r;
}

} // namespace tgpu::gpu
