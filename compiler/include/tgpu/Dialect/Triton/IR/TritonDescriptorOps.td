// The `tt` ops on tensor descriptors (`!tt.tensordesc`): making one, and
// loading, storing, reducing, gathering and scattering blocks through it.
// Included at the end of TritonOps.td (it uses TT_Op and GlobalMemory from
// there). Printed forms follow Triton 3.6; definitions and verifiers
// (DescriptorOps.cpp) are tgpu's own.
#ifndef TGPU_TRITON_DESCRIPTOR_OPS
#define TGPU_TRITON_DESCRIPTOR_OPS

def TT_MakeTensorDescOp : TT_Op<"make_tensor_descriptor", [Pure, SameVariadicOperandSize]> {
  let summary = "describe a strided global array to be accessed a block at a time";
  let description = [{
    Makes a `!tt.tensordesc` from a base pointer, the array's sizes (i32,
    one per dimension) and strides in elements (i64, one per dimension).
    The result type gives the block shape (and, in TTGIR, its shared
    layout). `padding` (`1` zero, `2` NaN; attribute, default zero) is
    what loads yield for elements outside the array.

    Verified: as many sizes and strides as the block has dimensions; the
    base pointer's pointee is the block's element type (signedness aside).

    Pure: an unused descriptor is removed and equal ones are merged.

    ```mlir
    tt.func @f(%base: !tt.ptr<f16>, %m: i32, %n: i32, %ld: i64) {
      %c1 = arith.constant 1 : i64
      %d = tt.make_tensor_descriptor %base, [%m, %n], [%ld, %c1] : <f16>, <tensor<64x64xf16>>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_Ptr:$base, Variadic<I32>:$shape, Variadic<I64>:$strides,
      DefaultValuedAttr<TT_PaddingOptionAttr, "::mlir::triton::PaddingOption::PAD_ZERO">:$padding);
  let results = (outs TT_TensorDescType:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` type($base) `,` type($result)
  }];
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<int64_t> getTensorShape() { return getType().getBlockType().getShape(); }
  }];
  let hasVerifier = 1;
}

def TT_DescriptorLoadOp : TT_Op<"descriptor_load"> {
  let summary = "load one block through a tensor descriptor";
  let description = [{
    Loads the block of the descriptor's array that starts at `indices`
    (one i32 per descriptor dimension; elements outside the array read as
    the descriptor's padding). On Hopper this is a TMA load into shared
    memory followed by a read into registers. `cacheModifier` and
    `evictionPolicy` are hints as for `tt.load`.

    Verified: the result has the block's shape and (signless) element
    type, except that leading block dimensions of size 1 may be dropped
    (a rank-reducing load).

    ```mlir
    tt.func @f(%d: !tt.tensordesc<tensor<1x64xf32>>, %i: i32) {
      %a = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<1x64xf32>> -> tensor<64xf32>
      %b = tt.descriptor_load %d[%i, %i] cacheModifier = cg : !tt.tensordesc<tensor<1x64xf32>> -> tensor<1x64xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins Arg<TT_TensorDescType, "", [MemRead<GlobalMemory>]>:$desc,
      Variadic<I32>:$indices,
      DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::triton::CacheModifier::NONE">:$cache,
      DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::triton::EvictionPolicy::NORMAL">:$evict);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $indices `]`
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($desc)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorStoreOp : TT_Op<"descriptor_store"> {
  let summary = "store one block through a tensor descriptor";
  let description = [{
    Writes `src` to the block of the descriptor's array that starts at
    `indices`; elements outside the array are not written. On Hopper a
    write to shared memory followed by a TMA store.

    Verified: `src` has the block's shape and (signless) element type,
    leading size-1 block dimensions aside, as for `tt.descriptor_load`.

    ```mlir
    tt.func @f(%d: !tt.tensordesc<tensor<16x16xf16>>, %v: tensor<16x16xf16>, %i: i32) {
      tt.descriptor_store %d[%i, %i], %v : !tt.tensordesc<tensor<16x16xf16>>, tensor<16x16xf16>
      tt.return
    }
    ```
  }];
  let arguments = (ins
      Arg<TT_TensorDescType, "", [MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>:$desc,
      TT_Tensor:$src, Variadic<I32>:$indices);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorReduceOp : TT_Op<"descriptor_reduce"> {
  let summary = "combine one block into global memory through a tensor descriptor";
  let description = [{
    Like `tt.descriptor_store`, but each element of `src` is combined with
    the one in memory by `kind` (`add`, `min`, `max`, `inc`, `dec`, `and`,
    `or`, `xor`), atomically per element with relaxed ordering (a TMA
    reduction on Hopper).

    Verified: `src` matches the block as for `tt.descriptor_store`.

    ```mlir
    tt.func @f(%d: !tt.tensordesc<tensor<16x16xf32>>, %v: tensor<16x16xf32>, %i: i32) {
      tt.descriptor_reduce add, %d[%i, %i], %v : !tt.tensordesc<tensor<16x16xf32>>, tensor<16x16xf32>
      tt.return
    }
    ```
  }];
  let arguments = (ins TT_DescriptorReduceKindAttr:$kind,
      Arg<TT_TensorDescType, "", [MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>:$desc,
      TT_Tensor:$src, Variadic<I32>:$indices);
  let assemblyFormat = [{
    $kind `,` $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorGatherOp : TT_Op<"descriptor_gather"> {
  let summary = "load several rows, each from its own row index, through a tensor descriptor";
  let description = [{
    Reads, for each i, the row `x_offsets[i]` of a 2-D array from column
    `y_offset` on (as many columns as the block has) into row i of the
    result: a TMA gather on the GPUs that have it. The descriptor's block
    is one row, `tensor<1xNxT>`.

    Verified: the block is 2-D with one row; `x_offsets` is 1-D; the
    result is 2-D with a row per offset, the block's column count and
    (signless) element type; as the TMA unit needs, at least 8 rows,
    elements of at most 32 bits and at least 8 * (32 / bits) columns.

    ```mlir
    tt.func @f(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<32xi32>, %y: i32) {
      %r = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<32x128xbf16>
      tt.return
    }
    ```
  }];
  let arguments = (ins Arg<TT_TensorDescType, "", [MemRead<GlobalMemory>]>:$desc,
      RankedTensorOf<[I32]>:$x_offsets, I32:$y_offset);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    // The TMA's limits on a gathered (or scattered) tile and its row
    // indices; shared with ttng.async_tma_gather / async_tma_scatter.
    static ::mlir::LogicalResult verifyResultType(::mlir::Operation *op,
        ::mlir::ShapedType resultType, ::mlir::RankedTensorType indicesType);
  }];
  let hasVerifier = 1;
}

def TT_DescriptorScatterOp : TT_Op<"descriptor_scatter"> {
  let summary = "store several rows, each to its own row index, through a tensor descriptor";
  let description = [{
    The converse of `tt.descriptor_gather`: row i of `src` is written to
    row `x_offsets[i]` of the array, from column `y_offset` on.

    Verified: the rules of `tt.descriptor_gather`, with `src` in place of
    the result.

    ```mlir
    tt.func @f(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<32xi32>, %y: i32, %v: tensor<32x128xbf16>) {
      tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32, tensor<32x128xbf16>
      tt.return
    }
    ```
  }];
  let arguments = (ins
      Arg<TT_TensorDescType, "", [MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>:$desc,
      RankedTensorOf<[I32]>:$x_offsets, I32:$y_offset, TT_Tensor:$src);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type(operands)
  }];
  let hasVerifier = 1;
}

#endif // TGPU_TRITON_DESCRIPTOR_OPS
