//===- ToMixedPrecision.cpp - --relay-to-mixed-precision ------------------===//
//
// Products on 16-bit float operands accumulated in float32. Weights are
// rounded here, once, so that the kernels find constants of the narrow
// type (which they pack at compile time); a large model's weights are
// rounded by bit arithmetic (round to nearest even, NaN kept a NaN), not
// one APFloat at a time.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"

#include <cstring>

namespace mlir::relay {
#define GEN_PASS_DEF_TOMIXEDPRECISION
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// The bfloat16 bits of `f`, rounded to nearest even.
uint16_t toBF16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x40); // a quiet NaN
  return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1)) >> 16);
}

/// The float16 bits of `f`, rounded to nearest even.
uint16_t toF16(float f) {
  bool lost;
  APFloat v(f);
  v.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven, &lost);
  return static_cast<uint16_t>(v.bitcastToAPInt().getZExtValue());
}

/// The f32 tensor constant `c` rounded to `narrow` (bf16 or f16), as a
/// constant of the same kind (dense elements or a resource blob); null
/// when its data is not at hand.
ElementsAttr roundedConstant(ConstantOp c, Type narrow) {
  auto type = cast<RankedTensorType>(c.getType());
  auto narrowType = RankedTensorType::get(type.getShape(), narrow);
  auto round = [&](float f) { return narrow.isBF16() ? toBF16(f) : toF16(f); };
  if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue())) {
    return dense.mapValues(narrow, [&](const APFloat &v) {
      return APInt(16, round(v.convertToFloat()));
    });
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(c.getValue());
  AsmResourceBlob *blob =
      resource ? resource.getRawHandle().getBlob() : nullptr;
  if (!blob)
    return nullptr;
  ArrayRef<char> data = blob->getData();
  int64_t n = type.getNumElements();
  if (data.size() != size_t(n) * 4)
    return nullptr;
  std::vector<char> out(n * 2);
  for (int64_t i = 0; i < n; ++i) {
    float f;
    std::memcpy(&f, &data[i * 4], 4);
    uint16_t h = round(f);
    std::memcpy(&out[i * 2], &h, 2);
  }
  return DenseResourceElementsAttr::get(
      narrowType, "relay_mixed_precision",
      HeapAsmResourceBlob::allocateAndCopyWithAlign(out, 64,
                                                    /*dataIsMutable=*/false));
}

bool isF32Tensor(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && tensor.getElementType().isF32();
}

/// Whether the mixed-precision rule applies to `op`: a product whose
/// operands and result are float32 tensors.
bool isConverted(Operation *op) {
  if (auto conv = dyn_cast<Conv2DOp>(op)) {
    if (conv.getGroups() != 1)
      return false;
  } else if (!isa<DenseOp, MatmulOp>(op)) {
    return false;
  }
  return op->getNumOperands() == 2 && isF32Tensor(op->getResult(0).getType()) &&
         llvm::all_of(op->getOperandTypes(), isF32Tensor);
}

struct ToMixedPrecision
    : public relay::impl::ToMixedPrecisionBase<ToMixedPrecision> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    Type narrow;
    if (mixedPrecisionType == "bfloat16")
      narrow = BFloat16Type::get(ctx);
    else if (mixedPrecisionType == "float16")
      narrow = Float16Type::get(ctx);
    if (!narrow) {
      module.emitError("--relay-to-mixed-precision: unknown "
                       "mixed-precision-type '")
          << mixedPrecisionType << "' (expected bfloat16 or float16)";
      return signalPassFailure();
    }
    SmallVector<Operation *> products;
    module.walk([&](Operation *op) {
      if (isConverted(op))
        products.push_back(op);
    });
    // One narrow value per f32 value (a weight shared by two products is
    // rounded once).
    DenseMap<Value, Value> narrowed;
    for (Operation *op : products) {
      for (OpOperand &operand : op->getOpOperands()) {
        Value v = operand.get();
        Value &n = narrowed[v];
        if (!n) {
          OpBuilder b(op);
          auto c = v.getDefiningOp<ConstantOp>();
          if (ElementsAttr rounded = c ? roundedConstant(c, narrow) : nullptr) {
            b.setInsertionPointAfter(c);
            n = ConstantOp::create(b, c.getLoc(), rounded);
          } else {
            if (auto arg = dyn_cast<BlockArgument>(v))
              b.setInsertionPointToStart(arg.getOwner());
            else
              b.setInsertionPointAfter(v.getDefiningOp());
            n = RelayBuilder(b, op->getLoc())
                    .op<CastOp>(
                        {v}, {b.getNamedAttr("dtype", TypeAttr::get(narrow))});
          }
        }
        operand.set(n);
      }
      op->setAttr("out_dtype", TypeAttr::get(Float32Type::get(ctx)));
    }
    // The f32 weights the products read are dead once rounded.
    for (auto [wide, narrow] : narrowed)
      if (auto c = wide.getDefiningOp<ConstantOp>(); c && c->use_empty())
        c->erase();
  }
};

} // namespace
