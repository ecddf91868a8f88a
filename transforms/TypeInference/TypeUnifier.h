//===- TypeUnifier.h - Unification over Relay types -------------*- C++ -*-===//
//
// Hindley-Milner unification over Relay types. Unknowns are flexible type
// variables whose names start with `$` (users cannot write them): a whole
// type (`!relay.tvar<$3>`), a dtype (`!relay.tvar<$4 : BaseType>`), a shape
// (`!relay.tensor<$5, f32>`) or one dimension (`!relay.tensor<[$6, 3], f32>`).
// Variables without `$` are the rigid type parameters of the function being
// checked. Bindings form a substitution resolved with path compression (the
// union-find of the papers); a listener hears of every new binding so the
// relation solver can re-run the relations that wait on it.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_TYPEINFERENCE_TYPEUNIFIER_H
#define RELAY_MLIR_TRANSFORMS_TYPEINFERENCE_TYPEUNIFIER_H

#include "dialects/relay/RelayTypes.h"
#include "dialects/relay/TypeUtils.h"

#include <functional>

namespace mlir::relay {

class TypeUnifier {
public:
  explicit TypeUnifier(MLIRContext *ctx) : ctx(ctx) {}

  /// A fresh flexible variable of kind Type (or BaseType).
  TypeVarType freshType(TypeKind kind = TypeKind::Type);
  /// A fresh flexible name for a Shape or ShapeVar variable.
  StringAttr freshName();
  /// Replaces every `!relay.incomplete` inside `type` by a fresh variable.
  Type freshen(Type type);
  /// Instantiates a polymorphic function type: its type parameters become
  /// fresh variables (or `explicitArgs` when given). Returns the monomorphic
  /// function type with its relations; `instantiation` receives, per type
  /// parameter, the attribute that stands for it (to read the inferred type
  /// arguments back after solving).
  FuncType instantiate(FuncType type, ArrayAttr explicitArgs,
                       SmallVectorImpl<Attribute> *instantiation = nullptr);

  /// Returns true for a name of a flexible variable.
  static bool isFlexible(StringRef name) { return name.starts_with("$"); }
  /// Returns true when `type` still contains a flexible variable.
  bool hasFlexibleVars(Type type);

  /// `type` with every bound variable replaced by its binding.
  Type resolve(Type type);
  /// The binding of a Shape/ShapeVar/Type variable attribute (after
  /// resolution): what `instantiate` returned for a type parameter.
  Attribute resolveTypeArgument(Attribute arg);

  /// Makes `a` and `b` equal by binding variables. On failure,
  /// getMismatch() gives the innermost pair that differed.
  LogicalResult unify(Type a, Type b);
  std::pair<Type, Type> getMismatch() const { return mismatch; }

  /// After `term` (the type of an if's or match's result, a variable) and
  /// `branch` (a value one branch yields) unified: rebinds the variable to
  /// the join of both, each dimension that is `?` in either `?`, as TVM's
  /// unifier makes Any absorb a size. The first branch's sizes are not
  /// the result's when another branch may yield any size.
  void widen(Type term, Type branch);
  /// Why the last unify failed beyond the mismatch, e.g. an occurs check.
  StringRef getMismatchReason() const { return mismatchReason; }

  /// Binds a flexible variable (by name) to a renamed rigid variable; used
  /// to generalise leftover variables into type parameters.
  void bindName(StringRef name, Attribute value) { bind(name, value); }

  /// Called with the name of every newly bound variable and its binding.
  void setBindListener(std::function<void(StringRef, Attribute)> listener) {
    onBind = std::move(listener);
  }

  const TypeSubstitution &getBindings() const { return bindings; }

private:
  void bind(StringRef name, Attribute value);
  LogicalResult unifyTypeLists(ArrayRef<Type> a, ArrayRef<Type> b);
  LogicalResult unifyTensors(Type a, Type b);
  LogicalResult unifyDim(Attribute a, Attribute b);
  /// The join of two resolved types that unify (see widen).
  Type join(Type a, Type b);
  LogicalResult fail(Type a, Type b, StringRef reason = "");
  Attribute resolveName(StringRef name);

  MLIRContext *ctx;
  unsigned counter = 0;
  TypeSubstitution bindings;
  std::pair<Type, Type> mismatch;
  std::string mismatchReason;
  std::function<void(StringRef, Attribute)> onBind;
};

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_TYPEINFERENCE_TYPEUNIFIER_H
