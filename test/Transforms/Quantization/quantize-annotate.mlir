// RUN: relay-mlir-opt %s -split-input-file --relay-quantize-annotate | FileCheck %s
// RUN: relay-mlir-opt %s -split-input-file '--relay-quantize-annotate=skip-conv-layers=none nbit-input=6' | FileCheck %s --check-prefix=NOSKIP

// Tests that the first convolution stays in float (TVM's default
// skip-conv-layers=0); the second's data is an input and its weight a
// weight; the bias add's constant is a weight; relu keeps the activation,
// max pooling takes it as an input, and sigmoid (no rule) reads the result
// through an input quantization. Inputs clip at +-127 (8 bits).
// CHECK-LABEL: relay.func @main
// CHECK: %[[C0:.*]] = relay.nn.conv2d %x, %{{.*}} : (tensor<1x2x4x4xf32>
// CHECK: %[[X:.*]] = relay.annotation.simulated_quantize %[[C0]], %{{.*}}, %{{.*}}, %{{.*}} {kind = 1 : i64}
// CHECK: %[[W:.*]] = relay.annotation.simulated_quantize %{{.*}} {kind = 2 : i64} : (tensor<3x2x1x1xf32>
// CHECK: %[[C1:.*]] = relay.nn.conv2d %[[X]], %[[W]]
// CHECK: %[[B:.*]] = relay.annotation.simulated_quantize %{{.*}} {kind = 2 : i64} : (tensor<3x1x1xf32>
// CHECK: %[[A:.*]] = relay.add %[[C1]], %[[B]]
// CHECK: %[[R:.*]] = relay.nn.relu %[[A]]
// CHECK: %[[RQ:.*]] = relay.annotation.simulated_quantize %[[R]], {{.*}} {kind = 1 : i64}
// CHECK: %[[P:.*]] = relay.nn.max_pool2d %[[RQ]]
// CHECK: %[[PQ:.*]] = relay.annotation.simulated_quantize %[[P]], {{.*}} {kind = 1 : i64}
// CHECK: relay.sigmoid %[[PQ]]
// NOSKIP-LABEL: relay.func @main
// NOSKIP: relay.constant dense<-3.100000e+01>
// NOSKIP: relay.annotation.simulated_quantize %x, {{.*}} {kind = 1 : i64}
// NOSKIP: relay.annotation.simulated_quantize {{.*}} {kind = 2 : i64} : (tensor<2x2x1x1xf32>
relay.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x2x2xf32> {
  %w0 = relay.constant dense<0.5> : tensor<2x2x1x1xf32>
  %w = relay.constant dense<[[[[0.25]], [[-0.75]]], [[[1.5]], [[0.5]]], [[[-0.125]], [[1.0]]]]> : tensor<3x2x1x1xf32>
  %b = relay.constant dense<[[[0.1]], [[-0.2]], [[0.3]]]> : tensor<3x1x1xf32>
  %0 = relay.nn.conv2d %x, %w0 : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = relay.nn.conv2d %0, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %2 = relay.add %1, %b : (tensor<1x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %3 = relay.nn.relu %2 : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %4 = relay.nn.max_pool2d %3 {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x2x2xf32>
  %5 = relay.sigmoid %4 : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  relay.return %5 : tensor<1x3x2x2xf32>
}

// -----

// Tests that nothing after a global average pooling is quantized (its
// operand leaves integers through an input quantization), and that dense
// stays in float by default (skip-dense-layer).
// NOSKIP-LABEL: relay.func @head
relay.func @head(%x: tensor<1x2x4x4xf32>) -> tensor<1x3xf32> {
  %w = relay.constant dense<0.5> : tensor<2x2x1x1xf32>
  %v = relay.constant dense<0.5> : tensor<3x2xf32>
  // NOSKIP: %[[C:.*]] = relay.nn.conv2d
  // NOSKIP: %[[Q:.*]] = relay.annotation.simulated_quantize %[[C]], {{.*}} {kind = 1 : i64}
  // NOSKIP: %[[P:.*]] = relay.nn.global_avg_pool2d %[[Q]]
  // NOSKIP: relay.nn.conv2d %[[P]], %{{.*}} :
  // NOSKIP-NOT: simulated_quantize
  // NOSKIP: relay.return
  %c = relay.nn.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %p = relay.nn.global_avg_pool2d %c : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>
  %c2 = relay.nn.conv2d %p, %w : (tensor<1x2x1x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  %f = relay.nn.batch_flatten %c2 : (tensor<1x2x1x1xf32>) -> tensor<1x2xf32>
  %d = relay.nn.dense %f, %v : (tensor<1x2xf32>, tensor<3x2xf32>) -> tensor<1x3xf32>
  relay.return %d : tensor<1x3xf32>
}
