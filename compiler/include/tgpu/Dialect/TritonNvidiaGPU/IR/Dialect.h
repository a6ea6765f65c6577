// The `ttng` dialect (Hopper wgmma and fences).
#ifndef TGPU_DIALECT_TRITONNVIDIAGPU_IR_DIALECT_H
#define TGPU_DIALECT_TRITONNVIDIAGPU_IR_DIALECT_H

#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "tgpu/Dialect/TritonNvidiaGPU/IR/TritonNvidiaGPUDialect.h.inc"

#define GET_OP_CLASSES
#include "tgpu/Dialect/TritonNvidiaGPU/IR/TritonNvidiaGPUOps.h.inc"

#endif
