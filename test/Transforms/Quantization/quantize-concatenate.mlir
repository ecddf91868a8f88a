// RUN: relay-mlir-opt %s --relay-quantize-annotate=skip-conv-layers=none | FileCheck %s --check-prefix=ANNOTATE
// RUN: relay-mlir-opt %s '--relay-quantize=skip-conv-layers=none' | FileCheck %s

// Tests concatenate's rule: the fields of its tuple (two convolutions'
// activations) become inputs, and the concatenation runs on their
// integers at the smaller scale (here both the input scale) in int32,
// relu after it too.
// ANNOTATE: %[[CA:.*]] = relay.nn.conv2d
// ANNOTATE: %[[A:.*]] = relay.annotation.simulated_quantize %[[CA]], {{.*}} {kind = 1 : i64}
// ANNOTATE: %[[CB:.*]] = relay.nn.conv2d
// ANNOTATE: %[[B:.*]] = relay.annotation.simulated_quantize %[[CB]], {{.*}} {kind = 1 : i64}
// ANNOTATE: relay.tuple(%[[A]], %[[B]] :
// CHECK: %[[T:.*]] = relay.tuple(%{{.*}}, %{{.*}} : tensor<1x2x4x4xi32>, tensor<1x3x4x4xi32>)
// CHECK: %[[C:.*]] = relay.concatenate %[[T]] {axis = 1 : i64} : (tuple<tensor<1x2x4x4xi32>, tensor<1x3x4x4xi32>>) -> tensor<1x5x4x4xi32>
// CHECK: relay.nn.relu %[[C]] : (tensor<1x5x4x4xi32>)
relay.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x5x4x4xf32> {
  %w1 = relay.constant dense<0.5> : tensor<2x2x1x1xf32>
  %w2 = relay.constant dense<0.25> : tensor<3x2x1x1xf32>
  %a = relay.nn.conv2d %x, %w1 : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %b = relay.nn.conv2d %x, %w2 : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %t = relay.tuple(%a, %b : tensor<1x2x4x4xf32>, tensor<1x3x4x4xf32>)
  %c = relay.concatenate %t {axis = 1 : i64} : (tuple<tensor<1x2x4x4xf32>, tensor<1x3x4x4xf32>>) -> tensor<1x5x4x4xf32>
  %r = relay.nn.relu %c : (tensor<1x5x4x4xf32>) -> tensor<1x5x4x4xf32>
  relay.return %r : tensor<1x5x4x4xf32>
}
