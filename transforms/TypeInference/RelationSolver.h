//===- RelationSolver.h - The type relation solver --------------*- C++ -*-===//
//
// The relation solver of the Relay papers: a queue of relation instances, a
// dependency graph from type variables to the relations that mention them,
// and a unifier (the union-find). A relation runs when it is added and again
// whenever a variable it waits on is bound, until every relation is solved
// or nothing changes; relations still pending then are underdetermined.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_TYPEINFERENCE_RELATIONSOLVER_H
#define RELAY_MLIR_TRANSFORMS_TYPEINFERENCE_RELATIONSOLVER_H

#include "dialects/relay/OperatorRegistry.h"
#include "transforms/TypeInference/TypeUnifier.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <deque>

namespace mlir::relay {

class RelationSolver {
public:
  explicit RelationSolver(MLIRContext *ctx);

  TypeUnifier &getUnifier() { return unifier; }

  /// Adds one application of `relation` over `types` (inputs then outputs).
  /// `name` names it in diagnostics (the operator name).
  void addRelation(StringRef name, TypeRelationFn relation,
                   ArrayRef<Type> types, unsigned numInputs,
                   DictionaryAttr attrs, Location loc);

  /// Runs queued relations until none can make progress. Fails at the first
  /// relation that cannot hold (after reporting it).
  LogicalResult solve();

  /// Reports the first relation still pending (its types are
  /// underdetermined); fails when there is one.
  LogicalResult reportUnsolved();

  /// Unifies `a` with `b` (the expected type); on failure reports at `loc`
  /// "<what> has type A, expected B" and the innermost pair that differed.
  LogicalResult unify(Type a, Type b, Location loc, const Twine &what);

  unsigned getNumRelations() const { return relations.size(); }
  unsigned getNumSolved() const { return numSolved; }

private:
  struct Instance {
    std::string name;
    TypeRelationFn relation;
    SmallVector<Type> types;
    unsigned numInputs;
    DictionaryAttr attrs;
    Location loc;
    bool solved = false;
    bool queued = false;
  };

  void enqueue(unsigned id);
  void watchVars(unsigned id, Type type);
  void onBind(StringRef name, Attribute value);
  /// The relations waiting on each variable.
  llvm::StringMap<SmallVector<unsigned, 2>> watchers;

  TypeUnifier unifier;
  std::vector<Instance> relations;
  std::deque<unsigned> queue;
  unsigned numSolved = 0;
};

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_TYPEINFERENCE_RELATIONSOLVER_H
