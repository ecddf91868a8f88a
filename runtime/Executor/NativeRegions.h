//===- NativeRegions.h - Compiled regions of interpreted programs -*- C++
//-*-===//
//
// What relay-run runs a program with where native code does not cover the
// whole of it: the interpreter, calling compiled code for the regions
// --relay-outline-native-regions outlined (Interpreter::setRegionRunner).
// A region is compiled (Executor) for the argument types of the call, its
// `?` sizes bound to the arguments' (bindInputShapes), and the code kept
// for later calls of those types. A region whose compilation would cost
// more time than it saves, whose sizes still depend on values, or which
// native code cannot compile after all, is interpreted (the last two with
// a note saying why, once per region). The first is reconsidered as it is
// called: a region in a loop (a recurrent layer's step over a sequence of
// any length) is compiled once interpreting it has cost, by the estimate,
// as much time as compiling it would (what a tiered JIT does).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_RUNTIME_EXECUTOR_NATIVEREGIONS_H
#define RELAY_MLIR_RUNTIME_EXECUTOR_NATIVEREGIONS_H

#include "dialects/relay/RelayOps.h"
#include "runtime/Executor/Executor.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace mlir::relay {

/// When a region is compiled.
enum class RegionCompilation {
  /// Where the estimated time of interpreting it over the expected runs
  /// exceeds the estimated time of compiling it (estimateRegionCost).
  Auto,
  /// Every region, for every argument types (up to maxInstances).
  All,
  /// None: the interpreter runs everything.
  None,
};

struct NativeRegionOptions {
  /// How regions are compiled (the -O level, threads, CPU).
  CompileOptions compile;
  RegionCompilation when = RegionCompilation::Auto;
  /// How many times the program is expected to run (relay-run: once per
  /// sample, plus --bench's runs): compiling pays off over them.
  int64_t runs = 1;
  /// The most argument types one region is compiled for; calls with others
  /// are interpreted.
  unsigned maxInstances = 8;
  /// Where notes (a region interpreted, and why) go; null for none.
  llvm::raw_ostream *notes = nullptr;
  /// Whether a note also says what was compiled, for which types, and how
  /// long it took (relay-run --timing).
  bool reportCompiles = false;
};

/// What a region costs: the multiply-adds of its products and
/// convolutions, the elements other operators give, and how many
/// operators (and contractions) it has, counting those of the functions it
/// calls (sizes that are `?` count as `unknownSize`).
struct RegionCost {
  double multiplyAdds = 0;
  double elements = 0;
  int64_t operators = 0;
  /// Of those, the convolutions and products (their kernels take longest
  /// to compile).
  int64_t contractions = 0;

  /// Estimated seconds of interpreting it once and of compiling it, from
  /// the interpreter's throughput and the lowering's time per operator
  /// measured on a Zen 4 (both scale alike with the CPU).
  double interpretSeconds() const;
  double compileSeconds() const;
  /// Estimated seconds a call of it compiled saves over interpreting it:
  /// its interpretation less a compiled call's own cost, mostly converting
  /// `convertedElements` (its arguments' and results') from and to the
  /// interpreter's values.
  double savedSecondsPerCall(double convertedElements) const;
};
RegionCost estimateRegionCost(ModuleOp module, FuncOp func,
                              int64_t unknownSize = 1);

class NativeRegions {
public:
  /// For the regions of `module`, which must outlive this.
  NativeRegions(ModuleOp module, NativeRegionOptions options);
  ~NativeRegions();

  /// Runs `region` on `args` compiled, compiling it for their types first;
  /// std::nullopt where it is to be interpreted. Fails after reporting an
  /// error of the compiled code at run time.
  std::optional<FailureOr<interp::ValuePtr>>
  call(FuncOp region, ArrayRef<interp::ValuePtr> args);

  /// How many instances were compiled, and how long that took.
  unsigned getNumCompiled() const { return numCompiled; }
  double getCompileSeconds() const { return compileSeconds; }

private:
  struct Instance {
    SmallVector<Type> argTypes;
    /// The module compiled (the executor refers to it).
    OwningOpRef<ModuleOp> module;
    /// Null: calls with these types are interpreted.
    std::unique_ptr<Executor> executor;
    /// Interpreted because compiling did not seem worth it: the estimated
    /// saving of each call compiled, the estimated cost of compiling
    /// (from the estimate at these sizes, or from the bound of
    /// isCheaplyInterpreted), and the calls interpreted so far (0 saving:
    /// never reconsidered).
    double savedPerCall = 0, compileCost = 0;
    bool estimated = false;
    int64_t interpretedCalls = 0;
  };
  /// `region` and the functions it calls in a module of their own, its `?`
  /// sizes bound to `argTypes`'; null (with a note) where its sizes do not
  /// all follow from them.
  OwningOpRef<ModuleOp> typedCopy(FuncOp region, ArrayRef<Type> argTypes);
  /// Sets `instance`'s estimates from `copy` (typedCopy's, decomposed
  /// here); fails where the decomposition does.
  LogicalResult estimate(ModuleOp copy, StringRef name, ArrayRef<Type> argTypes,
                         Instance &instance);
  /// With `force`, compiles whatever the estimates say.
  Instance compileInstance(FuncOp region, ArrayRef<Type> argTypes,
                           bool force = false);
  /// Whether `region`, called with arguments of `argTypes`, is too small
  /// for the estimate compileInstance makes (copying it, typing it at
  /// these sizes, decomposing it: about 3 ms, far more than interpreting a
  /// few small operators): without convolutions or products, its cost with
  /// each `?` size taken as the arguments' largest size is below the cost
  /// of compiling its operators as they are (decomposition only adds
  /// operators). A size a region computes beyond its arguments' (a
  /// concatenation) is the estimate's to see, not this bound's.
  /// On true, `instance` is deferred (savedPerCall and compileCost set).
  bool isCheaplyInterpreted(FuncOp region, ArrayRef<Type> argTypes,
                            Instance &instance);
  void note(FuncOp region, const Twine &why);

  ModuleOp module;
  NativeRegionOptions options;
  DenseMap<Operation *, std::vector<Instance>> instances;
  DenseSet<Operation *> noted;
  unsigned numCompiled = 0;
  double compileSeconds = 0;
};

} // namespace mlir::relay

#endif // RELAY_MLIR_RUNTIME_EXECUTOR_NATIVEREGIONS_H
