//===- Npy.cpp - numpy .npy files -------------------------------*- C++ -*-===//

#include "runtime/Interpreter/Npy.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Endian.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

static const char kMagic[] = "\x93NUMPY";

/// The value of `key` in numpy's header dict (a Python literal).
static std::optional<StringRef> headerField(StringRef header, StringRef key) {
  std::string quoted = ("'" + key + "'").str();
  size_t at = header.find(quoted);
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef rest = header.drop_front(at + quoted.size()).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  return rest.ltrim();
}

FailureOr<Tensor> mlir::relay::interp::readNpy(MLIRContext *ctx,
                                               StringRef bytes,
                                               std::string &error) {
  auto bad = [&](const Twine &message) -> FailureOr<Tensor> {
    error = message.str();
    return failure();
  };
  if (bytes.size() < 10 || !bytes.starts_with(StringRef(kMagic, 6)))
    return bad("not a .npy file (no \\x93NUMPY magic)");
  uint8_t major = bytes[6];
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = llvm::support::endian::read16le(bytes.data() + 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return bad("truncated .npy header");
    headerLen = llvm::support::endian::read32le(bytes.data() + 8);
    headerStart = 12;
  } else {
    return bad("unsupported .npy version " + Twine(int(major)));
  }
  if (headerStart + headerLen > bytes.size())
    return bad("truncated .npy header");
  StringRef header = bytes.substr(headerStart, headerLen);
  // descr
  std::optional<StringRef> descr = headerField(header, "descr");
  if (!descr || descr->size() < 2 || (*descr)[0] != '\'')
    return bad("the .npy header has no 'descr'");
  StringRef code =
      descr->drop_front().take_until([](char c) { return c == '\''; });
  // Object arrays (numpy's dtype=object: strings, Python objects) hold
  // pickles, not numbers.
  if (code == "|O" || code == "O")
    return bad("the .npy file holds a numpy object array (strings or Python "
               "objects, dtype '" +
               code + "'); tensors are numeric");
  if (code.size() < 2)
    return bad("invalid dtype '" + code + "' in the .npy header");
  char order = code[0];
  if (order != '<' && order != '>' && order != '|' && order != '=')
    return bad("invalid dtype '" + code + "' in the .npy header");
  char kind = code[1];
  unsigned width;
  if (code.drop_front(2).getAsInteger(10, width))
    return bad("invalid dtype '" + code + "' in the .npy header");
  Type element;
  if (kind == 'b' && width == 1)
    element = IntegerType::get(ctx, 1);
  else if (kind == 'i' &&
           (width == 1 || width == 2 || width == 4 || width == 8))
    element = IntegerType::get(ctx, width * 8);
  else if (kind == 'u' &&
           (width == 1 || width == 2 || width == 4 || width == 8))
    element = IntegerType::get(ctx, width * 8, IntegerType::Unsigned);
  else if (kind == 'f' && width == 2)
    element = Float16Type::get(ctx);
  else if (kind == 'f' && width == 4)
    element = Float32Type::get(ctx);
  else if (kind == 'f' && width == 8)
    element = Float64Type::get(ctx);
  else
    return bad("unsupported dtype '" + code + "' in the .npy file");
  // fortran_order
  std::optional<StringRef> fortran = headerField(header, "fortran_order");
  if (!fortran)
    return bad("the .npy header has no 'fortran_order'");
  bool fortranOrder = fortran->starts_with("True");
  if (!fortranOrder && !fortran->starts_with("False"))
    return bad("invalid 'fortran_order' in the .npy header");
  // shape
  std::optional<StringRef> shapeText = headerField(header, "shape");
  if (!shapeText || !shapeText->starts_with("("))
    return bad("the .npy header has no 'shape'");
  StringRef dims =
      shapeText->drop_front().take_until([](char c) { return c == ')'; });
  SmallVector<int64_t> shape;
  SmallVector<StringRef> parts;
  dims.split(parts, ',');
  uint64_t count = 1;
  for (StringRef p : parts) {
    p = p.trim();
    if (p.empty())
      continue;
    int64_t d;
    if (p.getAsInteger(10, d) || d < 0)
      return bad("invalid shape (" + dims + ") in the .npy header");
    shape.push_back(d);
    count *= d;
    if (count > (uint64_t(1) << 34))
      return bad("the .npy array is too large");
  }
  size_t dataStart = headerStart + headerLen;
  if (bytes.size() - dataStart < count * width)
    return bad("the .npy file holds " + Twine(bytes.size() - dataStart) +
               " data bytes, its shape needs " + Twine(count * width));
  Tensor t(element, shape);
  const char *data = bytes.data() + dataStart;
  // Big-endian data (dtype '>f4', as some tools and machines write it):
  // each element's bytes reversed into a copy, read as little-endian.
  std::string swapped;
  if (order == '>' && width > 1) {
    swapped.assign(data, count * width);
    for (size_t at = 0; at < swapped.size(); at += width)
      std::reverse(swapped.begin() + at, swapped.begin() + at + width);
    data = swapped.data();
  }
  // Fortran order: element (i0, i1, ...) is at sum(i_d * prod(shape[<d])).
  SmallVector<int64_t> fstrides(shape.size(), 1);
  for (size_t d = 1; d < shape.size(); ++d)
    fstrides[d] = fstrides[d - 1] * shape[d - 1];
  for (int64_t k = 0; k < t.getNumElements(); ++k) {
    int64_t src = k;
    if (fortranOrder) {
      src = 0;
      int64_t rem = k;
      for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
        src += (rem % shape[d]) * fstrides[d];
        rem /= shape[d];
      }
    }
    const char *p = data + src * width;
    if (kind == 'f') {
      double v;
      if (width == 2) {
        APFloat h(APFloat::IEEEhalf(),
                  APInt(16, llvm::support::endian::read16le(p)));
        bool ignored;
        h.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                  &ignored);
        v = h.convertToDouble();
      } else if (width == 4) {
        float f;
        std::memcpy(&f, p, 4);
        v = f;
      } else {
        std::memcpy(&v, p, 8);
      }
      t.setF(k, v);
      continue;
    }
    int64_t v = 0;
    switch (width) {
    case 1:
      v = kind == 'i' ? int64_t(int8_t(*p)) : int64_t(uint8_t(*p));
      break;
    case 2: {
      uint16_t u = llvm::support::endian::read16le(p);
      v = kind == 'i' ? int64_t(int16_t(u)) : int64_t(u);
      break;
    }
    case 4: {
      uint32_t u = llvm::support::endian::read32le(p);
      v = kind == 'i' ? int64_t(int32_t(u)) : int64_t(u);
      break;
    }
    default:
      v = static_cast<int64_t>(llvm::support::endian::read64le(p));
    }
    t.setI(k, kind == 'b' ? v != 0 : v);
  }
  return t;
}

FailureOr<std::string> mlir::relay::interp::writeNpy(const Tensor &t,
                                                     std::string &error) {
  Type e = t.getElementType();
  std::string descr;
  unsigned width = 0;
  if (e.isInteger(1)) {
    descr = "|b1";
    width = 1;
  } else if (auto i = dyn_cast<IntegerType>(e)) {
    width = i.getWidth() / 8;
    if (width != 1 && width != 2 && width != 4 && width != 8) {
      error = "numpy has no dtype for " + std::to_string(i.getWidth()) +
              "-bit integers";
      return failure();
    }
    descr = std::string(width == 1 ? "|" : "<") + (i.isUnsigned() ? "u" : "i") +
            std::to_string(width);
  } else if (e.isF16() || e.isF32() || e.isF64()) {
    width = e.getIntOrFloatBitWidth() / 8;
    descr = "<f" + std::to_string(width);
  } else if (e.isBF16()) {
    // numpy has no bfloat16: float32 holds every bfloat16 exactly.
    width = 4;
    descr = "<f4";
  } else {
    error = "numpy has no dtype for this tensor's elements";
    return failure();
  }
  std::string shape = "(";
  for (int64_t d : t.getShape())
    shape += std::to_string(d) + (t.getRank() == 1 ? "," : ", ");
  if (t.getRank() > 1)
    shape.resize(shape.size() - 2);
  shape += ")";
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad so that the data starts at a multiple of 64 bytes.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic, 6);
  out += '\x01';
  out += '\x00';
  out += char(header.size() & 0xff);
  out += char(header.size() >> 8);
  out += header;
  for (int64_t k = 0; k < t.getNumElements(); ++k) {
    char buf[8];
    if (t.isFloat()) {
      double v = t.getF(k);
      if (width == 2) {
        APFloat h(v);
        bool ignored;
        h.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven, &ignored);
        llvm::support::endian::write16le(
            buf, uint16_t(h.bitcastToAPInt().getZExtValue()));
      } else if (width == 4) {
        float f = static_cast<float>(v);
        std::memcpy(buf, &f, 4);
      } else {
        std::memcpy(buf, &v, 8);
      }
    } else {
      uint64_t v = static_cast<uint64_t>(t.getI(k));
      for (unsigned b = 0; b < width; ++b)
        buf[b] = char((v >> (8 * b)) & 0xff);
    }
    out.append(buf, width);
  }
  return out;
}
