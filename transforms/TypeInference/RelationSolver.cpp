//===- RelationSolver.cpp - The type relation solver ------------*- C++ -*-===//

#include "transforms/TypeInference/RelationSolver.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::relay;

RelationSolver::RelationSolver(MLIRContext *ctx) : unifier(ctx) {
  unifier.setBindListener(
      [this](StringRef name, Attribute value) { onBind(name, value); });
}

void RelationSolver::enqueue(unsigned id) {
  Instance &inst = relations[id];
  if (inst.solved || inst.queued)
    return;
  inst.queued = true;
  queue.push_back(id);
}

void RelationSolver::watchVars(unsigned id, Type type) {
  walkTypeVars(type, [&](StringRef name, TypeKind) {
    if (!TypeUnifier::isFlexible(name))
      return;
    SmallVector<unsigned, 2> &list = watchers[name];
    if (list.empty() || list.back() != id)
      list.push_back(id);
  });
}

void RelationSolver::onBind(StringRef name, Attribute value) {
  auto it = watchers.find(name);
  if (it == watchers.end())
    return;
  SmallVector<unsigned, 2> waiting = std::move(it->second);
  watchers.erase(it);
  for (unsigned id : waiting) {
    enqueue(id);
    // The relation now also waits on the variables of the binding.
    if (auto type = dyn_cast<TypeAttr>(value))
      watchVars(id, type.getValue());
    else if (auto rename = dyn_cast<StringAttr>(value);
             rename && TypeUnifier::isFlexible(rename.getValue()))
      watchers[rename.getValue()].push_back(id);
  }
}

void RelationSolver::addRelation(StringRef name, TypeRelationFn relation,
                                 ArrayRef<Type> types, unsigned numInputs,
                                 DictionaryAttr attrs, Location loc) {
  unsigned id = relations.size();
  relations.push_back(Instance{name.str(), std::move(relation),
                               SmallVector<Type>(types), numInputs, attrs,
                               loc});
  for (Type t : types)
    watchVars(id, t);
  enqueue(id);
}

LogicalResult RelationSolver::unify(Type a, Type b, Location loc,
                                    const Twine &what) {
  if (succeeded(unifier.unify(a, b)))
    return success();
  auto [x, y] = unifier.getMismatch();
  Type ra = unifier.resolve(a), rb = unifier.resolve(b);
  InFlightDiagnostic diag = emitError(loc) << what << " has type " << ra
                                           << ", expected " << rb;
  if (x && (x != ra || y != rb))
    diag << " (" << x << " vs " << y << ")";
  if (!unifier.getMismatchReason().empty())
    diag << ": " << unifier.getMismatchReason();
  return failure();
}

namespace {
/// Assigning a relation argument unifies it.
class SolverReporter : public TypeReporter {
public:
  SolverReporter(RelationSolver &solver, ArrayRef<Type> types, Location loc,
                 StringRef name, unsigned numInputs)
      : solver(solver), types(types), loc(loc), name(name),
        numInputs(numInputs) {}

  LogicalResult assign(unsigned index, Type type) override {
    std::string what = index < numInputs
                           ? (name + ": operand #" + Twine(index)).str()
                           : (name + ": the result").str();
    return solver.unify(types[index], type, loc, what);
  }
  InFlightDiagnostic emitError() override { return mlir::emitError(loc); }

private:
  RelationSolver &solver;
  ArrayRef<Type> types;
  Location loc;
  StringRef name;
  unsigned numInputs;
};
} // namespace

LogicalResult RelationSolver::solve() {
  while (!queue.empty()) {
    unsigned id = queue.front();
    queue.pop_front();
    Instance &inst = relations[id];
    inst.queued = false;
    if (inst.solved)
      continue;
    SmallVector<Type> types = llvm::map_to_vector(
        inst.types, [&](Type t) { return unifier.resolve(t); });
    SolverReporter reporter(*this, types, inst.loc, inst.name, inst.numInputs);
    RelationArgs args(inst.name, types, inst.numInputs, inst.attrs, reporter);
    switch (inst.relation(args)) {
    case RelationStatus::Solved:
      // `inst` may have moved if the relation added relations; re-fetch.
      relations[id].solved = true;
      ++numSolved;
      break;
    case RelationStatus::Pending:
      for (Type t : types)
        watchVars(id, t);
      break;
    case RelationStatus::Failed:
      return failure();
    }
  }
  return success();
}

LogicalResult RelationSolver::reportUnsolved() {
  // The first pending relation in program order is usually the cause; the
  // later ones wait on it.
  for (Instance &inst : relations) {
    if (inst.solved)
      continue;
    InFlightDiagnostic diag = emitError(inst.loc)
                              << inst.name
                              << ": cannot infer the types: the operand types ";
    llvm::interleaveComma(ArrayRef(inst.types).take_front(inst.numInputs), diag,
                          [&](Type t) { diag << unifier.resolve(t); });
    diag << " are not known well enough; annotate the inputs";
    return failure();
  }
  return success();
}
