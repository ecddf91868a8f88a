//===- OnnxNodeName.h - The ONNX node an op came from -----------*- C++ -*-===//
//
// The ONNX importer locates each op it makes at NameLoc(node name,
// model.onnx:index:0). Run-time errors name that node, as import errors do,
// since an ONNX user knows their model by its node names.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_SUPPORT_ONNXNODENAME_H
#define RELAY_MLIR_SUPPORT_ONNXNODENAME_H

#include "mlir/IR/Location.h"

#include <string>

namespace mlir::relay {

/// The name of the ONNX node whose import made an op at `loc`, or "".
inline std::string onnxNodeName(Location loc) {
  auto name = loc->findInstanceOf<NameLoc>();
  if (!name)
    return "";
  auto file = dyn_cast<FileLineColLoc>(name.getChildLoc());
  if (!file || !file.getFilename().getValue().ends_with(".onnx"))
    return "";
  return name.getName().str();
}

} // namespace mlir::relay

#endif // RELAY_MLIR_SUPPORT_ONNXNODENAME_H
