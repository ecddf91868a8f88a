//===- Passes.td - Relay passes: Layout --------------------*- tablegen -*-===//
//
// Layouts (transforms/Layout). Included by transforms/Passes.td, which
// generates every pass declaration into one Passes.h.inc.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_LAYOUT_PASSES
#define RELAY_TRANSFORMS_LAYOUT_PASSES

include "mlir/Pass/PassBase.td"

def ConvertLayout : Pass<"relay-convert-layout", "::mlir::ModuleOp"> {
  let summary = "Convert ops to the data layouts asked for (TVM's "
                "ConvertLayout)";
  let description = [{
    Each op named in `desired-layouts` (`nn.conv2d:NHWC:HWIO`,
    `nn.conv2d:NHWC` or `nn.conv2d:NHWC:default` for TVM's default kernel
    layout, `nn.max_pool2d:NHWC`) takes that layout. The ops after it follow
    through their registry rules ("infer_layout", transforms/Layout/
    LayoutRules.h): elementwise and broadcast ops (a lower-rank operand,
    such as a bias, is broadcast to the full rank and transformed too),
    bias_add and prelu (axis renamed), reductions over axes, concatenate,
    pooling. `layout_transform`s are inserted where a value meets an op that
    needs it in another layout (the edges of the converted region: the
    function's inputs and result, a reshape), once per value and layout;
    transforms that undo each other cancel. A weight's transform is a
    transform of a constant, which --relay-fold-constant folds. An op whose
    rule cannot follow, or whose relation rejects the new layout, reads its
    operands in their original layouts.

    A malformed entry, an unknown op, an op without a layout, or a layout
    that is not a permutation of the op's is an error.
  }];
  let options = [
    ListOption<"desiredLayouts", "desired-layouts", "std::string",
               "OP:DATA_LAYOUT[:KERNEL_LAYOUT] entries (kernel layout "
               "'default': HWIO for NHWC, OIHW for NCHW)">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numConverted", "converted", "Ops in a new layout">,
  ];
}

def AlterOpLayout : Pass<"relay-alter-op-layout", "::mlir::ModuleOp"> {
  let summary = "Put ops in the layouts the target's kernels want (TVM's "
                "AlterOpLayout)";
  let description = [{
    Asks each op's "alter_layout:<target>" registry rule which layouts the
    target wants it in, and converts it as --relay-convert-layout does
    (the ops after it follow; transforms at the edges). The CPU target
    (registered by its code generation) wants convolutions in NCHW/OIHW and
    pooling in NCHW, the layouts its kernels (packed, Winograd, depthwise
    row kernels) are built for: an NHWC network (from TensorFlow, or after
    --relay-convert-layout) then runs on them, a grouped NHWC convolution
    included, which the CPU lowering does not take as it is.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "The target whose rules are asked">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numConverted", "converted", "Ops in a new layout">,
  ];
}

#endif // RELAY_TRANSFORMS_LAYOUT_PASSES
