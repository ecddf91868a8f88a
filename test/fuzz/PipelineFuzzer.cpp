//===- PipelineFuzzer.cpp - libFuzzer target for the pass pipelines -------===//
//
// Turns the fuzzer's bytes into a well-typed Relay program
// (GraphProgramGenerator.h) and checks what every user of the optimiser
// relies on:
//
//  - the program imports and type-checks (else the generator is wrong);
//  - --relay-optimize at each of -O0..-O3 succeeds, leaves a module that
//    verifies, and the interpreter computes from it what it computes from
//    the unoptimised program (to 1e-4 of the largest magnitude: the passes
//    reassociate float arithmetic, nothing more);
//  - the -O3 module exports as Relay text that imports again;
//  - --relay-to-llvm at the -O level the bytes pick lowers it, and for one
//    program in four the JIT's code computes the interpreter's values.
//
// A failure prints the program, the stage and the diagnostics, then aborts,
// so libFuzzer keeps the input (RELAY_FUZZ_PRINT=1 prints every program). Only
// the generator is instrumented for coverage (the passes are the project's
// g++-built libraries): libFuzzer's guidance is over the program's structure.
//
//===----------------------------------------------------------------------===//

#include "GraphProgramGenerator.h"

#include "frontends/RelayText/Exporter.h"
#include "frontends/RelayText/Importer.h"
#include "runtime/Executor/Executor.h"
#include "runtime/Interpreter/Interpreter.h"
#include "tools/init/InitAll.h"
#include "transforms/Passes.h"
#include "transforms/Pipelines/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>

using namespace mlir;
using namespace mlir::relay;

namespace {
/// The relative difference optimised and unoptimised results may have.
constexpr double kTolerance = 1e-4;

struct Failure {
  const relay_fuzz::GraphProgram &program;
  std::string &diagnostics;

  [[noreturn]] void operator()(const Twine &stage, Operation *ir = nullptr) {
    llvm::errs() << "relay-pipeline-fuzzer: " << stage << "\n--- program\n"
                 << program.text << "--- diagnostics\n"
                 << diagnostics;
    if (ir)
      llvm::errs() << "--- IR\n" << *ir << "\n";
    llvm::errs().flush();
    std::abort();
  }
};

OwningOpRef<ModuleOp> importText(StringRef text, MLIRContext *context) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "generated.rly"),
      llvm::SMLoc());
  return text::importRelayText(sourceMgr, context);
}

/// Arguments for the parameters: values in [-1, 1] from a fixed sequence,
/// the flag true.
std::vector<interp::ValuePtr>
makeArguments(const relay_fuzz::GraphProgram &program, MLIRContext *context) {
  std::vector<interp::ValuePtr> args;
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (const relay_fuzz::Parameter &p : program.parameters) {
    if (p.isFlag) {
      interp::Tensor flag(IntegerType::get(context, 1), {});
      flag.setI(0, 1);
      args.push_back(interp::RuntimeValue::tensor(flag));
      continue;
    }
    interp::Tensor t(Float32Type::get(context), p.shape);
    for (int64_t i = 0; i < t.getNumElements(); ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      t.setF(i, double(state >> 40) / double(1 << 23) - 1.0);
    }
    args.push_back(interp::RuntimeValue::tensor(t));
  }
  return args;
}

/// The largest magnitude among `value`'s tensors.
double largest(const interp::ValuePtr &value) {
  double m = 0;
  if (value->isTensor()) {
    const interp::Tensor &t = value->getTensor();
    for (int64_t i = 0; i < t.getNumElements(); ++i)
      m = std::max(m, std::fabs(t.getF(i)));
    return m;
  }
  for (const interp::ValuePtr &field : value->getFields())
    m = std::max(m, largest(field));
  return m;
}

/// What differs between `actual` and `expected` beyond `tolerance`, or "".
std::string compare(const interp::ValuePtr &actual,
                    const interp::ValuePtr &expected, double tolerance) {
  if (actual->getKind() != expected->getKind())
    return "a different kind of value";
  if (!actual->isTensor()) {
    if (actual->getFields().size() != expected->getFields().size())
      return "tuples of different sizes";
    for (size_t i = 0; i < actual->getFields().size(); ++i) {
      std::string why =
          compare(actual->getFields()[i], expected->getFields()[i], tolerance);
      if (!why.empty())
        return "field " + std::to_string(i) + ": " + why;
    }
    return "";
  }
  const interp::Tensor &a = actual->getTensor(), &e = expected->getTensor();
  if (a.getShape() != e.getShape())
    return "a different shape";
  for (int64_t i = 0; i < a.getNumElements(); ++i)
    if (!(std::fabs(a.getF(i) - e.getF(i)) <= tolerance))
      return "element " + std::to_string(i) + ": " + std::to_string(a.getF(i)) +
             " instead of " + std::to_string(e.getF(i));
  return "";
}

FailureOr<interp::ValuePtr> interpret(ModuleOp module,
                                      ArrayRef<interp::ValuePtr> args) {
  interp::Interpreter interpreter(module);
  return interpreter.call("main", args);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  // A context keeps every type and attribute it made (the folded constants
  // of each program): a fresh one every 500 programs bounds the memory.
  static std::unique_ptr<MLIRContext> owner;
  static int programs = 0;
  if (!owner || ++programs % 500 == 0) {
    DialectRegistry registry;
    registerAllDialects(registry);
    owner = std::make_unique<MLIRContext>(registry,
                                          MLIRContext::Threading::DISABLED);
    owner->loadAllAvailableDialects();
  }
  MLIRContext *context = owner.get();
  FuzzedDataProvider data(bytes, size);
  relay_fuzz::GraphProgram program = relay_fuzz::generateGraphProgram(data);
  int loweredLevel = data.ConsumeIntegralInRange<int>(0, 3);
  // One program in four is compiled (JIT) and run, the others only lowered:
  // generating machine code costs ten times the rest.
  // (Past the end of the bytes, every choice is 0: not compiled.)
  bool compileAndRun = data.ConsumeIntegralInRange<int>(0, 3) == 3;
  // `RELAY_FUZZ_PRINT=1 relay-pipeline-fuzzer FILE` shows FILE's program.
  static const bool print = std::getenv("RELAY_FUZZ_PRINT");
  if (print)
    llvm::outs() << program.text << "// "
                 << (compileAndRun ? "compiled and run" : "lowered") << " at -O"
                 << loweredLevel << "\n";

  std::string diagnostics;
  ScopedDiagnosticHandler collect(context, [&](Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return success();
  });
  Failure fail{program, diagnostics};

  OwningOpRef<ModuleOp> module = importText(program.text, context);
  if (!module)
    fail("the generated program does not import");
  {
    // As relay-run: composite operators (cumsum) become the primitive ones
    // the interpreter and the lowering implement.
    PassManager pm(context);
    pm.addPass(createInferTypes());
    pm.addPass(createDecompose());
    if (failed(pm.run(*module)))
      fail("the generated program does not type-check");
  }
  std::vector<interp::ValuePtr> args = makeArguments(program, context);
  FailureOr<interp::ValuePtr> expected = interpret(*module, args);
  if (failed(expected))
    fail("the interpreter fails on the generated program");
  double tolerance = kTolerance * std::max(1.0, largest(*expected));

  for (int level = 0; level <= 3; ++level) {
    std::string at = "-O" + std::to_string(level);
    OwningOpRef<ModuleOp> optimized = module->clone();
    OptimizeOptions options;
    options.optLevel = level;
    PassManager pm(context);
    buildOptimizePipeline(pm, options);
    if (failed(pm.run(*optimized)))
      fail("--relay-optimize " + at + " failed");
    if (failed(verify(*optimized)))
      fail("--relay-optimize " + at + " left a module that does not verify",
           *optimized);
    FailureOr<interp::ValuePtr> actual = interpret(*optimized, args);
    if (failed(actual))
      fail("the interpreter fails on the program optimised at " + at,
           *optimized);
    std::string why = compare(*actual, *expected, tolerance);
    if (!why.empty())
      fail("optimised at " + at +
               ", the program computes another value: " + why,
           *optimized);
    if (level == 3) {
      std::string exported;
      llvm::raw_string_ostream os(exported);
      if (failed(text::exportRelayText(*optimized, os)))
        fail("the -O3 module does not export as Relay text", *optimized);
      if (!importText(exported, context))
        fail("the -O3 module's Relay text does not import again:\n" + exported,
             *optimized);
    }
  }

  CompileOptions options;
  options.optimize.optLevel = loweredLevel;
  std::string at = "-O" + std::to_string(loweredLevel);
  if (!compileAndRun) {
    if (!lowerCopyToLLVM(*module, options))
      fail("--relay-to-llvm at " + at + " failed");
    return 0;
  }
  FailureOr<std::unique_ptr<Executor>> executor =
      Executor::compile(*module, "main", options);
  if (failed(executor))
    fail("the program does not compile at " + at);
  FailureOr<interp::ValuePtr> actual = (*executor)->call(args);
  if (failed(actual))
    fail("the program compiled at " + at + " fails");
  std::string why = compare(*actual, *expected, tolerance);
  if (!why.empty())
    fail("compiled at " + at + ", the program computes another value: " + why);
  return 0;
}
