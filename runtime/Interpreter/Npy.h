//===- Npy.h - numpy .npy files ---------------------------------*- C++ -*-===//
//
// Reads and writes tensors in numpy's .npy format (versions 1-3; bool,
// int8..int64, uint8..uint64, float16/32/64; C or Fortran order on read,
// C order on write). Malformed files are rejected with a message.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_RUNTIME_INTERPRETER_NPY_H
#define RELAY_MLIR_RUNTIME_INTERPRETER_NPY_H

#include "runtime/Interpreter/Value.h"

#include <string>

namespace mlir::relay::interp {

/// Parses the bytes of a .npy file; on failure sets `error`.
FailureOr<Tensor> readNpy(MLIRContext *ctx, StringRef bytes,
                          std::string &error);
/// The .npy bytes of `t`; fails (setting `error`) for dtypes numpy lacks.
FailureOr<std::string> writeNpy(const Tensor &t, std::string &error);

} // namespace mlir::relay::interp

#endif // RELAY_MLIR_RUNTIME_INTERPRETER_NPY_H
