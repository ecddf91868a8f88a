// RUN: relay-mlir-opt %s --relay-to-linalg | FileCheck %s
// Relay functions, calls, if and operators become func, scf and linalg on
// tensors.

// CHECK-LABEL: func.func @ops(
// CHECK-SAME: attributes {llvm.emit_c_interface}
relay.func @ops(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  // dense: a product over k, maps (m, k) x (n, k) -> (m, n).
  // CHECK: linalg.fill
  // CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]}
  // CHECK: arith.mulf
  // CHECK: arith.addf
  %d = relay.nn.dense %x, %w : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
  // bias_add broadcasts the bias along axis 1.
  // CHECK: tensor.reshape
  // CHECK: linalg.generic
  // CHECK: arith.addf
  %s = relay.nn.bias_add %d, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  // CHECK: linalg.generic
  // CHECK: arith.maximumf
  %r = relay.nn.relu %s : (tensor<2x4xf32>) -> tensor<2x4xf32>
  // CHECK: return
  relay.return %r : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @control(
// CHECK: %[[C:.*]] = tensor.extract %{{.*}}[] : tensor<i1>
// CHECK: scf.if %[[C]] -> (tensor<3xf32>) {
// CHECK: func.call @ops_helper
// CHECK: scf.yield
// CHECK: } else {
// CHECK: arith.constant dense<1.000000e+00> : tensor<3xf32>
relay.func @control(%c: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %r = relay.if %c : tensor<i1> -> tensor<3xf32> {
    %y = relay.call @ops_helper(%x) : (tensor<3xf32>) -> tensor<3xf32>
    relay.yield %y : tensor<3xf32>
  } else {
    %one = relay.constant dense<1.0> : tensor<3xf32>
    relay.yield %one : tensor<3xf32>
  }
  relay.return %r : tensor<3xf32>
}

// CHECK-LABEL: func.func @ops_helper(
// A reduction keeps its axis with keepdims, and a conv2d pads its input.
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]
relay.func @ops_helper(%x: tensor<3xf32>) -> tensor<3xf32> {
  %s = relay.sum %x {axis = array<i64: 0>, keepdims = true} : (tensor<3xf32>) -> tensor<1xf32>
  %y = relay.multiply %x, %s : (tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>
  relay.return %y : tensor<3xf32>
}

// CHECK-LABEL: func.func @conv(
// CHECK: tensor.pad
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
relay.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  relay.return %y : tensor<1x4x4x4xf32>
}
