//===- Samples.cpp - Directories of input samples -------------------------===//

#include "runtime/Interpreter/Samples.h"

#include "runtime/Interpreter/Interpreter.h"
#include "runtime/Interpreter/ValueFiles.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

namespace {
/// The sorted entries of `dir` (full paths) that `keep` accepts; `ec` says
/// whether the directory could be read.
std::vector<std::string>
sortedEntries(StringRef dir, function_ref<bool(const std::string &)> keep,
              std::error_code &ec) {
  std::vector<std::string> entries;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (keep(it->path()))
      entries.push_back(it->path());
  llvm::sort(entries);
  return entries;
}

/// sortedEntries, reporting at `loc` a directory that cannot be read.
FailureOr<std::vector<std::string>>
listDirectory(StringRef dir, function_ref<bool(const std::string &)> keep,
              Location loc, StringRef what) {
  std::error_code ec;
  std::vector<std::string> entries = sortedEntries(dir, keep, ec);
  if (ec) {
    emitError(loc) << what << ": cannot read the directory '" << dir
                   << "': " << ec.message();
    return failure();
  }
  return entries;
}

bool isNpy(const std::string &path) {
  return StringRef(path).ends_with(".npy");
}

bool isDirectory(const std::string &path) {
  return llvm::sys::fs::is_directory(path);
}

/// The argument `path` (a .npy file, or a directory as relay-run's --input
/// takes a tuple, list or option) holds for parameter #`param` of `type`.
FailureOr<ValuePtr> readArgument(StringRef path, Type type, ModuleOp module,
                                 Location loc, unsigned param, StringRef what) {
  std::string error;
  FailureOr<ValueFile> file = readValueFile(loc.getContext(), path, error);
  if (failed(file)) {
    emitError(loc) << what << " '" << path << "': " << error;
    return failure();
  }
  std::string where = (what + " '" + path + "'").str();
  FailureOr<ValuePtr> value = valueFromFile(*file, type, module, loc, where);
  if (failed(value))
    return failure();
  if ((*value)->getKind() == RuntimeValue::Kind::Tensor) {
    RankedTensorType held = (*value)->getTensor().getType();
    if (held != type) {
      emitError(loc) << where << " holds a " << held << " where parameter #"
                     << param << " is " << type;
      return failure();
    }
    return value;
  }
  if (failed(Interpreter::checkArgument(*value, type, loc, where)))
    return failure();
  return value;
}
} // namespace

FailureOr<std::vector<Sample>>
interp::readSampleDirectory(StringRef dir, TypeRange params, ModuleOp module,
                            Location loc, StringRef what) {
  if (!llvm::sys::fs::is_directory(dir)) {
    emitError(loc) << what << " '" << dir << "' is not a directory";
    return failure();
  }
  std::vector<Sample> samples;
  if (params.size() == 1) {
    // A tensor's samples are .npy files; a tuple's, list's or option's
    // directories.
    bool tensor = isa<RankedTensorType>(params[0]);
    FailureOr<std::vector<std::string>> files =
        listDirectory(dir, tensor ? isNpy : isDirectory, loc, what);
    if (failed(files))
      return failure();
    for (const std::string &file : *files) {
      FailureOr<ValuePtr> t =
          readArgument(file, params[0], module, loc, 0, what);
      if (failed(t))
        return failure();
      samples.push_back({llvm::sys::path::stem(file).str(), {*t}});
    }
  } else {
    FailureOr<std::vector<std::string>> dirs =
        listDirectory(dir, isDirectory, loc, what);
    if (failed(dirs))
      return failure();
    for (const std::string &sub : *dirs) {
      FailureOr<std::vector<std::string>> files = listDirectory(
          sub, [](const std::string &p) { return isNpy(p) || isDirectory(p); },
          loc, what);
      if (failed(files))
        return failure();
      if (files->size() != params.size()) {
        emitError(loc) << what << " '" << sub << "' holds " << files->size()
                       << " arguments (.npy files or directories) for the "
                       << params.size() << " parameters";
        return failure();
      }
      Sample sample{llvm::sys::path::filename(sub).str(), {}};
      for (auto [i, file] : llvm::enumerate(*files)) {
        FailureOr<ValuePtr> t =
            readArgument(file, params[i], module, loc, i, what);
        if (failed(t))
          return failure();
        sample.args.push_back(*t);
      }
      samples.push_back(std::move(sample));
    }
  }
  if (samples.empty()) {
    emitError(loc) << what << " '" << dir << "' holds no samples ("
                   << (params.size() != 1 ? "subdirectories of arguments"
                       : isa<RankedTensorType>(params[0]) ? ".npy files"
                                                          : "directories")
                   << ")";
    return failure();
  }
  return samples;
}

std::vector<std::string> interp::firstSampleArguments(StringRef dir) {
  // (A directory that cannot be read gives no entries; readSampleDirectory
  // reports it.)
  std::error_code ec;
  std::vector<std::string> files = sortedEntries(dir, isNpy, ec);
  if (!files.empty())
    return {files.front()};
  std::vector<std::string> dirs = sortedEntries(dir, isDirectory, ec);
  if (dirs.empty())
    return {};
  return sortedEntries(
      dirs.front(),
      [](const std::string &p) { return isNpy(p) || isDirectory(p); }, ec);
}
