//===- BoxedValues.cpp - Boxed Relay values in native code ------*- C++ -*-===//

#include "conversion/RelayCommon/BoxedValues.h"

#include "dialects/relay/RelayOps.h"
#include "dialects/relay/RelayTypes.h"
#include "dialects/relay/TypeUtils.h"
#include "support/DecomposedFrom.h"
#include "support/OnnxNodeName.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::relay;

Type mlir::relay::signlessType(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  if (!tensor || !tensor.getElementType().isUnsignedInteger())
    return t;
  return tensor.clone(IntegerType::get(
      t.getContext(), tensor.getElementType().getIntOrFloatBitWidth()));
}

static thread_local bool unsignedOp = false;

static bool hasUnsignedElements(Type t) {
  auto shaped = dyn_cast<ShapedType>(t);
  return shaped && shaped.getElementType().isUnsignedInteger();
}

UnsignedOpScope::UnsignedOpScope(Operation *op) : saved(unsignedOp) {
  unsignedOp = llvm::any_of(op->getOperandTypes(), hasUnsignedElements) ||
               llvm::any_of(op->getResultTypes(), hasUnsignedElements);
}

UnsignedOpScope::~UnsignedOpScope() { unsignedOp = saved; }

bool UnsignedOpScope::isUnsignedOp() { return unsignedOp; }

LogicalResult mlir::relay::flattenType(Type t, SmallVectorImpl<Type> &out) {
  if (auto tuple = dyn_cast<TupleType>(t)) {
    for (Type field : tuple.getTypes())
      if (failed(flattenType(field, out)))
        return failure();
    return success();
  }
  if (isa<AdtType, RefType, FuncType>(t)) {
    // A boxed tensor is read back at its static shape: an ADT, reference or
    // closure holding one of `?` sizes has no lowering (its unboxing built
    // a descriptor of size INT64_MIN).
    if (hasDynamicTensor(t))
      return failure();
    out.push_back(LLVM::LLVMPointerType::get(t.getContext()));
    return success();
  }
  auto tensor = dyn_cast<RankedTensorType>(t);
  if (!tensor || !tensor.hasStaticShape() ||
      !tensor.getElementType().isIntOrFloat())
    return failure();
  out.push_back(signlessType(t));
  return success();
}

unsigned mlir::relay::flatSize(Type t) {
  SmallVector<Type> types;
  (void)flattenType(t, types);
  return types.size();
}

SmallVector<Type> mlir::relay::constructorFieldTypes(Operation *op, Type adt) {
  auto ctor = cast<CtorOp>(op);
  TypeSubstitution subst;
  auto args = cast<AdtType>(adt).getArgs();
  for (auto [param, arg] : llvm::zip(ctor.getDataOp().getTypeParamList(), args))
    subst[param.getName()] = TypeAttr::get(arg);
  return llvm::map_to_vector(ctor.getFieldTypes(),
                             [&](Type t) { return substitute(t, subst); });
}

func::FuncOp RuntimeCalls::declare(OpBuilder &b, StringRef name,
                                   TypeRange inputs, TypeRange results) {
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto f = func::FuncOp::create(
      b, module.getLoc(), name,
      FunctionType::get(module.getContext(), inputs, results));
  f.setPrivate();
  return f;
}

Value RuntimeCalls::call(OpBuilder &b, Location loc, StringRef name,
                         ValueRange args, TypeRange results) {
  func::FuncOp f = declare(b, name, args.getTypes(), results);
  auto c = func::CallOp::create(b, loc, f, args);
  return results.empty() ? Value() : c.getResult(0);
}

static Value i64(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
}

Value RuntimeCalls::alloc(OpBuilder &b, Location loc, int64_t tag,
                          int64_t numFields) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  return call(b, loc, "relay_rt_alloc",
              {i64(b, loc, tag), i64(b, loc, numFields)}, ptr);
}

Value RuntimeCalls::tag(OpBuilder &b, Location loc, Value object) {
  return call(b, loc, "relay_rt_tag", object, b.getI64Type());
}

void RuntimeCalls::setField(OpBuilder &b, Location loc, Value object,
                            int64_t index, Value value) {
  call(b, loc, "relay_rt_set_field", {object, i64(b, loc, index), value}, {});
}

Value RuntimeCalls::getField(OpBuilder &b, Location loc, Value object,
                             int64_t index) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  return call(b, loc, "relay_rt_get_field", {object, i64(b, loc, index)}, ptr);
}

Value RuntimeCalls::addressOf(OpBuilder &b, Location loc, Value memref) {
  Value index = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), asInt);
}

/// Bytes of a static tensor as compiled code stores it (i1 in a byte).
static int64_t tensorBytes(RankedTensorType t) {
  Type e = t.getElementType();
  int64_t bytes = e.isInteger(1) ? 1 : e.getIntOrFloatBitWidth() / 8;
  return bytes * t.getNumElements();
}

Value RuntimeCalls::box(OpBuilder &b, Location loc, Type type,
                        ValueRange values) {
  if (isa<AdtType, RefType, FuncType>(type))
    return values.front();
  if (auto tuple = dyn_cast<TupleType>(type)) {
    Value object = alloc(b, loc, 0, tuple.size());
    unsigned next = 0;
    for (auto [i, field] : llvm::enumerate(tuple.getTypes())) {
      unsigned n = flatSize(field);
      setField(b, loc, object, i, box(b, loc, field, values.slice(next, n)));
      next += n;
    }
    return object;
  }
  // A tensor: copy its bytes (a read-only identity-layout view of it).
  auto tensor = cast<RankedTensorType>(type);
  auto memrefType = MemRefType::get(tensor.getShape(), tensor.getElementType());
  Value buffer = bufferization::ToBufferOp::create(
      b, loc, memrefType, values.front(), /*read_only=*/true);
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  return call(b, loc, "relay_rt_box",
              {addressOf(b, loc, buffer), i64(b, loc, tensorBytes(tensor))},
              ptr);
}

SmallVector<Value> RuntimeCalls::unbox(OpBuilder &b, Location loc, Type type,
                                       Value box) {
  if (isa<AdtType, RefType, FuncType>(type))
    return {box};
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Value> values;
    for (auto [i, field] : llvm::enumerate(tuple.getTypes()))
      llvm::append_range(values,
                         unbox(b, loc, field, getField(b, loc, box, i)));
    return values;
  }
  // A tensor: a read-only view of the bytes in the box, which is immutable
  // and lives in the arena as long as any value read from it (a copy per
  // read cost TreeLSTM the weights its closures carry, 97 KB a node, and
  // the allocator's trimming of those copies). Bufferization copies it
  // before any write; a function returning it returns a copy (ownership).
  auto tensor = cast<RankedTensorType>(type);
  auto memrefType = MemRefType::get(tensor.getShape(), tensor.getElementType());
  MLIRContext *ctx = b.getContext();
  auto i64Type = b.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  int64_t rank = tensor.getRank();
  SmallVector<Type> fields{ptr, ptr, i64Type};
  if (rank > 0) {
    fields.push_back(LLVM::LLVMArrayType::get(i64Type, rank));
    fields.push_back(LLVM::LLVMArrayType::get(i64Type, rank));
  }
  auto descriptorType = LLVM::LLVMStructType::getLiteral(ctx, fields);
  Value descriptor = LLVM::UndefOp::create(b, loc, descriptorType);
  auto insert = [&](Value value, ArrayRef<int64_t> position) {
    descriptor =
        LLVM::InsertValueOp::create(b, loc, descriptor, value, position);
  };
  insert(box, {0});
  insert(box, {1});
  insert(i64(b, loc, 0), {2});
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    insert(i64(b, loc, tensor.getDimSize(d)), {3, d});
    insert(i64(b, loc, stride), {4, d});
    stride *= tensor.getDimSize(d);
  }
  Value view =
      UnrealizedConversionCastOp::create(b, loc, memrefType, descriptor)
          .getResult(0);
  return {bufferization::ToTensorOp::create(b, loc, tensor, view,
                                            /*restrict=*/true,
                                            /*writable=*/false)};
}

SmallVector<Value> mlir::relay::placeholderValues(OpBuilder &b, Location loc,
                                                  TypeRange types) {
  SmallVector<Value> out;
  for (Type t : types) {
    if (auto tensor = dyn_cast<RankedTensorType>(t))
      out.push_back(tensor::EmptyOp::create(b, loc, tensor.getShape(),
                                            tensor.getElementType()));
    else
      out.push_back(LLVM::ZeroOp::create(b, loc, t));
  }
  return out;
}

std::string mlir::relay::describeLocation(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return (file.getFilename().str() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  return "<unknown>";
}

void RuntimeCalls::fail(OpBuilder &b, Location loc, StringRef message) {
  // The message as a private constant string.
  std::string name = "relay_rt_message_" + std::to_string(numStrings++);
  while (module.lookupSymbol(name))
    name = "relay_rt_message_" + std::to_string(numStrings++);
  std::string text = message.str();
  std::string composite = decomposedFrom(loc);
  if (!composite.empty())
    text += " (in the decomposition of " + composite + ")";
  std::string node = onnxNodeName(loc);
  if (!node.empty())
    text += " (ONNX node '" + node + "')";
  text.push_back('\0');
  auto arrayType = LLVM::LLVMArrayType::get(b.getI8Type(), text.size());
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(b, loc, arrayType, /*isConstant=*/true,
                           LLVM::Linkage::Private, name, b.getStringAttr(text));
  }
  Value address = LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), name);
  call(b, loc, "relay_rt_fail", address, {});
}
