//===- RelayAttrs.cpp - Relay attributes ------------------------*- C++ -*-===//
//
// Registration of the relay attributes (their syntax is declarative).
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayAttrs.h"
#include "dialects/relay/RelayDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::relay;

#define GET_ATTRDEF_CLASSES
#include "dialects/relay/RelayAttrs.cpp.inc"

void RelayDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/relay/RelayAttrs.cpp.inc"
      >();
}
