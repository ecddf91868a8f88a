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
  // Marks on loops and functions by which the CPU kernels
  // (transforms/Codegen/CPU/) tell the code generation passes after them
  // what they built (a documented interface instead of string markers):
  //  - independent_iterations (scf.for): the iterations touch disjoint data
  //    (the bands of a large convolution); --relay-parallelize-loops may
  //    run them in parallel.
  //  - row_kernel (scf.for, with independent_iterations): the result is
  //    written only by vector.transfer_writes of 1-d vectors along its
  //    innermost dimension, into the blocks each iteration inserts (the row
  //    kernels of depthwise convolutions); --relay-fuse-elementwise applies
  //    an elementwise op that reads the result to each vector before it is
  //    written.
  //  - image_windows (scf.for, with independent_iterations): the body
  //    starts with the extract_slice of the window of an image it reads
  //    (the row bands of a depthwise convolution of a large image);
  //    --relay-fuse-elementwise moves the ops that make the image into the
  //    loop, each iteration computing its window.
  //  - amx_tiles (linalg.generic): out[m, n] += A[m, k] * B[k / 2, n, k % 2]
  //    of bf16 A (M x K) and B (K/2 x N x 2, pairs along k: AMX's VNNI
  //    layout) into f32, M, N and K multiples of 32;
  //    --relay-lower-amx-products computes it on AMX tiles.
  //  - loop_nest (func.func): made by --relay-outline-loops; it calls
  //    nothing of the program's, so it can be compiled apart from it.
  // And Relay attributes:
  //  - primitive (relay.func): a group of operators --relay-fuse-ops made,
  //    TVM's `Primitive=1`; a target compiles it as one kernel;
  //  - closure (relay.func): a global --relay-lambda-lift made that takes a
  //    closure's captured values and returns it, TVM's `Closure=1`;
  //  - native_region (relay.func): a part of a program native code covers,
  //    outlined by --relay-outline-native-regions for the interpreter to
  //    call compiled.
  let discardableAttrs = (ins
    UnitAttr:$independent_iterations,
    UnitAttr:$row_kernel,
    UnitAttr:$image_windows,
    UnitAttr:$loop_nest,
    UnitAttr:$amx_tiles,
    UnitAttr:$primitive,
    UnitAttr:$closure,
    UnitAttr:$native_region
  );
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

/// Base class of every relay op.
class Relay_Op<string mnemonic, list<Trait> traits = []>
    : Op<Relay_Dialect, mnemonic, traits>;

#endif // RELAY_DIALECT
