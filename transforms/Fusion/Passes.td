//===- Passes.td - Relay passes: Fusion --------------------*- tablegen -*-===//
//
// Fusion (transforms/Fusion). Included by transforms/Passes.td, which generates
// every pass declaration into one Passes.h.inc.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_FUSION_PASSES
#define RELAY_TRANSFORMS_FUSION_PASSES

include "mlir/Pass/PassBase.td"

def FuseOps : Pass<"relay-fuse-ops", "::mlir::ModuleOp"> {
  let summary = "Group operators into primitive functions over the "
                "post-dominator tree (TVM's FuseOps)";
  let description = [{
    TVM's operator fusion. Within each block (a function body, a branch, a
    closure body) the dataflow graph of its operators, tuples and
    projections is built, with each edge's pattern kind from the operator
    registry (elemwise, broadcast, injective, reduction,
    out-elemwise-fusable, tuple, opaque), and its post-dominator tree. Then,
    in three phases as TVM's GraphPartitioner: an out-elemwise-fusable op
    (conv2d, dense) takes the elementwise and broadcast ops up to its
    post-dominator (its epilogue); elementwise and broadcast ops join an
    injective or reduction post-dominator when every path to it is
    injective; injective ops and tuples join an injective post-dominator;
    then injective ops join tuples already fused into injective consumers.
    Diamonds fuse when all their paths qualify. A group has at most
    `max-depth` ops.

    Each group with an operator becomes a private `relay.func` with the
    unit attribute `relay.primitive` (exported as TVM's `Primitive=1`),
    named after its ops (`fused_nn_conv2d_add_nn_relu`), called where the
    group's result was; constants the group uses are copied into it (its
    kernels see them, as weights). Calls, closures, `if`, `match` and
    references are not fused. `fuse-opt-level=0` puts each operator in its
    own function.

    ```mlir
    %c = relay.nn.conv2d %x, %w : ...
    %b = relay.add %c, %bias : ...
    %r = relay.nn.relu %b : ...
    // becomes
    %r = relay.call @fused_nn_conv2d_add_nn_relu(%x, %w, %bias) : ...
    relay.func private @fused_nn_conv2d_add_nn_relu(...) attributes {relay.primitive} { ... }
    ```
  }];
  let options = [
    Option<"fuseOptLevel", "fuse-opt-level", "int64_t", /*default=*/"1",
           "0: every operator its own group; 1 and above: TVM's fusion">,
    Option<"maxDepth", "max-depth", "int64_t", /*default=*/"256",
           "The most operators in one group">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numGroups", "groups", "Primitive functions made">,
    Statistic<"numFused", "fused", "Operators in them">,
  ];
}

def InlinePrimitives : Pass<"relay-inline-primitives", "::mlir::ModuleOp"> {
  let summary = "Inline the calls of primitive functions";
  let description = [{
    Replaces each call of a `relay.primitive` function by the function's
    body and erases the functions. The CPU pipeline runs it right before
    lowering: the CPU's kernels choose their form from an operator's
    neighbours (a 1x1 convolution feeding a depthwise one is computed
    window by window inside it), and its code generation fuses across the
    groups FuseOps made as well as inside them.

    ```mlir
    %r = relay.call @fused_add(%x, %y) : ...
    relay.func private @fused_add(%a, %b) attributes {relay.primitive} {
      %s = relay.add %a, %b : ...
      relay.return %s : ...
    }
    // becomes
    %r = relay.add %x, %y : ...
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

#endif // RELAY_TRANSFORMS_FUSION_PASSES
