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

#endif // RELAY_QNN_OPERATORS
