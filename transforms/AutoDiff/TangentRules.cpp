//===- TangentRules.cpp - Tangents of the built-in operators ----*- C++ -*-===//
//
// The registry's tangent column (forward mode): given an operator on
// primal values and its operands' tangents, the tangent of its result. Most
// operators fall in a few families, each with one rule:
//
//  - linear in their floating-point data operands (add, reshape, sum,
//    take's data, pad, pooling by averages, ...): the operator itself on
//    the tangents, with its other operands (indices, `like` shapes) kept;
//  - bilinear (multiply, dense, matmul, batch_matmul, convolutions):
//    op(dx, y) + op(x, dy);
//  - a self-adjoint Jacobian (elementwise unary functions, softmax): the
//    gradient rule's J^T dx is J dx;
//  - constant (ones_like, full_like): zeros;
//
// and the rest have their own (divide, power, maximum, where, log_softmax,
// max/min, global max pooling).
//
//===----------------------------------------------------------------------===//

#include "transforms/AutoDiff/GradientRules.h"
#include "transforms/AutoDiff/RuleSupport.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"

using namespace mlir;
using namespace mlir::relay;

namespace {

using Tangent = FailureOr<Value>;

bool isFloat(Value v) {
  auto tensor = dyn_cast<TensorType>(v.getType());
  return tensor && isa<FloatType>(tensor.getElementType());
}

/// The tangent of operand `i`, zeros where it has none.
Value tangentOr0(RelayBuilder &rb, Operation *op, ArrayRef<Value> dx,
                 unsigned i) {
  if (dx[i])
    return dx[i];
  return rb.op<ZerosLikeOp>({op->getOperand(i)});
}

void setTangent(StringRef name, TangentRuleFn rule) {
  (void)updateOperator(name, [&](OperatorInfo &info) {
    if (!info.tangent) // a rule set before (a user's) wins
      info.tangent = rule;
  });
}

/// The tangent of an op linear in the operands `data` says (all
/// floating-point ones when empty; a tuple operand's fields are its
/// tangents): the op on the tangents.
Tangent linearTangent(OpBuilder &b, Operation *op, ArrayRef<Value> dx,
                      ArrayRef<unsigned> data) {
  RelayBuilder rb(b, op->getLoc());
  SmallVector<Value> operands(op->getOperands());
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    bool linear = data.empty()
                      ? (isFloat(operand) || isa<TupleType>(operand.getType()))
                      : llvm::is_contained(data, i);
    if (!linear)
      continue;
    if (dx[i])
      operands[i] = dx[i];
    else if (isa<RankedTensorType>(operand.getType()))
      // No tangent (an integer or boolean tensor too: cast_like of a mask,
      // as max's gradient makes): zeros.
      operands[i] = rb.op<ZerosLikeOp>({operand});
    else
      return failure(); // a tuple operand without tangents
  }
  Operation *copy = b.clone(*op);
  copy->setOperands(operands);
  return copy->getResult(0);
}

void setLinear(StringRef name, SmallVector<unsigned> data = {}) {
  setTangent(name, [data](OpBuilder &b, Operation *op, ArrayRef<Value> dx) {
    return linearTangent(b, op, dx, data);
  });
}

/// op(dx, y) + op(x, dy), the terms without a tangent dropped.
void setBilinear(StringRef name) {
  setTangent(name,
             [](OpBuilder &b, Operation *op, ArrayRef<Value> dx) -> Tangent {
               RelayBuilder rb(b, op->getLoc());
               Value sum;
               for (unsigned i = 0; i < 2; ++i) {
                 if (!dx[i])
                   continue;
                 // By position: both operands may be one value (x * x).
                 Operation *copy = b.clone(*op);
                 copy->setOperand(i, dx[i]);
                 Value term = copy->getResult(0);
                 sum = sum ? rb.add(sum, term) : term;
               }
               if (!sum)
                 return rb.op<ZerosLikeOp>({op->getResult(0)});
               return sum;
             });
}

/// J dx = J^T dx: the gradient rule on dx (elementwise unary functions,
/// whose Jacobian is diagonal, and softmax, whose Jacobian is symmetric).
void setSelfAdjoint(StringRef name) {
  setTangent(name,
             [name = name.str()](OpBuilder &b, Operation *op,
                                 ArrayRef<Value> dx) -> Tangent {
               const OperatorInfo *info = lookupOperator(name);
               if (!info || !info->gradient || !dx[0])
                 return failure();
               FailureOr<SmallVector<Value>> grads =
                   info->gradient(b, op, dx[0]);
               if (failed(grads) || grads->empty() || !(*grads)[0])
                 return failure();
               return (*grads)[0];
             });
}

void setConstant(StringRef name) {
  setTangent(name, [](OpBuilder &b, Operation *op, ArrayRef<Value>) -> Tangent {
    RelayBuilder rb(b, op->getLoc());
    return rb.op<ZerosLikeOp>({op->getResult(0)});
  });
}

/// `reduce(dx * hits) / reduce(hits)`, hits where x equals the result
/// broadcast back: the tangent of max/min and their pools (ties share).
Tangent extremumTangent(RelayBuilder &rb, Operation *op, Value dx,
                        ArrayRef<NamedAttribute> sumAttrs) {
  Value x = op->getOperand(0);
  Value y = op->getResult(0);
  // y with the reduced axes kept, broadcast to x's shape (reshape_like: the
  // sizes may be known only when it runs).
  Value kept = rb.op<SumOp>({rb.op<ZerosLikeOp>({x})}, sumAttrs);
  if (!kept)
    return failure();
  Value yKept =
      y.getType() == kept.getType() ? y : rb.op<ReshapeLikeOp>({y, kept});
  Value hits =
      rb.op<CastLikeOp>({rb.equal(x, rb.op<BroadcastToLikeOp>({yKept, x})), x});
  Value num = rb.op<SumOp>({rb.multiply(dx, hits)}, sumAttrs);
  Value den = rb.op<SumOp>({hits}, sumAttrs);
  Value t = rb.divide(num, den);
  if (t && t.getType() != y.getType())
    t = rb.op<ReshapeLikeOp>({t, y});
  if (!t)
    return failure();
  return t;
}

void registerRules() {
  // Linear in their floating-point operands.
  for (StringRef name : {"relay.add",
                         "relay.subtract",
                         "relay.negative",
                         "relay.copy",
                         "relay.cast",
                         "relay.reshape",
                         "relay.transpose",
                         "relay.squeeze",
                         "relay.expand_dims",
                         "relay.nn.batch_flatten",
                         "relay.sum",
                         "relay.mean",
                         "relay.strided_slice",
                         "relay.split",
                         "relay.concatenate",
                         "relay.stack",
                         "relay.nn.pad",
                         "relay.nn.mirror_pad",
                         "relay.nn.avg_pool1d",
                         "relay.nn.avg_pool2d",
                         "relay.nn.global_avg_pool2d",
                         "relay.nn.adaptive_avg_pool1d",
                         "relay.nn.adaptive_avg_pool2d",
                         "relay.nn.bias_add",
                         "relay.broadcast_to",
                         "relay.tile",
                         "relay.repeat",
                         "relay.reverse",
                         "relay.cumsum",
                         "relay.layout_transform",
                         "relay.nn.upsampling",
                         "relay.nn.depth_to_space",
                         "relay.nn.space_to_depth",
                         "relay.zeros_like",
                         "relay.zeros"})
    setLinear(name);
  // Affine: the value a crop gives outside the image (tf_crop_and_resize's
  // extrapolation_value) is a constant, whose tangent is 0.
  for (StringRef name :
       {"relay.image.resize1d", "relay.image.resize2d", "relay.image.resize3d"})
    setTangent(name, [](OpBuilder &b, Operation *op, ArrayRef<Value> dx) {
      Tangent t = linearTangent(b, op, dx, {});
      if (succeeded(t) && *t)
        (*t).getDefiningOp()->setAttr("extrapolation_value",
                                      b.getF64FloatAttr(0.0));
      return t;
    });
  // Linear in their first operand; the other gives indices or a shape.
  for (StringRef name :
       {"relay.take", "relay.gather", "relay.collapse_sum_like",
        "relay.broadcast_to_like", "relay.reshape_like", "relay.cast_like",
        "relay.dyn.broadcast_to", "relay.dyn.reshape", "relay.dyn.squeeze",
        "relay.dyn.expand_dims"})
    setLinear(name, {0});

  // The scatters that overwrite or add are linear in data and updates
  // together (the indices select).
  for (auto entry :
       {std::pair<StringRef, StringRef>{"relay.scatter_elements", "reduction"},
        {"relay.scatter_nd", "mode"}})
    setTangent(entry.first,
               [attr = entry.second](OpBuilder &b, Operation *op,
                                     ArrayRef<Value> dx) -> Tangent {
                 auto how = op->getAttrOfType<StringAttr>(attr);
                 if (how && how.getValue() != "update" &&
                     how.getValue() != "add")
                   return failure();
                 return linearTangent(b, op, dx, {0, 2});
               });

  for (StringRef name :
       {"relay.multiply", "relay.nn.dense", "relay.nn.matmul",
        "relay.nn.batch_matmul", "relay.nn.conv1d", "relay.nn.conv2d",
        "relay.nn.conv2d_transpose", "relay.nn.conv1d_transpose"})
    setBilinear(name);

  for (StringRef name :
       {"relay.exp",       "relay.log",        "relay.log2",
        "relay.log10",     "relay.sqrt",       "relay.rsqrt",
        "relay.tanh",      "relay.sigmoid",    "relay.nn.relu",
        "relay.abs",       "relay.clip",       "relay.erf",
        "relay.sin",       "relay.cos",        "relay.tan",
        "relay.asin",      "relay.acos",       "relay.atan",
        "relay.sinh",      "relay.cosh",       "relay.asinh",
        "relay.acosh",     "relay.atanh",      "relay.fast_exp",
        "relay.fast_tanh", "relay.fast_erf",   "relay.round",
        "relay.floor",     "relay.ceil",       "relay.trunc",
        "relay.sign",      "relay.nn.softmax", "relay.nn.leaky_relu"})
    setSelfAdjoint(name);

  // full and full_like are linear in their fill value (full_like's data
  // gives only the type).
  for (auto [name, fill] : {std::pair<StringRef, unsigned>{"relay.full", 0},
                            {"relay.full_like", 1},
                            {"relay.dyn.full", 0}})
    setTangent(name,
               [fill = fill](OpBuilder &b, Operation *op,
                             ArrayRef<Value> dx) -> Tangent {
                 if (!dx[fill]) // an integer fill value
                   return RelayBuilder(b, op->getLoc())
                       .op<ZerosLikeOp>({op->getResult(0)});
                 return linearTangent(b, op, dx, {fill});
               });
  for (StringRef name : {"relay.ones_like", "relay.ones"})
    setConstant(name);

  // d(x / y) = dx / y - (x / y) dy / y
  setTangent("relay.divide",
             [](OpBuilder &b, Operation *op, ArrayRef<Value> dx) -> Tangent {
               RelayBuilder rb(b, op->getLoc());
               Value y = op->getOperand(1), z = op->getResult(0);
               Value t;
               if (dx[0])
                 t = rb.divide(dx[0], y);
               if (dx[1]) {
                 Value dy = rb.divide(rb.multiply(z, dx[1]), y);
                 t = t ? rb.subtract(t, dy) : rb.op<NegativeOp>({dy});
               }
               if (t && t.getType() != z.getType())
                 t = rb.op<BroadcastToLikeOp>({t, z});
               return t ? t : rb.op<ZerosLikeOp>({z});
             });
  // d(x^y) = z (y dx / x + log(x) dy)
  setTangent("relay.power",
             [](OpBuilder &b, Operation *op, ArrayRef<Value> dx) -> Tangent {
               RelayBuilder rb(b, op->getLoc());
               Value x = op->getOperand(0), y = op->getOperand(1),
                     z = op->getResult(0);
               Value t;
               if (dx[0])
                 t = rb.divide(rb.multiply(y, dx[0]), x);
               if (dx[1]) {
                 Value dy = rb.multiply(rb.op<LogOp>({x}), dx[1]);
                 t = t ? rb.add(t, dy) : dy;
               }
               if (!t)
                 return rb.op<ZerosLikeOp>({z});
               Value r = rb.multiply(z, t);
               return r.getType() == z.getType()
                          ? r
                          : rb.op<BroadcastToLikeOp>({r, z});
             });
  // The tangent of the operand taken (the left one on ties, as the
  // gradient rules).
  auto select = [](OpBuilder &b, Operation *op, ArrayRef<Value> dx) -> Tangent {
    RelayBuilder rb(b, op->getLoc());
    Value x = op->getOperand(0), z = op->getResult(0);
    Value lhs = rb.op<BroadcastToLikeOp>({tangentOr0(rb, op, dx, 0), z});
    Value rhs = rb.op<BroadcastToLikeOp>({tangentOr0(rb, op, dx, 1), z});
    Value takesLhs = rb.equal(rb.op<BroadcastToLikeOp>({x, z}), z);
    return rb.op<WhereOp>({takesLhs, lhs, rhs});
  };
  setTangent("relay.maximum", select);
  setTangent("relay.minimum", select);
  setTangent(
      "relay.where",
      [](OpBuilder &b, Operation *op, ArrayRef<Value> dx) -> Tangent {
        RelayBuilder rb(b, op->getLoc());
        Value z = op->getResult(0);
        Value x = rb.op<BroadcastToLikeOp>({tangentOr0(rb, op, dx, 1), z});
        Value y = rb.op<BroadcastToLikeOp>({tangentOr0(rb, op, dx, 2), z});
        return rb.op<WhereOp>({op->getOperand(0), x, y});
      });
  // d log_softmax(x) = dx - sum(softmax(x) dx, axis, keepdims)
  setTangent("relay.nn.log_softmax",
             [](OpBuilder &b, Operation *op, ArrayRef<Value> dx) -> Tangent {
               if (!dx[0])
                 return failure();
               RelayBuilder rb(b, op->getLoc());
               auto axis = op->getAttrOfType<IntegerAttr>("axis");
               int64_t a = axis ? axis.getInt() : -1;
               Value s = rb.op<ExpOp>({op->getResult(0)});
               Value dot = rb.op<SumOp>(
                   {rb.multiply(s, dx[0])},
                   {b.getNamedAttr("axis", b.getDenseI64ArrayAttr({a})),
                    b.getNamedAttr("keepdims", b.getBoolAttr(true))});
               return rb.subtract(dx[0], dot);
             });
  for (StringRef name : {"relay.max", "relay.min"})
    setTangent(
        name, [](OpBuilder &b, Operation *op, ArrayRef<Value> dx) -> Tangent {
          if (!dx[0])
            return failure();
          RelayBuilder rb(b, op->getLoc());
          SmallVector<NamedAttribute> attrs;
          for (NamedAttribute attr : op->getAttrs())
            if (attr.getName() != "keepdims")
              attrs.push_back(attr);
          attrs.push_back(b.getNamedAttr("keepdims", b.getBoolAttr(true)));
          return extremumTangent(rb, op, dx[0], attrs);
        });
  setTangent("relay.nn.adaptive_max_pool2d",
             [](OpBuilder &b, Operation *op, ArrayRef<Value> dx) -> Tangent {
               if (!dx[0])
                 return failure();
               RelayBuilder rb(b, op->getLoc());
               return autodiff::adaptiveMaxPool2DTangent(
                   rb, cast<AdaptiveMaxPool2DOp>(op), dx[0]);
             });
  setTangent("relay.nn.max_pool2d",
             [](OpBuilder &b, Operation *op, ArrayRef<Value> dx) -> Tangent {
               if (!dx[0])
                 return failure();
               RelayBuilder rb(b, op->getLoc());
               return autodiff::maxPool2DTangent(rb, cast<MaxPool2DOp>(op),
                                                 dx[0]);
             });
  // d prelu(x, alpha) = where(x > 0, dx, alpha dx + x dalpha), alpha
  // along `axis`.
  setTangent("relay.nn.prelu",
             [](OpBuilder &b, Operation *op, ArrayRef<Value> dx) -> Tangent {
               RelayBuilder rb(b, op->getLoc());
               Value x = op->getOperand(0), alpha = op->getOperand(1);
               int64_t axis = cast<PReluOp>(op).getAxis();
               auto along = [&](Value v) {
                 return autodiff::alongAxis(rb, v, x, axis);
               };
               Value zeros = rb.op<ZerosLikeOp>({x});
               Value pos = dx[0] ? dx[0] : zeros;
               Value neg = dx[0] ? rb.multiply(dx[0], along(alpha)) : zeros;
               if (dx[1])
                 neg = rb.add(neg, rb.multiply(x, along(dx[1])));
               return rb.op<WhereOp>({rb.greater(x, zeros), pos, neg});
             });
  // y = (x - mean) s gamma + beta, s = (var + eps)^-1/2 along `axis`:
  // dy = (dx - dmean) s gamma + (x - mean) s dgamma + dbeta
  //      - 1/2 (x - mean) gamma s^3 dvar; mean and var pass through.
  setTangent(
      "relay.nn.batch_norm",
      [](OpBuilder &b, Operation *op, ArrayRef<Value> dx) -> Tangent {
        RelayBuilder rb(b, op->getLoc());
        auto bn = cast<BatchNormOp>(op);
        Value x = op->getOperand(0), gamma = op->getOperand(1),
              mean = op->getOperand(3), var = op->getOperand(4);
        int64_t axis = bn.getAxis();
        auto along = [&](Value v) {
          return autodiff::alongAxis(rb, v, x, axis);
        };
        auto eps = cast<RankedTensorType>(var.getType());
        Value s = rb.op<RsqrtOp>(
            {rb.add(var, rb.scalarFloat(bn.getEpsilon().convertToDouble(),
                                        eps.getElementType()))});
        Value g = bn.getScale() ? gamma : rb.op<OnesLikeOp>({gamma});
        Value centred = rb.subtract(x, along(mean));
        Value t = rb.op<ZerosLikeOp>({x});
        if (dx[0])
          t = rb.add(t, rb.multiply(dx[0], along(rb.multiply(s, g))));
        if (dx[3])
          t = rb.subtract(t, along(rb.multiply(dx[3], rb.multiply(s, g))));
        if (dx[1] && bn.getScale())
          t = rb.add(t, rb.multiply(centred, along(rb.multiply(s, dx[1]))));
        if (dx[2] && bn.getCenter())
          t = rb.add(t, along(dx[2]));
        if (dx[4]) {
          Value s3 = rb.multiply(s, rb.multiply(s, s));
          Value k = rb.multiply(
              rb.multiply(g, s3),
              rb.multiply(dx[4], rb.scalarFloat(-0.5, eps.getElementType())));
          t = rb.add(t, rb.multiply(centred, along(k)));
        }
        Value dmean = dx[3] ? dx[3] : rb.op<ZerosLikeOp>({mean});
        Value dvar = dx[4] ? dx[4] : rb.op<ZerosLikeOp>({var});
        return rb.tuple({t, dmean, dvar});
      });
  // layer_norm: xhat's Jacobian J = s (I - 1/n - xhat xhat^T / n) along
  // `axis` is symmetric, so dy = gamma J dx + xhat dgamma + dbeta with
  // J dx = s (dx - mean(dx) - xhat mean(dx xhat)).
  setTangent(
      "relay.nn.layer_norm",
      [](OpBuilder &b, Operation *op, ArrayRef<Value> dx) -> Tangent {
        RelayBuilder rb(b, op->getLoc());
        auto ln = cast<LayerNormOp>(op);
        Value x = op->getOperand(0), gamma = op->getOperand(1);
        int64_t axis = ln.getAxis();
        auto mean = [&](Value v) {
          return rb.op<MeanOp>(
              {v}, {b.getNamedAttr("axis", b.getDenseI64ArrayAttr({axis})),
                    b.getNamedAttr("keepdims", b.getBoolAttr(true))});
        };
        auto along = [&](Value v) {
          return autodiff::alongAxis(rb, v, x, axis);
        };
        Type element = cast<RankedTensorType>(x.getType()).getElementType();
        Value centred = rb.subtract(x, mean(x));
        Value s = rb.op<RsqrtOp>({rb.add(
            mean(rb.multiply(centred, centred)),
            rb.scalarFloat(ln.getEpsilon().convertToDouble(), element))});
        Value xhat = rb.multiply(centred, s);
        Value t = rb.op<ZerosLikeOp>({x});
        if (dx[0]) {
          Value j = rb.multiply(
              s,
              rb.subtract(rb.subtract(dx[0], mean(dx[0])),
                          rb.multiply(xhat, mean(rb.multiply(dx[0], xhat)))));
          t = ln.getScale() ? rb.multiply(j, along(gamma)) : j;
        }
        if (dx[1] && ln.getScale())
          t = rb.add(t, rb.multiply(xhat, along(dx[1])));
        if (dx[2] && ln.getCenter())
          t = rb.add(t, along(dx[2]));
        return t;
      });
  // prod: the sum over the reduced axes of dx times the product of the
  // others (what its gradient rule gives for a gradient of ones).
  setTangent("relay.prod",
             [](OpBuilder &b, Operation *op, ArrayRef<Value> dx) -> Tangent {
               const OperatorInfo *info = lookupOperator("relay.prod");
               if (!dx[0] || !info || !info->gradient)
                 return failure();
               RelayBuilder rb(b, op->getLoc());
               FailureOr<SmallVector<Value>> others =
                   info->gradient(b, op, rb.op<OnesLikeOp>({op->getResult(0)}));
               if (failed(others) || others->empty() || !(*others)[0])
                 return failure();
               return rb.op<SumOp>({rb.multiply(dx[0], (*others)[0])},
                                   op->getAttrs());
             });
  // Dropout is the identity at inference; its mask is constant.
  setTangent("relay.nn.dropout",
             [](OpBuilder &b, Operation *op, ArrayRef<Value> dx) -> Tangent {
               RelayBuilder rb(b, op->getLoc());
               Value mask = rb.tupleGet(op->getResult(0), 1);
               Value t =
                   dx[0] ? dx[0] : rb.op<ZerosLikeOp>({op->getOperand(0)});
               return rb.tuple({t, rb.op<ZerosLikeOp>({mask})});
             });
  setTangent("relay.nn.global_max_pool2d",
             [](OpBuilder &b, Operation *op, ArrayRef<Value> dx) -> Tangent {
               if (!dx[0])
                 return failure();
               RelayBuilder rb(b, op->getLoc());
               auto layout = op->getAttrOfType<StringAttr>("layout");
               bool nhwc = layout && layout.getValue() == "NHWC";
               SmallVector<int64_t> axes = nhwc ? SmallVector<int64_t>{1, 2}
                                                : SmallVector<int64_t>{2, 3};
               return extremumTangent(
                   rb, op, dx[0],
                   {b.getNamedAttr("axis", b.getDenseI64ArrayAttr(axes)),
                    b.getNamedAttr("keepdims", b.getBoolAttr(true))});
             });
}

} // namespace

void mlir::relay::registerTangentRules() {
  static bool registered = [] {
    registerGradientRules(); // the self-adjoint rules use them
    registerRules();
    return true;
  }();
  (void)registered;
}
