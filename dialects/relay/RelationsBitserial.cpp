//===- RelationsBitserial.cpp - Relations of bit-serial ops -----*- C++ -*-===//
//
// TVM's nn.bitpack, nn.bitserial_dense and nn.bitserial_conv2d. The last
// two are typed as the nn.dense and nn.conv2d they compute, on the weight
// unpacked; what TVM's relations leave to topi's asserts (integer
// operands, the packed axis a multiple of the word, a packed weight's
// shape) is checked here.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;

/// The width of the word attribute `name` (uint8/16/32/64, uint32 when
/// absent); fails (reported) on another type.
static FailureOr<int64_t> wordWidth(RelationArgs &args, StringRef name) {
  Type word = args.getDtype(name);
  if (!word)
    return 32;
  unsigned width = word.getIntOrFloatBitWidth();
  if (!word.isUnsignedInteger() ||
      !llvm::is_contained({8u, 16u, 32u, 64u}, width)) {
    args.emitError() << name << " must be uint8, uint16, uint32 or uint64, got "
                     << typeStr(word);
    return failure();
  }
  return int64_t(width);
}

/// Requires `dim` (of `what`) to be a multiple of the word's `width`.
static LogicalResult checkWholeWords(RelationArgs &args, Dim dim, int64_t width,
                                     StringRef what) {
  if (!dim.isStatic() || dim.size % width == 0)
    return success();
  args.emitError() << what << " (" << dim.size << ") must be a multiple of the "
                   << width << "-bit word the bits are packed in";
  return failure();
}

/// Requires the bit count attribute `name` to be in [1, max] (topi reads
/// the bits through a table of 8 masks).
static LogicalResult checkBits(RelationArgs &args, StringRef name,
                               int64_t max) {
  int64_t bits = args.getInt(name, 1);
  if (bits >= 1 && bits <= max)
    return success();
  args.emitError() << name << " must be in [1, " << max << "], got " << bits;
  return failure();
}

/// The packing of a bit-serial product: pack_dtype's width, the bit
/// counts `dataBits` and weight_bits, and `packed` (the data's axis that
/// packs, `what`) a whole number of words. Fails (reported).
static FailureOr<int64_t> checkPacking(RelationArgs &args, StringRef dataBits,
                                       Dim packed, StringRef what) {
  FailureOr<int64_t> width = wordWidth(args, "pack_dtype");
  if (failed(width) || failed(checkBits(args, dataBits, 8)) ||
      failed(checkBits(args, "weight_bits", 8)) ||
      failed(checkWholeWords(args, packed, *width, what)))
    return failure();
  return width;
}

/// Requires a packed weight's `words` of `width` bits to hold the data's
/// `bits` (`what` names them).
static LogicalResult checkPackedWeight(RelationArgs &args, Dim words,
                                       int64_t width, Dim bits,
                                       StringRef what) {
  if (!bits.isStatic() || !words.isStatic() || words.size * width == bits.size)
    return success();
  args.emitError() << "the packed weight " << typeStr(args.getInput(1))
                   << " holds " << words.size << " words of " << width
                   << " bits, not the data's " << bits.size << what;
  return failure();
}

static bool isInteger(Type dtype) {
  return isa<IntegerType>(dtype) && !dtype.isInteger(1);
}

/// bitpack: `data`'s pack_axis divided into words, `bits` inserted at
/// bit_axis; of pack_type.
static RelationStatus bitPackRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  int64_t rank = data.getRank();
  if (!isInteger(data.dtype) || rank == 0)
    return args.fail("expected an integer tensor of at least one axis, got " +
                     typeStr(args.getInput(0)));
  FailureOr<int64_t> width = wordWidth(args, "pack_type");
  if (failed(width) || failed(checkBits(args, "bits", 8)))
    return RelationStatus::Failed;
  FailureOr<int64_t> packAxis =
      normalizeAxis(args, args.getInt("pack_axis", 1), rank, "pack_axis");
  FailureOr<int64_t> bitAxis =
      normalizeAxis(args, args.getInt("bit_axis", -1), rank + 1, "bit_axis");
  if (failed(packAxis) || failed(bitAxis))
    return RelationStatus::Failed;
  Dim packed = data.dims[*packAxis];
  if (failed(checkWholeWords(args, packed, *width, "the packed axis")))
    return RelationStatus::Failed;
  SmallVector<Dim> result(data.dims.begin(), data.dims.end());
  result[*packAxis] =
      packed.isStatic() ? Dim::of(packed.size / *width) : Dim::any();
  result.insert(result.begin() + *bitAxis, Dim::of(args.getInt("bits", 1)));
  MLIRContext *ctx = args.getContext();
  return args.solve(makeTensor(
      ctx, result,
      IntegerType::get(ctx, unsigned(*width), IntegerType::Unsigned)));
}

/// The integer out_dtype of a bit-serial product (the data's by default).
static FailureOr<Type> productType(RelationArgs &args, Type data) {
  Type out = args.getDtype("out_dtype");
  if (!out)
    return data;
  if (!isInteger(out)) {
    args.emitError() << "out_dtype must be an integer type (the bits' "
                        "products are shifted), got "
                     << typeStr(out);
    return failure();
  }
  return out;
}

/// The attributes of the nn.dense / nn.conv2d a bit-serial op computes:
/// its own but the bit counts, the word and the polarity, with out_dtype
/// `out`.
static DictionaryAttr productAttrs(RelationArgs &args, Type out) {
  MLIRContext *ctx = args.getContext();
  NamedAttrList attrs(args.getAttrs());
  for (StringRef name : {"data_bits", "activation_bits", "weight_bits",
                         "pack_dtype", "unipolar"})
    attrs.erase(name);
  attrs.set("out_dtype", TypeAttr::get(out));
  return attrs.getDictionary(ctx);
}

/// bitserial_dense: data [..., K] and weight [units, K] or packed [units,
/// weight_bits, K / W] (integers); typed as nn.dense.
static RelationStatus binaryDenseRelation(RelationArgs &args) {
  TensorInfo data, weight;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, weight);
  if (!isInteger(data.dtype) || data.getRank() == 0)
    return args.fail("expected integer data [..., K], got " +
                     typeStr(args.getInput(0)));
  Dim k = data.dims.back();
  FailureOr<int64_t> width =
      checkPacking(args, "data_bits", k, "the data's last axis");
  if (failed(width))
    return RelationStatus::Failed;
  if (!isInteger(weight.dtype) ||
      (weight.getRank() != 2 && weight.getRank() != 3))
    return args.fail("expected an integer weight [units, K] or one packed "
                     "[units, weight_bits, K / W], got " +
                     typeStr(args.getInput(1)));
  if (weight.getRank() == 3 &&
      failed(checkPackedWeight(args, weight.dims[2], *width, k, "")))
    return RelationStatus::Failed;
  FailureOr<Type> out = productType(args, data.dtype);
  if (failed(out))
    return RelationStatus::Failed;
  Dim units = weight.dims[0];
  Type unpacked = makeTensor(args.getContext(), {units, k}, data.dtype);
  Type result;
  if (RelationStatus s =
          runNestedRelation(args, "Dense", {args.getInput(0), unpacked}, result,
                            productAttrs(args, *out));
      s != RelationStatus::Solved)
    return s;
  return result ? args.solve(result) : RelationStatus::Pending;
}

/// bitserial_conv2d: NCHW data with OIHW weights, or NHWC with HWIO, the
/// weight 4-d or packed 5-d; typed as nn.conv2d.
static RelationStatus binaryConv2DRelation(RelationArgs &args) {
  TensorInfo data, weight;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, weight);
  StringRef layout = args.getString("data_layout", "NCHW");
  bool nhwc = layout == "NHWC";
  if (layout != "NCHW" && !nhwc)
    return args.fail("data_layout must be NCHW or NHWC, got '" + layout + "'");
  StringRef kernelLayout = nhwc ? "HWIO" : "OIHW";
  if (args.hasAttr("kernel_layout") &&
      args.getString("kernel_layout", "") != kernelLayout)
    return args.fail("expected kernel_layout " + kernelLayout + " for " +
                     layout + " data, got '" +
                     args.getString("kernel_layout", "") + "'");
  if (!isInteger(data.dtype) || data.getRank() != 4)
    return args.fail("expected 4-d integer data, got " +
                     typeStr(args.getInput(0)));
  Dim channels = data.dims[nhwc ? 3 : 1];
  FailureOr<int64_t> width =
      checkPacking(args, "activation_bits", channels, "the data's channels");
  if (failed(width))
    return RelationStatus::Failed;
  if (!isInteger(weight.dtype) ||
      (weight.getRank() != 4 && weight.getRank() != 5))
    return args.fail("expected an integer " + kernelLayout +
                     " weight or one packed as " +
                     (nhwc ? "[KH, KW, C / W, O, weight_bits]"
                           : "[O, C / W, KH, KW, weight_bits]") +
                     ", got " + typeStr(args.getInput(1)));
  SmallVector<Dim> unpacked(weight.dims.begin(), weight.dims.begin() + 4);
  if (weight.getRank() == 5) {
    // The channels' words: axis 1 of OIHW, 2 of HWIO, packed as [KH, KW,
    // C / W, O] (topi's order).
    if (failed(checkPackedWeight(args, weight.dims[nhwc ? 2 : 1], *width,
                                 channels, " channels")))
      return RelationStatus::Failed;
    unpacked[nhwc ? 2 : 1] = channels;
  }
  FailureOr<Type> out = productType(args, data.dtype);
  if (failed(out))
    return RelationStatus::Failed;
  MLIRContext *ctx = args.getContext();
  NamedAttrList attrs(productAttrs(args, *out));
  attrs.set("kernel_layout", StringAttr::get(ctx, kernelLayout));
  Type result;
  if (RelationStatus s = runNestedRelation(
          args, "Conv2D",
          {args.getInput(0), makeTensor(ctx, unpacked, data.dtype)}, result,
          attrs.getDictionary(ctx));
      s != RelationStatus::Solved)
    return s;
  return result ? args.solve(result) : RelationStatus::Pending;
}

void mlir::relay::registerBitserialRelations() {
  registerTypeRelation("BitPack", bitPackRelation);
  registerTypeRelation("BinaryDense", binaryDenseRelation);
  registerTypeRelation("BinaryConv2D", binaryConv2DRelation);
}
