//===- Tensors.cpp - ONNX TensorProto to MLIR attributes --------*- C++ -*-===//

#include "frontends/ONNX/NodeContext.h"

#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"

#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::relay::onnx_import;

/// Tensors with more elements than this become `dense_resource` blobs.
static constexpr int64_t kMaxInlineElements = 64;

Type mlir::relay::onnx_import::convertDataType(MLIRContext *ctx, int dataType) {
  Builder b(ctx);
  using T = onnx::TensorProto;
  switch (dataType) {
  case T::FLOAT:
    return b.getF32Type();
  case T::DOUBLE:
    return b.getF64Type();
  case T::FLOAT16:
    return b.getF16Type();
  case T::BFLOAT16:
    return b.getBF16Type();
  case T::BOOL:
    return b.getI1Type();
  case T::INT8:
    return b.getIntegerType(8);
  case T::INT16:
    return b.getIntegerType(16);
  case T::INT32:
    return b.getIntegerType(32);
  case T::INT64:
    return b.getIntegerType(64);
  case T::UINT8:
    return b.getIntegerType(8, /*isSigned=*/false);
  case T::UINT16:
    return b.getIntegerType(16, /*isSigned=*/false);
  case T::UINT32:
    return b.getIntegerType(32, /*isSigned=*/false);
  case T::UINT64:
    return b.getIntegerType(64, /*isSigned=*/false);
  // 4-bit integers (ONNX 1.16, data types 21 and 22, newer than Debian's
  // onnx 1.12) are held in 8-bit integers: their values, widened.
  case kUInt4:
    return b.getIntegerType(8, /*isSigned=*/false);
  case kInt4:
    return b.getIntegerType(8);
  default:
    return Type();
  }
}

bool mlir::relay::onnx_import::isFourBit(int dataType) {
  return dataType == kUInt4 || dataType == kInt4;
}

/// The values of a 4-bit tensor, packed two to a byte (the first in the low
/// nibble) in raw_data or one byte per int32_data entry, as the bytes of
/// their 8-bit containers: sign-extended for INT4.
static FailureOr<ArrayRef<char>> unpackFourBit(const onnx::TensorProto &tensor,
                                               int64_t count, Location loc,
                                               std::string &storage) {
  int64_t packed = (count + 1) / 2;
  bool raw = tensor.has_raw_data();
  int64_t held = raw ? int64_t(tensor.raw_data().size())
                     : int64_t(tensor.int32_data_size());
  if (held != packed)
    return emitError(loc) << "tensor '" << tensor.name() << "' of "
                          << dataTypeName(tensor.data_type()) << " holds "
                          << held << (raw ? " bytes" : " values") << " for its "
                          << count << " elements, expected " << packed
                          << " (two to a byte)";
  bool isSigned = tensor.data_type() == kInt4;
  storage.resize(count);
  for (int64_t i = 0; i < count; ++i) {
    auto byte = static_cast<uint8_t>(raw ? tensor.raw_data()[i / 2]
                                         : tensor.int32_data(i / 2));
    int nibble = i % 2 ? byte >> 4 : byte & 0xf;
    storage[i] =
        static_cast<char>(isSigned && nibble >= 8 ? nibble - 16 : nibble);
  }
  return ArrayRef<char>(storage.data(), storage.size());
}

std::string mlir::relay::onnx_import::shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(shape, os, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      os << '?';
    else
      os << d;
  });
  return s + "]";
}

std::string mlir::relay::onnx_import::dataTypeName(int dataType) {
  std::string name = onnx::TensorProto::DataType_Name(
      static_cast<onnx::TensorProto::DataType>(dataType));
  if (!name.empty())
    return name;
  // Types newer than Debian's onnx 1.12 (float8 from ONNX 1.14, 4-bit
  // integers from 1.16, float4 from 1.18, float8e8m0 from 1.19, 2-bit
  // integers from 1.20).
  static const char *const kNewer[] = {
      "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4",
      "INT4",         "FLOAT4E2M1",     "FLOAT8E8M0", "UINT2",          "INT2"};
  if (dataType >= 17 && dataType < 17 + int(std::size(kNewer)))
    return kNewer[dataType - 17];
  return "data type " + std::to_string(dataType);
}

/// The element bytes of `tensor` in little-endian memory order, one byte
/// per bool, whichever field the producer used: its raw data in place, or
/// the typed fields' values copied into `storage`.
static FailureOr<ArrayRef<char>> elementBytes(const onnx::TensorProto &tensor,
                                              Type elementType, int64_t count,
                                              Location loc,
                                              std::string &storage) {
  unsigned width = elementType.getIntOrFloatBitWidth();
  size_t elementSize = width == 1 ? 1 : width / 8;
  using T = onnx::TensorProto;
  if (tensor.has_raw_data()) {
    // (Not copied: a network's weights are most of its bytes.)
    const std::string &raw = tensor.raw_data();
    if (raw.size() != count * elementSize)
      return emitError(loc)
             << "tensor '" << tensor.name() << "' has " << raw.size()
             << " bytes of raw data, expected " << count * elementSize;
    return ArrayRef<char>(raw.data(), raw.size());
  }
  // The values the field holds, checked before a buffer of `count`
  // elements is made: a corrupt model may claim any shape.
  int64_t held;
  switch (tensor.data_type()) {
  case T::FLOAT:
    held = tensor.float_data_size();
    break;
  case T::DOUBLE:
    held = tensor.double_data_size();
    break;
  case T::INT64:
    held = tensor.int64_data_size();
    break;
  case T::UINT32:
  case T::UINT64:
    held = tensor.uint64_data_size();
    break;
  default:
    held = tensor.int32_data_size();
    break;
  }
  if (held != count)
    return emitError(loc) << "tensor '" << tensor.name() << "' holds " << held
                          << " values for its " << count << " elements";
  storage.resize(count * elementSize);
  char *out = storage.data();
  auto put = [&](auto value, int64_t i) {
    // Narrow integers (and halves, as bit patterns) are stored in
    // int32_data; copy the low bytes.
    std::memcpy(out + i * elementSize, &value,
                std::min(sizeof(value), elementSize));
  };
  switch (tensor.data_type()) {
  case T::FLOAT:
    for (int64_t i = 0; i < count; ++i)
      put(tensor.float_data(i), i);
    break;
  case T::DOUBLE:
    for (int64_t i = 0; i < count; ++i)
      put(tensor.double_data(i), i);
    break;
  case T::INT64:
    for (int64_t i = 0; i < count; ++i)
      put(tensor.int64_data(i), i);
    break;
  case T::UINT32:
  case T::UINT64:
    for (int64_t i = 0; i < count; ++i)
      put(tensor.uint64_data(i), i);
    break;
  default:
    for (int64_t i = 0; i < count; ++i)
      put(tensor.int32_data(i), i);
    break;
  }
  return ArrayRef<char>(storage.data(), storage.size());
}

FailureOr<ElementsAttr>
mlir::relay::onnx_import::convertTensor(const onnx::TensorProto &tensor,
                                        MLIRContext *ctx, Location loc) {
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL)
    return emitError(loc) << "tensor '" << tensor.name()
                          << "' keeps its data in an external file that "
                             "was not loaded (loadExternalData)";
  Type elementType = convertDataType(ctx, tensor.data_type());
  if (!elementType)
    return emitError(loc) << "tensor '" << tensor.name()
                          << "' has an unsupported data type ("
                          << dataTypeName(tensor.data_type()) << ")";
  SmallVector<int64_t> shape(tensor.dims().begin(), tensor.dims().end());
  int64_t count = 1;
  for (int64_t d : shape) {
    if (d < 0)
      return emitError(loc)
             << "tensor '" << tensor.name() << "' has a negative dimension";
    // (Sizes in bytes, up to 8 per element, must not overflow either.)
    if (__builtin_mul_overflow(count, d, &count) ||
        count > std::numeric_limits<int64_t>::max() / 8)
      return emitError(loc) << "tensor '" << tensor.name()
                            << "' has more elements than memory can hold";
  }
  auto type = RankedTensorType::get(shape, elementType);
  std::string storage;
  FailureOr<ArrayRef<char>> bytes =
      isFourBit(tensor.data_type())
          ? unpackFourBit(tensor, count, loc, storage)
          : elementBytes(tensor, elementType, count, loc, storage);
  if (failed(bytes))
    return failure();
  if (elementType.isInteger(1)) {
    SmallVector<bool> values;
    for (char c : *bytes)
      values.push_back(c != 0);
    return ElementsAttr(DenseElementsAttr::get(type, values));
  }
  if (count > kMaxInlineElements) {
    std::string name = tensor.name().empty() ? "onnx_tensor" : tensor.name();
    // The blob is owned by the context; compiled code reads it in place
    // (runtime/Executor/SharedWeights.h), 64-byte aligned like a global.
    AsmResourceBlob blob =
        HeapAsmResourceBlob::allocateAndCopyWithAlign(*bytes, 64);
    return ElementsAttr(
        DenseResourceElementsAttr::get(type, name, std::move(blob)));
  }
  return ElementsAttr(DenseElementsAttr::getFromRawBuffer(type, *bytes));
}

/// Visits the elements of a constant (dense or resource) in order.
static void forEachElement(ElementsAttr attr,
                           llvm::function_ref<void(APInt)> onInt,
                           llvm::function_ref<void(APFloat)> onFloat) {
  Type e = attr.getElementType();
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (isa<FloatType>(e))
      for (APFloat v : dense.getValues<APFloat>())
        onFloat(v);
    else
      for (APInt v : dense.getValues<APInt>())
        onInt(v);
    return;
  }
  auto resource = cast<DenseResourceElementsAttr>(attr);
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob)
    return;
  ArrayRef<char> data = blob->getData();
  unsigned width = e.getIntOrFloatBitWidth();
  size_t size = width / 8;
  for (size_t offset = 0; offset + size <= data.size(); offset += size) {
    uint64_t word = 0;
    std::memcpy(&word, data.data() + offset, size);
    APInt bits(width, word);
    if (auto f = dyn_cast<FloatType>(e))
      onFloat(APFloat(f.getFloatSemantics(), bits));
    else
      onInt(bits);
  }
}

SmallVector<int64_t> mlir::relay::onnx_import::readInts(ElementsAttr attr) {
  SmallVector<int64_t> out;
  bool isUnsigned = attr.getElementType().isUnsignedInteger() ||
                    attr.getElementType().isInteger(1);
  forEachElement(
      attr,
      [&](APInt v) {
        out.push_back(isUnsigned ? static_cast<int64_t>(v.getZExtValue())
                                 : v.getSExtValue());
      },
      [&](APFloat v) {
        // Toward zero, saturated at int64's range, NaN as 0 (APFloat's
        // conversion of an invalid value): a corrupt constant must not be
        // undefined behaviour.
        APSInt i(64, /*isUnsigned=*/false);
        bool exact;
        (void)v.convertToInteger(i, APFloat::rmTowardZero, &exact);
        out.push_back(i.getSExtValue());
      });
  return out;
}

SmallVector<double> mlir::relay::onnx_import::readDoubles(ElementsAttr attr) {
  SmallVector<double> out;
  bool isUnsigned = attr.getElementType().isUnsignedInteger() ||
                    attr.getElementType().isInteger(1);
  forEachElement(
      attr,
      [&](APInt v) {
        out.push_back(isUnsigned ? static_cast<double>(v.getZExtValue())
                                 : static_cast<double>(v.getSExtValue()));
      },
      [&](APFloat v) {
        bool losesInfo;
        v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
        out.push_back(v.convertToDouble());
      });
  return out;
}
