//===- Passes.td - Relay passes ----------------------------*- tablegen -*-===//
//
// Every relay-mlir pass, declared in its family's folder
// (transforms/<Family>/Passes.td). Flags are `--relay-<name>`.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_PASSES
#define RELAY_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

include "transforms/TypeInference/Passes.td"
include "transforms/Decompose/Passes.td"
include "transforms/Specialize/Passes.td"
include "transforms/Simplify/Passes.td"
include "transforms/Combine/Passes.td"
include "transforms/Layout/Passes.td"
include "transforms/Fusion/Passes.td"
include "transforms/Closure/Passes.td"
include "transforms/AutoDiff/Passes.td"
include "transforms/PartialEval/Passes.td"
include "transforms/Quantization/Passes.td"
include "transforms/Codegen/Passes.td"
include "transforms/Codegen/CPU/Passes.td"
include "transforms/Codegen/GPU/Passes.td"
include "transforms/Pipelines/Passes.td"

#endif // RELAY_TRANSFORMS_PASSES
