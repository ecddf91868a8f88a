//===- Passes.td - Relay passes: Combine -------------------*- tablegen -*-===//
//
// Combining ops with their neighbours (transforms/Combine). Included by
// transforms/Passes.td, which generates every pass declaration into one
// Passes.h.inc.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_COMBINE_PASSES
#define RELAY_TRANSFORMS_COMBINE_PASSES

include "mlir/Pass/PassBase.td"

def FoldScaleAxis : Pass<"relay-fold-scale-axis", "::mlir::ModuleOp"> {
  let summary = "Fold per-channel scales into convolution and dense weights "
                "(TVM's FoldScaleAxis)";
  let description = [{
    A multiplication by a constant that varies along one axis only (a
    channel scale, as a batch norm leaves after --relay-simplify-inference)
    is folded into the weights of the product beside it:

    - backward, a scale of the output of `nn.conv2d` (along its output
      channels), `nn.dense` or `nn.matmul` (along the units), through
      `nn.bias_add` and `add`/`subtract` (the other side is scaled too, or
      takes the scale itself when it is a product) and `nn.relu` (a
      positive scale only): `conv2d(x, w) * s` is `conv2d(x, w * s)`;
    - forward, a scale of the input of `nn.conv2d` (plain or depthwise) or
      `nn.dense` along its channels, through `nn.relu` (positive scale) and
      an added shift (non-zero scale): `conv2d(relu(x * s + t), w)` is
      `conv2d(relu(x + t / s), w * s)` (TVM's pre-activation case, a batch
      norm before the convolution).

    Every value on the way must have no other use. Constants are folded
    (--relay-fold-constant) before, so that a batch norm's scale is one,
    and after, so that the scaled weights are. A scale that cannot be
    folded is left where it is.

    ```mlir
    %c = relay.nn.conv2d %x, %w : ...
    %y = relay.multiply %c, %s : (tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) -> ...
    // becomes
    %y = relay.nn.conv2d %x, %w2 : ...   // %w2 = %w scaled, a constant
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numFolded", "folded", "Scales folded into weights">,
  ];
}

def CombineParallelConv2d : Pass<"relay-combine-parallel-conv2d", "::mlir::ModuleOp"> {
  let summary = "Combine parallel nn.conv2d ops on one input into one (TVM's "
                "CombineParallelConv2D)";
  let description = [{
    `nn.conv2d` ops (groups 1, an Inception block's 1x1 convolutions) become
    one convolution on their kernels concatenated along the output channels
    (the kernel layout's O), split along the result's channel axis.
    Branches are joined when they read the same input, have the same
    attributes but the output size and weights of one type but along the
    joined axis, and the other branches' weights exist where the first
    branch is; fewer than `min-num-branches` such branches are left alone.
    Each branch's result becomes a `strided_slice` of the joined op's.
  }];
  let options = [
    Option<"minNumBranches", "min-num-branches", "int64_t", /*default=*/"3",
           "The fewest branches worth joining">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numCombined", "combined", "Ops joined with others">,
  ];
}

def CombineParallelDense : Pass<"relay-combine-parallel-dense", "::mlir::ModuleOp"> {
  let summary = "Combine parallel nn.dense ops on one input into one (TVM's "
                "CombineParallelDense)";
  let description = [{
    `nn.dense` ops become one on their weights concatenated along the units
    (TVM's `to_batch=False` form), split along the result's last axis.
    Branches are joined when they read the same input, have the same
    attributes but the output size and weights of one type but along the
    joined axis, and the other branches' weights exist where the first
    branch is; fewer than `min-num-branches` such branches are left alone.
    Each branch's result becomes a `strided_slice` of the joined op's.
  }];
  let options = [
    Option<"minNumBranches", "min-num-branches", "int64_t", /*default=*/"3",
           "The fewest branches worth joining">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numCombined", "combined", "Ops joined with others">,
  ];
}

def CombineParallelBatchMatmul : Pass<"relay-combine-parallel-batch-matmul", "::mlir::ModuleOp"> {
  let summary = "Combine parallel nn.batch_matmul ops on one input into one (TVM's "
                "CombineParallelBatchMatmul)";
  let description = [{
    `nn.batch_matmul` ops (not transposing their first operand) become one
    on their second operands concatenated along N, split along the
    result's last axis (an attention layer's query, key and value
    projections).
    Branches are joined when they read the same input, have the same
    attributes but the output size and weights of one type but along the
    joined axis, and the other branches' weights exist where the first
    branch is; fewer than `min-num-branches` such branches are left alone.
    Each branch's result becomes a `strided_slice` of the joined op's.
  }];
  let options = [
    Option<"minNumBranches", "min-num-branches", "int64_t", /*default=*/"3",
           "The fewest branches worth joining">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numCombined", "combined", "Ops joined with others">,
  ];
}

#endif // RELAY_TRANSFORMS_COMBINE_PASSES
