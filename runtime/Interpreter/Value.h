//===- Value.h - Run-time values of the Relay interpreter -------*- C++ -*-===//
//
// The values a Relay program computes: tensors (a dtype, a shape, and the
// elements, floats kept as double and integers as int64, each rounded to
// its dtype after every operation), tuples, closures (a `relay.fn` with the
// environment it captured, or a global function), ADT values (a
// constructor and fields) and reference cells.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_RUNTIME_INTERPRETER_VALUE_H
#define RELAY_MLIR_RUNTIME_INTERPRETER_VALUE_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <vector>

namespace mlir::relay::interp {

/// A dense tensor in C order.
class Tensor {
public:
  Tensor() = default;
  /// A tensor of zeros.
  Tensor(Type elementType, ArrayRef<int64_t> shape);

  Type getElementType() const { return elementType; }
  ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getRank() const { return shape.size(); }
  int64_t getNumElements() const { return size; }
  bool isFloat() const { return floating; }
  /// uint64, whose elements past INT64_MAX are held as negative int64s:
  /// kernels whose result depends on signedness read them as unsigned.
  bool isUnsigned64() const { return isU64; }
  /// The tensor type this tensor has.
  RankedTensorType getType() const;

  /// Element access; integers read as doubles and floats as integers
  /// (truncated) where a kernel mixes them.
  double getF(int64_t i) const {
    if (floating)
      return f[i];
    return isU64 ? double(uint64_t(n[i])) : double(n[i]);
  }
  int64_t getI(int64_t i) const { return floating ? int64_t(f[i]) : n[i]; }
  bool getB(int64_t i) const { return floating ? f[i] != 0 : n[i] != 0; }
  /// Stores, rounding to the dtype (float32 precision, integer width);
  /// inline for the common dtypes, which kernels store every element of.
  void setF(int64_t i, double v) {
    if (isF32)
      f[i] = static_cast<double>(static_cast<float>(v));
    else if (isF64)
      f[i] = v;
    else
      setOtherF(i, v);
  }
  void setI(int64_t i, int64_t v) {
    if (isI64)
      n[i] = v;
    else
      setOtherI(i, v);
  }

  /// Row-major strides.
  SmallVector<int64_t> strides() const;

  /// Elements [from, from + count) of `in` into [to, to + count): one block
  /// copy where `in` has this tensor's dtype, else element by element
  /// (rounding as setF/setI).
  void copyElements(int64_t to, const Tensor &in, int64_t from, int64_t count);

  /// From and to MLIR attributes.
  static Tensor fromAttr(DenseElementsAttr attr);
  /// A `dense_resource` blob (little-endian elements, as importers of
  /// binary model formats write them); fails when its blob is missing or
  /// its size does not match the type.
  static FailureOr<Tensor> fromResource(DenseResourceElementsAttr attr);
  DenseElementsAttr toAttr() const;

  /// A copy with another shape (same number of elements).
  Tensor reshaped(ArrayRef<int64_t> newShape) const;

private:
  Type elementType;
  SmallVector<int64_t> shape;
  int64_t size = 0;
  bool floating = false;
  // The common dtypes, decided once (type queries per element are slow).
  bool isF32 = false, isF64 = false, isI64 = false, isU64 = false;

  void setOtherF(int64_t i, double v);
  void setOtherI(int64_t i, int64_t v);
  std::vector<double> f;
  std::vector<int64_t> n;
};

/// This machine's physical memory in bytes (what no allocation can exceed).
int64_t physicalMemoryBytes();

/// The bytes the interpreter holds a tensor of `type` in (8 per element);
/// nullopt when that overflows.
std::optional<int64_t> interpreterBytes(RankedTensorType type);

/// Rounds `v` to what `elementType` can hold (float32, float16, bfloat16).
double roundToFloat(Type elementType, double v);
/// Wraps `v` to the width and signedness of an integer `elementType`.
int64_t wrapToInt(Type elementType, int64_t v);

struct Env;
class RuntimeValue;
using ValuePtr = std::shared_ptr<RuntimeValue>;

class RuntimeValue {
public:
  enum class Kind { Tensor, Tuple, Closure, Adt, Ref };

  static ValuePtr tensor(Tensor t);
  static ValuePtr tuple(std::vector<ValuePtr> fields);
  /// A closure over `fn` (a relay.fn or, for a global function, relay.func)
  /// with its captured environment.
  static ValuePtr closure(Operation *fn, std::shared_ptr<Env> env);
  static ValuePtr adt(Operation *ctor, std::vector<ValuePtr> fields);
  static ValuePtr ref(ValuePtr initial);

  RuntimeValue() = default;
  RuntimeValue(const RuntimeValue &) = delete;
  RuntimeValue &operator=(const RuntimeValue &) = delete;
  /// Releases what the value holds without recursion: a long list is a
  /// chain of Cons values as deep as it is long.
  ~RuntimeValue();

  Kind getKind() const { return kind; }
  bool isTensor() const { return kind == Kind::Tensor; }
  const Tensor &getTensor() const { return t; }
  const std::vector<ValuePtr> &getFields() const { return fields; }
  Operation *getFunction() const { return op; }
  const std::shared_ptr<Env> &getEnv() const { return env; }
  /// The relay.ctor of an ADT value.
  Operation *getConstructor() const { return op; }
  ValuePtr getRefContents() const { return *cell; }
  void setRefContents(ValuePtr v) const { *cell = std::move(v); }

private:
  Kind kind = Kind::Tensor;
  Tensor t;
  std::vector<ValuePtr> fields;
  Operation *op = nullptr;
  std::shared_ptr<Env> env;
  std::shared_ptr<ValuePtr> cell;
};

/// The values of one activation of a function (and the scopes inside it),
/// with the environment it closes over.
struct Env {
  // Inline room for a small block's values: a DenseMap's first insertion
  // takes 64 buckets (1.5 KB), most of a deep recursion's memory.
  llvm::SmallDenseMap<mlir::Value, ValuePtr, 8> values;
  std::shared_ptr<Env> parent;

  ValuePtr lookup(mlir::Value v) const {
    for (const Env *e = this; e; e = e->parent.get()) {
      auto it = e->values.find(v);
      if (it != e->values.end())
        return it->second;
    }
    return nullptr;
  }
};

/// Prints `v` as a Relay value: `9`, `2.5`, `True`, nested lists for
/// tensors, `(a, b)`, `Cons(1, Nil)`, `<closure>`, `ref(1)`.
void printValue(raw_ostream &os, const ValuePtr &v);

/// The type of a run-time value: a tensor's, or a non-empty tuple of
/// them; null for other values.
Type typeOfValue(const ValuePtr &v);

} // namespace mlir::relay::interp

#endif // RELAY_MLIR_RUNTIME_INTERPRETER_VALUE_H
