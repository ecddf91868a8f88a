//===- CPUPipeline.cpp - --relay-to-llvm for x86 CPUs -----------*- C++ -*-===//

#include "transforms/Pipelines/Pipelines.h"

#include "conversion/Passes.h"
#include "transforms/Codegen/CPU/CPUDescription.h"
#include "transforms/Codegen/CPU/CPUTarget.h"
#include "transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Async/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <mutex>

using namespace mlir;
using namespace mlir::relay;

CompileOptions RelayToLLVMOptions::getCompileOptions() const {
  CompileOptions options;
  options.threads = threads;
  options.target = target;
  options.cpu = cpu;
  options.precision = precision;
  options.profileLoopNests = profile;
  options.optimize = getOptimizeOptions();
  return options;
}

CompileOptions mlir::relay::withEntry(CompileOptions options, StringRef entry) {
  if (options.optimize.entryFunctions.empty())
    options.optimize.entryFunctions.push_back(entry.str());
  return options;
}

void mlir::relay::buildRelayToLLVMPipeline(OpPassManager &pm) {
  buildRelayToLLVMPipeline(pm, CompileOptions());
}

void mlir::relay::buildRelayToLLVMPipeline(OpPassManager &pm,
                                           const RelayToLLVMOptions &options) {
  buildRelayToLLVMPipeline(pm, options.getCompileOptions());
}

void mlir::relay::buildRelayToLLVMPipeline(OpPassManager &pm,
                                           const CompileOptions &options) {
  registerCPULoweringTarget();
  // The CPU's caches and vector ISA size the kernels built from here on.
  SetTargetCPUOptions cpu;
  cpu.cpu = options.cpu;
  cpu.threads = std::max<int64_t>(1, options.threads);
  pm.addPass(createSetTargetCPU(cpu));
  buildRelayToBuffersPipeline(pm, options, /*loweringTarget=*/options.target);

  // Tiles and vectors for the CPU, then buffers freed.
  TileAndVectorizeOptions tiling;
  tiling.threads = options.threads;
  pm.addPass(createLowerAmxProducts());
  pm.addNestedPass<func::FuncOp>(createTileAndVectorize(tiling));
  pm.addNestedPass<func::FuncOp>(createApproximateMath());
  pm.addPass(createCanonicalizerPass());
  bufferization::buildBufferDeallocationPipeline(
      pm, bufferization::BufferDeallocationPipelineOptions());
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addNestedPass<func::FuncOp>(createHoistDeallocs());
  if (options.threads > 1)
    pm.addNestedPass<func::FuncOp>(createParallelizeLoops());
  pm.addPass(createOutlineLoops());
  if (options.profileLoopNests)
    pm.addPass(createProfileLoopNests());
  pm.addPass(createConvertMathToFuncs());

  // Parallel tiles become tasks of the async runtime: each scf.forall is
  // split into `threads` blocks run by its worker threads.
  if (options.threads > 1) {
    pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
    FlattenParallelLoopsOptions flatten;
    flatten.blocks = options.threads;
    pm.addNestedPass<func::FuncOp>(createFlattenParallelLoops(flatten));
    AsyncParallelForPassOptions parallel;
    parallel.asyncDispatch = false;
    parallel.minTaskSize = 1;
    parallel.numWorkerThreads = options.threads;
    pm.addPass(createAsyncParallelForPass(parallel));
    pm.addPass(createAsyncToAsyncRuntimePass());
    pm.addPass(createAsyncRuntimeRefCountingPass());
    pm.addPass(createAsyncRuntimeRefCountingOptPass());
    pm.addPass(arith::createArithExpandOpsPass());
    pm.addPass(createConvertAsyncToLLVMPass());
  }

  // Loops and the LLVM dialect. The lowerings that work within a function
  // run on the functions in parallel (after --relay-outline-loops a network
  // has a hundred or more).
  OpPassManager &funcs = pm.nest<func::FuncOp>();
  funcs.addPass(createConvertLinalgToLoopsPass());
  // bf16 conversions as integer arithmetic where the CPU has no AVX-512
  // BF16 (vcvtneps2bf16): LLVM would call compiler-rt's __truncsfbf2, which
  // the JIT does not have. LLVM also computes bf16 arithmetic and math
  // functions (an add of two bf16 tensors, a tanh) in f32 and truncates
  // with that call, so they are first made explicitly f32 between
  // conversions (an AVX2-only Zen 3 failed to link the JIT's code
  // otherwise; float16 stays as it was). (An unknown CPU is
  // --relay-set-target-cpu's error.)
  std::string cpuError;
  FailureOr<cpu::CPUDescription> targetCPU =
      cpu::lookupCPU(options.cpu, cpuError);
  if (failed(targetCPU) || !targetCPU->bf16) {
    math::MathExtendToSupportedTypesOptions mathInF32;
    mathInF32.extraTypeStrs = {"f16"};
    funcs.addPass(math::createMathExtendToSupportedTypes(mathInF32));
    arith::ArithEmulateUnsupportedFloatsOptions inF32;
    inF32.sourceTypeStrs = {"bf16"};
    funcs.addPass(arith::createArithEmulateUnsupportedFloats(inF32));
    arith::ArithExpandOpsPassOptions bf16;
    bf16.includeBf16 = true;
    funcs.addPass(arith::createArithExpandOpsPass(bf16));
  }
  funcs.addPass(vector::createLowerVectorMultiReductionPass());
  funcs.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  funcs.addPass(memref::createExpandStridedMetadataPass());
  funcs.addPass(createLowerAffinePass());
  funcs.addPass(createLimitCopyUnrolling());
  funcs.addPass(createSCFToControlFlowPass());
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.vectorContractLowering =
      vector::VectorContractLowering::OuterProduct;
  vectorToLLVM.amx = true;
  funcs.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addNestedPass<func::FuncOp>(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  OpPassManager &scalars = pm.nest<func::FuncOp>();
  scalars.addPass(createArithToLLVMConversionPass());
  scalars.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVM());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createFlattenConstantGlobals());
}

OwningOpRef<ModuleOp>
mlir::relay::lowerCopyToLLVM(ModuleOp module, const CompileOptions &options) {
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module.getContext());
  // Verifying the module after each of the pipeline's thirty-odd passes
  // took a quarter of its time on a network; the result is verified once.
  pm.enableVerifier(false);
  if (options.isGPU())
    buildRelayToNVVMPipeline(pm, options);
  else
    buildRelayToLLVMPipeline(pm, options);
  TimingScope lowering;
  if (options.timing) {
    lowering =
        options.timing->nest(options.isGPU() ? "Lowering (--relay-to-nvvm)"
                                             : "Lowering (--relay-to-llvm)");
    pm.enableTiming(lowering);
  }
  if (failed(pm.run(*copy)) || failed(verify(*copy)))
    return nullptr;
  return copy;
}

void mlir::relay::registerRelayPipelines() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerCPULoweringTarget();
    PassPipelineRegistration<RelayToLLVMOptions>(
        "relay-to-llvm",
        "Lower a Relay module to the LLVM dialect for x86 CPUs "
        "(threads=N, target=cpu|generic, cpu=host|NAME, precision=fp32|bf16, "
        "profile=0|1, "
        "opt-level=0..3, "
        "disabled-passes, "
        "required-passes, entry-functions): --relay-set-target-cpu, "
        "--relay-infer-types, "
        "--relay-specialize, --relay-qnn-canonicalize, --relay-optimize, "
        "--relay-inline-primitives, "
        "--relay-decompose, --relay-to-mixed-precision (precision=bf16), "
        "--relay-to-linalg, one-shot bufferization, tiling and "
        "vectorisation, buffer deallocation, loops, LLVM",
        [](OpPassManager &pm, const RelayToLLVMOptions &options) {
          buildRelayToLLVMPipeline(pm, options);
        });
    registerRelayToNVVMPipeline();
    // The upstream passes --relay-to-llvm runs, to run its steps one by
    // one.
    registerCanonicalizerPass();
    bufferization::registerEmptyTensorEliminationPass();
    bufferization::registerOneShotBufferizePass();
    bufferization::registerBufferizationPipelines();
    registerConvertBufferizationToMemRefPass();
    registerConvertMathToFuncs();
    registerSCFForallToParallelLoop();
    registerAsyncParallelForPass();
    registerAsyncToAsyncRuntimePass();
    registerAsyncRuntimeRefCountingPass();
    registerAsyncRuntimeRefCountingOptPass();
    arith::registerArithExpandOpsPass();
    registerConvertAsyncToLLVMPass();
    registerConvertLinalgToLoopsPass();
    vector::registerLowerVectorMultiReduction();
    registerConvertVectorToSCF();
    memref::registerExpandStridedMetadataPass();
    registerLowerAffinePass();
    registerSCFToControlFlowPass();
    registerConvertVectorToLLVMPass();
    registerFinalizeMemRefToLLVMConversionPass();
    registerConvertMathToLLVMPass();
    registerConvertMathToLibmPass();
    registerArithToLLVMConversionPass();
    registerUBToLLVMConversionPass();
    registerConvertFuncToLLVMPass();
    registerConvertControlFlowToLLVMPass();
    registerReconcileUnrealizedCastsPass();
  });
}
