// One GPU-oracle case: a folder holding meta.json, the kernel images and the
// argument buffers (format in oracles/gpu/BUNDLE.md). Written by
// tgpu-oracle (CPU side), read by tgpu-gpu-run (GPU side). Plain C++17.
#ifndef TGPU_ORACLES_GPU_BUNDLE_H
#define TGPU_ORACLES_GPU_BUNDLE_H

#include "oracles/gpu/bundle/Json.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tgpu::bundle {

constexpr const char *kFormat = "tgpu-bundle-1";
// The byte output-only buffers are filled with before a run, on both sides.
constexpr uint8_t kPoisonByte = 0xA5;

enum class Elem { I1, I8, I16, I32, I64, F16, BF16, F32, F64 };
bool parseElem(const std::string &name, Elem &out);
const char *elemName(Elem e);
unsigned elemBytes(Elem e); // i1 is stored in one byte
bool isFloat(Elem e);
// The element at `index` of a little-endian buffer, as a double (integers
// sign-extended; i64 beyond 2^53 loses bits, so integers compare by bits).
double elemAsDouble(Elem e, const uint8_t *data, uint64_t index);
uint64_t elemBits(Elem e, const uint8_t *data, uint64_t index);
// Unit in the last place's size for a float type: 2^-23 for f32, etc.
double elemEpsilon(Elem e);

// How a GPU result element g may differ from the expected e:
//   |g - e| <= atol + rtol * |e|, NaN exactly where e is NaN, an infinity
//   only where e is the same infinity. Integers compare by bits, and so do
//   floats when atol = rtol = 0 except that -0 equals +0 and NaN payloads
//   are free.
struct CompareRule {
  double atol = 0;
  double rtol = 0;
  std::string why; // the op class the bound comes from, for reports
};

struct Buffer {
  Elem elem = Elem::F32;
  uint64_t count = 0;
  std::string input;    // file, relative to the bundle folder
  std::string expected; // file, relative to the bundle folder
  bool output = false;  // compared with `rule`; other buffers must not change
  bool poisoned = false; // input is kPoisonByte everywhere (write-only output)
  CompareRule rule;
};

struct Arg {
  bool isBuffer = false; // "buffer", and "descriptor" (its buffer)
  // "descriptor": a buffer the kernel reaches through a tensor descriptor
  // (a CUtensorMap parameter on the GPU) over `shape` and `strides`.
  bool isDescriptor = false;
  Elem elem = Elem::I32;
  uint64_t scalarBits = 0; // scalars: the value's bits, zero-extended
  std::string text;        // scalars: the value as the launch wrote it
  Buffer buffer;
  // Descriptors only: the array's sizes and strides in elements, outermost
  // first (the innermost stride is 1). The element size is elemBytes(elem).
  std::vector<uint64_t> shape, strides;
};

// The largest rank a TMA descriptor has.
constexpr size_t kMaxDescriptorRank = 5;

// Whether a descriptor argument is one TMA can describe: rank 1 to 5,
// positive strides, the innermost 1 and the others multiples of 16 bytes,
// `count` covering the last element (and equal to the product of the shape
// when the strides are the contiguous ones). False with `why`.
bool checkDescriptorArg(const Arg &a, std::string &why);

// How an image's kernel expects the CUtensorMap of a descriptor argument
// to be encoded: the box it copies (dims in the tensor's order, outermost
// first) and the shared-memory swizzle.
struct ImageDescriptor {
  unsigned arg = 0; // index into Bundle::args (a descriptor)
  std::vector<uint32_t> box;
  unsigned swizzleBytes = 0; // 0 (none), 32, 64 or 128
  unsigned elemBytes = 0;    // the argument's element size
};

// One compiled form of the kernel: ours, or Triton's for the three-way
// comparison. Each runs on the same inputs and must give the expected
// outputs.
struct Image {
  std::string impl = "tgpu"; // "tgpu", "triton"
  std::string file;          // .ptx or .cubin, relative to the bundle
  std::string entry;
  std::array<unsigned, 3> block{128, 1, 1};
  uint64_t sharedBytes = 0; // dynamic shared memory
  // Pointer parameters after the kernel's own (Triton's global and profile
  // scratch): per entry the bytes per program, 0 for a null pointer.
  std::vector<uint64_t> scratchPerProgram;
  // Why the image could not be built ("error: ..." or "timeout: ..."; set by
  // ptxas_images.py): the runner reports it without loading the file.
  std::string buildFailure;
  // Per descriptor argument the kernel's encoding, when the compiler said
  // (each argument at most once).
  std::vector<ImageDescriptor> descriptors;
  Json extra; // members the reader does not know ("ptx", "build_s"), kept on rewrite

  // The encoding for argument `arg`, or null when the image names none.
  const ImageDescriptor *descriptorFor(unsigned arg) const {
    for (const ImageDescriptor &d : descriptors)
      if (d.arg == arg)
        return &d;
    return nullptr;
  }
};

// What cuTensorMapEncodeTiled takes for descriptor argument `arg` of an
// image, in the driver's order (dimension 0 the innermost): global sizes,
// the byte strides of dimensions 1.. (dimension 0's is the element size),
// the box, unit element strides, the swizzle and the element type; the
// global address is the argument's device buffer.
struct TensorMapParams {
  unsigned rank = 0;
  Elem elem = Elem::F16;
  std::array<uint64_t, kMaxDescriptorRank> globalDim{};
  std::array<uint64_t, kMaxDescriptorRank - 1> globalStridesBytes{};
  std::array<uint32_t, kMaxDescriptorRank> boxDim{};
  std::array<uint32_t, kMaxDescriptorRank> elementStrides{};
  unsigned swizzleBytes = 0;
};

struct Bundle;
// False with `why` when `arg` is not a descriptor or `image` has no
// encoding for it.
bool tensorMapParams(const Bundle &b, const Image &image, unsigned arg,
                     TensorMapParams &out, std::string &why);

struct Bundle {
  std::string dir;  // where it was loaded from
  std::string name; // unique in a campaign
  std::string source; // the kernel file it came from (informational)
  std::string launch; // the launch in tgpu-run syntax (informational)
  std::array<uint64_t, 3> grid{1, 1, 1};
  std::vector<Arg> args;
  std::vector<Image> images;
  Json extra; // members the reader does not know, kept on rewrite
};

// Reads DIR/meta.json and checks it: every file named exists with the size
// its type and count give, grids and blocks are positive, scalars fit,
// descriptors pass checkDescriptorArg and images' descriptor encodings name
// descriptor arguments of their rank and element size.
bool loadBundle(const std::string &dir, Bundle &out, std::string &error);
// Writes DIR/meta.json (the data files are the producer's business).
bool saveBundleMeta(const Bundle &b, std::string &error);
Json bundleToJson(const Bundle &b);

bool readFile(const std::string &path, std::string &out, std::string &error);
bool writeFile(const std::string &path, const void *data, size_t size,
               std::string &error);
std::string joinPath(const std::string &dir, const std::string &file);
// The last component of a path ("a/b/" -> "b"): a case's name when its
// bundle cannot be read.
std::string baseName(std::string path);

} // namespace tgpu::bundle

#endif
