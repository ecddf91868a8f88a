//===- PadConverters.cpp - ONNX Pad and CenterCropPad ---------------------===//
//
// Pad (constant, reflect, edge and wrap modes; negative pads crop) and
// CenterCropPad, as Relay's nn.pad and strided_slice, or dyn.nn.pad when
// the pads are computed at run time.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/Emitter.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

/// `x` cropped by the negative values of `begins` and `ends` (one per axis)
/// and padded by the positive ones, with `mode` (constant with `value`,
/// reflect, edge or wrap): Pad's pads and CenterCropPad's. The crop comes
/// first, as onnxruntime's does, so the other modes pad from what is left.
LogicalResult cropAndPad(NodeContext &ctx, Value x, ArrayRef<int64_t> begins,
                         ArrayRef<int64_t> ends, StringRef mode, Value value) {
  Emitter b(ctx);
  ArrayRef<int64_t> shape = cast<RankedTensorType>(x.getType()).getShape();
  int64_t rank = shape.size();
  SmallVector<int64_t> from, to, cropped;
  SmallVector<int64_t> sizes(shape);
  for (int64_t d = 0; d < rank; ++d) {
    if (begins[d] >= 0 && ends[d] >= 0)
      continue;
    if (ShapedType::isDynamic(shape[d]))
      return ctx.fail("cropping axis " + Twine(d) +
                      " (negative pads) needs its size known when importing");
    int64_t first = std::max<int64_t>(-begins[d], 0);
    int64_t last = shape[d] - std::max<int64_t>(-ends[d], 0);
    if (first > last)
      return ctx.fail("the pads crop " + Twine(first + shape[d] - last) +
                      " from axis " + Twine(d) + " of size " + Twine(shape[d]));
    from.push_back(first);
    to.push_back(last);
    cropped.push_back(d);
    sizes[d] = last - first;
  }
  if (!cropped.empty())
    x = b.op<StridedSliceOp>({x}, {ctx.ints("begin", from), ctx.ints("end", to),
                                   ctx.ints("axes", cropped)});
  if (mode == "wrap") {
    // Wrapping repeats the axis: enough whole copies to cover both pads,
    // then the window that starts `before` ahead of the middle one.
    for (int64_t d = 0; d < rank; ++d) {
      int64_t before = std::max<int64_t>(begins[d], 0);
      int64_t after = std::max<int64_t>(ends[d], 0);
      if (before == 0 && after == 0)
        continue;
      int64_t n = sizes[d];
      if (ShapedType::isDynamic(n) || n == 0)
        return ctx.fail("wrap padding of axis " + Twine(d) +
                        " needs a nonempty size known when importing");
      int64_t copiesBefore = llvm::divideCeil(before, n);
      SmallVector<int64_t> reps(rank, 1);
      reps[d] = copiesBefore + 1 + llvm::divideCeil(after, n);
      x = b.op<TileOp>({x}, {ctx.ints("reps", reps)});
      int64_t first = copiesBefore * n - before;
      x = b.op<StridedSliceOp>({x},
                               {ctx.ints("begin", {first}),
                                ctx.ints("end", {first + before + n + after}),
                                ctx.ints("axes", {d})});
    }
    return b.output(x);
  }
  SmallVector<int64_t> width;
  for (int64_t d = 0; d < rank; ++d) {
    width.push_back(std::max<int64_t>(begins[d], 0));
    width.push_back(std::max<int64_t>(ends[d], 0));
  }
  if (llvm::any_of(width, [](int64_t w) { return w > 0; }))
    x = b.op<PadOp>({x, value},
                    {ctx.ints("pad_width", width), ctx.str("pad_mode", mode)});
  return b.output(x);
}

/// Pad whose `pads` are computed at run time: dyn.nn.pad of the pads as
/// (rank, 2) rows (ONNX lists the begins, then the ends); negative pads
/// (crops) are then an error when the program runs.
LogicalResult convertComputedPad(NodeContext &ctx) {
  int64_t rank = ctx.rank(0);
  if (ctx.rank(1) != 1 || !isa<IntegerType>(ctx.elementType(1)))
    return ctx.fail("pads (input #1) must be a 1-D integer tensor");
  std::string mode = ctx.attrString("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge")
    return ctx.fail("mode '" + mode +
                    "' needs pads known when importing (computed pads take "
                    "constant, reflect or edge)");
  Value value =
      ctx.hasInput(2) ? ctx.input(2) : ctx.scalar(0, ctx.elementType(0));
  FailureOr<Value> scalar = value;
  if (cast<RankedTensorType>(value.getType()).getRank() != 0)
    scalar = ctx.op<ReshapeOp>({value}, {ctx.ints("newshape", {})});
  FailureOr<Value> rows =
      ctx.op<ReshapeOp>({ctx.input(1)}, {ctx.ints("newshape", {2, rank})});
  if (succeeded(rows))
    rows = ctx.op<TransposeOp>({*rows}, {ctx.ints("axes", {1, 0})});
  if (failed(scalar) || failed(rows))
    return failure();
  return ctx.output(ctx.op<DynPadOp>({ctx.input(0), *rows, *scalar},
                                     {ctx.str("pad_mode", mode)}));
}

LogicalResult convertPad(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 4)))
    return failure();
  int64_t rank = ctx.rank(0);
  SmallVector<int64_t> pads;
  if (ctx.hasInput(1) && !ctx.constantInput(1) && !ctx.hasInput(3))
    return convertComputedPad(ctx);
  if (ctx.hasInput(1)) {
    FailureOr<SmallVector<int64_t>> p = ctx.constantInts(1, "pads");
    if (failed(p))
      return failure();
    pads = *p;
  } else {
    // Opset 1 names the attribute `paddings`.
    pads = ctx.attrInts(ctx.getOpset() < 2 ? "paddings" : "pads");
  }
  if (ctx.hasInput(3)) {
    // Opset 18's `axes`: the pads are those of these axes (begins, then
    // ends), the other axes unpadded.
    FailureOr<SmallVector<int64_t>> axes = ctx.constantInts(3, "axes");
    if (failed(axes))
      return failure();
    if (pads.size() != 2 * axes->size())
      return ctx.fail("pads needs " + Twine(2 * axes->size()) +
                      " values for the " + Twine(axes->size()) + " axes");
    FailureOr<SmallVector<int64_t>> normalised = ctx.distinctAxes(*axes, rank);
    if (failed(normalised))
      return failure();
    SmallVector<int64_t> all(2 * rank, 0);
    for (auto [i, axis] : llvm::enumerate(*normalised)) {
      all[axis] = pads[i];
      all[axis + rank] = pads[i + axes->size()];
    }
    pads = all;
  }
  if (static_cast<int64_t>(pads.size()) != 2 * rank)
    return ctx.fail("pads needs " + Twine(2 * rank) + " values");
  std::string mode = ctx.attrString("mode", "constant");
  bool wrap = ctx.getOpset() >= 19;
  if (mode != "constant" && mode != "reflect" && mode != "edge" &&
      (!wrap || mode != "wrap"))
    return ctx.fail("unknown mode '" + mode + "' (expected constant, " +
                    (wrap ? "reflect, edge or wrap)" : "reflect or edge)"));
  Value value = ctx.hasInput(2)
                    ? ctx.input(2)
                    : ctx.scalar(ctx.attrFloat("value", 0), ctx.elementType(0));
  if (cast<RankedTensorType>(value.getType()).getRank() != 0) {
    FailureOr<Value> v = ctx.op<ReshapeOp>({value}, {ctx.ints("newshape", {})});
    if (failed(v))
      return failure();
    value = *v;
  }
  return cropAndPad(ctx, ctx.input(0), ArrayRef(pads).take_front(rank),
                    ArrayRef(pads).drop_front(rank), mode, value);
}

/// CenterCropPad (opset 18): each of `axes` (all by default) cropped or
/// padded with zeros to its size in `shape`, centred: the larger half of
/// the difference at the end.
LogicalResult convertCenterCropPad(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  FailureOr<SmallVector<int64_t>> sizes = ctx.constantInts(1, "shape");
  if (failed(sizes))
    return failure();
  int64_t rank = ctx.rank(0);
  SmallVector<int64_t> axes = ctx.attrInts("axes");
  if (!ctx.hasAttr("axes"))
    axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  if (sizes->size() != axes.size())
    return ctx.fail("shape needs " + Twine(axes.size()) +
                    " values, one per axis, got " + Twine(sizes->size()));
  FailureOr<SmallVector<int64_t>> normalised = ctx.distinctAxes(axes, rank);
  if (failed(normalised))
    return failure();
  SmallVector<int64_t> begins(rank, 0), ends(rank, 0);
  for (auto [axis, size] : llvm::zip(*normalised, *sizes)) {
    int64_t n = ctx.shape(0)[axis];
    if (ShapedType::isDynamic(n))
      return ctx.fail("axis " + Twine(axis) +
                      " of the input must have a size known when importing");
    if (size < 0)
      return ctx.fail("shape must not be negative, got " + Twine(size));
    // Growing by d pads d / 2 before; shrinking by d crops d / 2 before.
    int64_t grow = size - n;
    int64_t before = grow >= 0 ? grow / 2 : -((-grow) / 2);
    begins[axis] = before;
    ends[axis] = grow - before;
  }
  return cropAndPad(ctx, ctx.input(0), begins, ends, "constant",
                    ctx.scalar(0, ctx.elementType(0)));
}

} // namespace

void mlir::relay::onnx_import::addPadConverters(ConverterTable &t) {
  t["Pad"] = convertPad;
  t["CenterCropPad"] = convertCenterCropPad;
}
