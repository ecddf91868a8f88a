// RUN: relay-mlir-opt %s --relay-alter-op-layout | FileCheck %s
// RUN: relay-mlir-opt %s --relay-alter-op-layout=target=generic | FileCheck %s --check-prefix=GENERIC
// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-alter-op-layout | FileCheck %s --check-prefix=INT8
// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=x86-64 --relay-alter-op-layout | FileCheck %s --check-prefix=SSE

// Tests that on the CPU an NHWC network (a depthwise convolution among its
// ops, which the CPU lowering takes only in NCHW) runs in NCHW/OIHW: its
// input and kernels are transformed once, its ops follow, and its result
// goes back to NHWC. The generic target has no layout rules.
// CHECK-LABEL: relay.func @nhwc(
// CHECK: relay.layout_transform %x {dst_layout = "NCHW", src_layout = "NHWC"}
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

// Tests that on a CPU with int8 dot-product kernels (a Zen 4: AVX-512
// VNNI) int8 convolutions with constant weights take NHWC/HWIO, depthwise
// ones NHWC/HWOI, and that the requantization and the integer max pooling
// between them follow, so that the network transforms its image once at
// the start and its result once at the end; a convolution whose weights
// are not constants stays NCHW. Without AVX2 (x86-64) nothing changes.
// INT8-LABEL: relay.func @int8(
// INT8: relay.layout_transform %x {dst_layout = "NHWC", src_layout = "NCHW"}
// INT8: relay.nn.conv2d {{.*}}data_layout = "NHWC"{{.*}}kernel_layout = "HWIO"{{.*}} : (tensor<1x6x6x8xi8>, tensor<3x3x8x16xi8>) -> tensor<1x6x6x16xi32>
// INT8: relay.right_shift {{.*}} : (tensor<1x6x6x16xi32>, tensor<i32>)
// INT8: relay.cast {{.*}} : (tensor<1x6x6x16xi32>) -> tensor<1x6x6x16xi8>
// INT8: relay.nn.max_pool2d {{.*}}layout = "NHWC"{{.*}} : (tensor<1x6x6x16xi8>) -> tensor<1x3x3x16xi8>
// INT8: relay.nn.conv2d {{.*}}data_layout = "NHWC"{{.*}}groups = 16 : i64, kernel_layout = "HWOI"{{.*}} : (tensor<1x3x3x16xi8>, tensor<3x3x16x1xi8>) -> tensor<1x3x3x16xi32>
// INT8: relay.cast {{.*}} : (tensor<1x3x3x16xi32>) -> tensor<1x3x3x16xi8>
// INT8: %[[Y:.*]] = relay.layout_transform {{.*}} {dst_layout = "NCHW", src_layout = "NHWC"} : (tensor<1x3x3x16xi8>) -> tensor<1x16x3x3xi8>
// INT8: relay.nn.conv2d %[[Y]], %w3 {out_dtype = i32} : (tensor<1x16x3x3xi8>, tensor<16x16x1x1xi8>) -> tensor<1x16x3x3xi32>
// SSE-LABEL: relay.func @int8(
// SSE-NOT: relay.layout_transform
relay.func @int8(%x: tensor<1x8x6x6xi8>, %w3: tensor<16x16x1x1xi8>) -> tensor<1x16x3x3xi32> {
  %w1 = relay.constant dense<1> : tensor<16x8x3x3xi8>
  %w2 = relay.constant dense<2> : tensor<16x1x3x3xi8>
  %s = relay.constant dense<4> : tensor<i32>
  %c = relay.nn.conv2d %x, %w1 {padding = array<i64: 1, 1, 1, 1>, out_dtype = i32} : (tensor<1x8x6x6xi8>, tensor<16x8x3x3xi8>) -> tensor<1x16x6x6xi32>
  %r = relay.right_shift %c, %s : (tensor<1x16x6x6xi32>, tensor<i32>) -> tensor<1x16x6x6xi32>
  %q = relay.cast %r {dtype = i8} : (tensor<1x16x6x6xi32>) -> tensor<1x16x6x6xi8>
  %p = relay.nn.max_pool2d %q {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x16x6x6xi8>) -> tensor<1x16x3x3xi8>
  %d = relay.nn.conv2d %p, %w2 {groups = 16 : i64, padding = array<i64: 1, 1, 1, 1>, out_dtype = i32} : (tensor<1x16x3x3xi8>, tensor<16x1x3x3xi8>) -> tensor<1x16x3x3xi32>
  %dq = relay.cast %d {dtype = i8} : (tensor<1x16x3x3xi32>) -> tensor<1x16x3x3xi8>
  %e = relay.nn.conv2d %dq, %w3 {out_dtype = i32} : (tensor<1x16x3x3xi8>, tensor<16x16x1x1xi8>) -> tensor<1x16x3x3xi32>
  relay.return %e : tensor<1x16x3x3xi32>
}
