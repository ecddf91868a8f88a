//===- Passes.h - Relay passes ----------------------------------*- C++ -*-===//
//
// Declarations and registration of every relay-mlir pass (Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_PASSES_H
#define RELAY_MLIR_TRANSFORMS_PASSES_H

#include "dialects/relay/RelayDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::relay {

#define GEN_PASS_DECL
#include "transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "transforms/Passes.h.inc"

/// --relay-infer-types as passes and pipelines run it after their own
/// rewrites: without the warnings about the program (a `match` missing
/// cases), which the first inference gave the user.
std::unique_ptr<Pass> createReinferTypes();

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_PASSES_H
