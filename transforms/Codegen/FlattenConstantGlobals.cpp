//===- FlattenConstantGlobals.cpp - Flat weight globals ---------*- C++ -*-===//
//
// --relay-flatten-constant-globals: constant LLVM globals of nested array
// type become flat arrays (see Passes.td), so that translating a network's
// weights to LLVM IR builds one constant per weight, not one per row.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace mlir::relay {
#define GEN_PASS_DEF_FLATTENCONSTANTGLOBALS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

/// `value` as a 1-d array of its bytes (i8), or of its elements where the
/// bytes are not at hand (a splat, elements narrower than a byte); null for
/// other attributes. LLVM's AsmPrinter writes an i8 array's bytes in one
/// go, and other arrays element by element (seconds for a network).
ElementsAttr flatten(ElementsAttr value) {
  auto type = dyn_cast<ShapedType>(value.getType());
  if (!type || !type.hasStaticShape() || type.getRank() < 1)
    return nullptr;
  Type element = type.getElementType();
  int64_t width = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
  bool bytewise = width >= 8 && width % 8 == 0;
  auto bytes = RankedTensorType::get({type.getNumElements() * (width / 8)},
                                     IntegerType::get(type.getContext(), 8));
  auto flat = RankedTensorType::get({type.getNumElements()}, element);
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (bytewise && !dense.isSplat())
      return DenseElementsAttr::getFromRawBuffer(bytes, dense.getRawData());
    return type.getRank() > 1 ? dense.reshape(flat) : nullptr;
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return DenseResourceElementsAttr::get(bytewise ? bytes : flat,
                                          resource.getRawHandle());
  return nullptr;
}

/// Whether `gep` only takes the address of the global (all indices 0).
bool isBaseAddress(LLVM::GEPOp gep) {
  if (!gep.getDynamicIndices().empty())
    return false;
  for (int32_t index : gep.getRawConstantIndices())
    if (index != 0)
      return false;
  return true;
}

struct FlattenConstantGlobalsPass
    : public relay::impl::FlattenConstantGlobalsBase<
          FlattenConstantGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Every address taken of each global.
    llvm::StringMap<SmallVector<LLVM::AddressOfOp>> addresses;
    module.walk([&](LLVM::AddressOfOp op) {
      addresses[op.getGlobalName()].push_back(op);
    });
    for (auto global : module.getOps<LLVM::GlobalOp>()) {
      auto value = dyn_cast_or_null<ElementsAttr>(global.getValueOrNull());
      if (!global.getConstant() || !value ||
          !isa<LLVM::LLVMArrayType>(global.getType()))
        continue;
      ElementsAttr flat = flatten(value);
      if (!flat)
        continue;
      auto &uses = addresses[global.getSymName()];
      bool onlyBase = llvm::all_of(uses, [](LLVM::AddressOfOp address) {
        return llvm::all_of(address->getUsers(), [](Operation *user) {
          auto gep = dyn_cast<LLVM::GEPOp>(user);
          return gep && isBaseAddress(gep);
        });
      });
      if (!onlyBase)
        continue;
      for (LLVM::AddressOfOp address : uses)
        for (Operation *user :
             llvm::make_early_inc_range(address->getUsers())) {
          user->getResult(0).replaceAllUsesWith(address.getResult());
          user->erase();
        }
      auto elements = cast<ShapedType>(flat.getType());
      global.setGlobalType(LLVM::LLVMArrayType::get(elements.getElementType(),
                                                    elements.getNumElements()));
      global.setValueAttr(flat);
      ++numFlattened;
    }
  }
};

} // namespace
