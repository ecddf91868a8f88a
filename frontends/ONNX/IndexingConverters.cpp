//===- IndexingConverters.cpp - ONNX GatherND, scatters, gather -*- C++ -*-===//
//
// GatherND becomes one `take` over the data flattened along the indexed
// axes, its flat indices computed from the index tuples by relay ops (so
// the indices may be a graph input). ScatterND, ScatterElements and
// Scatter with indices computed at run time become relay's scatter_nd and
// scatter_elements; with indices known at import time (exporters compute
// them from shapes, as Swin-T's attention masks do) a gather of the updates
// through a constant map and a `where` over a constant mask, which fuse
// with their neighbours; duplicate indices with a reduction apply one round
// per multiplicity. ReverseSequence is relay.reverse_sequence; Compress a
// take at the condition's argwhere.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/Emitter.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

int64_t product(ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    p *= d;
  return p;
}

LogicalResult convertGatherND(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  ArrayRef<int64_t> data = ctx.shape(0), indices = ctx.shape(1);
  int64_t batchDims = ctx.attrInt("batch_dims", 0);
  int64_t r = data.size(), q = indices.size();
  if (q == 0)
    return ctx.fail("indices must have rank 1 or more");
  int64_t k = indices.back();
  if (ShapedType::isDynamic(k))
    return ctx.fail("the length of the index tuples (the indices' last "
                    "dimension) must be known at import time");
  if (batchDims < 0 || batchDims >= std::min(r, q))
    return ctx.fail("batch_dims must lie in [0, " + Twine(std::min(r, q)) +
                    ")");
  if (k < 1 || batchDims + k > r)
    return ctx.fail("index tuples of length " + Twine(k) +
                    " do not fit data of rank " + Twine(r) + " after " +
                    Twine(batchDims) + " batch dimensions");
  for (int64_t d = 0; d < batchDims; ++d)
    if (!ShapedType::isDynamic(data[d]) && !ShapedType::isDynamic(indices[d]) &&
        data[d] != indices[d])
      return ctx.fail("the batch dimensions of data and indices differ");

  // Sizes of data the arithmetic reads: constants where the type has them,
  // else read when it runs (data computed in a loop, a NonZero's result).
  Emitter b(ctx);
  MLIRContext *mctx = ctx.getContext();
  Type i64 = IntegerType::get(mctx, 64);
  auto sizes = [&](int64_t begin, int64_t end) {
    return runTimeSizes(ctx, b, ctx.input(0), begin, end);
  };
  ArrayRef<int64_t> indexed = data.slice(batchDims, k);
  ArrayRef<int64_t> rest = data.drop_front(batchDims + k);

  Value idx = b.op<CastOp>({ctx.input(1)}, {ctx.type("dtype", i64)});
  // Negative indices count from the end.
  Value dims = sizes(batchDims, batchDims + k);
  idx = b.op<WhereOp>(
      {b.op<LessOp>({idx, ctx.scalar(0, i64)}), b.add(idx, dims), idx});
  // A tuple with a component out of range is a run-time error (take's
  // "fast" mode on an index of -1), not a row its flat index happens to
  // name.
  Value outside =
      b.op<AnyOp>({b.op<LogicalOrOp>({b.op<LessOp>({idx, ctx.scalar(0, i64)}),
                                      b.op<GreaterEqualOp>({idx, dims})})},
                  {ctx.ints("axis", {q - 1})});
  // Row-major strides of the indexed axes: the running products of their
  // sizes from the last, each leaving itself out.
  Value strides;
  if (!ShapedType::isDynamicShape(indexed.drop_front())) {
    SmallVector<int64_t> known(k, 1);
    for (int64_t j = k - 2; j >= 0; --j)
      known[j] = known[j + 1] * indexed[j + 1];
    strides = ctx.constant(i64Elements(mctx, {k}, known));
  } else {
    Value products =
        b.op<CumprodOp>({b.op<ReverseOp>({dims}, {ctx.i64("axis", 0)})},
                        {ctx.i64("axis", 0), ctx.boolean("exclusive", true)});
    strides = b.op<ReverseOp>({products}, {ctx.i64("axis", 0)});
  }
  Value flat = b.op<SumOp>({b.mul(idx, strides)}, {ctx.ints("axis", {q - 1})});
  // Each batch entry's rows follow the previous entries'.
  if (batchDims > 0) {
    ArrayRef<int64_t> batch = data.take_front(batchDims);
    SmallVector<int64_t> offsetShape(batch);
    offsetShape.append(q - 1 - batchDims, 1);
    if (!ShapedType::isDynamicShape(data.take_front(batchDims + k))) {
      SmallVector<int64_t> offsets;
      int64_t perBatch = product(indexed);
      for (int64_t i = 0, n = product(batch); i < n; ++i)
        offsets.push_back(i * perBatch);
      flat = b.add(flat, ctx.constant(i64Elements(mctx, offsetShape, offsets)));
    } else {
      Value count = b.op<ProdOp>({sizes(0, batchDims)}, {});
      Value perBatch = b.op<ProdOp>({dims}, {});
      Value entries =
          b.op<ArangeOp>({ctx.scalar(0, i64), count, ctx.scalar(1, i64)},
                         {ctx.type("dtype", i64)});
      SmallVector<int64_t> ones(q - 1 - batchDims, 1);
      Value shape = b.op<ConcatenateOp>(
          {ctx.tuple({sizes(0, batchDims),
                      ctx.constant(i64Elements(
                          mctx, {static_cast<int64_t>(ones.size())}, ones))})},
          {ctx.i64("axis", 0)});
      flat = b.add(flat,
                   b.mul(b.op<DynReshapeOp>({entries, shape}, {}), perBatch));
    }
  }
  // The data as a table of rows: its batch and indexed axes in one.
  Value table;
  if (!ShapedType::isDynamicShape(rest)) {
    ArrayRef<int64_t> leading = data.take_front(batchDims + k);
    SmallVector<int64_t> rows = {
        ShapedType::isDynamicShape(leading) ? -1 : product(leading)};
    rows.append(rest.begin(), rest.end());
    table = b.op<ReshapeOp>({ctx.input(0)}, {ctx.ints("newshape", rows)});
  } else {
    Value shape = b.op<ConcatenateOp>(
        {ctx.tuple({ctx.constant(i64Elements(mctx, {1}, {-1})),
                    sizes(batchDims + k, r)})},
        {ctx.i64("axis", 0)});
    table = b.op<DynReshapeOp>({ctx.input(0), shape}, {});
  }
  flat = b.op<WhereOp>({outside, ctx.scalar(-1, i64), flat});
  return b.output(b.op<TakeOp>({table, flat},
                               {ctx.i64("axis", 0), ctx.str("mode", "fast")}));
}

/// For each of `targets` positions, the update that writes it in each
/// round: round j holds every position's j-th write (-1: none).
using Rounds = SmallVector<SmallVector<int64_t>>;

void addWrite(Rounds &rounds, int64_t targets, int64_t target, int64_t update) {
  for (SmallVector<int64_t> &round : rounds)
    if (round[target] < 0) {
      round[target] = update;
      return;
    }
  rounds.emplace_back(targets, -1);
  rounds.back()[target] = update;
}

/// out = data, then per round: where(written, combine(out, updates[map]),
/// out), on `data` and `updates` reshaped to [targets, inner...] and
/// [count, inner...].
LogicalResult applyRounds(NodeContext &ctx, Rounds rounds, int64_t targets,
                          int64_t count, ArrayRef<int64_t> inner,
                          StringRef reduction) {
  Emitter b(ctx);
  SmallVector<int64_t> dataShape = {targets}, updateShape = {count},
                       maskShape = {targets};
  dataShape.append(inner.begin(), inner.end());
  updateShape.append(inner.begin(), inner.end());
  maskShape.append(inner.size(), 1);
  Value out =
      b.op<ReshapeOp>({ctx.input(0)}, {ctx.ints("newshape", dataShape)});
  Value updates =
      b.op<ReshapeOp>({ctx.input(2)}, {ctx.ints("newshape", updateShape)});
  // "none" with duplicates: the last write wins.
  if (reduction == "none" && rounds.size() > 1) {
    for (size_t j = 1; j < rounds.size(); ++j)
      for (int64_t t = 0; t < targets; ++t)
        if (rounds[j][t] >= 0)
          rounds[0][t] = rounds[j][t];
    rounds.resize(1);
  }
  for (const SmallVector<int64_t> &round : rounds) {
    SmallVector<int64_t> map;
    SmallVector<bool> written;
    for (int64_t u : round) {
      map.push_back(std::max<int64_t>(u, 0));
      written.push_back(u >= 0);
    }
    Value gathered = b.op<TakeOp>(
        {updates, ctx.constant(i64Elements(ctx.getContext(), {targets}, map))},
        {ctx.i64("axis", 0)});
    Value mask = ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get(maskShape, IntegerType::get(ctx.getContext(), 1)),
        ArrayRef<bool>(written)));
    Value combined = gathered;
    if (reduction == "add")
      combined = b.add(out, gathered);
    else if (reduction == "mul")
      combined = b.mul(out, gathered);
    else if (reduction == "min")
      combined = b.op<MinimumOp>({out, gathered});
    else if (reduction == "max")
      combined = b.op<MaximumOp>({out, gathered});
    out = b.op<WhereOp>({mask, combined, out});
  }
  return b.output(b.op<ReshapeOp>({out}, {ctx.ints("newshape", ctx.shape(0))}));
}

FailureOr<std::string> readReduction(NodeContext &ctx) {
  std::string reduction = ctx.attrString("reduction", "none");
  if (reduction != "none" && reduction != "add" && reduction != "mul" &&
      reduction != "min" && reduction != "max")
    return ctx.fail("reduction '" + reduction +
                    "' is not supported (none, add, mul, min or max)");
  return reduction;
}

/// The scatter operators' name of an ONNX reduction.
StringRef relayReduction(StringRef reduction) {
  return reduction == "none" ? "update" : reduction;
}

LogicalResult convertScatterND(NodeContext &ctx) {
  if (failed(ctx.checkInputs(3, 3)))
    return failure();
  FailureOr<std::string> reduction = readReduction(ctx);
  if (failed(reduction))
    return failure();
  ArrayRef<int64_t> data = ctx.shape(0), indices = ctx.shape(1),
                    updates = ctx.shape(2);
  if (indices.empty())
    return ctx.fail("indices must have rank 1 or more");
  int64_t k = indices.back(), r = data.size();
  if (ShapedType::isDynamic(k))
    return ctx.fail("the length of the index tuples (the indices' last "
                    "dimension) must be known at import time");
  if (k < 1 || k > r)
    return ctx.fail("index tuples of length " + Twine(k) +
                    " do not fit data of rank " + Twine(r));
  SmallVector<int64_t> expected(indices.drop_back());
  expected.append(data.begin() + k, data.end());
  // (A size known only when it runs matches any; scatter_nd checks it.)
  if (updates.size() != expected.size() ||
      llvm::any_of(llvm::zip(updates, expected), [](auto pair) {
        auto [u, e] = pair;
        return u != e && !ShapedType::isDynamic(u) && !ShapedType::isDynamic(e);
      }))
    return ctx.fail("updates must have shape indices.shape[:-1] + "
                    "data.shape[k:]");
  // Indices computed at run time, or data whose sizes are: relay's
  // scatter_nd, whose index tuples run along the first axis.
  if (!ctx.constantInput(1) || !ctx.hasStaticShape(0)) {
    SmallVector<int64_t> perm = {int64_t(indices.size()) - 1};
    for (int64_t d = 0; d + 1 < int64_t(indices.size()); ++d)
      perm.push_back(d);
    FailureOr<Value> tuples =
        ctx.op<TransposeOp>({ctx.input(1)}, {ctx.ints("axes", perm)});
    if (failed(tuples))
      return failure();
    return ctx.output(
        ctx.op<ScatterNDOp>({ctx.input(0), *tuples, ctx.input(2)},
                            {ctx.str("mode", relayReduction(*reduction))}));
  }
  FailureOr<SmallVector<int64_t>> idx = ctx.constantInts(1, "indices");
  if (failed(idx))
    return failure();
  int64_t targets = product(data.take_front(k));
  int64_t count = product(indices.drop_back());
  Rounds rounds;
  for (int64_t u = 0; u < count; ++u) {
    int64_t flat = 0;
    for (int64_t j = 0; j < k; ++j) {
      int64_t i = (*idx)[u * k + j];
      if (i < -data[j] || i >= data[j])
        return ctx.fail("index " + Twine(i) +
                        " is out of bounds for a "
                        "dimension of size " +
                        Twine(data[j]));
      flat = flat * data[j] + (i < 0 ? i + data[j] : i);
    }
    addWrite(rounds, targets, flat, u);
  }
  return applyRounds(ctx, std::move(rounds), targets, count, data.drop_front(k),
                     *reduction);
}

/// ScatterElements (and opset 9-10's Scatter): updates[j] goes to the
/// position of j with its `axis` coordinate replaced by indices[j].
LogicalResult convertScatterElements(NodeContext &ctx) {
  if (failed(ctx.checkInputs(3, 3)))
    return failure();
  FailureOr<std::string> reduction = readReduction(ctx);
  if (failed(reduction))
    return failure();
  ArrayRef<int64_t> data = ctx.shape(0), indices = ctx.shape(1),
                    updates = ctx.shape(2);
  int64_t r = data.size();
  // Sizes that depend on the data (a detector's regions) are checked when
  // they are known, at run time.
  auto known = [](int64_t size) { return !ShapedType::isDynamic(size); };
  bool sameShape = updates.size() == indices.size();
  for (size_t d = 0; sameShape && d < indices.size(); ++d)
    sameShape =
        !known(indices[d]) || !known(updates[d]) || indices[d] == updates[d];
  if (indices.size() != data.size() || !sameShape)
    return ctx.fail("indices and updates must have one shape, of data's rank");
  FailureOr<int64_t> axis = ctx.axis(ctx.attrInt("axis", 0), r);
  if (failed(axis))
    return failure();
  // Along the axis any number of updates may go to one row.
  for (int64_t d = 0; d < r; ++d)
    if (d != *axis && known(indices[d]) && known(data[d]) &&
        indices[d] > data[d])
      return ctx.fail("indices are larger than data along axis " + Twine(d));
  if (!ctx.constantInput(1) || !ctx.hasStaticShape(0) ||
      !ctx.hasStaticShape(1) || !ctx.hasStaticShape(2))
    return ctx.output(ctx.op<ScatterElementsOp>(
        {ctx.input(0), ctx.input(1), ctx.input(2)},
        {ctx.i64("axis", *axis),
         ctx.str("reduction", relayReduction(*reduction))}));
  FailureOr<SmallVector<int64_t>> idx = ctx.constantInts(1, "indices");
  if (failed(idx))
    return failure();
  int64_t targets = product(data), count = product(indices);
  Rounds rounds;
  SmallVector<int64_t> pos(r, 0);
  for (int64_t u = 0; u < count; ++u) {
    // pos: the multi-index of update u.
    for (int64_t d = r - 1, rem = u; d >= 0; --d) {
      pos[d] = rem % indices[d];
      rem /= indices[d];
    }
    int64_t i = (*idx)[u];
    if (i < -data[*axis] || i >= data[*axis])
      return ctx.fail("index " + Twine(i) + " is out of bounds for axis " +
                      Twine(*axis) + " of size " + Twine(data[*axis]));
    pos[*axis] = i < 0 ? i + data[*axis] : i;
    int64_t flat = 0;
    for (int64_t d = 0; d < r; ++d)
      flat = flat * data[d] + pos[d];
    addWrite(rounds, targets, flat, u);
  }
  return applyRounds(ctx, std::move(rounds), targets, count, {}, *reduction);
}

/// TopK: relay's topk (k known at import; before opset 10 an attribute),
/// values and int64 indices, largest or smallest first.
LogicalResult convertTopK(NodeContext &ctx) {
  bool legacy = ctx.getOpset() < 10;
  if (failed(ctx.checkInputs(legacy ? 1 : 2, legacy ? 1 : 2)))
    return failure();
  Type i64 = IntegerType::get(ctx.getContext(), 64);
  FailureOr<int64_t> axis = ctx.axis(ctx.attrInt("axis", -1), ctx.rank(0));
  if (failed(axis))
    return failure();
  SmallVector<NamedAttribute> attrs = {
      ctx.i64("axis", *axis),
      ctx.boolean("is_ascend", ctx.attrInt("largest", 1) == 0),
      ctx.type("dtype", i64)};
  FailureOr<Value> r;
  if (!legacy && (!ctx.constantInput(1) || !ctx.hasStaticShape(0))) {
    // k computed at run time, or an input whose sizes depend on the data:
    // dyn.topk (k checked when it runs).
    r = ctx.op<DynTopKOp>({ctx.input(0), ctx.input(1)}, attrs);
  } else {
    int64_t k;
    if (legacy) {
      k = ctx.attrInt("k", 0);
    } else {
      FailureOr<SmallVector<int64_t>> kv = ctx.constantInts(1, "k");
      if (failed(kv))
        return failure();
      if (kv->size() != 1)
        return ctx.fail("k must hold one value");
      k = kv->front();
    }
    if (k < 1 || k > ctx.shape(0)[*axis])
      return ctx.fail("k = " + Twine(k) + " must lie in [1, " +
                      Twine(ctx.shape(0)[*axis]) + "]");
    attrs.push_back(ctx.i64("k", k));
    r = ctx.op<TopKOp>({ctx.input(0)}, attrs);
  }
  if (failed(r))
    return failure();
  ctx.addOutput(ctx.tupleGet(*r, 0));
  ctx.addOutput(ctx.tupleGet(*r, 1));
  return success();
}

/// NonZero: the indices of the nonzero elements, one column each, as int64
/// (rank x ?): argwhere's rows transposed. How many there are depends on
/// the data, so relay-run runs the model on its interpreter.
LogicalResult convertNonZero(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  FailureOr<Value> rows = ctx.op<ArgWhereOp>({ctx.input(0)}, {});
  if (failed(rows))
    return failure();
  FailureOr<Value> columns = ctx.op<TransposeOp>({*rows}, {});
  if (failed(columns))
    return failure();
  return ctx.output(ctx.op<CastOp>(
      {*columns}, {ctx.type("dtype", IntegerType::get(ctx.getContext(), 64))}));
}

/// Unique: Relay's `unique` (with ONNX's axis), whose results are as long
/// as the input and say how many are distinct; Y, indices and counts are
/// sliced to that count (dyn.strided_slice), the index vectors made int64.
LogicalResult convertUnique(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  Value data = ctx.input(0);
  Emitter b(ctx);
  int64_t axis = 0;
  SmallVector<NamedAttribute> attrs = {
      ctx.boolean("sorted", ctx.attrInt("sorted", 1) != 0),
      ctx.boolean("return_counts", true)};
  if (ctx.hasAttr("axis")) {
    FailureOr<int64_t> a = ctx.axis(ctx.attrInt("axis", 0), ctx.rank(0));
    if (failed(a))
      return failure();
    axis = *a;
    attrs.push_back(ctx.i64("axis", axis));
  } else if (ctx.rank(0) != 1) {
    // Without an axis, the elements of the input flattened.
    data = b.op<ReshapeOp>({data}, {ctx.ints("newshape", {-1})});
  }
  Value unique = b.op<UniqueOp>({data}, attrs);
  Type i64 = IntegerType::get(ctx.getContext(), 64);
  auto field = [&](unsigned i) {
    Value v = b.tupleGet(unique, i);
    return i == 0 ? v : b.op<CastOp>({v}, {ctx.type("dtype", i64)});
  };
  Value count = field(3);
  // The first `count` along the axis: bounds for the axes up to it, the
  // leading ones whole.
  auto keep = [&](Value v, int64_t along) {
    SmallVector<int64_t> zeros(along + 1, 0), ones(along + 1, 1);
    Value end = count;
    if (along > 0) {
      Value sizes = b.op<ShapeOfOp>({v}, {ctx.type("dtype", i64)});
      Value leading = b.op<StridedSliceOp>(
          {sizes}, {ctx.ints("begin", {0}), ctx.ints("end", {along})});
      end = b.op<ConcatenateOp>({ctx.tuple({leading, count})},
                                {ctx.i64("axis", 0)});
    }
    auto vector = [&](ArrayRef<int64_t> values) {
      return ctx.constant(DenseElementsAttr::get(
          RankedTensorType::get({(int64_t)values.size()}, i64), values));
    };
    Value kept = b.op<DynStridedSliceOp>({v, vector(zeros), end, vector(ones)});
    // The other sizes are the input's.
    if (!kept)
      return kept;
    SmallVector<int64_t> known(cast<RankedTensorType>(v.getType()).getShape());
    known[along] = ShapedType::kDynamic;
    return refineKnownDims(ctx, b, kept, known);
  };
  Value y = keep(field(0), axis);
  Value indices = keep(field(1), 0);
  Value inverse = field(2);
  Value counts = keep(field(4), 0);
  for (Value v : {y, indices, inverse})
    if (failed(b.output(v)))
      return failure();
  return b.output(counts);
}

/// Compress(input, condition, [axis]): the slices along `axis` (the
/// elements of the input flattened, without an axis) where condition is
/// true; a condition shorter than the axis selects nothing past its end. A
/// condition known at import gives a take at constant indices, one
/// computed at run time a take at argwhere's, whose count depends on the
/// data.
LogicalResult convertCompress(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  if (ctx.rank(1) != 1)
    return ctx.fail("condition must be a 1-d tensor");
  Value data = ctx.input(0);
  int64_t axis = 0;
  if (ctx.hasAttr("axis")) {
    FailureOr<int64_t> a = ctx.axis(ctx.attrInt("axis", 0), ctx.rank(0));
    if (failed(a))
      return failure();
    axis = *a;
  } else {
    FailureOr<Value> flat =
        ctx.op<ReshapeOp>({data}, {ctx.ints("newshape", {-1})});
    if (failed(flat))
      return failure();
    data = *flat;
  }
  int64_t length = cast<RankedTensorType>(data.getType()).getDimSize(axis);
  int64_t given = ctx.shape(1).front();
  if (!ShapedType::isDynamic(length) && !ShapedType::isDynamic(given) &&
      given > length)
    return ctx.fail("condition has " + Twine(given) +
                    " elements, more than the " + Twine(length) +
                    " along the axis");
  Type i64 = IntegerType::get(ctx.getContext(), 64);
  Value indices;
  if (ElementsAttr known = ctx.constantInput(1)) {
    SmallVector<int64_t> selected;
    for (auto [i, v] : llvm::enumerate(readInts(known)))
      if (v)
        selected.push_back(i);
    int64_t count = selected.size();
    indices = ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get({count}, i64), ArrayRef<int64_t>(selected)));
  } else {
    Emitter b(ctx);
    Value rows = b.op<ArgWhereOp>({ctx.input(1)});
    indices = b.op<SqueezeOp>({rows}, {ctx.ints("axis", {1})});
    indices = b.op<CastOp>({indices}, {ctx.type("dtype", i64)});
    if (!b.succeeded())
      return failure();
  }
  return ctx.output(ctx.op<TakeOp>({data, indices}, {ctx.i64("axis", axis)}));
}

/// NonMaxSuppression: vision.all_class_non_max_suppression, whose first
/// `count` rows are the selected (batch, class, box) triples, sliced by
/// that count at run time (as TVM's ONNX frontend does). Boxes given by
/// centre and size (center_point_box = 1) are made corners first.
LogicalResult convertNonMaxSuppression(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 5)))
    return failure();
  int64_t center = ctx.attrInt("center_point_box", 0);
  if (center != 0 && center != 1)
    return ctx.fail("center_point_box must be 0 or 1, got " + Twine(center));
  if (ctx.rank(0) != 3 || ctx.rank(1) != 3)
    return ctx.fail("boxes must be (batch, boxes, 4) and scores (batch, "
                    "classes, boxes)");
  Type element = ctx.elementType(0);
  Type i64 = IntegerType::get(ctx.getContext(), 64);
  Emitter b(ctx);
  Value boxes = ctx.input(0);
  if (center == 1) {
    // [x, y, width, height] -> [y1, x1, y2, x2].
    SmallVector<Value> f = b.split(boxes, 4, 2);
    Value half = ctx.scalar(0.5, element);
    Value halfW = b.mul(f[2], half), halfH = b.mul(f[3], half);
    boxes = b.op<ConcatenateOp>(
        {ctx.tuple({b.op<SubtractOp>({f[1], halfH}),
                    b.op<SubtractOp>({f[0], halfW}), b.add(f[1], halfH),
                    b.add(f[0], halfW)})},
        {ctx.i64("axis", 2)});
    if (!b.succeeded())
      return failure();
  }
  Value maxBoxes = ctx.hasInput(2) ? ctx.input(2) : ctx.scalar(0, i64);
  Value iou = ctx.hasInput(3) ? ctx.input(3) : ctx.scalar(0, element);
  // Without a score threshold every box is a candidate.
  Value score =
      ctx.hasInput(4)
          ? ctx.input(4)
          : ctx.scalar(-std::numeric_limits<double>::infinity(), element);
  Value nms = b.op<AllClassNonMaxSuppressionOp>(
      {boxes, ctx.input(1), maxBoxes, iou, score}, {});
  Value zero = ctx.constant(i64Elements(ctx.getContext(), {1}, {0}));
  Value one = ctx.constant(i64Elements(ctx.getContext(), {1}, {1}));
  return b.output(b.op<DynStridedSliceOp>(
      {b.tupleGet(nms, 0), zero, b.tupleGet(nms, 1), one}, {}));
}

/// ReverseSequence: relay.reverse_sequence (each batch entry's first
/// sequence_lens[b] steps reversed, the lengths a run-time input).
LogicalResult convertReverseSequence(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  int64_t batchAxis = ctx.attrInt("batch_axis", 1),
          timeAxis = ctx.attrInt("time_axis", 0);
  if (!((batchAxis == 0 && timeAxis == 1) || (batchAxis == 1 && timeAxis == 0)))
    return ctx.fail("expects batch_axis and time_axis 0 and 1 (either way)");
  return ctx.output(ctx.op<ReverseSequenceOp>(
      {ctx.input(0), ctx.input(1)},
      {ctx.i64("seq_axis", timeAxis), ctx.i64("batch_axis", batchAxis)}));
}

} // namespace

void mlir::relay::onnx_import::addIndexingConverters(ConverterTable &t) {
  t["GatherND"] = convertGatherND;
  t["ScatterND"] = convertScatterND;
  t["ScatterElements"] = convertScatterElements;
  t["Scatter"] = convertScatterElements;
  t["TopK"] = convertTopK;
  t["NonZero"] = convertNonZero;
  t["Unique"] = convertUnique;
  t["Compress"] = convertCompress;
  t["NonMaxSuppression"] = convertNonMaxSuppression;
  t["ReverseSequence"] = convertReverseSequence;
}
