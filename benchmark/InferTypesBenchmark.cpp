//===- InferTypesBenchmark.cpp - Cost of --relay-infer-types --------------===//
//
// Generates modules of N operator ops whose result types are all left out
// (`!relay.incomplete`): chains of broadcast, unary, reshape and dense ops
// with tuples and projections, one global function per 1000 ops calling its
// predecessor and an unannotated (so generalised) identity. Measures
// --relay-infer-types at 1k, 10k and 100k ops, beside verifying the same
// module once it is fully typed (the cheapest pass over the same IR), so
// the growth with N and the ratio to verification can be read off:
//
//   build/bin/relay-infer-types-bench --benchmark_counters_tabular=true
//
//===----------------------------------------------------------------------===//

#include "tools/init/InitAll.h"
#include "transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <string>

using namespace mlir;

namespace {

std::string generateModule(int64_t numOps) {
  const int64_t opsPerFunc = 1000;
  std::string text;
  llvm::raw_string_ostream os(text);
  const char *inc = "!relay.incomplete";
  os << "relay.func @id(%x: " << inc << ") -> " << inc << " {\n"
     << "  relay.return %x : " << inc << "\n}\n";
  for (int64_t f = 0; f * opsPerFunc < numOps; ++f) {
    os << "relay.func @f" << f << "(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>)"
       << " -> " << inc << " {\n";
    if (f == 0)
      os << "  %v0 = relay.call @id(%x) : (tensor<4x8xf32>) -> " << inc << "\n";
    else
      os << "  %v0 = relay.call @f" << f - 1 << "(%x, %w) : (tensor<4x8xf32>, "
         << "tensor<8x8xf32>) -> " << inc << "\n";
    int64_t n = std::min(opsPerFunc, numOps - f * opsPerFunc);
    for (int64_t i = 1; i < n; ++i) {
      os << "  %v" << i << " = ";
      switch (i % 6) {
      case 0:
        os << "relay.add %v" << i - 1 << ", %x : (" << inc
           << ", tensor<4x8xf32>) -> " << inc;
        break;
      case 1:
        os << "relay.nn.relu %v" << i - 1 << " : (" << inc << ") -> " << inc;
        break;
      case 2:
        os << "relay.reshape %v" << i - 1
           << " {newshape = array<i64: -1, 8>} : (" << inc << ") -> " << inc;
        break;
      case 3:
        os << "relay.nn.dense %v" << i - 1 << ", %w : (" << inc
           << ", tensor<8x8xf32>) -> " << inc;
        break;
      case 4:
        os << "relay.tuple(%v" << i - 1 << ", %x : " << inc
           << ", tensor<4x8xf32>)";
        break;
      case 5:
        os << "relay.tuple_get %v" << i - 1 << "[0] : tuple<" << inc
           << ", tensor<4x8xf32>>";
        break;
      }
      os << "\n";
    }
    os << "  %r = relay.call @id(%v" << n - 1 << ") : (" << inc << ") -> "
       << inc << "\n";
    os << "  relay.return %r : " << inc << "\n}\n";
  }
  return text;
}

MLIRContext &getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    relay::registerAllDialects(registry);
    auto *ctx = new MLIRContext(registry);
    ctx->loadAllAvailableDialects();
    return ctx;
  }();
  return *context;
}

LogicalResult inferTypes(ModuleOp module) {
  PassManager pm(&getContext());
  pm.enableVerifier(false);
  pm.addPass(relay::createInferTypes());
  return pm.run(module);
}

void setRate(benchmark::State &state) {
  state.counters["ops/s"] =
      benchmark::Counter(static_cast<double>(state.range(0)),
                         benchmark::Counter::kIsIterationInvariantRate);
}

void BM_InferTypes(benchmark::State &state) {
  std::string text = generateModule(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(text, ParserConfig(&getContext()));
    state.ResumeTiming();
    if (!module || failed(inferTypes(*module))) {
      state.SkipWithError("generated module failed to infer");
      return;
    }
  }
  setRate(state);
}
BENCHMARK(BM_InferTypes)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

/// The same module after inference, verified: a lower bound for any pass.
void BM_VerifyInferred(benchmark::State &state) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      generateModule(state.range(0)), ParserConfig(&getContext()));
  if (!module || failed(inferTypes(*module))) {
    state.SkipWithError("generated module failed to infer");
    return;
  }
  for (auto _ : state) {
    bool ok = succeeded(verify(*module));
    benchmark::DoNotOptimize(ok);
  }
  setRate(state);
}
BENCHMARK(BM_VerifyInferred)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
