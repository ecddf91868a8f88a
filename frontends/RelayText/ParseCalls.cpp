//===- ParseCalls.cpp - Relay text calls ------------------------*- C++ -*-===//
//
// Calls: attribute values and their conversion to an operator's ODS
// attribute kinds, operators (typed by their relations), constructors,
// global functions and closures.
//
//===----------------------------------------------------------------------===//

#include "frontends/RelayText/Parser.h"

#include <sstream>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::text;
using namespace mlir::relay::text::detail;

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
    // meta[Kind][n]: kept as the index n for the attributes that name a
    // VirtualDevice (on_device's, device_copy's); others are dropped.
    consume();
    Token kind, index;
    for (Token *part : {&kind, &index}) {
      if (failed(expect(TokenKind::LBracket)))
        return failure();
      if (part == &index && !peek().is(TokenKind::Integer))
        return fail(expected("the index of a metadata entry"));
      *part = consume();
      if (failed(expect(TokenKind::RBracket)))
        return failure();
    }
    if (kind.text == "VirtualDevice" && !index.digits.getAsInteger(10, v.i)) {
      v.kind = AttrValue::Int;
      v.metaKind = "VirtualDevice";
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

/// The numbers of a (nested) list, in order.
static bool flattenNumbers(const AttrValue &v, SmallVectorImpl<double> &out) {
  if (v.kind == AttrValue::Int || v.kind == AttrValue::Float) {
    out.push_back(v.kind == AttrValue::Int ? double(v.i) : v.f);
    return true;
  }
  if (v.kind != AttrValue::List)
    return false;
  for (const AttrValue &e : v.list)
    if (!flattenNumbers(e, out))
      return false;
  return true;
}

/// The attributes a written value may stand for, most natural first: `1` is
/// an integer, a float, a bool or a one-element list depending on what the
/// operator declares; a string is a string or a dtype.
static SmallVector<Attribute> candidateAttrs(Builder &b, const AttrValue &v,
                                             Type dtype) {
  SmallVector<Attribute> out;
  switch (v.kind) {
  case AttrValue::Int:
    out.push_back(b.getI64IntegerAttr(v.i));
    out.push_back(b.getF64FloatAttr(v.f));
    out.push_back(b.getI32IntegerAttr(v.i));
    out.push_back(b.getF32FloatAttr(v.f));
    if (v.i == 0 || v.i == 1)
      out.push_back(b.getBoolAttr(v.i != 0));
    out.push_back(b.getDenseI64ArrayAttr({v.i}));
    out.push_back(b.getDenseF64ArrayAttr({v.f}));
    break;
  case AttrValue::Float:
    out.push_back(b.getF64FloatAttr(v.f));
    out.push_back(b.getF32FloatAttr(v.f));
    out.push_back(b.getDenseF64ArrayAttr({v.f}));
    break;
  case AttrValue::Bool:
    out.push_back(b.getBoolAttr(v.i != 0));
    out.push_back(b.getI64IntegerAttr(v.i));
    if (v.i)
      out.push_back(b.getUnitAttr());
    break;
  case AttrValue::String:
    out.push_back(b.getStringAttr(v.s));
    if (dtype)
      out.push_back(TypeAttr::get(dtype));
    break;
  case AttrValue::List: {
    SmallVector<int64_t> ints;
    if (flattenInts(v, ints))
      out.push_back(b.getDenseI64ArrayAttr(ints));
    SmallVector<double> numbers;
    if (flattenNumbers(v, numbers))
      out.push_back(b.getDenseF64ArrayAttr(numbers));
    break;
  }
  case AttrValue::None:
    break;
  }
  return out;
}

/// Whether `op` accepts `value` as its attribute `name`, by the attribute's
/// ODS constraint; `why` receives the constraint's message when not.
static bool acceptsAttr(RegisteredOperationName op, StringAttr name,
                        Attribute value, std::string *why = nullptr) {
  MLIRContext *ctx = name.getContext();
  std::string message;
  LogicalResult ok = success();
  {
    ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
      message = diag.str();
      return success();
    });
    NamedAttrList one;
    one.set(name, value);
    ok = op.verifyInherentAttrs(
        one, [&] { return emitError(UnknownLoc::get(ctx)); });
  }
  if (why)
    *why = message;
  return succeeded(ok);
}

/// What `op` accepts as its attribute `name`, in Relay-text words ("an
/// integer or a list of integers"), or the ODS constraint's summary.
static std::string describeExpected(Builder &b, RegisteredOperationName op,
                                    StringAttr name, StringRef odsMessage) {
  std::pair<Attribute, StringRef> probes[] = {
      {b.getI64IntegerAttr(0), "an integer"},
      {b.getF64FloatAttr(0), "a number"},
      {b.getBoolAttr(false), "True or False"},
      {b.getDenseI64ArrayAttr({}), "a list of integers"},
      {b.getDenseF64ArrayAttr({}), "a list of numbers"},
      {TypeAttr::get(b.getF32Type()), "a dtype string"},
      {b.getStringAttr(""), "a string"}};
  std::string kinds;
  for (auto &[probe, words] : probes)
    if (acceptsAttr(op, name, probe))
      kinds += (kinds.empty() ? "" : " or ") + words.str();
  if (!kinds.empty())
    return kinds;
  StringRef summary = odsMessage;
  size_t at = summary.find("constraint: ");
  return (at == StringRef::npos ? summary : summary.drop_front(at + 12)).str();
}

/// How a written value reads in a diagnostic.
static std::string describeValue(const AttrValue &v) {
  switch (v.kind) {
  case AttrValue::Int:
    return std::to_string(v.i);
  case AttrValue::Float: {
    std::ostringstream text;
    text << v.f;
    return text.str();
  }
  case AttrValue::Bool:
    return v.i ? "True" : "False";
  case AttrValue::String:
    return "\"" + v.s + "\"";
  case AttrValue::List:
    return "a list";
  case AttrValue::None:
    break;
  }
  return "None";
}

FailureOr<Attribute> Importer::convertAttr(RegisteredOperationName op,
                                           const Token &name,
                                           const AttrValue &value) {
  // `None` and TVM's metadata references other than the devices of
  // on_device and device_copy leave the attribute unset.
  if (value.kind == AttrValue::None ||
      (!value.metaKind.empty() && !name.text.ends_with("virtual_device")))
    return Attribute();
  // Each written value is tried as every attribute it may stand for, and the
  // operator's ODS constraint picks: the kind of an attribute is the one its
  // definition declares, not a list of names kept here.
  StringAttr attrName = StringAttr::get(ctx, name.text);
  Type dtype;
  if (value.kind == AttrValue::String && !value.s.empty())
    dtype = parseDtypeName(value.s);
  SmallVector<Attribute> candidates = candidateAttrs(builder, value, dtype);
  std::string firstWhy;
  for (Attribute candidate : candidates) {
    std::string why;
    if (acceptsAttr(op, attrName, candidate, &why))
      return candidate;
    if (firstWhy.empty())
      firstWhy = why;
  }
  bool wantsDtype =
      acceptsAttr(op, attrName, TypeAttr::get(builder.getF32Type()));
  // TVM writes `out_dtype=""` for "the input's dtype".
  if (value.kind == AttrValue::String && value.s.empty() && wantsDtype)
    return Attribute();
  if (value.kind == AttrValue::String && wantsDtype)
    return fail(emitError(name.loc) << "unknown dtype \"" << value.s << "\"");
  return fail(emitError(name.loc)
              << "attribute '" << name.text << "' of "
              << op.getStringRef().drop_front(6) << " expects "
              << describeExpected(builder, op, attrName, firstWhy) << ", got "
              << describeValue(value));
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
  // Every registry entry is an ODS op of the relay dialect (loaded).
  std::optional<RegisteredOperationName> registered =
      RegisteredOperationName::lookup(opName, ctx);
  if (!registered)
    return fail(emitError(at) << shortName << " is not a registered op");
  for (auto &[name, value] : attrs) {
    if (!llvm::is_contained(registered->getAttributeNames(),
                            StringAttr::get(ctx, name.text))) {
      InFlightDiagnostic diag = emitError(name.loc)
                                << shortName << " has no attribute '"
                                << name.text << "'";
      std::string known;
      for (StringAttr a : registered->getAttributeNames())
        known += (known.empty() ? "" : ", ") + a.str();
      if (known.empty())
        diag << " (it takes none)";
      else
        diag << " (its attributes: " << known << ")";
      return failure();
    }
    FailureOr<Attribute> converted = convertAttr(*registered, name, value);
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
