//===- RelationsLoss.cpp - Type relations of the loss operators -----------===//
//
// CrossEntropy (nn.cross_entropy, nn.cross_entropy_with_logits) and
// NLLLoss (nn.nll_loss), as TVM types them.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"
#include "dialects/relay/TypeRelations.h"

using namespace mlir;
using namespace mlir::relay;

/// Predictions and targets: [batch, classes] of one float type; a scalar.
static RelationStatus crossEntropyRelation(RelationArgs &args) {
  TensorInfo predictions, targets;
  READ_TENSOR_OR_RETURN(args, 0, predictions);
  READ_TENSOR_OR_RETURN(args, 1, targets);
  if (!isFloatLike(predictions.dtype))
    return args.fail("expected float predictions, got " +
                     typeStr(args.getInput(0)));
  if (predictions.getRank() != 2)
    return args.fail("expected predictions of shape [batch, classes], got " +
                     typeStr(args.getInput(0)));
  if (targets.dtype != predictions.dtype ||
      targets.getRank() != predictions.getRank())
    return args.fail("expected targets of the predictions' type " +
                     typeStr(args.getInput(0)) + ", got " +
                     typeStr(args.getInput(1)));
  for (int64_t d = 0; d < 2; ++d)
    if (failed(unifyDims(predictions.dims[d], targets.dims[d])))
      return args.fail("the targets' shape " + typeStr(args.getInput(1)) +
                       " differs from the predictions' " +
                       typeStr(args.getInput(0)));
  return args.solve(
      makeTensor(args.getContext(), ArrayRef<Dim>{}, predictions.dtype));
}

/// Predictions [N, C, d...] float, targets [N, d...] integer, weights [C]
/// of the predictions' type; [N, d...] for reduction "none", else a scalar.
static RelationStatus nllLossRelation(RelationArgs &args) {
  TensorInfo predictions, targets, weights;
  READ_TENSOR_OR_RETURN(args, 0, predictions);
  READ_TENSOR_OR_RETURN(args, 1, targets);
  READ_TENSOR_OR_RETURN(args, 2, weights);
  if (!isFloatLike(predictions.dtype) || predictions.getRank() < 2)
    return args.fail("expected float predictions of shape [N, C, ...], got " +
                     typeStr(args.getInput(0)));
  if (!isa<IntegerType>(targets.dtype) ||
      targets.getRank() != predictions.getRank() - 1)
    return args.fail("expected integer targets of shape [N, ...] (the "
                     "predictions' without C), got " +
                     typeStr(args.getInput(1)));
  for (int64_t d = 0; d < targets.getRank(); ++d)
    if (failed(
            unifyDims(targets.dims[d], predictions.dims[d == 0 ? 0 : d + 1])))
      return args.fail("the targets' shape " + typeStr(args.getInput(1)) +
                       " does not match the predictions' " +
                       typeStr(args.getInput(0)) + " without C");
  if (weights.dtype != predictions.dtype || weights.getRank() != 1 ||
      failed(unifyDims(weights.dims[0], predictions.dims[1])))
    return args.fail("expected weights of shape [C] and the predictions' "
                     "dtype, got " +
                     typeStr(args.getInput(2)));
  StringRef reduction = args.getString("reduction", "mean");
  if (reduction == "none")
    return args.solve(
        makeTensor(args.getContext(), targets.dims, predictions.dtype));
  if (reduction != "mean" && reduction != "sum")
    return args.fail("unknown reduction '" + reduction +
                     "' (expected mean, sum or none)");
  return args.solve(
      makeTensor(args.getContext(), ArrayRef<Dim>{}, predictions.dtype));
}

void mlir::relay::registerLossRelations() {
  registerTypeRelation("CrossEntropy", crossEntropyRelation);
  registerTypeRelation("NLLLoss", nllLossRelation);
}
