//===- RelayToRuntime.h - Closures, ADTs and references ---------*- C++ -*-===//
//
// Relay's data structures in native code are runtime objects (`!llvm.ptr`,
// runtime/C/RelayRuntime.h): constructors and `ref` allocate, `match`
// tests tags and reads fields (an scf.if chain, nested patterns included,
// with a located run-time error when no case matches), reference reads
// and writes get and set a cell's field.
//
// Closures are defunctionalised: each relay.fn (and each global function
// used as a value) is a kind of closure with an id and a private func.func
// taking the closure object, which holds the captured values, and the
// parameters; relay.apply switches on the closure's kind over the
// functions of the applied signature. The whole module is known, so no
// function pointers are needed.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_CONVERSION_RELAYTORUNTIME_RELAYTORUNTIME_H
#define RELAY_MLIR_CONVERSION_RELAYTORUNTIME_RELAYTORUNTIME_H

#include "conversion/RelayCommon/RelayTypeConverter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace mlir::relay {

/// One kind of closure: a relay.fn, or a global function used as a value.
struct ClosureKind {
  /// The relay.fn, or the relay.func a relay.global_ref names.
  Operation *source;
  /// The private func.func of its body: (closure object, parameters...) ->
  /// results, all flattened.
  std::string name;
  FunctionType lowered;
  /// The tag of its closure objects.
  int64_t id;
};

/// Every closure kind of a module, collected before the conversion.
struct ClosureTable {
  std::vector<ClosureKind> kinds;
  llvm::DenseMap<Operation *, int64_t> ids;
  /// Global functions used as values, by name.
  llvm::StringMap<int64_t> globals;

  const ClosureKind *lookup(Operation *source) const;
  const ClosureKind *lookupGlobal(StringRef name) const;
};

/// Prepares `module`'s closures for conversion (Relay to Relay): tuple
/// projections a closure makes of a captured tuple move out of it, so that
/// it captures only the fields it reads; a tuple a closure still captures
/// whole is captured field by field and rebuilt inside it.
void narrowClosureCaptures(ModuleOp module);

/// Gives every relay.fn and every global function used as a value a closure
/// kind. Reports (prefixed by `passName`) closures of types with no
/// lowering and references to polymorphic functions.
LogicalResult collectClosures(ModuleOp module, ClosureTable &table,
                              StringRef passName);

/// relay.construct and relay.match on runtime objects.
void populateRelayAdtToRuntimePatterns(RelayTypeConverter &converter,
                                       RewritePatternSet &patterns);

/// relay.ref, relay.ref_read, relay.ref_write on runtime cells.
void populateRelayRefToRuntimePatterns(RelayTypeConverter &converter,
                                       RewritePatternSet &patterns);

/// relay.fn, relay.global_ref and relay.apply as the kinds of `closures`,
/// which must outlive the patterns.
void populateRelayClosureToRuntimePatterns(RelayTypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           const ClosureTable &closures);

/// All of the above.
void populateRelayToRuntimeConversionPatterns(RelayTypeConverter &converter,
                                              RewritePatternSet &patterns,
                                              const ClosureTable &closures);

/// Erases the ADT declarations (relay.data) once nothing refers to them.
void eraseDataDeclarations(ModuleOp module);

} // namespace mlir::relay

#endif // RELAY_MLIR_CONVERSION_RELAYTORUNTIME_RELAYTORUNTIME_H
