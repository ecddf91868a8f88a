//===- RelayMLIRModule.cpp - relay_mlir's native module ---------*- C++ -*-===//
//
// The pybind11 module `relay_mlir._relay_mlir`, over relay-mlir's C API
// (libRelayMLIR-C.so) alone: modules parsed from Relay text, MLIR or ONNX,
// passes, Relay text out, gradients, and compiled functions called on
// numpy arrays. Every failure raises relay_mlir.Error with the compiler's
// diagnostics (file:line:col: error: ...). The Python package
// (relay_mlir/__init__.py) gives it its user-facing API.
//
//===----------------------------------------------------------------------===//

#include "capi/Dialects.h"
#include "capi/Executor.h"
#include "capi/Interpreter.h"
#include "capi/Translation.h"
#include "capi/Types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

/// What relay_mlir.Error carries: the diagnostics of a failed step.
struct RelayError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

MlirStringRef toStringRef(const std::string &s) {
  return mlirStringRefCreate(s.data(), s.size());
}

/// The C API's compile options from Python's arguments (the strings must
/// outlive the options).
MlirRelayCompileOptions compileOptions(int64_t optLevel, int64_t threads,
                                       const std::string &target,
                                       const std::string &cpu,
                                       const std::string &precision) {
  MlirRelayCompileOptions options = mlirRelayCompileOptionsGetDefault();
  options.optLevel = optLevel;
  options.threads = threads;
  options.target = toStringRef(target);
  options.cpu = toStringRef(cpu);
  options.precision = toStringRef(precision);
  return options;
}

void appendToString(MlirStringRef piece, void *userData) {
  static_cast<std::string *>(userData)->append(piece.data, piece.length);
}

std::string typeToString(MlirType type) {
  std::string s;
  mlirTypePrint(type, appendToString, &s);
  return s;
}

/// A context with relay-mlir's dialects whose diagnostics are collected as
/// `file:line:col: error: message` lines, to raise with the failure.
class Context {
public:
  Context() : context(mlirRelayContextCreate()) {
    mlirRelayRegisterAllPasses();
    mlirContextAttachDiagnosticHandler(context, collect, this, nullptr);
  }
  ~Context() { mlirContextDestroy(context); }
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  MlirContext get() const { return context; }

  /// Raises relay_mlir.Error with what was reported since the last call,
  /// or `fallback` when nothing was.
  [[noreturn]] void raise(const std::string &fallback) {
    std::string message = messages.empty() ? fallback : messages;
    messages.clear();
    throw RelayError(message);
  }
  void clear() { messages.clear(); }
  /// Issues what a call that succeeded reported (warnings: a `match`
  /// missing cases) as a Python UserWarning, and forgets it.
  void warnReported() {
    if (messages.empty())
      return;
    std::string text = std::move(messages);
    messages.clear();
    if (PyErr_WarnEx(PyExc_UserWarning, text.c_str(), 1) < 0)
      throw py::error_already_set();
  }

private:
  static void appendDiagnostic(std::string &out, MlirDiagnostic diagnostic) {
    MlirLocation loc = mlirDiagnosticGetLocation(diagnostic);
    if (mlirLocationIsAFileLineColRange(loc)) {
      MlirIdentifier file = mlirLocationFileLineColRangeGetFilename(loc);
      MlirStringRef name = mlirIdentifierStr(file);
      out.append(name.data, name.length);
      out += ":" +
             std::to_string(mlirLocationFileLineColRangeGetStartLine(loc)) +
             ":" +
             std::to_string(mlirLocationFileLineColRangeGetStartColumn(loc)) +
             ": ";
    } else {
      mlirLocationPrint(loc, appendToString, &out);
      out += ": ";
    }
    switch (mlirDiagnosticGetSeverity(diagnostic)) {
    case MlirDiagnosticError:
      out += "error: ";
      break;
    case MlirDiagnosticWarning:
      out += "warning: ";
      break;
    case MlirDiagnosticNote:
      out += "note: ";
      break;
    case MlirDiagnosticRemark:
      out += "remark: ";
      break;
    }
    mlirDiagnosticPrint(diagnostic, appendToString, &out);
    out += "\n";
    for (intptr_t i = 0, e = mlirDiagnosticGetNumNotes(diagnostic); i < e; ++i)
      appendDiagnostic(out, mlirDiagnosticGetNote(diagnostic, i));
  }

  static MlirLogicalResult collect(MlirDiagnostic diagnostic, void *self) {
    appendDiagnostic(static_cast<Context *>(self)->messages, diagnostic);
    return mlirLogicalResultSuccess();
  }

  MlirContext context;
  std::string messages;
};

/// A module and the context it lives in.
struct ModuleState {
  ModuleState(std::shared_ptr<Context> context, MlirModule module)
      : context(std::move(context)), module(module) {}
  ~ModuleState() { mlirModuleDestroy(module); }
  ModuleState(const ModuleState &) = delete;
  ModuleState &operator=(const ModuleState &) = delete;

  std::shared_ptr<Context> context;
  MlirModule module;
};

/// The numpy dtype of a tensor element type's storage; None when numpy has
/// none. bfloat16, which numpy lacks, is stored as its bits in uint16 (the
/// Python layer converts from and to float32).
py::object numpyDtype(MlirType element) {
  const char *name = nullptr;
  if (mlirTypeIsABF16(element))
    name = "uint16";
  else if (mlirTypeIsAF32(element))
    name = "float32";
  else if (mlirTypeIsAF64(element))
    name = "float64";
  else if (mlirTypeIsAF16(element))
    name = "float16";
  else if (mlirTypeIsAInteger(element)) {
    unsigned width = mlirIntegerTypeGetWidth(element);
    bool isUnsigned = mlirIntegerTypeIsUnsigned(element);
    switch (width) {
    case 1:
      name = "bool";
      break;
    case 8:
      name = isUnsigned ? "uint8" : "int8";
      break;
    case 16:
      name = isUnsigned ? "uint16" : "int16";
      break;
    case 32:
      name = isUnsigned ? "uint32" : "int32";
      break;
    case 64:
      name = isUnsigned ? "uint64" : "int64";
      break;
    }
  }
  if (!name)
    return py::none();
  return py::dtype(name);
}

/// The element type of a numpy dtype (the inverse of numpyDtype, without
/// bfloat16); a null type where Relay has none.
MlirType elementType(MlirContext ctx, const py::dtype &dtype) {
  char kind = dtype.kind();
  unsigned bits = dtype.itemsize() * 8;
  if (kind == 'b')
    return mlirIntegerTypeGet(ctx, 1);
  if (kind == 'i')
    return mlirIntegerTypeGet(ctx, bits);
  if (kind == 'u')
    return mlirIntegerTypeUnsignedGet(ctx, bits);
  if (kind == 'f' && bits == 16)
    return mlirF16TypeGet(ctx);
  if (kind == 'f' && bits == 32)
    return mlirF32TypeGet(ctx);
  if (kind == 'f' && bits == 64)
    return mlirF64TypeGet(ctx);
  return MlirType{nullptr};
}

/// A tensor parameter or result of a compiled function: its shape, numpy
/// storage dtype, MLIR type, and whether its elements are bfloat16s.
py::tuple tensorSpec(MlirType type) {
  py::list shape;
  for (intptr_t i = 0, e = mlirShapedTypeGetRank(type); i < e; ++i)
    shape.append(mlirShapedTypeGetDimSize(type, i));
  MlirType element = mlirShapedTypeGetElementType(type);
  return py::make_tuple(py::tuple(shape), numpyDtype(element),
                        typeToString(type), mlirTypeIsABF16(element));
}

/// The structure of a (possibly tuple) type, its tensors numbered in
/// flattened order: `0`, `(0, (1, 2))`.
py::object structure(MlirType type, int64_t &next) {
  if (mlirTypeIsATuple(type)) {
    py::list fields;
    for (intptr_t i = 0, e = mlirTupleTypeGetNumTypes(type); i < e; ++i)
      fields.append(structure(mlirTupleTypeGetType(type, i), next));
    return py::tuple(fields);
  }
  return py::int_(next++);
}

/// Whether `type` is the prelude's List (or, `option`, Option) of one type.
bool isListOrOption(MlirType type, bool &option) {
  if (mlirTypeIsNull(type) || !mlirTypeIsARelayAdtType(type) ||
      mlirRelayAdtTypeGetNumArgs(type) != 1)
    return false;
  MlirStringRef ref = mlirRelayAdtTypeGetName(type);
  std::string name(ref.data, ref.length);
  option = name == "Option";
  return option || name == "List";
}

/// The structure of a result of `type` whose tensors, flattened (a list or
/// option as its count, then its elements), are `arrays` from `next` on: a
/// tensor's index, a tuple of fields, a list of elements, None for an empty
/// option, {"some": element} for a full one.
py::object resultStructure(MlirType type, const py::list &arrays,
                           int64_t &next) {
  if (mlirTypeIsATuple(type)) {
    py::list fields;
    for (intptr_t i = 0, e = mlirTupleTypeGetNumTypes(type); i < e; ++i)
      fields.append(
          resultStructure(mlirTupleTypeGetType(type, i), arrays, next));
    return py::tuple(fields);
  }
  bool option = false;
  if (isListOrOption(type, option)) {
    py::array count = arrays[next++].cast<py::array>();
    int64_t n = *static_cast<const int64_t *>(count.data());
    py::list elements;
    for (int64_t i = 0; i < n; ++i)
      elements.append(
          resultStructure(mlirRelayAdtTypeGetArg(type, 0), arrays, next));
    if (!option)
      return elements;
    if (n == 0)
      return py::none();
    py::dict some;
    some["some"] = elements[0];
    return some;
  }
  return py::int_(next++);
}

/// A compiled entry function.
class Function {
public:
  Function(std::shared_ptr<ModuleState> module, MlirRelayExecutor executor)
      : module(std::move(module)), executor(executor) {}
  ~Function() { mlirRelayExecutorDestroy(executor); }
  Function(const Function &) = delete;
  Function &operator=(const Function &) = delete;

  py::list inputSpecs() const {
    return specs(mlirRelayExecutorGetNumInputs, mlirRelayExecutorGetInputType);
  }
  py::list resultSpecs() const {
    return specs(mlirRelayExecutorGetNumResults,
                 mlirRelayExecutorGetResultType);
  }
  /// The parameters' structure, one entry per parameter.
  py::list parameterStructure() const {
    MlirType type = mlirRelayExecutorGetFunctionType(executor);
    py::list params;
    int64_t next = 0;
    for (intptr_t i = 0, e = mlirFunctionTypeGetNumInputs(type); i < e; ++i)
      params.append(structure(mlirFunctionTypeGetInput(type, i), next));
    return params;
  }
  py::object resultStructure() const {
    MlirType type = mlirRelayExecutorGetFunctionType(executor);
    int64_t next = 0;
    return structure(mlirFunctionTypeGetResult(type, 0), next);
  }
  std::string typeString() const {
    return typeToString(mlirRelayExecutorGetFunctionType(executor));
  }

  /// Calls the function on C-contiguous arrays of the flattened parameters'
  /// dtypes and shapes (the Python layer converts); returns the flattened
  /// results.
  py::list call(const std::vector<py::array> &inputs) {
    intptr_t numInputs = mlirRelayExecutorGetNumInputs(executor);
    if (intptr_t(inputs.size()) != numInputs)
      throw py::value_error("expected " + std::to_string(numInputs) +
                            " input arrays, got " +
                            std::to_string(inputs.size()));
    std::vector<const void *> in;
    for (intptr_t i = 0; i < numInputs; ++i) {
      MlirType type = mlirRelayExecutorGetInputType(executor, i);
      const py::array &a = inputs[i];
      bool contiguous = a.flags() & py::array::c_style;
      if (!contiguous || a.nbytes() != mlirRelayGetBufferBytes(type))
        throw py::value_error("input " + std::to_string(i) +
                              " is not a C-contiguous array of " +
                              typeToString(type));
      in.push_back(a.data());
    }
    py::list results;
    std::vector<void *> out;
    for (intptr_t i = 0, e = mlirRelayExecutorGetNumResults(executor); i < e;
         ++i) {
      MlirType type = mlirRelayExecutorGetResultType(executor, i);
      py::object dtype = numpyDtype(mlirShapedTypeGetElementType(type));
      std::vector<py::ssize_t> shape;
      for (intptr_t d = 0, r = mlirShapedTypeGetRank(type); d < r; ++d)
        shape.push_back(mlirShapedTypeGetDimSize(type, d));
      py::array result(dtype.cast<py::dtype>(), shape);
      out.push_back(result.mutable_data());
      results.append(result);
    }
    module->context->clear();
    MlirLogicalResult ok;
    {
      // Compiled code runs its own threads; Python's go on meanwhile.
      py::gil_scoped_release release;
      ok = mlirRelayExecutorCall(executor, in.data(), out.data());
    }
    if (mlirLogicalResultIsFailure(ok))
      module->context->raise("the compiled function failed");
    return results;
  }

private:
  /// The tensorSpec of each flattened input or result.
  py::list specs(intptr_t (*count)(MlirRelayExecutor),
                 MlirType (*type)(MlirRelayExecutor, intptr_t)) const {
    py::list list;
    for (intptr_t i = 0, e = count(executor); i < e; ++i)
      list.append(tensorSpec(type(executor, i)));
    return list;
  }

  std::shared_ptr<ModuleState> module;
  MlirRelayExecutor executor;
};

class Hybrid;

/// A Relay module.
class Module {
public:
  explicit Module(std::shared_ptr<ModuleState> state)
      : state(std::move(state)) {}

  static Module fromRelayText(const std::string &text,
                              const std::string &name) {
    auto context = std::make_shared<Context>();
    return adopt(context, mlirRelayImportText(context->get(), toStringRef(text),
                                              toStringRef(name)));
  }
  static Module fromMLIR(const std::string &text) {
    auto context = std::make_shared<Context>();
    return adopt(context,
                 mlirModuleCreateParse(context->get(), toStringRef(text)));
  }
  static Module fromMLIRFile(const std::string &path) {
    auto context = std::make_shared<Context>();
    return adopt(context,
                 mlirRelayParseMLIRFile(context->get(), toStringRef(path)));
  }
  /// `shapes`: graph input name -> shape, for dimensions the model leaves
  /// symbolic.
  static Module
  fromOnnx(const py::bytes &bytes, const std::string &name,
           const std::map<std::string, std::vector<int64_t>> &shapes) {
    auto context = std::make_shared<Context>();
    std::string data = bytes;
    std::vector<MlirStringRef> names;
    std::vector<intptr_t> ranks;
    std::vector<int64_t> dims;
    for (const auto &[input, shape] : shapes) {
      names.push_back(toStringRef(input));
      ranks.push_back(static_cast<intptr_t>(shape.size()));
      dims.insert(dims.end(), shape.begin(), shape.end());
    }
    return adopt(context,
                 mlirRelayImportOnnxWithInputShapes(
                     context->get(), toStringRef(data), toStringRef(name),
                     names.size(), names.data(), ranks.data(), dims.data()));
  }

  void inferTypes() {
    check(mlirRelayInferTypes(state->module), "type inference failed");
  }
  void differentiate(const std::string &entry) {
    check(mlirRelayDifferentiate(state->module, toStringRef(entry)),
          "the gradient failed");
  }
  /// Runs a textual pass pipeline (`relay-fold-constant,relay-fuse-ops`)
  /// on the module.
  void runPasses(const std::string &pipeline) {
    std::string text = pipeline.rfind("builtin.module(", 0) == 0
                           ? pipeline
                           : "builtin.module(" + pipeline + ")";
    MlirPassManager pm = mlirPassManagerCreate(state->context->get());
    std::string parseError;
    state->context->clear();
    MlirLogicalResult parsed =
        mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                              toStringRef(text), appendToString, &parseError);
    if (mlirLogicalResultIsFailure(parsed)) {
      mlirPassManagerDestroy(pm);
      throw RelayError("invalid pass pipeline '" + pipeline +
                       "': " + parseError);
    }
    MlirLogicalResult ran =
        mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(state->module));
    mlirPassManagerDestroy(pm);
    if (mlirLogicalResultIsFailure(ran))
      state->context->raise("the pass pipeline failed");
    state->context->warnReported();
  }
  std::string toRelayText() {
    std::string text;
    check(mlirRelayExportText(state->module, appendToString, &text),
          "cannot export the module as Relay text");
    return text;
  }
  std::string toMLIR() const {
    std::string text;
    mlirOperationPrint(mlirModuleGetOperation(state->module), appendToString,
                       &text);
    return text;
  }
  std::unique_ptr<Function> compile(const std::string &entry, int64_t optLevel,
                                    int64_t threads, const std::string &target,
                                    const std::string &cpu,
                                    const std::string &precision) {
    MlirRelayCompileOptions options =
        compileOptions(optLevel, threads, target, cpu, precision);
    state->context->clear();
    MlirRelayExecutor executor;
    {
      py::gil_scoped_release release;
      executor =
          mlirRelayExecutorCreate(state->module, toStringRef(entry), options);
    }
    if (mlirRelayExecutorIsNull(executor))
      state->context->raise("cannot compile @" + entry);
    auto function = std::make_unique<Function>(state, executor);
    // Numpy must hold every tensor the function takes and returns.
    for (const py::list &specs :
         {function->inputSpecs(), function->resultSpecs()})
      for (py::handle spec : specs)
        if (spec.cast<py::tuple>()[1].is_none())
          throw RelayError("@" + entry + " passes a " +
                           spec.cast<py::tuple>()[2].cast<std::string>() +
                           ", whose element type numpy has no dtype for");
    return function;
  }

  /// `entry` run as relay-run runs what native code does not cover as a
  /// whole: interpreted, with compiled native regions
  /// (mlirRelayHybridCreate).
  std::unique_ptr<Hybrid> hybrid(const std::string &entry, int64_t optLevel,
                                 int64_t threads, const std::string &target,
                                 const std::string &cpu,
                                 const std::string &precision,
                                 int64_t expectedCalls);

  /// The shapes of `entry`'s tensor parameters, with -1 for a `?`
  /// dimension (None for other parameters); None when there is no such
  /// function.
  py::object parameterShapes(const std::string &entry) const {
    MlirType fn = entryType(entry);
    if (mlirTypeIsNull(fn))
      return py::none();
    py::list shapes;
    for (intptr_t i = 0; i < mlirFunctionTypeGetNumInputs(fn); ++i) {
      MlirType input = mlirFunctionTypeGetInput(fn, i);
      if (!mlirTypeIsARankedTensor(input)) {
        shapes.append(py::none());
        continue;
      }
      py::list shape;
      for (intptr_t d = 0; d < mlirShapedTypeGetRank(input); ++d)
        shape.append(mlirShapedTypeIsDynamicDim(input, d)
                         ? int64_t(-1)
                         : mlirShapedTypeGetDimSize(input, d));
      shapes.append(py::tuple(shape));
    }
    return shapes;
  }

  /// The type of `value` passed for a parameter of type `param`: an array
  /// is a tensor of its shape, of the parameter's dtype where it names one
  /// (the array is converted when called), else of the array's; a tuple
  /// (or list) is a tuple of its values' types.
  MlirType inputType(MlirType param, py::handle value,
                     const std::string &where) const {
    MlirContext ctx = mlirModuleGetContext(state->module);
    // A list or option: its elements' types are taken one by one
    // (flattenInput); a polymorphic one's (`List[A]`) from its elements,
    // sizes that differ between them `?` (as relay-run's --input).
    if (bool option; isListOrOption(param, option)) {
      MlirType elementParam = mlirRelayAdtTypeGetArg(param, 0);
      if (!mlirTypeIsARelayTypeVarType(elementParam) &&
          !mlirTypeIsARelayPolyTensorType(elementParam))
        return param;
      std::vector<py::handle> elements;
      if (option && !value.is_none())
        elements.push_back(value);
      if (!option &&
          (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)))
        for (py::handle element : py::reinterpret_borrow<py::sequence>(value))
          elements.push_back(element);
      MlirStringRef name = mlirRelayAdtTypeGetName(param);
      if (elements.empty()) {
        // Nothing to infer the elements' type from: the other inputs may.
        MlirType unknown = mlirRelayIncompleteTypeGet(ctx);
        return mlirRelayAdtTypeGet(ctx, name, 1, &unknown);
      }
      MlirType joined{nullptr};
      for (size_t i = 0; i < elements.size(); ++i) {
        std::string at = where + "[" + std::to_string(i) + "]";
        MlirType type = inputType(elementParam, elements[i], at);
        joined = i == 0 ? type : mlirRelayTypeJoin(joined, type);
        if (mlirTypeIsNull(joined))
          throw py::type_error(at + " (" + typeToString(type) +
                               ") differs from the elements before it in "
                               "more than its sizes");
      }
      return mlirRelayAdtTypeGet(ctx, name, 1, &joined);
    }
    if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) {
      py::sequence fields = py::reinterpret_borrow<py::sequence>(value);
      bool matches = !mlirTypeIsNull(param) && mlirTypeIsATuple(param) &&
                     mlirTupleTypeGetNumTypes(param) ==
                         static_cast<intptr_t>(fields.size());
      std::vector<MlirType> types;
      for (size_t i = 0; i < fields.size(); ++i)
        types.push_back(inputType(
            matches ? mlirTupleTypeGetType(param, i) : MlirType{nullptr},
            fields[i], where + "[" + std::to_string(i) + "]"));
      return mlirTupleTypeGet(ctx, types.size(), types.data());
    }
    py::array array =
        py::array::ensure(py::reinterpret_borrow<py::object>(value));
    if (!array)
      throw py::type_error(where + " is neither an array nor a tuple of them");
    MlirType element{nullptr};
    if (!mlirTypeIsNull(param) && mlirTypeIsARankedTensor(param))
      element = mlirShapedTypeGetElementType(param);
    if (!mlirTypeIsNull(param) && mlirTypeIsARelayPolyTensorType(param)) {
      MlirType dtype = mlirRelayPolyTensorTypeGetDtype(param);
      if (!mlirTypeIsARelayTypeVarType(dtype))
        element = dtype;
    }
    if (mlirTypeIsNull(element))
      element = elementType(ctx, array.dtype());
    if (mlirTypeIsNull(element))
      throw py::type_error(where + ": Relay has no type for arrays of " +
                           py::str(array.dtype()).cast<std::string>());
    std::vector<int64_t> shape(array.shape(), array.shape() + array.ndim());
    return mlirRankedTensorTypeGet(shape.size(), shape.data(), element,
                                   mlirAttributeGetNull());
  }

  /// Appends the tensors of `value` (of `type`, from inputType) to
  /// `types` and, as C-contiguous arrays of their dtypes, to `arrays`.
  void flattenInput(MlirType type, py::handle value, const std::string &where,
                    std::vector<MlirType> &types,
                    std::vector<py::array> &arrays) const {
    // A list (a Python list or tuple) or option (None or the value): an
    // int64 count, then the elements.
    if (bool option = false; isListOrOption(type, option)) {
      std::vector<py::handle> elements;
      if (option) {
        if (!value.is_none())
          elements.push_back(value);
      } else {
        if (!py::isinstance<py::list>(value) &&
            !py::isinstance<py::tuple>(value))
          throw py::type_error(where + " is a " + typeToString(type) +
                               ": give a Python list of its elements");
        for (py::handle element : py::reinterpret_borrow<py::sequence>(value))
          elements.push_back(element);
      }
      MlirContext ctx = mlirModuleGetContext(state->module);
      types.push_back(mlirRankedTensorTypeGet(
          0, nullptr, mlirIntegerTypeGet(ctx, 64), mlirAttributeGetNull()));
      py::array_t<int64_t> count{std::vector<py::ssize_t>{}};
      *count.mutable_data() = static_cast<int64_t>(elements.size());
      arrays.push_back(count);
      MlirType elementType = mlirRelayAdtTypeGetArg(type, 0);
      for (size_t i = 0; i < elements.size(); ++i) {
        py::handle element = elements[i];
        std::string at = where + "[" + std::to_string(i) + "]";
        flattenInput(inputType(elementType, element, at), element, at, types,
                     arrays);
      }
      return;
    }
    if (mlirTypeIsATuple(type)) {
      py::sequence fields = py::reinterpret_borrow<py::sequence>(value);
      for (intptr_t i = 0, e = mlirTupleTypeGetNumTypes(type); i < e; ++i)
        flattenInput(mlirTupleTypeGetType(type, i), fields[i],
                     where + "[" + std::to_string(i) + "]", types, arrays);
      return;
    }
    MlirType element = mlirShapedTypeGetElementType(type);
    py::object dtype = numpyDtype(element);
    if (dtype.is_none() || mlirTypeIsABF16(element))
      throw py::type_error(where + ": the interpreter takes no arrays of " +
                           typeToString(type));
    py::array array =
        py::array::ensure(py::reinterpret_borrow<py::object>(value));
    py::module_ numpy = py::module_::import("numpy");
    if (!numpy.attr("can_cast")(array.dtype(), dtype, "same_kind").cast<bool>())
      throw py::type_error(where + ": expected " +
                           py::str(dtype).cast<std::string>() + " (" +
                           typeToString(type) + "), got an array of " +
                           py::str(array.dtype()).cast<std::string>());
    py::array converted = numpy.attr("ascontiguousarray")(array, dtype);
    types.push_back(type);
    arrays.push_back(converted);
  }

  /// The function type of `entry`, checked to take `count` inputs; raises
  /// where there is no such function or it takes another number.
  MlirType entryTaking(const std::string &entry, size_t count) const {
    MlirType fn = entryType(entry);
    if (mlirTypeIsNull(fn))
      throw RelayError("the module has no function @" + entry);
    if (static_cast<intptr_t>(count) != mlirFunctionTypeGetNumInputs(fn))
      throw py::type_error("@" + entry + " takes " +
                           std::to_string(mlirFunctionTypeGetNumInputs(fn)) +
                           " inputs, got " + std::to_string(count));
    return fn;
  }

  /// The function type of `entry` (a null type where there is none).
  MlirType entryType(const std::string &entry) const {
    for (MlirOperation op =
             mlirBlockGetFirstOperation(mlirModuleGetBody(state->module));
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
      MlirAttribute name = mlirOperationGetAttributeByName(
          op, mlirStringRefCreateFromCString("sym_name"));
      MlirAttribute type = mlirOperationGetAttributeByName(
          op, mlirStringRefCreateFromCString("function_type"));
      if (mlirAttributeIsNull(name) || mlirAttributeIsNull(type) ||
          !mlirAttributeIsAString(name) || !mlirAttributeIsAType(type))
        continue;
      MlirStringRef symbol = mlirStringAttrGetValue(name);
      if (std::string(symbol.data, symbol.length) == entry)
        return mlirTypeAttrGetValue(type);
    }
    return MlirType{nullptr};
  }

  /// A copy typed for inputs of `shapes` (one per parameter of `entry`;
  /// None leaves a parameter as it is): mlirRelayBindInputShapes. None
  /// where the program does not type for them.
  py::object bindInputShapes(
      const std::string &entry,
      const std::vector<std::optional<std::vector<int64_t>>> &shapes) {
    std::vector<intptr_t> ranks;
    std::vector<int64_t> dims;
    for (const auto &shape : shapes) {
      ranks.push_back(shape ? static_cast<intptr_t>(shape->size()) : -1);
      if (shape)
        dims.insert(dims.end(), shape->begin(), shape->end());
    }
    state->context->clear();
    MlirModule bound =
        mlirRelayBindInputShapes(state->module, toStringRef(entry),
                                 ranks.size(), ranks.data(), dims.data());
    if (mlirModuleIsNull(bound))
      return py::none();
    return py::cast(
        Module(std::make_shared<ModuleState>(state->context, bound)));
  }

  /// Raises for compile options that are wrong whatever the program.
  void verifyOptions(int64_t optLevel, int64_t threads,
                     const std::string &target, const std::string &cpu,
                     const std::string &precision) {
    MlirRelayCompileOptions options =
        compileOptions(optLevel, threads, target, cpu, precision);
    state->context->clear();
    MlirLocation loc =
        mlirOperationGetLocation(mlirModuleGetOperation(state->module));
    if (mlirLogicalResultIsFailure(mlirRelayCompileOptionsVerify(options, loc)))
      state->context->raise("invalid compile options");
  }

  /// Runs `entry` on the reference interpreter (mlirRelayInterpret) on
  /// `inputs` (arrays and tuples of them; an array of another dtype is
  /// converted to the parameter's): the result's structure (as Function's
  /// resultStructure) and its tensors, flattened, as arrays with whether
  /// each holds bfloat16 bits.
  py::tuple interpret(const std::string &entry, const py::tuple &inputs) {
    return runInterpreted(
        entry, inputs,
        [&](intptr_t n, const MlirType *types, const void *const *data) {
          return mlirRelayInterpret(state->module, toStringRef(entry), n, types,
                                    data);
        });
  }

  /// What interpret does, with `run` calling the interpreter (plain, or
  /// with compiled native regions).
  py::tuple runInterpreted(
      const std::string &entry, const py::tuple &inputs,
      const std::function<MlirRelayResults(intptr_t, const MlirType *,
                                           const void *const *)> &run) {
    MlirType fn = entryTaking(entry, inputs.size());
    std::vector<MlirType> types;
    std::vector<py::array> arrays;
    for (size_t i = 0; i < inputs.size(); ++i) {
      std::string where = "input " + std::to_string(i) + " of @" + entry;
      MlirType type =
          inputType(mlirFunctionTypeGetInput(fn, i), inputs[i], where);
      flattenInput(type, inputs[i], where, types, arrays);
    }
    std::vector<const void *> data;
    for (const py::array &a : arrays)
      data.push_back(a.data());
    state->context->clear();
    MlirRelayResults results;
    {
      py::gil_scoped_release release;
      results = run(types.size(), types.data(), data.data());
    }
    if (mlirRelayResultsIsNull(results))
      state->context->raise("@" + entry + " failed on the interpreter");
    py::list out, bfloat16;
    for (intptr_t i = 0, e = mlirRelayResultsGetNumTensors(results); i < e;
         ++i) {
      MlirType type = mlirRelayResultsGetType(results, i);
      MlirType element = mlirShapedTypeGetElementType(type);
      py::object dtype = numpyDtype(element);
      if (dtype.is_none()) {
        mlirRelayResultsDestroy(results);
        throw RelayError("@" + entry + " returns a " + typeToString(type) +
                         ", whose element type numpy has no dtype for");
      }
      std::vector<py::ssize_t> shape;
      for (intptr_t d = 0, r = mlirShapedTypeGetRank(type); d < r; ++d)
        shape.push_back(mlirShapedTypeGetDimSize(type, d));
      py::array result(dtype.cast<py::dtype>(), shape);
      std::memcpy(result.mutable_data(), mlirRelayResultsGetData(results, i),
                  result.nbytes());
      out.append(result);
      bfloat16.append(mlirTypeIsABF16(element));
    }
    mlirRelayResultsDestroy(results);
    int64_t next = 0;
    return py::make_tuple(
        resultStructure(mlirFunctionTypeGetResult(fn, 0), out, next), out,
        bfloat16);
  }

  /// Whether `entry` takes or returns a value of a type `pred` holds for,
  /// looking into tuples' fields and lists' and options' elements.
  bool signatureHas(const std::string &entry,
                    const std::function<bool(MlirType)> &pred) const {
    MlirType fn = entryType(entry);
    if (mlirTypeIsNull(fn))
      return false;
    std::function<bool(MlirType)> has = [&](MlirType t) {
      if (pred(t))
        return true;
      if (mlirTypeIsATuple(t)) {
        for (intptr_t i = 0, e = mlirTupleTypeGetNumTypes(t); i < e; ++i)
          if (has(mlirTupleTypeGetType(t, i)))
            return true;
        return false;
      }
      bool option;
      return isListOrOption(t, option) && has(mlirRelayAdtTypeGetArg(t, 0));
    };
    for (intptr_t i = 0, e = mlirFunctionTypeGetNumInputs(fn); i < e; ++i)
      if (has(mlirFunctionTypeGetInput(fn, i)))
        return true;
    for (intptr_t i = 0, e = mlirFunctionTypeGetNumResults(fn); i < e; ++i)
      if (has(mlirFunctionTypeGetResult(fn, i)))
        return true;
    return false;
  }

  /// Whether `entry` takes or returns anything but tensors, and tuples,
  /// lists and options of them (closures, other ADT values, references:
  /// not passed through the C API).
  bool passesObjects(const std::string &entry) const {
    return signatureHas(entry, [](MlirType t) {
      bool option;
      return !mlirTypeIsATuple(t) && !isListOrOption(t, option) &&
             !mlirTypeIsARankedTensor(t) &&
             !mlirTypeIsARelayPolyTensorType(t) &&
             !mlirTypeIsARelayTypeVarType(t);
    });
  }

  /// Whether `entry` takes or returns a List or Option (which the
  /// interpreter passes, native code not).
  bool passesSequences(const std::string &entry) const {
    return signatureHas(entry, [](MlirType t) {
      bool option;
      return isListOrOption(t, option);
    });
  }

  bool isPolymorphic(const std::string &entry) const {
    return mlirRelayEntryIsPolymorphic(state->module, toStringRef(entry));
  }

  /// A copy in which the polymorphic `entry` is called through a
  /// monomorphic one taking `inputs`' types (mlirRelayInstantiateEntry).
  Module instantiateEntry(const std::string &entry, const py::tuple &inputs) {
    MlirType fn = entryTaking(entry, inputs.size());
    std::vector<MlirType> types;
    for (size_t i = 0; i < inputs.size(); ++i)
      types.push_back(
          inputType(mlirFunctionTypeGetInput(fn, i), inputs[i],
                    "input " + std::to_string(i) + " of @" + entry));
    state->context->clear();
    MlirModule instance = mlirRelayInstantiateEntry(
        state->module, toStringRef(entry), types.size(), types.data());
    if (mlirModuleIsNull(instance))
      state->context->raise("cannot instantiate @" + entry +
                            " for these inputs");
    return Module(std::make_shared<ModuleState>(state->context, instance));
  }

private:
  static Module adopt(std::shared_ptr<Context> context, MlirModule module) {
    if (mlirModuleIsNull(module))
      context->raise("cannot read the module");
    return Module(std::make_shared<ModuleState>(std::move(context), module));
  }
  void check(MlirLogicalResult result, const std::string &fallback) {
    if (mlirLogicalResultIsFailure(result))
      state->context->raise(fallback);
    state->context->warnReported();
  }

  std::shared_ptr<ModuleState> state;
};

/// An entry interpreted with compiled native regions, keeping the regions'
/// code between calls.
class Hybrid {
public:
  Hybrid(Module module, std::string entry, MlirRelayHybrid handle)
      : module(std::move(module)), entry(std::move(entry)), handle(handle) {}
  ~Hybrid() { mlirRelayHybridDestroy(handle); }
  Hybrid(const Hybrid &) = delete;
  Hybrid &operator=(const Hybrid &) = delete;

  /// As Module.interpret.
  py::tuple call(const py::tuple &inputs) {
    return module.runInterpreted(
        entry, inputs,
        [&](intptr_t n, const MlirType *types, const void *const *data) {
          return mlirRelayHybridCall(handle, n, types, data);
        });
  }
  int64_t numCompiled() const { return mlirRelayHybridGetNumCompiled(handle); }
  void setProfiling(bool enable) {
    mlirRelayHybridSetProfiling(handle, enable);
  }
  std::string profile() const {
    std::string text;
    mlirRelayHybridPrintProfile(handle, appendToString, &text);
    return text;
  }

private:
  Module module;
  std::string entry;
  MlirRelayHybrid handle;
};

std::unique_ptr<Hybrid>
Module::hybrid(const std::string &entry, int64_t optLevel, int64_t threads,
               const std::string &target, const std::string &cpu,
               const std::string &precision, int64_t expectedCalls) {
  MlirRelayCompileOptions options =
      compileOptions(optLevel, threads, target, cpu, precision);
  state->context->clear();
  MlirRelayHybrid handle;
  {
    py::gil_scoped_release release;
    handle = mlirRelayHybridCreate(state->module, toStringRef(entry), options,
                                   expectedCalls);
  }
  if (mlirRelayHybridIsNull(handle))
    state->context->raise("cannot prepare @" + entry + " for the interpreter");
  return std::make_unique<Hybrid>(*this, entry, handle);
}

} // namespace

PYBIND11_MODULE(_relay_mlir, m) {
  m.doc() = "relay-mlir's native module (use the relay_mlir package)";
  py::register_exception<RelayError>(m, "Error", PyExc_RuntimeError);

  py::class_<Function>(m, "Function")
      .def_property_readonly("input_specs", &Function::inputSpecs)
      .def_property_readonly("result_specs", &Function::resultSpecs)
      .def_property_readonly("parameter_structure",
                             &Function::parameterStructure)
      .def_property_readonly("result_structure", &Function::resultStructure)
      .def_property_readonly("type", &Function::typeString)
      .def("call", &Function::call);

  py::class_<Hybrid>(m, "Hybrid")
      .def("call", &Hybrid::call, py::arg("inputs"))
      .def_property_readonly("num_compiled", &Hybrid::numCompiled)
      .def("set_profiling", &Hybrid::setProfiling, py::arg("enable"))
      .def("profile", &Hybrid::profile);

  py::class_<Module>(m, "Module")
      .def_static("from_relay_text", &Module::fromRelayText, py::arg("text"),
                  py::arg("name"))
      .def_static("from_mlir", &Module::fromMLIR, py::arg("text"))
      .def_static("from_mlir_file", &Module::fromMLIRFile, py::arg("path"))
      .def_static(
          "from_onnx", &Module::fromOnnx, py::arg("data"), py::arg("name"),
          py::arg("shapes") = std::map<std::string, std::vector<int64_t>>())
      .def("infer_types", &Module::inferTypes)
      .def("differentiate", &Module::differentiate, py::arg("entry"))
      .def("run_passes", &Module::runPasses, py::arg("pipeline"))
      .def("to_relay_text", &Module::toRelayText)
      .def("to_mlir", &Module::toMLIR)
      .def("parameter_shapes", &Module::parameterShapes, py::arg("entry"))
      .def("is_polymorphic", &Module::isPolymorphic, py::arg("entry"))
      .def("passes_objects", &Module::passesObjects, py::arg("entry"))
      .def("passes_sequences", &Module::passesSequences, py::arg("entry"))
      .def("verify_options", &Module::verifyOptions, py::arg("opt_level"),
           py::arg("threads"), py::arg("target"), py::arg("cpu"),
           py::arg("precision"))
      .def("interpret", &Module::interpret, py::arg("entry"), py::arg("inputs"))
      .def("instantiate_entry", &Module::instantiateEntry, py::arg("entry"),
           py::arg("inputs"))
      .def("bind_input_shapes", &Module::bindInputShapes, py::arg("entry"),
           py::arg("shapes"))
      .def("compile", &Module::compile, py::arg("entry"), py::arg("opt_level"),
           py::arg("threads"), py::arg("target"), py::arg("cpu"),
           py::arg("precision"))
      .def("hybrid", &Module::hybrid, py::arg("entry"), py::arg("opt_level"),
           py::arg("threads"), py::arg("target"), py::arg("cpu"),
           py::arg("precision"), py::arg("expected_calls"));
}
