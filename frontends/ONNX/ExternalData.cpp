//===- ExternalData.cpp - ONNX tensors kept beside the model --------------===//

#include "frontends/ONNX/ExternalData.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::relay::onnx_import;

namespace {

/// Walks a model's graphs and loads each external tensor's bytes, each
/// file read (mapped) once.
struct ExternalDataLoader {
  StringRef directory;
  Location loc;
  llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> files;

  InFlightDiagnostic error(const onnx::TensorProto &tensor) {
    return emitError(loc) << "tensor '" << tensor.name() << "' ";
  }

  LogicalResult load(onnx::TensorProto &tensor) {
    if (tensor.data_location() != onnx::TensorProto::EXTERNAL)
      return success();
    std::string location;
    std::optional<uint64_t> offset, length;
    for (const onnx::StringStringEntryProto &entry : tensor.external_data()) {
      StringRef key = entry.key(), value = entry.value();
      if (key == "location") {
        location = value.str();
        continue;
      }
      if (key != "offset" && key != "length")
        continue; // "checksum" and keys of later versions.
      uint64_t number;
      if (value.trim().getAsInteger(10, number))
        return error(tensor) << "has external data " << key << " '" << value
                             << "', which is not a number of bytes";
      (key == "offset" ? offset : length) = number;
    }
    if (location.empty())
      return error(tensor) << "keeps its data in an external file but does "
                              "not say which (no 'location' entry)";
    // As onnx.checker: the file lies in the model's directory or below it.
    bool escapes =
        llvm::sys::path::is_absolute(location) ||
        llvm::is_contained(llvm::make_range(llvm::sys::path::begin(location),
                                            llvm::sys::path::end(location)),
                           "..");
    if (escapes)
      return error(tensor) << "keeps its data in '" << location
                           << "', outside the model's directory (external "
                              "data must be a relative path without '..')";
    SmallString<256> path(directory);
    llvm::sys::path::append(path, location);
    auto [it, inserted] = files.try_emplace(path.str());
    if (inserted) {
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
          llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
      if (!file) {
        files.erase(it);
        return error(tensor)
               << "keeps its data in '" << path
               << "', which cannot be read: " << file.getError().message();
      }
      it->second = std::move(*file);
    }
    StringRef bytes = it->second->getBuffer();
    uint64_t start = offset.value_or(0);
    uint64_t size =
        length.value_or(start <= bytes.size() ? bytes.size() - start : 0);
    if (start > bytes.size() || size > bytes.size() - start)
      return error(tensor) << "keeps its data at bytes " << start << " to "
                           << start + size << " of '" << path << "', which has "
                           << bytes.size()
                           << " bytes (a truncated or foreign file)";
    tensor.set_raw_data(bytes.data() + start, size);
    tensor.clear_external_data();
    tensor.set_data_location(onnx::TensorProto::DEFAULT);
    return success();
  }

  LogicalResult load(onnx::SparseTensorProto &sparse) {
    return success(succeeded(load(*sparse.mutable_values())) &&
                   succeeded(load(*sparse.mutable_indices())));
  }

  LogicalResult load(onnx::NodeProto &node) {
    for (onnx::AttributeProto &attr : *node.mutable_attribute()) {
      if (attr.has_t() && failed(load(*attr.mutable_t())))
        return failure();
      if (attr.has_g() && failed(load(*attr.mutable_g())))
        return failure();
      if (attr.has_sparse_tensor() &&
          failed(load(*attr.mutable_sparse_tensor())))
        return failure();
      for (onnx::TensorProto &t : *attr.mutable_tensors())
        if (failed(load(t)))
          return failure();
      for (onnx::GraphProto &g : *attr.mutable_graphs())
        if (failed(load(g)))
          return failure();
      for (onnx::SparseTensorProto &s : *attr.mutable_sparse_tensors())
        if (failed(load(s)))
          return failure();
    }
    return success();
  }

  LogicalResult load(onnx::GraphProto &graph) {
    for (onnx::TensorProto &t : *graph.mutable_initializer())
      if (failed(load(t)))
        return failure();
    for (onnx::SparseTensorProto &s : *graph.mutable_sparse_initializer())
      if (failed(load(s)))
        return failure();
    for (onnx::NodeProto &node : *graph.mutable_node())
      if (failed(load(node)))
        return failure();
    return success();
  }
};

} // namespace

LogicalResult
mlir::relay::onnx_import::loadExternalData(onnx::ModelProto &model,
                                           StringRef directory, Location loc) {
  ExternalDataLoader loader{directory, loc, {}};
  if (failed(loader.load(*model.mutable_graph())))
    return failure();
  for (onnx::FunctionProto &function : *model.mutable_functions())
    for (onnx::NodeProto &node : *function.mutable_node())
      if (failed(loader.load(node)))
        return failure();
  return success();
}
