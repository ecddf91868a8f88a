//===- Executor.cpp - Compile a Relay module and call it --------*- C++ -*-===//

#include "runtime/Executor/Executor.h"
#include "runtime/Interpreter/TensorBytes.h"

#include "conversion/RelayCommon/BoxedValues.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/TypeUtils.h"
#include "runtime/C/AsyncRuntime.h"
#include "runtime/C/RelayRuntime.h"
#ifdef RELAY_MLIR_ENABLE_CUDA
#include "runtime/CUDA/CudaRuntime.h"
#endif
#include "runtime/Executor/SharedWeights.h"
#include "runtime/Executor/SplitForThreads.h"
#include "support/BigStack.h"
#include "transforms/Codegen/CPU/CPUDescription.h"
#include "transforms/Passes.h"
#include "transforms/Pipelines/Pipelines.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>
#include <cstring>
#include <thread>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

// The compiled code's last coroutine may still be finishing on a worker
// after the call that awaited it returned: wait for it before the engines
// unmap the code (a segfault at exit in a few runs in a thousand at two
// threads, before 2026-12-04).
Executor::~Executor() { relay_rt_async_quiesce(); }

namespace {
/// At most this many threads compile a program's loop nests.
constexpr unsigned kMaxCompileThreads = 4;
/// Smaller programs compile on one thread (a part costs a JIT of its own).
constexpr int64_t kMinOpsToSplit = 20000;

/// Makes the C runtime (linked into this library) and `symbols` (weights
/// read in place, functions compiled elsewhere) visible to `engine`'s code.
void registerRuntime(ExecutionEngine &engine,
                     const llvm::StringMap<const void *> &symbols) {
  engine.registerSymbols([&](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    auto add = [&](StringRef name, auto *address) {
      map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                             llvm::JITSymbolFlags::Exported};
    };
    add("relay_rt_alloc", &relay_rt_alloc);
    add("relay_rt_tag", &relay_rt_tag);
    add("relay_rt_set_field", &relay_rt_set_field);
    add("relay_rt_get_field", &relay_rt_get_field);
    add("relay_rt_box", &relay_rt_box);
    add("relay_rt_unbox", &relay_rt_unbox);
    add("relay_rt_fail", &relay_rt_fail);
    add("relay_rt_request_amx", &relay_rt_request_amx);
    add("relay_rt_profile_clock", &relay_rt_profile_clock);
    add("relay_rt_profile_record", &relay_rt_profile_record);
    add("_mlir_memref_to_llvm_alloc", &_mlir_memref_to_llvm_alloc);
    add("_mlir_memref_to_llvm_aligned_alloc",
        &_mlir_memref_to_llvm_aligned_alloc);
    add("_mlir_memref_to_llvm_free", &_mlir_memref_to_llvm_free);
    // Strided copies of bufferized code: the C runtime's, as in objects
    // compiled ahead of time (no libmlir_c_runner_utils.so to find).
    add("memrefCopy", &memrefCopy);
    // Parallel loops (threads > 1) run on the C runtime's workers.
    add("mlirAsyncRuntimeAddRef", &mlirAsyncRuntimeAddRef);
    add("mlirAsyncRuntimeDropRef", &mlirAsyncRuntimeDropRef);
    add("mlirAsyncRuntimeCreateToken", &mlirAsyncRuntimeCreateToken);
    add("mlirAsyncRuntimeCreateValue", &mlirAsyncRuntimeCreateValue);
    add("mlirAsyncRuntimeCreateGroup", &mlirAsyncRuntimeCreateGroup);
    add("mlirAsyncRuntimeAddTokenToGroup", &mlirAsyncRuntimeAddTokenToGroup);
    add("mlirAsyncRuntimeEmplaceToken", &mlirAsyncRuntimeEmplaceToken);
    add("mlirAsyncRuntimeEmplaceValue", &mlirAsyncRuntimeEmplaceValue);
    add("mlirAsyncRuntimeSetTokenError", &mlirAsyncRuntimeSetTokenError);
    add("mlirAsyncRuntimeSetValueError", &mlirAsyncRuntimeSetValueError);
    add("mlirAsyncRuntimeIsTokenError", &mlirAsyncRuntimeIsTokenError);
    add("mlirAsyncRuntimeIsValueError", &mlirAsyncRuntimeIsValueError);
    add("mlirAsyncRuntimeIsGroupError", &mlirAsyncRuntimeIsGroupError);
    add("mlirAsyncRuntimeAwaitToken", &mlirAsyncRuntimeAwaitToken);
    add("mlirAsyncRuntimeAwaitValue", &mlirAsyncRuntimeAwaitValue);
    add("mlirAsyncRuntimeAwaitAllInGroup", &mlirAsyncRuntimeAwaitAllInGroup);
    add("mlirAsyncRuntimeGetValueStorage", &mlirAsyncRuntimeGetValueStorage);
    add("mlirAsyncRuntimeExecute", &mlirAsyncRuntimeExecute);
    add("mlirAsyncRuntimeAwaitTokenAndExecute",
        &mlirAsyncRuntimeAwaitTokenAndExecute);
    add("mlirAsyncRuntimeAwaitValueAndExecute",
        &mlirAsyncRuntimeAwaitValueAndExecute);
    add("mlirAsyncRuntimeAwaitAllInGroupAndExecute",
        &mlirAsyncRuntimeAwaitAllInGroupAndExecute);
    add("mlirAsyncRuntimGetNumWorkerThreads",
        &mlirAsyncRuntimGetNumWorkerThreads);
#ifdef RELAY_MLIR_ENABLE_CUDA
    // The host code of --relay-to-nvvm.
    add("mgpuModuleLoad", &mgpuModuleLoad);
    add("mgpuModuleLoadJIT", &mgpuModuleLoadJIT);
    add("mgpuModuleUnload", &mgpuModuleUnload);
    add("mgpuModuleGetFunction", &mgpuModuleGetFunction);
    add("mgpuLaunchKernel", &mgpuLaunchKernel);
    add("mgpuStreamCreate", &mgpuStreamCreate);
    add("mgpuStreamDestroy", &mgpuStreamDestroy);
    add("mgpuStreamSynchronize", &mgpuStreamSynchronize);
    add("mgpuStreamWaitEvent", &mgpuStreamWaitEvent);
    add("mgpuEventCreate", &mgpuEventCreate);
    add("mgpuEventDestroy", &mgpuEventDestroy);
    add("mgpuEventSynchronize", &mgpuEventSynchronize);
    add("mgpuEventRecord", &mgpuEventRecord);
    add("mgpuMemAlloc", &mgpuMemAlloc);
    add("mgpuMemFree", &mgpuMemFree);
    add("mgpuMemcpy", &mgpuMemcpy);
    add("mgpuMemset32", &mgpuMemset32);
    add("mgpuMemset16", &mgpuMemset16);
    add("mgpuSetDefaultDevice", &mgpuSetDefaultDevice);
    add("relay_cuda_constant", &relay_cuda_constant);
    add("relay_cuda_constant_release", &relay_cuda_constant_release);
#endif
    for (const auto &symbol : symbols)
      add(symbol.getKey(), symbol.getValue());
    return map;
  });
}

/// A part of the program compiled on a thread of its own: its engine and
/// the addresses of its loop nests, or why it failed.
struct CompiledPart {
  std::unique_ptr<ExecutionEngine> engine;
  llvm::StringMap<const void *> symbols;
  std::string error;
};

/// A target machine for the JIT's code for `cpu`: the JIT's defaults (as
/// ExecutionEngine's host machine has them) with that CPU's name and
/// features.
std::unique_ptr<llvm::TargetMachine>
jitTargetMachine(const cpu::CPUDescription &cpu, std::string &error) {
  llvm::orc::JITTargetMachineBuilder builder{
      llvm::Triple(llvm::sys::getProcessTriple())};
  builder.setCPU(cpu.name);
  SmallVector<StringRef> features;
  StringRef(cpu.features).split(features, ',', -1, /*KeepEmpty=*/false);
  for (StringRef feature : features)
    builder.getFeatures().AddFeature(feature);
  auto machine = builder.createTargetMachine();
  if (!machine) {
    error = llvm::toString(machine.takeError());
    return nullptr;
  }
  return std::move(*machine);
}

CompiledPart compilePart(ModuleOp part, const ExecutionEngineOptions &options,
                         const cpu::CPUDescription &cpu) {
  CompiledPart result;
  llvm::StringMap<const void *> weights = externalizeResourceGlobals(part);
  std::unique_ptr<llvm::TargetMachine> machine =
      jitTargetMachine(cpu, result.error);
  if (!machine)
    return result;
  auto engine = ExecutionEngine::create(part, options, std::move(machine));
  if (!engine) {
    result.error = llvm::toString(engine.takeError());
    return result;
  }
  registerRuntime(**engine, weights);
  for (auto func : part.getOps<LLVM::LLVMFuncOp>()) {
    if (func.isExternal() ||
        !relay::hasCodegenMark(func, relay::CodegenMark::LoopNest))
      continue;
    // The first lookup compiles the whole part.
    auto address = (*engine)->lookup(func.getName());
    if (!address) {
      result.error = llvm::toString(address.takeError());
      return result;
    }
    result.symbols[func.getName()] = *address;
  }
  result.engine = std::move(*engine);
  return result;
}
} // namespace

LogicalResult Executor::checkFitsInMemory(ModuleOp module) {
  auto tooLarge = findTensorValue(module, [](RankedTensorType t) {
    std::optional<int64_t> bytes = staticTensorBytes(t);
    return !bytes || *bytes > interp::physicalMemoryBytes();
  });
  if (!tooLarge)
    return success();
  return emitError(tooLarge->second)
         << "a value of type " << tooLarge->first
         << " needs more than this machine's memory ("
         << interp::physicalMemoryBytes()
         << " bytes); compiled code cannot allocate it";
}

FailureOr<std::unique_ptr<Executor>>
Executor::compile(ModuleOp module, StringRef entry,
                  const CompileOptions &compileOptions) {
  auto func = module.lookupSymbol<FuncOp>(entry);
  if (!func)
    return emitError(module.getLoc())
           << "the module has no relay.func @" << entry;
  // Code is for one type of each input; relay-run and the C API
  // (mlirRelayInstantiateEntry) instantiate such an entry for its inputs.
  if (func.isPolymorphic())
    return func.emitError("@")
           << entry << " is polymorphic (" << func.getFunctionType()
           << "): compile it for the types of its inputs (an instance "
              "taking them calls it)";
  MLIRContext *ctx = module.getContext();
  if (compileOptions.isGPU()) {
    // Say what is missing before compiling for a GPU nothing can run.
#ifdef RELAY_MLIR_ENABLE_CUDA
    char why[512];
    if (!relay_cuda_available(why, sizeof(why)))
      return func.emitError("--target cuda: ") << why;
#else
    return func.emitError("--target cuda: this relay-mlir was built without "
                          "the CUDA toolkit (CMake's FindCUDAToolkit found "
                          "none)");
#endif
    DialectRegistry gpu;
    registerGPULoweringDialects(gpu);
    ctx->appendDialectRegistry(gpu);
  }
  // Results that say `?` where constant shapes make them static are
  // compiled from a copy typed so (native code returns known sizes).
  OwningOpRef<ModuleOp> refined =
      refineEntryResults(module, entry, compileOptions.optimize);
  if (refined) {
    module = *refined;
    func = module.lookupSymbol<FuncOp>(entry);
  }
  OwningOpRef<ModuleOp> copy =
      lowerCopyToLLVM(module, withEntry(compileOptions, entry));
  if (!copy)
    return failure();
  FunctionType type = func.getFunctionType();
  // The code is for the CPU --relay-set-target-cpu recorded (the host's
  // unless the options name another): it must be one this machine runs.
  cpu::CPUDescription cpu = cpu::cpuFor(*copy);
  if (std::string missing; !cpu::runsOnHost(cpu, missing))
    return func.emitError("cannot run code for CPU '")
           << cpu.name << "' on this machine: it lacks " << missing
           << " (compile it ahead of time instead)";

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
  auto optimize = makeOptimizingTransformer(/*optLevel=*/2,
                                            /*sizeLevel=*/0, nullptr);
  // The wrappers around the entry only move its arguments and results
  // (over a thousand values for a network's gradient): compiled without
  // optimisation (fast instruction selection, no scheduling), where
  // scheduling one such block took seconds.
  auto transformer = [&optimize](llvm::Module *m) {
    for (llvm::Function &f : *m) {
      StringRef name = f.getName();
      if (f.isDeclaration() || !(name.starts_with("_mlir_ciface_") ||
                                 name.starts_with("_mlir__mlir_ciface_")))
        continue;
      f.addFnAttr(llvm::Attribute::NoInline);
      f.addFnAttr(llvm::Attribute::OptimizeNone);
    }
    return optimize(m);
  };
  options.transformer = transformer;

  // A large program's loop nests are compiled on other threads, in parts,
  // while this thread compiles the rest.
  unsigned cores = std::thread::hardware_concurrency();
  LoopNestParts split;
  if (cores > 1 && !compileOptions.isGPU())
    split = splitLoopNests(*copy, std::min(cores, kMaxCompileThreads),
                           kMinOpsToSplit);
  SmallVector<OwningOpRef<ModuleOp>> &parts = split.modules;
  // Only the entry's C interface is called from outside (lookupPacked
  // below), as in --emit-object's code. The execution engine gives every
  // other external function a packed wrapper that calls it with its
  // arguments one by one: for ResNet-18's entry, a call of over 1,100
  // values whose instruction selection took 3 of the network's 6 seconds
  // of code generation.
  std::string cInterface = ("_mlir_ciface_" + entry).str();
  for (auto f : copy->getOps<LLVM::LLVMFuncOp>()) {
    if (f.isExternal())
      continue;
    if (f.getName() != cInterface)
      f.setLinkage(LLVM::Linkage::Internal);
  }
  // The parts' loop nests get LLVM's -O2 as the rest of the program and
  // as --emit-object's code. (They had -O1, which on a Zen 4 gave
  // ResNet-18 the same run time 0.2-0.3 s sooner; on a Zen 3 JIT code ran
  // networks slower than the same network ahead of time, ResNeXt-50 at
  // one thread 145-171 ms with -O2 against 162-176 ms with -O1 in
  // alternating runs, in the same compile time.)
  // Where the program calls every moved nest through its slot
  // (splitLoopNests), it links without the parts: its code is generated
  // by its first lookup while the threads generate theirs (it was the
  // first call's, after them: a second or more for a network's entry).
  bool throughSlots = split.throughSlots;
  std::vector<CompiledPart> compiled(parts.size());
  std::vector<std::thread> workers;
  for (size_t i = 0; i < parts.size(); ++i)
    workers.emplace_back(
        [&, i] { compiled[i] = compilePart(*parts[i], options, cpu); });
  llvm::StringMap<const void *> weights = externalizeResourceGlobals(*copy);
  std::string machineError;
  std::unique_ptr<llvm::TargetMachine> machine =
      jitTargetMachine(cpu, machineError);
  if (!machine) {
    for (std::thread &worker : workers)
      worker.join();
    return func.emitError("no LLVM target for this CPU: ") << machineError;
  }
  TimingScope codegen;
  if (compileOptions.timing)
    codegen = compileOptions.timing->nest("Machine code (LLVM, JIT)");
  auto engine = ExecutionEngine::create(*copy, options, std::move(machine));
  std::string programError;
  if (engine && throughSlots) {
    registerRuntime(**engine, weights);
    if (auto address = (*engine)->lookup(cInterface); !address)
      programError = llvm::toString(address.takeError());
  }
  for (std::thread &worker : workers)
    worker.join();
  codegen.stop();
  if (!engine)
    return func.emitError("JIT compilation failed: ")
           << llvm::toString(engine.takeError());
  if (!programError.empty())
    return func.emitError("JIT compilation failed: ") << programError;
  for (CompiledPart &part : compiled) {
    if (!part.error.empty())
      return func.emitError("JIT compilation failed: ") << part.error;
    for (const auto &symbol : part.symbols) {
      if (!throughSlots) {
        weights[symbol.getKey()] = symbol.getValue();
        continue;
      }
      auto slot = (*engine)->lookup(nestSlotName(symbol.getKey()));
      if (!slot)
        return func.emitError("JIT compilation failed: ")
               << llvm::toString(slot.takeError());
      *static_cast<const void **>(*slot) = symbol.getValue();
    }
  }
  if (!throughSlots)
    registerRuntime(**engine, weights);
  // Runs the module's constructors now that their callees resolve: the
  // GPU target's load its kernels (mgpuModuleLoad) there.
  (*engine)->initialize();
  // The calling thread runs one task of each parallel loop.
  if (compileOptions.threads > 1)
    relay_rt_async_reserve_workers(compileOptions.threads - 1);
  std::unique_ptr<Executor> executor(new Executor());
  for (CompiledPart &part : compiled)
    executor->partEngines.push_back(std::move(part.engine));
  executor->engine = std::move(*engine);
  executor->entry = entry.str();
  // Looked up once here (a lookup takes the JIT's lock and finds the
  // name); where it fails, the first call reports why.
  if (auto fn = executor->engine->lookupPacked(cInterface))
    executor->packedEntry = *fn;
  else
    llvm::consumeError(fn.takeError());
  executor->type = type;
  executor->module = module;
  executor->ownedModule = std::move(refined);
  for (Type t : type.getInputs())
    (void)flattenType(t, executor->flatInputs);
  for (Type t : type.getResults())
    (void)flattenType(t, executor->flatResults);
  executor->loc = func.getLoc();
  // Only code that calls functions other than primitive ones (fused
  // kernels, which call nothing) or applies closures can recurse deeply;
  // the big stack costs a context switch, three system calls, a call (an
  // interpreted loop's compiled step).
  executor->mayRecurse =
      module
          .walk([&](Operation *op) {
            if (isa<ApplyOp>(op))
              return WalkResult::interrupt();
            auto call = dyn_cast<CallOp>(op);
            if (!call)
              return WalkResult::advance();
            auto callee = module.lookupSymbol<FuncOp>(call.getCalleeAttr());
            return callee && isPrimitiveFunction(callee)
                       ? WalkResult::advance()
                       : WalkResult::interrupt();
          })
          .wasInterrupted();
  std::string where;
  if (auto fileLoc = executor->loc.findInstanceOf<FileLineColLoc>())
    where = (fileLoc.getFilename().getValue() + ":" + Twine(fileLoc.getLine()) +
             ":" + Twine(fileLoc.getColumn()) + ": ")
                .str();
  executor->overflowMessage =
      (where + "error: stack overflow in the compiled @" + entry +
       ": its recursion went deeper than the " + Twine(bigStackSize() >> 20) +
       " MiB stack of compiled code (RELAY_STACK_MIB sets "
       "its size)\n")
          .str();
  return executor;
}

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

/// The bytes of a result of `type` (a tensor's elements, or an object's
/// address).
static size_t resultBytes(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getNumElements() * elementBytes(tensor.getElementType());
  return sizeof(void *);
}

/// Copies the tensor a result descriptor points at into `out` (its
/// resultBytes), row-major.
static void copyOut(const int64_t *desc, RankedTensorType type, char *out) {
  int64_t rank = type.getRank();
  unsigned bytes = elementBytes(type.getElementType());
  int64_t n = type.getNumElements();
  auto *base = reinterpret_cast<char *>(desc[1]) + desc[2] * bytes;
  bool contiguous = true;
  for (int64_t d = rank - 1, stride = 1; d >= 0; --d) {
    contiguous &= desc[3 + d] == 1 || desc[3 + rank + d] == stride;
    stride *= desc[3 + d];
  }
  if (contiguous) {
    if (n)
      std::memcpy(out, base, n * bytes);
    return;
  }
  for (int64_t k = 0; k < n; ++k) {
    int64_t rem = k, linear = 0;
    for (int64_t d = rank - 1; d >= 0; --d) {
      int64_t size = desc[3 + d];
      linear += (rem % size) * desc[3 + rank + d];
      rem /= size;
    }
    std::memcpy(out + k * bytes, base + linear * bytes, bytes);
  }
}

LogicalResult Executor::reportRunTimeError(StringRef message) {
  // Compiled code says where: "file:line:col<TAB>what".
  auto [where, what] = message.split('\t');
  Location at = loc;
  if (!what.empty()) {
    auto [rest, col] = where.rsplit(':');
    auto [file, line] = rest.rsplit(':');
    unsigned l, c;
    if (!line.getAsInteger(10, l) && !col.getAsInteger(10, c))
      at = FileLineColLoc::get(loc.getContext(), file, l, c);
  } else {
    what = message;
  }
  return emitError(at) << what << " (in the compiled @" << entry << ")";
}

bool Executor::returnsObjects() const {
  return llvm::any_of(flatResults,
                      [](Type t) { return isa<LLVM::LLVMPointerType>(t); });
}

LogicalResult Executor::callNative(ArrayRef<const void *> args,
                                   std::vector<std::vector<char>> &results) {
  results.resize(flatResults.size());
  SmallVector<void *> outputs;
  for (auto [i, t] : llvm::enumerate(flatResults)) {
    results[i].resize(resultBytes(t));
    outputs.push_back(results[i].data());
  }
  return callNativeInto(args, outputs);
}

LogicalResult Executor::callNativeInto(ArrayRef<const void *> args,
                                       ArrayRef<void *> outputs) {
  if (outputs.size() != flatResults.size())
    return emitError(loc) << "the compiled @" << entry << " returns "
                          << flatResults.size() << " values, got "
                          << outputs.size() << " buffers for them";
  if (args.size() != flatInputs.size())
    return emitError(loc) << "the compiled @" << entry << " takes "
                          << flatInputs.size() << " values, got "
                          << args.size();
  // Packed arguments: a pointer to each argument, which is a memref
  // descriptor's address for a tensor and the object for a boxed value.
  std::vector<std::vector<int64_t>> descriptors;
  std::vector<const void *> slots;
  for (auto [arg, t] : llvm::zip(args, flatInputs)) {
    if (auto tensor = dyn_cast<RankedTensorType>(t)) {
      descriptors.push_back(describe(arg, tensor));
      slots.push_back(descriptors.back().data());
    } else {
      slots.push_back(arg);
    }
  }
  // Results: one object comes back as the return value; otherwise the
  // results (descriptors and objects, 8-byte words each) fill a struct
  // whose address is the first argument.
  bool byValue =
      flatResults.size() == 1 && isa<LLVM::LLVMPointerType>(flatResults[0]);
  SmallVector<size_t> offsets;
  size_t words = 0;
  for (Type t : flatResults) {
    offsets.push_back(words);
    auto tensor = dyn_cast<RankedTensorType>(t);
    words += tensor ? 3 + 2 * tensor.getRank() : 1;
  }
  std::vector<int64_t> result(std::max<size_t>(words, 1), 0);
  std::vector<void *> packed;
  const void *resultAddress = result.data();
  if (!flatResults.empty() && !byValue)
    packed.push_back(&resultAddress);
  for (const void *&slot : slots)
    packed.push_back(&slot);
  if (byValue)
    packed.push_back(result.data());

  if (!packedEntry) {
    auto fn = engine->lookupPacked("_mlir_ciface_" + entry);
    if (!fn)
      return emitError(loc)
             << "the compiled @" << entry
             << " cannot be called: " << llvm::toString(fn.takeError());
    packedEntry = *fn;
  }
  // Objects made by a call live in an arena: this call's own, unless it
  // returns objects, which live in the caller's.
  bool ownArena = !returnsObjects();
  if (ownArena)
    relay_rt_arena_push();
  const char *error = nullptr;
  auto invoke = [&]() {
    error = relay_rt_guarded_call(packedEntry, packed.data());
  };
  // Compiled recursion uses the machine stack: code that makes calls runs
  // on a large one.
  if (mayRecurse)
    runOnBigStack(invoke, overflowMessage);
  else
    invoke();
  if (ownArena)
    relay_rt_arena_pop();
  if (error)
    return reportRunTimeError(error);
  // Every result is copied out before any buffer is freed: a buffer may be
  // returned more than once (CSE makes equal results one value).
  for (auto [i, t] : llvm::enumerate(flatResults)) {
    const int64_t *desc = result.data() + offsets[i];
    auto *out = static_cast<char *>(outputs[i]);
    if (auto tensor = dyn_cast<RankedTensorType>(t)) {
      copyOut(desc, tensor, out);
      continue;
    }
    std::memcpy(out, desc, sizeof(void *));
  }
  // Result buffers belong to the caller, unless one is an input or a global
  // constant (MLIR marks those with 0xdeadbeef); each is freed once.
  SmallVector<void *> freed;
  for (auto [i, t] : llvm::enumerate(flatResults)) {
    auto *allocated = reinterpret_cast<void *>(result[offsets[i]]);
    if (isa<RankedTensorType>(t) && allocated &&
        result[offsets[i]] != 0xdeadbeef &&
        !llvm::is_contained(args, allocated) &&
        !llvm::is_contained(freed, allocated)) {
      _mlir_memref_to_llvm_free(allocated);
      freed.push_back(allocated);
    }
  }
  return success();
}

bool Executor::takesObjects() const {
  return llvm::any_of(flatInputs,
                      [](Type t) { return isa<LLVM::LLVMPointerType>(t); });
}

void *Executor::boxValue(Type type, const ValuePtr &value) {
  if (auto tensorType = dyn_cast<RankedTensorType>(type)) {
    if (!value->isTensor() || value->getTensor().getType() != tensorType)
      return nullptr;
    std::vector<char> bytes = tensorBytes(value->getTensor());
    return relay_rt_box(bytes.data(),
                        tensorType.getNumElements() *
                            elementBytes(tensorType.getElementType()));
  }
  if (auto tuple = dyn_cast<TupleType>(type)) {
    if (value->getKind() != RuntimeValue::Kind::Tuple ||
        value->getFields().size() != tuple.size())
      return nullptr;
    void *object = relay_rt_alloc(0, tuple.size());
    for (auto [i, field] : llvm::enumerate(tuple.getTypes())) {
      void *box = boxValue(field, value->getFields()[i]);
      if (!box)
        return nullptr;
      relay_rt_set_field(object, i, box);
    }
    return object;
  }
  if (auto ref = dyn_cast<RefType>(type)) {
    if (value->getKind() != RuntimeValue::Kind::Ref)
      return nullptr;
    void *cell = relay_rt_alloc(0, 1);
    void *box = boxValue(ref.getElementType(), value->getRefContents());
    if (!box)
      return nullptr;
    relay_rt_set_field(cell, 0, box);
    return cell;
  }
  // An ADT value. The last field of each constructor, when it is an ADT
  // value too (a list's tail), is boxed in this loop: a long list nests as
  // deep as it is long.
  void *result = nullptr, *link = nullptr;
  unsigned linkField = 0;
  for (const RuntimeValue *at = value.get();;) {
    auto adt = dyn_cast<AdtType>(type);
    if (!adt || at->getKind() != RuntimeValue::Kind::Adt)
      return nullptr;
    auto ctor = cast<CtorOp>(at->getConstructor());
    SmallVector<Type> fields = constructorFieldTypes(ctor, adt);
    if (fields.size() != at->getFields().size())
      return nullptr;
    void *object = relay_rt_alloc(ctor.getTag(), fields.size());
    if (link)
      relay_rt_set_field(link, linkField, object);
    else
      result = object;
    bool chained = !fields.empty() && isa<AdtType>(fields.back());
    for (unsigned i = 0, e = fields.size() - (chained ? 1 : 0); i < e; ++i) {
      void *box = boxValue(fields[i], at->getFields()[i]);
      if (!box)
        return nullptr;
      relay_rt_set_field(object, i, box);
    }
    if (!chained)
      return result;
    link = object;
    linkField = fields.size() - 1;
    type = fields.back();
    at = at->getFields().back().get();
  }
}

ValuePtr Executor::unboxValue(Type type, const void *box) {
  if (auto tensorType = dyn_cast<RankedTensorType>(type))
    return RuntimeValue::tensor(
        tensorFromBytes(tensorType, static_cast<const char *>(box)));
  if (auto tuple = dyn_cast<TupleType>(type)) {
    std::vector<ValuePtr> fields;
    for (auto [i, field] : llvm::enumerate(tuple.getTypes()))
      fields.push_back(unboxValue(field, relay_rt_get_field(box, i)));
    return RuntimeValue::tuple(std::move(fields));
  }
  if (auto ref = dyn_cast<RefType>(type))
    return RuntimeValue::ref(
        unboxValue(ref.getElementType(), relay_rt_get_field(box, 0)));
  // A compiled closure is opaque to the interpreter's values: it prints as
  // <closure> and cannot be applied there.
  if (isa<FuncType>(type))
    return RuntimeValue::closure(nullptr, nullptr);
  // An ADT value: the constructors down the chain of last fields that are
  // ADT values (a list's tails) are read in a loop, then built from the
  // innermost out.
  struct Link {
    CtorOp ctor;
    std::vector<ValuePtr> fields;
  };
  std::vector<Link> chain;
  ValuePtr inner;
  while (!inner) {
    auto adt = cast<AdtType>(type);
    auto data = module.lookupSymbol<DataOp>(adt.getName());
    CtorOp ctor = data.getConstructors()[relay_rt_tag(box)];
    SmallVector<Type> fields = constructorFieldTypes(ctor, adt);
    bool chained = !fields.empty() && isa<AdtType>(fields.back());
    std::vector<ValuePtr> values;
    for (unsigned i = 0, e = fields.size() - (chained ? 1 : 0); i < e; ++i)
      values.push_back(unboxValue(fields[i], relay_rt_get_field(box, i)));
    if (!chained) {
      inner = RuntimeValue::adt(ctor, std::move(values));
      break;
    }
    chain.push_back({ctor, std::move(values)});
    box = relay_rt_get_field(box, fields.size() - 1);
    type = fields.back();
  }
  for (Link &link : llvm::reverse(chain)) {
    link.fields.push_back(std::move(inner));
    inner = RuntimeValue::adt(link.ctor, std::move(link.fields));
  }
  return inner;
}

LogicalResult Executor::encode(Type type, const ValuePtr &value,
                               std::vector<std::vector<char>> &buffers,
                               SmallVectorImpl<const void *> &pointers) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    if (value->getKind() != RuntimeValue::Kind::Tuple ||
        value->getFields().size() != tuple.size())
      return failure();
    for (auto [field, v] : llvm::zip(tuple.getTypes(), value->getFields()))
      if (failed(encode(field, v, buffers, pointers)))
        return failure();
    return success();
  }
  if (auto tensorType = dyn_cast<RankedTensorType>(type)) {
    if (!value->isTensor() || value->getTensor().getType() != tensorType)
      return failure();
    buffers.push_back(tensorBytes(value->getTensor()));
    pointers.push_back(buffers.back().data());
    return success();
  }
  void *object = boxValue(type, value);
  if (!object)
    return failure();
  pointers.push_back(object);
  return success();
}

/// Rebuilds a value of type `t` from the flattened results.
ValuePtr Executor::rebuild(Type t, ArrayRef<std::vector<char>> results,
                           size_t &next) {
  if (auto tuple = dyn_cast<TupleType>(t)) {
    std::vector<ValuePtr> fields;
    for (Type field : tuple.getTypes())
      fields.push_back(rebuild(field, results, next));
    return RuntimeValue::tuple(std::move(fields));
  }
  const std::vector<char> &data = results[next++];
  if (auto type = dyn_cast<RankedTensorType>(t))
    return RuntimeValue::tensor(tensorFromBytes(type, data.data()));
  void *object;
  std::memcpy(&object, data.data(), sizeof(void *));
  return unboxValue(t, object);
}

LogicalResult Executor::toNative(ArrayRef<ValuePtr> args,
                                 std::vector<std::vector<char>> &buffers,
                                 SmallVectorImpl<const void *> &pointers) {
  if (args.size() != type.getNumInputs())
    return emitError(loc) << "the compiled @" << entry << " takes "
                          << type.getNumInputs() << " arguments, got "
                          << args.size();
  buffers.clear();
  pointers.clear();
  // Buffers must not move once pointed to.
  buffers.reserve(flatInputs.size());
  for (auto [i, arg] : llvm::enumerate(args))
    if (failed(encode(type.getInput(i), arg, buffers, pointers)))
      return emitError(loc) << "argument #" << i << " must be a value of "
                            << "type " << type.getInput(i);
  return success();
}

FailureOr<ValuePtr> Executor::call(ArrayRef<ValuePtr> args) {
  // Objects of the arguments and the result live until the result is read.
  relay_rt_arena_push();
  llvm::scope_exit done([] { relay_rt_arena_pop(); });
  std::vector<std::vector<char>> buffers, results;
  SmallVector<const void *> pointers;
  if (failed(toNative(args, buffers, pointers)) ||
      failed(callNative(pointers, results)))
    return failure();
  size_t next = 0;
  if (type.getNumResults() == 1)
    return rebuild(type.getResult(0), results, next);
  // A relay.func has one result; keep a tuple of none for completeness.
  return RuntimeValue::tuple({});
}
