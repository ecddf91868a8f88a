//===- Passes.td - Relay passes: Quantization --------------*- tablegen -*-===//
//
// Quantization (transforms/Quantization). Included by transforms/Passes.td,
// which generates every pass declaration into one Passes.h.inc.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_QUANTIZATION_PASSES
#define RELAY_TRANSFORMS_QUANTIZATION_PASSES

include "mlir/Pass/PassBase.td"

def ToMixedPrecision : Pass<"relay-to-mixed-precision", "::mlir::ModuleOp"> {
  let summary = "Compute convolutions and matrix products on 16-bit float "
                "operands with float32 accumulation (TVM's ToMixedPrecision)";
  let description = [{
    Each ungrouped `nn.conv2d`, each `nn.dense` and `nn.matmul` on
    float32 operands with a float32 result
    takes its operands rounded to `mixed-precision-type` (`bfloat16`, the
    default, or `float16`) and sums in float32: its operands are cast, and
    `out_dtype` is float32, so its result and everything after it stay
    float32. Constant operands (weights) are rounded once, here, to
    constants of the narrow type (round to nearest even); others get a
    `cast`. What is not a product keeps float32: elementwise operators,
    normalisations, reductions and the memory-bound depthwise and grouped
    convolutions gain nothing from narrow operands on a CPU, only lose
    precision.

    On a CPU with AVX-512 BF16, --relay-to-llvm computes bfloat16 products
    with `vdpbf16ps` (two products summed per f32 lane); elsewhere the
    operands are widened and the float32 kernels compute the same values.

    ```mlir
    %y = relay.nn.dense %x, %w : (tensor<8x64xf32>, tensor<10x64xf32>) -> tensor<8x10xf32>
    // becomes
    %xb = relay.cast %x {dtype = bf16} : (tensor<8x64xf32>) -> tensor<8x64xbf16>
    %wb = relay.constant dense<...> : tensor<10x64xbf16>
    %y = relay.nn.dense %xb, %wb {out_dtype = f32} : (tensor<8x64xbf16>, tensor<10x64xbf16>) -> tensor<8x10xf32>
    ```

    Run it on a typed program (--relay-infer-types); ops whose types are
    not known are left as they are.
  }];
  let options = [
    Option<"mixedPrecisionType", "mixed-precision-type", "std::string",
           /*default=*/"\"bfloat16\"",
           "The operands' type: bfloat16 or float16">
  ];
}

def FakeQuantizationToInteger
    : Pass<"relay-fake-quantization-to-integer", "::mlir::ModuleOp"> {
  let summary = "Rewrite the float operators between dequantize and quantize "
                "ops as integer operators (TVM's FakeQuantizationToInteger)";
  let description = [{
    A model quantized elsewhere and exported with quantize/dequantize pairs
    around float operators (ONNX's QuantizeLinear/DequantizeLinear, as
    PyTorch and ONNX Runtime write them) computes in float. For each
    `qnn.quantize`, the operators between it and the `qnn.dequantize` ops
    its input comes from are rewritten on the integers, each value an
    integer tensor with a scale and a zero point: conv2d and dense become
    qnn.conv2d/qnn.dense into int32 (per output channel where the weight
    is), batch_matmul (two activations: attention's products) qnn.batch_matmul
    (per tensor); bias_add, and add of a float constant, add the bias quantized at
    the accumulator's scale; add and subtract become qnn.add/qnn.subtract
    at the quantize's parameters where it reads them, else are computed in
    int32 at the smaller operand scale; relu and clip clip at the quantized
    bounds; max pooling, reshapes, transposes, squeeze, expand_dims,
    batch_flatten, strided_slice, pad, dropout and broadcast_to keep the
    parameters; average pooling sums in int32. The quantize becomes a qnn.requantize
    to its parameters (nothing where they agree). A subgraph with another
    operator, or whose scales and zero points are not constants, stays in
    float (an error naming the operator with hard-fail). At -O3 it runs
    before the qnn operators are canonicalized.

    ```mlir
    %x = relay.qnn.dequantize %a, %sa, %za : ... -> tensor<1x3x8x8xf32>
    %w = relay.qnn.dequantize %wq, %sw, %zw : ... -> tensor<4x3x3x3xf32>
    %c = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : ...
    %r = relay.nn.relu %c : ...
    %q = relay.qnn.quantize %r, %s, %z {out_dtype = ui8} : ...
    // becomes
    %c = relay.qnn.conv2d %a, %wq, %za, %zw, %sa, %sw {out_dtype = i32, ...}
    %r = relay.nn.relu %c
    %q = relay.qnn.requantize %r, %sa_sw, %0, %s, %z {out_dtype = ui8}
    ```
  }];
  let options = [
    Option<"hardFail", "hard-fail", "bool", /*default=*/"false",
           "A subgraph that cannot be rewritten is an error naming the "
           "operator (else it stays in float)">,
  ];
  let statistics = [
    Statistic<"numRewritten", "rewritten",
              "Quantize ops whose subgraph now computes in integers">,
    Statistic<"numLeftInFloat", "left-in-float",
              "Quantize ops whose subgraph stays in float">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def QnnCanonicalize : Pass<"relay-qnn-canonicalize", "::mlir::ModuleOp"> {
  let summary = "Rewrite the quantized operators into integer arithmetic on "
                "primitive operators (TVM's qnn CanonicalizeOps)";
  let description = [{
    Every `qnn.*` operator whose scales and zero points are constants and
    whose shapes are static becomes Relay's primitive operators, computing
    what the interpreter's kernel computes:

    - `qnn.quantize`: `cast(clip(round(x / scale) + zero_point))`;
      `qnn.dequantize`: `(cast(x, float32) - zero_point) * scale`.
    - `qnn.requantize`: TVM's fixed-point multiply in int64 (left shift,
      multiply by the 31-bit significand, add the rounding term of
      `rounding`, right shift), or the product in float32/float64 for those
      `compute_dtype`s, then the output zero point, clip and cast. Where
      that is exact (UPWARD rounding, no left shift, a total right shift n
      of 33 to 63 in every channel, an input that fits 32 bits: a
      requantized product's case), only the product is int64: its high
      half `(t * m) >> 32` is cast to int32 and the rest is int32,
      `(high + 2^(n-33)) >> (n - 32)`, which vectorises eight lanes at a
      time on AVX2 where int64 shifts and clamps take four.
    - `qnn.conv2d`, `qnn.dense`, `qnn.batch_matmul`: the float operator
      with `out_dtype` int32 on the operands themselves where both zero
      points are 0 and the dtypes agree (the int8 kernels), else on the
      operands minus their zero points in int32 (the kernel's per output
      channel).
    - `qnn.add`, `qnn.subtract`: each operand requantized to the output's
      scale and zero point in int32 (only cast where its parameters are
      the output's), added or subtracted, the zero point corrected, clipped;
      `qnn.mul`: the zero-point-shifted product requantized from the
      scale `lhs_scale * rhs_scale` (scalar scales only).
    - `qnn.concatenate`: the inputs whose parameters differ from the
      output's requantized, then concatenate.
    - `relay.op.annotation.simulated_quantize`: its float arithmetic
      `round(clip(x / s, lo, hi)) * s` (kind 0: the identity).

    Scales and zero points known only at run time are read as operands
    where the arithmetic is float and in the products' zero points; the
    int64 requantize, add, subtract, mul and concatenate need constants
    and are left as they are otherwise. --relay-to-llvm runs it after
    specialisation and again after FoldConstant.

    ```mlir
    %y = relay.qnn.dequantize %x, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
    // becomes
    %0 = relay.cast %x {dtype = f32} : (tensor<4xi8>) -> tensor<4xf32>
    %1 = relay.subtract %0, %zf : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %y = relay.multiply %1, %s : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def QuantizeAnnotate : Pass<"relay-quantize-annotate", "::mlir::ModuleOp"> {
  let summary = "Mark where values are quantized with simulated_quantize "
                "(TVM's QAnnotate)";
  let description = [{
    Inserts `relay.op.annotation.simulated_quantize` (kind 1 input, 2
    weight, 3 activation) around the operators Relay quantizes: the data
    and weight of nn.conv2d (and nn.dense unless skip-dense-layer), the
    operands of add and multiply, through relu, clip, reshape-like
    operators and pooling, by TVM's annotate rules (see Annotate.cpp). A
    consumer without a rule reads annotated values through an input
    simulated_quantize, and a remark says that it stays in float (the
    statistics count them: -mlir-pass-statistics); nothing after a global
    average pooling is quantized. Scales are 1.0 until
    --relay-quantize-calibrate sets them.
  }];
  let options = [
    Option<"nbitInput", "nbit-input", "int64_t", /*default=*/"8",
           "Bits of the quantized inputs of convolutions and products">,
    Option<"nbitWeight", "nbit-weight", "int64_t", /*default=*/"8",
           "Bits of the quantized weights">,
    Option<"nbitActivation", "nbit-activation", "int64_t", /*default=*/"32",
           "Bits of the quantized results (accumulators)">,
    ListOption<"skipConvLayers", "skip-conv-layers", "std::string",
               "Indices (program order) of the nn.conv2d left in float, or "
               "none (default: 0, the first)">,
    Option<"skipDenseLayer", "skip-dense-layer", "bool", /*default=*/"true",
           "Leave every nn.dense in float">,
    Option<"rules", "rules", "std::string", /*default=*/"\"\"",
           "A file of quantization rules (`<operator> <rule>` per line) "
           "adding to or overriding the built-in ones">,
  ];
  let statistics = [
    Statistic<"quantizedOperators", "quantized-operators",
              "Operators computing on quantized values">,
    Statistic<"floatOperators", "float-operators",
              "Operators quantized values reach that stay in float (no "
              "rule; each also a remark)">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def QuantizeCalibrate : Pass<"relay-quantize-calibrate", "::mlir::ModuleOp"> {
  let summary = "Set the scales of the simulated quantizations (TVM's "
                "calibrate)";
  let description = [{
    Every simulated_quantize gets the domain scale r / 2^(nbit-1) and the
    clip bounds +-(2^(nbit-1) - 1) of its kind's bit width, r being the
    range of the value: a weight's largest magnitude (rounded up to a power
    of two with weight-scale=power2; the weight must be a constant; with
    per-channel, a convolution's or dense layer's weight gets one range
    per output channel, its scale a tensor that broadcasts along that
    axis), and
    for inputs and activations global-scale or, with calibration-data, what
    the float program computes there over the samples (run natively where
    the tool registers the JIT, as relay-mlir-opt does, else interpreted):
    the threshold of least KL divergence of a 255-level quantization of
    their histogram, or the 99.99th percentile of their magnitudes.
  }];
  let options = [
    Option<"nbitInput", "nbit-input", "int64_t", /*default=*/"8",
           "Bits of the quantized inputs of convolutions and products">,
    Option<"nbitWeight", "nbit-weight", "int64_t", /*default=*/"8",
           "Bits of the quantized weights">,
    Option<"nbitActivation", "nbit-activation", "int64_t", /*default=*/"32",
           "Bits of the quantized results (accumulators)">,
    Option<"calibrateMode", "calibrate-mode", "std::string",
           /*default=*/"\"global-scale\"",
           "How the ranges of inputs and activations are found: "
           "global-scale, or from calibration-data kl-divergence (the "
           "threshold of least KL divergence) or percentile (99.99th "
           "percentile of the magnitudes)">,
    Option<"calibrationData", "calibration-data", "std::string",
           /*default=*/"\"\"",
           "A directory of samples: .npy files (one input), or "
           "subdirectories of .npy files in parameter order">,
    Option<"globalScale", "global-scale", "double", /*default=*/"8.0",
           "The range of every input and activation with "
           "calibrate-mode=global-scale">,
    Option<"weightScale", "weight-scale", "std::string",
           /*default=*/"\"power2\"",
           "A weight's range: its largest magnitude (max) rounded up to a "
           "power of two (power2)">,
    Option<"perChannel", "per-channel", "bool", /*default=*/"false",
           "Scale the weights of convolutions and dense layers per output "
           "channel (each channel's own range) instead of one scale per "
           "tensor">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def QuantizeRealize : Pass<"relay-quantize-realize", "::mlir::ModuleOp"> {
  let summary = "Turn calibrated simulated quantization into integer "
                "arithmetic (TVM's QRealize)";
  let description = [{
    Values behind simulated_quantize become integer tensors with a scale:
    convolutions and dense run on dtype-input data and dtype-weight
    weights into dtype-activation, add and multiply in dtype-activation,
    requantization between scales by qnn.requantize (TVM's fixed-point
    multiply), relu, clip, reshapes and max pooling on the integers; every
    other use reads the value dequantized (cast to float32 times its
    scale).
  }];
  let options = [
    Option<"dtypeInput", "dtype-input", "std::string", /*default=*/"\"int8\"",
           "The integer type of quantized inputs">,
    Option<"dtypeWeight", "dtype-weight", "std::string", /*default=*/"\"int8\"",
           "The integer type of quantized weights">,
    Option<"dtypeActivation", "dtype-activation", "std::string",
           /*default=*/"\"int32\"",
           "The integer type of quantized results">,
    Option<"rules", "rules", "std::string", /*default=*/"\"\"",
           "A file of quantization rules (`<operator> <rule>` per line) "
           "adding to or overriding the built-in ones">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def QuantizePartition : Pass<"relay-quantize-partition", "::mlir::ModuleOp"> {
  let summary = "Split a quantized @main into @quantize_inputs, "
                "@quantized_main and @dequantize_outputs (TVM's "
                "partition_conversions)";
  let description = [{
    The conversions from each float input to the integers the program reads
    (chains of add, multiply, right_shift, clip, round and cast from one
    input) go to @quantize_inputs, which returns them as a tuple; the
    conversions of the integers the result is made of back to float go to
    @dequantize_outputs; the rest is @quantized_main; @main calls the three
    in turn. With fully-integral, @quantized_main may compute only values
    of the quantized dtypes and @dequantize_outputs only convert: the first
    value or operator that does not is the error (a layer left in float,
    an operator without a quantization rule).
  }];
  let options = [
    Option<"fullyIntegral", "fully-integral", "bool", /*default=*/"false",
           "Require the quantized part to compute in the quantized dtypes "
           "only">,
    Option<"dtypeInput", "dtype-input", "std::string", /*default=*/"\"int8\"",
           "A quantized dtype">,
    Option<"dtypeWeight", "dtype-weight", "std::string", /*default=*/"\"int8\"",
           "A quantized dtype">,
    Option<"dtypeActivation", "dtype-activation", "std::string",
           /*default=*/"\"int32\"", "A quantized dtype">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def Quantize : Pass<"relay-quantize", "::mlir::ModuleOp"> {
  let summary = "Relay's quantization flow (TVM's relay.quantize.quantize)";
  let description = [{
    SimplifyInference, FoldConstant, FoldScaleAxis, CanonicalizeOps and
    FoldConstant, then --relay-quantize-annotate, -calibrate and -realize
    with the options below (TVM's qconfig), then FoldConstant. Weights must
    be constants (bound parameters) to be quantized.

    ```
    relay-mlir-opt model.mlir '--relay-quantize=skip-conv-layers=none global-scale=4'
    ```
  }];
  let options = [
    Option<"nbitInput", "nbit-input", "int64_t", /*default=*/"8",
           "Bits of the quantized inputs of convolutions and products">,
    Option<"nbitWeight", "nbit-weight", "int64_t", /*default=*/"8",
           "Bits of the quantized weights">,
    Option<"nbitActivation", "nbit-activation", "int64_t", /*default=*/"32",
           "Bits of the quantized results (accumulators)">,
    Option<"dtypeInput", "dtype-input", "std::string", /*default=*/"\"int8\"",
           "The integer type of quantized inputs">,
    Option<"dtypeWeight", "dtype-weight", "std::string", /*default=*/"\"int8\"",
           "The integer type of quantized weights">,
    Option<"dtypeActivation", "dtype-activation", "std::string",
           /*default=*/"\"int32\"",
           "The integer type of quantized results">,
    Option<"calibrateMode", "calibrate-mode", "std::string",
           /*default=*/"\"global-scale\"",
           "How the ranges of inputs and activations are found: "
           "global-scale, or from calibration-data kl-divergence (the "
           "threshold of least KL divergence) or percentile (99.99th "
           "percentile of the magnitudes)">,
    Option<"calibrationData", "calibration-data", "std::string",
           /*default=*/"\"\"",
           "A directory of samples: .npy files (one input), or "
           "subdirectories of .npy files in parameter order">,
    Option<"globalScale", "global-scale", "double", /*default=*/"8.0",
           "The range of every input and activation with "
           "calibrate-mode=global-scale">,
    Option<"weightScale", "weight-scale", "std::string",
           /*default=*/"\"power2\"",
           "A weight's range: its largest magnitude (max) rounded up to a "
           "power of two (power2)">,
    Option<"perChannel", "per-channel", "bool", /*default=*/"false",
           "Scale the weights of convolutions and dense layers per output "
           "channel (each channel's own range) instead of one scale per "
           "tensor">,
    ListOption<"skipConvLayers", "skip-conv-layers", "std::string",
               "Indices (program order) of the nn.conv2d left in float, or "
               "none (default: 0, the first)">,
    Option<"skipDenseLayer", "skip-dense-layer", "bool", /*default=*/"true",
           "Leave every nn.dense in float">,
    Option<"rules", "rules", "std::string", /*default=*/"\"\"",
           "A file of quantization rules (`<operator> <rule>` per line) "
           "adding to or overriding the built-in ones">,
    Option<"partitionConversions", "partition-conversions", "std::string",
           /*default=*/"\"disabled\"",
           "disabled, enabled (--relay-quantize-partition at the end) or "
           "fully-integral (and require the quantized part integral)">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

#endif // RELAY_TRANSFORMS_QUANTIZATION_PASSES
