//===- OperatorRegistryTest.cpp - The operator registry -------------------===//
//
// The built-in registry entries, metadata columns, and an out-of-tree
// operator added from C++ without touching the dialect: a relation, an
// operator using it, parsed, verified and type-inferred like a built-in.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelationUtils.h"
#include "dialects/relay/RelayOps.h"
#include "tools/init/InitAll.h"
#include "transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::relay;

namespace {

TEST(OperatorRegistryTest, BuiltinOperatorsHaveTheirMetadata) {
  const OperatorInfo *conv = lookupOperator("relay.nn.conv2d");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->relation, "Conv2D");
  EXPECT_EQ(conv->numInputs, 2u);
  EXPECT_EQ(conv->pattern, OpPatternKind::OutEWiseFusable);
  EXPECT_EQ(conv->supportLevel, 2);

  const OperatorInfo *add = lookupOperator("relay.add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->relation, "Broadcast");
  EXPECT_EQ(add->pattern, OpPatternKind::Broadcast);

  const OperatorInfo *sum = lookupOperator("relay.sum");
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(stringifyOpPatternKind(sum->pattern), "comm-reduce");

  EXPECT_EQ(lookupOperator("relay.no_such_op"), nullptr);
  EXPECT_EQ(lookupOperator("relay.func"), nullptr); // not an operator
}

TEST(OperatorRegistryTest, EveryOperatorHasARegisteredRelation) {
  unsigned count = 0;
  forEachOperator([&](const OperatorInfo &info) {
    ++count;
    EXPECT_NE(lookupTypeRelation(info.relation), nullptr)
        << info.name << " uses unregistered relation " << info.relation;
  });
  // The issue's list plus a few more of TVM's elementwise operators.
  EXPECT_GE(count, 90u);
}

TEST(OperatorRegistryTest, MetadataColumnsCanBeFilledLater) {
  bool called = false;
  ASSERT_TRUE(succeeded(updateOperator("relay.exp", [&](OperatorInfo &info) {
    info.gradient = [&](OpBuilder &, Operation *,
                        Value grad) -> FailureOr<SmallVector<Value>> {
      called = true;
      return SmallVector<Value>{grad};
    };
    info.columns["FTVMTestColumn"] = std::string("hello");
  })));
  const OperatorInfo *exp = lookupOperator("relay.exp");
  ASSERT_TRUE(exp->gradient);
  MLIRContext ctx;
  OpBuilder b(&ctx);
  (void)exp->gradient(b, nullptr, Value());
  EXPECT_TRUE(called);
  EXPECT_EQ(std::any_cast<std::string>(exp->columns.lookup("FTVMTestColumn")),
            "hello");
  EXPECT_TRUE(failed(updateOperator("relay.nope", [](OperatorInfo &) {})));
}

/// An out-of-tree relation: `repeat_rows(x) {times = k}` turns [n, m] into
/// [n * k, m].
static RelationStatus repeatRowsRelation(RelationArgs &args) {
  TensorInfo in;
  READ_TENSOR_OR_RETURN(args, 0, in);
  if (in.getRank() != 2)
    return args.fail("expected a matrix, got " + typeStr(args.getInput(0)));
  int64_t times = args.getInt("times", 1);
  if (times <= 0)
    return args.fail("times must be positive");
  SmallVector<Dim> out{mulDims(in.dims[0], Dim::of(times)), in.dims[1]};
  return args.solve(makeTensor(args.getContext(), out, in.dtype));
}

class ExternalOperatorTest : public ::testing::Test {
protected:
  ExternalOperatorTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    auto *relay = context.getOrLoadDialect<RelayDialect>();
    registerTypeRelation("RepeatRows", repeatRowsRelation);
    OperatorInfo info;
    info.name = "relay.my.repeat_rows";
    info.relation = "RepeatRows";
    info.numInputs = 1;
    info.pattern = OpPatternKind::Injective;
    EXPECT_TRUE(succeeded(registerDynamicOperator(relay, info)));
  }

  OwningOpRef<ModuleOp> parse(StringRef text) {
    return parseSourceString<ModuleOp>(text, &context);
  }

  MLIRContext context;
};

TEST_F(ExternalOperatorTest, ParsesPrintsAndInfersTypes) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    relay.func @f(%x: tensor<3x4xf32>) -> !relay.incomplete {
      %y = relay.my.repeat_rows %x {times = 2 : i64} : (tensor<3x4xf32>) -> !relay.incomplete
      %z = relay.exp %y : (!relay.incomplete) -> !relay.incomplete
      relay.return %z : !relay.incomplete
    }
  )mlir");
  ASSERT_TRUE(module);
  PassManager pm(&context);
  pm.addPass(createInferTypes());
  ASSERT_TRUE(succeeded(pm.run(*module)));
  auto func = *module->getOps<FuncOp>().begin();
  EXPECT_EQ(func.getReturnType(),
            RankedTensorType::get({6, 4}, Float32Type::get(&context)));

  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  EXPECT_NE(text.find("relay.my.repeat_rows %x {times = 2 : i64} : "
                      "(tensor<3x4xf32>) -> tensor<6x4xf32>"),
            std::string::npos)
      << text;
  // Printed text parses back.
  EXPECT_TRUE(parse(text));

  const OperatorInfo *info = lookupOperator("relay.my.repeat_rows");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->pattern, OpPatternKind::Injective);
}

TEST_F(ExternalOperatorTest, VerifierRunsTheRelation) {
  std::string errors;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    errors += diag.str() + "\n";
    return success();
  });
  EXPECT_FALSE(parse(R"mlir(
    relay.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
      %y = relay.my.repeat_rows %x : (tensor<3xf32>) -> tensor<3xf32>
      relay.return %y : tensor<3xf32>
    }
  )mlir"));
  EXPECT_NE(errors.find("my.repeat_rows: expected a matrix, got "
                        "'tensor<3xf32>'"),
            std::string::npos)
      << errors;
}

TEST_F(ExternalOperatorTest, RejectsBadRegistrations) {
  auto *relay = context.getOrLoadDialect<RelayDialect>();
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  OperatorInfo wrongPrefix;
  wrongPrefix.name = "mine.op";
  wrongPrefix.relation = "Identity";
  EXPECT_TRUE(failed(registerDynamicOperator(relay, wrongPrefix)));
  OperatorInfo noRelation;
  noRelation.name = "relay.my.other";
  noRelation.relation = "NoSuchRelation";
  EXPECT_TRUE(failed(registerDynamicOperator(relay, noRelation)));
}

} // namespace
