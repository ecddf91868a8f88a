//===- RelayRandomOperators.td - Random numbers ------------*- tablegen -*-===//
//
// TVM's `random.*` operators: Threefry-4x64 (Salmon et al., SC'11) with
// splittable keys (Claessen and Palka, Haskell'13), as TVM's topi computes
// it (python/tvm/topi/random/kernel.py). A key is a tensor<10xui64>: the
// Threefry key (words 0-3), a path of splits (4-5), a counter (6-7) and the
// path's next free bit (8-9). Every operator returns the next key with its
// result, so a program threads keys explicitly and reruns give the same
// numbers. Composites: their decompositions
// (transforms/Decompose/RandomRewrites.cpp) are uint64 arithmetic.
//
// Included by RelayOperators.td.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_RANDOM_OPERATORS
#define RELAY_RANDOM_OPERATORS

def Relay_ThreefryGenerateOp
    : Relay_OperatorOp<"random.threefry_generate", "ThreefryGenerate",
                       "Opaque", 1, 10> {
  let summary = "Random uint64 bits of `out_shape` from a Threefry key: "
                "(next key, bits)";
  let description = [{
    TVM's: element i (row-major) is word i % 4 of Threefry-4x64 with 20
    rounds applied to the key's counter block (words 4-7) with i / 4 added
    to each word; a last partial block uses the counter raised by the
    elements' count rounded down to four. The next key's counter (word 7)
    advances past the numbers drawn. When the counter has no room left for
    them, the key's path takes one more split bit first, or, when the path
    is full, a new key is hashed from the old one. At most 2^64 - 1
    numbers.
  }];
  let arguments = (ins AnyType:$key, DenseI64ArrayAttr:$out_shape);
}

def Relay_ThreefrySplitOp
    : Relay_OperatorOp<"random.threefry_split", "ThreefrySplit", "Opaque", 1,
                       10> {
  let summary = "Two independent Threefry keys from one: (left, right)";
  let description = [{
    TVM's: the left key appends a 0 to the key's path, the right key a 1;
    when the path is full, both start an empty path under a new key hashed
    from the old key, path and counter.
  }];
  let arguments = (ins AnyType:$key);
}

def Relay_UniformOp
    : Relay_OperatorOp<"random.uniform", "Uniform", "Opaque", 3, 10> {
  let summary = "Uniform random floats in [low, high): (next key, values)";
  let description = [{
    TVM's: `low` and `high` are 0-d tensors of `out_dtype` (float32 or
    float64, the default float32); from threefry_generate's bits (their low
    32 bits for float32) the top 23 (52) become the fraction of a float in
    [1, 2), minus 1, times high - low, plus low.
  }];
  let arguments = (ins AnyType:$key, AnyType:$low, AnyType:$high,
                       DenseI64ArrayAttr:$out_shape,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_NormalOp
    : Relay_OperatorOp<"random.normal", "Normal", "Opaque", 3, 10> {
  let summary = "Normal random floats: (next key, values)";
  let description = [{
    TVM's: Box-Muller on uniform values u of shape [2, out_shape]:
    sqrt(-2 log(1 - u[0])) * sin(2 pi u[1]) * scale + mean, where `mean`
    and `scale` are 0-d tensors of `out_dtype` (float32 or float64, the
    default float32).
  }];
  let arguments = (ins AnyType:$key, AnyType:$mean, AnyType:$scale,
                       DenseI64ArrayAttr:$out_shape,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_MultinomialOp
    : Relay_OperatorOp<"random.multinomial", "Multinomial", "Opaque", 2, 10> {
  let summary = "Indices drawn by the probabilities along the last axis: "
                "(next key, int32 indices)";
  let description = [{
    TVM's: `probs` [..., K] (read as float32; negative weights count as 0,
    each row is normalised by its sum) gives [..., `num_samples`] indices:
    for each sample, a uniform float32 u, the first index whose cumulative
    probability exceeds u.
  }];
  let arguments = (ins AnyType:$key, AnyType:$probs,
                       DefaultValuedAttr<I64Attr, "1">:$num_samples);
}

#endif // RELAY_RANDOM_OPERATORS
