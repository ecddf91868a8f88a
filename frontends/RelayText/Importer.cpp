//===- Importer.cpp - Relay text to the relay dialect -----------*- C++ -*-===//
//
// A recursive-descent parser for TVM's Relay text format that builds relay
// dialect ops as it goes. Expressions map to SSA values: `let` and graph
// bindings (`%0 = ...;`) bind names in a scope stack (shadowing and block
// scoping are resolved here), `fn`, `if` and `match` become region ops, and
// a `let`-bound function that mentions its own name becomes a recursive
// `relay.fn rec(%self)`. Operators are looked up in the operator registry
// and their attributes converted to the ODS attribute kinds.
//
//===----------------------------------------------------------------------===//

#include "frontends/RelayText/Parser.h"
#include "support/BigStack.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::text;
using namespace mlir::relay::text::detail;

//===----------------------------------------------------------------------===//
// The prelude
//===----------------------------------------------------------------------===//

static const char preludeText[] =
#include "frontends/RelayText/Prelude.rly.inc"
    ;

StringRef mlir::relay::text::getPreludeText() { return preludeText; }

const Definitions *Prelude::get() {
  if (tried)
    return module ? &defs : nullptr;
  tried = true;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(getPreludeText(), "prelude.rly"),
      llvm::SMLoc());
  module = ModuleOp::create(FileLineColLoc::get(ctx, "prelude.rly", 1, 1));
  Importer importer(sourceMgr, ctx, *module, nullptr);
  if (failed(importer.importBuffer(sourceMgr.getMainFileID()))) {
    module = nullptr;
    return nullptr;
  }
  defs = importer.getDefinitions();
  return &defs;
}

DataOp Importer::lookupData(StringRef name) {
  if (DataOp data = defs.datas.lookup(name))
    return data;
  if (typeLocs.count(name) || !prelude)
    return DataOp();
  if (const Definitions *p = prelude->get())
    if (DataOp data = p->datas.lookup(name)) {
      preludeUses.insert(name);
      return data;
    }
  return DataOp();
}

CtorOp Importer::lookupCtor(StringRef name) {
  if (CtorOp ctor = defs.ctors.lookup(name))
    return ctor;
  if (ctorLocs.count(name) || !prelude)
    return CtorOp();
  if (const Definitions *p = prelude->get())
    if (CtorOp ctor = p->ctors.lookup(name)) {
      preludeUses.insert(ctor.getDataOp().getSymName());
      return ctor;
    }
  return CtorOp();
}

bool Importer::isGlobal(StringRef name) {
  if (defLocs.count(name))
    return true;
  if (!prelude)
    return false;
  if (const Definitions *p = prelude->get())
    if (p->funcs.contains(name)) {
      preludeUses.insert(name);
      return true;
    }
  return false;
}

//===----------------------------------------------------------------------===//
// Module structure
//===----------------------------------------------------------------------===//

LogicalResult Importer::lexAll(StringRef text) {
  Lexer lexer(text);
  for (;;) {
    Token t = lexer.next();
    tokens.push_back(t);
    if (t.is(TokenKind::Eof) || t.is(TokenKind::Error))
      break;
  }
  // An error token stays in the stream; the parser reports it when it gets
  // there (after the errors that come before it).
  if (!tokens.back().is(TokenKind::Eof)) {
    Token eof;
    eof.kind = TokenKind::Eof;
    eof.loc = tokens.back().loc;
    tokens.push_back(eof);
  }
  return success();
}

LogicalResult Importer::importBuffer(unsigned id) {
  bufferId = id;
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(id);
  bufferName = buffer->getBufferIdentifier();
  if (bufferName.empty() || bufferName == "<stdin>")
    bufferName = "-";
  StringRef text = buffer->getBuffer();

  // The metadata section is JSON, not Relay: cut it off first.
  // (It starts a line; the marker in a comment does not count.)
  size_t metaPos = 0;
  while ((metaPos = text.find("#[metadata]", metaPos)) != StringRef::npos &&
         metaPos != 0 && text[metaPos - 1] != '\n')
    ++metaPos;
  if (metaPos != StringRef::npos) {
    std::string error;
    FailureOr<MetaTable> table = parseMetadata(
        ctx, text.drop_front(metaPos + strlen("#[metadata]")), error);
    if (failed(table))
      return emitError(llvm::SMLoc::getFromPointer(text.data() + metaPos))
             << error;
    meta = std::move(*table);
    haveMeta = true;
    text = text.take_front(metaPos);
  }
  if (failed(lexAll(text)))
    return failure();

  builder.setInsertionPointToEnd(module.getBody());
  const Token &first = peek();
  bool isModule = first.is(TokenKind::Hash) || first.isKeyword("def") ||
                  first.isKeyword("type") || first.isKeyword("extern");
  if (isModule)
    return parseModule();
  return parseExpressionProgram();
}

LogicalResult Importer::parseHeader() {
  // #[version = "0.0.5"]
  llvm::SMLoc at = peek().loc;
  if (failed(expect(TokenKind::Hash)) || failed(expect(TokenKind::LBracket)))
    return failure();
  if (!consumeKeyword("version"))
    return expected("'version'");
  if (failed(expect(TokenKind::Equal)))
    return failure();
  if (!peek().is(TokenKind::String))
    return expected("a version string");
  Token version = consume();
  if (version.value != "0.0.5")
    return emitError(version.loc) << "unsupported Relay text version \""
                                  << version.value << "\" (expected \"0.0.5\")";
  if (failed(expect(TokenKind::RBracket)))
    return failure();
  (void)at;
  return success();
}

LogicalResult Importer::skipBalanced() {
  // Skips a `{ ... }` group starting at the current token.
  llvm::SMLoc open = peek().loc;
  if (failed(expect(TokenKind::LBrace)))
    return failure();
  int depth = 1;
  while (depth > 0) {
    const Token &t = peek();
    if (t.is(TokenKind::Eof))
      return emitError(open) << "unclosed '{': no matching '}' before the "
                                "end of the input";
    if (t.is(TokenKind::Error))
      return expected("a token");
    if (t.is(TokenKind::LBrace))
      ++depth;
    else if (t.is(TokenKind::RBrace))
      --depth;
    consume();
  }
  return success();
}

LogicalResult Importer::preScan() {
  // Collect the names of definitions, types and constructors so that uses
  // may come before definitions.
  int depth = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token &t = tokens[i];
    if (t.is(TokenKind::LBrace) || t.is(TokenKind::LParen) ||
        t.is(TokenKind::LBracket))
      ++depth;
    else if (t.is(TokenKind::RBrace) || t.is(TokenKind::RParen) ||
             t.is(TokenKind::RBracket))
      --depth;
    if (depth != 0 || i + 1 >= tokens.size())
      continue;
    if (t.isKeyword("def") && tokens[i + 1].is(TokenKind::Global)) {
      const Token &name = tokens[i + 1];
      auto [it, inserted] = defLocs.try_emplace(name.text, name.loc);
      if (!inserted) {
        emitError(name.loc) << "duplicate definition of @" << name.text;
        mlir::emitRemark(loc(it->second))
            << "@" << name.text << " is first defined here";
        return failure();
      }
    } else if (t.isKeyword("type") && tokens[i + 1].is(TokenKind::Identifier)) {
      const Token &name = tokens[i + 1];
      auto [it, inserted] = typeLocs.try_emplace(name.text, name.loc);
      if (!inserted) {
        emitError(name.loc) << "duplicate definition of type " << name.text;
        mlir::emitRemark(loc(it->second))
            << "type " << name.text << " is first defined here";
        return failure();
      }
      // Constructors: identifiers at depth 1 of the braces that follow.
      size_t j = i + 2;
      while (j < tokens.size() && !tokens[j].is(TokenKind::LBrace) &&
             !tokens[j].is(TokenKind::Eof))
        ++j;
      int inner = 0;
      bool expectName = true;
      for (; j < tokens.size() && !tokens[j].is(TokenKind::Eof); ++j) {
        const Token &c = tokens[j];
        if (c.is(TokenKind::LBrace) || c.is(TokenKind::LParen) ||
            c.is(TokenKind::LBracket)) {
          ++inner;
          continue;
        }
        if (c.is(TokenKind::RBrace) || c.is(TokenKind::RParen) ||
            c.is(TokenKind::RBracket)) {
          if (--inner == 0)
            break;
          continue;
        }
        if (inner == 1 && c.is(TokenKind::Comma)) {
          expectName = true;
          continue;
        }
        if (inner == 1 && expectName && c.is(TokenKind::Identifier)) {
          expectName = false;
          auto [cit, fresh] = ctorLocs.try_emplace(c.text, c.loc);
          if (!fresh) {
            emitError(c.loc) << "duplicate constructor " << c.text;
            mlir::emitRemark(loc(cit->second))
                << "constructor " << c.text << " is first defined here";
            return failure();
          }
        }
      }
    }
  }
  // Constructors and types share one namespace in Relay text.
  for (auto &ctor : ctorLocs) {
    auto type = typeLocs.find(ctor.getKey());
    if (type == typeLocs.end())
      continue;
    emitError(ctor.getValue())
        << "constructor " << ctor.getKey() << " has the name of a type";
    mlir::emitRemark(loc(type->getValue()))
        << "type " << ctor.getKey() << " is defined here";
    return failure();
  }
  return success();
}

LogicalResult Importer::parseModule() {
  if (peek().is(TokenKind::Hash) && failed(parseHeader()))
    return failure();
  // A header followed by an expression (as tvm.relay.fromtext accepts).
  if (!peek().is(TokenKind::Eof) && !peek().isKeyword("def") &&
      !peek().isKeyword("type") && !peek().isKeyword("extern"))
    return parseExpressionProgram();
  size_t bodyStart = index;
  if (failed(preScan()))
    return failure();
  // Types first (functions use them), then functions.
  for (int pass = 0; pass < 2; ++pass) {
    index = bodyStart;
    while (!peek().is(TokenKind::Eof)) {
      if (peek().isKeyword("type") || peek().isKeyword("extern")) {
        bool external = consumeKeyword("extern");
        if (pass == 1) {
          // Already imported: skip the definition.
          consume(); // type
          while (!peek().is(TokenKind::LBrace) && !peek().is(TokenKind::Eof) &&
                 !peek().isKeyword("def") && !peek().isKeyword("type") &&
                 !peek().isKeyword("extern"))
            consume();
          if (peek().is(TokenKind::LBrace) && failed(skipBalanced()))
            return failure();
          continue;
        }
        if (failed(parseTypeDef(external)))
          return failure();
        continue;
      }
      if (peek().isKeyword("def")) {
        if (pass == 0) {
          // Skip the signature (whose parameters may carry `{...}`
          // attributes) to the body at bracket depth 0, then the body.
          consume();
          int depth = 0;
          while (!peek().is(TokenKind::Eof) &&
                 !(depth == 0 && peek().is(TokenKind::LBrace))) {
            TokenKind k = consume().kind;
            if (k == TokenKind::LParen || k == TokenKind::LBracket ||
                k == TokenKind::LBrace)
              ++depth;
            else if (k == TokenKind::RParen || k == TokenKind::RBracket ||
                     k == TokenKind::RBrace)
              --depth;
          }
          if (failed(skipBalanced()))
            return failure();
          continue;
        }
        if (failed(parseDef()))
          return failure();
        continue;
      }
      return expected("'def', 'type' or 'extern type' at the top level");
    }
  }
  return success();
}

LogicalResult Importer::parseExpressionProgram() {
  // free_var %x: T; ... expr  ==>  relay.func @main(%x: T, ...) { expr }
  llvm::SMLoc start = peek().loc;
  if (failed(preScan()))
    return failure();
  SmallVector<std::pair<Token, Type>> freeVars;
  while (peek().isKeyword("free_var")) {
    consume();
    if (!peek().is(TokenKind::Local))
      return expected("a local variable after 'free_var'");
    Token name = consume();
    Type type = IncompleteType::get(ctx);
    if (consumeIf(TokenKind::Colon)) {
      FailureOr<Type> t = parseType();
      if (failed(t))
        return failure();
      type = *t;
    }
    if (failed(expect(TokenKind::Semicolon, "after the free_var declaration")))
      return failure();
    freeVars.push_back({name, type});
  }
  SmallVector<Type> inputs;
  for (auto &[tok, type] : freeVars)
    inputs.push_back(type);
  auto func = FuncOp::create(builder, loc(start), "main", inputs,
                             IncompleteType::get(ctx));
  Block &entry = func.getBody().front();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&entry);
  scopes.clear();
  pushScope();
  for (auto [arg, fv] : llvm::zip(entry.getArguments(), freeVars)) {
    arg.setLoc(
        NameLoc::get(StringAttr::get(ctx, fv.first.text), loc(fv.first)));
    bind(fv.first.text, arg);
  }
  FailureOr<Value> body = parseExpr();
  if (failed(body))
    return failure();
  if (!peek().is(TokenKind::Eof))
    return expected("the end of the expression");
  ReturnOp::create(builder, loc(start), *body);
  func.setFunctionTypeAttr(
      TypeAttr::get(FunctionType::get(ctx, inputs, {body->getType()})));
  popScope();
  return success();
}

FailureOr<SmallVector<TypeVarType>> Importer::parseTypeParams() {
  // [A, B, s : Shape]  (the caller has seen '[')
  SmallVector<TypeVarType> params;
  llvm::StringSet<> seen;
  if (consumeIf(TokenKind::RBracket))
    return params;
  do {
    if (!peek().is(TokenKind::Identifier))
      return fail(expected("a type parameter name"));
    Token name = consume();
    if (!seen.insert(name.text).second)
      return fail(emitError(name.loc)
                  << "duplicate type parameter " << name.text);
    TypeKind kind = TypeKind::Type;
    if (consumeIf(TokenKind::Colon)) {
      if (!peek().is(TokenKind::Identifier))
        return fail(expected("a kind (Type, Shape, BaseType)"));
      Token k = consume();
      std::optional<TypeKind> parsed =
          llvm::StringSwitch<std::optional<TypeKind>>(k.text)
              .Case("Type", TypeKind::Type)
              .Case("Shape", TypeKind::Shape)
              .Case("BaseType", TypeKind::BaseType)
              .Case("ShapeVar", TypeKind::ShapeVar)
              .Default(std::nullopt);
      if (!parsed)
        return fail(emitError(k.loc)
                    << "unknown kind '" << k.text
                    << "' (expected Type, Shape, BaseType or ShapeVar)");
      kind = *parsed;
    }
    params.push_back(TypeVarType::get(ctx, name.text, kind));
  } while (consumeIf(TokenKind::Comma));
  if (failed(expect(TokenKind::RBracket, "to close the type parameters")))
    return failure();
  return params;
}

LogicalResult Importer::parseTypeDef(bool external) {
  Token kw = consume(); // type
  if (!peek().is(TokenKind::Identifier))
    return expected("a type name after 'type'");
  Token name = consume();
  SmallVector<TypeVarType> params;
  if (consumeIf(TokenKind::LBracket)) {
    FailureOr<SmallVector<TypeVarType>> p = parseTypeParams();
    if (failed(p))
      return failure();
    params = std::move(*p);
  }
  auto data = DataOp::create(builder, loc(kw), name.text, params, external);
  defs.datas[name.text] = data;
  if (external)
    return success();
  typeScopes.emplace_back();
  for (TypeVarType p : params)
    typeScopes.back()[p.getName()] = p;
  auto done = llvm::scope_exit([&] { typeScopes.pop_back(); });
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&data.getBody().front());
  if (failed(expect(TokenKind::LBrace,
                    "to open the constructors of " + name.text)))
    return failure();
  while (!consumeIf(TokenKind::RBrace)) {
    if (!peek().is(TokenKind::Identifier))
      return expected("a constructor name or '}'");
    Token ctor = consume();
    SmallVector<Attribute> fields;
    if (consumeIf(TokenKind::LParen) && !consumeIf(TokenKind::RParen)) {
      do {
        FailureOr<Type> t = parseType();
        if (failed(t))
          return failure();
        fields.push_back(TypeAttr::get(*t));
      } while (consumeIf(TokenKind::Comma));
      if (failed(
              expect(TokenKind::RParen, "to close the fields of " + ctor.text)))
        return failure();
    }
    defs.ctors[ctor.text] = CtorOp::create(builder, loc(ctor), ctor.text,
                                           builder.getArrayAttr(fields));
    if (!consumeIf(TokenKind::Comma) && !peek().is(TokenKind::RBrace))
      return expected("',' or '}' after a constructor");
  }
  return success();
}

LogicalResult Importer::parseSignature(Signature &sig) {
  // (%x, %y: T, %z {attrs}: T, attr=value) -> R: parameter attributes and
  // function attributes other than Primitive are accepted and dropped.
  if (failed(expect(TokenKind::LParen, "to open the parameters")))
    return failure();
  llvm::StringSet<> names;
  if (!consumeIf(TokenKind::RParen)) {
    do {
      if (peek().is(TokenKind::Identifier) && peek(1).is(TokenKind::Equal)) {
        Token key = consume();
        consume();
        FailureOr<AttrValue> value = parseAttrValue();
        if (failed(value))
          return failure();
        if (key.text == "Primitive")
          sig.primitive = value->kind == AttrValue::Int && value->i != 0;
        continue;
      }
      if (!peek().is(TokenKind::Local))
        return expected("a parameter (%name)");
      Token p = consume();
      if (!names.insert(p.text).second)
        return emitError(p.loc) << "duplicate parameter %" << p.text;
      if (peek().is(TokenKind::LBrace) && failed(skipBalanced()))
        return failure();
      Type type = IncompleteType::get(ctx);
      if (consumeIf(TokenKind::Colon)) {
        FailureOr<Type> t = parseType();
        if (failed(t))
          return failure();
        type = *t;
      }
      sig.params.push_back({p, type});
    } while (consumeIf(TokenKind::Comma));
    if (failed(expect(TokenKind::RParen, "to close the parameters")))
      return failure();
  }
  if (consumeIf(TokenKind::Arrow)) {
    FailureOr<Type> t = parseType();
    if (failed(t))
      return failure();
    sig.result = *t;
  }
  return success();
}

LogicalResult Importer::parseDef() {
  Token kw = consume(); // def
  if (!peek().is(TokenKind::Global))
    return expected("a global name (@name) after 'def'");
  Token name = consume();
  SmallVector<TypeVarType> typeParams;
  if (consumeIf(TokenKind::LBracket)) {
    FailureOr<SmallVector<TypeVarType>> p = parseTypeParams();
    if (failed(p))
      return failure();
    typeParams = std::move(*p);
  }
  typeScopes.emplace_back();
  for (TypeVarType p : typeParams)
    typeScopes.back()[p.getName()] = p;
  auto popTypes = llvm::scope_exit([&] { typeScopes.pop_back(); });

  Signature sig;
  if (failed(parseSignature(sig)))
    return failure();
  auto &params = sig.params;
  std::optional<Type> declaredResult = sig.result;
  SmallVector<Type> inputs;
  for (auto &[tok, type] : params)
    inputs.push_back(type);
  auto func = FuncOp::create(
      builder, loc(kw), name.text, inputs,
      declaredResult ? *declaredResult : IncompleteType::get(ctx), typeParams);
  if (sig.primitive)
    setPrimitiveFunction(func);
  defs.funcs.insert(name.text);
  Block &entry = func.getBody().front();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&entry);
  // A global function sees only globals and its parameters.
  SmallVector<llvm::StringMap<Value>> outer = std::move(scopes);
  scopes.clear();
  pushScope();
  for (auto [arg, param] : llvm::zip(entry.getArguments(), params)) {
    arg.setLoc(
        NameLoc::get(StringAttr::get(ctx, param.first.text), loc(param.first)));
    bind(param.first.text, arg);
  }
  llvm::SMLoc open = peek().loc;
  if (failed(expect(TokenKind::LBrace, "to open the body of @" + name.text)))
    return failure();
  FailureOr<Value> body = parseExpr();
  if (failed(body))
    return failure();
  if (!consumeIf(TokenKind::RBrace)) {
    if (peek().is(TokenKind::Eof))
      return emitError(open) << "unclosed '{': the body of @" << name.text
                             << " has no matching '}'";
    return expected("'}' to close the body of @" + name.text);
  }
  Value result = *body;
  if (declaredResult && failed(ascribe(result, *declaredResult, name.loc)))
    return failure();
  ReturnOp::create(builder, loc(open), result);
  Type resultType = declaredResult ? *declaredResult : result.getType();
  func.setFunctionTypeAttr(
      TypeAttr::get(FunctionType::get(ctx, inputs, {resultType})));
  scopes = std::move(outer);
  return success();
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

/// Copies the prelude definitions `uses` names (and what they use) into
/// `module`.
static void copyPreludeUses(ModuleOp module, ModuleOp preludeModule,
                            const llvm::StringSet<> &uses) {
  SmallVector<std::string> worklist;
  for (const auto &u : uses)
    worklist.push_back(u.getKey().str());
  llvm::StringSet<> copied;
  OpBuilder builder(module.getContext());
  while (!worklist.empty()) {
    std::string name = worklist.pop_back_val();
    if (!copied.insert(name).second || module.lookupSymbol(name))
      continue;
    Operation *def = preludeModule.lookupSymbol(name);
    if (!def)
      continue;
    // ADTs go first, as in the prelude.
    if (isa<DataOp>(def))
      builder.setInsertionPointToStart(module.getBody());
    else
      builder.setInsertionPointToEnd(module.getBody());
    Operation *copy = builder.clone(*def);
    // What the copy refers to.
    copy->walk([&](Operation *op) {
      if (auto call = dyn_cast<CallOp>(op))
        worklist.push_back(call.getCallee().str());
      else if (auto ref = dyn_cast<GlobalRefOp>(op))
        worklist.push_back(ref.getName().str());
      else if (auto c = dyn_cast<ConstructOp>(op))
        worklist.push_back(c.getConstructor().getRootReference().str());
      auto noteTypes = [&](Type t) {
        t.walk([&](AdtType adt) { worklist.push_back(adt.getName().str()); });
      };
      for (Type t : op->getResultTypes())
        noteTypes(t);
      for (Region &r : op->getRegions())
        for (Block &b : r)
          for (BlockArgument a : b.getArguments())
            noteTypes(a.getType());
      if (auto func = dyn_cast<FuncOp>(op))
        noteTypes(func.getRelayType());
      if (auto ctor = dyn_cast<CtorOp>(op))
        for (Type t : ctor.getFieldTypes())
          noteTypes(t);
      if (auto match = dyn_cast<MatchOp>(op))
        for (Attribute p : match.getPatterns())
          p.walk([&](PatternCtorAttr c) {
            worklist.push_back(c.getConstructor().getRootReference().str());
          });
    });
  }
}

OwningOpRef<ModuleOp>
mlir::relay::text::importRelayText(llvm::SourceMgr &sourceMgr, MLIRContext *ctx,
                                   const ImportOptions &options) {
  ctx->loadDialect<RelayDialect>();
  unsigned id = sourceMgr.getMainFileID();
  StringRef name = sourceMgr.getMemoryBuffer(id)->getBufferIdentifier();
  OwningOpRef<ModuleOp> module =
      ModuleOp::create(FileLineColLoc::get(ctx, name, 1, 1));
  // The parser recurses once per level of nesting (up to kMaxNesting): on
  // the large stack, a small `ulimit -s` cannot make that a crash.
  bool imported = false;
  std::string overflow =
      (Twine(name) + ": error: the Relay text nests deeper than the " +
       Twine(bigStackSize() >> 20) +
       " MiB stack allows (RELAY_STACK_MIB sets its size)\n")
          .str();
  runOnBigStack(
      [&] {
        Prelude prelude(ctx);
        Importer importer(sourceMgr, ctx, *module,
                          options.prelude ? &prelude : nullptr);
        if (failed(importer.importBuffer(id)))
          return;
        if (!importer.getPreludeUses().empty() && prelude.getModule())
          copyPreludeUses(*module, prelude.getModule(),
                          importer.getPreludeUses());
        imported = succeeded(verify(*module));
      },
      overflow);
  if (!imported)
    return nullptr;
  return module;
}
