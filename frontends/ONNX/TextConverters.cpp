//===- TextConverters.cpp - ONNX's text feature operators -------*- C++ -*-===//
//
// TfIdfVectorizer on token ids (int32/int64; Relay has no string tensors):
// for each n-gram length n and skip k, the windows of n tokens k + 1 apart
// are n strided slices of the input, compared at once with every n-gram of
// that length in the pool (a constant), the matches summed over the
// windows; the counts of all lengths, weighted by the mode, are placed at
// their output indices by a product with a constant 0/1 matrix. Counted as
// ONNX's reference does: a unigram once whatever the skip, an n-gram once
// per start and skip.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/Emitter.h"

#include "dialects/relay/RelayOps.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

LogicalResult convertTfIdfVectorizer(NodeContext &ctx) {
  if (ctx.getNumInputs() == 1 && ctx.hasInput(0) && !ctx.tensorType(0))
    return ctx.fail("input #0 must be a tensor");
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  auto type = ctx.tensorType(0);
  auto element = dyn_cast<IntegerType>(type.getElementType());
  if (!element || (element.getWidth() != 32 && element.getWidth() != 64))
    return ctx.fail("takes int32 or int64 token ids (string inputs are not "
                    "supported: Relay has no string tensors)");
  if (type.getRank() != 1 && type.getRank() != 2)
    return ctx.fail("takes a 1-d or 2-d input, got rank " +
                    Twine(type.getRank()));
  if (ctx.hasAttr("pool_strings"))
    return ctx.fail("a pool of strings is not supported (token ids only)");
  std::string mode = ctx.attrString("mode", "");
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF")
    return ctx.fail("mode must be TF, IDF or TFIDF, got '" + mode + "'");
  int64_t minLength = ctx.attrInt("min_gram_length", 0);
  int64_t maxLength = ctx.attrInt("max_gram_length", 0);
  int64_t maxSkip = ctx.attrInt("max_skip_count", 0);
  SmallVector<int64_t> pool = ctx.attrInts("pool_int64s");
  SmallVector<int64_t> counts = ctx.attrInts("ngram_counts");
  SmallVector<int64_t> indexes = ctx.attrInts("ngram_indexes");
  SmallVector<double> weights = ctx.attrFloats("weights");
  if (minLength < 1 || maxLength < minLength)
    return ctx.fail("needs 1 <= min_gram_length <= max_gram_length, got " +
                    Twine(minLength) + " and " + Twine(maxLength));
  if (maxSkip < 0)
    return ctx.fail("max_skip_count must not be negative");
  if (static_cast<int64_t>(counts.size()) != maxLength)
    return ctx.fail("ngram_counts must have max_gram_length (" +
                    Twine(maxLength) + ") entries, got " +
                    Twine(counts.size()));
  // The n-grams of each length: pool[counts[n-1] : counts[n]], n tokens
  // each; their number in pool order is their position in ngram_indexes.
  SmallVector<int64_t> firstOfLength, numOfLength;
  int64_t numGrams = 0;
  for (int64_t n = 1; n <= maxLength; ++n) {
    int64_t begin = counts[n - 1];
    int64_t end = n < maxLength ? counts[n] : int64_t(pool.size());
    if (begin < 0 || end < begin || end > int64_t(pool.size()) ||
        (end - begin) % n != 0)
      return ctx.fail("ngram_counts do not split pool_int64s (" +
                      Twine(pool.size()) + " ids) into whole n-grams");
    firstOfLength.push_back(numGrams);
    numOfLength.push_back((end - begin) / n);
    numGrams += (end - begin) / n;
  }
  if (static_cast<int64_t>(indexes.size()) != numGrams)
    return ctx.fail("ngram_indexes must have one entry per n-gram of the "
                    "pool (" +
                    Twine(numGrams) + "), got " + Twine(indexes.size()));
  if (!weights.empty() && static_cast<int64_t>(weights.size()) != numGrams)
    return ctx.fail("weights must have one entry per n-gram of the pool (" +
                    Twine(numGrams) + "), got " + Twine(weights.size()));
  int64_t size = 0;
  for (int64_t index : indexes) {
    if (index < 0 || index > (1 << 24))
      return ctx.fail("ngram_indexes holds " + Twine(index) +
                      ", outside [0, 2^24]");
    size = std::max(size, index + 1);
  }

  Emitter b(ctx);
  MLIRContext *mlirCtx = ctx.getContext();
  Type i64 = IntegerType::get(mlirCtx, 64), f32 = Float32Type::get(mlirCtx);
  bool batched = type.getRank() == 2;
  int64_t rows = batched ? type.getDimSize(0) : 1;
  int64_t length = type.getShape().back();
  Value x = ctx.input(0);
  if (!batched)
    x = b.op<ReshapeOp>({x}, {ctx.ints("newshape", {1, length})});
  if (element.getWidth() != 64)
    x = b.op<CastOp>({x}, {ctx.type("dtype", i64)});

  // The counts of each n-gram of the pool, in pool order: [rows, numGrams].
  SmallVector<Value> perLength;
  for (int64_t n = 1; n <= maxLength; ++n) {
    int64_t grams = numOfLength[n - 1];
    if (n < minLength || grams == 0)
      continue;
    ArrayRef<int64_t> tokens =
        ArrayRef<int64_t>(pool).slice(counts[n - 1], grams * n);
    Value gramsConst =
        ctx.constant(i64Elements(mlirCtx, {1, 1, grams, n}, tokens));
    Value total;
    // A unigram is counted once, whatever the skip.
    for (int64_t skip = 0; skip <= (n == 1 ? 0 : maxSkip); ++skip) {
      int64_t span = (n - 1) * (skip + 1) + 1;
      if (span > length)
        break;
      int64_t windows = length - span + 1;
      // Token t of every window: [rows, windows, 1] each, stacked on a
      // last axis of n.
      SmallVector<Value> parts;
      for (int64_t t = 0; t < n; ++t) {
        int64_t start = t * (skip + 1);
        Value part = b.op<StridedSliceOp>(
            {x}, {ctx.ints("begin", {start}),
                  ctx.ints("end", {start + windows}), ctx.ints("axes", {1})});
        parts.push_back(part);
      }
      Value window = b.stack(parts, 2); // [rows, windows, n]
      window = b.op<ExpandDimsOp>({window}, {ctx.i64("axis", 2)});
      Value match = b.op<AllOp>({b.op<EqualOp>({window, gramsConst})},
                                {ctx.ints("axis", {3})});
      Value found =
          b.op<SumOp>({b.op<CastOp>({match}, {ctx.type("dtype", f32)})},
                      {ctx.ints("axis", {1})}); // [rows, grams]
      total = total ? b.add(total, found) : found;
    }
    if (!total)
      total = ctx.constant(DenseElementsAttr::get(
          RankedTensorType::get({rows, grams}, f32), 0.0f));
    perLength.push_back(total);
  }
  // Every n-gram below min_gram_length counts 0.
  int64_t skipped = minLength > 1 ? firstOfLength[minLength - 1] : 0;
  if (skipped > 0)
    perLength.insert(perLength.begin(),
                     ctx.constant(DenseElementsAttr::get(
                         RankedTensorType::get({rows, skipped}, f32), 0.0f)));
  Value found;
  if (perLength.empty())
    found = ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get({rows, numGrams}, f32), 0.0f));
  else if (perLength.size() == 1)
    found = perLength.front();
  else
    found = b.op<ConcatenateOp>({ctx.tuple(perLength)}, {ctx.i64("axis", 1)});

  // The mode: counts (TF), 1 where found (IDF), times the weights.
  if (mode == "IDF")
    found = b.op<CastOp>({b.op<GreaterOp>({found, b.scalar(0, found)})},
                         {ctx.type("dtype", f32)});
  if (mode != "TF" && !weights.empty()) {
    SmallVector<float> w(weights.begin(), weights.end());
    found =
        b.mul(found,
              ctx.constant(DenseElementsAttr::get(
                  RankedTensorType::get({numGrams}, f32), ArrayRef<float>(w))));
  }
  // Each n-gram's count at its output index: times a 0/1 [numGrams, size].
  SmallVector<float> place(numGrams * size, 0.0f);
  for (auto [j, index] : llvm::enumerate(indexes))
    place[j * size + index] = 1.0f;
  Value placed =
      b.op<MatmulOp>({found, ctx.constant(DenseElementsAttr::get(
                                 RankedTensorType::get({numGrams, size}, f32),
                                 ArrayRef<float>(place)))});
  if (!batched)
    placed = b.op<ReshapeOp>({placed}, {ctx.ints("newshape", {size})});
  return b.output(placed);
}

} // namespace

void mlir::relay::onnx_import::addTextConverters(ConverterTable &t) {
  t["TfIdfVectorizer"] = convertTfIdfVectorizer;
}
