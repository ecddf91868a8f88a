//===- BuffersPipeline.cpp - Relay to bufferized linalg, any target -------===//
//
// The first half of every lowering pipeline: Relay's passes, linalg on
// tensors with a lowering target's kernels, fusion and one-shot
// bufferization. --relay-to-llvm and --relay-to-nvvm continue from its
// buffers.
//
//===----------------------------------------------------------------------===//

#include "transforms/Pipelines/Pipelines.h"

#include "conversion/Passes.h"
#include "transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::relay;

std::string mlir::relay::checkPrecision(StringRef target, StringRef precision) {
  bool gpu = target == "cuda";
  if (precision == "fp32" || (precision == "bf16" && !gpu) ||
      (precision == "tf32" && gpu))
    return "";
  if (precision == "bf16")
    return "precision bf16 is for the CPU targets (cpu, generic)";
  if (precision == "tf32")
    return "precision tf32 is for the cuda target";
  return ("precision '" + precision +
          "': fp32, bf16 (the CPU targets) or tf32 (cuda)")
      .str();
}

void mlir::relay::buildRelayToBuffersPipeline(OpPassManager &pm,
                                              const CompileOptions &options,
                                              StringRef loweringTarget) {
  // Relay: types, monomorphic functions, the optimisations of the -O level
  // (--relay-optimize checks its options), composite operators in
  // primitive ones, then linalg on tensors with the target's kernels. The
  // primitive functions of FuseOps are inlined first: the CPU's kernels
  // choose their form from an operator's neighbours, and its loop fusion
  // (--relay-fuse-elementwise) fuses across the groups as well as inside
  // them. It runs where FuseOps does: at -O0 each operator is a kernel.
  pm.addPass(createReinferTypes());
  pm.addPass(createSpecialize());
  // Float operators between dequantize and quantize ops on the integers
  // (-O3), before their weights' dequantizes are canonicalized.
  OptimizeOptions optimize = options.optimize;
  if (isOptimizationEnabled("FakeQuantizationToInteger", optimize)) {
    pm.addPass(createFakeQuantizationToInteger());
    optimize.disabledPasses.push_back("FakeQuantizationToInteger");
  }
  // Quantized operators as integer arithmetic (as TVM's build starts).
  pm.addPass(createQnnCanonicalize());
  // AlterOpLayout asks the lowering target's layout rules.
  optimize.target = loweringTarget.str();
  pm.addPass(createOptimize(optimize));
  pm.addPass(createInlinePrimitives());
  // Again for the quantized operators whose parameters only FoldConstant
  // made constants.
  pm.addPass(createQnnCanonicalize());
  // First order: closures are ADTs and their applications calls.
  DefunctionalizeOptions defunctionalize;
  defunctionalize.entryFunctions.assign(options.optimize.entryFunctions.begin(),
                                        options.optimize.entryFunctions.end());
  if (defunctionalize.entryFunctions.empty())
    defunctionalize.entryFunctions.push_back("main");
  pm.addPass(createDefunctionalize(defunctionalize));
  // The target's own kernels keep some whole (the CPU's 3-d Winograd, a
  // float32 kernel: a narrower precision narrows the decompositions'
  // products instead).
  DecomposeOptions decompose;
  if (options.precision == "fp32")
    decompose.target = loweringTarget.str();
  pm.addPass(createDecompose(decompose));
  // The decompositions' operators of constants (a 3-d convolution's weights
  // transposed for its 2-d one) are computed once here, not on every run.
  if (isOptimizationEnabled("FoldConstant", options.optimize))
    pm.addPass(createFoldConstant());
  // Narrow operands after the optimisations, so that the weights they fold
  // (scales, batch norms) are rounded once, as they are at last.
  // (A precision other than fp32 and bf16 is the pass's error; tf32 is the
  // GPU's tensor cores reading float32 operands.)
  if (options.precision != "fp32" &&
      !(options.precision == "tf32" && options.isGPU())) {
    ToMixedPrecisionOptions mixed;
    mixed.mixedPrecisionType =
        options.precision == "bf16" ? "bfloat16" : options.precision;
    pm.addPass(createToMixedPrecision(mixed));
  }
  RelayToLinalgOptions toLinalg;
  toLinalg.target = loweringTarget.str();
  pm.addPass(createRelayToLinalg(toLinalg));
  pm.addNestedPass<func::FuncOp>(createNarrowConstantInputs());
  if (isOptimizationEnabled("FuseOps", options.optimize))
    pm.addNestedPass<func::FuncOp>(createFuseElementwise());

  // Bufferization. eliminate-empty-tensors: an op whose result is inserted
  // into a larger tensor (an activation into its padded image) writes
  // there directly.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Recursive functions get buffers they only read without a copy.
  pm.addPass(createElideCallCopies());
}
