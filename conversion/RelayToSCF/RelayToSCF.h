//===- RelayToSCF.h - Relay functions and control flow to func/scf --------===//
//
// The structure of a Relay program in native code: relay.func becomes
// func.func (with a C interface), relay.call func.call, relay.return
// func.return, relay.if scf.if (its condition extracted from the 0-d
// tensor), and tuples disappear (relay.tuple and relay.tuple_get only
// regroup the flattened values). A function whose self-calls are all tail
// calls then becomes an scf.while loop.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_CONVERSION_RELAYTOSCF_RELAYTOSCF_H
#define RELAY_MLIR_CONVERSION_RELAYTOSCF_RELAYTOSCF_H

#include "conversion/RelayCommon/RelayTypeConverter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::relay {

/// relay.func, relay.call: func.func and func.call on the flattened
/// signature (polymorphic functions must be specialised first).
void populateRelayFunctionToFuncPatterns(RelayTypeConverter &converter,
                                         RewritePatternSet &patterns);

/// relay.return inside a func.func and relay.yield inside an scf.if (where
/// the conversions of functions, closures, `if` and `match` put them).
void populateRelayTerminatorConversionPatterns(RelayTypeConverter &converter,
                                               RewritePatternSet &patterns);

/// relay.if: scf.if.
void populateRelayIfToSCFPatterns(RelayTypeConverter &converter,
                                  RewritePatternSet &patterns);

/// relay.tuple, relay.tuple_get: the fields' values, regrouped.
void populateRelayTupleConversionPatterns(RelayTypeConverter &converter,
                                          RewritePatternSet &patterns);

/// All of the above.
void populateRelayToSCFConversionPatterns(RelayTypeConverter &converter,
                                          RewritePatternSet &patterns);

/// Turns every func.func in `module` whose calls to itself are all tail
/// calls (their results are what it returns, through any nesting of scf.if,
/// with nothing but pure ops after them) into an scf.while loop: constant
/// stack, and arguments passed along unchanged stay in their buffers.
void convertTailRecursionToLoops(ModuleOp module);

} // namespace mlir::relay

#endif // RELAY_MLIR_CONVERSION_RELAYTOSCF_RELAYTOSCF_H
