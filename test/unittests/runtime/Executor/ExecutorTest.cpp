//===- ExecutorTest.cpp - The Executor's C++ API --------------------------===//
//
// Compiling once and calling many times; a run-time error inside compiled
// code is reported and frees the buffers the abandoned code held.
//
//===----------------------------------------------------------------------===//

#include "runtime/Executor/Executor.h"
#include "runtime/C/RelayRuntime.h"
#include "runtime/Interpreter/Interpreter.h"

#include "frontends/RelayText/Importer.h"
#include "tools/init/InitAll.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

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

} // namespace
