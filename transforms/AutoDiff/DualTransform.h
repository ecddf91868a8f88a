//===- DualTransform.h - Programs over AD values ----------------*- C++ -*-===//
//
// What reverse mode (seed 000 Fig. 4) and forward mode (dual numbers) share:
// a copy of every function the derivative reaches in which each value is
// replaced by its AD value. A floating-point tensor becomes a pair (the
// mode says of what: a gradient reference, a tangent); tuples, closures,
// references and ADTs become the same over AD values (an ADT whose fields
// change gets a copy `@<name><suffix>`); integer and boolean tensors stay
// as they are (they have no derivative, so conditions and counters are
// unchanged). The structure of the program (calls, closures, `if`,
// `match`, constructors, references) carries over unchanged; each mode
// says what an operator becomes and may thread a context value (reverse
// mode's backpropagator) through every function as its first parameter.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_AUTODIFF_DUALTRANSFORM_H
#define RELAY_MLIR_TRANSFORMS_AUTODIFF_DUALTRANSFORM_H

#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::relay {

class DualTransform {
public:
  /// `passName` starts diagnostics; `suffix` names the copies of functions
  /// and ADTs; `contextType`, when set, is the type of the value every
  /// copied function takes first.
  DualTransform(ModuleOp module, StringRef passName, StringRef suffix,
                Type contextType = nullptr)
      : module(module), symbols(module), ctx(module.getContext()),
        passName(passName.str()), suffix(suffix.str()),
        contextType(contextType) {}
  virtual ~DualTransform() = default;

  static bool isFloatTensor(Type t) {
    auto tensor = dyn_cast<TensorType>(t);
    return tensor && isa<FloatType>(tensor.getElementType());
  }

protected:
  //===--------------------------------------------------------------------===//
  // What a mode says
  //===--------------------------------------------------------------------===//

  /// The AD type of floating-point tensor type `t`.
  virtual Type dualTensorType(Type t) = 0;
  /// The AD value of plain value `v` (a constant's, a parameter's).
  virtual Value lift(RelayBuilder &rb, Value v) = 0;
  /// The AD code of operator `op` (its operands' AD values in `map`); maps
  /// its result.
  virtual void transformOperator(RelayBuilder &rb, Operation *op,
                                 Value context) = 0;

  //===--------------------------------------------------------------------===//
  // Types
  //===--------------------------------------------------------------------===//

  /// Whether values of `t` hold floating-point tensors (their AD type
  /// differs).
  bool changes(Type t);
  /// Whether the ADT's constructors hold values whose AD type differs.
  bool dataChanges(StringAttr name);
  /// The AD type of `t`.
  Type adType(Type t);
  /// The ADT for AD values of ADT `name`: itself, or its copy.
  StringAttr adData(StringAttr name);

  //===--------------------------------------------------------------------===//
  // Values and code
  //===--------------------------------------------------------------------===//

  /// The value of AD value `ad` of type `t` (the AD value of a `t`): the
  /// first of each pair.
  Value primal(RelayBuilder &rb, Value ad, Type t);
  /// The copy of `g` over AD values, declared (and queued to be filled) on
  /// first use.
  FuncOp adFunc(FuncOp g);
  /// Fills the queued copies; failure when one cannot be.
  LogicalResult fillQueued();
  /// Fills `adG` with the AD code of `g`.
  LogicalResult fillFunc(FuncOp g, FuncOp adG);
  /// The AD code of `block`'s operations; returns the AD value of its
  /// terminator's operand.
  Value transformBlock(RelayBuilder &rb, Block &block, Value context);
  void transformOp(RelayBuilder &rb, Operation *op, Value context);
  void transformMatch(RelayBuilder &rb, MatchOp match, Value context);
  Attribute adPattern(Attribute pattern);
  void fail(Operation *op, const Twine &what) {
    op->emitError(passName + ": ") << what;
    failed = true;
  }
  /// Checks that the entry `f` takes tensors and tuples of them (what a
  /// derivative is taken with respect to).
  LogicalResult checkEntryParams(FuncOp f);
  /// Whether `type` is a tensor or a tuple of them (nested): what a
  /// derivative is taken with respect to, and a JVP's result.
  static bool isTensorTree(Type type);
  /// Reports the operators without a rule (`missing`), together; failure
  /// when there are any.
  LogicalResult reportMissing(Operation *at, StringRef column);

  ModuleOp module;
  SymbolTable symbols;
  MLIRContext *ctx;
  std::string passName, suffix;
  Type contextType;
  /// Original values to their AD values.
  IRMapping map;
  DenseMap<Operation *, FuncOp> adFuncs;
  SmallVector<std::pair<FuncOp, FuncOp>> toFill;
  DenseMap<StringAttr, bool> changingData;
  DenseMap<StringAttr, StringAttr> adDataNames;
  /// Operators on the differentiated path without a rule.
  SmallVector<Operation *> missing;
  /// computedFromConstants' answers.
  DenseMap<Operation *, bool> fromConstants;
  bool failed = false;
};

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_AUTODIFF_DUALTRANSFORM_H
