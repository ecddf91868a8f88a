//===- Executor.cpp - Compile a Relay module and call it --------*- C++ -*-===//

#include "runtime/Executor/Executor.h"

#include "conversion/RelayToLinalg/RelayToLinalg.h"
#include "dialects/relay/RelayOps.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/thread.h"

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

/// The stack of the thread compiled code runs on.
static constexpr unsigned kStackSize = 1u << 30;

class mlir::relay::BigStackWorker {
public:
  BigStackWorker()
      : thread(std::optional<unsigned>(kStackSize), [this] { loop(); }) {}
  ~BigStackWorker() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    wake.notify_all();
    thread.join();
  }

  /// Runs `task` on the worker and waits for it.
  void run(llvm::function_ref<void()> task) {
    std::unique_lock<std::mutex> lock(mutex);
    pending = task;
    done = false;
    wake.notify_all();
    finished.wait(lock, [this] { return done; });
  }

private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      wake.wait(lock, [this] { return stopping || pending; });
      if (stopping)
        return;
      pending();
      pending = nullptr;
      done = true;
      finished.notify_all();
    }
  }

  std::mutex mutex;
  std::condition_variable wake, finished;
  llvm::function_ref<void()> pending;
  bool done = false, stopping = false;
  llvm::thread thread; // last: starts after the fields above exist
};

Executor::~Executor() = default;

/// The tensors a value of type `t` is passed as: a tensor, or a tuple's
/// fields in order (what --relay-to-linalg does to signatures).
static void flattenTensors(Type t, SmallVectorImpl<RankedTensorType> &out) {
  if (auto tuple = dyn_cast<TupleType>(t)) {
    for (Type field : tuple.getTypes())
      flattenTensors(field, out);
    return;
  }
  out.push_back(cast<RankedTensorType>(t));
}

FailureOr<std::unique_ptr<Executor>> Executor::compile(ModuleOp module,
                                                       StringRef entry) {
  auto func = module.lookupSymbol<FuncOp>(entry);
  if (!func)
    return emitError(module.getLoc())
           << "the module has no relay.func @" << entry;
  MLIRContext *ctx = module.getContext();
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(ctx);
  buildRelayToLLVMPipeline(pm);
  if (failed(pm.run(*copy)))
    return failure();
  FunctionType type = func.getFunctionType();

  static std::once_flag targets;
  std::call_once(targets, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  DialectRegistry translations;
  registerBuiltinDialectTranslation(translations);
  registerLLVMDialectTranslation(translations);
  ctx->appendDialectRegistry(translations);
  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(/*optLevel=*/2,
                                               /*sizeLevel=*/0, nullptr);
  options.transformer = transformer;
  // memrefCopy and friends, which bufferized code may call.
  SmallVector<StringRef> libs{RELAY_MLIR_C_RUNNER_UTILS};
  options.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(*copy, options);
  if (!engine)
    return func.emitError("JIT compilation failed: ")
           << llvm::toString(engine.takeError());
  std::unique_ptr<Executor> executor(new Executor());
  executor->engine = std::move(*engine);
  executor->entry = entry.str();
  executor->type = type;
  for (Type t : type.getInputs())
    flattenTensors(t, executor->flatInputs);
  for (Type t : type.getResults())
    flattenTensors(t, executor->flatResults);
  executor->loc = func.getLoc();
  // Only code that calls functions can recurse deeply.
  executor->mayRecurse =
      !module.getOps<FuncOp>().empty() &&
      module.walk([](CallOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  return executor;
}

/// Bytes compiled code uses for one element of `t`.
static unsigned elementBytes(Type t) {
  return t.isInteger(1) ? 1 : t.getIntOrFloatBitWidth() / 8;
}

namespace {
/// How compiled code stores one element, decided once per tensor (type
/// queries per element would dominate the call).
struct ElementLayout {
  enum Kind { F32, F64, SignedInt, UnsignedInt } kind;
  unsigned bytes;

  explicit ElementLayout(Type t) {
    bytes = elementBytes(t);
    if (t.isF32())
      kind = F32;
    else if (t.isF64())
      kind = F64;
    else if (t.isUnsignedInteger() || t.isInteger(1))
      kind = UnsignedInt;
    else
      kind = SignedInt;
  }

  void store(char *p, const Tensor &tensor, int64_t i) const {
    switch (kind) {
    case F32: {
      float v = static_cast<float>(tensor.getF(i));
      std::memcpy(p, &v, 4);
      return;
    }
    case F64: {
      double v = tensor.getF(i);
      std::memcpy(p, &v, 8);
      return;
    }
    default: {
      int64_t v = tensor.getI(i);
      std::memcpy(p, &v, bytes); // little-endian truncation
    }
    }
  }

  void load(const char *p, Tensor &tensor, int64_t i) const {
    switch (kind) {
    case F32: {
      float v;
      std::memcpy(&v, p, 4);
      tensor.setF(i, v);
      return;
    }
    case F64: {
      double v;
      std::memcpy(&v, p, 8);
      tensor.setF(i, v);
      return;
    }
    default: {
      int64_t v = 0;
      std::memcpy(&v, p, bytes);
      unsigned bits = bytes * 8;
      if (bits < 64 && kind == SignedInt)
        v = (v << (64 - bits)) >> (64 - bits); // sign-extend
      tensor.setI(i, v);
    }
    }
  }
};
} // namespace

/// A memref descriptor {allocated, aligned, offset, sizes, strides} of a
/// dense row-major buffer.
static std::vector<int64_t> describe(const void *data, RankedTensorType type) {
  int64_t rank = type.getRank();
  std::vector<int64_t> desc(3 + 2 * rank);
  desc[0] = desc[1] = reinterpret_cast<int64_t>(data);
  desc[2] = 0;
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    desc[3 + d] = type.getDimSize(d);
    desc[3 + rank + d] = stride;
    stride *= type.getDimSize(d);
  }
  return desc;
}

/// Copies the tensor a result descriptor points at into `out`, row-major.
static void copyOut(const int64_t *desc, RankedTensorType type,
                    std::vector<char> &out) {
  int64_t rank = type.getRank();
  unsigned bytes = elementBytes(type.getElementType());
  int64_t n = type.getNumElements();
  out.resize(n * bytes);
  auto *base = reinterpret_cast<char *>(desc[1]) + desc[2] * bytes;
  bool contiguous = true;
  for (int64_t d = rank - 1, stride = 1; d >= 0; --d) {
    contiguous &= desc[3 + d] == 1 || desc[3 + rank + d] == stride;
    stride *= desc[3 + d];
  }
  if (contiguous) {
    if (n)
      std::memcpy(out.data(), base, n * bytes);
    return;
  }
  for (int64_t k = 0; k < n; ++k) {
    int64_t rem = k, linear = 0;
    for (int64_t d = rank - 1; d >= 0; --d) {
      int64_t size = desc[3 + d];
      linear += (rem % size) * desc[3 + rank + d];
      rem /= size;
    }
    std::memcpy(out.data() + k * bytes, base + linear * bytes, bytes);
  }
}

LogicalResult Executor::callNative(ArrayRef<const void *> args,
                                   std::vector<std::vector<char>> &results) {
  if (args.size() != flatInputs.size())
    return emitError(loc) << "the compiled @" << entry << " takes "
                          << flatInputs.size() << " tensors, got "
                          << args.size();
  std::vector<std::vector<int64_t>> descriptors;
  for (auto [arg, t] : llvm::zip(args, flatInputs))
    descriptors.push_back(describe(arg, t));
  // Results come back in one struct of descriptors, laid out one after
  // the other (all fields are 8 bytes).
  SmallVector<size_t> resultOffsets;
  size_t resultWords = 0;
  for (RankedTensorType t : flatResults) {
    resultOffsets.push_back(resultWords);
    resultWords += 3 + 2 * t.getRank();
  }
  std::vector<int64_t> result(std::max<size_t>(resultWords, 1), 0);
  std::vector<void *> pointers;
  if (!flatResults.empty())
    pointers.push_back(result.data());
  for (auto &d : descriptors)
    pointers.push_back(d.data());
  std::vector<void *> packed;
  for (void *&p : pointers)
    packed.push_back(&p);
  // Compiled recursion uses the machine stack: code that makes calls runs
  // on a thread with a large one (its pages are only mapped as used).
  llvm::Error err = llvm::Error::success();
  auto invoke = [&]() {
    llvm::Error result = engine->invokePacked("_mlir_ciface_" + entry, packed);
    err = std::move(result);
  };
  if (mayRecurse) {
    if (!worker)
      worker = std::make_unique<BigStackWorker>();
    worker->run(invoke);
  } else {
    invoke();
  }
  if (err)
    return emitError(loc) << "calling the compiled @" << entry
                          << " failed: " << llvm::toString(std::move(err));
  results.resize(flatResults.size());
  SmallVector<void *> freed;
  for (auto [i, t] : llvm::enumerate(flatResults)) {
    const int64_t *desc = result.data() + resultOffsets[i];
    copyOut(desc, t, results[i]);
    // Result buffers belong to the caller, unless one is an input, a global
    // constant (MLIR marks those with 0xdeadbeef) or returned twice.
    auto *allocated = reinterpret_cast<void *>(desc[0]);
    if (allocated && desc[0] != 0xdeadbeef &&
        !llvm::is_contained(args, allocated) &&
        !llvm::is_contained(freed, allocated)) {
      std::free(allocated);
      freed.push_back(allocated);
    }
  }
  return success();
}

/// Appends the tensors of `value` (a tensor or nested tuples of them).
static bool flattenValue(const ValuePtr &value,
                         SmallVectorImpl<const Tensor *> &out) {
  if (value->getKind() == RuntimeValue::Kind::Tuple) {
    for (const ValuePtr &field : value->getFields())
      if (!flattenValue(field, out))
        return false;
    return true;
  }
  if (!value->isTensor())
    return false;
  out.push_back(&value->getTensor());
  return true;
}

/// Rebuilds a value of type `t` from flattened result tensors.
static ValuePtr rebuild(Type t, ArrayRef<std::vector<char>> buffers,
                        size_t &next) {
  if (auto tuple = dyn_cast<TupleType>(t)) {
    std::vector<ValuePtr> fields;
    for (Type field : tuple.getTypes())
      fields.push_back(rebuild(field, buffers, next));
    return RuntimeValue::tuple(std::move(fields));
  }
  auto type = cast<RankedTensorType>(t);
  Tensor out(type.getElementType(), type.getShape());
  ElementLayout layout(type.getElementType());
  const std::vector<char> &data = buffers[next++];
  for (int64_t k = 0; k < out.getNumElements(); ++k)
    layout.load(data.data() + k * layout.bytes, out, k);
  return RuntimeValue::tensor(std::move(out));
}

LogicalResult Executor::toNative(ArrayRef<ValuePtr> args,
                                 std::vector<std::vector<char>> &buffers) {
  if (args.size() != type.getNumInputs())
    return emitError(loc) << "the compiled @" << entry << " takes "
                          << type.getNumInputs() << " arguments, got "
                          << args.size();
  SmallVector<const Tensor *> tensors;
  for (auto [i, arg] : llvm::enumerate(args)) {
    size_t before = tensors.size();
    SmallVector<RankedTensorType> expected;
    flattenTensors(type.getInput(i), expected);
    bool matches = flattenValue(arg, tensors) &&
                   tensors.size() - before == expected.size();
    for (size_t k = 0; matches && k < expected.size(); ++k)
      matches = tensors[before + k]->getType() == expected[k];
    if (!matches)
      return emitError(loc) << "argument #" << i << " must be a value of "
                            << "type " << type.getInput(i);
  }
  buffers.clear();
  for (const Tensor *t : tensors) {
    ElementLayout layout(t->getElementType());
    std::vector<char> data(std::max<int64_t>(1, t->getNumElements()) *
                           layout.bytes);
    for (int64_t k = 0; k < t->getNumElements(); ++k)
      layout.store(data.data() + k * layout.bytes, *t, k);
    buffers.push_back(std::move(data));
  }
  return success();
}

FailureOr<ValuePtr> Executor::call(ArrayRef<ValuePtr> args) {
  std::vector<std::vector<char>> buffers, results;
  if (failed(toNative(args, buffers)))
    return failure();
  SmallVector<const void *> pointers;
  for (auto &buffer : buffers)
    pointers.push_back(buffer.data());
  if (failed(callNative(pointers, results)))
    return failure();
  size_t next = 0;
  if (type.getNumResults() == 1)
    return rebuild(type.getResult(0), results, next);
  // A relay.func has one result; keep a tuple of none for completeness.
  return RuntimeValue::tuple({});
}
