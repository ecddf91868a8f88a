//===- RelayAdtOps.cpp - ADT declarations, construction, match --*- C++ -*-===//
//
// relay.data, relay.ctor, relay.construct and relay.match, with the Relay
// pattern syntax of match cases.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayOps.h"
#include "dialects/relay/RelayScopes.h"
#include "dialects/relay/TypeUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::relay;

//===----------------------------------------------------------------------===//
// ADT type references
//===----------------------------------------------------------------------===//

/// Checks that every `!relay.adt<@T, ...>` inside `type` names a relay.data
/// and passes it as many type arguments as it has parameters.
static LogicalResult
verifyAdtRefs(Operation *op, SymbolTableCollection &symbolTable, Type type) {
  // ADTs are module-level symbols: look them up above any relay.data (whose
  // own symbol table holds only its constructors).
  Operation *scope = op;
  while (scope &&
         (!scope->hasTrait<OpTrait::SymbolTable>() || isa<DataOp>(scope)))
    scope = scope->getParentOp();
  LogicalResult result = success();
  type.walk([&](AdtType adt) {
    if (failed(result))
      return;
    auto ref = FlatSymbolRefAttr::get(adt.getName());
    Operation *symbol =
        scope ? symbolTable.lookupSymbolIn(scope, ref) : nullptr;
    auto data = dyn_cast_or_null<DataOp>(symbol);
    if (!data) {
      result = op->emitOpError("uses ADT type ")
               << adt << ", but " << ref << " is not a relay.data";
      return;
    }
    size_t expected = data.getTypeParamList().size();
    if (adt.getArgs().size() != expected)
      result = op->emitOpError("uses ADT type ")
               << adt << " with " << adt.getArgs().size()
               << " type arguments, but " << ref << " takes " << expected;
  });
  return result;
}

LogicalResult FuncOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  for (Type t : getArgumentTypes())
    if (failed(verifyAdtRefs(*this, symbolTable, t)))
      return failure();
  return verifyAdtRefs(*this, symbolTable, getReturnType());
}

//===----------------------------------------------------------------------===//
// DataOp
//===----------------------------------------------------------------------===//

void DataOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   ArrayRef<TypeVarType> typeParams, bool external) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  if (ArrayAttr params = getTypeVarArrayAttr(builder.getContext(), typeParams))
    state.addAttribute(getTypeParamsAttrName(state.name), params);
  if (external)
    state.addAttribute(getExternalAttrName(state.name), builder.getUnitAttr());
  state.addRegion()->push_back(new Block());
}

SmallVector<TypeVarType> DataOp::getTypeParamList() {
  return getTypeVarList(getTypeParamsAttr());
}

SmallVector<CtorOp> DataOp::getConstructors() {
  return llvm::to_vector(getBody().front().getOps<CtorOp>());
}

AdtType DataOp::getSelfType() {
  SmallVector<Type> args;
  for (TypeVarType param : getTypeParamList())
    args.push_back(param);
  return AdtType::get(getContext(), getSymNameAttr(), args);
}

ParseResult DataOp::parse(OpAsmParser &parser, OperationState &result) {
  (void)impl::parseOptionalVisibilityKeyword(parser, result.attributes);
  bool external = succeeded(parser.parseOptionalKeyword("extern"));
  StringAttr name;
  SmallVector<TypeVarType> typeParams;
  if (parser.parseSymbolName(name, getSymNameAttrName(result.name),
                             result.attributes) ||
      parseOptionalTypeParams(parser, typeParams) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  MLIRContext *ctx = parser.getContext();
  if (ArrayAttr params = getTypeVarArrayAttr(ctx, typeParams))
    result.addAttribute(getTypeParamsAttrName(result.name), params);
  if (external)
    result.addAttribute(getExternalAttrName(result.name), UnitAttr::get(ctx));
  Region *body = result.addRegion();
  if (!external && parser.parseRegion(*body))
    return failure();
  if (body->empty())
    body->push_back(new Block());
  return success();
}

void DataOp::print(OpAsmPrinter &p) {
  p << ' ';
  if (auto visibility = getSymVisibility())
    p << *visibility << ' ';
  if (getExternal())
    p << "extern ";
  p.printSymbolName(getSymName());
  printTypeParams(p, getTypeParamList());
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getSymNameAttrName(), getSymVisibilityAttrName(),
                            getTypeParamsAttrName(), getExternalAttrName()});
  if (!getExternal()) {
    p << ' ';
    p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                  /*printBlockTerminators=*/false);
  }
}

LogicalResult DataOp::verifyRegions() {
  if (failed(verifyTypeParamsAttr(*this, getTypeParamsAttr())))
    return failure();
  for (TypeVarType param : getTypeParamList())
    if (param.getKind() != TypeKind::Type)
      return emitOpError("type parameter '")
             << param.getName() << "' must have kind Type, not "
             << stringifyTypeKind(param.getKind());
  Block &body = getBody().front();
  for (Operation &op : body)
    if (!isa<CtorOp>(op))
      return op.emitOpError("is not allowed in a relay.data body; only "
                            "'relay.ctor' is");
  size_t numCtors = getConstructors().size();
  if (getExternal() && numCtors != 0)
    return emitOpError("an extern type has no constructors, found ")
           << numCtors;
  // An ADT without constructors is an empty (uninhabited) type, as in TVM.
  for (CtorOp ctor : getConstructors())
    if (failed(verifyTypeVarsInScope(ctor, ctor.getFieldTypes())))
      return failure();
  return success();
}

LogicalResult DataOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  for (CtorOp ctor : getConstructors())
    for (Type field : ctor.getFieldTypes())
      if (failed(verifyAdtRefs(ctor, symbolTable, field)))
        return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// CtorOp
//===----------------------------------------------------------------------===//

DataOp CtorOp::getDataOp() { return cast<DataOp>((*this)->getParentOp()); }

SmallVector<Type> CtorOp::getFieldTypes() {
  return llvm::map_to_vector(
      getFields(), [](Attribute a) { return cast<TypeAttr>(a).getValue(); });
}

unsigned CtorOp::getTag() {
  unsigned tag = 0;
  for (CtorOp ctor : getDataOp().getBody().front().getOps<CtorOp>()) {
    if (ctor == *this)
      return tag;
    ++tag;
  }
  llvm_unreachable("constructor not in its ADT");
}

SymbolRefAttr CtorOp::getQualifiedName() {
  return SymbolRefAttr::get(getDataOp().getSymNameAttr(),
                            {FlatSymbolRefAttr::get(getSymNameAttr())});
}

ParseResult CtorOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  SmallVector<Attribute> fields;
  if (parser.parseSymbolName(name, getSymNameAttrName(result.name),
                             result.attributes))
    return failure();
  if (succeeded(parser.parseOptionalLParen()) &&
      failed(parser.parseOptionalRParen())) {
    auto parseField = [&]() -> ParseResult {
      Type t;
      if (parser.parseType(t))
        return failure();
      fields.push_back(TypeAttr::get(t));
      return success();
    };
    if (parser.parseCommaSeparatedList(parseField) || parser.parseRParen())
      return failure();
  }
  result.addAttribute(getFieldsAttrName(result.name),
                      parser.getBuilder().getArrayAttr(fields));
  return parser.parseOptionalAttrDict(result.attributes);
}

void CtorOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  SmallVector<Type> fields = getFieldTypes();
  if (!fields.empty()) {
    p << '(';
    llvm::interleaveComma(fields, p);
    p << ')';
  }
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getSymNameAttrName(), getFieldsAttrName()});
}

//===----------------------------------------------------------------------===//
// ConstructOp
//===----------------------------------------------------------------------===//

/// Looks up a constructor by its qualified name `@Data::@Ctor`.
static CtorOp lookupCtor(Operation *op, SymbolTableCollection &symbolTable,
                         SymbolRefAttr name) {
  auto ctor =
      dyn_cast_or_null<CtorOp>(symbolTable.lookupNearestSymbolFrom(op, name));
  if (!ctor)
    op->emitOpError("refers to an undefined constructor ")
        << name << " (expected @Type::@Constructor)";
  return ctor;
}

/// The field types of `ctor` for a value of type `adtType`: the declared
/// field types with the ADT's type parameters replaced by the type's
/// arguments (left as variables when the value's type is not known yet).
static SmallVector<Type> instantiateFields(CtorOp ctor, Type adtType) {
  SmallVector<Type> fields = ctor.getFieldTypes();
  auto adt = dyn_cast<AdtType>(adtType);
  if (!adt)
    return fields;
  TypeSubstitution subst;
  for (auto [param, arg] :
       llvm::zip(ctor.getDataOp().getTypeParamList(), adt.getArgs()))
    subst[param.getName()] = TypeAttr::get(arg);
  for (Type &field : fields)
    field = substitute(field, subst);
  return fields;
}

/// Checks that a value of type `type` may be a value of `ctor`'s ADT.
static LogicalResult verifyIsAdtOf(Operation *op, CtorOp ctor, Type type,
                                   StringRef what) {
  if (isa<IncompleteType, TypeVarType>(type))
    return success();
  auto adt = dyn_cast<AdtType>(type);
  DataOp data = ctor.getDataOp();
  if (!adt || adt.getName() != data.getSymNameAttr())
    return op->emitOpError() << what << " " << ctor.getQualifiedName()
                             << " builds a value of ADT @" << data.getSymName()
                             << ", not of type " << type;
  return success();
}

LogicalResult
ConstructOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  CtorOp ctor = lookupCtor(*this, symbolTable, getConstructorAttr());
  if (!ctor)
    return failure();
  if (failed(verifyAdtRefs(*this, symbolTable, getType())) ||
      failed(verifyIsAdtOf(*this, ctor, getType(), "constructor")))
    return failure();
  SmallVector<Type> fields = instantiateFields(ctor, getType());
  if (fields.size() != getFields().size())
    return emitOpError("constructor ")
           << getConstructorAttr() << " takes " << fields.size()
           << " fields, got " << getFields().size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getFields(), fields))) {
    auto [value, expected] = pair;
    if (!areCompatible(value.getType(), expected))
      return emitOpError("field #")
             << i << " of " << getConstructorAttr() << " has type "
             << value.getType() << ", expected " << expected;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// MatchOp patterns: syntax
//===----------------------------------------------------------------------===//

/// pattern ::= `_` | `%x` `:` type | symbol-ref (`(` pattern-list `)`)?
///           | `(` pattern-list? `)`
static ParseResult parsePattern(OpAsmParser &parser, Attribute &pattern,
                                SmallVectorImpl<OpAsmParser::Argument> &vars) {
  MLIRContext *ctx = parser.getContext();
  auto parseFields = [&](SmallVectorImpl<Attribute> &fields) -> ParseResult {
    // After the `(`: `)` or a comma-separated list and `)`.
    if (succeeded(parser.parseOptionalRParen()))
      return success();
    if (parser.parseCommaSeparatedList([&]() {
          return parsePattern(parser, fields.emplace_back(), vars);
        }))
      return failure();
    return parser.parseRParen();
  };

  if (succeeded(parser.parseOptionalKeyword("_"))) {
    pattern = PatternWildcardAttr::get(ctx);
    return success();
  }
  OpAsmParser::Argument var;
  OptionalParseResult varResult =
      parser.parseOptionalArgument(var, /*allowType=*/true);
  if (varResult.has_value()) {
    if (failed(*varResult))
      return failure();
    vars.push_back(var);
    pattern = PatternVarAttr::get(ctx);
    return success();
  }
  SymbolRefAttr ctor;
  OptionalParseResult ctorResult = parser.parseOptionalAttribute(ctor);
  if (ctorResult.has_value()) {
    if (failed(*ctorResult))
      return failure();
    SmallVector<Attribute> fields;
    if (succeeded(parser.parseOptionalLParen()) && parseFields(fields))
      return failure();
    pattern = PatternCtorAttr::get(ctx, ctor, fields);
    return success();
  }
  if (succeeded(parser.parseOptionalLParen())) {
    SmallVector<Attribute> fields;
    if (parseFields(fields))
      return failure();
    pattern = PatternTupleAttr::get(ctx, fields);
    return success();
  }
  return parser.emitError(parser.getCurrentLocation(),
                          "expected a pattern: '_', '%var : type', "
                          "'@Type::@Ctor(...)' or '(...)'");
}

static void printPattern(OpAsmPrinter &p, Attribute pattern,
                         Block::BlockArgListType::iterator &nextVar) {
  auto printFields = [&](ArrayRef<Attribute> fields) {
    p << '(';
    llvm::interleaveComma(fields, p,
                          [&](Attribute f) { printPattern(p, f, nextVar); });
    p << ')';
  };
  if (isa<PatternWildcardAttr>(pattern)) {
    p << '_';
  } else if (isa<PatternVarAttr>(pattern)) {
    p.printRegionArgument(*nextVar++);
  } else if (auto ctor = dyn_cast<PatternCtorAttr>(pattern)) {
    p.printAttribute(ctor.getConstructor());
    if (!ctor.getFields().empty())
      printFields(ctor.getFields());
  } else if (auto tuple = dyn_cast<PatternTupleAttr>(pattern)) {
    printFields(tuple.getFields());
  } else {
    p.printAttribute(pattern); // not a pattern: the verifier reports it
  }
}

ParseResult MatchOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  if (succeeded(parser.parseOptionalKeyword("partial")))
    result.addAttribute(getPartialAttrName(result.name), UnitAttr::get(ctx));
  OpAsmParser::UnresolvedOperand scrutinee;
  Type scrutineeType, resultType;
  if (parser.parseOperand(scrutinee) || parser.parseColonType(scrutineeType) ||
      parser.parseArrow() || parser.parseType(resultType) ||
      parser.resolveOperand(scrutinee, scrutineeType, result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseLBrace())
    return failure();
  result.addTypes(resultType);
  SmallVector<Attribute> patterns;
  while (succeeded(parser.parseOptionalKeyword("case"))) {
    SmallVector<OpAsmParser::Argument> vars;
    if (parsePattern(parser, patterns.emplace_back(), vars))
      return failure();
    setArgumentLocationsFromNames(parser, vars);
    if (parser.parseRegion(*result.addRegion(), vars,
                           /*enableNameShadowing=*/false))
      return failure();
  }
  result.addAttribute(getPatternsAttrName(result.name),
                      ArrayAttr::get(ctx, patterns));
  return parser.parseRBrace();
}

void MatchOp::getAsmBlockArgumentNames(Region &region,
                                       OpAsmSetValueNameFn setNameFn) {
  setBlockArgumentNamesFromLocations(region, setNameFn);
}

void MatchOp::print(OpAsmPrinter &p) {
  p << ' ';
  if (getPartial())
    p << "partial ";
  p << getScrutinee() << " : " << getScrutinee().getType() << " -> "
    << getType();
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getPartialAttrName(), getPatternsAttrName()});
  p << " {";
  p.increaseIndent();
  for (auto [pattern, region] : llvm::zip(getPatterns(), getCases())) {
    p.printNewline();
    p << "case ";
    Block::BlockArgListType args = region.front().getArguments();
    auto nextVar = args.begin();
    printPattern(p, pattern, nextVar);
    p << ' ';
    p.printRegion(region, /*printEntryBlockArgs=*/false,
                  /*printBlockTerminators=*/true);
  }
  p.decreaseIndent();
  p.printNewline();
  p << '}';
}

//===----------------------------------------------------------------------===//
// MatchOp: verification
//===----------------------------------------------------------------------===//

/// Counts the variables a pattern binds; fails on a non-pattern attribute.
static FailureOr<unsigned> countPatternVars(Attribute pattern) {
  if (isa<PatternWildcardAttr>(pattern))
    return 0u;
  if (isa<PatternVarAttr>(pattern))
    return 1u;
  ArrayRef<Attribute> fields;
  if (auto ctor = dyn_cast<PatternCtorAttr>(pattern))
    fields = ctor.getFields();
  else if (auto tuple = dyn_cast<PatternTupleAttr>(pattern))
    fields = tuple.getFields();
  else
    return failure();
  unsigned count = 0;
  for (Attribute field : fields) {
    FailureOr<unsigned> n = countPatternVars(field);
    if (failed(n))
      return failure();
    count += *n;
  }
  return count;
}

LogicalResult MatchOp::verifyRegions() {
  if (getCases().empty())
    return emitOpError("needs at least one case");
  if (getPatterns().size() != getCases().size())
    return emitOpError("has ") << getPatterns().size() << " patterns for "
                               << getCases().size() << " cases";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getPatterns(), getCases()))) {
    auto [pattern, region] = pair;
    FailureOr<unsigned> numVars = countPatternVars(pattern);
    if (failed(numVars))
      return emitOpError("case #")
             << i << " has an invalid pattern " << pattern;
    if (region.front().getNumArguments() != *numVars)
      return emitOpError("case #")
             << i << " binds " << *numVars << " variables but its region has "
             << region.front().getNumArguments() << " arguments";
    std::string name = "case #" + std::to_string(i);
    if (region.front().empty() || !isa<YieldOp>(region.front().back()))
      return emitOpError() << name << " must end with 'relay.yield'";
    Type yielded = cast<YieldOp>(region.front().back()).getValue().getType();
    if (!areCompatible(yielded, getType()))
      return emitOpError() << name << " yields " << yielded
                           << " but the match has type " << getType();
  }
  return success();
}

namespace {
/// Checks a pattern against the type of the value it matches.
struct PatternTypeChecker {
  MatchOp op;
  SymbolTableCollection &symbolTable;
  unsigned caseIndex;
  Block::BlockArgListType::iterator nextVar;

  LogicalResult check(Attribute pattern, Type type) {
    if (isa<PatternWildcardAttr>(pattern))
      return success();
    if (isa<PatternVarAttr>(pattern)) {
      BlockArgument var = *nextVar++;
      if (!areCompatible(var.getType(), type))
        return op.emitOpError("variable #")
               << var.getArgNumber() << " of case #" << caseIndex
               << " has type " << var.getType()
               << " but matches a value of type " << type;
      return success();
    }
    if (auto tuple = dyn_cast<PatternTupleAttr>(pattern)) {
      auto tupleType = dyn_cast<TupleType>(type);
      bool unknown = isa<IncompleteType, TypeVarType>(type);
      if (!unknown &&
          (!tupleType || tupleType.size() != tuple.getFields().size()))
        return op.emitOpError("tuple pattern with ")
               << tuple.getFields().size() << " fields in case #" << caseIndex
               << " cannot match a value of type " << type;
      for (auto [i, field] : llvm::enumerate(tuple.getFields())) {
        Type fieldType = tupleType ? tupleType.getType(i)
                                   : IncompleteType::get(type.getContext());
        if (failed(check(field, fieldType)))
          return failure();
      }
      return success();
    }
    auto ctorPattern = cast<PatternCtorAttr>(pattern);
    CtorOp ctor = lookupCtor(op, symbolTable, ctorPattern.getConstructor());
    if (!ctor || failed(verifyIsAdtOf(op, ctor, type, "constructor pattern")))
      return failure();
    SmallVector<Type> fields = instantiateFields(ctor, type);
    if (fields.size() != ctorPattern.getFields().size())
      return op.emitOpError("constructor pattern ")
             << ctorPattern.getConstructor() << " in case #" << caseIndex
             << " has " << ctorPattern.getFields().size()
             << " sub-patterns, but the constructor has " << fields.size()
             << " fields";
    for (auto [sub, fieldType] : llvm::zip(ctorPattern.getFields(), fields))
      if (failed(check(sub, fieldType)))
        return failure();
    return success();
  }
};
} // namespace

LogicalResult MatchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Type scrutineeType = getScrutinee().getType();
  if (failed(verifyAdtRefs(*this, symbolTable, scrutineeType)))
    return failure();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getPatterns(), getCases()))) {
    auto [pattern, region] = pair;
    PatternTypeChecker checker{*this, symbolTable, static_cast<unsigned>(i),
                               region.front().args_begin()};
    if (failed(checker.check(pattern, scrutineeType)))
      return failure();
  }
  return success();
}

void MatchOp::getSuccessorRegions(RegionBranchPoint point,
                                  SmallVectorImpl<RegionSuccessor> &regions) {
  if (point.isParent()) {
    // Pattern variables are bound by matching, not forwarded operands.
    for (Region &region : getCases())
      regions.push_back(RegionSuccessor(&region));
    return;
  }
  regions.push_back(
      RegionSuccessor(getOperation(), getOperation()->getResults()));
}

// The case types are checked by MatchOp::verifyRegions (see IfOp).
bool MatchOp::areTypesCompatible(Type lhs, Type rhs) { return true; }
