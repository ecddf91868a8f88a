//===- TensorBytes.h - Tensors as packed row-major buffers ------*- C++ -*-===//
//
// The interpreter's tensors to and from the packed row-major buffers that
// compiled code, the C API and numpy use: each element in its dtype's
// width (bool one byte, float16 and bfloat16 their bits), little-endian.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_RUNTIME_INTERPRETER_TENSORBYTES_H
#define RELAY_MLIR_RUNTIME_INTERPRETER_TENSORBYTES_H

#include "runtime/Interpreter/Value.h"

#include <vector>

namespace mlir::relay::interp {

/// Bytes one element of `elementType` takes in a packed buffer.
unsigned elementBytes(Type elementType);

/// The packed bytes of `t` (at least one element's worth, so that an empty
/// tensor still has an address).
std::vector<char> tensorBytes(const Tensor &t);

/// A tensor of `type` (static) read from the packed buffer at `data`.
Tensor tensorFromBytes(RankedTensorType type, const char *data);

} // namespace mlir::relay::interp

#endif // RELAY_MLIR_RUNTIME_INTERPRETER_TENSORBYTES_H
