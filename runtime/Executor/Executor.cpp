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

#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

/// The stack of the thread compiled code runs on.
static constexpr unsigned kStackSize = 1u << 30;

Executor::~Executor() = default;

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
  if (type.getNumResults() != 1 || !isa<RankedTensorType>(type.getResult(0)))
    return func.emitError("the compiled entry must return one tensor");

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

LogicalResult Executor::callNative(ArrayRef<const void *> args,
                                   std::vector<char> &out) {
  if (args.size() != type.getNumInputs())
    return emitError(loc) << "the compiled @" << entry << " takes "
                          << type.getNumInputs() << " arguments, got "
                          << args.size();
  // Inputs as memref descriptors: {allocated, aligned, offset, sizes,
  // strides}.
  std::vector<std::vector<int64_t>> descriptors;
  for (auto [i, arg] : llvm::enumerate(args)) {
    auto tensorType = cast<RankedTensorType>(type.getInput(i));
    int64_t rank = tensorType.getRank();
    std::vector<int64_t> desc(3 + 2 * rank);
    desc[0] = desc[1] = reinterpret_cast<int64_t>(arg);
    desc[2] = 0;
    int64_t stride = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      desc[3 + d] = tensorType.getDimSize(d);
      desc[3 + rank + d] = stride;
      stride *= tensorType.getDimSize(d);
    }
    descriptors.push_back(std::move(desc));
  }
  auto resultType = cast<RankedTensorType>(type.getResult(0));
  int64_t rank = resultType.getRank();
  std::vector<int64_t> result(3 + 2 * rank, 0);
  std::vector<void *> pointers;
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
    llvm::thread worker(std::optional<unsigned>(kStackSize), invoke);
    worker.join();
  } else {
    invoke();
  }
  if (err)
    return emitError(loc) << "calling the compiled @" << entry
                          << " failed: " << llvm::toString(std::move(err));
  // Copy the result out row-major, following its strides.
  unsigned bytes = elementBytes(resultType.getElementType());
  int64_t n = resultType.getNumElements();
  out.resize(n * bytes);
  auto *base = reinterpret_cast<char *>(result[1]) + result[2] * bytes;
  bool contiguous = true;
  for (int64_t d = rank - 1, stride = 1; d >= 0; --d) {
    contiguous &= result[3 + d] == 1 || result[3 + rank + d] == stride;
    stride *= result[3 + d];
  }
  if (contiguous) {
    std::memcpy(out.data(), base, n * bytes);
  } else {
    for (int64_t k = 0; k < n; ++k) {
      int64_t rem = k, linear = 0;
      for (int64_t d = rank - 1; d >= 0; --d) {
        int64_t size = result[3 + d];
        linear += (rem % size) * result[3 + rank + d];
        rem /= size;
      }
      std::memcpy(out.data() + k * bytes, base + linear * bytes, bytes);
    }
  }
  // The result buffer belongs to the caller, unless it is an input or a
  // global constant (MLIR marks those with 0xdeadbeef).
  auto *allocated = reinterpret_cast<void *>(result[0]);
  bool isInput = llvm::is_contained(args, allocated);
  if (allocated && !isInput && result[0] != 0xdeadbeef)
    std::free(allocated);
  return success();
}

FailureOr<ValuePtr> Executor::call(ArrayRef<ValuePtr> args) {
  if (args.size() != type.getNumInputs())
    return emitError(loc) << "the compiled @" << entry << " takes "
                          << type.getNumInputs() << " arguments, got "
                          << args.size();
  std::vector<std::vector<char>> buffers;
  SmallVector<const void *> pointers;
  for (auto [i, arg] : llvm::enumerate(args)) {
    auto tensorType = cast<RankedTensorType>(type.getInput(i));
    if (!arg->isTensor() || arg->getTensor().getType() != tensorType)
      return emitError(loc) << "argument #" << i << " must be a tensor of "
                            << "type " << tensorType;
    const Tensor &t = arg->getTensor();
    ElementLayout layout(t.getElementType());
    std::vector<char> data(std::max<int64_t>(1, t.getNumElements()) *
                           layout.bytes);
    for (int64_t k = 0; k < t.getNumElements(); ++k)
      layout.store(data.data() + k * layout.bytes, t, k);
    buffers.push_back(std::move(data));
    pointers.push_back(buffers.back().data());
  }
  std::vector<char> result;
  if (failed(callNative(pointers, result)))
    return failure();
  auto resultType = cast<RankedTensorType>(type.getResult(0));
  Tensor out(resultType.getElementType(), resultType.getShape());
  ElementLayout layout(resultType.getElementType());
  for (int64_t k = 0; k < out.getNumElements(); ++k)
    layout.load(result.data() + k * layout.bytes, out, k);
  return RuntimeValue::tensor(std::move(out));
}
