//===- OnnxImporter.cpp - ONNX models to the relay dialect ------*- C++ -*-===//

#include "frontends/ONNX/OnnxImporter.h"

#include "frontends/ONNX/ExternalData.h"
#include "frontends/ONNX/GraphImporter.h"
#include "frontends/ONNX/NodeContext.h"
#include "frontends/ONNX/Sequences.h"
#include "support/ImportTranslation.h"
#include "transforms/Simplify/FoldConstant.h"

#include "dialects/relay/RelayDialect.h"
#include "dialects/relay/RelayOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

/// The opsets the converters follow. Of what opsets 19-22 changed, the
/// converters take Pad's wrap mode, Resize's half_pixel_symmetric
/// coordinates, DFT's axis input, Gelu, AffineGrid, GroupNormalization's
/// scale and bias per channel, QuantizeLinear's output_dtype, blocked
/// quantization (block_size), 4-bit integers (held in 8 bits) and
/// DeformConv; the rest (float8 and string types, the string operators)
/// fail at the node or at the type. Opset 22 only added bfloat16 to
/// operators' type lists. Opsets 23-25 added Attention,
/// RotaryEmbedding, RMSNormalization, Swish and TensorScatter (taken),
/// QuantizeLinear's precision (float32 taken) and DequantizeLinear's
/// output_dtype (taken), and float4, float8e8m0 and 2-bit integer types
/// (not taken). Opset 26 added BitCast and CumProd; 27 CausalConvWithState,
/// LinearAttention and Range's stash_type (arange steps in double
/// already).
static constexpr int64_t kMinOpset = 1, kMaxOpset = 27;
/// The domain of the optimizer updates (Adagrad, Momentum, Adam), whose
/// converters are registered as `ai.onnx.preview.training:OP`.
static constexpr StringLiteral kTrainingDomain = "ai.onnx.preview.training";

LogicalResult GraphImporter::readOpset(const onnx::ModelProto &model) {
  for (const onnx::OperatorSetIdProto &id : model.opset_import()) {
    if (id.domain().empty() || id.domain() == "ai.onnx")
      opset = id.version();
    else if (id.domain() != "ai.onnx.ml" && id.domain() != kTrainingDomain)
      return emitError(fileLoc(0))
             << "the model imports operator set domain '" << id.domain()
             << "', which the importer does not support";
  }
  // A model that names no opset (ONNX requires one) is read as opset 7's,
  // the first with numpy broadcasting.
  if (opset == 0)
    opset = 7;
  if (opset < kMinOpset || opset > kMaxOpset)
    return emitError(fileLoc(0))
           << "the model uses ONNX opset " << opset
           << "; the importer supports " << kMinOpset << " to " << kMaxOpset;
  return success();
}

Type GraphImporter::valueInfoType(
    const onnx::ValueInfoProto &info,
    const std::optional<SmallVector<int64_t>> *sample) {
  Location loc = NameLoc::get(StringAttr::get(ctx, info.name()), fileLoc(0));
  std::string error;
  Type type = convertTypeProto(info.type(), module, loc, error, sample);
  if (!type)
    emitError(loc) << "graph value '" << info.name() << "' " << error;
  return type;
}

Type GraphImporter::inputType(const onnx::ValueInfoProto &info,
                              unsigned index) {
  const std::optional<SmallVector<int64_t>> *sample =
      index < options.inputShapesInOrder.size()
          ? &options.inputShapesInOrder[index]
          : nullptr;
  Type converted = valueInfoType(info, sample);
  // Sequences and optionals take their elements' rank from the sample.
  auto type = dyn_cast_or_null<RankedTensorType>(converted);
  if (!type)
    return converted;
  Location loc = NameLoc::get(StringAttr::get(ctx, info.name()), fileLoc(0));
  ArrayRef<int64_t> model = type.getShape();
  auto named = options.inputShapes.find(info.name());
  if (named != options.inputShapes.end()) {
    ArrayRef<int64_t> given = named->second;
    bool agrees = given.size() == model.size();
    for (size_t d = 0; agrees && d < given.size(); ++d)
      agrees = ShapedType::isDynamic(model[d]) || model[d] == given[d];
    if (!agrees) {
      emitError(loc) << "graph input '" << info.name() << "' is " << type
                     << " in the model; the shape given for it ("
                     << RankedTensorType::get(given, type.getElementType())
                     << ") does not fit";
      return Type();
    }
    return RankedTensorType::get(given, type.getElementType());
  }
  if (type.hasStaticShape() || !sample || !*sample)
    return type;
  ArrayRef<int64_t> given = **sample;
  // The sample cannot size the symbolic dims: the run would fail on the
  // input's type anyway, and the model's nodes on the dims left unknown.
  if (given.size() != model.size()) {
    emitError(loc) << "graph input '" << info.name() << "' is " << type
                   << " in the model, a rank-" << model.size()
                   << " tensor; input #" << index << " given for it ("
                   << RankedTensorType::get(given, type.getElementType())
                   << ") has rank " << given.size();
    return Type();
  }
  SmallVector<int64_t> shape(model);
  for (size_t d = 0; d < shape.size(); ++d)
    if (ShapedType::isDynamic(shape[d]))
      shape[d] = given[d];
  return RankedTensorType::get(shape, type.getElementType());
}

// Converters fold the shape arithmetic they know (Shape, Gather, Concat,
// integer +-*/ ...); any other node whose inputs are all known and whose
// output is a small integer or boolean tensor (Size, Neg, a slice of a
// shape, ConstantOfShape or Range on known operands) is evaluated here by
// the interpreter's kernels, as --relay-fold-constant would, so that what
// depends on it (a Reshape's shape, a ConstantOfShape's) is known at
// import too. Float values are only where they have at most 8 elements
// (shape arithmetic done in float: a size divided and rounded up), not
// weights: a QDQ model's dequantized weights must stay dequantizes
// (FakeQuantizationToInteger reads them), and the optimiser folds the
// rest. Random operators are never folded.
void GraphImporter::foldKnownOutputs(const onnx::NodeProto &node,
                                     ArrayRef<GraphValue> inputs,
                                     MutableArrayRef<GraphValue> outputs,
                                     Location loc) {
  constexpr int64_t kMaxFolded = 1 << 12, kMaxFoldedFloats = 8;
  StringRef op = node.op_type();
  if (op.starts_with("Random") || op == "Bernoulli" || op == "Multinomial" ||
      op.contains("QuantizeLinear") || op == "DequantizeLinear" ||
      llvm::none_of(inputs,
                    [](const GraphValue &v) { return bool(v.value); }) ||
      llvm::any_of(inputs,
                   [](const GraphValue &v) { return v.value && !v.constant; }))
    return;
  for (GraphValue &out : outputs) {
    auto type = out.value ? dyn_cast<RankedTensorType>(out.value.getType())
                          : RankedTensorType();
    // Float values are folded only as shape arithmetic is: a few elements
    // (a size divided and rounded up, as detection models pad their images
    // to a multiple of the stride: Cast, Div, Ceil, Cast back).
    if (!type || out.constant || !type.hasStaticShape() ||
        !(isa<IntegerType>(type.getElementType()) ||
          (isa<FloatType>(type.getElementType()) &&
           type.getNumElements() <= kMaxFoldedFloats)))
      continue;
    DenseElementsAttr known =
        evaluateConstantTensor(out.value, kMaxFolded, /*maxDepth=*/64);
    if (!known)
      continue;
    out.value = ConstantOp::create(builder, loc, known);
    out.constant = known;
  }
}

LogicalResult GraphImporter::importNode(const onnx::NodeProto &node,
                                        unsigned index) {
  std::string label = node.name().empty()
                          ? node.op_type() + "_" + std::to_string(index)
                          : node.name();
  Location loc = NameLoc::get(StringAttr::get(ctx, label), fileLoc(index + 1));
  bool training = node.domain() == kTrainingDomain;
  if (!node.domain().empty() && node.domain() != "ai.onnx" && !training)
    return emitError(loc) << node.op_type() << " node '" << label
                          << "': operator domain '" << node.domain()
                          << "' is not supported";
  if (!training) {
    if (node.op_type() == "If")
      return importIf(node, label, loc);
    if (node.op_type() == "Scan")
      return importScan(node, label, loc);
    if (node.op_type() == "Loop")
      return importLoop(node, label, loc);
    if (node.op_type() == "SequenceMap")
      return importSequenceMap(node, label, loc);
  }
  const OpConverter *converter = lookupOpConverter(
      training ? (kTrainingDomain + ":" + node.op_type()).str()
               : node.op_type());
  if (!converter)
    return emitError(loc) << "unsupported ONNX operator " << node.op_type()
                          << (training
                                  ? " of domain '" + kTrainingDomain.str() + "'"
                                  : std::string())
                          << " (node '" << label << "')";
  SmallVector<GraphValue> inputs;
  for (const std::string &name : node.input()) {
    if (name.empty()) {
      inputs.push_back({});
      continue;
    }
    auto it = values.find(name);
    if (it == values.end())
      return emitError(loc)
             << node.op_type() << " node '" << label << "': input '" << name
             << "' is not defined before the node";
    inputs.push_back(it->second);
  }
  onnx::NodeProto named = node;
  named.set_name(label);
  NodeContext context(named, inputs, builder, loc, opset, module);
  if (failed((*converter)(context)))
    return failure();
  SmallVector<GraphValue> outputs(context.getOutputs());
  foldKnownOutputs(node, inputs, outputs, loc);
  if (outputs.size() < static_cast<size_t>(node.output_size())) {
    // Optional outputs the converter does not produce must be unused.
    for (int i = outputs.size(); i < node.output_size(); ++i)
      if (!node.output(i).empty())
        return emitError(loc)
               << node.op_type() << " node '" << label << "': output #" << i
               << " ('" << node.output(i) << "') is not supported";
  }
  for (int i = 0; i < node.output_size(); ++i)
    if (!node.output(i).empty())
      values[node.output(i)] = outputs[i];
  return success();
}

OwningOpRef<ModuleOp> GraphImporter::import(const onnx::ModelProto &model) {
  if (failed(readOpset(model)))
    return nullptr;
  const onnx::GraphProto &graph = model.graph();
  OwningOpRef<ModuleOp> owned = ModuleOp::create(fileLoc(0));
  module = *owned;
  builder.setInsertionPointToEnd(module.getBody());

  // Initializers may also be listed as graph inputs (IR version < 4); they
  // are constants, not parameters.
  llvm::StringMap<const onnx::TensorProto *> initializers;
  for (const onnx::TensorProto &t : graph.initializer())
    initializers[t.name()] = &t;
  SmallVector<Type> inputTypes;
  SmallVector<std::string> inputNames;
  for (const onnx::ValueInfoProto &info : graph.input()) {
    if (initializers.count(info.name()))
      continue;
    Type type = inputType(info, inputTypes.size());
    if (!type)
      return nullptr;
    inputTypes.push_back(type);
    inputNames.push_back(info.name());
  }
  for (const auto &named : options.inputShapes)
    if (!llvm::is_contained(inputNames, named.getKey())) {
      emitError(fileLoc(0))
          << "a shape is given for '" << named.getKey()
          << "', but the graph has no such input (its inputs: "
          << llvm::join(inputNames, ", ") << ")";
      return nullptr;
    }
  auto func = FuncOp::create(builder, fileLoc(0), "main", inputTypes,
                             IncompleteType::get(ctx));
  Block &entry = func.getBody().front();
  builder.setInsertionPointToStart(&entry);
  for (auto [name, arg] : llvm::zip(inputNames, entry.getArguments()))
    values[name] = {arg, {}};
  for (const onnx::ValueInfoProto &info : graph.input())
    if (values.count(info.name()))
      values[info.name()].fourBit =
          isFourBit(info.type().tensor_type().elem_type());
  for (const onnx::TensorProto &t : graph.initializer()) {
    Location loc = NameLoc::get(StringAttr::get(ctx, t.name()), fileLoc(0));
    FailureOr<ElementsAttr> attr = convertTensor(t, ctx, loc);
    if (failed(attr))
      return nullptr;
    values[t.name()] = {ConstantOp::create(builder, loc, *attr), *attr};
    values[t.name()].fourBit = isFourBit(t.data_type());
  }
  for (auto [index, node] : llvm::enumerate(graph.node()))
    if (failed(importNode(node, index)))
      return nullptr;

  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &info : graph.output()) {
    auto it = values.find(info.name());
    if (it == values.end()) {
      emitError(fileLoc(0))
          << "graph output '" << info.name() << "' is not computed by any node";
      return nullptr;
    }
    results.push_back(it->second.value);
  }
  if (results.empty()) {
    emitError(fileLoc(0)) << "the graph has no outputs";
    return nullptr;
  }
  Value result = results.size() == 1
                     ? results.front()
                     : Value(TupleOp::create(builder, fileLoc(0), results));
  ReturnOp::create(builder, fileLoc(0), result);
  func.setFunctionTypeAttr(
      TypeAttr::get(FunctionType::get(ctx, inputTypes, result.getType())));

  // Folded shape arithmetic leaves constants nobody uses.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(entry)))
    if (isOpTriviallyDead(&op))
      op.erase();
  return owned;
}

OwningOpRef<ModuleOp>
mlir::relay::onnx_import::importOnnxModel(StringRef bytes, StringRef fileName,
                                          MLIRContext *ctx,
                                          const OnnxImportOptions &options) {
  ctx->loadDialect<RelayDialect>();
  onnx::ModelProto model;
  if (bytes.size() > static_cast<size_t>(INT_MAX) ||
      !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    emitError(FileLineColLoc::get(ctx, fileName, 0, 0))
        << "not a valid ONNX model (the file does not parse as an "
           "onnx.ModelProto)";
    return nullptr;
  }
  if (!model.has_graph()) {
    emitError(FileLineColLoc::get(ctx, fileName, 0, 0))
        << "the ONNX model has no graph";
    return nullptr;
  }
  StringRef directory = options.externalDataDirectory;
  if (directory.empty())
    directory = llvm::sys::path::parent_path(fileName);
  if (failed(loadExternalData(model, directory,
                              FileLineColLoc::get(ctx, fileName, 0, 0))))
    return nullptr;
  return GraphImporter(ctx, fileName, options).import(model);
}

OwningOpRef<ModuleOp>
mlir::relay::onnx_import::importOnnxFile(StringRef path, MLIRContext *ctx) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer) {
    emitError(FileLineColLoc::get(ctx, path, 0, 0))
        << "cannot read '" << path << "': " << buffer.getError().message();
    return nullptr;
  }
  return importOnnxModel((*buffer)->getBuffer(), path, ctx);
}

std::vector<std::string> mlir::relay::onnx_import::getSupportedOnnxOps() {
  return listOpConverters();
}

std::string
mlir::relay::onnx_import::parseOnnxInputShape(StringRef spec,
                                              OnnxImportOptions &options) {
  size_t eq = spec.rfind('=');
  if (eq == StringRef::npos || eq == 0)
    return ("expected NAME=D1xD2x..., got '" + spec + "'").str();
  StringRef name = spec.take_front(eq), dims = spec.drop_front(eq + 1);
  SmallVector<int64_t> shape;
  SmallVector<StringRef> parts;
  if (!dims.empty())
    dims.split(parts, 'x');
  for (StringRef part : parts) {
    int64_t d;
    if (part.getAsInteger(10, d) || d < 0)
      return ("'" + part + "' in '" + spec +
              "' is not a dimension (expected NAME=D1xD2x..., e.g. "
              "image=1x3x224x224)")
          .str();
    shape.push_back(d);
  }
  options.inputShapes[name] = shape;
  return "";
}

void mlir::relay::onnx_import::registerOnnxTranslation() {
  static llvm::cl::list<std::string> inputShapes(
      "onnx-input-shape",
      llvm::cl::desc("--import-onnx: the shape of a graph input whose "
                     "dimensions the model leaves symbolic, as "
                     "NAME=D1xD2x... (repeat for more inputs)"),
      llvm::cl::value_desc("NAME=1x3x224x224"));
  registerImportTranslation(
      "import-onnx", "ONNX model (opsets 1-18) to relay dialect MLIR",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *ctx) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        OnnxImportOptions options;
        for (const std::string &spec : inputShapes)
          if (std::string error = parseOnnxInputShape(spec, options);
              !error.empty()) {
            emitError(
                FileLineColLoc::get(ctx, buffer->getBufferIdentifier(), 0, 0))
                << "--onnx-input-shape: " << error;
            return nullptr;
          }
        return importOnnxModel(buffer->getBuffer(),
                               buffer->getBufferIdentifier(), ctx, options);
      },
      [](DialectRegistry &registry) { registry.insert<RelayDialect>(); });
}
