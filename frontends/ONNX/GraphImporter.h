//===- GraphImporter.h - One ONNX graph into relay --------------*- C++ -*-===//
//
// Internal to the ONNX importer: the importer of a model's graph (and of
// the graphs of its If, Loop and Scan nodes, ControlFlowImport.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_FRONTENDS_ONNX_GRAPHIMPORTER_H
#define RELAY_MLIR_FRONTENDS_ONNX_GRAPHIMPORTER_H

#include "frontends/ONNX/NodeContext.h"
#include "frontends/ONNX/OnnxImporter.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::relay::onnx_import {

/// `value` as a value of the more general `type` (relay::joinTypes, where
/// one branch's output size depends on the data, the other's is fixed).
Value widenTo(OpBuilder &b, Location loc, Value value, Type type);

class GraphImporter {
public:
  GraphImporter(MLIRContext *ctx, StringRef fileName,
                const OnnxImportOptions &options)
      : ctx(ctx), builder(ctx), fileName(fileName), options(options) {}

  OwningOpRef<ModuleOp> import(const onnx::ModelProto &model);

private:
  Location fileLoc(unsigned line) {
    return FileLineColLoc::get(ctx, fileName, line, 0);
  }
  LogicalResult readOpset(const onnx::ModelProto &model);
  /// The relay type of a graph input or output, or null after an error;
  /// `sample` as convertTypeProto's (Sequences.h).
  Type
  valueInfoType(const onnx::ValueInfoProto &info,
                const std::optional<SmallVector<int64_t>> *sample = nullptr);
  /// The type of the `index`th graph input (not an initializer) with the
  /// shape the options give it; null (reported) on a mismatch.
  Type inputType(const onnx::ValueInfoProto &info, unsigned index);
  LogicalResult importNode(const onnx::NodeProto &node, unsigned index);
  /// Makes the small outputs of a node whose inputs are all known known
  /// too, each then a constant (see the definition).
  void foldKnownOutputs(const onnx::NodeProto &node,
                        ArrayRef<GraphValue> inputs,
                        MutableArrayRef<GraphValue> outputs, Location loc);
  /// If: the taken branch inline when the condition is known, else
  /// relay.if with the branches imported into its regions.
  LogicalResult importIf(const onnx::NodeProto &node, StringRef label,
                         Location loc);
  /// Scan: the body unrolled over the scan inputs' length (known at
  /// import), the state threaded through, each scan output stacked.
  LogicalResult importScan(const onnx::NodeProto &node, StringRef label,
                           Location loc);
  /// Loop: a local recursive function of the iteration number, the
  /// condition, the loop-carried values and the scan outputs so far, whose
  /// body is the graph's (a tail call, which native code makes a loop).
  LogicalResult importLoop(const onnx::NodeProto &node, StringRef label,
                           Location loc);
  /// SequenceMap: the body once per position, unrolled where the
  /// sequences' elements are known at import, else a recursive closure
  /// over the positions building the output lists.
  LogicalResult importSequenceMap(const onnx::NodeProto &node, StringRef label,
                                  Location loc);
  /// The types of `graph`'s outputs when its inputs have types `inputs`:
  /// one import into a closure that is then thrown away; `bind` gives the
  /// values the graph's inputs are bound to from the closure's parameters.
  FailureOr<SmallVector<Type>>
  probeOutputTypes(const onnx::GraphProto &graph, StringRef what, Location loc,
                   ArrayRef<Type> inputs,
                   function_ref<SmallVector<Value>(ValueRange)> bind);
  /// Imports a graph's initializers and nodes at the insertion point, in a
  /// scope of its own (it sees the enclosing values), its inputs bound to
  /// `inputs` (as many as it has; none for If's branches); returns its
  /// outputs.
  FailureOr<SmallVector<Value>> importBranch(const onnx::GraphProto &graph,
                                             StringRef what, Location loc,
                                             ArrayRef<Value> inputs = {});
  /// importBranch with what is known at import of the inputs and outputs
  /// (constants, a sequence's elements).
  FailureOr<SmallVector<GraphValue>> importGraph(const onnx::GraphProto &graph,
                                                 StringRef what, Location loc,
                                                 ArrayRef<GraphValue> inputs);
  /// Loop with a trip count and conditions known at import, where its
  /// values' sizes change from step to step or it has scan outputs (which
  /// would leave them known only at run time): the body unrolled, as
  /// Scan's, up to the step whose condition is false. Returns the node's
  /// results, or nullopt (nothing built) where it does not apply.
  FailureOr<std::optional<SmallVector<GraphValue>>>
  unrollLoop(const onnx::GraphProto &body, StringRef what, Location loc,
             int64_t steps, ArrayRef<GraphValue> carried, int numScans);

  MLIRContext *ctx;
  OpBuilder builder;
  std::string fileName;
  const OnnxImportOptions &options;
  int64_t opset = 0;
  /// The module being built.
  ModuleOp module;
  llvm::StringMap<GraphValue> values;
};

} // namespace mlir::relay::onnx_import

#endif // RELAY_MLIR_FRONTENDS_ONNX_GRAPHIMPORTER_H
