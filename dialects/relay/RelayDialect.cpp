//===- RelayDialect.cpp - Relay dialect -------------------------*- C++ -*-===//
//
// Dialect registration, constant materialization, and the inliner interface
// that lets upstream `--inline` inline Relay calls.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayDialect.h"
#include "dialects/relay/RelayOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::relay;

#include "dialects/relay/RelayDialect.cpp.inc"

namespace {
/// Relay calls inline like any call: the callee's body replaces the call and
/// its `relay.return` value replaces the call's result. Polymorphic callees
/// are not inlined: their body's types mention type parameters that only
/// specialisation (or type inference) resolves.
struct RelayInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *call, Operation *callable,
                       bool wouldBeCloned) const final {
    auto func = dyn_cast<FuncOp>(callable);
    return func && !func.isPolymorphic();
  }
  bool isLegalToInline(Region *dest, Region *src, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }
  bool isLegalToInline(Operation *op, Region *dest, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }
  void handleTerminator(Operation *op, ValueRange valuesToRepl) const final {
    auto ret = cast<ReturnOp>(op);
    valuesToRepl.front().replaceAllUsesWith(ret.getValue());
  }
};
} // namespace

void RelayDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "dialects/relay/RelayOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/relay/RelayOperators.cpp.inc"
      >();
  addInterfaces<RelayInlinerInterface>();
}

Operation *RelayDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}
