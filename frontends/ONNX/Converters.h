//===- Converters.h - ONNX op converter tables ------------------*- C++ -*-===//
//
// Internal to the ONNX importer: each file adds the converters of one
// family of ONNX operators to the table lookupOpConverter() reads.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_FRONTENDS_ONNX_CONVERTERS_H
#define RELAY_MLIR_FRONTENDS_ONNX_CONVERTERS_H

#include "frontends/ONNX/NodeContext.h"

#include "llvm/ADT/StringMap.h"

namespace mlir::relay::onnx_import {

using ConverterTable = llvm::StringMap<OpConverter>;

/// Elementwise math, comparisons, activations, Cast, Where, Clip.
void addElementwiseConverters(ConverterTable &table);
/// Convolutions, pooling, normalisation, Gemm/MatMul, softmax.
void addNNConverters(ConverterTable &table);
/// Resize, Upsample, GridSample, AffineGrid, RoiAlign.
void addImageConverters(ConverterTable &table);
/// Shapes, constants, reshapes, slicing, gathering, reductions.
void addShapeConverters(ConverterTable &table);
/// Pad and CenterCropPad.
void addPadConverters(ConverterTable &table);

/// GatherND, ScatterND, ScatterElements, Scatter, Compress, TopK, NonZero,
/// NonMaxSuppression and ReverseSequence.
void addIndexingConverters(ConverterTable &table);
/// Window functions (HannWindow, HammingWindow, BlackmanWindow), DFT, STFT
/// and MelWeightMatrix.
void addSignalConverters(ConverterTable &table);
/// MaxUnpool.
void addPoolIndexConverters(ConverterTable &table);
/// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss.
void addLossConverters(ConverterTable &table);
/// Einsum.
void addEinsumConverter(ConverterTable &table);
/// DeformConv.
void addDeformConvConverter(ConverterTable &table);
/// Sequences and optionals (SequenceConstruct, SequenceInsert, SequenceAt,
/// ConcatFromSequence, SplitToSequence, Optional, ...; Sequences.h).
void addSequenceConverters(ConverterTable &table);
/// The `ai.onnx.preview.training` domain's parameter updates (Adagrad,
/// Momentum, Adam), registered as `ai.onnx.preview.training:OP`.
void addTrainingConverters(ConverterTable &table);
/// Text features: TfIdfVectorizer on token ids.
void addTextConverters(ConverterTable &table);
/// Transformer operators: Attention, RotaryEmbedding, RMSNormalization,
/// TensorScatter, CausalConvWithState, LinearAttention.
void addAttentionConverters(ConverterTable &table);
/// Recurrent layers: RNN, GRU, LSTM, unrolled over the sequence.
void addRecurrentConverters(ConverterTable &table);
/// Random numbers: RandomUniform, RandomNormal, their *Like forms and
/// Bernoulli, from a counter-based generator.
void addRandomConverters(ConverterTable &table);

/// Quantization: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
/// QLinearConv,
/// QLinearMatMul, ConvInteger, MatMulInteger.
void addQuantizationConverters(ConverterTable &table);

/// The nn.conv2d attributes (strides, dilation, groups, kernel_size,
/// padding with auto_pad applied, channels) of a Conv-like node on data of
/// shape `x` and weights of shape `w`, both 4-d (a 1-d node's lifted to 2-d,
/// `oneD`); no padding where the data was `padded` already (auto_pad SAME
/// of sizes known only at run time); failure reported at the node.
FailureOr<SmallVector<NamedAttribute>>
convAttributes(NodeContext &ctx, ArrayRef<int64_t> x, ArrayRef<int64_t> w,
               bool oneD, bool padded = false);

class Emitter;

/// MaxPool's indices output: for each window of the 2-d max pooling of
/// `input` (N x C x H x W, static) into `pooled`, the flat index of its
/// maximum (row-major, or each image column-major); `pads` are (top, left,
/// bottom, right). Null after a failure (reported at the node).
Value maxPoolIndices(NodeContext &ctx, Emitter &b, Value input, Value pooled,
                     ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                     ArrayRef<int64_t> dilations, ArrayRef<int64_t> pads,
                     bool columnMajor);

/// The ONNX activation function `name` (as recurrent layers name them:
/// Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh,
/// HardSigmoid, Elu, Softsign, Softplus) applied to `x`; `alpha` and `beta`
/// are its parameters where it has them. An unknown name is reported.
FailureOr<Value> activation(NodeContext &ctx, StringRef name, Value x,
                            double alpha, double beta);

/// The values of a 1-d (or 0-d) integer tensor that are known at import,
/// ShapedType::kDynamic for the others: constants, the sizes in Shape's
/// result, and slices, picks, casts and concatenations of those, followed
/// up to `depth` producers back. None for a value of another type or of
/// more than 1024 elements (data, not a shape).
std::optional<SmallVector<int64_t>> knownIntValues(Value v,
                                                   unsigned depth = 16);

/// `v` with the sizes `known` gives (kDynamic: not known) put into its type
/// where it has `?`, by a reshape copying the others; `v` itself when
/// nothing is gained.
Value refineKnownDims(NodeContext &ctx, Emitter &b, Value v,
                      ArrayRef<int64_t> known);

/// The sizes of `v`'s axes [begin, end) as a 1-d int64 tensor: a constant
/// where `v`'s type has them all, else read from its shape when it runs.
Value runTimeSizes(NodeContext &ctx, Emitter &b, Value v, int64_t begin,
                   int64_t end);

/// 0, 1, ..., n - 1 for the size n of `v`'s axis `axis`, read when it runs,
/// in `dtype`, reshaped to `shape` (a -1 where the positions go).
Value positionsAlong(NodeContext &ctx, Emitter &b, Value v, int64_t axis,
                     Type dtype, ArrayRef<int64_t> shape);

/// `v` as a matrix [product of the sizes before `axis`, product of the
/// rest], its sizes read when it runs (Flatten and opset 1-12 Softmax of
/// data whose sizes depend on it).
Value flattenAtRunTime(NodeContext &ctx, Emitter &b, Value v, int64_t axis);

} // namespace mlir::relay::onnx_import

#endif // RELAY_MLIR_FRONTENDS_ONNX_CONVERTERS_H
