//===- AlignedInput.h - Input files aligned for MLIR bytecode ---*- C++ -*-===//
//
// MLIR bytecode aligns its resource sections (a network's weights, 64-byte
// aligned blobs) relative to the start of the buffer and refuses a buffer
// that is not aligned as much ("expected section alignment 64 but bytecode
// buffer ... is not aligned"). A file small enough to be read rather than
// mapped, or standard input, is not, so the tools read their inputs here.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_SUPPORT_ALIGNEDINPUT_H
#define RELAY_MLIR_SUPPORT_ALIGNEDINPUT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>

namespace mlir::relay {

/// The bytes of `path` ("-" for standard input), 64-byte aligned; null with
/// `error` set when it cannot be read.
std::unique_ptr<llvm::MemoryBuffer> openAlignedInputFile(llvm::StringRef path,
                                                         std::string *error);

} // namespace mlir::relay

#endif // RELAY_MLIR_SUPPORT_ALIGNEDINPUT_H
