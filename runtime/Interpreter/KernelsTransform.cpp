//===- KernelsTransform.cpp - Shape and reduction kernels -------*- C++ -*-===//
//
// Reductions, the reshapes (whose result shape the relation gives), and the
// operators that move elements: transpose, concatenate, stack, split, take,
// gather, the scatters, strided_slice, broadcast_to, layout_transform and
// pad.
//
//===----------------------------------------------------------------------===//

#include "runtime/Interpreter/Kernels.h"

#include "dialects/relay/RelationUtils.h"

#include "llvm/ADT/SmallBitVector.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

namespace {
enum class Reduction { Sum, Mean, Max, Min, Prod, All, Any, ArgMax, ArgMin };
} // namespace

static KernelFn reduce(Reduction kind) {
  return [kind](const KernelContext &ctx) -> FailureOr<ValuePtr> {
    const Tensor &in = ctx.input(0);
    int64_t rank = in.getRank();
    llvm::SmallBitVector reduced(rank, !ctx.hasAttr("axis"));
    for (int64_t a : ctx.getInts("axis"))
      reduced.set(a < 0 ? a + rank : a);
    if (ctx.hasAttr("axis") && ctx.getBool("exclude", false))
      reduced.flip();
    auto type = ctx.resultTensorType();
    Tensor out(type.getElementType(), type.getShape());
    // The output index of each input element: the kept dimensions (and 0
    // for reduced ones when keepdims).
    bool keep = ctx.getBool("keepdims", false);
    int64_t outCount = out.getNumElements();
    std::vector<double> acc(outCount);
    std::vector<int64_t> iacc(outCount), count(outCount, 0), best(outCount, 0);
    bool floating = in.isFloat();
    bool lastIndex = ctx.getBool("select_last_index", false);
    // Along the input: the output element (kept dimensions move it, by
    // the output's strides) and the position within the reduced
    // dimensions (argmax/argmin's, row-major over them).
    SmallVector<int64_t> outStrides = out.strides();
    SmallVector<int64_t> toOut(rank, 0), toPos(rank, 0);
    for (int64_t d = 0, o = 0; d < rank; ++d) {
      if (!reduced[d])
        toOut[d] = outStrides[o++];
      else if (keep)
        ++o; // the reduced dimension's size-1 place
    }
    for (int64_t d = rank, stride = 1; d-- > 0;)
      if (reduced[d]) {
        toPos[d] = stride;
        stride *= in.getShape()[d];
      }
    // uint64 elements past INT64_MAX are held as negative int64s: the
    // comparing reductions flip their sign bits, so that signed order is
    // unsigned order, and flip them back in the result.
    bool compares = kind == Reduction::Max || kind == Reduction::Min ||
                    kind == Reduction::ArgMax || kind == Reduction::ArgMin;
    int64_t orderBias = compares && in.isUnsigned64() ? INT64_MIN : 0;
    OffsetWalk walk(in.getShape());
    unsigned wo = walk.add(toOut), wp = walk.add(toPos);
    for (int64_t k = 0; k < in.getNumElements(); ++k, walk.next()) {
      int64_t o = walk.offset(wo), pos = walk.offset(wp);
      double v = in.getF(k);
      // (A float's integer value is not read: inf and NaN have none.)
      int64_t iv = floating ? 0 : in.getI(k) ^ orderBias;
      bool first = count[o]++ == 0;
      switch (kind) {
      case Reduction::Sum:
      case Reduction::Mean:
        acc[o] += v;
        // Integer sums and products wrap, as compiled code's do.
        iacc[o] = int64_t(uint64_t(iacc[o]) + uint64_t(iv));
        break;
      case Reduction::Prod:
        acc[o] = first ? v : acc[o] * v;
        iacc[o] = first ? iv : int64_t(uint64_t(iacc[o]) * uint64_t(iv));
        break;
      // NaN is the maximum and the minimum of what contains it (numpy,
      // PyTorch, and compiled code's arith.maximumf/minimumf).
      case Reduction::Max:
        acc[o] = first || std::isnan(v) ? v
                 : std::isnan(acc[o])   ? acc[o]
                                        : std::max(acc[o], v);
        iacc[o] = first ? iv : std::max(iacc[o], iv);
        break;
      case Reduction::Min:
        acc[o] = first || std::isnan(v) ? v
                 : std::isnan(acc[o])   ? acc[o]
                                        : std::min(acc[o], v);
        iacc[o] = first ? iv : std::min(iacc[o], iv);
        break;
      case Reduction::All:
        iacc[o] = first ? (iv != 0 || v != 0) : (iacc[o] && (iv || v));
        break;
      case Reduction::Any:
        iacc[o] = first ? (iv != 0 || v != 0) : (iacc[o] || iv || v);
        break;
      case Reduction::ArgMax:
      case Reduction::ArgMin: {
        // NaN is the extreme both ways (numpy and PyTorch): the first NaN,
        // or the last with select_last_index.
        bool better =
            kind == Reduction::ArgMax
                ? (floating
                       ? v > acc[o] || (std::isnan(v) && !std::isnan(acc[o]))
                       : iv > iacc[o])
                : (floating
                       ? v < acc[o] || (std::isnan(v) && !std::isnan(acc[o]))
                       : iv < iacc[o]);
        bool equal = floating
                         ? v == acc[o] || (std::isnan(v) && std::isnan(acc[o]))
                         : iv == iacc[o];
        if (first || better || (lastIndex && equal)) {
          acc[o] = v;
          iacc[o] = iv;
          best[o] = pos;
        }
        break;
      }
      }
    }
    for (int64_t o = 0; o < outCount; ++o) {
      switch (kind) {
      case Reduction::Mean:
        if (count[o] == 0)
          out.setF(o, NAN);
        else if (floating)
          out.setF(o, acc[o] / count[o]);
        else
          out.setI(o, in.isUnsigned64()
                          ? int64_t(uint64_t(iacc[o]) / uint64_t(count[o]))
                          : iacc[o] / count[o]);
        break;
      case Reduction::ArgMax:
      case Reduction::ArgMin:
        out.setI(o, best[o]);
        break;
      case Reduction::All:
        out.setI(o, count[o] == 0 ? 1 : iacc[o]);
        break;
      case Reduction::Any:
        out.setI(o, count[o] == 0 ? 0 : iacc[o]);
        break;
      case Reduction::Prod:
        if (count[o] == 0)
          floating ? out.setF(o, 1) : out.setI(o, 1);
        else
          floating ? out.setF(o, acc[o]) : out.setI(o, iacc[o]);
        break;
      case Reduction::Max:
      case Reduction::Min:
        if (count[o] == 0) {
          // Nothing reduced: the identity, as compiled code's and TVM's
          // initial value (-inf, or the type's lowest, for max).
          bool isMax = kind == Reduction::Max;
          if (floating) {
            out.setF(o, isMax ? -INFINITY : INFINITY);
            break;
          }
          auto intType = cast<IntegerType>(type.getElementType());
          unsigned width = intType.getWidth();
          bool isUnsigned = intType.isUnsigned() || width == 1; // bool
          APInt bound = isUnsigned ? (isMax ? APInt::getMinValue(width)
                                            : APInt::getMaxValue(width))
                                   : (isMax ? APInt::getSignedMinValue(width)
                                            : APInt::getSignedMaxValue(width));
          out.setI(o, isUnsigned ? int64_t(bound.getZExtValue())
                                 : bound.getSExtValue());
          break;
        }
        floating ? out.setF(o, acc[o]) : out.setI(o, iacc[o] ^ orderBias);
        break;
      default:
        floating ? out.setF(o, acc[o]) : out.setI(o, iacc[o]);
      }
    }
    return RuntimeValue::tensor(std::move(out));
  };
}

//===----------------------------------------------------------------------===//
// Element movement
//===----------------------------------------------------------------------===//

/// Operators that only change the shape: the relation gave the result type.
static FailureOr<ValuePtr> reshapeKernel(const KernelContext &ctx) {
  return RuntimeValue::tensor(
      ctx.input(0).reshaped(ctx.resultTensorType().getShape()));
}

static FailureOr<ValuePtr> transposeKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  int64_t rank = in.getRank();
  SmallVector<int64_t> axes = ctx.getInts("axes");
  if (axes.empty())
    for (int64_t i = rank - 1; i >= 0; --i)
      axes.push_back(i);
  for (int64_t &a : axes)
    if (a < 0)
      a += rank;
  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  SmallVector<int64_t> inStrides = in.strides(), moved(rank);
  for (int64_t d = 0; d < rank; ++d)
    moved[d] = inStrides[axes[d]];
  OffsetWalk walk(out.getShape());
  unsigned from = walk.add(moved);
  for (int64_t k = 0; k < out.getNumElements(); ++k, walk.next())
    copyElement(in, walk.offset(from), out, k);
  return RuntimeValue::tensor(std::move(out));
}

/// argwhere: the multi-index of each nonzero element, in order (the result
/// has as many rows as there are).
static FailureOr<ValuePtr> argWhereKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  SmallVector<int64_t> nonzero;
  for (int64_t k = 0; k < in.getNumElements(); ++k)
    if (in.getB(k))
      nonzero.push_back(k);
  int64_t rank = in.getRank(), rows = nonzero.size();
  Tensor out(ctx.resultTensorType().getElementType(), {rows, rank});
  for (auto [row, k] : llvm::enumerate(nonzero)) {
    SmallVector<int64_t> idx = unravel(k, in.getShape());
    for (int64_t d = 0; d < rank; ++d)
      out.setI(static_cast<int64_t>(row) * rank + d, idx[d]);
  }
  return RuntimeValue::tensor(std::move(out));
}

/// concatenate (stack = false) or stack (stack = true) of a tuple.
static KernelFn joinKernel(bool stack) {
  return [stack](const KernelContext &ctx) -> FailureOr<ValuePtr> {
    const std::vector<ValuePtr> &fields = ctx.operands[0]->getFields();
    auto type = ctx.resultTensorType();
    Tensor out(type.getElementType(), type.getShape());
    int64_t axis = ctx.getInt("axis", 0);
    if (axis < 0)
      axis += out.getRank();
    SmallVector<int64_t> outStrides = out.strides();
    // Each field is, per index of the axes before `axis`, one block of
    // the output's row there (from the field's place along the axis).
    int64_t outer = 1;
    for (int64_t d = 0; d < axis; ++d)
      outer *= out.getShape()[d];
    int64_t outRow = outStrides[axis] * out.getShape()[axis];
    int64_t offset = 0;
    for (const ValuePtr &f : fields) {
      const Tensor &in = f->getTensor();
      int64_t block = outer ? in.getNumElements() / outer : 0;
      for (int64_t o = 0; o < outer && block; ++o)
        out.copyElements(o * outRow + offset * outStrides[axis], in, o * block,
                         block);
      offset += stack ? 1 : in.getShape()[axis];
    }
    return RuntimeValue::tensor(std::move(out));
  };
}

static FailureOr<ValuePtr> splitKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  int64_t axis = ctx.getInt("axis", 0);
  if (axis < 0)
    axis += in.getRank();
  SmallVector<int64_t> inStrides = in.strides();
  // Each piece is, per index of the axes before `axis`, one block of the
  // input's row there.
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= in.getShape()[d];
  int64_t inRow = inStrides[axis] * in.getShape()[axis];
  std::vector<ValuePtr> pieces;
  int64_t offset = 0;
  for (Type t : cast<TupleType>(ctx.resultType).getTypes()) {
    auto type = cast<RankedTensorType>(t);
    Tensor out(type.getElementType(), type.getShape());
    int64_t block = outer ? out.getNumElements() / outer : 0;
    for (int64_t o = 0; o < outer && block; ++o)
      out.copyElements(o * block, in, o * inRow + offset * inStrides[axis],
                       block);
    offset += type.getShape()[axis];
    pieces.push_back(RuntimeValue::tensor(std::move(out)));
  }
  return RuntimeValue::tuple(std::move(pieces));
}

/// gather: out[o] = data[o with o[axis] = indices[o]]; a negative index
/// counts from the end (ONNX's GatherElements), one out of range is a
/// run-time error.
static FailureOr<ValuePtr> gatherKernel(const KernelContext &ctx) {
  const Tensor &data = ctx.input(0), &indices = ctx.input(1);
  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  int64_t axis = ctx.getInt("axis", 0);
  if (axis < 0)
    axis += data.getRank();
  int64_t extent = data.getShape()[axis];
  SmallVector<int64_t> dataStrides = data.strides();
  for (int64_t k = 0; k < out.getNumElements(); ++k) {
    SmallVector<int64_t> o = unravel(k, out.getShape());
    int64_t i = indices.getI(k);
    if (i < 0)
      i += extent;
    if (i < 0 || i >= extent) {
      ctx.emitError() << "index " << indices.getI(k) << " is out of range [-"
                      << extent << ", " << extent << ")";
      return failure();
    }
    o[axis] = i;
    copyElement(data, ravel(o, dataStrides), out, k);
  }
  return RuntimeValue::tensor(std::move(out));
}

/// Combines update element `from` of `updates` into element `to` of `out`
/// by a scatter's reduction (update, add, mul, min, max).
static void scatterInto(Tensor &out, int64_t to, const Tensor &updates,
                        int64_t from, StringRef reduction) {
  if (reduction == "update") {
    copyElement(updates, from, out, to);
    return;
  }
  if (out.isFloat()) {
    // min and max propagate NaN, as arith.minimumf and maximumf do.
    double a = out.getF(to), b = updates.getF(from);
    bool nan = std::isnan(a) || std::isnan(b);
    out.setF(to, reduction == "add"   ? a + b
                 : reduction == "mul" ? a * b
                 : nan                ? NAN
                 : reduction == "min" ? std::min(a, b)
                                      : std::max(a, b));
    return;
  }
  int64_t a = out.getI(to), b = updates.getI(from);
  out.setI(to, reduction == "add"   ? int64_t(uint64_t(a) + uint64_t(b))
               : reduction == "mul" ? int64_t(uint64_t(a) * uint64_t(b))
               : reduction == "min" ? std::min(a, b)
                                    : std::max(a, b));
}

/// scatter_elements: a copy of data where update u (in row-major order)
/// combines into u's position with its `axis` coordinate replaced by
/// indices[u].
static FailureOr<ValuePtr> scatterElementsKernel(const KernelContext &ctx) {
  const Tensor &data = ctx.input(0), &indices = ctx.input(1),
               &updates = ctx.input(2);
  Tensor out = data;
  int64_t axis = ctx.getInt("axis", 0);
  if (axis < 0)
    axis += data.getRank();
  int64_t extent = data.getShape()[axis];
  StringRef reduction = ctx.getString("reduction", "update");
  SmallVector<int64_t> dataStrides = data.strides();
  for (int64_t u = 0; u < indices.getNumElements(); ++u) {
    SmallVector<int64_t> at = unravel(u, indices.getShape());
    int64_t i = indices.getI(u);
    if (i < -extent || i >= extent) {
      ctx.emitError() << "index " << i << " is out of range [-" << extent
                      << ", " << extent << ")";
      return failure();
    }
    at[axis] = i < 0 ? i + extent : i;
    scatterInto(out, ravel(at, dataStrides), updates, u, reduction);
  }
  return RuntimeValue::tensor(std::move(out));
}

/// scatter_nd: indices (M, Y...), updates (Y..., X_M...): the slice
/// updates[y] combines into data[indices[:, y]].
static FailureOr<ValuePtr> scatterNDKernel(const KernelContext &ctx) {
  const Tensor &data = ctx.input(0), &indices = ctx.input(1),
               &updates = ctx.input(2);
  Tensor out = data;
  ArrayRef<int64_t> shape = data.getShape();
  int64_t m = indices.getShape()[0];
  int64_t tuples = m ? indices.getNumElements() / m : 0;
  int64_t slice = 1;
  for (int64_t d = m; d < data.getRank(); ++d)
    slice *= shape[d];
  StringRef mode = ctx.getString("mode", "update");
  for (int64_t y = 0; y < tuples; ++y) {
    int64_t flat = 0;
    for (int64_t j = 0; j < m; ++j) {
      int64_t i = indices.getI(j * tuples + y);
      if (i < -shape[j] || i >= shape[j]) {
        ctx.emitError() << "index " << i << " is out of range [-" << shape[j]
                        << ", " << shape[j] << ") for dimension " << j;
        return failure();
      }
      flat = flat * shape[j] + (i < 0 ? i + shape[j] : i);
    }
    for (int64_t e = 0; e < slice; ++e)
      scatterInto(out, flat * slice + e, updates, y * slice + e, mode);
  }
  return RuntimeValue::tensor(std::move(out));
}

static FailureOr<ValuePtr> takeKernel(const KernelContext &ctx) {
  const Tensor &data = ctx.input(0), &indices = ctx.input(1);
  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  StringRef mode = ctx.getString("mode", "clip");
  bool flat = !ctx.hasAttr("axis");
  int64_t axis = flat ? 0 : ctx.getInt("axis", 0);
  if (axis < 0)
    axis += data.getRank();
  int64_t batchDims = ctx.getInt("batch_dims", 0);
  if (batchDims < 0)
    batchDims += indices.getRank();
  int64_t extent = flat ? data.getNumElements() : data.getShape()[axis];
  // out = data[:axis] + indices[batch_dims:] + data[axis+1:]: per index of
  // data[:axis] (whose first batch_dims are the indices' batch) and per
  // index, one block of data[axis+1:] copied.
  auto product = [](ArrayRef<int64_t> dims) {
    int64_t n = 1;
    for (int64_t d : dims)
      n *= d;
    return n;
  };
  ArrayRef<int64_t> shape = data.getShape();
  int64_t pre = flat ? 1 : product(shape.take_front(axis));
  int64_t inner = flat ? 1 : product(shape.drop_front(axis + 1));
  int64_t batches = product(indices.getShape().take_front(batchDims));
  int64_t perBatch = product(indices.getShape().drop_front(batchDims));
  if (out.getNumElements() == 0)
    return RuntimeValue::tensor(std::move(out));
  if (extent == 0) {
    ctx.emitError() << "takes from an axis of size 0";
    return failure();
  }
  int64_t preInBatch = pre / batches;
  enum class Mode {
    Wrap,
    Clip,
    Fast
  } how = mode == "wrap"   ? Mode::Wrap
          : mode == "clip" ? Mode::Clip
                           : Mode::Fast;
  int64_t k = 0;
  for (int64_t p = 0; p < pre; ++p) {
    int64_t batch = p / preInBatch;
    for (int64_t j = 0; j < perBatch; ++j, k += inner) {
      int64_t i = indices.getI(batch * perBatch + j);
      if (how == Mode::Wrap) {
        i %= extent;
        if (i < 0)
          i += extent;
      } else if (how == Mode::Clip) {
        i = std::min(std::max<int64_t>(i, 0), extent - 1);
      } else if (i < 0 || i >= extent) {
        ctx.emitError() << "index " << i << " is out of range [0, " << extent
                        << ")";
        return failure();
      }
      out.copyElements(k, data, (p * extent + i) * inner, inner);
    }
  }
  return RuntimeValue::tensor(std::move(out));
}

static FailureOr<ValuePtr> stridedSliceKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  int64_t rank = in.getRank();
  StridedSliceStarts starts = stridedSliceStarts(
      in.getShape(), ctx.getInts("begin"), ctx.getInts("strides", {1}),
      ctx.getInts("axes"), ctx.getString("slice_mode", "end") == "size");
  ArrayRef<int64_t> first = starts.first, step = starts.step;
  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  SmallVector<int64_t> inStrides = in.strides(), stepped(rank);
  int64_t base = 0;
  for (int64_t d = 0; d < rank; ++d) {
    base += first[d] * inStrides[d];
    stepped[d] = step[d] * inStrides[d];
  }
  OffsetWalk walk(out.getShape());
  unsigned from = walk.add(stepped, base);
  for (int64_t k = 0; k < out.getNumElements(); ++k, walk.next())
    copyElement(in, walk.offset(from), out, k);
  return RuntimeValue::tensor(std::move(out));
}

static FailureOr<ValuePtr> broadcastToKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  OffsetWalk walk(out.getShape());
  unsigned from = walk.addBroadcast(in.getShape());
  for (int64_t k = 0; k < out.getNumElements(); ++k, walk.next())
    copyElement(in, walk.offset(from), out, k);
  return RuntimeValue::tensor(std::move(out));
}

static FailureOr<ValuePtr> layoutTransformKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  FailureOr<relay::DataLayout> src =
      relay::DataLayout::parse(ctx.getString("src_layout", ""));
  FailureOr<relay::DataLayout> dst =
      relay::DataLayout::parse(ctx.getString("dst_layout", ""));
  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  SmallVector<int64_t> inStrides = in.strides();
  for (int64_t k = 0; k < out.getNumElements(); ++k) {
    SmallVector<int64_t> o = unravel(k, out.getShape());
    SmallVector<int64_t> from(in.getRank(), 0);
    for (auto [d, axis] : llvm::enumerate(dst->axes)) {
      if (axis.factor != 0)
        continue;
      // The whole index along this primal axis (its sub-axes outermost
      // first), split again by src's sub-axes (innermost first).
      char primal = axis.name;
      int64_t whole = o[d];
      for (size_t sub : dst->subAxes(primal))
        whole = whole * dst->axes[sub].factor + o[sub];
      // (A named vector: reverse() of a temporary would outlive it.)
      SmallVector<size_t> srcSubAxes = src->subAxes(primal);
      for (size_t sub : llvm::reverse(srcSubAxes)) {
        from[sub] = whole % src->axes[sub].factor;
        whole /= src->axes[sub].factor;
      }
      from[*src->find(primal, false)] = whole;
    }
    copyElement(in, ravel(from, inStrides), out, k);
  }
  return RuntimeValue::tensor(std::move(out));
}

static FailureOr<ValuePtr> padKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0), &value = ctx.input(1);
  SmallVector<int64_t> width = ctx.getInts("pad_width");
  StringRef mode = ctx.getString("pad_mode", "constant");
  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  SmallVector<int64_t> inStrides = in.strides();
  for (int64_t k = 0; k < out.getNumElements(); ++k) {
    SmallVector<int64_t> o = unravel(k, out.getShape());
    bool inside = true;
    SmallVector<int64_t> from(in.getRank());
    for (int64_t d = 0; d < in.getRank(); ++d) {
      int64_t i = o[d] - width[2 * d], n = in.getShape()[d];
      if (i < 0 || i >= n) {
        if (mode == "edge") {
          i = std::min(std::max<int64_t>(i, 0), n - 1);
        } else if (mode == "reflect" && n > 1) {
          int64_t period = 2 * (n - 1);
          i = ((i % period) + period) % period;
          if (i >= n)
            i = period - i;
        } else {
          inside = false;
        }
      }
      from[d] = i;
    }
    if (inside)
      copyElement(in, ravel(from, inStrides), out, k);
    else
      copyElement(value, 0, out, k);
  }
  return RuntimeValue::tensor(std::move(out));
}

void mlir::relay::interp::registerTransformKernels(
    llvm::StringMap<KernelFn> &k) {
  k["sum"] = reduce(Reduction::Sum);
  k["mean"] = reduce(Reduction::Mean);
  k["max"] = reduce(Reduction::Max);
  k["min"] = reduce(Reduction::Min);
  k["prod"] = reduce(Reduction::Prod);
  k["all"] = reduce(Reduction::All);
  k["any"] = reduce(Reduction::Any);
  k["argmax"] = reduce(Reduction::ArgMax);
  k["argmin"] = reduce(Reduction::ArgMin);
  for (StringRef name : {"reshape", "reshape_like", "squeeze", "expand_dims",
                         "nn.batch_flatten"})
    k[name] = reshapeKernel;
  k["transpose"] = transposeKernel;
  k["argwhere"] = argWhereKernel;
  k["concatenate"] = joinKernel(/*stack=*/false);
  k["stack"] = joinKernel(/*stack=*/true);
  k["split"] = splitKernel;
  k["take"] = takeKernel;
  k["gather"] = gatherKernel;
  k["scatter_elements"] = scatterElementsKernel;
  k["scatter_nd"] = scatterNDKernel;
  k["strided_slice"] = stridedSliceKernel;
  k["broadcast_to"] = broadcastToKernel;
  k["layout_transform"] = layoutTransformKernel;
  k["nn.pad"] = padKernel;
}
