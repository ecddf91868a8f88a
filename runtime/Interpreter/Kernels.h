//===- Kernels.h - Reference kernels of the Relay operators -----*- C++ -*-===//
//
// One reference kernel per operator, kept in the operator registry's
// "relay.interpret" column (so an operator a user adds from C++ can bring its
// own kernel with updateOperator). Kernels favour clarity over speed: they
// are the oracle the compiler is checked against.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_RUNTIME_INTERPRETER_KERNELS_H
#define RELAY_MLIR_RUNTIME_INTERPRETER_KERNELS_H

#include "dialects/relay/OperatorRegistry.h"
#include "runtime/Interpreter/Value.h"

#include <functional>

namespace mlir::relay::interp {

/// What a kernel sees: the op (for diagnostics), operand values, the
/// attributes with their defaults, and the result type for these operands
/// (concrete even where the IR says `?`).
struct KernelContext {
  Operation *op;
  ArrayRef<ValuePtr> operands;
  DictionaryAttr attrs;
  Type resultType;

  const Tensor &input(unsigned i) const { return operands[i]->getTensor(); }
  /// The result type as a tensor type (for single-tensor results).
  RankedTensorType resultTensorType() const {
    return cast<RankedTensorType>(resultType);
  }
  InFlightDiagnostic emitError() const;

  // Attribute readers with defaults.
  int64_t getInt(StringRef name, int64_t dflt) const;
  double getFloat(StringRef name, double dflt) const;
  bool getBool(StringRef name, bool dflt) const;
  StringRef getString(StringRef name, StringRef dflt) const;
  SmallVector<int64_t> getInts(StringRef name,
                               ArrayRef<int64_t> dflt = {}) const;
  SmallVector<double> getFloats(StringRef name,
                                ArrayRef<double> dflt = {}) const;
  bool hasAttr(StringRef name) const {
    return attrs && attrs.get(name) != nullptr;
  }
};

using KernelFn = std::function<FailureOr<ValuePtr>(const KernelContext &)>;

/// Calls the kernel registered for `name` (without "relay.") on
/// `operands`, with `attrs` (else `ctx`'s attributes) and `resultType`
/// (else `ctx`'s result type); errors are reported at `ctx`'s operator.
FailureOr<ValuePtr> callKernel(StringRef name, const KernelContext &ctx,
                               ArrayRef<ValuePtr> operands,
                               Type resultType = {}, DictionaryAttr attrs = {});

/// The registry column holding a KernelFn.
inline constexpr llvm::StringLiteral kInterpretColumn = "relay.interpret";

/// Registers the built-in kernels (idempotent).
void registerKernels();

/// Kernel registration helpers of the kernel files.
void registerElementwiseKernels(llvm::StringMap<KernelFn> &kernels);
void registerTransformKernels(llvm::StringMap<KernelFn> &kernels);
void registerNNKernels(llvm::StringMap<KernelFn> &kernels);
void registerQnnKernels(llvm::StringMap<KernelFn> &kernels);
void registerDynamicKernels(llvm::StringMap<KernelFn> &kernels);
void registerDetectionKernels(llvm::StringMap<KernelFn> &kernels);

/// Multi-index helpers shared by the kernel files.
SmallVector<int64_t> unravel(int64_t index, ArrayRef<int64_t> shape);
int64_t ravel(ArrayRef<int64_t> index, ArrayRef<int64_t> strides);
/// The offset in a tensor of `shape` of the element that broadcasting
/// assigns to `outIndex` (numpy rules, right-aligned).
int64_t broadcastOffset(ArrayRef<int64_t> outIndex, ArrayRef<int64_t> shape,
                        ArrayRef<int64_t> strides);

/// Offsets into several tensors along a row-major walk over `shape`, kept
/// up to date by additions as the walk advances (unravel and ravel per
/// element divide and allocate: a quarter of the interpreter's time on a
/// detector's post-processing). Each tensor's offset starts at its base
/// and moves by its stride along each dimension of the walk.
class OffsetWalk {
public:
  explicit OffsetWalk(ArrayRef<int64_t> shape)
      : shape(shape), position(shape.size(), 0) {}

  /// Adds a tensor (`strides` has one entry per dimension of the walk);
  /// returns its number.
  unsigned add(ArrayRef<int64_t> strides, int64_t base = 0);
  /// Adds a tensor of `shape`, row-major, broadcast to the walk's shape
  /// (numpy rules: right-aligned, size-1 dimensions repeated).
  unsigned addBroadcast(ArrayRef<int64_t> tensorShape);

  int64_t offset(unsigned tensor) const { return offsets[tensor]; }
  /// The walk's multi-index.
  ArrayRef<int64_t> index() const { return position; }
  /// Moves to the next element.
  void next() {
    size_t rank = shape.size(), count = offsets.size();
    for (size_t d = rank; d-- > 0;) {
      bool wraps = ++position[d] == shape[d];
      for (size_t t = 0; t < count; ++t)
        offsets[t] += wraps ? -(shape[d] - 1) * strides[t * rank + d]
                            : strides[t * rank + d];
      if (!wraps)
        return;
      position[d] = 0;
    }
  }

private:
  SmallVector<int64_t> shape, position;
  SmallVector<int64_t> strides; // tensor-major: strides[t * rank + d]
  SmallVector<int64_t> offsets;
};

/// `in` resized along each of `axes` in turn to its size in `sizes` by
/// image.resize*'s taps (resizeTaps) for `method` and `coords`
/// (`rounding` "" takes topi's choice), accumulating in float64 until the
/// last axis writes the result's dtype.
FailureOr<ValuePtr> resizeAxes(const KernelContext &ctx, const Tensor &in,
                               ArrayRef<int64_t> axes, ArrayRef<int64_t> sizes,
                               StringRef method, StringRef coords,
                               StringRef rounding, double alpha, bool exclude);

/// Copies element `from` of `in` to element `to` of `out` (as a float or
/// an integer, as `in` holds it).
void copyElement(const Tensor &in, int64_t from, Tensor &out, int64_t to);

} // namespace mlir::relay::interp

#endif // RELAY_MLIR_RUNTIME_INTERPRETER_KERNELS_H
