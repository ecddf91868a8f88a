//===- AttentionConverters.cpp - ONNX's transformer operators ---*- C++ -*-===//
//
// The operators ONNX added for transformers in opsets 23, 24 and 27:
// Attention (scaled dot-product attention with grouped heads, masks, a
// causal or sliding window, soft capping and a key/value cache),
// RotaryEmbedding, RMSNormalization, TensorScatter (a cache update),
// CausalConvWithState and LinearAttention (recurrent linear attention).
// Each is composed from relay operators (batch_matmul, softmax, where,
// gather ...) as the operator's function body in ONNX is, so that fusion
// and the product kernels see ordinary operators.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/Emitter.h"

#include "llvm/ADT/Sequence.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

Type i64Type(NodeContext &ctx) {
  return IntegerType::get(ctx.getContext(), 64);
}

/// An int64 constant of `shape` counting 0, 1, ... along its one axis that
/// is not 1 (an index along that axis, to broadcast against others).
Value iota(NodeContext &ctx, int64_t n, int64_t axis, int64_t rank) {
  SmallVector<int64_t> shape(rank, 1), values(n);
  shape[axis] = n;
  for (int64_t i = 0; i < n; ++i)
    values[i] = i;
  return ctx.constant(i64Elements(ctx.getContext(), shape, values));
}

/// RMSNormalization (23): x / sqrt(mean(x^2) + epsilon) over the axes from
/// `axis` on, computed in `stash_type` (float32 by default) and cast back
/// before the scale, as the operator's function body does.
LogicalResult convertRMSNorm(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  Type e = ctx.elementType(0);
  if (!isa<FloatType>(e))
    return ctx.fail("expects a floating-point input");
  int64_t code = ctx.attrInt("stash_type", 1);
  Type stash = convertDataType(ctx.getContext(), code);
  if (!stash || !isa<FloatType>(stash))
    return ctx.fail("stash_type " + dataTypeName(code) +
                    " is not a floating-point type");
  int64_t rank = ctx.rank(0);
  FailureOr<int64_t> axis = ctx.axis(ctx.attrInt("axis", -1), rank);
  if (failed(axis))
    return failure();
  auto axes = llvm::to_vector(llvm::seq<int64_t>(*axis, rank));
  Emitter b(ctx);
  Value x = b.castTo(ctx.input(0), stash);
  Value meanSquare = b.op<MeanOp>(
      {b.mul(x, x)}, {ctx.ints("axis", axes), ctx.boolean("keepdims", true)});
  Value rms = b.op<SqrtOp>(
      {b.add(meanSquare, b.scalar(ctx.attrFloat("epsilon", 1e-5), x))});
  Value normalized = b.castTo(b.op<DivideOp>({x, rms}), e);
  return b.output(b.mul(normalized, ctx.input(1)));
}

/// RotaryEmbedding (23): rotates pairs of each head's first
/// `rotary_embedding_dim` features by the angles whose cosines and sines
/// the caches hold (looked up by position_ids when given); pairs are the
/// two halves, or neighbours when `interleaved`.
LogicalResult convertRotaryEmbedding(NodeContext &ctx) {
  if (failed(ctx.checkInputs(3, 4)))
    return failure();
  int64_t rank = ctx.rank(0);
  if (rank != 3 && rank != 4)
    return ctx.fail("expects an input of rank 3 (batch, sequence, hidden) or "
                    "4 (batch, heads, sequence, head size), got rank " +
                    Twine(rank));
  ArrayRef<int64_t> in = ctx.shape(0);
  int64_t batch = in[0], seq, heads, head;
  if (rank == 4) {
    heads = in[1], seq = in[2], head = in[3];
  } else {
    heads = ctx.attrInt("num_heads", 0);
    seq = in[1];
    if (heads < 1 || in[2] % heads != 0)
      return ctx.fail("a 3-d input needs num_heads dividing its hidden size " +
                      Twine(in[2]) + ", got " + Twine(heads));
    head = in[2] / heads;
  }
  int64_t dim = ctx.attrInt("rotary_embedding_dim", 0);
  if (dim == 0)
    dim = head;
  if (dim < 0 || dim > head || dim % 2 != 0)
    return ctx.fail("rotary_embedding_dim " + Twine(dim) +
                    " must be even and at most the head size " + Twine(head));
  int64_t half = dim / 2;
  bool positions = ctx.hasInput(3);
  SmallVector<int64_t> cacheShape =
      positions ? SmallVector<int64_t>{-1, half}
                : SmallVector<int64_t>{batch, seq, half};
  for (unsigned i : {1u, 2u}) {
    ArrayRef<int64_t> s = ctx.shape(i);
    bool fits = s.size() == cacheShape.size() && s.back() == half;
    for (size_t d = 0; fits && d + 1 < s.size(); ++d)
      fits = cacheShape[d] < 0 || s[d] == cacheShape[d];
    if (fits)
      continue;
    std::string expected =
        positions
            ? "[max position + 1, " + std::to_string(half) +
                  "] (with position_ids)"
            : "[" + std::to_string(batch) + ", " + std::to_string(seq) + ", " +
                  std::to_string(half) + "] (without position_ids)";
    return ctx.fail(Twine(i == 1 ? "cos_cache" : "sin_cache") + " must be " +
                    expected);
  }
  if (positions && (ctx.shape(3) != ArrayRef<int64_t>{batch, seq} ||
                    !isa<IntegerType>(ctx.elementType(3))))
    return ctx.fail("position_ids must be integers of shape [" + Twine(batch) +
                    ", " + Twine(seq) + "]");

  Emitter b(ctx);
  // To [batch, sequence, heads, head size].
  Value x =
      rank == 4
          ? b.op<TransposeOp>({ctx.input(0)}, {ctx.ints("axes", {0, 2, 1, 3})})
          : b.op<ReshapeOp>({ctx.input(0)},
                            {ctx.ints("newshape", {batch, seq, heads, head})});
  auto cache = [&](unsigned i) {
    Value c = ctx.input(i);
    if (positions)
      c = b.op<TakeOp>({c, ctx.input(3)}, {ctx.i64("axis", 0)});
    return b.op<ReshapeOp>({c}, {ctx.ints("newshape", {batch, seq, 1, half})});
  };
  Value cos = cache(1), sin = cache(2);
  auto slice = [&](Value v, int64_t from, int64_t to, int64_t axis) {
    return b.op<StridedSliceOp>({v}, {ctx.ints("begin", {from}),
                                      ctx.ints("end", {to}),
                                      ctx.ints("axes", {axis})});
  };
  Value rotated = dim == head ? x : slice(x, 0, dim, 3);
  Value x1, x2;
  if (ctx.attrInt("interleaved", 0)) {
    Value pairs = b.op<ReshapeOp>(
        {rotated}, {ctx.ints("newshape", {batch, seq, heads, half, 2})});
    x1 = b.take(pairs, 0, 4);
    x2 = b.take(pairs, 1, 4);
  } else {
    x1 = slice(rotated, 0, half, 3);
    x2 = slice(rotated, half, dim, 3);
  }
  Value real = b.op<SubtractOp>({b.mul(cos, x1), b.mul(sin, x2)});
  Value imag = b.add(b.mul(sin, x1), b.mul(cos, x2));
  Value y;
  if (ctx.attrInt("interleaved", 0))
    y = b.op<ReshapeOp>({b.stack({real, imag}, 4)},
                        {ctx.ints("newshape", {batch, seq, heads, dim})});
  else
    y = b.op<ConcatenateOp>({ctx.tuple({real, imag})}, {ctx.i64("axis", 3)});
  if (dim < head)
    y = b.op<ConcatenateOp>({ctx.tuple({y, slice(x, dim, head, 3)})},
                            {ctx.i64("axis", 3)});
  if (rank == 4)
    return b.output(b.op<TransposeOp>({y}, {ctx.ints("axes", {0, 2, 1, 3})}));
  return b.output(b.op<ReshapeOp>({y}, {ctx.ints("newshape", in)}));
}

/// Attention (23-25), as its function body: Q and K scaled by sqrt(scale),
/// Q K^T soft-capped, plus the bias of the mask, the causal and sliding
/// windows and the padding of nonpad_kv_seqlen, softmax (rows the bias
/// masks entirely give 0), times V. Outputs: Y, present_key,
/// present_value (past and new keys and values) and the QK product at the
/// stage qk_matmul_output_mode names.
class AttentionBuilder {
public:
  explicit AttentionBuilder(NodeContext &ctx) : ctx(ctx), b(ctx) {}

  LogicalResult build() {
    if (failed(ctx.checkInputs(3, 7)) || failed(readShapes()))
      return failure();
    Value q = toHeads(ctx.input(0), qHeads, sq, headSize);
    Value k = toHeads(ctx.input(1), kvHeads, skvNew, headSize);
    Value v = toHeads(ctx.input(2), kvHeads, skvNew, vHeadSize);
    if (past) {
      k = b.op<ConcatenateOp>({ctx.tuple({ctx.input(4), k})},
                              {ctx.i64("axis", 2)});
      v = b.op<ConcatenateOp>({ctx.tuple({ctx.input(5), v})},
                              {ctx.i64("axis", 2)});
    }
    Value presentKey = k, presentValue = v;
    double scale = ctx.hasAttr("scale") ? ctx.attrFloat("scale", 1.0)
                                        : 1 / std::sqrt(double(headSize));
    Value root = b.scalar(std::sqrt(scale), q);
    // Grouped heads: query head h reads key/value head h / groups. The
    // query heads of one key/value head are consecutive, so the products
    // take them as one matrix of groups * sq rows against that head's keys
    // (reshapes only; the keys and values are not repeated).
    int64_t groups = qHeads / kvHeads, bkv = batch * kvHeads;
    Value qk = b.op<BatchMatmulOp>(
        {b.op<ReshapeOp>({b.mul(q, root)},
                         {ctx.ints("newshape", {bkv, groups * sq, headSize})}),
         b.op<ReshapeOp>({b.mul(k, root)},
                         {ctx.ints("newshape", {bkv, skv, headSize})})},
        {ctx.boolean("transpose_b", true)});
    qk =
        b.op<ReshapeOp>({qk}, {ctx.ints("newshape", {batch, qHeads, sq, skv})});
    Value stages[4];
    stages[0] = qk;
    double softcap = ctx.attrFloat("softcap", 0.0);
    if (softcap > 0) {
      Value capped = b.op<TanhOp>({b.mul(qk, b.scalar(1 / softcap, qk))});
      qk = b.mul(capped, b.scalar(softcap, qk));
    }
    stages[1] = qk;
    Value bias = buildBias();
    if (bias)
      qk = b.add(qk, bias);
    stages[2] = qk;
    Value probs = softmax(qk);
    // A row that the bias masks entirely attends nothing: 0, not the NaN
    // of a softmax over -inf.
    if (bias && mayMaskRows) {
      Value rowMax = b.op<MaxOp>(
          {bias}, {ctx.ints("axis", {-1}), ctx.boolean("keepdims", true)});
      Value masked = b.op<EqualOp>({rowMax, b.scalar(kNegInf, rowMax)});
      probs = b.op<WhereOp>({masked, b.scalar(0, probs), probs});
    }
    stages[3] = probs;
    Value y = b.op<BatchMatmulOp>(
        {b.op<ReshapeOp>({probs},
                         {ctx.ints("newshape", {bkv, groups * sq, skv})}),
         b.op<ReshapeOp>({v}, {ctx.ints("newshape", {bkv, skv, vHeadSize})})},
        {ctx.boolean("transpose_b", false)});
    y = b.op<ReshapeOp>({y},
                        {ctx.ints("newshape", {batch, qHeads, sq, vHeadSize})});
    if (threeD)
      y = b.op<ReshapeOp>(
          {b.op<TransposeOp>({y}, {ctx.ints("axes", {0, 2, 1, 3})})},
          {ctx.ints("newshape", {batch, sq, qHeads * vHeadSize})});
    int64_t mode = ctx.attrInt("qk_matmul_output_mode", 0);
    if (mode < 0 || mode > 3)
      return ctx.fail("qk_matmul_output_mode must be 0 to 3, got " +
                      Twine(mode));
    if (failed(b.output(y)) || failed(b.output(presentKey)) ||
        failed(b.output(presentValue)))
      return failure();
    return b.output(stages[mode]);
  }

private:
  /// Reads and checks the shapes: 4-d inputs [batch, heads, sequence,
  /// head size], or 3-d [batch, sequence, heads * head size] with the
  /// heads given by q_num_heads and kv_num_heads.
  LogicalResult readShapes() {
    int64_t rank = ctx.rank(0);
    if ((rank != 3 && rank != 4) || ctx.rank(1) != rank || ctx.rank(2) != rank)
      return ctx.fail("Q, K and V must all be 3-d or all 4-d");
    threeD = rank == 3;
    ArrayRef<int64_t> qs = ctx.shape(0), ks = ctx.shape(1), vs = ctx.shape(2);
    batch = qs[0];
    if (ks[0] != batch || vs[0] != batch)
      return ctx.fail("Q, K and V have different batch sizes");
    if (threeD) {
      qHeads = ctx.attrInt("q_num_heads", 0);
      kvHeads = ctx.attrInt("kv_num_heads", 0);
      if (qHeads < 1 || kvHeads < 1)
        return ctx.fail("3-d inputs need q_num_heads and kv_num_heads");
      if (qs[2] % qHeads || ks[2] % kvHeads || vs[2] % kvHeads)
        return ctx.fail("q_num_heads " + Twine(qHeads) + " and kv_num_heads " +
                        Twine(kvHeads) +
                        " must divide the hidden sizes of Q (" + Twine(qs[2]) +
                        "), K (" + Twine(ks[2]) + ") and V (" + Twine(vs[2]) +
                        ")");
      sq = qs[1], skvNew = ks[1];
      headSize = qs[2] / qHeads;
      vHeadSize = vs[2] / kvHeads;
      if (ks[2] / kvHeads != headSize)
        return ctx.fail("the heads of Q and K differ in size");
    } else {
      qHeads = qs[1], kvHeads = ks[1], sq = qs[2], skvNew = ks[2];
      headSize = qs[3], vHeadSize = vs[3];
      if (ks[3] != headSize)
        return ctx.fail("the heads of Q and K differ in size (" +
                        Twine(headSize) + " and " + Twine(ks[3]) + ")");
      if (vs[1] != kvHeads)
        return ctx.fail("K and V have different numbers of heads");
      for (StringRef name : {"q_num_heads", "kv_num_heads"})
        if (ctx.hasAttr(name) &&
            ctx.attrInt(name, 0) != (name == "q_num_heads" ? qHeads : kvHeads))
          return ctx.fail(name + " contradicts the shape of the 4-d inputs");
    }
    if (vs[threeD ? 1 : 2] != skvNew)
      return ctx.fail("K and V have different sequence lengths");
    if (qHeads % kvHeads != 0)
      return ctx.fail("the " + Twine(kvHeads) +
                      " key/value heads must divide the " + Twine(qHeads) +
                      " query heads");
    past = ctx.hasInput(4) || ctx.hasInput(5);
    if (past && !(ctx.hasInput(4) && ctx.hasInput(5)))
      return ctx.fail("past_key and past_value must be given together");
    pastLength = 0;
    if (past) {
      ArrayRef<int64_t> pk = ctx.shape(4), pv = ctx.shape(5);
      if (pk.size() != 4 || pv.size() != 4 ||
          pk != ArrayRef<int64_t>{batch, kvHeads, pk[2], headSize} ||
          pv != ArrayRef<int64_t>{batch, kvHeads, pk[2], vHeadSize})
        return ctx.fail("past_key and past_value must be [" + Twine(batch) +
                        ", " + Twine(kvHeads) + ", past length, head size]");
      pastLength = pk[2];
    }
    skv = pastLength + skvNew;
    nonpad = ctx.hasInput(6);
    if (nonpad) {
      if (past)
        return ctx.fail("nonpad_kv_seqlen cannot be combined with past_key "
                        "and past_value");
      if (ctx.shape(6) != ArrayRef<int64_t>{batch} ||
          !isa<IntegerType>(ctx.elementType(6)))
        return ctx.fail("nonpad_kv_seqlen must be " + Twine(batch) +
                        " integers, one per batch entry");
    }
    leftWindow = ctx.attrInt("left_window_size", -1);
    rightWindow = ctx.attrInt("right_window_size", -1);
    if (leftWindow < -1 || rightWindow < -1)
      return ctx.fail("window sizes must be -1 (unbounded) or at least 0");
    if (ctx.hasInput(3)) {
      ArrayRef<int64_t> m = ctx.shape(3);
      if (m.empty() || m.size() > 4 || m.back() > skv)
        return ctx.fail("attn_mask must have rank 1 to 4 and at most " +
                        Twine(skv) + " keys in its last dimension");
      Type me = ctx.elementType(3);
      if (!me.isInteger(1) && me != ctx.elementType(0))
        return ctx.fail("attn_mask must be boolean or of Q's type");
    }
    return success();
  }

  /// [batch, heads, sequence, size] from a 3-d or 4-d input.
  Value toHeads(Value x, int64_t heads, int64_t length, int64_t size) {
    if (!threeD)
      return x;
    Value split = b.op<ReshapeOp>(
        {x}, {ctx.ints("newshape", {batch, length, heads, size})});
    return b.op<TransposeOp>({split}, {ctx.ints("axes", {0, 2, 1, 3})});
  }

  /// 0 where `allowed`, -inf elsewhere, in Q's type.
  Value additive(Value allowed) {
    Type e = ctx.elementType(0);
    return b.op<WhereOp>({allowed, ctx.scalar(0, e), ctx.scalar(kNegInf, e)});
  }

  /// The bias added to QK^T, or null for none: the mask (booleans as 0 /
  /// -inf, padded with -inf to every key), the causal frontier and the
  /// sliding window about each query's position (offset by the past
  /// length, or per batch entry by nonpad_kv_seqlen - sq), and the keys
  /// past nonpad_kv_seqlen.
  Value buildBias() {
    Value bias;
    auto accumulate = [&](Value part) {
      bias = bias ? b.add(bias, part) : part;
    };
    if (ctx.hasInput(3)) {
      Value mask = ctx.input(3);
      ArrayRef<int64_t> m = ctx.shape(3);
      bool boolean = ctx.elementType(3).isInteger(1);
      if (boolean)
        mask = additive(mask);
      if (m.back() < skv) {
        SmallVector<int64_t> padShape(m);
        padShape.back() = skv - m.back();
        Value fill =
            b.op<BroadcastToOp>({ctx.scalar(kNegInf, ctx.elementType(0))},
                                {ctx.ints("shape", padShape)});
        mask = b.op<ConcatenateOp>({ctx.tuple({mask, fill})},
                                   {ctx.i64("axis", int64_t(m.size()) - 1)});
      }
      accumulate(mask);
      mayMaskRows = true;
    }
    bool causal = ctx.attrInt("is_causal", 0) != 0;
    bool window = leftWindow >= 0 || rightWindow >= 0;
    if (causal || window) {
      // The query's absolute position minus the key's: [sq, skv], or
      // [batch, 1, sq, skv] with a per-entry offset.
      Type i64 = i64Type(ctx);
      Value diff =
          b.op<SubtractOp>({iota(ctx, sq, 2, 4), iota(ctx, skv, 3, 4)});
      Value offset;
      if (nonpad)
        offset = b.op<ReshapeOp>({b.op<SubtractOp>({b.castTo(ctx.input(6), i64),
                                                    ctx.scalar(sq, i64)})},
                                 {ctx.ints("newshape", {batch, 1, 1, 1})});
      else
        offset = ctx.scalar(pastLength, i64);
      diff = b.add(diff, offset);
      Value allowed;
      auto both = [&](Value c) {
        allowed = allowed ? b.op<LogicalAndOp>({allowed, c}) : c;
      };
      Value zero = ctx.scalar(0, i64);
      if (causal)
        both(b.op<GreaterEqualOp>({diff, zero}));
      if (leftWindow >= 0)
        both(b.op<LessEqualOp>({diff, ctx.scalar(leftWindow, i64)}));
      if (rightWindow >= 0)
        both(b.op<GreaterEqualOp>({diff, ctx.scalar(-rightWindow, i64)}));
      accumulate(additive(allowed));
      mayMaskRows |= window || nonpad;
    }
    if (nonpad) {
      Value n = b.op<ReshapeOp>({b.castTo(ctx.input(6), i64Type(ctx))},
                                {ctx.ints("newshape", {batch, 1, 1, 1})});
      accumulate(additive(b.op<LessOp>({iota(ctx, skv, 3, 4), n})));
      mayMaskRows = true;
    }
    return bias;
  }

  /// Softmax over the keys, in softmax_precision's type when given.
  Value softmax(Value x) {
    Type e = ctx.elementType(0);
    Type precise = e;
    if (ctx.hasAttr("softmax_precision")) {
      int64_t code = ctx.attrInt("softmax_precision", 1);
      precise = convertDataType(ctx.getContext(), code);
      if (!precise || !isa<FloatType>(precise)) {
        (void)ctx.fail("softmax_precision " + dataTypeName(code) +
                       " is not a floating-point type");
        return b.abandon();
      }
    }
    Value p = b.op<SoftmaxOp>({b.castTo(x, precise)}, {ctx.i64("axis", -1)});
    return b.castTo(p, e);
  }

  NodeContext &ctx;
  Emitter b;
  bool threeD = false, past = false, nonpad = false, mayMaskRows = false;
  int64_t batch = 0, qHeads = 0, kvHeads = 0, sq = 0, skvNew = 0, skv = 0;
  int64_t headSize = 0, vHeadSize = 0, pastLength = 0;
  int64_t leftWindow = -1, rightWindow = -1;
};

/// TensorScatter (24): the cache with `update` written along `axis` from
/// each batch entry's write index (0 by default; modulo the cache's
/// length in circular mode). Each cache position gathers the update
/// position it receives, if any.
LogicalResult convertTensorScatter(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 3)))
    return failure();
  int64_t rank = ctx.rank(0);
  FailureOr<int64_t> axis = ctx.axis(ctx.attrInt("axis", -2), rank);
  if (failed(axis))
    return failure();
  if (*axis == 0)
    return ctx.fail("axis cannot be 0, the batch axis");
  std::string mode = ctx.attrString("mode", "linear");
  if (mode != "linear" && mode != "circular")
    return ctx.fail("mode must be linear or circular, got '" + mode + "'");
  ArrayRef<int64_t> cache = ctx.shape(0), update = ctx.shape(1);
  bool fits = update.size() == cache.size();
  for (int64_t d = 0; fits && d < rank; ++d)
    fits = d == *axis ? update[d] <= cache[d] : update[d] == cache[d];
  if (!fits || ctx.elementType(1) != ctx.elementType(0))
    return ctx.fail("update must be the cache's shape and type but for a "
                    "shorter sequence axis " +
                    Twine(*axis));
  int64_t length = cache[*axis], count = update[*axis];
  if (ctx.hasInput(2) && (ctx.shape(2) != ArrayRef<int64_t>{cache[0]} ||
                          !isa<IntegerType>(ctx.elementType(2))))
    return ctx.fail("write_indices must be " + Twine(cache[0]) +
                    " integers, one per batch entry");
  if (count == 0) {
    ctx.addOutput(ctx.input(0));
    return success();
  }
  Type i64 = i64Type(ctx);
  Emitter b(ctx);
  // Position p of the cache receives update position p - write index.
  Value source = iota(ctx, length, *axis, rank);
  if (ctx.hasInput(2)) {
    SmallVector<int64_t> perEntry(rank, 1);
    perEntry[0] = cache[0];
    source = b.op<SubtractOp>(
        {source, b.op<ReshapeOp>({b.castTo(ctx.input(2), i64)},
                                 {ctx.ints("newshape", perEntry)})});
  }
  if (mode == "circular")
    source = b.op<FloorModOp>({source, ctx.scalar(length, i64)});
  Value written =
      b.op<LogicalAndOp>({b.op<GreaterEqualOp>({source, ctx.scalar(0, i64)}),
                          b.op<LessOp>({source, ctx.scalar(count, i64)})});
  Value index = b.op<ClipOp>(
      {source}, {ctx.f64("a_min", 0), ctx.f64("a_max", double(count - 1))});
  index = b.op<BroadcastToOp>({index}, {ctx.ints("shape", cache)});
  Value gathered =
      b.op<GatherOp>({ctx.input(1), index}, {ctx.i64("axis", *axis)});
  return b.output(b.op<WhereOp>({written, gathered, ctx.input(0)}));
}

/// CausalConvWithState (27): a depthwise 1-d convolution over the past
/// state (zeros by default) followed by the input, no padding, plus the
/// bias, SiLU when asked; the state carried out is the last k - 1
/// positions of that sequence.
LogicalResult convertCausalConvWithState(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 4)))
    return failure();
  std::string activation = ctx.attrString("activation", "none");
  if (activation != "none" && activation != "silu" && activation != "swish")
    return ctx.fail("activation must be none, silu or swish, got '" +
                    activation + "'");
  if (ctx.rank(0) != 3)
    return ctx.fail("expects input of shape (batch, channels, length)");
  ArrayRef<int64_t> in = ctx.shape(0), w = ctx.shape(1);
  int64_t batch = in[0], channels = in[1], length = in[2];
  if (w.size() != 3 || w[0] != channels || w[1] != 1 || w[2] < 1)
    return ctx.fail("weight must be [" + Twine(channels) + ", 1, k]");
  int64_t k = w[2];
  if (ctx.hasInput(2) && ctx.shape(2) != ArrayRef<int64_t>{channels})
    return ctx.fail("bias must hold " + Twine(channels) + " values");
  SmallVector<int64_t> stateShape = {batch, channels, k - 1};
  if (ctx.hasInput(3) && ctx.shape(3) != ArrayRef<int64_t>(stateShape))
    return ctx.fail("past_state must be [" + Twine(batch) + ", " +
                    Twine(channels) + ", " + Twine(k - 1) + "]");
  Emitter b(ctx);
  Value x = ctx.input(0);
  if (k > 1) {
    Value past = ctx.hasInput(3)
                     ? ctx.input(3)
                     : b.op<BroadcastToOp>({b.scalar(0, x)},
                                           {ctx.ints("shape", stateShape)});
    x = b.op<ConcatenateOp>({ctx.tuple({past, x})}, {ctx.i64("axis", 2)});
  }
  Value y = b.op<Conv1DOp>({x, ctx.input(1)}, {ctx.i64("groups", channels),
                                               ctx.i64("channels", channels),
                                               ctx.ints("kernel_size", {k})});
  if (ctx.hasInput(2))
    y = b.op<BiasAddOp>({y, ctx.input(2)}, {ctx.i64("axis", 1)});
  if (activation != "none")
    y = b.mul(y, b.op<SigmoidOp>({y}));
  Value present =
      k > 1 ? b.op<StridedSliceOp>({x}, {ctx.ints("begin", {length}),
                                         ctx.ints("end", {length + k - 1}),
                                         ctx.ints("axes", {2})})
            : b.op<BroadcastToOp>({b.scalar(0, y)},
                                  {ctx.ints("shape", stateShape)});
  if (failed(b.output(y)))
    return failure();
  return b.output(present);
}

/// LinearAttention (27): the recurrence over the tokens on float32 state
/// [batch, kv heads, d_k, d_v]: decayed by exp(decay) (gated rules),
/// corrected by beta times the value less what the state retrieves for the
/// key (delta rules), plus key (x) value; each query head reads its
/// key/value head's state, scaled. Each token is about fifteen operators,
/// and compiling grows faster than their number when they are unrolled (64
/// tokens took about 16 s to compile, 512 over ten minutes: One-Shot
/// Bufferize took 0.05, 0.25 and 2.4 s at 16, 32 and 64 tokens). So up to
/// kUnrolledTokens tokens (decoding steps, short prefills) are unrolled;
/// longer sequences go in chunks of kTokenChunk tokens, a local recursive
/// function (a loop, compiled) whose body is one chunk unrolled, the
/// tokens padded to whole chunks with tokens that leave the state as it is
/// (zero key, value and beta, a decay factor of one).
constexpr int64_t kUnrolledTokens = 32, kTokenChunk = 16;

LogicalResult convertLinearAttention(NodeContext &ctx) {
  if (failed(ctx.checkInputs(3, 6)))
    return failure();
  std::string rule = ctx.attrString("update_rule", "gated_delta");
  if (rule != "linear" && rule != "gated" && rule != "delta" &&
      rule != "gated_delta")
    return ctx.fail("update_rule must be linear, gated, delta or "
                    "gated_delta, got '" +
                    rule + "'");
  bool gated = rule == "gated" || rule == "gated_delta";
  bool delta = rule == "delta" || rule == "gated_delta";
  if (gated != ctx.hasInput(4))
    return ctx.fail("update_rule " + rule +
                    (gated ? " needs the decay input" : " takes no decay"));
  if (delta != ctx.hasInput(5))
    return ctx.fail("update_rule " + rule +
                    (delta ? " needs the beta input" : " takes no beta"));
  int64_t qHeads = ctx.attrInt("q_num_heads", 0);
  int64_t kvHeads = ctx.attrInt("kv_num_heads", 0);
  if (qHeads < 1 || kvHeads < 1 || qHeads % kvHeads != 0)
    return ctx.fail("q_num_heads (" + Twine(qHeads) +
                    ") must be a positive multiple of kv_num_heads (" +
                    Twine(kvHeads) + ")");
  if (ctx.rank(0) != 3 || ctx.rank(1) != 3 || ctx.rank(2) != 3)
    return ctx.fail("query, key and value must be 3-d (batch, tokens, "
                    "heads * size)");
  ArrayRef<int64_t> qs = ctx.shape(0), ks = ctx.shape(1), vs = ctx.shape(2);
  int64_t batch = qs[0], tokens = qs[1];
  if (ks[0] != batch || vs[0] != batch || ks[1] != tokens || vs[1] != tokens)
    return ctx.fail("query, key and value differ in batch or tokens");
  if (qs[2] % qHeads || vs[2] % kvHeads)
    return ctx.fail("the heads do not divide the query's or value's size");
  int64_t dk = qs[2] / qHeads, dv = vs[2] / kvHeads;
  if (ks[2] != kvHeads * dk)
    return ctx.fail("key must hold kv_num_heads * " + Twine(dk) + " = " +
                    Twine(kvHeads * dk) + " features, got " + Twine(ks[2]));
  SmallVector<int64_t> stateShape = {batch, kvHeads, dk, dv};
  if (ctx.hasInput(3) && ctx.shape(3) != ArrayRef<int64_t>(stateShape))
    return ctx.fail("past_state must be [" + Twine(batch) + ", " +
                    Twine(kvHeads) + ", " + Twine(dk) + ", " + Twine(dv) + "]");
  int64_t decayWidth = 0, betaHeads = 0;
  if (gated) {
    ArrayRef<int64_t> d = ctx.shape(4);
    if (d.size() != 3 || d[0] != batch || d[1] != tokens ||
        (d[2] != kvHeads && d[2] != kvHeads * dk))
      return ctx.fail("decay must be [" + Twine(batch) + ", " + Twine(tokens) +
                      ", kv_num_heads or kv_num_heads * " + Twine(dk) + "]");
    decayWidth = d[2] / kvHeads;
  }
  if (delta) {
    ArrayRef<int64_t> d = ctx.shape(5);
    if (d.size() != 3 || d[0] != batch || d[1] != tokens ||
        (d[2] != kvHeads && d[2] != 1))
      return ctx.fail("beta must be [" + Twine(batch) + ", " + Twine(tokens) +
                      ", kv_num_heads or 1]");
    betaHeads = d[2];
  }
  double scale = ctx.attrFloat("scale", 0.0);
  if (scale == 0.0)
    scale = 1 / std::sqrt(double(dk));

  Type f32 = Float32Type::get(ctx.getContext());
  Emitter b(ctx);
  // [batch, tokens, heads, size] in float32; token t is take(t, axis 1).
  auto perToken = [&](unsigned i, int64_t heads, int64_t size) {
    return b.op<ReshapeOp>(
        {b.castTo(ctx.input(i), f32)},
        {ctx.ints("newshape", {batch, tokens, heads, size})});
  };
  Value q = perToken(0, qHeads, dk), k = perToken(1, kvHeads, dk),
        v = perToken(2, kvHeads, dv);
  Value gate =
      gated ? b.op<ExpOp>({perToken(4, kvHeads, decayWidth)}) : Value();
  Value beta = delta ? perToken(5, betaHeads, 1) : Value();
  Value state = ctx.hasInput(3)
                    ? b.castTo(ctx.input(3), f32)
                    : b.op<BroadcastToOp>({ctx.scalar(0, f32)},
                                          {ctx.ints("shape", stateShape)});
  auto shaped = [&](Value x, ArrayRef<int64_t> shape) {
    return b.op<ReshapeOp>({x}, {ctx.ints("newshape", shape)});
  };
  auto sumOver = [&](Value x, int64_t axis) {
    return b.op<SumOp>({x}, {ctx.ints("axis", {axis})});
  };
  // The recurrence over `count` tokens of q, k, v, gate and beta ([batch,
  // count, heads, size]) from `state` (updated): the outputs [batch, count,
  // q heads, dv].
  auto recur = [&](Value q, Value k, Value v, Value gate, Value beta,
                   int64_t count, Value &state) {
    SmallVector<Value> outputs;
    for (int64_t t = 0; t < count && b.succeeded(); ++t) {
      Value kt = shaped(b.take(k, t, 1), {batch, kvHeads, dk, 1});
      Value vt = b.take(v, t, 1); // [batch, kv heads, dv]
      if (gated)
        state = b.mul(
            state, shaped(b.take(gate, t, 1), {batch, kvHeads, decayWidth, 1}));
      if (delta) {
        Value retrieved = sumOver(b.mul(state, kt), 2);
        vt = b.mul(b.take(beta, t, 1), b.op<SubtractOp>({vt, retrieved}));
      }
      state = b.add(state, b.mul(kt, shaped(vt, {batch, kvHeads, 1, dv})));
      Value read =
          qHeads == kvHeads
              ? state
              : b.op<RepeatOp>({state}, {ctx.i64("repeats", qHeads / kvHeads),
                                         ctx.i64("axis", 1)});
      Value qt = shaped(b.take(q, t, 1), {batch, qHeads, dk, 1});
      outputs.push_back(sumOver(b.mul(qt, read), 2)); // [batch, q heads, dv]
    }
    return b.stack(outputs, 1);
  };
  Value y;
  if (tokens <= kUnrolledTokens) {
    y = recur(q, k, v, gate, beta, tokens, state);
  } else {
    // [batch, chunks, kTokenChunk, heads, size], padded with zero tokens.
    int64_t chunks = llvm::divideCeil(tokens, kTokenChunk),
            padded = chunks * kTokenChunk;
    auto chunked = [&](Value x, double pad = 0) -> Value {
      if (!x)
        return x;
      ArrayRef<int64_t> shape = cast<RankedTensorType>(x.getType()).getShape();
      if (padded > tokens) {
        Value zeros = b.op<BroadcastToOp>(
            {ctx.scalar(pad, f32)},
            {ctx.ints("shape", {batch, padded - tokens, shape[2], shape[3]})});
        x = b.op<ConcatenateOp>({ctx.tuple({x, zeros})}, {ctx.i64("axis", 1)});
      }
      return shaped(x, {batch, chunks, kTokenChunk, shape[2], shape[3]});
    };
    Value qc = chunked(q), kc = chunked(k), vc = chunked(v),
          gatec = chunked(gate, /*pad=*/1), betac = chunked(beta);
    Value ys = b.op<BroadcastToOp>(
        {ctx.scalar(0, f32)},
        {ctx.ints("shape", {batch, chunks, kTokenChunk, qHeads, dv})});
    Value chunkIndex = iota(ctx, chunks, 1, 5);
    if (!b.succeeded())
      return failure();
    Type i64 = i64Type(ctx);
    RelayBuilder rb(ctx.getBuilder(), ctx.getLoc());
    Type result =
        TupleType::get(ctx.getContext(), {state.getType(), ys.getType()});
    Value loop = rb.fn(
        {rb.scalarType(i64), state.getType(), ys.getType()}, result,
        [&](RelayBuilder &fb, ValueRange args) {
          Value self = args[0], c = args[1], st = args[2], acc = args[3];
          return fb.ifThenElse(
              fb.less(c, fb.scalar(chunks, i64)), result,
              [&](RelayBuilder &tb) {
                auto at = [&](Value x) {
                  return x ? b.op<TakeOp>({x, c}, {ctx.i64("axis", 1)}) : x;
                };
                Value next = st;
                Value out = recur(at(qc), at(kc), at(vc), at(gatec), at(betac),
                                  kTokenChunk, next);
                Value mine = b.op<EqualOp>({chunkIndex, c});
                Value updated = b.op<WhereOp>(
                    {mine, shaped(out, {batch, 1, kTokenChunk, qHeads, dv}),
                     acc});
                if (!b.succeeded())
                  return tb.tuple({st, acc});
                return tb.apply(self,
                                {tb.add(c, tb.scalar(1, i64)), next, updated});
              },
              [&](RelayBuilder &eb) {
                return eb.tuple({st, acc});
              });
        },
        /*recursive=*/true);
    if (!b.succeeded())
      return failure();
    Value done = rb.apply(loop, {rb.scalar(0, i64), state, ys});
    state = rb.tupleGet(done, 0);
    y = shaped(rb.tupleGet(done, 1), {batch, padded, qHeads, dv});
    if (padded > tokens)
      y = b.op<StridedSliceOp>({y}, {ctx.ints("begin", {0}),
                                     ctx.ints("end", {tokens}),
                                     ctx.ints("axes", {1})});
  }
  y = b.mul(shaped(y, {batch, tokens, qHeads * dv}), b.scalar(scale, y));
  Type stateType = ctx.hasInput(3) ? ctx.elementType(3) : ctx.elementType(0);
  if (failed(b.output(b.castTo(y, ctx.elementType(0)))))
    return failure();
  return b.output(b.castTo(state, stateType));
}

} // namespace

void mlir::relay::onnx_import::addAttentionConverters(ConverterTable &t) {
  t["Attention"] = [](NodeContext &ctx) {
    return AttentionBuilder(ctx).build();
  };
  t["RotaryEmbedding"] = convertRotaryEmbedding;
  t["RMSNormalization"] = convertRMSNorm;
  t["TensorScatter"] = convertTensorScatter;
  t["CausalConvWithState"] = convertCausalConvWithState;
  t["LinearAttention"] = convertLinearAttention;
}
