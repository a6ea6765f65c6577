// The MLIRContext the property and oracle tests parse into: every tgpu
// dialect loaded, made once per test binary and never destroyed (attributes
// and modules built from it live in static test data).
#ifndef TGPU_PROPERTIES_TESTCONTEXT_H
#define TGPU_PROPERTIES_TESTCONTEXT_H

#include "tgpu/InitAllDialects.h"

#include "mlir/IR/MLIRContext.h"

namespace tgpu::test {

inline mlir::MLIRContext &context() {
  static mlir::MLIRContext *ctx = [] {
    mlir::DialectRegistry registry;
    mlir::tgpu::registerAllDialects(registry);
    auto *c = new mlir::MLIRContext(registry);
    c->loadAllAvailableDialects();
    return c;
  }();
  return *ctx;
}

} // namespace tgpu::test

#endif
