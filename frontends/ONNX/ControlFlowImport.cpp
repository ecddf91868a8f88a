//===- ControlFlowImport.cpp - ONNX If, Scan and Loop -----------*- C++ -*-===//
//
// The ONNX nodes that hold graphs. If becomes relay.if (or its taken
// branch, for a condition known at import). Scan runs a fixed number of
// times (its scan inputs' length), so its body is unrolled, as the
// recurrent layers are. Loop may run until a condition computed at run
// time fails: it becomes Relay's local recursion, a `fn` that calls itself
// in tail position,
//
//   %loop = fn (%i, %cond, %v..., %scan...) {
//     if (%i < %M && %cond) { <body>; %loop(%i + 1, %cond_out, %v_out...,
//                                    Cons(%scan_out, %scan)...) }
//     else { (%v..., %scan...) }
//   }
//
// which native code runs as a loop when every size is static. A scan
// output's steps gather in a list (newest first) and are concatenated once
// the loop ends, pairwise (@onnx_sequence_join of Sequences.rly): a tensor
// grown by a concatenation each step would copy its steps n times over.
// Scan outputs have a size known only at run time, so a Loop with any runs
// on the interpreter (its regions compiled), unless its trip count is
// known at import and its condition stays true: then it is unrolled, as
// Scan is (the loops torch.onnx writes for EmbeddingBag, scripted loops
// over a fixed range).
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/GraphImporter.h"
#include "frontends/ONNX/Sequences.h"

#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/RelayTypes.h"
#include "dialects/relay/TypeUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

/// `value` as a value of the more general `type` (joinTypes): each
/// tensor whose sizes `type` leaves `?` is reshaped to its own run-time
/// shape (dyn.reshape of shape_of), which types it with those `?`.
Value mlir::relay::onnx_import::widenTo(OpBuilder &b, Location loc, Value value,
                                        Type type) {
  if (value.getType() == type)
    return value;
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Value> fields;
    for (auto [i, field] : llvm::enumerate(tuple.getTypes()))
      fields.push_back(widenTo(
          b, loc, TupleGetOp::create(b, loc, value, i).getResult(), field));
    return TupleOp::create(b, loc, fields);
  }
  if (isa<AdtType>(type)) {
    // An empty sequence or optional is made again with the joined type;
    // another whose element type is not known yet is left to type
    // inference, which unifies it with `type`.
    auto construct = value.getDefiningOp<ConstructOp>();
    if (construct && construct.getFields().empty())
      return ConstructOp::create(b, loc, type, construct.getConstructor(),
                                 ValueRange{});
    return value;
  }
  auto tensor = cast<RankedTensorType>(type);
  Type i64 = b.getIntegerType(64);
  auto shapeType = RankedTensorType::get({tensor.getRank()}, i64);
  Value shape =
      ShapeOfOp::create(b, loc, TypeRange{shapeType}, ValueRange{value},
                        {b.getNamedAttr("dtype", TypeAttr::get(i64))});
  return DynReshapeOp::create(b, loc, TypeRange{type},
                              ValueRange{value, shape});
}

namespace {

/// The graph attribute `name` of `node`, or null.
const onnx::GraphProto *graphAttribute(const onnx::NodeProto &node,
                                       StringRef name) {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name && a.has_g())
      return &a.g();
  return nullptr;
}

/// The integers of attribute `name` of `node`, or `count` copies of 0.
SmallVector<int64_t> intsAttribute(const onnx::NodeProto &node, StringRef name,
                                   size_t count) {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name)
      return SmallVector<int64_t>(a.ints().begin(), a.ints().end());
  return SmallVector<int64_t>(count, 0);
}

/// Whether the body declares its `index`th input with rank 1 (a
/// one-element vector) rather than as a scalar.
bool declaredVector(const onnx::GraphProto &body, int index) {
  const onnx::TypeProto &type = body.input(index).type();
  return type.has_tensor_type() && type.tensor_type().has_shape() &&
         type.tensor_type().shape().dim_size() == 1;
}

NamedAttribute intAttr(OpBuilder &b, StringRef name, int64_t v) {
  return b.getNamedAttr(name, b.getI64IntegerAttr(v));
}

NamedAttribute shapeAttr(OpBuilder &b, ArrayRef<int64_t> shape) {
  return b.getNamedAttr("newshape", b.getDenseI64ArrayAttr(shape));
}

/// The most nodes an unrolled Scan may make (steps x body nodes).
constexpr int64_t kMaxUnrolledNodes = 1 << 16;
/// The most an unrolled Loop may make, which has its recursive form to
/// fall back on: compiling costs about 2.5 ms a node (a 300-step scripted
/// RNN of 6 nodes a step, 5 s, AMD EPYC family 26 model 2), where the
/// interpreter starts at once; compiled, the steps then run far faster
/// (README, "ONNX models").
constexpr int64_t kMaxUnrolledLoopNodes = 2048;

/// The value of a one-element integer `known` at import of `width` bits
/// (a Loop's trip count: 64, a condition: 1); none where it is not known
/// or not of that type.
std::optional<int64_t> knownScalar(ElementsAttr known, unsigned width) {
  if (!known || known.getNumElements() != 1 ||
      !known.getElementType().isInteger(width))
    return std::nullopt;
  return readInts(known).front();
}

} // namespace

FailureOr<SmallVector<Value>>
GraphImporter::importBranch(const onnx::GraphProto &graph, StringRef what,
                            Location loc, ArrayRef<Value> inputs) {
  SmallVector<GraphValue> bound;
  for (Value v : inputs)
    bound.push_back({v, {}});
  FailureOr<SmallVector<GraphValue>> outs =
      importGraph(graph, what, loc, bound);
  if (failed(outs))
    return failure();
  SmallVector<Value> values;
  for (const GraphValue &out : *outs)
    values.push_back(out.value);
  return values;
}

FailureOr<SmallVector<GraphValue>>
GraphImporter::importGraph(const onnx::GraphProto &graph, StringRef what,
                           Location loc, ArrayRef<GraphValue> inputs) {
  llvm::StringMap<GraphValue> enclosing = values;
  llvm::scope_exit restore([&] { values = std::move(enclosing); });
  if (!inputs.empty() && graph.input_size() != int(inputs.size()))
    return emitError(loc) << what << " takes " << graph.input_size()
                          << " inputs, the node gives it " << inputs.size();
  for (auto [info, value] : llvm::zip(graph.input(), inputs)) {
    values[info.name()] = value;
    values[info.name()].fourBit =
        isFourBit(info.type().tensor_type().elem_type());
  }
  for (const onnx::TensorProto &t : graph.initializer()) {
    FailureOr<ElementsAttr> attr = convertTensor(t, ctx, loc);
    if (failed(attr))
      return failure();
    values[t.name()] = {ConstantOp::create(builder, loc, *attr), *attr};
    values[t.name()].fourBit = isFourBit(t.data_type());
  }
  for (auto [index, node] : llvm::enumerate(graph.node()))
    if (failed(importNode(node, index)))
      return failure();
  SmallVector<GraphValue> outputs;
  for (const onnx::ValueInfoProto &info : graph.output()) {
    auto it = values.find(info.name());
    if (it == values.end())
      return emitError(loc) << what << ": output '" << info.name()
                            << "' is not computed by any node";
    outputs.push_back(it->second);
  }
  if (outputs.empty())
    return emitError(loc) << what << " has no outputs";
  return outputs;
}

FailureOr<SmallVector<Type>> GraphImporter::probeOutputTypes(
    const onnx::GraphProto &graph, StringRef what, Location loc,
    ArrayRef<Type> inputs, function_ref<SmallVector<Value>(ValueRange)> bind) {
  // Imported into a closure that is then thrown away.
  auto type = FuncType::get(ctx, {}, inputs, IncompleteType::get(ctx), {});
  OperationState state(loc, FnOp::getOperationName());
  state.addTypes(type);
  state.addRegion();
  OpBuilder::InsertionGuard guard(builder);
  Operation *scratch = builder.create(state);
  llvm::scope_exit erase([&] { scratch->erase(); });
  Block *block = builder.createBlock(&scratch->getRegion(0), {}, inputs,
                                     SmallVector<Location>(inputs.size(), loc));
  FailureOr<SmallVector<Value>> outs =
      importBranch(graph, what, loc, bind(block->getArguments()));
  if (failed(outs))
    return failure();
  SmallVector<Type> types;
  for (Value v : *outs)
    types.push_back(v.getType());
  return types;
}

LogicalResult GraphImporter::importIf(const onnx::NodeProto &node,
                                      StringRef label, Location loc) {
  auto fail = [&](const Twine &message) {
    return emitError(loc) << "If node '" << label << "': " << message;
  };
  if (node.input_size() != 1)
    return fail("expects one input, the condition");
  auto condIt = values.find(node.input(0));
  if (condIt == values.end())
    return fail("input '" + node.input(0) + "' is not defined before the node");
  GraphValue cond = condIt->second;
  auto condType = dyn_cast<RankedTensorType>(cond.value.getType());
  if (!condType || !condType.getElementType().isInteger(1) ||
      !condType.hasStaticShape() || condType.getNumElements() != 1)
    return fail("the condition must be a one-element bool tensor");
  const onnx::GraphProto *branches[2] = {nullptr, nullptr};
  for (const onnx::AttributeProto &a : node.attribute()) {
    if (a.name() == "then_branch")
      branches[0] = &a.g();
    else if (a.name() == "else_branch")
      branches[1] = &a.g();
  }
  if (!branches[0] || !branches[1])
    return fail("needs then_branch and else_branch graphs");
  std::string names[2] = {"If node '" + label.str() + "': then_branch",
                          "If node '" + label.str() + "': else_branch"};

  auto bind = [&](ArrayRef<Value> outputs) -> LogicalResult {
    if (outputs.size() < static_cast<size_t>(node.output_size()))
      return fail("the branches give " + Twine(outputs.size()) +
                  " outputs, the node has " + Twine(node.output_size()));
    for (int i = 0; i < node.output_size(); ++i)
      if (!node.output(i).empty())
        values[node.output(i)] = {outputs[i], {}};
    return success();
  };
  // A condition known at import (exporters fold shapes into them): only
  // the taken branch.
  if (cond.constant) {
    bool taken = readInts(cond.constant).front() != 0;
    FailureOr<SmallVector<Value>> outputs =
        importBranch(*branches[taken ? 0 : 1], names[taken ? 0 : 1], loc);
    if (failed(outputs))
      return failure();
    return bind(*outputs);
  }

  // relay.if on the 0-d condition; each branch yields its output, or a
  // tuple of them.
  auto scalarBool = RankedTensorType::get({}, builder.getI1Type());
  Value scalar = ReshapeOp::create(
      builder, loc, TypeRange{scalarBool}, ValueRange{cond.value},
      {builder.getNamedAttr("newshape", builder.getDenseI64ArrayAttr({}))});
  auto ifOp = IfOp::create(builder, loc, IncompleteType::get(ctx), scalar);
  Type yielded[2];
  size_t count[2];
  for (int b = 0; b < 2; ++b) {
    Region &region = b == 0 ? ifOp.getThenRegion() : ifOp.getElseRegion();
    OpBuilder::InsertionGuard guard(builder);
    builder.createBlock(&region);
    FailureOr<SmallVector<Value>> outputs =
        importBranch(*branches[b], names[b], loc);
    if (failed(outputs))
      return failure();
    Value result = outputs->size() == 1
                       ? outputs->front()
                       : Value(TupleOp::create(builder, loc, *outputs));
    YieldOp::create(builder, loc, result);
    yielded[b] = result.getType();
    count[b] = outputs->size();
  }
  Type joined = joinTypes(yielded[0], yielded[1]);
  if (!joined) {
    std::string a, b;
    llvm::raw_string_ostream as(a), bs(b);
    as << yielded[0];
    bs << yielded[1];
    return fail("the branches give different types: '" + a + "' and '" + b +
                "'");
  }
  // Sizes the branches disagree on (one depends on the data) are `?`.
  for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
    auto yield = cast<YieldOp>(region->front().getTerminator());
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(yield);
    yield->setOperand(0, widenTo(builder, loc, yield->getOperand(0), joined));
  }
  ifOp.getResult().setType(joined);
  SmallVector<Value> outputs;
  if (count[0] == 1)
    outputs.push_back(ifOp.getResult());
  else
    for (size_t i = 0; i < count[0]; ++i)
      outputs.push_back(TupleGetOp::create(builder, loc, ifOp.getResult(), i));
  return bind(outputs);
}

LogicalResult GraphImporter::importScan(const onnx::NodeProto &node,
                                        StringRef label, Location loc) {
  auto fail = [&](const Twine &message) {
    return emitError(loc) << "Scan node '" << label << "': " << message;
  };
  const onnx::GraphProto *body = graphAttribute(node, "body");
  if (!body)
    return fail("needs a body graph");
  int64_t numScans = -1;
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == "num_scan_inputs")
      numScans = a.i();
  // Opset 8's Scan: an optional sequence_lens first, and a batch axis
  // before the scan axis of every input and output.
  bool batched = opset < 9;
  SmallVector<Value> inputs;
  for (auto [i, name] : llvm::enumerate(node.input())) {
    if (batched && i == 0) {
      if (!name.empty())
        return fail("sequence_lens is not supported");
      continue;
    }
    auto it = values.find(name);
    if (it == values.end())
      return fail("input '" + name + "' is not defined before the node");
    inputs.push_back(it->second.value);
  }
  int64_t numStates = int64_t(inputs.size()) - numScans;
  if (numScans < 1 || numStates < 0)
    return fail("num_scan_inputs must be between 1 and the number of inputs");
  int64_t numOutputs = body->output_size() - numStates;
  if (numOutputs < 0 || body->input_size() != numStates + numScans)
    return fail("the body must take the " + Twine(numStates) +
                " states and one element of each of the " + Twine(numScans) +
                " scan inputs, and give the states first");
  SmallVector<int64_t> inAxes =
      batched ? SmallVector<int64_t>(numScans, 0)
              : intsAttribute(node, "scan_input_axes", numScans);
  SmallVector<int64_t> inReverse = intsAttribute(
      node, batched ? "directions" : "scan_input_directions", numScans);
  SmallVector<int64_t> outAxes =
      batched ? SmallVector<int64_t>(numOutputs, 0)
              : intsAttribute(node, "scan_output_axes", numOutputs);
  SmallVector<int64_t> outReverse =
      batched ? SmallVector<int64_t>(numOutputs, 0)
              : intsAttribute(node, "scan_output_directions", numOutputs);
  if (int64_t(inAxes.size()) != numScans ||
      int64_t(inReverse.size()) != numScans ||
      int64_t(outAxes.size()) != numOutputs ||
      int64_t(outReverse.size()) != numOutputs)
    return fail("the axes and directions need one value per scan input and "
                "output");
  RelayBuilder rb(builder, loc);
  Type i64 = builder.getIntegerType(64);
  std::string what = "Scan node '" + label.str() + "': body";

  // One sequence: the states through every step, the outputs stacked.
  auto scan = [&](SmallVector<Value> states,
                  ArrayRef<Value> sequences) -> FailureOr<SmallVector<Value>> {
    int64_t steps = -1;
    SmallVector<int64_t> axes;
    for (auto [j, seq] : llvm::enumerate(sequences)) {
      auto type = cast<RankedTensorType>(seq.getType());
      int64_t axis = inAxes[j] < 0 ? inAxes[j] + type.getRank() : inAxes[j];
      if (axis < 0 || axis >= type.getRank() ||
          ShapedType::isDynamic(type.getDimSize(axis)))
        return fail("scan input #" + Twine(j) +
                    " needs a known length along scan axis " +
                    Twine(inAxes[j]));
      if (steps >= 0 && type.getDimSize(axis) != steps)
        return fail("the scan inputs differ in length");
      steps = type.getDimSize(axis);
      axes.push_back(axis);
    }
    if (steps == 0)
      return fail("scan inputs of length 0 are not supported");
    // Unrolled, the body's nodes repeat once a step.
    if (steps > kMaxUnrolledNodes / std::max(1, body->node_size()))
      return fail("a scan of " + Twine(steps) + " steps over a body of " +
                  Twine(body->node_size()) +
                  " nodes is too long to unroll "
                  "(more than " +
                  Twine(kMaxUnrolledNodes) + " nodes)");
    SmallVector<SmallVector<Value>> produced(numOutputs);
    for (int64_t t = 0; t < steps; ++t) {
      SmallVector<Value> bound(states);
      for (auto [j, seq] : llvm::enumerate(sequences)) {
        int64_t at = inReverse[j] ? steps - 1 - t : t;
        bound.push_back(rb.op<TakeOp>({seq, rb.scalar(at, i64)},
                                      {intAttr(builder, "axis", axes[j])}));
        if (!bound.back())
          return failure(); // reported by the relation
      }
      FailureOr<SmallVector<Value>> outs =
          importBranch(*body, what, loc, bound);
      if (failed(outs))
        return failure();
      states.assign(outs->begin(), outs->begin() + numStates);
      for (int64_t k = 0; k < numOutputs; ++k)
        produced[k].push_back((*outs)[numStates + k]);
    }
    SmallVector<Value> results(states);
    for (int64_t k = 0; k < numOutputs; ++k) {
      if (outReverse[k])
        std::reverse(produced[k].begin(), produced[k].end());
      int64_t rank =
          cast<RankedTensorType>(produced[k][0].getType()).getRank() + 1;
      int64_t axis = outAxes[k] < 0 ? outAxes[k] + rank : outAxes[k];
      if (axis < 0 || axis >= rank)
        return fail("scan_output_axes value " + Twine(outAxes[k]) +
                    " is out of range for rank " + Twine(rank));
      results.push_back(rb.op<StackOp>({rb.tuple(produced[k])},
                                       {intAttr(builder, "axis", axis)}));
    }
    if (llvm::any_of(results, [](Value v) { return !v; }))
      return failure();
    return results;
  };

  SmallVector<Value> results;
  if (!batched) {
    FailureOr<SmallVector<Value>> r =
        scan(SmallVector<Value>(inputs.begin(), inputs.begin() + numStates),
             ArrayRef<Value>(inputs).drop_front(numStates));
    if (failed(r))
      return failure();
    results = *r;
  } else {
    // Each batch entry scanned on its own, the results stacked.
    auto type = cast<RankedTensorType>(inputs.front().getType());
    if (type.getRank() < 1 || ShapedType::isDynamic(type.getDimSize(0)) ||
        type.getDimSize(0) < 1)
      return fail("the batch size must be known and positive");
    SmallVector<SmallVector<Value>> perEntry(numStates + numOutputs);
    for (int64_t e = 0; e < type.getDimSize(0); ++e) {
      SmallVector<Value> entry;
      for (Value v : inputs) {
        entry.push_back(rb.op<TakeOp>({v, rb.scalar(e, i64)},
                                      {intAttr(builder, "axis", 0)}));
        if (!entry.back())
          return failure(); // reported by the relation
      }
      FailureOr<SmallVector<Value>> r =
          scan(SmallVector<Value>(entry.begin(), entry.begin() + numStates),
               ArrayRef<Value>(entry).drop_front(numStates));
      if (failed(r))
        return failure();
      for (auto [k, v] : llvm::enumerate(*r))
        perEntry[k].push_back(v);
    }
    for (ArrayRef<Value> entries : perEntry) {
      results.push_back(
          rb.op<StackOp>({rb.tuple(entries)}, {intAttr(builder, "axis", 0)}));
      if (!results.back())
        return failure(); // reported by the relation
    }
  }
  if (node.output_size() > int(results.size()))
    return fail("the node has " + Twine(node.output_size()) +
                " outputs, the body gives " + Twine(results.size()));
  for (int i = 0; i < node.output_size(); ++i)
    if (!node.output(i).empty())
      values[node.output(i)] = {results[i], {}};
  return success();
}

FailureOr<std::optional<SmallVector<GraphValue>>>
GraphImporter::unrollLoop(const onnx::GraphProto &body, StringRef what,
                          Location loc, int64_t steps,
                          ArrayRef<GraphValue> carried, int numScans) {
  std::optional<SmallVector<GraphValue>> notApplied;
  if (steps < 1 ||
      steps > kMaxUnrolledLoopNodes / std::max(1, body.node_size()))
    return notApplied;
  // What is built is erased again where a step's condition is not known
  // at import (the loop may stop at run time).
  Block *block = builder.getInsertionBlock();
  Block::iterator end = builder.getInsertionPoint();
  Operation *before = end == block->begin() ? nullptr : &*std::prev(end);
  auto eraseBuilt = [&] {
    Block::iterator from =
        before ? std::next(Block::iterator(before)) : block->begin();
    SmallVector<Operation *> built;
    for (Operation &op : llvm::make_range(from, end))
      built.push_back(&op);
    for (Operation *op : llvm::reverse(built))
      op->erase();
  };
  Type i64 = builder.getIntegerType(64), i1 = builder.getI1Type();
  // The iteration number and condition, known, as the body declares them.
  auto known = [&](int index, Type element, int64_t v) -> GraphValue {
    SmallVector<int64_t> shape;
    if (declaredVector(body, index))
      shape.push_back(1);
    auto attr = DenseElementsAttr::get(
        RankedTensorType::get(shape, element),
        APInt(element.getIntOrFloatBitWidth(), v, /*isSigned=*/true));
    return {ConstantOp::create(builder, loc, attr), attr};
  };
  int numCarried = carried.size();
  SmallVector<GraphValue> state(carried);
  SmallVector<SmallVector<Value>> produced(numScans);
  for (int64_t t = 0; t < steps; ++t) {
    SmallVector<GraphValue> inputs = {known(0, i64, t), known(1, i1, 1)};
    llvm::append_range(inputs, state);
    FailureOr<SmallVector<GraphValue>> outs =
        importGraph(body, what, loc, inputs);
    if (failed(outs))
      return failure();
    std::optional<int64_t> going = knownScalar((*outs)[0].constant, 1);
    if (!going) {
      eraseBuilt();
      return notApplied;
    }
    state.assign(outs->begin() + 1, outs->begin() + 1 + numCarried);
    for (int k = 0; k < numScans; ++k)
      produced[k].push_back((*outs)[1 + numCarried + k].value);
    // A condition known false ends the loop after this step.
    if (!*going)
      break;
  }
  // Each scan output: its steps stacked (they must agree in type).
  RelayBuilder rb(builder, loc);
  SmallVector<GraphValue> results(state);
  for (ArrayRef<Value> steps : produced) {
    if (llvm::any_of(steps, [&](Value v) {
          return v.getType() != steps.front().getType() ||
                 !isa<RankedTensorType>(v.getType());
        })) {
      eraseBuilt();
      return notApplied;
    }
    Value stacked =
        rb.op<StackOp>({rb.tuple(steps)}, {intAttr(builder, "axis", 0)});
    if (!stacked)
      return failure(); // reported by the relation
    results.push_back({stacked, {}});
  }
  return std::optional<SmallVector<GraphValue>>(std::move(results));
}

LogicalResult GraphImporter::importLoop(const onnx::NodeProto &node,
                                        StringRef label, Location loc) {
  auto fail = [&](const Twine &message) {
    return emitError(loc) << "Loop node '" << label << "': " << message;
  };
  const onnx::GraphProto *body = graphAttribute(node, "body");
  if (!body)
    return fail("needs a body graph");
  if (node.input_size() < 2)
    return fail("expects the trip count and the condition (either may be "
                "empty) before the loop-carried values");
  int numCarried = node.input_size() - 2;
  int numScans = body->output_size() - 1 - numCarried;
  if (body->input_size() != numCarried + 2 || numScans < 0)
    return fail("the body must take the iteration number, the condition and "
                "the " +
                Twine(numCarried) +
                " loop-carried values, and give the condition and those "
                "values first");
  SmallVector<Value> operands;
  for (const std::string &name : node.input()) {
    if (name.empty()) {
      operands.push_back({});
      continue;
    }
    auto it = values.find(name);
    if (it == values.end())
      return fail("input '" + name + "' is not defined before the node");
    operands.push_back(it->second.value);
  }
  RelayBuilder rb(builder, loc);
  Type i64 = builder.getIntegerType(64), i1 = builder.getI1Type();
  // A one-element tensor of `element` as a scalar.
  auto scalarOf = [&](Value v, Type element, StringRef what) -> Value {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || type.getElementType() != element || !type.hasStaticShape() ||
        type.getNumElements() != 1) {
      (void)fail(what + " must be a one-element " +
                 (element == i1 ? "bool" : "int64") + " tensor");
      return {};
    }
    return type.getRank() == 0
               ? v
               : rb.op<ReshapeOp>({v}, {shapeAttr(builder, {})});
  };
  Value trip, cond;
  if (operands[0] && !(trip = scalarOf(operands[0], i64, "the trip count")))
    return failure();
  if (operands[1] && !(cond = scalarOf(operands[1], i1, "the condition")))
    return failure();
  // The iteration number and condition as the body declares them.
  auto asDeclared = [&](Value scalar, int index) {
    return declaredVector(*body, index)
               ? rb.op<ReshapeOp>({scalar}, {shapeAttr(builder, {1})})
               : scalar;
  };
  auto scalarType = [&](Type element) {
    return RankedTensorType::get({}, element);
  };
  std::string what = "Loop node '" + label.str() + "': body";

  // The body's output types for loop-carried values of `carried` types.
  auto probe = [&](ArrayRef<Type> carried) -> FailureOr<SmallVector<Type>> {
    SmallVector<Type> inputs = {scalarType(i64), scalarType(i1)};
    llvm::append_range(inputs, carried);
    return probeOutputTypes(*body, what, loc, inputs, [&](ValueRange args) {
      SmallVector<Value> bound = {asDeclared(args[0], 0),
                                  asDeclared(args[1], 1)};
      llvm::append_range(bound, args.drop_front(2));
      return bound;
    });
  };
  // The loop-carried types: the initial values', made `?` where the body
  // gives another size (a value that grows each step, a slice at the
  // iteration number), if the body imports with those (the converters that
  // take sizes known only at run time); a value must keep its rank and
  // dtype.
  SmallVector<Type> carried;
  for (int k = 0; k < numCarried; ++k) {
    if (!operands[2 + k])
      return fail("loop-carried value #" + Twine(k) + " is empty");
    carried.push_back(operands[2 + k].getType());
  }
  FailureOr<SmallVector<Type>> outTypes = probe(carried);
  if (failed(outTypes))
    return failure();
  auto unsettled = [&](ArrayRef<Type> given,
                       ArrayRef<Type> out) -> std::optional<int> {
    for (int k = 0; k < numCarried; ++k)
      if (joinTypes(given[k], out[1 + k]) != given[k])
        return k;
    return std::nullopt;
  };
  if (std::optional<int> k = unsettled(carried, *outTypes)) {
    std::string a, b;
    llvm::raw_string_ostream as(a), bs(b);
    as << carried[*k];
    bs << (*outTypes)[1 + *k];
    SmallVector<Type> joined;
    for (int j = 0; j < numCarried; ++j)
      joined.push_back(joinTypes(carried[j], (*outTypes)[1 + j]));
    FailureOr<SmallVector<Type>> again = failure();
    if (llvm::all_of(joined, [](Type t) { return bool(t); })) {
      // The converters' complaints about `?` sizes are not the user's
      // problem here: the message below is.
      ScopedDiagnosticHandler quiet(ctx,
                                    [](Diagnostic &) { return success(); });
      again = probe(joined);
    }
    if (failed(again) || unsettled(joined, *again))
      return fail("loop-carried value #" + Twine(*k) + " changes type, from '" +
                  a + "' to '" + b +
                  "' (a value must keep its rank and dtype from step to step, "
                  "and the body import with its changing sizes unknown)");
    carried = joined;
    outTypes = again;
  }
  // Where the loop-carried values' sizes change or there are scan outputs
  // (sizes known only at run time, so the program runs on the interpreter),
  // a loop whose steps are known at import is unrolled instead.
  auto knownInput = [&](int i) -> ElementsAttr {
    auto it = i < node.input_size() ? values.find(node.input(i)) : values.end();
    return it == values.end() ? nullptr : it->second.constant;
  };
  // A sequence whose elements are known at import keeps them known
  // through the unrolled steps (a scripted loop appending to a list).
  SmallVector<GraphValue> carriedValues;
  bool sizesChange = numScans > 0;
  for (int k = 0; k < numCarried; ++k) {
    carriedValues.push_back(values.lookup(node.input(2 + k)));
    sizesChange |= carried[k] != operands[2 + k].getType() ||
                   carriedValues.back().elements.has_value();
  }
  std::optional<int64_t> tripCount = knownScalar(knownInput(0), 64);
  std::optional<int64_t> condition = knownScalar(knownInput(1), 1);
  if (sizesChange && tripCount &&
      (!operands[1] || condition.value_or(0) != 0)) {
    FailureOr<std::optional<SmallVector<GraphValue>>> unrolled =
        unrollLoop(*body, what, loc, *tripCount, carriedValues, numScans);
    if (failed(unrolled))
      return failure();
    if (*unrolled) {
      if (node.output_size() > numCarried + numScans)
        return fail("the node has " + Twine(node.output_size()) +
                    " outputs, the body gives " + Twine(numCarried + numScans));
      for (int i = 0; i < node.output_size(); ++i)
        if (!node.output(i).empty())
          values[node.output(i)] = (**unrolled)[i];
      return success();
    }
  }
  // A scan output is its steps stacked: `?` along a new first axis. In the
  // loop, the list of its steps so far, each of that type (one long).
  SmallVector<Type> accumulated, stepLists;
  for (int s = 0; s < numScans; ++s) {
    auto type = dyn_cast<RankedTensorType>((*outTypes)[1 + numCarried + s]);
    if (!type)
      return fail("scan output #" + Twine(s) + " must be a tensor");
    SmallVector<int64_t> shape = {ShapedType::kDynamic};
    llvm::append_range(shape, type.getShape());
    accumulated.push_back(RankedTensorType::get(shape, type.getElementType()));
    stepLists.push_back(getSequenceType(accumulated.back()));
  }
  if (numScans && failed(addSequenceSupport(module, loc)))
    return failure();
  CtorOp cons = numScans ? lookupConstructor(module, "List", "Cons") : CtorOp();

  SmallVector<Type> params = {scalarType(i64), scalarType(i1)}, results;
  llvm::append_range(results, carried);
  llvm::append_range(results, stepLists);
  llvm::append_range(params, results);
  Type resultType = TupleType::get(ctx, results);
  bool bodyFailed = false;
  Value loop = rb.fn(
      params, resultType,
      [&](RelayBuilder &fb, ValueRange args) -> Value {
        Value self = args[0], iter = args[1], going = args[2];
        ValueRange state = args.drop_front(3);
        Value go = going;
        if (trip)
          go = fb.logicalAnd(fb.less(iter, trip), going);
        auto ifOp = IfOp::create(builder, loc, resultType, go);
        {
          OpBuilder::InsertionGuard guard(builder);
          builder.createBlock(&ifOp.getElseRegion());
          YieldOp::create(builder, loc, fb.tuple(state));
          builder.createBlock(&ifOp.getThenRegion());
          SmallVector<Value> bound = {asDeclared(iter, 0),
                                      asDeclared(going, 1)};
          llvm::append_range(bound, state.take_front(numCarried));
          FailureOr<SmallVector<Value>> outs =
              importBranch(*body, what, loc, bound);
          Value next;
          if (succeeded(outs))
            next = scalarOf((*outs)[0], i1, "the body's condition");
          if (!next) {
            // Reported: the loop is erased with what was built of it.
            bodyFailed = true;
            YieldOp::create(builder, loc, fb.tuple(state));
            return ifOp.getResult();
          }
          SmallVector<Value> again = {fb.add(iter, fb.scalar(1, i64)), next};
          for (int k = 0; k < numCarried; ++k)
            again.push_back(widenTo(builder, loc, (*outs)[1 + k], carried[k]));
          for (int s = 0; s < numScans; ++s) {
            Value step = fb.op<ExpandDimsOp>({(*outs)[1 + numCarried + s]},
                                             {intAttr(builder, "axis", 0)});
            again.push_back(
                fb.construct(cons,
                             {widenTo(builder, loc, step, accumulated[s]),
                              state[numCarried + s]},
                             stepLists[s]));
          }
          YieldOp::create(builder, loc, fb.apply(self, again));
        }
        return ifOp.getResult();
      },
      /*recursive=*/true);
  // A body that failed to import was reported; drop what was built of it.
  if (bodyFailed) {
    loop.getDefiningOp()->erase();
    return failure();
  }
  SmallVector<Value> start = {rb.scalar(0, i64),
                              cond ? cond : rb.boolean(true)};
  for (int k = 0; k < numCarried; ++k)
    start.push_back(widenTo(builder, loc, operands[2 + k], carried[k]));
  for (int s = 0; s < numScans; ++s)
    start.push_back(buildSequence(builder, loc, module, {}, accumulated[s]));
  Value done = rb.apply(loop, start);
  if (node.output_size() > numCarried + numScans)
    return fail("the node has " + Twine(node.output_size()) +
                " outputs, the body gives " + Twine(numCarried + numScans));
  for (int i = 0; i < node.output_size(); ++i) {
    if (node.output(i).empty())
      continue;
    Value out = rb.tupleGet(done, i);
    if (i >= numCarried) {
      // The steps (newest first) concatenated.
      out = joinSteps(builder, loc, out,
                      cast<RankedTensorType>(accumulated[i - numCarried]),
                      /*newestFirst=*/true);
    }
    values[node.output(i)] = {out, {}};
  }
  return success();
}

LogicalResult GraphImporter::importSequenceMap(const onnx::NodeProto &node,
                                               StringRef label, Location loc) {
  auto fail = [&](const Twine &message) {
    return emitError(loc) << "SequenceMap node '" << label << "': " << message;
  };
  const onnx::GraphProto *body = graphAttribute(node, "body");
  if (!body)
    return fail("needs a body graph");
  if (node.input_size() < 1)
    return fail("needs a sequence to map over");
  if (body->input_size() != node.input_size())
    return fail("the body takes " + Twine(body->input_size()) +
                " inputs, the node gives it " + Twine(node.input_size()));
  if (body->output_size() != node.output_size())
    return fail("the body gives " + Twine(body->output_size()) +
                " outputs, the node has " + Twine(node.output_size()));
  if (failed(addSequenceSupport(module, loc)))
    return failure();
  SmallVector<GraphValue> inputs;
  for (auto [i, name] : llvm::enumerate(node.input())) {
    auto it = values.find(name);
    if (name.empty() || it == values.end())
      return fail("input #" + Twine(i) + " ('" + name +
                  "') is not defined before the node");
    inputs.push_back(it->second);
  }
  auto isSequence = [](const GraphValue &v) {
    return bool(getSequenceElementType(v.value.getType()));
  };
  if (!isSequence(inputs.front()))
    return fail("input #0 must be a sequence");
  std::string what = "SequenceMap node '" + label.str() + "': body";
  int numOutputs = node.output_size();

  // Every sequence known at import, of one length: the body once per
  // position, each with its elements' own types.
  std::optional<size_t> length;
  bool known = true;
  for (const GraphValue &v : inputs) {
    if (!isSequence(v))
      continue;
    if (!v.elements) {
      known = false;
      continue;
    }
    if (length && *length != v.elements->size())
      return fail("the sequences have different lengths (" + Twine(*length) +
                  " and " + Twine(v.elements->size()) + ")");
    length = v.elements->size();
  }
  if (known) {
    SmallVector<SmallVector<Value>> produced(numOutputs);
    for (size_t i = 0; i < *length; ++i) {
      SmallVector<Value> bound;
      for (const GraphValue &v : inputs)
        bound.push_back(isSequence(v) ? (*v.elements)[i] : v.value);
      FailureOr<SmallVector<Value>> outs =
          importBranch(*body, what, loc, bound);
      if (failed(outs))
        return failure();
      for (int j = 0; j < numOutputs; ++j)
        produced[j].push_back((*outs)[j]);
    }
    for (int j = 0; j < numOutputs; ++j) {
      Type element = IncompleteType::get(ctx);
      for (Value v : produced[j]) {
        Type own = sequenceElementOf(v.getType());
        if (!own || (!isa<IncompleteType>(element) && own != element))
          return fail("the body's output #" + Twine(j) +
                      " must be a tensor of one rank and dtype at every "
                      "position");
        element = own;
      }
      if (!node.output(j).empty())
        values[node.output(j)] = {
            buildSequence(builder, loc, module, produced[j], element),
            {},
            produced[j]};
    }
    return success();
  }

  // At run time: a recursive closure over the positions,
  //   fn map(%i) { if (%i == length) { (Nil, ...) }
  //                else { <body>; let %r = %map(%i + 1); (Cons(%out, %r.0),
  //                ...) } }
  SmallVector<Type> argTypes;
  for (const GraphValue &v : inputs) {
    Type t = v.value.getType();
    if (Type element = getSequenceElementType(t)) {
      if (!isa<RankedTensorType>(element))
        return fail("the element type of a sequence is not known here (it "
                    "is empty where it is made)");
      t = element;
    }
    argTypes.push_back(t);
  }
  FailureOr<SmallVector<Type>> outTypes =
      probeOutputTypes(*body, what, loc, argTypes, [](ValueRange args) {
        return SmallVector<Value>(args);
      });
  if (failed(outTypes))
    return failure();
  SmallVector<Type> elements, lists;
  for (auto [j, t] : llvm::enumerate(*outTypes)) {
    elements.push_back(sequenceElementOf(t));
    if (!elements.back())
      return fail("the body's output #" + Twine(j) + " must be a tensor");
    lists.push_back(getSequenceType(elements.back()));
  }
  RelayBuilder rb(builder, loc);
  Type i64 = builder.getIntegerType(64);
  auto scalarI64 = RankedTensorType::get({}, i64);
  Value count =
      rb.call("onnx_sequence_length", scalarI64, {inputs.front().value});
  Type resultType = TupleType::get(ctx, lists);
  CtorOp nil = lookupConstructor(module, "List", "Nil"),
         cons = lookupConstructor(module, "List", "Cons");
  auto nils = [&](RelayBuilder &b) {
    SmallVector<Value> fields;
    for (Type list : lists)
      fields.push_back(b.construct(nil, {}, list));
    return b.tuple(fields);
  };
  bool bodyFailed = false;
  Value map = rb.fn(
      {scalarI64}, resultType,
      [&](RelayBuilder &fb, ValueRange args) -> Value {
        Value self = args[0], i = args[1];
        return fb.ifThenElse(
            fb.equal(i, count), resultType, nils, [&](RelayBuilder &eb) {
              SmallVector<Value> bound;
              for (auto [v, t] : llvm::zip(inputs, argTypes))
                bound.push_back(
                    isSequence(v) ? eb.call("onnx_sequence_at", t, {v.value, i})
                                  : v.value);
              FailureOr<SmallVector<Value>> outs =
                  importBranch(*body, what, loc, bound);
              if (failed(outs)) {
                // Reported: the closure is erased with what was built.
                bodyFailed = true;
                return nils(eb);
              }
              Value rest = eb.apply(self, {eb.add(i, eb.scalar(1, i64))});
              SmallVector<Value> fields;
              for (auto [j, list] : llvm::enumerate(lists))
                fields.push_back(eb.construct(
                    cons,
                    {widenTo(builder, loc, (*outs)[j], elements[j]),
                     eb.tupleGet(rest, j)},
                    list));
              return eb.tuple(fields);
            });
      },
      /*recursive=*/true);
  if (bodyFailed) {
    map.getDefiningOp()->erase();
    return failure();
  }
  Value done = rb.apply(map, {rb.scalar(0, i64)});
  for (int j = 0; j < numOutputs; ++j)
    if (!node.output(j).empty())
      values[node.output(j)] = {rb.tupleGet(done, j), {}};
  return success();
}
