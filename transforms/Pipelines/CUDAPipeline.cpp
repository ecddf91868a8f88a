//===- CUDAPipeline.cpp - --relay-to-nvvm for NVIDIA GPUs -------*- C++ -*-===//

#include "transforms/Pipelines/Pipelines.h"

#include "transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::relay;

CompileOptions RelayToNVVMOptions::getCompileOptions() const {
  CompileOptions options;
  options.target = "cuda";
  options.gpuChip = chip;
  options.gpuFeatures = features;
  options.gpuFormat = format;
  options.gpuBlockSize = blockSize;
  options.gpuThreadTile = threadTile;
  options.gpuSharedTile = sharedTile;
  options.precision = precision;
  if (!toolkit.empty())
    options.cudaToolkit = toolkit;
  options.optimize = getOptimizeOptions();
  return options;
}

void mlir::relay::buildRelayToNVVMPipeline(OpPassManager &pm,
                                           const CompileOptions &options) {
  // Tensors and buffers as for any target, with the target-neutral kernels
  // (linalg's contractions and named convolutions), which map to loops of
  // independent iterations.
  buildRelayToBuffersPipeline(pm, options, /*loweringTarget=*/"generic");
  pm.addPass(createCanonicalizerPass());
  bufferization::buildBufferDeallocationPipeline(
      pm, bufferization::BufferDeallocationPipelineOptions());
  pm.addPass(createConvertBufferizationToMemRefPass());
  // Buffers freed after their last kernel (launches are synchronous), not
  // at the end of the function: a network's activations do not all live
  // until it returns.
  pm.addNestedPass<func::FuncOp>(createHoistDeallocs());

  // Each operator's parallel loops (its reductions loop inside a thread)
  // become a kernel launch; what is left (control flow, scalar code, loops
  // that reduce into values) stays on the host.
  OpPassManager &funcs = pm.nest<func::FuncOp>();
  // Products and convolutions first, as kernels of their own that stage
  // their operands through shared memory.
  if (options.gpuSharedTile >= 0) {
    GpuTileContractionsOptions tiling;
    tiling.threadTile = options.gpuSharedTile;
    tiling.tf32 = options.precision == "tf32";
    funcs.addPass(createGpuTileContractions(tiling));
  }
  GpuMapParallelLoopsOptions mapping;
  mapping.blockSize = options.gpuBlockSize;
  mapping.threadTile = options.gpuThreadTile;
  funcs.addPass(createGpuMapParallelLoops(mapping));
  funcs.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createGpuManagedMemory());
  pm.addPass(createConvertMathToFuncs());
  // Loop bounds as constants, cloned into the kernels (values computed on
  // the host would become kernel arguments).
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());

  // Upstream's lowering, the steps of its gpu-lower-to-nvvm-pipeline with
  // the CUDA toolkit named (its libdevice has the kernels' exp, tanh, ...;
  // upstream finds it only through $CUDA_HOME and friends): kernels
  // outlined into gpu.modules, NVVM, PTX (or a cubin through ptxas) in a
  // gpu.binary; the host code in the LLVM dialect, its launches calling the
  // mgpu* runtime functions.
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createGpuNameKernels());
  pm.addPass(createGpuAsyncLaunches());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.gpuChip;
  target.features = options.gpuFeatures;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  // The host's arith ops only: the kernels' go with convert-gpu-to-nvvm,
  // which gives those without a PTX instruction libdevice's functions
  // (arith.remf, trunc_mod of floats: __nv_fmodf; once llvm.frem, no
  // pattern takes it there).
  pm.addNestedPass<LLVM::LLVMFuncOp>(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createGpuToLLVMConversionPass());
  GpuCheckToolkitOptions check;
  check.toolkit = options.cudaToolkit;
  check.format = options.gpuFormat;
  pm.addPass(createGpuCheckToolkit(check));
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.gpuFormat;
  binary.toolkitPath = options.cudaToolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createFlattenConstantGlobals());
}

void mlir::relay::registerGPULoweringDialects(DialectRegistry &registry) {
  registry.insert<gpu::GPUDialect, NVVM::NVVMDialect, nvgpu::NVGPUDialect>();
  // gpu-module-to-binary translates kernels to LLVM IR and serialises them
  // through the NVVM target; the host's gpu.binary and launches translate
  // through the GPU dialect's offloading interface.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  // convert-gpu-to-nvvm and gpu-to-llvm take the patterns of the dialects
  // in the kernels and around the launches from these interfaces.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  gpu::registerConvertGpuToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}

void mlir::relay::registerRelayToNVVMPipeline() {
  PassPipelineRegistration<RelayToNVVMOptions>(
      "relay-to-nvvm",
      "Lower a Relay module for NVIDIA GPUs (chip=sm_NN, features=+ptxNN, "
      "format=isa|bin|fatbin, block-size=N, thread-tile=N, shared-tile=N, "
      "precision=fp32|tf32, opt-level=0..3, "
      "disabled-passes, required-passes, entry-functions): the passes of "
      "--relay-to-llvm up to bufferization with the generic kernels, "
      "buffer deallocation, --relay-hoist-deallocs, "
      "--relay-gpu-tile-contractions, --relay-gpu-map-parallel-loops, "
      "--convert-parallel-loops-to-gpu, "
      "--relay-gpu-managed-memory, --relay-gpu-async-launches, "
      "--relay-gpu-check-toolkit, the steps "
      "of upstream's "
      "gpu-lower-to-nvvm-pipeline; "
      "the result is host LLVM dialect with a gpu.binary per kernel",
      [](OpPassManager &pm, const RelayToNVVMOptions &options) {
        buildRelayToNVVMPipeline(pm, options.getCompileOptions());
      });
  registerConvertParallelLoopToGpuPass();
  registerGPUPasses();
  gpu::registerGPUToNVVMPipeline();
}

std::string mlir::relay::getDefaultCUDAToolkit() {
#ifdef RELAY_MLIR_CUDA_TOOLKIT_PATH
  return RELAY_MLIR_CUDA_TOOLKIT_PATH;
#else
  return "";
#endif
}
