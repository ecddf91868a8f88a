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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

using namespace mlir;

namespace mlir::relay::lowering {

Value packedConstantMatrix(OpBuilder &b, Location loc, Value matrix,
                           int64_t lanes) {
  auto type = dyn_cast<RankedTensorType>(matrix.getType());
  if (!type || type.getRank() != 2 || !type.hasStaticShape())
    return nullptr;
  Type e = type.getElementType();
  if (!e.isIntOrFloat() || e.getIntOrFloatBitWidth() % 8)
    return nullptr;
  // Reshapes keep the row-major order of the data.
  Value root = matrix;
  while (Operation *def = root.getDefiningOp()) {
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def))
      break;
    root = def->getOperand(0);
  }
  auto constant = root.getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return nullptr;
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  if (lanes <= 0 || rows % lanes)
    return nullptr;
  size_t bytes = e.getIntOrFloatBitWidth() / 8;
  auto packedType = RankedTensorType::get({rows / lanes, cols, lanes}, e);
  ArrayRef<char> data;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (dense) {
    if (dense.isSplat())
      return arith::ConstantOp::create(b, loc, dense.resizeSplat(packedType));
    data = dense.getRawData();
  } else if (auto resource =
                 dyn_cast<DenseResourceElementsAttr>(constant.getValue())) {
    // An elided blob has no data to pack.
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return nullptr;
    data = blob->getData();
  } else {
    return nullptr;
  }
  if (data.size() != size_t(rows * cols) * bytes)
    return nullptr;
  // packed[i / lanes, j, i % lanes] = matrix[i, j]
  std::vector<char> packed(data.size());
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      std::memcpy(&packed[((i / lanes * cols + j) * lanes + i % lanes) * bytes],
                  &data[(i * cols + j) * bytes], bytes);
  TypedAttr attr;
  if (dense)
    attr = DenseElementsAttr::getFromRawBuffer(packedType, packed);
  else
    // 64-byte aligned like the importer's blobs, which the JIT reads in
    // place.
    attr = DenseResourceElementsAttr::get(
        packedType, "relay_packed",
        HeapAsmResourceBlob::allocateAndCopyWithAlign(packed, 64,
                                                      /*dataIsMutable=*/false));
  return arith::ConstantOp::create(b, loc, attr);
}

} // namespace mlir::relay::lowering
