//===- FlattenConstantGlobals.cpp - Flat constant LLVM globals --*- C++ -*-===//

#include "transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace mlir::relay {
#define GEN_PASS_DEF_FLATTENCONSTANTGLOBALS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

struct FlattenConstantGlobalsPass
    : public relay::impl::FlattenConstantGlobalsBase<
          FlattenConstantGlobalsPass> {
  void runOnOperation() override {
    getOperation().walk([](LLVM::GlobalOp global) {
      auto outer = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (!outer || !global.getConstant())
        return;
      auto inner = dyn_cast<LLVM::LLVMArrayType>(outer.getElementType());
      if (!inner)
        return; // already flat
      // The scalar element and the element count of the nested arrays.
      Type element = outer;
      uint64_t count = 1;
      while (auto array = dyn_cast<LLVM::LLVMArrayType>(element)) {
        count *= array.getNumElements();
        element = array.getElementType();
      }
      auto value = dyn_cast_or_null<ElementsAttr>(global.getValueOrNull());
      if (!value || !value.getElementType().isIntOrFloat() ||
          static_cast<uint64_t>(value.getNumElements()) != count)
        return;
      auto flat = RankedTensorType::get({static_cast<int64_t>(count)},
                                        value.getElementType());
      Attribute flatValue;
      if (auto dense = dyn_cast<DenseElementsAttr>(value))
        flatValue = dense.reshape(flat);
      else if (auto blob = dyn_cast<DenseResourceElementsAttr>(value))
        flatValue = DenseResourceElementsAttr::get(flat, blob.getRawHandle());
      else
        return;
      global.setGlobalTypeAttr(
          TypeAttr::get(LLVM::LLVMArrayType::get(element, count)));
      global.setValueAttr(flatValue);
    });
  }
};

} // namespace
