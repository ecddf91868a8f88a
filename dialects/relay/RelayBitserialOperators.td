//===- RelayBitserialOperators.td - Bit-serial operators ---*- tablegen -*-===//
//
// TVM's low-bit operators (src/relay/op/nn/bitserial.cc): `nn.bitpack`
// packs the low bits of integers into words, and `nn.bitserial_dense` and
// `nn.bitserial_conv2d` compute with `activation_bits`-bit data and
// `weight_bits`-bit weights as topi's kernels do, popcounts of packed words
// shifted by their bits' weights. Composites: their decompositions
// (transforms/Decompose/BitserialRewrites.cpp) are shifts and masks, and
// nn.dense / nn.conv2d on the values those bits hold.
//
// Included by RelayOperators.td.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_BITSERIAL_OPERATORS
#define RELAY_BITSERIAL_OPERATORS

def Relay_BitPackOp
    : Relay_OperatorOp<"nn.bitpack", "BitPack", "Injective", 1, 2> {
  let summary = "Packs bits 0..`bits`-1 of integers into `pack_type` words "
                "along `pack_axis`";
  let description = [{
    TVM's: the integer `data`'s `pack_axis` (whose size must be a multiple
    of the word's width W) becomes words: word j of bit b holds bit b of
    elements j * W .. j * W + W - 1, the first in the word's top bit. The
    `bits` (1 to 8) words of one position lie along a new axis at
    `bit_axis` of the result (-1: the last). `pack_type` is uint8, uint16,
    uint32 (the default) or uint64.
  }];
  let arguments = (ins AnyType:$data,
                       DefaultValuedAttr<I64Attr, "1">:$bits,
                       DefaultValuedAttr<I64Attr, "1">:$pack_axis,
                       DefaultValuedAttr<I64Attr, "-1">:$bit_axis,
                       OptionalAttr<TypeAttr>:$pack_type,
                       DefaultValuedStrAttr<StrAttr, "BitPack">:$name);
}

def Relay_BitserialDenseOp
    : Relay_OperatorOp<"nn.bitserial_dense", "BinaryDense", "OutEWiseFusable",
                       2, 1> {
  let summary = "Low-bit `data` [..., K] times the transpose of low-bit "
                "`weight` [units, K]";
  let description = [{
    TVM's: the low `data_bits` bits of each datum times the low
    `weight_bits` bits of each weight, summed in `out_dtype` (an integer
    type; by default the data's). With `unipolar` (the default) a weight
    bit of 0 counts as -1: each weight is 2 w - (2^weight_bits - 1). The
    weight is [units, K] integers, or packed as nn.bitpack packs it
    ([units, weight_bits, K / W], pack_axis 1, bit_axis 1); K is a
    multiple of the width W of `pack_dtype` (uint32 by default).
  }];
  let arguments = (ins AnyType:$data, AnyType:$weight,
                       OptionalAttr<I64Attr>:$units,
                       DefaultValuedAttr<I64Attr, "1">:$data_bits,
                       DefaultValuedAttr<I64Attr, "1">:$weight_bits,
                       OptionalAttr<TypeAttr>:$pack_dtype,
                       OptionalAttr<TypeAttr>:$out_dtype,
                       DefaultValuedAttr<BoolAttr, "true">:$unipolar);
}

def Relay_BitserialConv2DOp
    : Relay_OperatorOp<"nn.bitserial_conv2d", "BinaryConv2D",
                       "OutEWiseFusable", 2, 2> {
  let summary = "2-d convolution of low-bit data with low-bit weights";
  let description = [{
    TVM's: as nn.bitserial_dense, a convolution (`strides`, `padding` of
    1, 2 or 4 values, `channels`, `kernel_size`) of the low
    `activation_bits` bits of NCHW data with OIHW weights, or NHWC data
    with HWIO weights, in `out_dtype`. A packed weight is 5-d: [O, C / W,
    KH, KW, weight_bits] for NCHW data, [KH, KW, C / W, O, weight_bits] for
    NHWC (nn.bitpack's packing of the channels); C is a multiple of the
    width W of `pack_dtype`.
  }];
  let arguments = (ins AnyType:$data, AnyType:$weight,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<I64Attr>:$channels,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_size,
                       DefaultValuedAttr<I64Attr, "1">:$activation_bits,
                       DefaultValuedAttr<I64Attr, "1">:$weight_bits,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$data_layout,
                       OptionalAttr<StrAttr>:$kernel_layout,
                       OptionalAttr<TypeAttr>:$pack_dtype,
                       OptionalAttr<TypeAttr>:$out_dtype,
                       DefaultValuedAttr<BoolAttr, "true">:$unipolar);
}

#endif // RELAY_BITSERIAL_OPERATORS
