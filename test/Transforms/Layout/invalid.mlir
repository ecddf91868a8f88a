// RUN: not relay-mlir-opt %s --relay-convert-layout="desired-layouts=nn.conv2d" 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not relay-mlir-opt %s --relay-convert-layout="desired-layouts=nn.conv9d:NHWC" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not relay-mlir-opt %s --relay-convert-layout="desired-layouts=nn.conv2d:NHHC" 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not relay-mlir-opt %s --relay-convert-layout="desired-layouts=nn.conv2d:NCHWD" 2>&1 | FileCheck %s --check-prefix=PERMUTATION
// RUN: not relay-mlir-opt %s --relay-convert-layout="desired-layouts=nn.conv2d:NHWC:HWIX" 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not relay-mlir-opt %s --relay-convert-layout="desired-layouts=nn.relu:NHWC" 2>&1 | FileCheck %s --check-prefix=NOLAYOUT
// RUN: not relay-mlir-opt %s --relay-alter-op-layout=target=tpu 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: relay-mlir-opt %s --relay-convert-layout="desired-layouts=nn.conv2d:NHCW" 2>&1 | FileCheck %s --check-prefix=DECLINED

// Tests that malformed entries and layouts, unknown ops and targets, and
// ops without a layout are errors.
// ENTRY: error: --relay-convert-layout: desired-layouts entry 'nn.conv2d': expected OP:DATA_LAYOUT[:KERNEL_LAYOUT], e.g. nn.conv2d:NHWC:HWIO
// UNKNOWN: error: --relay-convert-layout: desired-layouts entry 'nn.conv9d:NHWC': no operator nn.conv9d
// MALFORMED: error: --relay-convert-layout: desired-layouts entry 'nn.conv2d:NHHC': malformed layout 'NHHC' (upper-case axis letters, each once)
// PERMUTATION: invalid.mlir:[[# @LINE + 9]]:8: error: --relay-convert-layout: desired layout 'NCHWD' is not a permutation of the op's layout 'NCHW'
// KERNEL: error: --relay-convert-layout: desired kernel layout 'HWIX' is not a permutation of the op's 'OIHW'
// NOLAYOUT: error: --relay-convert-layout: 'relay.nn.relu' has no layout to convert
// TARGET: error: --relay-alter-op-layout: unknown target 'tpu' (cpu, generic)
// Tests that a permutation the op's rule does not take leaves it as it was,
// with a remark saying so.
// DECLINED: invalid.mlir:[[# @LINE + 3]]:8: remark: --relay-convert-layout: 'relay.nn.conv2d' stays in NCHW: its layout rule does not take NHCW
// DECLINED: relay.nn.conv2d %x, %w : (tensor<1x3x4x4xf32>
relay.func @f(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %c = relay.nn.conv2d %x, %w : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r = relay.nn.relu %c : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  relay.return %r : tensor<1x2x4x4xf32>
}
