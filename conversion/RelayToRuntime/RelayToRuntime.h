//===- RelayToRuntime.h - ADTs and references -------------------*- C++ -*-===//
//
// Relay's data structures in native code are runtime objects (`!llvm.ptr`,
// runtime/C/RelayRuntime.h): constructors and `ref` allocate, `match`
// tests tags and reads fields (an scf.if chain, nested patterns included,
// with a located run-time error when no case matches), reference reads
// and writes get and set a cell's field.
//
// Closures reach the lowering as ADTs: --relay-defunctionalize (Relay to
// Relay, transforms/Closure) makes each closure type an ADT with a
// constructor per function and its applications calls, so a backend needs
// no closures of its own; the conversions check that it ran.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_CONVERSION_RELAYTORUNTIME_RELAYTORUNTIME_H
#define RELAY_MLIR_CONVERSION_RELAYTORUNTIME_RELAYTORUNTIME_H

#include "conversion/RelayCommon/RelayTypeConverter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::relay {

/// Checks that `module` is first order: no relay.fn, relay.apply or
/// relay.global_ref (closures are lowered as ADTs by
/// --relay-defunctionalize). Reports the first one, prefixed by
/// `passName`.
LogicalResult checkFirstOrder(ModuleOp module, StringRef passName);

/// relay.construct and relay.match on runtime objects.
void populateRelayAdtToRuntimePatterns(RelayTypeConverter &converter,
                                       RewritePatternSet &patterns);

/// relay.ref, relay.ref_read, relay.ref_write on runtime cells.
void populateRelayRefToRuntimePatterns(RelayTypeConverter &converter,
                                       RewritePatternSet &patterns);

/// All of the above.
void populateRelayToRuntimeConversionPatterns(RelayTypeConverter &converter,
                                              RewritePatternSet &patterns);

/// Erases the ADT declarations (relay.data) once nothing refers to them.
void eraseDataDeclarations(ModuleOp module);

} // namespace mlir::relay

#endif // RELAY_MLIR_CONVERSION_RELAYTORUNTIME_RELAYTORUNTIME_H
