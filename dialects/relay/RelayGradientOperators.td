//===- RelayGradientOperators.td - TVM's gradient operators -*- tablegen -*-===//
//
// The operators TVM's gradient pass prints for pooling and convolution
// (`nn.max_pool2d_grad`, `nn.avg_pool2d_grad`,
// `nn.conv2d_backward_weight`), so that a program TVM differentiated
// imports, runs and compiles here. They are composites: their
// decompositions build the same adjoints as --relay-gradient's rules
// (transforms/Decompose/PoolAdjoints.cpp, ConvAdjoints.cpp).
//
// Included by RelayOperators.td.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_GRADIENT_OPERATORS
#define RELAY_GRADIENT_OPERATORS

class Relay_Pool2DGradOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic, "Pool2DGrad", "OutEWiseFusable", 2, 2> {
  let summary = "The gradient of 2-d " # what # " pooling with respect to its "
                "data, given the gradient of its result";
  let description = [{
    TVM's: `(out_grad, data)` with the pool's attributes (NCHW or NHWC,
    floating-point data); the result has the data's type. `out_grad` must
    have the type the pool gives for `data`.
  }];
  dag poolGradAttrs = (ins AnyType:$out_grad, AnyType:$data,
                           DenseI64ArrayAttr:$pool_size,
                           OptionalAttr<DenseI64ArrayAttr>:$strides,
                           OptionalAttr<DenseI64ArrayAttr>:$dilation,
                           OptionalAttr<DenseI64ArrayAttr>:$padding,
                           DefaultValuedStrAttr<StrAttr, "NCHW">:$layout,
                           DefaultValuedStrAttr<StrAttr, "">:$out_layout,
                           DefaultValuedAttr<BoolAttr, "false">:$ceil_mode);
  let arguments = poolGradAttrs;
}
def Relay_MaxPool2DGradOp : Relay_Pool2DGradOp<"nn.max_pool2d_grad", "max"> {
  let description = [{
    TVM's: `(out_grad, data)` with nn.max_pool2d's attributes (NCHW or
    NHWC, floating-point data); the result has the data's type. Each
    window's gradient goes to the first element, in row-major order, that
    equals the window's maximum (PyTorch's choice; TVM's topi picks the
    same element). `out_grad` must have the type the pool gives for `data`.
  }];
}
def Relay_AvgPool2DGradOp : Relay_Pool2DGradOp<"nn.avg_pool2d_grad", "average"> {
  let arguments = !con(poolGradAttrs,
      (ins DefaultValuedAttr<BoolAttr, "false">:$count_include_pad));
}

def Relay_Conv2DBackwardWeightOp
    : Relay_OperatorOp<"nn.conv2d_backward_weight", "Conv2DBackwardWeight",
                       "OutEWiseFusable", 2, 2> {
  let summary = "The gradient of a 2-d convolution with respect to its "
                "weight, given the gradient of its result and its data";
  let description = [{
    TVM's: `(grad, data)` with nn.conv2d's attributes, `kernel_size`
    required. As in TVM, the layout attributes are nn.conv2d's reused:
    `data_layout` is the gradient's layout, `kernel_layout` the data's
    (NCHW or NHWC) and `out_layout` the weight gradient's (OIHW or HWIO);
    TVM's Python API sets them as NCHW, NCHW and OIHW. The result is the
    weight's gradient, [channels, in_channels / groups, kh, kw] in OIHW,
    of `out_dtype` (default: the gradient's dtype); `grad` must have the
    shape the convolution gives for `data`.

    ```mlir
    %dw = relay.nn.conv2d_backward_weight %g, %x {padding = array<i64: 1, 1>,
        kernel_size = array<i64: 3, 3>, kernel_layout = "NCHW",
        out_layout = "OIHW"}
        : (tensor<1x8x16x16xf32>, tensor<1x4x16x16xf32>) -> tensor<8x4x3x3xf32>
    ```
  }];
  let arguments = (ins AnyType:$grad, AnyType:$data,
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

#endif // RELAY_GRADIENT_OPERATORS
