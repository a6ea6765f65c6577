// The Tensor Memory Accelerator's ops (sm_90; checkAsyncOpsLowerable
// refuses them before), written as Triton 3.6 writes them:
// - ttng.async_tma_copy_global_to_local / local_to_global: one
//   cp.async.bulk.tensor per box of the buffer (Layout/Tma.h picks the
//   boxes and checks that the buffer's layout is the one TMA writes), the
//   boxes shared out among the warps, each issued by one elected lane. A
//   load completes on its mbarrier (the bytes a ttng.barrier_expect
//   announced); stores close a bulk group that ttng.async_tma_store_wait
//   waits for.
// - ttng.async_tma_store_wait: cp.async.bulk.wait_group.read.
// - ttng.reinterpret_tensor_descriptor: the descriptor's global address as
//   a generic pointer (what the copies take).
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "tgpu/Layout/Tma.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

// The plan for copying a whole block of `shape` laid out as `encoding`.
FailureOr<::tgpu::layout::TmaCopyPlan> planBlock(Operation *op,
                                                 ArrayRef<int64_t> shape,
                                                 Type elemType,
                                                 Attribute encoding) {
  auto nvmma = dyn_cast_or_null<ttg::NVMMASharedEncodingAttr>(encoding);
  if (!nvmma || nvmma.getTransposed() || nvmma.getFp4Padded())
    return op->emitOpError()
           << "is not supported yet for the layout " << encoding
           << ": tgpu copies with TMA into non-transposed #ttg.nvmma_shared "
              "buffers only";
  if (llvm::any_of(nvmma.getCgaBases(), [](int32_t v) { return v != 0; }))
    return op->emitOpError() << "is not supported yet for " << encoding
                             << ": the block is split among CTAs";
  auto layout = ::tgpu::layout::toLinearLayout(shape, encoding);
  if (!layout)
    return op->emitOpError()
           << "cannot lay out a block of " << shape.size() << " dims in "
           << encoding << ": " << llvm::toString(layout.takeError());
  auto toOffset = layout->invert();
  if (!toOffset)
    return op->emitOpError()
           << "the layout " << encoding
           << " is not one-to-one: " << llvm::toString(toOffset.takeError());
  int bits = int(memoryElementBytes(elemType) * 8);
  auto plan = ::tgpu::layout::planTmaCopy(
      std::vector<int64_t>(shape.begin(), shape.end()), *toOffset, bits,
      int(nvmma.getSwizzlingByteWidth()));
  if (!plan)
    return op->emitOpError() << "TMA cannot copy a block in " << encoding
                             << ": " << llvm::toString(plan.takeError());
  return std::move(*plan);
}

// The boxes a TMA copy of `buffer` (a whole buffer or a ring slot) takes.
FailureOr<::tgpu::layout::TmaCopyPlan> planCopy(Operation *op, Value buffer,
                                                size_t coordCount) {
  auto type = cast<ttg::MemDescType>(buffer.getType());
  ArrayRef<int64_t> shape = type.getShape();
  // The coordinates name the block's dims; the buffer may drop leading ones.
  if (coordCount < shape.size())
    return op->emitOpError()
           << "has " << coordCount << " coordinates for the rank-"
           << shape.size() << " buffer " << type;
  if (shape != type.getAllocShape().take_back(shape.size()))
    return op->emitOpError() << "copies whole buffers or ring slots; " << type
                             << " is a part of one";
  auto plan = planBlock(op, shape, type.getElementType(), type.getEncoding());
  if (failed(plan))
    return failure();
  // The allocator aligns nvmma buffers for TMA; a ring slot (anything but a
  // whole buffer) starts where the one before it ends, so its size must
  // keep that alignment too.
  int64_t bytes = memoryElementBytes(type.getElementType());
  for (int64_t d : shape)
    bytes *= d;
  if (!buffer.getDefiningOp<ttg::LocalAllocOp>() &&
      bytes % plan->requiredAlignment() != 0)
    return op->emitOpError() << "TMA cannot copy " << type << ": a ring slot "
                             << "of " << bytes << " bytes leaves the next one "
                             << "off the " << plan->requiredAlignment()
                             << "-byte alignment TMA needs";
  return plan;
}

// One box of a copy: the shared address it lands at (or leaves from) and its
// global coordinates, innermost first (the operand order of
// cp.async.bulk.tensor).
struct Box {
  Value shared;
  SmallVector<Value> coords;
};

// The boxes of `plan`, numWarps at a time: each warp issues box warp + i;
// `issue` gets each group's boxes (as values of the warp id) and the
// predicate "this thread's warp has a box in this group".
void forEachBoxGroup(RewriterBase &rewriter, Location loc,
                     const LoweringInfo &info,
                     const ::tgpu::layout::TmaCopyPlan &plan, Type elemType,
                     Value base, ValueRange coords,
                     function_ref<void(const Box &box, Value inGroup)> issue) {
  Value tid = getThreadId(rewriter, loc);
  int32_t messages = plan.numMessages();
  // Only a group of several boxes tells warps apart.
  Value warp = messages > 1
                   ? getLaneAndWarpId(rewriter, loc, info.threadsPerWarp).second
                   : Value();
  // A rank-reducing copy's buffer has the block's last dims; the leading
  // coordinates (of block dims of size 1) are the same for every box.
  int rank = int(coords.size());
  int bufferRank = int(plan.toCoord.getNumOutDims());
  int lead = rank - bufferRank;
  // The buffer dims whose coordinate differs between boxes.
  SmallVector<bool> moves(bufferRank, false);
  for (int b = 0; b < plan.toCoord.getInDimSizeLog2("msg"); ++b)
    for (int i = 0; i < bufferRank; ++i)
      moves[i] = moves[i] || plan.toCoord.getBasis("msg", b)[i] != 0;
  for (int32_t first = 0; first < messages; first += info.numWarps) {
    int32_t inGroup = std::min<int32_t>(messages - first, info.numWarps);
    Value inThisGroup = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::ult, tid,
        i32Constant(rewriter, loc, inGroup * info.threadsPerWarp));
    Value msg = inGroup == 1
                    ? i32Constant(rewriter, loc, first)
                    : LLVM::AddOp::create(rewriter, loc, warp,
                                          i32Constant(rewriter, loc, first));
    SmallVector<Value> offset =
        emitLayoutApply(rewriter, loc, plan.toOffset, "msg", msg);
    SmallVector<Value> origin =
        emitLayoutApply(rewriter, loc, plan.toCoord, "msg", msg);
    Box box;
    box.shared = LLVM::GEPOp::create(rewriter, loc, base.getType(), elemType,
                                     base, ValueRange{offset[0]});
    for (int i = rank - 1; i >= 0; --i) {
      int d = i - lead;
      box.coords.push_back(
          d >= 0 && moves[d]
              ? Value(LLVM::AddOp::create(rewriter, loc, coords[i], origin[d]))
              : coords[i]);
    }
    issue(box, inThisGroup);
  }
}

// "{$first, ..., $(first + count - 1)}", as Triton writes a TMA copy's
// coordinates.
std::string coordList(int first, int count) {
  std::string s = "{";
  for (int i = 0; i < count; ++i)
    s += (i ? ", $" : "$") + std::to_string(first + i);
  return s + "}";
}

Value emitElectOne(RewriterBase &rewriter, Location loc) {
  return NVVM::ElectSyncOp::create(rewriter, loc, rewriter.getI1Type(),
                                   /*membermask=*/Value());
}

struct TmaLoadLowering
    : public ConvertOpToLLVMPattern<ttng::AsyncTMACopyGlobalToLocalOp> {
  TmaLoadLowering(TritonGPUToLLVMTypeConverter &converter,
                  const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}
  LogicalResult
  matchAndRewrite(ttng::AsyncTMACopyGlobalToLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType type = op.getResult().getType();
    auto plan = planCopy(op, op.getResult(), op.getCoord().size());
    if (failed(plan))
      return failure();
    Location loc = op.getLoc();
    Type elemType = getTypeConverter()->convertType(type.getElementType());
    Value pred = LLVM::AndOp::create(rewriter, loc, adaptor.getPred(),
                                     emitElectOne(rewriter, loc));
    int rank = int(op.getCoord().size());
    std::string text = "@$0 cp.async.bulk.tensor." + std::to_string(rank) +
                       "d.shared::cluster.global.mbarrier::complete_tx::bytes "
                       "[$1], [$2, ";
    text += coordList(3, rank) + "], [$" + std::to_string(3 + rank) + "];";
    forEachBoxGroup(rewriter, loc, info, *plan, elemType, adaptor.getResult(),
                    adaptor.getCoord(), [&](const Box &box, Value inGroup) {
                      PtxAsmOperands operands;
                      operands.input(
                          LLVM::AndOp::create(rewriter, loc, pred, inGroup),
                          "b");
                      operands.input(box.shared, "r");
                      operands.input(adaptor.getDesc(), "l");
                      for (Value c : box.coords)
                        operands.input(c, "r");
                      operands.input(adaptor.getBarrier(), "r");
                      createPtxAsm(rewriter, loc, {}, operands, text);
                    });
    rewriter.eraseOp(op);
    return success();
  }
  LoweringInfo info;
};

struct TmaStoreLowering
    : public ConvertOpToLLVMPattern<ttng::AsyncTMACopyLocalToGlobalOp> {
  TmaStoreLowering(TritonGPUToLLVMTypeConverter &converter,
                   const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}
  LogicalResult
  matchAndRewrite(ttng::AsyncTMACopyLocalToGlobalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType type = op.getSrc().getType();
    auto plan = planCopy(op, op.getSrc(), op.getCoord().size());
    if (failed(plan))
      return failure();
    Location loc = op.getLoc();
    Type elemType = getTypeConverter()->convertType(type.getElementType());
    Value pred = emitElectOne(rewriter, loc);
    int rank = int(op.getCoord().size());
    std::string text = "@$0 cp.async.bulk.tensor." + std::to_string(rank) +
                       "d.global.shared::cta.bulk_group [$1, " +
                       coordList(2, rank) + "], [$" + std::to_string(2 + rank) +
                       "];";
    forEachBoxGroup(rewriter, loc, info, *plan, elemType, adaptor.getSrc(),
                    adaptor.getCoord(), [&](const Box &box, Value inGroup) {
                      PtxAsmOperands operands;
                      operands.input(
                          LLVM::AndOp::create(rewriter, loc, pred, inGroup),
                          "b");
                      operands.input(adaptor.getDesc(), "l");
                      for (Value c : box.coords)
                        operands.input(c, "r");
                      operands.input(box.shared, "r");
                      createPtxAsm(rewriter, loc, {}, operands, text);
                    });
    NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
  LoweringInfo info;
};

struct ReinterpretTensorDescLowering
    : public ConvertOpToLLVMPattern<ttng::ReinterpretTensorDescOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttng::ReinterpretTensorDescOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::AddrSpaceCastOp>(
        op, getTypeConverter()->convertType(op.getType()),
        adaptor.getRawDesc());
    return success();
  }
};

struct TmaStoreWaitLowering
    : public ConvertOpToLLVMPattern<ttng::TMAStoreWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ttng::TMAStoreWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncBulkWaitGroupOp>(
        op, op.getPendingsAttr(), rewriter.getUnitAttr());
    return success();
  }
};

// "0x<v>", as Triton writes a PTX immediate.
std::string hexImmediate(int64_t v) { return llvm::formatv("{0:x}", v).str(); }

// `instr` executed by the threads for which `pred` holds, with operand $0
// an address ("[ $0 + 0 ]"), as Triton writes it; `rest` follows the
// address, `values` its operands.
void emitPredicatedAsm(RewriterBase &rewriter, Location loc, Value pred,
                       StringRef instr, Value address,
                       StringRef addressConstraint, StringRef rest,
                       ArrayRef<std::pair<Value, StringRef>> values = {}) {
  PtxAsmOperands operands;
  operands.input(address, addressConstraint);
  for (auto [v, constraint] : values)
    operands.input(v, constraint);
  unsigned p = operands.input(pred, "b");
  std::string text = "@$" + std::to_string(p) + " " + instr.str() +
                     " [ $0 + 0 ]" + rest.str() + ";";
  createPtxAsm(rewriter, loc, {}, operands, text);
}

// A CUtensorMap made in the kernel: warp 0 zeroes the op's 128 bytes of
// shared scratch, thread 0 sets each field with tensormap.replace (sm_90a),
// and warp 0 copies the result to its global home with release semantics
// for the tensormap proxy, as Triton does.
struct TensormapCreateLowering
    : public ConvertOpToLLVMPattern<ttng::TensormapCreateOp> {
  TensormapCreateLowering(TritonGPUToLLVMTypeConverter &converter,
                          const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}
  LogicalResult
  matchAndRewrite(ttng::TensormapCreateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value smem = getSharedMemoryBase(rewriter, op);
    Value tid = getThreadId(rewriter, loc);
    auto i32 = [&](int32_t v) { return i32Constant(rewriter, loc, v); };
    Value warp0 = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult,
                                       tid, i32(info.threadsPerWarp));
    Value thread0 = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                         tid, i32(0));
    // 32 threads, 4 bytes each: the 128-byte map starts out all zeros.
    Value word =
        LLVM::GEPOp::create(rewriter, loc, smem.getType(),
                            rewriter.getI32Type(), smem, ValueRange{tid});
    emitPredicatedAsm(rewriter, loc, warp0, "st.shared.b32", word, "r", ", $1",
                      {{i32(0), "r"}});
    NVVM::SyncWarpOp::create(rewriter, loc, i32(-1));

    auto replace = [&](StringRef field, StringRef width,
                       std::optional<int> ordinal, Value v) {
      std::string instr =
          ("tensormap.replace.tile." + field + ".shared::cta.b1024." + width)
              .str();
      std::string rest = ordinal ? ", " + hexImmediate(*ordinal) : "";
      rest += ", $1";
      emitPredicatedAsm(rewriter, loc, thread0, instr, smem, "r", rest,
                        {{v, width == "b64" ? "l" : "r"}});
    };
    auto replaceImmediate = [&](StringRef field, int64_t v) {
      std::string instr =
          ("tensormap.replace.tile." + field + ".shared::cta.b1024.b32").str();
      emitPredicatedAsm(rewriter, loc, thread0, instr, smem, "r",
                        ", " + hexImmediate(v));
    };
    int rank = op.getRank();
    replace("global_address", "b64", std::nullopt, adaptor.getGlobalAddress());
    replaceImmediate("rank", rank - 1);
    for (int i = 0; i < rank; ++i)
      replace("box_dim", "b32", i, adaptor.getBoxDim()[i]);
    for (int i = 0; i < rank; ++i)
      replace("global_dim", "b32", i, adaptor.getGlobalDim()[i]);
    // Byte strides as they are. (Triton shifts them right by 4 when it
    // writes PTX 8.5 or older, for an old ptxas; with CUDA 13's ptxas and
    // driver JIT, tgpu's PTX 8.4 needs bytes: shifted strides gave a map
    // that differs from cuTensorMapEncodeTiled's and copies that miss all
    // but the first row, on an H100, 2026-11-27.)
    for (int i = 0; i + 1 < rank; ++i)
      replace("global_stride", "b64", i, adaptor.getGlobalStride()[i]);
    for (int i = 0; i < rank; ++i)
      replace("element_stride", "b32", i, adaptor.getElementStride()[i]);
    replaceImmediate("elemtype", op.getElemType());
    replaceImmediate("interleave_layout", op.getInterleaveLayout());
    replaceImmediate("swizzle_mode", op.getSwizzleMode());
    replaceImmediate("fill_mode", op.getFillMode());
    emitPredicatedAsm(
        rewriter, loc, warp0,
        "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic."
        "release.gpu.sync.aligned",
        adaptor.getDescPtr(), "l", ", [ $1 + 0 ], 0x80", {{smem, "r"}});
    rewriter.eraseOp(op);
    return success();
  }
  LoweringInfo info;
};

// Orders a CUtensorMap written through the generic proxy before TMA copies
// that read it: warp 0 fences it for the tensormap proxy (then closes and
// waits for a bulk group, which ptxas needs to keep the fence, as Triton
// does), and the CTA meets at a barrier.
struct TensormapFenceproxyAcquireLowering
    : public ConvertOpToLLVMPattern<ttng::TensormapFenceproxyAcquireOp> {
  TensormapFenceproxyAcquireLowering(TritonGPUToLLVMTypeConverter &converter,
                                     const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}
  LogicalResult
  matchAndRewrite(ttng::TensormapFenceproxyAcquireOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value warp0 = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::ult, getThreadId(rewriter, loc),
        i32Constant(rewriter, loc, info.threadsPerWarp));
    PtxAsmOperands operands;
    operands.input(adaptor.getDescPtr(), "l");
    operands.input(warp0, "b");
    createPtxAsm(rewriter, loc, {}, operands,
                 "@$1 fence.proxy.tensormap::generic.acquire.gpu [ $0 + 0 ], "
                 "0x80;\n\t@$1 cp.async.bulk.commit_group;\n\t@$1 "
                 "cp.async.bulk.wait_group.read 0;");
    NVVM::Barrier0Op::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
  LoweringInfo info;
};

} // namespace

LogicalResult mlir::tgpu::checkTmaOpsLowerable(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    Value buffer;
    size_t coords = 0;
    if (auto load = dyn_cast<ttng::AsyncTMACopyGlobalToLocalOp>(op)) {
      buffer = load.getResult();
      coords = load.getCoord().size();
    } else if (auto store = dyn_cast<ttng::AsyncTMACopyLocalToGlobalOp>(op)) {
      buffer = store.getSrc();
      coords = store.getCoord().size();
    } else {
      return WalkResult::advance();
    }
    return failed(planCopy(op, buffer, coords)) ? WalkResult::interrupt()
                                                : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

FailureOr<TmaBox> mlir::tgpu::planTmaBox(Operation *op, ArrayRef<int64_t> shape,
                                         Type elemType, Attribute encoding) {
  auto plan = planBlock(op, shape, elemType, encoding);
  if (failed(plan))
    return failure();
  return TmaBox{plan->box, plan->swizzleBytes,
                int(memoryElementBytes(elemType))};
}

void mlir::tgpu::populateTmaOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<TmaStoreWaitLowering, ReinterpretTensorDescLowering>(converter);
  patterns.add<TmaLoadLowering, TmaStoreLowering, TensormapCreateLowering,
               TensormapFenceproxyAcquireLowering>(converter, info);
}
