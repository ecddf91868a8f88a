//===- ExecutorTest.cpp - The Executor's C++ API --------------------------===//
//
// Compiling once and calling many times; a run-time error inside compiled
// code is reported and frees the buffers the abandoned code held; an
// operator a user registers with a lowering rule compiles.
//
//===----------------------------------------------------------------------===//

#include "runtime/Executor/Executor.h"
#include "runtime/C/RelayRuntime.h"
#include "runtime/Interpreter/Interpreter.h"

#include "frontends/RelayText/Importer.h"
#include "tools/init/InitAll.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

namespace {

class ExecutorTest : public ::testing::Test {
protected:
  ExecutorTest() {
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
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text),
                                 llvm::SMLoc());
    return text::importRelayText(sourceMgr, &context);
  }

  ValuePtr vector(std::initializer_list<float> values) {
    Tensor t(Float32Type::get(&context), {int64_t(values.size())});
    int64_t k = 0;
    for (float v : values)
      t.setF(k++, v);
    return RuntimeValue::tensor(std::move(t));
  }

  MLIRContext context;
  std::string errors;
  std::unique_ptr<ScopedDiagnosticHandler> handler;
};

TEST_F(ExecutorTest, CompilesOnceAndCallsManyTimes) {
  OwningOpRef<ModuleOp> module = parse(R"(#[version = "0.0.5"]
    def @main(%x: Tensor[(3), float32]) {
      add(multiply(%x, %x), %x)
    })");
  ASSERT_TRUE(module) << errors;
  auto executor = Executor::compile(*module, "main");
  ASSERT_TRUE(succeeded(executor)) << errors;
  int64_t before = relay_rt_outstanding_buffers();
  for (float scale : {1.0f, 2.0f, -1.0f}) {
    FailureOr<ValuePtr> r =
        (*executor)->call({vector({scale, 2 * scale, 3 * scale})});
    ASSERT_TRUE(succeeded(r)) << errors;
    const Tensor &t = (*r)->getTensor();
    for (int64_t k = 0; k < 3; ++k) {
      double x = scale * (k + 1);
      EXPECT_DOUBLE_EQ(t.getF(k), x * x + x);
    }
  }
  // The result buffers went back through the runtime's free.
  EXPECT_EQ(relay_rt_outstanding_buffers(), before);
}

// callNativeInto copies each result into the caller's buffer (what the C
// API and Python hand back), and rejects a call with the wrong number of
// result buffers.
TEST_F(ExecutorTest, CopiesResultsIntoTheCallersBuffers) {
  OwningOpRef<ModuleOp> module = parse(R"(#[version = "0.0.5"]
    def @main(%x: Tensor[(2, 3), float32]) {
      (transpose(%x), sum(%x))
    })");
  ASSERT_TRUE(module) << errors;
  auto executor = Executor::compile(*module, "main");
  ASSERT_TRUE(succeeded(executor)) << errors;
  float x[6] = {1, 2, 3, 4, 5, 6}, transposed[6] = {}, total = 0;
  const void *args[] = {x};
  void *outputs[] = {transposed, &total};
  ASSERT_TRUE(succeeded((*executor)->callNativeInto(args, outputs))) << errors;
  EXPECT_EQ(ArrayRef<float>(transposed), ArrayRef<float>({1, 4, 2, 5, 3, 6}));
  EXPECT_FLOAT_EQ(total, 21);
  std::vector<std::vector<char>> results;
  ASSERT_TRUE(succeeded((*executor)->callNative(args, results))) << errors;
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(std::memcmp(results[0].data(), transposed, sizeof(transposed)), 0);
  errors.clear();
  EXPECT_TRUE(failed((*executor)->callNativeInto(args, {transposed})));
  EXPECT_NE(errors.find("returns 2 values, got 1 buffers"), std::string::npos)
      << errors;
}

// @main holds a computed tensor (a heap buffer) while @get fails with no
// matching case; the error abandons the compiled code, and the runtime
// frees that buffer.
TEST_F(ExecutorTest, RunTimeErrorFreesTheBuffersItAbandons) {
  OwningOpRef<ModuleOp> module = parse(R"(#[version = "0.0.5"]
    def @get(%o: Option[Tensor[(64), float32]]) -> Tensor[(64), float32] {
      match? (%o) {
        Some(%v) => %v,
      }
    }
    def @main(%x: Tensor[(64), float32]) {
      let %y = exp(%x);
      add(%y, @get(None))
    })");
  ASSERT_TRUE(module) << errors;
  auto executor = Executor::compile(*module, "main");
  ASSERT_TRUE(succeeded(executor)) << errors;
  Tensor x(Float32Type::get(&context), {64});
  ValuePtr input = RuntimeValue::tensor(std::move(x));
  int64_t before = relay_rt_outstanding_buffers();
  for (int i = 0; i < 3; ++i) {
    errors.clear();
    EXPECT_TRUE(failed((*executor)->call({input})));
    EXPECT_NE(errors.find("no case of the match? matches the value"),
              std::string::npos)
        << errors;
  }
  EXPECT_EQ(relay_rt_outstanding_buffers(), before);
}

// A user's operator, registered from C++ with its relation and a lowering
// rule (x * x + 1, as one linalg.generic): --relay-to-linalg lowers it with
// that rule through the registry's lowering column, and it runs compiled.
TEST_F(ExecutorTest, CompilesAUserOperatorWithItsLoweringRule) {
  OperatorInfo info;
  info.name = "relay.my.square_plus_one";
  info.relation = "Identity";
  info.numInputs = 1;
  info.pattern = OpPatternKind::ElemWise;
  info.lowering = [](OpBuilder &b, Operation *op,
                     ValueRange operands) -> FailureOr<SmallVector<Value>> {
    auto type = dyn_cast<RankedTensorType>(operands[0].getType());
    if (!type || !isa<FloatType>(type.getElementType()))
      return failure();
    Location loc = op->getLoc();
    Value init =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    AffineMap id =
        AffineMap::getMultiDimIdentityMap(type.getRank(), b.getContext());
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{type}, operands[0], init, {id, id},
        SmallVector<utils::IteratorType>(type.getRank(),
                                         utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value one = arith::ConstantOp::create(
              nb, l, nb.getFloatAttr(args[0].getType(), 1.0));
          Value square = arith::MulFOp::create(nb, l, args[0], args[0]);
          linalg::YieldOp::create(
              nb, l, arith::AddFOp::create(nb, l, square, one).getResult());
        });
    return SmallVector<Value>{generic.getResult(0)};
  };
  ASSERT_TRUE(succeeded(
      registerDynamicOperator(context.getOrLoadDialect<RelayDialect>(), info)));
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    relay.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
      %y = relay.my.square_plus_one %x : (tensor<3xf32>) -> tensor<3xf32>
      %z = relay.add %y, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      relay.return %z : tensor<3xf32>
    })mlir",
                                                             &context);
  ASSERT_TRUE(module) << errors;
  auto executor = Executor::compile(*module, "main");
  ASSERT_TRUE(succeeded(executor)) << errors;
  FailureOr<ValuePtr> r = (*executor)->call({vector({1.0f, -2.0f, 0.5f})});
  ASSERT_TRUE(succeeded(r)) << errors;
  const Tensor &t = (*r)->getTensor();
  const double inputs[] = {1.0, -2.0, 0.5};
  for (auto [k, x] : llvm::enumerate(inputs))
    EXPECT_DOUBLE_EQ(t.getF(k), x * x + 1 + x);
}

} // namespace
