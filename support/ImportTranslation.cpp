//===- ImportTranslation.cpp - mlir-translate imports, text or bytecode ---===//

#include "support/ImportTranslation.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

/// One flag for every import of the tool.
static llvm::cl::opt<bool> &emitBytecode() {
  static llvm::cl::opt<bool> flag(
      "emit-bytecode",
      llvm::cl::desc("Write an import's result as MLIR bytecode instead of "
                     "text (weights as raw bytes: smaller and much faster to "
                     "write and to read back than text)"),
      llvm::cl::init(false));
  return flag;
}

void mlir::relay::registerImportTranslation(
    llvm::StringRef name, llvm::StringRef description, ImportFunction importer,
    DialectRegistrationFunction dialects) {
  emitBytecode();
  // A generic registration: TranslateToMLIRRegistration always prints text.
  TranslateRegistration(
      name, description,
      [importer, dialects](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
                           llvm::raw_ostream &output,
                           MLIRContext *context) -> LogicalResult {
        DialectRegistry registry;
        dialects(registry);
        context->appendDialectRegistry(registry);
        OwningOpRef<Operation *> op = importer(*sourceMgr, context);
        if (!op || failed(verify(*op)))
          return failure();
        if (emitBytecode())
          return writeBytecodeToFile(op.get(), output);
        op.get()->print(output);
        return success();
      });
}
