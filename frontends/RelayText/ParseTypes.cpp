//===- ParseTypes.cpp - Relay text types ------------------------*- C++ -*-===//
//
// Types of the Relay text format: dtypes, tensor types with symbolic
// dimensions, tuples, functions with type parameters, references and ADT
// type calls; and ascriptions (`%x: T`).
//
//===----------------------------------------------------------------------===//

#include "frontends/RelayText/Parser.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::text;
using namespace mlir::relay::text::detail;

Type Importer::parseDtypeName(StringRef name) {
  // int8, uint16, float32, bfloat16, bool, with optional `xN` lanes.
  StringRef base = name;
  int64_t lanes = 1;
  size_t x = name.find('x');
  if (x != StringRef::npos && !name.starts_with("x")) {
    if (name.substr(x + 1).getAsInteger(10, lanes) || lanes < 1)
      return Type();
    base = name.take_front(x);
  }
  Type element;
  unsigned bits = 0;
  if (base == "bool") {
    element = IntegerType::get(ctx, 1);
  } else if (base.consume_front("uint")) {
    // `uint`, `int` and `float` alone are 32 bits, as in TVM.
    if (base.empty())
      base = "32";
    if (base.getAsInteger(10, bits) || bits == 0 || bits > 64)
      return Type();
    element = bits == 1 ? IntegerType::get(ctx, 1)
                        : IntegerType::get(ctx, bits, IntegerType::Unsigned);
  } else if (base.consume_front("int")) {
    if (base.empty())
      base = "32";
    if (base.getAsInteger(10, bits) || bits == 0 || bits > 64)
      return Type();
    element = IntegerType::get(ctx, bits);
  } else if (base.consume_front("bfloat")) {
    if (base != "16")
      return Type();
    element = BFloat16Type::get(ctx);
  } else if (base.consume_front("float")) {
    if (base.empty())
      base = "32";
    if (base == "16")
      element = Float16Type::get(ctx);
    else if (base == "32")
      element = Float32Type::get(ctx);
    else if (base == "64")
      element = Float64Type::get(ctx);
    else
      return Type();
  } else {
    return Type();
  }
  if (lanes > 1)
    return VectorType::get({lanes}, element);
  return element;
}

FailureOr<Type> Importer::parseTensorType(llvm::SMLoc start) {
  // Tensor[(d1, d2, ...), dtype]; a dimension is a size, `?`, or a ShapeVar
  // parameter, and the shape may be a Shape parameter: Tensor[s, d].
  if (failed(expect(TokenKind::LBracket, "after 'Tensor'")))
    return failure();
  StringAttr shapeVar;
  SmallVector<Attribute> dims; // IntegerAttr (size or ?) or StringAttr
  auto parseDim = [&]() -> LogicalResult {
    if (consumeIf(TokenKind::Question)) {
      dims.push_back(builder.getI64IntegerAttr(ShapedType::kDynamic));
      return success();
    }
    if (peek().is(TokenKind::Identifier)) {
      Token name = consume();
      TypeVarType var = lookupTypeVar(name.text);
      if (!var || var.getKind() != TypeKind::ShapeVar)
        return emitError(name.loc)
               << "'" << name.text << "' is not a ShapeVar type parameter";
      dims.push_back(StringAttr::get(ctx, name.text));
      return success();
    }
    if (!peek().is(TokenKind::Integer))
      return expected("a dimension (an integer, '?' or a ShapeVar)");
    Token d = consume();
    int64_t v;
    if (d.digits.getAsInteger(10, v) || !d.suffix.empty())
      return emitError(d.loc) << "invalid dimension " << d.text;
    dims.push_back(builder.getI64IntegerAttr(v));
    return success();
  };
  if (consumeIf(TokenKind::LParen)) {
    if (!consumeIf(TokenKind::RParen)) {
      do {
        if (peek().is(TokenKind::RParen))
          break; // (3,)
        if (failed(parseDim()))
          return failure();
      } while (consumeIf(TokenKind::Comma));
      if (failed(expect(TokenKind::RParen, "to close the shape")))
        return failure();
    }
  } else if (peek().is(TokenKind::Integer)) {
    if (failed(parseDim()))
      return failure();
  } else if (peek().is(TokenKind::Identifier)) {
    Token name = consume();
    TypeVarType var = lookupTypeVar(name.text);
    if (!var || var.getKind() != TypeKind::Shape)
      return fail(emitError(name.loc)
                  << "'" << name.text << "' is not a Shape type parameter");
    shapeVar = StringAttr::get(ctx, name.text);
  } else {
    return fail(expected("a shape '(...)'"));
  }
  if (failed(expect(TokenKind::Comma, "between the shape and the dtype")))
    return failure();
  if (!peek().is(TokenKind::Identifier))
    return fail(expected("a dtype"));
  Token dt = consume();
  Type dtype = parseDtypeName(dt.text);
  if (!dtype) {
    TypeVarType var = lookupTypeVar(dt.text);
    if (!var || var.getKind() != TypeKind::BaseType)
      return fail(emitError(dt.loc)
                  << "unknown dtype '" << dt.text << "'"
                  << nearestType(dt.text, /*onlyDtypes=*/true));
    dtype = var;
  }
  if (failed(expect(TokenKind::RBracket, "to close the tensor type")))
    return failure();
  (void)start;
  return makeTensorType(ctx, shapeVar, dims, dtype);
}

FailureOr<Type> Importer::parseType() {
  const Token &t = peek();
  if (t.is(TokenKind::LParen)) {
    // (), (T,), (T1, T2)
    consume();
    SmallVector<Type> fields;
    if (consumeIf(TokenKind::RParen))
      return Type(TupleType::get(ctx, {}));
    do {
      if (peek().is(TokenKind::RParen))
        break;
      FailureOr<Type> f = parseType();
      if (failed(f))
        return failure();
      fields.push_back(*f);
    } while (consumeIf(TokenKind::Comma));
    if (failed(expect(TokenKind::RParen, "to close the tuple type")))
      return failure();
    return Type(TupleType::get(ctx, fields));
  }
  if (!t.is(TokenKind::Identifier))
    return fail(expected("a type"));
  Token name = consume();
  if (name.text == "_")
    return Type(IncompleteType::get(ctx));
  if (name.text == "Tensor")
    return parseTensorType(name.loc);
  if (name.text == "fn") {
    SmallVector<TypeVarType> params;
    typeScopes.emplace_back();
    auto pop = llvm::scope_exit([&] { typeScopes.pop_back(); });
    if (consumeIf(TokenKind::LBracket)) {
      FailureOr<SmallVector<TypeVarType>> p = parseTypeParams();
      if (failed(p))
        return failure();
      params = std::move(*p);
      for (TypeVarType v : params)
        typeScopes.back()[v.getName()] = v;
    }
    if (failed(expect(TokenKind::LParen, "in a function type")))
      return failure();
    SmallVector<Type> inputs;
    if (!consumeIf(TokenKind::RParen)) {
      do {
        FailureOr<Type> in = parseType();
        if (failed(in))
          return failure();
        inputs.push_back(*in);
      } while (consumeIf(TokenKind::Comma));
      if (failed(expect(TokenKind::RParen, "to close the argument types")))
        return failure();
    }
    if (failed(expect(TokenKind::Arrow, "in a function type")))
      return failure();
    FailureOr<Type> result = parseType();
    if (failed(result))
      return failure();
    return Type(FuncType::get(ctx, params, inputs, *result, {}));
  }
  if (name.text == "Ref") {
    if (failed(expect(TokenKind::LBracket, "after 'Ref'")))
      return failure();
    FailureOr<Type> inner = parseType();
    if (failed(inner) ||
        failed(expect(TokenKind::RBracket, "to close the Ref type")))
      return failure();
    return Type(RefType::get(ctx, *inner));
  }
  if (TypeVarType var = lookupTypeVar(name.text))
    return Type(var);
  if (Type dtype = parseDtypeName(name.text))
    return Type(RankedTensorType::get({}, dtype));
  if (DataOp data = lookupData(name.text)) {
    SmallVector<Type> args;
    if (consumeIf(TokenKind::LBracket)) {
      do {
        FailureOr<Type> a = parseType();
        if (failed(a))
          return failure();
        args.push_back(*a);
      } while (consumeIf(TokenKind::Comma));
      if (failed(expect(TokenKind::RBracket, "to close the type arguments")))
        return failure();
    }
    size_t expectedArgs = data.getTypeParamList().size();
    if (args.size() != expectedArgs)
      return fail(emitError(name.loc)
                  << "type " << name.text << " takes " << expectedArgs
                  << " type arguments, got " << args.size());
    return Type(AdtType::get(ctx, StringAttr::get(ctx, name.text), args));
  }
  if (typeLocs.count(name.text)) {
    // A type defined later in the file, used in a type definition.
    SmallVector<Type> args;
    if (consumeIf(TokenKind::LBracket)) {
      do {
        FailureOr<Type> a = parseType();
        if (failed(a))
          return failure();
        args.push_back(*a);
      } while (consumeIf(TokenKind::Comma));
      if (failed(expect(TokenKind::RBracket, "to close the type arguments")))
        return failure();
    }
    return Type(AdtType::get(ctx, StringAttr::get(ctx, name.text), args));
  }
  // The type keywords in another case (`ref(float32)`, `tensor[...]`):
  // say how they are written.
  if (name.text.equals_insensitive("ref"))
    return fail(emitError(name.loc) << "unknown type '" << name.text
                                    << "'; a reference type is written "
                                       "Ref[T], e.g. Ref[float32]");
  if (name.text.equals_insensitive("tensor"))
    return fail(emitError(name.loc)
                << "unknown type '" << name.text
                << "'; a tensor type is written Tensor[(dims), dtype], e.g. "
                   "Tensor[(2, 3), float32]");
  return fail(emitError(name.loc)
              << "unknown type '" << name.text << "'"
              << nearestType(name.text, /*onlyDtypes=*/false));
}

std::string Importer::nearestType(StringRef name, bool onlyDtypes) {
  NearestName nearest(name);
  for (StringRef dtype :
       {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
        "uint64", "float16", "float32", "float64", "bfloat16"})
    nearest.offer(dtype);
  for (const llvm::StringMap<TypeVarType> &scope : typeScopes)
    nearest.offerKeys(scope);
  if (onlyDtypes)
    return nearest.suggestion();
  for (StringRef keyword : {"Tensor", "Ref", "fn"})
    nearest.offer(keyword);
  nearest.offerKeys(typeLocs);
  if (const Definitions *p = preludeDefinitions())
    nearest.offerKeys(p->datas);
  return nearest.suggestion();
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

LogicalResult Importer::ascribe(Value v, Type type, llvm::SMLoc at) {
  Type current = v.getType();
  if (current == type || isa<IncompleteType>(type))
    return success();
  if (!areCompatible(current, type))
    return emitError(at) << "the value has type " << current
                         << " but is annotated " << type;
  // Refine an unknown result type to the annotation.
  if (!isa<IncompleteType>(current))
    return success();
  if ((v.getDefiningOp() &&
       !isa<TupleGetOp, RefReadOp, ConstantOp>(v.getDefiningOp())) ||
      isa<BlockArgument>(v))
    refineType(v, type);
  return success();
}

void Importer::refineType(Value v, Type type) {
  v.setType(type);
  // The users whose result types follow from their operands' (`ref(%v)`,
  // `(%v, ...)`) were built from the unknown type: they follow it, and
  // their users in turn. Others keep theirs until type inference.
  SmallVector<Value> changed = {v};
  while (!changed.empty()) {
    Value value = changed.pop_back_val();
    for (Operation *user : value.getUsers()) {
      auto infer = dyn_cast<InferTypeOpInterface>(user);
      if (!infer)
        continue;
      SmallVector<Type> types;
      if (failed(infer.inferReturnTypes(
              user->getContext(), user->getLoc(), user->getOperands(),
              user->getAttrDictionary(), user->getPropertiesStorage(),
              user->getRegions(), types)) ||
          TypeRange(types) == user->getResultTypes())
        continue;
      for (auto [result, t] : llvm::zip(user->getResults(), types)) {
        result.setType(t);
        changed.push_back(result);
      }
    }
  }
}
