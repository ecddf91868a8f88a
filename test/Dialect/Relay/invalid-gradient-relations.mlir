// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The errors of TVM's gradient operators' relations (RelationsGradient.cpp)
// and of collapse_sum_to, the adjoint of broadcast_to.

// Tests that a pool's gradient must have the pool's result type for the data.
relay.func @max_pool_grad_shape(%g: tensor<1x3x4x4xf32>, %x: tensor<1x3x8x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.max_pool2d_grad: the gradient 'tensor<1x3x4x4xf32>' does not match 'tensor<1x3x7x7xf32>', the result of nn.max_pool2d on the data}}
  %r = relay.nn.max_pool2d_grad %g, %x {pool_size = array<i64: 2, 2>} : (tensor<1x3x4x4xf32>, tensor<1x3x8x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the pool's own checks apply to its gradient.
relay.func @avg_pool_grad_window(%g: tensor<1x3x1x1xf32>, %x: tensor<1x3x2x2xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.avg_pool2d_grad: the window (3) is larger than the height dimension 2 plus padding 0}}
  %r = relay.nn.avg_pool2d_grad %g, %x {pool_size = array<i64: 3, 3>} : (tensor<1x3x1x1xf32>, tensor<1x3x2x2xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that pool gradients take floating-point data.
relay.func @max_pool_grad_int(%g: tensor<1x3x4x4xi32>, %x: tensor<1x3x8x8xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.max_pool2d_grad: expected floating-point data, got 'tensor<1x3x8x8xi32>'}}
  %r = relay.nn.max_pool2d_grad %g, %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x4x4xi32>, tensor<1x3x8x8xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that conv2d_backward_weight needs the data's layout (TVM's Python
// API always sets it; nn.conv2d's default, OIHW, is no data layout).
relay.func @backward_weight_layout(%g: tensor<1x8x6x6xf32>, %x: tensor<1x4x8x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv2d_backward_weight: kernel_layout (the data's layout) must be NCHW or NHWC, got "OIHW"}}
  %r = relay.nn.conv2d_backward_weight %g, %x {kernel_size = array<i64: 3, 3>, out_layout = "OIHW"} : (tensor<1x8x6x6xf32>, tensor<1x4x8x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that conv2d_backward_weight needs kernel_size.
relay.func @backward_weight_kernel(%g: tensor<1x8x6x6xf32>, %x: tensor<1x4x8x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv2d_backward_weight: requires kernel_size, two positive values}}
  %r = relay.nn.conv2d_backward_weight %g, %x {kernel_layout = "NCHW", out_layout = "OIHW"} : (tensor<1x8x6x6xf32>, tensor<1x4x8x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the gradient must be what the convolution gives for the data.
relay.func @backward_weight_grad(%g: tensor<1x8x5x5xf32>, %x: tensor<1x4x8x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv2d_backward_weight: the gradient 'tensor<1x8x5x5xf32>' does not match 'tensor<1x8x6x6xf32>', the result of nn.conv2d on the data with these attributes}}
  %r = relay.nn.conv2d_backward_weight %g, %x {kernel_size = array<i64: 3, 3>, kernel_layout = "NCHW", out_layout = "OIHW"} : (tensor<1x8x5x5xf32>, tensor<1x4x8x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the data's channels divide by groups.
relay.func @backward_weight_groups(%g: tensor<1x8x6x6xf32>, %x: tensor<1x6x8x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv2d_backward_weight: the data's 6 channels are not divisible by groups 4}}
  %r = relay.nn.conv2d_backward_weight %g, %x {groups = 4 : i64, kernel_size = array<i64: 3, 3>, kernel_layout = "NCHW", out_layout = "OIHW"} : (tensor<1x8x6x6xf32>, tensor<1x6x8x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that collapse_sum_to's shape must broadcast to the data.
relay.func @collapse_sum_to_shape(%x: tensor<2x3x4xf32>, %s: tensor<2xi64>) -> tensor<i1> {
  // expected-error @+1 {{collapse_sum_to: cannot collapse 'tensor<2x3x4xf32>' to the shape (2, 4)}}
  %r = relay.collapse_sum_to %x, %s {shape = array<i64: 2, 4>} : (tensor<2x3x4xf32>, tensor<2xi64>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the shape attribute and the shape tensor agree in length.
relay.func @collapse_sum_to_length(%x: tensor<2x3x4xf32>, %s: tensor<3xi64>) -> tensor<i1> {
  // expected-error @+1 {{collapse_sum_to: the shape attribute has 2 values but the shape tensor 'tensor<3xi64>' has 3}}
  %r = relay.collapse_sum_to %x, %s {shape = array<i64: 3, 1>} : (tensor<2x3x4xf32>, tensor<3xi64>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that collapse_sum_to's shape is a 1-d integer tensor.
relay.func @collapse_sum_to_operand(%x: tensor<2x3x4xf32>, %s: tensor<2xf32>) -> tensor<i1> {
  // expected-error @+1 {{collapse_sum_to: expected the shape as a 1-d integer tensor, got 'tensor<2xf32>'}}
  %r = relay.collapse_sum_to %x, %s : (tensor<2x3x4xf32>, tensor<2xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that a pool's gradient must be a tensor.
relay.func @max_pool_grad_tuple(%g: tuple<tensor<1x3x4x4xf32>>, %x: tensor<1x3x8x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.max_pool2d_grad: expected a tensor for operand #0, got 'tuple<tensor<1x3x4x4xf32>>'}}
  %r = relay.nn.max_pool2d_grad %g, %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tuple<tensor<1x3x4x4xf32>>, tensor<1x3x8x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}
