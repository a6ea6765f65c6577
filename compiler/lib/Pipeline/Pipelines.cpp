// The named pipelines. The order follows Triton 3.6's make_ttir and
// make_ttgir (NVIDIA backend), leaving out the passes tgpu does not have yet
// (tensor-descriptor rewriting, wgmma, pipelining, ...).
#include "tgpu/Pipeline/Pipelines.h"

#include "tgpu/Conversion/NVGPUToLLVM/Passes.h"
#include "tgpu/Conversion/TritonGPUToLLVM/Passes.h"
#include "tgpu/Conversion/TritonToTritonGPU/Passes.h"
#include "tgpu/Dialect/Triton/Transforms/Passes.h"
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h"
#include "tgpu/Dialect/TritonNvidiaGPU/Transforms/Passes.h"

#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

// make_ttir without triton-rewrite-tensor-descriptor-to-pointer (which
// Triton runs before sm_90 only; this pipeline is target-independent).
void mlir::tgpu::buildTtirPipeline(OpPassManager &pm) {
  pm.addPass(createInlinerPass());
  pm.addPass(createTritonRewriteTensorPointer());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createTritonCombineOps());
  pm.addPass(createTritonReorderBroadcast());
  pm.addPass(createCSEPass());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createTritonLoopUnroll());
}

void mlir::tgpu::buildTtirToTtgirPipeline(OpPassManager &pm,
                                          const TtgirPipelineOptions &options) {
  ConvertTritonToTritonGPUOptions convert;
  convert.target = options.target;
  convert.numWarps = options.numWarps;
  convert.threadsPerWarp = options.threadsPerWarp;
  convert.numCTAs = options.numCTAs;
  pm.addPass(createConvertTritonToTritonGPU(convert));
  pm.addPass(createTritonGPUCoalesce());
  pm.addPass(createTritonGPURemoveLayoutConversions());
  pm.addPass(createTritonGPUOptimizeThreadLocality());
  // Triton's accelerate-matmul and a second remove-layout-conversions,
  // optimize-dot-operands, the descriptors' shared layouts, then
  // loop-aware CSE, canonicalize, triton-licm, canonicalize,
  // combine-tensor-select-and-if; the software pipeliner, canonicalize,
  // loop-aware CSE, prefetch and optimize-dot-operands again, the TMA
  // lowering of descriptor loads and stores, a last
  // remove-layout-conversions, reduce-data-duplication,
  // reorder-instructions, loop-aware CSE, symbol-dce, the async-proxy
  // fences, and SCCP, CSE and canonicalize end the stage.
  if (options.tensorCores) {
    pm.addPass(createTritonGPUAccelerateMatmul());
    pm.addPass(createTritonGPURemoveLayoutConversions());
  }
  pm.addPass(createTritonGPUOptimizeDotOperands());
  pm.addPass(createTritonNvidiaGPUOptimizeDescriptorEncoding());
  pm.addPass(createTritonLoopAwareCSE());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createTritonLoopInvariantCodeMotion());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createTritonGPUCombineTensorSelectAndIf());
  // At any num-stages: a loop's own tt.num_stages overrides the option.
  TritonGPUAssignLatenciesOptions latencies;
  latencies.numStages = options.numStages;
  pm.addPass(createTritonGPUAssignLatencies(latencies));
  pm.addPass(createTritonGPUScheduleLoops());
  TritonGPUPipelineOptions pipeline;
  pipeline.numStages = options.numStages;
  pm.addPass(createTritonGPUPipeline(pipeline));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createTritonLoopAwareCSE());
  if (options.prefetch)
    pm.addPass(createTritonGPUPrefetch());
  pm.addPass(createTritonGPUOptimizeDotOperands());
  pm.addPass(createTritonNvidiaGPUTMALowering());
  pm.addPass(createTritonGPURemoveLayoutConversions());
  pm.addPass(createTritonGPUReduceDataDuplication());
  pm.addPass(createTritonGPUReorderInstructions());
  pm.addPass(createTritonLoopAwareCSE());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createTritonNvidiaGPUFenceInsertion());
  pm.addPass(createSCCPPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::tgpu::buildTtgirToLlvmPipeline(OpPassManager &pm) {
  pm.addPass(createTritonGPUGlobalScratchAllocation());
  AllocateSharedMemoryOptions allocation;
  allocation.checkLimit = true;
  pm.addPass(createAllocateSharedMemory(allocation));
  pm.addPass(createTritonGPUMembar());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertTritonGPUToLLVM());
  pm.addPass(createConvertNVGPUToLLVM());
  // NVVM ops without an LLVM intrinsic (wgmma.mma_async) become inline PTX.
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::tgpu::registerPipelines() {
  PassPipelineRegistration<>(
      "tgpu-ttgir-to-llvm",
      "TTGIR to the LLVM dialect: "
      "tritongpu-global-scratch-memory-allocation, allocate-shared-memory, "
      "tritongpu-membar, convert-scf-to-cf, "
      "convert-triton-gpu-to-llvm, convert-nv-gpu-to-llvm, "
      "convert-nvvm-to-llvm, canonicalize, cse",
      buildTtgirToLlvmPipeline);
  PassPipelineRegistration<>(
      "tgpu-ttir-pipeline",
      "make_ttir's target-independent part: inline, "
      "triton-rewrite-tensor-pointer, canonicalize, triton-combine, "
      "triton-reorder-broadcast, cse, symbol-dce, triton-loop-unroll",
      buildTtirPipeline);
  PassPipelineRegistration<TtgirPipelineOptions>(
      "tgpu-ttir-to-ttgir",
      "TTIR to optimised TTGIR: convert-triton-to-tritongpu, "
      "tritongpu-coalesce, tritongpu-remove-layout-conversions, "
      "tritongpu-optimize-thread-locality, "
      "[tritongpu-accelerate-matmul, tritongpu-remove-layout-conversions "
      "with tensor-cores=true], triton-nvidia-optimize-descriptor-encoding, "
      "cleanups, tritongpu-combine-tensor-select-and-if, "
      "[tritongpu-assign-latencies, "
      "tritongpu-schedule-loops, tritongpu-pipeline, canonicalize, "
      "triton-loop-aware-cse, tritongpu-prefetch (prefetch=false: not) with "
      "num-stages > 1], triton-nvidia-tma-lowering, "
      "tritongpu-remove-layout-conversions, "
      "tritongpu-reduce-data-duplication, tritongpu-reorder-instructions, "
      "cleanups, triton-nvidia-gpu-fence-insertion, sccp, cse, canonicalize",
      buildTtirToTtgirPipeline);
}
