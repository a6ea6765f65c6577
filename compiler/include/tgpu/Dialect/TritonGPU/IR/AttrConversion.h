// The bridge between the ttg layout attributes and the MLIR-free layout
// values: attribute -> Encoding -> LinearLayout, and distributed / shared
// LinearLayouts back to #ttg.linear / #ttg.shared_linear.
#ifndef TGPU_DIALECT_TRITONGPU_IR_ATTRCONVERSION_H
#define TGPU_DIALECT_TRITONGPU_IR_ATTRCONVERSION_H

#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Layout/Encodings.h"

namespace tgpu::layout {

// The plain value of a ttg layout attribute; an error for any other
// attribute (and for a #ttg.linear whose bases are not onto their dims).
llvm::Expected<Encoding> encodingFromAttr(mlir::Attribute attr);

// toLinearLayout(shape, encodingFromAttr(attr)).
llvm::Expected<LinearLayout> toLinearLayout(llvm::ArrayRef<int64_t> shape,
                                            mlir::Attribute attr);

// #ttg.linear holding a distributed layout (ins register, lane, warp, block;
// outs dim0..). Its dims are read back by inferring sizes from the bases, so
// the layout must be onto dims of those sizes.
llvm::Expected<mlir::triton::gpu::LinearEncodingAttr>
toLinearEncodingAttr(mlir::MLIRContext *ctx, const LinearLayout &layout);

// #ttg.shared_linear holding a shared layout (ins offset, block).
llvm::Expected<mlir::triton::gpu::SharedLinearEncodingAttr>
toSharedLinearEncodingAttr(mlir::MLIRContext *ctx, const LinearLayout &layout,
                           unsigned alignment = 16);

} // namespace tgpu::layout

#endif
