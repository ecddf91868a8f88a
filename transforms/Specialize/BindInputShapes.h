//===- BindInputShapes.h - A program typed for its inputs' shapes -*- C++
//-*-===//
//
// Native code is for static shapes. A program whose entry leaves
// dimensions `?` (Relay's Any) can still be compiled once the sizes of the
// inputs it is called with are known: relay-run binds them, as the ONNX
// importer binds a model's symbolic dimensions to the inputs' sizes.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_SPECIALIZE_BINDINPUTSHAPES_H
#define RELAY_MLIR_TRANSFORMS_SPECIALIZE_BINDINPUTSHAPES_H

#include "dialects/relay/RelayOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir::relay {

/// A copy of `module` (typed) in which the parameters of `entry` whose
/// types leave dimensions `?` take the sizes of `inputTypes` (one per
/// parameter; a tuple's fields each from the input's; a parameter of
/// another rank, dtype or static size keeps its type) and what was typed from
/// them is inferred again: the types in `entry` with a `?`, and, for each
/// global function called with arguments that are now static where its
/// parameters say `?`, a private copy typed for those arguments (at most
/// `maxCopies`). Null when no parameter was bound, or when the program does not
/// type for these sizes (a closure typed `?` applied to two shapes, more copies
/// than allowed): it then stays as written.
OwningOpRef<ModuleOp> bindInputShapes(ModuleOp module, StringRef entry,
                                      ArrayRef<Type> inputTypes,
                                      unsigned maxCopies = 64);

/// Where `entry` is polymorphic (`def @main[n : ShapeVar](%x: Tensor[(n,
/// 4), float32])`), a copy of `module` (typed) in which it is renamed
/// `<entry>_poly` and a monomorphic `@<entry>` taking `inputTypes` calls
/// it, the type arguments inferred from them: what relay-run runs for
/// inputs of those types. Null, with nothing reported, where `entry` is
/// not polymorphic; null after reporting, at the call, inputs the
/// polymorphic signature does not take (two sizes for one `n`).
OwningOpRef<ModuleOp> instantiateEntry(ModuleOp module, StringRef entry,
                                       ArrayRef<Type> inputTypes);

/// Leaves every type in `func` that has a `?` dimension (its results, its
/// ops', its closures' signatures; not its parameters, nor the results of
/// `if` and `match`, which may join branches of different sizes) to be
/// inferred again by --relay-infer-types: what a pass that made some size
/// static runs before inferring, so that what follows from it is typed
/// static too.
void forgetDynamicTypes(FuncOp func);

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_SPECIALIZE_BINDINPUTSHAPES_H
