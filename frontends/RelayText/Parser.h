//===- Parser.h - The Relay text parser's state ---------------*- C++ -*-===//
//
// Internal to the Relay text importer: the parser class and the values it
// passes around. Its methods are spread over Importer.cpp (modules,
// definitions, the prelude), ParseTypes.cpp, ParseExpressions.cpp (let,
// sequences, operators' precedence, fn, if, match) and ParseCalls.cpp
// (calls of operators, constructors, globals and closures, with their
// attributes).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_FRONTENDS_RELAYTEXT_PARSER_H
#define RELAY_MLIR_FRONTENDS_RELAYTEXT_PARSER_H

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

namespace mlir::relay::text::detail {

/// A failed result from a diagnostic (or a failed LogicalResult), for
/// functions returning FailureOr.
inline LogicalResult fail(LogicalResult result) { return result; }

/// An attribute value as written in a call: `1`, `1.5`, `"NCHW"`, `True`,
/// `None`, `[1, 2]`, `(1, 2)`.
struct AttrValue {
  enum Kind { Int, Float, Bool, String, None, List } kind = None;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<AttrValue> list;
  /// For `meta[VirtualDevice][n]` (an Int n): the table it indexes.
  std::string metaKind;
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

/// The name offered that is nearest to an unknown `name` by edit distance,
/// where a typo could explain the difference (at most 2 edits, fewer than
/// a third of the name).
class NearestName {
public:
  explicit NearestName(StringRef name)
      : name(name), best(std::min<size_t>(3, (name.size() + 2) / 3)) {}
  void offer(StringRef candidate) {
    unsigned distance = name.edit_distance(
        candidate, /*AllowReplacements=*/true, /*MaxEditDistance=*/best);
    if (distance < best) {
      best = distance;
      nearest = candidate.str();
    }
  }
  /// Offers every key of a StringMap or StringSet.
  template <typename Map> void offerKeys(const Map &names) {
    for (const auto &entry : names)
      offer(entry.getKey());
  }
  /// "; did you mean 'x'?", or nothing when no name was near.
  std::string suggestion(StringRef prefix = "") const {
    if (nearest.empty())
      return "";
    return ("; did you mean '" + prefix + nearest + "'?").str();
  }

private:
  StringRef name;
  unsigned best;
  std::string nearest;
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
    // The paper's `%r := v` is not Relay text.
    if (t.is(TokenKind::Colon) && peek(1).is(TokenKind::Equal) &&
        peek(1).loc.getPointer() == t.loc.getPointer() + 1)
      diag.attachNote(loc(t))
          << "Relay text writes a reference with ref_write(%r, %v)";
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
  /// The prelude's definitions, or null (no prelude, or it failed to parse).
  const Definitions *preludeDefinitions() {
    return prelude ? prelude->get() : nullptr;
  }
  /// The constructors the program may name (its own, the prelude's), for
  /// the suggestions of an unknown name's error.
  SmallVector<StringRef> constructorNames();
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
    /// TVM's `Primitive=1`: a kernel --relay-fuse-ops made.
    bool primitive = false;
  };
  LogicalResult parseSignature(Signature &sig);
  LogicalResult skipBalanced();
  FailureOr<SmallVector<TypeVarType>> parseTypeParams();

  FailureOr<Type> parseType();
  FailureOr<Type> parseTensorType(llvm::SMLoc start);
  Type parseDtypeName(StringRef name);
  /// "; did you mean 'X'?" for an unknown type or dtype `name`, naming the
  /// one a typo explains (dtypes and type variables; unless `onlyDtypes`,
  /// Tensor, Ref, fn and ADTs too), or "".
  std::string nearestType(StringRef name, bool onlyDtypes);

  FailureOr<Value> parseExpr();
  /// Expressions nested in one another at most (each level is a few frames
  /// of the parser's recursion; far deeper ones would overflow the stack).
  static constexpr unsigned kMaxNesting = 1000;
  /// The expressions being parsed, nested.
  unsigned nesting = 0;
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
  FailureOr<Attribute> convertAttr(RegisteredOperationName op,
                                   const Token &name, const AttrValue &value);
  /// Gives `v` the annotated type `type` when its own is not known, or
  /// checks that the two agree.
  LogicalResult ascribe(Value v, Type type, llvm::SMLoc at);
  /// Gives `v`, of a type not known yet, `type`, and the users whose types
  /// follow from it theirs.
  void refineType(Value v, Type type);

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

} // namespace mlir::relay::text::detail

#endif // RELAY_MLIR_FRONTENDS_RELAYTEXT_PARSER_H
