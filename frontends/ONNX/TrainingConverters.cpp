//===- TrainingConverters.cpp - ONNX's optimizer updates --------*- C++ -*-===//
//
// The operators of the `ai.onnx.preview.training` domain that update
// parameters: Adagrad, Momentum (standard and Nesterov) and Adam, one
// elementwise step each, as their specifications' pseudo code writes it,
// over any number of tensors (inputs R, T, then the tensors, their
// gradients and their optimizer states, each group in order). The learning
// rate R and the update count T are scalars given at run time.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/Emitter.h"

#include "dialects/relay/RelayOps.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

/// The scalar inputs R (a float) and T (an integer) and the number of
/// optimized tensors, which come in `groups` groups after them (X, G and
/// the states); failure (reported) otherwise.
FailureOr<int> checkUpdate(NodeContext &ctx, int groups) {
  int n = ctx.getNumInputs() - 2;
  if (n <= 0 || n % groups != 0)
    return ctx.fail("expects R, T and " + Twine(groups) +
                    " inputs per optimized tensor (the tensors, their "
                    "gradients, their states), got " +
                    Twine(ctx.getNumInputs()) + " inputs");
  if (failed(ctx.checkInputs(ctx.getNumInputs(), ctx.getNumInputs())))
    return failure();
  auto r = ctx.tensorType(0), t = ctx.tensorType(1);
  if (!isa<FloatType>(r.getElementType()) || r.getNumElements() != 1)
    return ctx.fail("the learning rate R must be a floating-point scalar");
  if (!isa<IntegerType>(t.getElementType()) || t.getNumElements() != 1)
    return ctx.fail("the update count T must be an integer scalar");
  int count = n / groups;
  for (int i = 0; i < count; ++i)
    for (int g = 1; g < groups; ++g)
      if (ctx.tensorType(2 + i) != ctx.tensorType(2 + g * count + i))
        return ctx.fail("input #" + Twine(2 + g * count + i) +
                        " must have the type of the tensor it goes with, "
                        "input #" +
                        Twine(2 + i));
  if (ctx.getNode().output_size() > (groups - 1) * count)
    return ctx.fail("has more outputs than the tensors and their states");
  return count;
}

/// Input `i` as a 0-d tensor of `element`.
Value scalarInput(NodeContext &ctx, Emitter &b, unsigned i, Type element) {
  Value v = b.op<ReshapeOp>({ctx.input(i)},
                            {ctx.ints("newshape", ArrayRef<int64_t>{})});
  if (ctx.elementType(i) != element)
    v = b.op<CastOp>({v}, {ctx.type("dtype", element)});
  return v;
}

/// Adds `groups` as the node's outputs, group after group (the updated
/// tensors, then each state's).
LogicalResult outputGroups(Emitter &b, ArrayRef<SmallVector<Value>> groups) {
  for (const SmallVector<Value> &group : groups)
    for (Value v : group)
      if (failed(b.output(v)))
        return failure();
  return success();
}

/// `v * x` for a constant `v` of x's element type.
Value times(Emitter &b, double v, Value x) { return b.mul(b.scalar(v, x), x); }

LogicalResult convertAdagrad(NodeContext &ctx) {
  FailureOr<int> count = checkUpdate(ctx, 3);
  if (failed(count))
    return failure();
  double decay = ctx.attrFloat("decay_factor", 0.0);
  double epsilon = ctx.attrFloat("epsilon", 1e-6);
  double norm = ctx.attrFloat("norm_coefficient", 0.0);
  Emitter b(ctx);
  SmallVector<Value> xs, hs;
  for (int i = 0; i < *count; ++i) {
    Value x = ctx.input(2 + i), g = ctx.input(2 + *count + i),
          h = ctx.input(2 + 2 * *count + i);
    Type element = ctx.elementType(2 + i);
    // r = R / (1 + T * decay_factor)
    Value steps = scalarInput(ctx, b, 1, element);
    Value r = b.op<DivideOp>({scalarInput(ctx, b, 0, element),
                              b.add(b.scalar(1, x), times(b, decay, steps))});
    Value reg = b.add(times(b, norm, x), g);
    Value hNew = b.add(h, b.mul(reg, reg));
    Value adaptive = b.add(b.op<SqrtOp>({hNew}), b.scalar(epsilon, x));
    xs.push_back(
        b.op<SubtractOp>({x, b.op<DivideOp>({b.mul(r, reg), adaptive})}));
    hs.push_back(hNew);
  }
  return outputGroups(b, {xs, hs});
}

LogicalResult convertMomentum(NodeContext &ctx) {
  FailureOr<int> count = checkUpdate(ctx, 3);
  if (failed(count))
    return failure();
  for (StringRef name : {"alpha", "beta", "mode", "norm_coefficient"})
    if (!ctx.hasAttr(name))
      return ctx.fail(Twine("the attribute '") + name + "' is required");
  double alpha = ctx.attrFloat("alpha", 0), beta = ctx.attrFloat("beta", 0);
  double norm = ctx.attrFloat("norm_coefficient", 0);
  std::string mode = ctx.attrString("mode", "");
  if (mode != "standard" && mode != "nesterov")
    return ctx.fail("mode must be \"standard\" or \"nesterov\", got \"" + mode +
                    "\"");
  Emitter b(ctx);
  SmallVector<Value> xs, vs;
  for (int i = 0; i < *count; ++i) {
    Value x = ctx.input(2 + i), g = ctx.input(2 + *count + i),
          v = ctx.input(2 + 2 * *count + i);
    Type element = ctx.elementType(2 + i);
    Value reg = b.add(times(b, norm, x), g);
    // beta, or 1 at the first update (T == 0).
    Value first =
        b.op<EqualOp>({ctx.input(1), ctx.scalar(0, ctx.elementType(1))});
    Value betaNow = b.op<WhereOp>(
        {b.op<ReshapeOp>({first}, {ctx.ints("newshape", ArrayRef<int64_t>{})}),
         b.scalar(1, x), b.scalar(beta, x)});
    Value vNew = b.add(times(b, alpha, v), b.mul(betaNow, reg));
    Value r = scalarInput(ctx, b, 0, element);
    Value step = mode == "standard" ? vNew : b.add(reg, times(b, alpha, vNew));
    xs.push_back(b.op<SubtractOp>({x, b.mul(r, step)}));
    vs.push_back(vNew);
  }
  return outputGroups(b, {xs, vs});
}

LogicalResult convertAdam(NodeContext &ctx) {
  FailureOr<int> count = checkUpdate(ctx, 4);
  if (failed(count))
    return failure();
  double alpha = ctx.attrFloat("alpha", 0.9),
         beta = ctx.attrFloat("beta", 0.999);
  double epsilon = ctx.attrFloat("epsilon", 1e-6);
  double norm = ctx.attrFloat("norm_coefficient", 0);
  double normPost = ctx.attrFloat("norm_coefficient_post", 0);
  Emitter b(ctx);
  SmallVector<Value> xs, vs, hs;
  for (int i = 0; i < *count; ++i) {
    Value x = ctx.input(2 + i), g = ctx.input(2 + *count + i),
          v = ctx.input(2 + 2 * *count + i), h = ctx.input(2 + 3 * *count + i);
    Type element = ctx.elementType(2 + i);
    Value reg = b.add(times(b, norm, x), g);
    Value vNew = b.add(times(b, alpha, v), times(b, 1 - alpha, reg));
    Value hNew = b.add(times(b, beta, h), times(b, 1 - beta, b.mul(reg, reg)));
    Value hSqrt = b.add(b.op<SqrtOp>({hNew}), b.scalar(epsilon, x));
    // R * sqrt(1 - beta^T) / (1 - alpha^T) once T > 0, else R.
    Value r = scalarInput(ctx, b, 0, element);
    Value steps = scalarInput(ctx, b, 1, element);
    Value corrected = b.op<DivideOp>(
        {b.mul(r, b.op<SqrtOp>({b.op<SubtractOp>(
                      {b.scalar(1, x),
                       b.op<PowerOp>({b.scalar(beta, x), steps})})})),
         b.op<SubtractOp>(
             {b.scalar(1, x), b.op<PowerOp>({b.scalar(alpha, x), steps})})});
    Value rNow =
        b.op<WhereOp>({b.op<GreaterOp>({steps, b.scalar(0, x)}), corrected, r});
    Value xNew =
        b.op<SubtractOp>({x, b.op<DivideOp>({b.mul(rNow, vNew), hSqrt})});
    xs.push_back(normPost == 0 ? xNew : times(b, 1 - normPost, xNew));
    vs.push_back(vNew);
    hs.push_back(hNew);
  }
  return outputGroups(b, {xs, vs, hs});
}

} // namespace

void mlir::relay::onnx_import::addTrainingConverters(ConverterTable &t) {
  t["ai.onnx.preview.training:Adagrad"] = convertAdagrad;
  t["ai.onnx.preview.training:Momentum"] = convertMomentum;
  t["ai.onnx.preview.training:Adam"] = convertAdam;
}
