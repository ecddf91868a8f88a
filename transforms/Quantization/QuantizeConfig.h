//===- QuantizeConfig.h - Relay's quantization configuration ----*- C++ -*-===//
//
// Internal to transforms/Quantization: TVM's qconfig (bit widths, dtypes,
// calibration, the layers left in float) as the passes' options give it,
// the kinds simulated_quantize annotates, and helpers the annotate,
// calibrate and realize passes share.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_QUANTIZATION_QUANTIZECONFIG_H
#define RELAY_MLIR_TRANSFORMS_QUANTIZATION_QUANTIZECONFIG_H

#include "dialects/relay/RelayOps.h"

#include "mlir/IR/Builders.h"

#include <optional>
#include <string>

namespace mlir::relay::quant {

/// What a simulated_quantize's value is (TVM's QAnnotateKind).
enum class QKind : int64_t {
  Identity = 0,
  Input = 1,
  Weight = 2,
  Activation = 3,
};

struct QuantizeConfig {
  int64_t nbitInput = 8, nbitWeight = 8, nbitActivation = 32;
  std::string dtypeInput = "int8", dtypeWeight = "int8",
              dtypeActivation = "int32";
  std::string calibrateMode = "global-scale";
  double globalScale = 8.0;
  std::string weightScale = "power2";
  /// Weights of products scaled per output channel.
  bool perChannel = false;
  /// Indices (in program order) of the nn.conv2d left in float.
  SmallVector<int64_t> skipConvLayers = {0};
  bool skipDenseLayer = true;

  /// The bits of a value of `kind` (sign included).
  int64_t nbit(QKind kind) const {
    return kind == QKind::Weight  ? nbitWeight
           : kind == QKind::Input ? nbitInput
                                  : nbitActivation;
  }
  /// The largest magnitude a signed value of `kind` holds: 2^(nbit-1) - 1.
  double clipBound(QKind kind) const {
    return static_cast<double>((int64_t(1) << (nbit(kind) - 1)) - 1);
  }
};

/// The output-channel axis of the weight a quantization feeds, when its
/// users are convolutions (the kernel layout's O) or dense layers (0)
/// taking it as their weight; none otherwise.
std::optional<int64_t> productWeightAxis(Operation *weightQuantization);

/// The channel axis of a convolution's (the layout's C) or a dense layer's
/// (the last) result; none for other operators.
std::optional<int64_t> productOutputAxis(Operation *product);

/// Reads `text` ("int8", "int16", "int32", ...) as an integer type; null
/// when it is not one.
Type parseIntegerDtype(MLIRContext *ctx, StringRef text);

/// Checks the bit widths and, with `dtypes`, the dtypes (and that they
/// hold the widths); reports the offending option (named as the pass's
/// flag has it) through `emitError`.
LogicalResult verifyConfig(const QuantizeConfig &config,
                           function_ref<InFlightDiagnostic()> emitError,
                           bool dtypes = true);

/// Parses skip-conv-layers: integers, or "none" for an empty list; unset
/// keeps TVM's default (the first convolution).
LogicalResult parseSkipConvLayers(ArrayRef<std::string> values,
                                  QuantizeConfig &config,
                                  function_ref<InFlightDiagnostic()> emitError);

/// The elements of `dense` as doubles (unsigned integers zero-extended).
SmallVector<double> elementValues(DenseElementsAttr dense);

/// The values of a relay.constant (dense or a resource blob) as doubles;
/// none when `v` is not a constant.
std::optional<SmallVector<double>> constantValues(Value v);

/// The value of a one-element relay.constant.
std::optional<double> scalarConstant(Value v);

/// A 0-d float32 relay.constant.
Value f32Constant(OpBuilder &b, Location loc, double v);

} // namespace mlir::relay::quant

#endif // RELAY_MLIR_TRANSFORMS_QUANTIZATION_QUANTIZECONFIG_H
