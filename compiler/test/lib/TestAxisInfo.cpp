// -test-print-axis-info: a remark on every op result of every function with
// its AxisInfo, in Triton's text (so `expected-remark` lines read the same
// as Triton's -test-print-alignment tests).
#include "TestPasses.h"

#include "tgpu/Analysis/AxisInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
struct TestAxisInfoPass
    : public PassWrapper<TestAxisInfoPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAxisInfoPass)

  StringRef getArgument() const final { return "test-print-axis-info"; }
  StringRef getDescription() const final {
    return "print AxisInfo (contiguity, divisibility, constancy) of every "
           "value as remarks";
  }

  void runOnOperation() override {
    tgpu::ModuleAxisInfoAnalysis analysis(getOperation());
    getOperation().walk([&](FunctionOpInterface func) {
      func.walk([&](Operation *op) {
        if (op == func.getOperation())
          return;
        for (Value result : op->getResults()) {
          InFlightDiagnostic diag = op->emitRemark();
          diag << result << " => ";
          if (const tgpu::AxisInfo *info = analysis.getAxisInfo(result)) {
            std::string text;
            llvm::raw_string_ostream os(text);
            info->print(os);
            diag << text;
          }
        }
      });
    });
  }
};
} // namespace

void mlir::tgpu::registerTestPasses() {
  PassRegistration<TestAxisInfoPass>();
}
