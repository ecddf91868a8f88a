//===- RelayPackedOperators.td - Operators on packed layouts -*- tablegen -*-===//
//
// The operators TVM's AlterOpLayout puts in for its x86 kernels, on
// tensors in packed layouts (NCHW8c data, OIHW8i8o kernels, NC16n dense
// weights): nn.contrib_conv2d_NCHWc, nn.contrib_depthwise_conv2d_NCHWc
// and nn.contrib_dense_pack (and qnn.contrib_dense_pack, its quantized
// form), so that a program TVM optimised imports, runs
// and compiles here. Their relations unpack the layouts and run the plain
// operator's relation; their decompositions
// (transforms/Decompose/PackedRewrites.cpp) are layout_transforms around
// the plain operator, which this project's code generation packs itself.
// Also the GEMM convolution pair its AlterOpLayout writes for Arm and the
// Winograd pair it writes for CUDA and NHWC kernels (below).
//
// Included by RelayOperators.td.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_PACKED_OPERATORS
#define RELAY_PACKED_OPERATORS

def Relay_Conv2DNCHWcOp
    : Relay_Conv2DBase<"nn.contrib_conv2d_NCHWc", "Conv2DNCHWc", "OIHW"> {
  let summary = "2-d convolution on packed layouts (TVM's x86 NCHWc)";
  let description = [{
    TVM's: nn.conv2d's attributes, with `data_layout` a packing of NCHW
    (`NCHW8c`: [N, C/8, H, W, 8]), `kernel_layout` one of OIHW
    (`OIHW8i8o`: [O/8, I/8, KH, KW, 8, 8]) and `out_layout` one of NCHW
    (the data's when empty). The result is the convolution of the
    unpacked tensors, packed.
  }];
  let arguments = convAttrs;
}

def Relay_DepthwiseConv2DNCHWcOp
    : Relay_Conv2DBase<"nn.contrib_depthwise_conv2d_NCHWc", "Conv2DNCHWc",
                       "OIHW"> {
  let summary = "Depthwise 2-d convolution on packed layouts (TVM's x86 "
                "NCHWc)";
  let description = [{
    As nn.contrib_conv2d_NCHWc, with `groups` the channels (TVM's kernel
    layout for it is `OIHW1i8o`).
  }];
  let arguments = convAttrs;
}

def Relay_DensePackOp
    : Relay_OperatorOp<"nn.contrib_dense_pack", "DensePack",
                       "OutEWiseFusable", 2, 10> {
  let summary = "`data` [M, K] times the transpose of a packed weight";
  let description = [{
    TVM's: the weight in `weight_layout`, a packing of NC (`NC16n`:
    [N/16, K, 16]; `NC16n4c`: [N/16, K/4, 16, 4]); the result is [M, N] in
    `out_dtype` (the data's when absent).
  }];
  let arguments = (ins AnyType:$data, AnyType:$weight,
                       OptionalAttr<I64Attr>:$units,
                       OptionalAttr<TypeAttr>:$out_dtype,
                       DefaultValuedStrAttr<StrAttr, "NC">:$weight_layout);
}

def Relay_QnnDensePackOp
    : Relay_OperatorOp<"qnn.contrib_dense_pack", "QnnDensePack", "Opaque", 6,
                       11> {
  let summary = "qnn.dense with a packed weight";
  let description = [{
    TVM's (which compiles it for Hexagon only): qnn.dense of 2-d quantized
    `data` and the weight in `weight_layout`, a packing of NC such as
    `NC32n4c` ([N/32, K/4, 32, 4]), with the zero points and scales of
    qnn.dense; int32 results unless `out_dtype` says otherwise.
  }];
  let arguments = (ins AnyType:$data, AnyType:$weight,
                       AnyType:$input_zero_point, AnyType:$kernel_zero_point,
                       AnyType:$input_scale, AnyType:$kernel_scale,
                       OptionalAttr<I64Attr>:$units,
                       OptionalAttr<TypeAttr>:$out_dtype,
                       DefaultValuedStrAttr<StrAttr, "NC">:$weight_layout);
}

// TVM's GEMM convolution for its Arm kernels (NHWC data, HWIO weights):
// the weight flattened to a [K, N] matrix (K = KH * KW * I, N = O),
// padded and interleaved into tiles once, and a convolution that takes
// the interleaved weight.

def Relay_Conv2DGemmWeightTransformOp
    : Relay_OperatorOp<"nn.contrib_conv2d_gemm_weight_transform",
                       "Conv2DGemmWeightTransform", "Opaque", 1, 10> {
  let summary = "A 2-d convolution's HWIO weight as interleaved GEMM tiles";
  let description = [{
    TVM's: the weight [KH, KW, I, O] as the matrix W [K, N] (K = KH * KW
    * I, N = O), zero-padded to multiples of `tile_cols` rows and
    `tile_rows` columns, in tiles: result[x, y, z, w] = W[y * tile_cols +
    w, x * tile_rows + z], of shape [N' / tile_rows, K' / tile_cols,
    tile_rows, tile_cols].
  }];
  let arguments = (ins AnyType:$weights, I64Attr:$tile_rows,
                       I64Attr:$tile_cols);
}

def Relay_Conv2DGemmOp
    : Relay_Conv2DBase<"nn.contrib_conv2d_gemm_without_weight_transform",
                       "Conv2DGemm", "OIHW"> {
  let summary = "2-d convolution on an interleaved GEMM weight";
  let description = [{
    TVM's: nn.conv2d's attributes (NHWC data, one group, `channels` and
    `kernel_size` given) on a weight that
    nn.contrib_conv2d_gemm_weight_transform interleaved (its tiles read
    back: rows beyond K and columns beyond N, the padding, are ignored).
    `kernel_layout` defaults to OIHW as TVM's Conv2DAttrs do (TVM's
    AlterOpLayout sets HWIO); the weight's layout is the interleaving.
  }];
  let arguments = convAttrs;
}

// TVM's Winograd convolution, as its AlterOpLayout writes it for its CUDA,
// x86 NHWC and auto-scheduled kernels: the weight transformed once
// (folded into a constant when the weight is one) and a convolution that
// takes the transformed weight. Decomposed into products with the
// Cook-Toom matrices of topi's winograd_util (its interpolation points),
// so a weight TVM transformed gives TVM's result.

def Relay_Conv2DWinogradWeightTransformOp
    : Relay_OperatorOp<"nn.contrib_conv2d_winograd_weight_transform",
                       "Conv2DWinogradWeightTransform", "OutEWiseFusable", 1,
                       10> {
  let summary = "Winograd transform G w G^T of a 2-d convolution's weight";
  let description = [{
    TVM's: an OIHW weight [O, I, K, K] (3 <= K <= 7) transformed for
    output tiles of `tile_size` (2 to 8): [a, a, O, I] with a = `tile_size`
    + K - 1.
  }];
  let arguments = (ins AnyType:$weight, I64Attr:$tile_size);
}

def Relay_Conv2DWinogradOp
    : Relay_OperatorOp<"nn.contrib_conv2d_winograd_without_weight_transform",
                       "Conv2DWinograd", "OutEWiseFusable", 2, 10> {
  let summary = "2-d convolution by Winograd's algorithm on a transformed "
                "weight";
  let description = [{
    TVM's: nn.conv2d's attributes (strides and dilation 1, one group,
    `channels` and a square `kernel_size` given) with `tile_size`; the
    weight is nn.contrib_conv2d_winograd_weight_transform's, laid out as
    topi's generic kernels read it: [a, a, I, O] for NCHW data (its
    transform transposed), [a, a, O, I] for NHWC.
  }];
  let arguments = (ins AnyType:$data, AnyType:$weight, I64Attr:$tile_size,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       OptionalAttr<I64Attr>:$channels,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_size,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$data_layout,
                       DefaultValuedStrAttr<StrAttr, "OIHW">:$kernel_layout,
                       DefaultValuedStrAttr<StrAttr, "">:$out_layout,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_Conv3DWinogradWeightTransformOp
    : Relay_OperatorOp<"nn.contrib_conv3d_winograd_weight_transform",
                       "Conv3DWinogradWeightTransform", "OutEWiseFusable", 1,
                       10> {
  let summary = "Winograd transform of a 3-d convolution's weight";
  let description = [{
    TVM's: an OIDHW weight [O, I, KD, K, K] transformed for output tiles of
    `tile_size`: [a, a, a, O, I] (a = `tile_size` + K - 1) when the depth
    is transformed too (3 <= KD <= 7 and KD = K, topi's rule), else
    [a, a, KD, O, I].
  }];
  let arguments = (ins AnyType:$weight, I64Attr:$tile_size);
}

def Relay_Conv3DWinogradOp
    : Relay_OperatorOp<"nn.contrib_conv3d_winograd_without_weight_transform",
                       "Conv3DWinograd", "OutEWiseFusable", 2, 10> {
  let summary = "3-d convolution by Winograd's algorithm on a transformed "
                "weight";
  let description = [{
    TVM's (its CUDA kernels'): NCDHW data, nn.conv3d's attributes (strides
    and dilation 1, but the depth stride when the depth is not
    transformed; one group; `channels` and `kernel_size` given) with
    `tile_size`, on nn.contrib_conv3d_winograd_weight_transform's result
    as it is.
  }];
  let arguments = (ins AnyType:$data, AnyType:$weight, I64Attr:$tile_size,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       OptionalAttr<I64Attr>:$channels,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_size,
                       DefaultValuedStrAttr<StrAttr, "NCDHW">:$data_layout,
                       DefaultValuedStrAttr<StrAttr, "OIDHW">:$kernel_layout,
                       DefaultValuedStrAttr<StrAttr, "">:$out_layout,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

#endif // RELAY_PACKED_OPERATORS
