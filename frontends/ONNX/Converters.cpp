//===- Converters.cpp - The ONNX op converter table -------------*- C++ -*-===//

#include "frontends/ONNX/Converters.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::relay::onnx_import;

static const ConverterTable &getTable() {
  static const ConverterTable table = [] {
    ConverterTable t;
    addElementwiseConverters(t);
    addNNConverters(t);
    addImageConverters(t);
    addQuantizationConverters(t);
    addShapeConverters(t);
    addPadConverters(t);
    addRecurrentConverters(t);
    addRandomConverters(t);
    addIndexingConverters(t);
    addSignalConverters(t);
    addPoolIndexConverters(t);
    addLossConverters(t);
    addEinsumConverter(t);
    addDeformConvConverter(t);
    addSequenceConverters(t);
    addTextConverters(t);
    addTrainingConverters(t);
    addAttentionConverters(t);
    return t;
  }();
  return table;
}

const OpConverter *mlir::relay::onnx_import::lookupOpConverter(StringRef op) {
  const ConverterTable &table = getTable();
  auto it = table.find(op);
  return it == table.end() ? nullptr : &it->second;
}

std::vector<std::string> mlir::relay::onnx_import::listOpConverters() {
  std::vector<std::string> names;
  for (const auto &entry : getTable())
    names.push_back(entry.getKey().str());
  llvm::sort(names);
  return names;
}
