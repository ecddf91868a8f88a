//===- RelayQnnOperators.td - Quantized operators ----------*- tablegen -*-===//
//
// TVM's quantized operators (`qnn.*`) and the simulated quantization of
// Relay's quantization flow (seed 000 §4.5). As in TVM, scales and zero
// points are operands, not attributes: a scale is a float32 tensor and a
// zero point an int32 tensor, each a scalar or, for per-channel
// quantization, a vector along `axis`. --relay-qnn-canonicalize rewrites
// them into integer arithmetic on Relay's primitive operators (TVM's
// relay.qnn.transform.CanonicalizeOps); the interpreter runs them as they
// are, by kernels that follow TVM's definitions.
//
// Included by RelayOperators.td.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_QNN_OPERATORS
#define RELAY_QNN_OPERATORS

def Relay_QnnQuantizeOp
    : Relay_OperatorOp<"qnn.quantize", "QnnQuantize", "Opaque", 3, 11> {
  let summary = "Float to integers: `clip(round(data / scale) + zero_point)`";
  let description = [{
    `data` (float32) divided by `output_scale`, rounded to nearest (ties to
    even), shifted by `output_zero_point` and clipped to `out_dtype`'s range
    (int8 by default; uint8, int16, uint16, int32). A vector scale or zero
    point applies per channel along `axis`.

    ```mlir
    %q = relay.qnn.quantize %x, %s, %z {out_dtype = ui8}
        : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xui8>
    ```
  }];
  let arguments = (ins AnyType:$data, AnyType:$output_scale,
                       AnyType:$output_zero_point,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_QnnDequantizeOp
    : Relay_OperatorOp<"qnn.dequantize", "QnnDequantize", "Opaque", 3, 11> {
  let summary = "Integers to float: `(data - zero_point) * scale`";
  let arguments = (ins AnyType:$data, AnyType:$input_scale,
                       AnyType:$input_zero_point,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_QnnRequantizeOp
    : Relay_OperatorOp<"qnn.requantize", "QnnRequantize", "Opaque", 5, 11> {
  let summary = "Integers of one scale and zero point to another's";
  let description = [{
    `output_zero_point + (data - input_zero_point) * input_scale /
    output_scale`, clipped to `out_dtype` (int8 by default). With
    `compute_dtype` int64 (or "None") the scale ratio is TVM's fixed-point
    multiplier (a 31-bit significand and a shift) and `rounding` says how
    the shift rounds: "UPWARD" (ties toward +infinity, the default for
    "None") or "TONEAREST" (ties away from zero); with float32 or float64
    the product is computed in that type and rounded to nearest even.
  }];
  let arguments = (ins AnyType:$data, AnyType:$input_scale,
                       AnyType:$input_zero_point, AnyType:$output_scale,
                       AnyType:$output_zero_point,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedStrAttr<StrAttr, "None">:$rounding,
                       DefaultValuedStrAttr<StrAttr, "None">:$compute_dtype,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_QnnConv2DOp
    : Relay_OperatorOp<"qnn.conv2d", "QnnConv2D", "Opaque", 6, 11> {
  let summary = "2-d convolution of integers with zero points";
  let description = [{
    `sum((data - input_zero_point) * (kernel - kernel_zero_point))` over
    each window, in `out_dtype` (int32 by default); padding reads
    `input_zero_point` (so it adds nothing). The kernel's zero point may be
    per output channel; the scales do not enter the result (they give the
    scale `input_scale * kernel_scale` a following requantize divides by).
    Attributes are nn.conv2d's.
  }];
  let arguments = (ins AnyType:$data, AnyType:$kernel,
                       AnyType:$input_zero_point, AnyType:$kernel_zero_point,
                       AnyType:$input_scale, AnyType:$kernel_scale,
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

def Relay_QnnConv2DTransposeOp
    : Relay_OperatorOp<"qnn.conv2d_transpose", "QnnConv2DTranspose", "Opaque",
                       6, 11> {
  let summary = "2-d transposed convolution of integers with zero points";
  let description = [{
    nn.conv2d_transpose of `data - input_zero_point` and `kernel -
    kernel_zero_point` in `out_dtype` (int32 by default), TVM's
    legalization; the kernel's zero point may be one per output channel
    (the kernel layout's O axis). The scales do not enter the result.
    Attributes are nn.conv2d_transpose's (IOHW kernels by default).
  }];
  let arguments = (ins AnyType:$data, AnyType:$kernel,
                       AnyType:$input_zero_point, AnyType:$kernel_zero_point,
                       AnyType:$input_scale, AnyType:$kernel_scale,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       OptionalAttr<I64Attr>:$channels,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_size,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$data_layout,
                       DefaultValuedStrAttr<StrAttr, "IOHW">:$kernel_layout,
                       DefaultValuedStrAttr<StrAttr, "">:$out_layout,
                       OptionalAttr<DenseI64ArrayAttr>:$output_padding,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_QnnDenseOp
    : Relay_OperatorOp<"qnn.dense", "QnnDense", "Opaque", 6, 11> {
  let summary = "nn.dense of integers with zero points, in int32";
  let arguments = (ins AnyType:$data, AnyType:$weight,
                       AnyType:$input_zero_point, AnyType:$kernel_zero_point,
                       AnyType:$input_scale, AnyType:$kernel_scale,
                       OptionalAttr<I64Attr>:$units,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_QnnBatchMatmulOp
    : Relay_OperatorOp<"qnn.batch_matmul", "QnnBatchMatmul", "Opaque", 6, 11> {
  let summary = "nn.batch_matmul of integers with zero points, in int32";
  let arguments = (ins AnyType:$x, AnyType:$y, AnyType:$x_zero_point,
                       AnyType:$y_zero_point, AnyType:$x_scale,
                       AnyType:$y_scale,
                       OptionalAttr<TypeAttr>:$out_dtype,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_b);
}

/// qnn.add, qnn.subtract, qnn.mul: both operands requantized to the
/// output's scale and zero point (TVM's canonical form), combined, clipped.
class Relay_QnnBinaryOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic, "QnnBinary", "Opaque", 8, 11> {
  let summary = "Quantized " # what # " with numpy broadcasting";
  let arguments = (ins AnyType:$lhs, AnyType:$rhs, AnyType:$lhs_scale,
                       AnyType:$lhs_zero_point, AnyType:$rhs_scale,
                       AnyType:$rhs_zero_point, AnyType:$output_scale,
                       AnyType:$output_zero_point,
                       DefaultValuedAttr<I64Attr, "-1">:$lhs_axis,
                       DefaultValuedAttr<I64Attr, "-1">:$rhs_axis);
}
def Relay_QnnAddOp : Relay_QnnBinaryOp<"qnn.add", "addition">;
def Relay_QnnSubtractOp : Relay_QnnBinaryOp<"qnn.subtract", "subtraction">;
def Relay_QnnMulOp : Relay_QnnBinaryOp<"qnn.mul", "multiplication">;

def Relay_QnnConcatenateOp
    : Relay_OperatorOp<"qnn.concatenate", "QnnConcatenate", "Opaque", 5, 11> {
  let summary = "Joins quantized tensors along `axis`, each requantized to "
                "the output's scale and zero point";
  let arguments = (ins AnyType:$data, AnyType:$input_scales,
                       AnyType:$input_zero_points, AnyType:$output_scale,
                       AnyType:$output_zero_point,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
}

/// TVM's quantized unary operators: the data dequantized, the float
/// operator, and the result quantized to the data's dtype.
class Relay_QnnUnaryOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic, "QnnUnary", "Opaque", 5, 11> {
  let summary = "Quantized " # what;
  let description = [{
    `quantize(f(dequantize(data, scale, zero_point)), output_scale,
    output_zero_point)` in the data's dtype (int8 or uint8), TVM's
    canonical form; every parameter is a scalar.
  }];
  let arguments = (ins AnyType:$data, AnyType:$scale, AnyType:$zero_point,
                       AnyType:$output_scale, AnyType:$output_zero_point);
}
def Relay_QnnAbsOp : Relay_QnnUnaryOp<"qnn.abs", "absolute value">;
def Relay_QnnErfOp : Relay_QnnUnaryOp<"qnn.erf", "error function">;
def Relay_QnnExpOp : Relay_QnnUnaryOp<"qnn.exp", "exponential">;
def Relay_QnnHardswishOp
    : Relay_QnnUnaryOp<"qnn.hardswish", "hard swish, x * clip(x + 3, 0, 6) / 6">;
def Relay_QnnLogOp : Relay_QnnUnaryOp<"qnn.log", "natural logarithm">;
def Relay_QnnRsqrtOp : Relay_QnnUnaryOp<"qnn.rsqrt", "reciprocal square root">;
def Relay_QnnSigmoidOp : Relay_QnnUnaryOp<"qnn.sigmoid", "logistic sigmoid">;
def Relay_QnnSqrtOp : Relay_QnnUnaryOp<"qnn.sqrt", "square root">;
def Relay_QnnTanhOp : Relay_QnnUnaryOp<"qnn.tanh", "hyperbolic tangent">;

def Relay_QnnLeakyReluOp
    : Relay_OperatorOp<"qnn.leaky_relu", "QnnUnary", "Opaque", 5, 11> {
  let summary = "Quantized leaky ReLU in fixed point";
  let description = [{
    TVM's canonical form: the data (int8 or uint8) requantized to the
    output's scale and zero point in int32, q; where the data is below its
    zero point, `alpha * q + (1 - alpha) * output_zero_point`, each product
    a fixed-point multiply (fixed_point_multiply); clipped to the data's
    dtype. `alpha` is in [0, 1].
  }];
  let arguments = (ins AnyType:$data, AnyType:$input_scale,
                       AnyType:$input_zero_point, AnyType:$output_scale,
                       AnyType:$output_zero_point,
                       DefaultValuedAttr<F64Attr, "0.25">:$alpha);
}

def Relay_QnnSoftmaxOp
    : Relay_OperatorOp<"qnn.softmax", "QnnSoftmax", "Opaque", 5, 11> {
  let summary = "Quantized softmax in integers (TVM's Shiftmax)";
  let description = [{
    TVM's integer-only softmax along `axis` (Algorithm 1 of Stevens et al.,
    arXiv:2207.01405): with d = data - zero_point - max(data - zero_point)
    and x0 = round(1 / scale) (the scale a constant of at most 1), 2^(d /
    x0) is approximated by shifts (d + d >> 1 - d >> 4, its quotient by -x0
    clipped to [0, 20]), the exponentials normalised as 2^30 / sum *
    exp >> 23 (values of scale 2^-7), and requantized to the output's scale
    and zero point in the data's dtype (int8 or uint8).
  }];
  let arguments = (ins AnyType:$data, AnyType:$scale, AnyType:$zero_point,
                       AnyType:$output_scale, AnyType:$output_zero_point,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
}

def Relay_QnnAvgPool2DOp
    : Relay_OperatorOp<"qnn.avg_pool2d", "QnnAvgPool2D", "Opaque", 5, 11> {
  let summary = "Quantized 2-d average pooling";
  let description = [{
    TVM's canonical form: the data (int8 or uint8) requantized to the
    output's scale and zero point in int32, averaged as nn.avg_pool2d does
    integers (the sum divided by the count, truncated), clipped and cast to
    the data's dtype. Attributes are nn.avg_pool2d's.
  }];
  let arguments = (ins AnyType:$data, AnyType:$input_scale,
                       AnyType:$input_zero_point, AnyType:$output_scale,
                       AnyType:$output_zero_point,
                       DenseI64ArrayAttr:$pool_size,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "">:$out_layout,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
                       DefaultValuedAttr<BoolAttr, "false">:$count_include_pad);
}

/// qnn.simulated_quantize and qnn.simulated_dequantize: TVM's quantization
/// simulated in float, the integer type chosen when the program runs.
class Relay_QnnSimulatedOp<string mnemonic, string summaryText>
    : Relay_OperatorOp<mnemonic, "QnnSimulatedQuantize", "ElemWise", 4, 11> {
  let summary = summaryText;
  let description = [{
    `dtype` is an int32 scalar tensor, a code: 0 (disabled: the data passes
    unchanged), 1 (int8), 2 (uint8) or 3 (int32). The scale (float32) and
    zero point (int32) are scalars or vectors along `axis`. simulated_quantize
    is `clip(round(data / scale) + zero_point)` to the integer type's range
    (ties to even), in float32; simulated_dequantize is `(data -
    zero_point) * scale`.
  }];
  let arguments = (ins AnyType:$data, AnyType:$dtype, AnyType:$scale,
                       AnyType:$zero_point,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
}
def Relay_QnnSimulatedQuantizeOp
    : Relay_QnnSimulatedOp<"qnn.simulated_quantize",
                           "qnn.quantize simulated in float32">;
def Relay_QnnSimulatedDequantizeOp
    : Relay_QnnSimulatedOp<"qnn.simulated_dequantize",
                           "qnn.dequantize simulated in float32">;

def Relay_SimulatedQuantizeOp
    : Relay_OperatorOp<"annotation.simulated_quantize", "SimulatedQuantize",
                       "ElemWise", 4, 11> {
  let summary = "Quantization error simulated in float (TVM's "
                "`relay.op.annotation.simulated_quantize`)";
  let description = [{
    `round(clip(data / dom_scale, clip_min, clip_max)) * dom_scale`: what
    quantizing to integers in [clip_min, clip_max] with the scale
    `dom_scale` and dequantizing again loses. `kind` says what the value is
    (0 identity: the data passes unchanged, 1 input, 2 weight, 3
    activation), as the quantization passes annotate. The Relay text name
    is TVM's, `relay.op.annotation.simulated_quantize`.
  }];
  let arguments = (ins AnyType:$data, AnyType:$dom_scale, AnyType:$clip_min,
                       AnyType:$clip_max, I64Attr:$kind,
                       DefaultValuedAttr<BoolAttr, "true">:$sign,
                       DefaultValuedStrAttr<StrAttr, "round">:$rounding);
}

def Relay_FixedPointMultiplyPerAxisOp
    : Relay_OperatorOp<"fixed_point_multiply_per_axis",
                       "FixedPointMultiplyPerAxis", "Broadcast", 4, 10> {
  let summary = "fixed_point_multiply with a multiplier and shifts per "
                "channel";
  let description = [{
    TVM's (what its per-channel requantization lowers to): int32 data and
    int32 multipliers (Q31 values), left shifts and right shifts, each
    shaped as the data's `axes` (increasing). As topi's
    q_multiply_shift_per_axis, in 64 bits: x shifted left by its channel's
    left shift when `is_lshift_required`, times the multiplier, plus
    2^(30 + right shift), shifted right by 31 + the right shift, back to
    int32 (`is_rshift_required` changes nothing there either).
  }];
  let arguments = (ins AnyType:$data, AnyType:$fixed_point_multiplier,
                       AnyType:$left_shift, AnyType:$right_shift,
                       DefaultValuedAttr<BoolAttr, "false">:$is_lshift_required,
                       DefaultValuedAttr<BoolAttr, "false">:$is_rshift_required,
                       DenseI64ArrayAttr:$axes);
}

#endif // RELAY_QNN_OPERATORS
