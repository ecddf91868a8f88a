//===- NpyFuzzer.cpp - libFuzzer target for the .npy reader ---------------===//
//
// Feeds arbitrary bytes to the .npy reader (relay-run --input, the
// calibration data of quantization, --relay-bind-params) and, when they
// read, writes the tensor again and reads that back: it must give the same
// dtype and shape. Any crash, sanitizer report, hang or allocation past the
// limit is a bug: a malformed or truncated file must only produce an error.
//
//===----------------------------------------------------------------------===//

#include "runtime/Interpreter/Npy.h"

#include "mlir/IR/MLIRContext.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir::relay::interp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static mlir::MLIRContext context;
  std::string error;
  mlir::FailureOr<Tensor> tensor = readNpy(
      &context, llvm::StringRef(reinterpret_cast<const char *>(data), size),
      error);
  if (mlir::failed(tensor))
    return 0;
  mlir::FailureOr<std::string> bytes = writeNpy(*tensor, error);
  if (mlir::failed(bytes))
    return 0;
  mlir::FailureOr<Tensor> again = readNpy(&context, *bytes, error);
  if (mlir::failed(again) ||
      again->getElementType() != tensor->getElementType() ||
      again->getShape() != tensor->getShape())
    std::abort();
  return 0;
}
