//===- NativeRegions.cpp - Compiled regions of interpreted programs -------===//

#include "runtime/Executor/NativeRegions.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/TypeUtils.h"
#include "transforms/Passes.h"
#include "transforms/Specialize/BindInputShapes.h"

#include "mlir/Pass/PassManager.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Format.h"

#include <chrono>
#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

/// Elements of a tensor type (`?` counting as `unknown`), summed over a
/// tuple's.
static double elementsOf(Type type, int64_t unknown = 1) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    double n = 1;
    for (int64_t d : tensor.getShape())
      n *= ShapedType::isDynamic(d) ? unknown : d;
    return n;
  }
  double n = 0;
  if (auto tuple = dyn_cast<TupleType>(type))
    for (Type field : tuple.getTypes())
      n += elementsOf(field, unknown);
  return n;
}

/// Adds `op`'s cost to `cost`: a convolution's or product's multiply-adds,
/// another operator's result elements.
static void addOperatorCost(Operation *op, RegionCost &cost, int64_t unknown) {
  ++cost.operators;
  double out = 0;
  for (Type t : op->getResultTypes())
    out += elementsOf(t, unknown);
  StringRef name = op->getName().getStringRef();
  auto a = op->getNumOperands() >= 2
               ? dyn_cast<RankedTensorType>(op->getOperand(0).getType())
               : nullptr;
  auto b = op->getNumOperands() >= 2
               ? dyn_cast<RankedTensorType>(op->getOperand(1).getType())
               : nullptr;
  if (!a || !b || b.getRank() < 2 || ShapedType::isDynamic(b.getDimSize(0))) {
    cost.elements += out;
    return;
  }
  double weights = elementsOf(b);
  if (name.contains("conv")) {
    // Weights OI..., or IO... for a transposed convolution: each output
    // (each input) meets the weights of one output (input) channel.
    double perChannel = weights / std::max<int64_t>(b.getDimSize(0), 1);
    cost.multiplyAdds +=
        (name.contains("transpose") ? elementsOf(a) : out) * perChannel;
    ++cost.contractions;
  } else if (name.ends_with("dense")) {
    cost.multiplyAdds += out * std::max<int64_t>(b.getShape().back(), 1);
    ++cost.contractions;
  } else if (name.ends_with("matmul")) {
    // a (batch..., M, K) and b (batch..., K, N), either transposed: each of
    // the batch x M x N outputs sums K products, K^2 = a b / (out batch).
    double batch = 1;
    if (auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType()))
      for (int64_t d : result.getShape().drop_back(2))
        batch *= ShapedType::isDynamic(d) ? 1 : d;
    cost.multiplyAdds +=
        out * std::sqrt(elementsOf(a) * weights / std::max(out * batch, 1.0));
    ++cost.contractions;
  } else {
    cost.elements += out;
  }
}

// Measured on a Zen 4 (AMD EPYC family 25 model 17): the interpreter's
// convolutions run at about 2 G multiply-adds/s (ResNet-50's at 192x192;
// MobileNets' depthwise ones slower), its elementwise operators at about
// 5e7 elements/s (SSDlite's adds); the lowering and LLVM take about 25 ms
// per convolution or product and 1.3 ms per other operator after a fixed
// 0.02 s (Faster R-CNN MobileNet-V3's backbone, 75 convolutions of 327
// operators: 2.3 s; Mask R-CNN's, 84 of 280: 4.6 s; its proposals' sorting
// network, 7,000 operators: 9.5 s; a few small operators: 0.01-0.05 s).
// On small tensors (a recurrent step's) each operator's dispatch costs
// about 0.7 us in the interpreter, and a compiled call about 1.5 us plus
// 1.4 ns per element of its arguments and results (measured on a Zen 5,
// AMD EPYC family 26 model 2: an LSTM step over 64 hidden units, 12
// operators, interpreted in 40 us, compiled in 3 us; a compiled scalar
// comparison, 1.1 us; a product of a 256-vector and a 256x256 matrix
// passed in, about 92 us more than its work).
double RegionCost::interpretSeconds() const {
  return multiplyAdds / 2e9 + elements / 5e7 + 0.7e-6 * operators;
}

double RegionCost::savedSecondsPerCall(double convertedElements) const {
  return interpretSeconds() - 1.5e-6 - 1.4e-9 * convertedElements;
}

/// The elements of `types`, `?` counting as 1.
static double elementsOfAll(TypeRange types) {
  double n = 0;
  for (Type t : types)
    n += elementsOf(t);
  return n;
}

double RegionCost::compileSeconds() const {
  return 0.02 + 0.025 * contractions + 1.3e-3 * (operators - contractions);
}

RegionCost mlir::relay::estimateRegionCost(ModuleOp module, FuncOp func,
                                           int64_t unknownSize) {
  RegionCost cost;
  llvm::SetVector<Operation *> funcs;
  funcs.insert(func);
  for (size_t i = 0; i < funcs.size(); ++i)
    funcs[i]->walk([&](Operation *op) {
      if (auto call = dyn_cast<CallOp>(op)) {
        if (auto callee = module.lookupSymbol<FuncOp>(call.getCalleeAttr()))
          funcs.insert(callee);
        return;
      }
      if (lookupOperator(op->getName().getStringRef()))
        addOperatorCost(op, cost, unknownSize);
    });
  return cost;
}

/// The most argument types of one region whose cost is estimated; calls
/// with others are interpreted.
static constexpr size_t kMaxInstancesConsidered = 64;

NativeRegions::NativeRegions(ModuleOp module, NativeRegionOptions options)
    : module(module), options(std::move(options)) {}

NativeRegions::~NativeRegions() = default;

void NativeRegions::note(FuncOp region, const Twine &why) {
  if (!options.notes || !noted.insert(region).second)
    return;
  if (auto file = region.getLoc()->findInstanceOf<FileLineColLoc>())
    *options.notes << file.getFilename().getValue() << ":" << file.getLine()
                   << ":" << file.getColumn() << ": ";
  *options.notes << "note: the native region @" << region.getSymName()
                 << " runs on the interpreter: " << why << "\n";
}

/// Copies `region` and the functions it calls into a module of their own.
static OwningOpRef<ModuleOp> copyRegion(ModuleOp module, FuncOp region) {
  OwningOpRef<ModuleOp> copy = ModuleOp::create(region.getLoc());
  OpBuilder builder = OpBuilder::atBlockEnd(copy->getBody());
  llvm::SetVector<Operation *> funcs;
  funcs.insert(region);
  for (size_t i = 0; i < funcs.size(); ++i) {
    funcs[i]->walk([&](Operation *op) {
      SymbolRefAttr callee;
      if (auto call = dyn_cast<CallOp>(op))
        callee = call.getCalleeAttr();
      else if (auto ref = dyn_cast<GlobalRefOp>(op))
        callee = ref.getNameAttr();
      if (Operation *f = callee ? module.lookupSymbol(callee) : nullptr)
        funcs.insert(f);
    });
    Operation *clone = builder.clone(*funcs[i]);
    if (i == 0)
      cast<FuncOp>(clone).setPublic();
  }
  return copy;
}

bool NativeRegions::isCheaplyInterpreted(FuncOp region, ArrayRef<Type> types,
                                         Instance &instance) {
  int64_t largest = 1;
  for (Type type : types)
    type.walk([&](RankedTensorType t) {
      for (int64_t d : t.getShape())
        largest = std::max(largest, d);
    });
  RegionCost bound = estimateRegionCost(module, region, largest);
  if (bound.contractions > 0 ||
      bound.interpretSeconds() * options.runs >= bound.compileSeconds())
    return false;
  instance.savedPerCall = bound.savedSecondsPerCall(
      elementsOfAll(types) +
      elementsOfAll(region.getFunctionType().getResults()));
  instance.compileCost = bound.compileSeconds();
  return true;
}

OwningOpRef<ModuleOp> NativeRegions::typedCopy(FuncOp region,
                                               ArrayRef<Type> types) {
  StringRef name = region.getSymName();
  OwningOpRef<ModuleOp> copy = copyRegion(module, region);
  // The region's `?` sizes take the arguments'.
  if (!llvm::all_of(region.getFunctionType().getInputs(), isStaticTensorData)) {
    // Typing the region for these sizes reports nothing the region's
    // users need to see: where it does not type, it is interpreted.
    ScopedDiagnosticHandler quiet(module.getContext(),
                                  [](Diagnostic &) { return success(); });
    OwningOpRef<ModuleOp> bound = bindInputShapes(*copy, name, types);
    if (bound)
      copy = std::move(bound);
  }
  auto entry = copy->lookupSymbol<FuncOp>(name);
  if (!llvm::all_of(entry.getFunctionType().getInputs(), isStaticTensorData) ||
      !llvm::all_of(entry.getFunctionType().getResults(), isStaticTensorData)) {
    std::string given;
    llvm::raw_string_ostream os(given);
    llvm::interleaveComma(types, os);
    note(region,
         "its sizes do not all follow from arguments of types " + given);
    return nullptr;
  }
  return copy;
}

LogicalResult NativeRegions::estimate(ModuleOp copy, StringRef name,
                                      ArrayRef<Type> types,
                                      Instance &instance) {
  // Its cost as compiled: composite operators decomposed at these sizes.
  PassManager decompose(module.getContext());
  decompose.addPass(createDecompose());
  if (failed(decompose.run(copy)))
    return failure();
  auto entry = copy.lookupSymbol<FuncOp>(name);
  RegionCost cost = estimateRegionCost(copy, entry);
  instance.savedPerCall = cost.savedSecondsPerCall(
      elementsOfAll(types) +
      elementsOfAll(entry.getFunctionType().getResults()));
  instance.compileCost = cost.compileSeconds();
  instance.estimated = true;
  return success();
}

NativeRegions::Instance NativeRegions::compileInstance(FuncOp region,
                                                       ArrayRef<Type> types,
                                                       bool force) {
  Instance instance;
  instance.argTypes.assign(types.begin(), types.end());
  StringRef name = region.getSymName();
  bool decide = options.when == RegionCompilation::Auto && !force;
  if (decide && isCheaplyInterpreted(region, types, instance))
    return instance;
  OwningOpRef<ModuleOp> copy = typedCopy(region, types);
  if (!copy)
    return instance;
  if (decide && (failed(estimate(*copy, name, types, instance)) ||
                 instance.savedPerCall * options.runs < instance.compileCost))
    return instance;
  auto entry = copy->lookupSymbol<FuncOp>(name);

  std::string why;
  FailureOr<std::unique_ptr<Executor>> executor = failure();
  auto start = std::chrono::steady_clock::now();
  {
    ScopedDiagnosticHandler capture(module.getContext(), [&](Diagnostic &d) {
      if (why.empty() && d.getSeverity() == DiagnosticSeverity::Error)
        why = d.str();
      return success();
    });
    // Compiled code could not allocate a value larger than memory: the
    // interpreter reports it at its op.
    if (succeeded(Executor::checkFitsInMemory(*copy)))
      executor = Executor::compile(*copy, name, options.compile);
  }
  compileSeconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (failed(executor)) {
    note(region, "native code does not cover it (" +
                     (why.empty() ? std::string("no reason given") : why) +
                     ")");
    return instance;
  }
  ++numCompiled;
  if (options.notes && options.reportCompiles) {
    std::string given;
    llvm::raw_string_ostream os(given);
    llvm::interleaveComma(types, os);
    *options.notes << "note: compiled the native region @" << name << " ("
                   << estimateRegionCost(*copy, entry).operators
                   << " operators) for " << given << " in "
                   << llvm::format("%.2f",
                                   std::chrono::duration<double>(
                                       std::chrono::steady_clock::now() - start)
                                       .count())
                   << " s\n";
  }
  instance.module = std::move(copy);
  instance.executor = std::move(*executor);
  return instance;
}

std::optional<FailureOr<ValuePtr>>
NativeRegions::call(FuncOp region, ArrayRef<ValuePtr> args) {
  if (options.when == RegionCompilation::None)
    return std::nullopt;
  SmallVector<Type> types;
  for (const ValuePtr &arg : args) {
    Type type = typeOfValue(arg);
    if (!type)
      return std::nullopt;
    types.push_back(type);
  }
  std::vector<Instance> &known = instances[region];
  auto found = llvm::find_if(known, [&](const Instance &instance) {
    return ArrayRef<Type>(instance.argTypes) == ArrayRef<Type>(types);
  });
  auto compiledInstances = [&] {
    return static_cast<unsigned>(
        llvm::count_if(known, [](const Instance &instance) {
          return instance.executor != nullptr;
        }));
  };
  if (found == known.end()) {
    // A region called with ever new sizes (in a loop whose sizes change)
    // is interpreted after a while: each new size costs a compilation, or
    // at least the estimate of one.
    unsigned compiled = compiledInstances();
    if (compiled >= options.maxInstances) {
      note(region, "it was compiled for " + Twine(compiled) +
                       " argument types already (each is compiled apart)");
      return std::nullopt;
    }
    if (known.size() >= kMaxInstancesConsidered)
      return std::nullopt;
    known.push_back(compileInstance(region, types));
    found = std::prev(known.end());
  } else if (!found->executor && found->savedPerCall > 0 &&
             ++found->interpretedCalls * found->savedPerCall >=
                 found->compileCost) {
    // Called more often than expected (in a loop): it has cost about as
    // much interpreted as compiling it would, by the bound of its cost
    // (checked at these sizes first: the bound takes each `?` as the
    // largest size) or by the estimate.
    if (!found->estimated) {
      OwningOpRef<ModuleOp> copy = typedCopy(region, types);
      if (!copy || failed(estimate(*copy, region.getSymName(), types, *found)))
        found->savedPerCall = 0;
    }
    // (Within the instances a region may have compiled.)
    if (compiledInstances() >= options.maxInstances)
      found->savedPerCall = 0;
    else if (found->interpretedCalls * found->savedPerCall >=
             found->compileCost)
      *found = compileInstance(region, types, /*force=*/true);
  }
  if (!found->executor)
    return std::nullopt;
  return found->executor->call(args);
}
