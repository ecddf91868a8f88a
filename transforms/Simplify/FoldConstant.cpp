//===- FoldConstant.cpp - --relay-fold-constant ---------------------------===//
//
// Operators of constants are evaluated by the interpreter's reference
// kernels (the same oracle compiled code is checked against), so that what
// a program computes does not depend on whether a part of it was folded.
// Conditionals on constants are decided; tuples of constants and their
// projections fold through the ops' own folders.
//
//===----------------------------------------------------------------------===//

#include "transforms/Simplify/FoldConstant.h"
#include "transforms/Decompose/Decompose.h"
#include "transforms/Passes.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayOps.h"
#include "runtime/Interpreter/Interpreter.h"
#include "runtime/Interpreter/TensorBytes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cstring>

namespace mlir::relay {
#define GEN_PASS_DEF_FOLDCONSTANT
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

/// The run-time value of `v` when it is a constant, or a tuple of them
/// (nested); null otherwise.
static ValuePtr constantValue(Value v) {
  if (auto c = v.getDefiningOp<ConstantOp>()) {
    if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue()))
      return RuntimeValue::tensor(Tensor::fromAttr(dense));
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(c.getValue())) {
      FailureOr<Tensor> t = Tensor::fromResource(resource);
      return succeeded(t) ? RuntimeValue::tensor(std::move(*t)) : nullptr;
    }
    return nullptr;
  }
  if (auto tuple = v.getDefiningOp<TupleOp>()) {
    std::vector<ValuePtr> fields;
    for (Value field : tuple.getFields()) {
      ValuePtr f = constantValue(field);
      if (!f)
        return nullptr;
      fields.push_back(std::move(f));
    }
    return RuntimeValue::tuple(std::move(fields));
  }
  return nullptr;
}

/// The number of elements of `type` (a static tensor, or a tuple of them);
/// -1 when a shape is not static.
static int64_t numElements(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    int64_t n = 0;
    for (Type field : tuple.getTypes()) {
      int64_t f = numElements(field);
      if (f < 0)
        return -1;
      n += f;
    }
    return n;
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() ? tensor.getNumElements() : -1;
}

/// Folded tensors of at least this many elements (not all equal) are kept
/// as blobs, `dense_resource` as importers keep weights, rather than dense
/// attributes: their elements are not hashed into the context, and the JIT
/// reads them in place instead of compiling them into its object code (a
/// 3-d ResNet's transposed weights made its first call take seconds).
constexpr int64_t kMinBlobElements = 16384;

/// `bytes` (the elements of `type`, each in its dtype's whole bytes) as an
/// attribute: a blob when they are many and not all equal
/// (kMinBlobElements), else dense elements.
static ElementsAttr bytesAttr(RankedTensorType type, ArrayRef<char> bytes) {
  size_t width = type.getElementType().getIntOrFloatBitWidth() / 8;
  bool splat = true;
  for (size_t at = width; splat && at < bytes.size(); at += width)
    splat = std::memcmp(bytes.data(), bytes.data() + at, width) == 0;
  if (type.getNumElements() < kMinBlobElements || splat)
    return DenseElementsAttr::getFromRawBuffer(type, bytes);
  return DenseResourceElementsAttr::get(
      type, "relay_folded",
      HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, 64,
                                                    /*dataIsMutable=*/false));
}

/// `t` as an attribute: a blob when it is large (bytesAttr).
static ElementsAttr tensorAttr(const Tensor &t) {
  Type e = t.getElementType();
  if (t.getNumElements() < kMinBlobElements || !e.isIntOrFloat() ||
      e.getIntOrFloatBitWidth() % 8)
    return t.toAttr();
  return bytesAttr(t.getType(), tensorBytes(t));
}

/// `value` as constants of `type` (relay.constant, relay.tuple of them);
/// null when it does not have that type.
static Value materialize(OpBuilder &b, Location loc, const ValuePtr &value,
                         Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    if (value->getKind() != RuntimeValue::Kind::Tuple ||
        value->getFields().size() != tuple.size())
      return nullptr;
    SmallVector<Value> fields;
    for (auto [field, t] : llvm::zip(value->getFields(), tuple.getTypes())) {
      Value f = materialize(b, loc, field, t);
      if (!f)
        return nullptr;
      fields.push_back(f);
    }
    return TupleOp::create(b, loc, fields);
  }
  if (!value->isTensor() || value->getTensor().getType() != type)
    return nullptr;
  return ConstantOp::create(b, loc, tensorAttr(value->getTensor()));
}

/// The value of `v` computed from constants by the operators' kernels,
/// at most `depth` operators deep, none of whose results is larger than
/// `maxElements`; null when something is not constant.
static ValuePtr evaluate(Value v, unsigned depth, int64_t maxElements) {
  if (ValuePtr c = constantValue(v))
    return c;
  Operation *op = v.getDefiningOp();
  int64_t n = numElements(v.getType());
  if (!op || depth == 0 || op->getNumResults() != 1 || n < 0 ||
      n > maxElements || !lookupOperator(op->getName().getStringRef()))
    return nullptr;
  SmallVector<ValuePtr> operands;
  for (Value operand : op->getOperands()) {
    ValuePtr c = evaluate(operand, depth - 1, maxElements);
    if (!c)
      return nullptr;
    operands.push_back(std::move(c));
  }
  ScopedDiagnosticHandler quiet(op->getContext(),
                                [](Diagnostic &) { return success(); });
  FailureOr<ValuePtr> result = evaluateOperator(op, operands);
  return succeeded(result) ? *result : nullptr;
}

DenseElementsAttr mlir::relay::evaluateConstantTensor(Value v,
                                                      int64_t maxElements,
                                                      unsigned maxDepth) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape() || type.getNumElements() > maxElements)
    return nullptr;
  ValuePtr value = evaluate(v, maxDepth, maxElements);
  if (!value || !value->isTensor())
    return nullptr;
  DenseElementsAttr attr = value->getTensor().toAttr();
  return attr.getType() == type ? attr : nullptr;
}

namespace {

/// The elements of the constant operands of `op` that nothing else uses:
/// what folding `op` removes from the program. A fold that stores no more
/// than that (a weight's transpose or reshape, its product with a scale)
/// does not grow the program, whatever its size, and saves recomputing it
/// on every run.
static int64_t consumedElements(Operation *op) {
  int64_t consumed = 0;
  SmallPtrSet<Value, 4> counted;
  for (Value v : op->getOperands()) {
    auto c = v.getDefiningOp<ConstantOp>();
    if (!c || !counted.insert(v).second ||
        llvm::any_of(v.getUsers(), [&](Operation *u) { return u != op; }))
      continue;
    consumed += std::max<int64_t>(numElements(v.getType()), 0);
  }
  return consumed;
}

/// An operator whose operands are all constants: its value.
struct FoldOperator : RewritePattern {
  FoldOperator(MLIRContext *context, int64_t maxElements, unsigned &folded)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context),
        maxElements(maxElements), folded(folded) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumResults() != 1 ||
        !lookupOperator(op->getName().getStringRef()))
      return rewriter.notifyMatchFailure(op, "not an operator");
    int64_t n = numElements(op->getResult(0).getType());
    if (n < 0)
      return rewriter.notifyMatchFailure(op, "result not static");
    if (n > maxElements && n > consumedElements(op))
      return rewriter.notifyMatchFailure(op, "result too big");
    SmallVector<ValuePtr> operands;
    for (Value v : op->getOperands()) {
      ValuePtr c = constantValue(v);
      if (!c)
        return rewriter.notifyMatchFailure(op, "an operand is not constant");
      operands.push_back(std::move(c));
    }
    FailureOr<ValuePtr> result = failure();
    {
      // A kernel that fails (an integer division by zero) leaves the op to
      // fail when the program runs; its diagnostic is not this pass's.
      ScopedDiagnosticHandler quiet(op->getContext(),
                                    [](Diagnostic &) { return success(); });
      result = evaluateOperator(op, operands);
    }
    if (failed(result))
      return rewriter.notifyMatchFailure(op, "its kernel failed");
    Value folded = materialize(rewriter, op->getLoc(), *result,
                               op->getResult(0).getType());
    if (!folded)
      return rewriter.notifyMatchFailure(op, "the result has another type");
    rewriter.replaceOp(op, folded);
    ++this->folded;
    return success();
  }

  int64_t maxElements;
  unsigned &folded;
};

/// The bytes of constant `v`'s elements, each in its dtype's width (at least
/// a byte); nullopt for a splat, a missing blob or narrower elements.
static std::optional<ArrayRef<char>> constantBytes(Value v) {
  auto c = v.getDefiningOp<ConstantOp>();
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!c || !type || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  if (width % 8)
    return std::nullopt;
  ArrayRef<char> data;
  if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue())) {
    if (dense.isSplat())
      return std::nullopt;
    data = dense.getRawData();
  } else if (auto resource =
                 dyn_cast<DenseResourceElementsAttr>(c.getValue())) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    data = blob->getData();
  }
  if (data.size() != size_t(type.getNumElements()) * (width / 8))
    return std::nullopt;
  return data;
}

/// A reshape of a constant (reshape, squeeze, expand_dims, ...): the same
/// elements with the result's type, without copying a blob or evaluating
/// the operator element by element (a network's weights are reshaped).
template <typename OpTy> struct FoldReshapeOfConstant : OpRewritePattern<OpTy> {
  FoldReshapeOfConstant(MLIRContext *context, int64_t maxElements,
                        unsigned &folded)
      : OpRewritePattern<OpTy>(context, /*benefit=*/2),
        maxElements(maxElements), folded(folded) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto c = op->getOperand(0).template getDefiningOp<ConstantOp>();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    auto in = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    if (!c || !type || !in || !type.hasStaticShape() ||
        type.getElementType() != in.getElementType() ||
        type.getNumElements() != in.getNumElements())
      return rewriter.notifyMatchFailure(op, "not a reshape of a constant");
    // A blob is shared, dense elements are copied (as FoldOperator).
    if (isa<DenseElementsAttr>(c.getValue()) &&
        type.getNumElements() > maxElements &&
        type.getNumElements() > consumedElements(op))
      return rewriter.notifyMatchFailure(op, "result too big");
    ElementsAttr attr;
    if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue()))
      attr = dense.reshape(type);
    else if (auto resource = dyn_cast<DenseResourceElementsAttr>(c.getValue()))
      attr = DenseResourceElementsAttr::get(type, resource.getRawHandle());
    else
      return rewriter.notifyMatchFailure(op, "an unknown kind of constant");
    rewriter.replaceOpWithNewOp<ConstantOp>(op, attr);
    ++folded;
    return success();
  }

  int64_t maxElements;
  unsigned &folded;
};

/// A transpose of a constant, by moving its bytes: a network's weights are
/// transposed into the layout their kernels read, tens of millions of
/// elements that the interpreter's kernel widened to doubles and back.
struct FoldTransposeOfConstant : OpRewritePattern<TransposeOp> {
  FoldTransposeOfConstant(MLIRContext *context, int64_t maxElements,
                          unsigned &folded)
      : OpRewritePattern(context, /*benefit=*/2), maxElements(maxElements),
        folded(folded) {}

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<ArrayRef<char>> data = constantBytes(op.getData());
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!data || !type || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "not a transpose of a constant");
    auto in = cast<RankedTensorType>(op.getData().getType());
    int64_t rank = in.getRank();
    SmallVector<int64_t> perm = op.getPermutation(rank);
    size_t width = type.getElementType().getIntOrFloatBitWidth() / 8;
    // The input's stride (in elements) along each axis of the result.
    SmallVector<int64_t> inStrides(rank, 1), moved(rank);
    for (int64_t d = rank - 2; d >= 0; --d)
      inStrides[d] = inStrides[d + 1] * in.getDimSize(d + 1);
    for (int64_t d = 0; d < rank; ++d)
      moved[d] = inStrides[perm[d]];
    int64_t n = type.getNumElements();
    if (n > maxElements && n > consumedElements(op))
      return rewriter.notifyMatchFailure(op, "result too big");
    std::vector<char> bytes(n * width);
    char *out = bytes.data();
    // An odometer over the result's index; the innermost axis is a loop.
    ArrayRef<int64_t> shape = type.getShape();
    int64_t inner = rank ? shape.back() : 1;
    int64_t innerStride = rank ? moved.back() : 0;
    SmallVector<int64_t> index(std::max<int64_t>(rank - 1, 0), 0);
    int64_t from = 0;
    for (int64_t k = 0; k < n; k += inner) {
      const char *src = data->data() + from * width;
      char *dst = out + k * width;
      for (int64_t j = 0; j < inner; ++j)
        std::memcpy(dst + j * width, src + j * innerStride * width, width);
      for (int64_t d = rank - 2; d >= 0; --d) {
        from += moved[d];
        if (++index[d] < shape[d])
          break;
        from -= moved[d] * shape[d];
        index[d] = 0;
      }
    }
    ElementsAttr attr = bytesAttr(type, bytes);
    rewriter.replaceOpWithNewOp<ConstantOp>(op, attr);
    ++folded;
    return success();
  }

  int64_t maxElements;
  unsigned &folded;
};

/// `if` on a constant condition: its taken branch.
struct FoldIf : OpRewritePattern<IfOp> {
  FoldIf(MLIRContext *context, unsigned &decided)
      : OpRewritePattern(context), decided(decided) {}

  LogicalResult matchAndRewrite(IfOp op,
                                PatternRewriter &rewriter) const override {
    ValuePtr cond = constantValue(op.getCond());
    if (!cond || !cond->isTensor() || cond->getTensor().getNumElements() != 1)
      return rewriter.notifyMatchFailure(op, "the condition is not constant");
    Region &taken =
        cond->getTensor().getB(0) ? op.getThenRegion() : op.getElseRegion();
    Block &block = taken.front();
    Operation *yield = block.getTerminator();
    Value result = yield->getOperand(0);
    rewriter.inlineBlockBefore(&block, op);
    rewriter.eraseOp(yield);
    rewriter.replaceOp(op, result);
    ++decided;
    return success();
  }

  unsigned &decided;
};

struct FoldConstantPass
    : public relay::impl::FoldConstantBase<FoldConstantPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    unsigned folded = 0, decided = 0;
    RewritePatternSet patterns(context);
    patterns.add<FoldOperator>(context, maxElements, folded);
    patterns.add<
        FoldReshapeOfConstant<ReshapeOp>,
        FoldReshapeOfConstant<ReverseReshapeOp>,
        FoldReshapeOfConstant<SqueezeOp>, FoldReshapeOfConstant<ExpandDimsOp>,
        FoldReshapeOfConstant<BatchFlattenOp>, FoldTransposeOfConstant>(
        context, maxElements, folded);
    // shape_of and ndarray_size of a tensor whose type is static: its shape
    // or size whatever computes it (as TVM's FoldConstant), by their
    // decompositions, which need static types.
    populateDecompositionPatterns(patterns, [](StringRef name) {
      return name == ShapeOfOp::getOperationName() ||
             name == NdarraySizeOp::getOperationName();
    });
    patterns.add<FoldIf>(context, decided);
    // Not converging within the driver's rounds leaves a correct program
    // with fewer folds.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
    numFolded += folded;
    numBranches += decided;
  }
};

} // namespace
