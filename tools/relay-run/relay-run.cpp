//===- relay-run.cpp - Run a Relay program ----------------------*- C++ -*-===//
//
// relay-run FILE (.rly, .mlir or .onnx): type-checks the module, runs @main (or
// --entry NAME) on inputs from .npy files (--input, in parameter order) or
// random ones (--random-inputs SEED), prints the result as a Relay value and
// optionally writes it (--output FILE.npy; a tuple writes FILE.0.npy, ...;
// lists and options are directories, runtime/Interpreter/ValueFiles.h).
// By default it compiles through --relay-to-llvm and runs the JIT; what
// native compilation does not cover yet runs on the reference interpreter
// (with a note saying why), as does everything with --interp.
// --bench N prints the median time of N runs after a warm-up.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringTarget.h"
#include "dialects/relay/TypeUtils.h"
#include "frontends/ONNX/OnnxImporter.h"
#include "frontends/RelayText/Importer.h"
#include "runtime/C/RelayRuntime.h"
#include "runtime/Executor/AheadOfTime.h"
#include "runtime/Executor/Executor.h"
#include "runtime/Executor/NativeRegions.h"
#ifdef RELAY_MLIR_ENABLE_CUDA
#include "runtime/CUDA/CudaRuntime.h"
#endif
#include "runtime/Interpreter/Interpreter.h"
#include "runtime/Interpreter/Npy.h"
#include "runtime/Interpreter/Samples.h"
#include "runtime/Interpreter/ValueFiles.h"
#include "support/AlignedInput.h"
#include "tools/init/InitAll.h"
#include "transforms/Codegen/CPU/CPUDescription.h"
#include "transforms/Codegen/CPU/CPUTarget.h"
#include "transforms/Decompose/Decompose.h"
#include "transforms/Passes.h"
#include "transforms/Specialize/BindInputShapes.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <sched.h>
#include <thread>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;
namespace cl = llvm::cl;

/// Only relay-run's own options are listed by --help (the LLVM and MLIR
/// ones linked in are still accepted).
static cl::OptionCategory category("relay-run options");
static cl::opt<std::string>
    inputFile(cl::Positional, cl::Required,
              cl::desc("<program .rly, .mlir or .onnx>"), cl::cat(category));
static cl::opt<bool>
    useInterpreter("interp", cl::desc("Run on the reference interpreter"),
                   cl::cat(category));
static cl::opt<std::string> entry("entry", cl::init("main"),
                                  cl::desc("The function to run"),
                                  cl::cat(category));
static cl::opt<bool> gradient(
    "gradient",
    cl::desc("Run the entry's gradient instead (--relay-gradient after "
             "inlining: first order where the entry is, else higher order "
             "then --relay-partial-eval): prints (value, (d/dx1, ...)), the "
             "result seeded by ones"),
    cl::cat(category));
static cl::list<std::string> inputs("input",
                                    cl::desc("An input (repeat, in parameter "
                                             "order): a .npy file, or for a "
                                             "tuple, list or option a "
                                             "directory of its entries "
                                             "(0.npy, 1.npy, ...; an option's "
                                             "holds none or one)"),
                                    cl::cat(category));
static cl::list<std::string> onnxInputShapes(
    "onnx-input-shape",
    cl::desc("The shape of an ONNX model's graph input whose dimensions the "
             "model leaves symbolic (a batch size), as NAME=D1xD2x... "
             "(repeat for more inputs; as relay-mlir-translate takes it): "
             "for --random-inputs, --samples or --emit-object, where no "
             "--input file gives the sizes"),
    cl::value_desc("NAME=1x3x224x224"), cl::cat(category));
static cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("The shape of an input whose dimensions the program leaves "
             "`?`, as NAME=D1xD2x...: a Relay entry's parameter (NAME its "
             "name without %, or its position from 0) or an ONNX model's "
             "graph input (as --onnx-input-shape); for --random-inputs and "
             "--emit-object, where no --input file gives the sizes"),
    cl::value_desc("NAME=2x16"), cl::cat(category));
static cl::opt<int64_t> randomInputs("random-inputs", cl::init(-1),
                                     cl::desc("Random inputs from this seed"),
                                     cl::cat(category));
static cl::opt<std::string> samplesDir(
    "samples",
    cl::desc("Run the entry once per sample of this directory and print "
             "each result after the sample's name: with one parameter each "
             ".npy file is a sample, with several each subdirectory, its "
             ".npy files (in name order) the arguments in order; --output "
             "then names a directory that gets NAME.npy for each"),
    cl::cat(category));
static cl::opt<std::string> output("output",
                                   cl::desc("Write the result to this .npy "
                                            "(a tuple to FILE.0.npy, "
                                            "FILE.1.npy, ...; a list or "
                                            "option to the directory FILE "
                                            "as --input reads them)"),
                                   cl::cat(category));
static cl::opt<std::string> interpOutput(
    "interp-output",
    cl::desc("Also run the program on the reference interpreter, after "
             "compiled code, and write the interpreter's result here as "
             "--output writes (to check compiled code against it in one "
             "process)"),
    cl::cat(category));
static cl::opt<unsigned> bench("bench", cl::init(0),
                               cl::desc("Time N runs, print the median"),
                               cl::cat(category));
static cl::opt<bool>
    summary("summary",
            cl::desc("Print tensors as their type, minimum, maximum, mean "
                     "and the index of the maximum instead of every value"),
            cl::cat(category));
static cl::opt<unsigned> numThreads(
    "num-threads", cl::init(0),
    cl::desc("Threads compiled code runs its parallel loops on (the JIT's "
             "code, or --emit-object's; default: every core this process "
             "may run on)"),
    cl::cat(category));
static cl::opt<std::string> cpuName(
    "cpu", cl::init("host"),
    cl::desc("The x86 CPU compiled code is for: host (this machine) or an "
             "LLVM CPU name (llc -mcpu=help lists them); its caches and "
             "vector ISA size the kernels. The JIT runs only code for a CPU "
             "whose features this machine has; --emit-object builds for "
             "any"),
    cl::cat(category));
static cl::opt<std::string> precision(
    "precision", cl::init("fp32"),
    cl::desc("The operands of convolutions and matrix products: fp32 (the "
             "default); bf16: rounded to bfloat16 and summed in float32 "
             "(--relay-to-mixed-precision), on AVX-512 BF16 where the CPU "
             "has it, with --interp too; tf32 (--target cuda): float32 "
             "products on tensor cores, their operands read as TF32 (10 "
             "bits of mantissa), summed in float32"),
    cl::cat(category));
static cl::opt<std::string> target(
    "target", cl::init("cpu"),
    cl::desc("The code generation target of compiled code: cpu (the x86 "
             "CPU's kernels), generic (linalg's target-neutral kernels, "
             "run on the CPU: slower, for comparison) or cuda (an NVIDIA "
             "GPU through --relay-to-nvvm; control flow stays on the "
             "CPU)"),
    cl::cat(category));
static cl::opt<int64_t> gpuThreadTile(
    "gpu-thread-tile", cl::init(4),
    cl::desc("--target cuda: results a thread of a product or convolution "
             "computes along each of two dimensions, at most (4, 2 or 1)"),
    cl::cat(category));
static cl::opt<RegionCompilation> compileRegions(
    "compile-regions", cl::init(RegionCompilation::Auto),
    cl::desc("Where native code does not cover the whole program, the "
             "interpreter runs it, calling compiled code for the regions "
             "native code covers (--relay-outline-native-regions), each "
             "compiled for the sizes it is called with"),
    cl::values(
        clEnumValN(RegionCompilation::Auto, "auto",
                   "those whose estimated interpretation time over the runs "
                   "made (samples, --bench) exceeds their estimated "
                   "compilation time (the default)"),
        clEnumValN(RegionCompilation::All, "all", "every region"),
        clEnumValN(RegionCompilation::None, "none",
                   "none: the interpreter runs everything")),
    cl::cat(category));
static cl::opt<bool> profileRuns(
    "profile",
    cl::desc("Where the time goes: after the runs, print the time of each "
             "operator the interpreter ran and each native region it called "
             "(per run: of the --bench runs when given, else of every run, a "
             "region's first call including its compilation); for a program "
             "compiled whole, the time of its loop nests by operator, or "
             "with --target cuda each kernel's device time; on stderr"),
    cl::cat(category));
static cl::opt<bool> timing(
    "timing",
    cl::desc("Print each phase as it starts and, at the end, the time of "
             "each (import, type inference, every pass of the lowering, "
             "machine code, the run) on stderr"),
    cl::cat(category));
static cl::opt<int64_t> gpuSharedTile(
    "gpu-shared-tile", cl::init(0),
    cl::desc("--target cuda: results a thread computes along each side of "
             "a product or convolution staged through shared memory (8, 4, "
             "0: by its size; -1: none staged)"),
    cl::cat(category));
static cl::opt<unsigned>
    optLevel("O", cl::Prefix, cl::init(3),
             cl::desc("Relay's optimisation level, -O0 to -O3 (default -O3, "
                      "the fastest): --relay-optimize's levels; at -O0 each "
                      "operator is its own kernel"),
             cl::cat(category));
static cl::list<std::string>
    disabledPasses("disable-pass",
                   cl::desc("A pass of --relay-optimize not to run, by "
                            "TVM's name or its flag (repeat for more)"),
                   cl::cat(category));
static cl::list<std::string>
    requiredPasses("require-pass",
                   cl::desc("A pass of --relay-optimize to run whatever the "
                            "-O level (repeat for more)"),
                   cl::cat(category));
static cl::opt<std::string>
    emitObject("emit-object",
               cl::desc("Compile ahead of time into this object file (and "
                        "a C header, see --emit-header) instead of running"),
               cl::cat(category));
static cl::opt<std::string>
    emitHeader("emit-header",
               cl::desc("The C header for --emit-object (default: the "
                        "object's path with .h)"),
               cl::cat(category));

/// --summary: tensors as `tensor<1x1000xf32> min .. max .. mean .. argmax
/// ..`, tuples field by field, scalars and other values as usual.
static void printSummary(raw_ostream &os, const ValuePtr &value) {
  if (value->isTensor() && value->getTensor().getRank() > 0) {
    const Tensor &t = value->getTensor();
    os << t.getType();
    int64_t n = t.getNumElements();
    if (n == 0)
      return;
    double lo = t.getF(0), hi = t.getF(0), sum = 0;
    int64_t argmax = 0;
    for (int64_t i = 0; i < n; ++i) {
      double v = t.getF(i);
      lo = std::min(lo, v);
      if (v > hi) {
        hi = v;
        argmax = i;
      }
      sum += v;
    }
    os << " min " << llvm::format("%g", lo) << " max " << llvm::format("%g", hi)
       << " mean " << llvm::format("%g", sum / n) << " argmax " << argmax;
    return;
  }
  if (value->getKind() == RuntimeValue::Kind::Tuple) {
    os << "(";
    for (auto [i, field] : llvm::enumerate(value->getFields())) {
      os << (i ? ", " : "");
      printSummary(os, field);
    }
    os << ")";
    return;
  }
  printValue(os, value);
}

/// The cores this process may run on (its affinity mask, as PyTorch and
/// ONNX Runtime count them), at least one.
static int64_t allowedCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0)
    return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

static int fail(const Twine &message) {
  llvm::errs() << "relay-run: error: " << message << "\n";
  return 1;
}

/// The types --input-shape gives the parameters of the entry `func` of a
/// Relay program (`shapes` by parameter name or position): a named
/// parameter becomes a tensor of that shape and its dtype where its rank
/// and static sizes allow it; the others keep their types. Fails, reported,
/// on a name the entry does not have or a shape its parameter cannot take.
static FailureOr<SmallVector<Type>>
parameterTypesFromShapes(FuncOp func,
                         const llvm::StringMap<SmallVector<int64_t>> &shapes) {
  Block &body = func.getBody().front();
  SmallVector<Type> types(body.getArgumentTypes());
  SmallVector<std::string> names;
  for (BlockArgument arg : body.getArguments()) {
    auto name = dyn_cast<NameLoc>(arg.getLoc());
    names.push_back(name ? name.getName().str()
                         : std::to_string(arg.getArgNumber()));
  }
  for (const auto &[given, shape] : shapes) {
    std::string key = given.str();
    if (StringRef(key).starts_with("%"))
      key = key.substr(1);
    auto *it = llvm::find(names, key);
    unsigned position;
    if (it == names.end() && !StringRef(key).getAsInteger(10, position) &&
        position < types.size())
      it = names.begin() + position;
    if (it == names.end()) {
      InFlightDiagnostic diag = func.emitError()
                                << "--input-shape: @" << func.getSymName()
                                << " has no parameter '" << key
                                << "' (its parameters: ";
      llvm::interleaveComma(names, diag);
      diag << ")";
      return failure();
    }
    int64_t i = it - names.begin();
    auto tensor = dyn_cast<RankedTensorType>(types[i]);
    bool fits = tensor && tensor.getRank() == int64_t(shape.size());
    for (int64_t d = 0; fits && d < tensor.getRank(); ++d)
      fits = tensor.isDynamicDim(d) || tensor.getDimSize(d) == shape[d];
    if (!fits) {
      InFlightDiagnostic diag = emitError(body.getArgument(i).getLoc())
                                << "--input-shape: parameter '" << names[i]
                                << "' of @" << func.getSymName() << " is "
                                << types[i] << ", which a tensor of "
                                << "shape [";
      llvm::interleaveComma(shape, diag);
      diag << "] is not";
      return failure();
    }
    types[i] = RankedTensorType::get(shape, tensor.getElementType());
  }
  return types;
}

/// One line of a compiled program's profile: a kernel or an operator's
/// loop nests, their calls and milliseconds over the profiled runs.
struct ProfileRow {
  std::string name;
  int64_t calls;
  double milliseconds;
};

/// Starts (or restarts) timing compiled code: the kernels of --target cuda
/// on the device, or the loop nests compiled with their profile.
static void startCompiledProfile(bool gpu) {
  if (!gpu) {
    relay_rt_profile_reset();
    return;
  }
#ifdef RELAY_MLIR_ENABLE_CUDA
  relay_cuda_profile_start();
#endif
}

/// Prints the profile since startCompiledProfile per run, the most costly
/// first, and the sum; for the GPU, the host-timed copies and fills after
/// the kernels.
static void printCompiledProfile(raw_ostream &os, bool gpu, int64_t runs,
                                 bool bench) {
  std::vector<ProfileRow> rows;
  auto collect = [](const char *name, int64_t calls, double milliseconds,
                    void *context) {
    static_cast<std::vector<ProfileRow> *>(context)->push_back(
        {name, calls, milliseconds});
  };
  if (!gpu)
    relay_rt_profile_report(collect, &rows);
#ifdef RELAY_MLIR_ENABLE_CUDA
  else
    relay_cuda_profile_stop(collect, &rows);
#endif
  runs = std::max<int64_t>(runs, 1);
  auto isTransfer = [&](const ProfileRow &row) {
    return gpu && row.name.front() == '(';
  };
  std::sort(rows.begin(), rows.end(),
            [&](const ProfileRow &a, const ProfileRow &b) {
              return std::make_tuple(isTransfer(a), -a.milliseconds, a.name) <
                     std::make_tuple(isTransfer(b), -b.milliseconds, b.name);
            });
  double total = 0;
  int64_t calls = 0;
  for (const ProfileRow &row : rows)
    if (!isTransfer(row)) {
      total += row.milliseconds;
      calls += row.calls;
    }
  std::string of = (" (of " + Twine(runs) + (bench ? " --bench" : "") + " run" +
                    (runs == 1 ? "" : "s"))
                       .str();
  if (gpu)
    os << "relay-run: device time of the kernels, per run" << of
       << "; copies and fills on the host clock):\n";
  else
    os << "relay-run: time of the compiled loop nests by operator, per run"
       << of << "):\n";
  os << llvm::format("  %10s %9s %6s  %s\n", "ms", gpu ? "launches" : "calls",
                     "share", gpu ? "kernel" : "operator");
  for (const ProfileRow &row : rows)
    os << llvm::format(
        "  %10.4f %9.1f %5.1f%%  %s\n", row.milliseconds / runs,
        double(row.calls) / runs,
        isTransfer(row) || total <= 0 ? 0.0 : 100.0 * row.milliseconds / total,
        row.name.c_str());
  os << llvm::format(gpu ? "kernels: %.4f ms per run in %.1f launches\n"
                         : "loop nests: %.4f ms per run in %.1f calls\n",
                     total / runs, double(calls) / runs);
}

/// A random tensor of `type`: floats uniform in [-1, 1), integers in
/// [0, 10), bools fair.
static FailureOr<ValuePtr> randomValue(Type type, std::mt19937_64 &rng) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (tensor && tensor.hasStaticShape()) {
    Tensor t(tensor.getElementType(), tensor.getShape());
    std::uniform_real_distribution<double> real(-1.0, 1.0);
    std::uniform_int_distribution<int64_t> integer(0, 9);
    for (int64_t k = 0; k < t.getNumElements(); ++k) {
      if (t.isFloat())
        t.setF(k, real(rng));
      else if (tensor.getElementType().isInteger(1))
        t.setI(k, integer(rng) % 2);
      else
        t.setI(k, integer(rng));
    }
    return RuntimeValue::tensor(std::move(t));
  }
  if (auto tuple = dyn_cast<TupleType>(type)) {
    std::vector<ValuePtr> fields;
    for (Type t : tuple.getTypes()) {
      FailureOr<ValuePtr> f = randomValue(t, rng);
      if (failed(f))
        return failure();
      fields.push_back(*f);
    }
    return RuntimeValue::tuple(std::move(fields));
  }
  return failure();
}

/// --interp-output: `module` (the program before compiled code's passes)
/// decomposed, narrowed to `precision` and optimised as --interp runs it,
/// then run on `inputFiles` (read against this module: a list's or an
/// option's constructors are its own) or, without them, on `args` (random
/// tensors).
static FailureOr<ValuePtr> runOnInterpreter(ModuleOp module, StringRef entry,
                                            const OptimizeOptions &optimize,
                                            StringRef precision,
                                            ArrayRef<ValueFile> inputFiles,
                                            ArrayRef<ValuePtr> args) {
  PassManager pm(module.getContext());
  DecomposeOptions decomposeOptions;
  decomposeOptions.keepOps.assign(getSortingOperators().begin(),
                                  getSortingOperators().end());
  pm.addPass(createDecompose(decomposeOptions));
  if (precision == "bf16")
    pm.addPass(createToMixedPrecision());
  buildOptimizePipeline(pm, optimize);
  if (failed(pm.run(module)))
    return failure();
  auto func = module.lookupSymbol<FuncOp>(entry);
  if (!func)
    return module.emitError() << "--interp-output: the program has no "
                                 "function @"
                              << entry;
  std::vector<ValuePtr> read;
  if (!inputFiles.empty()) {
    Block &body = func.getBody().front();
    for (auto [i, pair] :
         llvm::enumerate(llvm::zip(inputFiles, body.getArguments()))) {
      auto [file, arg] = pair;
      FailureOr<ValuePtr> v = valueFromFile(file, arg.getType(), module,
                                            arg.getLoc(), "input #" + Twine(i));
      if (failed(v))
        return failure();
      read.push_back(*v);
    }
    args = read;
  }
  Interpreter interpreter(module);
  return interpreter.call(func, args);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "relay-run: run a Relay program\n");

  registerCPULoweringTarget();
  if (target != "cuda" && !lookupLoweringTarget(target))
    return fail("unknown --target '" + target + "' (" +
                llvm::join(getLoweringTargetNames(), ", ") + ", cuda)");
  if (numThreads.getNumOccurrences() && numThreads == 0)
    return fail("--num-threads 0: at least one thread runs the code");
  std::string cpuError;
  FailureOr<cpu::CPUDescription> targetCPU = cpu::lookupCPU(cpuName, cpuError);
  if (failed(targetCPU))
    return fail("--cpu: " + cpuError);
  // The JIT runs what it compiles here: a CPU with instructions this one
  // lacks is for --emit-object only.
  if (std::string missing; emitObject.empty() && !useInterpreter &&
                           !cpu::runsOnHost(*targetCPU, missing))
    return fail("--cpu " + cpuName + ": this machine lacks " + missing +
                ", which code for it uses; build an object for it with "
                "--emit-object, or run here with --cpu host");
  CompileOptions compileOptions;
  compileOptions.threads =
      numThreads.getNumOccurrences() ? int64_t(numThreads) : allowedCores();
  compileOptions.cpu = cpuName;
  if (std::string error = checkPrecision(target, precision); !error.empty())
    return fail("--" + error);
  if (precision == "tf32" && useInterpreter)
    return fail("--precision tf32 is for the GPU's tensor cores; --interp "
                "computes float32");
  compileOptions.precision = precision;
  compileOptions.target = target;
  compileOptions.gpuThreadTile = gpuThreadTile;
  compileOptions.gpuSharedTile = gpuSharedTile;
  // The GPU's kernels start from the target-neutral ones.
  compileOptions.optimize.target =
      compileOptions.isGPU() ? std::string("generic") : target.getValue();
  compileOptions.optimize.optLevel = optLevel;
  compileOptions.optimize.disabledPasses.assign(disabledPasses.begin(),
                                                disabledPasses.end());
  compileOptions.optimize.requiredPasses.assign(requiredPasses.begin(),
                                                requiredPasses.end());
  compileOptions.optimize.entryFunctions.push_back(entry);
  if (optLevel > 3)
    return fail("-O" + Twine(optLevel.getValue()) +
                ": the levels are -O0 to -O3");
  if (!interpOutput.empty() && (useInterpreter || gradient ||
                                !samplesDir.empty() || !emitObject.empty()))
    return fail("--interp-output runs the interpreter beside compiled code "
                "on one input: not with --interp, --gradient, --samples or "
                "--emit-object");
  for (auto [flag, names] : {std::pair("--disable-pass", &disabledPasses),
                             std::pair("--require-pass", &requiredPasses)})
    for (const std::string &name : *names)
      if (!isOptimizationName(name))
        return fail(Twine(flag) + ": unknown pass '" + name +
                    "' (known: " + getOptimizationNames() + ")");

  // --timing: MLIR's timing report (printed when `timer` goes), each phase
  // announced as it starts.
  DefaultTimingManager timer;
  timer.setEnabled(timing);
  TimingScope rootTiming = timer.getRootScope();
  TimingScope phaseTiming;
  auto phase = [&](StringRef name) {
    phaseTiming.stop();
    if (!timing)
      return;
    llvm::errs() << "relay-run: " << name << "\n";
    phaseTiming = rootTiming.nest(name);
  };

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Errors point at the user's source; the generic IR of the op would only
  // be noise for a Relay user.
  context.printOpOnDiagnostic(false);

  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  SourceMgrDiagnosticHandler diagnostics(*sourceMgr, &context);
  std::string openError;
  // Aligned as MLIR bytecode's sections (its weights) require.
  auto buffer = relay::openAlignedInputFile(inputFile, &openError);
  if (!buffer)
    return fail(openError);
  sourceMgr->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());

  // The --input files are read before the program: an ONNX model's inputs
  // whose dimensions it leaves symbolic (a batch size) take their shapes.
  // (A directory is a tuple, list or option: ValueFiles.h.)
  std::vector<ValueFile> inputFiles;
  for (const std::string &file : inputs) {
    std::string error;
    FailureOr<ValueFile> read = readValueFile(&context, file, error);
    if (failed(read))
      return fail(error);
    inputFiles.push_back(std::move(*read));
  }

  StringRef path = inputFile;
  OwningOpRef<ModuleOp> module;
  phase("Import");
  if (path.ends_with(".rly")) {
    module = text::importRelayText(*sourceMgr, &context);
  } else if (path.ends_with(".mlir") || path.ends_with(".mlirbc")) {
    // (MLIR text or bytecode, as relay-mlir-translate --emit-bytecode writes.)
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  } else if (path.ends_with(".onnx")) {
    const llvm::MemoryBuffer *bytes =
        sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID());
    onnx_import::OnnxImportOptions options;
    for (const ValueFile &file : inputFiles)
      options.inputShapesInOrder.push_back(file.firstShape());
    // With --samples, the first sample's arguments give the sizes (the
    // samples are read once the parameters' types are known).
    if (inputFiles.empty() && !samplesDir.empty())
      for (const std::string &file : firstSampleArguments(samplesDir)) {
        std::string error;
        FailureOr<ValueFile> read = readValueFile(&context, file, error);
        if (failed(read))
          break; // reported when the samples are read
        options.inputShapesInOrder.push_back(read->firstShape());
      }
    for (const std::string &spec : onnxInputShapes)
      if (std::string error = onnx_import::parseOnnxInputShape(spec, options);
          !error.empty())
        return fail("--onnx-input-shape: " + error);
    for (const std::string &spec : inputShapes)
      if (std::string error = onnx_import::parseOnnxInputShape(spec, options);
          !error.empty())
        return fail("--input-shape: " + error);
    module = onnx_import::importOnnxModel(bytes->getBuffer(), inputFile,
                                          &context, options);
  } else {
    return fail("'" + inputFile +
                "' is neither a .rly, a .mlir (.mlirbc) nor a .onnx program");
  }
  if (!onnxInputShapes.empty() && !path.ends_with(".onnx"))
    return fail("--onnx-input-shape sizes an ONNX model's inputs; '" +
                inputFile +
                "' is not a .onnx model (--input-shape sizes a "
                "Relay program's parameters)");
  // --input-shape of a Relay program: the entry's parameters by name (the
  // ONNX importer took them above), in the NAME=D1xD2 form the importer
  // parses.
  onnx_import::OnnxImportOptions parameterShapes;
  if (!path.ends_with(".onnx"))
    for (const std::string &spec : inputShapes)
      if (std::string error =
              onnx_import::parseOnnxInputShape(spec, parameterShapes);
          !error.empty())
        return fail("--input-shape: " + error);
  if (!inputShapes.empty() && (!inputs.empty() || !samplesDir.empty()))
    return fail("--input-shape sizes the inputs of --random-inputs and "
                "--emit-object; --input files and --samples give their own");
  if (!module)
    return 1;

  // Type-check (and fill in what the program leaves out).
  phase("Type inference");
  PassManager pm(&context);
  if (timing)
    pm.enableTiming(phaseTiming);
  pm.addPass(createInferTypes());
  if (failed(pm.run(*module)))
    return 1;
  // --interp-output: the program as the interpreter runs it.
  OwningOpRef<ModuleOp> interpModule;
  auto entryFunc = module->lookupSymbol<FuncOp>(entry);
  // The types of the entry's inputs where the --input files or
  // --input-shape give them (empty otherwise).
  SmallVector<Type> inputTypes;
  if (!inputFiles.empty() && entryFunc &&
      entryFunc.getBody().getNumArguments() == inputFiles.size()) {
    for (auto [file, param] :
         llvm::zip(inputFiles, entryFunc.getBody().getArgumentTypes())) {
      inputTypes.push_back(valueFileType(file, param));
      // (A mismatch is reported where the inputs are read below.)
      if (!inputTypes.back())
        inputTypes.back() = param;
    }
  } else if (!parameterShapes.inputShapes.empty() && entryFunc) {
    FailureOr<SmallVector<Type>> types =
        parameterTypesFromShapes(entryFunc, parameterShapes.inputShapes);
    if (failed(types))
      return 1;
    inputTypes = std::move(*types);
  }
  if (!inputTypes.empty()) {
    // A polymorphic entry (over a ShapeVar `n`, a type `A`) is called
    // through a monomorphic one taking the inputs' types.
    if (entryFunc.isPolymorphic()) {
      module = instantiateEntry(*module, entry, inputTypes);
      if (!module)
        return 1;
    }
    // (The interpreter's copy keeps the program's own parameter types.)
    if (!interpOutput.empty())
      interpModule = module->clone();
    // Native code is for static shapes: `?` parameters take the inputs'.
    if (!useInterpreter)
      if (OwningOpRef<ModuleOp> bound =
              bindInputShapes(*module, entry, inputTypes))
        module = std::move(bound);
  }
  if (!interpOutput.empty() && !interpModule)
    interpModule = module->clone();
  // Composite operators become primitive ones (the interpreter and the
  // compiler implement those).
  PassManager decompose(&context);
  if (timing)
    decompose.enableTiming(phaseTiming);
  // The interpreter sorts (topk, argsort, sort) with its kernels; native
  // compilation decomposes them into sorting networks in its pipeline.
  DecomposeOptions decomposeOptions;
  decomposeOptions.keepOps.assign(getSortingOperators().begin(),
                                  getSortingOperators().end());
  // Compiled code keeps what the lowering target computes whole (the
  // interpreter runs those by their decomposition where it meets them);
  // its kernels for those are float32 ones, so a narrower precision keeps
  // the decompositions, whose products it narrows.
  if (!useInterpreter && precision == "fp32")
    decomposeOptions.target = compileOptions.optimize.target;
  decompose.addPass(createDecompose(decomposeOptions));
  if (failed(decompose.run(*module)))
    return 1;
  if (gradient) {
    phase("Gradient");
    if (failed(differentiateEntry(*module, entry,
                                  timing ? &phaseTiming : nullptr)))
      return 1;
    entry = entry + "_grad";
    compileOptions.optimize.entryFunctions.assign({entry});
  }

  // The interpreter computes the products of the narrow operands as
  // compiled code does (compiled code narrows them in its pipeline, after
  // the optimisations).
  if (precision == "bf16" && useInterpreter) {
    PassManager mixedPm(&context);
    mixedPm.addPass(createToMixedPrecision());
    if (failed(mixedPm.run(*module)))
      return 1;
  }

  auto func = module->lookupSymbol<FuncOp>(entry);
  if (!func)
    return fail("the program has no function @" + entry);

  if (!emitObject.empty()) {
    // Results whose sizes constant shapes decide (dyn operators of
    // constants) are typed so: the header declares known sizes.
    if (OwningOpRef<ModuleOp> refined =
            refineEntryResults(*module, entry, compileOptions.optimize)) {
      module = std::move(refined);
      func = module->lookupSymbol<FuncOp>(entry);
    }
    // Ahead-of-time code is for static shapes: the --input files size the
    // `?` parameters (bound above), else say how to give them.
    for (BlockArgument arg : func.getBody().front().getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (type && !type.hasStaticShape()) {
        emitError(arg.getLoc())
            << "@" << entry << " takes a " << type
            << ": ahead-of-time code is for static shapes (give --input "
               "files of the sizes to compile it for, or --input-shape "
               "NAME=D1xD2...)";
        return 1;
      }
    }
    phase("Compile");
    compileOptions.timing = timing ? &phaseTiming : nullptr;
    std::string header = emitHeader;
    if (header.empty()) {
      SmallString<128> path(emitObject);
      llvm::sys::path::replace_extension(path, "h");
      header = std::string(path);
    }
    return failed(emitObjectAndHeader(*module, entry, emitObject, header,
                                      compileOptions));
  }
  // Compiled code that would allocate more than this machine's memory is an
  // error at the value here, not a null buffer at run time.
  if (!useInterpreter && failed(Executor::checkFitsInMemory(*module)))
    return 1;
  Block &body = func.getBody().front();
  unsigned numParams = body.getNumArguments();

  std::vector<ValuePtr> args;
  if (int given = !inputs.empty() + (randomInputs >= 0) + !samplesDir.empty();
      given > 1)
    return fail("give one of --input files, --random-inputs and --samples");
  std::vector<Sample> samples;
  if (!samplesDir.empty()) {
    if (bench > 0)
      return fail("--bench times one input: give --input files or "
                  "--random-inputs, not --samples");
    FailureOr<std::vector<Sample>> read =
        readSampleDirectory(samplesDir, body.getArgumentTypes(), *module,
                            func.getLoc(), "--samples");
    if (failed(read))
      return 1;
    samples = std::move(*read);
  } else if (randomInputs >= 0) {
    std::mt19937_64 rng(randomInputs);
    for (BlockArgument arg : body.getArguments()) {
      // (The interpreter's entry keeps `?` where --input-shape sized it.)
      Type type = inputTypes.size() == numParams
                      ? inputTypes[arg.getArgNumber()]
                      : arg.getType();
      // An input larger than memory is an error, not an abort in the
      // allocator.
      RankedTensorType tooLarge = findTensorType(type, [](RankedTensorType t) {
        std::optional<int64_t> bytes = interpreterBytes(t);
        return !bytes || *bytes > physicalMemoryBytes();
      });
      if (tooLarge) {
        emitError(arg.getLoc())
            << "cannot make a random input of type " << tooLarge
            << ": it needs more than this machine's memory ("
            << physicalMemoryBytes() << " bytes)";
        return 1;
      }
      FailureOr<ValuePtr> v = randomValue(type, rng);
      if (failed(v)) {
        emitError(arg.getLoc())
            << "cannot make a random input of type " << type
            << " (only tensors of static shape and tuples of them; "
               "--input-shape NAME=D1xD2... sizes a `?`)";
        return 1;
      }
      args.push_back(*v);
    }
  } else {
    if (inputs.size() != numParams)
      return fail("@" + entry + " takes " + Twine(numParams) + " inputs, got " +
                  Twine(inputs.size()) +
                  " (--input FILE.npy, in parameter order)");
    for (auto [i, pair] :
         llvm::enumerate(llvm::zip(inputFiles, body.getArguments()))) {
      auto [file, arg] = pair;
      FailureOr<ValuePtr> v = valueFromFile(file, arg.getType(), *module,
                                            arg.getLoc(), "input #" + Twine(i));
      if (failed(v))
        return 1;
      args.push_back(*v);
    }
  }
  // One run: the inputs given, or each sample.
  if (samples.empty())
    samples.push_back({"", std::move(args)});
  for (const Sample &sample : samples)
    for (auto [i, pair] :
         llvm::enumerate(llvm::zip(body.getArguments(), sample.args)))
      if (failed(Interpreter::checkArgument(
              std::get<1>(pair), std::get<0>(pair).getType(),
              std::get<0>(pair).getLoc(), "input #" + Twine(i))))
        return 1;

  // Compiled (the default) where native code covers the program, else the
  // interpreter, saying why.
  std::unique_ptr<Executor> executor;
  bool optimized = false; // the -O level's passes ran on `module`
  // The -O level's passes on `module` (unless they ran already), then with
  // `outline` the outlining of native regions.
  auto optimizeModule = [&](bool outline) {
    PassManager optimize(&context);
    if (timing)
      optimize.enableTiming(phaseTiming);
    if (!optimized)
      buildOptimizePipeline(optimize, compileOptions.optimize);
    if (outline)
      optimize.addPass(createOutlineNativeRegions());
    return optimize.run(*module);
  };
  if (!useInterpreter) {
    phase("Compile");
    compileOptions.timing = timing ? &phaseTiming : nullptr;
    // (The interpreter's profile times native regions by their calls.)
    compileOptions.profileLoopNests = profileRuns && !compileOptions.isGPU();
  }
  if (!useInterpreter && compileOptions.isGPU()) {
    // The GPU was asked for: what it cannot run is an error, located.
    FailureOr<std::unique_ptr<Executor>> compiled =
        Executor::compile(*module, entry, compileOptions);
    if (failed(compiled))
      return 1;
    executor = std::move(*compiled);
  } else if (!useInterpreter) {
    std::string why;
    // Native code takes and returns static shapes. An entry whose
    // signature has `?` sizes the -O level's passes do not resolve (a
    // detector's boxes) is not compiled whole: the passes run once here,
    // on the module the interpreter then runs, rather than in a compile
    // that would fail at the lowering after the same passes. (A `?`
    // result whose returned values the passes make static is refined by
    // the compiler: such programs compile.)
    auto unknownSizeIn = [](TypeRange types) -> Type {
      auto it = llvm::find_if(types, hasDynamicTensor);
      return it == types.end() ? Type() : *it;
    };
    auto unknownSizeOf = [&](FuncOp f) -> Type {
      if (Type t = unknownSizeIn(f.getArgumentTypes()))
        return t;
      for (Block &block : f.getBody())
        if (auto ret = dyn_cast<ReturnOp>(block.getTerminator()))
          if (Type t = unknownSizeIn(ret->getOperandTypes()))
            return t;
      return Type();
    };
    OwningOpRef<ModuleOp> unoptimized;
    if (unknownSizeOf(func)) {
      unoptimized = module->clone();
      if (failed(optimizeModule(/*outline=*/false)))
        return 1;
      optimized = true;
      if (Type offending = unknownSizeOf(func)) {
        llvm::raw_string_ostream os(why);
        os << "@" << entry << " takes or returns '" << offending
           << "' after the -O" << compileOptions.optimize.optLevel
           << " passes; native code takes and returns tensors of static "
              "shape";
      }
    }
    if (why.empty()) {
      ScopedDiagnosticHandler capture(&context, [&](Diagnostic &d) {
        if (why.empty() && d.getSeverity() == DiagnosticSeverity::Error)
          why = d.str();
        return success();
      });
      // The passes made the signature static: the compiler runs them in
      // its own pipeline, on the module as it was.
      FailureOr<std::unique_ptr<Executor>> compiled = Executor::compile(
          unoptimized ? *unoptimized : *module, entry, compileOptions);
      if (succeeded(compiled))
        executor = std::move(*compiled);
    }
    if (!executor && why.empty())
      why = "a pass of the lowering pipeline failed without saying why";
    if (!executor)
      llvm::errs() << "relay-run: note: running on the reference interpreter: "
                   << "native compilation does not cover this program yet ("
                   << why << ")"
                   << (compileRegions != RegionCompilation::None
                           ? "; the regions it covers run compiled"
                           : "")
                   << "\n";
  }
  // The interpreter runs the program as the -O level optimises it (compiled
  // code is optimised by its pipeline).
  // Where it was not asked for, the interpreter calls compiled code for
  // the regions native code covers.
  bool withRegions =
      !executor && !useInterpreter && compileRegions != RegionCompilation::None;
  if (!executor && (!optimized || withRegions) &&
      failed(optimizeModule(/*outline=*/withRegions)))
    return 1;
  phase(executor ? "Run" : "Run (interpreter)");
  Interpreter interpreter(*module);
  std::optional<NativeRegions> regions;
  if (withRegions) {
    NativeRegionOptions regionOptions;
    regionOptions.compile = compileOptions;
    regionOptions.compile.profileLoopNests = false;
    regionOptions.compile.timing = timing ? &phaseTiming : nullptr;
    regionOptions.when = compileRegions;
    regionOptions.runs = static_cast<int64_t>(samples.size()) + bench;
    regionOptions.notes = &llvm::errs();
    regionOptions.reportCompiles = timing;
    regions.emplace(*module, regionOptions);
    interpreter.setRegionRunner([&](FuncOp region, ArrayRef<ValuePtr> args) {
      return regions->call(region, args);
    });
  }
  auto runOn = [&](const std::vector<ValuePtr> &args) {
    return executor ? executor->call(args) : interpreter.call(func, args);
  };
  Profile profile;
  // Compiled whole, --profile times the loop nests (compiled with their
  // profile) or with --target cuda the kernels on the device.
  bool profileCompiled = profileRuns && executor;
  if (profileRuns && !executor)
    interpreter.setProfile(&profile);
  else if (profileCompiled)
    startCompiledProfile(compileOptions.isGPU());
  if (!samplesDir.empty() && !output.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(output))
      return fail("cannot make the --output directory '" + output +
                  "': " + ec.message());
  for (const Sample &sample : samples) {
    FailureOr<ValuePtr> result = runOn(sample.args);
    if (failed(result))
      return 1;
    if (!samplesDir.empty())
      llvm::outs() << sample.name << ": ";
    if (summary)
      printSummary(llvm::outs(), *result);
    else
      printValue(llvm::outs(), *result);
    llvm::outs() << "\n";
    if (output.empty())
      continue;
    std::string path = output;
    if (!samplesDir.empty()) {
      SmallString<128> joined(output);
      llvm::sys::path::append(joined, sample.name + ".npy");
      path = std::string(joined);
    }
    if (std::string error; failed(writeValueFile(*result, path, error)))
      return fail(error);
  }

  if (interpModule) {
    phase("Run (interpreter, --interp-output)");
    FailureOr<ValuePtr> result =
        runOnInterpreter(*interpModule, entry, compileOptions.optimize,
                         precision, inputFiles, samples.front().args);
    if (failed(result))
      return 1;
    if (std::string error; failed(writeValueFile(*result, interpOutput, error)))
      return fail(error);
  }

  if (regions && timing)
    llvm::errs() << "relay-run: note: " << regions->getNumCompiled()
                 << " region instances compiled in "
                 << llvm::format("%.2f", regions->getCompileSeconds())
                 << " s\n";

  int64_t profiledRuns = samples.size();
  if (bench > 0) {
    phase("Benchmark");
    profile.clear();
    if (profileCompiled)
      startCompiledProfile(compileOptions.isGPU());
    profiledRuns = bench;
    // Compiled code is timed on ready native buffers (what an application
    // calling it pays), the interpreter on its values.
    // (Programs passing objects in or out are timed with their conversion.)
    bool native =
        executor && !executor->takesObjects() && !executor->returnsObjects();
    std::vector<std::vector<char>> buffers, results;
    SmallVector<const void *> pointers;
    if (native &&
        failed(executor->toNative(samples.front().args, buffers, pointers)))
      return 1;
    std::vector<double> times;
    for (unsigned i = 0; i < bench; ++i) {
      auto start = std::chrono::steady_clock::now();
      if (native ? failed(executor->callNative(pointers, results))
                 : failed(runOn(samples.front().args)))
        return 1;
      auto end = std::chrono::steady_clock::now();
      times.push_back(
          std::chrono::duration<double, std::milli>(end - start).count());
    }
    std::sort(times.begin(), times.end());
    double median =
        times.size() % 2
            ? times[times.size() / 2]
            : (times[times.size() / 2 - 1] + times[times.size() / 2]) / 2;
    llvm::outs() << "median: " << llvm::format("%.3f", median) << " ms\n";
  }
  if (profileCompiled)
    printCompiledProfile(llvm::errs(), compileOptions.isGPU(), profiledRuns,
                         bench > 0);
  if (profileRuns && !executor) {
    llvm::errs() << "relay-run: profile of " << profiledRuns
                 << (bench > 0 ? " --bench" : "") << " run"
                 << (profiledRuns == 1 ? "" : "s") << ":\n";
    profile.print(llvm::errs(), profiledRuns);
  }
  return 0;
}
