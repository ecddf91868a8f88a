//===- ExecutorBenchmark.cpp - Compiled code against the interpreter ------===//
//
// Runs the same small conv net (two convolutions, global pooling, a dense
// layer and softmax) and an MLP on the reference interpreter and compiled
// through --relay-to-llvm (the JIT), side by side in one run; the ratio of
// the two times is the speed-up of native code:
//
//   build/bin/relay-executor-bench
//
//===----------------------------------------------------------------------===//

#include "frontends/RelayText/Importer.h"
#include "runtime/Executor/Executor.h"
#include "runtime/Interpreter/Interpreter.h"
#include "tools/init/InitAll.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"

#include <benchmark/benchmark.h>

#include <random>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

namespace {

const char *kConvNet = R"relay(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 3, 32, 32), float32], %w1: Tensor[(16, 3, 3, 3), float32],
          %w2: Tensor[(16, 16, 3, 3), float32], %fc: Tensor[(10, 16), float32]) {
  %0 = nn.relu(nn.conv2d(%x, %w1, padding=[1, 1]));
  %1 = nn.relu(nn.conv2d(%0, %w2, strides=[2, 2], padding=[1, 1]));
  %2 = nn.batch_flatten(nn.global_avg_pool2d(%1));
  nn.softmax(nn.dense(%2, %fc))
}
)relay";

const char *kMlp = R"relay(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 256), float32], %w1: Tensor[(256, 256), float32],
          %w2: Tensor[(10, 256), float32]) {
  nn.softmax(nn.dense(nn.relu(nn.dense(%x, %w1)), %w2))
}
)relay";

struct Program {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::vector<ValuePtr> args;
  std::unique_ptr<Executor> executor;

  explicit Program(const char *text) {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text),
                                 llvm::SMLoc());
    module = text::importRelayText(sourceMgr, &context);
    std::mt19937_64 rng(0);
    std::uniform_real_distribution<double> real(-1, 1);
    for (BlockArgument arg : module->lookupSymbol<FuncOp>("main")
                                 .getBody()
                                 .front()
                                 .getArguments()) {
      auto type = cast<RankedTensorType>(arg.getType());
      Tensor t(type.getElementType(), type.getShape());
      for (int64_t k = 0; k < t.getNumElements(); ++k)
        t.setF(k, real(rng));
      args.push_back(RuntimeValue::tensor(std::move(t)));
    }
    if (auto compiled = Executor::compile(*module, "main"); succeeded(compiled))
      executor = std::move(*compiled);
  }
};

Program &convNet() {
  static Program program(kConvNet);
  return program;
}
Program &mlp() {
  static Program program(kMlp);
  return program;
}

void runInterpreter(benchmark::State &state, Program &p) {
  Interpreter interpreter(*p.module);
  for (auto _ : state)
    if (failed(interpreter.call("main", p.args)))
      state.SkipWithError("the interpreter failed");
}

void runCompiled(benchmark::State &state, Program &p) {
  if (!p.executor) {
    state.SkipWithError("compilation failed");
    return;
  }
  for (auto _ : state)
    if (failed(p.executor->call(p.args)))
      state.SkipWithError("the compiled program failed");
}

void BM_ConvNet_Interpreter(benchmark::State &s) {
  runInterpreter(s, convNet());
}
void BM_ConvNet_Compiled(benchmark::State &s) { runCompiled(s, convNet()); }
void BM_MLP_Interpreter(benchmark::State &s) { runInterpreter(s, mlp()); }
void BM_MLP_Compiled(benchmark::State &s) { runCompiled(s, mlp()); }
BENCHMARK(BM_ConvNet_Interpreter)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ConvNet_Compiled)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MLP_Interpreter)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MLP_Compiled)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
