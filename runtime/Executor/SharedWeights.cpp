//===- SharedWeights.cpp - Compiled code reads weights in place -----------===//

#include "runtime/Executor/SharedWeights.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <algorithm>

using namespace mlir;

/// The bytes of a value of LLVM type `type`; 0 when not a plain array of
/// whole-byte integers or floats.
static uint64_t byteSize(Type type) {
  uint64_t count = 1;
  while (auto array = dyn_cast<LLVM::LLVMArrayType>(type)) {
    count *= array.getNumElements();
    type = array.getElementType();
  }
  if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() % 8 != 0)
    return 0;
  return count * (type.getIntOrFloatBitWidth() / 8);
}

llvm::StringMap<const void *>
mlir::relay::externalizeResourceGlobals(ModuleOp module) {
  llvm::StringMap<const void *> addresses;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    auto resource =
        dyn_cast_or_null<DenseResourceElementsAttr>(global.getValueOrNull());
    if (!global.getConstant() || !resource)
      continue;
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      continue;
    ArrayRef<char> data = blob->getData();
    if (data.empty() || data.size() != byteSize(global.getGlobalType()))
      continue;
    // LLVM may use the declared alignment for aligned vector moves: declare
    // no more than the address has.
    auto address = reinterpret_cast<uintptr_t>(data.data());
    uint64_t aligned = address & (~address + 1);
    uint64_t declared = global.getAlignment().value_or(aligned);
    global.setAlignment(std::min(declared, aligned));
    global.removeValueAttr();
    global.setLinkage(LLVM::Linkage::External);
    addresses[global.getSymName()] = data.data();
  }
  return addresses;
}
