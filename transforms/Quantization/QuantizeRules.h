//===- QuantizeRules.h - Which operators quantize, and how ------*- C++ -*-===//
//
// Internal to transforms/Quantization: each operator Relay's quantization
// handles follows one of TVM's rule templates, in annotate (which operands
// become which kind of simulated_quantize) and realize (how the integer
// form is computed). The built-in table covers TVM's operators; a user
// adds or overrides rules without recompiling, in a rules file
// (`--relay-quantize{rules=FILE}`, one `<operator> <rule>` per line), or
// from C++ in the operator registry's "relay.quantize" column (a QRule).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_QUANTIZATION_QUANTIZERULES_H
#define RELAY_MLIR_TRANSFORMS_QUANTIZATION_QUANTIZERULES_H

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

namespace mlir::relay::quant {

enum class QRule {
  /// Operands of a quantized kind keep it; computed on the integers at the
  /// same scale (relu, reshapes, slicing, upsampling by copying).
  Identity,
  /// Takes its operand as an input (int8) and gives an input: max pooling.
  Pool,
  /// Operand 0 an input, operand 1 a weight; the result an activation in
  /// dtype-activation (out_dtype), scale the product: conv2d, dense.
  Product,
  /// add: both operands at the smaller scale in dtype-activation.
  Add,
  /// multiply: in dtype-activation, scale the product.
  Multiply,
  /// clip: on the integers, its bounds divided by the scale.
  Clip,
  /// concatenate: the fields of its tuple inputs (int8), joined at the
  /// smallest of their scales in dtype-activation.
  Concatenate,
  /// The operand leaves integers and nothing after is quantized (global
  /// average pooling before a classifier).
  Stop,
  /// Stays in float: quantized operands are read dequantized (also what
  /// an operator without a rule does).
  Float,
};

/// The rule named `name` in a rules file (identity, pool, product, add,
/// multiply, clip, stop, float).
std::optional<QRule> parseRule(StringRef name);

/// The registry column a C++ user sets (to a QRule) for their operator.
inline constexpr llvm::StringLiteral kQuantizeColumn = "relay.quantize";

class QuantizeRules {
public:
  /// TVM's rules, then the registry's "relay.quantize" column.
  QuantizeRules();

  /// Adds the rules of `path` (overriding): lines `<operator> <rule>`,
  /// `#` comments. Errors name the file, line and what is wrong.
  LogicalResult load(StringRef path, MLIRContext *ctx);

  /// The rule of the operator `opName` (`relay.nn.conv2d`); Float when it
  /// has none.
  QRule lookup(StringRef opName) const;
  /// Whether `opName` has a rule of its own (built in, registered or
  /// loaded; "float" included).
  bool hasRule(StringRef opName) const { return rules.contains(opName); }

private:
  llvm::StringMap<QRule> rules;
};

} // namespace mlir::relay::quant

#endif // RELAY_MLIR_TRANSFORMS_QUANTIZATION_QUANTIZERULES_H
