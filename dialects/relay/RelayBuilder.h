//===- RelayBuilder.h - C++ API to build Relay programs ---------*- C++ -*-===//
//
// A thin layer over OpBuilder for compilers that construct Relay programs
// directly: every Relay construct in one call, bodies given as callbacks that
// return the value of the region, result types derived where Relay derives
// them.
//
//   RelayBuilder rb(builder, loc);
//   rb.func("add1", {i32}, i32, [](RelayBuilder &b, ValueRange args) {
//     return b.add(args[0], b.scalar(1, b.i32()));
//   });
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_RELAYBUILDER_H
#define RELAY_MLIR_DIALECTS_RELAY_RELAYBUILDER_H

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/RelayTypes.h"
#include "mlir/IR/Builders.h"

#include <functional>

namespace mlir::relay {

class RelayBuilder {
public:
  /// Builds a region body: gets the region's arguments, returns its value.
  using BodyFn = function_ref<Value(RelayBuilder &, ValueRange)>;
  /// Builds a region without arguments (an if branch).
  using BranchFn = function_ref<Value(RelayBuilder &)>;

  RelayBuilder(OpBuilder &builder, Location loc) : builder(builder), loc(loc) {}

  OpBuilder &getBuilder() { return builder; }
  MLIRContext *getContext() { return builder.getContext(); }
  Location getLoc() const { return loc; }
  void setLoc(Location newLoc) { loc = newLoc; }

  //===--------------------------------------------------------------------===//
  // Types
  //===--------------------------------------------------------------------===//

  Type i1() { return builder.getI1Type(); }
  Type i32() { return builder.getI32Type(); }
  Type i64() { return builder.getI64Type(); }
  Type f32() { return builder.getF32Type(); }
  /// Relay's `Tensor[shape, dtype]`; a 0-d tensor for an empty shape.
  RankedTensorType tensorType(ArrayRef<int64_t> shape, Type dtype) {
    return RankedTensorType::get(shape, dtype);
  }
  RankedTensorType scalarType(Type dtype) { return tensorType({}, dtype); }
  TypeVarType typeVar(StringRef name, TypeKind kind = TypeKind::Type) {
    return TypeVarType::get(getContext(), name, kind);
  }
  FuncType funcType(TypeRange inputs, Type result) {
    return FuncType::get(getContext(), inputs, result);
  }
  AdtType adtType(StringRef name, ArrayRef<Type> args = {}) {
    return AdtType::get(getContext(), builder.getStringAttr(name), args);
  }

  //===--------------------------------------------------------------------===//
  // Constants
  //===--------------------------------------------------------------------===//

  /// A 0-d integer (or bool, for i1) constant.
  Value scalar(int64_t value, Type dtype);
  /// A 0-d floating-point constant.
  Value scalarFloat(double value, Type dtype);
  Value boolean(bool value) { return scalar(value ? 1 : 0, i1()); }
  /// A tensor filled with `value` (Relay's `Constant(v, shape, dtype)`).
  Value full(double value, ArrayRef<int64_t> shape, Type dtype);
  Value constant(ElementsAttr value);

  //===--------------------------------------------------------------------===//
  // Operators
  //===--------------------------------------------------------------------===//

  /// The operator `OpT` (any relay operator, built-in or registered) on
  /// `operands` with `attrs`, its result typed by the operator's relation
  /// (ODS defaults applied). When the relation fails, or cannot tell the
  /// result yet, nothing is built and null is returned; `emitError`, when
  /// given, starts the diagnostic of the relation's failure. A null operand
  /// (an earlier step that was not built) gives null too, so that a chain
  /// of steps can be checked once at its end.
  template <typename OpT>
  Value op(ValueRange operands, ArrayRef<NamedAttribute> attrs = {},
           function_ref<InFlightDiagnostic()> emitError = nullptr) {
    OperationState state(loc, OpT::getOperationName());
    OpT::build(builder, state, TypeRange{IncompleteType::get(getContext())},
               operands, attrs);
    return insertOperator(state, emitError);
  }

  /// The operator of `op` (its name and attributes, `overrides` set over
  /// them) on other `operands`, typed by its relation; null (nothing built)
  /// when the relation does not type it. For passes that rebuild an
  /// operator on rewritten operands.
  Value like(Operation *op, ValueRange operands,
             ArrayRef<NamedAttribute> overrides = {});

  /// An elementwise binary operator; the result type follows the Broadcast
  /// relation (`!relay.incomplete` when the operand types are not known);
  /// null for a null operand, as `op` gives.
  template <typename OpT> Value binary(Value lhs, Value rhs) {
    if (!lhs || !rhs)
      return {};
    return OpT::create(builder, loc,
                       broadcastResult(lhs, rhs, isCompare<OpT>()), lhs, rhs);
  }
  Value add(Value l, Value r) { return binary<AddOp>(l, r); }
  Value subtract(Value l, Value r) { return binary<SubtractOp>(l, r); }
  Value multiply(Value l, Value r) { return binary<MultiplyOp>(l, r); }
  Value divide(Value l, Value r) { return binary<DivideOp>(l, r); }
  Value equal(Value l, Value r) { return binary<EqualOp>(l, r); }
  Value less(Value l, Value r) { return binary<LessOp>(l, r); }
  Value greater(Value l, Value r) { return binary<GreaterOp>(l, r); }
  Value logicalAnd(Value l, Value r) { return binary<LogicalAndOp>(l, r); }
  Value logicalOr(Value l, Value r) { return binary<LogicalOrOp>(l, r); }

  //===--------------------------------------------------------------------===//
  // Tuples
  //===--------------------------------------------------------------------===//

  /// A tuple of `fields`, and a tuple's field; null for a null operand, as
  /// `op` gives.
  Value tuple(ValueRange fields) {
    if (llvm::is_contained(fields, Value()))
      return {};
    return TupleOp::create(builder, loc, fields);
  }
  Value tupleGet(Value tuple, unsigned index) {
    if (!tuple)
      return {};
    return TupleGetOp::create(builder, loc, tuple, index);
  }

  //===--------------------------------------------------------------------===//
  // Functions, closures, calls
  //===--------------------------------------------------------------------===//

  /// A global function `def @name[typeParams](inputs) -> result { body }`,
  /// created at the insertion point (a module body).
  FuncOp func(StringRef name, TypeRange inputs, Type result, BodyFn body,
              ArrayRef<TypeVarType> typeParams = {});
  Value call(FuncOp callee, ValueRange args);
  /// A call with explicit type arguments and result type (for polymorphic
  /// callees, and callees not created yet, e.g. under mutual recursion).
  Value call(StringRef callee, Type result, ValueRange args,
             ArrayAttr typeArgs = nullptr);
  Value globalRef(FuncOp func);

  /// A closure `fn (inputs) -> result { body }`. When `recursive`, the body
  /// gets the closure itself as its first argument.
  Value fn(TypeRange inputs, Type result, BodyFn body, bool recursive = false,
           ArrayRef<TypeVarType> typeParams = {});
  /// Applies a closure; the result type is the closure type's result.
  Value apply(Value closure, ValueRange args);

  //===--------------------------------------------------------------------===//
  // Control flow
  //===--------------------------------------------------------------------===//

  Value ifThenElse(Value cond, Type result, BranchFn thenBody,
                   BranchFn elseBody);

  //===--------------------------------------------------------------------===//
  // ADTs and pattern matching
  //===--------------------------------------------------------------------===//

  struct CtorSpec {
    StringRef name;
    SmallVector<Type> fields;
  };
  /// `type name[typeParams] { ctors }`, created at the insertion point.
  DataOp data(StringRef name, ArrayRef<TypeVarType> typeParams,
              ArrayRef<CtorSpec> ctors);
  /// Looks up `@data::@ctor` from the current insertion point.
  CtorOp lookupCtor(StringRef data, StringRef ctor);
  /// Applies a constructor; `result` is the ADT type it builds (needed for
  /// nullary constructors of polymorphic ADTs: `Nil` of `List[i32]`).
  Value construct(CtorOp ctor, ValueRange fields, Type result);

  Attribute wildcard() { return PatternWildcardAttr::get(getContext()); }
  Attribute var() { return PatternVarAttr::get(getContext()); }
  Attribute ctorPattern(CtorOp ctor, ArrayRef<Attribute> fields = {}) {
    return PatternCtorAttr::get(getContext(), ctor.getQualifiedName(), fields);
  }
  Attribute tuplePattern(ArrayRef<Attribute> fields) {
    return PatternTupleAttr::get(getContext(), fields);
  }

  struct MatchCase {
    Attribute pattern;
    /// The types of the pattern's variables, left to right.
    SmallVector<Type> varTypes;
    /// Gets the pattern's variables. Owned, so a case can be built from a
    /// temporary lambda.
    std::function<Value(RelayBuilder &, ValueRange)> body;
  };
  Value match(Value scrutinee, Type result, ArrayRef<MatchCase> cases,
              bool partial = false);

  //===--------------------------------------------------------------------===//
  // References
  //===--------------------------------------------------------------------===//

  Value ref(Value init) { return RefOp::create(builder, loc, init); }
  Value refRead(Value ref) { return RefReadOp::create(builder, loc, ref); }
  Value refWrite(Value ref, Value value) {
    return RefWriteOp::create(builder, loc, ref, value);
  }

private:
  template <typename OpT> static constexpr bool isCompare() {
    return std::is_same_v<OpT, EqualOp> || std::is_same_v<OpT, NotEqualOp> ||
           std::is_same_v<OpT, LessOp> || std::is_same_v<OpT, LessEqualOp> ||
           std::is_same_v<OpT, GreaterOp> ||
           std::is_same_v<OpT, GreaterEqualOp>;
  }
  Type broadcastResult(Value lhs, Value rhs, bool toBool);
  /// Creates the operator `state` describes, types it by its relation and
  /// inserts it; null (nothing inserted) when the relation does not type
  /// it.
  Value insertOperator(OperationState &state,
                       function_ref<InFlightDiagnostic()> emitError);
  /// Fills the single block of `region` (with `argTypes` arguments) by
  /// `body` and terminates it with `TerminatorT`.
  template <typename TerminatorT>
  void fillRegion(Region &region, TypeRange argTypes, BodyFn body);

  OpBuilder &builder;
  Location loc;
};

} // namespace mlir::relay

#endif // RELAY_MLIR_DIALECTS_RELAY_RELAYBUILDER_H
