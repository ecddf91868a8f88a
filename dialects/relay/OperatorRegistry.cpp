//===- OperatorRegistry.cpp - Relay operator registry -----------*- C++ -*-===//

#include "dialects/relay/OperatorRegistry.h"

#include "dialects/relay/RelationUtils.h"
#include "dialects/relay/RelayDialect.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/TypeUtils.h"

#include "mlir/IR/ExtensibleDialect.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/RWMutex.h"

#include <map>
#include <mutex>

using namespace mlir;
using namespace mlir::relay;

TypeReporter::~TypeReporter() = default;

InFlightDiagnostic TypeReporter::discardedError(MLIRContext *ctx) {
  InFlightDiagnostic diag = mlir::emitError(UnknownLoc::get(ctx));
  diag.abandon();
  return diag;
}

StringRef mlir::relay::stringifyOpPatternKind(OpPatternKind kind) {
  switch (kind) {
  case OpPatternKind::ElemWise:
    return "elemwise";
  case OpPatternKind::Broadcast:
    return "broadcast";
  case OpPatternKind::Injective:
    return "injective";
  case OpPatternKind::CommReduce:
    return "comm-reduce";
  case OpPatternKind::OutEWiseFusable:
    return "out-elemwise-fusable";
  case OpPatternKind::Tuple:
    return "tuple";
  case OpPatternKind::Opaque:
    return "opaque";
  }
  llvm_unreachable("unknown pattern kind");
}

//===----------------------------------------------------------------------===//
// RelationArgs attribute accessors
//===----------------------------------------------------------------------===//

int64_t RelationArgs::getInt(StringRef name, int64_t dflt) const {
  return getOptionalInt(name).value_or(dflt);
}

std::optional<int64_t> RelationArgs::getOptionalInt(StringRef name) const {
  if (auto attr = dyn_cast_or_null<IntegerAttr>(getAttr(name)))
    return attr.getValue().getSExtValue();
  return std::nullopt;
}

double RelationArgs::getFloat(StringRef name, double dflt) const {
  Attribute attr = getAttr(name);
  if (auto f = dyn_cast_or_null<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto i = dyn_cast_or_null<IntegerAttr>(attr))
    return static_cast<double>(i.getValue().getSExtValue());
  return dflt;
}

bool RelationArgs::getBool(StringRef name, bool dflt) const {
  if (auto attr = dyn_cast_or_null<BoolAttr>(getAttr(name)))
    return attr.getValue();
  return dflt;
}

StringRef RelationArgs::getString(StringRef name, StringRef dflt) const {
  if (auto attr = dyn_cast_or_null<StringAttr>(getAttr(name)))
    return attr.getValue();
  return dflt;
}

SmallVector<int64_t> RelationArgs::getInts(StringRef name,
                                           ArrayRef<int64_t> dflt) const {
  return getOptionalInts(name).value_or(SmallVector<int64_t>(dflt));
}

std::optional<SmallVector<int64_t>>
RelationArgs::getOptionalInts(StringRef name) const {
  Attribute attr = getAttr(name);
  if (auto array = dyn_cast_or_null<DenseI64ArrayAttr>(attr))
    return SmallVector<int64_t>(array.asArrayRef());
  if (auto single = dyn_cast_or_null<IntegerAttr>(attr))
    return SmallVector<int64_t>{single.getValue().getSExtValue()};
  if (auto list = dyn_cast_or_null<ArrayAttr>(attr)) {
    SmallVector<int64_t> values;
    for (Attribute element : list) {
      auto i = dyn_cast<IntegerAttr>(element);
      if (!i)
        return std::nullopt;
      values.push_back(i.getValue().getSExtValue());
    }
    return values;
  }
  return std::nullopt;
}

Type RelationArgs::getDtype(StringRef name) const {
  if (auto attr = dyn_cast_or_null<TypeAttr>(getAttr(name)))
    return attr.getValue();
  return Type();
}

//===----------------------------------------------------------------------===//
// The registries
//===----------------------------------------------------------------------===//

namespace {
struct Registry {
  llvm::sys::SmartRWMutex<true> mutex;
  llvm::StringMap<TypeRelationFn> relations;
  // Ordered so forEachOperator lists operators by name.
  std::map<std::string, OperatorInfo, std::less<>> operators;
};
} // namespace

static Registry &getRegistry() {
  static Registry registry;
  return registry;
}

void mlir::relay::registerTypeRelation(StringRef name, TypeRelationFn fn) {
  Registry &registry = getRegistry();
  llvm::sys::SmartScopedWriter<true> lock(registry.mutex);
  registry.relations[name] = std::move(fn);
}

const TypeRelationFn *mlir::relay::lookupTypeRelation(StringRef name) {
  registerBuiltinOperators();
  Registry &registry = getRegistry();
  llvm::sys::SmartScopedReader<true> lock(registry.mutex);
  auto it = registry.relations.find(name);
  return it == registry.relations.end() ? nullptr : &it->second;
}

void mlir::relay::registerOperator(OperatorInfo info) {
  Registry &registry = getRegistry();
  llvm::sys::SmartScopedWriter<true> lock(registry.mutex);
  std::string name = info.name;
  registry.operators[name] = std::move(info);
}

const OperatorInfo *mlir::relay::lookupOperator(StringRef opName) {
  registerBuiltinOperators();
  Registry &registry = getRegistry();
  llvm::sys::SmartScopedReader<true> lock(registry.mutex);
  auto it = registry.operators.find(opName);
  return it == registry.operators.end() ? nullptr : &it->second;
}

void mlir::relay::forEachOperator(function_ref<void(const OperatorInfo &)> fn) {
  registerBuiltinOperators();
  Registry &registry = getRegistry();
  llvm::sys::SmartScopedReader<true> lock(registry.mutex);
  for (const auto &entry : registry.operators)
    fn(entry.second);
}

LogicalResult
mlir::relay::updateOperator(StringRef opName,
                            function_ref<void(OperatorInfo &)> update) {
  registerBuiltinOperators();
  Registry &registry = getRegistry();
  llvm::sys::SmartScopedWriter<true> lock(registry.mutex);
  auto it = registry.operators.find(opName);
  if (it == registry.operators.end())
    return failure();
  update(it->second);
  return success();
}

//===----------------------------------------------------------------------===//
// Running relations on ops
//===----------------------------------------------------------------------===//

DictionaryAttr mlir::relay::getOperatorAttributes(Operation *op) {
  NamedAttrList attrs(op->getAttrDictionary());
  op->getName().populateDefaultAttrs(attrs);
  return attrs.getDictionary(op->getContext());
}

RelationStatus mlir::relay::runOperatorRelation(Operation *op,
                                                const OperatorInfo &info,
                                                ArrayRef<Type> types,
                                                TypeReporter &reporter) {
  const TypeRelationFn *relation = lookupTypeRelation(info.relation);
  if (!relation) {
    reporter.emitError() << "operator '" << info.name
                         << "' has no registered relation '" << info.relation
                         << "'";
    return RelationStatus::Failed;
  }
  StringRef name = op->getName().getStringRef();
  name.consume_front("relay.");
  RelationArgs args(name, types, info.numInputs, getOperatorAttributes(op),
                    reporter);
  return (*relation)(args);
}

namespace {
/// Checks the IR's types against the relation without changing them.
class CheckingReporter : public TypeReporter {
public:
  CheckingReporter(Operation *op, ArrayRef<Type> types)
      : op(op), types(types) {}

  LogicalResult assign(unsigned index, Type type) override {
    if (areCompatible(types[index], type))
      return success();
    unsigned numOperands = op->getNumOperands();
    InFlightDiagnostic diag = op->emitOpError();
    if (index < numOperands)
      diag << "operand #" << index << " has type " << types[index];
    else
      diag << "result type " << types[index];
    diag << " but its type relation implies " << type;
    return failure();
  }
  InFlightDiagnostic emitError() override { return op->emitError(); }

private:
  Operation *op;
  ArrayRef<Type> types;
};
} // namespace

LogicalResult mlir::relay::verifyOperator(Operation *op) {
  const OperatorInfo *info = lookupOperator(op->getName().getStringRef());
  if (!info)
    return success();
  if (op->getNumOperands() != info->numInputs)
    return op->emitOpError("expects ")
           << info->numInputs << " operands, got " << op->getNumOperands();
  SmallVector<Type> types(op->getOperandTypes());
  llvm::append_range(types, op->getResultTypes());
  CheckingReporter reporter(op, types);
  return failure(runOperatorRelation(op, *info, types, reporter) ==
                 RelationStatus::Failed);
}

Type mlir::relay::inferOperatorResultType(StringRef opName,
                                          TypeRange operandTypes,
                                          DictionaryAttr attrs) {
  const OperatorInfo *info = lookupOperator(opName);
  if (!info || operandTypes.size() != info->numInputs)
    return Type();
  const TypeRelationFn *relation = lookupTypeRelation(info->relation);
  if (!relation)
    return Type();
  /// Captures the result and drops diagnostics.
  struct Capture : TypeReporter {
    MLIRContext *ctx;
    unsigned numInputs;
    Type result;
    LogicalResult assign(unsigned index, Type type) override {
      if (index == numInputs)
        result = type;
      return success();
    }
    InFlightDiagnostic emitError() override { return discardedError(ctx); }
  } capture;
  SmallVector<Type> types(operandTypes);
  MLIRContext *ctx = attrs ? attrs.getContext() : nullptr;
  if (!ctx && !types.empty())
    ctx = types.front().getContext();
  if (!ctx)
    return Type();
  types.push_back(IncompleteType::get(ctx));
  capture.ctx = ctx;
  capture.numInputs = info->numInputs;
  StringRef name = opName;
  name.consume_front("relay.");
  RelationArgs args(name, types, info->numInputs, attrs, capture);
  if ((*relation)(args) != RelationStatus::Solved)
    return Type();
  return capture.result;
}

//===----------------------------------------------------------------------===//
// Operators added at run time
//===----------------------------------------------------------------------===//

/// `relay.name %a, %b {attrs} : (T1, T2) -> R`, as for ODS operators.
static ParseResult parseOperator(OpAsmParser &parser, OperationState &state) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  FunctionType type;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands) ||
      parser.parseOptionalAttrDict(state.attributes) || parser.parseColon() ||
      parser.parseType(type) ||
      parser.resolveOperands(operands, type.getInputs(), loc, state.operands))
    return failure();
  state.addTypes(type.getResults());
  return success();
}

static void printOperator(Operation *op, OpAsmPrinter &printer, StringRef) {
  // A dynamic op prints its own name (ODS ops get it from Op<>).
  printer.getStream() << op->getName() << ' ';
  printer.printOperands(op->getOperands());
  printer.printOptionalAttrDict(op->getAttrs());
  printer << " : ";
  printer.printFunctionalType(op);
}

LogicalResult mlir::relay::registerDynamicOperator(RelayDialect *dialect,
                                                   OperatorInfo info) {
  StringRef fullName = info.name;
  if (!fullName.starts_with("relay."))
    return emitError(UnknownLoc::get(dialect->getContext()))
           << "dynamic operator '" << fullName
           << "' must be named 'relay.<name>'";
  if (!lookupTypeRelation(info.relation))
    return emitError(UnknownLoc::get(dialect->getContext()))
           << "operator '" << fullName << "' uses unknown type relation '"
           << info.relation << "'";
  std::string mnemonic = fullName.drop_front(strlen("relay.")).str();
  registerOperator(std::move(info));
  auto verify = [](Operation *op) -> LogicalResult {
    if (op->getNumResults() != 1)
      return op->emitOpError("expects one result");
    if (op->getNumRegions() != 0)
      return op->emitOpError("expects no regions");
    return verifyOperator(op);
  };
  auto verifyRegions = [](Operation *) { return success(); };
  dialect->registerDynamicOp(DynamicOpDefinition::get(
      mnemonic, dialect, std::move(verify), std::move(verifyRegions),
      parseOperator, printOperator));
  return success();
}

//===----------------------------------------------------------------------===//
// Built-in operators
//===----------------------------------------------------------------------===//

/// Registers the ODS operators from the metadata each declares (kRelation,
/// kPattern, kNumInputs, kSupportLevel).
template <typename... Ops> static void registerOdsOperators() {
  (registerOperator(OperatorInfo{Ops::getOperationName().str(),
                                 Ops::kRelation.str(),
                                 Ops::kNumInputs,
                                 Ops::kPattern,
                                 Ops::kSupportLevel,
                                 {},
                                 {},
                                 {},
                                 {},
                                 {}}),
   ...);
}

void mlir::relay::registerBuiltinOperators() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerElementwiseRelations();
    registerReduceRelations();
    registerTransformRelations();
    registerNNRelations();
    registerCompositeRelations();
    registerLossRelations();
    registerQnnRelations();
    registerDynamicRelations();
    registerGradientRelations();
    registerSparseRelations();
    registerSignalRelations();
    registerPackedRelations();
    registerWinogradRelations();
    registerDetectionRelations();
    registerRandomRelations();
    registerBitserialRelations();
    registerOdsOperators<
#define GET_OP_LIST
#include "dialects/relay/RelayOperators.cpp.inc"
        >();
  });
}
