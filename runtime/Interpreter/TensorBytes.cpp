//===- TensorBytes.cpp - Tensors as packed row-major buffers ----*- C++ -*-===//

#include "runtime/Interpreter/TensorBytes.h"

#include "llvm/ADT/APFloat.h"

#include <cstring>

using namespace mlir;
using namespace mlir::relay::interp;

/// Bytes compiled code uses for one element of `t`.
unsigned mlir::relay::interp::elementBytes(Type t) {
  return t.isInteger(1) ? 1 : t.getIntOrFloatBitWidth() / 8;
}

namespace {
/// How compiled code stores one element, decided once per tensor (type
/// queries per element would dominate the call).
struct ElementLayout {
  enum Kind { F32, F64, F16, BF16, SignedInt, UnsignedInt } kind;
  unsigned bytes;

  explicit ElementLayout(Type t) {
    bytes = elementBytes(t);
    if (t.isF32())
      kind = F32;
    else if (t.isF64())
      kind = F64;
    else if (t.isF16())
      kind = F16;
    else if (t.isBF16())
      kind = BF16;
    else if (t.isUnsignedInteger() || t.isInteger(1))
      kind = UnsignedInt;
    else
      kind = SignedInt;
  }

  void store(char *p, const Tensor &tensor, int64_t i) const {
    switch (kind) {
    case F32: {
      float v = static_cast<float>(tensor.getF(i));
      std::memcpy(p, &v, 4);
      return;
    }
    case F64: {
      double v = tensor.getF(i);
      std::memcpy(p, &v, 8);
      return;
    }
    case F16:
    case BF16: {
      llvm::APFloat v(tensor.getF(i));
      bool lost;
      v.convert(kind == F16 ? llvm::APFloat::IEEEhalf()
                            : llvm::APFloat::BFloat(),
                llvm::APFloat::rmNearestTiesToEven, &lost);
      uint16_t raw = v.bitcastToAPInt().getZExtValue();
      std::memcpy(p, &raw, 2);
      return;
    }
    default: {
      int64_t v = tensor.getI(i);
      std::memcpy(p, &v, bytes); // little-endian truncation
    }
    }
  }

  void load(const char *p, Tensor &tensor, int64_t i) const {
    switch (kind) {
    case F32: {
      float v;
      std::memcpy(&v, p, 4);
      tensor.setF(i, v);
      return;
    }
    case F64: {
      double v;
      std::memcpy(&v, p, 8);
      tensor.setF(i, v);
      return;
    }
    case F16:
    case BF16: {
      uint16_t raw;
      std::memcpy(&raw, p, 2);
      llvm::APFloat v(kind == F16 ? llvm::APFloat::IEEEhalf()
                                  : llvm::APFloat::BFloat(),
                      llvm::APInt(16, raw));
      bool lost;
      v.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
      tensor.setF(i, v.convertToDouble());
      return;
    }
    default: {
      int64_t v = 0;
      std::memcpy(&v, p, bytes);
      unsigned bits = bytes * 8;
      if (bits < 64 && kind == SignedInt)
        v = (v << (64 - bits)) >> (64 - bits); // sign-extend
      tensor.setI(i, v);
    }
    }
  }
};
} // namespace

/// The bytes of a tensor as compiled code stores it.
std::vector<char> mlir::relay::interp::tensorBytes(const Tensor &t) {
  ElementLayout layout(t.getElementType());
  std::vector<char> data(std::max<int64_t>(1, t.getNumElements()) *
                         layout.bytes);
  for (int64_t k = 0; k < t.getNumElements(); ++k)
    layout.store(data.data() + k * layout.bytes, t, k);
  return data;
}

/// A tensor of `type` from bytes as compiled code stores it.
Tensor mlir::relay::interp::tensorFromBytes(RankedTensorType type,
                                            const char *data) {
  Tensor out(type.getElementType(), type.getShape());
  ElementLayout layout(type.getElementType());
  for (int64_t k = 0; k < out.getNumElements(); ++k)
    layout.load(data + k * layout.bytes, out, k);
  return out;
}
