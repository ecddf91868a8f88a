//===- OutlineOps.cpp - Ops moved into a function of their own ------------===//

#include "transforms/Fusion/OutlineOps.h"

#include "dialects/relay/TypeUtils.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::relay;

FuncOp mlir::relay::outlineOps(ArrayRef<Operation *> ops,
                               ArrayRef<Value> outputs, StringRef name,
                               Location loc, SymbolTable &symbols,
                               Operation *insertAfter) {
  llvm::SmallPtrSet<Operation *, 16> outlined(ops.begin(), ops.end());
  llvm::SetVector<Value> inputs;
  llvm::SetVector<Operation *> constants;
  for (Operation *op : ops)
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && outlined.contains(def))
        continue;
      if (def && isa<ConstantOp>(def))
        constants.insert(def);
      else
        inputs.insert(operand);
    }
  auto concrete = [](Value v) { return isConcrete(v.getType()); };
  if (outputs.empty() || !llvm::all_of(outputs, concrete) ||
      !llvm::all_of(inputs, concrete))
    return nullptr;

  MLIRContext *context = loc.getContext();
  SmallVector<Type> outputTypes(ValueRange(outputs).getTypes());
  Type resultType = outputs.size() == 1 ? outputTypes.front()
                                        : TupleType::get(context, outputTypes);
  OpBuilder builder(context);
  builder.setInsertionPointAfter(insertAfter);
  SmallVector<Type> inputTypes(ValueRange(inputs.getArrayRef()).getTypes());
  auto func = FuncOp::create(builder, loc, name, inputTypes, resultType);
  func.setPrivate();
  symbols.insert(func, builder.getInsertionPoint());

  Block &body = func.getBody().front();
  IRMapping mapping;
  for (auto [input, arg] : llvm::zip(inputs, body.getArguments())) {
    mapping.map(input, arg);
    arg.setLoc(input.getLoc());
  }
  builder.setInsertionPointToStart(&body);
  for (Operation *constant : constants)
    builder.clone(*constant, mapping);
  for (Operation *op : ops)
    builder.clone(*op, mapping);
  SmallVector<Value> returned;
  for (Value v : outputs)
    returned.push_back(mapping.lookup(v));
  Value result = returned.size() == 1
                     ? returned.front()
                     : TupleOp::create(builder, loc, returned).getResult();
  ReturnOp::create(builder, loc, result);

  builder.setInsertionPoint(ops.back());
  auto call = CallOp::create(builder, loc, func, inputs.getArrayRef());
  if (outputs.size() == 1) {
    Value(outputs.front()).replaceAllUsesWith(call.getResult());
  } else {
    for (auto [i, v] : llvm::enumerate(outputs))
      Value(v).replaceAllUsesWith(
          TupleGetOp::create(builder, v.getLoc(), call.getResult(), i)
              .getResult());
  }
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  for (Operation *constant : constants)
    if (constant->use_empty())
      constant->erase();
  return func;
}
