//===- ExecutorBenchmark.cpp - Compiled code against the interpreter ------===//
//
// Runs the same small conv net (two convolutions, global pooling, a dense
// layer and softmax), an MLP and an LSTM cell loop (32 steps of recursion)
// on the reference interpreter and compiled
// through --relay-to-llvm (the JIT), side by side in one run; the ratio of
// the two times is the speed-up of native code. Then NxNxN float32
// matmuls (N from 256 to 4096), compiled by relay-mlir, against OpenBLAS's
// and oneDNN's sgemm in the same run, at one and two threads
// (BM_Matmul_<who>/N/threads), in GFLOP/s and as a fraction of the
// machine's fp32 peak per thread (RELAY_PEAK_GFLOPS, default 173: DESIGN.md's
// figure for the machine it was written on):
//
//   build/bin/relay-executor-bench [--benchmark_filter=Matmul]
//
// The peers run at their best: the process re-executes itself with
// OPENBLAS_CORETYPE=SkylakeX on AVX-512 CPUs (Debian's OpenBLAS 0.3.21 does
// not recognise newer ones and otherwise picks an SSE3 kernel), one OpenBLAS
// and one OpenMP thread; the kernel OpenBLAS picked is printed in the context.
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
#ifdef RELAY_BENCH_DNNL
#include <dlfcn.h>
#endif

#include <cstdlib>
#include <map>
#include <memory>
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

/// An NxN times NxN float32 matmul, both operands arguments (not
/// constants: what sgemm is given).
std::string matmulText(int64_t n) {
  std::string t =
      "Tensor[(" + std::to_string(n) + ", " + std::to_string(n) + "), float32]";
  return "#[version = \"0.0.5\"]\ndef @main(%a: " + t + ", %b: " + t +
         ") {\n  nn.matmul(%a, %b)\n}\n";
}

struct Program {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::vector<ValuePtr> args;
  std::unique_ptr<Executor> executor;
  /// The arguments as compiled code takes them (all float32 here).
  std::vector<std::vector<float>> native;

  explicit Program(StringRef text, int64_t threads = 1) {
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
    CompileOptions options;
    options.threads = threads;
    if (auto compiled = Executor::compile(*module, "main", options);
        succeeded(compiled))
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
/// The NxNxN matmul compiled for `threads`, once per size and count. The
/// programs live until the process ends (never destroyed: compiled code with
/// threads has the C runtime's workers, which outlive static destructors).
Program &matmul(int64_t n, int64_t threads) {
  static auto *programs =
      new std::map<std::pair<int64_t, int64_t>, std::unique_ptr<Program>>();
  std::unique_ptr<Program> &p = (*programs)[{n, threads}];
  if (!p)
    p = std::make_unique<Program>(matmulText(n), threads);
  return *p;
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
  // One untimed call first: the JIT emits a module's machine code on its
  // first call, and Google Benchmark times a run that takes longer than
  // its minimum time once, so a large product's figure was that first call
  // (3072^3 at one thread on a Zen 5: 656 ms, against 302 ms once warm).
  if (failed(p.executor->callNative(args, results))) {
    state.SkipWithError("the compiled program failed");
    return;
  }
  for (auto _ : state)
    if (failed(p.executor->callNative(args, results)))
      state.SkipWithError("the compiled program failed");
}

/// GFLOP/s and the fraction of the threads' peak, as counters, for an NxNxN
/// product.
void reportFlops(benchmark::State &state, int64_t n, int64_t threads) {
  double flops = 2.0 * n * n * n;
  const char *peakEnv = std::getenv("RELAY_PEAK_GFLOPS");
  double peak = (peakEnv ? std::atof(peakEnv) : 173.0) * threads;
  state.counters["GFLOP/s"] = benchmark::Counter(
      flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["of_peak"] = benchmark::Counter(
      flops * 1e-9 / peak, benchmark::Counter::kIsIterationInvariantRate);
}

/// The sizes (256 to 4096, with those between) and thread counts.
void matmulArgs(benchmark::internal::Benchmark *b) {
  for (int64_t threads : {1, 2})
    for (int64_t n : {256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096})
      b->Args({n, threads});
  b->ArgNames({"n", "threads"})->Unit(benchmark::kMillisecond);
}

void BM_Matmul_RelayMLIR(benchmark::State &state) {
  int64_t n = state.range(0), threads = state.range(1);
  runCompiled(state, matmul(n, threads));
  reportFlops(state, n, threads);
}
BENCHMARK(BM_Matmul_RelayMLIR)->Apply(matmulArgs);

#ifdef RELAY_BENCH_OPENBLAS
void BM_Matmul_OpenBLAS(benchmark::State &state) {
  int64_t n = state.range(0), threads = state.range(1);
  Program &p = matmul(n, 1);
  std::vector<float> c(n * n);
  openblas_set_num_threads(threads);
  // Untimed first, as runCompiled does.
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
              p.native[0].data(), n, p.native[1].data(), n, 0.0f, c.data(), n);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                p.native[0].data(), n, p.native[1].data(), n, 0.0f, c.data(),
                n);
    benchmark::DoNotOptimize(c.data());
  }
  openblas_set_num_threads(1);
  reportFlops(state, n, threads);
}
BENCHMARK(BM_Matmul_OpenBLAS)->Apply(matmulArgs);
#endif

#ifdef RELAY_BENCH_DNNL
// Debian's oneDNN runs on OpenMP (the libgomp it loads): its thread count is
// OpenMP's, set through omp_set_num_threads looked up at run time, so the
// benchmark builds with either compiler (clang has no libgomp headers).
// Returns false where oneDNN was built without OpenMP.
bool setOneDnnThreads(int threads) {
  using SetNumThreads = void (*)(int);
  static auto setNumThreads = reinterpret_cast<SetNumThreads>(
      dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  if (!setNumThreads)
    return false;
  setNumThreads(threads);
  return true;
}

void BM_Matmul_oneDNN(benchmark::State &state) {
  int64_t n = state.range(0), threads = state.range(1);
  Program &p = matmul(n, 1);
  std::vector<float> c(n * n);
  if (!setOneDnnThreads(threads) && threads > 1) {
    state.SkipWithError("oneDNN without OpenMP runs one thread");
    return;
  }
  // Untimed first (oneDNN generates its kernels on its first call), as
  // runCompiled does.
  (void)dnnl_sgemm('N', 'N', n, n, n, 1.0f, p.native[0].data(), n,
                   p.native[1].data(), n, 0.0f, c.data(), n);
  for (auto _ : state) {
    if (dnnl_sgemm('N', 'N', n, n, n, 1.0f, p.native[0].data(), n,
                   p.native[1].data(), n, 0.0f, c.data(), n) != dnnl_success)
      state.SkipWithError("dnnl_sgemm failed");
    benchmark::DoNotOptimize(c.data());
  }
  setOneDnnThreads(1);
  reportFlops(state, n, threads);
}
BENCHMARK(BM_Matmul_oneDNN)->Apply(matmulArgs);
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

} // namespace

int main(int argc, char **argv) {
  // The peers' settings must be in the environment before their libraries
  // initialise, so set them and start again.
  if (!std::getenv("RELAY_BENCH_CONFIGURED")) {
    setenv("RELAY_BENCH_CONFIGURED", "1", 1);
    // SkylakeX's kernel is illegal on a CPU without AVX-512 (Zen 3): there
    // the AVX2 kernel, which OpenBLAS recognises on its own.
    if (__builtin_cpu_supports("avx512f"))
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
