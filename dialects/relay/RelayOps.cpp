//===- RelayOps.cpp - Relay language ops ------------------------*- C++ -*-===//
//
// Functions, calls, closures, if, tuples, constants and references. ADT ops
// are in RelayAdtOps.cpp, memory effects of calls in RelayEffects.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayOps.h"
#include "dialects/relay/RelayScopes.h"
#include "dialects/relay/TypeUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace mlir::relay;

#define GET_OP_CLASSES
#include "dialects/relay/RelayOps.cpp.inc"

/// Checks that the region's block ends in `relay.return` / `relay.yield`.
template <typename TerminatorT>
static LogicalResult verifyTerminator(Operation *op, Region &region,
                                      StringRef what) {
  if (region.empty() || region.front().empty() ||
      !isa<TerminatorT>(region.front().back()))
    return op->emitOpError() << what << " must end with '"
                             << TerminatorT::getOperationName() << "'";
  return success();
}

//===----------------------------------------------------------------------===//
// Variable names in the printed IR
//===----------------------------------------------------------------------===//

void mlir::relay::setBlockArgumentNamesFromLocations(
    Region &region, OpAsmSetValueNameFn setNameFn) {
  if (region.empty())
    return;
  for (BlockArgument arg : region.front().getArguments())
    if (auto named = dyn_cast<NameLoc>(arg.getLoc()))
      setNameFn(arg, named.getName().getValue());
}

/// Whether `name` is one MLIR makes up for an unnamed value: `0`, `arg3`.
static bool isGeneratedName(StringRef name) {
  name.consume_front("arg");
  return name.empty() || llvm::all_of(name, llvm::isDigit);
}

void mlir::relay::setArgumentLocationsFromNames(
    OpAsmParser &parser, MutableArrayRef<OpAsmParser::Argument> arguments) {
  MLIRContext *ctx = parser.getContext();
  for (OpAsmParser::Argument &arg : arguments) {
    StringRef name = arg.ssaName.name;
    name.consume_front("%");
    if (arg.sourceLoc || isGeneratedName(name))
      continue;
    arg.sourceLoc =
        NameLoc::get(StringAttr::get(ctx, name),
                     parser.getEncodedSourceLoc(arg.ssaName.location));
  }
}

//===----------------------------------------------------------------------===//
// FuncOp
//===----------------------------------------------------------------------===//

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   TypeRange inputs, Type result,
                   ArrayRef<TypeVarType> typeParams) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addAttribute(
      getFunctionTypeAttrName(state.name),
      TypeAttr::get(builder.getFunctionType(inputs, TypeRange{result})));
  if (ArrayAttr params = getTypeVarArrayAttr(builder.getContext(), typeParams))
    state.addAttribute(getTypeParamsAttrName(state.name), params);
  Region *body = state.addRegion();
  Block *entry = new Block();
  for (Type input : inputs)
    entry->addArgument(input, state.location);
  body->push_back(entry);
}

SmallVector<TypeVarType> FuncOp::getTypeParamList() {
  return getTypeVarList(getTypeParamsAttr());
}

FuncType FuncOp::getRelayType() {
  return FuncType::get(getContext(), getTypeParamList(), getArgumentTypes(),
                       getReturnType(), {});
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  (void)impl::parseOptionalVisibilityKeyword(parser, result.attributes);
  StringAttr name;
  if (parser.parseSymbolName(name, getSymNameAttrName(result.name),
                             result.attributes))
    return failure();
  SmallVector<TypeVarType> typeParams;
  if (parseOptionalTypeParams(parser, typeParams))
    return failure();
  if (ArrayAttr params = getTypeVarArrayAttr(builder.getContext(), typeParams))
    result.addAttribute(getTypeParamsAttrName(result.name), params);

  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  SMLoc signatureLoc = parser.getCurrentLocation();
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, args, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  if (resultTypes.size() != 1)
    return parser.emitError(signatureLoc)
           << "a Relay function returns exactly one value, got "
           << resultTypes.size() << " result types";
  SmallVector<Type> argTypes;
  for (OpAsmParser::Argument &arg : args)
    argTypes.push_back(arg.type);
  result.addAttribute(
      getFunctionTypeAttrName(result.name),
      TypeAttr::get(builder.getFunctionType(argTypes, resultTypes)));
  call_interface_impl::addArgAndResultAttrs(builder, result, args, resultAttrs,
                                            getArgAttrsAttrName(result.name),
                                            getResAttrsAttrName(result.name));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  SMLoc bodyLoc = parser.getCurrentLocation();
  setArgumentLocationsFromNames(parser, args);
  if (parser.parseRegion(*body, args, /*enableNameShadowing=*/false))
    return failure();
  if (body->empty())
    return parser.emitError(bodyLoc, "a Relay function needs a body");
  return success();
}

void FuncOp::print(OpAsmPrinter &p) {
  p << ' ';
  if (auto visibility = getSymVisibility())
    p << *visibility << ' ';
  p.printSymbolName(getSymName());
  printTypeParams(p, getTypeParamList());
  function_interface_impl::printFunctionSignature(
      p, *this, getArgumentTypes(), /*isVariadic=*/false, getResultTypes());
  function_interface_impl::printFunctionAttributes(
      p, *this,
      {getSymVisibilityAttrName(), getTypeParamsAttrName(),
       getFunctionTypeAttrName(), getArgAttrsAttrName(),
       getResAttrsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

void FuncOp::getAsmBlockArgumentNames(Region &region,
                                      OpAsmSetValueNameFn setNameFn) {
  setBlockArgumentNamesFromLocations(region, setNameFn);
}

LogicalResult FuncOp::verify() {
  if (getFunctionType().getNumResults() != 1)
    return emitOpError("a Relay function returns exactly one value, got ")
           << getFunctionType().getNumResults() << " result types";
  if (failed(verifyTypeParamsAttr(*this, getTypeParamsAttr())))
    return failure();
  SmallVector<Type> signature(getArgumentTypes());
  signature.push_back(getReturnType());
  return verifyTypeVarsInScope(*this, signature);
}

LogicalResult FuncOp::verifyRegions() {
  // A callee whose body the inliner moved into its one caller, about to go.
  if (getBody().empty())
    return success();
  return verifyTerminator<ReturnOp>(*this, getBody(), "function body");
}

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

LogicalResult ReturnOp::verify() {
  Operation *parent = (*this)->getParentOp();
  Type expected = isa<FuncOp>(parent)
                      ? cast<FuncOp>(parent).getReturnType()
                      : cast<FnOp>(parent).getFuncType().getResult();
  if (!areCompatible(getValue().getType(), expected))
    return emitOpError("returns a value of type ")
           << getValue().getType() << " but the enclosing function returns "
           << expected;
  return success();
}

//===----------------------------------------------------------------------===//
// CallOp
//===----------------------------------------------------------------------===//

/// Checks `argTypes -> resultType` against the callee's (possibly
/// polymorphic) signature, instantiated with `typeArgs` when given.
static LogicalResult verifyCallSignature(Operation *op, StringRef calleeName,
                                         ArrayRef<TypeVarType> typeParams,
                                         ArrayAttr typeArgs,
                                         ArrayRef<Type> paramTypes,
                                         Type returnType, TypeRange argTypes,
                                         Type resultType) {
  if (argTypes.size() != paramTypes.size())
    return op->emitOpError("expects ")
           << paramTypes.size() << " arguments for " << calleeName << ", got "
           << argTypes.size();
  TypeSubstitution subst;
  if (typeArgs) {
    if (typeParams.empty())
      return op->emitOpError("passes type arguments to ")
             << calleeName << ", which has no type parameters";
    if (typeArgs.size() != typeParams.size())
      return op->emitOpError("expects ")
             << typeParams.size() << " type arguments for " << calleeName
             << ", got " << typeArgs.size();
    for (auto [param, arg] : llvm::zip(typeParams, typeArgs)) {
      if (failed(verifyTypeArgument(param, arg,
                                    [&]() { return op->emitOpError(); })))
        return failure();
      subst[param.getName()] = arg;
    }
  }
  for (auto [i, pair] : llvm::enumerate(llvm::zip(argTypes, paramTypes))) {
    auto [actual, param] = pair;
    Type expected = substitute(param, subst);
    if (!areCompatible(actual, expected))
      return op->emitOpError("argument #")
             << i << " of type " << actual << " does not match parameter type "
             << expected << " of " << calleeName;
  }
  Type expectedResult = substitute(returnType, subst);
  if (!areCompatible(resultType, expectedResult))
    return op->emitOpError("result type ")
           << resultType << " does not match the return type " << expectedResult
           << " of " << calleeName;
  return success();
}

/// Looks up a global function, with a precise error when it is missing or
/// names something else.
static FuncOp lookupFunc(Operation *op, SymbolTableCollection &symbolTable,
                         FlatSymbolRefAttr name) {
  Operation *symbol = symbolTable.lookupNearestSymbolFrom(op, name);
  if (!symbol) {
    op->emitOpError("refers to an undefined function ") << name;
    return nullptr;
  }
  auto fn = dyn_cast<FuncOp>(symbol);
  if (!fn)
    op->emitOpError() << name << " is a '" << symbol->getName()
                      << "', not a 'relay.func'";
  return fn;
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FuncOp fn = lookupFunc(*this, symbolTable, getCalleeAttr());
  if (!fn)
    return failure();
  std::string calleeName = ("@" + getCallee()).str();
  return verifyCallSignature(*this, calleeName, fn.getTypeParamList(),
                             getTypeArgsAttr(), fn.getArgumentTypes(),
                             fn.getReturnType(), getArgs().getTypes(),
                             getType());
}

//===----------------------------------------------------------------------===//
// GlobalRefOp
//===----------------------------------------------------------------------===//

LogicalResult
GlobalRefOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FuncOp fn = lookupFunc(*this, symbolTable, getNameAttr());
  if (!fn)
    return failure();
  if (!areCompatible(getType(), fn.getRelayType()))
    return emitOpError("has type ") << getType() << " but " << getNameAttr()
                                    << " has type " << fn.getRelayType();
  return success();
}

//===----------------------------------------------------------------------===//
// FnOp
//===----------------------------------------------------------------------===//

Block::BlockArgListType FnOp::getParams() {
  return getBody().front().getArguments().drop_front(getRecursive() ? 1 : 0);
}

BlockArgument FnOp::getSelf() {
  return getRecursive() ? getBody().front().getArgument(0) : BlockArgument();
}

ParseResult FnOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<OpAsmParser::Argument> blockArgs;
  bool recursive = succeeded(parser.parseOptionalKeyword("rec"));
  if (recursive) {
    OpAsmParser::Argument self;
    if (parser.parseLParen() || parser.parseArgument(self) ||
        parser.parseRParen())
      return failure();
    blockArgs.push_back(self);
    result.addAttribute(getRecursiveAttrName(result.name), UnitAttr::get(ctx));
  }
  SmallVector<TypeVarType> typeParams;
  SmallVector<OpAsmParser::Argument> params;
  Type returnType;
  SmallVector<TypeRelationAttr> relations;
  if (parseOptionalTypeParams(parser, typeParams) ||
      parser.parseArgumentList(params, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true) ||
      parser.parseArrow() || parser.parseType(returnType) ||
      parseOptionalRelations(parser, relations) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  SmallVector<Type> inputs;
  for (OpAsmParser::Argument &param : params)
    inputs.push_back(param.type);
  auto type = FuncType::get(ctx, typeParams, inputs, returnType, relations);
  if (recursive)
    blockArgs.front().type = type;
  blockArgs.append(params.begin(), params.end());
  result.addTypes(type);
  setArgumentLocationsFromNames(parser, blockArgs);
  return parser.parseRegion(*result.addRegion(), blockArgs,
                            /*enableNameShadowing=*/false);
}

void FnOp::print(OpAsmPrinter &p) {
  FuncType type = getFuncType();
  if (BlockArgument self = getSelf()) {
    p << " rec(";
    p.printOperand(self);
    p << ')';
  }
  p << ' ';
  printTypeParams(p, type.getTypeParams());
  p << '(';
  llvm::interleaveComma(getParams(), p,
                        [&](BlockArgument arg) { p.printRegionArgument(arg); });
  p << ") -> " << type.getResult();
  printRelations(p, type.getRelations());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getRecursiveAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

void FnOp::getAsmBlockArgumentNames(Region &region,
                                    OpAsmSetValueNameFn setNameFn) {
  setBlockArgumentNamesFromLocations(region, setNameFn);
}

LogicalResult FnOp::verifyRegions() {
  FuncType type = getFuncType();
  Block &entry = getBody().front();
  unsigned expected = type.getNumInputs() + (getRecursive() ? 1 : 0);
  if (entry.getNumArguments() != expected)
    return emitOpError("body must have ")
           << expected << " arguments to match the closure signature, got "
           << entry.getNumArguments();
  if (getRecursive() && entry.getArgument(0).getType() != type)
    return emitOpError("the 'rec' argument must have the closure's type ")
           << type << ", got " << entry.getArgument(0).getType();
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(getParams(), type.getInputs()))) {
    auto [arg, input] = pair;
    if (arg.getType() != input)
      return emitOpError("parameter #")
             << i << " has type " << arg.getType()
             << " but the closure type says " << input;
  }
  SmallVector<Type> signature(type.getInputs());
  signature.push_back(type.getResult());
  if (failed(verifyTypeVarsInScope(*this, signature)))
    return failure();
  return verifyTerminator<ReturnOp>(*this, getBody(), "closure body");
}

//===----------------------------------------------------------------------===//
// ApplyOp
//===----------------------------------------------------------------------===//

LogicalResult ApplyOp::verify() {
  Type calleeType = getCallee().getType();
  if (isa<IncompleteType, TypeVarType>(calleeType))
    return success();
  auto fnType = dyn_cast<FuncType>(calleeType);
  if (!fnType)
    return emitOpError("applies a value of type ")
           << calleeType << ", which is not a function";
  return verifyCallSignature(*this, "the closure", fnType.getTypeParams(),
                             /*typeArgs=*/nullptr, fnType.getInputs(),
                             fnType.getResult(), getArgs().getTypes(),
                             getType());
}

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

LogicalResult IfOp::verify() {
  if (!mayBeBoolScalar(getCond().getType()))
    return emitOpError("condition must be a 0-d bool tensor (tensor<i1>), "
                       "got ")
           << getCond().getType();
  return success();
}

LogicalResult IfOp::verifyRegions() {
  SmallVector<Type, 2> branchTypes;
  for (auto [region, name] :
       {std::pair<Region *, StringRef>(&getThenRegion(), "then branch"),
        {&getElseRegion(), "else branch"}}) {
    if (failed(verifyTerminator<YieldOp>(*this, *region, name)))
      return failure();
    Type yielded = cast<YieldOp>(region->front().back()).getValue().getType();
    if (!areCompatible(yielded, getType()))
      return emitOpError() << name << " yields " << yielded
                           << " but the if has type " << getType();
    branchTypes.push_back(yielded);
  }
  // Each branch fits the if's type: where that type says `?`, the branches
  // may differ in that size (the ONNX importer joins If branches so).
  if (!areCompatible(branchTypes[0], branchTypes[1]) && !isConcrete(getType()))
    return emitOpError("branches yield different types: ")
           << branchTypes[0] << " and " << branchTypes[1];
  return success();
}

void IfOp::getSuccessorRegions(RegionBranchPoint point,
                               SmallVectorImpl<RegionSuccessor> &regions) {
  if (point.isParent()) {
    regions.push_back(RegionSuccessor(&getThenRegion()));
    regions.push_back(RegionSuccessor(&getElseRegion()));
    return;
  }
  regions.push_back(
      RegionSuccessor(getOperation(), getOperation()->getResults()));
}

// The branch types are checked by IfOp::verifyRegions, with messages that
// name the branch; the upstream edge check would report the same mismatch
// first and less precisely.
bool IfOp::areTypesCompatible(Type lhs, Type rhs) { return true; }

//===----------------------------------------------------------------------===//
// Tuples
//===----------------------------------------------------------------------===//

LogicalResult TupleOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  inferredReturnTypes.push_back(TupleType::get(context, operands.getTypes()));
  return success();
}

LogicalResult TupleGetOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  Adaptor adaptor(operands, attributes, properties, regions);
  Type tupleType = adaptor.getTuple().getType();
  if (isa<IncompleteType, TypeVarType>(tupleType)) {
    inferredReturnTypes.push_back(IncompleteType::get(context));
    return success();
  }
  auto tuple = dyn_cast<TupleType>(tupleType);
  if (!tuple)
    return emitOptionalError(location,
                             "'relay.tuple_get' op projects a "
                             "field of ",
                             tupleType, ", which is not a tuple");
  uint64_t index = adaptor.getIndex();
  if (index >= tuple.size())
    return emitOptionalError(location, "'relay.tuple_get' op index ", index,
                             " is out of range for a tuple of ", tuple.size(),
                             " fields");
  inferredReturnTypes.push_back(tuple.getType(index));
  return success();
}

bool TupleGetOp::isCompatibleReturnTypes(TypeRange inferred, TypeRange actual) {
  return inferred.size() == actual.size() &&
         llvm::all_of(llvm::zip(inferred, actual), [](auto pair) {
           return areCompatible(std::get<0>(pair), std::get<1>(pair));
         });
}

OpFoldResult TupleGetOp::fold(FoldAdaptor adaptor) {
  // (%a, %b).1 -> %b
  if (auto tuple = getTuple().getDefiningOp<TupleOp>())
    return tuple.getFields()[getIndex()];
  return {};
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  Adaptor adaptor(operands, attributes, properties, regions);
  inferredReturnTypes.push_back(adaptor.getValue().getType());
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor adaptor) { return getValue(); }

DenseElementsAttr ConstantOp::getDenseValue() {
  if (auto dense = dyn_cast<DenseElementsAttr>(getValue()))
    return dense;
  auto resource = dyn_cast<DenseResourceElementsAttr>(getValue());
  AsmResourceBlob *blob =
      resource ? resource.getRawHandle().getBlob() : nullptr;
  if (!blob)
    return nullptr;
  ArrayRef<char> data = blob->getData();
  bool splat = false;
  if (!DenseElementsAttr::isValidRawBuffer(resource.getType(), data, splat))
    return nullptr;
  return DenseElementsAttr::getFromRawBuffer(resource.getType(), data);
}

//===----------------------------------------------------------------------===//
// References
//===----------------------------------------------------------------------===//

LogicalResult
RefOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                        ValueRange operands, DictionaryAttr attributes,
                        OpaqueProperties properties, RegionRange regions,
                        SmallVectorImpl<Type> &inferredReturnTypes) {
  inferredReturnTypes.push_back(RefType::get(context, operands[0].getType()));
  return success();
}

LogicalResult RefReadOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  Type refType = operands[0].getType();
  if (auto ref = dyn_cast<RefType>(refType)) {
    inferredReturnTypes.push_back(ref.getElementType());
    return success();
  }
  if (isa<IncompleteType, TypeVarType>(refType)) {
    inferredReturnTypes.push_back(IncompleteType::get(context));
    return success();
  }
  return emitOptionalError(location,
                           "'relay.ref_read' op reads a value of "
                           "type ",
                           refType, ", which is not a reference");
}

LogicalResult RefWriteOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  inferredReturnTypes.push_back(TupleType::get(context));
  return success();
}

LogicalResult RefWriteOp::verify() {
  Type refType = getRef().getType();
  if (isa<IncompleteType, TypeVarType>(refType))
    return success();
  auto ref = dyn_cast<RefType>(refType);
  if (!ref)
    return emitOpError("writes to a value of type ")
           << refType << ", which is not a reference";
  if (!areCompatible(ref.getElementType(), getValue().getType()))
    return emitOpError("writes a value of type ")
           << getValue().getType() << " to a reference of type " << refType;
  return success();
}
