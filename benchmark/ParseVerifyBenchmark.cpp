//===- ParseVerifyBenchmark.cpp - Parse, verify and print Relay IR --------===//
//
// Generates a Relay module with N operator ops (chains of elementwise ops
// over tuples, calls between functions, if regions) and measures parsing
// (which verifies), verification alone, and printing, in ops per second.
//
//   build/bin/relay-parse-verify-bench --benchmark_counters_tabular=true
//
//===----------------------------------------------------------------------===//

#include "tools/init/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <string>

using namespace mlir;

namespace {

/// A module of functions of 1000 ops each; every function but the first
/// calls its predecessor inside a relay.if.
std::string generateModule(int64_t numOps) {
  const int64_t opsPerFunc = 1000;
  std::string text;
  llvm::raw_string_ostream os(text);
  const char *t = "tensor<4xf32>";
  for (int64_t f = 0; f * opsPerFunc < numOps; ++f) {
    os << "relay.func @f" << f << "(%x: " << t << ", %c: tensor<i1>) -> " << t
       << " {\n";
    os << "  %v0 = relay.if %c : tensor<i1> -> " << t << " {\n";
    if (f == 0)
      os << "    relay.yield %x : " << t << "\n";
    else
      os << "    %r = relay.call @f" << f - 1 << "(%x, %c) : (" << t
         << ", tensor<i1>) -> " << t << "\n    relay.yield %r : " << t << "\n";
    os << "  } else {\n    relay.yield %x : " << t << "\n  }\n";
    int64_t n = std::min(opsPerFunc, numOps - f * opsPerFunc);
    for (int64_t i = 1; i < n; ++i) {
      const char *op = i % 3 == 0   ? "add"
                       : i % 3 == 1 ? "multiply"
                                    : "subtract";
      os << "  %v" << i << " = relay." << op << " %v" << i - 1 << ", %x : ("
         << t << ", " << t << ") -> " << t << "\n";
    }
    os << "  relay.return %v" << n - 1 << " : " << t << "\n}\n";
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

/// Parses the generated module of state.range(0) ops; null (and the
/// benchmark marked skipped) if it does not parse.
OwningOpRef<ModuleOp> parseGenerated(benchmark::State &state) {
  std::string text = generateModule(state.range(0));
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, ParserConfig(&getContext()));
  if (!module)
    state.SkipWithError("generated module failed to parse");
  return module;
}

void BM_ParseAndVerify(benchmark::State &state) {
  std::string text = generateModule(state.range(0));
  MLIRContext &context = getContext();
  for (auto _ : state) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(text, ParserConfig(&context));
    if (!module)
      state.SkipWithError("generated module failed to parse");
    benchmark::DoNotOptimize(module.get());
  }
  state.counters["ops/s"] =
      benchmark::Counter(static_cast<double>(state.range(0)),
                         benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_ParseAndVerify)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

void BM_Verify(benchmark::State &state) {
  OwningOpRef<ModuleOp> module = parseGenerated(state);
  if (!module)
    return;
  for (auto _ : state) {
    bool ok = succeeded(verify(*module));
    if (!ok)
      state.SkipWithError("generated module failed to verify");
    benchmark::DoNotOptimize(ok);
  }
  state.counters["ops/s"] =
      benchmark::Counter(static_cast<double>(state.range(0)),
                         benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Verify)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(
    benchmark::kMillisecond);

void BM_Print(benchmark::State &state) {
  OwningOpRef<ModuleOp> module = parseGenerated(state);
  if (!module)
    return;
  for (auto _ : state) {
    std::string out;
    llvm::raw_string_ostream os(out);
    module->print(os);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["ops/s"] =
      benchmark::Counter(static_cast<double>(state.range(0)),
                         benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Print)->Arg(100000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
