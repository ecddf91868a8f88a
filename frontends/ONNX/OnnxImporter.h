//===- OnnxImporter.h - ONNX models to the relay dialect --------*- C++ -*-===//
//
// Imports an ONNX model (a ModelProto, opsets 1-18 of the default domain)
// into relay dialect MLIR: the graph becomes `relay.func @main` whose
// parameters are the graph inputs that are not initializers, initializers
// become `relay.constant`s (large ones as `dense_resource` blobs, so weights
// never go through text), and each node becomes the relay operators that
// compute it. Shape arithmetic on values known at import time (Shape,
// Gather, Concat, ... on constants) is folded, so that shape inputs of
// Reshape, Slice, Expand and friends are static. Every op carries the
// location `FILE:N:0` with N the 1-based index of the node in the graph,
// wrapped in a NameLoc with the node's name; an unsupported op or attribute
// fails naming the node and the op.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_FRONTENDS_ONNX_ONNXIMPORTER_H
#define RELAY_MLIR_FRONTENDS_ONNX_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::relay::onnx_import {

/// Shapes for the graph's inputs (the ones that are not initializers), for
/// models whose inputs have symbolic dimensions (a batch size left open):
/// the importer needs static shapes, as TVM's from_onnx takes its `shape`.
struct OnnxImportOptions {
  /// By input name: replaces the model's shape, whose fixed dimensions it
  /// must match (an error otherwise, and for a name no input has).
  llvm::StringMap<SmallVector<int64_t>> inputShapes;
  /// By position (relay-run's --input files): fills the dimensions the
  /// model leaves symbolic where the ranks agree; a shape that disagrees
  /// is left for the caller's own check of its values. For a sequence or
  /// optional input, the shape of its first tensor (none for an empty
  /// one) gives the rank of its elements.
  SmallVector<std::optional<SmallVector<int64_t>>> inputShapesInOrder;
  /// Where the files of tensors kept outside the model (ONNX external
  /// data) are found; empty: the directory of the model's file name (the
  /// current directory for a name without one, such as `<stdin>`).
  std::string externalDataDirectory;
};

/// Imports the serialized ModelProto in `bytes`; `fileName` names it in
/// locations. Errors go to the context's diagnostics; returns null then.
OwningOpRef<ModuleOp> importOnnxModel(StringRef bytes, StringRef fileName,
                                      MLIRContext *ctx,
                                      const OnnxImportOptions &options = {});

/// Parses `NAME=D1xD2x...` (the shape of --onnx-input-shape; `NAME=` is a
/// scalar) into `options`; returns an error message, or "" on success.
std::string parseOnnxInputShape(StringRef spec, OnnxImportOptions &options);

/// Reads and imports the model file at `path`.
OwningOpRef<ModuleOp> importOnnxFile(StringRef path, MLIRContext *ctx);

/// The ONNX operator types the importer converts, sorted.
std::vector<std::string> getSupportedOnnxOps();

/// Registers `--import-onnx` with mlir-translate.
void registerOnnxTranslation();

} // namespace mlir::relay::onnx_import

#endif // RELAY_MLIR_FRONTENDS_ONNX_ONNXIMPORTER_H
