//===- RandomRewrites.cpp - Threefry as uint64 arithmetic -------*- C++ -*-===//
//
// TVM's random operators as relay arithmetic on uint64 tensors, computing
// what TVM's topi kernels compute (python/tvm/topi/random/kernel.py, v0.13):
//
// - Threefry-4x64 with 20 rounds, as topi runs it: the key schedule is
//   injected before each group of four rounds (five times, none after the
//   last group), the Skein rotation and permutation constants.
// - threefry_generate: block i of the output hashes the key's counter words
//   (4-7) each raised by i; a last partial block hashes them with word 7
//   raised by the elements' count rounded down to four. Before that, when
//   word 7 has no room for the count, the path takes a bit (or a new key
//   is hashed from an all-ones counter when the path is full).
// - threefry_split: the path's next bit 0 (left) or 1 (right); when the
//   path is full a new key is hashed from the key's counter words.
// - uniform, normal (Box-Muller) and multinomial (inverse of the
//   cumulative probabilities) on generate's bits.
//
// Where topi's kernel differs from the papers', topi's numbers are kept:
// the "path full" test reads only word 8 (topi's `gen[8] == 0 and gen[9] ==
// 0` is a Python `and` of two deferred comparisons, which reduces to the
// first), so a path never grows into word 5. One difference is ours: topi
// hashes a new key in threefry_generate from a 2-word all-ones counter it
// reads 4 words of (past its buffer); here all 4 words are ones.
//
// Everything is elementwise on the static out_shape, so native code fuses
// it into one kernel, and constant keys fold.
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Rewrites.h"

#include <array>
#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

constexpr unsigned kWords = 4;
/// Threefry-4x64's rotations (Skein's), round r using kRotations[r % 8].
constexpr unsigned kRotations[8][2] = {{14, 16}, {52, 57}, {23, 40}, {5, 37},
                                       {25, 33}, {46, 12}, {58, 22}, {32, 32}};
/// The key schedule's parity constant (Threefish's C240).
constexpr uint64_t kParity = 0x1BD11BDAA9FC1A22;
constexpr uint64_t kTopBit = uint64_t(1) << 63;

using Words = std::array<Value, kWords>;

/// uint64 constants and arithmetic on tensors of uint64.
struct U64 {
  Emitter &b;
  Type type;

  explicit U64(Emitter &b)
      : b(b), type(IntegerType::get(b.getRewriter().getContext(), 64,
                                    IntegerType::Unsigned)) {}

  Value constant(ArrayRef<int64_t> shape, ArrayRef<uint64_t> values) {
    return intConstant(b, type, shape, values);
  }
  Value scalar(uint64_t v) { return constant({}, {v}); }
  Value add(Value x, Value y) { return b.add(x, y); }
  Value add(Value x, uint64_t v) { return v ? add(x, scalar(v)) : x; }
  Value bitOr(Value x, Value y) { return b.op<BitwiseOrOp>({x, y}); }
  Value bitXor(Value x, Value y) { return b.op<BitwiseXorOp>({x, y}); }
  Value shiftRight(Value x, unsigned n) {
    return b.op<RightShiftOp>({x, scalar(n)});
  }
  Value rotateLeft(Value x, unsigned n) {
    return bitOr(b.op<LeftShiftOp>({x, scalar(n)}), shiftRight(x, 64 - n));
  }
  Value select(Value cond, Value x, Value y) {
    return b.op<WhereOp>({cond, x, y});
  }
  Value equals(Value x, uint64_t v) { return b.op<EqualOp>({x, scalar(v)}); }
  /// Word `i` of a key, as a 0-d tensor.
  Value word(Value key, int64_t i) {
    return b.op<TakeOp>({key, i64Constant(b, {}, {i})}, {b.i64("axis", 0)});
  }
  /// 0-d words stacked into a vector.
  Value stack(ArrayRef<Value> words) {
    return b.op<StackOp>({b.tuple(words)}, {b.i64("axis", 0)});
  }
};

/// Threefry-4x64-20 of the counter words `x` (tensors of one shape, or 0-d)
/// under the key words `key` (0-d), as topi's `_threefry`.
Words threefry(U64 &u, const Words &key, Words x) {
  std::array<Value, kWords + 1> schedule;
  for (unsigned j = 0; j < kWords; ++j)
    schedule[j] = key[j];
  schedule[kWords] = u.scalar(kParity);
  for (unsigned j = 0; j < kWords; ++j)
    schedule[kWords] = u.bitXor(schedule[kWords], key[j]);
  for (unsigned s = 0; s < 5; ++s) {
    for (unsigned j = 0; j < kWords; ++j) {
      Value k = schedule[(s + j) % (kWords + 1)];
      x[j] = u.add(x[j], j == kWords - 1 ? u.add(k, s) : k);
    }
    for (unsigned r = 0; r < 4; ++r) {
      const unsigned *rotation = kRotations[(s * 4 + r) % 8];
      for (unsigned j = 0; j < 2; ++j) {
        Value &a = x[2 * j], &c = x[2 * j + 1];
        a = u.add(a, c);
        c = u.bitXor(a, u.rotateLeft(c, rotation[j]));
      }
      // The permutation {0, 3, 2, 1}.
      std::swap(x[1], x[3]);
    }
  }
  return x;
}

/// The path position (words 8 and 9) moved one bit right, as topi's
/// `_shift_right`.
std::pair<Value, Value> shiftPosition(U64 &u, Value w8, Value w9) {
  // Word 8 shifts right whatever it holds (1 and 0 become 0); its last bit
  // moves to word 9's top, and word 9 shifts while word 8 is empty.
  Value second =
      u.select(u.equals(w8, 1), u.scalar(kTopBit),
               u.select(u.equals(w8, 0), u.shiftRight(w9, 1), u.scalar(0)));
  return {u.shiftRight(w8, 1), second};
}

/// `count` consecutive uint64 values from 0, from O(sqrt(count)) constants:
/// a column of multiples of a row's width plus a row, flattened.
Value iota(U64 &u, int64_t count) {
  int64_t width = std::max<int64_t>(
      1, std::min<int64_t>(count, int64_t(std::ceil(std::sqrt(count)))));
  int64_t rows = (count + width - 1) / width;
  SmallVector<uint64_t> starts, offsets;
  for (int64_t r = 0; r < rows; ++r)
    starts.push_back(uint64_t(r * width));
  for (int64_t c = 0; c < width; ++c)
    offsets.push_back(uint64_t(c));
  Value all = u.b.reshape(
      u.add(u.constant({rows, 1}, starts), u.constant({1, width}, offsets)),
      {rows * width});
  if (rows * width == count)
    return all;
  return u.b.op<StridedSliceOp>(
      {all}, {u.b.ints("begin", {0}), u.b.ints("end", {count})});
}

/// threefry_generate: (next key, bits of out_shape).
Value threefryGenerate(Emitter &b, Operation *op) {
  U64 u(b);
  Value gen = op->getOperand(0);
  ArrayRef<int64_t> shape = intsAttr(op, "out_shape");
  uint64_t count = 1;
  for (int64_t d : shape)
    count *= uint64_t(d);
  SmallVector<Value> g;
  for (int64_t i = 0; i < 10; ++i)
    g.push_back(u.word(gen, i));
  Value zero = u.scalar(0);

  // The state the numbers are drawn from: the key as it is while its
  // counter has room; else a path one bit longer; else a new key.
  Value room = b.op<LessOp>({g[7], u.scalar(UINT64_MAX - count)});
  Value pathFull = u.equals(g[8], 0);
  Words ones;
  ones.fill(u.scalar(UINT64_MAX));
  Words rekeyed = threefry(u, {g[0], g[1], g[2], g[3]}, ones);
  auto [w8, w9] = shiftPosition(u, g[8], g[9]);
  auto pick = [&](Value same, Value onFullPath, Value onPath) {
    Value moved =
        onFullPath == onPath ? onPath : u.select(pathFull, onFullPath, onPath);
    return u.select(room, same, moved);
  };
  SmallVector<Value> t(10);
  for (unsigned j = 0; j < kWords; ++j)
    t[j] = pick(g[j], rekeyed[j], g[j]);
  t[4] = pick(g[4], zero, u.bitOr(g[4], g[8]));
  t[5] = pick(g[5], zero, u.bitOr(g[5], g[9]));
  t[6] = pick(g[6], zero, zero);
  t[7] = pick(g[7], zero, zero);
  t[8] = pick(g[8], u.scalar(kTopBit), w8);
  t[9] = pick(g[9], zero, w9);
  Words key = {t[0], t[1], t[2], t[3]};

  uint64_t blocks = count / kWords, rest = count % kWords;
  SmallVector<Value> parts;
  if (blocks) {
    Value index = iota(u, int64_t(blocks));
    Words counter;
    for (unsigned j = 0; j < kWords; ++j)
      counter[j] = u.add(t[4 + j], index);
    Words words = threefry(u, key, counter);
    parts.push_back(b.reshape(
        b.op<StackOp>({b.tuple({words[0], words[1], words[2], words[3]})},
                      {b.i64("axis", 1)}),
        {int64_t(blocks * kWords)}));
  }
  if (rest) {
    Words counter = {t[4], t[5], t[6], u.add(t[7], blocks * kWords)};
    Words words = threefry(u, key, counter);
    parts.push_back(b.op<StridedSliceOp>(
        {u.stack({words[0], words[1], words[2], words[3]})},
        {b.ints("begin", {0}), b.ints("end", {int64_t(rest)})}));
  }
  Value bits;
  if (parts.empty())
    bits = u.constant(shape, {});
  else if (parts.size() == 1)
    bits = b.reshape(parts[0], shape);
  else
    bits = b.reshape(b.op<ConcatenateOp>({b.tuple(parts)}, {b.i64("axis", 0)}),
                     shape);

  // The counter advances past the numbers drawn (a whole block for a
  // partial one); word 6 is unused and zero.
  Value next = u.stack({t[0], t[1], t[2], t[3], t[4], t[5], zero,
                        u.add(t[7], rest ? blocks * kWords + kWords : count),
                        t[8], t[9]});
  return b.tuple({next, bits});
}

/// threefry_split: (left key, right key).
Value threefrySplit(Emitter &b, Operation *op) {
  U64 u(b);
  Value gen = op->getOperand(0);
  SmallVector<Value> g;
  for (int64_t i = 0; i < 10; ++i)
    g.push_back(u.word(gen, i));
  Value zero = u.scalar(0);
  Value pathFull = u.equals(g[8], 0);
  Words rekeyed =
      threefry(u, {g[0], g[1], g[2], g[3]}, {g[4], g[5], g[6], g[7]});
  auto [w8, w9] = shiftPosition(u, g[8], g[9]);
  auto pick = [&](Value onFullPath, Value onPath) {
    return u.select(pathFull, onFullPath, onPath);
  };
  SmallVector<Value> left(10), right(10);
  for (unsigned j = 0; j < kWords; ++j)
    left[j] = right[j] = pick(rekeyed[j], g[j]);
  left[4] = pick(zero, g[4]);
  right[4] = pick(u.scalar(kTopBit), u.bitOr(g[4], g[8]));
  left[5] = pick(zero, g[5]);
  right[5] = pick(zero, u.bitOr(g[5], g[9]));
  left[6] = right[6] = pick(zero, g[6]);
  left[7] = right[7] = pick(zero, g[7]);
  left[8] = right[8] = pick(u.scalar(kTopBit >> 1), w8);
  left[9] = right[9] = pick(zero, w9);
  return b.tuple({u.stack(left), u.stack(right)});
}

/// uniform: (next key, low + (high - low) * (a float in [1, 2) built from
/// the bits' top fraction bits, minus 1)).
Value uniform(Emitter &b, Operation *op) {
  Value low = op->getOperand(1), high = op->getOperand(2);
  Type dtype = elementOf(low);
  Value generated = b.op<ThreefryGenerateOp>(
      {op->getOperand(0)}, {b.ints("out_shape", intsAttr(op, "out_shape"))});
  Value bits = b.tupleGet(generated, 1);
  MLIRContext *ctx = b.getRewriter().getContext();
  bool f32 = dtype.isF32();
  unsigned width = f32 ? 32 : 64, fraction = f32 ? 23 : 52;
  Type word = IntegerType::get(ctx, width, IntegerType::Unsigned);
  bits = castTo(b, bits, word);
  auto wordScalar = [&](uint64_t v) {
    return b.constant(DenseElementsAttr::get(RankedTensorType::get({}, word),
                                             APInt(width, v)));
  };
  // The exponent of [1, 2): the bias.
  uint64_t exponent = ((uint64_t(1) << (width - fraction - 2)) - 1) << fraction;
  Value mantissa = b.op<BitwiseOrOp>(
      {b.op<RightShiftOp>({bits, wordScalar(width - fraction)}),
       wordScalar(exponent)});
  Value unit = b.op<SubtractOp>(
      {b.op<ReinterpretOp>({mantissa}, {b.type("dtype", dtype)}),
       b.scalar(1.0, low)});
  Value values = b.add(b.mul(unit, b.op<SubtractOp>({high, low})), low);
  return b.tuple({b.tupleGet(generated, 0), values});
}

/// normal: Box-Muller on uniform values [2, out_shape]: sqrt(-2 log(1 -
/// u0)) * sin(2 pi u1) * scale + mean.
Value normal(Emitter &b, Operation *op) {
  Value mean = op->getOperand(1), scale = op->getOperand(2);
  Type dtype = elementOf(mean);
  SmallVector<int64_t> shape = {2};
  llvm::append_range(shape, intsAttr(op, "out_shape"));
  Value drawn = b.op<UniformOp>(
      {op->getOperand(0), b.scalar(0.0, mean), b.scalar(1.0, mean)},
      {b.ints("out_shape", shape), b.type("out_dtype", dtype)});
  Value u = b.tupleGet(drawn, 1);
  auto half = [&](int64_t i) {
    return b.op<TakeOp>({u, i64Constant(b, {}, {i})}, {b.i64("axis", 0)});
  };
  Value u0 = b.op<SubtractOp>({b.scalar(1.0, mean), half(0)});
  Value radius = b.op<SqrtOp>({b.mul(b.scalar(-2.0, mean), b.op<LogOp>({u0}))});
  Value angle = b.op<SinOp>({b.mul(b.scalar(2.0 * M_PI, mean), half(1))});
  Value values = b.add(b.mul(b.mul(radius, angle), scale), mean);
  return b.tuple({b.tupleGet(drawn, 0), values});
}

/// multinomial: per sample a uniform float32 u, the first index whose
/// cumulative (normalised, negatives as 0) probability exceeds u.
Value multinomial(Emitter &b, Operation *op) {
  MLIRContext *ctx = b.getRewriter().getContext();
  Value probs = castTo(b, op->getOperand(1), Float32Type::get(ctx));
  probs = b.op<MaximumOp>({probs, b.scalar(0.0, probs)});
  probs = b.op<DivideOp>(
      {probs, b.op<SumOp>({probs}, {b.ints("axis", {-1}),
                                    b.boolean("keepdims", true)})});
  Value cumulative = b.op<CumsumOp>({probs}, {b.i64("axis", -1)});
  SmallVector<int64_t> shape(shapeOf(probs).drop_back());
  shape.push_back(intAttr(op, "num_samples"));
  Value drawn = b.op<UniformOp>(
      {op->getOperand(0), b.scalar(0.0, probs), b.scalar(1.0, probs)},
      {b.ints("out_shape", shape), b.type("out_dtype", elementOf(probs))});
  // [..., K, 1] - [..., 1, S]: each sample's distance below each
  // cumulative probability; the nearest positive one is drawn.
  Value distance = b.op<SubtractOp>(
      {b.op<ExpandDimsOp>({cumulative}, {b.i64("axis", -1)}),
       b.op<ExpandDimsOp>({b.tupleGet(drawn, 1)}, {b.i64("axis", -2)})});
  Value positive =
      b.op<WhereOp>({b.op<GreaterOp>({distance, b.scalar(0.0, distance)}),
                     distance, b.scalar(1.0, distance)});
  Value indices = b.op<ArgminOp>({positive}, {b.ints("axis", {-2})});
  return b.tuple({b.tupleGet(drawn, 0), indices});
}

} // namespace

void mlir::relay::decompose::addRandomRewrites(AddRewrite add) {
  add("random.threefry_generate", threefryGenerate);
  add("random.threefry_split", threefrySplit);
  add("random.uniform", uniform);
  add("random.normal", normal);
  add("random.multinomial", multinomial);
}
