// A reference for tt.elementwise_inline_asm: a small PTX subset evaluated
// element by element (see SEMANTICS.md §4). Anything outside the subset is an
// error naming the instruction, never a guess.
#ifndef TGPU_ORACLES_CPU_INLINEASM_H
#define TGPU_ORACLES_CPU_INLINEASM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace tgpu::cpu {

// A parsed asm body: instructions over registers $0..$n (outputs first).
class InlineAsmProgram {
public:
  // `numRegs` = outputs + inputs (from the constraint string).
  static llvm::Expected<InlineAsmProgram> parse(llvm::StringRef text,
                                                unsigned numRegs);
  // Runs on raw register bits (inputs filled, outputs zero); updates regs.
  llvm::Error run(std::vector<uint64_t> &regs) const;

private:
  struct Operand {
    bool isReg = true;
    unsigned reg = 0;
    uint64_t imm = 0;
  };
  struct Inst {
    std::string op;   // e.g. "add"
    char kind = 'b';  // 'b', 'u', 's' or 'f'
    unsigned bits = 32;
    std::vector<Operand> args;
  };
  std::vector<Inst> insts;
};

} // namespace tgpu::cpu

#endif
