// Structural mutation of TTIR/TTGIR modules: programs the generator cannot
// write, made from ones that exist (corpus kernels, generated programs,
// Triton's dumps), after LLVM's FuzzMutate and MLIRod. Every mutant verifies;
// whether it is also free of undefined behaviour is for the CPU reference to
// say (fuzz_ttgir_mutate drops the mutants it calls undefined and takes the
// reference's answer on the others as the truth for the passes).
//
// One mutation is one of:
//   rewire    an operand now reads another value of its type that dominates
//             the op;
//   bypass    an op with results is deleted, its uses reading other values
//             of their types; an op without results (a store, a copy, a
//             barrier, a wait) is deleted;
//   insert    a binary arith op between a value and one of its uses
//             (v op w, w a dominating value of the same type);
//   constant  an integer or float constant (scalar or splat) changes value;
//   relayout  (TTGIR) a value goes through a random distributed layout and
//             back before one of its uses;
//   wait      an async_wait's `num` or a warp_group_dot_wait's `pendings`
//             moves by one;
//   stages    the launch's --num-stages changes, or a loop gets its own
//             `tt.num_stages`.
#ifndef TGPU_FUZZ_MUTATOR_IRMUTATOR_H
#define TGPU_FUZZ_MUTATOR_IRMUTATOR_H

#include "fuzz/generator/ByteSource.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>

namespace tgpu::mutate {

// The process's context with tgpu's dialects loaded, single-threaded: the
// custom mutator and fuzz_ttgir_mutate's reference check parse into it.
mlir::MLIRContext &mutationContext();

// Mutates `module` in place with one mutation drawn from `src`; what was
// done, in a line, or nullopt when no mutation drawn within a few tries
// gave a module that verifies (the module is then unchanged).
std::optional<std::string> mutateOnce(mlir::ModuleOp module,
                                      gen::ByteSource &src);

// Parses `text` into `context` (diagnostics swallowed), applies `count`
// mutations, prints the mutant. Nullopt when the text does not parse or no
// mutation applied. `log` gets one line per mutation.
std::optional<std::string> mutateText(mlir::MLIRContext &context,
                                      llvm::StringRef text,
                                      gen::ByteSource &src, unsigned count,
                                      std::string *log = nullptr);

} // namespace tgpu::mutate

#endif
