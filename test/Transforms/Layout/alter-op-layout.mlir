// RUN: relay-mlir-opt %s --relay-alter-op-layout | FileCheck %s
// RUN: relay-mlir-opt %s --relay-alter-op-layout=target=generic | FileCheck %s --check-prefix=GENERIC

// Tests that on the CPU an NHWC network (a depthwise convolution among its
// ops, which the CPU lowering takes only in NCHW) runs in NCHW/OIHW: its
// input and kernels are transformed once, its ops follow, and its result
// goes back to NHWC. The generic target has no layout rules.
// CHECK-LABEL: relay.func @nhwc(
// CHECK: relay.layout_transform %arg0 {dst_layout = "NCHW", src_layout = "NHWC"}
// CHECK: relay.nn.conv2d {{.*}} {groups = 8 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x6x6xf32>
// CHECK: relay.nn.relu {{.*}} : (tensor<1x8x6x6xf32>)
// CHECK: relay.nn.max_pool2d {{.*}} : (tensor<1x8x6x6xf32>) -> tensor<1x8x3x3xf32>
// CHECK: %[[Y:.*]] = relay.layout_transform {{.*}} {dst_layout = "NHWC", src_layout = "NCHW"} : (tensor<1x8x3x3xf32>) -> tensor<1x3x3x8xf32>
// CHECK-NEXT: relay.return %[[Y]]
// GENERIC-LABEL: relay.func @nhwc(
// GENERIC-NOT: relay.layout_transform
relay.func @nhwc(%x: tensor<1x6x6x8xf32>, %w: tensor<3x3x8x1xf32>) -> tensor<1x3x3x8xf32> {
  %c = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWOI", groups = 8 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x6x6x8xf32>, tensor<3x3x8x1xf32>) -> tensor<1x6x6x8xf32>
  %r = relay.nn.relu %c : (tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  %p = relay.nn.max_pool2d %r {layout = "NHWC", pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x6x6x8xf32>) -> tensor<1x3x3x8xf32>
  relay.return %p : tensor<1x3x3x8xf32>
}
