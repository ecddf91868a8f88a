//===- ParseExpressions.cpp - Relay text expressions ------------*- C++ -*-===//
//
// Expressions: sequences of let and graph bindings, operators by
// precedence, postfix projections and calls, atoms (variables, literals,
// metadata references, tuples), fn, if and match with their patterns.
//
//===----------------------------------------------------------------------===//

#include "frontends/RelayText/Parser.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::text;
using namespace mlir::relay::text::detail;

/// What `name`, an unknown operator or constructor, may have meant: the
/// registered operators of that name in another namespace (`softmax`:
/// `nn.softmax`), else the operator or constructor a typo explains.
static std::string suggestCallee(StringRef name,
                                 ArrayRef<StringRef> constructors) {
  SmallVector<std::string> sameName;
  NearestName nearest(name);
  forEachOperator([&](const OperatorInfo &info) {
    StringRef candidate = StringRef(info.name).drop_front(strlen("relay."));
    if (candidate.rsplit('.').second == name)
      sameName.push_back("'" + candidate.str() + "'");
    nearest.offer(candidate);
  });
  if (!sameName.empty())
    return "; did you mean " + llvm::join(sameName, " or ") + "?";
  for (StringRef ctor : constructors)
    nearest.offer(ctor);
  return nearest.suggestion();
}

/// The constructors a program may name: its own and the prelude's.
SmallVector<StringRef> Importer::constructorNames() {
  SmallVector<StringRef> names;
  for (const auto &entry : ctorLocs)
    names.push_back(entry.getKey());
  if (const Definitions *p = preludeDefinitions())
    for (const auto &entry : p->ctors)
      names.push_back(entry.getKey());
  return names;
}

FailureOr<Value> Importer::parseExpr() {
  if (nesting >= kMaxNesting)
    return fail(emitError(peek().loc)
                << "expression nested deeper than " << kMaxNesting
                << " levels; bind its parts with let or graph bindings "
                   "(%n = ...;) to flatten it");
  ++nesting;
  // The names an expression binds (let, graph bindings) are visible in its
  // own body only: `(let %x = 1; %x, %x)` does not bind the second %x.
  pushScope();
  FailureOr<Value> value = parseSequence();
  popScope();
  --nesting;
  return value;
}

FailureOr<Value> Importer::parseSequence() {
  // A sequence of bindings is a loop, not a recursion per binding: a graph
  // of a hundred thousand bindings would overflow the stack otherwise.
  while (true) {
    // let %x (: T)? = e; body
    if (peek().isKeyword("let")) {
      Token kw = consume();
      if (peek().is(TokenKind::Global))
        return fail(emitError(peek().loc)
                    << "let cannot bind a global name (@" << peek().text
                    << "); expected a local variable (%name)");
      if (!peek().is(TokenKind::Local))
        return fail(expected("a local variable (%name) after 'let'"));
      Token name = consume();
      std::optional<Type> annotation;
      if (consumeIf(TokenKind::Colon)) {
        FailureOr<Type> t = parseType();
        if (failed(t))
          return failure();
        annotation = *t;
      }
      if (failed(expect(TokenKind::Equal, "in the let binding")))
        return failure();
      FailureOr<Value> value;
      if (peek().isKeyword("fn"))
        value = parseFn(name.text);
      else
        value = parseBinary(0);
      if (failed(value))
        return failure();
      if (annotation && failed(ascribe(*value, *annotation, name.loc)))
        return failure();
      if (Operation *def = value->getDefiningOp())
        if (!isa<NameLoc>(def->getLoc()))
          def->setLoc(
              NameLoc::get(StringAttr::get(ctx, name.text), def->getLoc()));
      if (failed(expect(TokenKind::Semicolon, "after the let binding")))
        return failure();
      (void)kw;
      bind(name.text, *value);
      continue;
    }
    // %0 = e; body  (graph binding)
    if (peek().is(TokenKind::Local) && peek(1).is(TokenKind::Equal)) {
      Token name = consume();
      consume();
      FailureOr<Value> value = parseBinary(0);
      if (failed(value))
        return failure();
      if (failed(expect(TokenKind::Semicolon, "after the binding")))
        return failure();
      bind(name.text, *value);
      continue;
    }
    FailureOr<Value> value = parseBinary(0);
    if (failed(value))
      return failure();
    // e1; e2
    if (consumeIf(TokenKind::Semicolon))
      continue;
    return value;
  }
}

static int precedence(TokenKind kind) {
  switch (kind) {
  case TokenKind::Star:
  case TokenKind::Slash:
    return 4;
  case TokenKind::Plus:
  case TokenKind::Minus:
    return 3;
  case TokenKind::Less:
  case TokenKind::Greater:
  case TokenKind::LessEqual:
  case TokenKind::GreaterEqual:
    return 2;
  case TokenKind::EqualEqual:
  case TokenKind::NotEqual:
    return 1;
  default:
    return -1;
  }
}

Value Importer::buildBinary(TokenKind op, Value lhs, Value rhs,
                            llvm::SMLoc at) {
  StringRef name;
  switch (op) {
  case TokenKind::Star:
    name = "relay.multiply";
    break;
  case TokenKind::Slash:
    name = "relay.divide";
    break;
  case TokenKind::Plus:
    name = "relay.add";
    break;
  case TokenKind::Minus:
    name = "relay.subtract";
    break;
  case TokenKind::Less:
    name = "relay.less";
    break;
  case TokenKind::Greater:
    name = "relay.greater";
    break;
  case TokenKind::LessEqual:
    name = "relay.less_equal";
    break;
  case TokenKind::GreaterEqual:
    name = "relay.greater_equal";
    break;
  case TokenKind::EqualEqual:
    name = "relay.equal";
    break;
  default:
    name = "relay.not_equal";
    break;
  }
  return *buildOperator(name.str(), {lhs, rhs}, {}, at);
}

FailureOr<Value> Importer::parseBinary(int minPrec) {
  FailureOr<Expr> first = parseUnary();
  if (failed(first))
    return failure();
  FailureOr<Value> lhs = materialize(*first);
  if (failed(lhs))
    return failure();
  for (;;) {
    TokenKind op = peek().kind;
    int prec = precedence(op);
    if (prec < 0 || prec < minPrec)
      return lhs;
    Token opTok = consume();
    FailureOr<Value> rhs = parseBinary(prec + 1);
    if (failed(rhs))
      return failure();
    lhs = buildBinary(op, *lhs, *rhs, opTok.loc);
  }
}

FailureOr<Expr> Importer::parseUnary() {
  if (peek().is(TokenKind::Minus)) {
    Token minus = consume();
    if (peek().is(TokenKind::Integer) || peek().is(TokenKind::Float)) {
      FailureOr<Value> v = parseNumber(/*negate=*/true, minus.loc);
      if (failed(v))
        return failure();
      Expr e;
      e.value = *v;
      e.loc = minus.loc;
      return e;
    }
    FailureOr<Expr> operand = parseUnary();
    if (failed(operand))
      return failure();
    FailureOr<Value> v = materialize(*operand);
    if (failed(v))
      return failure();
    FailureOr<Value> neg = buildOperator("relay.negative", {*v}, {}, minus.loc);
    if (failed(neg))
      return failure();
    Expr e;
    e.value = *neg;
    e.loc = minus.loc;
    return e;
  }
  return parsePostfix();
}

FailureOr<Expr> Importer::parsePostfix() {
  FailureOr<Expr> e = parseAtom();
  if (failed(e))
    return failure();
  for (;;) {
    if (peek().is(TokenKind::LParen)) {
      e = parseCall(*e);
      if (failed(e))
        return failure();
      continue;
    }
    if (peek().is(TokenKind::Dot)) {
      Token dot = consume();
      // `%t.0.2` projects twice; the lexer reads `0.2` as one float.
      SmallVector<std::pair<StringRef, llvm::SMLoc>, 2> indices;
      Token idx = peek();
      if (idx.is(TokenKind::Float) && idx.suffix.empty() &&
          llvm::all_of(idx.text,
                       [](char c) { return llvm::isDigit(c) || c == '.'; }) &&
          idx.text.count('.') == 1) {
        consume();
        auto [outer, inner] = idx.text.split('.');
        indices.push_back({outer, idx.loc});
        indices.push_back({inner, llvm::SMLoc::getFromPointer(inner.data())});
      } else if (idx.is(TokenKind::Integer) && idx.suffix.empty()) {
        consume();
        indices.push_back({idx.digits, idx.loc});
      } else if (idx.is(TokenKind::Integer)) {
        consume();
        return fail(emitError(idx.loc) << "invalid field index " << idx.text);
      } else {
        return fail(expected("a field index after '.'"));
      }
      for (auto [digits, at] : indices) {
        int64_t i;
        if (digits.getAsInteger(10, i))
          return fail(emitError(at) << "invalid field index " << digits);
        FailureOr<Value> tuple = materialize(*e);
        if (failed(tuple))
          return failure();
        Type type = tuple->getType();
        if (auto tt = dyn_cast<TupleType>(type)) {
          if (i >= static_cast<int64_t>(tt.size()))
            return fail(emitError(at) << "field index " << i
                                      << " is out of range for " << type);
        } else if (!isa<IncompleteType, TypeVarType>(type)) {
          return fail(emitError(dot.loc) << "cannot project field " << i
                                         << " of a value of type " << type);
        }
        Expr r;
        r.value = TupleGetOp::create(builder, loc(dot), *tuple,
                                     builder.getI64IntegerAttr(i));
        r.loc = dot.loc;
        e = r;
      }
      continue;
    }
    return e;
  }
}

FailureOr<Value> Importer::parseBlock() {
  llvm::SMLoc open = peek().loc;
  if (failed(expect(TokenKind::LBrace)))
    return failure();
  pushScope();
  FailureOr<Value> v = parseExpr();
  popScope();
  if (failed(v))
    return failure();
  if (!consumeIf(TokenKind::RBrace)) {
    if (peek().is(TokenKind::Eof))
      return fail(emitError(open)
                  << "unclosed '{': no matching '}' before the end of "
                     "the input");
    return fail(expected("'}'"));
  }
  return v;
}

FailureOr<Expr> Importer::parseAtom() {
  const Token &t = peek();
  Expr e;
  e.loc = t.loc;
  auto value = [&](FailureOr<Value> v) -> FailureOr<Expr> {
    if (failed(v))
      return failure();
    e.value = *v;
    return e;
  };
  switch (t.kind) {
  case TokenKind::Integer:
  case TokenKind::Float:
    return value(parseNumber(/*negate=*/false, t.loc));
  case TokenKind::Local: {
    Token name = consume();
    Value v = lookupLocal(name.text);
    if (!v) {
      NearestName nearest(name.text);
      for (const llvm::StringMap<Value> &scope : scopes)
        nearest.offerKeys(scope);
      return fail(emitError(name.loc)
                  << "unknown variable %" << name.text
                  << " (not bound by a parameter, let or pattern in "
                     "scope)"
                  << nearest.suggestion("%"));
    }
    e.value = v;
    return e;
  }
  case TokenKind::Global: {
    Token name = consume();
    if (!isGlobal(name.text)) {
      NearestName nearest(name.text);
      nearest.offerKeys(defLocs);
      if (const Definitions *p = preludeDefinitions())
        nearest.offerKeys(p->funcs);
      return fail(emitError(name.loc) << "unknown global function @"
                                      << name.text << nearest.suggestion("@"));
    }
    e.kind = Expr::Global;
    e.name = name.text.str();
    return e;
  }
  case TokenKind::LParen: {
    Token open = consume();
    if (consumeIf(TokenKind::RParen))
      return value(Value(TupleOp::create(builder, loc(open), ValueRange())));
    SmallVector<Value> fields;
    bool trailingComma = false;
    do {
      if (peek().is(TokenKind::RParen)) {
        trailingComma = true;
        break;
      }
      FailureOr<Value> f = parseExpr();
      if (failed(f))
        return failure();
      fields.push_back(*f);
    } while (consumeIf(TokenKind::Comma));
    if (failed(expect(TokenKind::RParen, "to close the parentheses")))
      return failure();
    if (fields.size() == 1 && !trailingComma)
      return value(fields[0]);
    return value(Value(TupleOp::create(builder, loc(open), fields)));
  }
  case TokenKind::LBrace:
    return value(parseBlock());
  case TokenKind::Identifier:
    break;
  default:
    return fail(expected("an expression"));
  }

  StringRef word = t.text;
  if (word == "True" || word == "False") {
    Token b = consume();
    auto type = RankedTensorType::get({}, IntegerType::get(ctx, 1));
    return value(
        buildConstant(DenseElementsAttr::get(type, word == "True"), b.loc));
  }
  if (word == "fn")
    return value(parseFn(""));
  if (word == "if")
    return value(parseIf());
  if (word == "match") {
    Token kw = consume();
    return value(parseMatch(kw.loc));
  }
  if (word == "meta") {
    Token kw = consume();
    return value(parseMeta(kw.loc));
  }
  if (word == "ref" || word == "ref_read" || word == "ref_write") {
    Token kw = consume();
    return value(parseRefOp(kw));
  }
  if (word == "let")
    return fail(expected("an expression (a let binding must be "
                         "followed by ';' and an expression)"));
  Token name = consume();
  if (lookupCtor(name.text)) {
    e.kind = Expr::Constructor;
    e.name = name.text.str();
    return e;
  }
  // TVM registers a few operators under `relay.op.<name>`
  // (relay.op.annotation.simulated_quantize); they are `relay.<name>` here.
  StringRef shortName = name.text;
  shortName.consume_front("relay.op.");
  std::string opName = ("relay." + shortName).str();
  if (lookupOperator(opName)) {
    e.kind = Expr::Operator;
    e.name = opName;
    return e;
  }
  return fail(emitError(name.loc)
              << "unknown operator or constructor '" << name.text << "'"
              << suggestCallee(shortName, constructorNames()));
}

FailureOr<Value> Importer::parseNumber(bool negate, llvm::SMLoc start) {
  Token num = consume();
  std::string digits = (negate ? "-" : "") + num.digits.str();
  StringRef suffix = num.suffix;
  if (num.is(TokenKind::Float)) {
    Type dtype = Float32Type::get(ctx);
    if (suffix == "f16")
      dtype = Float16Type::get(ctx);
    else if (suffix == "f64")
      dtype = Float64Type::get(ctx);
    else if (!suffix.empty() && suffix != "f" && suffix != "f32")
      return fail(emitError(num.loc) << "unknown float suffix '" << suffix
                                     << "' (expected f, f16, f32, f64)");
    auto floatType = cast<FloatType>(dtype);
    APFloat value(floatType.getFloatSemantics());
    llvm::Expected<APFloat::opStatus> status =
        value.convertFromString(digits, APFloat::rmNearestTiesToEven);
    bool bad = !status;
    if (!status)
      llvm::consumeError(status.takeError());
    else
      bad = (*status & APFloat::opOverflow) || value.isInfinity();
    // A literal above the largest finite value is out of range even when it
    // rounds down to it (65505f16).
    double asDouble = 0;
    if (!bad && !StringRef(digits).getAsDouble(asDouble)) {
      APFloat largest = APFloat::getLargest(floatType.getFloatSemantics());
      bool ignored;
      largest.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                      &ignored);
      bad = std::abs(asDouble) > largest.convertToDouble();
    }
    if (bad)
      return fail(emitError(start)
                  << "literal " << digits << " is out of range for " << dtype);
    auto type = RankedTensorType::get({}, dtype);
    return buildConstant(DenseElementsAttr::get(type, value), start);
  }
  // Integers: int32 unless suffixed; an unsuffixed literal too large for
  // int32 is int64.
  bool isUnsigned = suffix.starts_with("u");
  unsigned bits = 32;
  // `i` and `u` alone mean 32 bits.
  if (suffix.size() > 1 && suffix.drop_front().getAsInteger(10, bits))
    return fail(emitError(num.loc) << "invalid suffix '" << suffix << "'");
  if (suffix.size() > 1 && bits != 8 && bits != 16 && bits != 32 &&
      bits != 64 && !(bits == 1 && isUnsigned))
    return fail(emitError(num.loc) << "unsupported integer width " << bits
                                   << " (expected 8, 16, 32 or 64)");
  if (isUnsigned && negate)
    return fail(emitError(start)
                << "literal " << digits << " is negative but has unsigned type "
                << suffix);
  APInt value;
  if (num.digits.getAsInteger(10, value))
    return fail(emitError(start) << "invalid integer " << digits);
  // Room for the sign bit, then the sign.
  value = value.zext(value.getBitWidth() + 1);
  if (negate)
    value.negate();
  auto fits = [&](unsigned width) {
    return isUnsigned ? value.getActiveBits() <= width
                      : value.getSignificantBits() <= width;
  };
  if (suffix.empty() && !fits(32))
    bits = 64;
  if (!fits(bits))
    return fail(emitError(start)
                << "literal " << digits << " is out of range for "
                << (isUnsigned ? "uint" : "int") << bits);
  Type dtype = isUnsigned && bits != 1
                   ? IntegerType::get(ctx, bits, IntegerType::Unsigned)
                   : IntegerType::get(ctx, bits);
  auto type = RankedTensorType::get({}, dtype);
  return buildConstant(DenseElementsAttr::get(type, value.sextOrTrunc(bits)),
                       start);
}

Value Importer::buildConstant(DenseElementsAttr value, llvm::SMLoc at) {
  return ConstantOp::create(builder, loc(at), value);
}

FailureOr<Value> Importer::parseMeta(llvm::SMLoc start) {
  // meta[relay.Constant][n]
  if (failed(expect(TokenKind::LBracket, "after 'meta'")))
    return failure();
  if (!peek().is(TokenKind::Identifier))
    return fail(expected("a metadata kind such as relay.Constant"));
  Token kind = consume();
  if (failed(expect(TokenKind::RBracket)) ||
      failed(expect(TokenKind::LBracket)))
    return failure();
  if (!peek().is(TokenKind::Integer))
    return fail(expected("a metadata index"));
  Token idx = consume();
  if (failed(expect(TokenKind::RBracket)))
    return failure();
  size_t i;
  if (idx.digits.getAsInteger(10, i) || !idx.suffix.empty())
    return fail(emitError(idx.loc) << "invalid metadata index");
  if (!haveMeta)
    return fail(emitError(start)
                << "meta[" << kind.text << "][" << i
                << "] is used but the file has no #[metadata] section");
  auto it = meta.constants.find(kind.text);
  if (it == meta.constants.end()) {
    if (meta.otherKinds.count(kind.text))
      return fail(emitError(start) << "meta[" << kind.text
                                   << "] values are not supported (only "
                                      "relay.Constant is)");
    return fail(emitError(start)
                << "the metadata has no " << kind.text << " entries");
  }
  if (i >= it->second.size())
    return fail(emitError(idx.loc)
                << "meta[" << kind.text << "][" << i
                << "] is out of range: the metadata has " << it->second.size());
  return buildConstant(it->second[i], start);
}

FailureOr<Value> Importer::parseRefOp(const Token &kw) {
  if (failed(expect(TokenKind::LParen, "after '" + kw.text + "'")))
    return failure();
  SmallVector<Value> args;
  if (!peek().is(TokenKind::RParen)) {
    do {
      FailureOr<Value> a = parseExpr();
      if (failed(a))
        return failure();
      args.push_back(*a);
    } while (consumeIf(TokenKind::Comma));
  }
  if (failed(expect(TokenKind::RParen, "to close the arguments")))
    return failure();
  size_t arity = kw.text == "ref_write" ? 2 : 1;
  if (args.size() != arity)
    return fail(emitError(kw.loc) << kw.text << " takes " << arity
                                  << " arguments, got " << args.size());
  Location l = loc(kw);
  if (kw.text == "ref")
    return Value(RefOp::create(builder, l, args[0]));
  Type refType = args[0].getType();
  if (!isa<RefType, IncompleteType, TypeVarType>(refType))
    return fail(emitError(kw.loc)
                << kw.text << " expects a reference, got " << refType);
  if (kw.text == "ref_read")
    return Value(RefReadOp::create(builder, l, args[0]));
  return Value(RefWriteOp::create(builder, l, args[0], args[1]));
}

FailureOr<Value> Importer::parseFn(StringRef selfName) {
  Token kw = consume(); // fn
  SmallVector<TypeVarType> typeParams;
  typeScopes.emplace_back();
  auto popTypes = llvm::scope_exit([&] { typeScopes.pop_back(); });
  if (consumeIf(TokenKind::LBracket)) {
    FailureOr<SmallVector<TypeVarType>> p = parseTypeParams();
    if (failed(p))
      return failure();
    typeParams = std::move(*p);
    for (TypeVarType v : typeParams)
      typeScopes.back()[v.getName()] = v;
  }
  Signature sig;
  if (failed(parseSignature(sig)))
    return failure();
  auto &params = sig.params;
  std::optional<Type> declaredResult = sig.result;
  SmallVector<Type> inputs;
  for (auto &[tok, type] : params)
    inputs.push_back(type);

  // Build the body in a detached region; the op is created after it.
  auto region = std::make_unique<Region>();
  Block *block = new Block();
  region->push_back(block);
  bool mayRecurse = !selfName.empty();
  BlockArgument self;
  if (mayRecurse)
    self = block->addArgument(IncompleteType::get(ctx), loc(kw));
  for (auto &[tok, type] : params)
    block->addArgument(type,
                       NameLoc::get(StringAttr::get(ctx, tok.text), loc(tok)));
  pushScope();
  if (mayRecurse)
    bind(selfName, self);
  for (auto [i, param] : llvm::enumerate(params))
    bind(param.first.text, block->getArgument(i + (mayRecurse ? 1 : 0)));
  FailureOr<Value> body;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(block);
    body = parseBlock();
    if (succeeded(body)) {
      if (declaredResult && failed(ascribe(*body, *declaredResult, kw.loc)))
        body = failure();
      else
        ReturnOp::create(builder, body->getLoc(), *body);
    }
  }
  popScope();
  if (failed(body)) {
    // Values inside the detached region may use values outside; drop its
    // uses before it is destroyed.
    region->dropAllReferences();
    return failure();
  }
  Type resultType = declaredResult ? *declaredResult : body->getType();
  auto fnType = FuncType::get(ctx, typeParams, inputs, resultType, {});
  bool recursive = mayRecurse && !self.use_empty();
  if (mayRecurse && !recursive)
    block->eraseArgument(0);
  else if (recursive)
    refineType(self, fnType);
  OperationState state(loc(kw), FnOp::getOperationName());
  state.addTypes(fnType);
  if (recursive)
    state.addAttribute(FnOp::getRecursiveAttrName(state.name),
                       builder.getUnitAttr());
  state.addRegion(std::move(region));
  return builder.create(state)->getResult(0);
}

FailureOr<Value> Importer::parseIf() {
  Token kw = consume(); // if
  if (failed(expect(TokenKind::LParen, "after 'if'")))
    return failure();
  FailureOr<Value> cond = parseExpr();
  if (failed(cond) ||
      failed(expect(TokenKind::RParen, "to close the condition")))
    return failure();
  Type condType = cond->getType();
  if (!mayBeBoolScalar(condType))
    return fail(emitError(kw.loc) << "the condition of 'if' must be a "
                                     "bool scalar, got "
                                  << condType);
  auto op = IfOp::create(builder, loc(kw), IncompleteType::get(ctx), *cond);
  auto branch = [&](Region &region) -> FailureOr<Value> {
    Block *block = new Block();
    region.push_back(block);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(block);
    FailureOr<Value> v = parseBlock();
    if (succeeded(v))
      YieldOp::create(builder, v->getLoc(), *v);
    return v;
  };
  auto fail = [&]() -> FailureOr<Value> {
    op->dropAllReferences();
    op->erase();
    return failure();
  };
  FailureOr<Value> thenValue = branch(op.getThenRegion());
  if (failed(thenValue))
    return fail();
  if (!consumeKeyword("else")) {
    (void)expected("'else'");
    return fail();
  }
  FailureOr<Value> elseValue;
  if (peek().isKeyword("if")) {
    // else if: the nested if is the else branch.
    Block *block = new Block();
    op.getElseRegion().push_back(block);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(block);
    pushScope();
    elseValue = parseIf();
    popScope();
    if (succeeded(elseValue))
      YieldOp::create(builder, elseValue->getLoc(), *elseValue);
  } else {
    elseValue = branch(op.getElseRegion());
  }
  if (failed(elseValue))
    return fail();
  Type a = thenValue->getType(), b = elseValue->getType();
  if (!areCompatible(a, b)) {
    emitError(kw.loc) << "the branches of 'if' have different types: " << a
                      << " and " << b;
    return fail();
  }
  if (a == b || isa<IncompleteType>(b))
    op.getResult().setType(a);
  else if (isa<IncompleteType>(a))
    op.getResult().setType(b);
  return op.getResult();
}

FailureOr<Attribute>
Importer::parsePattern(SmallVectorImpl<std::pair<Token, Type>> &vars) {
  const Token &t = peek();
  if (t.isKeyword("_")) {
    consume();
    return Attribute(PatternWildcardAttr::get(ctx));
  }
  if (t.is(TokenKind::Local)) {
    Token name = consume();
    for (auto &[other, type] : vars)
      if (other.text == name.text)
        return fail(emitError(name.loc)
                    << "%" << name.text << " is bound twice in a pattern");
    Type type = IncompleteType::get(ctx);
    if (consumeIf(TokenKind::Colon)) {
      FailureOr<Type> ty = parseType();
      if (failed(ty))
        return failure();
      type = *ty;
    }
    vars.push_back({name, type});
    return Attribute(PatternVarAttr::get(ctx));
  }
  if (t.is(TokenKind::LParen)) {
    consume();
    SmallVector<Attribute> fields;
    if (!consumeIf(TokenKind::RParen)) {
      do {
        if (peek().is(TokenKind::RParen))
          break;
        FailureOr<Attribute> f = parsePattern(vars);
        if (failed(f))
          return failure();
        fields.push_back(*f);
      } while (consumeIf(TokenKind::Comma));
      if (failed(expect(TokenKind::RParen, "to close the tuple pattern")))
        return failure();
    }
    return Attribute(PatternTupleAttr::get(ctx, fields));
  }
  if (!t.is(TokenKind::Identifier))
    return fail(expected("a pattern ('_', %var, a constructor or a "
                         "tuple)"));
  Token name = consume();
  CtorOp ctor = lookupCtor(name.text);
  if (!ctor) {
    NearestName nearest(name.text);
    for (StringRef candidate : constructorNames())
      nearest.offer(candidate);
    return fail(emitError(name.loc) << "unknown constructor '" << name.text
                                    << "'" << nearest.suggestion());
  }
  SmallVector<Attribute> fields;
  if (consumeIf(TokenKind::LParen) && !consumeIf(TokenKind::RParen)) {
    do {
      FailureOr<Attribute> f = parsePattern(vars);
      if (failed(f))
        return failure();
      fields.push_back(*f);
    } while (consumeIf(TokenKind::Comma));
    if (failed(expect(TokenKind::RParen, "to close the constructor pattern")))
      return failure();
  }
  size_t arity = ctor.getFieldTypes().size();
  if (fields.size() != arity)
    return fail(emitError(name.loc)
                << "constructor " << name.text << " has " << arity
                << " fields, the pattern has " << fields.size());
  return Attribute(PatternCtorAttr::get(ctx, ctor.getQualifiedName(), fields));
}

FailureOr<Value> Importer::parseMatch(llvm::SMLoc start) {
  bool partial = consumeIf(TokenKind::Question);
  // `match (e)`, `match %x` and `match (%a, %b)` (a tuple) all parse as an
  // expression.
  FailureOr<Value> scrutinee = parseBinary(0);
  if (failed(scrutinee))
    return failure();
  llvm::SMLoc open = peek().loc;
  if (failed(expect(TokenKind::LBrace, "to open the match clauses")))
    return failure();
  SmallVector<Attribute> patterns;
  SmallVector<std::unique_ptr<Region>> regions;
  Type resultType;
  auto fail = [&]() -> FailureOr<Value> {
    for (auto &r : regions)
      r->dropAllReferences();
    return failure();
  };
  while (!consumeIf(TokenKind::RBrace)) {
    if (peek().is(TokenKind::Eof)) {
      emitError(open) << "unclosed '{': the match has no matching '}'";
      return fail();
    }
    SmallVector<std::pair<Token, Type>> vars;
    FailureOr<Attribute> pattern = parsePattern(vars);
    if (failed(pattern))
      return fail();
    if (failed(expect(TokenKind::FatArrow, "after the pattern")))
      return fail();
    auto region = std::make_unique<Region>();
    Block *block = new Block();
    region->push_back(block);
    for (auto &[tok, type] : vars)
      block->addArgument(
          type, NameLoc::get(StringAttr::get(ctx, tok.text), loc(tok)));
    regions.push_back(std::move(region));
    pushScope();
    for (auto [i, var] : llvm::enumerate(vars))
      bind(var.first.text, block->getArgument(i));
    FailureOr<Value> body;
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(block);
      body = parseExpr();
      if (succeeded(body))
        YieldOp::create(builder, body->getLoc(), *body);
    }
    popScope();
    if (failed(body))
      return fail();
    Type t = body->getType();
    if (!resultType || isa<IncompleteType>(resultType))
      resultType = t;
    else if (!areCompatible(resultType, t)) {
      emitError(open) << "the clauses of 'match' have different types: "
                      << resultType << " and " << t;
      return fail();
    }
    patterns.push_back(*pattern);
    if (!consumeIf(TokenKind::Comma) && !peek().is(TokenKind::RBrace)) {
      (void)expected("',' or '}' after a match clause");
      return fail();
    }
  }
  if (patterns.empty()) {
    emitError(start) << "a match needs at least one clause";
    return fail();
  }
  OperationState state(loc(start), MatchOp::getOperationName());
  state.addOperands(*scrutinee);
  state.addTypes(resultType ? resultType : IncompleteType::get(ctx));
  state.addAttribute(MatchOp::getPatternsAttrName(state.name),
                     builder.getArrayAttr(patterns));
  if (partial)
    state.addAttribute(MatchOp::getPartialAttrName(state.name),
                       builder.getUnitAttr());
  for (auto &r : regions)
    state.addRegion(std::move(r));
  return builder.create(state)->getResult(0);
}
