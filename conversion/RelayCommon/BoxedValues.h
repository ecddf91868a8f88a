//===- BoxedValues.h - Boxed Relay values in native code --------*- C++ -*-===//
//
// ADT values and references (closures among them, as ADTs) are runtime
// objects in compiled code (see runtime/C/RelayRuntime.h): `!llvm.ptr`
// values made and read through calls to the C runtime. A tensor stored in
// an object is boxed (its bytes copied into the object's arena, once) and
// read in place (a read-only view of the box, which never changes); a tuple
// stored in an object is an object of its boxed fields.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_CONVERSION_RELAYCOMMON_BOXEDVALUES_H
#define RELAY_MLIR_CONVERSION_RELAYCOMMON_BOXEDVALUES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::relay {

/// Appends the types a Relay value of type `t` lowers to: a static tensor is
/// itself, a tuple its fields' flattened in order, an ADT value or a
/// reference or a closure one `!llvm.ptr`. Fails on anything else.
LogicalResult flattenType(Type t, SmallVectorImpl<Type> &out);

/// `t` with unsigned integer elements made signless (arith's integer ops
/// take signless types); other types unchanged. Lowering rules pick the
/// unsigned operations from the Relay types (see UnsignedOpScope).
Type signlessType(Type t);

/// While a lowering rule runs on an operator whose operands or results are
/// unsigned integer tensors, isUnsignedOp() is true: integer division,
/// remainders, shifts, comparisons, min/max and reduction identities are
/// then the unsigned ones.
class UnsignedOpScope {
public:
  explicit UnsignedOpScope(Operation *op);
  ~UnsignedOpScope();
  static bool isUnsignedOp();

private:
  bool saved;
};

/// The number of values a Relay value of type `t` lowers to.
unsigned flatSize(Type t);

/// The field types of constructor `ctor` (a relay.ctor) in the ADT type
/// `adt`: the ADT's type parameters replaced by the type's arguments.
SmallVector<Type> constructorFieldTypes(Operation *ctor, Type adt);

/// Values of `types` (lowered tensors and objects) for a branch that never
/// produces them (it failed at run time, or its values are not read):
/// empty tensors and null pointers.
SmallVector<Value> placeholderValues(OpBuilder &b, Location loc,
                                     TypeRange types);

/// `file:line:col` of `loc`, the prefix of run-time error messages (a tab
/// separates it from the text).
std::string describeLocation(Location loc);

/// Emits the calls to the C runtime, declaring its functions in the module
/// on first use (through the builder given, so that a conversion pattern's
/// rewriter sees them).
class RuntimeCalls {
public:
  explicit RuntimeCalls(ModuleOp module) : module(module) {}

  Value alloc(OpBuilder &b, Location loc, int64_t tag, int64_t numFields);
  Value tag(OpBuilder &b, Location loc, Value object);
  void setField(OpBuilder &b, Location loc, Value object, int64_t index,
                Value value);
  Value getField(OpBuilder &b, Location loc, Value object, int64_t index);

  /// One pointer holding a Relay value of type `type` given as its lowered
  /// values.
  Value box(OpBuilder &b, Location loc, Type type, ValueRange values);
  /// The lowered values of a Relay value of type `type` held by `box`.
  SmallVector<Value> unbox(OpBuilder &b, Location loc, Type type, Value box);

  /// Raises a run-time error with `message` (relay_rt_fail).
  void fail(OpBuilder &b, Location loc, StringRef message);

private:
  func::FuncOp declare(OpBuilder &b, StringRef name, TypeRange inputs,
                       TypeRange results);
  Value call(OpBuilder &b, Location loc, StringRef name, ValueRange args,
             TypeRange results);
  /// The address of a tensor's bytes (a read-only view, or `buffer`).
  Value addressOf(OpBuilder &b, Location loc, Value memref);

  ModuleOp module;
  unsigned numStrings = 0;
};

} // namespace mlir::relay

#endif // RELAY_MLIR_CONVERSION_RELAYCOMMON_BOXEDVALUES_H
