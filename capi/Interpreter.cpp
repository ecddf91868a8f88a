//===- Interpreter.cpp - C API: run a module on the interpreter -*- C++ -*-===//

#include "capi/Interpreter.h"
#include "capi/Internal/CompileOptions.h"

#include "dialects/relay/RelayOps.h"
#include "runtime/Executor/NativeRegions.h"
#include "runtime/Interpreter/Interpreter.h"
#include "runtime/Interpreter/TensorBytes.h"
#include "runtime/Interpreter/ValueFiles.h"
#include "transforms/Decompose/Decompose.h"
#include "transforms/Passes.h"
#include "transforms/Pipelines/Pipelines.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

namespace {
/// What a results handle holds: each tensor's type and bytes.
struct Results {
  SmallVector<RankedTensorType> types;
  std::vector<std::vector<char>> data;
};
} // namespace

static Results *unwrap(MlirRelayResults results) {
  return static_cast<Results *>(results.ptr);
}

/// The argument for a parameter of type `type` from the flat inputs from
/// `next` on (a list or option: an int64 count, then its elements); null
/// (reported at `loc`) when they do not fit it.
static ValuePtr buildArgument(ModuleOp module, Type type, ArrayRef<Type> types,
                              const void *const *inputs, size_t &next,
                              Location loc, unsigned param) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    std::vector<ValuePtr> fields;
    for (Type field : tuple.getTypes()) {
      ValuePtr v =
          buildArgument(module, field, types, inputs, next, loc, param);
      if (!v)
        return nullptr;
      fields.push_back(std::move(v));
    }
    return RuntimeValue::tuple(std::move(fields));
  }
  auto given = next < types.size() ? dyn_cast<RankedTensorType>(types[next])
                                   : RankedTensorType();
  if (AdtType adt = getListOrOption(type)) {
    bool option = adt.getName() == "Option";
    auto i64 = IntegerType::get(type.getContext(), 64);
    if (!given || given.getElementType() != i64 || !given.hasStaticShape() ||
        given.getNumElements() != 1) {
      emitError(loc) << "parameter #" << param << " (" << type
                     << "): a list or option is given as an int64 count, "
                        "then its elements";
      return nullptr;
    }
    int64_t count = *static_cast<const int64_t *>(inputs[next++]);
    if (count < 0 || (option && count > 1) ||
        count > static_cast<int64_t>(types.size() - next)) {
      emitError(loc) << "parameter #" << param << " (" << type
                     << "): a count of " << count << " elements does not fit "
                     << (option ? "an option (0 or 1)" : "the inputs given");
      return nullptr;
    }
    std::vector<ValuePtr> elements;
    for (int64_t i = 0; i < count; ++i) {
      ValuePtr v = buildArgument(module, adt.getArgs().front(), types, inputs,
                                 next, loc, param);
      if (!v)
        return nullptr;
      elements.push_back(std::move(v));
    }
    ValuePtr value = makeListOrOption(module, adt, elements);
    if (!value)
      emitError(loc) << "parameter #" << param << " (" << type
                     << "): the program does not define its constructors";
    return value;
  }
  if (!isa<RankedTensorType>(type) || !given || !given.hasStaticShape()) {
    emitError(loc) << "parameter #" << param << " (" << type
                   << "): the interpreter's C API takes tensors, and tuples, "
                      "lists and options of them, given as static tensor "
                      "types and buffers";
    return nullptr;
  }
  Tensor t = tensorFromBytes(given, static_cast<const char *>(inputs[next]));
  ++next;
  return RuntimeValue::tensor(std::move(t));
}

/// Appends the tensors of `value` to `results` (a list or option as a 0-d
/// int64 count, then its elements); fails on anything else.
static LogicalResult flatten(const ValuePtr &value, Results &results) {
  if (value->getKind() == RuntimeValue::Kind::Tuple) {
    for (const ValuePtr &field : value->getFields())
      if (failed(flatten(field, results)))
        return failure();
    return success();
  }
  if (std::optional<std::vector<ValuePtr>> elements =
          getListOrOptionElements(value)) {
    int64_t count = elements->size();
    results.types.push_back(RankedTensorType::get(
        {}, IntegerType::get(cast<CtorOp>(value->getConstructor()).getContext(),
                             64)));
    results.data.emplace_back(reinterpret_cast<const char *>(&count),
                              reinterpret_cast<const char *>(&count + 1));
    for (const ValuePtr &element : *elements)
      if (failed(flatten(element, results)))
        return failure();
    return success();
  }
  if (!value->isTensor())
    return failure();
  results.types.push_back(value->getTensor().getType());
  results.data.push_back(tensorBytes(value->getTensor()));
  return success();
}

/// The tensors of a value of `type` with its tuples flattened; none for a
/// type holding a list or option (their counts are known at run time).
static std::optional<int64_t> countLeaves(Type type) {
  if (getListOrOption(type))
    return std::nullopt;
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple)
    return 1;
  int64_t n = 0;
  for (Type field : tuple.getTypes()) {
    std::optional<int64_t> leaves = countLeaves(field);
    if (!leaves)
      return std::nullopt;
    n += *leaves;
  }
  return n;
}

/// Calls `entry` of `module` with `interpreter` on the flat inputs.
static MlirRelayResults interpretEntry(ModuleOp op, StringRef name,
                                       Interpreter &interpreter,
                                       intptr_t numInputs,
                                       const MlirType *inputTypes,
                                       const void *const *inputs) {
  auto func = op.lookupSymbol<FuncOp>(name);
  if (!func) {
    emitError(op.getLoc()) << "the module has no relay.func @" << name;
    return {nullptr};
  }
  SmallVector<Type> types;
  for (intptr_t i = 0; i < numInputs; ++i)
    types.push_back(unwrap(inputTypes[i]));
  // The parameters' tensors, tuples flattened (lists and options as their
  // counts and elements), all of the inputs and no more.
  std::optional<int64_t> expected = 0;
  for (Type param : func.getArgumentTypes()) {
    std::optional<int64_t> leaves = countLeaves(param);
    expected =
        leaves && expected ? std::optional(*expected + *leaves) : std::nullopt;
  }
  if (expected && *expected != numInputs) {
    emitError(func.getLoc())
        << "@" << name << " takes " << *expected
        << " tensors (tuples flattened), got " << numInputs;
    return {nullptr};
  }
  std::vector<ValuePtr> args;
  size_t next = 0;
  for (auto [i, param] : llvm::enumerate(func.getArgumentTypes())) {
    ValuePtr arg =
        buildArgument(op, param, types, inputs, next, func.getLoc(), i);
    if (!arg)
      return {nullptr};
    args.push_back(std::move(arg));
  }
  if (next != types.size()) {
    emitError(func.getLoc())
        << "@" << name << " takes " << next
        << " tensors for these lists and options (their counts and elements, "
           "tuples flattened), got "
        << numInputs;
    return {nullptr};
  }
  FailureOr<ValuePtr> result = interpreter.call(func, args);
  if (failed(result))
    return {nullptr};
  auto results = std::make_unique<Results>();
  if (failed(flatten(*result, *results))) {
    emitError(func.getLoc())
        << "@" << name << " returns " << func.getResultTypes()
        << ": closures, references and ADT values other than lists and "
           "options cannot be passed through the C API";
    return {nullptr};
  }
  return {results.release()};
}

MlirRelayResults mlirRelayInterpret(MlirModule module, MlirStringRef entry,
                                    intptr_t numInputs,
                                    const MlirType *inputTypes,
                                    const void *const *inputs) {
  ModuleOp op = unwrap(module);
  Interpreter interpreter(op);
  return interpretEntry(op, unwrap(entry), interpreter, numInputs, inputTypes,
                        inputs);
}

namespace {
/// The optimised copy of a module, its native regions and the interpreter
/// calling them.
struct Hybrid {
  OwningOpRef<ModuleOp> module;
  std::string entry;
  std::unique_ptr<NativeRegions> regions;
  std::unique_ptr<Interpreter> interpreter;
  /// What calls took while profiling, and how many calls that was.
  Profile profile;
  bool profiling = false;
  int64_t profiledCalls = 0;
};
} // namespace

static Hybrid *unwrap(MlirRelayHybrid hybrid) {
  return static_cast<Hybrid *>(hybrid.ptr);
}

MlirRelayHybrid mlirRelayHybridCreate(MlirModule module, MlirStringRef entry,
                                      MlirRelayCompileOptions options,
                                      int64_t expectedCalls) {
  ModuleOp op = unwrap(module);
  StringRef name = unwrap(entry);
  FailureOr<CompileOptions> converted =
      convertCompileOptions(options, name, op.getLoc());
  if (failed(converted))
    return {nullptr};
  if (!op.lookupSymbol<FuncOp>(name)) {
    emitError(op.getLoc()) << "the module has no relay.func @" << name;
    return {nullptr};
  }
  auto hybrid = std::make_unique<Hybrid>();
  hybrid->module = OwningOpRef<ModuleOp>(cast<ModuleOp>(op->clone()));
  hybrid->entry = name.str();
  // As relay-run: composites decomposed, the -O level's passes, then the
  // regions outlined.
  PassManager pm(op.getContext());
  DecomposeOptions decompose;
  decompose.keepOps.assign(getSortingOperators().begin(),
                           getSortingOperators().end());
  pm.addPass(createDecompose(decompose));
  buildOptimizePipeline(pm, converted->optimize);
  pm.addPass(createOutlineNativeRegions());
  if (failed(pm.run(*hybrid->module)))
    return {nullptr};
  NativeRegionOptions regionOptions;
  regionOptions.compile = *converted;
  regionOptions.when = expectedCalls < 0    ? RegionCompilation::All
                       : expectedCalls == 0 ? RegionCompilation::None
                                            : RegionCompilation::Auto;
  regionOptions.runs = std::max<int64_t>(expectedCalls, 1);
  hybrid->regions =
      std::make_unique<NativeRegions>(*hybrid->module, regionOptions);
  hybrid->interpreter = std::make_unique<Interpreter>(*hybrid->module);
  NativeRegions *regions = hybrid->regions.get();
  hybrid->interpreter->setRegionRunner(
      [regions](FuncOp region, ArrayRef<ValuePtr> args) {
        return regions->call(region, args);
      });
  return {hybrid.release()};
}

MlirRelayResults mlirRelayHybridCall(MlirRelayHybrid hybrid, intptr_t numInputs,
                                     const MlirType *inputTypes,
                                     const void *const *inputs) {
  Hybrid *h = unwrap(hybrid);
  if (h->profiling)
    ++h->profiledCalls;
  return interpretEntry(*h->module, h->entry, *h->interpreter, numInputs,
                        inputTypes, inputs);
}

void mlirRelayHybridSetProfiling(MlirRelayHybrid hybrid, bool enable) {
  Hybrid *h = unwrap(hybrid);
  if (enable && !h->profiling) {
    h->profile.clear();
    h->profiledCalls = 0;
  }
  h->profiling = enable;
  h->interpreter->setProfile(enable ? &h->profile : nullptr);
}

void mlirRelayHybridPrintProfile(MlirRelayHybrid hybrid,
                                 MlirStringCallback callback, void *userData) {
  Hybrid *h = unwrap(hybrid);
  mlir::detail::CallbackOstream os(callback, userData);
  h->profile.print(os, h->profiledCalls);
  os.flush();
}

intptr_t mlirRelayHybridGetNumCompiled(MlirRelayHybrid hybrid) {
  return unwrap(hybrid)->regions->getNumCompiled();
}

void mlirRelayHybridDestroy(MlirRelayHybrid hybrid) { delete unwrap(hybrid); }

intptr_t mlirRelayResultsGetNumTensors(MlirRelayResults results) {
  return unwrap(results)->types.size();
}

MlirType mlirRelayResultsGetType(MlirRelayResults results, intptr_t pos) {
  return wrap(Type(unwrap(results)->types[pos]));
}

const void *mlirRelayResultsGetData(MlirRelayResults results, intptr_t pos) {
  return unwrap(results)->data[pos].data();
}

void mlirRelayResultsDestroy(MlirRelayResults results) {
  delete unwrap(results);
}
