//===- RelayTypes.cpp - Relay types -----------------------------*- C++ -*-===//
//
// Parsing, printing and verification of the relay types.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayTypes.h"
#include "dialects/relay/RelayDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::relay;

#define GET_TYPEDEF_CLASSES
#include "dialects/relay/RelayTypes.cpp.inc"

void RelayDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/relay/RelayTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Type kinds and type parameter lists
//===----------------------------------------------------------------------===//

StringRef mlir::relay::stringifyTypeKind(TypeKind kind) {
  switch (kind) {
  case TypeKind::Type:
    return "Type";
  case TypeKind::Shape:
    return "Shape";
  case TypeKind::BaseType:
    return "BaseType";
  case TypeKind::ShapeVar:
    return "ShapeVar";
  }
  llvm_unreachable("unknown type kind");
}

std::optional<TypeKind> mlir::relay::symbolizeTypeKind(StringRef name) {
  return llvm::StringSwitch<std::optional<TypeKind>>(name)
      .Case("Type", TypeKind::Type)
      .Case("Shape", TypeKind::Shape)
      .Case("BaseType", TypeKind::BaseType)
      .Case("ShapeVar", TypeKind::ShapeVar)
      .Default(std::nullopt);
}

/// Parses a type variable name (a keyword or a string). Names starting with
/// `$` belong to type inference's own variables and cannot be written.
static ParseResult parseVarName(AsmParser &parser, std::string &name) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&name))
    return failure();
  if (StringRef(name).starts_with("$"))
    return parser.emitError(loc, "type variable names starting with '$' are "
                                 "reserved for type inference");
  return success();
}

/// Prints a type variable name; type inference's `$n` variables (seen only
/// in its diagnostics) print bare.
static void printVarName(AsmPrinter &printer, StringRef name) {
  if (name.starts_with("$"))
    printer.getStream() << name;
  else
    printer.printKeywordOrString(name);
}

/// Parses `name` or `name : Kind`.
static FailureOr<TypeVarType> parseTypeVarBody(AsmParser &parser) {
  std::string name;
  SMLoc loc = parser.getCurrentLocation();
  if (parseVarName(parser, name))
    return failure();
  if (name.empty())
    return parser.emitError(loc, "type variable name must not be empty");
  TypeKind kind = TypeKind::Type;
  if (succeeded(parser.parseOptionalColon())) {
    std::string kindName;
    SMLoc kindLoc = parser.getCurrentLocation();
    if (parser.parseKeywordOrString(&kindName))
      return failure();
    std::optional<TypeKind> parsed = symbolizeTypeKind(kindName);
    if (!parsed)
      return parser.emitError(kindLoc, "unknown type kind '")
             << kindName << "', expected Type, Shape, BaseType or ShapeVar";
    kind = *parsed;
  }
  return TypeVarType::get(parser.getContext(), name, kind);
}

static void printTypeVarBody(AsmPrinter &printer, TypeVarType var) {
  printVarName(printer, var.getName());
  if (var.getKind() != TypeKind::Type)
    printer << " : " << stringifyTypeKind(var.getKind());
}

ParseResult
mlir::relay::parseOptionalTypeParams(AsmParser &parser,
                                     SmallVectorImpl<TypeVarType> &params) {
  SMLoc loc = parser.getCurrentLocation();
  if (failed(parser.parseOptionalLSquare()))
    return success();
  llvm::StringSet<> seen;
  auto parseOne = [&]() -> ParseResult {
    FailureOr<TypeVarType> var = parseTypeVarBody(parser);
    if (failed(var))
      return failure();
    if (!seen.insert(var->getName()).second)
      return parser.emitError(loc, "duplicate type parameter '")
             << var->getName() << "'";
    params.push_back(*var);
    return success();
  };
  if (succeeded(parser.parseOptionalRSquare()))
    return success();
  if (parser.parseCommaSeparatedList(parseOne) || parser.parseRSquare())
    return failure();
  return success();
}

void mlir::relay::printTypeParams(AsmPrinter &printer,
                                  ArrayRef<TypeVarType> params) {
  if (params.empty())
    return;
  printer << '[';
  llvm::interleaveComma(params, printer,
                        [&](TypeVarType v) { printTypeVarBody(printer, v); });
  printer << ']';
}

ParseResult
mlir::relay::parseOptionalRelations(AsmParser &parser,
                                    SmallVectorImpl<TypeRelationAttr> &rels) {
  if (failed(parser.parseOptionalKeyword("where")))
    return success();
  auto parseOne = [&]() -> ParseResult {
    std::string name;
    SmallVector<Type> args;
    if (parser.parseKeywordOrString(&name) ||
        parser.parseCommaSeparatedList(AsmParser::Delimiter::Paren, [&]() {
          return parser.parseType(args.emplace_back());
        }))
      return failure();
    rels.push_back(TypeRelationAttr::get(parser.getContext(), name, args));
    return success();
  };
  return parser.parseCommaSeparatedList(parseOne);
}

void mlir::relay::printRelations(AsmPrinter &printer,
                                 ArrayRef<TypeRelationAttr> rels) {
  if (rels.empty())
    return;
  printer << " where ";
  llvm::interleaveComma(rels, printer, [&](TypeRelationAttr rel) {
    printer.printKeywordOrString(rel.getName());
    printer << '(';
    llvm::interleaveComma(rel.getArgs(), printer);
    printer << ')';
  });
}

SmallVector<TypeVarType> mlir::relay::getTypeVarList(ArrayAttr attr) {
  SmallVector<TypeVarType> vars;
  if (!attr)
    return vars;
  for (Attribute a : attr)
    if (auto typeAttr = dyn_cast<TypeAttr>(a))
      if (auto var = dyn_cast<TypeVarType>(typeAttr.getValue()))
        vars.push_back(var);
  return vars;
}

ArrayAttr mlir::relay::getTypeVarArrayAttr(MLIRContext *ctx,
                                           ArrayRef<TypeVarType> params) {
  if (params.empty())
    return nullptr;
  SmallVector<Attribute> attrs;
  for (TypeVarType v : params)
    attrs.push_back(TypeAttr::get(v));
  return ArrayAttr::get(ctx, attrs);
}

//===----------------------------------------------------------------------===//
// TypeVarType
//===----------------------------------------------------------------------===//

Type TypeVarType::parse(AsmParser &parser) {
  if (parser.parseLess())
    return {};
  FailureOr<TypeVarType> var = parseTypeVarBody(parser);
  if (failed(var) || parser.parseGreater())
    return {};
  return *var;
}

void TypeVarType::print(AsmPrinter &printer) const {
  printer << '<';
  printTypeVarBody(printer, *this);
  printer << '>';
}

//===----------------------------------------------------------------------===//
// PolyTensorType
//===----------------------------------------------------------------------===//

StringAttr PolyTensorType::getDtypeVar() const {
  if (auto var = dyn_cast<TypeVarType>(getDtype()))
    return StringAttr::get(getContext(), var.getName());
  return nullptr;
}

/// A dimension is an IntegerAttr (a size, or ShapedType::kDynamic for `?`) or
/// a StringAttr naming a ShapeVar variable.
static bool isStaticOrAnyDim(Attribute dim) { return isa<IntegerAttr>(dim); }

LogicalResult
PolyTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                       StringAttr shapeVar, ArrayRef<Attribute> dims,
                       Type dtype) {
  if (shapeVar && !dims.empty())
    return emitError() << "a tensor has either a Shape variable or a list of "
                          "dimensions, not both";
  for (Attribute dim : dims) {
    if (auto size = dyn_cast<IntegerAttr>(dim)) {
      if (size.getInt() < 0 && !ShapedType::isDynamic(size.getInt()))
        return emitError() << "tensor dimension must be non-negative, got "
                           << size.getInt();
      continue;
    }
    if (!isa<StringAttr>(dim))
      return emitError() << "tensor dimension must be a size, '?' or a "
                            "ShapeVar name";
  }
  if (auto var = dyn_cast<TypeVarType>(dtype)) {
    if (var.getKind() != TypeKind::BaseType)
      return emitError() << "tensor dtype variable '" << var.getName()
                         << "' must have kind BaseType, not "
                         << stringifyTypeKind(var.getKind());
  } else if (!dtype.isIntOrIndexOrFloat()) {
    return emitError() << "tensor dtype must be an integer, float or bool "
                          "type, got "
                       << dtype;
  }
  bool symbolic =
      shapeVar || isa<TypeVarType>(dtype) ||
      llvm::any_of(dims, [](Attribute d) { return !isStaticOrAnyDim(d); });
  if (!symbolic)
    return emitError() << "a tensor with a concrete shape and dtype must be "
                          "the builtin tensor type";
  return success();
}

Type PolyTensorType::parse(AsmParser &parser) {
  MLIRContext *ctx = parser.getContext();
  StringAttr shapeVar;
  SmallVector<Attribute> dims;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  if (succeeded(parser.parseOptionalLSquare())) {
    if (failed(parser.parseOptionalRSquare())) {
      auto parseDim = [&]() -> ParseResult {
        if (succeeded(parser.parseOptionalQuestion())) {
          dims.push_back(IntegerAttr::get(IntegerType::get(ctx, 64),
                                          ShapedType::kDynamic));
          return success();
        }
        int64_t size;
        OptionalParseResult intResult = parser.parseOptionalInteger(size);
        if (intResult.has_value()) {
          if (failed(*intResult))
            return failure();
          dims.push_back(IntegerAttr::get(IntegerType::get(ctx, 64), size));
          return success();
        }
        std::string name;
        if (parseVarName(parser, name))
          return failure();
        dims.push_back(StringAttr::get(ctx, name));
        return success();
      };
      if (parser.parseCommaSeparatedList(parseDim) || parser.parseRSquare())
        return {};
    }
  } else {
    std::string name;
    if (parseVarName(parser, name))
      return {};
    shapeVar = StringAttr::get(ctx, name);
  }
  if (parser.parseComma())
    return {};
  // The dtype: a builtin element type, or a bare name for a BaseType
  // variable.
  Type dtype;
  OptionalParseResult typeResult = parser.parseOptionalType(dtype);
  if (typeResult.has_value()) {
    if (failed(*typeResult))
      return {};
  } else {
    std::string name;
    if (parseVarName(parser, name))
      return {};
    dtype = TypeVarType::get(ctx, name, TypeKind::BaseType);
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<PolyTensorType>(loc, ctx, shapeVar, dims, dtype);
}

void PolyTensorType::print(AsmPrinter &printer) const {
  printer << '<';
  if (hasShapeVar()) {
    printVarName(printer, getShapeVar().getValue());
  } else {
    printer << '[';
    llvm::interleaveComma(getDims(), printer, [&](Attribute dim) {
      if (auto size = dyn_cast<IntegerAttr>(dim)) {
        if (ShapedType::isDynamic(size.getInt()))
          printer << '?';
        else
          printer << size.getInt();
      } else {
        printVarName(printer, cast<StringAttr>(dim).getValue());
      }
    });
    printer << ']';
  }
  printer << ", ";
  if (auto var = dyn_cast<TypeVarType>(getDtype()))
    printVarName(printer, var.getName());
  else
    printer << getDtype();
  printer << '>';
}

//===----------------------------------------------------------------------===//
// FuncType
//===----------------------------------------------------------------------===//

Type FuncType::parse(AsmParser &parser) {
  SmallVector<TypeVarType> params;
  SmallVector<Type> inputs;
  Type result;
  SmallVector<TypeRelationAttr> relations;
  if (parser.parseLess() || parseOptionalTypeParams(parser, params) ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Paren,
          [&]() { return parser.parseType(inputs.emplace_back()); }) ||
      parser.parseArrow() || parser.parseType(result) ||
      parseOptionalRelations(parser, relations) || parser.parseGreater())
    return {};
  return FuncType::get(parser.getContext(), params, inputs, result, relations);
}

void FuncType::print(AsmPrinter &printer) const {
  printer << '<';
  printTypeParams(printer, getTypeParams());
  printer << '(';
  llvm::interleaveComma(getInputs(), printer);
  printer << ") -> " << getResult();
  printRelations(printer, getRelations());
  printer << '>';
}

//===----------------------------------------------------------------------===//
// AdtType
//===----------------------------------------------------------------------===//

Type AdtType::parse(AsmParser &parser) {
  StringAttr name;
  SmallVector<Type> args;
  if (parser.parseLess() || parser.parseSymbolName(name))
    return {};
  while (succeeded(parser.parseOptionalComma()))
    if (parser.parseType(args.emplace_back()))
      return {};
  if (parser.parseGreater())
    return {};
  return AdtType::get(parser.getContext(), name, args);
}

void AdtType::print(AsmPrinter &printer) const {
  printer << '<';
  printer.printSymbolName(getName().getValue());
  for (Type arg : getArgs())
    printer << ", " << arg;
  printer << '>';
}
