//===- Executor.cpp - C API: compile a Relay module and call it -*- C++ -*-===//

#include "capi/Executor.h"
#include "capi/Internal/CompileOptions.h"

#include "conversion/RelayToLinalg/LoweringTarget.h"
#include "runtime/Executor/Executor.h"
#include "transforms/Codegen/CPU/CPUDescription.h"
#include "transforms/Codegen/CPU/CPUTarget.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "llvm/ADT/StringExtras.h"

#include <cstring>

using namespace mlir;
using namespace mlir::relay;

static Executor *unwrap(MlirRelayExecutor executor) {
  return static_cast<Executor *>(executor.ptr);
}

MlirRelayCompileOptions mlirRelayCompileOptionsGetDefault(void) {
  return {/*optLevel=*/3, /*threads=*/1, mlirStringRefCreateFromCString("cpu"),
          mlirStringRefCreateFromCString("host"),
          mlirStringRefCreateFromCString("fp32")};
}

FailureOr<CompileOptions>
mlir::relay::convertCompileOptions(const MlirRelayCompileOptions &c,
                                   StringRef entry, Location loc) {
  registerCPULoweringTarget();
  CompileOptions options;
  StringRef target = unwrap(c.target), precision = unwrap(c.precision);
  StringRef cpuName = unwrap(c.cpu);
  if (c.optLevel < 0 || c.optLevel > 3)
    return emitError(loc) << "optLevel " << c.optLevel
                          << ": the levels are 0 to 3";
  if (c.threads < 1)
    return emitError(loc) << "threads " << c.threads
                          << ": at least one thread runs the code";
  if (target != "cuda" && !lookupLoweringTarget(target))
    return emitError(loc) << "unknown target '" << target << "' ("
                          << llvm::join(getLoweringTargetNames(), ", ")
                          << ", cuda)";
  if (std::string error = checkPrecision(target, precision); !error.empty())
    return emitError(loc) << error;
  std::string error, missing;
  FailureOr<cpu::CPUDescription> cpu = cpu::lookupCPU(cpuName, error);
  if (failed(cpu))
    return emitError(loc) << "cpu: " << error;
  if (!cpu::runsOnHost(*cpu, missing))
    return emitError(loc) << "cpu '" << cpuName << "': this machine lacks "
                          << missing << ", which code for it uses";
  options.threads = c.threads;
  options.target = target.str();
  options.cpu = cpuName.str();
  options.precision = precision.str();
  // The GPU's kernels start from the target-neutral ones.
  options.optimize.target = options.isGPU() ? "generic" : target.str();
  options.optimize.optLevel = c.optLevel;
  options.optimize.entryFunctions.push_back(entry.str());
  return options;
}

MlirLogicalResult mlirRelayCompileOptionsVerify(MlirRelayCompileOptions options,
                                                MlirLocation loc) {
  return wrap(
      LogicalResult(convertCompileOptions(options, "main", unwrap(loc))));
}

MlirRelayExecutor mlirRelayExecutorCreate(MlirModule module,
                                          MlirStringRef entry,
                                          MlirRelayCompileOptions options) {
  ModuleOp op = unwrap(module);
  StringRef name = unwrap(entry);
  FailureOr<CompileOptions> converted =
      convertCompileOptions(options, name, op.getLoc());
  if (failed(converted) || failed(Executor::checkFitsInMemory(op)))
    return {nullptr};
  FailureOr<std::unique_ptr<Executor>> executor =
      Executor::compile(op, name, *converted);
  if (failed(executor))
    return {nullptr};
  if ((*executor)->takesObjects() || (*executor)->returnsObjects()) {
    Operation *func = op.lookupSymbol(name);
    emitError(func->getLoc())
        << "@" << name << " takes or returns " << (*executor)->getType()
        << ": closures, ADT values and references cannot be passed through "
           "the C API (tensors and tuples of them can)";
    return {nullptr};
  }
  return {executor->release()};
}

void mlirRelayExecutorDestroy(MlirRelayExecutor executor) {
  delete unwrap(executor);
}

MlirType mlirRelayExecutorGetFunctionType(MlirRelayExecutor executor) {
  return wrap(Type(unwrap(executor)->getType()));
}

intptr_t mlirRelayExecutorGetNumInputs(MlirRelayExecutor executor) {
  return unwrap(executor)->getFlatInputs().size();
}

MlirType mlirRelayExecutorGetInputType(MlirRelayExecutor executor,
                                       intptr_t pos) {
  return wrap(unwrap(executor)->getFlatInputs()[pos]);
}

intptr_t mlirRelayExecutorGetNumResults(MlirRelayExecutor executor) {
  return unwrap(executor)->getFlatResults().size();
}

MlirType mlirRelayExecutorGetResultType(MlirRelayExecutor executor,
                                        intptr_t pos) {
  return wrap(unwrap(executor)->getFlatResults()[pos]);
}

int64_t mlirRelayGetBufferBytes(MlirType type) {
  auto tensor = dyn_cast<RankedTensorType>(unwrap(type));
  if (!tensor || !tensor.hasStaticShape() ||
      !tensor.getElementType().isIntOrFloat())
    return -1;
  int64_t bytes = (tensor.getElementTypeBitWidth() + 7) / 8;
  for (int64_t size : tensor.getShape())
    if (__builtin_mul_overflow(bytes, size, &bytes))
      return -1;
  return bytes;
}

MlirLogicalResult mlirRelayExecutorCall(MlirRelayExecutor executor,
                                        const void *const *inputs,
                                        void *const *results) {
  Executor *exec = unwrap(executor);
  SmallVector<const void *> args(inputs, inputs + exec->getFlatInputs().size());
  SmallVector<void *> outputs(results, results + exec->getFlatResults().size());
  // Each result straight into the caller's buffer (one copy).
  if (failed(exec->callNativeInto(args, outputs)))
    return mlirLogicalResultFailure();
  return mlirLogicalResultSuccess();
}
