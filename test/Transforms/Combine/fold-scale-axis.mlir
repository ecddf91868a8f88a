// RUN: relay-mlir-opt %s --split-input-file --relay-fold-scale-axis | FileCheck %s
// RUN: relay-mlir-opt %s --split-input-file --relay-simplify-inference --relay-fold-scale-axis | FileCheck %s --check-prefix=BN

// Tests that a positive channel scale after a convolution, its bias and a
// relu folds into the convolution's weight and the bias (both constants
// again), leaving no multiplication.
// CHECK-LABEL: relay.func @backward(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x4x4xf32>)
// CHECK-DAG: %[[W:.*]] = relay.constant dense<{{\[}}{{\[}}{{\[}}[2.000000e+00]], {{\[}}[4.000000e+00]]], {{\[}}{{\[}}[3.000000e+00]], {{\[}}[3.000000e+00]]]]> : tensor<2x2x1x1xf32>
// CHECK-DAG: %[[B:.*]] = relay.constant dense<[2.000000e+00, -3.000000e+00]> : tensor<2xf32>
// CHECK: %[[C:.*]] = relay.nn.conv2d %[[X]], %[[W]]
// CHECK: %[[A:.*]] = relay.nn.bias_add %[[C]], %[[B]]
// CHECK: %[[R:.*]] = relay.nn.relu %[[A]]
// CHECK-NOT: relay.multiply
// CHECK: relay.return %[[R]]
relay.func @backward(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = relay.constant dense<[[[[1.0]], [[2.0]]], [[[1.0]], [[1.0]]]]> : tensor<2x2x1x1xf32>
  %b = relay.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %s = relay.constant dense<[[[2.0]], [[3.0]]]> : tensor<2x1x1xf32>
  %c = relay.nn.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %a = relay.nn.bias_add %c, %b : (tensor<1x2x4x4xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %r = relay.nn.relu %a : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = relay.multiply %r, %s : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  relay.return %y : tensor<1x2x4x4xf32>
}

// -----

// Tests that a batch norm after a convolution, once simplified, disappears
// into the convolution's weight: a convolution and an add of the shift
// remain.
// BN-LABEL: relay.func @batch_norm(
// BN-NOT: relay.multiply
// BN: relay.nn.conv2d
// BN-NEXT: relay.add
// BN-NEXT: relay.return
relay.func @batch_norm(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = relay.constant dense<0.5> : tensor<2x2x3x3xf32>
  %g = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %be = relay.constant dense<[0.1, 0.2]> : tensor<2xf32>
  %m = relay.constant dense<[0.3, -0.3]> : tensor<2xf32>
  %v = relay.constant dense<[4.0, 9.0]> : tensor<2xf32>
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %t = relay.nn.batch_norm %c, %g, %be, %m, %v : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>>
  %y = relay.tuple_get %t[0] : tuple<tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>>
  relay.return %y : tensor<1x2x4x4xf32>
}

// -----

// Tests that a scale with a negative element does not pass a relu, and
// that a convolution whose result has another use keeps its weights.
// CHECK-LABEL: relay.func @kept(
// CHECK: relay.nn.relu
// CHECK: relay.multiply
// CHECK: relay.multiply
// CHECK-LABEL: relay.func @shared(
// CHECK: %[[C:.*]] = relay.nn.conv2d
// CHECK: relay.multiply %[[C]]
relay.func @kept(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %s = relay.constant dense<[[[2.0]], [[-3.0]]]> : tensor<2x1x1xf32>
  %c = relay.nn.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r = relay.nn.relu %c : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = relay.multiply %r, %s : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %z = relay.multiply %y, %y : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  relay.return %z : tensor<1x2x4x4xf32>
}
relay.func @shared(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %s = relay.constant dense<[[[2.0]], [[3.0]]]> : tensor<2x1x1xf32>
  %c = relay.nn.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %y = relay.multiply %c, %s : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %z = relay.add %y, %c : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  relay.return %z : tensor<1x2x4x4xf32>
}

// -----

// Tests forward folding, TVM's pre-activation case: a batch norm's scale
// and shift before a relu and a convolution become a shift divided by the
// scale and a scaled weight.
// CHECK-LABEL: relay.func @forward(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x4x4xf32>)
// CHECK-DAG: %[[W:.*]] = relay.constant dense<{{\[}}{{\[}}{{\[}}[2.000000e+00]], {{\[}}[4.000000e+00]]]]> : tensor<1x2x1x1xf32>
// CHECK-DAG: %[[T:.*]] = relay.constant dense<{{\[}}{{\[}}{{\[}}[5.000000e-01]], {{\[}}[-2.000000e+00]]]]> : tensor<1x2x1x1xf32>
// CHECK: %[[A:.*]] = relay.add %[[X]], %[[T]]
// CHECK: %[[R:.*]] = relay.nn.relu %[[A]]
// CHECK: relay.nn.conv2d %[[R]], %[[W]]
relay.func @forward(%x: tensor<1x2x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %s = relay.constant dense<[[[2.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %t = relay.constant dense<[[[1.0]], [[-8.0]]]> : tensor<2x1x1xf32>
  %w = relay.constant dense<1.0> : tensor<1x2x1x1xf32>
  %m = relay.multiply %x, %s : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %a = relay.add %m, %t : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r = relay.nn.relu %a : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = relay.nn.conv2d %r, %w : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x4x4xf32>
  relay.return %c : tensor<1x1x4x4xf32>
}

// -----

// Tests that a scale of a dense product's units folds into the rows of
// its weight.
// CHECK-LABEL: relay.func @dense(
// CHECK: %[[W:.*]] = relay.constant dense<{{\[}}[1.000000e+00, 1.000000e+00, 1.000000e+00], [3.000000e+00, 3.000000e+00, 3.000000e+00]]>
// CHECK: relay.nn.dense %{{.*}}, %[[W]]
// CHECK-NOT: relay.multiply
relay.func @dense(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %w = relay.constant dense<1.0> : tensor<2x3xf32>
  %s = relay.constant dense<[1.0, 3.0]> : tensor<2xf32>
  %d = relay.nn.dense %x, %w : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
  %y = relay.multiply %d, %s : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  relay.return %y : tensor<4x2xf32>
}

// -----

// Tests that a scale of a convolution on packed layouts is not folded into
// its weight in either direction (its channels are two axes: a scale along
// one of them is a scale of blocks of channels).
// CHECK-LABEL: relay.func @packed(
// CHECK: relay.multiply
// CHECK: relay.nn.conv2d %{{.*}}, %[[W:.*]] {
// CHECK: relay.multiply
relay.func @packed(%x: tensor<1x2x4x4x2xf32>) -> tensor<1x2x4x4x2xf32> {
  %w = relay.constant dense<1.0> : tensor<2x4x1x1x2xf32>
  %s = relay.constant dense<[[[[2.0]]], [[[3.0]]]]> : tensor<2x1x1x1xf32>
  %in = relay.multiply %x, %s : (tensor<1x2x4x4x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4x2xf32>
  %c = relay.nn.conv2d %in, %w {data_layout = "NCHW2c", kernel_layout = "OIHW2o"} : (tensor<1x2x4x4x2xf32>, tensor<2x4x1x1x2xf32>) -> tensor<1x2x4x4x2xf32>
  %y = relay.multiply %c, %s : (tensor<1x2x4x4x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4x2xf32>
  relay.return %y : tensor<1x2x4x4x2xf32>
}
