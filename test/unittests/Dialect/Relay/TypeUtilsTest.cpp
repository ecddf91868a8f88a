//===- TypeUtilsTest.cpp - Relay type utilities ---------------------------===//

#include "dialects/relay/TypeUtils.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/TypeRelations.h"

#include "mlir/IR/Builders.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::relay;

namespace {

class TypeUtilsTest : public ::testing::Test {
protected:
  TypeUtilsTest() { context.loadDialect<RelayDialect>(); }

  RankedTensorType tensor(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, b.getF32Type());
  }
  TypeVarType var(StringRef name, TypeKind kind = TypeKind::Type) {
    return TypeVarType::get(&context, name, kind);
  }

  MLIRContext context;
  Builder b{&context};
  int64_t any = ShapedType::kDynamic;
};

TEST_F(TypeUtilsTest, Compatibility) {
  EXPECT_TRUE(areCompatible(tensor({2, 3}), tensor({2, 3})));
  EXPECT_TRUE(areCompatible(tensor({any, 3}), tensor({2, 3})));
  EXPECT_FALSE(areCompatible(tensor({2, 3}), tensor({3, 2})));
  EXPECT_FALSE(areCompatible(tensor({2, 3}), tensor({2, 3, 1})));
  EXPECT_FALSE(
      areCompatible(tensor({}), RankedTensorType::get({}, b.getI32Type())));
  EXPECT_TRUE(areCompatible(IncompleteType::get(&context), tensor({4})));
  EXPECT_TRUE(areCompatible(var("a"), TupleType::get(&context)));
  EXPECT_TRUE(areCompatible(TupleType::get(&context, {tensor({any})}),
                            TupleType::get(&context, {tensor({5})})));
  EXPECT_FALSE(areCompatible(TupleType::get(&context, {tensor({1})}),
                             TupleType::get(&context, {})));
  EXPECT_FALSE(areCompatible(RefType::get(&context, tensor({1})), tensor({1})));
}

TEST_F(TypeUtilsTest, SubstituteAllKinds) {
  MLIRContext *ctx = &context;
  Type f32 = b.getF32Type();
  // Tensor[s, d] with s := (10, 10), d := f32 becomes tensor<10x10xf32>.
  Type poly = PolyTensorType::get(ctx, b.getStringAttr("s"), {},
                                  var("d", TypeKind::BaseType));
  TypeSubstitution subst;
  subst["s"] = b.getDenseI64ArrayAttr({10, 10});
  subst["d"] = TypeAttr::get(f32);
  EXPECT_EQ(substitute(poly, subst), tensor({10, 10}));

  // Tensor[(n, 3), f32] with n := 7.
  Type dims = PolyTensorType::get(
      ctx, nullptr, {b.getStringAttr("n"), b.getI64IntegerAttr(3)}, f32);
  TypeSubstitution dimSubst;
  dimSubst["n"] = b.getI64IntegerAttr(7);
  EXPECT_EQ(substitute(dims, dimSubst), tensor({7, 3}));

  // A nested function type's own parameter shadows the outer one.
  TypeSubstitution aSubst;
  aSubst["a"] = TypeAttr::get(tensor({1}));
  auto inner = FuncType::get(ctx, {var("a")}, {var("a")}, var("a"), {});
  auto outer = TupleType::get(ctx, {var("a"), inner});
  EXPECT_EQ(substitute(outer, aSubst),
            TupleType::get(ctx, {tensor({1}), inner}));
}

TEST_F(TypeUtilsTest, TypeArgumentKinds) {
  auto noError = [&]() { return emitError(UnknownLoc::get(&context)); };
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(succeeded(verifyTypeArgument(
      var("s", TypeKind::Shape), b.getDenseI64ArrayAttr({2}), noError)));
  EXPECT_TRUE(failed(verifyTypeArgument(var("s", TypeKind::Shape),
                                        TypeAttr::get(tensor({2})), noError)));
  EXPECT_NE(message.find("kind Shape"), std::string::npos) << message;
}

TEST_F(TypeUtilsTest, BroadcastShapes) {
  auto shape = broadcastShapes({3, 1, 5}, {4, 5});
  ASSERT_TRUE(succeeded(shape));
  EXPECT_EQ(*shape, (SmallVector<int64_t>{3, 4, 5}));
  shape = broadcastShapes({any, 4}, {1, 4});
  ASSERT_TRUE(succeeded(shape));
  EXPECT_TRUE(ShapedType::isDynamic((*shape)[0]));
  shape = broadcastShapes({any}, {6});
  ASSERT_TRUE(succeeded(shape));
  EXPECT_EQ((*shape)[0], 6);
  EXPECT_TRUE(failed(broadcastShapes({3, 4}, {5})));
}

TEST_F(TypeUtilsTest, CanonicalTensorTypes) {
  // Concrete shapes and dtypes are always builtin tensors.
  EXPECT_EQ(makeTensorType(&context, nullptr, {b.getI64IntegerAttr(2)},
                           b.getF32Type()),
            tensor({2}));
  EXPECT_TRUE(isa<PolyTensorType>(
      makeTensorType(&context, b.getStringAttr("s"), {}, b.getF32Type())));
  EXPECT_TRUE(isConcrete(TupleType::get(&context, {tensor({1})})));
  EXPECT_FALSE(isConcrete(TupleType::get(&context, {var("a")})));
}

} // namespace
