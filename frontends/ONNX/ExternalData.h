//===- ExternalData.h - ONNX tensors kept beside the model ------*- C++ -*-===//
//-*-===//
//
// Internal to the ONNX importer. A model over protobuf's 2 GB limit, or one
// saved with `onnx.save_model(..., save_as_external_data=True)` (as
// torch.onnx does for large models), keeps its tensors' bytes in files
// beside the model: each such TensorProto has data_location EXTERNAL and
// key-value pairs `location` (a path relative to the model's directory),
// `offset` and `length` (bytes; default 0 and the rest of the file). The
// importer reads them into the tensors before importing, as onnx.load does.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_FRONTENDS_ONNX_EXTERNALDATA_H
#define RELAY_MLIR_FRONTENDS_ONNX_EXTERNALDATA_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

#include <onnx/onnx_pb.h>

namespace mlir::relay::onnx_import {

/// Reads the bytes of every tensor of `model` whose data is external
/// (initializers, tensor attributes, in subgraphs and functions too) from
/// its file under `directory` into the tensor's raw data. A location that
/// is absolute or leaves the directory (`..`), a missing file, or a range
/// outside the file is an error at `loc` naming the tensor.
LogicalResult loadExternalData(onnx::ModelProto &model, StringRef directory,
                               Location loc);

} // namespace mlir::relay::onnx_import

#endif // RELAY_MLIR_FRONTENDS_ONNX_EXTERNALDATA_H
