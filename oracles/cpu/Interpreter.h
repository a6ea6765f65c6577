// The CPU reference oracle: runs a tt.func for every program id of a grid,
// one program at a time, over simulated global memory made of the caller's
// buffers. The meaning of every op is stated in oracles/cpu/SEMANTICS.md;
// undefined behaviour is reported (UndefinedBehavior error), never executed.
#ifndef TGPU_ORACLES_CPU_INTERPRETER_H
#define TGPU_ORACLES_CPU_INTERPRETER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tgpu::cpu {

// Element types of kernel arguments and buffers. The 8-bit floats come last
// so that every kind from F16 on is a float.
enum class ScalarKind : uint8_t {
  I1,
  I8,
  I16,
  I32,
  I64,
  F16,
  BF16,
  F32,
  F64,
  F8E4M3FN, // MLIR's f8E4M3FN (Triton's fp8e4nv)
  F8E5M2,   // MLIR's f8E5M2 (Triton's fp8e5)
};

unsigned byteSize(ScalarKind k);
llvm::StringRef name(ScalarKind k);
// "i32" -> I32 etc.; false for an unknown name.
bool parseScalarKind(llvm::StringRef s, ScalarKind &k);

// One kernel argument: a scalar, or a buffer the kernel gets a pointer to,
// or a buffer it sees through a tensor descriptor (a !tt.tensordesc
// parameter; isBuffer is set too, so buffer code handles its bytes).
struct KernelArg {
  ScalarKind kind = ScalarKind::I32;
  bool isBuffer = false;
  bool isDescriptor = false;
  int64_t intValue = 0;    // scalar integers (sign-extended)
  double floatValue = 0;   // scalar floats
  std::vector<uint8_t> bytes; // buffer contents, little endian, updated by the run
  // Descriptors only: the array's sizes, outermost first, and its strides in
  // elements (row-major and contiguous as tgpu-run makes them).
  std::vector<int64_t> descShape, descStrides;
};

struct RunOptions {
  std::array<int64_t, 3> grid{1, 1, 1};
  int numWarps = 4;
  // Element operations per program before the run is stopped (runaway
  // loops): each op costs the elements of its result, a dot M*N*K.
  uint64_t stepBudget = uint64_t(1) << 32;
  // tt.reduce / tt.scan whose combine region is one block of element-wise
  // arith ops run it once per step on all lines together; false runs it
  // element by element (the second implementation tests compare against).
  bool laneWiseCombine = true;
  // Receives tt.print output (default: stdout).
  std::function<void(const std::string &)> print;
};

// A structured report of undefined behaviour or of a failed device assertion.
struct UBReport {
  std::string kind;     // e.g. "out-of-bounds", "division-by-zero"
  std::string op;       // the op name
  std::string location; // file:line:col of the op
  std::array<int64_t, 3> pid{0, 0, 0};
  std::vector<int64_t> element; // index within the op's tensor (empty: scalar)
  std::string message;
  std::string str() const;
};

class UndefinedBehavior : public llvm::ErrorInfo<UndefinedBehavior> {
public:
  static char ID;
  explicit UndefinedBehavior(UBReport r) : report(std::move(r)) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  UBReport report;
};

// Runs the kernel `kernelName` (or the only public tt.func when empty) of
// `module` over the grid. Buffer arguments are read and written in place.
// Errors: bad arguments (count or types against the signature), unsupported
// ops, undefined behaviour (UndefinedBehavior), step budget exhausted.
llvm::Error runKernel(mlir::ModuleOp module, llvm::StringRef kernelName,
                      std::vector<KernelArg> &args, const RunOptions &options);

// The kernel's signature as "(ptr:f32, ptr:f32, i32)" for messages.
std::string describeSignature(mlir::ModuleOp module, llvm::StringRef kernelName);

} // namespace tgpu::cpu

#endif
