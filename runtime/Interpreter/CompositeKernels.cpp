//===- CompositeKernels.cpp - Operators run by their decomposition --------===//

#include "runtime/Interpreter/CompositeKernels.h"

#include "runtime/Interpreter/Interpreter.h"
#include "runtime/Interpreter/Kernels.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayOps.h"
#include "transforms/Decompose/Decompose.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

/// Whether the interpreter runs `op` itself: not an operator (constants,
/// tuples, ...), or an operator with a kernel.
static bool hasKernel(Operation *op) {
  const OperatorInfo *info = lookupOperator(op->getName().getStringRef());
  return !info || info->columns.count(kInterpretColumn);
}

/// A module of one function, `@composite`, computing `op` at `operandTypes`
/// with every composite operator decomposed; null (and a diagnostic at
/// `op`) when some operator is left without a kernel.
static OwningOpRef<ModuleOp>
decompose(Operation *op, ArrayRef<Type> operandTypes, Type resultType) {
  Location loc = op->getLoc();
  OpBuilder b(op->getContext());
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto func = FuncOp::create(b, loc, "composite", operandTypes, resultType);
  Block &body = func.getBody().front();
  b.setInsertionPointToStart(&body);
  IRMapping mapping;
  mapping.map(op->getOperands(), body.getArguments());
  Operation *clone = b.clone(*op, mapping);
  clone->getResult(0).setType(resultType);
  ReturnOp::create(b, loc, clone->getResult(0));

  RewritePatternSet patterns(op->getContext());
  populateDecompositionPatterns(patterns);
  (void)applyPatternsGreedily(func, std::move(patterns));
  Operation *left = nullptr;
  func.walk([&](Operation *inner) {
    if (hasKernel(inner) && !hasPackedLayouts(inner))
      return WalkResult::advance();
    left = inner;
    return WalkResult::interrupt();
  });
  if (!left)
    return module;
  InFlightDiagnostic diag = mlir::emitError(loc)
                            << "the interpreter has no kernel for '"
                            << op->getName() << "'";
  if (left->getName() == op->getName())
    diag << " and cannot decompose it for operands " << TypeRange(operandTypes);
  else
    diag << ": its decomposition for operands " << TypeRange(operandTypes)
         << " uses '" << left->getName() << "', which has none";
  return nullptr;
}

FailureOr<ValuePtr> CompositeKernels::run(Operation *op,
                                          ArrayRef<ValuePtr> operands,
                                          ArrayRef<Type> operandTypes,
                                          Type resultType) {
  std::vector<const void *> key;
  for (Type t : operandTypes)
    key.push_back(t.getAsOpaquePointer());
  key.push_back(resultType.getAsOpaquePointer());
  auto [it, inserted] = decomposed.try_emplace({op, std::move(key)});
  Decomposition &d = it->second;
  if (inserted) {
    d.module = decompose(op, operandTypes, resultType);
    if (d.module) {
      d.func = d.module->lookupSymbol<FuncOp>("composite");
      d.interpreter = std::make_unique<Interpreter>(*d.module);
    }
  }
  if (!d.module)
    return failure();
  return d.interpreter->call(d.func, operands);
}

CompositeKernels::CompositeKernels() = default;
CompositeKernels::~CompositeKernels() = default;
