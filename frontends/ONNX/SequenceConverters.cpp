//===- SequenceConverters.cpp - ONNX sequences and optionals ----*- C++ -*-===//
//
// SequenceEmpty, SequenceConstruct, SequenceInsert, SequenceAt,
// SequenceErase, SequenceLength, ConcatFromSequence, SplitToSequence,
// Optional, OptionalHasElement and OptionalGetElement over the prelude's
// List and Option (Sequences.h says how; SequenceMap, which holds a graph,
// is in ControlFlowImport.cpp).
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/GraphImporter.h"
#include "frontends/ONNX/Sequences.h"
#include "frontends/RelayText/Importer.h"

#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/RelayTypes.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

static const char sequencesText[] =
#include "frontends/ONNX/Sequences.rly.inc"
    ;

//===----------------------------------------------------------------------===//
// Types and the functions of Sequences.rly
//===----------------------------------------------------------------------===//

LogicalResult mlir::relay::onnx_import::addSequenceSupport(ModuleOp module,
                                                           Location loc) {
  if (module.lookupSymbol("onnx_sequence_length"))
    return success();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(sequencesText, "onnx-sequences.rly"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> helpers =
      text::importRelayText(sourceMgr, module.getContext());
  if (!helpers)
    return emitError(loc)
           << "internal error: the ONNX sequence functions do not import";
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  for (Operation &op : helpers->getBody()->getOperations()) {
    // The module may define a prelude ADT already (an earlier import).
    if (auto symbol = dyn_cast<SymbolOpInterface>(op);
        symbol && module.lookupSymbol(symbol.getNameAttr()))
      continue;
    b.clone(op);
  }
  return success();
}

CtorOp mlir::relay::onnx_import::lookupConstructor(ModuleOp module,
                                                   StringRef data,
                                                   StringRef ctor) {
  auto adt = module.lookupSymbol<DataOp>(data);
  for (CtorOp c : adt.getConstructors())
    if (c.getSymName() == ctor)
      return c;
  llvm_unreachable("the prelude's List and Option have these constructors");
}

static Type adtOf(StringRef name, Type element) {
  MLIRContext *ctx = element.getContext();
  return AdtType::get(ctx, StringAttr::get(ctx, name), {element});
}

static Type argumentOf(StringRef name, Type type) {
  auto adt = dyn_cast_or_null<AdtType>(type);
  if (!adt || adt.getName() != name || adt.getArgs().size() != 1)
    return {};
  return adt.getArgs().front();
}

Type mlir::relay::onnx_import::getSequenceType(Type element) {
  return adtOf("List", element);
}
Type mlir::relay::onnx_import::getOptionalType(Type element) {
  return adtOf("Option", element);
}
Type mlir::relay::onnx_import::getSequenceElementType(Type type) {
  return argumentOf("List", type);
}
Type mlir::relay::onnx_import::getOptionalElementType(Type type) {
  return argumentOf("Option", type);
}

Type mlir::relay::onnx_import::sequenceElementOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return {};
  return RankedTensorType::get(
      SmallVector<int64_t>(tensor.getRank(), ShapedType::kDynamic),
      tensor.getElementType());
}

/// What an ONNX TypeProto holds, for messages.
static StringRef typeKind(const onnx::TypeProto &type) {
  if (type.has_tensor_type())
    return "a tensor";
  if (type.has_sequence_type())
    return "a sequence";
  if (type.has_optional_type())
    return "an optional";
  if (type.has_map_type())
    return "a map";
  if (type.has_sparse_tensor_type())
    return "a sparse tensor";
  return "a value of no type";
}

/// The relay dtype of an ONNX tensor type, or null with `error` set.
static Type tensorDtype(MLIRContext *ctx, const onnx::TypeProto::Tensor &t,
                        std::string &error) {
  Type element = convertDataType(ctx, t.elem_type());
  if (!element)
    error =
        "has an unsupported element type (" + dataTypeName(t.elem_type()) + ")";
  return element;
}

Type mlir::relay::onnx_import::convertTypeProto(
    const onnx::TypeProto &type, ModuleOp module, Location loc,
    std::string &error, const std::optional<SmallVector<int64_t>> *sample) {
  MLIRContext *ctx = module.getContext();
  if (type.has_tensor_type()) {
    const onnx::TypeProto::Tensor &tensor = type.tensor_type();
    Type element = tensorDtype(ctx, tensor, error);
    if (!element)
      return {};
    SmallVector<int64_t> shape;
    if (tensor.has_shape()) {
      for (const onnx::TensorShapeProto::Dimension &d : tensor.shape().dim())
        shape.push_back(d.has_dim_value() ? d.dim_value()
                                          : ShapedType::kDynamic);
    } else if (sample && *sample) {
      // Undeclared: the sample's rank, its sizes filled in by the caller.
      shape.assign((*sample)->size(), ShapedType::kDynamic);
    } else {
      error = "has no shape; the importer needs ranked inputs";
      return {};
    }
    return RankedTensorType::get(shape, element);
  }
  if (type.has_sequence_type()) {
    const onnx::TypeProto &elem = type.sequence_type().elem_type();
    if (!elem.has_tensor_type()) {
      error = ("is a sequence of " + typeKind(elem) +
               "; the importer takes sequences of tensors")
                  .str();
      return {};
    }
    const onnx::TypeProto::Tensor &tensor = elem.tensor_type();
    Type dtype = tensorDtype(ctx, tensor, error);
    if (!dtype)
      return {};
    std::optional<int64_t> rank;
    if (sample) {
      if (*sample)
        rank = (*sample)->size();
    } else if (tensor.has_shape()) {
      rank = tensor.shape().dim_size();
    }
    if (failed(addSequenceSupport(module, loc)))
      return {};
    return getSequenceType(
        rank ? Type(RankedTensorType::get(
                   SmallVector<int64_t>(*rank, ShapedType::kDynamic), dtype))
             : Type(IncompleteType::get(ctx)));
  }
  if (type.has_optional_type()) {
    Type inner = convertTypeProto(type.optional_type().elem_type(), module, loc,
                                  error, sample);
    if (!inner || failed(addSequenceSupport(module, loc)))
      return {};
    return getOptionalType(inner);
  }
  error = ("is " + typeKind(type) +
           "; the importer takes tensors, sequences of tensors and optionals")
              .str();
  return {};
}

Value mlir::relay::onnx_import::buildSequence(OpBuilder &builder, Location loc,
                                              ModuleOp module,
                                              ArrayRef<Value> elements,
                                              Type element) {
  RelayBuilder rb(builder, loc);
  Type list = getSequenceType(element);
  Value v = rb.construct(lookupConstructor(module, "List", "Nil"), {}, list);
  CtorOp cons = lookupConstructor(module, "List", "Cons");
  for (Value e : llvm::reverse(elements))
    v = rb.construct(cons, {widenTo(builder, loc, e, element), v}, list);
  return v;
}

Value mlir::relay::onnx_import::joinSteps(OpBuilder &builder, Location loc,
                                          Value steps, RankedTensorType type,
                                          bool newestFirst, Value empty) {
  RelayBuilder rb(builder, loc);
  if (!empty) {
    SmallVector<int64_t> emptyShape(type.getShape());
    for (int64_t &d : emptyShape)
      if (ShapedType::isDynamic(d))
        d = 0;
    auto emptyType = RankedTensorType::get(emptyShape, type.getElementType());
    empty = widenTo(builder, loc,
                    ConstantOp::create(builder, loc,
                                       DenseElementsAttr::get(
                                           emptyType, ArrayRef<Attribute>{})),
                    type);
  }
  Value concat = rb.fn({type, type}, type, [&](RelayBuilder &b, ValueRange a) {
    return widenTo(
        builder, loc,
        b.op<ConcatenateOp>(
            {b.tuple({a[0], a[1]})},
            {builder.getNamedAttr("axis", builder.getI64IntegerAttr(0))}),
        type);
  });
  return rb.call("onnx_sequence_join_or", type,
                 {concat, rb.boolean(newestFirst), empty, steps});
}

//===----------------------------------------------------------------------===//
// Converters
//===----------------------------------------------------------------------===//

namespace {

Value buildList(NodeContext &ctx, ArrayRef<Value> elements, Type element) {
  return buildSequence(ctx.getBuilder(), ctx.getLoc(), ctx.getModule(),
                       elements, element);
}

/// Sets up a sequence converter: the functions of Sequences.rly in the
/// module, input `seq` a sequence; its element type (possibly incomplete),
/// or null (reported).
Type prepareSequence(NodeContext &ctx, unsigned seq) {
  if (failed(addSequenceSupport(ctx.getModule(), ctx.getLoc())))
    return {};
  if (!ctx.hasInput(seq)) {
    (void)ctx.fail(Twine("input #") + Twine(seq) + " is required");
    return {};
  }
  Type element = getSequenceElementType(ctx.input(seq).getType());
  if (!element) {
    std::string type;
    llvm::raw_string_ostream os(type);
    os << ctx.input(seq).getType();
    (void)ctx.fail(Twine("input #") + Twine(seq) +
                   " must be a sequence, got '" + type + "'");
  }
  return element;
}

/// The element type `element` of a sequence that is to hold `tensor`: the
/// tensor's where it is not known yet; null (reported) when they differ in
/// rank or dtype.
Type elementFor(NodeContext &ctx, Type element, Value tensor) {
  Type own = sequenceElementOf(tensor.getType());
  if (!own) {
    (void)ctx.fail("the value put into the sequence must be a tensor");
    return {};
  }
  if (isa<IncompleteType>(element) || element == own)
    return own;
  std::string a, b;
  llvm::raw_string_ostream as(a), bs(b);
  as << tensor.getType();
  bs << element;
  (void)ctx.fail("cannot put a '" + a + "' into a sequence of '" + b +
                 "' (the elements of a sequence have one rank and dtype)");
  return {};
}

/// Input `i` (a scalar or one-element integer tensor) as a 0-d int64.
FailureOr<Value> positionInput(NodeContext &ctx, unsigned i) {
  auto type = ctx.tensorType(i);
  if (!type || !isa<IntegerType>(type.getElementType()) ||
      !type.hasStaticShape() || type.getNumElements() != 1)
    return ctx.fail(Twine("the position (input #") + Twine(i) +
                    ") must be a one-element integer tensor");
  Value v = ctx.input(i);
  Type i64 = ctx.getBuilder().getIntegerType(64);
  if (type.getRank() != 0) {
    FailureOr<Value> r =
        ctx.op<ReshapeOp>({v}, {ctx.ints("newshape", ArrayRef<int64_t>{})});
    if (failed(r))
      return failure();
    v = *r;
  }
  if (type.getElementType() != i64) {
    FailureOr<Value> r = ctx.op<CastOp>({v}, {ctx.type("dtype", i64)});
    if (failed(r))
      return failure();
    v = *r;
  }
  return v;
}

/// A known position of a sequence of `n` known elements in [-n, n) (or
/// [-n, n] `inclusive`), counted from the front; failure (reported)
/// outside.
FailureOr<int64_t> knownPosition(NodeContext &ctx, int64_t pos, int64_t n,
                                 bool inclusive) {
  int64_t k = pos < 0 ? pos + n : pos;
  if (k < 0 || k > n || (k == n && !inclusive))
    return ctx.fail("position " + Twine(pos) + " is outside the sequence of " +
                    Twine(n) + " elements");
  return k;
}

/// The position input `i` as a known integer, when it is.
std::optional<int64_t> knownInt(NodeContext &ctx, unsigned i) {
  ElementsAttr c = ctx.constantInput(i);
  if (!c || c.getNumElements() != 1)
    return std::nullopt;
  return readInts(c).front();
}

/// `@name(args)` of Sequences.rly, of type `result`.
Value callHelper(NodeContext &ctx, StringRef name, Type result,
                 ValueRange args) {
  return RelayBuilder(ctx.getBuilder(), ctx.getLoc()).call(name, result, args);
}

/// A position from the front (`@onnx_sequence_index`) of position input `i`
/// of `seq` (or of `dflt` when the input is not given: 0 is the front,
/// -1 the last element, `std::nullopt` the length).
FailureOr<Value> runtimePosition(NodeContext &ctx, Value seq, unsigned i,
                                 std::optional<int64_t> dflt) {
  Type i64 = ctx.getBuilder().getIntegerType(64);
  Type scalar = RankedTensorType::get({}, i64);
  if (!ctx.hasInput(i) && !dflt)
    return callHelper(ctx, "onnx_sequence_length", scalar, {seq});
  Value pos;
  if (ctx.hasInput(i)) {
    FailureOr<Value> p = positionInput(ctx, i);
    if (failed(p))
      return failure();
    pos = *p;
  } else {
    pos = ctx.scalar(*dflt, i64);
  }
  return callHelper(ctx, "onnx_sequence_index", scalar, {seq, pos});
}

LogicalResult convertSequenceEmpty(NodeContext &ctx) {
  if (ctx.getNumInputs() != 0)
    return ctx.fail("takes no inputs");
  if (failed(addSequenceSupport(ctx.getModule(), ctx.getLoc())))
    return failure();
  Type dtype = convertDataType(ctx.getContext(),
                               ctx.attrInt("dtype", onnx::TensorProto::FLOAT));
  if (!dtype)
    return ctx.fail("has an unsupported dtype");
  // The rank comes with the first insert (type inference unifies).
  ctx.addOutput(buildList(ctx, {}, IncompleteType::get(ctx.getContext())),
                SmallVector<Value>());
  return success();
}

LogicalResult convertSequenceConstruct(NodeContext &ctx) {
  if (failed(addSequenceSupport(ctx.getModule(), ctx.getLoc())))
    return failure();
  if (ctx.getNumInputs() == 0)
    return ctx.fail("needs at least one tensor");
  Type element = IncompleteType::get(ctx.getContext());
  SmallVector<Value> elements;
  for (unsigned i = 0; i < ctx.getNumInputs(); ++i) {
    if (!ctx.hasInput(i))
      return ctx.fail(Twine("input #") + Twine(i) + " is empty");
    element = elementFor(ctx, element, ctx.input(i));
    if (!element)
      return failure();
    elements.push_back(ctx.input(i));
  }
  ctx.addOutput(buildList(ctx, elements, element), elements);
  return success();
}

LogicalResult convertSequenceInsert(NodeContext &ctx) {
  Type element = prepareSequence(ctx, 0);
  if (!element)
    return failure();
  if (!ctx.hasInput(1))
    return ctx.fail("input #1 (the tensor) is required");
  element = elementFor(ctx, element, ctx.input(1));
  if (!element)
    return failure();
  Value seq = ctx.input(0), tensor = ctx.input(1);
  const std::optional<SmallVector<Value>> &known = ctx.knownElements(0);
  std::optional<int64_t> pos =
      ctx.hasInput(2) ? knownInt(ctx, 2) : std::optional<int64_t>(-1);
  if (known && pos) {
    int64_t n = known->size();
    // No position appends.
    FailureOr<int64_t> k = ctx.hasInput(2) ? knownPosition(ctx, *pos, n, true)
                                           : FailureOr<int64_t>(n);
    if (failed(k))
      return failure();
    SmallVector<Value> elements(*known);
    elements.insert(elements.begin() + *k, tensor);
    ctx.addOutput(buildList(ctx, elements, element), elements);
    return success();
  }
  FailureOr<Value> k = runtimePosition(ctx, seq, 2, std::nullopt);
  if (failed(k))
    return failure();
  ctx.addOutput(callHelper(
      ctx, "onnx_sequence_insert", getSequenceType(element),
      {seq, *k, widenTo(ctx.getBuilder(), ctx.getLoc(), tensor, element)}));
  return success();
}

LogicalResult convertSequenceAt(NodeContext &ctx) {
  Type element = prepareSequence(ctx, 0);
  if (!element)
    return failure();
  if (!ctx.hasInput(1))
    return ctx.fail("input #1 (the position) is required");
  const std::optional<SmallVector<Value>> &known = ctx.knownElements(0);
  if (std::optional<int64_t> pos = knownInt(ctx, 1); known && pos) {
    FailureOr<int64_t> k = knownPosition(ctx, *pos, known->size(), false);
    if (failed(k))
      return failure();
    ctx.addOutput((*known)[*k]);
    return success();
  }
  if (isa<IncompleteType>(element))
    return ctx.fail("the sequence's element type is not known here (it is "
                    "empty where it is made, and nothing is inserted "
                    "before)");
  FailureOr<Value> k = runtimePosition(ctx, ctx.input(0), 1, 0);
  if (failed(k))
    return failure();
  ctx.addOutput(
      callHelper(ctx, "onnx_sequence_at", element, {ctx.input(0), *k}));
  return success();
}

LogicalResult convertSequenceErase(NodeContext &ctx) {
  Type element = prepareSequence(ctx, 0);
  if (!element)
    return failure();
  const std::optional<SmallVector<Value>> &known = ctx.knownElements(0);
  std::optional<int64_t> pos =
      ctx.hasInput(1) ? knownInt(ctx, 1) : std::optional<int64_t>(-1);
  if (known && pos) {
    FailureOr<int64_t> k = knownPosition(ctx, *pos, known->size(), false);
    if (failed(k))
      return failure();
    SmallVector<Value> elements(*known);
    elements.erase(elements.begin() + *k);
    ctx.addOutput(buildList(ctx, elements, element), elements);
    return success();
  }
  FailureOr<Value> k = runtimePosition(ctx, ctx.input(0), 1, -1);
  if (failed(k))
    return failure();
  ctx.addOutput(callHelper(ctx, "onnx_sequence_erase", ctx.input(0).getType(),
                           {ctx.input(0), *k}));
  return success();
}

LogicalResult convertSequenceLength(NodeContext &ctx) {
  if (!prepareSequence(ctx, 0))
    return failure();
  Type i64 = ctx.getBuilder().getIntegerType(64);
  if (const std::optional<SmallVector<Value>> &known = ctx.knownElements(0)) {
    auto attr = DenseElementsAttr::get(RankedTensorType::get({}, i64),
                                       int64_t(known->size()));
    ctx.addOutput(ctx.constant(attr), attr);
    return success();
  }
  ctx.addOutput(callHelper(ctx, "onnx_sequence_length",
                           RankedTensorType::get({}, i64), {ctx.input(0)}));
  return success();
}

LogicalResult convertConcatFromSequence(NodeContext &ctx) {
  Type element = prepareSequence(ctx, 0);
  if (!element)
    return failure();
  auto elementType = dyn_cast<RankedTensorType>(element);
  if (!elementType)
    return ctx.fail("the sequence's element type is not known here (it is "
                    "empty where it is made, and nothing is inserted "
                    "before)");
  if (!ctx.hasAttr("axis"))
    return ctx.fail("needs the attribute 'axis'");
  bool newAxis = ctx.attrInt("new_axis", 0) != 0;
  int64_t rank = elementType.getRank() + (newAxis ? 1 : 0);
  FailureOr<int64_t> axis = ctx.axis(ctx.attrInt("axis", 0), rank);
  if (failed(axis))
    return failure();
  if (const std::optional<SmallVector<Value>> &known = ctx.knownElements(0)) {
    if (known->empty())
      return ctx.fail("the sequence is empty");
    if (newAxis)
      return ctx.output(
          ctx.op<StackOp>({ctx.tuple(*known)}, {ctx.i64("axis", *axis)}));
    return ctx.output(
        ctx.op<ConcatenateOp>({ctx.tuple(*known)}, {ctx.i64("axis", *axis)}));
  }
  // The elements through first (x -> expand_dims(x) or x), joined pairwise
  // by concatenate: a balanced tree, so each element is copied log2(n)
  // times rather than n times (a fold's growing accumulator).
  Type result =
      RankedTensorType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                            elementType.getElementType());
  OpBuilder &builder = ctx.getBuilder();
  Location loc = ctx.getLoc();
  RelayBuilder rb(builder, loc);
  Value firstFn = rb.fn({element}, result, [&](RelayBuilder &b, ValueRange a) {
    Value x = a[0];
    if (newAxis)
      x = b.op<ExpandDimsOp>({x}, {ctx.i64("axis", *axis)});
    return widenTo(builder, loc, x, result);
  });
  Value concatFn =
      rb.fn({result, result}, result, [&](RelayBuilder &b, ValueRange a) {
        Value joined = b.op<ConcatenateOp>({b.tuple({a[0], a[1]})},
                                           {ctx.i64("axis", *axis)});
        return widenTo(builder, loc, joined, result);
      });
  ctx.addOutput(callHelper(ctx, "onnx_sequence_concat", result,
                           {firstFn, concatFn, ctx.input(0)}));
  return success();
}

LogicalResult convertSplitToSequence(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 2)) ||
      failed(addSequenceSupport(ctx.getModule(), ctx.getLoc())))
    return failure();
  int64_t rank = ctx.rank(0);
  FailureOr<int64_t> axis = ctx.axis(ctx.attrInt("axis", 0), rank);
  if (failed(axis))
    return failure();
  int64_t dim = ctx.shape(0)[*axis];
  if (ShapedType::isDynamic(dim))
    return ctx.fail("the size of the split axis must be known at import");
  SmallVector<int64_t> sizes;
  bool keepDims = true;
  if (!ctx.hasInput(1)) {
    // One element per index, without the axis unless keepdims.
    sizes.assign(dim, 1);
    keepDims = ctx.attrInt("keepdims", 1) != 0;
  } else {
    FailureOr<SmallVector<int64_t>> split = ctx.constantInts(1, "split");
    if (failed(split))
      return failure();
    if (ctx.rank(1) == 0) {
      int64_t size = split->front();
      if (size <= 0)
        return ctx.fail("the split size must be positive, got " + Twine(size));
      // Equal parts of `size`, the last one shorter.
      for (int64_t at = 0; at < dim; at += size)
        sizes.push_back(std::min(size, dim - at));
    } else {
      sizes = *split;
      int64_t total = 0;
      for (int64_t s : sizes) {
        if (s < 0)
          return ctx.fail("split sizes must not be negative, got " + Twine(s));
        total += s;
      }
      if (total != dim)
        return ctx.fail("split sizes add up to " + Twine(total) +
                        ", not the dimension " + Twine(dim));
    }
  }
  SmallVector<Value> parts;
  if (sizes.size() == 1) {
    parts.push_back(ctx.input(0));
  } else if (!sizes.empty()) {
    SmallVector<int64_t> indices;
    int64_t at = 0;
    for (int64_t s : ArrayRef<int64_t>(sizes).drop_back())
      indices.push_back(at += s);
    FailureOr<Value> split = ctx.op<SplitOp>(
        {ctx.input(0)},
        {ctx.ints("indices_or_sections", indices), ctx.i64("axis", *axis)});
    if (failed(split))
      return failure();
    for (size_t i = 0; i < sizes.size(); ++i)
      parts.push_back(ctx.tupleGet(*split, i));
  }
  if (!keepDims)
    for (Value &part : parts) {
      FailureOr<Value> squeezed =
          ctx.op<SqueezeOp>({part}, {ctx.ints("axis", {*axis})});
      if (failed(squeezed))
        return failure();
      part = *squeezed;
    }
  Type element = parts.empty() ? sequenceElementOf(ctx.tensorType(0))
                               : sequenceElementOf(parts.front().getType());
  ctx.addOutput(buildList(ctx, parts, element), parts);
  return success();
}

LogicalResult convertOptional(NodeContext &ctx) {
  if (failed(addSequenceSupport(ctx.getModule(), ctx.getLoc())))
    return failure();
  RelayBuilder rb(ctx.getBuilder(), ctx.getLoc());
  if (ctx.hasInput(0)) {
    Value x = ctx.input(0);
    ctx.addOutput(
        rb.construct(lookupConstructor(ctx.getModule(), "Option", "Some"), {x},
                     getOptionalType(x.getType())),
        SmallVector<Value>{x});
    return success();
  }
  const onnx::AttributeProto *type = ctx.attribute("type");
  if (!type || !type->has_tp())
    return ctx.fail("an empty optional needs the attribute 'type'");
  std::string error;
  Type inner =
      convertTypeProto(type->tp(), ctx.getModule(), ctx.getLoc(), error);
  if (!inner)
    return ctx.fail("its 'type' " + error);
  ctx.addOutput(
      rb.construct(lookupConstructor(ctx.getModule(), "Option", "None"), {},
                   getOptionalType(inner)),
      SmallVector<Value>());
  return success();
}

LogicalResult convertOptionalHasElement(NodeContext &ctx) {
  if (failed(addSequenceSupport(ctx.getModule(), ctx.getLoc())))
    return failure();
  Type i1 = ctx.getBuilder().getI1Type();
  auto known = [&](bool has) {
    auto attr = DenseElementsAttr::get(RankedTensorType::get({}, i1), has);
    ctx.addOutput(ctx.constant(attr), attr);
    return success();
  };
  // Opset 18 asks this of any value: an empty input has none, a tensor or
  // sequence one.
  if (!ctx.hasInput(0))
    return known(false);
  Value x = ctx.input(0);
  if (!getOptionalElementType(x.getType()))
    return known(true);
  if (const std::optional<SmallVector<Value>> &elements = ctx.knownElements(0))
    return known(!elements->empty());
  ctx.addOutput(callHelper(ctx, "onnx_optional_has_element",
                           RankedTensorType::get({}, i1), {x}));
  return success();
}

LogicalResult convertOptionalGetElement(NodeContext &ctx) {
  if (failed(addSequenceSupport(ctx.getModule(), ctx.getLoc())))
    return failure();
  if (!ctx.hasInput(0))
    return ctx.fail("input #0 is required");
  Value x = ctx.input(0);
  Type inner = getOptionalElementType(x.getType());
  // Opset 18: a tensor or sequence is its own element.
  if (!inner) {
    ctx.addOutput(x, ctx.knownElements(0));
    return success();
  }
  if (const std::optional<SmallVector<Value>> &elements =
          ctx.knownElements(0)) {
    if (elements->empty())
      return ctx.fail("the optional is empty");
    ctx.addOutput(elements->front());
    return success();
  }
  ctx.addOutput(callHelper(ctx, "onnx_optional_get_element", inner, {x}));
  return success();
}

} // namespace

void mlir::relay::onnx_import::addSequenceConverters(ConverterTable &t) {
  t["SequenceEmpty"] = convertSequenceEmpty;
  t["SequenceConstruct"] = convertSequenceConstruct;
  t["SequenceInsert"] = convertSequenceInsert;
  t["SequenceAt"] = convertSequenceAt;
  t["SequenceErase"] = convertSequenceErase;
  t["SequenceLength"] = convertSequenceLength;
  t["ConcatFromSequence"] = convertConcatFromSequence;
  t["SplitToSequence"] = convertSplitToSequence;
  t["Optional"] = convertOptional;
  t["OptionalHasElement"] = convertOptionalHasElement;
  t["OptionalGetElement"] = convertOptionalGetElement;
}
