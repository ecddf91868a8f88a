//===- RelayDynamicOperators.td - Shapes from values -------*- tablegen -*-===//
//
// TVM's operators whose result shape depends on the values of their
// operands, not on their types: the `dyn.*` forms of reshape, full, zeros,
// ones, broadcast_to, topk, tile, strided_slice, image.resize2d, nn.pad,
// squeeze, expand_dims, one_hot, sparse_to_dense, nn.upsampling and
// nn.upsampling3d (the shape, k, repetitions, bounds, widths, axes, depth
// or scales a tensor computed at run time), `arange` and the ONNX form of
// non-maximum suppression. Their relations give `?` for what only the values say; the
// interpreter runs them (native code is for static shapes: relay-run falls
// back to the interpreter, saying so). ONNX models whose shape arithmetic
// reads data (detection models' NonZero, TopK of a computed k, NMS) import
// into them.
//
// Included by RelayOperators.td.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_DYNAMIC_OPERATORS
#define RELAY_DYNAMIC_OPERATORS

def Relay_DynReshapeOp
    : Relay_OperatorOp<"dyn.reshape", "DynReshape", "Injective", 2, 10> {
  let summary = "Reshapes to the shape a 1-D integer tensor holds";
  let description = [{
    TVM's `dyn.reshape`: `reshape` whose `newshape` is an operand (ONNX
    Reshape's shape input when it is computed at run time). `0` copies the
    input dimension (unless `allowzero`) and one `-1` is inferred; the
    result has as many `?` dimensions as `newshape` has elements.

    ```mlir
    %r = relay.dyn.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    ```
  }];
  let arguments = (ins AnyType:$data, AnyType:$newshape,
                       DefaultValuedAttr<BoolAttr, "false">:$allowzero);
}

def Relay_DynFullOp : Relay_OperatorOp<"dyn.full", "DynFull", "ElemWise", 2, 10> {
  let summary = "A tensor of the shape a 1-D integer tensor holds, filled "
                "with a scalar";
  let description = [{
    TVM's `dyn.full(fill_value, shape, dtype)` (ONNX ConstantOfShape of a
    computed shape); `dtype` defaults to `fill_value`'s.
  }];
  let arguments = (ins AnyType:$fill_value, AnyType:$shape,
                       OptionalAttr<TypeAttr>:$dtype);
}

def Relay_DynTopKOp : Relay_OperatorOp<"dyn.topk", "DynTopK", "Opaque", 2, 10> {
  let summary = "topk whose `k` is a scalar operand";
  let description = [{
    TVM's `dyn.topk`: as `topk`, with `k` an integer scalar computed at run
    time (ONNX TopK's `K` input); `k` < 1 takes the whole axis. The axis
    is `?` long in the result.
  }];
  let arguments = (ins AnyType:$data, AnyType:$k,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedStrAttr<StrAttr, "both">:$ret_type,
                       DefaultValuedAttr<BoolAttr, "false">:$is_ascend,
                       OptionalAttr<TypeAttr>:$dtype);
}

def Relay_DynTileOp : Relay_OperatorOp<"dyn.tile", "DynTile", "Injective", 2, 10> {
  let summary = "tile whose repetitions are a 1-D integer operand";
  let description = [{
    TVM's `dyn.tile`: numpy.tile with `reps` computed at run time (ONNX
    Tile's `repeats` input).
  }];
  let arguments = (ins AnyType:$data, AnyType:$reps);
}

def Relay_DynStridedSliceOp
    : Relay_OperatorOp<"dyn.strided_slice", "DynStridedSlice", "Injective", 4,
                       10> {
  let summary = "strided_slice whose bounds and steps are 1-D integer "
                "operands";
  let description = [{
    TVM's `dyn.strided_slice(data, begin, end, strides)`: numpy slicing
    with one entry per leading axis in each of the three (ONNX Slice with
    computed starts or ends); negative bounds count from the end and are
    clamped as numpy clamps them; `slice_mode` "size" reads `end` as sizes
    (-1: to the end).
  }];
  let arguments = (ins AnyType:$data, AnyType:$begin, AnyType:$end,
                       AnyType:$strides,
                       DefaultValuedStrAttr<StrAttr, "end">:$slice_mode);
}

def Relay_DynResize2DOp
    : Relay_OperatorOp<"dyn.image.resize2d", "DynResize2D", "Injective", 2,
                       10> {
  let summary = "image.resize2d to the size a 2-element integer tensor holds";
  let description = [{
    TVM's `dyn.image.resize2d`: `image.resize2d` of images (NCHW, NHWC) whose
    output height and width are an operand computed at run time (ONNX
    Resize's `sizes` input computed from the data: Mask R-CNN pastes each
    mask at its box's size). The attributes are `image.resize2d`'s; the
    scales are output over input size. The result's height and width are
    `?`. The interpreter samples with `image.resize2d`'s taps for the
    size it is given, which must be positive.
  }];
  let arguments = (ins AnyType:$data, AnyType:$size,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "linear">:$method,
                       DefaultValuedStrAttr<StrAttr, "half_pixel">:$coordinate_transformation_mode,
                       DefaultValuedStrAttr<StrAttr, "round">:$rounding_method,
                       DefaultValuedAttr<F64Attr, "-0.5">:$cubic_alpha,
                       DefaultValuedAttr<I64Attr, "0">:$cubic_exclude,
                       DefaultValuedAttr<F64Attr, "0.0">:$extrapolation_value,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_ArangeOp : Relay_OperatorOp<"arange", "Arange", "Opaque", 3, 3> {
  let summary = "Evenly spaced values in [start, stop) by step";
  let description = [{
    TVM's `arange(start, stop, step, dtype)`: the operands are scalars
    (computed at run time or constant); the result has
    `max(ceil((stop - start) / step), 0)` elements of `dtype` (the start's
    when absent), `?` in its type even of constants (the ONNX importer
    folds a Range of constants into a constant itself).
  }];
  let arguments = (ins AnyType:$start, AnyType:$stop, AnyType:$step,
                       OptionalAttr<TypeAttr>:$dtype);
}

def Relay_AllClassNonMaxSuppressionOp
    : Relay_OperatorOp<"vision.all_class_non_max_suppression",
                       "AllClassNonMaxSuppression", "Opaque", 5, 5> {
  let summary = "Non-maximum suppression of every class's boxes, in ONNX's "
                "form";
  let description = [{
    TVM's `vision.all_class_non_max_suppression(boxes, scores,
    max_output_boxes_per_class, iou_threshold, score_threshold)` with
    `output_format` "onnx": `boxes` is `(batch, boxes, 4)` (two opposite
    corners, either diagonal), `scores` `(batch, classes, boxes)`. For each
    batch and class the boxes scoring above `score_threshold` are taken by
    descending score, each dropping the later ones whose intersection over
    union with it exceeds `iou_threshold`, at most
    `max_output_boxes_per_class` of them. The result is a tuple: an int64
    `(batch * classes * boxes, 3)` tensor whose first rows are the
    selected `(batch, class, box)` triples (by batch, then class, then
    selection; the rest zeros), and their number as an int64 `(1)` tensor.
  }];
  let arguments = (ins AnyType:$boxes, AnyType:$scores,
                       AnyType:$max_output_boxes_per_class,
                       AnyType:$iou_threshold, AnyType:$score_threshold,
                       DefaultValuedStrAttr<StrAttr, "onnx">:$output_format);
}

class Relay_DynInitOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic, "DynInit", "ElemWise", 1, 10> {
  let summary = "A tensor of " # what # " of the shape a 1-D integer "
                "tensor holds (dtype defaults to float32)";
  let description = [{
    TVM's `dyn.zeros` / `dyn.ones`: `zeros` and `ones` whose shape is an
    operand computed at run time.
  }];
  let arguments = (ins AnyType:$shape, OptionalAttr<TypeAttr>:$dtype);
}
def Relay_DynZerosOp : Relay_DynInitOp<"dyn.zeros", "zeros">;
def Relay_DynOnesOp : Relay_DynInitOp<"dyn.ones", "ones">;

def Relay_DynBroadcastToOp
    : Relay_OperatorOp<"dyn.broadcast_to", "DynBroadcastTo", "Broadcast", 2,
                       10> {
  let summary = "broadcast_to whose shape is a 1-D integer operand";
  let description = [{
    TVM's `dyn.broadcast_to`: numpy broadcasting of `data` to the shape a
    tensor computed at run time holds (its dimensions and the data's
    aligned at the end; a data dimension of 1 repeats).
  }];
  let arguments = (ins AnyType:$data, AnyType:$shape);
}

def Relay_DynPadOp : Relay_OperatorOp<"dyn.nn.pad", "DynPad", "Injective", 3, 10> {
  let summary = "nn.pad whose widths are a (rank, 2) integer operand";
  let description = [{
    TVM's `dyn.nn.pad(data, pad_width, pad_value)`: `nn.pad` with the
    widths computed at run time, one (before, after) row per axis (ONNX
    Pad with computed `pads`). The widths must not be negative (TVM's
    topi pad does not crop); `pad_value` is a scalar cast to the data's
    dtype. Every size is `?` in the result.

    ```mlir
    %p = relay.dyn.nn.pad %x, %w, %v : (tensor<2x3xf32>, tensor<2x2xi64>, tensor<f32>) -> tensor<?x?xf32>
    ```
  }];
  let arguments = (ins AnyType:$data, AnyType:$pad_width, AnyType:$pad_value,
                       DefaultValuedStrAttr<StrAttr, "constant">:$pad_mode);
}

def Relay_DynSqueezeOp
    : Relay_OperatorOp<"dyn.squeeze", "DynSqueeze", "Injective", 2, 10> {
  let summary = "squeeze of the axes a 1-D integer operand holds";
  let description = [{
    TVM's `dyn.squeeze(data, axes)`: removes the size-1 axes `axes` names
    (negative ones count from the end); the result's rank is the data's
    less the (static) number of axes, each of its sizes `?`.
  }];
  let arguments = (ins AnyType:$data, AnyType:$axes);
}

def Relay_DynExpandDimsOp
    : Relay_OperatorOp<"dyn.expand_dims", "DynExpandDims", "Injective", 2, 10> {
  let summary = "expand_dims at the axis a scalar operand holds";
  let description = [{
    TVM's `dyn.expand_dims(data, axis, num_newaxis)`: `num_newaxis` size-1
    axes inserted at the axis computed at run time (in [-rank - 1, rank]);
    every size of the result is `?`.
  }];
  let arguments = (ins AnyType:$data, AnyType:$axis,
                       DefaultValuedAttr<I64Attr, "1">:$num_newaxis);
}

def Relay_DynOneHotOp
    : Relay_OperatorOp<"dyn.one_hot", "DynOneHot", "Injective", 4, 10> {
  let summary = "one_hot whose depth is a scalar operand";
  let description = [{
    TVM's `dyn.one_hot(indices, on_value, off_value, depth)`: `one_hot`
    with the depth computed at run time (ONNX OneHot of a computed
    depth); the new axis, at `axis`, is `?` long. The `depth` attribute
    is TVM's (its OneHotAttrs) and unused.
  }];
  let arguments = (ins AnyType:$indices, AnyType:$on_value,
                       AnyType:$off_value, AnyType:$depth_value,
                       DefaultValuedAttr<I64Attr, "1">:$depth,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       TypeAttr:$dtype);
}

def Relay_DynSparseToDenseOp
    : Relay_OperatorOp<"dyn.sparse_to_dense", "DynSparseToDense", "Opaque", 4,
                       10> {
  let summary = "sparse_to_dense whose output shape is a 1-D integer operand";
  let description = [{
    TVM's `dyn.sparse_to_dense(sparse_indices, sparse_values,
    default_value, output_shape)`: `sparse_to_dense` into the shape
    computed at run time; the result has one `?` axis per element of
    `output_shape`.
  }];
  let arguments = (ins AnyType:$sparse_indices, AnyType:$sparse_values,
                       AnyType:$default_value, AnyType:$output_shape);
}

def Relay_DynUpSamplingOp
    : Relay_OperatorOp<"dyn.nn.upsampling", "DynUpSampling", "Injective", 3,
                       10> {
  let summary = "nn.upsampling by scales that are scalar operands";
  let description = [{
    TVM's `dyn.nn.upsampling(data, scale_h, scale_w)`: `nn.upsampling`
    with the scales computed at run time; the height and width of the
    result are `?`.
  }];
  let arguments = (ins AnyType:$data, AnyType:$scale_h, AnyType:$scale_w,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "nearest_neighbor">:$method,
                       DefaultValuedAttr<BoolAttr, "false">:$align_corners);
}

def Relay_DynUpSampling3DOp
    : Relay_OperatorOp<"dyn.nn.upsampling3d", "DynUpSampling3D", "Injective",
                       4, 10> {
  let summary = "nn.upsampling3d by scales that are scalar operands";
  let description = [{
    TVM's `dyn.nn.upsampling3d(data, scale_d, scale_h, scale_w)`:
    `nn.upsampling3d` with the scales computed at run time; the depth,
    height and width of the result are `?`.
  }];
  let arguments = (ins AnyType:$data, AnyType:$scale_d, AnyType:$scale_h,
                       AnyType:$scale_w,
                       DefaultValuedStrAttr<StrAttr, "NCDHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "nearest_neighbor">:$method,
                       DefaultValuedStrAttr<StrAttr, "half_pixel">:$coordinate_transformation_mode);
}

#endif // RELAY_DYNAMIC_OPERATORS
