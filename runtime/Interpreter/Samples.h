//===- Samples.h - Directories of input samples -----------------*- C++ -*-===//
//
// A directory of samples for a function, the format of
// --relay-quantize-calibrate's calibration-data and relay-run's --samples:
// for a function of one tensor parameter each `.npy` file is one sample
// (of a tuple, list or option parameter each directory, as relay-run's
// --input takes one: ValueFiles.h); for several parameters, each
// subdirectory is one, its `.npy` files and directories (in name order) the
// arguments in parameter order. Every argument must have its parameter's
// type (a bf16 tensor may be given as floats, rounded); errors name the
// file.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_RUNTIME_INTERPRETER_SAMPLES_H
#define RELAY_MLIR_RUNTIME_INTERPRETER_SAMPLES_H

#include "runtime/Interpreter/Value.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"

#include <string>
#include <vector>

namespace mlir::relay::interp {

/// One sample: its name (the file's or the subdirectory's, without
/// `.npy`) and the arguments it holds.
struct Sample {
  std::string name;
  std::vector<ValuePtr> args;
};

/// The samples of `dir` (in name order) for a function of `params`, in
/// `module` (whose List and Option constructors build such arguments);
/// errors are reported at `loc`, naming the directory as `what` (the
/// option that gave it, e.g. "calibration-data").
FailureOr<std::vector<Sample>>
readSampleDirectory(StringRef dir, TypeRange params, ModuleOp module,
                    Location loc, StringRef what);

/// The paths of the first sample's arguments in `dir` (sorted: its first
/// `.npy` file, else its first subdirectory's `.npy` files and
/// directories), read without the function's parameters: what sizes an
/// imported model's symbolic input dimensions (relay-run --samples on an
/// ONNX model). Empty where `dir` holds neither.
std::vector<std::string> firstSampleArguments(StringRef dir);

} // namespace mlir::relay::interp

#endif // RELAY_MLIR_RUNTIME_INTERPRETER_SAMPLES_H
