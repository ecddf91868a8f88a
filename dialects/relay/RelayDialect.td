//===- RelayDialect.td - Relay dialect definition ----------*- tablegen -*-===//
//
// The relay dialect: Relay, the functional, statically typed IR for deep
// learning, as an MLIR dialect.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_DIALECT
#define RELAY_DIALECT

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Relay_Dialect : Dialect {
  let name = "relay";
  let cppNamespace = "::mlir::relay";
  let summary = "Relay: a functional, statically typed IR for deep learning";
  let description = [{
    Relay programs are modules of global functions (`relay.func`) and
    algebraic data types (`relay.data`). Expressions become SSA values; `if`,
    `match` and closures (`relay.fn`) are region ops. Tensors are builtin
    `tensor<...>` (`?` is Relay's `Any`), tuples are builtin `tuple<...>`;
    only the types builtin MLIR lacks are relay types: functions and closures
    with type parameters and relations (`!relay.fn`), references
    (`!relay.ref`), ADT type calls (`!relay.adt`), type variables
    (`!relay.tvar`), tensors whose shape or dtype is symbolic
    (`!relay.tensor`) and incomplete types (`!relay.incomplete`, Relay's `_`).
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  // Operators can be added at run time (registerDynamicOperator).
  let isExtensible = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

/// Base class of every relay op.
class Relay_Op<string mnemonic, list<Trait> traits = []>
    : Op<Relay_Dialect, mnemonic, traits>;

#endif // RELAY_DIALECT
