//===- RecurrentConverters.cpp - ONNX RNN, GRU and LSTM ---------*- C++ -*-===//
//
// ONNX's recurrent layers unrolled over their (static) sequence length, as
// TVM's ONNX frontend does: the input projections of all steps are one
// dense product, then each step adds the recurrent product of the previous
// hidden state and applies the gates. A `sequence_lens` input that is not a
// constant equal to the sequence length masks the steps past each batch
// entry's length: its state stays and its outputs are zero. The reverse
// direction runs from the last position to the first under the same mask,
// which starts each entry at its own last element, as ONNX specifies. A
// sequence whose length is known only when it runs (a scripted model's
// slice of a variable-length input) runs the same step in Relay's local
// recursion over its positions instead, the outputs gathered in a list and
// joined pairwise once it ends.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/Emitter.h"
#include "frontends/ONNX/GraphImporter.h"
#include "frontends/ONNX/Sequences.h"

#include "dialects/relay/RelayBuilder.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

enum class CellKind { RNN, GRU, LSTM };

/// An activation function with its parameters.
struct Activation {
  std::string name;
  double alpha = 0, beta = 0;
};

/// The activations of each direction (`perDirection` of them, in the
/// order the cell's equations use them): the `activations` attribute with
/// its parameters, or the defaults.
FailureOr<SmallVector<SmallVector<Activation>>>
readActivations(NodeContext &ctx, ArrayRef<StringRef> defaults,
                int64_t directions) {
  size_t perDirection = defaults.size();
  SmallVector<std::string> names;
  if (const onnx::AttributeProto *a = ctx.attribute("activations"))
    for (const std::string &s : a->strings())
      names.push_back(s);
  if (names.empty())
    for (int64_t d = 0; d < directions; ++d)
      for (StringRef n : defaults)
        names.push_back(n.str());
  if (names.size() != perDirection * directions)
    return ctx.fail("expects " + Twine(perDirection * directions) +
                    " activations (" + Twine(perDirection) +
                    " per direction), got " + Twine(names.size()));
  // Parameters are consumed in order by the activations that take them.
  SmallVector<double> alphas = ctx.attrFloats("activation_alpha");
  SmallVector<double> betas = ctx.attrFloats("activation_beta");
  size_t nextAlpha = 0, nextBeta = 0;
  auto param = [](SmallVector<double> &values, size_t &next, double dflt) {
    return next < values.size() ? values[next++] : dflt;
  };
  SmallVector<SmallVector<Activation>> result(directions);
  for (size_t i = 0; i < names.size(); ++i) {
    Activation act{names[i]};
    StringRef n = act.name;
    if (n == "LeakyRelu")
      act.alpha = param(alphas, nextAlpha, 0.01);
    else if (n == "ThresholdedRelu" || n == "Elu")
      act.alpha = param(alphas, nextAlpha, 1.0);
    else if (n == "HardSigmoid") {
      act.alpha = param(alphas, nextAlpha, 0.2);
      act.beta = param(betas, nextBeta, 0.5);
    } else if (n == "Affine") {
      act.alpha = param(alphas, nextAlpha, 1.0);
      act.beta = param(betas, nextBeta, 0.0);
    } else if (n == "ScaledTanh") {
      act.alpha = param(alphas, nextAlpha, 1.0);
      act.beta = param(betas, nextBeta, 1.0);
    } else if (n != "Relu" && n != "Tanh" && n != "Sigmoid" &&
               n != "Softsign" && n != "Softplus") {
      return ctx.fail("unknown activation function '" + n + "'");
    }
    result[i / perDirection].push_back(act);
  }
  return result;
}

/// Checks that optional input `i`, when given, has shape `want` (a size
/// known only at run time on either side matches any).
LogicalResult checkShape(NodeContext &ctx, unsigned i, StringRef what,
                         ArrayRef<int64_t> want) {
  if (!ctx.hasInput(i))
    return success();
  ArrayRef<int64_t> shape = ctx.shape(i);
  auto matches = [](int64_t a, int64_t b) {
    return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
  };
  if (shape.size() == want.size() &&
      llvm::all_of(llvm::zip(shape, want), [&](auto pair) {
        return matches(std::get<0>(pair), std::get<1>(pair));
      }))
    return success();
  auto size = [](int64_t d) {
    return ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d);
  };
  std::string got, expected;
  llvm::raw_string_ostream g(got), e(expected);
  llvm::interleave(llvm::map_range(shape, size), g, "x");
  llvm::interleave(llvm::map_range(want, size), e, "x");
  return ctx.fail(what + " has shape [" + got + "], expected [" + expected +
                  "]");
}

/// The recurrence over a sequence whose length is known only when it runs
/// (`xw`: the input projections, [steps, batch, G*H]): a local recursive
/// function of the position t, the state and the outputs so far (a list,
/// newest first),
///
///   %loop = fn rec (%t, %h, [%c,] %ys) {
///     if (%t < steps) { <step>; %loop(%t + 1, %h', [%c',] Cons(%out, %ys)) }
///     else { (%h, [%c,] %ys) }
///   }
///
/// (the reverse direction counts down from steps - 1), the outputs joined
/// in order of position once it ends (joinSteps: a concatenation each step
/// would copy the outputs so far every step). Gives the tuple `(h, [c,]
/// y)`, y [steps, batch, hidden], or null on failure.
template <typename StepFn>
Value runLoop(NodeContext &ctx, Emitter &b, Value xw, Value h0, Value c0,
              bool reverse, StepFn step) {
  if (!b.succeeded())
    return {};
  MLIRContext *mc = ctx.getContext();
  Location loc = ctx.getLoc();
  OpBuilder &builder = ctx.getBuilder();
  RelayBuilder rb(builder, loc);
  Type i64 = IntegerType::get(mc, 64);
  auto state = cast<RankedTensorType>(h0.getType());
  auto outputs = RankedTensorType::get(
      {ShapedType::kDynamic, state.getDimSize(0), state.getDimSize(1)},
      state.getElementType());
  ModuleOp module = ctx.getModule();
  if (failed(addSequenceSupport(module, loc)))
    return {};
  Type stepList = getSequenceType(outputs);
  CtorOp cons = lookupConstructor(module, "List", "Cons");
  SmallVector<Type> results = {state};
  if (c0)
    results.push_back(state);
  results.push_back(stepList);
  SmallVector<Type> params = {RankedTensorType::get({}, i64)};
  llvm::append_range(params, results);
  Type resultType = TupleType::get(mc, results);
  Value steps = b.take(b.op<ShapeOfOp>({xw}, {ctx.type("dtype", i64)}), 0, 0);
  Value loop = rb.fn(
      params, resultType,
      [&](RelayBuilder &fb, ValueRange args) -> Value {
        Value self = args[0], t = args[1];
        ValueRange carried = args.drop_front(2);
        Value h = carried[0], c = c0 ? carried[1] : Value(), y = carried.back();
        Value go = reverse ? b.op<GreaterEqualOp>({t, ctx.scalar(0, i64)})
                           : b.op<LessOp>({t, steps});
        if (!go)
          return fb.tuple(carried);
        return fb.ifThenElse(
            go, resultType,
            [&](RelayBuilder &tb) -> Value {
              auto next =
                  step(b.op<TakeOp>({xw, t}, {ctx.i64("axis", 0)}), h, c, t);
              Value out = b.op<ExpandDimsOp>({next.out}, {ctx.i64("axis", 0)});
              if (!b.succeeded())
                return tb.tuple(carried);
              SmallVector<Value> again = {
                  tb.add(t, tb.scalar(reverse ? -1 : 1, i64)), next.h};
              if (c0)
                again.push_back(next.c);
              again.push_back(tb.construct(
                  cons, {widenTo(builder, loc, out, outputs), y}, stepList));
              return tb.apply(self, again);
            },
            [&](RelayBuilder &eb) -> Value { return eb.tuple(carried); });
      },
      /*recursive=*/true);
  Value start = reverse ? b.op<SubtractOp>({steps, ctx.scalar(1, i64)})
                        : ctx.scalar(0, i64);
  SmallVector<Value> initial = {start, h0};
  if (c0)
    initial.push_back(c0);
  initial.push_back(buildSequence(builder, loc, module, {}, outputs));
  // Without a step: [0, batch, hidden].
  Value none;
  if (state.hasStaticShape()) {
    none = ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get({0, state.getDimSize(0), state.getDimSize(1)},
                              state.getElementType()),
        ArrayRef<Attribute>{}));
  } else {
    Value zero = ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get({1}, i64), ArrayRef<int64_t>{0}));
    Value shape = b.op<ConcatenateOp>(
        {ctx.tuple({zero, b.op<ShapeOfOp>({h0}, {ctx.type("dtype", i64)})})},
        {ctx.i64("axis", 0)});
    none =
        b.op<DynZerosOp>({shape}, {ctx.type("dtype", state.getElementType())});
  }
  if (!b.succeeded())
    return {};
  Value done = rb.apply(loop, initial);
  SmallVector<Value> fields = {rb.tupleGet(done, 0)};
  if (c0)
    fields.push_back(rb.tupleGet(done, 1));
  fields.push_back(joinSteps(builder, loc, rb.tupleGet(done, c0 ? 2 : 1),
                             outputs, /*newestFirst=*/!reverse,
                             widenTo(builder, loc, none, outputs)));
  return rb.tuple(fields);
}

LogicalResult convertRecurrent(NodeContext &ctx, CellKind kind) {
  if (failed(ctx.checkInputs(3, kind == CellKind::LSTM ? 8 : 6)))
    return failure();
  int64_t gates = kind == CellKind::RNN ? 1 : kind == CellKind::GRU ? 3 : 4;
  if (ctx.rank(0) != 3 || ctx.rank(1) != 3 || ctx.rank(2) != 3)
    return ctx.fail("X, W and R must have rank 3");
  Type elementType = ctx.elementType(0);
  if (!isa<FloatType>(elementType))
    return ctx.fail("expects floating-point data");

  std::string direction = ctx.attrString("direction", "forward");
  if (direction != "forward" && direction != "reverse" &&
      direction != "bidirectional")
    return ctx.fail("unknown direction '" + direction +
                    "' (expected forward, reverse or bidirectional)");
  int64_t directions = direction == "bidirectional" ? 2 : 1;
  int64_t layout = ctx.attrInt("layout", 0);
  if (layout != 0 && layout != 1)
    return ctx.fail("layout must be 0 or 1, got " + Twine(layout));
  if (kind == CellKind::LSTM && ctx.attrInt("input_forget", 0) != 0)
    return ctx.fail("input_forget (coupled input and forget gates) is not "
                    "supported");
  bool linearBeforeReset =
      kind == CellKind::GRU && ctx.attrInt("linear_before_reset", 0) != 0;

  ArrayRef<int64_t> xShape = ctx.shape(0);
  int64_t steps = xShape[layout == 0 ? 0 : 1];
  int64_t batch = xShape[layout == 0 ? 1 : 0];
  int64_t inputSize = xShape[2];
  int64_t hidden = ctx.attrInt("hidden_size", ctx.shape(2)[2]);
  bool dynamicSteps = ShapedType::isDynamic(steps);
  bool dynamicBatch = ShapedType::isDynamic(batch);
  if (ShapedType::isDynamic(inputSize))
    return ctx.fail("the input size (X's last dimension) must be known when "
                    "importing");
  if (steps == 0 || batch == 0 || hidden <= 0)
    return ctx.fail("needs a non-empty sequence, batch and hidden state");
  if (failed(
          checkShape(ctx, 1, "W", {directions, gates * hidden, inputSize})) ||
      failed(checkShape(ctx, 2, "R", {directions, gates * hidden, hidden})) ||
      failed(checkShape(ctx, 3, "B", {directions, 2 * gates * hidden})) ||
      failed(checkShape(ctx, 4, "sequence_lens", {batch})))
    return failure();
  SmallVector<int64_t> stateShape =
      layout == 0 ? SmallVector<int64_t>{directions, batch, hidden}
                  : SmallVector<int64_t>{batch, directions, hidden};
  if (failed(checkShape(ctx, 5, "initial_h", stateShape)) ||
      (kind == CellKind::LSTM &&
       (failed(checkShape(ctx, 6, "initial_c", stateShape)) ||
        failed(checkShape(ctx, 7, "P", {directions, 3 * hidden})))))
    return failure();

  static constexpr StringRef rnnDefaults[] = {"Tanh"};
  static constexpr StringRef gruDefaults[] = {"Sigmoid", "Tanh"};
  static constexpr StringRef lstmDefaults[] = {"Sigmoid", "Tanh", "Tanh"};
  ArrayRef<StringRef> defaults = lstmDefaults;
  if (kind == CellKind::RNN)
    defaults = rnnDefaults;
  else if (kind == CellKind::GRU)
    defaults = gruDefaults;
  FailureOr<SmallVector<SmallVector<Activation>>> activations =
      readActivations(ctx, defaults, directions);
  if (failed(activations))
    return failure();
  std::optional<double> clip;
  if (ctx.hasAttr("clip"))
    clip = ctx.attrFloat("clip", 0.0);

  // sequence_lens masks nothing when it is a constant of full lengths.
  bool masked = false;
  if (ctx.hasInput(4)) {
    ElementsAttr lens = ctx.constantInput(4);
    masked =
        !lens || dynamicSteps ||
        llvm::any_of(readInts(lens), [&](int64_t n) { return n != steps; });
    if (lens && !dynamicSteps && llvm::any_of(readInts(lens), [&](int64_t n) {
          return n < 0 || n > steps;
        }))
      return ctx.fail("sequence_lens must lie in [0, " + Twine(steps) + "]");
  }

  Emitter b(ctx);
  Value x = ctx.input(0);
  if (layout == 1)
    x = b.op<TransposeOp>({x}, {ctx.ints("axes", {1, 0, 2})});
  Value rows = b.op<ReshapeOp>(
      {x},
      {ctx.ints("newshape", {dynamicSteps || dynamicBatch ? -1 : steps * batch,
                             inputSize})});
  Type i64 = IntegerType::get(ctx.getContext(), 64);
  // Sizes [begin, end) of X (time first), read when it runs, then `last`.
  auto sized = [&](int64_t begin, int64_t end, int64_t last) {
    Value leading = runTimeSizes(ctx, b, x, begin, end);
    Value tail = ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get({1}, i64), ArrayRef<int64_t>{last}));
    return b.op<ConcatenateOp>({ctx.tuple({leading, tail})},
                               {ctx.i64("axis", 0)});
  };
  auto stateType = RankedTensorType::get({batch, hidden}, elementType);
  auto act = [&](const Activation &a, Value v) {
    return b.activation(a.name, v, a.alpha, a.beta);
  };
  auto clipped = [&](Value v) {
    if (!clip)
      return v;
    return b.op<ClipOp>({v},
                        {ctx.f64("a_min", -*clip), ctx.f64("a_max", *clip)});
  };
  Value zeros =
      dynamicBatch
          ? widenTo(ctx.getBuilder(), ctx.getLoc(),
                    b.op<DynZerosOp>({sized(1, 2, hidden)},
                                     {ctx.type("dtype", elementType)}),
                    stateType)
          : ctx.constant(DenseElementsAttr::get(
                stateType, cast<TypedAttr>(FloatAttr::get(elementType, 0.0))));
  Value lengths;
  if (masked)
    lengths = b.op<CastOp>({ctx.input(4)}, {ctx.type("dtype", i64)});

  SmallVector<Value> ys, lastH, lastC;
  for (int64_t d = 0; d < directions; ++d) {
    bool reverse = direction == "reverse" || d == 1;
    ArrayRef<Activation> fns = (*activations)[d];
    Value w = b.take(ctx.input(1), d, 0), r = b.take(ctx.input(2), d, 0);
    // The input projections of every step at once: [steps, batch, G*H].
    Value xw = b.op<DenseOp>({rows, w});
    Value inputBias, recurrentBias;
    if (ctx.hasInput(3)) {
      SmallVector<Value> biases = b.split(b.take(ctx.input(3), d, 0), 2, 0);
      inputBias = biases[0];
      recurrentBias = biases[1];
      // GRU's candidate gate applies its recurrent bias inside the reset.
      xw = b.add(xw, kind == CellKind::GRU ? inputBias
                                           : b.add(inputBias, recurrentBias));
    }
    xw = dynamicBatch
             ? b.op<DynReshapeOp>({xw, sized(0, 2, gates * hidden)}, {})
             : b.op<ReshapeOp>({xw},
                               {ctx.ints("newshape", {dynamicSteps ? -1 : steps,
                                                      batch, gates * hidden})});
    auto initial = [&](unsigned i) -> Value {
      if (!ctx.hasInput(i))
        return zeros;
      Value given = b.take(ctx.input(i), d, layout == 0 ? 0 : 1);
      return given ? widenTo(ctx.getBuilder(), ctx.getLoc(), given, stateType)
                   : Value();
    };
    Value h = initial(5);
    Value c = kind == CellKind::LSTM ? initial(6) : Value();
    SmallVector<Value> peep;
    if (kind == CellKind::LSTM && ctx.hasInput(7))
      peep = b.split(b.take(ctx.input(7), d, 0), 3, 0); // i, o, f
    // GRU: the update and reset gates' recurrent weights, and the
    // candidate's, used separately.
    Value rzr, rh, rbZr, rbH;
    if (kind == CellKind::GRU) {
      Value parts =
          b.op<SplitOp>({r}, {ctx.ints("indices_or_sections", {2 * hidden}),
                              ctx.i64("axis", 0)});
      rzr = parts ? ctx.tupleGet(parts, 0) : Value();
      rh = parts ? ctx.tupleGet(parts, 1) : Value();
      if (recurrentBias) {
        Value biasParts = b.op<SplitOp>(
            {recurrentBias}, {ctx.ints("indices_or_sections", {2 * hidden}),
                              ctx.i64("axis", 0)});
        rbZr = biasParts ? ctx.tupleGet(biasParts, 0) : Value();
        rbH = biasParts ? ctx.tupleGet(biasParts, 1) : Value();
      }
    }

    // One step: the state after input projection `xt`, and the output
    // (zeros past a batch entry's length, whose state then stays).
    struct Step {
      Value h, c, out;
    };
    auto step = [&](Value xt, Value h, Value c, Value t) -> Step {
      Value newH, newC;
      switch (kind) {
      case CellKind::RNN: {
        Value pre = b.add(xt, b.op<DenseOp>({h, r}));
        newH = act(fns[0], clipped(pre));
        break;
      }
      case CellKind::LSTM: {
        SmallVector<Value> g =
            b.split(b.add(xt, b.op<DenseOp>({h, r})), 4, 1); // i, o, f, c
        if (!peep.empty()) {
          g[0] = b.add(g[0], b.mul(peep[0], c));
          g[2] = b.add(g[2], b.mul(peep[2], c));
        }
        Value in = act(fns[0], clipped(g[0]));
        Value forget = act(fns[0], clipped(g[2]));
        Value cell = act(fns[1], clipped(g[3]));
        newC = b.add(b.mul(forget, c), b.mul(in, cell));
        Value o = g[1];
        if (!peep.empty())
          o = b.add(o, b.mul(peep[1], newC));
        newH = b.mul(act(fns[0], clipped(o)), act(fns[2], newC));
        break;
      }
      case CellKind::GRU: {
        SmallVector<Value> xg = b.split(xt, 3, 1); // z, r, h
        Value hzr = b.op<DenseOp>({h, rzr});
        if (rbZr)
          hzr = b.add(hzr, rbZr);
        SmallVector<Value> hg = b.split(hzr, 2, 1);
        Value z = act(fns[0], clipped(b.add(xg[0], hg[0])));
        Value reset = act(fns[0], clipped(b.add(xg[1], hg[1])));
        Value recurrent;
        if (linearBeforeReset) {
          Value hh = b.op<DenseOp>({h, rh});
          if (rbH)
            hh = b.add(hh, rbH);
          recurrent = b.mul(reset, hh);
        } else {
          recurrent = b.op<DenseOp>({b.mul(reset, h), rh});
          if (rbH)
            recurrent = b.add(recurrent, rbH);
        }
        Value candidate = act(fns[1], clipped(b.add(xg[2], recurrent)));
        // (1 - z) * candidate + z * h = candidate + z * (h - candidate).
        newH = b.add(candidate, b.mul(z, b.op<SubtractOp>({h, candidate})));
        break;
      }
      }
      if (!masked)
        return {newH, newC, newH};
      Value live = b.op<ExpandDimsOp>({b.op<LessOp>({t, lengths})},
                                      {ctx.i64("axis", 1)});
      return {b.op<WhereOp>({live, newH, h}),
              newC ? b.op<WhereOp>({live, newC, c}) : Value(),
              b.op<WhereOp>({live, newH, zeros})};
    };

    Value y;
    if (dynamicSteps) {
      y = runLoop(ctx, b, xw, h, c, reverse, step);
      lastH.push_back(y ? ctx.tupleGet(y, 0) : Value());
      lastC.push_back(y && c ? ctx.tupleGet(y, 1) : Value());
      ys.push_back(y ? ctx.tupleGet(y, c ? 2 : 1) : Value());
      if (!y)
        return failure();
      continue;
    }
    SmallVector<Value> outputs(steps);
    for (int64_t i = 0; i < steps && b.succeeded(); ++i) {
      int64_t t = reverse ? steps - 1 - i : i;
      Step next = step(b.take(xw, t, 0), h, c, ctx.scalar(t, i64));
      outputs[t] = next.out;
      h = next.h;
      c = next.c;
    }
    ys.push_back(b.stack(outputs, 0));
    lastH.push_back(h);
    lastC.push_back(c);
  }
  if (!b.succeeded())
    return failure();

  // Y: [steps, directions, batch, hidden], or [batch, steps, directions,
  // hidden] in layout 1; Y_h and Y_c: [directions, batch, hidden], or
  // [batch, directions, hidden].
  Value y = b.stack(ys, 1);
  auto state = [&](ArrayRef<Value> perDirection) {
    return b.stack(perDirection, layout == 0 ? 0 : 1);
  };
  if (layout == 1)
    y = b.op<TransposeOp>({y}, {ctx.ints("axes", {2, 0, 1, 3})});
  Value yh = state(lastH);
  Value yc = kind == CellKind::LSTM ? state(lastC) : Value();
  if (!b.succeeded())
    return failure();
  ctx.addOutput(y);
  ctx.addOutput(yh);
  if (yc)
    ctx.addOutput(yc);
  return success();
}

} // namespace

void mlir::relay::onnx_import::addRecurrentConverters(ConverterTable &t) {
  t["RNN"] = [](NodeContext &ctx) {
    return convertRecurrent(ctx, CellKind::RNN);
  };
  t["GRU"] = [](NodeContext &ctx) {
    return convertRecurrent(ctx, CellKind::GRU);
  };
  t["LSTM"] = [](NodeContext &ctx) {
    return convertRecurrent(ctx, CellKind::LSTM);
  };
}
