//===- ValueFiles.cpp - Relay values in .npy files and directories --------===//

#include "runtime/Interpreter/ValueFiles.h"

#include "runtime/Interpreter/Npy.h"

#include "dialects/relay/RelayOps.h"
#include "dialects/relay/RelayTypes.h"
#include "dialects/relay/TypeUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

std::optional<SmallVector<int64_t>> ValueFile::firstShape() const {
  if (tensor)
    return SmallVector<int64_t>(tensor->getShape());
  for (const ValueFile &entry : entries)
    if (std::optional<SmallVector<int64_t>> shape = entry.firstShape())
      return shape;
  return std::nullopt;
}

/// The number an entry's name gives its position (`3.npy`, `3`), if any.
static std::optional<uint64_t> entryNumber(StringRef path) {
  StringRef name = llvm::sys::path::filename(path);
  name.consume_back(".npy");
  uint64_t n;
  if (name.empty() || name.getAsInteger(10, n))
    return std::nullopt;
  return n;
}

FailureOr<ValueFile> interp::readValueFile(MLIRContext *ctx, StringRef path,
                                           std::string &error) {
  ValueFile file;
  file.path = path.str();
  if (!llvm::sys::fs::is_directory(path)) {
    std::unique_ptr<llvm::MemoryBuffer> bytes = openInputFile(path, &error);
    if (!bytes)
      return failure();
    FailureOr<Tensor> t = readNpy(ctx, bytes->getBuffer(), error);
    if (failed(t)) {
      error = path.str() + ": " + error;
      return failure();
    }
    file.tensor = std::move(*t);
    return file;
  }
  std::error_code ec;
  std::vector<std::string> names;
  for (llvm::sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
       it.increment(ec))
    names.push_back(it->path());
  if (ec) {
    error = "cannot read the directory '" + path.str() + "': " + ec.message();
    return failure();
  }
  for (const std::string &name : names)
    if (!StringRef(name).ends_with(".npy") &&
        !llvm::sys::fs::is_directory(name)) {
      error = "'" + name +
              "' is neither a .npy file nor a directory (a directory holds "
              "the fields or elements of a tuple, list or option)";
      return failure();
    }
  // By the numbers that name the entries (10 after 9), else by name.
  bool numbered = llvm::all_of(
      names, [](const std::string &n) { return entryNumber(n).has_value(); });
  llvm::sort(names, [&](const std::string &a, const std::string &b) {
    return numbered ? *entryNumber(a) < *entryNumber(b) : a < b;
  });
  for (const std::string &name : names) {
    FailureOr<ValueFile> entry = readValueFile(ctx, name, error);
    if (failed(entry))
      return failure();
    file.entries.push_back(std::move(*entry));
  }
  return file;
}

AdtType interp::getListOrOption(Type type) {
  auto adt = dyn_cast<AdtType>(type);
  if (adt && (adt.getName() == "List" || adt.getName() == "Option") &&
      adt.getArgs().size() == 1)
    return adt;
  return {};
}

ValuePtr interp::makeListOrOption(ModuleOp module, AdtType type,
                                  ArrayRef<ValuePtr> elements) {
  bool option = type.getName() == "Option";
  Operation *empty = nullptr, *full = nullptr;
  if (auto data = module.lookupSymbol<DataOp>(type.getName()))
    for (CtorOp ctor : data.getConstructors()) {
      if (ctor.getSymName() == (option ? "None" : "Nil"))
        empty = ctor;
      if (ctor.getSymName() == (option ? "Some" : "Cons"))
        full = ctor;
    }
  if (!empty || !full || (option && elements.size() > 1))
    return nullptr;
  if (option)
    return elements.empty() ? RuntimeValue::adt(empty, {})
                            : RuntimeValue::adt(full, {elements.front()});
  ValuePtr list = RuntimeValue::adt(empty, {});
  for (const ValuePtr &v : llvm::reverse(elements))
    list = RuntimeValue::adt(full, {v, list});
  return list;
}

std::optional<std::vector<ValuePtr>>
interp::getListOrOptionElements(const ValuePtr &v) {
  if (v->getKind() != RuntimeValue::Kind::Adt)
    return std::nullopt;
  StringRef data = cast<CtorOp>(v->getConstructor()).getDataOp().getSymName();
  if (data != "List" && data != "Option")
    return std::nullopt;
  std::vector<ValuePtr> out;
  for (ValuePtr at = v; !at->getFields().empty(); at = at->getFields()[1]) {
    out.push_back(at->getFields()[0]);
    if (data == "Option")
      break;
  }
  return out;
}

Type interp::valueFileType(const ValueFile &file, Type param) {
  if (file.tensor)
    return file.tensor->getType();
  if (auto tuple = dyn_cast<TupleType>(param)) {
    if (tuple.size() != file.entries.size())
      return {};
    SmallVector<Type> fields;
    for (auto [entry, field] : llvm::zip(file.entries, tuple.getTypes())) {
      fields.push_back(valueFileType(entry, field));
      if (!fields.back())
        return {};
    }
    return TupleType::get(param.getContext(), fields);
  }
  AdtType adt = getListOrOption(param);
  if (!adt)
    return {};
  Type element;
  for (const ValueFile &entry : file.entries) {
    Type own = valueFileType(entry, adt.getArgs().front());
    if (!own)
      return {};
    element = element ? joinTypes(element, own) : own;
    if (!element)
      return {};
  }
  // An empty one says nothing of its elements: a polymorphic one's are
  // left to the other inputs (instantiateEntry).
  if (!element) {
    bool polymorphic = false;
    param.walk([&](TypeVarType) { polymorphic = true; });
    if (!polymorphic)
      return param;
    element = IncompleteType::get(param.getContext());
  }
  return AdtType::get(param.getContext(), adt.getName(), {element});
}

FailureOr<ValuePtr> interp::valueFromFile(const ValueFile &file, Type type,
                                          ModuleOp module, Location loc,
                                          const Twine &what) {
  AdtType adt = getListOrOption(type);
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple && !adt) {
    if (!file.tensor) {
      emitError(loc) << what << " is a " << type << ", not a directory ('"
                     << file.path << "'): give a .npy file";
      return failure();
    }
    // numpy has no bfloat16: a bf16 tensor is given as floats, rounded to
    // the nearest bfloat16 (as Python's relay_mlir rounds its arrays).
    auto tensorType = dyn_cast<RankedTensorType>(type);
    const Tensor &given = *file.tensor;
    Type element = given.getElementType();
    if (tensorType && tensorType.getElementType().isBF16() &&
        isa<FloatType>(element) && !element.isBF16()) {
      Tensor rounded(tensorType.getElementType(), given.getShape());
      rounded.copyElements(0, given, 0, given.getNumElements());
      return RuntimeValue::tensor(std::move(rounded));
    }
    return RuntimeValue::tensor(given);
  }
  if (file.tensor) {
    emitError(loc) << what << " is a " << type << ": give a directory of its "
                   << (tuple ? "fields" : "elements")
                   << " (0.npy, 1.npy, ...), not the file '" << file.path
                   << "'";
    return failure();
  }
  std::vector<ValuePtr> values;
  SmallVector<Type> types;
  if (tuple) {
    if (tuple.size() != file.entries.size()) {
      emitError(loc) << what << " is a tuple of " << tuple.size()
                     << " fields; '" << file.path << "' holds "
                     << file.entries.size();
      return failure();
    }
    llvm::append_range(types, tuple.getTypes());
  } else {
    bool option = adt.getName() == "Option";
    if (option && file.entries.size() > 1) {
      emitError(loc) << what << " is an option: '" << file.path
                     << "' must be empty (None) or hold one entry (Some), "
                        "not "
                     << file.entries.size();
      return failure();
    }
    types.assign(file.entries.size(), adt.getArgs().front());
  }
  for (auto [i, entry] : llvm::enumerate(file.entries)) {
    FailureOr<ValuePtr> v =
        valueFromFile(entry, types[i], module, loc,
                      what + (tuple ? " field " : " element ") + Twine(i));
    if (failed(v))
      return failure();
    values.push_back(*v);
  }
  if (tuple)
    return RuntimeValue::tuple(std::move(values));
  ValuePtr value = makeListOrOption(module, adt, values);
  if (!value) {
    emitError(loc) << what << " is a " << type
                   << ", whose constructors the program does not define";
    return failure();
  }
  return value;
}

LogicalResult interp::writeValueFile(const ValuePtr &value, StringRef path,
                                     std::string &error) {
  StringRef stem = path;
  stem.consume_back(".npy");
  switch (value->getKind()) {
  case RuntimeValue::Kind::Tensor: {
    FailureOr<std::string> bytes = writeNpy(value->getTensor(), error);
    if (failed(bytes)) {
      error = "cannot write " + path.str() + ": " + error;
      return failure();
    }
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
    if (ec) {
      error = "cannot write " + path.str() + ": " + ec.message();
      return failure();
    }
    os << *bytes;
    return success();
  }
  case RuntimeValue::Kind::Tuple:
    for (auto [i, f] : llvm::enumerate(value->getFields()))
      if (failed(
              writeValueFile(f, (stem + "." + Twine(i) + ".npy").str(), error)))
        return failure();
    return success();
  case RuntimeValue::Kind::Adt: {
    std::optional<std::vector<ValuePtr>> entries =
        getListOrOptionElements(value);
    if (!entries)
      break;
    // Entries left from an earlier value would read as this one's.
    std::error_code ec;
    if (llvm::sys::fs::directory_iterator(stem, ec) !=
        llvm::sys::fs::directory_iterator()) {
      error = "cannot write a list or option to " + stem.str() +
              ": the directory exists and is not empty";
      return failure();
    }
    if ((ec = llvm::sys::fs::create_directories(stem))) {
      error = "cannot create the directory " + stem.str() + ": " + ec.message();
      return failure();
    }
    for (auto [i, entry] : llvm::enumerate(*entries)) {
      SmallString<128> name(stem);
      llvm::sys::path::append(name, Twine(i) + ".npy");
      if (failed(writeValueFile(entry, name, error)))
        return failure();
    }
    return success();
  }
  case RuntimeValue::Kind::Closure:
  case RuntimeValue::Kind::Ref:
    break;
  }
  error = "--output writes tensors, and tuples, lists and options of them; "
          "the result holds another value";
  return failure();
}
