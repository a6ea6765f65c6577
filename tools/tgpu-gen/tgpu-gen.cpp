// tgpu-gen: writes generated programs (fuzz/generator) to a folder.
//
//   tgpu-gen [--seed N] [--count K] -o DIR [--ttgir] [--gpu-safe]
//            [--num-warps W] [--policy key=value,...]
//   tgpu-gen --from-bytes FILE -o DIR [--ttgir]     (a libFuzzer input)
//   tgpu-gen --mutate FILE [--seed N] [--count K] -o DIR
//
// --mutate writes K mutants of a TTIR/TTGIR file (fuzz/mutator/IrMutator.h:
// what fuzz_ttgir_mutate's libFuzzer binary does to its inputs), mutant i
// made with 1 to 3 mutations drawn from seed N + i, as DIR/mut_<seed>.<ext>
// with the mutations listed in a comment at the top.
//
// Each program is DIR/<stem>.ttir (its launch in the module attribute
// tgpu.launch), with --ttgir also DIR/<stem>.ttgir (the TTGIR variant with
// random layouts fuzz_pipeline makes from the same bytes), and
// DIR/<stem>.json (launch, outputs, tolerances). DIR/run_args.txt lists every
// program in corpus/kernels/run_args.txt's format, which
// tgpu-oracle bundle --run-args reads (tgpu-oracle bundle --from-gen DIR
// also reads the JSON: launch and per-output tolerances).
#include "fuzz/generator/Generator.h"
#include "fuzz/mutator/IrMutator.h"

#include "tgpu/InitAllDialects.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;
using namespace tgpu::gen;

static cl::OptionCategory genCategory("tgpu-gen options");
static cl::opt<uint64_t> seedOpt("seed", cl::desc("first seed"), cl::init(1),
                                 cl::cat(genCategory));
static cl::opt<unsigned> countOpt("count", cl::desc("programs to write"),
                                  cl::init(1), cl::cat(genCategory));
static cl::opt<std::string> outDir("o", cl::desc("output folder"),
                                   cl::value_desc("DIR"), cl::Required,
                                   cl::cat(genCategory));
static cl::opt<bool> ttgirOpt("ttgir",
                              cl::desc("also write the TTGIR variant with "
                                       "random layouts"),
                              cl::cat(genCategory));
static cl::opt<bool> gpuSafe("gpu-safe",
                             cl::desc("only ops whose GPU results stay within "
                                      "the stated tolerance"),
                             cl::cat(genCategory));
static cl::opt<bool> tritonSafe(
    "triton-safe",
    cl::desc("only ops and layouts Triton 3.6 compiles, and compiles right "
             "(for three-way GPU campaigns; GenPolicy::tritonSafe)"),
    cl::cat(genCategory));
static cl::opt<unsigned> numWarpsOpt("num-warps",
                                     cl::desc("warps of the TTGIR (0: random)"),
                                     cl::init(0), cl::cat(genCategory));
// main adds the key list to the description, from GenPolicy's own table.
static cl::opt<std::string>
    policyOpt("policy", cl::desc("generation policy overrides, key=value,..."),
              cl::init(""), cl::cat(genCategory));
static cl::opt<std::string> fromBytes("from-bytes",
                                      cl::desc("generate from this file's "
                                               "bytes (a fuzz_pipeline input)"),
                                      cl::init(""), cl::cat(genCategory));

static cl::opt<std::string>
    mutateOpt("mutate", cl::desc("write mutants of this TTIR/TTGIR file"),
              cl::init(""), cl::cat(genCategory));

static int fail(const llvm::Twine &msg) {
  llvm::errs() << "tgpu-gen: " << msg << "\n";
  return 1;
}

static bool writeFile(const llvm::Twine &path, llvm::StringRef text,
                      std::string &why) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path.str(), ec, llvm::sys::fs::OF_Text);
  if (ec) {
    why = "cannot write '" + path.str() + "': " + ec.message();
    return false;
  }
  os << text;
  return true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(genCategory);
  static const std::string policyHelp =
      "generation policy overrides, key=value,... (keys: " + policyKeyList() +
      ")";
  policyOpt.setDescription(policyHelp);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "tgpu program generator\n", &llvm::errs()))
    return 1;
  GenPolicy policy;
  policy.gpuSafe = gpuSafe;
  policy.tritonSafe = tritonSafe;
  policy.numWarps = numWarpsOpt;
  // A fuzz_pipeline input makes the program fuzz_pipeline made of it, whose
  // policy each input draws (swarm); --policy swarm=0 turns that off.
  policy.swarm = fromBytes.empty() ? 0 : 1;
  std::string why;
  if (!applyPolicyOverrides(policyOpt, policy, why))
    return fail(why);
  if (numWarpsOpt != 0 && (numWarpsOpt > 32 || !llvm::isPowerOf2_32(numWarpsOpt)))
    return fail("--num-warps must be 0 or a power of two up to 32");
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir))
    return fail("cannot create '" + outDir + "': " + ec.message());

  mlir::DialectRegistry registry;
  mlir::tgpu::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.disableMultithreading();

  std::string manifest =
      "# <stem> | <file> | <tgpu-run options> | <kernel arguments>\n";
  auto one = [&](const std::string &stem, llvm::ArrayRef<uint8_t> bytes) -> int {
    ByteSource src(bytes);
    GeneratedProgram program = generateProgram(src, policy);
    llvm::SmallString<256> base(outDir);
    llvm::sys::path::append(base, stem);
    if (!writeFile(base + ".ttir", program.ttir, why))
      return fail(why);
    VariantChoices choices = drawVariantChoices(src, policy);
    if (ttgirOpt) {
      mlir::OwningOpRef<mlir::ModuleOp> module =
          mlir::parseSourceString<mlir::ModuleOp>(program.ttir, &context);
      if (!module)
        return fail(stem + ": the generated TTIR does not parse (a generator "
                           "bug; the file is kept)");
      if (failed(makeTtgirVariant(*module, src, policy, choices.variantWarps)))
        return fail(stem + ": the TTGIR variant is invalid (a generator bug)");
      std::string text;
      llvm::raw_string_ostream os(text);
      module->print(os);
      if (!writeFile(base + ".ttgir", text, why))
        return fail(why);
    }
    llvm::json::Array outputs;
    for (const OutputSpec &o : program.outputs)
      outputs.push_back(llvm::json::Object{{"arg", int64_t(o.argIndex)},
                                           {"type", o.elementType},
                                           {"abs_tolerance", o.absTolerance}});
    llvm::json::Object meta{{"launch", program.launch},
                            {"num_warps", int64_t(choices.variantWarps)},
                            {"outputs", std::move(outputs)},
                            {"ops", int64_t(program.numOps)}};
    std::string json;
    llvm::raw_string_ostream js(json);
    js << llvm::formatv("{0:2}", llvm::json::Value(std::move(meta))) << "\n";
    if (!writeFile(base + ".json", json, why))
      return fail(why);
    // "--grid X,Y -- ARGS" -> "<stem> | <stem>.ttir | --grid X,Y | ARGS"
    auto [opts, args] = llvm::StringRef(program.launch).split(" -- ");
    manifest += stem + " | " + stem + ".ttir | " + opts.str() + " | " + args.str() + "\n";
    return 0;
  };

  if (!mutateOpt.empty()) {
    auto buffer = llvm::MemoryBuffer::getFile(mutateOpt, /*IsText=*/true);
    if (!buffer)
      return fail("cannot read '" + mutateOpt +
                  "': " + buffer.getError().message());
    llvm::StringRef ext = llvm::sys::path::extension(mutateOpt);
    unsigned written = 0;
    for (unsigned i = 0; i < countOpt; ++i) {
      uint64_t seed = seedOpt + i;
      std::vector<uint8_t> bytes = ByteSource::fromSeed(seed);
      ByteSource src(bytes);
      std::string log;
      std::optional<std::string> mutant =
          tgpu::mutate::mutateText(context, (*buffer)->getBuffer(), src,
                                   1 + unsigned(src.below(3)), &log);
      if (!mutant) {
        if (i == 0 && !mlir::parseSourceString<mlir::ModuleOp>(
                          (*buffer)->getBuffer(), &context))
          return fail("'" + mutateOpt + "' does not parse");
        continue;
      }
      std::string text;
      for (llvm::StringRef line :
           llvm::split(llvm::StringRef(log).rtrim(), '\n'))
        text += "// mutation: " + line.str() + "\n";
      text += *mutant;
      llvm::SmallString<256> path(outDir);
      llvm::sys::path::append(path, "mut_" + std::to_string(seed) + ext.str());
      if (!writeFile(path, text, why))
        return fail(why);
      ++written;
    }
    llvm::outs() << written << " mutants of " << mutateOpt << " in " << outDir
                 << "\n";
    return 0;
  }

  if (!fromBytes.empty()) {
    auto buffer = llvm::MemoryBuffer::getFile(fromBytes, /*IsText=*/false);
    if (!buffer)
      return fail("cannot read '" + fromBytes + "': " + buffer.getError().message());
    llvm::StringRef data = (*buffer)->getBuffer();
    std::string stem = llvm::sys::path::stem(fromBytes).str();
    if (int rc = one(stem, llvm::ArrayRef<uint8_t>(
                               reinterpret_cast<const uint8_t *>(data.data()),
                               data.size())))
      return rc;
  } else {
    for (unsigned i = 0; i < countOpt; ++i) {
      uint64_t seed = seedOpt + i;
      std::vector<uint8_t> bytes = ByteSource::fromSeed(seed);
      if (int rc = one("gen_" + std::to_string(seed), bytes))
        return rc;
    }
  }
  llvm::SmallString<256> path(outDir);
  llvm::sys::path::append(path, "run_args.txt");
  if (!writeFile(path, manifest, why))
    return fail(why);
  return 0;
}
