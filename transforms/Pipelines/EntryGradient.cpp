//===- EntryGradient.cpp - Differentiate a program's entry ------*- C++ -*-===//
//
// The steps relay-run --gradient and the embedding APIs take to add
// `@<entry>_grad`: the entry's calls inlined and inference-time
// normalisations made arithmetic, then --relay-gradient in the mode that
// applies (first order where the inlined entry is, else the whole
// language's followed by the partial evaluator and dead code elimination,
// seed 000 §4.3), then the composite operators its rules use decomposed.
//
//===----------------------------------------------------------------------===//

#include "transforms/AutoDiff/Gradient.h"
#include "transforms/Pipelines/Pipelines.h"

#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::relay;

LogicalResult mlir::relay::differentiateEntry(ModuleOp module, StringRef entry,
                                              TimingScope *timing) {
  MLIRContext *context = module.getContext();
  if (!module.lookupSymbol<FuncOp>(entry))
    return module.emitError()
           << "the program has no function @" << entry << " to differentiate";
  // The gradient differentiates one function: the calls it makes are
  // inlined first; batch_norm and the other inference-time normalisations
  // become the arithmetic they compute (the rules differentiate that).
  PassManager prepare(context);
  if (timing)
    prepare.enableTiming(*timing);
  prepare.addPass(createInlinerPass());
  prepare.addPass(createSimplifyInference());
  if (failed(prepare.run(module)))
    return failure();

  GradientOptions options;
  options.func = entry.str();
  auto f = module.lookupSymbol<FuncOp>(entry);
  options.mode =
      f && isFirstOrderDifferentiable(f) ? "first-order" : "higher-order";
  PassManager pm(context);
  if (timing)
    pm.enableTiming(*timing);
  pm.addPass(createGradient(options));
  if (options.mode == "higher-order") {
    pm.addPass(createPartialEval());
    DeadCodeEliminationOptions dce;
    dce.entryFunctions = {entry.str() + "_grad"};
    pm.addPass(createDeadCodeElimination(dce));
  }
  pm.addPass(createDecompose());
  return pm.run(module);
}
