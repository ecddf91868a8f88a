//===- Samples.cpp - Directories of input samples -------------------------===//

#include "runtime/Interpreter/Samples.h"

#include "runtime/Interpreter/Npy.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

namespace {
/// The sorted entries of `dir` (full paths) that `keep` accepts.
FailureOr<std::vector<std::string>>
listDirectory(StringRef dir, function_ref<bool(const std::string &)> keep,
              Location loc, StringRef what) {
  std::error_code ec;
  std::vector<std::string> entries;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (keep(it->path()))
      entries.push_back(it->path());
  if (ec) {
    emitError(loc) << what << ": cannot read the directory '" << dir
                   << "': " << ec.message();
    return failure();
  }
  llvm::sort(entries);
  return entries;
}

bool isNpy(const std::string &path) {
  return StringRef(path).ends_with(".npy");
}

/// The tensor of `path`, which must have `type`.
FailureOr<ValuePtr> readArgument(StringRef path, Type type, Location loc,
                                 unsigned param, StringRef what) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> bytes = openInputFile(path, &error);
  if (!bytes) {
    emitError(loc) << what << ": " << error;
    return failure();
  }
  FailureOr<Tensor> t = readNpy(loc.getContext(), bytes->getBuffer(), error);
  if (failed(t)) {
    emitError(loc) << what << " '" << path << "': " << error;
    return failure();
  }
  if (t->getType() != type) {
    emitError(loc) << what << " '" << path << "' holds a " << t->getType()
                   << " where parameter #" << param << " is " << type;
    return failure();
  }
  return RuntimeValue::tensor(std::move(*t));
}
} // namespace

FailureOr<std::vector<Sample>> interp::readSampleDirectory(StringRef dir,
                                                           TypeRange params,
                                                           Location loc,
                                                           StringRef what) {
  if (!llvm::sys::fs::is_directory(dir)) {
    emitError(loc) << what << " '" << dir << "' is not a directory";
    return failure();
  }
  std::vector<Sample> samples;
  if (params.size() == 1) {
    FailureOr<std::vector<std::string>> files =
        listDirectory(dir, isNpy, loc, what);
    if (failed(files))
      return failure();
    for (const std::string &file : *files) {
      FailureOr<ValuePtr> t = readArgument(file, params[0], loc, 0, what);
      if (failed(t))
        return failure();
      samples.push_back({llvm::sys::path::stem(file).str(), {*t}});
    }
  } else {
    FailureOr<std::vector<std::string>> dirs = listDirectory(
        dir,
        [](const std::string &p) { return llvm::sys::fs::is_directory(p); },
        loc, what);
    if (failed(dirs))
      return failure();
    for (const std::string &sub : *dirs) {
      FailureOr<std::vector<std::string>> files =
          listDirectory(sub, isNpy, loc, what);
      if (failed(files))
        return failure();
      if (files->size() != params.size()) {
        emitError(loc) << what << " '" << sub << "' holds " << files->size()
                       << " .npy files for the " << params.size()
                       << " parameters";
        return failure();
      }
      Sample sample{llvm::sys::path::filename(sub).str(), {}};
      for (auto [i, file] : llvm::enumerate(*files)) {
        FailureOr<ValuePtr> t = readArgument(file, params[i], loc, i, what);
        if (failed(t))
          return failure();
        sample.args.push_back(*t);
      }
      samples.push_back(std::move(sample));
    }
  }
  if (samples.empty()) {
    emitError(loc) << what << " '" << dir << "' holds no samples ("
                   << (params.size() == 1 ? ".npy files"
                                          : "subdirectories of .npy files")
                   << ")";
    return failure();
  }
  return samples;
}
