//===- PackConstants.cpp - Repack constant matrices at compile time -------===//
//
// A convolution whose spatial size is a poor fit for the vector width
// multiplies with its weights transposed and packed in panels (see
// conv2dSingleImageProduct); imported weights are constants, so the
// repacking is done here, once, instead of by the compiled code on every
// call.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "transforms/Codegen/CPU/CPUKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

using namespace mlir;

namespace mlir::relay::cpu {

arith::ConstantOp constantThroughReshapes(Value value) {
  // Reshapes keep the row-major order of the data.
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def))
      break;
    value = def->getOperand(0);
  }
  return value.getDefiningOp<arith::ConstantOp>();
}

DenseElementsAttr splatConstant(Value value) {
  arith::ConstantOp constant = constantThroughReshapes(value);
  auto dense =
      constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
  return dense && dense.isSplat() ? dense : nullptr;
}

bool constantBytes(Value value, ArrayRef<char> &data, bool &isResource) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return false;
  Type e = type.getElementType();
  if (!e.isIntOrFloat() || e.getIntOrFloatBitWidth() % 8)
    return false;
  arith::ConstantOp constant = constantThroughReshapes(value);
  if (!constant)
    return false;
  if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue())) {
    // A splat's raw data is one element.
    if (dense.isSplat())
      return false;
    data = dense.getRawData();
    isResource = false;
  } else if (auto resource =
                 dyn_cast<DenseResourceElementsAttr>(constant.getValue())) {
    // An elided blob has no data.
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return false;
    data = blob->getData();
    isResource = true;
  } else {
    return false;
  }
  return data.size() ==
         size_t(type.getNumElements()) * (e.getIntOrFloatBitWidth() / 8);
}

Value bytesConstant(OpBuilder &b, Location loc, RankedTensorType type,
                    ArrayRef<char> data, bool asResource) {
  TypedAttr attr;
  if (!asResource)
    attr = DenseElementsAttr::getFromRawBuffer(type, data);
  else
    // 64-byte aligned like the importer's blobs, which the JIT reads in
    // place.
    attr = DenseResourceElementsAttr::get(
        type, "relay_packed",
        HeapAsmResourceBlob::allocateAndCopyWithAlign(data, 64,
                                                      /*dataIsMutable=*/false));
  return arith::ConstantOp::create(b, loc, attr);
}

Value packedConstantMatrix(OpBuilder &b, Location loc, Value matrix,
                           int64_t lanes, int64_t paddedRows, bool transposed) {
  auto type = dyn_cast<RankedTensorType>(matrix.getType());
  if (!type || type.getRank() != 2 || !type.hasStaticShape())
    return nullptr;
  int64_t rows = type.getDimSize(transposed ? 1 : 0),
          cols = type.getDimSize(transposed ? 0 : 1);
  if (paddedRows == 0)
    paddedRows = rows;
  Type e = type.getElementType();
  if (lanes <= 0 || paddedRows < rows || paddedRows % lanes ||
      !e.isIntOrFloat() || e.getIntOrFloatBitWidth() % 8)
    return nullptr;
  auto packedType = RankedTensorType::get({paddedRows / lanes, cols, lanes}, e);
  size_t bytes = e.getIntOrFloatBitWidth() / 8;
  ArrayRef<char> data;
  std::vector<char> splatData;
  bool isResource = false;
  if (DenseElementsAttr splat = splatConstant(matrix)) {
    // A splat packs to itself, unless zero rows are added.
    if (paddedRows == rows)
      return arith::ConstantOp::create(b, loc, splat.resizeSplat(packedType));
    ArrayRef<char> one = splat.getRawData();
    for (int64_t i = 0; i < rows * cols; ++i)
      splatData.insert(splatData.end(), one.begin(), one.begin() + bytes);
    data = splatData;
  } else if (!constantBytes(matrix, data, isResource)) {
    return nullptr;
  }
  // packed[i / lanes, j, i % lanes] = matrix[i, j]; padded rows are zeros.
  std::vector<char> packed(paddedRows * cols * bytes, 0);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      std::memcpy(&packed[((i / lanes * cols + j) * lanes + i % lanes) * bytes],
                  &data[(transposed ? j * rows + i : i * cols + j) * bytes],
                  bytes);
  return bytesConstant(b, loc, packedType, packed, isResource);
}

Value zeroPaddedRows(OpBuilder &b, Location loc, Value value, int64_t rows) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getDimSize(0) == rows)
    return value;
  SmallVector<int64_t> shape(type.getShape());
  shape[0] = rows;
  auto paddedType = RankedTensorType::get(shape, type.getElementType());
  // As a matrix of one column per element of a row: packed in panels of
  // one row, it is the row-major matrix itself.
  SmallVector<ReassociationIndices> rowMajor(1, {0});
  if (type.getRank() > 1 && constantThroughReshapes(value)) {
    rowMajor.emplace_back();
    for (int64_t d = 1, e = type.getRank(); d < e; ++d)
      rowMajor.back().push_back(d);
    Value matrix =
        type.getRank() == 2
            ? value
            : tensor::CollapseShapeOp::create(b, loc, value, rowMajor);
    if (Value packed = packedConstantMatrix(b, loc, matrix, 1, rows)) {
      // [rows, C, 1] -> [rows, C] -> the padded shape.
      Value padded = tensor::CollapseShapeOp::create(
          b, loc, packed, SmallVector<ReassociationIndices>{{0}, {1, 2}});
      if (type.getRank() == 2)
        return padded;
      return tensor::ExpandShapeOp::create(b, loc, paddedType, padded,
                                           rowMajor);
    }
  }
  return lowering::padHighTo(b, loc, value, shape);
}

} // namespace mlir::relay::cpu
