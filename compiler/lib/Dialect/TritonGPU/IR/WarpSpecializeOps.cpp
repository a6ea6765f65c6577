// ttg.warp_specialize and its region ops: the printed form Triton 3.6 uses,
// Triton's verifier rules and messages, region semantics for MLIR's passes,
// and the canonicalizer that drops unused results and captures.
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/BitVector.h"

using namespace mlir;
using namespace mlir::triton::gpu;

Operation *WarpSpecializeOp::getPartitionsOp() {
  Region &holder = getPartitionOpHolder();
  if (holder.empty() || holder.front().empty())
    return nullptr;
  Operation *first = &holder.front().front();
  return isa<WarpSpecializePartitionsOp>(first) ? first : nullptr;
}

RegionRange WarpSpecializeOp::getPartitionRegions() {
  Operation *partitions = getPartitionsOp();
  if (!partitions)
    return RegionRange();
  return partitions->getRegions();
}

//===----------------------------------------------------------------------===//
// Syntax:
//   %r = ttg.warp_specialize(%captures) attributes {...}
//   default { ... ttg.warp_yield ... }
//   partition0(%arg: type, ...) num_warps(N) { ... ttg.warp_return }
//   ...
//   : (capture types) -> (result types)
// `partitionNumWarps` comes from the num_warps clauses and is not printed in
// the attribute dictionary; the partitions op is built by the parser.
//===----------------------------------------------------------------------===//

ParseResult WarpSpecializeOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> captures;
  SMLoc capturesLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(captures, AsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseKeyword("default") || parser.parseRegion(*result.addRegion()))
    return failure();

  OperationState partitions(
      parser.getEncodedSourceLoc(parser.getCurrentLocation()),
      WarpSpecializePartitionsOp::getOperationName());
  SmallVector<int32_t> numWarps;
  // Partitions are numbered in order: partition0, partition1, ...
  while (succeeded(parser.parseOptionalKeyword(
      "partition" + std::to_string(numWarps.size())))) {
    SmallVector<OpAsmParser::Argument> args;
    int32_t warps = 0;
    if (parser.parseArgumentList(args, AsmParser::Delimiter::Paren,
                                 /*allowType=*/true) ||
        parser.parseKeyword("num_warps") || parser.parseLParen() ||
        parser.parseInteger(warps) || parser.parseRParen() ||
        parser.parseRegion(*partitions.addRegion(), args))
      return failure();
    numWarps.push_back(warps);
  }

  FunctionType type;
  if (parser.parseColon() || parser.parseType(type) ||
      parser.resolveOperands(captures, type.getInputs(), capturesLoc,
                             result.operands))
    return failure();
  result.addTypes(type.getResults());
  result.addAttribute(getPartitionNumWarpsAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(numWarps));

  Block &holder = result.addRegion()->emplaceBlock();
  OpBuilder builder(parser.getContext());
  builder.setInsertionPointToStart(&holder);
  builder.create(partitions);
  return success();
}

void WarpSpecializeOp::print(OpAsmPrinter &p) {
  p << '(';
  p.printOperands(getOperands());
  p << ')';
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getPartitionNumWarpsAttrName()});
  p.printNewline();
  p << "default ";
  p.printRegion(getDefaultRegion(), /*printEntryBlockArgs=*/false);
  ArrayRef<int32_t> numWarps = getPartitionNumWarps();
  for (auto [i, region] : llvm::enumerate(getPartitionRegions())) {
    p.printNewline();
    p << "partition" << i << '(';
    llvm::interleaveComma(region->getArguments(), p, [&](BlockArgument arg) {
      p.printRegionArgument(arg);
    });
    // Verified IR has a count per partition; print what there is otherwise
    // (the printer also runs on IR that failed to verify).
    p << ") num_warps(";
    if (i < numWarps.size())
      p << numWarps[i];
    p << ") ";
    p.printRegion(*region, /*printEntryBlockArgs=*/false);
  }
  p << " : ";
  p.printFunctionalType(getOperandTypes(), getResultTypes());
}

//===----------------------------------------------------------------------===//
// Verifiers (Triton's rules and messages).
//===----------------------------------------------------------------------===//

LogicalResult WarpSpecializeOp::verify() {
  // MLIR cannot isolate only some regions of an op, so the isolated
  // partitions live in an op of their own in the second region.
  if (!getPartitionsOp())
    return emitOpError(
        "expected to find only a `ttg.warp_specialize.partitions` op inside "
        "its second region");

  RegionRange regions = getPartitionRegions();
  ArrayRef<int32_t> numWarps = getPartitionNumWarps();
  if (regions.size() != numWarps.size())
    return emitOpError("has ")
           << regions.size() << " partitions but `partitionNumWarps` has "
           << numWarps.size() << " elements";
  for (auto [i, warps] : llvm::enumerate(numWarps))
    if (warps <= 0 || !llvm::isPowerOf2_32(uint32_t(warps)))
      return emitOpError("partition #")
             << i << " number of warps (" << warps << ") must be a power of 2";
  if (std::optional<ArrayRef<int32_t>> startIds = getWarpGroupStartIds())
    if (startIds->size() != numWarps.size())
      return emitOpError("has ")
             << startIds->size() << " warp group start IDs but expected "
             << numWarps.size();

  for (auto [i, region] : llvm::enumerate(regions)) {
    if (region->getNumArguments() != getNumOperands())
      return emitOpError("partition region #")
             << i << " has " << region->getNumArguments()
             << " arguments but expected " << getNumOperands();
    for (auto [argIndex, argType, captureType] :
         llvm::enumerate(region->getArgumentTypes(), getOperandTypes()))
      if (argType != captureType)
        return emitOpError("partition region #")
               << i << " argument #" << argIndex << " has type " << argType
               << " but corresponding capture has type " << captureType;
  }

  if ((*this)->getParentOfType<WarpSpecializeOp>())
    return emitOpError(
        "cannot be nested inside another `ttg.warp_specialize` op");

  // Partitions take whole warp groups of the kernel's warps.
  std::optional<int> kernelWarps = maybeLookupNumWarps(*this);
  if (kernelWarps && *kernelWarps % 4 != 0)
    return emitError(
        "warp-specialized kernels requires num_warps to be a multiple of 4");
  return success();
}

LogicalResult WarpYieldOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (getNumOperands() != parent->getNumResults())
    return emitOpError("has ")
           << getNumOperands() << " operands but parent op expected "
           << parent->getNumResults();
  for (auto [i, expected, actual] :
       llvm::enumerate(parent->getResultTypes(), getOperandTypes()))
    if (expected != actual)
      return emitOpError("operand #") << i << " has type " << actual
                                      << " but parent op expected " << expected;
  return success();
}

//===----------------------------------------------------------------------===//
// Region semantics: control enters the default region and leaves it to the
// op's results. The partitions run beside it but exchange no values through
// region edges (they only see the captures), so they are no successors:
// passes that follow region control flow see the default region as the op's
// body, and the partitions op as an opaque terminator of the second region.
//===----------------------------------------------------------------------===//

void WarpSpecializeOp::getSuccessorRegions(
    RegionBranchPoint point, SmallVectorImpl<RegionSuccessor> &regions) {
  if (point.isParent()) {
    regions.emplace_back(&getDefaultRegion());
    return;
  }
  regions.push_back(RegionSuccessor(getOperation(), getResults()));
}

//===----------------------------------------------------------------------===//
// Canonicalization: results nobody uses leave the op (and the default
// region's yields); captures that no partition reads leave it, and a value
// captured twice is captured once.
//===----------------------------------------------------------------------===//

LogicalResult WarpSpecializeOp::canonicalize(WarpSpecializeOp op,
                                             PatternRewriter &rewriter) {
  if (!op.getPartitionsOp())
    return failure();
  RegionRange regions = op.getPartitionRegions();
  // Partition regions are never empty in verified IR (MinSizedRegion<1>).
  for (Region *region : regions)
    if (region->empty() || region->getNumArguments() != op.getNumOperands())
      return failure();

  llvm::BitVector dropCaptures(op.getNumOperands());
  llvm::DenseMap<Value, unsigned> firstCapture;
  for (auto [i, capture] : llvm::enumerate(op.getExplicitCaptures())) {
    bool unused = llvm::all_of(regions, [&, i = i](Region *r) {
      return r->getArgument(i).use_empty();
    });
    if (unused) {
      dropCaptures.set(i);
      continue;
    }
    auto [it, inserted] = firstCapture.try_emplace(capture, i);
    if (inserted)
      continue;
    rewriter.modifyOpInPlace(op, [&, i = i, first = it->second] {
      for (Region *r : regions)
        rewriter.replaceAllUsesWith(r->getArgument(i), r->getArgument(first));
    });
    dropCaptures.set(i);
  }

  llvm::BitVector dropResults(op.getNumResults());
  for (OpResult result : op.getResults())
    if (result.use_empty())
      dropResults.set(result.getResultNumber());

  if (dropCaptures.none() && dropResults.none())
    return failure();

  if (dropCaptures.any())
    rewriter.modifyOpInPlace(op, [&] {
      for (Region *r : regions)
        r->front().eraseArguments(dropCaptures);
      op->eraseOperands(dropCaptures);
    });
  if (dropResults.none())
    return success();

  for (Block &block : op.getDefaultRegion())
    if (auto yield = dyn_cast_or_null<WarpYieldOp>(block.getTerminator()))
      rewriter.modifyOpInPlace(yield,
                               [&] { yield->eraseOperands(dropResults); });
  SmallVector<Type> keptTypes;
  for (OpResult result : op.getResults())
    if (!dropResults.test(result.getResultNumber()))
      keptTypes.push_back(result.getType());
  OperationState state(op.getLoc(), op->getName(), op->getOperands(), keptTypes,
                       op->getAttrs());
  state.addRegion()->takeBody(op.getDefaultRegion());
  state.addRegion()->takeBody(op.getPartitionOpHolder());
  Operation *replacement = rewriter.create(state);
  unsigned next = 0;
  for (OpResult result : op.getResults())
    if (!dropResults.test(result.getResultNumber()))
      rewriter.replaceAllUsesWith(result, replacement->getResult(next++));
  rewriter.eraseOp(op);
  return success();
}
