//===- AlignedInput.cpp - Input files aligned for MLIR bytecode -----------===//

#include "support/AlignedInput.h"

#include "mlir/Support/FileUtilities.h"

#include <cstring>

std::unique_ptr<llvm::MemoryBuffer>
mlir::relay::openAlignedInputFile(llvm::StringRef path, std::string *error) {
  constexpr uint64_t kAlignment = 64;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      openInputFile(path, llvm::Align(kAlignment), error);
  if (!buffer ||
      reinterpret_cast<uintptr_t>(buffer->getBufferStart()) % kAlignment == 0)
    return buffer;
  // (Standard input ignores the alignment asked for.)
  std::unique_ptr<llvm::WritableMemoryBuffer> copy =
      llvm::WritableMemoryBuffer::getNewUninitMemBuffer(
          buffer->getBufferSize(), buffer->getBufferIdentifier(),
          llvm::Align(kAlignment));
  if (!copy) {
    if (error)
      *error = "out of memory reading '" + path.str() + "'";
    return nullptr;
  }
  std::memcpy(copy->getBufferStart(), buffer->getBufferStart(),
              buffer->getBufferSize());
  return copy;
}
