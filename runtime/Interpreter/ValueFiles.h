//===- ValueFiles.h - Relay values in .npy files and directories -*- C++
//-*-===//
//
// relay-run's --input and --output for values that are not one tensor: a
// tensor is a `.npy` file; a tuple, a list (the prelude's List) and an
// option (Option) are a directory whose entries, in the order of the
// numbers that name them (`0.npy`, `1.npy`, ..., `10.npy`; a nested value
// a subdirectory `2/`), are the fields or elements; an option's directory
// is empty (None) or holds one entry (Some). Written tuples keep their
// flat form (`OUT.0.npy`, `OUT.1.npy`, ...) where they hold tensors only.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_RUNTIME_INTERPRETER_VALUEFILES_H
#define RELAY_MLIR_RUNTIME_INTERPRETER_VALUEFILES_H

#include "runtime/Interpreter/Value.h"

#include "dialects/relay/RelayTypes.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::relay::interp {

/// What a --input path holds, read before the program's types are known:
/// a tensor, or a directory's entries in order.
struct ValueFile {
  std::string path;
  std::optional<Tensor> tensor;
  std::vector<ValueFile> entries;

  /// The shape of the first tensor it holds (depth first), if any.
  std::optional<SmallVector<int64_t>> firstShape() const;
};

/// The prelude's List or Option of one type that `type` is, or null.
AdtType getListOrOption(Type type);
/// The value of `type` (a List or Option) holding `elements` (at most one
/// for an Option), its constructors those of `module`; null where the
/// module does not define them.
ValuePtr makeListOrOption(ModuleOp module, AdtType type,
                          ArrayRef<ValuePtr> elements);
/// The elements of a List or Option value, in order; none for another
/// value.
std::optional<std::vector<ValuePtr>> getListOrOptionElements(const ValuePtr &v);

/// Reads `path`: a .npy file or a directory (recursively); sets `error`
/// (naming the file) on failure.
FailureOr<ValueFile> readValueFile(MLIRContext *ctx, StringRef path,
                                   std::string &error);

/// The type a parameter of type `param` (which may be polymorphic: a
/// `List[A]`) takes for `file`: a tensor's own type, a directory's as a
/// tuple, list or option of its entries' types (sizes that differ between
/// a list's elements are `?`). Null where `file` does not fit `param`'s
/// kind.
Type valueFileType(const ValueFile &file, Type param);

/// The value of type `type` that `file` holds, its constructors those of
/// `module`; reports a mismatch at `loc`, naming the input as `what`.
FailureOr<ValuePtr> valueFromFile(const ValueFile &file, Type type,
                                  ModuleOp module, Location loc,
                                  const Twine &what);

/// Writes `value` to `path` (a tensor's .npy; see the file comment for the
/// others, a directory named `path` without `.npy`); sets `error` on
/// failure.
LogicalResult writeValueFile(const ValuePtr &value, StringRef path,
                             std::string &error);

} // namespace mlir::relay::interp

#endif // RELAY_MLIR_RUNTIME_INTERPRETER_VALUEFILES_H
