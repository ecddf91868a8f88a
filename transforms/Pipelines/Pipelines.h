//===- Pipelines.h - Relay lowering pipelines, one per target ---*- C++ -*-===//
//
// The pass pipelines that take a Relay module to the LLVM dialect, one
// builder per target: --relay-to-llvm for x86 CPUs, --relay-to-nvvm for
// NVIDIA GPUs. Each builds its passes
// directly (no pass registry needed); registerRelayPipelines registers the
// pipelines and the upstream passes they run, so that a tool can run them,
// or their steps one at a time.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_PIPELINES_PIPELINES_H
#define RELAY_MLIR_TRANSFORMS_PIPELINES_PIPELINES_H

#include "transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/Timing.h"

namespace mlir::relay {

/// Checks the level and that every pass named is one of the levels';
/// reports with `error` (which gives the diagnostic to add to) otherwise.
LogicalResult verifyOptimizeOptions(const OptimizeOptions &options,
                                    function_ref<InFlightDiagnostic()> error);

/// Whether --relay-optimize runs the pass `name` (TVM's name or the flag).
bool isOptimizationEnabled(StringRef name, const OptimizeOptions &options);

/// Whether `name` is a pass of the levels (TVM's name or its flag).
bool isOptimizationName(StringRef name);

/// The passes of the levels, as "Name (flag), ...".
std::string getOptimizationNames();

/// --relay-optimize's passes: type inference, then those `options` enable.
void buildOptimizePipeline(OpPassManager &pm, const OptimizeOptions &options);

/// Where `entry`'s declared results leave sizes `?` that constant folding
/// and DynamicToStatic (when `options` enable it) make static, a copy of
/// `module` with `entry` typed so (--relay-dynamic-to-static
/// refine-signatures): what the Executor and relay-run compile, since
/// native code returns tensors of known sizes. Null otherwise.
OwningOpRef<ModuleOp> refineEntryResults(ModuleOp module, StringRef entry,
                                         const OptimizeOptions &options);

/// Adds `@<entry>_grad` to a typed, decomposed `module` (relay-run
/// --gradient): the entry's calls inlined, then --relay-gradient, first
/// order where the entry allows it, else higher order followed by
/// --relay-partial-eval and dead code elimination. Reports at the module or
/// the op what cannot be differentiated.
LogicalResult differentiateEntry(ModuleOp module, StringRef entry,
                                 TimingScope *timing = nullptr);

/// The CUDA toolkit CMake found when relay-mlir was built, else "".
std::string getDefaultCUDAToolkit();

/// How relay-mlir compiles a module: relay-run's flags, the Executor's and
/// the ahead-of-time compiler's options.
struct CompileOptions {
  /// Where the lowering's passes and the machine code generation report
  /// their times (relay-run --timing); null: not timed.
  TimingScope *timing = nullptr;
  /// Threads the parallel loops run on.
  int64_t threads = 1;
  /// The lowering target of products and convolutions.
  std::string target = "cpu";
  /// The x86 CPU the code is for (--relay-set-target-cpu's `cpu`): host or
  /// an LLVM CPU name.
  std::string cpu = "host";
  /// The operands of convolutions and matrix products: fp32; on the CPU
  /// targets bf16 (--relay-to-mixed-precision: rounded to bfloat16, summed
  /// in float32); on cuda tf32 (float32 products on tensor cores, read as
  /// TF32: --relay-gpu-tile-contractions' tf32).
  std::string precision = "fp32";
  /// Whether each loop nest's calls are timed (--relay-profile-loop-nests;
  /// the CPU targets).
  bool profileLoopNests = false;
  /// --relay-optimize's options (the -O level, passes disabled, required;
  /// entry functions).
  OptimizeOptions optimize;
  /// The `cuda` target: the GPU's compute capability, the PTX features,
  /// what the gpu.binary holds (isa: PTX text; bin: a cubin through
  /// ptxas; fatbin) and the threads of a block.
  std::string gpuChip = "sm_90";
  std::string gpuFeatures = "+ptx80";
  std::string gpuFormat = "isa";
  int64_t gpuBlockSize = 256;
  /// Results a thread of a product or convolution computes along each of
  /// two dimensions, at most (--relay-gpu-map-parallel-loops' thread-tile).
  int64_t gpuThreadTile = 4;
  /// Results a thread of a product or convolution computes along each side
  /// on shared-memory tiles (--relay-gpu-tile-contractions' thread-tile: 0
  /// by size, 4 or 8; -1: no shared-memory tiles, each as loops).
  int64_t gpuSharedTile = 0;
  /// The CUDA toolkit (libdevice, ptxas): the one CMake found, else where
  /// $CUDA_HOME, $CUDA_ROOT or $CUDA_PATH say.
  std::string cudaToolkit = getDefaultCUDAToolkit();

  /// Whether the code runs on a GPU (the `cuda` target).
  bool isGPU() const { return target == "cuda"; }
};

/// What is wrong with computing at `precision` on `target` (see
/// CompileOptions::precision), or "" where nothing is.
std::string checkPrecision(StringRef target, StringRef precision);

/// `options` with `entry` the entry function, unless they name some.
CompileOptions withEntry(CompileOptions options, StringRef entry);

/// The options of --relay-optimize that every lowering pipeline takes.
template <typename Derived>
struct LoweringPipelineOptions : public PassPipelineOptions<Derived> {
  ::mlir::detail::PassOptions::Option<int64_t> optLevel{
      *this, "opt-level",
      llvm::cl::desc("Relay's optimisation level (--relay-optimize's); at 0 "
                     "each operator is its own kernel"),
      llvm::cl::init(3)};
  ::mlir::detail::PassOptions::ListOption<std::string> disabledPasses{
      *this, "disabled-passes",
      llvm::cl::desc("Passes of --relay-optimize not to run")};
  ::mlir::detail::PassOptions::ListOption<std::string> requiredPasses{
      *this, "required-passes",
      llvm::cl::desc("Passes of --relay-optimize to run whatever the level")};
  ::mlir::detail::PassOptions::ListOption<std::string> entryFunctions{
      *this, "entry-functions",
      llvm::cl::desc("The functions the program is called through (default: "
                     "main)")};

  /// These options as the compiler's.
  OptimizeOptions getOptimizeOptions() const {
    OptimizeOptions options;
    options.optLevel = optLevel;
    options.disabledPasses.assign(disabledPasses.begin(), disabledPasses.end());
    options.requiredPasses.assign(requiredPasses.begin(), requiredPasses.end());
    options.entryFunctions.assign(entryFunctions.begin(), entryFunctions.end());
    return options;
  }
};

/// Options of --relay-to-llvm.
struct RelayToLLVMOptions : public LoweringPipelineOptions<RelayToLLVMOptions> {
  Option<int64_t> threads{
      *this, "threads",
      llvm::cl::desc("Threads large contractions run on (above 1: calls to "
                     "MLIR's async runtime API, which libRelayMLIRCRuntime "
                     "implements)"),
      llvm::cl::init(1)};
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("The lowering target that builds products and "
                     "convolutions (--relay-to-linalg's): cpu (the x86 "
                     "kernels) or generic (linalg's named ops; slower, for "
                     "comparison and other targets)"),
      llvm::cl::init("cpu")};
  Option<std::string> cpu{
      *this, "cpu",
      llvm::cl::desc("The x86 CPU the code is for: host (this machine) or an "
                     "LLVM CPU name (llc -mcpu=help); its caches and vector "
                     "ISA size the kernels (--relay-set-target-cpu)"),
      llvm::cl::init("host")};
  Option<std::string> precision{
      *this, "precision",
      llvm::cl::desc("The operands of convolutions and matrix products: "
                     "fp32, or bf16 (--relay-to-mixed-precision: rounded "
                     "to bfloat16, summed in float32; AVX-512 BF16 where "
                     "the CPU has it)"),
      llvm::cl::init("fp32")};
  Option<bool> profile{
      *this, "profile",
      llvm::cl::desc("Time each call of a loop nest under its operator's "
                     "location (--relay-profile-loop-nests; the C runtime's "
                     "relay_rt_profile_report gives the times)"),
      llvm::cl::init(false)};
  /// These options as the compiler's.
  CompileOptions getCompileOptions() const;
};

/// Options of --relay-to-nvvm.
struct RelayToNVVMOptions : public LoweringPipelineOptions<RelayToNVVMOptions> {
  Option<std::string> chip{
      *this, "chip", llvm::cl::desc("The GPU's compute capability (sm_NN)"),
      llvm::cl::init("sm_90")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (+ptxNN: the PTX ISA version; sm_90 "
                     "needs PTX 7.8 or later)"),
      llvm::cl::init("+ptx80")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What the gpu.binary holds: isa (PTX text, compiled "
                     "by the CUDA driver when loaded), bin (a cubin, "
                     "through the CUDA toolkit's ptxas) or fatbin"),
      llvm::cl::init("isa")};
  Option<int64_t> blockSize{
      *this, "block-size",
      llvm::cl::desc("Threads of a GPU block (a multiple of 32, at most "
                     "1024)"),
      llvm::cl::init(256)};
  Option<int64_t> threadTile{
      *this, "thread-tile",
      llvm::cl::desc("Results a GPU thread of a product or convolution "
                     "computes along each of two dimensions, at most (4, 2 "
                     "or 1)"),
      llvm::cl::init(4)};
  Option<int64_t> sharedTile{
      *this, "shared-tile",
      llvm::cl::desc("Results a GPU thread computes along each side of a "
                     "product or convolution staged through shared memory "
                     "(8, 4, 0: by its size; -1: none staged, each a loop "
                     "nest of thread-tile results per thread)"),
      llvm::cl::init(0)};
  Option<std::string> precision{
      *this, "precision",
      llvm::cl::desc("The operands of convolutions and matrix products: "
                     "fp32, or tf32 (float32 products on tensor cores, "
                     "their operands read as TF32: 10 bits of mantissa, "
                     "summed in float32); bf16 narrows them as on the CPU "
                     "(--relay-to-mixed-precision, products on CUDA cores; "
                     "not yet run on a device, so relay-run refuses it)"),
      llvm::cl::init("fp32")};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("The CUDA toolkit's directory: its libdevice has the "
                     "kernels' math functions, its ptxas makes cubins "
                     "(default: the one found when relay-mlir was built, "
                     "else $CUDA_HOME)")};
  /// These options as the compiler's (target `cuda`).
  CompileOptions getCompileOptions() const;
};

/// The first half of every lowering pipeline: type inference,
/// specialisation, the -O level's optimisations, decomposition, Relay to
/// linalg with `loweringTarget`'s kernels, fusion, one-shot bufferization.
void buildRelayToBuffersPipeline(OpPassManager &pm,
                                 const CompileOptions &options,
                                 StringRef loweringTarget);

/// The CUDA pipeline: buffers as above (the target-neutral kernels), each
/// operator's parallel loops as a kernel of GPU blocks and threads, managed
/// memory, the upstream lowering to NVVM and the kernels serialised into
/// a gpu.binary; the host code in the LLVM dialect calls the runtime's
/// mgpu* functions.
void buildRelayToNVVMPipeline(OpPassManager &pm, const CompileOptions &options);

/// The CPU pipeline: type inference, specialisation, decomposition, Relay
/// to linalg (the `cpu` lowering target), fusion, one-shot bufferization,
/// tiling and vectorisation, buffer deallocation, loops, the LLVM dialect.
void buildRelayToLLVMPipeline(OpPassManager &pm,
                              const RelayToLLVMOptions &options);
void buildRelayToLLVMPipeline(OpPassManager &pm);

/// The CPU pipeline with the compiler's options.
void buildRelayToLLVMPipeline(OpPassManager &pm, const CompileOptions &options);

/// A copy of `module` lowered by --relay-to-llvm, or --relay-to-nvvm for
/// the `cuda` target (the module is unchanged) with `options`; null after
/// the pipeline reported an error.
OwningOpRef<ModuleOp> lowerCopyToLLVM(ModuleOp module,
                                      const CompileOptions &options = {});

/// Registers --relay-to-llvm, --relay-to-nvvm and each upstream pass they
/// run.
void registerRelayPipelines();

/// Registers --relay-to-nvvm and the upstream GPU passes (part of
/// registerRelayPipelines).
void registerRelayToNVVMPipeline();

/// The dialects --relay-to-nvvm lowers to, the NVVM target's serialisation
/// and the translations of kernels and launches to LLVM IR.
void registerGPULoweringDialects(DialectRegistry &registry);

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_PIPELINES_PIPELINES_H
