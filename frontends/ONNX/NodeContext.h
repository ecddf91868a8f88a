//===- NodeContext.h - What an ONNX op converter sees -----------*- C++ -*-===//
//
// Internal to the ONNX importer. A converter turns one NodeProto into relay
// ops through a NodeContext: the node's inputs (values, and their contents
// when known at import time), its attributes with defaults, a builder that
// types each relay operator by its relation (reporting a failure at the
// node), and the node's outputs.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_FRONTENDS_ONNX_NODECONTEXT_H
#define RELAY_MLIR_FRONTENDS_ONNX_NODECONTEXT_H

#include "dialects/relay/RelayBuilder.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <onnx/onnx_pb.h>

#include <functional>
#include <optional>

namespace mlir::relay::onnx_import {

/// A value of the ONNX graph: the relay value, and its contents when known
/// while importing (initializers, constants, folded shape arithmetic); for
/// a sequence or an optional, its elements when they are known at import
/// (see Sequences.h).
struct GraphValue {
  Value value;
  ElementsAttr constant;
  std::optional<SmallVector<Value>> elements = std::nullopt;
  /// Whether the ONNX value is UINT4 or INT4 (held in 8 bits), where that
  /// is known: graph inputs, initializers, constants, and the outputs of
  /// QuantizeLinear and Cast.
  bool fourBit = false;
};

/// ONNX's 4-bit integer data types (ONNX 1.16; Debian's onnx 1.12 has no
/// names for them).
constexpr int kUInt4 = 21, kInt4 = 22;
/// The relay element type of an ONNX TensorProto data type, or null.
/// UINT4 and INT4 values are held in 8-bit integers (uint8, int8).
Type convertDataType(MLIRContext *ctx, int dataType);
/// Whether an ONNX data type is UINT4 or INT4.
bool isFourBit(int dataType);
/// The name of an ONNX TensorProto data type ("FLOAT", "INT4"), or "data
/// type N" for one unknown.
std::string dataTypeName(int dataType);
/// An ONNX TensorProto as an attribute: dense elements for small tensors,
/// a `dense_resource` blob for large ones.
FailureOr<ElementsAttr> convertTensor(const onnx::TensorProto &tensor,
                                      MLIRContext *ctx, Location loc);
/// A shape as diagnostics print it: [2, ?, 3].
std::string shapeString(ArrayRef<int64_t> shape);
/// The integer contents of a constant (any integer or float type).
SmallVector<int64_t> readInts(ElementsAttr attr);
/// The contents of a constant as doubles.
SmallVector<double> readDoubles(ElementsAttr attr);
/// An int64 tensor of `shape` holding `values` (index maps, offsets).
DenseElementsAttr i64Elements(MLIRContext *ctx, ArrayRef<int64_t> shape,
                              ArrayRef<int64_t> values);

class NodeContext {
public:
  NodeContext(const onnx::NodeProto &node, ArrayRef<GraphValue> inputs,
              OpBuilder &builder, Location loc, int64_t opset, ModuleOp module)
      : node(node), inputs(inputs), builder(builder), loc(loc), opset(opset),
        module(module) {}

  const onnx::NodeProto &getNode() const { return node; }
  int64_t getOpset() const { return opset; }
  OpBuilder &getBuilder() { return builder; }
  Location getLoc() const { return loc; }
  MLIRContext *getContext() { return builder.getContext(); }
  /// The module being imported into (the builder may be filling a region
  /// whose op is not inserted yet).
  ModuleOp getModule() const { return module; }

  //===--------------------------------------------------------------------===//
  // Inputs
  //===--------------------------------------------------------------------===//

  unsigned getNumInputs() const { return inputs.size(); }
  /// Whether optional input `i` is given (present and not "").
  bool hasInput(unsigned i) const {
    return i < inputs.size() && inputs[i].value;
  }
  Value input(unsigned i) const { return inputs[i].value; }
  /// Input `i`'s contents when known at import time.
  ElementsAttr constantInput(unsigned i) const {
    return hasInput(i) ? inputs[i].constant : ElementsAttr();
  }
  /// The elements of sequence (or optional) input `i` when known at import.
  const std::optional<SmallVector<Value>> &knownElements(unsigned i) const {
    return inputs[i].elements;
  }
  RankedTensorType tensorType(unsigned i) const;
  ArrayRef<int64_t> shape(unsigned i) const { return tensorType(i).getShape(); }
  int64_t rank(unsigned i) const { return tensorType(i).getRank(); }
  Type elementType(unsigned i) const { return tensorType(i).getElementType(); }
  /// Whether input `i` is known to be an ONNX UINT4 or INT4 value (its
  /// type is then uint8 or int8).
  bool isFourBit(unsigned i) const { return hasInput(i) && inputs[i].fourBit; }
  /// Checks that inputs [min, max] are given and are ranked tensors of
  /// static shape (what most converters need; those of a few op types,
  /// listed in NodeContext.cpp, also take `?` dimensions that depend on
  /// the data, checking hasStaticShape where it matters).
  LogicalResult checkInputs(unsigned min, unsigned max);
  /// Whether input `i` is a tensor of static shape.
  bool hasStaticShape(unsigned i) const;
  /// The rank of input `i`, data with spatial axes (N x C x D1 ...); fails
  /// (reported) below rank 3.
  FailureOr<int64_t> spatialRank(unsigned i);
  /// The integers of a constant input; fails (reported) when it is not
  /// known at import time.
  FailureOr<SmallVector<int64_t>> constantInts(unsigned i, StringRef what);

  //===--------------------------------------------------------------------===//
  // Attributes
  //===--------------------------------------------------------------------===//

  const onnx::AttributeProto *attribute(StringRef name) const;
  bool hasAttr(StringRef name) const { return attribute(name) != nullptr; }
  int64_t attrInt(StringRef name, int64_t dflt) const;
  double attrFloat(StringRef name, double dflt) const;
  std::string attrString(StringRef name, StringRef dflt) const;
  SmallVector<int64_t> attrInts(StringRef name,
                                ArrayRef<int64_t> dflt = {}) const;
  SmallVector<double> attrFloats(StringRef name) const;
  /// Fails (reported) when an attribute is set to something other than
  /// its only supported value.
  LogicalResult expectAttr(StringRef name, int64_t supported);

  //===--------------------------------------------------------------------===//
  // Building
  //===--------------------------------------------------------------------===//

  /// Builds the relay operator `OpT` on `args` with `attrs`, typed by the
  /// operator's relation (RelayBuilder::op); a relation failure is
  /// reported at the node.
  template <typename OpT>
  FailureOr<Value> op(ValueRange args, ArrayRef<NamedAttribute> attrs = {}) {
    bool reported = false;
    Value v = RelayBuilder(builder, loc).op<OpT>(args, attrs, [&] {
      reported = true;
      return emitError();
    });
    if (v)
      return v;
    if (!reported)
      return fail(Twine("cannot type ") + OpT::getOperationName() +
                  " on these operands");
    return failure();
  }
  /// A relay constant.
  Value constant(ElementsAttr value);
  /// A 0-d constant of `type`'s element type.
  Value scalar(double value, Type elementType);
  Value tuple(ValueRange fields);
  Value tupleGet(Value tuple, unsigned index);

  NamedAttribute i64(StringRef name, int64_t v) {
    return builder.getNamedAttr(name, builder.getI64IntegerAttr(v));
  }
  NamedAttribute f64(StringRef name, double v) {
    return builder.getNamedAttr(name, builder.getF64FloatAttr(v));
  }
  NamedAttribute ints(StringRef name, ArrayRef<int64_t> v) {
    return builder.getNamedAttr(name, builder.getDenseI64ArrayAttr(v));
  }
  NamedAttribute boolean(StringRef name, bool v) {
    return builder.getNamedAttr(name, builder.getBoolAttr(v));
  }
  NamedAttribute str(StringRef name, StringRef v) {
    return builder.getNamedAttr(name, builder.getStringAttr(v));
  }
  NamedAttribute type(StringRef name, Type t) {
    return builder.getNamedAttr(name, TypeAttr::get(t));
  }

  //===--------------------------------------------------------------------===//
  // Results
  //===--------------------------------------------------------------------===//

  /// Sets the node's next output; `known` is its contents when folded.
  void addOutput(Value v, ElementsAttr known = {}) {
    outputs.push_back({v, known});
  }
  /// Sets the node's next output, a sequence or optional whose elements
  /// are known at import.
  void addOutput(Value v, std::optional<SmallVector<Value>> elements) {
    outputs.push_back({v, {}, std::move(elements)});
  }
  /// Marks the last output an ONNX UINT4 or INT4 value (held in 8 bits).
  void markLastOutputFourBit() { outputs.back().fourBit = true; }
  /// Adds a built value as the next output (failing when it failed).
  LogicalResult output(FailureOr<Value> v) {
    if (failed(v))
      return failure();
    addOutput(*v);
    return success();
  }
  ArrayRef<GraphValue> getOutputs() const { return outputs; }

  /// Reports an error at the node: `<op> node '<name>': <message>`.
  InFlightDiagnostic emitError();
  LogicalResult fail(const Twine &message) {
    emitError() << message;
    return failure();
  }

  /// Normalises a possibly negative axis for `rank` into [0, rank); fails
  /// when out of range (always for a scalar).
  FailureOr<int64_t> axis(int64_t axis, int64_t rank);
  /// `axes` normalised by axis(); fails when one is out of range or two
  /// name the same axis.
  FailureOr<SmallVector<int64_t>> distinctAxes(ArrayRef<int64_t> axes,
                                               int64_t rank);

private:
  const onnx::NodeProto &node;
  ArrayRef<GraphValue> inputs;
  OpBuilder &builder;
  Location loc;
  int64_t opset;
  ModuleOp module;
  SmallVector<GraphValue> outputs;
};

/// Converts one node; reports and fails when it cannot.
using OpConverter = std::function<LogicalResult(NodeContext &)>;

/// The converter of ONNX op type `opType` (default domain), or null.
const OpConverter *lookupOpConverter(StringRef opType);
/// Every converted op type.
std::vector<std::string> listOpConverters();

} // namespace mlir::relay::onnx_import

#endif // RELAY_MLIR_FRONTENDS_ONNX_NODECONTEXT_H
