#include "fuzz/mutator/IrMutator.h"

#include "fuzz/generator/Generator.h"
#include "fuzz/generator/RandomLayouts.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "tgpu/InitAllDialects.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <regex>

namespace tgpu::mutate {

using namespace mlir;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

template <typename T>
T *pickFrom(gen::ByteSource &src, llvm::SmallVectorImpl<T> &items) {
  if (items.empty())
    return nullptr;
  return &items[src.below(items.size())];
}

std::string describe(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName();
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << " at line " << loc.getLine();
  return text;
}

// The state one mutation works on: the kernel's ops in order and the values
// that can stand in for others.
class Mutator {
public:
  Mutator(ModuleOp module, gen::ByteSource &src)
      : module(module), src(src), dom(module) {
    module.walk([&](Operation *op) {
      if (op != module.getOperation())
        ops.push_back(op);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            values.push_back(arg);
      for (Value v : op->getResults())
        values.push_back(v);
    });
  }

  std::optional<std::string> run() {
    switch (src.below(7)) {
    case 0:
      return rewire();
    case 1:
      return bypass();
    case 2:
      return insertBinary();
    case 3:
      return constant();
    case 4:
      return relayout();
    case 5:
      return wait();
    default:
      return stages();
    }
  }

private:
  // Values of `type` that dominate `user` (and are not its own results).
  llvm::SmallVector<Value> standIns(Type type, Operation *user, Value except) {
    llvm::SmallVector<Value> found;
    for (Value v : values)
      if (v != except && v.getType() == type && v.getDefiningOp() != user &&
          dom.properlyDominates(v, user))
        found.push_back(v);
    return found;
  }

  std::optional<std::string> rewire() {
    llvm::SmallVector<OpOperand *> uses;
    for (Operation *op : ops)
      for (OpOperand &use : op->getOpOperands())
        uses.push_back(&use);
    OpOperand **use = pickFrom(src, uses);
    if (!use)
      return std::nullopt;
    llvm::SmallVector<Value> choices =
        standIns((*use)->get().getType(), (*use)->getOwner(), (*use)->get());
    Value *with = pickFrom(src, choices);
    if (!with)
      return std::nullopt;
    std::string what = "rewire operand " +
                       std::to_string((*use)->getOperandNumber()) + " of " +
                       describe((*use)->getOwner());
    (*use)->set(*with);
    return what;
  }

  std::optional<std::string> bypass() {
    llvm::SmallVector<Operation *> candidates;
    for (Operation *op : ops)
      if (!op->hasTrait<OpTrait::IsTerminator>() && !isa<triton::FuncOp>(op) &&
          op->getParentOp() && !isa<ModuleOp>(op))
        candidates.push_back(op);
    Operation **picked = pickFrom(src, candidates);
    if (!picked)
      return std::nullopt;
    Operation *op = *picked;
    std::string what = "delete " + describe(op);
    for (Value result : op->getResults()) {
      if (result.use_empty())
        continue;
      llvm::SmallVector<Value> choices = standIns(result.getType(), op, result);
      Value *with = pickFrom(src, choices);
      if (!with)
        return std::nullopt;
      result.replaceAllUsesWith(*with);
    }
    op->erase();
    return what;
  }

  std::optional<std::string> insertBinary() {
    llvm::SmallVector<OpOperand *> uses;
    for (Operation *op : ops)
      for (OpOperand &use : op->getOpOperands()) {
        Type element = getElementTypeOrSelf(use.get().getType());
        bool number = (element.isInteger() && !element.isInteger(1)) ||
                      isa<FloatType>(element);
        if (number && !isa<triton::PointerType>(element))
          uses.push_back(&use);
      }
    OpOperand **use = pickFrom(src, uses);
    if (!use)
      return std::nullopt;
    Value v = (*use)->get();
    Operation *user = (*use)->getOwner();
    llvm::SmallVector<Value> others = standIns(v.getType(), user, Value());
    Value *w = pickFrom(src, others);
    if (!w)
      return std::nullopt;
    OpBuilder b(user);
    Location loc = user->getLoc();
    Value made;
    const char *name;
    if (isa<FloatType>(getElementTypeOrSelf(v.getType()))) {
      switch (src.below(5)) {
      case 0:
        made = arith::AddFOp::create(b, loc, v, *w);
        name = "addf";
        break;
      case 1:
        made = arith::SubFOp::create(b, loc, v, *w);
        name = "subf";
        break;
      case 2:
        made = arith::MulFOp::create(b, loc, v, *w);
        name = "mulf";
        break;
      case 3:
        made = arith::MaxNumFOp::create(b, loc, v, *w);
        name = "maxnumf";
        break;
      default:
        made = arith::MinNumFOp::create(b, loc, v, *w);
        name = "minnumf";
        break;
      }
    } else {
      // No division or shift: those have undefined inputs the reference
      // would drop most mutants for.
      switch (src.below(7)) {
      case 0:
        made = arith::AddIOp::create(b, loc, v, *w);
        name = "addi";
        break;
      case 1:
        made = arith::SubIOp::create(b, loc, v, *w);
        name = "subi";
        break;
      case 2:
        made = arith::MulIOp::create(b, loc, v, *w);
        name = "muli";
        break;
      case 3:
        made = arith::XOrIOp::create(b, loc, v, *w);
        name = "xori";
        break;
      case 4:
        made = arith::AndIOp::create(b, loc, v, *w);
        name = "andi";
        break;
      case 5:
        made = arith::MaxSIOp::create(b, loc, v, *w);
        name = "maxsi";
        break;
      default:
        made = arith::MinUIOp::create(b, loc, v, *w);
        name = "minui";
        break;
      }
    }
    (*use)->set(made);
    return std::string("insert arith.") + name + " before " + describe(user);
  }

  std::optional<std::string> constant() {
    llvm::SmallVector<arith::ConstantOp> constants;
    for (Operation *op : ops)
      if (auto c = dyn_cast<arith::ConstantOp>(op)) {
        Type element = getElementTypeOrSelf(c.getType());
        if (isa<FloatType>(element) || element.isInteger())
          constants.push_back(c);
      }
    arith::ConstantOp *c = pickFrom(src, constants);
    if (!c)
      return std::nullopt;
    Attribute value = c->getValue();
    Attribute scalar = value;
    if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
      if (!dense.isSplat())
        return std::nullopt;
      scalar = dense.getSplatValue<Attribute>();
    }
    Attribute changed;
    if (auto i = dyn_cast<IntegerAttr>(scalar)) {
      llvm::APInt v = i.getValue();
      unsigned bits = v.getBitWidth();
      switch (src.below(6)) {
      case 0:
        v += 1;
        break;
      case 1:
        v -= 1;
        break;
      case 2:
        v = llvm::APInt(bits, 0);
        break;
      case 3:
        v = v.shl(1);
        break;
      case 4:
        v.flipAllBits();
        break;
      default:
        v = llvm::APInt(bits, src.below(16), /*isSigned=*/false,
                        /*implicitTrunc=*/true);
        break;
      }
      changed = IntegerAttr::get(i.getType(), v);
    } else if (auto f = dyn_cast<FloatAttr>(scalar)) {
      double v = f.getValueAsDouble();
      const double choices[] = {v + 1, -v, 0.0, v * 2, v / 2, 1.0};
      changed = FloatAttr::get(f.getType(), choices[src.below(6)]);
    } else {
      return std::nullopt;
    }
    if (auto shaped = dyn_cast<ShapedType>(c->getType()))
      changed = DenseElementsAttr::get(shaped, changed);
    if (changed == value)
      return std::nullopt;
    OpBuilder b(*c);
    auto replacement =
        arith::ConstantOp::create(b, c->getLoc(), cast<TypedAttr>(changed));
    std::string what = "change " + describe(*c);
    c->getResult().replaceAllUsesWith(replacement);
    c->erase();
    return what;
  }

  std::optional<std::string> relayout() {
    auto warps = module->getAttrOfType<IntegerAttr>("ttg.num-warps");
    if (!warps)
      return std::nullopt;
    llvm::SmallVector<OpOperand *> uses;
    for (Operation *op : ops)
      for (OpOperand &use : op->getOpOperands())
        if (auto type = dyn_cast<RankedTensorType>(use.get().getType()))
          if (type.getEncoding() &&
              ttg::isDistributedEncoding(type.getEncoding()))
            uses.push_back(&use);
    OpOperand **use = pickFrom(src, uses);
    if (!use)
      return std::nullopt;
    auto type = cast<RankedTensorType>((*use)->get().getType());
    Attribute layout = gen::randomDistributedLayout(
        src, module.getContext(), type.getShape(), unsigned(warps.getInt()));
    if (!layout || layout == type.getEncoding())
      return std::nullopt;
    Operation *user = (*use)->getOwner();
    OpBuilder b(user);
    auto there = ttg::ConvertLayoutOp::create(
        b, user->getLoc(), type.cloneWithEncoding(layout), (*use)->get());
    auto back = ttg::ConvertLayoutOp::create(b, user->getLoc(), type,
                                             there.getResult());
    (*use)->set(back.getResult());
    return "relayout an operand of " + describe(user);
  }

  std::optional<std::string> wait() {
    llvm::SmallVector<Operation *> waits;
    for (Operation *op : ops)
      if (isa<ttg::AsyncWaitOp, ttng::WarpGroupDotWaitOp>(op))
        waits.push_back(op);
    Operation **op = pickFrom(src, waits);
    if (!op)
      return std::nullopt;
    const char *attr = isa<ttg::AsyncWaitOp>(*op) ? "num" : "pendings";
    auto old = (*op)->getAttrOfType<IntegerAttr>(attr);
    if (!old)
      return std::nullopt;
    int64_t n = old.getInt() + (src.coin() ? 1 : -1);
    if (n < 0)
      n = old.getInt() + 1;
    (*op)->setAttr(attr, IntegerAttr::get(old.getType(), n));
    return std::string("set ") + attr + " of " + describe(*op) + " to " +
           std::to_string(n);
  }

  std::optional<std::string> stages() {
    unsigned stages = 1 + src.below(4);
    llvm::SmallVector<scf::ForOp> loops;
    module.walk([&](scf::ForOp loop) { loops.push_back(loop); });
    if (!loops.empty() && src.coin()) {
      scf::ForOp loop = loops[src.below(loops.size())];
      loop->setAttr(
          "tt.num_stages",
          IntegerAttr::get(IntegerType::get(module.getContext(), 32), stages));
      return "tt.num_stages = " + std::to_string(stages) + " on " +
             describe(loop);
    }
    auto launch = module->getAttrOfType<StringAttr>(gen::kLaunchAttrName);
    if (!launch)
      return std::nullopt;
    std::string text = launch.getValue().str();
    static const std::regex option("--num-stages [0-9]+");
    std::string now = "--num-stages " + std::to_string(stages);
    std::string changed = std::regex_search(text, option)
                              ? std::regex_replace(text, option, now)
                              : now + " " + text;
    if (changed == text)
      return std::nullopt;
    module->setAttr(gen::kLaunchAttrName,
                    StringAttr::get(module.getContext(), changed));
    return "launch " + now;
  }

  ModuleOp module;
  gen::ByteSource &src;
  DominanceInfo dom;
  llvm::SmallVector<Operation *> ops;
  llvm::SmallVector<Value> values;
};

} // namespace

MLIRContext &mutationContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    mlir::tgpu::registerAllDialects(registry);
    auto *c = new MLIRContext(registry);
    c->loadAllAvailableDialects();
    c->disableMultithreading();
    return c;
  }();
  return *context;
}

std::optional<std::string> mutateOnce(ModuleOp module, gen::ByteSource &src) {
  // A drawn mutation may not apply (nothing of its kind) or may leave IR the
  // verifier rejects (a rewired operand that breaks an op's own rule): then
  // another is drawn, on a fresh copy.
  for (int attempt = 0; attempt < 8; ++attempt) {
    OwningOpRef<ModuleOp> copy = module.clone();
    std::optional<std::string> what = Mutator(*copy, src).run();
    if (!what)
      continue;
    ScopedDiagnosticHandler quiet(module.getContext(),
                                  [](Diagnostic &) { return success(); });
    if (failed(verify(*copy)))
      continue;
    // Take the mutant's body and attributes over.
    module.getBody()->getOperations().clear();
    module.getBody()->getOperations().splice(module.getBody()->end(),
                                             copy->getBody()->getOperations());
    module->setAttrs((*copy)->getAttrDictionary());
    return what;
  }
  return std::nullopt;
}

std::optional<std::string> mutateText(MLIRContext &context,
                                      llvm::StringRef text,
                                      gen::ByteSource &src, unsigned count,
                                      std::string *log) {
  OwningOpRef<ModuleOp> module;
  {
    ScopedDiagnosticHandler quiet(&context,
                                  [](Diagnostic &) { return success(); });
    module = parseSourceString<ModuleOp>(text, ParserConfig(&context));
  }
  if (!module)
    return std::nullopt;
  bool changed = false;
  for (unsigned i = 0; i < count; ++i)
    if (std::optional<std::string> what = mutateOnce(*module, src)) {
      changed = true;
      if (log)
        *log += *what + "\n";
    }
  if (!changed)
    return std::nullopt;
  std::string out;
  llvm::raw_string_ostream os(out);
  module->print(os);
  return out;
}

} // namespace tgpu::mutate
