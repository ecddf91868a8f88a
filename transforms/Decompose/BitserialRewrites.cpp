//===- BitserialRewrites.cpp - Bit-serial ops as masks, products *- C++ -*-===//
//
// nn.bitpack as shifts and masks: each bit plane's W consecutive elements
// shifted to their place in the word (the first at the top) and summed.
//
// nn.bitserial_dense and nn.bitserial_conv2d as the nn.dense and nn.conv2d
// of the values their bits hold. topi sums, over data bit i and weight bit
// j, popcount(data plane i & weight plane j) << (i + j); that is the
// product of d = the data's low `data_bits` bits and w = the weight's low
// `weight_bits` bits. Unipolar, topi subtracts popcount(data plane i &
// ~weight plane j): a weight bit of 0 counts as -1, so the weight is
// 2 w - (2^weight_bits - 1). Both are computed in out_dtype, whose
// wrapping is the ring topi's shifts and sums wrap in; topi subtracts the
// unipolar popcounts in pack_dtype first, so where out_dtype is wider than
// pack_dtype its negative terms differ from these (TVM's defaults, uint32
// words and int16 results, agree).
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Rewrites.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// `values` along `axis` of a rank-`rank` constant (1 elsewhere).
Value alongAxisConstant(Emitter &b, Type type, int64_t rank, int64_t axis,
                        ArrayRef<uint64_t> values) {
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = values.size();
  return intConstant(b, type, shape, values);
}

uint64_t lowBitsMask(int64_t bits) {
  return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}

/// The unsigned word type of attribute `name` (uint32 when absent).
Type wordType(Emitter &b, Operation *op, StringRef name) {
  if (auto type =
          dyn_cast_or_null<TypeAttr>(getOperatorAttributes(op).get(name)))
    return type.getValue();
  return IntegerType::get(b.getRewriter().getContext(), 32,
                          IntegerType::Unsigned);
}

/// nn.bitpack.
Value bitpack(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  ArrayRef<int64_t> shape = shapeOf(data);
  int64_t rank = shape.size();
  int64_t packAxis = positive(intAttr(op, "pack_axis"), rank);
  int64_t bitAxis = positive(intAttr(op, "bit_axis"), rank + 1);
  Type word = wordType(b, op, "pack_type");
  int64_t width = word.getIntOrFloatBitWidth();
  // [..., C / W, W, ...]: each word's elements along a new axis.
  SmallVector<int64_t> split(shape);
  split[packAxis] = shape[packAxis] / width;
  split.insert(split.begin() + packAxis + 1, width);
  Value grouped = b.reshape(data, split);
  SmallVector<uint64_t> places;
  for (int64_t k = 0; k < width; ++k)
    places.push_back(uint64_t(width - 1 - k));
  Value placeShifts =
      alongAxisConstant(b, word, rank + 1, packAxis + 1, places);
  Type dtype = elementOf(data);
  SmallVector<Value> planes;
  for (int64_t bit = 0, bits = intAttr(op, "bits"); bit < bits; ++bit) {
    Value plane = b.op<BitwiseAndOp>(
        {b.op<RightShiftOp>(
             {grouped, intConstant(b, dtype, {}, {uint64_t(bit)})}),
         intConstant(b, dtype, {}, {1})});
    Value placed = b.op<LeftShiftOp>({castTo(b, plane, word), placeShifts});
    planes.push_back(b.op<SumOp>({placed}, {b.ints("axis", {packAxis + 1})}));
  }
  return b.op<StackOp>({b.tuple(planes)}, {b.i64("axis", bitAxis)});
}

/// The low `bits` bits of `v`'s elements, in `out`.
Value lowBits(Emitter &b, Value v, int64_t bits, Type out) {
  return b.op<BitwiseAndOp>(
      {castTo(b, v, out), intConstant(b, out, {}, {lowBitsMask(bits)})});
}

/// A weight packed as nn.bitpack packs it (words along `wordAxis`, bit
/// planes along `planeAxis`) read back as values in `out`: each word's W
/// bits along the axis, the planes summed with their weights 2^j.
Value unpackWeight(Emitter &b, Value packed, int64_t wordAxis,
                   int64_t planeAxis, Type out) {
  Type word = elementOf(packed);
  int64_t width = word.getIntOrFloatBitWidth();
  SmallVector<int64_t> shape(shapeOf(packed));
  int64_t rank = shape.size();
  Value expanded = b.op<ExpandDimsOp>({packed}, {b.i64("axis", wordAxis + 1)});
  SmallVector<uint64_t> places;
  for (int64_t k = 0; k < width; ++k)
    places.push_back(uint64_t(width - 1 - k));
  Value bits = b.op<BitwiseAndOp>(
      {b.op<RightShiftOp>({expanded, alongAxisConstant(b, word, rank + 1,
                                                       wordAxis + 1, places)}),
       intConstant(b, word, {}, {1})});
  SmallVector<int64_t> merged(shape);
  merged[wordAxis] *= width;
  Value values = castTo(b, b.reshape(bits, merged), out);
  SmallVector<uint64_t> weights;
  for (int64_t j = 0; j < shape[planeAxis]; ++j)
    weights.push_back(uint64_t(j));
  Value weighted = b.op<LeftShiftOp>(
      {values, alongAxisConstant(b, out, rank, planeAxis, weights)});
  return b.op<SumOp>({weighted}, {b.ints("axis", {planeAxis})});
}

/// The weight's values in `out` (its low weight_bits bits, or its packed
/// planes, whose count is then the bit count), as unipolar counts them.
Value weightValues(Emitter &b, Operation *op, Value weight, int64_t wordAxis,
                   int64_t planeAxis, bool packed, Type out) {
  int64_t bits =
      packed ? shapeOf(weight)[planeAxis] : intAttr(op, "weight_bits");
  Value w = packed ? unpackWeight(b, weight, wordAxis, planeAxis, out)
                   : lowBits(b, weight, bits, out);
  if (!boolAttr(op, "unipolar"))
    return w;
  // A 0 bit counts as -1: sum_j 2^j (2 bit_j - 1) = 2 w - (2^bits - 1).
  return b.op<SubtractOp>({b.mul(w, intConstant(b, out, {}, {2})),
                           intConstant(b, out, {}, {lowBitsMask(bits)})});
}

Value bitserialDense(Emitter &b, Operation *op) {
  Value data = op->getOperand(0), weight = op->getOperand(1);
  Type out = elementOf(op->getResult(0));
  Value d = lowBits(b, data, intAttr(op, "data_bits"), out);
  bool packed = shapeOf(weight).size() == 3;
  Value w =
      weightValues(b, op, weight, /*wordAxis=*/2, /*planeAxis=*/1, packed, out);
  return b.op<DenseOp>({d, w}, {b.type("out_dtype", out)});
}

Value bitserialConv2d(Emitter &b, Operation *op) {
  Value data = op->getOperand(0), weight = op->getOperand(1);
  Type out = elementOf(op->getResult(0));
  bool nhwc = strAttr(op, "data_layout") == "NHWC";
  Value d = lowBits(b, data, intAttr(op, "activation_bits"), out);
  bool packed = shapeOf(weight).size() == 5;
  Value w = weightValues(b, op, weight, /*wordAxis=*/nhwc ? 2 : 1,
                         /*planeAxis=*/4, packed, out);
  SmallVector<NamedAttribute> attrs = {
      b.str("data_layout", nhwc ? "NHWC" : "NCHW"),
      b.str("kernel_layout", nhwc ? "HWIO" : "OIHW"), b.type("out_dtype", out)};
  DictionaryAttr own = getOperatorAttributes(op);
  for (StringRef name : {"strides", "padding", "channels", "kernel_size"})
    if (Attribute value = own.get(name))
      attrs.push_back(b.getRewriter().getNamedAttr(name, value));
  return b.op<Conv2DOp>({d, w}, attrs);
}

} // namespace

void mlir::relay::decompose::addBitserialRewrites(AddRewrite add) {
  add("nn.bitpack", bitpack);
  add("nn.bitserial_dense", bitserialDense);
  add("nn.bitserial_conv2d", bitserialConv2d);
}
