//===- ApproximateMath.cpp - Vectorisable transcendental functions -------===//
//
// --relay-approximate-math: upstream's polynomial approximations for the f32
// transcendental functions compiled code uses (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::relay {
#define GEN_PASS_DEF_APPROXIMATEMATH
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

/// The functions approximated: those whose upstream approximation covers
/// the whole f32 range. (sin and cos lose accuracy far from zero; rsqrt's
/// needs AVX2 intrinsics.)
bool isApproximated(StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases(
          {math::TanhOp::getOperationName(), math::ExpOp::getOperationName(),
           math::ExpM1Op::getOperationName(), math::LogOp::getOperationName(),
           math::Log1pOp::getOperationName(), math::Log2Op::getOperationName(),
           math::ErfOp::getOperationName()},
          true)
      .Default(false);
}

struct ApproximateMath : relay::impl::ApproximateMathBase<ApproximateMath> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    math::populateExpansionPatterns(patterns, {"asinh", "acosh", "atanh"});
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
