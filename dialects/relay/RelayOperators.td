//===- RelayOperators.td - Relay operators -----------------*- tablegen -*-===//
//
// Relay's primitive operators, one op each, named as in TVM (`relay.add`,
// `relay.nn.conv2d`) with TVM's attribute names and defaults. Every operator
// is pure and typed by one type relation; each op declares its relation,
// fusion pattern kind, operand count and TVM support level, and
// OperatorRegistry.cpp registers them from these declarations. Array
// attributes whose TVM default is not empty are optional here and the
// relation (and later passes) apply TVM's default. The image and vision
// operators, the quantized ones, the dynamic ones, TVM's gradient
// operators, its sparse ones, its Fourier transforms, its operators on
// packed layouts, its random ones and its bit-serial ones are in
// RelayImageOperators.td, RelayQnnOperators.td, RelayDynamicOperators.td,
// RelayGradientOperators.td, RelaySparseOperators.td,
// RelaySignalOperators.td, RelayPackedOperators.td, RelayRandomOperators.td
// and RelayBitserialOperators.td, included at the end.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_OPERATORS
#define RELAY_OPERATORS

include "dialects/relay/RelayDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// Base class of every operator: pure, printed as
/// `relay.<name> %a, %b {attrs} : (T1, T2) -> R`, verified by its relation.
class Relay_OperatorOp<string mnemonic, string relation, string pattern,
                       int numInputs, int level = 1>
    : Relay_Op<mnemonic, [Pure]> {
  let results = (outs AnyType:$result);
  let assemblyFormat =
      "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  // What an operator declares beyond the registry metadata.
  code extraOperatorDeclaration = "";
  let extraClassDeclaration = extraOperatorDeclaration # [{
    /// Registry metadata (OperatorRegistry.h).
    static constexpr ::llvm::StringLiteral kRelation = "}] # relation # [{";
    static constexpr ::mlir::relay::OpPatternKind kPattern =
        ::mlir::relay::OpPatternKind::}] # pattern # [{;
    static constexpr unsigned kNumInputs = }] # numInputs # [{;
    static constexpr int kSupportLevel = }] # level # [{;
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::relay::verifyOperator(*this);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// Elementwise binary operators typed by Broadcast: numpy broadcasting of
/// the two shapes, equal dtypes.
class Relay_BroadcastOp<string mnemonic, string what, int level = 1>
    : Relay_OperatorOp<mnemonic, "Broadcast", "Broadcast", 2, level> {
  let summary = "Elementwise " # what # " with numpy broadcasting";
  let description = [{
    Typed by the Broadcast relation: both operands are tensors of the same
    dtype whose shapes broadcast (numpy rules, `?` unifies with any
    dimension); the result has the broadcast shape and that dtype.

    ```mlir
    %r = relay.}] # mnemonic # [{ %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins AnyType:$lhs, AnyType:$rhs);
}

/// Elementwise comparisons: typed by BroadcastToBool.
class Relay_CompareOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic, "BroadcastToBool", "Broadcast", 2, 4> {
  let summary = "Elementwise " # what # " comparison with numpy broadcasting";
  let description = [{
    Typed by the BroadcastToBool relation: like Broadcast, but the result
    dtype is `i1` (Relay's `bool`).

    ```mlir
    %r = relay.}] # mnemonic # [{ %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    ```
  }];
  let arguments = (ins AnyType:$lhs, AnyType:$rhs);
}

/// Elementwise unary operators typed by Identity.
class Relay_UnaryOp<string mnemonic, string what, int level = 1>
    : Relay_OperatorOp<mnemonic, "Identity", "ElemWise", 1, level> {
  let summary = "Elementwise " # what;
  let description = [{
    Typed by the Identity relation: the result has the operand's type.

    ```mlir
    %r = relay.}] # mnemonic # [{ %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins AnyType:$data);
}

def Relay_AddOp : Relay_BroadcastOp<"add", "addition">;
def Relay_SubtractOp : Relay_BroadcastOp<"subtract", "subtraction">;
def Relay_MultiplyOp : Relay_BroadcastOp<"multiply", "multiplication">;
def Relay_DivideOp : Relay_BroadcastOp<"divide", "division">;
def Relay_PowerOp : Relay_BroadcastOp<"power", "power", 4>;
def Relay_ModOp : Relay_BroadcastOp<"mod", "remainder">;
def Relay_FloorDivideOp : Relay_BroadcastOp<"floor_divide", "floor division">;
def Relay_FloorModOp : Relay_BroadcastOp<"floor_mod", "floor remainder">;
def Relay_MaximumOp : Relay_BroadcastOp<"maximum", "maximum", 4>;
def Relay_MinimumOp : Relay_BroadcastOp<"minimum", "minimum", 4>;
def Relay_LogicalAndOp : Relay_BroadcastOp<"logical_and", "logical and", 4>;
def Relay_LogicalOrOp : Relay_BroadcastOp<"logical_or", "logical or", 4>;
def Relay_LogicalXorOp : Relay_BroadcastOp<"logical_xor", "logical xor", 4>;
def Relay_BitwiseAndOp : Relay_BroadcastOp<"bitwise_and", "bitwise and", 4>;
def Relay_BitwiseOrOp : Relay_BroadcastOp<"bitwise_or", "bitwise or", 4>;
def Relay_BitwiseXorOp : Relay_BroadcastOp<"bitwise_xor", "bitwise xor", 4>;
def Relay_LeftShiftOp : Relay_BroadcastOp<"left_shift", "left shift", 4>;
def Relay_RightShiftOp : Relay_BroadcastOp<"right_shift", "right shift", 4>;

def Relay_EqualOp : Relay_CompareOp<"equal", "==">;
def Relay_NotEqualOp : Relay_CompareOp<"not_equal", "!=">;
def Relay_LessOp : Relay_CompareOp<"less", "<">;
def Relay_LessEqualOp : Relay_CompareOp<"less_equal", "<=">;
def Relay_GreaterOp : Relay_CompareOp<"greater", ">">;
def Relay_GreaterEqualOp : Relay_CompareOp<"greater_equal", ">=">;

def Relay_NegativeOp : Relay_UnaryOp<"negative", "negation", 3>;
def Relay_AbsOp : Relay_UnaryOp<"abs", "absolute value", 3>;
def Relay_ExpOp : Relay_UnaryOp<"exp", "exponential">;
def Relay_LogOp : Relay_UnaryOp<"log", "natural logarithm">;
def Relay_Log2Op : Relay_UnaryOp<"log2", "base-2 logarithm">;
def Relay_Log10Op : Relay_UnaryOp<"log10", "base-10 logarithm">;
def Relay_SqrtOp : Relay_UnaryOp<"sqrt", "square root">;
def Relay_RsqrtOp : Relay_UnaryOp<"rsqrt", "reciprocal square root">;
def Relay_TanhOp : Relay_UnaryOp<"tanh", "hyperbolic tangent">;
def Relay_SigmoidOp : Relay_UnaryOp<"sigmoid", "logistic sigmoid">;
def Relay_ErfOp : Relay_UnaryOp<"erf", "error function">;
def Relay_SinOp : Relay_UnaryOp<"sin", "sine">;
def Relay_CosOp : Relay_UnaryOp<"cos", "cosine">;
def Relay_TanOp : Relay_UnaryOp<"tan", "tangent">;
def Relay_AsinOp : Relay_UnaryOp<"asin", "arcsine">;
def Relay_AcosOp : Relay_UnaryOp<"acos", "arccosine">;
def Relay_AtanOp : Relay_UnaryOp<"atan", "arctangent">;
def Relay_SinhOp : Relay_UnaryOp<"sinh", "hyperbolic sine">;
def Relay_CoshOp : Relay_UnaryOp<"cosh", "hyperbolic cosine">;
def Relay_AsinhOp : Relay_UnaryOp<"asinh", "inverse hyperbolic sine">;
def Relay_AcoshOp : Relay_UnaryOp<"acosh", "inverse hyperbolic cosine">;
def Relay_AtanhOp : Relay_UnaryOp<"atanh", "inverse hyperbolic tangent">;
def Relay_RoundOp : Relay_UnaryOp<"round", "rounding to nearest", 3>;
def Relay_FloorOp : Relay_UnaryOp<"floor", "floor", 3>;
def Relay_CeilOp : Relay_UnaryOp<"ceil", "ceiling", 3>;
def Relay_TruncOp : Relay_UnaryOp<"trunc", "truncation", 3>;
def Relay_SignOp : Relay_UnaryOp<"sign", "sign", 3>;
def Relay_LogicalNotOp : Relay_UnaryOp<"logical_not", "logical not", 4>;
def Relay_BitwiseNotOp : Relay_UnaryOp<"bitwise_not", "bitwise not", 4>;
def Relay_CopyOp : Relay_UnaryOp<"copy", "copy", 3>;
def Relay_ZerosLikeOp : Relay_UnaryOp<"zeros_like", "zeros of the operand's type", 4>;
def Relay_OnesLikeOp : Relay_UnaryOp<"ones_like", "ones of the operand's type", 4>;
def Relay_ReluOp : Relay_UnaryOp<"nn.relu", "rectified linear unit">;

def Relay_ClipOp : Relay_OperatorOp<"clip", "Identity", "ElemWise", 1, 3> {
  let summary = "Clamps every element to [a_min, a_max]";
  let arguments = (ins AnyType:$data, F64Attr:$a_min, F64Attr:$a_max);
}

def Relay_LeakyReluOp
    : Relay_OperatorOp<"nn.leaky_relu", "Identity", "ElemWise", 1, 3> {
  let summary = "Leaky ReLU: `x > 0 ? x : alpha * x`";
  let arguments = (ins AnyType:$data, DefaultValuedAttr<F64Attr, "0.25">:$alpha);
}

def Relay_CastOp : Relay_OperatorOp<"cast", "Cast", "ElemWise", 1, 3> {
  let summary = "Converts every element to `dtype`";
  let arguments = (ins AnyType:$data, TypeAttr:$dtype);
}

def Relay_ReinterpretOp
    : Relay_OperatorOp<"reinterpret", "Reinterpret", "ElemWise", 1, 4> {
  let summary = "Reads every element's bits as `dtype`, of the same width";
  let description = [{
    As TVM's `reinterpret`: the result has the operand's shape and the
    `dtype` attribute's element type, each element the operand's bits
    unchanged (a float32 read as its IEEE bits with `int32`). Both dtypes
    must have the same width; bool has none to reinterpret.
  }];
  let arguments = (ins AnyType:$data, TypeAttr:$dtype);
}

def Relay_SoftmaxOp
    : Relay_OperatorOp<"nn.softmax", "Softmax", "OutEWiseFusable", 1> {
  let summary = "Softmax along `axis`";
  let arguments = (ins AnyType:$data, DefaultValuedAttr<I64Attr, "-1">:$axis);
}

def Relay_LogSoftmaxOp
    : Relay_OperatorOp<"nn.log_softmax", "Softmax", "OutEWiseFusable", 1> {
  let summary = "Log-softmax along `axis`";
  let arguments = (ins AnyType:$data, DefaultValuedAttr<I64Attr, "-1">:$axis);
}

def Relay_CrossEntropyOp
    : Relay_OperatorOp<"nn.cross_entropy", "CrossEntropy", "Opaque", 2, 10> {
  let summary = "The batch's mean cross-entropy of probabilities";
  let description = [{
    -sum(log(predictions) * targets) / batch for [batch, classes]
    probabilities and targets of one type: a scalar (TVM's definition).
  }];
  let arguments = (ins AnyType:$predictions, AnyType:$targets);
}

def Relay_CrossEntropyWithLogitsOp
    : Relay_OperatorOp<"nn.cross_entropy_with_logits", "CrossEntropy", "Opaque",
                       2, 10> {
  let summary = "The batch's mean cross-entropy of log-probabilities";
  let description = [{
    -sum(predictions * targets) / batch for [batch, classes] predictions
    that are already log-probabilities (nn.log_softmax's) and targets of one
    type: a scalar (TVM's definition).
  }];
  let arguments = (ins AnyType:$predictions, AnyType:$targets);
}

def Relay_NLLLossOp
    : Relay_OperatorOp<"nn.nll_loss", "NLLLoss", "Opaque", 3, 10> {
  let summary = "Negative log-likelihood of the targets' classes";
  let description = [{
    For log-probabilities `predictions` [N, C, d1, ...], class indices
    `targets` [N, d1, ...] and class weights `weights` [C]: each element's
    loss is -weights[t] * predictions[n, t, ...] with t its target, 0 where
    t is `ignore_index`. `reduction` "none" returns them, "sum" their sum,
    "mean" their sum divided by the sum of the weights of the targets not
    ignored (PyTorch's and TVM's nll_loss).
  }];
  let arguments = (ins AnyType:$predictions, AnyType:$targets,
                       AnyType:$weights,
                       DefaultValuedStrAttr<StrAttr, "mean">:$reduction,
                       DefaultValuedAttr<I64Attr, "-100">:$ignore_index);
}

def Relay_WhereOp : Relay_OperatorOp<"where", "Where", "Broadcast", 3, 4> {
  let summary = "Selects from `x` where `condition` holds, else from `y`";
  let arguments = (ins AnyType:$condition, AnyType:$x, AnyType:$y);
}

def Relay_BiasAddOp : Relay_OperatorOp<"nn.bias_add", "BiasAdd", "Broadcast", 2> {
  let summary = "Adds a bias vector along `axis`";
  let arguments = (ins AnyType:$data, AnyType:$bias,
                       DefaultValuedAttr<I64Attr, "1">:$axis);
}

def Relay_PReluOp : Relay_OperatorOp<"nn.prelu", "PRelu", "Broadcast", 2, 3> {
  let summary = "Parametric ReLU with one slope per `axis` channel";
  let arguments = (ins AnyType:$data, AnyType:$alpha,
                       DefaultValuedAttr<I64Attr, "1">:$axis);
}

//===----------------------------------------------------------------------===//
// Initialisers
//===----------------------------------------------------------------------===//

class Relay_InitOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic, "Init", "ElemWise", 0, 3> {
  let summary = "A tensor of " # what # " (dtype defaults to float32)";
  let arguments = (ins DenseI64ArrayAttr:$shape, OptionalAttr<TypeAttr>:$dtype);
}
def Relay_ZerosOp : Relay_InitOp<"zeros", "zeros">;
def Relay_OnesOp : Relay_InitOp<"ones", "ones">;

def Relay_FullOp : Relay_OperatorOp<"full", "Full", "ElemWise", 1, 3> {
  let summary = "A tensor filled with a scalar (dtype defaults to its)";
  let arguments = (ins AnyType:$fill_value, DenseI64ArrayAttr:$shape,
                       OptionalAttr<TypeAttr>:$dtype);
}

def Relay_FullLikeOp : Relay_OperatorOp<"full_like", "FullLike", "ElemWise", 2, 3> {
  let summary = "A tensor of `data`'s type filled with a scalar";
  let arguments = (ins AnyType:$data, AnyType:$fill_value);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Relay_ReduceOp<string mnemonic, string what, string relation = "Reduce">
    : Relay_OperatorOp<mnemonic, relation, "CommReduce", 1, 4> {
  let summary = "Reduces by " # what # " over `axis` (all axes when absent)";
  let arguments = (ins AnyType:$data,
                       OptionalAttr<DenseI64ArrayAttr>:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims,
                       DefaultValuedAttr<BoolAttr, "false">:$exclude);
}
def Relay_SumOp : Relay_ReduceOp<"sum", "sum">;
def Relay_MeanOp : Relay_ReduceOp<"mean", "mean">;
def Relay_MaxOp : Relay_ReduceOp<"max", "maximum">;
def Relay_MinOp : Relay_ReduceOp<"min", "minimum">;
def Relay_ProdOp : Relay_ReduceOp<"prod", "product">;
def Relay_AllOp : Relay_ReduceOp<"all", "logical and">;
def Relay_AnyOp : Relay_ReduceOp<"any", "logical or">;

class Relay_ArgReduceOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic, "ArgReduce", "CommReduce", 1, 4> {
  let summary = "Index (int32) of the " # what # " over `axis`";
  let arguments = (ins AnyType:$data,
                       OptionalAttr<DenseI64ArrayAttr>:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims,
                       DefaultValuedAttr<BoolAttr, "false">:$exclude,
                       DefaultValuedAttr<BoolAttr, "false">:$select_last_index);
}
def Relay_ArgmaxOp : Relay_ArgReduceOp<"argmax", "maximum">;
def Relay_ArgminOp : Relay_ArgReduceOp<"argmin", "minimum">;

//===----------------------------------------------------------------------===//
// Shape transforms
//===----------------------------------------------------------------------===//

def Relay_ReshapeOp : Relay_OperatorOp<"reshape", "Reshape", "Injective", 1, 3> {
  let summary = "Reshapes to `newshape` (with TVM's 0, -1, -2, -3, -4)";
  let description = [{
    `0` copies the input dimension, `-1` is inferred, `-2` copies the rest,
    `-3` merges two input dimensions, `-4` splits one into the next two
    values.
  }];
  let arguments = (ins AnyType:$data, DenseI64ArrayAttr:$newshape,
                       DefaultValuedAttr<BoolAttr, "false">:$allowzero);
}

def Relay_ReverseReshapeOp
    : Relay_OperatorOp<"contrib_reverse_reshape", "ReverseReshape", "Injective",
                       1, 10> {
  let summary = "Reshapes to `newshape`, its special values (0, -1, -2, -3, "
                "-4) read from right to left";
  let description = [{
    TVM's (MXNet's reverse reshape): both shapes are read from their last
    dimension, so for a [10, 5, 4] tensor `newshape` [-1, 0] gives [50, 4]
    where reshape gives [40, 5].
  }];
  let arguments = (ins AnyType:$data, DenseI64ArrayAttr:$newshape);
}

def Relay_ReshapeLikeOp
    : Relay_OperatorOp<"reshape_like", "ReshapeLike", "Injective", 2, 3> {
  let summary = "Reshapes `data` to (part of) `shape_like`'s shape";
  let arguments = (ins AnyType:$data, AnyType:$shape_like,
                       DefaultValuedAttr<I64Attr, "0">:$lhs_begin,
                       OptionalAttr<I64Attr>:$lhs_end,
                       DefaultValuedAttr<I64Attr, "0">:$rhs_begin,
                       OptionalAttr<I64Attr>:$rhs_end);
}

def Relay_TransposeOp : Relay_OperatorOp<"transpose", "Transpose", "Injective", 1, 3> {
  let summary = "Permutes the axes (reverses them when `axes` is absent)";
  let arguments = (ins AnyType:$data, OptionalAttr<DenseI64ArrayAttr>:$axes);
  let extraOperatorDeclaration = [{
    /// The permutation for an operand of rank `rank`: `axes` with negative
    /// ones counted from the end, or the reversal when absent.
    ::llvm::SmallVector<int64_t> getPermutation(int64_t rank);
  }];
}

def Relay_SqueezeOp : Relay_OperatorOp<"squeeze", "Squeeze", "Injective", 1, 3> {
  let summary = "Removes size-1 axes (`axis`, or all of them)";
  let arguments = (ins AnyType:$data, OptionalAttr<DenseI64ArrayAttr>:$axis);
}

def Relay_ExpandDimsOp
    : Relay_OperatorOp<"expand_dims", "ExpandDims", "Broadcast", 1> {
  let summary = "Inserts `num_newaxis` size-1 axes at `axis`";
  let arguments = (ins AnyType:$data, I64Attr:$axis,
                       DefaultValuedAttr<I64Attr, "1">:$num_newaxis);
}

def Relay_ConcatenateOp
    : Relay_OperatorOp<"concatenate", "Concatenate", "Injective", 1> {
  let summary = "Joins the tensors of a tuple along `axis`";
  let arguments = (ins AnyType:$data, DefaultValuedAttr<I64Attr, "0">:$axis);
}

def Relay_FifoBufferOp
    : Relay_OperatorOp<"nn.fifo_buffer", "FifoBuffer", "Opaque", 2, 10> {
  let summary = "`buffer` shifted along `axis` by `data`'s length, `data` "
                "filling its end";
  let description = [{
    TVM's: concatenate((buffer, data), axis) without its first
    `data.shape[axis]` entries along `axis`. `data` and `buffer` agree on
    every other axis and `data` is shorter along `axis`.
  }];
  let arguments = (ins AnyType:$data, AnyType:$buffer,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
}

def Relay_StackOp : Relay_OperatorOp<"stack", "Stack", "Injective", 1, 3> {
  let summary = "Stacks the tensors of a tuple along a new `axis`";
  let arguments = (ins AnyType:$data, DefaultValuedAttr<I64Attr, "0">:$axis);
}

def Relay_SplitOp : Relay_OperatorOp<"split", "Split", "Injective", 1, 3> {
  let summary = "Splits along `axis` into a tuple";
  let description = [{
    `indices_or_sections` is either a number of equal sections or the
    increasing indices to split at.
  }];
  let arguments = (ins AnyType:$data,
                       AnyAttrOf<[I64Attr, DenseI64ArrayAttr]>:$indices_or_sections,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
}

def Relay_TakeOp : Relay_OperatorOp<"take", "Take", "Injective", 2, 3> {
  let summary = "Gathers elements at `indices` along `axis` (flat if absent)";
  let arguments = (ins AnyType:$data, AnyType:$indices,
                       OptionalAttr<I64Attr>:$axis,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims,
                       DefaultValuedStrAttr<StrAttr, "clip">:$mode);
}

def Relay_GatherOp : Relay_OperatorOp<"gather", "Gather", "Injective", 2, 3> {
  let summary = "Elements of `data` at `indices` along `axis`, elementwise: "
                "out[i][j] = data[i][indices[i][j]] for axis 1";
  let arguments = (ins AnyType:$data, AnyType:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
}

def Relay_ScatterElementsOp
    : Relay_OperatorOp<"scatter_elements", "ScatterElements", "Opaque", 3, 3> {
  let summary = "A copy of `data` with `updates` written at `indices` along "
                "`axis`, elementwise (the inverse of `gather`)";
  let description = [{
    TVM's `scatter_elements` (ONNX's ScatterElements): `indices` and
    `updates` have one shape, of `data`'s rank; update `u` goes to `u`'s
    own position with its `axis` coordinate replaced by `indices[u]`
    (negative counts from the end). `reduction` is `update` (the last write
    wins), `add`, `mul`, `min` or `max` (combined with `data`'s element and
    with every other update to that element, in order). An index out of
    range is a run-time error. The indices may be computed at run time.

    ```mlir
    %r = relay.scatter_elements %d, %i, %u {axis = 1 : i64, reduction = "add"}
        : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x5xf32>
    ```
  }];
  let arguments = (ins AnyType:$data, AnyType:$indices, AnyType:$updates,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       DefaultValuedStrAttr<StrAttr, "update">:$reduction);
}

def Relay_ScatterNDOp
    : Relay_OperatorOp<"scatter_nd", "ScatterND", "Opaque", 3, 3> {
  let summary = "A copy of `data` with `updates` written at index tuples";
  let description = [{
    TVM's `scatter_nd`: `indices` has shape `(M, Y_0, ..., Y_{K-1})` (the
    tuple's axis first, as TVM has it; ONNX's ScatterND puts it last),
    `data` has shape `(X_0, ..., X_{N-1})` with `M <= N`, and `updates` has
    shape `(Y_0, ..., Y_{K-1}, X_M, ..., X_{N-1})`: the slice
    `updates[y]` goes to `data[indices[:, y]]`. `mode` is `update`, `add`,
    `mul`, `min` or `max`. An index out of range (negative counts from the
    end) is a run-time error.

    ```mlir
    %r = relay.scatter_nd %d, %i, %u {mode = "add"}
        : (tensor<4x3xf32>, tensor<1x2xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins AnyType:$data, AnyType:$indices, AnyType:$updates,
                       DefaultValuedStrAttr<StrAttr, "update">:$mode);
}

def Relay_StridedSliceOp
    : Relay_OperatorOp<"strided_slice", "StridedSlice", "Injective", 1, 4> {
  let summary = "numpy-style slicing `data[begin:end:strides]`";
  let arguments = (ins AnyType:$data, DenseI64ArrayAttr:$begin,
                       DenseI64ArrayAttr:$end,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$axes,
                       DefaultValuedStrAttr<StrAttr, "end">:$slice_mode);
}

def Relay_StridedSetOp
    : Relay_OperatorOp<"strided_set", "StridedSet", "Injective", 5, 4> {
  let summary = "A copy of `data` with the slice `data[begin:end:strides]` "
                "replaced by `v`";
  let description = [{
    TVM's: `begin`, `end` and `strides` are 1-d integer tensors (values
    known when the program runs) with at most one entry per axis of
    `data`; missing entries slice the whole axis with stride 1. Negative
    begin and end count from the end of the axis, and are clamped to it, as
    numpy's slices are; a negative stride walks the axis backwards. `v` has
    `data`'s dtype and rank and the slice's shape (a `v` smaller than the
    slice repeats its last element, as a clipped take does). A zero stride
    selects nothing.
  }];
  let arguments = (ins AnyType:$data, AnyType:$v, AnyType:$begin,
                       AnyType:$end, AnyType:$strides);
}

def Relay_BroadcastToOp
    : Relay_OperatorOp<"broadcast_to", "BroadcastTo", "Broadcast", 1, 4> {
  let summary = "Broadcasts to `shape`";
  let arguments = (ins AnyType:$data, DenseI64ArrayAttr:$shape);
}

def Relay_LayoutTransformOp
    : Relay_OperatorOp<"layout_transform", "LayoutTransform", "Injective", 1, 5> {
  let summary = "Converts between data layouts (`NCHW` -> `NHWC`, `NCHW16c`)";
  let arguments = (ins AnyType:$data, StrAttr:$src_layout, StrAttr:$dst_layout);
}

def Relay_BatchFlattenOp
    : Relay_OperatorOp<"nn.batch_flatten", "BatchFlatten", "Injective", 1, 2> {
  let summary = "Flattens every axis but the first";
  let arguments = (ins AnyType:$data);
}

def Relay_PadOp : Relay_OperatorOp<"nn.pad", "Pad", "Injective", 2, 2> {
  let summary = "Pads with `pad_value` (pad_width: before/after per axis)";
  let arguments = (ins AnyType:$data, AnyType:$pad_value,
                       DenseI64ArrayAttr:$pad_width,
                       DefaultValuedStrAttr<StrAttr, "constant">:$pad_mode);
}

//===----------------------------------------------------------------------===//
// Neural-network operators
//===----------------------------------------------------------------------===//

class Relay_Conv2DBase<string mnemonic, string relation, string kernelLayout>
    : Relay_OperatorOp<mnemonic, relation, "OutEWiseFusable", 2, 2> {
  dag convAttrs = (ins AnyType:$data, AnyType:$weight,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       OptionalAttr<I64Attr>:$channels,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_size,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$data_layout,
                       DefaultValuedStrAttr<StrAttr, kernelLayout>:$kernel_layout,
                       DefaultValuedStrAttr<StrAttr, "">:$out_layout,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_Conv2DOp : Relay_Conv2DBase<"nn.conv2d", "Conv2D", "OIHW"> {
  let summary = "2-d convolution";
  let description = [{
    TVM's `nn.conv2d`: `strides` (default [1, 1]), `padding` (1, 2 or 4
    values: top, left, bottom, right), `dilation`, `groups`, `channels` and
    `kernel_size` (which let the weight's type be inferred), `data_layout`
    NCHW/NHWC, `kernel_layout` (a permutation of OIHW), `out_dtype`.
    Packed layouts (TVM's AlterOpLayout output: NCHW16c data, OIHW16i16o
    weights, a packed `out_layout`) are typed and computed on the operands
    unpacked to NCHW and OIHW; --relay-decompose writes them so.

    ```mlir
    %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, channels = 64}
        : (tensor<1x3x224x224xf32>, tensor<64x3x3x3xf32>) -> tensor<1x64x224x224xf32>
    ```
  }];
  let arguments = convAttrs;
}

def Relay_Conv2DTransposeOp
    : Relay_Conv2DBase<"nn.conv2d_transpose", "Conv2DTranspose", "IOHW"> {
  let summary = "2-d transposed convolution";
  let description = [{
    TVM's `nn.conv2d_transpose`: NCHW or NHWC data, a permutation of IOHW
    for the weights, or packings of them (NCHW4c, IOHW4i4o), typed and
    computed on the operands unpacked to NCHW and IOHW.
  }];
  let arguments = !con(convAttrs,
                       (ins OptionalAttr<DenseI64ArrayAttr>:$output_padding));
}

def Relay_DeformableConv2DOp
    : Relay_OperatorOp<"nn.deformable_conv2d", "DeformableConv2D",
                       "OutEWiseFusable", 3, 5> {
  let summary = "2-d convolution whose taps read the data at learned offsets";
  let description = [{
    TVM's `nn.deformable_conv2d(data, offset, weight)` (DCN, arXiv
    1703.06211). In NCHW and OIHW (other layouts, NHWC and HWIO say, are
    transposed: `offset` is in the data's layout, the result in
    `out_layout`, else the data's): tap (kh, kw) of output pixel
    (y, x) reads the data at row `y * stride - pad_top + kh * dilation +
    dy` and column `x * stride - pad_left + kw * dilation + dx`, where
    (dy, dx) are channels `2 * (g * KH * KW + kh * KW + kw)` and `+ 1` of
    `offset` (N, deformable_groups * KH * KW * 2, OH, OW) at (y, x), `g`
    the tap's channel's deformable group. A position outside [0, H) x
    [0, W) reads 0; inside, it is interpolated bilinearly, the row and
    column after the last clamped to the last (topi's
    `bilinear_sample_nchw`; torchvision's deform_conv2d, which ONNX's
    DeformConv imports as, interpolates towards zeros there and reads
    positions in (-1, 0) too). The attributes are `nn.conv2d`'s, plus
    `deformable_groups`; `groups` > 1 splits the channels as a grouped
    convolution does.
  }];
  let arguments = (ins AnyType:$data, AnyType:$offset, AnyType:$weight,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$deformable_groups,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       OptionalAttr<I64Attr>:$channels,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_size,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$data_layout,
                       DefaultValuedStrAttr<StrAttr, "OIHW">:$kernel_layout,
                       DefaultValuedStrAttr<StrAttr, "">:$out_layout,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_DenseOp : Relay_OperatorOp<"nn.dense", "Dense", "OutEWiseFusable", 2> {
  let summary = "`data` [..., K] times the transpose of `weight` [units, K]";
  let arguments = (ins AnyType:$data, AnyType:$weight,
                       OptionalAttr<I64Attr>:$units,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_MatmulOp : Relay_OperatorOp<"nn.matmul", "Matmul", "OutEWiseFusable", 2> {
  let summary = "Matrix product with optional transposes";
  let arguments = (ins AnyType:$tensor_a, AnyType:$tensor_b,
                       OptionalAttr<I64Attr>:$units,
                       OptionalAttr<TypeAttr>:$out_dtype,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_b);
}

def Relay_BatchMatmulOp
    : Relay_OperatorOp<"nn.batch_matmul", "BatchMatmul", "OutEWiseFusable", 2, 10> {
  let summary = "Batched matrix product";
  let description = [{
    TVM's `nn.batch_matmul`: `x` [B, M, K] (or [B, K, M], `transpose_a`)
    times `y` [B, K, N] (or [B, N, K], `transpose_b`). Both default to
    false, TVM's attribute defaults: its Python builder passes
    transpose_b=True, which TVM's text prints (it omits attributes at their
    defaults), so text without `transpose_b` is a plain product.
  }];
  let arguments = (ins AnyType:$x, AnyType:$y,
                       OptionalAttr<TypeAttr>:$out_dtype,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_b);
}

class Relay_Pool2DOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic, "Pool2D", "OutEWiseFusable", 1, 2> {
  let summary = "2-d " # what # " pooling";
  dag poolAttrs = (ins AnyType:$data, DenseI64ArrayAttr:$pool_size,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "">:$out_layout,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode);
  let arguments = poolAttrs;
}
def Relay_MaxPool2DOp : Relay_Pool2DOp<"nn.max_pool2d", "max">;
def Relay_AvgPool2DOp : Relay_Pool2DOp<"nn.avg_pool2d", "average"> {
  let arguments = !con(poolAttrs,
      (ins DefaultValuedAttr<BoolAttr, "false">:$count_include_pad));
}

class Relay_GlobalPool2DOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic, "GlobalPool2D", "OutEWiseFusable", 1, 2> {
  let summary = "2-d global " # what # " pooling (H and W become 1)";
  let arguments = (ins AnyType:$data,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "">:$out_layout);
}
def Relay_GlobalAvgPool2DOp : Relay_GlobalPool2DOp<"nn.global_avg_pool2d", "average">;
def Relay_GlobalMaxPool2DOp : Relay_GlobalPool2DOp<"nn.global_max_pool2d", "max">;

class Relay_AdaptivePool2DOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic, "AdaptivePool2D", "OutEWiseFusable", 1, 10> {
  let summary = "2-d adaptive " # what # " pooling to `output_size`";
  let arguments = (ins AnyType:$data,
                       OptionalAttr<DenseI64ArrayAttr>:$output_size,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "">:$out_layout);
}
def Relay_AdaptiveAvgPool2DOp
    : Relay_AdaptivePool2DOp<"nn.adaptive_avg_pool2d", "average">;
def Relay_AdaptiveMaxPool2DOp
    : Relay_AdaptivePool2DOp<"nn.adaptive_max_pool2d", "max">;

def Relay_UpSamplingOp
    : Relay_OperatorOp<"nn.upsampling", "UpSampling", "Injective", 1, 2> {
  let summary = "Scales H and W by `scale_h` and `scale_w`";
  let description = [{
    TVM's `nn.upsampling`: the result's height and width are the data's
    times the scales, rounded as TVM's relation rounds (in float32, half
    to even). Sampling is topi's image resize to that size: output row `i`
    of `OH` samples input row `i * H / OH` (asymmetric coordinates) or,
    with `align_corners`, `i * (H - 1) / (OH - 1)`, in float32; nearest
    takes floor(y + 1e-5) (rounds, half to even, with aligned corners),
    bilinear the two rows around y; likewise columns. The positions follow
    the sizes, not the scales: 5 rows at 1.5 are 8, and row 3 samples
    1.875 (not 3 / 1.5 = 2).
  }];
  let arguments = (ins AnyType:$data,
                       DefaultValuedAttr<F64Attr, "1.0">:$scale_h,
                       DefaultValuedAttr<F64Attr, "1.0">:$scale_w,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "nearest_neighbor">:$method,
                       DefaultValuedAttr<BoolAttr, "false">:$align_corners);
  let extraOperatorDeclaration = [{
    /// Where each of `out` outputs along an axis of `in` inputs samples, as
    /// topi computes it: `low` the (clamped) row of nearest or the first of
    /// bilinear's two, `high` the second, `fraction` the second's weight
    /// (0 for nearest).
    struct SourcePositions {
      ::llvm::SmallVector<int64_t> low, high;
      ::llvm::SmallVector<double> fraction;
    };
    static SourcePositions getSourcePositions(int64_t in, int64_t out,
                                              bool nearest,
                                              bool alignCorners);
  }];
}

def Relay_BatchNormOp
    : Relay_OperatorOp<"nn.batch_norm", "BatchNorm", "OutEWiseFusable", 5> {
  let summary = "Batch normalisation: `(normalized, mean, var)`";
  let arguments = (ins AnyType:$data, AnyType:$gamma, AnyType:$beta,
                       AnyType:$moving_mean, AnyType:$moving_var,
                       DefaultValuedAttr<I64Attr, "1">:$axis,
                       DefaultValuedAttr<F64Attr, "1e-05">:$epsilon,
                       DefaultValuedAttr<BoolAttr, "true">:$center,
                       DefaultValuedAttr<BoolAttr, "true">:$scale);
}

def Relay_LayerNormOp
    : Relay_OperatorOp<"nn.layer_norm", "LayerNorm", "Opaque", 3> {
  let summary = "Layer normalisation along `axis`";
  let arguments = (ins AnyType:$data, AnyType:$gamma, AnyType:$beta,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<F64Attr, "1e-05">:$epsilon,
                       DefaultValuedAttr<BoolAttr, "true">:$center,
                       DefaultValuedAttr<BoolAttr, "true">:$scale);
}

def Relay_DropoutOp : Relay_OperatorOp<"nn.dropout", "Dropout", "Opaque", 1> {
  let summary = "Dropout: `(output, mask)`; the identity at inference";
  let arguments = (ins AnyType:$data, DefaultValuedAttr<F64Attr, "0.5">:$rate);
}

//===----------------------------------------------------------------------===//
// Composite operators: typed by their relations like every operator, and
// rewritten into the primitive operators above by --relay-decompose before
// lowering or interpretation (TVM's SimplifyInference and Legalize).
//===----------------------------------------------------------------------===//

def Relay_FastExpOp : Relay_UnaryOp<"fast_exp", "exponential (computed as exp)">;
def Relay_FastTanhOp : Relay_UnaryOp<"fast_tanh", "hyperbolic tangent (computed as tanh)">;
def Relay_FastErfOp : Relay_UnaryOp<"fast_erf", "error function (computed as erf)">;
def Relay_TruncDivideOp
    : Relay_BroadcastOp<"trunc_divide", "division rounded toward zero">;
def Relay_TruncModOp
    : Relay_BroadcastOp<"trunc_mod", "remainder of division rounded toward zero">;

class Relay_FloatTestOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic, "IdentityToBool", "ElemWise", 1, 3> {
  let summary = "Elementwise test: " # what # " (a bool tensor)";
  let arguments = (ins AnyType:$data);
}
def Relay_IsNanOp : Relay_FloatTestOp<"isnan", "is NaN">;
def Relay_IsInfOp : Relay_FloatTestOp<"isinf", "is an infinity">;
def Relay_IsFiniteOp : Relay_FloatTestOp<"isfinite", "is neither NaN nor infinite">;

def Relay_CastLikeOp : Relay_OperatorOp<"cast_like", "CastLike", "ElemWise", 2, 3> {
  let summary = "Converts every element to the second operand's dtype";
  let arguments = (ins AnyType:$data, AnyType:$dtype_like);
}

def Relay_BroadcastToLikeOp
    : Relay_OperatorOp<"broadcast_to_like", "BroadcastToLike", "Broadcast", 2, 10> {
  let summary = "Broadcasts to the second operand's shape";
  let arguments = (ins AnyType:$data, AnyType:$broadcast_type);
}

def Relay_CollapseSumLikeOp
    : Relay_OperatorOp<"collapse_sum_like", "CollapseSumLike", "CommReduce", 2, 10> {
  let summary = "Sums over the axes broadcasting added, to the second "
                "operand's shape (the adjoint of broadcasting)";
  let arguments = (ins AnyType:$data, AnyType:$collapse_type);
}

def Relay_CollapseSumToOp
    : Relay_OperatorOp<"collapse_sum_to", "CollapseSumTo", "CommReduce", 2, 4> {
  let summary = "Sums over the axes broadcasting added, down to `shape` (the "
                "adjoint of broadcast_to)";
  let description = [{
    TVM's: the second operand is the target shape as a 1-d integer tensor
    and the `shape` attribute (TVM sets it when that tensor is a constant)
    gives the result's shape; without it the result's sizes are unknown
    until run time, where the operand's values must be a shape `data`
    broadcasts from.
  }];
  let arguments = (ins AnyType:$data, AnyType:$target_shape,
                       OptionalAttr<DenseI64ArrayAttr>:$shape);
}

def Relay_AdvIndexOp : Relay_OperatorOp<"adv_index", "AdvIndex", "Injective", 1, 3> {
  let summary = "numpy's advanced indexing of the leading axes by integer "
                "tensors";
  let description = [{
    TVM's (its PyTorch frontend's `x[i, j]`): the operand is a tuple
    `(data, i0, ..., ik-1)`; the index tensors broadcast together to a
    shape B and the result, of shape B followed by data's axes from k on,
    holds data[i0[b], ..., ik-1[b], ...] at b. A negative index counts from
    the end of its axis, as in numpy (topi leaves it undefined); one still
    outside is clipped, as `take` clips.
  }];
  let arguments = (ins AnyType:$inputs);
}

def Relay_ReverseOp : Relay_OperatorOp<"reverse", "AxisIdentity", "Injective", 1, 3> {
  let summary = "Reverses the order of the elements along `axis`";
  let arguments = (ins AnyType:$data, DefaultValuedAttr<I64Attr, "0">:$axis);
}

def Relay_TileOp : Relay_OperatorOp<"tile", "Tile", "Injective", 1, 3> {
  let summary = "Repeats the whole tensor `reps` times along each axis";
  let description = [{
    numpy.tile: a shorter `reps` is padded with leading 1s, a shorter data
    shape with leading 1-sized axes.
  }];
  let arguments = (ins AnyType:$data, DenseI64ArrayAttr:$reps);
}

def Relay_RepeatOp : Relay_OperatorOp<"repeat", "Repeat", "Injective", 1, 3> {
  let summary = "Repeats each element `repeats` times along `axis`";
  let arguments = (ins AnyType:$data, I64Attr:$repeats, I64Attr:$axis);
}

def Relay_FastSoftmaxOp
    : Relay_OperatorOp<"nn.fast_softmax", "Softmax", "OutEWiseFusable", 1> {
  let summary = "Softmax along `axis` (computed as nn.softmax)";
  let arguments = (ins AnyType:$data, DefaultValuedAttr<I64Attr, "-1">:$axis);
}

def Relay_L2NormalizeOp
    : Relay_OperatorOp<"nn.l2_normalize", "L2Normalize", "OutEWiseFusable", 1, 2> {
  let summary = "x / sqrt(max(sum(x^2) over `axis`, eps))";
  let arguments = (ins AnyType:$data, F64Attr:$eps,
                       OptionalAttr<DenseI64ArrayAttr>:$axis);
}

def Relay_LRNOp : Relay_OperatorOp<"nn.lrn", "AxisIdentity", "Opaque", 1, 2> {
  let summary = "Local response normalisation across `axis`";
  let description = [{
    x / (bias + alpha / size * sum of x^2 over the `size` neighbours along
    `axis`)^beta, the window centred (floor((size - 1) / 2) before).
    `alpha` defaults to 0.0001, TVM's attribute default (its Python
    builder's is 0.00001, which its text then prints).
  }];
  let arguments = (ins AnyType:$data, DefaultValuedAttr<I64Attr, "5">:$size,
                       DefaultValuedAttr<I64Attr, "1">:$axis,
                       DefaultValuedAttr<F64Attr, "2.0">:$bias,
                       DefaultValuedAttr<F64Attr, "0.0001">:$alpha,
                       DefaultValuedAttr<F64Attr, "0.75">:$beta);
}

def Relay_InstanceNormOp
    : Relay_OperatorOp<"nn.instance_norm", "LayerNorm", "Opaque", 3, 1> {
  let summary = "Instance normalisation: over the axes other than the "
                "batch (0) and `axis`, per channel scale and shift";
  let arguments = (ins AnyType:$data, AnyType:$gamma, AnyType:$beta,
                       DefaultValuedAttr<I64Attr, "1">:$axis,
                       DefaultValuedAttr<F64Attr, "1e-05">:$epsilon,
                       DefaultValuedAttr<BoolAttr, "true">:$center,
                       DefaultValuedAttr<BoolAttr, "true">:$scale);
}

def Relay_GroupNormOp
    : Relay_OperatorOp<"nn.group_norm", "GroupNorm", "Opaque", 3, 1> {
  let summary = "Group normalisation: channels (`axis`) in `num_groups` "
                "groups, each normalised with the axes after it";
  let arguments = (ins AnyType:$data, AnyType:$gamma, AnyType:$beta,
                       I64Attr:$num_groups,
                       DefaultValuedAttr<I64Attr, "1">:$axis,
                       DefaultValuedAttr<F64Attr, "1e-05">:$epsilon,
                       DefaultValuedAttr<BoolAttr, "true">:$center,
                       DefaultValuedAttr<BoolAttr, "true">:$scale);
}

def Relay_Conv1DOp : Relay_OperatorOp<"nn.conv1d", "Conv1D", "OutEWiseFusable", 2, 2> {
  let summary = "1-d convolution (NCW data, OIW weights)";
  let description = [{
    TVM's `nn.conv1d`: `strides`, `dilation` (one value), `padding` (1 or 2
    values: left, right), `groups`, `channels` and `kernel_size` (which let
    the weight's type be inferred), `out_dtype`. Computed as a 2-d
    convolution of height 1.
  }];
  let arguments = (ins AnyType:$data, AnyType:$weight,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       OptionalAttr<I64Attr>:$channels,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_size,
                       DefaultValuedStrAttr<StrAttr, "NCW">:$data_layout,
                       DefaultValuedStrAttr<StrAttr, "OIW">:$kernel_layout,
                       DefaultValuedStrAttr<StrAttr, "">:$out_layout,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

class Relay_Pool1DOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic, "Pool1D", "OutEWiseFusable", 1, 2> {
  let summary = "1-d " # what # " pooling (NCW), computed as 2-d pooling "
                "of height 1";
  dag poolAttrs = (ins AnyType:$data, DenseI64ArrayAttr:$pool_size,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       DefaultValuedStrAttr<StrAttr, "NCW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "">:$out_layout,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode);
  let arguments = poolAttrs;
}
def Relay_MaxPool1DOp : Relay_Pool1DOp<"nn.max_pool1d", "max">;
def Relay_AvgPool1DOp : Relay_Pool1DOp<"nn.avg_pool1d", "average"> {
  let arguments = !con(poolAttrs,
      (ins DefaultValuedAttr<BoolAttr, "false">:$count_include_pad));
}

//===----------------------------------------------------------------------===//
// 3-d convolution and pooling (NCDHW data, OIDHW weights)
//===----------------------------------------------------------------------===//

def Relay_Conv3DOp : Relay_OperatorOp<"nn.conv3d", "Conv3D", "OutEWiseFusable", 2, 2> {
  let summary = "3-d convolution (NCDHW data, OIDHW weights)";
  let description = [{
    TVM's `nn.conv3d`: `strides` and `dilation` (1 or 3 values: depth,
    height, width), `padding` (1, 3 or 6 values: front, top, left, back,
    bottom, right), `groups`, `channels` and `kernel_size` (which let the
    weight's type be inferred), `out_dtype`. `--relay-decompose` computes it
    as one 2-d convolution over the output's depth slices, the kernel's
    depth taps stacked as input channels.

    ```mlir
    %y = relay.nn.conv3d %x, %w {padding = array<i64: 1>}
        : (tensor<1x3x8x32x32xf32>, tensor<16x3x3x3x3xf32>) -> tensor<1x16x8x32x32xf32>
    ```
  }];
  let arguments = (ins AnyType:$data, AnyType:$weight,
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

def Relay_Conv3DTransposeOp
    : Relay_OperatorOp<"nn.conv3d_transpose", "Conv3DTranspose", "OutEWiseFusable", 2, 2> {
  let summary = "3-d transposed convolution (NCDHW data, IODHW weights)";
  let description = [{
    TVM's `nn.conv3d_transpose` (the gradient of `nn.conv3d` with respect
    to its data; 3-d U-Nets' upsampling): `strides`, `dilation` and
    `output_padding` (1 or 3 values), `padding` (1, 3 or 6 values),
    `groups`, `channels`, `out_dtype`. `--relay-decompose` computes it as
    one 2-d transposed convolution per depth tap of the kernel over every
    input depth slice, each tap's results placed at its output depths.

    ```mlir
    %y = relay.nn.conv3d_transpose %x, %w {strides = array<i64: 2>}
        : (tensor<1x8x4x8x8xf32>, tensor<8x4x2x2x2xf32>) -> tensor<1x4x8x16x16xf32>
    ```
  }];
  let arguments = (ins AnyType:$data, AnyType:$weight,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$output_padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       OptionalAttr<I64Attr>:$channels,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_size,
                       DefaultValuedStrAttr<StrAttr, "NCDHW">:$data_layout,
                       DefaultValuedStrAttr<StrAttr, "IODHW">:$kernel_layout,
                       DefaultValuedStrAttr<StrAttr, "">:$out_layout,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

class Relay_Pool3DOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic, "Pool3D", "OutEWiseFusable", 1, 2> {
  let summary = "3-d " # what # " pooling (NCDHW), computed as 2-d pooling "
                "over height and width, then over depth";
  dag poolAttrs = (ins AnyType:$data, DenseI64ArrayAttr:$pool_size,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       DefaultValuedStrAttr<StrAttr, "NCDHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "">:$out_layout,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode);
  let arguments = poolAttrs;
}
def Relay_MaxPool3DOp : Relay_Pool3DOp<"nn.max_pool3d", "max">;
def Relay_AvgPool3DOp : Relay_Pool3DOp<"nn.avg_pool3d", "average"> {
  let arguments = !con(poolAttrs,
      (ins DefaultValuedAttr<BoolAttr, "false">:$count_include_pad));
}

class Relay_AdaptivePool3DOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic, "AdaptivePool3D", "OutEWiseFusable", 1, 10> {
  let summary = "3-d adaptive " # what # " pooling (NCDHW) to `output_size`";
  let arguments = (ins AnyType:$data,
                       OptionalAttr<DenseI64ArrayAttr>:$output_size,
                       DefaultValuedStrAttr<StrAttr, "NCDHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "">:$out_layout);
}
def Relay_AdaptiveAvgPool3DOp
    : Relay_AdaptivePool3DOp<"nn.adaptive_avg_pool3d", "average">;
def Relay_AdaptiveMaxPool3DOp
    : Relay_AdaptivePool3DOp<"nn.adaptive_max_pool3d", "max">;

def Relay_OneHotOp : Relay_OperatorOp<"one_hot", "OneHot", "OutEWiseFusable", 3, 10> {
  let summary = "`on_value` where an index equals the position along the new "
                "axis `axis` (of size `depth`), `off_value` elsewhere";
  let arguments = (ins AnyType:$indices, AnyType:$on_value, AnyType:$off_value,
                       DefaultValuedAttr<I64Attr, "1">:$depth,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       TypeAttr:$dtype);
}

def Relay_CumsumOp : Relay_OperatorOp<"cumsum", "Cumsum", "Opaque", 1, 3> {
  let summary = "Running sums along `axis` (of the flattened data when "
                "absent), in `dtype`; `exclusive` leaves each element out";
  let arguments = (ins AnyType:$data, OptionalAttr<I64Attr>:$axis,
                       OptionalAttr<TypeAttr>:$dtype,
                       DefaultValuedAttr<BoolAttr, "false">:$exclusive);
}

def Relay_CumprodOp : Relay_OperatorOp<"cumprod", "Cumprod", "Opaque", 1, 3> {
  let summary = "Running products along `axis` (of the flattened data when "
                "absent), in `dtype`; `exclusive` leaves each element out";
  let arguments = (ins AnyType:$data, OptionalAttr<I64Attr>:$axis,
                       OptionalAttr<TypeAttr>:$dtype,
                       DefaultValuedAttr<BoolAttr, "false">:$exclusive);
}

def Relay_TriluOp : Relay_OperatorOp<"trilu", "Trilu", "Injective", 2, 3> {
  let summary = "The upper (or lower) triangle of the last two axes from "
                "diagonal `k` on, zeros elsewhere";
  let description = [{
    TVM's `trilu` (numpy's `triu`/`tril`, ONNX's Trilu): element (i, j) of
    each matrix of the last two axes is kept where j - i >= k (`upper`) or
    j - i <= k (lower), else zero; `k` is a 0-d integer tensor (0: the main
    diagonal, positive: above it).
  }];
  let arguments = (ins AnyType:$data, AnyType:$k,
                       DefaultValuedAttr<BoolAttr, "true">:$upper);
}

def Relay_GatherNDOp : Relay_OperatorOp<"gather_nd", "GatherND", "Injective",
                                        2, 3> {
  let summary = "Slices of `data` at the coordinates `indices` holds along "
                "its first axis";
  let description = [{
    TVM's `gather_nd`: `indices` is `[M, Y...]` (with `batch_dims` b,
    `[M, B1..Bb, Y...]`), each column of its first axis the coordinates of
    `data`'s M axes after the first b; the result is `indices`' shape
    without its first axis followed by `data`'s axes after those b + M,
    `out[y] = data[indices[0][y], ..., indices[M-1][y], ...]` (the batch
    coordinates shared between `data` and `indices`). Coordinates out of
    range are clipped. `index_rank`, when given, must be M.
  }];
  let arguments = (ins AnyType:$data, AnyType:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims,
                       OptionalAttr<I64Attr>:$index_rank);
}

def Relay_ScatterAddOp
    : Relay_OperatorOp<"scatter_add", "ScatterElements", "Opaque", 3, 3> {
  let summary = "A copy of `data` with `updates` added at `indices` along "
                "`axis` (scatter_elements with reduction add)";
  let arguments = (ins AnyType:$data, AnyType:$indices, AnyType:$updates,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
}

def Relay_UnravelIndexOp
    : Relay_OperatorOp<"unravel_index", "UnravelIndex", "Injective", 2, 3> {
  let summary = "Flat indices as coordinates in a shape: `[len(shape), N]` "
                "(numpy's unravel_index, stacked)";
  let description = [{
    TVM's `unravel_index`: `indices` (0-d or 1-d of N, integers) read as
    row-major positions in a tensor of `shape` (1-d, the same integer
    type, known when the program runs); the result has one row per axis of
    `shape`, `[len(shape)]` for 0-d indices.
  }];
  let arguments = (ins AnyType:$indices, AnyType:$shape);
}

def Relay_InvertPermutationOp
    : Relay_OperatorOp<"invert_permutation", "InvertPermutation", "Injective",
                       1, 3> {
  let summary = "The inverse of a permutation of 0..n-1: out[data[i]] = i";
  let arguments = (ins AnyType:$data);
}

def Relay_SearchSortedOp
    : Relay_OperatorOp<"searchsorted", "SearchSorted", "Opaque", 2, 3> {
  let summary = "Where each value would be inserted into the sorted last "
                "axis of `sorted_sequence` (numpy's searchsorted)";
  let description = [{
    TVM's `searchsorted`: for each of `values`, the number of elements of
    its row of `sorted_sequence` (1-d, or the same leading axes as
    `values`) that are less than it (or, with `right`, at most it), in
    `dtype` (int32 by default).
  }];
  let arguments = (ins AnyType:$sorted_sequence, AnyType:$values,
                       DefaultValuedAttr<BoolAttr, "false">:$right,
                       OptionalAttr<TypeAttr>:$dtype);
}

def Relay_SparseToDenseOp
    : Relay_OperatorOp<"sparse_to_dense", "SparseToDense", "Opaque", 3, 3> {
  let summary = "A dense tensor of `output_shape` holding `sparse_values` "
                "at `sparse_indices`, `default_value` elsewhere";
  let description = [{
    TVM's `sparse_to_dense` (TensorFlow's SparseToDense): `sparse_indices`
    is `[N]` (a 1-d output), `[N, D]` (one row of coordinates per value)
    or 0-d (one value); `sparse_values` is `[N]` or one value for all;
    `default_value` a 0-d tensor of the values' dtype. A repeated index
    keeps its last value.
  }];
  let arguments = (ins AnyType:$sparse_indices, AnyType:$sparse_values,
                       AnyType:$default_value,
                       DenseI64ArrayAttr:$output_shape);
}

def Relay_EinsumOp : Relay_OperatorOp<"einsum", "Einsum", "Opaque", 1, 3> {
  let summary = "Sums of products of the tuple's tensors over the labels "
                "`equation` names (numpy's einsum)";
  let description = [{
    TVM's `einsum`: `equation` gives each operand's subscripts, one letter
    per dimension, and optionally the result's after `->` ("bij,bjk->bik");
    without it the result is the ellipsis dimensions then the letters used
    once, alphabetically. Letters the result lacks are summed over; a
    letter repeated within one operand reads its diagonal; `...` stands for
    the leading dimensions, aligned at the right. A label has one size
    everywhere (1 broadcasts across operands).

    ```mlir
    %r = relay.einsum %t {equation = "ij,jk->ik"}
        : (tuple<tensor<3x4xf32>, tensor<4x5xf32>>) -> tensor<3x5xf32>
    ```
  }];
  let arguments = (ins AnyType:$data, StrAttr:$equation);
}

def Relay_MeshgridOp : Relay_OperatorOp<"meshgrid", "Meshgrid", "Injective",
                                        1, 3> {
  let summary = "Coordinate grids of a tuple of vectors (numpy's meshgrid)";
  let description = [{
    TVM's `meshgrid`: for N vectors (0-d counts as one element) of lengths
    n1..nN, a tuple of N tensors of shape [n1, ..., nN] (`indexing` "ij")
    or [n2, n1, n3, ..., nN] ("xy", Cartesian), the i-th repeating the
    i-th vector along its own axis.
  }];
  let arguments = (ins AnyType:$data,
                       DefaultValuedStrAttr<StrAttr, "ij">:$indexing);
}

def Relay_MatrixSetDiagOp
    : Relay_OperatorOp<"matrix_set_diag", "MatrixSetDiag", "Injective", 2, 3> {
  let summary = "`data` with diagonals `k1`..`k2` of its last two axes "
                "replaced by `diagonal` (TensorFlow's MatrixSetDiagV3)";
  let description = [{
    TVM's `matrix_set_diag`: diagonal d (the elements (i, i + d)) takes row
    `k2 - d` of `diagonal`, which is `[..., k2 - k1 + 1, L]` (`[..., L]`
    when k1 = k2), L the longest diagonal of the band. A diagonal shorter
    than L is read from the row's end when it is aligned right
    (`super_diag_right_align` for d > 0, `sub_diag_right_align` for d < 0;
    the defaults are TensorFlow's RIGHT_LEFT), else from its start.
  }];
  let arguments = (ins AnyType:$data, AnyType:$diagonal,
                       DefaultValuedAttr<I64Attr, "0">:$k1,
                       DefaultValuedAttr<I64Attr, "0">:$k2,
                       DefaultValuedAttr<BoolAttr, "true">:$super_diag_right_align,
                       DefaultValuedAttr<BoolAttr, "false">:$sub_diag_right_align);
}

def Relay_SpaceToBatchNDOp
    : Relay_OperatorOp<"nn.space_to_batch_nd", "SpaceToBatchND", "Injective",
                       1, 5> {
  let summary = "Pads the spatial axes and moves `block_shape` blocks of "
                "them into the batch (TensorFlow's SpaceToBatchND)";
  let description = [{
    TVM's `nn.space_to_batch_nd`: `data` is `[N, S1..SM, rest...]`; each
    spatial axis is padded by its pair of `paddings` (before, after: 2M
    values) with `pad_value`, split into blocks of `block_shape`, and the
    offsets within the blocks become the outer part of the batch:
    `[N * prod(block_shape), (S1 + pads) / B1, ..., rest...]`.
  }];
  let arguments = (ins AnyType:$data,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$block_shape,
                       DenseI64ArrayAttr:$paddings,
                       DefaultValuedAttr<F64Attr, "0.0">:$pad_value);
}

def Relay_BatchToSpaceNDOp
    : Relay_OperatorOp<"nn.batch_to_space_nd", "BatchToSpaceND", "Injective",
                       1, 5> {
  let summary = "The inverse of space_to_batch_nd: batch blocks back into "
                "the spatial axes, then `crops` (TensorFlow's BatchToSpaceND)";
  let arguments = (ins AnyType:$data,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$block_shape,
                       DenseI64ArrayAttr:$crops);
}

def Relay_DilateOp : Relay_OperatorOp<"nn.dilate", "Dilate", "Injective", 1,
                                      2> {
  let summary = "Spreads the elements `strides` apart along each axis, "
                "filling between with `dilation_value`";
  let arguments = (ins AnyType:$data,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                       DefaultValuedAttr<F64Attr, "0.0">:$dilation_value);
}

def Relay_DepthToSpaceOp
    : Relay_OperatorOp<"nn.depth_to_space", "DepthToSpace", "Injective", 1, 5> {
  let summary = "Moves channel blocks into `block_size` x `block_size` "
                "spatial blocks (NCHW; mode DCR or CRD)";
  let arguments = (ins AnyType:$data, DefaultValuedAttr<I64Attr, "1">:$block_size,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "DCR">:$mode);
}

def Relay_SpaceToDepthOp
    : Relay_OperatorOp<"nn.space_to_depth", "SpaceToDepth", "Injective", 1, 5> {
  let summary = "Moves `block_size` x `block_size` spatial blocks into the "
                "channels (NCHW)";
  let description = [{
    TVM's `nn.space_to_depth`; its `mode` (TVM's attributes are
    depth_to_space's) is accepted and, as in TVM, not used.
  }];
  let arguments = (ins AnyType:$data, DefaultValuedAttr<I64Attr, "1">:$block_size,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "DCR">:$mode);
}

def Relay_TopKOp : Relay_OperatorOp<"topk", "TopK", "Opaque", 1, 6> {
  let summary = "The `k` largest (or, `is_ascend`, smallest) elements along "
                "`axis` and their indices, in order";
  let description = [{
    TVM's `topk`: `ret_type` "both" gives `(values, indices)`, "values" or
    "indices" one tensor; indices have `dtype` (int32 when absent); `k` < 1
    takes the whole
    axis. Equal elements keep their order. Computed as `k` rounds of
    argmax (argmin) and masking, so `k` is at most 64.
  }];
  let arguments = (ins AnyType:$data, DefaultValuedAttr<I64Attr, "1">:$k,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedStrAttr<StrAttr, "both">:$ret_type,
                       DefaultValuedAttr<BoolAttr, "false">:$is_ascend,
                       OptionalAttr<TypeAttr>:$dtype);
}

def Relay_ArgsortOp : Relay_OperatorOp<"argsort", "Argsort", "Opaque", 1, 6> {
  let summary = "The indices that sort `axis` (ascending unless "
                "`is_ascend` is false; equal elements keep their order)";
  let description = [{ Computed as `topk` of the whole axis: at most 64 long. }];
  let arguments = (ins AnyType:$data, DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<BoolAttr, "true">:$is_ascend,
                       OptionalAttr<TypeAttr>:$dtype);
}

def Relay_SortOp : Relay_OperatorOp<"sort", "Sort", "Opaque", 1, 6> {
  let summary = "The elements sorted along `axis`";
  let description = [{ Computed as `topk` of the whole axis: at most 64 long. }];
  let arguments = (ins AnyType:$data, DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<BoolAttr, "true">:$is_ascend);
}

def Relay_ShapeOfOp : Relay_OperatorOp<"shape_of", "ShapeOf", "Opaque", 1, 10> {
  let summary = "The shape as a vector of `dtype` (int32 when absent)";
  let arguments = (ins AnyType:$data, OptionalAttr<TypeAttr>:$dtype);
}

def Relay_ArgWhereOp
    : Relay_OperatorOp<"argwhere", "ArgWhere", "Opaque", 1, 10> {
  let summary = "The indices of the nonzero elements, one row each";
  let description = [{
    TVM's `argwhere`: an int32 tensor of shape `(?, rank)` whose rows are
    the multi-indices of `condition`'s nonzero elements in row-major order.
    Its length depends on the data: the interpreter runs it (native code is
    for static shapes, and relay-run falls back to the interpreter).
  }];
  let arguments = (ins AnyType:$condition);
}

def Relay_UniqueOp : Relay_OperatorOp<"unique", "Unique", "Opaque", 1, 10> {
  let summary = "The distinct elements (or slices along `axis`), padded to "
                "the input's length";
  let description = [{
    TVM's `unique(data, sorted, return_counts)`: a tuple of `output` (the
    distinct elements of 1-D `data`, ascending when `sorted`, else in the
    order they first occur; the rest of its length zeros), `indices` (where
    each first occurs in `data`), `inverse_indices` (for each element of
    `data`, its position in `output`), `num_unique` (a one-element vector),
    and with `return_counts` `counts` (how often each occurs); the index
    vectors are int32, as long as `data`. With `axis` (an extension, ONNX
    Unique's) the distinct slices of `data` along that axis, `sorted`
    lexicographically, and the vectors as long as that axis. How many are
    distinct depends on the data: the interpreter runs it.
  }];
  let arguments = (ins AnyType:$data,
                       DefaultValuedAttr<BoolAttr, "true">:$sorted,
                       DefaultValuedAttr<BoolAttr, "false">:$return_counts,
                       OptionalAttr<I64Attr>:$axis);
}

def Relay_NdarraySizeOp
    : Relay_OperatorOp<"ndarray_size", "NdarraySize", "Opaque", 1, 10> {
  let summary = "The number of elements, a scalar of `dtype` (int32 when "
                "absent)";
  let arguments = (ins AnyType:$data, OptionalAttr<TypeAttr>:$dtype);
}

def Relay_MirrorPadOp
    : Relay_OperatorOp<"nn.mirror_pad", "MirrorPad", "Injective", 1, 2> {
  let summary = "Pads with the data mirrored at each edge (SYMMETRIC "
                "repeats the edge, REFLECT does not)";
  let arguments = (ins AnyType:$data, DenseI64ArrayAttr:$pad_width,
                       DefaultValuedStrAttr<StrAttr, "SYMMETRIC">:$mode);
}

def Relay_VarianceOp : Relay_OperatorOp<"variance", "Variance", "CommReduce", 2, 4> {
  let summary = "Mean squared deviation from `mean` over `axis` (divided by "
                "N - 1 when `unbiased`)";
  let arguments = (ins AnyType:$data, AnyType:$mean,
                       OptionalAttr<DenseI64ArrayAttr>:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims,
                       DefaultValuedAttr<BoolAttr, "false">:$exclude,
                       DefaultValuedAttr<BoolAttr, "false">:$unbiased);
}

class Relay_AdaptivePool1DOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic, "AdaptivePool1D", "OutEWiseFusable", 1, 10> {
  let summary = "1-d adaptive " # what # " pooling (NCW) to `output_size`";
  let arguments = (ins AnyType:$data,
                       OptionalAttr<DenseI64ArrayAttr>:$output_size,
                       DefaultValuedStrAttr<StrAttr, "NCW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "">:$out_layout);
}
def Relay_AdaptiveAvgPool1DOp
    : Relay_AdaptivePool1DOp<"nn.adaptive_avg_pool1d", "average">;
def Relay_AdaptiveMaxPool1DOp
    : Relay_AdaptivePool1DOp<"nn.adaptive_max_pool1d", "max">;

def Relay_Conv1DTransposeOp
    : Relay_OperatorOp<"nn.conv1d_transpose", "Conv1DTranspose", "OutEWiseFusable", 2, 2> {
  let summary = "1-d transposed convolution (NCW data, IOW weights), as a "
                "2-d one of height 1";
  let arguments = (ins AnyType:$data, AnyType:$weight,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$output_padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       OptionalAttr<I64Attr>:$channels,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_size,
                       DefaultValuedStrAttr<StrAttr, "NCW">:$data_layout,
                       DefaultValuedStrAttr<StrAttr, "IOW">:$kernel_layout,
                       DefaultValuedStrAttr<StrAttr, "">:$out_layout,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_SequenceMaskOp
    : Relay_OperatorOp<"sequence_mask", "SequenceMask", "Injective", 2, 10> {
  let summary = "`mask_value` at the positions along `axis` (0 or 1) past "
                "each batch entry's `valid_length`";
  let arguments = (ins AnyType:$data, AnyType:$valid_length,
                       DefaultValuedAttr<F64Attr, "0.0">:$mask_value,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
}

def Relay_ReverseSequenceOp
    : Relay_OperatorOp<"reverse_sequence", "ReverseSequence", "Injective", 2,
                       3> {
  let summary = "Reverses each batch entry's first `seq_lengths[b]` "
                "elements along `seq_axis`";
  let description = [{
    TVM's `reverse_sequence` (TensorFlow's ReverseSequence): along
    `seq_axis`, batch entry b (along `batch_axis`) has its first
    min(seq_lengths[b], length) elements reversed and the rest kept; a
    length of 1 or less keeps them all.
  }];
  let arguments = (ins AnyType:$data, AnyType:$seq_lengths,
                       DefaultValuedAttr<I64Attr, "1">:$seq_axis,
                       DefaultValuedAttr<I64Attr, "0">:$batch_axis);
}

def Relay_SliceLikeOp
    : Relay_OperatorOp<"slice_like", "SliceLike", "Injective", 2, 10> {
  let summary = "The leading part of `data` of `shape_like`'s sizes along "
                "`axes` (all axes when absent)";
  let arguments = (ins AnyType:$data, AnyType:$shape_like,
                       OptionalAttr<DenseI64ArrayAttr>:$axes);
}

def Relay_SlidingWindowOp
    : Relay_OperatorOp<"sliding_window", "SlidingWindow", "Opaque", 1, 3> {
  let summary = "Every window of `window_shape` over the axes from `axis` on";
  let description = [{
    TVM's `sliding_window(data, axis, window_shape, strides)`: the axes
    before `axis` are kept; each axis `axis + i` gives one axis of
    `ceil((size - window_shape[i] + 1) / strides[i])` window positions,
    followed by the window's own axes: `out[p..., w..., k...] =
    data[p..., w * strides + k...]` (torch's Tensor.unfold over one axis,
    generalised).
  }];
  let arguments = (ins AnyType:$data, I64Attr:$axis,
                       DenseI64ArrayAttr:$window_shape,
                       DenseI64ArrayAttr:$strides);
}

def Relay_UpSampling3DOp
    : Relay_OperatorOp<"nn.upsampling3d", "UpSampling3D", "Injective", 1, 2> {
  let summary = "Scales D, H and W by `scale_d`, `scale_h` and `scale_w` "
                "(nearest or trilinear)";
  let description = [{
    TVM's `nn.upsampling3d`: the result's depth, height and width are the
    data's times the scales, rounded to the nearest (half to even); the
    samples are image.resize3d's with `coordinate_transformation_mode`.
    `layout` NCDHW or NDHWC; `method` nearest_neighbor or trilinear.
  }];
  let arguments = (ins AnyType:$data,
                       DefaultValuedAttr<F64Attr, "1.0">:$scale_d,
                       DefaultValuedAttr<F64Attr, "1.0">:$scale_h,
                       DefaultValuedAttr<F64Attr, "1.0">:$scale_w,
                       DefaultValuedStrAttr<StrAttr, "NCDHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "nearest_neighbor">:$method,
                       DefaultValuedStrAttr<StrAttr, "half_pixel">:$coordinate_transformation_mode);
}

def Relay_FixedPointMultiplyOp
    : Relay_OperatorOp<"fixed_point_multiply", "FixedPointMultiply",
                       "ElemWise", 1, 10> {
  let summary = "Multiplies int32 values by the fixed-point number "
                "`multiplier` * 2^(`shift` - 31), rounding to nearest";
  let description = [{
    TVM's `fixed_point_multiply` (its q_multiply_shift): x * multiplier
    (a Q31 value) in 64 bits, shifted left by `shift` when it is positive,
    then right by 31 - `shift` (31 when `shift` is positive) rounding half
    up.
  }];
  let arguments = (ins AnyType:$data, I64Attr:$multiplier, I64Attr:$shift);
}

include "dialects/relay/RelayImageOperators.td"
include "dialects/relay/RelayQnnOperators.td"
include "dialects/relay/RelayDynamicOperators.td"
include "dialects/relay/RelayGradientOperators.td"
include "dialects/relay/RelaySparseOperators.td"
include "dialects/relay/RelaySignalOperators.td"
include "dialects/relay/RelayPackedOperators.td"
include "dialects/relay/RelayRandomOperators.td"
include "dialects/relay/RelayBitserialOperators.td"
include "dialects/relay/RelayAnnotationOperators.td"

#endif // RELAY_OPERATORS
