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

#include "frontends/RelayText/Importer.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayAttrs.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/TypeUtils.h"
#include "frontends/RelayText/Lexer.h"
#include "frontends/RelayText/Metadata.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::text;

/// A failed result from a diagnostic (or a failed LogicalResult), for
/// functions returning FailureOr.
static LogicalResult fail(LogicalResult result) { return result; }

namespace {

/// An attribute value as written in a call: `1`, `1.5`, `"NCHW"`, `True`,
/// `None`, `[1, 2]`, `(1, 2)`.
struct AttrValue {
  enum Kind { Int, Float, Bool, String, None, List } kind = None;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<AttrValue> list;
};

/// What an expression denotes before it is used as a value: operators,
/// constructors and globals are callable by name.
struct Expr {
  enum Kind { Value_, Operator, Constructor, Global } kind = Value_;
  Value value;
  std::string name; // full op name, constructor name, or global name
  llvm::SMLoc loc;
};

/// A definition of the prelude or of the program.
struct Definitions {
  llvm::StringMap<DataOp> datas;
  llvm::StringMap<CtorOp> ctors;
  llvm::StringSet<> funcs;
};

class Importer;

/// The prelude, parsed on first use into its own module.
class Prelude {
public:
  explicit Prelude(MLIRContext *ctx) : ctx(ctx) {}
  /// The prelude's definitions; null if it failed to parse.
  const Definitions *get();
  ModuleOp getModule() { return module.get(); }

private:
  MLIRContext *ctx;
  bool tried = false;
  OwningOpRef<ModuleOp> module;
  Definitions defs;
};

class Importer {
public:
  Importer(llvm::SourceMgr &sourceMgr, MLIRContext *ctx, ModuleOp module,
           Prelude *prelude)
      : sourceMgr(sourceMgr), ctx(ctx), module(module), builder(ctx),
        prelude(prelude) {}

  LogicalResult importBuffer(unsigned bufferId);
  const Definitions &getDefinitions() const { return defs; }
  /// Names of prelude definitions the program used.
  const llvm::StringSet<> &getPreludeUses() const { return preludeUses; }

private:
  //===--------------------------------------------------------------------===//
  // Tokens and diagnostics
  //===--------------------------------------------------------------------===//
  const Token &peek(unsigned k = 0) const {
    size_t i = std::min(index + k, tokens.size() - 1);
    return tokens[i];
  }
  Token consume() {
    Token t = peek();
    if (index < tokens.size() - 1)
      ++index;
    return t;
  }
  bool consumeIf(TokenKind kind) {
    if (!peek().is(kind))
      return false;
    consume();
    return true;
  }
  bool consumeKeyword(StringRef word) {
    if (!peek().isKeyword(word))
      return false;
    consume();
    return true;
  }
  Location loc(llvm::SMLoc at) {
    auto [line, col] = sourceMgr.getLineAndColumn(at, bufferId);
    return FileLineColLoc::get(ctx, bufferName, line, col);
  }
  Location loc(const Token &t) { return loc(t.loc); }
  InFlightDiagnostic emitError(llvm::SMLoc at) {
    return mlir::emitError(loc(at));
  }
  /// Reports "expected X, found Y" at the current token.
  LogicalResult expected(const Twine &what) {
    const Token &t = peek();
    InFlightDiagnostic diag = emitError(t.loc);
    if (t.is(TokenKind::Error)) {
      diag << t.value;
      return failure();
    }
    diag << "expected " << what << ", found ";
    if (t.is(TokenKind::Eof))
      diag << describe(t.kind);
    else
      diag << "'" << t.text << "'";
    return diag;
  }
  LogicalResult expect(TokenKind kind, const Twine &context = "") {
    if (consumeIf(kind))
      return success();
    if (context.isTriviallyEmpty())
      return expected(describe(kind));
    return expected(describe(kind) + " " + context);
  }

  //===--------------------------------------------------------------------===//
  // Scopes
  //===--------------------------------------------------------------------===//
  void pushScope() { scopes.emplace_back(); }
  void popScope() { scopes.pop_back(); }
  void bind(StringRef name, Value v) { scopes.back()[name] = v; }
  Value lookupLocal(StringRef name) {
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
      auto found = it->find(name);
      if (found != it->end())
        return found->second;
    }
    return Value();
  }
  TypeVarType lookupTypeVar(StringRef name) {
    for (auto it = typeScopes.rbegin(); it != typeScopes.rend(); ++it) {
      auto found = it->find(name);
      if (found != it->end())
        return found->second;
    }
    return TypeVarType();
  }
  DataOp lookupData(StringRef name);
  CtorOp lookupCtor(StringRef name);
  bool isGlobal(StringRef name);

  //===--------------------------------------------------------------------===//
  // Grammar
  //===--------------------------------------------------------------------===//
  LogicalResult lexAll(StringRef text);
  LogicalResult parseHeader();
  LogicalResult preScan();
  LogicalResult parseModule();
  LogicalResult parseExpressionProgram();
  LogicalResult parseTypeDef(bool external);
  LogicalResult parseDef();
  /// A parameter list and optional result type.
  struct Signature {
    SmallVector<std::pair<Token, Type>> params;
    std::optional<Type> result;
  };
  LogicalResult parseSignature(Signature &sig);
  LogicalResult skipBalanced();
  FailureOr<SmallVector<TypeVarType>> parseTypeParams();

  FailureOr<Type> parseType();
  FailureOr<Type> parseTensorType(llvm::SMLoc start);
  Type parseDtypeName(StringRef name);

  FailureOr<Value> parseExpr();
  FailureOr<Value> parseSequence();
  FailureOr<Value> parseBinary(int minPrec);
  FailureOr<Expr> parseUnary();
  FailureOr<Expr> parsePostfix();
  FailureOr<Expr> parseAtom();
  FailureOr<Value> parseBlock();
  FailureOr<Value> parseFn(StringRef selfName);
  FailureOr<Value> parseIf();
  FailureOr<Value> parseMatch(llvm::SMLoc start);
  FailureOr<Attribute> parsePattern(SmallVectorImpl<std::pair<Token, Type>> &);
  FailureOr<Value> parseNumber(bool negate, llvm::SMLoc start);
  FailureOr<Value> parseMeta(llvm::SMLoc start);
  FailureOr<AttrValue> parseAttrValue();
  FailureOr<Expr> parseCall(Expr callee);
  FailureOr<Value> parseRefOp(const Token &keyword);

  /// Turns an operator, constructor or global name into a value.
  FailureOr<Value> materialize(const Expr &e);
  FailureOr<Value> buildOperator(const std::string &opName, ValueRange args,
                                 ArrayRef<std::pair<Token, AttrValue>> attrs,
                                 llvm::SMLoc at);
  FailureOr<Value> buildConstruct(StringRef ctorName, ValueRange args,
                                  llvm::SMLoc at);
  Value buildBinary(TokenKind op, Value lhs, Value rhs, llvm::SMLoc at);
  Value buildConstant(DenseElementsAttr value, llvm::SMLoc at);
  FailureOr<Attribute> convertAttr(StringRef opName, const Token &name,
                                   const AttrValue &value);
  /// Gives `v` the annotated type `type` when its own is not known, or
  /// checks that the two agree.
  LogicalResult ascribe(Value v, Type type, llvm::SMLoc at);

  llvm::SourceMgr &sourceMgr;
  MLIRContext *ctx;
  ModuleOp module;
  OpBuilder builder;
  Prelude *prelude;
  unsigned bufferId = 0;
  StringRef bufferName;

  std::vector<Token> tokens;
  size_t index = 0;
  SmallVector<llvm::StringMap<Value>> scopes;
  SmallVector<llvm::StringMap<TypeVarType>> typeScopes;
  Definitions defs;
  /// Definitions seen by the pre-scan, with where they are.
  llvm::StringMap<llvm::SMLoc> defLocs, typeLocs, ctorLocs;
  llvm::StringSet<> preludeUses;
  MetaTable meta;
  bool haveMeta = false;
};

} // namespace

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
  auto done = llvm::make_scope_exit([&] { typeScopes.pop_back(); });
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
  // (%x, %y: T, %z {attrs}: T, attr=value) -> R: function attributes and
  // parameter attributes are accepted and dropped.
  if (failed(expect(TokenKind::LParen, "to open the parameters")))
    return failure();
  llvm::StringSet<> names;
  if (!consumeIf(TokenKind::RParen)) {
    do {
      if (peek().is(TokenKind::Identifier) && peek(1).is(TokenKind::Equal)) {
        consume();
        consume();
        if (failed(parseAttrValue()))
          return failure();
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
  auto popTypes = llvm::make_scope_exit([&] { typeScopes.pop_back(); });

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
// Types
//===----------------------------------------------------------------------===//

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
      return fail(emitError(dt.loc) << "unknown dtype '" << dt.text << "'");
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
    auto pop = llvm::make_scope_exit([&] { typeScopes.pop_back(); });
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
  return fail(emitError(name.loc) << "unknown type '" << name.text << "'");
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
  if (isa<IncompleteType>(current) && v.getDefiningOp() &&
      !isa<TupleGetOp, RefReadOp, ConstantOp>(v.getDefiningOp()))
    v.setType(type);
  else if (isa<IncompleteType>(current) && isa<BlockArgument>(v))
    v.setType(type);
  return success();
}

FailureOr<Value> Importer::parseExpr() {
  // The names an expression binds (let, graph bindings) are visible in its
  // own body only: `(let %x = 1; %x, %x)` does not bind the second %x.
  pushScope();
  FailureOr<Value> value = parseSequence();
  popScope();
  return value;
}

FailureOr<Value> Importer::parseSequence() {
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
    return parseSequence();
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
    return parseSequence();
  }
  FailureOr<Value> value = parseBinary(0);
  if (failed(value))
    return failure();
  // e1; e2
  if (consumeIf(TokenKind::Semicolon))
    return parseSequence();
  return value;
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
      if (!peek().is(TokenKind::Integer))
        return fail(expected("a field index after '.'"));
      Token idx = consume();
      int64_t i;
      if (idx.digits.getAsInteger(10, i) || !idx.suffix.empty())
        return fail(emitError(idx.loc) << "invalid field index " << idx.text);
      FailureOr<Value> tuple = materialize(*e);
      if (failed(tuple))
        return failure();
      Type type = tuple->getType();
      if (auto tt = dyn_cast<TupleType>(type)) {
        if (i >= static_cast<int64_t>(tt.size()))
          return fail(emitError(idx.loc) << "field index " << i
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
    if (!v)
      return fail(emitError(name.loc)
                  << "unknown variable %" << name.text
                  << " (not bound by a parameter, let or pattern in "
                     "scope)");
    e.value = v;
    return e;
  }
  case TokenKind::Global: {
    Token name = consume();
    if (!isGlobal(name.text))
      return fail(emitError(name.loc)
                  << "unknown global function @" << name.text);
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
  std::string opName = ("relay." + name.text).str();
  if (lookupOperator(opName)) {
    e.kind = Expr::Operator;
    e.name = opName;
    return e;
  }
  return fail(emitError(name.loc)
              << "unknown operator or constructor '" << name.text << "'");
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
  auto popTypes = llvm::make_scope_exit([&] { typeScopes.pop_back(); });
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
    self.setType(fnType);
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
  if (!ctor)
    return fail(emitError(name.loc)
                << "unknown constructor '" << name.text << "'");
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

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

FailureOr<AttrValue> Importer::parseAttrValue() {
  AttrValue v;
  const Token &t = peek();
  if (t.is(TokenKind::Minus) &&
      (peek(1).is(TokenKind::Integer) || peek(1).is(TokenKind::Float))) {
    consume();
    FailureOr<AttrValue> inner = parseAttrValue();
    if (failed(inner))
      return failure();
    inner->i = -inner->i;
    inner->f = -inner->f;
    return inner;
  }
  if (t.is(TokenKind::Integer)) {
    Token n = consume();
    v.kind = AttrValue::Int;
    if (n.digits.getAsInteger(10, v.i))
      return fail(emitError(n.loc) << "invalid integer " << n.text);
    v.f = static_cast<double>(v.i);
    return v;
  }
  if (t.is(TokenKind::Float)) {
    Token n = consume();
    v.kind = AttrValue::Float;
    if (n.digits.getAsDouble(v.f))
      return fail(emitError(n.loc) << "invalid float " << n.text);
    return v;
  }
  if (t.is(TokenKind::String)) {
    v.kind = AttrValue::String;
    v.s = consume().value;
    return v;
  }
  if (t.isKeyword("True") || t.isKeyword("False")) {
    v.kind = AttrValue::Bool;
    v.i = consume().text == "True";
    return v;
  }
  if (t.isKeyword("None")) {
    consume();
    return v;
  }
  if (t.isKeyword("meta")) {
    // meta[VirtualDevice][0] and friends: not representable, dropped.
    consume();
    for (int i = 0; i < 2; ++i) {
      if (failed(expect(TokenKind::LBracket)))
        return failure();
      consume();
      if (failed(expect(TokenKind::RBracket)))
        return failure();
    }
    return v;
  }
  if (t.is(TokenKind::LBracket) || t.is(TokenKind::LParen)) {
    TokenKind close =
        t.is(TokenKind::LBracket) ? TokenKind::RBracket : TokenKind::RParen;
    consume();
    v.kind = AttrValue::List;
    if (!consumeIf(close)) {
      do {
        if (peek().is(close))
          break;
        FailureOr<AttrValue> e = parseAttrValue();
        if (failed(e))
          return failure();
        v.list.push_back(std::move(*e));
      } while (consumeIf(TokenKind::Comma));
      if (failed(expect(close, "to close the list")))
        return failure();
    }
    return v;
  }
  if (t.is(TokenKind::Identifier)) {
    // A bare word, as some printers write enums.
    v.kind = AttrValue::String;
    v.s = consume().text.str();
    return v;
  }
  return fail(expected("an attribute value"));
}

/// Flattens nested integer lists ([[0, 0], [1, 1]] -> 0, 0, 1, 1).
static bool flattenInts(const AttrValue &v, SmallVectorImpl<int64_t> &out) {
  if (v.kind == AttrValue::Int) {
    out.push_back(v.i);
    return true;
  }
  if (v.kind != AttrValue::List)
    return false;
  for (const AttrValue &e : v.list)
    if (!flattenInts(e, out))
      return false;
  return true;
}

FailureOr<Attribute> Importer::convertAttr(StringRef opName, const Token &name,
                                           const AttrValue &value) {
  StringRef attr = name.text;
  if (value.kind == AttrValue::None)
    return Attribute();
  static const llvm::StringSet<> arrays = {
      "strides",     "padding",   "dilation",      "kernel_size", "pool_size",
      "output_size", "newshape",  "shape",         "axes",        "begin",
      "end",         "pad_width", "output_padding"};
  static const llvm::StringSet<> floats = {
      "a_min", "a_max", "alpha", "epsilon", "rate", "scale_h", "scale_w"};
  static const llvm::StringSet<> bools = {
      "keepdims",      "exclude",           "center",      "scale",
      "ceil_mode",     "count_include_pad", "transpose_a", "transpose_b",
      "align_corners", "select_last_index", "allowzero"};
  static const llvm::StringSet<> axisArrays = {
      "relay.sum",    "relay.mean",   "relay.max", "relay.min",
      "relay.prod",   "relay.all",    "relay.any", "relay.argmax",
      "relay.argmin", "relay.squeeze"};
  auto bad = [&](StringRef expectedKind) -> FailureOr<Attribute> {
    return fail(emitError(name.loc) << "attribute '" << attr << "' of "
                                    << StringRef(opName).drop_front(6)
                                    << " expects " << expectedKind);
  };
  bool isArray =
      arrays.contains(attr) ||
      (attr == "axis" && axisArrays.contains(opName)) ||
      (attr == "indices_or_sections" && value.kind == AttrValue::List);
  if (isArray) {
    SmallVector<int64_t> ints;
    if (!flattenInts(value, ints))
      return bad("integers");
    return Attribute(builder.getDenseI64ArrayAttr(ints));
  }
  if (floats.contains(attr)) {
    if (value.kind != AttrValue::Int && value.kind != AttrValue::Float)
      return bad("a number");
    return Attribute(builder.getF64FloatAttr(value.f));
  }
  if (bools.contains(attr)) {
    if (value.kind != AttrValue::Bool && value.kind != AttrValue::Int)
      return bad("True or False");
    return Attribute(builder.getBoolAttr(value.i != 0));
  }
  if (attr == "dtype" || attr == "out_dtype") {
    if (value.kind != AttrValue::String)
      return bad("a dtype string");
    if (value.s.empty())
      return Attribute();
    Type dtype = parseDtypeName(value.s);
    if (!dtype)
      return fail(emitError(name.loc) << "unknown dtype \"" << value.s << "\"");
    return Attribute(TypeAttr::get(dtype));
  }
  switch (value.kind) {
  case AttrValue::Int:
    return Attribute(builder.getI64IntegerAttr(value.i));
  case AttrValue::Float:
    return Attribute(builder.getF64FloatAttr(value.f));
  case AttrValue::Bool:
    return Attribute(builder.getBoolAttr(value.i != 0));
  case AttrValue::String:
    return Attribute(builder.getStringAttr(value.s));
  case AttrValue::List: {
    SmallVector<int64_t> ints;
    if (!flattenInts(value, ints))
      return bad("integers");
    return Attribute(builder.getDenseI64ArrayAttr(ints));
  }
  case AttrValue::None:
    break;
  }
  return Attribute();
}

FailureOr<Value>
Importer::buildOperator(const std::string &opName, ValueRange args,
                        ArrayRef<std::pair<Token, AttrValue>> attrs,
                        llvm::SMLoc at) {
  const OperatorInfo *info = lookupOperator(opName);
  StringRef shortName = StringRef(opName).drop_front(6);
  if (args.size() != info->numInputs)
    return fail(emitError(at) << shortName << " takes " << info->numInputs
                              << " arguments, got " << args.size());
  NamedAttrList list;
  std::optional<RegisteredOperationName> registered =
      RegisteredOperationName::lookup(opName, ctx);
  for (auto &[name, value] : attrs) {
    if (registered && !registered->getAttributeNames().empty() &&
        !llvm::is_contained(registered->getAttributeNames(),
                            StringAttr::get(ctx, name.text))) {
      InFlightDiagnostic diag = emitError(name.loc)
                                << shortName << " has no attribute '"
                                << name.text << "'";
      std::string known;
      for (StringAttr a : registered->getAttributeNames())
        known += (known.empty() ? "" : ", ") + a.str();
      diag << " (its attributes: " << known << ")";
      return failure();
    }
    FailureOr<Attribute> converted = convertAttr(opName, name, value);
    if (failed(converted))
      return failure();
    if (*converted)
      list.set(name.text, *converted);
  }
  DictionaryAttr dict = list.getDictionary(ctx);
  Type result = inferOperatorResultType(opName, args.getTypes(), dict);
  if (!result)
    result = IncompleteType::get(ctx);
  OperationState state(loc(at), opName);
  state.addOperands(args);
  state.addAttributes(list);
  state.addTypes(result);
  return builder.create(state)->getResult(0);
}

FailureOr<Value> Importer::buildConstruct(StringRef ctorName, ValueRange args,
                                          llvm::SMLoc at) {
  CtorOp ctor = lookupCtor(ctorName);
  SmallVector<Type> fields = ctor.getFieldTypes();
  if (fields.size() != args.size())
    return fail(emitError(at)
                << "constructor " << ctorName << " takes " << fields.size()
                << " fields, got " << args.size());
  // Monomorphic ADTs have a known type; otherwise inference finds it.
  DataOp data = ctor.getDataOp();
  Type result = data.getTypeParamList().empty()
                    ? Type(data.getSelfType())
                    : Type(IncompleteType::get(ctx));
  return Value(ConstructOp::create(builder, loc(at), result,
                                   ctor.getQualifiedName(), args));
}

FailureOr<Value> Importer::materialize(const Expr &e) {
  switch (e.kind) {
  case Expr::Value_:
    return e.value;
  case Expr::Constructor: {
    CtorOp ctor = lookupCtor(e.name);
    if (ctor.getFieldTypes().empty())
      return buildConstruct(e.name, {}, e.loc);
    break;
  }
  case Expr::Global: {
    Type type = IncompleteType::get(ctx);
    if (auto func = module.lookupSymbol<FuncOp>(e.name))
      type = func.getRelayType();
    return Value(GlobalRefOp::create(builder, loc(e.loc), type, e.name));
  }
  case Expr::Operator:
    break;
  }
  // An operator or constructor used as a value: eta-expand it into a
  // closure, `fn (%x, %y) { op(%x, %y) }`.
  unsigned arity = e.kind == Expr::Operator
                       ? lookupOperator(e.name)->numInputs
                       : lookupCtor(e.name).getFieldTypes().size();
  auto region = std::make_unique<Region>();
  Block *block = new Block();
  region->push_back(block);
  SmallVector<Type> inputs(arity, IncompleteType::get(ctx));
  for (unsigned i = 0; i < arity; ++i)
    block->addArgument(inputs[i], loc(e.loc));
  FailureOr<Value> body;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(block);
    body = e.kind == Expr::Operator
               ? buildOperator(e.name, block->getArguments(), {}, e.loc)
               : buildConstruct(e.name, block->getArguments(), e.loc);
    if (succeeded(body))
      ReturnOp::create(builder, loc(e.loc), *body);
  }
  if (failed(body))
    return failure();
  OperationState state(loc(e.loc), FnOp::getOperationName());
  state.addTypes(FuncType::get(ctx, inputs, body->getType()));
  state.addRegion(std::move(region));
  return builder.create(state)->getResult(0);
}

FailureOr<Expr> Importer::parseCall(Expr callee) {
  Token open = consume(); // (
  SmallVector<Value> args;
  SmallVector<std::pair<Token, AttrValue>> attrs;
  if (!consumeIf(TokenKind::RParen)) {
    do {
      if (peek().is(TokenKind::Identifier) && peek(1).is(TokenKind::Equal)) {
        Token name = consume();
        consume();
        FailureOr<AttrValue> v = parseAttrValue();
        if (failed(v))
          return failure();
        attrs.push_back({name, std::move(*v)});
        continue;
      }
      if (!attrs.empty())
        return fail(expected("an attribute (name=value): positional "
                             "arguments come before attributes"));
      FailureOr<Value> a = parseExpr();
      if (failed(a))
        return failure();
      args.push_back(*a);
    } while (consumeIf(TokenKind::Comma));
    if (failed(expect(TokenKind::RParen, "to close the call")))
      return failure();
  }
  Expr r;
  r.loc = callee.loc;
  FailureOr<Value> v;
  switch (callee.kind) {
  case Expr::Operator:
    v = buildOperator(callee.name, args, attrs, callee.loc);
    break;
  case Expr::Constructor:
    v = buildConstruct(callee.name, args, callee.loc);
    break;
  case Expr::Global: {
    // Call attributes of functions (TVM's Call attrs) are dropped.
    Type result = IncompleteType::get(ctx);
    if (auto func = module.lookupSymbol<FuncOp>(callee.name)) {
      if (func.getNumArguments() != args.size())
        return fail(emitError(open.loc)
                    << "@" << callee.name << " takes " << func.getNumArguments()
                    << " arguments, got " << args.size());
      if (!func.isPolymorphic())
        result = func.getReturnType();
    }
    v = Value(CallOp::create(builder, loc(callee.loc), result, callee.name,
                             args, /*type_args=*/nullptr, nullptr, nullptr));
    break;
  }
  case Expr::Value_: {
    Type calleeType = callee.value.getType();
    Type result = IncompleteType::get(ctx);
    if (auto fnType = dyn_cast<FuncType>(calleeType)) {
      if (fnType.getNumInputs() != args.size())
        return fail(emitError(open.loc)
                    << "the function takes " << fnType.getNumInputs()
                    << " arguments, got " << args.size());
      if (!fnType.isPolymorphic())
        result = fnType.getResult();
    } else if (!isa<IncompleteType, TypeVarType>(calleeType)) {
      return fail(emitError(open.loc)
                  << "cannot call a value of type " << calleeType);
    }
    v = Value(ApplyOp::create(builder, loc(callee.loc), result, callee.value,
                              args, nullptr, nullptr));
    break;
  }
  }
  if (failed(v))
    return failure();
  r.value = *v;
  return r;
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
  Prelude prelude(ctx);
  Importer importer(sourceMgr, ctx, *module,
                    options.prelude ? &prelude : nullptr);
  if (failed(importer.importBuffer(id)))
    return nullptr;
  if (!importer.getPreludeUses().empty() && prelude.getModule())
    copyPreludeUses(*module, prelude.getModule(), importer.getPreludeUses());
  if (failed(verify(*module)))
    return nullptr;
  return module;
}
