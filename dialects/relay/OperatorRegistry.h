//===- OperatorRegistry.h - Relay operator registry -------------*- C++ -*-===//
//
// The operator registry: for every operator (by its full op name, e.g.
// `relay.nn.conv2d`) the type relation that types it and column-style
// metadata for later passes (fusion pattern kind, gradient, quantization and
// lowering rules), as in TVM's `RELAY_REGISTER_OP`. Type relations are
// registered by name too (`Broadcast`, `Conv2D`, ...), so `where` clauses of
// function types can use them. Both registries are process-wide and can be
// extended from C++ without touching the dialect: see
// registerDynamicOperator() for an operator that does not exist in ODS.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_OPERATORREGISTRY_H
#define RELAY_MLIR_DIALECTS_RELAY_OPERATORREGISTRY_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"

#include <any>
#include <functional>
#include <optional>
#include <string>

namespace mlir::relay {

class RelayDialect;

/// How an operator fuses with its neighbours (TVM's TOpPattern).
enum class OpPatternKind {
  ElemWise = 0,
  Broadcast = 1,
  Injective = 2,
  CommReduce = 3,
  OutEWiseFusable = 4,
  Tuple = 7,
  Opaque = 8,
};
StringRef stringifyOpPatternKind(OpPatternKind kind);

/// The outcome of running a relation once.
enum class RelationStatus {
  /// The relation holds and every output is assigned.
  Solved,
  /// Too little is known yet; run again when an argument type is refined.
  Pending,
  /// The relation cannot hold; an error was reported.
  Failed,
};

/// How a relation refines types and reports errors. Type inference unifies;
/// op verifiers only check that the assigned type agrees with what the IR
/// already says.
class TypeReporter {
public:
  virtual ~TypeReporter();
  /// Says that the relation's argument #index (inputs first, then outputs)
  /// has type `type`. Fails after reporting when it cannot.
  virtual LogicalResult assign(unsigned index, Type type) = 0;
  /// Starts an error at the location being checked.
  virtual InFlightDiagnostic emitError() = 0;

  /// For reporters that drop errors: an active diagnostic that reports
  /// nothing (relations stream into what emitError() returns, and MLIR
  /// asserts that a diagnostic streamed into is active).
  static InFlightDiagnostic discardedError(MLIRContext *ctx);
};

/// The arguments of one application of a type relation: the types (inputs
/// then outputs, unknown parts as `!relay.incomplete` or type variables), the
/// operator's attributes with their defaults, and the reporter.
class RelationArgs {
public:
  RelationArgs(StringRef opName, ArrayRef<Type> types, unsigned numInputs,
               DictionaryAttr attrs, TypeReporter &reporter)
      : opName(opName), types(types), numInputs(numInputs), attrs(attrs),
        reporter(reporter) {}

  /// The operator's name without the dialect prefix (`nn.conv2d`), or the
  /// relation's name in a `where` clause.
  StringRef getOpName() const { return opName; }
  unsigned getNumInputs() const { return numInputs; }
  unsigned getNumOutputs() const { return types.size() - numInputs; }
  Type getInput(unsigned i) const { return types[i]; }
  ArrayRef<Type> getInputs() const { return types.take_front(numInputs); }
  Type getOutput(unsigned i = 0) const { return types[numInputs + i]; }
  MLIRContext *getContext() const { return types.front().getContext(); }
  /// The attributes (with ODS defaults) and the reporter, for a relation
  /// that runs another relation on some of its arguments.
  DictionaryAttr getAttrs() const { return attrs; }
  TypeReporter &getReporter() const { return reporter; }

  LogicalResult assignInput(unsigned i, Type type) {
    return reporter.assign(i, type);
  }
  LogicalResult assignOutput(Type type, unsigned i = 0) {
    return reporter.assign(numInputs + i, type);
  }
  /// Assigns the output and reports Solved (or Failed when it cannot).
  RelationStatus solve(Type output) {
    return succeeded(assignOutput(output)) ? RelationStatus::Solved
                                           : RelationStatus::Failed;
  }
  /// Starts an error that names the operator: `nn.conv2d: ...`.
  InFlightDiagnostic emitError() const {
    InFlightDiagnostic diag = reporter.emitError();
    diag << opName << ": ";
    return diag;
  }
  /// Reports an error and returns Failed.
  RelationStatus fail(const Twine &message) const {
    emitError() << message;
    return RelationStatus::Failed;
  }

  // Attribute accessors; each falls back to `dflt` when the attribute is
  // absent.
  Attribute getAttr(StringRef name) const {
    return attrs ? attrs.get(name) : Attribute();
  }
  bool hasAttr(StringRef name) const {
    return static_cast<bool>(getAttr(name));
  }
  int64_t getInt(StringRef name, int64_t dflt) const;
  std::optional<int64_t> getOptionalInt(StringRef name) const;
  double getFloat(StringRef name, double dflt) const;
  bool getBool(StringRef name, bool dflt) const;
  StringRef getString(StringRef name, StringRef dflt) const;
  SmallVector<int64_t> getInts(StringRef name,
                               ArrayRef<int64_t> dflt = {}) const;
  std::optional<SmallVector<int64_t>> getOptionalInts(StringRef name) const;
  /// A dtype attribute (TypeAttr); null when absent.
  Type getDtype(StringRef name) const;

private:
  StringRef opName;
  ArrayRef<Type> types;
  unsigned numInputs;
  DictionaryAttr attrs;
  TypeReporter &reporter;
};

/// A type relation: a function of the argument types and attributes.
using TypeRelationFn = std::function<RelationStatus(RelationArgs &)>;

// Signatures of the metadata columns later passes fill in. They are plain
// callbacks over MLIR builders so that a rule can be written in C++ by the
// user who adds an operator.

/// Gradient (TVM's FPrimalGradient): given the op and the gradient of its
/// result, builds and returns the gradients of its operands.
using GradientRuleFn = std::function<FailureOr<SmallVector<Value>>(
    OpBuilder &, Operation *op, Value resultGradient)>;
/// Tangent (forward mode): given the op and the tangents of its operands
/// (null where an operand has none: a constant's, an integer's), builds
/// and returns the tangent of its result (a tuple of tangents for a tuple).
using TangentRuleFn = std::function<FailureOr<Value>(
    OpBuilder &, Operation *op, ArrayRef<Value> operandTangents)>;
/// Quantization rule (annotate/realize): rewrites `op` in place or returns
/// failure when it does not apply.
using QuantizeRuleFn = std::function<LogicalResult(OpBuilder &, Operation *op)>;
/// Lowering: builds the lowered computation of `op` (linalg, tensor, arith
/// on tensors of static shape) from its lowered operands (a tuple operand's
/// fields, flattened) and returns its results (a tuple result's fields);
/// failure when it does not cover `op`. The built-in operators lower through
/// conversion patterns (conversion/RelayToLinalg); a rule set here lowers
/// an operator a user adds (or overrides a built-in one) through
/// populateRelayRegistryLoweringPatterns.
using LoweringRuleFn = std::function<FailureOr<SmallVector<Value>>(
    OpBuilder &, Operation *op, ValueRange operands)>;

/// Everything the registry knows of one operator.
struct OperatorInfo {
  /// Full op name: `relay.nn.conv2d`.
  std::string name;
  /// Name of its relation in the relation registry: `Conv2D`.
  std::string relation;
  /// Number of operands; the rest of the relation's arguments are results.
  unsigned numInputs = 1;
  OpPatternKind pattern = OpPatternKind::Opaque;
  /// TVM's support level (1 = basic ... 10 = temporary).
  int supportLevel = 1;
  GradientRuleFn gradient;
  TangentRuleFn tangent;
  QuantizeRuleFn quantize;
  LoweringRuleFn lowering;
  /// Further columns, by name, for passes that want their own.
  llvm::StringMap<std::any> columns;
};

/// Registers (or replaces) a named type relation.
void registerTypeRelation(StringRef name, TypeRelationFn fn);
/// The relation registered under `name`, or null.
const TypeRelationFn *lookupTypeRelation(StringRef name);

/// Registers (or replaces) an operator. Its relation must be registered.
void registerOperator(OperatorInfo info);
/// The operator registered under the full op name, or null.
const OperatorInfo *lookupOperator(StringRef opName);
/// Calls `fn` on every registered operator (in name order).
void forEachOperator(function_ref<void(const OperatorInfo &)> fn);
/// Updates the entry of a registered operator (to fill a metadata column);
/// fails when the operator is unknown.
LogicalResult updateOperator(StringRef opName,
                             function_ref<void(OperatorInfo &)> update);

/// The attributes a relation sees for `op`: its attributes plus the
/// defaults ODS declares for the absent ones.
DictionaryAttr getOperatorAttributes(Operation *op);

/// Runs the operator's relation over `op`'s current types with `reporter`.
/// Returns Solved for an op that is not a registered operator.
RelationStatus runOperatorRelation(Operation *op, const OperatorInfo &info,
                                   ArrayRef<Type> types,
                                   TypeReporter &reporter);

/// The result type `opName`'s relation gives for operands of `operandTypes`
/// and the attributes `attrs` (ODS defaults not included), or null when the
/// relation is pending or fails (nothing is reported). Importers use it to
/// type what they build.
Type inferOperatorResultType(StringRef opName, TypeRange operandTypes,
                             DictionaryAttr attrs);

/// Op verifier of every operator: runs its relation on the types the IR
/// has; parts still unknown are accepted, contradictions are errors.
LogicalResult verifyOperator(Operation *op);

/// Adds an operator the dialect's ODS does not declare: registers `info`
/// and a dynamic op `info.name` (which must start with `relay.`) in the
/// extensible relay dialect, printed and parsed like every operator
/// (`relay.name %a, %b {attrs} : (T1, T2) -> R`) and verified by its
/// relation.
LogicalResult registerDynamicOperator(RelayDialect *dialect, OperatorInfo info);

/// Registers the built-in relations and operators. Idempotent; the lookup
/// functions call it.
void registerBuiltinOperators();

} // namespace mlir::relay

#endif // RELAY_MLIR_DIALECTS_RELAY_OPERATORREGISTRY_H
