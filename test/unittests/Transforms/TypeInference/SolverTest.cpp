//===- SolverTest.cpp - Unifier and relation solver -----------------------===//

#include "transforms/TypeInference/RelationSolver.h"
#include "transforms/TypeInference/TypeUnifier.h"

#include "dialects/relay/RelayOps.h"

#include "mlir/IR/Builders.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::relay;

namespace {

class SolverTest : public ::testing::Test {
protected:
  SolverTest() {
    context.loadDialect<RelayDialect>();
    handler = std::make_unique<ScopedDiagnosticHandler>(
        &context, [this](Diagnostic &diag) {
          errors += diag.str() + "\n";
          return success();
        });
  }

  RankedTensorType tensor(ArrayRef<int64_t> shape, Type dtype = {}) {
    return RankedTensorType::get(shape, dtype ? dtype : b.getF32Type());
  }

  MLIRContext context;
  Builder b{&context};
  Location loc = UnknownLoc::get(&context);
  std::string errors;
  std::unique_ptr<ScopedDiagnosticHandler> handler;
};

TEST_F(SolverTest, UnifiesVariablesOfEveryKind) {
  TypeUnifier u(&context);
  TypeVarType a = u.freshType();
  EXPECT_TRUE(succeeded(u.unify(a, tensor({2, 3}))));
  EXPECT_EQ(u.resolve(a), tensor({2, 3}));

  // A shape variable, a dimension variable and a dtype variable.
  StringAttr s = u.freshName(), n = u.freshName();
  TypeVarType d = u.freshType(TypeKind::BaseType);
  Type byShape = PolyTensorType::get(&context, s, {}, b.getI8Type());
  Type byDim =
      PolyTensorType::get(&context, nullptr, {n, b.getI64IntegerAttr(4)}, d);
  EXPECT_TRUE(succeeded(u.unify(byShape, tensor({5, 6}, b.getI8Type()))));
  EXPECT_TRUE(succeeded(u.unify(byDim, tensor({7, 4}, b.getI16Type()))));
  EXPECT_EQ(u.resolve(byShape), tensor({5, 6}, b.getI8Type()));
  EXPECT_EQ(u.resolve(byDim), tensor({7, 4}, b.getI16Type()));
  EXPECT_EQ(u.resolveTypeArgument(n), b.getI64IntegerAttr(7));
}

TEST_F(SolverTest, ChainsOfVariablesResolve) {
  TypeUnifier u(&context);
  TypeVarType a = u.freshType(), c = u.freshType(), d = u.freshType();
  EXPECT_TRUE(succeeded(u.unify(a, c)));
  EXPECT_TRUE(succeeded(u.unify(c, d)));
  Type tuple = TupleType::get(&context, {a, c});
  EXPECT_TRUE(succeeded(u.unify(d, tensor({1}))));
  EXPECT_EQ(u.resolve(tuple),
            TupleType::get(&context, {tensor({1}), tensor({1})}));
}

TEST_F(SolverTest, ReportsMismatchesAndInfiniteTypes) {
  TypeUnifier u(&context);
  Type fa = FuncType::get(&context, {tensor({2})}, tensor({3}));
  Type fb = FuncType::get(&context, {tensor({2})}, tensor({4}));
  EXPECT_TRUE(failed(u.unify(fa, fb)));
  EXPECT_EQ(u.getMismatch().first, tensor({3}));
  EXPECT_EQ(u.getMismatch().second, tensor({4}));

  TypeVarType a = u.freshType();
  EXPECT_TRUE(failed(u.unify(a, TupleType::get(&context, {a}))));
  EXPECT_EQ(u.getMismatchReason(), "the type would be infinite");

  // Rigid (user) type variables only equal themselves.
  Type rigid = TypeVarType::get(&context, "a", TypeKind::Type);
  EXPECT_TRUE(failed(u.unify(rigid, tensor({1}))));
  EXPECT_TRUE(succeeded(u.unify(rigid, rigid)));
  // `?` matches any size.
  EXPECT_TRUE(succeeded(u.unify(tensor({ShapedType::kDynamic}), tensor({9}))));
  EXPECT_TRUE(failed(u.unify(tensor({2}), tensor({2, 1}))));
}

TEST_F(SolverTest, InstantiatesPolymorphicFunctionTypes) {
  TypeUnifier u(&context);
  auto a = TypeVarType::get(&context, "a", TypeKind::Type);
  Type fn = FuncType::get(&context, {a}, {a}, a, {});
  SmallVector<Attribute> inst;
  FuncType mono = u.instantiate(cast<FuncType>(fn), nullptr, &inst);
  ASSERT_EQ(inst.size(), 1u);
  EXPECT_FALSE(mono.isPolymorphic());
  EXPECT_TRUE(succeeded(u.unify(mono.getInputs()[0], tensor({2}))));
  EXPECT_EQ(u.resolve(mono.getResult()), tensor({2}));
  EXPECT_EQ(u.resolveTypeArgument(inst[0]), TypeAttr::get(tensor({2})));
}

TEST_F(SolverTest, RelationWaitsForItsInputs) {
  RelationSolver solver(&context);
  TypeUnifier &u = solver.getUnifier();
  TypeVarType x = u.freshType(), y = u.freshType(), z = u.freshType();
  const TypeRelationFn *broadcast = lookupTypeRelation("Broadcast");
  ASSERT_NE(broadcast, nullptr);
  solver.addRelation("add", *broadcast, {x, y, z}, 2, DictionaryAttr(), loc);
  EXPECT_TRUE(succeeded(solver.solve()));
  EXPECT_EQ(solver.getNumSolved(), 0u); // x and y unknown: pending

  EXPECT_TRUE(succeeded(solver.unify(x, tensor({4, 1}), loc, "x")));
  EXPECT_TRUE(succeeded(solver.solve()));
  EXPECT_EQ(solver.getNumSolved(), 0u); // y still unknown

  EXPECT_TRUE(succeeded(solver.unify(y, tensor({3}), loc, "y")));
  EXPECT_TRUE(succeeded(solver.solve()));
  EXPECT_EQ(solver.getNumSolved(), 1u);
  EXPECT_EQ(u.resolve(z), tensor({4, 3}));
  EXPECT_TRUE(succeeded(solver.reportUnsolved()));
}

TEST_F(SolverTest, RelationsChainThroughVariables) {
  // z = x + y; w = z + z, added in reverse order: w waits on z.
  RelationSolver solver(&context);
  TypeUnifier &u = solver.getUnifier();
  TypeVarType z = u.freshType(), w = u.freshType();
  const TypeRelationFn *broadcast = lookupTypeRelation("Broadcast");
  solver.addRelation("second", *broadcast, {z, z, w}, 2, DictionaryAttr(), loc);
  solver.addRelation("first", *broadcast, {tensor({2, 2}), tensor({2}), z}, 2,
                     DictionaryAttr(), loc);
  EXPECT_TRUE(succeeded(solver.solve()));
  EXPECT_EQ(solver.getNumSolved(), 2u);
  EXPECT_EQ(u.resolve(w), tensor({2, 2}));
}

TEST_F(SolverTest, FailingRelationStopsWithAnError) {
  RelationSolver solver(&context);
  TypeVarType z = solver.getUnifier().freshType();
  const TypeRelationFn *broadcast = lookupTypeRelation("Broadcast");
  solver.addRelation("add", *broadcast, {tensor({2}), tensor({3}), z}, 2,
                     DictionaryAttr(), loc);
  EXPECT_TRUE(failed(solver.solve()));
  EXPECT_NE(errors.find("add: cannot broadcast 'tensor<2xf32>' with "
                        "'tensor<3xf32>'"),
            std::string::npos)
      << errors;
}

TEST_F(SolverTest, UnderdeterminedRelationsAreReported) {
  RelationSolver solver(&context);
  TypeUnifier &u = solver.getUnifier();
  const TypeRelationFn *identity = lookupTypeRelation("Identity");
  solver.addRelation("exp", *identity, {u.freshType(), u.freshType()}, 1,
                     DictionaryAttr(), loc);
  EXPECT_TRUE(succeeded(solver.solve()));
  EXPECT_TRUE(failed(solver.reportUnsolved()));
  EXPECT_NE(errors.find("exp: cannot infer the types"), std::string::npos)
      << errors;
}

} // namespace
