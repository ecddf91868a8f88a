//===- TypeUnifier.cpp - Unification over Relay types -----------*- C++ -*-===//

#include "transforms/TypeInference/TypeUnifier.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::relay;

TypeVarType TypeUnifier::freshType(TypeKind kind) {
  return TypeVarType::get(ctx, freshName().getValue(), kind);
}

StringAttr TypeUnifier::freshName() {
  return StringAttr::get(ctx, "$" + std::to_string(counter++));
}

Type TypeUnifier::freshen(Type type) {
  auto all = [&](ArrayRef<Type> types) {
    return llvm::map_to_vector(types, [&](Type t) { return freshen(t); });
  };
  return llvm::TypeSwitch<Type, Type>(type)
      .Case([&](IncompleteType) -> Type { return freshType(); })
      .Case([&](TupleType tuple) -> Type {
        return TupleType::get(ctx, all(tuple.getTypes()));
      })
      .Case([&](FuncType fn) -> Type {
        SmallVector<TypeRelationAttr> rels;
        for (TypeRelationAttr rel : fn.getRelations())
          rels.push_back(
              TypeRelationAttr::get(ctx, rel.getName(), all(rel.getArgs())));
        // Inputs before the result: variables numbered in reading order.
        SmallVector<Type> inputs = all(fn.getInputs());
        Type result = freshen(fn.getResult());
        return FuncType::get(ctx, fn.getTypeParams(), inputs, result, rels);
      })
      .Case([&](RefType ref) -> Type {
        return RefType::get(ctx, freshen(ref.getElementType()));
      })
      .Case([&](AdtType adt) -> Type {
        return AdtType::get(ctx, adt.getName(), all(adt.getArgs()));
      })
      .Default([](Type t) { return t; });
}

FuncType TypeUnifier::instantiate(FuncType type, ArrayAttr explicitArgs,
                                  SmallVectorImpl<Attribute> *instantiation) {
  TypeSubstitution subst;
  for (auto [i, param] : llvm::enumerate(type.getTypeParams())) {
    Attribute arg;
    if (explicitArgs && i < explicitArgs.size()) {
      arg = explicitArgs[i];
    } else {
      switch (param.getKind()) {
      case TypeKind::Type:
      case TypeKind::BaseType:
        arg = TypeAttr::get(freshType(param.getKind()));
        break;
      case TypeKind::Shape:
      case TypeKind::ShapeVar:
        arg = freshName();
        break;
      }
    }
    subst[param.getName()] = arg;
    if (instantiation)
      instantiation->push_back(arg);
  }
  auto all = [&](ArrayRef<Type> types) {
    return llvm::map_to_vector(types,
                               [&](Type t) { return substitute(t, subst); });
  };
  SmallVector<TypeRelationAttr> rels;
  for (TypeRelationAttr rel : type.getRelations())
    rels.push_back(
        TypeRelationAttr::get(ctx, rel.getName(), all(rel.getArgs())));
  return FuncType::get(ctx, {}, all(type.getInputs()),
                       substitute(type.getResult(), subst), rels);
}

bool TypeUnifier::hasFlexibleVars(Type type) {
  bool found = false;
  walkTypeVars(type,
               [&](StringRef name, TypeKind) { found |= isFlexible(name); });
  return found;
}

Type TypeUnifier::resolve(Type type) {
  if (bindings.empty())
    return type;
  // Each round replaces the variables bound so far; bindings never form a
  // cycle (the occurs check), so this ends.
  for (;;) {
    if (!hasFlexibleVars(type))
      return type;
    Type next = substitute(type, bindings);
    if (next == type)
      return type;
    type = next;
  }
}

Attribute TypeUnifier::resolveName(StringRef name) {
  Attribute value = bindings.lookup(name);
  if (!value)
    return StringAttr::get(ctx, name);
  if (auto rename = dyn_cast<StringAttr>(value)) {
    if (!isFlexible(rename.getValue()))
      return rename;
    Attribute resolved = resolveName(rename.getValue());
    bindings[name] = resolved; // path compression
    return resolved;
  }
  return value;
}

Attribute TypeUnifier::resolveTypeArgument(Attribute arg) {
  if (auto type = dyn_cast<TypeAttr>(arg))
    return TypeAttr::get(resolve(type.getValue()));
  if (auto name = dyn_cast<StringAttr>(arg))
    return resolveName(name.getValue());
  return arg;
}

void TypeUnifier::bind(StringRef name, Attribute value) {
  bindings[name] = value;
  if (onBind)
    onBind(name, value);
}

LogicalResult TypeUnifier::fail(Type a, Type b, StringRef reason) {
  if (!mismatch.first) {
    mismatch = {a, b};
    mismatchReason = reason.str();
  }
  return failure();
}

Type TypeUnifier::join(Type a, Type b) {
  if (a == b)
    return a;
  auto ta = dyn_cast<RankedTensorType>(a), tb = dyn_cast<RankedTensorType>(b);
  if (ta && tb && ta.getRank() == tb.getRank() &&
      ta.getElementType() == tb.getElementType()) {
    SmallVector<int64_t> dims;
    for (auto [x, y] : llvm::zip(ta.getShape(), tb.getShape()))
      dims.push_back(x == y ? x : ShapedType::kDynamic);
    return RankedTensorType::get(dims, ta.getElementType());
  }
  auto tupleA = dyn_cast<TupleType>(a), tupleB = dyn_cast<TupleType>(b);
  if (tupleA && tupleB && tupleA.size() == tupleB.size()) {
    SmallVector<Type> fields;
    for (auto [x, y] : llvm::zip(tupleA.getTypes(), tupleB.getTypes()))
      fields.push_back(join(x, y));
    return TupleType::get(ctx, fields);
  }
  return a;
}

void TypeUnifier::widen(Type term, Type branch) {
  auto var = dyn_cast<TypeVarType>(term);
  while (var && isFlexible(var.getName())) {
    auto bound = dyn_cast_or_null<TypeAttr>(bindings.lookup(var.getName()));
    if (!bound)
      return;
    auto next = dyn_cast<TypeVarType>(bound.getValue());
    if (next && isFlexible(next.getName())) {
      var = next;
      continue;
    }
    Type current = resolve(bound.getValue());
    Type joined = join(current, resolve(branch));
    if (joined != current)
      bind(var.getName(), TypeAttr::get(joined));
    return;
  }
}

LogicalResult TypeUnifier::unifyTypeLists(ArrayRef<Type> a, ArrayRef<Type> b) {
  for (auto [x, y] : llvm::zip(a, b))
    if (failed(unify(x, y)))
      return failure();
  return success();
}

namespace {
/// A tensor type seen as shape (a shape variable or dims) and dtype.
struct TensorTerm {
  bool unranked = false;
  StringAttr shapeVar;
  SmallVector<Attribute> dims; // IntegerAttr or StringAttr
  Type dtype;
};
} // namespace

static std::optional<TensorTerm> viewTensorTerm(Type type) {
  TensorTerm term;
  if (auto ranked = dyn_cast<RankedTensorType>(type)) {
    Builder b(type.getContext());
    for (int64_t d : ranked.getShape())
      term.dims.push_back(b.getI64IntegerAttr(d));
    term.dtype = ranked.getElementType();
    return term;
  }
  if (auto unranked = dyn_cast<UnrankedTensorType>(type)) {
    term.unranked = true;
    term.dtype = unranked.getElementType();
    return term;
  }
  if (auto poly = dyn_cast<PolyTensorType>(type)) {
    term.shapeVar = poly.getShapeVar();
    term.dims.assign(poly.getDims().begin(), poly.getDims().end());
    term.dtype = poly.getDtype();
    return term;
  }
  return std::nullopt;
}

LogicalResult TypeUnifier::unifyDim(Attribute a, Attribute b) {
  if (auto name = dyn_cast<StringAttr>(a))
    a = resolveName(name.getValue());
  if (auto name = dyn_cast<StringAttr>(b))
    b = resolveName(name.getValue());
  if (a == b)
    return success();
  auto na = dyn_cast<StringAttr>(a), nb = dyn_cast<StringAttr>(b);
  if (na && isFlexible(na.getValue())) {
    bind(na.getValue(), b);
    return success();
  }
  if (nb && isFlexible(nb.getValue())) {
    bind(nb.getValue(), a);
    return success();
  }
  auto ia = dyn_cast<IntegerAttr>(a), ib = dyn_cast<IntegerAttr>(b);
  // `?` (Any) is compatible with every dimension.
  if ((ia && ShapedType::isDynamic(ia.getInt())) ||
      (ib && ShapedType::isDynamic(ib.getInt())))
    return success();
  return failure();
}

LogicalResult TypeUnifier::unifyTensors(Type a, Type b) {
  std::optional<TensorTerm> ta = viewTensorTerm(a), tb = viewTensorTerm(b);
  if (failed(unify(ta->dtype, tb->dtype)))
    return failure();
  if (ta->unranked || tb->unranked)
    return success();
  // Shape variables.
  auto bindShape = [&](StringAttr var, const TensorTerm &other) {
    if (!isFlexible(var.getValue()))
      return failure();
    if (other.shapeVar) {
      bind(var.getValue(), other.shapeVar);
      return success();
    }
    SmallVector<int64_t> sizes;
    for (Attribute d : other.dims) {
      auto size = dyn_cast<IntegerAttr>(d);
      if (!size)
        return failure();
      sizes.push_back(size.getInt());
    }
    bind(var.getValue(), DenseI64ArrayAttr::get(ctx, sizes));
    return success();
  };
  if (ta->shapeVar || tb->shapeVar) {
    if (ta->shapeVar == tb->shapeVar)
      return success();
    if (ta->shapeVar && succeeded(bindShape(ta->shapeVar, *tb)))
      return success();
    if (tb->shapeVar && succeeded(bindShape(tb->shapeVar, *ta)))
      return success();
    return fail(a, b);
  }
  if (ta->dims.size() != tb->dims.size())
    return fail(a, b, "ranks differ");
  for (auto [x, y] : llvm::zip(ta->dims, tb->dims))
    if (failed(unifyDim(x, y)))
      return fail(a, b);
  return success();
}

LogicalResult TypeUnifier::unify(Type a, Type b) {
  mismatch = {};
  mismatchReason.clear();
  a = resolve(a);
  b = resolve(b);
  if (a == b)
    return success();
  // Bind a flexible variable.
  for (auto [var, other] : {std::pair(a, b), std::pair(b, a)}) {
    auto tv = dyn_cast<TypeVarType>(var);
    if (!tv || !isFlexible(tv.getName()))
      continue;
    if (tv.getKind() == TypeKind::BaseType && !other.isIntOrFloat() &&
        !isa<TypeVarType>(other))
      return fail(a, b, "a dtype cannot be a non-scalar type");
    bool occurs = false;
    walkTypeVars(other, [&](StringRef name, TypeKind) {
      occurs |= name == tv.getName();
    });
    if (occurs)
      return fail(a, b, "the type would be infinite");
    bind(tv.getName(), TypeAttr::get(other));
    return success();
  }
  if (isa<IncompleteType>(a) || isa<IncompleteType>(b))
    return success();
  if (viewTensorTerm(a) && viewTensorTerm(b))
    return unifyTensors(a, b);
  if (auto ta = dyn_cast<TupleType>(a)) {
    auto tb = dyn_cast<TupleType>(b);
    if (!tb || ta.size() != tb.size())
      return fail(a, b);
    return unifyTypeLists(ta.getTypes(), tb.getTypes());
  }
  if (auto fa = dyn_cast<FuncType>(a)) {
    auto fb = dyn_cast<FuncType>(b);
    if (!fb || fa.getNumInputs() != fb.getNumInputs())
      return fail(a, b);
    // A polymorphic function used where a monomorphic one is expected is
    // instantiated with fresh variables (as a let-bound polymorphic value
    // is in ML).
    if (fa.isPolymorphic() != fb.isPolymorphic()) {
      FuncType mono = fa.isPolymorphic() ? instantiate(fa, nullptr)
                                         : instantiate(fb, nullptr);
      return fa.isPolymorphic() ? unify(mono, fb) : unify(fa, mono);
    }
    if (fa.getTypeParams().size() != fb.getTypeParams().size())
      return fail(a, b);
    // Polymorphic function types are equal up to renaming their parameters.
    TypeSubstitution rename;
    for (auto [pa, pb] : llvm::zip(fa.getTypeParams(), fb.getTypeParams())) {
      if (pa.getKind() != pb.getKind())
        return fail(a, b);
      rename[pb.getName()] = StringAttr::get(ctx, pa.getName());
    }
    for (auto [x, y] : llvm::zip(fa.getInputs(), fb.getInputs()))
      if (failed(unify(x, substitute(y, rename))))
        return failure();
    return unify(fa.getResult(), substitute(fb.getResult(), rename));
  }
  if (auto ra = dyn_cast<RefType>(a)) {
    auto rb = dyn_cast<RefType>(b);
    if (!rb)
      return fail(a, b);
    return unify(ra.getElementType(), rb.getElementType());
  }
  if (auto aa = dyn_cast<AdtType>(a)) {
    auto ab = dyn_cast<AdtType>(b);
    if (!ab || aa.getName() != ab.getName() ||
        aa.getArgs().size() != ab.getArgs().size())
      return fail(a, b);
    return unifyTypeLists(aa.getArgs(), ab.getArgs());
  }
  return fail(a, b);
}
