//===- TypeUtils.cpp - Relay type utilities ---------------------*- C++ -*-===//

#include "dialects/relay/TypeUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace mlir::relay;

static bool isUnknown(Type t) { return isa<IncompleteType, TypeVarType>(t); }

static bool dimsCompatible(int64_t a, int64_t b) {
  return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
}

static bool allCompatible(ArrayRef<Type> a, ArrayRef<Type> b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip(a, b))
    if (!areCompatible(x, y))
      return false;
  return true;
}

/// A tensor-like type seen as (maybe-known rank, dims, maybe-known dtype).
struct TensorView {
  bool rankKnown = false;
  SmallVector<Attribute> dims; // IntegerAttr or StringAttr (ShapeVar)
  Type dtype;                  // null when it is a variable
};

static std::optional<TensorView> viewTensor(Type t) {
  TensorView v;
  if (auto ranked = dyn_cast<RankedTensorType>(t)) {
    v.rankKnown = true;
    Builder b(t.getContext());
    for (int64_t d : ranked.getShape())
      v.dims.push_back(b.getI64IntegerAttr(d));
    v.dtype = ranked.getElementType();
    return v;
  }
  if (auto unranked = dyn_cast<UnrankedTensorType>(t)) {
    v.dtype = unranked.getElementType();
    return v;
  }
  if (auto poly = dyn_cast<PolyTensorType>(t)) {
    v.rankKnown = !poly.hasShapeVar();
    v.dims.assign(poly.getDims().begin(), poly.getDims().end());
    if (!isa<TypeVarType>(poly.getDtype()))
      v.dtype = poly.getDtype();
    return v;
  }
  return std::nullopt;
}

bool mlir::relay::areCompatible(Type a, Type b) {
  if (a == b || isUnknown(a) || isUnknown(b))
    return true;
  std::optional<TensorView> ta = viewTensor(a), tb = viewTensor(b);
  if (ta || tb) {
    if (!ta || !tb)
      return false;
    if (ta->dtype && tb->dtype && ta->dtype != tb->dtype)
      return false;
    if (!ta->rankKnown || !tb->rankKnown)
      return true;
    if (ta->dims.size() != tb->dims.size())
      return false;
    for (auto [x, y] : llvm::zip(ta->dims, tb->dims)) {
      auto ix = dyn_cast<IntegerAttr>(x), iy = dyn_cast<IntegerAttr>(y);
      if (ix && iy && !dimsCompatible(ix.getInt(), iy.getInt()))
        return false;
    }
    return true;
  }
  if (auto tupleA = dyn_cast<TupleType>(a)) {
    auto tupleB = dyn_cast<TupleType>(b);
    return tupleB && allCompatible(tupleA.getTypes(), tupleB.getTypes());
  }
  if (auto fnA = dyn_cast<FuncType>(a)) {
    auto fnB = dyn_cast<FuncType>(b);
    return fnB && allCompatible(fnA.getInputs(), fnB.getInputs()) &&
           areCompatible(fnA.getResult(), fnB.getResult());
  }
  if (auto refA = dyn_cast<RefType>(a)) {
    auto refB = dyn_cast<RefType>(b);
    return refB && areCompatible(refA.getElementType(), refB.getElementType());
  }
  if (auto adtA = dyn_cast<AdtType>(a)) {
    auto adtB = dyn_cast<AdtType>(b);
    return adtB && adtA.getName() == adtB.getName() &&
           allCompatible(adtA.getArgs(), adtB.getArgs());
  }
  return false;
}

bool mlir::relay::mayBeBoolScalar(Type type) {
  if (isUnknown(type))
    return true;
  if (auto ranked = dyn_cast<RankedTensorType>(type))
    return ranked.getRank() == 0 && ranked.getElementType().isInteger(1);
  if (auto poly = dyn_cast<PolyTensorType>(type))
    return (poly.hasShapeVar() || poly.getDims().empty()) &&
           (isa<TypeVarType>(poly.getDtype()) || poly.getDtype().isInteger(1));
  return false;
}

bool mlir::relay::isConcrete(Type type) {
  bool concrete = true;
  type.walk([&](Type t) {
    if (isa<IncompleteType, TypeVarType, PolyTensorType>(t))
      concrete = false;
  });
  return concrete;
}

bool mlir::relay::isStaticTensorData(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.hasStaticShape();
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::all_of(tuple.getTypes(), isStaticTensorData);
  return false;
}

bool mlir::relay::hasDynamicTensor(Type type) {
  bool found = false;
  type.walk([&](RankedTensorType t) { found |= !t.hasStaticShape(); });
  return found;
}

Type mlir::relay::joinTypes(Type a, Type b) {
  if (a == b)
    return a;
  auto ta = dyn_cast<RankedTensorType>(a), tb = dyn_cast<RankedTensorType>(b);
  if (ta && tb) {
    if (ta.getRank() != tb.getRank() ||
        ta.getElementType() != tb.getElementType())
      return {};
    SmallVector<int64_t> dims;
    for (auto [x, y] : llvm::zip(ta.getShape(), tb.getShape()))
      dims.push_back(x == y ? x : ShapedType::kDynamic);
    return RankedTensorType::get(dims, ta.getElementType());
  }
  auto adtA = dyn_cast<AdtType>(a), adtB = dyn_cast<AdtType>(b);
  if (adtA && adtB) {
    if (adtA.getName() != adtB.getName() ||
        adtA.getArgs().size() != adtB.getArgs().size())
      return {};
    SmallVector<Type> args;
    for (auto [x, y] : llvm::zip(adtA.getArgs(), adtB.getArgs())) {
      args.push_back(isa<IncompleteType>(x)   ? y
                     : isa<IncompleteType>(y) ? x
                                              : joinTypes(x, y));
      if (!args.back())
        return {};
    }
    return AdtType::get(a.getContext(), adtA.getName(), args);
  }
  auto tupleA = dyn_cast<TupleType>(a), tupleB = dyn_cast<TupleType>(b);
  if (!tupleA || !tupleB || tupleA.size() != tupleB.size())
    return {};
  SmallVector<Type> fields;
  for (auto [x, y] : llvm::zip(tupleA.getTypes(), tupleB.getTypes())) {
    fields.push_back(joinTypes(x, y));
    if (!fields.back())
      return {};
  }
  return TupleType::get(a.getContext(), fields);
}

Type mlir::relay::makeTensorType(MLIRContext *ctx, StringAttr shapeVar,
                                 ArrayRef<Attribute> dims, Type dtype) {
  bool concrete =
      !shapeVar && !isa<TypeVarType>(dtype) &&
      llvm::all_of(dims, [](Attribute d) { return isa<IntegerAttr>(d); });
  if (!concrete)
    return PolyTensorType::get(ctx, shapeVar, dims, dtype);
  SmallVector<int64_t> shape;
  for (Attribute d : dims)
    shape.push_back(cast<IntegerAttr>(d).getInt());
  return RankedTensorType::get(shape, dtype);
}

static SmallVector<Type> substituteAll(ArrayRef<Type> types,
                                       const TypeSubstitution &subst) {
  return llvm::map_to_vector(types,
                             [&](Type t) { return substitute(t, subst); });
}

/// Binds `name` to `value` in `subst`; fails when it has another value.
static LogicalResult bindVar(StringRef name, Attribute value,
                             TypeSubstitution &subst) {
  auto [it, inserted] = subst.try_emplace(name, value);
  return success(inserted || it->second == value);
}

LogicalResult mlir::relay::matchTypeVars(Type pattern, Type concrete,
                                         TypeSubstitution &subst) {
  if (pattern == concrete)
    return success();
  MLIRContext *ctx = pattern.getContext();
  auto all = [&](TypeRange ps, TypeRange cs) {
    if (ps.size() != cs.size())
      return failure();
    for (auto [p, c] : llvm::zip(ps, cs))
      if (failed(matchTypeVars(p, c, subst)))
        return failure();
    return success();
  };
  return llvm::TypeSwitch<Type, LogicalResult>(pattern)
      .Case([&](TypeVarType var) {
        return bindVar(var.getName(), TypeAttr::get(concrete), subst);
      })
      .Case([&](PolyTensorType poly) -> LogicalResult {
        auto tensor = dyn_cast<RankedTensorType>(concrete);
        if (!tensor || failed(matchTypeVars(poly.getDtype(),
                                            tensor.getElementType(), subst)))
          return failure();
        if (StringAttr shapeVar = poly.getShapeVar())
          return bindVar(shapeVar.getValue(),
                         DenseI64ArrayAttr::get(ctx, tensor.getShape()), subst);
        if (poly.getDims().size() != size_t(tensor.getRank()))
          return failure();
        for (auto [dim, size] : llvm::zip(poly.getDims(), tensor.getShape())) {
          if (auto name = dyn_cast<StringAttr>(dim)) {
            if (failed(bindVar(
                    name.getValue(),
                    IntegerAttr::get(IntegerType::get(ctx, 64), size), subst)))
              return failure();
          } else if (cast<IntegerAttr>(dim).getInt() != size) {
            return failure();
          }
        }
        return success();
      })
      .Case([&](TupleType tuple) -> LogicalResult {
        auto other = dyn_cast<TupleType>(concrete);
        return other ? all(tuple.getTypes(), other.getTypes()) : failure();
      })
      .Case([&](FuncType fn) -> LogicalResult {
        auto other = dyn_cast<FuncType>(concrete);
        if (!other || fn.isPolymorphic() || other.isPolymorphic() ||
            failed(all(fn.getInputs(), other.getInputs())))
          return failure();
        return matchTypeVars(fn.getResult(), other.getResult(), subst);
      })
      .Case([&](RefType ref) -> LogicalResult {
        auto other = dyn_cast<RefType>(concrete);
        return other ? matchTypeVars(ref.getElementType(),
                                     other.getElementType(), subst)
                     : failure();
      })
      .Case([&](AdtType adt) -> LogicalResult {
        auto other = dyn_cast<AdtType>(concrete);
        if (!other || other.getName() != adt.getName())
          return failure();
        return all(adt.getArgs(), other.getArgs());
      })
      .Default([](Type) { return failure(); });
}

Type mlir::relay::substitute(Type type, const TypeSubstitution &subst) {
  if (subst.empty())
    return type;
  MLIRContext *ctx = type.getContext();
  return llvm::TypeSwitch<Type, Type>(type)
      .Case([&](TypeVarType var) -> Type {
        Attribute arg = subst.lookup(var.getName());
        if (auto typeAttr = dyn_cast_or_null<TypeAttr>(arg))
          return typeAttr.getValue();
        if (auto rename = dyn_cast_or_null<StringAttr>(arg))
          return TypeVarType::get(ctx, rename.getValue(), var.getKind());
        return var;
      })
      .Case([&](PolyTensorType poly) -> Type {
        Builder b(ctx);
        StringAttr shapeVar = poly.getShapeVar();
        SmallVector<Attribute> dims;
        if (shapeVar) {
          Attribute arg = subst.lookup(shapeVar.getValue());
          if (auto sizes = dyn_cast_or_null<DenseI64ArrayAttr>(arg)) {
            shapeVar = nullptr;
            for (int64_t d : sizes.asArrayRef())
              dims.push_back(b.getI64IntegerAttr(d));
          } else if (auto rename = dyn_cast_or_null<StringAttr>(arg)) {
            shapeVar = rename;
          }
        }
        for (Attribute dim : poly.getDims()) {
          auto name = dyn_cast<StringAttr>(dim);
          Attribute arg = name ? subst.lookup(name.getValue()) : Attribute();
          dims.push_back(isa_and_nonnull<IntegerAttr, StringAttr>(arg) ? arg
                                                                       : dim);
        }
        Type dtype = substitute(poly.getDtype(), subst);
        return makeTensorType(ctx, shapeVar, dims, dtype);
      })
      .Case([&](TupleType tuple) -> Type {
        return TupleType::get(ctx, substituteAll(tuple.getTypes(), subst));
      })
      .Case([&](FuncType fn) -> Type {
        // The function's own type parameters shadow outer ones.
        TypeSubstitution inner = subst;
        for (TypeVarType param : fn.getTypeParams())
          inner.erase(param.getName());
        SmallVector<TypeRelationAttr> rels;
        for (TypeRelationAttr rel : fn.getRelations())
          rels.push_back(TypeRelationAttr::get(
              ctx, rel.getName(), substituteAll(rel.getArgs(), inner)));
        return FuncType::get(ctx, fn.getTypeParams(),
                             substituteAll(fn.getInputs(), inner),
                             substitute(fn.getResult(), inner), rels);
      })
      .Case([&](RefType ref) -> Type {
        return RefType::get(ctx, substitute(ref.getElementType(), subst));
      })
      .Case([&](AdtType adt) -> Type {
        return AdtType::get(ctx, adt.getName(),
                            substituteAll(adt.getArgs(), subst));
      })
      .Default([](Type t) { return t; });
}

LogicalResult
mlir::relay::verifyTypeArgument(TypeVarType param, Attribute arg,
                                function_ref<InFlightDiagnostic()> emitError) {
  auto typeAttr = dyn_cast<TypeAttr>(arg);
  switch (param.getKind()) {
  case TypeKind::Type:
    if (typeAttr)
      return success();
    return emitError() << "type argument for '" << param.getName()
                       << "' (kind Type) must be a type, got " << arg;
  case TypeKind::BaseType:
    if (typeAttr && (typeAttr.getValue().isIntOrFloat() ||
                     isa<TypeVarType>(typeAttr.getValue())))
      return success();
    return emitError() << "type argument for '" << param.getName()
                       << "' (kind BaseType) must be an element type, got "
                       << arg;
  case TypeKind::Shape:
    if (isa<DenseI64ArrayAttr>(arg))
      return success();
    return emitError() << "type argument for '" << param.getName()
                       << "' (kind Shape) must be array<i64: ...>, got " << arg;
  case TypeKind::ShapeVar:
    if (isa<IntegerAttr>(arg))
      return success();
    return emitError() << "type argument for '" << param.getName()
                       << "' (kind ShapeVar) must be an integer, got " << arg;
  }
  llvm_unreachable("unknown type kind");
}

void mlir::relay::walkTypeVars(Type type,
                               function_ref<void(StringRef, TypeKind)> fn) {
  type.walk([&](Type t) {
    if (auto var = dyn_cast<TypeVarType>(t)) {
      fn(var.getName(), var.getKind());
    } else if (auto poly = dyn_cast<PolyTensorType>(t)) {
      if (poly.hasShapeVar())
        fn(poly.getShapeVar().getValue(), TypeKind::Shape);
      for (Attribute dim : poly.getDims())
        if (auto name = dyn_cast<StringAttr>(dim))
          fn(name.getValue(), TypeKind::ShapeVar);
    }
  });
}

std::optional<int64_t> mlir::relay::staticTensorBytes(RankedTensorType type) {
  if (!type.hasStaticShape())
    return std::nullopt;
  Type e = type.getElementType();
  int64_t bytes = e.isIntOrFloat()
                      ? std::max<int64_t>(1, e.getIntOrFloatBitWidth() / 8)
                      : 8;
  for (int64_t d : type.getShape())
    if (__builtin_mul_overflow(bytes, d, &bytes))
      return std::nullopt;
  // The largest int64 is where the relations' dimension arithmetic
  // saturates (mulDims, addDims): a size that overflowed.
  if (bytes == std::numeric_limits<int64_t>::max())
    return std::nullopt;
  return bytes;
}

RankedTensorType
mlir::relay::findTensorType(Type type,
                            function_ref<bool(RankedTensorType)> pred) {
  RankedTensorType found;
  type.walk([&](RankedTensorType t) {
    if (!found && t.hasStaticShape() && pred(t))
      found = t;
  });
  return found;
}

std::optional<std::pair<RankedTensorType, Location>>
mlir::relay::findTensorValue(Operation *root,
                             function_ref<bool(RankedTensorType)> pred) {
  std::optional<std::pair<RankedTensorType, Location>> found;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    auto check = [&](Type type, Location loc) {
      if (RankedTensorType t = findTensorType(type, pred))
        found.emplace(t, loc);
      return found.has_value();
    };
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (check(arg.getType(), arg.getLoc()))
            return WalkResult::interrupt();
    for (Value v : op->getResults())
      if (check(v.getType(), op->getLoc()))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found;
}
