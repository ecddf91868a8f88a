//===- ExecutorBenchmark.cpp - Compiled code against the interpreter ------===//
//
// Runs the same small conv net (two convolutions, global pooling, a dense
// layer and softmax), an MLP and an LSTM cell loop (32 steps of recursion)
// on the reference interpreter and compiled
// through --relay-to-llvm (the JIT), side by side in one run; the ratio of
// the two times is the speed-up of native code. Then a 512x512x512 float32
// matmul, compiled by relay-mlir, against OpenBLAS's and oneDNN's sgemm in
// the same run, all on one thread, in GFLOP/s and as a fraction of the
// core's fp32 peak (RELAY_PEAK_GFLOPS, default 173: DESIGN.md's figure for
// this machine):
//
//   build/bin/relay-executor-bench
//
// The peers run at their best: the process re-executes itself with
// OPENBLAS_CORETYPE=SkylakeX (Debian's OpenBLAS 0.3.21 does not recognise
// newer AVX-512 CPUs and otherwise picks an SSE3 kernel), one OpenBLAS and
// one OpenMP thread; the kernel OpenBLAS picked is printed in the context.
//
//===----------------------------------------------------------------------===//

#include "frontends/RelayText/Importer.h"
#include "runtime/Executor/Executor.h"
#include "runtime/Interpreter/Interpreter.h"
#include "tools/init/InitAll.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"

#include <benchmark/benchmark.h>

#ifdef RELAY_BENCH_OPENBLAS
#include <cblas.h>
#endif
#ifdef RELAY_BENCH_DNNL
#include <dnnl.h>
#endif

#include <cstdlib>
#include <random>
#include <unistd.h>

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

/// An LSTM (input 64, hidden 128, batch 1) over 32 time steps, as recursion
/// over the step with the (h, c) state in a tuple.
const char *kLstm = R"relay(#[version = "0.0.5"]
def @cell(%x: Tensor[(1, 64), float32], %h: Tensor[(1, 128), float32], %c: Tensor[(1, 128), float32],
          %wih: Tensor[(512, 64), float32], %whh: Tensor[(512, 128), float32], %b: Tensor[(512,), float32]) {
  %gates = add(add(nn.dense(%x, %wih), nn.dense(%h, %whh)), %b);
  %g = split(%gates, indices_or_sections=4, axis=1);
  %c2 = add(multiply(sigmoid(%g.1), %c), multiply(sigmoid(%g.0), tanh(%g.2)));
  (multiply(sigmoid(%g.3), tanh(%c2)), %c2)
}
def @loop(%t: int32, %xs: Tensor[(32, 1, 64), float32], %state: (Tensor[(1, 128), float32], Tensor[(1, 128), float32]),
          %wih: Tensor[(512, 64), float32], %whh: Tensor[(512, 128), float32], %b: Tensor[(512,), float32])
          -> (Tensor[(1, 128), float32], Tensor[(1, 128), float32]) {
  if (less(%t, 32)) {
    @loop(add(%t, 1), %xs, @cell(take(%xs, %t, axis=0), %state.0, %state.1, %wih, %whh, %b), %wih, %whh, %b)
  } else {
    %state
  }
}
def @main(%xs: Tensor[(32, 1, 64), float32], %h0: Tensor[(1, 128), float32], %c0: Tensor[(1, 128), float32],
          %wih: Tensor[(512, 64), float32], %whh: Tensor[(512, 128), float32], %b: Tensor[(512,), float32]) {
  @loop(0, %xs, (%h0, %c0), %wih, %whh, %b)
}
)relay";

const char *kMatmul = R"relay(#[version = "0.0.5"]
def @main(%a: Tensor[(512, 512), float32], %b: Tensor[(512, 512), float32]) {
  nn.matmul(%a, %b)
}
)relay";

struct Program {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::vector<ValuePtr> args;
  std::unique_ptr<Executor> executor;
  /// The arguments as compiled code takes them (all float32 here).
  std::vector<std::vector<float>> native;

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
      std::vector<float> buffer(t.getNumElements());
      for (int64_t k = 0; k < t.getNumElements(); ++k) {
        t.setF(k, real(rng));
        buffer[k] = static_cast<float>(t.getF(k));
      }
      native.push_back(std::move(buffer));
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
Program &lstm() {
  static Program program(kLstm);
  return program;
}
Program &matmul() {
  static Program program(kMatmul);
  return program;
}

void runInterpreter(benchmark::State &state, Program &p) {
  Interpreter interpreter(*p.module);
  for (auto _ : state)
    if (failed(interpreter.call("main", p.args)))
      state.SkipWithError("the interpreter failed");
}

/// Calls the compiled entry on ready buffers: what an application pays.
void runCompiled(benchmark::State &state, Program &p) {
  if (!p.executor) {
    state.SkipWithError("compilation failed");
    return;
  }
  SmallVector<const void *> args;
  for (auto &buffer : p.native)
    args.push_back(buffer.data());
  std::vector<std::vector<char>> results;
  for (auto _ : state)
    if (failed(p.executor->callNative(args, results)))
      state.SkipWithError("the compiled program failed");
}

constexpr int64_t kN = 512;

/// GFLOP/s and the fraction of one core's peak, as counters.
void reportFlops(benchmark::State &state) {
  double flops = 2.0 * kN * kN * kN;
  const char *peakEnv = std::getenv("RELAY_PEAK_GFLOPS");
  double peak = peakEnv ? std::atof(peakEnv) : 173.0;
  state.counters["GFLOP/s"] = benchmark::Counter(
      flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["of_peak"] = benchmark::Counter(
      flops * 1e-9 / peak, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Matmul512_RelayMLIR(benchmark::State &state) {
  runCompiled(state, matmul());
  reportFlops(state);
}

#ifdef RELAY_BENCH_OPENBLAS
void BM_Matmul512_OpenBLAS(benchmark::State &state) {
  Program &p = matmul();
  std::vector<float> c(kN * kN);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kN, kN, kN, 1.0f,
                p.native[0].data(), kN, p.native[1].data(), kN, 0.0f, c.data(),
                kN);
    benchmark::DoNotOptimize(c.data());
  }
  reportFlops(state);
}
BENCHMARK(BM_Matmul512_OpenBLAS)->Unit(benchmark::kMillisecond);
#endif

#ifdef RELAY_BENCH_DNNL
void BM_Matmul512_oneDNN(benchmark::State &state) {
  Program &p = matmul();
  std::vector<float> c(kN * kN);
  for (auto _ : state) {
    if (dnnl_sgemm('N', 'N', kN, kN, kN, 1.0f, p.native[0].data(), kN,
                   p.native[1].data(), kN, 0.0f, c.data(), kN) != dnnl_success)
      state.SkipWithError("dnnl_sgemm failed");
    benchmark::DoNotOptimize(c.data());
  }
  reportFlops(state);
}
BENCHMARK(BM_Matmul512_oneDNN)->Unit(benchmark::kMillisecond);
#endif

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
void BM_LSTM_Interpreter(benchmark::State &s) { runInterpreter(s, lstm()); }
void BM_LSTM_Compiled(benchmark::State &s) { runCompiled(s, lstm()); }
BENCHMARK(BM_LSTM_Interpreter)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LSTM_Compiled)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Matmul512_RelayMLIR)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char **argv) {
  // The peers' settings must be in the environment before their libraries
  // initialise, so set them and start again.
  if (!std::getenv("RELAY_BENCH_CONFIGURED")) {
    setenv("RELAY_BENCH_CONFIGURED", "1", 1);
    setenv("OPENBLAS_CORETYPE", "SkylakeX", 0);
    unsetenv("OPENBLAS_L2_SIZE");
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    setenv("OMP_NUM_THREADS", "1", 1);
    execv("/proc/self/exe", argv);
  }
#ifdef RELAY_BENCH_OPENBLAS
  benchmark::AddCustomContext("openblas_core", openblas_get_corename());
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
