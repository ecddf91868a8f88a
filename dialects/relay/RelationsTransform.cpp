//===- RelationsTransform.cpp - Shape-transforming relations ----*- C++ -*-===//
//
// Reshape, ReshapeLike, Transpose, Squeeze, ExpandDims, Concatenate, Split,
// Stack, Take, Gather, ScatterElements, ScatterND, StridedSlice,
// BroadcastTo, LayoutTransform, BatchFlatten, Pad, ReverseSequence and
// SliceLike.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::relay;

static std::string formatInts(ArrayRef<int64_t> values) {
  return "[" +
         llvm::join(llvm::map_range(
                        values, [](int64_t v) { return std::to_string(v); }),
                    ", ") +
         "]";
}

/// Checks that two shapes hold the same number of elements when both are
/// static.
static LogicalResult checkElementCount(RelationArgs &args, const TensorInfo &in,
                                       ArrayRef<Dim> out) {
  TensorInfo outInfo{SmallVector<Dim>(out), in.dtype};
  Dim a = in.product(0, in.getRank()), b = outInfo.product(0, out.size());
  if (a.isStatic() && b.isStatic() && a.size != b.size) {
    args.emitError() << "cannot reshape " << args.getInput(0) << " (" << a.size
                     << " elements) to " << b.size << " elements";
    return failure();
  }
  return success();
}

/// The dimension at `missing` in `out` that makes it hold as many elements
/// as `in`. Static sizes divide; symbolic dimensions cancel by name (so
/// [n, 3, 8, 8] -> [n, 3, -1] gives 64); otherwise `?`. Fails when static
/// sizes do not divide.
static FailureOr<Dim> inferMissingDim(ArrayRef<Dim> in, ArrayRef<Dim> out,
                                      size_t missing) {
  int64_t inStatic = 1, outStatic = 1;
  bool anyUnknown = false;
  llvm::StringMap<int> symbols; // in's symbols minus out's
  for (const Dim &d : in) {
    if (d.isStatic())
      inStatic *= d.size;
    else if (d.symbol)
      ++symbols[d.symbol.getValue()];
    else
      anyUnknown = true;
  }
  for (size_t i = 0; i < out.size(); ++i) {
    const Dim &d = out[i];
    if (i == missing)
      continue;
    if (d.isStatic())
      outStatic *= d.size;
    else if (d.symbol && symbols.lookup(d.symbol.getValue()) > 0)
      --symbols[d.symbol.getValue()];
    else
      anyUnknown = true;
  }
  if (anyUnknown)
    return Dim::any();
  if (outStatic == 0 || inStatic % outStatic != 0)
    return failure();
  int64_t ratio = inStatic / outStatic;
  SmallVector<StringRef> left;
  for (auto &entry : symbols)
    for (int i = 0; i < entry.second; ++i)
      left.push_back(entry.first());
  if (left.empty())
    return Dim::of(ratio);
  if (left.size() == 1 && ratio == 1)
    for (const Dim &d : in)
      if (d.symbol && d.symbol.getValue() == left.front())
        return d;
  return Dim::any();
}

//===----------------------------------------------------------------------===//
// Reshape
//===----------------------------------------------------------------------===//

static RelationStatus reshapeRelation(RelationArgs &args) {
  TensorInfo in;
  READ_TENSOR_OR_RETURN(args, 0, in);
  std::optional<SmallVector<int64_t>> newshape =
      args.getOptionalInts("newshape");
  if (!newshape)
    return args.fail("requires a 'newshape' attribute");
  SmallVector<Dim> out;
  int64_t src = 0, rank = in.getRank();
  std::optional<size_t> inferIndex;
  auto needSource = [&](int64_t count, int64_t code) {
    if (src + count <= rank)
      return true;
    args.emitError() << "newshape " << formatInts(*newshape) << " uses " << code
                     << " past the last dimension of " << args.getInput(0);
    return false;
  };
  const SmallVector<int64_t> &spec = *newshape;
  // allowzero (ONNX's): a 0 is a dimension of size 0, not a copy.
  bool allowZero = args.getBool("allowzero", false);
  for (size_t i = 0; i < spec.size(); ++i) {
    int64_t v = spec[i];
    if (v > 0 || (v == 0 && allowZero)) {
      out.push_back(Dim::of(v));
      ++src;
    } else if (v == 0) {
      if (!needSource(1, 0))
        return RelationStatus::Failed;
      out.push_back(in.dims[src++]);
    } else if (v == -1) {
      if (inferIndex)
        return args.fail("newshape " + formatInts(spec) +
                         " has more than one -1");
      inferIndex = out.size();
      out.push_back(Dim::of(1));
      ++src;
    } else if (v == -2) {
      while (src < rank)
        out.push_back(in.dims[src++]);
    } else if (v == -3) {
      if (!needSource(2, -3))
        return RelationStatus::Failed;
      out.push_back(mulDims(in.dims[src], in.dims[src + 1]));
      src += 2;
    } else if (v == -4) {
      if (i + 2 >= spec.size())
        return args.fail("-4 in newshape must be followed by two values");
      if (!needSource(1, -4))
        return RelationStatus::Failed;
      int64_t d0 = spec[++i], d1 = spec[++i];
      Dim whole = in.dims[src++];
      if (d0 == -1 && d1 == -1)
        return args.fail("-4 in newshape cannot split into -1, -1");
      if (d0 < -1 || d1 < -1 || d0 == 0 || d1 == 0)
        return args.fail("-4 in newshape splits into positive sizes or -1");
      auto split = [&](int64_t known) -> Dim {
        if (!whole.isStatic())
          return Dim::any();
        return Dim::of(whole.size / known);
      };
      Dim a = d0 == -1 ? split(d1) : Dim::of(d0);
      Dim b = d1 == -1 ? split(d0) : Dim::of(d1);
      if (whole.isStatic() && a.isStatic() && b.isStatic() &&
          mulDims(a, b).size != whole.size)
        return args.fail(
            "-4 in newshape splits dimension " + std::to_string(whole.size) +
            " into " + std::to_string(a.size) + " x " + std::to_string(b.size));
      out.push_back(a);
      out.push_back(b);
    } else {
      return args.fail("invalid value " + std::to_string(v) + " in newshape " +
                       formatInts(spec));
    }
  }
  if (inferIndex) {
    FailureOr<Dim> inferred = inferMissingDim(in.dims, out, *inferIndex);
    if (failed(inferred))
      return args.fail("cannot infer the -1 dimension of newshape " +
                       formatInts(spec) + " for " + typeStr(args.getInput(0)));
    out[*inferIndex] = *inferred;
  }
  if (failed(checkElementCount(args, in, out)))
    return RelationStatus::Failed;
  return args.solve(makeTensor(args.getContext(), out, in.dtype));
}

/// ReshapeLike: `data.shape[:lhs_begin] + like.shape[rhs_begin:rhs_end] +
/// data.shape[lhs_end:]`.
static RelationStatus reshapeLikeRelation(RelationArgs &args) {
  TensorInfo data, like;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, like);
  auto range = [&](int64_t rank, StringRef beginName, StringRef endName,
                   int64_t &begin, int64_t &end) -> LogicalResult {
    begin = args.getInt(beginName, 0);
    end = args.getOptionalInt(endName).value_or(rank);
    if (begin < 0)
      begin += rank;
    if (end < 0)
      end += rank;
    if (begin < 0 || end > rank || begin > end) {
      args.emitError() << "invalid range [" << begin << ", " << end
                       << ") for a tensor of rank " << rank;
      return failure();
    }
    return success();
  };
  int64_t lb, le, rb, re;
  if (failed(range(data.getRank(), "lhs_begin", "lhs_end", lb, le)) ||
      failed(range(like.getRank(), "rhs_begin", "rhs_end", rb, re)))
    return RelationStatus::Failed;
  SmallVector<Dim> out(data.dims.begin(), data.dims.begin() + lb);
  out.append(like.dims.begin() + rb, like.dims.begin() + re);
  out.append(data.dims.begin() + le, data.dims.end());
  if (failed(checkElementCount(args, data, out)))
    return RelationStatus::Failed;
  return args.solve(makeTensor(args.getContext(), out, data.dtype));
}

static RelationStatus batchFlattenRelation(RelationArgs &args) {
  TensorInfo in;
  READ_TENSOR_OR_RETURN(args, 0, in);
  if (in.getRank() < 1)
    return args.fail("expected a tensor of rank >= 1, got " +
                     typeStr(args.getInput(0)));
  SmallVector<Dim> out{in.dims[0], in.product(1, in.getRank())};
  return args.solve(makeTensor(args.getContext(), out, in.dtype));
}

//===----------------------------------------------------------------------===//
// Axis permutation, insertion and removal
//===----------------------------------------------------------------------===//

static RelationStatus transposeRelation(RelationArgs &args) {
  TensorInfo in;
  READ_TENSOR_OR_RETURN(args, 0, in);
  int64_t rank = in.getRank();
  SmallVector<int64_t> axes;
  if (std::optional<SmallVector<int64_t>> given = args.getOptionalInts("axes");
      given && !given->empty()) {
    axes = *given;
  } else {
    for (int64_t i = rank - 1; i >= 0; --i)
      axes.push_back(i);
  }
  if (static_cast<int64_t>(axes.size()) != rank)
    return args.fail("axes " + formatInts(axes) + " must have " +
                     std::to_string(rank) + " entries");
  llvm::SmallBitVector seen(rank);
  SmallVector<Dim> out;
  for (int64_t axis : axes) {
    FailureOr<int64_t> a = normalizeAxis(args, axis, rank);
    if (failed(a))
      return RelationStatus::Failed;
    if (seen[*a])
      return args.fail("axes " + formatInts(axes) + " is not a permutation");
    seen.set(*a);
    out.push_back(in.dims[*a]);
  }
  return args.solve(makeTensor(args.getContext(), out, in.dtype));
}

static RelationStatus squeezeRelation(RelationArgs &args) {
  TensorInfo in;
  READ_TENSOR_OR_RETURN(args, 0, in);
  int64_t rank = in.getRank();
  llvm::SmallBitVector drop(rank);
  if (std::optional<SmallVector<int64_t>> axes = args.getOptionalInts("axis")) {
    for (int64_t axis : *axes) {
      FailureOr<int64_t> a = normalizeAxis(args, axis, rank);
      if (failed(a))
        return RelationStatus::Failed;
      const Dim &d = in.dims[*a];
      if (d.isStatic() && d.size != 1)
        return args.fail("cannot squeeze axis " + std::to_string(axis) +
                         " of size " + std::to_string(d.size));
      drop.set(*a);
    }
  } else {
    for (int64_t i = 0; i < rank; ++i)
      if (in.dims[i].isStatic() && in.dims[i].size == 1)
        drop.set(i);
  }
  SmallVector<Dim> out;
  for (int64_t i = 0; i < rank; ++i)
    if (!drop[i])
      out.push_back(in.dims[i]);
  return args.solve(makeTensor(args.getContext(), out, in.dtype));
}

static RelationStatus expandDimsRelation(RelationArgs &args) {
  TensorInfo in;
  READ_TENSOR_OR_RETURN(args, 0, in);
  int64_t rank = in.getRank();
  std::optional<int64_t> axisAttr = args.getOptionalInt("axis");
  if (!axisAttr)
    return args.fail("requires an 'axis' attribute");
  FailureOr<int64_t> axis = normalizeAxis(args, *axisAttr, rank + 1);
  if (failed(axis))
    return RelationStatus::Failed;
  int64_t count = args.getInt("num_newaxis", 1);
  if (count < 0)
    return args.fail("num_newaxis must be non-negative");
  SmallVector<Dim> out(in.dims.begin(), in.dims.begin() + *axis);
  out.append(count, Dim::of(1));
  out.append(in.dims.begin() + *axis, in.dims.end());
  return args.solve(makeTensor(args.getContext(), out, in.dtype));
}

//===----------------------------------------------------------------------===//
// Joining and splitting
//===----------------------------------------------------------------------===//

RelationStatus mlir::relay::readTensorTuple(RelationArgs &args,
                                            SmallVectorImpl<TensorInfo> &fields,
                                            bool sameDtype) {
  Type input = args.getInput(0);
  auto tuple = dyn_cast<TupleType>(input);
  if (!tuple) {
    TensorInfo ignored;
    if (readTensor(input, ignored) == TensorState::Unknown &&
        !isa<UnrankedTensorType>(input))
      return RelationStatus::Pending;
    return args.fail("expected a tuple of tensors, got " + typeStr(input));
  }
  if (tuple.size() == 0)
    return args.fail("expected a non-empty tuple of tensors");
  for (Type field : tuple.getTypes()) {
    TensorInfo &info = fields.emplace_back();
    switch (readTensor(field, info)) {
    case TensorState::Unknown:
      return RelationStatus::Pending;
    case TensorState::NotATensor:
      return args.fail("expected a tuple of tensors, got " + typeStr(input));
    case TensorState::Tensor:
      break;
    }
    if (sameDtype && info.dtype != fields.front().dtype)
      return args.fail("tuple fields have different dtypes: " + typeStr(input));
  }
  return RelationStatus::Solved;
}

static RelationStatus concatenateRelation(RelationArgs &args) {
  SmallVector<TensorInfo> fields;
  if (RelationStatus s = readTensorTuple(args, fields);
      s != RelationStatus::Solved)
    return s;
  int64_t rank = fields.front().getRank();
  if (rank == 0)
    return args.fail("cannot concatenate scalars");
  FailureOr<int64_t> axis = normalizeAxis(args, args.getInt("axis", 0), rank);
  if (failed(axis))
    return RelationStatus::Failed;
  SmallVector<Dim> out = fields.front().dims;
  for (const TensorInfo &field : llvm::drop_begin(fields)) {
    if (field.getRank() != rank)
      return args.fail("tuple fields have different ranks: " +
                       typeStr(args.getInput(0)));
    for (int64_t i = 0; i < rank; ++i) {
      if (i == *axis) {
        const Dim &a = out[i], &b = field.dims[i];
        out[i] = addDims(a, b);
        continue;
      }
      FailureOr<Dim> d = unifyDims(out[i], field.dims[i]);
      if (failed(d))
        return args.fail("dimension " + std::to_string(i) +
                         " differs between the fields of " +
                         typeStr(args.getInput(0)));
      out[i] = *d;
    }
  }
  return args.solve(makeTensor(args.getContext(), out, fields[0].dtype));
}

static RelationStatus stackRelation(RelationArgs &args) {
  SmallVector<TensorInfo> fields;
  if (RelationStatus s = readTensorTuple(args, fields);
      s != RelationStatus::Solved)
    return s;
  int64_t rank = fields.front().getRank();
  FailureOr<int64_t> axis =
      normalizeAxis(args, args.getInt("axis", 0), rank + 1);
  if (failed(axis))
    return RelationStatus::Failed;
  SmallVector<Dim> shape = fields.front().dims;
  for (const TensorInfo &field : llvm::drop_begin(fields)) {
    if (field.getRank() != rank)
      return args.fail("tuple fields have different ranks: " +
                       typeStr(args.getInput(0)));
    for (int64_t i = 0; i < rank; ++i) {
      FailureOr<Dim> d = unifyDims(shape[i], field.dims[i]);
      if (failed(d))
        return args.fail("tuple fields have different shapes: " +
                         typeStr(args.getInput(0)));
      shape[i] = *d;
    }
  }
  shape.insert(shape.begin() + *axis,
               Dim::of(static_cast<int64_t>(fields.size())));
  return args.solve(makeTensor(args.getContext(), shape, fields[0].dtype));
}

static RelationStatus splitRelation(RelationArgs &args) {
  TensorInfo in;
  READ_TENSOR_OR_RETURN(args, 0, in);
  int64_t rank = in.getRank();
  if (rank == 0)
    return args.fail("cannot split a scalar");
  FailureOr<int64_t> axis = normalizeAxis(args, args.getInt("axis", 0), rank);
  if (failed(axis))
    return RelationStatus::Failed;
  Attribute spec = args.getAttr("indices_or_sections");
  Dim whole = in.dims[*axis];
  SmallVector<Dim> pieces;
  if (auto sections = dyn_cast_or_null<IntegerAttr>(spec)) {
    int64_t n = sections.getInt();
    if (n <= 0)
      return args.fail("the number of sections must be positive, got " +
                       std::to_string(n));
    if (whole.isStatic() && whole.size % n != 0)
      return args.fail("cannot split dimension " + std::to_string(*axis) +
                       " of size " + std::to_string(whole.size) + " into " +
                       std::to_string(n) + " equal sections");
    pieces.assign(n, whole.isStatic() ? Dim::of(whole.size / n) : Dim::any());
  } else if (auto indices = dyn_cast_or_null<DenseI64ArrayAttr>(spec)) {
    int64_t begin = 0;
    for (int64_t index : indices.asArrayRef()) {
      if (index < begin)
        return args.fail("split indices must be increasing, got " +
                         formatInts(indices.asArrayRef()));
      if (whole.isStatic() && index > whole.size)
        return args.fail("split index " + std::to_string(index) +
                         " is past the end of dimension " +
                         std::to_string(*axis) + " (size " +
                         std::to_string(whole.size) + ")");
      pieces.push_back(Dim::of(index - begin));
      begin = index;
    }
    pieces.push_back(whole.isStatic() ? Dim::of(whole.size - begin)
                                      : Dim::any());
  } else {
    return args.fail("requires 'indices_or_sections' (an integer or "
                     "array<i64: ...>)");
  }
  SmallVector<Type> fields;
  for (const Dim &piece : pieces) {
    SmallVector<Dim> dims = in.dims;
    dims[*axis] = piece;
    fields.push_back(makeTensor(args.getContext(), dims, in.dtype));
  }
  return args.solve(TupleType::get(args.getContext(), fields));
}

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

static RelationStatus takeRelation(RelationArgs &args) {
  TensorInfo data, indices;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, indices);
  if (!isa<IntegerType>(indices.dtype))
    return args.fail("indices must be integers, got " +
                     typeStr(args.getInput(1)));
  StringRef mode = args.getString("mode", "clip");
  if (mode != "clip" && mode != "wrap" && mode != "fast")
    return args.fail("mode must be \"clip\", \"wrap\" or \"fast\", got \"" +
                     mode + "\"");
  std::optional<int64_t> axisAttr = args.getOptionalInt("axis");
  if (!axisAttr)
    return args.solve(makeTensor(args.getContext(), indices.dims, data.dtype));
  FailureOr<int64_t> axis = normalizeAxis(args, *axisAttr, data.getRank());
  if (failed(axis))
    return RelationStatus::Failed;
  int64_t batchDims = args.getInt("batch_dims", 0);
  if (batchDims < 0)
    batchDims += indices.getRank();
  if (batchDims < 0 || batchDims > indices.getRank() || batchDims > *axis)
    return args.fail("batch_dims " + std::to_string(batchDims) +
                     " is out of range");
  SmallVector<Dim> out(data.dims.begin(), data.dims.begin() + *axis);
  out.append(indices.dims.begin() + batchDims, indices.dims.end());
  out.append(data.dims.begin() + *axis + 1, data.dims.end());
  return args.solve(makeTensor(args.getContext(), out, data.dtype));
}

/// The indices of gather and scatter_elements: integers of data's rank, no
/// larger than data off `axis`. Returns the normalised axis.
static FailureOr<int64_t> checkElementIndices(RelationArgs &args,
                                              const TensorInfo &data,
                                              const TensorInfo &indices) {
  if (!isa<IntegerType>(indices.dtype)) {
    args.emitError() << "indices must be integers, got "
                     << typeStr(args.getInput(1));
    return failure();
  }
  if (indices.getRank() != data.getRank()) {
    args.emitError() << "indices must have the data's rank " << data.getRank()
                     << ", got " << typeStr(args.getInput(1));
    return failure();
  }
  FailureOr<int64_t> axis =
      normalizeAxis(args, args.getInt("axis", 0), data.getRank());
  if (failed(axis))
    return failure();
  for (int64_t d = 0; d < data.getRank(); ++d)
    if (d != *axis && data.dims[d].isStatic() && indices.dims[d].isStatic() &&
        indices.dims[d].size > data.dims[d].size) {
      args.emitError() << "indices dimension " << d << " ("
                       << indices.dims[d].size << ") exceeds the data's ("
                       << data.dims[d].size << ")";
      return failure();
    }
  return axis;
}

/// Gather (GatherElements): the result has the indices' shape and data's
/// dtype.
static RelationStatus gatherRelation(RelationArgs &args) {
  TensorInfo data, indices;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, indices);
  if (failed(checkElementIndices(args, data, indices)))
    return RelationStatus::Failed;
  return args.solve(makeTensor(args.getContext(), indices.dims, data.dtype));
}

/// The scatters' reductions: how an update combines with the element it
/// lands on.
static LogicalResult checkScatterReduction(RelationArgs &args, StringRef attr) {
  StringRef r = args.getString(attr, "update");
  if (r == "update" || r == "add" || r == "mul" || r == "min" || r == "max")
    return success();
  args.emitError() << attr << " \"" << r
                   << "\" is not one of update, add, mul, min, max";
  return failure();
}

/// ScatterElements: indices as gather's, updates of their shape; the
/// result has data's type.
static RelationStatus scatterElementsRelation(RelationArgs &args) {
  TensorInfo data, indices;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, indices);
  if (failed(checkElementIndices(args, data, indices)) ||
      failed(checkScatterReduction(args, "reduction")))
    return RelationStatus::Failed;
  if (failed(expectInputType(
          args, 2, makeTensor(args.getContext(), indices.dims, data.dtype),
          "updates (the indices' shape, the data's dtype)")))
    return RelationStatus::Failed;
  return args.solve(args.getInput(0));
}

/// ScatterND (TVM's layout): data (X_0..X_{N-1}), indices
/// (M, Y_0..Y_{K-1}) with M <= N (given by the ranks when `?`), updates
/// (Y_0..Y_{K-1}, X_M..X_{N-1}); the result has data's type.
static RelationStatus scatterNDRelation(RelationArgs &args) {
  TensorInfo data, indices;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, indices);
  if (!isa<IntegerType>(indices.dtype))
    return args.fail("indices must be integers, got " +
                     typeStr(args.getInput(1)));
  if (indices.getRank() < 1)
    return args.fail("indices must have rank 1 or more, got " +
                     typeStr(args.getInput(1)));
  int64_t m = indices.dims[0].size;
  if (!indices.dims[0].isStatic()) {
    // The tuples' length from the ranks: updates have rank
    // rank(indices) - 1 + rank(data) - M.
    TensorInfo updates;
    READ_TENSOR_OR_RETURN(args, 2, updates);
    m = indices.getRank() - 1 + data.getRank() - updates.getRank();
  }
  if (m < 1 || m > data.getRank())
    return args.fail("index tuples of length " + std::to_string(m) +
                     " do not fit data of rank " +
                     std::to_string(data.getRank()));
  if (failed(checkScatterReduction(args, "mode")))
    return RelationStatus::Failed;
  SmallVector<Dim> updates(indices.dims.begin() + 1, indices.dims.end());
  updates.append(data.dims.begin() + m, data.dims.end());
  if (failed(expectInputType(
          args, 2, makeTensor(args.getContext(), updates, data.dtype),
          "updates (indices.shape[1:] + data.shape[M:], the data's dtype)")))
    return RelationStatus::Failed;
  return args.solve(args.getInput(0));
}

/// The size of `[begin:end:stride]` over a dimension of `size` (numpy's
/// slicing with clamping).
static int64_t sliceSize(int64_t size, int64_t begin, int64_t end,
                         int64_t stride) {
  auto clamp = [&](int64_t v, int64_t lo, int64_t hi) {
    return std::max(lo, std::min(hi, v));
  };
  if (begin < 0)
    begin += size;
  if (end < 0)
    end += size;
  if (stride > 0) {
    begin = clamp(begin, 0, size);
    end = clamp(end, 0, size);
    return end > begin ? (end - begin + stride - 1) / stride : 0;
  }
  begin = clamp(begin, -1, size - 1);
  end = clamp(end, -1, size - 1);
  return begin > end ? (begin - end - stride - 1) / -stride : 0;
}

static RelationStatus stridedSliceRelation(RelationArgs &args) {
  TensorInfo in;
  READ_TENSOR_OR_RETURN(args, 0, in);
  int64_t rank = in.getRank();
  SmallVector<int64_t> begin = args.getInts("begin");
  SmallVector<int64_t> end = args.getInts("end");
  SmallVector<int64_t> strides = args.getInts("strides", {1});
  StringRef mode = args.getString("slice_mode", "end");
  if (mode != "end" && mode != "size")
    return args.fail("slice_mode must be \"end\" or \"size\", got \"" + mode +
                     "\"");
  SmallVector<int64_t> axes;
  if (std::optional<SmallVector<int64_t>> given =
          args.getOptionalInts("axes")) {
    for (int64_t a : *given) {
      FailureOr<int64_t> axis = normalizeAxis(args, a, rank);
      if (failed(axis))
        return RelationStatus::Failed;
      axes.push_back(*axis);
    }
    if (begin.size() != axes.size() || end.size() != axes.size())
      return args.fail("begin and end must have one entry per axis");
  } else {
    if (static_cast<int64_t>(begin.size()) > rank ||
        static_cast<int64_t>(end.size()) > rank)
      return args.fail("begin and end have more entries than the rank " +
                       std::to_string(rank));
    for (int64_t i = 0, e = std::max(begin.size(), end.size()); i < e; ++i)
      axes.push_back(i);
  }
  SmallVector<Dim> out = in.dims;
  for (auto [i, axis] : llvm::enumerate(axes)) {
    int64_t stride = strides.size() == 1  ? strides[0]
                     : i < strides.size() ? strides[i]
                                          : 1;
    if (stride == 0)
      return args.fail("strides must be non-zero");
    if (mode == "size")
      stride = 1;
    const Dim &d = in.dims[axis];
    int64_t b = i < begin.size() ? begin[i] : (stride > 0 ? 0 : -1);
    int64_t e;
    if (i < end.size()) {
      e = end[i];
      // In "size" mode `end` is a length (-1: to the end).
      if (mode == "size")
        e = e < 0 || e > INT64_MAX / 2 || std::abs(b) > INT64_MAX / 2
                ? (d.isStatic() ? d.size : INT64_MAX)
                : b + e;
    } else {
      e = stride > 0 ? (d.isStatic() ? d.size : INT64_MAX) : INT64_MIN;
    }
    if (!d.isStatic()) {
      out[axis] = Dim::any();
      continue;
    }
    // TVM writes "to the end" as a large end value; clamp before slicing.
    e = std::max<int64_t>(std::min<int64_t>(e, d.size), -d.size - 1);
    out[axis] = Dim::of(sliceSize(d.size, b, e, stride));
  }
  return args.solve(makeTensor(args.getContext(), out, in.dtype));
}

//===----------------------------------------------------------------------===//
// Broadcasting to a shape, padding, layouts
//===----------------------------------------------------------------------===//

static RelationStatus broadcastToRelation(RelationArgs &args) {
  TensorInfo in;
  READ_TENSOR_OR_RETURN(args, 0, in);
  std::optional<SmallVector<int64_t>> shape = args.getOptionalInts("shape");
  if (!shape)
    return args.fail("requires a 'shape' attribute");
  if (in.getRank() > static_cast<int64_t>(shape->size()))
    return args.fail("cannot broadcast " + typeStr(args.getInput(0)) +
                     " to the lower-rank shape " + formatInts(*shape));
  size_t offset = shape->size() - in.getRank();
  for (int64_t i = 0; i < in.getRank(); ++i) {
    const Dim &d = in.dims[i];
    int64_t target = (*shape)[offset + i];
    if (d.isStatic() && d.size != 1 && d.size != target)
      return args.fail("cannot broadcast " + typeStr(args.getInput(0)) +
                       " to shape " + formatInts(*shape));
  }
  return args.solve(makeTensor(args.getContext(), *shape, in.dtype));
}

static RelationStatus padRelation(RelationArgs &args) {
  TensorInfo in, value;
  READ_TENSOR_OR_RETURN(args, 0, in);
  TensorState valueState = readInputTensor(args, 1, value);
  if (valueState == TensorState::NotATensor)
    return RelationStatus::Failed;
  if (valueState == TensorState::Tensor && value.getRank() != 0)
    return args.fail("pad_value must be a scalar, got " +
                     typeStr(args.getInput(1)));
  std::optional<SmallVector<int64_t>> width = args.getOptionalInts("pad_width");
  if (!width)
    return args.fail("requires 'pad_width' (array<i64: before0, after0, "
                     "before1, after1, ...>)");
  int64_t rank = in.getRank();
  if (static_cast<int64_t>(width->size()) != 2 * rank)
    return args.fail("pad_width needs " + std::to_string(2 * rank) +
                     " values (a before and an after per axis), got " +
                     std::to_string(width->size()));
  StringRef mode = args.getString("pad_mode", "constant");
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    return args.fail("pad_mode must be \"constant\", \"edge\" or "
                     "\"reflect\", got \"" +
                     mode + "\"");
  SmallVector<Dim> out;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t before = (*width)[2 * i], after = (*width)[2 * i + 1];
    if (before < 0 || after < 0)
      return args.fail("pad_width values must be non-negative");
    const Dim &d = in.dims[i];
    out.push_back(before == 0 && after == 0
                      ? d
                      : addDims(addDims(d, Dim::of(before)), Dim::of(after)));
  }
  return args.solve(makeTensor(args.getContext(), out, in.dtype));
}

static RelationStatus layoutTransformRelation(RelationArgs &args) {
  TensorInfo in;
  READ_TENSOR_OR_RETURN(args, 0, in);
  StringRef srcText = args.getString("src_layout", "");
  StringRef dstText = args.getString("dst_layout", "");
  FailureOr<relay::DataLayout> src = relay::DataLayout::parse(srcText);
  FailureOr<relay::DataLayout> dst = relay::DataLayout::parse(dstText);
  if (failed(src) || failed(dst))
    return args.fail("invalid layout \"" + (failed(src) ? srcText : dstText) +
                     "\"");
  if (static_cast<int64_t>(src->axes.size()) != in.getRank())
    return args.fail("src_layout \"" + srcText + "\" has " +
                     std::to_string(src->axes.size()) +
                     " axes but the tensor has rank " +
                     std::to_string(in.getRank()));
  // A sub-axis holds exactly its factor (TVM's layouts read the factor,
  // not the extent: a shorter one would be read past).
  for (auto [axis, dim] : llvm::zip(src->axes, in.dims))
    if (axis.factor != 0 && dim.isStatic() && dim.size != axis.factor)
      return args.fail("sub-axis " + std::to_string(axis.factor) +
                       std::string(1, axis.name) + " of src_layout \"" +
                       srcText + "\" has extent " + std::to_string(dim.size) +
                       " in " + typeStr(args.getInput(0)));
  SmallVector<Dim> out;
  for (const relay::DataLayout::Axis &axis : dst->axes) {
    char primal = llvm::toUpper(axis.name);
    std::optional<size_t> srcPrimal = src->find(primal, false);
    if (!srcPrimal)
      return args.fail("dst_layout \"" + dstText + "\" has axis " +
                       std::string(1, primal) + " that src_layout \"" +
                       srcText + "\" lacks");
    if (axis.factor != 0) {
      out.push_back(Dim::of(axis.factor));
      continue;
    }
    // The whole extent of the primal axis, then divided by dst's factors.
    Dim whole = in.dims[*srcPrimal];
    for (size_t sub : src->subAxes(primal))
      whole = mulDims(whole, in.dims[sub]);
    if (int64_t factor = dst->subFactor(primal); factor != 1) {
      if (whole.isStatic() && whole.size % factor != 0)
        return args.fail("axis " + std::string(1, primal) + " of size " +
                         std::to_string(whole.size) + " is not divisible by " +
                         std::to_string(factor));
      whole = whole.isStatic() ? Dim::of(whole.size / factor) : Dim::any();
    }
    out.push_back(whole);
  }
  for (const relay::DataLayout::Axis &axis : src->axes)
    if (axis.factor == 0 && !dst->find(axis.name, false))
      return args.fail("src_layout \"" + srcText + "\" has axis " +
                       std::string(1, axis.name) + " that dst_layout \"" +
                       dstText + "\" lacks");
  return args.solve(makeTensor(args.getContext(), out, in.dtype));
}

/// reverse_sequence: the data's type; seq_lengths holds one integer per
/// entry along batch_axis, which differs from seq_axis.
static RelationStatus reverseSequenceRelation(RelationArgs &args) {
  TensorInfo data, lengths;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, lengths);
  if (data.getRank() < 2)
    return args.fail("expected data of rank 2 or more, got " +
                     typeStr(args.getInput(0)));
  FailureOr<int64_t> seq = normalizeAxis(args, args.getInt("seq_axis", 1),
                                         data.getRank(), "seq_axis");
  if (failed(seq))
    return RelationStatus::Failed;
  FailureOr<int64_t> batch = normalizeAxis(args, args.getInt("batch_axis", 0),
                                           data.getRank(), "batch_axis");
  if (failed(batch))
    return RelationStatus::Failed;
  if (*seq == *batch)
    return args.fail("seq_axis and batch_axis must differ");
  if (lengths.getRank() != 1 || !isa<IntegerType>(lengths.dtype) ||
      failed(unifyDims(lengths.dims[0], data.dims[*batch])))
    return args.fail("seq_lengths must hold one integer per batch entry (" +
                     toString(data.dims[*batch]) + "), got " +
                     typeStr(args.getInput(1)));
  return args.solve(args.getInput(0));
}

/// sliding_window: the axes before `axis`, one axis of window positions
/// per windowed axis, then the window's axes.
static RelationStatus slidingWindowRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  int64_t rank = data.getRank(), axis = args.getInt("axis", 0);
  SmallVector<int64_t> window = args.getInts("window_shape");
  SmallVector<int64_t> strides = args.getInts("strides");
  if (axis < 0 || axis >= rank)
    return args.fail("axis " + Twine(axis) + " must be in [0, " + Twine(rank) +
                     ") for " + typeStr(args.getInput(0)));
  if (static_cast<int64_t>(window.size()) != rank - axis ||
      strides.size() != window.size())
    return args.fail("window_shape and strides need " + Twine(rank - axis) +
                     " values each (one per axis from axis " + Twine(axis) +
                     " on), got " + Twine(window.size()) + " and " +
                     Twine(strides.size()));
  SmallVector<Dim> dims(data.dims.begin(), data.dims.begin() + axis);
  for (auto [i, size] : llvm::enumerate(window)) {
    const Dim &d = data.dims[axis + i];
    if (size < 1 || strides[i] < 1)
      return args.fail("window_shape and strides must be positive");
    if (d.isStatic() && size > d.size)
      return args.fail("a window of " + Twine(size) + " does not fit axis " +
                       Twine(axis + i) + " of size " + Twine(d.size));
    dims.push_back(
        d.isStatic() ? Dim::of(llvm::divideCeil(d.size - size + 1, strides[i]))
                     : Dim::any());
  }
  for (int64_t size : window)
    dims.push_back(Dim::of(size));
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// vision.yolo_reorg: (N, C * s^2, H / s, W / s) of 4-d data.
static RelationStatus yoloReorgRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  int64_t s = args.getInt("stride", 1);
  if (s < 1)
    return args.fail("stride must be positive, got " + Twine(s));
  if (data.getRank() != 4)
    return args.fail("expected 4-d (NCHW) data, got " +
                     typeStr(args.getInput(0)));
  SmallVector<Dim> dims = data.dims;
  for (int64_t axis : {1, 2, 3}) {
    int64_t divisor = axis == 1 ? mulDims(Dim::of(s), Dim::of(s)).size : s;
    const Dim &d = data.dims[axis];
    if (d.isStatic() && d.size % divisor != 0)
      return args.fail("the data's " +
                       Twine(axis == 1   ? "channels"
                             : axis == 2 ? "height"
                                         : "width") +
                       " (" + Twine(d.size) + ") must divide by " +
                       Twine(divisor) + " for stride " + Twine(s));
    dims[axis] = !d.isStatic() ? Dim::any()
                 : axis == 1   ? mulDims(d, Dim::of(divisor))
                               : Dim::of(d.size / s);
  }
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// slice_like: the data with the sizes of shape_like along `axes` (the
/// leading axes both have when absent), none of them larger than the
/// data's.
static RelationStatus sliceLikeRelation(RelationArgs &args) {
  TensorInfo data, like;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, like);
  SmallVector<int64_t> axes;
  if (std::optional<SmallVector<int64_t>> given = args.getOptionalInts("axes");
      given && !given->empty()) {
    for (int64_t axis : *given) {
      FailureOr<int64_t> a = normalizeAxis(args, axis, data.getRank());
      if (failed(a))
        return RelationStatus::Failed;
      if (*a >= like.getRank())
        return args.fail("axis " + Twine(axis) +
                         " is out of range for "
                         "shape_like " +
                         typeStr(args.getInput(1)));
      axes.push_back(*a);
    }
  } else {
    for (int64_t i = 0; i < std::min(data.getRank(), like.getRank()); ++i)
      axes.push_back(i);
  }
  SmallVector<Dim> out = data.dims;
  for (int64_t axis : axes) {
    Dim want = like.dims[axis], have = data.dims[axis];
    if (want.isStatic() && have.isStatic() && want.size > have.size)
      return args.fail("shape_like's axis " + Twine(axis) + " (" +
                       Twine(want.size) + ") is larger than the data's (" +
                       Twine(have.size) + ")");
    out[axis] = want;
  }
  return args.solve(makeTensor(args.getContext(), out, data.dtype));
}

/// contrib_reverse_reshape: reshape's rules on both shapes reversed.
static RelationStatus reverseReshapeRelation(RelationArgs &args) {
  TensorInfo in;
  READ_TENSOR_OR_RETURN(args, 0, in);
  std::optional<SmallVector<int64_t>> newshape =
      args.getOptionalInts("newshape");
  if (!newshape)
    return args.fail("requires a 'newshape' attribute");
  MLIRContext *ctx = args.getContext();
  SmallVector<Dim> reversed(llvm::reverse(in.dims));
  SmallVector<int64_t> spec(llvm::reverse(*newshape));
  Builder b(ctx);
  NamedAttrList attrs;
  attrs.set("newshape", b.getDenseI64ArrayAttr(spec));
  Type output;
  RelationStatus s = runNestedRelation(
      args, "Reshape", {makeTensor(ctx, reversed, in.dtype)}, output,
      attrs.getDictionary(ctx), {},
      "contrib_reverse_reshape reads both shapes from the right: this "
      "is reshape on them reversed");
  if (s != RelationStatus::Solved)
    return s;
  TensorInfo out;
  if (readTensor(output, out) != TensorState::Tensor)
    return RelationStatus::Pending;
  SmallVector<Dim> dims(llvm::reverse(out.dims));
  return args.solve(makeTensor(ctx, dims, in.dtype));
}

/// strided_set: `v` of data's dtype and rank; begin, end and strides 1-d
/// integer tensors with at most one entry per axis.
static RelationStatus stridedSetRelation(RelationArgs &args) {
  TensorInfo data, v;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, v);
  if (v.getRank() != data.getRank() || v.dtype != data.dtype)
    return args.fail("expected the values v of the data's dtype and rank (" +
                     typeStr(args.getInput(0)) + "), got " +
                     typeStr(args.getInput(1)));
  static constexpr const char *names[] = {"begin", "end", "strides"};
  for (unsigned i = 2; i < 5; ++i) {
    TensorInfo bound;
    if (RelationStatus s = readIntegerVector(args, i, bound, names[i - 2]);
        s != RelationStatus::Solved)
      return s;
    if (bound.dims[0].isStatic() && bound.dims[0].size > data.getRank())
      return args.fail(Twine(names[i - 2]) + " has " +
                       Twine(bound.dims[0].size) + " entries for " +
                       typeStr(args.getInput(0)) + " of rank " +
                       Twine(data.getRank()));
  }
  return args.solve(args.getInput(0));
}

void mlir::relay::registerTransformRelations() {
  registerTypeRelation("ReverseSequence", reverseSequenceRelation);
  registerTypeRelation("SliceLike", sliceLikeRelation);
  registerTypeRelation("SlidingWindow", slidingWindowRelation);
  registerTypeRelation("YoloReorg", yoloReorgRelation);
  registerTypeRelation("Reshape", reshapeRelation);
  registerTypeRelation("ReverseReshape", reverseReshapeRelation);
  registerTypeRelation("StridedSet", stridedSetRelation);
  registerTypeRelation("ReshapeLike", reshapeLikeRelation);
  registerTypeRelation("BatchFlatten", batchFlattenRelation);
  registerTypeRelation("Transpose", transposeRelation);
  registerTypeRelation("Squeeze", squeezeRelation);
  registerTypeRelation("ExpandDims", expandDimsRelation);
  registerTypeRelation("Concatenate", concatenateRelation);
  registerTypeRelation("Stack", stackRelation);
  registerTypeRelation("Split", splitRelation);
  registerTypeRelation("Take", takeRelation);
  registerTypeRelation("Gather", gatherRelation);
  registerTypeRelation("ScatterElements", scatterElementsRelation);
  registerTypeRelation("ScatterND", scatterNDRelation);
  registerTypeRelation("StridedSlice", stridedSliceRelation);
  registerTypeRelation("BroadcastTo", broadcastToRelation);
  registerTypeRelation("Pad", padRelation);
  registerTypeRelation("LayoutTransform", layoutTransformRelation);
}
