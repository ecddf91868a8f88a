//===- LoweringTarget.cpp - The target-neutral kernels ----------*- C++ -*-===//

#include "conversion/RelayToLinalg/LoweringTarget.h"
#include "conversion/RelayToLinalg/LoweringHelpers.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/StringMap.h"

#include <mutex>

using namespace mlir;
using namespace mlir::relay;

bool Conv2dProblem::isSameFloat() const {
  Type e = type.getElementType();
  return isa<FloatType>(e) &&
         cast<RankedTensorType>(data.getType()).getElementType() == e &&
         cast<RankedTensorType>(weight.getType()).getElementType() == e;
}

bool Conv2dProblem::isDepthwise() const {
  int64_t channels = nchw ? 1 : 3;
  return groups > 1 &&
         groups ==
             cast<RankedTensorType>(data.getType()).getDimSize(channels) &&
         groups == type.getDimSize(channels);
}

LoweringTarget::~LoweringTarget() = default;

Value LoweringTarget::buildContraction(OpBuilder &b, Location loc,
                                       RankedTensorType type,
                                       ValueRange operands, unsigned numDims,
                                       ArrayRef<AffineMap> maps) const {
  return lowering::filledContraction(b, loc, type, operands, numDims, maps);
}

Value LoweringTarget::buildConv2d(OpBuilder &, const Conv2dProblem &) const {
  return nullptr;
}

Value LoweringTarget::buildInt8Dense(OpBuilder &, Location, RankedTensorType,
                                     Value, Value) const {
  return nullptr;
}

bool LoweringTarget::lowersWhole(Operation *op) const {
  return lowersResizeWhole(op);
}

Value LoweringTarget::buildConv3d(OpBuilder &, Operation *, RankedTensorType,
                                  Value, Value) const {
  return nullptr;
}

namespace {
struct TargetRegistry {
  std::mutex mutex;
  llvm::StringMap<std::unique_ptr<LoweringTarget>> targets;

  TargetRegistry() { targets["generic"] = std::make_unique<LoweringTarget>(); }
};

TargetRegistry &getRegistry() {
  static TargetRegistry registry;
  return registry;
}
} // namespace

void mlir::relay::registerLoweringTarget(
    std::unique_ptr<LoweringTarget> target) {
  TargetRegistry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  std::string name = target->getName().str();
  // The first stays: passes may hold it.
  registry.targets.try_emplace(name, std::move(target));
}

const LoweringTarget *mlir::relay::lookupLoweringTarget(StringRef name) {
  TargetRegistry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto it = registry.targets.find(name);
  return it == registry.targets.end() ? nullptr : it->second.get();
}

std::vector<std::string> mlir::relay::getLoweringTargetNames() {
  TargetRegistry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  std::vector<std::string> names;
  for (auto &entry : registry.targets)
    names.push_back(entry.getKey().str());
  llvm::sort(names);
  return names;
}
