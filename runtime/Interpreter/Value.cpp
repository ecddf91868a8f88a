//===- Value.cpp - Run-time values of the Relay interpreter -----*- C++ -*-===//

#include "runtime/Interpreter/Value.h"

#include <unistd.h>

#include "dialects/relay/RelayOps.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallString.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

double mlir::relay::interp::roundToFloat(Type elementType, double v) {
  if (elementType.isF64() || std::isnan(v))
    return v;
  if (elementType.isF32())
    return static_cast<double>(static_cast<float>(v));
  auto floatType = dyn_cast<FloatType>(elementType);
  if (!floatType)
    return v;
  APFloat value(v);
  bool losesInfo;
  value.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToDouble();
}

int64_t mlir::relay::interp::wrapToInt(Type elementType, int64_t v) {
  auto integer = dyn_cast<IntegerType>(elementType);
  if (!integer)
    return v;
  unsigned width = integer.getWidth();
  if (width == 1)
    return v != 0;
  if (width >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t bits = static_cast<uint64_t>(v) & mask;
  if (integer.isUnsigned())
    return static_cast<int64_t>(bits);
  // Sign-extend.
  uint64_t sign = uint64_t(1) << (width - 1);
  return static_cast<int64_t>((bits ^ sign) - sign);
}

Tensor::Tensor(Type elementType, ArrayRef<int64_t> shape)
    : elementType(elementType), shape(shape) {
  size = 1;
  for (int64_t d : shape)
    size *= d;
  floating = isa<FloatType>(elementType);
  isF32 = elementType.isF32();
  isF64 = elementType.isF64();
  isI64 = elementType.isInteger(64); // wraps to itself, signed or not
  isU64 = elementType.isUnsignedInteger(64);
  if (floating)
    f.assign(size, 0.0);
  else
    n.assign(size, 0);
}

int64_t mlir::relay::interp::physicalMemoryBytes() {
  static const int64_t bytes = [] {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? int64_t(pages) * size : INT64_MAX;
  }();
  return bytes;
}

std::optional<int64_t>
mlir::relay::interp::interpreterBytes(RankedTensorType type) {
  int64_t bytes = sizeof(double);
  for (int64_t d : type.getShape())
    if (d < 0 || __builtin_mul_overflow(bytes, d, &bytes))
      return std::nullopt;
  return bytes;
}

RankedTensorType Tensor::getType() const {
  return RankedTensorType::get(shape, elementType);
}

void Tensor::copyElements(int64_t to, const Tensor &in, int64_t from,
                          int64_t count) {
  if (in.elementType == elementType) {
    if (floating)
      std::copy_n(in.f.begin() + from, count, f.begin() + to);
    else
      std::copy_n(in.n.begin() + from, count, n.begin() + to);
    return;
  }
  for (int64_t k = 0; k < count; ++k) {
    if (in.floating)
      setF(to + k, in.f[from + k]);
    else
      setI(to + k, in.n[from + k]);
  }
}

void Tensor::setOtherF(int64_t i, double v) {
  if (floating)
    f[i] = roundToFloat(elementType, v);
  else if (std::isnan(v))
    n[i] = 0;
  else if (isU64 && v >= 0x1p63)
    // Past INT64_MAX: through uint64 (saturated, where C would be undefined).
    n[i] = static_cast<int64_t>(v >= 0x1p64 ? UINT64_MAX : uint64_t(v));
  else
    n[i] = wrapToInt(elementType, static_cast<int64_t>(v));
}

void Tensor::setOtherI(int64_t i, int64_t v) {
  if (floating)
    setF(i, static_cast<double>(v));
  else
    n[i] = wrapToInt(elementType, v);
}

SmallVector<int64_t> Tensor::strides() const {
  SmallVector<int64_t> s(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}

Tensor Tensor::fromAttr(DenseElementsAttr attr) {
  auto type = cast<ShapedType>(attr.getType());
  Type e = type.getElementType();
  Tensor t(e, type.getShape());
  int64_t i = 0;
  // The common dtypes are read from the raw buffer: going through APFloat
  // per element made folding a network's weights take seconds.
  if (e.isF32()) {
    for (float v : attr.getValues<float>())
      t.f[i++] = v;
  } else if (e.isF64()) {
    for (double v : attr.getValues<double>())
      t.f[i++] = v;
  } else if (t.floating) {
    for (APFloat v : attr.getValues<APFloat>()) {
      bool losesInfo;
      v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                &losesInfo);
      t.f[i++] = v.convertToDouble();
    }
  } else if (e.isSignlessInteger(32) || e.isSignedInteger(32)) {
    for (int32_t v : attr.getValues<int32_t>())
      t.n[i++] = v;
  } else if (e.isSignlessInteger(64) || e.isSignedInteger(64)) {
    for (int64_t v : attr.getValues<int64_t>())
      t.n[i++] = v;
  } else if (e.isSignlessInteger(8) || e.isSignedInteger(8)) {
    for (int8_t v : attr.getValues<int8_t>())
      t.n[i++] = v;
  } else if (e.isUnsignedInteger(8)) {
    for (uint8_t v : attr.getValues<uint8_t>())
      t.n[i++] = v;
  } else {
    bool isUnsigned = e.isUnsignedInteger();
    for (APInt v : attr.getValues<APInt>())
      t.n[i++] = isUnsigned || v.getBitWidth() == 1
                     ? static_cast<int64_t>(v.getZExtValue())
                     : v.getSExtValue();
  }
  return t;
}

FailureOr<Tensor> Tensor::fromResource(DenseResourceElementsAttr attr) {
  auto type = cast<ShapedType>(attr.getType());
  Type e = type.getElementType();
  AsmResourceBlob *blob = attr.getRawHandle().getBlob();
  if (!blob || e.isInteger(1))
    return failure();
  ArrayRef<char> data = blob->getData();
  unsigned width = e.getIntOrFloatBitWidth();
  size_t size = width / 8;
  if (data.size() != static_cast<size_t>(type.getNumElements()) * size)
    return failure();
  Tensor t(e, type.getShape());
  bool isUnsigned = e.isUnsignedInteger();
  int64_t n = type.getNumElements();
  // As in fromAttr, the common dtypes without a type query per element.
  if (e.isF32()) {
    for (int64_t i = 0; i < n; ++i) {
      float v;
      std::memcpy(&v, data.data() + i * size, sizeof(v));
      t.f[i] = v;
    }
    return t;
  }
  if (e.isF64()) {
    std::memcpy(t.f.data(), data.data(), n * sizeof(double));
    return t;
  }
  auto floatType = dyn_cast<FloatType>(e);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t word = 0;
    std::memcpy(&word, data.data() + i * size, size);
    APInt bits(width, word);
    if (floatType) {
      APFloat v(floatType.getFloatSemantics(), bits);
      bool losesInfo;
      v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                &losesInfo);
      t.f[i] = v.convertToDouble();
    } else {
      t.n[i] = isUnsigned ? static_cast<int64_t>(bits.getZExtValue())
                          : bits.getSExtValue();
    }
  }
  return t;
}

/// The values of `t` read as `T` (the dtype's C type), for a dense
/// attribute built from its raw bytes.
template <typename T, typename Values>
static DenseElementsAttr denseOf(RankedTensorType type, const Values &values) {
  std::vector<T> raw(values.begin(), values.end());
  return DenseElementsAttr::get(type, ArrayRef<T>(raw));
}

DenseElementsAttr Tensor::toAttr() const {
  RankedTensorType type = getType();
  // As in fromAttr, the common dtypes skip APFloat and APInt.
  if (isF32)
    return denseOf<float>(type, f);
  if (isF64)
    return DenseElementsAttr::get(type, ArrayRef<double>(f));
  if (floating) {
    auto floatType = cast<FloatType>(elementType);
    SmallVector<APFloat> values;
    for (double v : f) {
      APFloat x(v);
      bool losesInfo;
      x.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &losesInfo);
      values.push_back(x);
    }
    return DenseElementsAttr::get(type, values);
  }
  if (elementType.isSignlessInteger(32) || elementType.isSignedInteger(32))
    return denseOf<int32_t>(type, n);
  if (elementType.isSignlessInteger(64) || elementType.isSignedInteger(64))
    return DenseElementsAttr::get(type, ArrayRef<int64_t>(n));
  if (elementType.isSignlessInteger(8) || elementType.isSignedInteger(8))
    return denseOf<int8_t>(type, n);
  if (elementType.isUnsignedInteger(8))
    return denseOf<uint8_t>(type, n);
  unsigned width = elementType.getIntOrFloatBitWidth();
  SmallVector<APInt> values;
  for (int64_t v : n)
    values.push_back(
        APInt(width, static_cast<uint64_t>(v),
              /*isSigned=*/!elementType.isUnsignedInteger() && width > 1));
  return DenseElementsAttr::get(type, values);
}

Tensor Tensor::reshaped(ArrayRef<int64_t> newShape) const {
  Tensor t = *this;
  t.shape.assign(newShape.begin(), newShape.end());
  return t;
}

ValuePtr RuntimeValue::tensor(Tensor t) {
  auto v = std::make_shared<RuntimeValue>();
  v->kind = Kind::Tensor;
  v->t = std::move(t);
  return v;
}

ValuePtr RuntimeValue::tuple(std::vector<ValuePtr> fields) {
  auto v = std::make_shared<RuntimeValue>();
  v->kind = Kind::Tuple;
  v->fields = std::move(fields);
  return v;
}

ValuePtr RuntimeValue::closure(Operation *fn, std::shared_ptr<Env> env) {
  auto v = std::make_shared<RuntimeValue>();
  v->kind = Kind::Closure;
  v->op = fn;
  v->env = std::move(env);
  return v;
}

ValuePtr RuntimeValue::adt(Operation *ctor, std::vector<ValuePtr> fields) {
  auto v = std::make_shared<RuntimeValue>();
  v->kind = Kind::Adt;
  v->op = ctor;
  v->fields = std::move(fields);
  return v;
}

ValuePtr RuntimeValue::ref(ValuePtr initial) {
  auto v = std::make_shared<RuntimeValue>();
  v->kind = Kind::Ref;
  v->cell = std::make_shared<ValuePtr>(std::move(initial));
  return v;
}

RuntimeValue::~RuntimeValue() {
  // The values this one owns alone are emptied into a worklist before they
  // die, so each destructor finds nothing nested left to destroy.
  std::vector<ValuePtr> pending;
  auto takeChildren = [&](RuntimeValue &v) {
    for (ValuePtr &field : v.fields)
      if (field)
        pending.push_back(std::move(field));
    v.fields.clear();
    if (v.cell && v.cell.use_count() == 1 && *v.cell)
      pending.push_back(std::move(*v.cell));
    if (v.env && v.env.use_count() == 1) {
      for (auto &entry : v.env->values)
        if (entry.second)
          pending.push_back(std::move(entry.second));
      v.env->values.clear();
    }
  };
  takeChildren(*this);
  while (!pending.empty()) {
    ValuePtr v = std::move(pending.back());
    pending.pop_back();
    if (v.use_count() == 1)
      takeChildren(*v);
  }
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

static void printScalar(raw_ostream &os, const Tensor &t, int64_t i) {
  Type e = t.getElementType();
  if (e.isInteger(1)) {
    os << (t.getB(i) ? "True" : "False");
    return;
  }
  if (!t.isFloat()) {
    if (e.isUnsignedInteger(64))
      os << static_cast<uint64_t>(t.getI(i));
    else
      os << t.getI(i);
    return;
  }
  double v = t.getF(i);
  if (std::isnan(v)) {
    os << "nan";
    return;
  }
  if (std::isinf(v)) {
    os << (v < 0 ? "-inf" : "inf");
    return;
  }
  // The shortest text that reads back as the same value of the dtype.
  APFloat x(v);
  bool losesInfo;
  x.convert(cast<FloatType>(e).getFloatSemantics(),
            APFloat::rmNearestTiesToEven, &losesInfo);
  SmallString<32> text;
  x.toString(text, /*FormatPrecision=*/0, /*FormatMaxPadding=*/8);
  if (text.str().find_first_of(".eEn") == StringRef::npos)
    text += ".0";
  os << text;
}

static void printTensor(raw_ostream &os, const Tensor &t, int64_t dim,
                        int64_t offset, ArrayRef<int64_t> strides) {
  if (dim == t.getRank()) {
    printScalar(os, t, offset);
    return;
  }
  os << "[";
  for (int64_t i = 0; i < t.getShape()[dim]; ++i) {
    if (i)
      os << ", ";
    printTensor(os, t, dim + 1, offset + i * strides[dim], strides);
  }
  os << "]";
}

void mlir::relay::interp::printValue(raw_ostream &os, const ValuePtr &v) {
  switch (v->getKind()) {
  case RuntimeValue::Kind::Tensor: {
    const Tensor &t = v->getTensor();
    printTensor(os, t, 0, 0, t.strides());
    return;
  }
  case RuntimeValue::Kind::Tuple: {
    os << "(";
    for (auto [i, f] : llvm::enumerate(v->getFields())) {
      if (i)
        os << ", ";
      printValue(os, f);
    }
    os << (v->getFields().size() == 1 ? ",)" : ")");
    return;
  }
  case RuntimeValue::Kind::Closure:
    os << "<closure>";
    return;
  case RuntimeValue::Kind::Adt: {
    // The last field of each constructor, when it is an ADT value too (a
    // list's tail), is printed in this loop: a long list nests as deep as
    // it is long.
    unsigned open = 0;
    for (const RuntimeValue *at = v.get();;) {
      os << cast<CtorOp>(at->getConstructor()).getSymName();
      ArrayRef<ValuePtr> fields = at->getFields();
      if (fields.empty())
        break;
      os << "(";
      ++open;
      for (const ValuePtr &f : fields.drop_back()) {
        printValue(os, f);
        os << ", ";
      }
      if (fields.back()->getKind() != RuntimeValue::Kind::Adt) {
        printValue(os, fields.back());
        break;
      }
      at = fields.back().get();
    }
    for (; open; --open)
      os << ")";
    return;
  }
  case RuntimeValue::Kind::Ref:
    os << "ref(";
    printValue(os, v->getRefContents());
    os << ")";
    return;
  }
}

Type mlir::relay::interp::typeOfValue(const ValuePtr &v) {
  if (v->isTensor())
    return v->getTensor().getType();
  if (v->getKind() == RuntimeValue::Kind::Tuple) {
    SmallVector<Type> fields;
    for (const ValuePtr &f : v->getFields()) {
      Type t = typeOfValue(f);
      if (!t)
        return Type();
      fields.push_back(t);
    }
    if (fields.empty())
      return Type();
    return TupleType::get(fields.front().getContext(), fields);
  }
  return Type();
}
