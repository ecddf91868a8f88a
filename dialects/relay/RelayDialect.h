//===- RelayDialect.h - Relay dialect ---------------------------*- C++ -*-===//
//
// The relay dialect class.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_RELAYDIALECT_H
#define RELAY_MLIR_DIALECTS_RELAY_RELAYDIALECT_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/ExtensibleDialect.h"

#include "dialects/relay/RelayDialect.h.inc"

#endif // RELAY_MLIR_DIALECTS_RELAY_RELAYDIALECT_H
