//===- ParseCalls.cpp - Relay text calls ------------------------*- C++ -*-===//
//
// Calls: attribute values and their conversion to an operator's ODS
// attribute kinds, operators (typed by their relations), constructors,
// global functions and closures.
//
//===----------------------------------------------------------------------===//

#include "frontends/RelayText/Parser.h"

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

FailureOr<Attribute> Importer::convertAttr(StringRef opName, const Token &name,
                                           const AttrValue &value) {
  StringRef attr = name.text;
  if (value.kind == AttrValue::None)
    return Attribute();
  static const llvm::StringSet<> arrays = {
      "strides",     "padding",   "dilation",      "kernel_size", "pool_size",
      "output_size", "newshape",  "shape",         "axes",        "begin",
      "end",         "pad_width", "output_padding"};
  static const llvm::StringSet<> floats = {"a_min",   "a_max",   "alpha",
                                           "epsilon", "rate",    "scale_d",
                                           "scale_h", "scale_w", "threshold"};
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
  // nn.correlation's kernel_size is one odd number.
  bool isArray =
      (arrays.contains(attr) &&
       !(attr == "kernel_size" && opName == "relay.nn.correlation")) ||
      (attr == "axis" && axisArrays.contains(opName)) ||
      (attr == "indices_or_sections" && value.kind == AttrValue::List);
  if (isArray) {
    SmallVector<int64_t> ints;
    if (!flattenInts(value, ints))
      return bad("integers");
    return Attribute(builder.getDenseI64ArrayAttr(ints));
  }
  // image.resize2d's crop (start_h, start_w, end_h, end_w) and
  // vision.multibox_prior's and multibox_transform_loc's lists.
  static const llvm::StringSet<> floatArrays = {
      "roi", "sizes", "ratios", "steps", "offsets", "variances"};
  if (floatArrays.contains(attr)) {
    SmallVector<double> numbers;
    if (!flattenNumbers(value, numbers))
      return bad("numbers");
    return Attribute(builder.getDenseF64ArrayAttr(numbers));
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
