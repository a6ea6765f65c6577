// Registration of the passes under compiler/test/lib (lit-test helpers).
#ifndef TGPU_TEST_LIB_TESTPASSES_H
#define TGPU_TEST_LIB_TESTPASSES_H

namespace mlir::tgpu {
void registerTestPasses();
} // namespace mlir::tgpu

#endif
