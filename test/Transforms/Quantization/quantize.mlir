// RUN: relay-mlir-opt %s '--relay-quantize=skip-conv-layers=none' | FileCheck %s

// Tests the whole flow on a convolution, batch norm and relu: batch norm
// folds into the weights, the weights become int8 constants, the
// convolution runs on int8 and the result is dequantized.
// CHECK-LABEL: relay.func @main
// CHECK-DAG: relay.constant dense<{{.*}}> : tensor<4x3x3x3xi8>
// CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {{.*}}out_dtype = i32{{.*}} : (tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>) -> tensor<1x4x8x8xi32>
// CHECK: relay.nn.relu %{{.*}} : (tensor<1x4x8x8xi32>)
// CHECK: relay.cast %{{.*}} {dtype = f32}
// CHECK-NOT: simulated_quantize
// CHECK-NOT: relay.nn.batch_norm
relay.func @main(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = relay.constant dense<0.25> : tensor<4x3x3x3xf32>
  %g = relay.constant dense<[1.0, 2.0, 0.5, 1.5]> : tensor<4xf32>
  %b = relay.constant dense<[0.0, 0.1, -0.1, 0.2]> : tensor<4xf32>
  %m = relay.constant dense<[0.5, 0.0, -0.5, 1.0]> : tensor<4xf32>
  %v = relay.constant dense<[1.0, 2.0, 0.5, 4.0]> : tensor<4xf32>
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %bn = relay.nn.batch_norm %c, %g, %b, %m, %v : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>>
  %y = relay.tuple_get %bn[0] : tuple<tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>>
  %r = relay.nn.relu %y : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  relay.return %r : tensor<1x4x8x8xf32>
}
