//===- InterpreterTest.cpp - The interpreter's C++ API --------------------===//
//
// Evaluating functions on values from C++ (as passes will): tensors,
// closures returned and applied, ADT values, references; a kernel for an
// operator added from C++; and errors reported at the failing op.
//
//===----------------------------------------------------------------------===//

#include "runtime/Interpreter/Interpreter.h"
#include "runtime/Interpreter/Kernels.h"
#include "runtime/Interpreter/Npy.h"

#include "dialects/relay/RelationUtils.h"
#include "tools/init/InitAll.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

namespace {

class InterpreterTest : public ::testing::Test {
protected:
  InterpreterTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    handler = std::make_unique<ScopedDiagnosticHandler>(
        &context, [this](Diagnostic &d) {
          errors += d.str() + "\n";
          return success();
        });
  }

  OwningOpRef<ModuleOp> parse(StringRef text) {
    return parseSourceString<ModuleOp>(text, &context);
  }

  static std::string show(const ValuePtr &v) {
    std::string s;
    llvm::raw_string_ostream os(s);
    printValue(os, v);
    return s;
  }

  ValuePtr scalar(float v) {
    Tensor t(Float32Type::get(&context), {});
    t.setF(0, v);
    return RuntimeValue::tensor(std::move(t));
  }

  MLIRContext context;
  std::string errors;
  std::unique_ptr<ScopedDiagnosticHandler> handler;
};

TEST_F(InterpreterTest, CallsAFunctionOnTensors) {
  auto module = parse(R"mlir(
    relay.func @axpy(%a: tensor<f32>, %x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
      %ax = relay.multiply %a, %x : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
      %r = relay.add %ax, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      relay.return %r : tensor<3xf32>
    }
  )mlir");
  ASSERT_TRUE(module);
  Tensor x(Float32Type::get(&context), {3}), y = x;
  for (int i = 0; i < 3; ++i) {
    x.setF(i, i + 1);
    y.setF(i, 10);
  }
  Interpreter interp(*module);
  FailureOr<ValuePtr> r = interp.call(
      "axpy", {scalar(2), RuntimeValue::tensor(x), RuntimeValue::tensor(y)});
  ASSERT_TRUE(succeeded(r)) << errors;
  EXPECT_EQ(show(*r), "[12.0, 14.0, 16.0]");
}

TEST_F(InterpreterTest, ReturnsAndAppliesClosures) {
  auto module = parse(R"mlir(
    relay.func @adder(%n: tensor<f32>) -> !relay.fn<(tensor<f32>) -> tensor<f32>> {
      %f = relay.fn (%x: tensor<f32>) -> tensor<f32> {
        %s = relay.add %x, %n : (tensor<f32>, tensor<f32>) -> tensor<f32>
        relay.return %s : tensor<f32>
      }
      relay.return %f : !relay.fn<(tensor<f32>) -> tensor<f32>>
    }
  )mlir");
  ASSERT_TRUE(module);
  Interpreter interp(*module);
  FailureOr<ValuePtr> add5 = interp.call("adder", {scalar(5)});
  ASSERT_TRUE(succeeded(add5)) << errors;
  EXPECT_EQ(show(*add5), "<closure>");
  FailureOr<ValuePtr> r =
      interp.apply(*add5, {scalar(1.5)}, UnknownLoc::get(&context));
  ASSERT_TRUE(succeeded(r)) << errors;
  EXPECT_EQ(show(*r), "6.5");
}

TEST_F(InterpreterTest, BuildsAdtsAndUsesReferences) {
  auto module = parse(R"mlir(
    relay.data @List[a] {
      relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
      relay.ctor @Nil
    }
    relay.func @main(%x: tensor<f32>) -> tuple<!relay.adt<@List, tensor<f32>>, tensor<f32>> {
      %nil = relay.construct @List::@Nil() : () -> !relay.adt<@List, tensor<f32>>
      %l = relay.construct @List::@Cons(%x, %nil) : (tensor<f32>, !relay.adt<@List, tensor<f32>>) -> !relay.adt<@List, tensor<f32>>
      %r = relay.ref %x : tensor<f32>
      %y = relay.add %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %w = relay.ref_write %r, %y : !relay.ref<tensor<f32>>, tensor<f32>
      %v = relay.ref_read %r : !relay.ref<tensor<f32>>
      %t = relay.tuple(%l, %v : !relay.adt<@List, tensor<f32>>, tensor<f32>)
      relay.return %t : tuple<!relay.adt<@List, tensor<f32>>, tensor<f32>>
    }
  )mlir");
  ASSERT_TRUE(module);
  Interpreter interp(*module);
  FailureOr<ValuePtr> r = interp.call("main", {scalar(3)});
  ASSERT_TRUE(succeeded(r)) << errors;
  EXPECT_EQ(show(*r), "(Cons(3.0, Nil), 6.0)");
}

TEST_F(InterpreterTest, ChecksArgumentsAndReportsRunTimeErrors) {
  auto module = parse(R"mlir(
    relay.func @div(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
      %q = relay.divide %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i32>
      relay.return %q : tensor<i32>
    }
  )mlir");
  ASSERT_TRUE(module);
  Interpreter interp(*module);
  EXPECT_TRUE(failed(interp.call("div", {scalar(1), scalar(2)})));
  EXPECT_NE(errors.find("argument #0 has type 'tensor<f32>', expected "
                        "'tensor<i32>'"),
            std::string::npos)
      << errors;
  errors.clear();
  Tensor one(IntegerType::get(&context, 32), {}), zero = one;
  one.setI(0, 1);
  EXPECT_TRUE(failed(interp.call(
      "div", {RuntimeValue::tensor(one), RuntimeValue::tensor(zero)})));
  EXPECT_NE(errors.find("divide: integer division by zero"), std::string::npos)
      << errors;
  EXPECT_TRUE(failed(interp.call("nothere", {})));
}

/// An operator added from C++ brings its kernel in the registry column.
TEST_F(InterpreterTest, RunsAUserOperatorKernel) {
  auto *relay = context.getOrLoadDialect<RelayDialect>();
  OperatorInfo info;
  info.name = "relay.my.double";
  info.relation = "Identity";
  info.numInputs = 1;
  KernelFn kernel = [](const KernelContext &ctx) -> FailureOr<ValuePtr> {
    Tensor t = ctx.input(0);
    for (int64_t k = 0; k < t.getNumElements(); ++k)
      t.setF(k, 2 * t.getF(k));
    return RuntimeValue::tensor(std::move(t));
  };
  info.columns[kInterpretColumn] = kernel;
  ASSERT_TRUE(succeeded(registerDynamicOperator(relay, info)));
  auto module = parse(R"mlir(
    relay.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %y = relay.my.double %x : (tensor<2xf32>) -> tensor<2xf32>
      relay.return %y : tensor<2xf32>
    }
  )mlir");
  ASSERT_TRUE(module) << errors;
  Tensor x(Float32Type::get(&context), {2});
  x.setF(0, 1.25);
  x.setF(1, -3);
  Interpreter interp(*module);
  FailureOr<ValuePtr> r = interp.call("main", {RuntimeValue::tensor(x)});
  ASSERT_TRUE(succeeded(r)) << errors;
  EXPECT_EQ(show(*r), "[2.5, -6.0]");
}

// Tests that composite operators (no kernel of their own) run on tensors
// whose types leave dimensions `?`: decomposed at the run-time types, once
// per shape, so a second call with another shape gets its own result.
TEST_F(InterpreterTest, RunsCompositeOperatorsAtRunTimeShapes) {
  auto module = parse(R"mlir(
    relay.func @main(%x: tensor<?x3xf32>) -> tuple<tensor<2xi32>, tensor<?xf32>> {
      %s = relay.shape_of %x : (tensor<?x3xf32>) -> tensor<2xi32>
      %m = relay.mean %x {axis = array<i64: 1>, keepdims = true} : (tensor<?x3xf32>) -> tensor<?x1xf32>
      %v = relay.variance %x, %m {axis = array<i64: 1>} : (tensor<?x3xf32>, tensor<?x1xf32>) -> tensor<?xf32>
      %t = relay.tuple(%s, %v : tensor<2xi32>, tensor<?xf32>)
      relay.return %t : tuple<tensor<2xi32>, tensor<?xf32>>
    }
  )mlir");
  ASSERT_TRUE(module) << errors;
  Interpreter interp(*module);
  auto rows = [&](int64_t n) {
    const double values[] = {1, 1, 4, 0, 3, 6};
    Tensor x(Float32Type::get(&context), {n, 3});
    for (int64_t k = 0; k < 3 * n; ++k)
      x.setF(k, values[k]);
    return RuntimeValue::tensor(std::move(x));
  };
  FailureOr<ValuePtr> two = interp.call("main", {rows(2)});
  ASSERT_TRUE(succeeded(two)) << errors;
  // Rows (1, 1, 4) and (0, 3, 6): variances 2 and 6.
  EXPECT_EQ(show(*two), "([2, 3], [2.0, 6.0])");
  FailureOr<ValuePtr> one = interp.call("main", {rows(1)});
  ASSERT_TRUE(succeeded(one)) << errors;
  EXPECT_EQ(show(*one), "([1, 3], [2.0])");
}

// Tests that an operator with neither a kernel nor a decomposition is a
// located error naming it and the operand types, not a crash or a loop.
TEST_F(InterpreterTest, ReportsAnOperatorWithoutKernelOrDecomposition) {
  auto *relay = context.getOrLoadDialect<RelayDialect>();
  OperatorInfo info;
  info.name = "relay.my.opaque";
  info.relation = "Identity";
  info.numInputs = 1;
  ASSERT_TRUE(succeeded(registerDynamicOperator(relay, info)));
  auto module = parse(R"mlir(
    relay.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
      %y = relay.my.opaque %x : (tensor<?xf32>) -> tensor<?xf32>
      relay.return %y : tensor<?xf32>
    }
  )mlir");
  ASSERT_TRUE(module) << errors;
  Tensor x(Float32Type::get(&context), {2});
  Interpreter interp(*module);
  EXPECT_TRUE(failed(interp.call("main", {RuntimeValue::tensor(x)})));
  EXPECT_NE(errors.find("the interpreter has no kernel for 'relay.my.opaque' "
                        "and cannot decompose it for operands "
                        "'tensor<2xf32>'"),
            std::string::npos)
      << errors;
}

TEST_F(InterpreterTest, NpyRoundTripsAndRejectsMalformedFiles) {
  Tensor t(IntegerType::get(&context, 16, IntegerType::Unsigned), {2, 2});
  for (int k = 0; k < 4; ++k)
    t.setI(k, 65535 - k);
  std::string error;
  FailureOr<std::string> bytes = writeNpy(t, error);
  ASSERT_TRUE(succeeded(bytes)) << error;
  FailureOr<Tensor> back = readNpy(&context, *bytes, error);
  ASSERT_TRUE(succeeded(back)) << error;
  EXPECT_EQ(back->getType(), t.getType());
  EXPECT_EQ(back->getI(3), 65532);
  EXPECT_TRUE(
      failed(readNpy(&context, bytes->substr(0, bytes->size() - 2), error)));
  EXPECT_NE(error.find("data bytes"), std::string::npos) << error;
  EXPECT_TRUE(failed(readNpy(&context, "junk", error)));
}

// Tests that tensors of every dtype round-trip through dense attributes
// (constants folded by passes take this path), splats and extreme values
// included.
TEST_F(InterpreterTest, TensorsRoundTripThroughAttributes) {
  auto i = [&](unsigned w, IntegerType::SignednessSemantics s =
                               IntegerType::Signless) -> Type {
    return IntegerType::get(&context, w, s);
  };
  SmallVector<Type> types = {Float32Type::get(&context),
                             Float64Type::get(&context),
                             BFloat16Type::get(&context),
                             Float16Type::get(&context),
                             i(1),
                             i(8),
                             i(8, IntegerType::Unsigned),
                             i(16),
                             i(32),
                             i(32, IntegerType::Signed),
                             i(64),
                             i(64, IntegerType::Unsigned)};
  for (Type type : types) {
    std::string name;
    llvm::raw_string_ostream(name) << type;
    Tensor t(type, {2, 3});
    double values[] = {-128, 127, 0, 1, -1.5, 255};
    for (int k = 0; k < 6; ++k)
      t.setF(k, values[k]);
    DenseElementsAttr attr = t.toAttr();
    EXPECT_EQ(attr.getType(), t.getType());
    Tensor back = Tensor::fromAttr(attr);
    EXPECT_EQ(back.getType(), t.getType());
    for (int k = 0; k < 6; ++k)
      EXPECT_EQ(back.getF(k), t.getF(k)) << "element " << k << " of " << name;
    Tensor splat = Tensor::fromAttr(DenseElementsAttr::get(
        t.getType(), ArrayRef<Attribute>(attr.getValues<Attribute>()[1])));
    for (int k = 0; k < 6; ++k)
      EXPECT_EQ(splat.getF(k), t.getF(1)) << name;
  }
}

} // namespace
