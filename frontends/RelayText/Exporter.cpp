//===- Exporter.cpp - The relay dialect to Relay text -----------*- C++ -*-===//

#include "frontends/RelayText/Exporter.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayAttrs.h"
#include "dialects/relay/RelayOps.h"
#include "frontends/RelayText/Metadata.h"
#include "support/DecomposedFrom.h"

#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::text;

/// A failed result from a diagnostic (or a failed LogicalResult), for
/// functions returning FailureOr.
static LogicalResult fail(LogicalResult result) { return result; }

namespace {

class Exporter {
public:
  explicit Exporter(raw_ostream &os) : os(os) {}

  LogicalResult exportModule(ModuleOp module);

private:
  LogicalResult printData(DataOp data);
  LogicalResult printFunc(FuncOp func);

  // Types.
  FailureOr<std::string> type(Type t, Operation *at);
  FailureOr<std::string> dtype(Type t, Operation *at);

  // Names and expressions.
  std::string freshName(StringRef hint);
  std::string nameFor(Value v, StringRef fallback);
  /// Prints the ops of `block` as bindings and returns the expression of
  /// `result` (the block's value), at `indent`.
  FailureOr<std::string> printBlock(Block &block, Value result,
                                    unsigned indent);
  FailureOr<std::string> expr(Value v, unsigned indent);
  FailureOr<std::string> opExpr(Operation *op, unsigned indent);
  FailureOr<std::string> attrValue(StringRef name, Attribute a, Operation *op);
  FailureOr<std::string> constant(DenseElementsAttr value, Operation *op);
  FailureOr<std::string> pattern(Attribute p,
                                 Block::BlockArgListType::iterator &arg);
  FailureOr<std::string> fnExpr(FnOp fn, unsigned indent);
  FailureOr<std::string> args(ValueRange values, unsigned indent);

  raw_ostream &os;
  /// Names of bound values in the current function.
  DenseMap<Value, std::string> names;
  llvm::StringSet<> usedNames;
  unsigned graphCounter = 0;
  /// Output under construction for the current block.
  std::string *out = nullptr;
  std::vector<DenseElementsAttr> metadata;
};

} // namespace

static std::string indentStr(unsigned n) { return std::string(n, ' '); }

/// The shortest decimal text that reads back as `value` (an attribute's
/// double, 0.3 rather than 0.29999999999999999), with a point or exponent.
static std::string floatText(const APFloat &value) {
  // At least the integer part's digits: toString(10, 1 digit) would give
  // 1.0E+1.
  unsigned least = 1;
  APFloat magnitude = abs(value);
  for (APFloat ten(value.getSemantics(), 10);
       least < 17 && value.isFinite() &&
       magnitude.compare(ten) != APFloat::cmpLessThan;
       ++least)
    (void)ten.multiply(APFloat(value.getSemantics(), 10),
                       APFloat::rmNearestTiesToEven);
  std::string text;
  for (unsigned digits = least; digits <= 17; ++digits) {
    SmallString<32> s;
    value.toString(s, digits, 8);
    text = std::string(s);
    APFloat back(value.getSemantics());
    auto status = back.convertFromString(text, APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      continue;
    }
    if (back.bitwiseIsEqual(value))
      break;
  }
  if (text.find_first_of(".eE") == std::string::npos)
    text += ".0";
  return text;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// `[A, s : Shape]`, or nothing for no parameters.
static std::string typeParamsStr(ArrayRef<TypeVarType> params) {
  if (params.empty())
    return "";
  std::string s = "[";
  for (auto [i, p] : llvm::enumerate(params)) {
    s += (i ? ", " : "") + p.getName().str();
    if (p.getKind() != TypeKind::Type)
      s += " : " + stringifyTypeKind(p.getKind()).str();
  }
  return s + "]";
}

FailureOr<std::string> Exporter::dtype(Type t, Operation *at) {
  if (auto vec = dyn_cast<VectorType>(t)) {
    if (vec.getRank() != 1)
      return fail(at->emitError("cannot export vector dtype ") << t);
    FailureOr<std::string> e = dtype(vec.getElementType(), at);
    if (failed(e))
      return failure();
    return *e + "x" + std::to_string(vec.getDimSize(0));
  }
  if (auto i = dyn_cast<IntegerType>(t)) {
    if (i.getWidth() == 1)
      return std::string("bool");
    return (i.isUnsigned() ? "uint" : "int") + std::to_string(i.getWidth());
  }
  if (t.isF16())
    return std::string("float16");
  if (t.isF32())
    return std::string("float32");
  if (t.isF64())
    return std::string("float64");
  if (t.isBF16())
    return std::string("bfloat16");
  if (auto var = dyn_cast<TypeVarType>(t))
    return var.getName().str();
  return fail(at->emitError("cannot export element type ")
              << t << " to Relay text");
}

FailureOr<std::string> Exporter::type(Type t, Operation *at) {
  auto list = [&](ArrayRef<Type> types) -> FailureOr<std::string> {
    std::string s;
    for (auto [i, e] : llvm::enumerate(types)) {
      FailureOr<std::string> p = type(e, at);
      if (failed(p))
        return failure();
      s += (i ? ", " : "") + *p;
    }
    return s;
  };
  if (auto tensor = dyn_cast<RankedTensorType>(t)) {
    FailureOr<std::string> d = dtype(tensor.getElementType(), at);
    if (failed(d))
      return failure();
    if (tensor.getRank() == 0)
      return *d;
    std::string dims;
    for (auto [i, s] : llvm::enumerate(tensor.getShape()))
      dims += (i ? ", " : "") +
              (ShapedType::isDynamic(s) ? std::string("?") : std::to_string(s));
    return "Tensor[(" + dims + "), " + *d + "]";
  }
  if (auto poly = dyn_cast<PolyTensorType>(t)) {
    FailureOr<std::string> d = dtype(poly.getDtype(), at);
    if (failed(d))
      return failure();
    if (poly.hasShapeVar())
      return "Tensor[" + poly.getShapeVar().str() + ", " + *d + "]";
    std::string dims;
    for (auto [i, dim] : llvm::enumerate(poly.getDims())) {
      dims += i ? ", " : "";
      if (auto name = dyn_cast<StringAttr>(dim))
        dims += name.str();
      else if (ShapedType::isDynamic(cast<IntegerAttr>(dim).getInt()))
        dims += "?";
      else
        dims += std::to_string(cast<IntegerAttr>(dim).getInt());
    }
    return "Tensor[(" + dims + "), " + *d + "]";
  }
  if (auto tuple = dyn_cast<TupleType>(t)) {
    FailureOr<std::string> fields = list(tuple.getTypes());
    if (failed(fields))
      return failure();
    return "(" + *fields + (tuple.size() == 1 ? ",)" : ")");
  }
  if (auto fn = dyn_cast<FuncType>(t)) {
    std::string s = "fn ";
    s += typeParamsStr(fn.getTypeParams());
    FailureOr<std::string> ins = list(fn.getInputs());
    FailureOr<std::string> res = type(fn.getResult(), at);
    if (failed(ins) || failed(res))
      return failure();
    return s + "(" + *ins + ") -> " + *res;
  }
  if (auto ref = dyn_cast<RefType>(t)) {
    FailureOr<std::string> inner = type(ref.getElementType(), at);
    if (failed(inner))
      return failure();
    return "Ref[" + *inner + "]";
  }
  if (auto adt = dyn_cast<AdtType>(t)) {
    if (adt.getArgs().empty())
      return adt.getName().str();
    FailureOr<std::string> args = list(adt.getArgs());
    if (failed(args))
      return failure();
    return adt.getName().str() + "[" + *args + "]";
  }
  if (auto var = dyn_cast<TypeVarType>(t))
    return var.getName().str();
  if (isa<IncompleteType>(t))
    return std::string("_");
  return fail(at->emitError("cannot export type ") << t << " to Relay text");
}

/// Returns true when `t` is worth printing as an annotation.
static bool isKnown(Type t) {
  bool known = true;
  t.walk([&](Type inner) {
    if (isa<IncompleteType>(inner))
      known = false;
  });
  return known;
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

static std::string sanitize(StringRef name) {
  std::string s;
  for (char c : name)
    s += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (s.empty() || llvm::isDigit(s[0]))
    s = "v" + s;
  return s;
}

std::string Exporter::freshName(StringRef hint) {
  std::string base = sanitize(hint);
  std::string name = base;
  for (unsigned i = 1; usedNames.contains(name); ++i)
    name = base + std::to_string(i);
  usedNames.insert(name);
  return name;
}

std::string Exporter::nameFor(Value v, StringRef fallback) {
  Location loc = isa<BlockArgument>(v) ? cast<BlockArgument>(v).getLoc()
                                       : v.getDefiningOp()->getLoc();
  // (The ops a composite operator decomposed into keep its let name.)
  if (auto named = dyn_cast<NameLoc>(withoutDecomposedMark(loc)))
    return freshName(named.getName().getValue());
  return freshName(fallback);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// The attributes an op of `name` has when built without any: its ODS
/// defaults.
static DictionaryAttr defaultAttributes(OperationName name, Location loc) {
  OperationState state(loc, name);
  Operation *blank = Operation::create(state);
  DictionaryAttr defaults = blank->getAttrDictionary();
  blank->destroy();
  return defaults;
}

/// Values printed where they are used rather than bound: constants
/// (literals, or meta[relay.Constant][n]) and the unit tuple.
static bool isInline(Operation *op) {
  if (isa<ConstantOp>(op))
    return true;
  if (auto tuple = dyn_cast<TupleOp>(op))
    return tuple.getFields().empty();
  return false;
}

/// Pure data ops bound as graph bindings (`%0 = ...;`); the rest are `let`s.
static bool isGraphBound(Operation *op) {
  return lookupOperator(op->getName().getStringRef()) ||
         isa<ConstantOp, TupleOp, TupleGetOp, ConstructOp>(op);
}

FailureOr<std::string> Exporter::expr(Value v, unsigned indent) {
  auto it = names.find(v);
  if (it != names.end())
    return "%" + it->second;
  Operation *op = v.getDefiningOp();
  if (!op)
    return fail(emitError(v.getLoc(), "value without a name"));
  return opExpr(op, indent);
}

FailureOr<std::string> Exporter::args(ValueRange values, unsigned indent) {
  std::string s;
  for (auto [i, v] : llvm::enumerate(values)) {
    FailureOr<std::string> e = expr(v, indent);
    if (failed(e))
      return failure();
    s += (i ? ", " : "") + *e;
  }
  return s;
}

FailureOr<std::string> Exporter::printBlock(Block &block, Value result,
                                            unsigned indent) {
  for (Operation &op : block.without_terminator()) {
    if (isInline(&op))
      continue;
    if (op.getNumResults() != 1)
      return fail(op.emitError("cannot export '")
                  << op.getName() << "' to Relay text");
    Value v = op.getResult(0);
    bool graph =
        isGraphBound(&op) && !isa<NameLoc>(withoutDecomposedMark(op.getLoc()));
    std::string name;
    if (!graph) {
      name = nameFor(v, "x");
      // A recursive closure refers to itself by its let name.
      if (auto fn = dyn_cast<FnOp>(op))
        if (BlockArgument self = fn.getSelf())
          names[self] = name;
    }
    FailureOr<std::string> e = opExpr(&op, indent);
    if (failed(e))
      return failure();
    std::string line = indentStr(indent);
    if (graph) {
      name = std::to_string(graphCounter++);
      line += "%" + name + " = " + *e + ";\n";
    } else {
      line += "let %" + name;
      if (isKnown(v.getType())) {
        FailureOr<std::string> t = type(v.getType(), &op);
        if (failed(t))
          return failure();
        line += ": " + *t;
      }
      line += " = " + *e + ";\n";
    }
    names[v] = name;
    *out += line;
  }
  return expr(result, indent);
}

FailureOr<std::string> Exporter::constant(DenseElementsAttr value,
                                          Operation *op) {
  auto type = cast<ShapedType>(value.getType());
  Type element = type.getElementType();
  if (type.getRank() == 0) {
    if (auto i = dyn_cast<IntegerType>(element)) {
      APInt v = value.getSplatValue<APInt>();
      if (i.getWidth() == 1)
        return std::string(v.isZero() ? "False" : "True");
      std::string digits = i.isUnsigned() ? llvm::toString(v, 10, false)
                                          : llvm::toString(v, 10, true);
      if (i.isUnsigned())
        return digits + "u" + std::to_string(i.getWidth());
      if (i.getWidth() == 32)
        return digits;
      return digits + "i" + std::to_string(i.getWidth());
    }
    if (auto f = dyn_cast<FloatType>(element)) {
      APFloat v = value.getSplatValue<APFloat>();
      if (!v.isFinite() || !(f.isF16() || f.isF32() || f.isF64())) {
        // Not writable as a literal: use the metadata.
      } else {
        SmallString<32> text;
        // Shortest text that reads back to the same value.
        v.toString(text, /*FormatPrecision=*/0, /*FormatMaxPadding=*/8);
        std::string s(text);
        if (s.find_first_of(".eE") == std::string::npos)
          s += ".0";
        StringRef suffix = f.isF32() ? "f" : f.isF16() ? "f16" : "f64";
        return s + suffix.str();
      }
    }
  }
  metadata.push_back(value);
  return "meta[relay.Constant][" + std::to_string(metadata.size() - 1) + "]";
}

/// `value` as a dense attribute: a `dense_resource` (the ONNX importer's
/// weights) is read from its blob, which holds the elements little-endian
/// and row-major, as a dense attribute's raw buffer does. Null when that
/// cannot be done.
FailureOr<std::string> Exporter::attrValue(StringRef name, Attribute a,
                                           Operation *op) {
  if (auto arr = dyn_cast<DenseI64ArrayAttr>(a)) {
    ArrayRef<int64_t> v = arr.asArrayRef();
    std::string s = "[";
    // pad_width (and space_to_batch_nd's paddings, batch_to_space_nd's
    // crops) are lists of (before, after) pairs in TVM.
    if (name == "pad_width" || name == "paddings" || name == "crops") {
      for (size_t i = 0; i + 1 < v.size(); i += 2)
        s += (i ? ", [" : "[") + std::to_string(v[i]) + ", " +
             std::to_string(v[i + 1]) + "]";
      return s + "]";
    }
    for (auto [i, x] : llvm::enumerate(v))
      s += (i ? ", " : "") + std::to_string(x);
    return s + "]";
  }
  if (auto arr = dyn_cast<DenseF64ArrayAttr>(a)) {
    std::string s = "[";
    for (auto [i, x] : llvm::enumerate(arr.asArrayRef()))
      s += (i ? ", " : "") + floatText(APFloat(x)) + "f";
    return s + "]";
  }
  if (auto b = dyn_cast<BoolAttr>(a))
    return std::string(b.getValue() ? "True" : "False");
  // on_device's and device_copy's devices index TVM's metadata table.
  if (auto i = dyn_cast<IntegerAttr>(a); i && name.ends_with("virtual_device"))
    return "meta[VirtualDevice][" + std::to_string(i.getInt()) + "]";
  if (auto i = dyn_cast<IntegerAttr>(a))
    return std::to_string(i.getInt());
  if (auto f = dyn_cast<FloatAttr>(a))
    return floatText(f.getValue()) + "f";
  if (auto s = dyn_cast<StringAttr>(a)) {
    std::string escaped;
    for (char c : s.getValue())
      escaped +=
          c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    return "\"" + escaped + "\"";
  }
  if (auto t = dyn_cast<TypeAttr>(a)) {
    FailureOr<std::string> d = dtype(t.getValue(), op);
    if (failed(d))
      return failure();
    return "\"" + *d + "\"";
  }
  return fail(op->emitError("cannot export attribute '")
              << name << "' = " << a << " to Relay text");
}

FailureOr<std::string>
Exporter::pattern(Attribute p, Block::BlockArgListType::iterator &arg) {
  if (isa<PatternWildcardAttr>(p))
    return std::string("_");
  if (isa<PatternVarAttr>(p)) {
    BlockArgument a = *arg++;
    std::string name = nameFor(a, "x");
    names[a] = name;
    std::string s = "%" + name;
    if (isKnown(a.getType())) {
      FailureOr<std::string> t = type(a.getType(), a.getOwner()->getParentOp());
      if (failed(t))
        return failure();
      s += ": " + *t;
    }
    return s;
  }
  ArrayRef<Attribute> fields;
  std::string head;
  if (auto tuple = dyn_cast<PatternTupleAttr>(p)) {
    fields = tuple.getFields();
  } else {
    auto ctor = cast<PatternCtorAttr>(p);
    head = ctor.getConstructor().getLeafReference().str();
    fields = ctor.getFields();
    if (fields.empty())
      return head;
  }
  std::string s = head + "(";
  for (auto [i, f] : llvm::enumerate(fields)) {
    FailureOr<std::string> sub = pattern(f, arg);
    if (failed(sub))
      return failure();
    s += (i ? ", " : "") + *sub;
  }
  if (head.empty() && fields.size() == 1)
    s += ",";
  return s + ")";
}

FailureOr<std::string> Exporter::fnExpr(FnOp fn, unsigned indent) {
  FuncType type = fn.getFuncType();
  std::string s = "fn ";
  s += typeParamsStr(type.getTypeParams());
  s += "(";
  for (auto [i, param] : llvm::enumerate(fn.getParams())) {
    std::string name = nameFor(param, "x");
    names[param] = name;
    s += (i ? ", " : "") + ("%" + name);
    if (isKnown(param.getType())) {
      FailureOr<std::string> t = this->type(param.getType(), fn);
      if (failed(t))
        return failure();
      s += ": " + *t;
    }
  }
  // TVM's attribute of the closure a LambdaLift global returns.
  if (Operation *parent = fn->getParentOp();
      isa<FuncOp>(parent) && isClosureFunction(parent))
    s += fn.getParams().empty() ? "Closure=1" : ", Closure=1";
  s += ")";
  if (isKnown(type.getResult())) {
    FailureOr<std::string> t = this->type(type.getResult(), fn);
    if (failed(t))
      return failure();
    s += " -> " + *t;
  }
  Block &body = fn.getBody().front();
  auto ret = cast<ReturnOp>(body.getTerminator());
  std::string inner;
  std::string *saved = out;
  out = &inner;
  FailureOr<std::string> value = printBlock(body, ret.getValue(), indent + 2);
  out = saved;
  if (failed(value))
    return failure();
  return s + " {\n" + inner + indentStr(indent + 2) + *value + "\n" +
         indentStr(indent) + "}";
}

FailureOr<std::string> Exporter::opExpr(Operation *op, unsigned indent) {
  if (const OperatorInfo *info = lookupOperator(op->getName().getStringRef())) {
    (void)info;
    StringRef name = op->getName().getStringRef().drop_front(6);
    FailureOr<std::string> a = args(op->getOperands(), indent);
    if (failed(a))
      return failure();
    // TVM registers simulated_quantize as relay.op.annotation.*, its other
    // annotations (stop_fusion, checkpoint, ...) as annotation.*.
    std::string s =
        (name == "annotation.simulated_quantize" ? "relay.op." : "") +
        name.str() + "(" + *a;
    // TVM prints the attributes that differ from their defaults.
    DictionaryAttr defaults = defaultAttributes(op->getName(), op->getLoc());
    for (NamedAttribute attr : op->getAttrs()) {
      if (defaults.get(attr.getName()) == attr.getValue())
        continue;
      FailureOr<std::string> v =
          attrValue(attr.getName().getValue(), attr.getValue(), op);
      if (failed(v))
        return failure();
      s += (s.back() == '(' ? "" : ", ") + attr.getName().str() + "=" + *v;
    }
    return s + ")";
  }
  return llvm::TypeSwitch<Operation *, FailureOr<std::string>>(op)
      .Case([&](ConstantOp c) -> FailureOr<std::string> {
        DenseElementsAttr dense = c.getDenseValue();
        if (!dense)
          return fail(c.emitError("cannot export the constant: its ")
                      << (isa<DenseResourceElementsAttr>(c.getValue())
                              ? "resource blob is missing or does not hold "
                                "its type's bytes"
                              : "value is neither dense nor a resource"));
        return constant(dense, c);
      })
      .Case([&](TupleOp t) -> FailureOr<std::string> {
        FailureOr<std::string> a = args(t.getFields(), indent);
        if (failed(a))
          return failure();
        return "(" + *a + (t.getFields().size() == 1 ? ",)" : ")");
      })
      .Case([&](TupleGetOp g) -> FailureOr<std::string> {
        FailureOr<std::string> t = expr(g.getTuple(), indent);
        if (failed(t))
          return failure();
        std::string base = StringRef(*t).starts_with("%") ? *t : "(" + *t + ")";
        return base + "." + std::to_string(g.getIndex());
      })
      .Case([&](CallOp c) -> FailureOr<std::string> {
        FailureOr<std::string> a = args(c.getArgs(), indent);
        if (failed(a))
          return failure();
        return "@" + c.getCallee().str() + "(" + *a + ")";
      })
      .Case([&](GlobalRefOp g) -> FailureOr<std::string> {
        return "@" + g.getName().str();
      })
      .Case([&](ApplyOp a) -> FailureOr<std::string> {
        FailureOr<std::string> callee = expr(a.getCallee(), indent);
        FailureOr<std::string> rest = args(a.getArgs(), indent);
        if (failed(callee) || failed(rest))
          return failure();
        std::string c = StringRef(*callee).starts_with("%") ||
                                StringRef(*callee).starts_with("@")
                            ? *callee
                            : "(" + *callee + ")";
        return c + "(" + *rest + ")";
      })
      .Case([&](FnOp fn) { return fnExpr(fn, indent); })
      .Case([&](IfOp i) -> FailureOr<std::string> {
        FailureOr<std::string> cond = expr(i.getCond(), indent);
        if (failed(cond))
          return failure();
        auto branch = [&](Region &r) -> FailureOr<std::string> {
          Block &b = r.front();
          std::string inner;
          std::string *saved = out;
          out = &inner;
          FailureOr<std::string> v = printBlock(
              b, cast<YieldOp>(b.getTerminator()).getValue(), indent + 2);
          out = saved;
          if (failed(v))
            return failure();
          return "{\n" + inner + indentStr(indent + 2) + *v + "\n" +
                 indentStr(indent) + "}";
        };
        FailureOr<std::string> t = branch(i.getThenRegion());
        FailureOr<std::string> e = succeeded(t)
                                       ? branch(i.getElseRegion())
                                       : FailureOr<std::string>(failure());
        if (failed(e))
          return failure();
        return "if (" + *cond + ") " + *t + " else " + *e;
      })
      .Case([&](MatchOp m) -> FailureOr<std::string> {
        FailureOr<std::string> scrutinee = expr(m.getScrutinee(), indent);
        if (failed(scrutinee))
          return failure();
        std::string s = std::string(m.getPartial() ? "match? (" : "match (") +
                        *scrutinee + ") {\n";
        for (auto [p, region] : llvm::zip(m.getPatterns(), m.getCases())) {
          Block &b = region.front();
          auto arg = b.getArguments().begin();
          FailureOr<std::string> pat = pattern(p, arg);
          if (failed(pat))
            return failure();
          std::string inner;
          std::string *saved = out;
          out = &inner;
          FailureOr<std::string> v = printBlock(
              b, cast<YieldOp>(b.getTerminator()).getValue(), indent + 4);
          out = saved;
          if (failed(v))
            return failure();
          s += indentStr(indent + 2) + *pat + " => {\n" + inner +
               indentStr(indent + 4) + *v + "\n" + indentStr(indent + 2) +
               "},\n";
        }
        return s + indentStr(indent) + "}";
      })
      .Case([&](ConstructOp c) -> FailureOr<std::string> {
        std::string name = c.getConstructor().getLeafReference().str();
        if (c.getFields().empty())
          return name;
        FailureOr<std::string> a = args(c.getFields(), indent);
        if (failed(a))
          return failure();
        return name + "(" + *a + ")";
      })
      .Case([&](RefOp r) -> FailureOr<std::string> {
        FailureOr<std::string> a = expr(r.getValue(), indent);
        if (failed(a))
          return failure();
        return "ref(" + *a + ")";
      })
      .Case([&](RefReadOp r) -> FailureOr<std::string> {
        FailureOr<std::string> a = expr(r.getRef(), indent);
        if (failed(a))
          return failure();
        return "ref_read(" + *a + ")";
      })
      .Case([&](RefWriteOp w) -> FailureOr<std::string> {
        FailureOr<std::string> a = args({w.getRef(), w.getValue()}, indent);
        if (failed(a))
          return failure();
        return "ref_write(" + *a + ")";
      })
      .Default([](Operation *op) -> FailureOr<std::string> {
        return fail(op->emitError("cannot export '")
                    << op->getName() << "' to Relay text");
      });
}

//===----------------------------------------------------------------------===//
// Definitions
//===----------------------------------------------------------------------===//

LogicalResult Exporter::printData(DataOp data) {
  std::string s =
      (data.getExternal() ? "extern type " : "type ") + data.getSymName().str();
  SmallVector<TypeVarType> params = data.getTypeParamList();
  if (!params.empty()) {
    s += "[";
    for (auto [i, p] : llvm::enumerate(params))
      s += (i ? ", " : "") + p.getName().str();
    s += "]";
  }
  if (data.getExternal()) {
    os << s << "\n\n";
    return success();
  }
  s += " {\n";
  for (CtorOp ctor : data.getConstructors()) {
    s += "  " + ctor.getSymName().str();
    SmallVector<Type> fields = ctor.getFieldTypes();
    if (!fields.empty()) {
      s += "(";
      for (auto [i, f] : llvm::enumerate(fields)) {
        FailureOr<std::string> t = type(f, ctor);
        if (failed(t))
          return failure();
        s += (i ? ", " : "") + *t;
      }
      s += ")";
    }
    s += ",\n";
  }
  os << s << "}\n\n";
  return success();
}

LogicalResult Exporter::printFunc(FuncOp func) {
  names.clear();
  usedNames.clear();
  graphCounter = 0;
  std::string s = "def @" + func.getSymName().str();
  SmallVector<TypeVarType> params = func.getTypeParamList();
  s += typeParamsStr(params);
  s += "(";
  Block &body = func.getBody().front();
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    std::string name = nameFor(arg, "x");
    names[arg] = name;
    s += (i ? ", " : "") + ("%" + name);
    if (isKnown(arg.getType())) {
      FailureOr<std::string> t = type(arg.getType(), func);
      if (failed(t))
        return failure();
      s += ": " + *t;
    }
  }
  // TVM's attribute of the kernels FuseOps makes.
  if (isPrimitiveFunction(func))
    s += body.getNumArguments() ? ", Primitive=1" : "Primitive=1";
  s += ")";
  if (isKnown(func.getReturnType())) {
    FailureOr<std::string> t = type(func.getReturnType(), func);
    if (failed(t))
      return failure();
    s += " -> " + *t;
  }
  std::string inner;
  out = &inner;
  auto ret = cast<ReturnOp>(body.getTerminator());
  FailureOr<std::string> value = printBlock(body, ret.getValue(), 2);
  out = nullptr;
  if (failed(value))
    return failure();
  os << s << " {\n" << inner << "  " << *value << "\n}\n\n";
  return success();
}

LogicalResult Exporter::exportModule(ModuleOp module) {
  // Definitions go to a buffer first: the header comes before them and the
  // metadata (filled while printing) after.
  std::string text;
  llvm::raw_string_ostream buffer(text);
  Exporter body(buffer);
  for (Operation &op : module.getBody()->getOperations()) {
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([&](DataOp d) { return body.printData(d); })
            .Case([&](FuncOp f) { return body.printFunc(f); })
            .Default([](Operation *other) {
              return other->emitError("cannot export '")
                     << other->getName() << "' to Relay text (only "
                     << "relay.func and relay.data are Relay definitions)";
            });
    if (failed(result))
      return failure();
  }
  os << "#[version = \"0.0.5\"]\n" << text;
  if (!body.metadata.empty())
    printMetadata(body.metadata, os);
  return success();
}

LogicalResult mlir::relay::text::exportRelayText(ModuleOp module,
                                                 raw_ostream &os) {
  Exporter exporter(os);
  return exporter.exportModule(module);
}
