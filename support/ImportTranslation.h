//===- ImportTranslation.h - mlir-translate imports, text or bytecode -----===//
//
// An mlir-translate registration for an importer whose result is printed as
// MLIR text or, with --emit-bytecode, written as MLIR bytecode: a network's
// weights (resource blobs) print as hex text, twice their size and slow to
// print and parse back; bytecode holds them as raw bytes, and relay-mlir-opt
// reads it as it reads text.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_SUPPORT_IMPORTTRANSLATION_H
#define RELAY_MLIR_SUPPORT_IMPORTTRANSLATION_H

#include "mlir/IR/OwningOpRef.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include <functional>

namespace mlir::relay {

/// The importer: the source's operation, or null after reporting why.
using ImportFunction =
    std::function<OwningOpRef<Operation *>(llvm::SourceMgr &, MLIRContext *)>;

/// Registers the translation `name` (the tool's --name flag): imports the
/// input with `importer` in a context holding `dialects`, verifies the
/// result and prints it (text; bytecode with --emit-bytecode).
void registerImportTranslation(llvm::StringRef name,
                               llvm::StringRef description,
                               ImportFunction importer,
                               DialectRegistrationFunction dialects);

} // namespace mlir::relay

#endif // RELAY_MLIR_SUPPORT_IMPORTTRANSLATION_H
