//===- Sequences.h - ONNX sequences and optionals as Relay ADTs -*- C++ -*-===//
//
// Internal to the ONNX importer. An ONNX sequence of tensors is the
// prelude's `List[Tensor[...]]`, an optional `Option[...]`. A sequence's
// elements are typed by their rank and dtype alone (every size `?`): ONNX
// lets them differ (SequenceInsert of a longer tensor, a split into unequal
// parts). Where the rank is not known yet (SequenceEmpty, a graph input
// declared without a shape) the element type is `!relay.incomplete` and
// type inference finds it. The operators call the functions of
// Sequences.rly, which the importer copies into the module with the prelude
// definitions they use. Where the elements of a sequence are known at
// import (SequenceConstruct, SplitToSequence, inserts and erases at known
// positions on those), SequenceAt, SequenceLength and ConcatFromSequence
// read them directly, so a model that builds its sequences statically keeps
// its static shapes.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_FRONTENDS_ONNX_SEQUENCES_H
#define RELAY_MLIR_FRONTENDS_ONNX_SEQUENCES_H

#include "dialects/relay/RelayOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <onnx/onnx_pb.h>

#include <optional>

namespace mlir::relay::onnx_import {

/// Copies Sequences.rly's functions (and the prelude's List, Option and
/// what they use) into `module` unless it has them; fails (reported at
/// `loc`) only on an internal error.
LogicalResult addSequenceSupport(ModuleOp module, Location loc);

/// `List[element]` and `Option[element]`.
Type getSequenceType(Type element);
Type getOptionalType(Type element);
/// The element type of a `List[...]`, or null for another type.
Type getSequenceElementType(Type type);
/// The contained type of an `Option[...]`, or null for another type.
Type getOptionalElementType(Type type);
/// The element type a sequence gives a tensor of `type`: the same rank and
/// dtype, every size `?` (null for a type that is not a ranked tensor).
Type sequenceElementOf(Type type);

/// The constructor `ctor` of the ADT `data` of `module` (List's Cons and
/// Nil, Option's Some and None).
CtorOp lookupConstructor(ModuleOp module, StringRef data, StringRef ctor);
/// The list of `elements`, each made a value of `element` (widenTo), in
/// `module` (which has the sequence support).
Value buildSequence(OpBuilder &builder, Location loc, ModuleOp module,
                    ArrayRef<Value> elements, Type element);
/// The tensor of `type` (its first axis `?`) that a list of steps, each of
/// one along that axis, concatenates to in order of time (the list newest
/// first, as a loop conses them, or oldest first): pairwise, as a balanced
/// tree (@onnx_sequence_join_or), so each step is copied log2(n) times,
/// not n times as a tensor grown by a concatenation each step would be. An
/// empty list gives `empty`, or where that is null the tensor of `type`
/// with 0 for each `?`.
Value joinSteps(OpBuilder &builder, Location loc, Value steps,
                RankedTensorType type, bool newestFirst, Value empty = {});

/// The relay type of an ONNX TypeProto (tensor, sequence, optional): a
/// tensor keeps its declared sizes (`?` for a symbolic one), a sequence's
/// element has sizes `?`, of the declared rank, or incomplete when no shape
/// is declared. `sample`, where given, is the shape of the first tensor of
/// a value of the type (relay-run's --input) or none for a value holding
/// no tensor (an empty sequence): it gives the rank of a sequence's
/// elements instead of the declared one (exporters declare it loosely).
/// Null with `error` set for a type that has no relay counterpart (maps,
/// sparse tensors, unsupported dtypes).
Type convertTypeProto(
    const onnx::TypeProto &type, ModuleOp module, Location loc,
    std::string &error,
    const std::optional<SmallVector<int64_t>> *sample = nullptr);

} // namespace mlir::relay::onnx_import

#endif // RELAY_MLIR_FRONTENDS_ONNX_SEQUENCES_H
