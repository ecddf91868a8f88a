//===- Metadata.h - The metadata section of Relay text ----------*- C++ -*-===//
//
// TVM prints tensor constants as `meta[relay.Constant][n]` and appends a
// `#[metadata]` section: TVM's JSON object graph whose root maps
// "relay.Constant" to an array of constant nodes, each naming a base64
// NDArray (magic, device, ndim, dtype, shape, bytes) in "b64ndarrays".
// These functions read that section into dense attributes and write it
// back.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_FRONTENDS_RELAYTEXT_METADATA_H
#define RELAY_MLIR_FRONTENDS_RELAYTEXT_METADATA_H

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace mlir::relay::text {

/// `meta[kind][index]` entries by kind; only "relay.Constant" has values
/// the importer can use, other kinds (VirtualDevice, ...) are counted.
struct MetaTable {
  llvm::StringMap<std::vector<DenseElementsAttr>> constants;
  llvm::StringMap<size_t> otherKinds;
};

/// Parses the JSON text after `#[metadata]`; fails with a message.
FailureOr<MetaTable> parseMetadata(MLIRContext *ctx, StringRef json,
                                   std::string &error);

/// Prints the `#[metadata]` section for `constants` (meta[relay.Constant][i]
/// is constants[i]).
void printMetadata(ArrayRef<DenseElementsAttr> constants, raw_ostream &os);

} // namespace mlir::relay::text

#endif // RELAY_MLIR_FRONTENDS_RELAYTEXT_METADATA_H
