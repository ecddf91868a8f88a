//===- LayoutTransformLowering.cpp - layout_transform rule ------*- C++ -*-===//
//
// layout_transform between data layouts with split axes ("NCHW" <->
// "NCHW4c", "NCHW4c" -> "NCHW8c", "NCHW" -> "NHWC"): every output element
// reads the input element with the same coordinate on each primal axis
// (outer index * sub-factor + inner index).
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"

#include "dialects/relay/RelationUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

static FailureOr<SmallVector<Value>>
layoutTransformRule(OpBuilder &b, Operation *op, ValueRange operands) {
  RankedTensorType type = resultType(op);
  auto in = cast<RankedTensorType>(operands[0].getType());
  FailureOr<relay::DataLayout> src =
      relay::DataLayout::parse(strAttr(op, "src_layout", ""));
  FailureOr<relay::DataLayout> dst =
      relay::DataLayout::parse(strAttr(op, "dst_layout", ""));
  if (!type || !type.hasStaticShape() || !in.hasStaticShape() || failed(src) ||
      failed(dst) || src->axes.size() != static_cast<size_t>(in.getRank()))
    return failure();
  // The sub-factor of `primal` in `layout` (1 when it is not split).
  auto factorOf = [](const relay::DataLayout &layout, char primal) -> int64_t {
    std::optional<size_t> sub = layout.find(primal, true);
    return sub ? layout.axes[*sub].factor : 1;
  };
  Value data = operands[0];
  return SmallVector<Value>{generateTensor(
      b, op->getLoc(), type, [&](OpBuilder &nb, Location l, ValueRange i) {
        auto c = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(nb, l, v);
        };
        // The coordinate on each primal axis, from the output index.
        llvm::SmallDenseMap<char, Value> primal;
        for (auto [k, axis] : llvm::enumerate(dst->axes)) {
          char name = llvm::toUpper(axis.name);
          int64_t scale = axis.factor ? 1 : factorOf(*dst, name);
          Value part =
              scale == 1 ? i[k] : arith::MulIOp::create(nb, l, i[k], c(scale));
          auto [it, inserted] = primal.try_emplace(name, part);
          if (!inserted)
            it->second = arith::AddIOp::create(nb, l, it->second, part);
        }
        SmallVector<Value> at;
        for (const relay::DataLayout::Axis &axis : src->axes) {
          char name = llvm::toUpper(axis.name);
          Value coordinate = primal.lookup(name);
          int64_t split = factorOf(*src, name);
          if (axis.factor)
            at.push_back(
                arith::RemUIOp::create(nb, l, coordinate, c(axis.factor)));
          else if (split != 1)
            at.push_back(arith::DivUIOp::create(nb, l, coordinate, c(split)));
          else
            at.push_back(coordinate);
        }
        return tensor::ExtractOp::create(nb, l, data, at).getResult();
      })};
}

void mlir::relay::lowering::addLayoutTransformLowering(
    llvm::StringMap<LoweringRuleFn> &rules) {
  rules["layout_transform"] = layoutTransformRule;
}
