//===- Metadata.cpp - The metadata section of Relay text --------*- C++ -*-===//

#include "frontends/RelayText/Metadata.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::relay::text;

static constexpr uint64_t kNDArrayMagic = 0xDD5E40F096B4A13FULL;

namespace {
/// DLPack's type codes.
enum DLTypeCode : uint8_t { kInt = 0, kUInt = 1, kFloat = 2, kBFloat = 4 };
} // namespace

/// Reads the little-endian NDArray TVM serialises.
static FailureOr<DenseElementsAttr>
decodeNDArray(MLIRContext *ctx, StringRef bytes, std::string &error) {
  size_t pos = 0;
  auto need = [&](size_t n) {
    if (pos + n > bytes.size()) {
      error = "truncated NDArray in the metadata";
      return false;
    }
    return true;
  };
  auto read64 = [&]() {
    uint64_t v = llvm::support::endian::read64le(bytes.data() + pos);
    pos += 8;
    return v;
  };
  auto read32 = [&]() {
    uint32_t v = llvm::support::endian::read32le(bytes.data() + pos);
    pos += 4;
    return v;
  };
  if (!need(8 + 8 + 8 + 4 + 4))
    return failure();
  if (read64() != kNDArrayMagic) {
    error = "bad NDArray magic number in the metadata";
    return failure();
  }
  read64(); // reserved
  read64(); // device type and id
  int32_t ndim = static_cast<int32_t>(read32());
  uint8_t code = bytes[pos], bits = bytes[pos + 1];
  uint16_t lanes = llvm::support::endian::read16le(bytes.data() + pos + 2);
  pos += 4;
  if (ndim < 0 || ndim > 32 || lanes != 1) {
    error = "unsupported NDArray (rank or vector lanes) in the metadata";
    return failure();
  }
  SmallVector<int64_t> shape;
  if (!need(8 * ndim + 8))
    return failure();
  int64_t count = 1;
  for (int32_t i = 0; i < ndim; ++i) {
    int64_t d = static_cast<int64_t>(read64());
    if (d < 0 || d > (int64_t(1) << 40)) {
      error = "invalid NDArray shape in the metadata";
      return failure();
    }
    shape.push_back(d);
    count *= d;
  }
  uint64_t size = read64();
  Type element;
  switch (code) {
  case kInt:
    element = IntegerType::get(ctx, bits == 1 ? 1 : bits);
    break;
  case kUInt:
    element = bits == 1 ? IntegerType::get(ctx, 1)
                        : IntegerType::get(ctx, bits, IntegerType::Unsigned);
    break;
  case kFloat:
    if (bits == 16)
      element = Float16Type::get(ctx);
    else if (bits == 32)
      element = Float32Type::get(ctx);
    else if (bits == 64)
      element = Float64Type::get(ctx);
    break;
  case kBFloat:
    if (bits == 16)
      element = BFloat16Type::get(ctx);
    break;
  default:
    break;
  }
  if (!element || bits == 0 || (bits % 8 != 0 && bits != 1)) {
    error = "unsupported NDArray dtype in the metadata";
    return failure();
  }
  uint64_t bytesPerElement = bits == 1 ? 1 : bits / 8;
  if (size != count * bytesPerElement || !need(size)) {
    if (error.empty())
      error = "NDArray byte size does not match its shape in the metadata";
    return failure();
  }
  auto type = RankedTensorType::get(shape, element);
  StringRef data = bytes.substr(pos, size);
  if (bits == 1) {
    SmallVector<bool> values;
    for (char c : data)
      values.push_back(c != 0);
    return DenseElementsAttr::get(type, values);
  }
  bool detectedSplat = false;
  if (!DenseElementsAttr::isValidRawBuffer(type, ArrayRef(data.data(), size),
                                           detectedSplat)) {
    error = "invalid NDArray data in the metadata";
    return failure();
  }
  return DenseElementsAttr::getFromRawBuffer(type, ArrayRef(data.data(), size));
}

FailureOr<MetaTable> mlir::relay::text::parseMetadata(MLIRContext *ctx,
                                                      StringRef json,
                                                      std::string &error) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed) {
    error = "invalid metadata JSON: " + llvm::toString(parsed.takeError());
    return failure();
  }
  const llvm::json::Object *root = parsed->getAsObject();
  const llvm::json::Array *nodes = root ? root->getArray("nodes") : nullptr;
  std::optional<int64_t> rootIndex =
      root ? root->getInteger("root") : std::nullopt;
  if (!nodes || !rootIndex || *rootIndex < 0 ||
      *rootIndex >= static_cast<int64_t>(nodes->size())) {
    error = "the metadata has no 'root' and 'nodes'";
    return failure();
  }
  // The NDArrays.
  std::vector<std::string> arrays;
  if (const llvm::json::Array *b64 = root->getArray("b64ndarrays")) {
    for (const llvm::json::Value &v : *b64) {
      std::optional<StringRef> text = v.getAsString();
      std::vector<char> bytes;
      if (!text) {
        error = "a b64ndarrays entry is not a string";
        return failure();
      }
      if (llvm::Error err = llvm::decodeBase64(*text, bytes)) {
        error =
            "invalid base64 in the metadata: " + llvm::toString(std::move(err));
        return failure();
      }
      arrays.emplace_back(bytes.begin(), bytes.end());
    }
  }
  auto node = [&](int64_t i) -> const llvm::json::Object * {
    if (i < 0 || i >= static_cast<int64_t>(nodes->size()))
      return nullptr;
    return (*nodes)[i].getAsObject();
  };
  auto indexList = [&](const llvm::json::Object *obj, StringRef key) {
    std::vector<int64_t> out;
    if (const llvm::json::Array *list = obj ? obj->getArray(key) : nullptr)
      for (const llvm::json::Value &v : *list)
        if (std::optional<int64_t> i = v.getAsInteger())
          out.push_back(*i);
    return out;
  };
  const llvm::json::Object *map = node(*rootIndex);
  std::optional<StringRef> mapKey =
      map ? map->getString("type_key") : std::nullopt;
  if (!mapKey || *mapKey != "Map") {
    error = "the metadata root is not a Map";
    return failure();
  }
  const llvm::json::Array *keys = map->getArray("keys");
  std::vector<int64_t> values = indexList(map, "data");
  MetaTable table;
  for (size_t k = 0; keys && k < keys->size() && k < values.size(); ++k) {
    std::optional<StringRef> kind = (*keys)[k].getAsString();
    if (!kind)
      continue;
    std::vector<int64_t> items = indexList(node(values[k]), "data");
    if (*kind != "relay.Constant") {
      table.otherKinds[*kind] = items.size();
      continue;
    }
    std::vector<DenseElementsAttr> &constants = table.constants[*kind];
    for (int64_t item : items) {
      const llvm::json::Object *constant = node(item);
      const llvm::json::Object *attrs =
          constant ? constant->getObject("attrs") : nullptr;
      std::optional<StringRef> data =
          attrs ? attrs->getString("data") : std::nullopt;
      int64_t index = -1;
      if (!data || data->getAsInteger(10, index) || index < 0 ||
          index >= static_cast<int64_t>(arrays.size())) {
        error = "a relay.Constant in the metadata has no valid 'data'";
        return failure();
      }
      FailureOr<DenseElementsAttr> value =
          decodeNDArray(ctx, arrays[index], error);
      if (failed(value))
        return failure();
      constants.push_back(*value);
    }
  }
  return table;
}

/// Serialises `value` as TVM's NDArray.
static std::string encodeNDArray(DenseElementsAttr value) {
  auto type = cast<ShapedType>(value.getType());
  Type element = type.getElementType();
  uint8_t code = kFloat, bits = element.getIntOrFloatBitWidth();
  if (auto integer = dyn_cast<IntegerType>(element))
    code = integer.isUnsigned() || bits == 1 ? kUInt : kInt;
  else if (element.isBF16())
    code = kBFloat;
  std::string out;
  auto put = [&](uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; ++i)
      out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  };
  put(kNDArrayMagic, 8);
  put(0, 8);
  put(1, 4); // kDLCPU
  put(0, 4);
  put(type.getRank(), 4);
  out.push_back(static_cast<char>(code));
  out.push_back(static_cast<char>(bits));
  put(1, 2);
  for (int64_t d : type.getShape())
    put(d, 8);
  int64_t count = type.getNumElements();
  unsigned bytesPerElement = bits == 1 ? 1 : bits / 8;
  put(count * bytesPerElement, 8);
  if (bits == 1) {
    for (bool b : value.getValues<bool>())
      out.push_back(b ? 1 : 0);
    return out;
  }
  ArrayRef<char> raw = value.getRawData();
  for (int64_t i = 0; i < count; ++i) {
    // A splat stores one element.
    const char *src = raw.data() + (value.isSplat() ? 0 : i * bytesPerElement);
    out.append(src, bytesPerElement);
  }
  return out;
}

void mlir::relay::text::printMetadata(ArrayRef<DenseElementsAttr> constants,
                                      raw_ostream &os) {
  // Node 0 is TVM's null node; 1 the Map; 2 the Array; then the constants.
  llvm::json::Array nodes;
  nodes.push_back(llvm::json::Object{{"type_key", ""}});
  nodes.push_back(
      llvm::json::Object{{"type_key", "Map"},
                         {"keys", llvm::json::Array{"relay.Constant"}},
                         {"data", llvm::json::Array{2}}});
  llvm::json::Array items;
  for (size_t i = 0; i < constants.size(); ++i)
    items.push_back(static_cast<int64_t>(3 + i));
  nodes.push_back(
      llvm::json::Object{{"type_key", "Array"}, {"data", std::move(items)}});
  llvm::json::Array arrays;
  for (auto [i, c] : llvm::enumerate(constants)) {
    nodes.push_back(llvm::json::Object{
        {"type_key", "relay.Constant"},
        {"attrs", llvm::json::Object{{"_checked_type_", "0"},
                                     {"data", std::to_string(i)},
                                     {"span", "0"}}}});
    arrays.push_back(llvm::encodeBase64(encodeNDArray(c)));
  }
  llvm::json::Object root{
      {"root", 1},
      {"nodes", std::move(nodes)},
      {"b64ndarrays", std::move(arrays)},
      {"attrs", llvm::json::Object{{"tvm_version", "0.13.0"}}}};
  os << "#[metadata]\n"
     << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}
