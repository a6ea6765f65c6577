// libFuzzer's custom mutator for fuzz_ttgir_mutate: an input that parses
// gets one to three structural mutations (fuzz/mutator/IrMutator.h), drawn
// from bytes made of libFuzzer's seed; one that does not (libFuzzer's own
// crossovers, a truncated file) gets libFuzzer's byte mutations.
#include "fuzz/generator/ByteSource.h"
#include "fuzz/mutator/IrMutator.h"

#include "mlir/IR/MLIRContext.h"

#include <cstring>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned int seed) {
  mlir::MLIRContext *context = &tgpu::mutate::mutationContext();
  std::string text(reinterpret_cast<const char *>(data), size);
  std::vector<uint8_t> bytes = tgpu::gen::ByteSource::fromSeed(seed);
  tgpu::gen::ByteSource src(bytes);
  std::optional<std::string> mutant =
      tgpu::mutate::mutateText(*context, text, src, 1 + unsigned(src.below(3)));
  if (!mutant || mutant->size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, mutant->data(), mutant->size());
  return mutant->size();
}
