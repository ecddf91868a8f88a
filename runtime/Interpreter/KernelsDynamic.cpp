//===- KernelsDynamic.cpp - Kernels of shapes from values -------*- C++ -*-===//
//
// The operators whose result shape their operands' values decide
// (RelayDynamicOperators.td): their relations leave those sizes `?`, so
// each kernel computes its result's shape, checks it (negative sizes,
// elements that do not match, more than this machine's memory: a located
// error, never an abort) and fills it.
//
//===----------------------------------------------------------------------===//

#include "runtime/Interpreter/Kernels.h"

#include "dialects/relay/ResizeSampling.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

/// A tensor of `shape` and `elementType`, or a reported failure when the
/// shape is negative or larger than this machine's memory.
static FailureOr<Tensor> allocate(const KernelContext &ctx, Type elementType,
                                  ArrayRef<int64_t> shape) {
  int64_t bytes = sizeof(double);
  for (int64_t d : shape) {
    if (d < 0)
      return ctx.emitError() << "computed a negative size " << d
                             << " in the shape [" << shape << "]";
    if (__builtin_mul_overflow(bytes, d, &bytes) ||
        bytes > physicalMemoryBytes())
      return ctx.emitError()
             << "the result of shape [" << shape
             << "] needs more than this machine's memory ("
             << physicalMemoryBytes() << " bytes) in the interpreter";
  }
  return Tensor(elementType, shape);
}

/// The integers of operand #i.
static SmallVector<int64_t> ints(const KernelContext &ctx, unsigned i) {
  const Tensor &t = ctx.input(i);
  SmallVector<int64_t> values;
  for (int64_t k = 0; k < t.getNumElements(); ++k)
    values.push_back(t.getI(k));
  return values;
}

/// The element type of the (single tensor) result.
static Type resultElementType(const KernelContext &ctx) {
  return ctx.resultTensorType().getElementType();
}

/// dyn.reshape: `0` copies the input's dimension (unless allowzero), one
/// `-1` takes what is left.
static FailureOr<ValuePtr> dynReshapeKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  SmallVector<int64_t> shape = ints(ctx, 1);
  bool allowZero = ctx.getBool("allowzero", false);
  int64_t known = 1, inferred = -1;
  for (auto [d, size] : llvm::enumerate(shape)) {
    if (size == 0 && !allowZero) {
      if (static_cast<int64_t>(d) >= in.getRank())
        return ctx.emitError()
               << "newshape [" << shape << "] copies dimension " << d
               << " of a rank-" << in.getRank() << " input";
      size = in.getShape()[d];
    }
    if (size == -1) {
      if (inferred >= 0)
        return ctx.emitError()
               << "newshape [" << shape << "] has more than one -1";
      inferred = d;
      continue;
    }
    if (size < 0)
      return ctx.emitError()
             << "newshape [" << shape << "] has the size " << size;
    known *= size;
  }
  if (inferred >= 0) {
    if (known == 0 || in.getNumElements() % known != 0)
      return ctx.emitError() << "cannot infer the -1 of newshape [" << shape
                             << "] for " << in.getNumElements() << " elements";
    shape[inferred] = in.getNumElements() / known;
    known *= shape[inferred];
  }
  if (known != in.getNumElements())
    return ctx.emitError() << "cannot reshape " << in.getNumElements()
                           << " elements of shape [" << in.getShape()
                           << "] to [" << shape << "]";
  return RuntimeValue::tensor(in.reshaped(shape));
}

/// dyn.full: the fill value over the shape operand's sizes.
static FailureOr<ValuePtr> dynFullKernel(const KernelContext &ctx) {
  const Tensor &fill = ctx.input(0);
  FailureOr<Tensor> out = allocate(ctx, resultElementType(ctx), ints(ctx, 1));
  if (failed(out))
    return failure();
  for (int64_t k = 0; k < out->getNumElements(); ++k) {
    if (fill.isFloat() || out->isFloat())
      out->setF(k, fill.getF(0));
    else
      out->setI(k, fill.getI(0));
  }
  return RuntimeValue::tensor(std::move(*out));
}

/// The `k` first elements of `ctx`'s first operand along its `axis`
/// attribute, largest first (smallest with is_ascend; NaN above every
/// number; equal elements in their order), as `ret` says: "values", "indices"
/// (of `ctx`'s dtype attribute, else int32) or "both". `k` < 1 takes them all.
static FailureOr<ValuePtr> sortedAlongAxis(const KernelContext &ctx, int64_t k,
                                           bool ascendByDefault,
                                           StringRef ret) {
  const Tensor &in = ctx.input(0);
  int64_t rank = in.getRank();
  int64_t axis = ctx.getInt("axis", -1);
  if (axis < 0)
    axis += rank;
  int64_t n = in.getShape()[axis];
  if (k < 1)
    k = n;
  if (k > n)
    return ctx.emitError() << "k = " << k << " exceeds the axis size " << n;
  bool ascend = ctx.getBool("is_ascend", ascendByDefault);
  Type indexType = IntegerType::get(ctx.op->getContext(), 32);
  if (auto t = dyn_cast_or_null<TypeAttr>(ctx.attrs.get("dtype")))
    indexType = t.getValue();
  SmallVector<int64_t> shape(in.getShape());
  shape[axis] = k;
  Tensor values(in.getElementType(), shape), indices(indexType, shape);
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < rank; ++d)
    inner *= in.getShape()[d];
  int64_t outer = in.getNumElements() / std::max<int64_t>(n * inner, 1);
  std::vector<int64_t> order(n);
  std::vector<double> keys(n);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t j = 0; j < n; ++j)
        keys[j] = in.getF((o * n + j) * inner + i);
      std::iota(order.begin(), order.end(), 0);
      // NaN above every number, as the decompositions order it; equal
      // values keep their order (the index breaks ties: a total order, so
      // the first k of a partial sort are the full sort's).
      auto above = [](double x, double y) {
        if (std::isnan(x))
          return !std::isnan(y);
        return !std::isnan(y) && x > y;
      };
      auto before = [&](int64_t a, int64_t b) {
        double x = keys[a], y = keys[b];
        if (above(x, y))
          return !ascend;
        if (above(y, x))
          return ascend;
        return a < b;
      };
      if (k < n)
        std::partial_sort(order.begin(), order.begin() + k, order.end(),
                          before);
      else
        std::sort(order.begin(), order.end(), before);
      for (int64_t j = 0; j < k; ++j) {
        int64_t to = (o * k + j) * inner + i;
        copyElement(in, (o * n + order[j]) * inner + i, values, to);
        indices.setI(to, order[j]);
      }
    }
  if (ret == "values")
    return RuntimeValue::tensor(std::move(values));
  if (ret == "indices")
    return RuntimeValue::tensor(std::move(indices));
  return RuntimeValue::tuple({RuntimeValue::tensor(std::move(values)),
                              RuntimeValue::tensor(std::move(indices))});
}

/// dyn.topk: topk with k from an operand.
static FailureOr<ValuePtr> dynTopKKernel(const KernelContext &ctx) {
  return sortedAlongAxis(ctx, ctx.input(1).getI(0), /*ascendByDefault=*/false,
                         ctx.getString("ret_type", "both"));
}

/// topk, argsort and sort: their decompositions (rounds of max and first
/// position, or a bitonic network) give the same order, as thousands of
/// operators for a long axis; these sort.
static FailureOr<ValuePtr> topKKernel(const KernelContext &ctx) {
  return sortedAlongAxis(ctx, ctx.getInt("k", 1), /*ascendByDefault=*/false,
                         ctx.getString("ret_type", "both"));
}

static FailureOr<ValuePtr> argsortKernel(const KernelContext &ctx) {
  return sortedAlongAxis(ctx, 0, /*ascendByDefault=*/true, "indices");
}

static FailureOr<ValuePtr> sortKernel(const KernelContext &ctx) {
  return sortedAlongAxis(ctx, 0, /*ascendByDefault=*/true, "values");
}

/// `in`, as of `inShape` (its shape with leading 1s), repeated along each
/// axis to `shape` (a multiple of it): element i of an axis reads i modulo
/// the input's size there.
static FailureOr<ValuePtr> repeated(const KernelContext &ctx, const Tensor &in,
                                    ArrayRef<int64_t> inShape,
                                    ArrayRef<int64_t> shape) {
  FailureOr<Tensor> out = allocate(ctx, in.getElementType(), shape);
  if (failed(out))
    return failure();
  Tensor padded = in.reshaped(inShape);
  SmallVector<int64_t> strides = padded.strides();
  for (int64_t k = 0; k < out->getNumElements(); ++k) {
    SmallVector<int64_t> idx = unravel(k, shape);
    int64_t from = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      from += (idx[d] % inShape[d]) * strides[d];
    copyElement(padded, from, *out, k);
  }
  return RuntimeValue::tensor(std::move(*out));
}

/// dyn.tile: numpy.tile (a shorter `reps` or shape padded with leading 1s).
static FailureOr<ValuePtr> dynTileKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  SmallVector<int64_t> reps = ints(ctx, 1);
  int64_t rank = std::max<int64_t>(reps.size(), in.getRank());
  SmallVector<int64_t> inShape(rank - in.getRank(), 1);
  llvm::append_range(inShape, in.getShape());
  reps.insert(reps.begin(), rank - reps.size(), 1);
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (reps[d] < 0)
      return ctx.emitError()
             << "repetitions [" << reps << "] must not be negative";
    shape.push_back(inShape[d] * reps[d]);
  }
  return repeated(ctx, in, inShape, shape);
}

/// dyn.broadcast_to: numpy.broadcast_to, the data's sizes aligned with the
/// shape operand's at the end, a size of 1 repeated.
static FailureOr<ValuePtr> dynBroadcastToKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  SmallVector<int64_t> shape = ints(ctx, 1);
  // (The type relation has made the shape at least as long as the data's.)
  int64_t rank = shape.size();
  SmallVector<int64_t> inShape(rank - in.getRank(), 1);
  llvm::append_range(inShape, in.getShape());
  for (int64_t d = 0; d < rank; ++d)
    if (inShape[d] != shape[d] && inShape[d] != 1)
      return ctx.emitError()
             << "cannot broadcast data of shape [" << in.getShape()
             << "] to the shape [" << shape << "]: dimension " << d
             << " has size " << inShape[d] << ", expected 1 or " << shape[d];
  return repeated(ctx, in, inShape, shape);
}

/// collapse_sum_to: the data summed over the axes broadcasting adds to go
/// from the shape the second operand gives (which the shape attribute, when
/// present, also gives). The static case compiles through the
/// decomposition; the kernel serves shapes known only at run time.
static FailureOr<ValuePtr> collapseSumToKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  SmallVector<int64_t> to = ints(ctx, 1);
  ArrayRef<int64_t> from = in.getShape();
  int64_t extra = static_cast<int64_t>(from.size() - to.size());
  bool fits = extra >= 0;
  for (int64_t i = 0; fits && i < static_cast<int64_t>(to.size()); ++i)
    fits = to[i] == from[i + extra] || to[i] == 1;
  if (!fits)
    return ctx.emitError() << "cannot collapse a tensor of shape [" << from
                           << "] to [" << to << "]";
  SmallVector<int64_t> attr = ctx.getInts("shape");
  if (ctx.attrs.get("shape") && ArrayRef<int64_t>(attr) != ArrayRef(to))
    return ctx.emitError() << "the shape operand [" << to
                           << "] differs from the shape attribute [" << attr
                           << "]";
  SmallVector<int64_t> axes, kept(from);
  for (int64_t i = 0; i < static_cast<int64_t>(from.size()); ++i)
    if (i < extra || (to[i - extra] == 1 && from[i] != 1)) {
      axes.push_back(i);
      kept[i] = 1;
    }
  if (axes.empty())
    return RuntimeValue::tensor(in.reshaped(to));
  MLIRContext *mctx = ctx.op->getContext();
  Builder b(mctx);
  NamedAttrList attrs;
  attrs.set("axis", b.getDenseI64ArrayAttr(axes));
  attrs.set("keepdims", b.getBoolAttr(true));
  FailureOr<ValuePtr> sum =
      callKernel("sum", ctx, {ctx.operands[0]},
                 RankedTensorType::get(kept, in.getElementType()),
                 attrs.getDictionary(mctx));
  if (failed(sum))
    return failure();
  return RuntimeValue::tensor((*sum)->getTensor().reshaped(to));
}

/// dyn.strided_slice: numpy's slicing of the leading axes, bounds clamped
/// as numpy clamps them.
static FailureOr<ValuePtr> dynStridedSliceKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  SmallVector<int64_t> begin = ints(ctx, 1), end = ints(ctx, 2),
                       strides = ints(ctx, 3);
  bool sizeMode = ctx.getString("slice_mode", "end") == "size";
  int64_t rank = in.getRank();
  SmallVector<int64_t> first(rank, 0), step(rank, 1),
      shape(in.getShape().begin(), in.getShape().end());
  for (int64_t d = 0; d < static_cast<int64_t>(begin.size()) && d < rank; ++d) {
    int64_t n = in.getShape()[d];
    int64_t s = d < static_cast<int64_t>(strides.size()) ? strides[d] : 1;
    if (s == 0)
      return ctx.emitError() << "the step along axis " << d << " is 0";
    if (sizeMode)
      s = 1;
    int64_t b = begin[d] < 0 ? begin[d] + n : begin[d];
    int64_t e = n;
    if (d < static_cast<int64_t>(end.size())) {
      if (sizeMode)
        e = end[d] < 0 ? n : b + end[d];
      else
        e = end[d] < 0 ? end[d] + n : end[d];
    } else if (s < 0) {
      e = -1;
    }
    int64_t len;
    if (s > 0) {
      b = std::clamp<int64_t>(b, 0, n);
      e = std::clamp<int64_t>(e, 0, n);
      len = e > b ? (e - b + s - 1) / s : 0;
    } else {
      b = std::clamp<int64_t>(b, -1, n - 1);
      // A negative end given as such (numpy's -n-1 and below) stays
      // before the first element.
      e = std::clamp<int64_t>(e, -1, n - 1);
      len = b > e ? (b - e + (-s) - 1) / (-s) : 0;
    }
    first[d] = b;
    step[d] = s;
    shape[d] = len;
  }
  FailureOr<Tensor> out = allocate(ctx, in.getElementType(), shape);
  if (failed(out))
    return failure();
  SmallVector<int64_t> inStrides = in.strides();
  for (int64_t k = 0; k < out->getNumElements(); ++k) {
    SmallVector<int64_t> idx = unravel(k, shape);
    int64_t from = 0;
    for (int64_t d = 0; d < rank; ++d)
      from += (first[d] + idx[d] * step[d]) * inStrides[d];
    copyElement(in, from, *out, k);
  }
  return RuntimeValue::tensor(std::move(*out));
}

/// arange: start + i * step for i below ceil((stop - start) / step).
static FailureOr<ValuePtr> arangeKernel(const KernelContext &ctx) {
  Type dtype = resultElementType(ctx);
  bool integral = isa<IntegerType>(dtype) && !ctx.input(0).isFloat() &&
                  !ctx.input(1).isFloat() && !ctx.input(2).isFloat();
  double start = ctx.input(0).getF(0), stop = ctx.input(1).getF(0),
         step = ctx.input(2).getF(0);
  if (step == 0)
    return ctx.emitError() << "the step is 0";
  double count = std::ceil((stop - start) / step);
  if (!(count < 9.0e18))
    return ctx.emitError() << "arange(" << start << ", " << stop << ", " << step
                           << ") has too many elements";
  int64_t n = std::max<int64_t>(0, static_cast<int64_t>(count));
  FailureOr<Tensor> out = allocate(ctx, dtype, {n});
  if (failed(out))
    return failure();
  int64_t istart = ctx.input(0).getI(0), istep = ctx.input(2).getI(0);
  for (int64_t i = 0; i < n; ++i) {
    if (integral)
      out->setI(i, istart + i * istep);
    else
      out->setF(i, start + i * step);
  }
  return RuntimeValue::tensor(std::move(*out));
}

/// A box by its ordered corners (from opposite corners, [y1, x1, y2, x2],
/// either diagonal) and its area.
struct NmsBox {
  double y1, x1, y2, x2, area;
};

static NmsBox nmsBox(const Tensor &boxes, int64_t box) {
  double y1 = boxes.getF(box * 4), x1 = boxes.getF(box * 4 + 1),
         y2 = boxes.getF(box * 4 + 2), x2 = boxes.getF(box * 4 + 3);
  NmsBox b{std::min(y1, y2), std::min(x1, x2), std::max(y1, y2),
           std::max(x1, x2), 0};
  b.area = (b.y2 - b.y1) * (b.x2 - b.x1);
  return b;
}

/// The intersection over union of two boxes; 0 when either has no area.
static double intersectionOverUnion(const NmsBox &p, const NmsBox &q) {
  if (p.area <= 0 || q.area <= 0)
    return 0;
  double h = std::max(0.0, std::min(p.y2, q.y2) - std::max(p.y1, q.y1));
  double w = std::max(0.0, std::min(p.x2, q.x2) - std::max(p.x1, q.x1));
  double inter = h * w;
  return inter / (p.area + q.area - inter);
}

namespace {
/// The kept boxes of one class, bucketed by their left edge in buckets as
/// wide as the class's widest candidate: a box overlapping a candidate
/// along x has its left edge at most that width before the candidate's,
/// so the candidate meets only the boxes of two or three buckets, each
/// scanned in a tight loop (a tree ordered by left edge was walked node
/// by node: a fifth of SSDlite's run, whose classes keep hundreds each).
class KeptBoxes {
public:
  /// Buckets of `width` (> 0).
  void reset(double bucketWidth) {
    width = bucketWidth;
    buckets.clear();
  }
  /// The bucket of `x`; nullopt where it is too far out for an integer
  /// key (the caller then compares with every kept box).
  std::optional<int64_t> bucketOf(double x) const {
    double k = std::floor(x / width);
    if (!(std::abs(k) < 1e15))
      return std::nullopt;
    return static_cast<int64_t>(k);
  }
  void add(const NmsBox &box, int64_t bucket) {
    buckets[bucket].push_back(box);
  }
  /// Whether a kept box overlaps `box` by more than `threshold` (IoU).
  bool suppresses(const NmsBox &box, int64_t first, int64_t last,
                  double threshold) const {
    for (auto it = buckets.lower_bound(first);
         it != buckets.end() && it->first <= last; ++it)
      for (const NmsBox &kept : it->second)
        if (intersectionOverUnion(box, kept) > threshold)
          return true;
    return false;
  }

private:
  double width = 1;
  std::map<int64_t, std::vector<NmsBox>> buckets;
};
} // namespace

/// vision.all_class_non_max_suppression in ONNX's form: per batch and
/// class, boxes above the score threshold by descending score (equal
/// scores by index), each dropping later ones overlapping it by more than
/// the IoU threshold, at most max_output_boxes_per_class.
static FailureOr<ValuePtr> allClassNmsKernel(const KernelContext &ctx) {
  const Tensor &boxes = ctx.input(0), &scores = ctx.input(1);
  int64_t maxOut = ctx.input(2).getI(0);
  double iouThreshold = ctx.input(3).getF(0);
  double scoreThreshold = ctx.input(4).getF(0);
  int64_t batches = scores.getShape()[0], classes = scores.getShape()[1],
          count = scores.getShape()[2];
  if (iouThreshold < 0 || iouThreshold > 1)
    return ctx.emitError() << "iou_threshold " << iouThreshold
                           << " is not in [0, 1]";
  Type i64 = IntegerType::get(ctx.op->getContext(), 64);
  FailureOr<Tensor> selected =
      allocate(ctx, i64, {batches * classes * count, 3});
  if (failed(selected))
    return failure();
  int64_t rows = 0;
  std::vector<int64_t> order, kept;
  // Each box's corners and area, and each class's scores, read once.
  std::vector<NmsBox> batchBoxes(count);
  std::vector<double> classScores(count);
  KeptBoxes keptByLeft;
  for (int64_t b = 0; b < batches; ++b) {
    // Kept boxes are looked up by their left edge (below) unless a
    // coordinate is NaN or infinite, which orders nothing.
    bool byLeftEdge = true;
    for (int64_t i = 0; i < count; ++i) {
      batchBoxes[i] = nmsBox(boxes, b * count + i);
      const NmsBox &box = batchBoxes[i];
      byLeftEdge &= std::isfinite(box.x1) && std::isfinite(box.x2) &&
                    std::isfinite(box.y1) && std::isfinite(box.y2);
    }
    for (int64_t c = 0; c < classes; ++c) {
      int64_t base = (b * classes + c) * count;
      order.clear();
      for (int64_t i = 0; i < count; ++i) {
        classScores[i] = scores.getF(base + i);
        if (classScores[i] > scoreThreshold)
          order.push_back(i);
      }
      std::sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
        double sx = classScores[x], sy = classScores[y];
        return sx != sy ? sx > sy : x < y;
      });
      kept.clear();
      // Only a kept box that overlaps a candidate can suppress it (IoU >
      // threshold >= 0 needs a positive intersection), and one that
      // overlaps it along x has its left edge less than the widest box's
      // width before the candidate's left edge and before its right edge:
      // kept boxes of positive area by their left edge (KeptBoxes), so
      // that the class-offset boxes of a batched NMS (27,000 boxes, 18,000
      // kept, in SSDlite) meet only their neighbours instead of every kept
      // box.
      double widest = 0;
      for (int64_t i : order)
        widest = std::max(widest, batchBoxes[i].x2 - batchBoxes[i].x1);
      // Widened by a few ulps: a width summed back may round.
      widest += widest * 1e-12;
      bool bucketed = byLeftEdge;
      keptByLeft.reset(widest > 0 ? widest : 1);
      for (int64_t i : order) {
        if (static_cast<int64_t>(kept.size()) >= maxOut)
          break;
        const NmsBox &box = batchBoxes[i];
        std::optional<int64_t> first = keptByLeft.bucketOf(box.x1 - widest),
                               last = keptByLeft.bucketOf(box.x2);
        if (bucketed && (!first || !last)) {
          // Out of the buckets' range: every kept box from here on.
          bucketed = false;
        }
        bool suppressed = false;
        if (!bucketed) {
          suppressed = llvm::any_of(kept, [&](int64_t j) {
            return intersectionOverUnion(box, batchBoxes[j]) > iouThreshold;
          });
        } else if (box.area > 0) {
          suppressed = keptByLeft.suppresses(box, *first, *last, iouThreshold);
        }
        if (suppressed)
          continue;
        kept.push_back(i);
        if (bucketed && box.area > 0)
          keptByLeft.add(box, *keptByLeft.bucketOf(box.x1));
        selected->setI(rows * 3, b);
        selected->setI(rows * 3 + 1, c);
        selected->setI(rows * 3 + 2, i);
        ++rows;
      }
    }
  }
  Tensor total(i64, {1});
  total.setI(0, rows);
  return RuntimeValue::tuple({RuntimeValue::tensor(std::move(*selected)),
                              RuntimeValue::tensor(std::move(total))});
}

/// `in` resized along `axis` to `outLen` by `taps` (output j of the axis
/// sums weights[j] * the input at indices[j] over the taps), into a tensor
/// of `elementType`.
static FailureOr<Tensor> resizeAlong(const KernelContext &ctx, const Tensor &in,
                                     int64_t axis, ArrayRef<ResizeTap> taps,
                                     int64_t outLen, Type elementType) {
  ArrayRef<int64_t> shape = in.getShape();
  int64_t outer = 1, inner = 1, n = shape[axis];
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (int64_t d = axis + 1; d < in.getRank(); ++d)
    inner *= shape[d];
  SmallVector<int64_t> outShape(shape);
  outShape[axis] = outLen;
  FailureOr<Tensor> out = allocate(ctx, elementType, outShape);
  if (failed(out))
    return failure();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < outLen; ++j)
      for (int64_t i = 0; i < inner; ++i) {
        double sum = 0;
        for (const ResizeTap &t : taps)
          sum += t.weights[j] * in.getF((o * n + t.indices[j]) * inner + i);
        out->setF((o * outLen + j) * inner + i, sum);
      }
  return out;
}

FailureOr<ValuePtr> mlir::relay::interp::resizeAxes(
    const KernelContext &ctx, const Tensor &in, ArrayRef<int64_t> axes,
    ArrayRef<int64_t> sizes, StringRef method, StringRef coords,
    StringRef rounding, double alpha, bool exclude) {
  if (rounding.empty())
    rounding = coords == "align_corners" ? "round" : "floor";
  Type f64 = Float64Type::get(ctx.op->getContext());
  Tensor at = in;
  for (auto [i, axis] : llvm::enumerate(axes)) {
    SmallVector<ResizeTap> taps =
        resizeTaps(at.getShape()[axis], sizes[i], method, coords, rounding,
                   alpha, exclude, std::nullopt);
    bool last = i + 1 == axes.size();
    FailureOr<Tensor> next = resizeAlong(ctx, at, axis, taps, sizes[i],
                                         last ? resultElementType(ctx) : f64);
    if (failed(next))
      return failure();
    at = std::move(*next);
  }
  return RuntimeValue::tensor(std::move(at));
}

/// dyn.image.resize2d: image.resize2d's taps for the size the operand
/// gives, the rows resized first, then the columns (where the layout puts
/// them).
static FailureOr<ValuePtr> dynResize2dKernel(const KernelContext &ctx) {
  SmallVector<int64_t> size = ints(ctx, 1);
  if (size.size() != 2 || size[0] <= 0 || size[1] <= 0)
    return ctx.emitError() << "the size [" << size
                           << "] must be two positive values (height, width)";
  // The relation has checked the layout.
  return resizeAxes(
      ctx, ctx.input(0), *getResizedAxes(ctx.getString("layout", ""), 2), size,
      ctx.getString("method", "linear"),
      ctx.getString("coordinate_transformation_mode", "half_pixel"),
      ctx.getString("rounding_method", "round"),
      ctx.getFloat("cubic_alpha", -0.5), ctx.getInt("cubic_exclude", 0) != 0);
}

/// An upsampled size as nn.upsampling's relation computes it:
/// round(size * scale) in float32, half to even; fails (reported) unless
/// the scale is positive and leaves at least one element.
static FailureOr<int64_t> upsampledSize(const KernelContext &ctx, int64_t size,
                                        double scale, StringRef name) {
  std::string shown;
  llvm::raw_string_ostream(shown) << llvm::format("%g", scale);
  if (!(scale > 0))
    return ctx.emitError() << name << " " << shown << " must be positive";
  double scaled =
      std::nearbyint(static_cast<float>(size) * static_cast<float>(scale));
  if (!(scaled >= 1) || scaled > static_cast<double>(INT64_MAX / 2))
    return ctx.emitError() << name << " " << shown << " scales a size of "
                           << size << " to "
                           << (scaled < 1 ? "no elements" : "too many");
  return static_cast<int64_t>(scaled);
}

/// dyn.nn.upsampling: nn.upsampling's kernel for the scales the operands
/// give.
static FailureOr<ValuePtr> dynUpSamplingKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  StringRef layout = ctx.getString("layout", "NCHW");
  double scaleH = ctx.input(1).getF(0), scaleW = ctx.input(2).getF(0);
  SmallVector<int64_t> shape(in.getShape());
  for (auto [axis, scale, name] : {std::tuple('H', scaleH, "scale_h"),
                                   std::tuple('W', scaleW, "scale_w")}) {
    int64_t d = layout.find(axis);
    FailureOr<int64_t> size = upsampledSize(ctx, shape[d], scale, name);
    if (failed(size))
      return failure();
    shape[d] = *size;
  }
  if (failed(allocate(ctx, in.getElementType(), shape)))
    return failure();
  MLIRContext *mctx = ctx.op->getContext();
  Builder b(mctx);
  NamedAttrList attrs(ctx.attrs);
  attrs.set("scale_h", b.getF64FloatAttr(scaleH));
  attrs.set("scale_w", b.getF64FloatAttr(scaleW));
  return callKernel("nn.upsampling", ctx, {ctx.operands[0]},
                    RankedTensorType::get(shape, in.getElementType()),
                    attrs.getDictionary(mctx));
}

/// dyn.nn.upsampling3d: nn.upsampling3d as its decomposition computes it
/// (image.resize3d's taps to the scaled sizes), for the scales the
/// operands give.
static FailureOr<ValuePtr> dynUpSampling3DKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  StringRef layout = ctx.getString("layout", "NCDHW");
  static const char *const names[] = {"scale_d", "scale_h", "scale_w"};
  SmallVector<int64_t> axes, sizes;
  for (auto [i, axis] : llvm::enumerate(StringRef("DHW"))) {
    int64_t d = layout.find(axis);
    FailureOr<int64_t> size = upsampledSize(ctx, in.getShape()[d],
                                            ctx.input(i + 1).getF(0), names[i]);
    if (failed(size))
      return failure();
    axes.push_back(d);
    sizes.push_back(*size);
  }
  StringRef method = ctx.getString("method", "nearest_neighbor");
  return resizeAxes(
      ctx, in, axes, sizes,
      method == "trilinear" ? "linear" : "nearest_neighbor",
      ctx.getString("coordinate_transformation_mode", "half_pixel"), "",
      /*alpha=*/-0.5, /*exclude=*/false);
}

/// dyn.nn.pad: nn.pad's kernel for the widths the operand gives (a
/// (before, after) row per axis, none negative).
static FailureOr<ValuePtr> dynPadKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  SmallVector<int64_t> width = ints(ctx, 1);
  if (static_cast<int64_t>(width.size()) != 2 * in.getRank())
    return ctx.emitError() << "pad_width has " << width.size()
                           << " values for a rank-" << in.getRank()
                           << " tensor (a before and an after per axis)";
  SmallVector<int64_t> shape(in.getShape());
  for (int64_t d = 0; d < in.getRank(); ++d) {
    if (width[2 * d] < 0 || width[2 * d + 1] < 0)
      return ctx.emitError()
             << "pad_width [" << width << "] has a negative width for axis "
             << d << " (padding does not crop)";
    if (__builtin_add_overflow(shape[d], width[2 * d], &shape[d]) ||
        __builtin_add_overflow(shape[d], width[2 * d + 1], &shape[d]))
      return ctx.emitError() << "pad_width [" << width << "] overflows";
  }
  StringRef mode = ctx.getString("pad_mode", "constant");
  if (mode == "reflect")
    for (int64_t d = 0; d < in.getRank(); ++d)
      if (in.getShape()[d] < 2 && (width[2 * d] > 0 || width[2 * d + 1] > 0))
        return ctx.emitError()
               << "cannot reflect-pad axis " << d << " of " << in.getShape()[d]
               << " elements (it needs at least 2)";
  if (failed(allocate(ctx, in.getElementType(), shape)))
    return failure();
  MLIRContext *mctx = ctx.op->getContext();
  NamedAttrList attrs(ctx.attrs);
  attrs.set("pad_width", DenseI64ArrayAttr::get(mctx, width));
  return callKernel("nn.pad", ctx, {ctx.operands[0], ctx.operands[2]},
                    RankedTensorType::get(shape, in.getElementType()),
                    attrs.getDictionary(mctx));
}

/// dyn.squeeze: drops the size-1 axes the operand names.
static FailureOr<ValuePtr> dynSqueezeKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  int64_t rank = in.getRank();
  SmallVector<bool> dropped(rank, false);
  for (int64_t axis : ints(ctx, 1)) {
    int64_t a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank)
      return ctx.emitError() << "axis " << axis << " is out of range for a "
                             << "rank-" << rank << " tensor";
    if (dropped[a])
      return ctx.emitError() << "axis " << axis << " is named twice";
    if (in.getShape()[a] != 1)
      return ctx.emitError()
             << "cannot squeeze axis " << axis << " of size "
             << in.getShape()[a] << " (shape [" << in.getShape() << "])";
    dropped[a] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d)
    if (!dropped[d])
      shape.push_back(in.getShape()[d]);
  return RuntimeValue::tensor(in.reshaped(shape));
}

/// dyn.expand_dims: num_newaxis size-1 axes at the axis the operand gives.
static FailureOr<ValuePtr> dynExpandDimsKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  int64_t rank = in.getRank(), axis = ctx.input(1).getI(0);
  int64_t a = axis < 0 ? axis + rank + 1 : axis;
  if (a < 0 || a > rank)
    return ctx.emitError() << "axis " << axis << " is out of range ["
                           << -rank - 1 << ", " << rank << "] for a rank-"
                           << rank << " tensor";
  SmallVector<int64_t> shape(in.getShape());
  shape.insert(shape.begin() + a, ctx.getInt("num_newaxis", 1), 1);
  return RuntimeValue::tensor(in.reshaped(shape));
}

/// dyn.one_hot: on_value where an index equals the position along the new
/// axis (of the depth the operand gives), off_value elsewhere.
static FailureOr<ValuePtr> dynOneHotKernel(const KernelContext &ctx) {
  const Tensor &indices = ctx.input(0), &on = ctx.input(1), &off = ctx.input(2);
  int64_t depth = ctx.input(3).getI(0);
  if (depth <= 0)
    return ctx.emitError() << "depth " << depth << " must be positive";
  int64_t rank = indices.getRank() + 1, axis = ctx.getInt("axis", -1);
  if (axis < 0)
    axis += rank;
  SmallVector<int64_t> shape(indices.getShape());
  shape.insert(shape.begin() + axis, depth);
  FailureOr<Tensor> out = allocate(ctx, resultElementType(ctx), shape);
  if (failed(out))
    return failure();
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < rank; ++d)
    inner *= shape[d];
  for (int64_t k = 0; k < out->getNumElements(); ++k) {
    int64_t position = (k / inner) % depth;
    int64_t index = (k / inner / depth) * inner + k % inner;
    copyElement(indices.getI(index) == position ? on : off, 0, *out, k);
  }
  return RuntimeValue::tensor(std::move(*out));
}

/// dyn.sparse_to_dense: default_value everywhere but at the indices, which
/// take their values (in order: a repeated index keeps the last).
static FailureOr<ValuePtr> dynSparseToDenseKernel(const KernelContext &ctx) {
  const Tensor &indices = ctx.input(0), &values = ctx.input(1),
               &fill = ctx.input(2);
  SmallVector<int64_t> shape = ints(ctx, 3);
  FailureOr<Tensor> out = allocate(ctx, resultElementType(ctx), shape);
  if (failed(out))
    return failure();
  for (int64_t k = 0; k < out->getNumElements(); ++k)
    copyElement(fill, 0, *out, k);
  int64_t rank = shape.size();
  if (indices.getRank() == 2 ? indices.getShape()[1] != rank : rank != 1)
    return ctx.emitError() << "sparse_indices of shape [" << indices.getShape()
                           << "] do not index an output of shape [" << shape
                           << "]";
  int64_t count = indices.getRank() == 0 ? 1 : indices.getShape()[0];
  if (values.getRank() == 1 && values.getNumElements() != count)
    return ctx.emitError() << values.getNumElements() << " sparse_values for "
                           << count << " indices";
  SmallVector<int64_t> strides = out->strides();
  for (int64_t i = 0; i < count; ++i) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t at = indices.getI(i * rank + d);
      if (at < 0 || at >= shape[d])
        return ctx.emitError()
               << "sparse index " << at << " of row " << i
               << " is outside the output shape [" << shape << "]";
      offset += at * strides[d];
    }
    copyElement(values, values.getRank() == 0 ? 0 : i, *out, offset);
  }
  return RuntimeValue::tensor(std::move(*out));
}

/// unique: the data's items (elements, or slices along `axis` in row-major
/// order) stably sorted, equal neighbours grouped; each group's first
/// member is where it first occurs. Unsorted, the groups go in the order
/// they first occur.
static FailureOr<ValuePtr> uniqueKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  ArrayRef<int64_t> shape = in.getShape();
  int64_t axis = 0;
  if (ctx.hasAttr("axis")) {
    axis = ctx.getInt("axis", 0);
    if (axis < 0)
      axis += shape.size();
  }
  int64_t outer = 1, inner = 1, n = shape[axis];
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (int64_t d = axis + 1; d < (int64_t)shape.size(); ++d)
    inner *= shape[d];
  // Element j of item i (the slice at i along the axis, row-major).
  auto at = [&](int64_t i, int64_t j) {
    return ((j / inner) * n + i) * inner + j % inner;
  };
  bool isFloat = isa<FloatType>(in.getElementType());
  auto less = [&](int64_t a, int64_t b) {
    for (int64_t j = 0; j < outer * inner; ++j) {
      int64_t x = at(a, j), y = at(b, j);
      if (isFloat ? in.getF(x) != in.getF(y) : in.getI(x) != in.getI(y))
        return isFloat ? in.getF(x) < in.getF(y) : in.getI(x) < in.getI(y);
    }
    return false;
  };
  SmallVector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), less);
  // Groups of equal items in sorted order: their first member and size.
  SmallVector<int64_t> first, count, groupOf(n);
  for (int64_t k = 0; k < n; ++k) {
    if (k == 0 || less(order[k - 1], order[k])) {
      first.push_back(order[k]);
      count.push_back(0);
    }
    groupOf[order[k]] = first.size() - 1;
    ++count.back();
  }
  // The output position of each group.
  int64_t groups = first.size();
  SmallVector<int64_t> position(groups);
  std::iota(position.begin(), position.end(), 0);
  if (!ctx.getBool("sorted", true)) {
    SmallVector<int64_t> byFirst(groups);
    std::iota(byFirst.begin(), byFirst.end(), 0);
    llvm::sort(byFirst,
               [&](int64_t a, int64_t b) { return first[a] < first[b]; });
    for (int64_t p = 0; p < groups; ++p)
      position[byFirst[p]] = p;
  }
  Type i32 = IntegerType::get(ctx.op->getContext(), 32);
  Tensor output(in.getElementType(), shape), indices(i32, {n}),
      inverse(i32, {n}), unique(i32, {1}), counts(i32, {n});
  for (int64_t g = 0; g < groups; ++g) {
    int64_t p = position[g];
    for (int64_t j = 0; j < outer * inner; ++j)
      copyElement(in, at(first[g], j), output, at(p, j));
    indices.setI(p, first[g]);
    counts.setI(p, count[g]);
  }
  for (int64_t i = 0; i < n; ++i)
    inverse.setI(i, position[groupOf[i]]);
  unique.setI(0, groups);
  std::vector<ValuePtr> fields = {RuntimeValue::tensor(std::move(output)),
                                  RuntimeValue::tensor(std::move(indices)),
                                  RuntimeValue::tensor(std::move(inverse)),
                                  RuntimeValue::tensor(std::move(unique))};
  if (ctx.getBool("return_counts", false))
    fields.push_back(RuntimeValue::tensor(std::move(counts)));
  return RuntimeValue::tuple(std::move(fields));
}

/// sparse_fill_empty_rows (TensorFlow's SparseFillEmptyRows): the entries
/// grouped by row in row order (stably, so row-major input stays as it
/// is), a [row, 0, ...] entry of the default value for each row without
/// one, and which rows those were.
static FailureOr<ValuePtr> sparseFillEmptyRowsKernel(const KernelContext &ctx) {
  const Tensor &indices = ctx.input(0), &values = ctx.input(1),
               &fill = ctx.input(3);
  SmallVector<int64_t> shape = ints(ctx, 2);
  int64_t count = indices.getShape()[0], rank = indices.getShape()[1];
  if (rank < 1 || shape.empty() || shape[0] < 0)
    return ctx.emitError() << "expected a dense shape with a row count, got ["
                           << shape << "]";
  if (values.getNumElements() != count)
    return ctx.emitError() << values.getNumElements() << " sparse_values for "
                           << count << " sparse indices";
  int64_t rows = shape[0];
  // The entries in row order (stable); memory is O(entries + rows), the
  // rows' indicator allocated first so that a huge row count is reported.
  Type i64 = IntegerType::get(ctx.op->getContext(), 64);
  FailureOr<Tensor> indicator = allocate(ctx, i64, {rows});
  if (failed(indicator))
    return failure();
  SmallVector<int64_t> order(count);
  for (int64_t i = 0; i < count; ++i) {
    int64_t row = indices.getI(i * rank);
    if (row < 0 || row >= rows)
      return ctx.emitError() << "row " << row << " of sparse index " << i
                             << " is outside the dense shape [" << shape << "]";
    order[i] = i;
  }
  llvm::stable_sort(order, [&](int64_t a, int64_t b) {
    return indices.getI(a * rank) < indices.getI(b * rank);
  });
  int64_t empty = rows;
  for (int64_t k = 0; k < count; ++k)
    if (k == 0 ||
        indices.getI(order[k] * rank) != indices.getI(order[k - 1] * rank))
      --empty;
  int64_t total = count + empty;
  FailureOr<Tensor> newIndices = allocate(ctx, i64, {total, rank});
  FailureOr<Tensor> newValues = allocate(ctx, values.getElementType(), {total});
  if (failed(newIndices) || failed(newValues))
    return failure();
  int64_t next = 0, k = 0;
  for (int64_t row = 0; row < rows; ++row) {
    bool isEmpty = k == count || indices.getI(order[k] * rank) != row;
    indicator->setI(row, isEmpty);
    if (isEmpty) {
      newIndices->setI(next * rank, row);
      for (int64_t d = 1; d < rank; ++d)
        newIndices->setI(next * rank + d, 0);
      copyElement(fill, 0, *newValues, next++);
      continue;
    }
    for (; k < count && indices.getI(order[k] * rank) == row; ++k, ++next) {
      for (int64_t d = 0; d < rank; ++d)
        newIndices->setI(next * rank + d, indices.getI(order[k] * rank + d));
      copyElement(values, order[k], *newValues, next);
    }
  }
  std::vector<ValuePtr> fields = {RuntimeValue::tensor(std::move(*newIndices)),
                                  RuntimeValue::tensor(std::move(*newValues)),
                                  RuntimeValue::tensor(std::move(*indicator))};
  return RuntimeValue::tuple(std::move(fields));
}

void mlir::relay::interp::registerDynamicKernels(llvm::StringMap<KernelFn> &k) {
  k["dyn.reshape"] = dynReshapeKernel;
  k["dyn.full"] = dynFullKernel;
  k["dyn.topk"] = dynTopKKernel;
  k["topk"] = topKKernel;
  k["argsort"] = argsortKernel;
  k["sort"] = sortKernel;
  k["dyn.tile"] = dynTileKernel;
  k["dyn.broadcast_to"] = dynBroadcastToKernel;
  k["collapse_sum_to"] = collapseSumToKernel;
  k["dyn.strided_slice"] = dynStridedSliceKernel;
  k["dyn.image.resize2d"] = dynResize2dKernel;
  k["dyn.nn.upsampling"] = dynUpSamplingKernel;
  k["dyn.nn.upsampling3d"] = dynUpSampling3DKernel;
  k["dyn.nn.pad"] = dynPadKernel;
  k["dyn.squeeze"] = dynSqueezeKernel;
  k["dyn.expand_dims"] = dynExpandDimsKernel;
  k["dyn.one_hot"] = dynOneHotKernel;
  k["dyn.sparse_to_dense"] = dynSparseToDenseKernel;
  k["unique"] = uniqueKernel;
  k["sparse_fill_empty_rows"] = sparseFillEmptyRowsKernel;
  k["arange"] = arangeKernel;
  k["vision.all_class_non_max_suppression"] = allClassNmsKernel;
}
