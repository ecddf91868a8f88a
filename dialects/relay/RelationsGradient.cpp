//===- RelationsGradient.cpp - Relations of gradient operators --*- C++ -*-===//
//
// TVM's gradient operators (nn.max_pool2d_grad, nn.avg_pool2d_grad,
// nn.conv2d_backward_weight). Each checks the gradient it is given against
// the type the forward operator gives, by running the forward operator's
// relation.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;

/// The output type the relation `name` gives for `inputs` and `attrs`
/// (the outer relation's own when null): null when it is pending, failure
/// when it fails (reported as `args`' error).
static FailureOr<Type> forwardType(RelationArgs &args, StringRef name,
                                   ArrayRef<Type> inputs,
                                   DictionaryAttr attrs = {}) {
  Type output;
  switch (runNestedRelation(args, name, inputs, output, attrs)) {
  case RelationStatus::Failed:
    return failure();
  case RelationStatus::Pending:
    return Type();
  case RelationStatus::Solved:
    return output;
  }
  llvm_unreachable("unknown relation status");
}

/// Checks that the gradient `grad` (input `index`) has the shape and dtype
/// of `forward`, the type the forward operator gives.
static LogicalResult checkGradient(RelationArgs &args, unsigned index,
                                   Type forward, StringRef what) {
  TensorInfo grad, expected;
  if (readTensor(args.getInput(index), grad) != TensorState::Tensor ||
      readTensor(forward, expected) != TensorState::Tensor)
    return success();
  bool same = grad.getRank() == expected.getRank() &&
              (grad.dtype == expected.dtype || !isa<FloatType>(grad.dtype) ||
               !isa<FloatType>(expected.dtype));
  for (size_t i = 0; same && i < grad.dims.size(); ++i)
    same = succeeded(unifyDims(grad.dims[i], expected.dims[i]));
  if (!same)
    return args.emitError() << "the gradient " << typeStr(args.getInput(index))
                            << " does not match " << typeStr(forward)
                            << ", the result of " << what;
  return success();
}

/// nn.max_pool2d_grad, nn.avg_pool2d_grad: (out_grad, data) -> data's type;
/// out_grad is what the pool gives for data.
static RelationStatus pool2dGradRelation(RelationArgs &args) {
  TensorInfo grad, data;
  READ_TENSOR_OR_RETURN(args, 0, grad);
  READ_TENSOR_OR_RETURN(args, 1, data);
  if (!isFloatLike(data.dtype))
    return args.fail("expected floating-point data, got " +
                     typeStr(args.getInput(1)));
  FailureOr<Type> forward = forwardType(args, "Pool2D", {args.getInput(1)});
  if (failed(forward))
    return RelationStatus::Failed;
  if (*forward) {
    StringRef pool = args.getOpName();
    pool.consume_back("_grad");
    if (failed(checkGradient(args, 0, *forward, (pool + " on the data").str())))
      return RelationStatus::Failed;
  }
  return args.solve(args.getInput(1));
}

/// The axes of N, C, H, W in `layout` (NCHW or NHWC), or failure.
static FailureOr<std::array<int64_t, 4>> imageAxes(StringRef layout) {
  if (layout == "NCHW")
    return std::array<int64_t, 4>{0, 1, 2, 3};
  if (layout == "NHWC")
    return std::array<int64_t, 4>{0, 3, 1, 2};
  return failure();
}

/// nn.conv2d_backward_weight: (grad, data) -> the weight's gradient. TVM
/// reuses nn.conv2d's attributes: data_layout is the gradient's layout,
/// kernel_layout the data's, out_layout the weight's.
static RelationStatus conv2dBackwardWeightRelation(RelationArgs &args) {
  TensorInfo grad, data;
  READ_TENSOR_OR_RETURN(args, 0, grad);
  READ_TENSOR_OR_RETURN(args, 1, data);
  if (grad.getRank() != 4 || data.getRank() != 4)
    return args.fail("expected 4-d gradient and data, got " +
                     typeStr(args.getInput(0)) + " and " +
                     typeStr(args.getInput(1)));
  StringRef gradLayout = args.getString("data_layout", "NCHW");
  StringRef dataLayout = args.getString("kernel_layout", "OIHW");
  StringRef weightLayout = args.getString("out_layout", "");
  FailureOr<std::array<int64_t, 4>> g = imageAxes(gradLayout);
  FailureOr<std::array<int64_t, 4>> d = imageAxes(dataLayout);
  if (failed(g))
    return args.fail("data_layout (the gradient's layout) must be NCHW or "
                     "NHWC, got \"" +
                     gradLayout + "\"");
  if (failed(d))
    return args.fail("kernel_layout (the data's layout) must be NCHW or "
                     "NHWC, got \"" +
                     dataLayout + "\"");
  if (weightLayout != "OIHW" && weightLayout != "HWIO")
    return args.fail("out_layout (the weight gradient's layout) must be OIHW "
                     "or HWIO, got \"" +
                     weightLayout + "\"");
  std::optional<SmallVector<int64_t>> kernel =
      args.getOptionalInts("kernel_size");
  if (!kernel || kernel->size() != 2 || (*kernel)[0] < 1 || (*kernel)[1] < 1)
    return args.fail("requires kernel_size, two positive values");
  int64_t groups = args.getInt("groups", 1);
  if (groups < 1)
    return args.fail("groups must be positive, got " + Twine(groups));
  if (!isFloatLike(data.dtype))
    return args.fail("expected floating-point data, got " +
                     typeStr(args.getInput(1)));
  Dim in = data.dims[(*d)[1]], out = grad.dims[(*g)[1]];
  if (in.isStatic() && in.size % groups != 0)
    return args.fail("the data's " + Twine(in.size) +
                     " channels are not divisible by groups " + Twine(groups));
  Dim perGroup = in.isStatic() ? Dim::of(in.size / groups) : Dim::any();
  SmallVector<Dim> oihw = {out, perGroup, Dim::of((*kernel)[0]),
                           Dim::of((*kernel)[1])};
  // The forward convolution of `data` with such weights must give `grad`.
  MLIRContext *ctx = args.getContext();
  Builder b(ctx);
  NamedAttrList attrs(args.getAttrs());
  attrs.set("data_layout", b.getStringAttr(dataLayout));
  attrs.set("kernel_layout", b.getStringAttr("OIHW"));
  attrs.set("out_layout", b.getStringAttr(gradLayout));
  attrs.erase("out_dtype");
  FailureOr<Type> forward = forwardType(
      args, "Conv2D", {args.getInput(1), makeTensor(ctx, oihw, data.dtype)},
      attrs.getDictionary(ctx));
  if (failed(forward))
    return RelationStatus::Failed;
  if (*forward && failed(checkGradient(args, 0, *forward,
                                       "nn.conv2d on the data with these "
                                       "attributes")))
    return RelationStatus::Failed;
  Type dtype = args.getDtype("out_dtype");
  SmallVector<Dim> result = oihw;
  if (weightLayout == "HWIO")
    result = {oihw[2], oihw[3], oihw[1], oihw[0]};
  return args.solve(makeTensor(ctx, result, dtype ? dtype : grad.dtype));
}

void mlir::relay::registerGradientRelations() {
  registerTypeRelation("Pool2DGrad", pool2dGradRelation);
  registerTypeRelation("Conv2DBackwardWeight", conv2dBackwardWeightRelation);
}
