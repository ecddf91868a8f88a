//===- TileContractions.cpp - Products as tiled GPU kernels ---------------===//
//
// --relay-gpu-tile-contractions: each contraction (see ContractionKernels.h)
// becomes a kernel of its own: tensor cores' tiles for float16 operands
// (and float32 ones as TF32 with `tf32`), CUDA cores' tiles otherwise, a warp
// per column for few rows.
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/GPU/ContractionKernels.h"
#include "transforms/Codegen/GPU/FillFeeding.h"
#include "transforms/Codegen/GPU/InKernel.h"
#include "transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

namespace mlir::relay {
#define GEN_PASS_DEF_GPUTILECONTRACTIONS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay::gpu_kernels;

namespace {
struct GpuTileContractionsPass
    : public relay::impl::GpuTileContractionsBase<GpuTileContractionsPass> {
  using GpuTileContractionsBase::GpuTileContractionsBase;

  void runOnOperation() override {
    if (threadTile != 0 && threadTile != 4 && threadTile != 8) {
      getOperation().emitError("--relay-gpu-tile-contractions: thread-tile ")
          << static_cast<int64_t>(threadTile) << " is not 0 (by size), 4 or 8";
      return signalPassFailure();
    }
    if (splitK < 0) {
      getOperation().emitError("--relay-gpu-tile-contractions: split-k ")
          << static_cast<int64_t>(splitK) << " is negative";
      return signalPassFailure();
    }
    std::vector<Contraction> tiled, warped;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (relay::isInKernel(op))
        return;
      std::optional<Contraction> c = matchContraction(op);
      if (!c)
        return;
      if (c->m >= minSize && c->n >= minSize && c->b <= kMaxGridYZ &&
          ceilDiv(c->m, 64) <= kMaxGridYZ) {
        tiled.push_back(*c);
        return;
      }
      // Few rows, a long reduction, the second operand contiguous along
      // it, sums a shuffle adds: a warp per column.
      Type accType = getElementTypeOrSelf(op.getDpsInits()[0].getType());
      if (c->m < minSize && c->k >= kMinWarpDepth && !c->colsFastB &&
          (accType.isF32() || accType.isInteger(32)) &&
          ceilDiv(c->n * c->b, kThreads / 32) <=
              std::numeric_limits<int32_t>::max())
        warped.push_back(*c);
    });
    IRRewriter rewriter(&getContext());
    for (const Contraction &c : tiled) {
      if (tensorCores && fitsTensorCores(c, tf32))
        buildTensorCoreKernel(
            rewriter, c, relay::fillFeeding(c.op),
            chooseShape(c, kTensorCoreDepth, threadTile, splitK));
      else
        buildTiledKernel(rewriter, c, relay::fillFeeding(c.op),
                         chooseShape(c, kDepth, threadTile, splitK));
    }
    for (const Contraction &c : warped)
      buildWarpKernel(rewriter, c, relay::fillFeeding(c.op));
  }
};
} // namespace
