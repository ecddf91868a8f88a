// RUN: relay-mlir-opt %s --split-input-file --relay-fuse-ops | FileCheck %s
// RUN: relay-mlir-opt %s --split-input-file --relay-fuse-ops=fuse-opt-level=0 | FileCheck %s --check-prefix=LEVEL0
// RUN: relay-mlir-opt %s --split-input-file --relay-fuse-ops=max-depth=2 | FileCheck %s --check-prefix=DEPTH2

// Tests that a convolution takes its elementwise epilogue (the broadcast
// add of the bias and the relu) into one primitive function, with the
// constant weight copied in.
// CHECK-LABEL: relay.func @conv_epilogue(
// CHECK-SAME: %[[X:.*]]: tensor<1x3x8x8xf32>, %[[B:.*]]: tensor<4x1x1xf32>)
// CHECK-NEXT: %[[R:.*]] = relay.call @fused_nn_conv2d_add_nn_relu(%[[X]], %[[B]])
// CHECK-NEXT: relay.return %[[R]]
// CHECK: relay.func private @fused_nn_conv2d_add_nn_relu(%[[P0:.*]]: tensor<1x3x8x8xf32>, %[[P1:.*]]: tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32> attributes {relay.primitive}
// CHECK-NEXT: %[[W:.*]] = relay.constant
// CHECK-NEXT: %[[C:.*]] = relay.nn.conv2d %[[P0]], %[[W]]
// CHECK-NEXT: %[[A:.*]] = relay.add %[[C]], %[[P1]]
// CHECK-NEXT: %[[Y:.*]] = relay.nn.relu %[[A]]
// CHECK-NEXT: relay.return %[[Y]]
// LEVEL0-LABEL: relay.func @conv_epilogue(
// LEVEL0-NEXT: relay.call @fused_nn_conv2d(
// LEVEL0-NEXT: relay.call @fused_add(
// LEVEL0-NEXT: relay.call @fused_nn_relu(
// DEPTH2-LABEL: relay.func @conv_epilogue(
// DEPTH2-NEXT: relay.call @fused_nn_conv2d_add(
// DEPTH2-NEXT: relay.call @fused_nn_relu(
relay.func @conv_epilogue(%x: tensor<1x3x8x8xf32>, %b: tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32> {
  %w = relay.constant dense<0.5> : tensor<4x3x3x3xf32>
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %a = relay.add %c, %b : (tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %r = relay.nn.relu %a : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  relay.return %r : tensor<1x4x8x8xf32>
}

// -----

// Tests that a diamond of elementwise ops fuses whole into its
// post-dominator, and that two convolutions stay apart (a convolution's
// input is opaque to the one before it).
// CHECK-LABEL: relay.func @diamond(
// CHECK-NEXT: %[[A:.*]] = relay.call @fused_nn_conv2d(
// CHECK-NEXT: %[[B:.*]] = relay.call @fused_nn_conv2d_add_exp_sqrt_add(%[[A]], %{{.*}})
// CHECK-NEXT: relay.return %[[B]]
// CHECK: relay.func private @fused_nn_conv2d(
// CHECK: relay.func private @fused_nn_conv2d_add_exp_sqrt_add(
relay.func @diamond(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32> {
  %c = relay.nn.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %c2 = relay.nn.conv2d %c, %w : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %a = relay.add %c2, %c2 : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %e = relay.exp %a : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %s = relay.sqrt %a : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %r = relay.add %e, %s : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  relay.return %r : tensor<1x4x8x8xf32>
}

// -----

// Tests that a reduction takes its elementwise producers, and that what
// follows the reduction starts a new group.
// CHECK-LABEL: relay.func @reduce(
// CHECK-NEXT: %[[S:.*]] = relay.call @fused_exp_sum(%{{.*}})
// CHECK-NEXT: %[[L:.*]] = relay.call @fused_log(%[[S]])
// CHECK: relay.func private @fused_exp_sum(
// CHECK: relay.func private @fused_log(
relay.func @reduce(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = relay.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = relay.sum %e {axis = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %l = relay.log %s : (tensor<4xf32>) -> tensor<4xf32>
  relay.return %l : tensor<4xf32>
}

// -----

// Tests that annotation.stop_fusion (opaque, as in TVM) keeps the ops before
// and after it in two groups, itself a third.
// CHECK-LABEL: relay.func @stop_fusion(
// CHECK-NEXT: %[[A:.*]] = relay.call @fused_exp_add(%x)
// CHECK-NEXT: %[[S:.*]] = relay.call @fused_annotation_stop_fusion(%[[A]])
// CHECK-NEXT: %[[B:.*]] = relay.call @fused_sqrt_multiply(%[[S]])
// CHECK-NEXT: relay.return %[[B]]
relay.func @stop_fusion(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = relay.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %a = relay.add %e, %e : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = relay.annotation.stop_fusion %a : (tensor<4xf32>) -> tensor<4xf32>
  %q = relay.sqrt %s : (tensor<4xf32>) -> tensor<4xf32>
  %m = relay.multiply %q, %q : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  relay.return %m : tensor<4xf32>
}

// -----

// Tests that a device annotation of a closure stays where it is (a kernel
// takes and gives tensors), while one of a tensor is a group of its own.
// CHECK-LABEL: relay.func @on_device_closure(
// CHECK-NEXT: %[[D:.*]] = relay.on_device %f
// CHECK-NEXT: %[[T:.*]] = relay.call @fused_on_device(%x)
// CHECK-NEXT: relay.apply %[[D]](%[[T]])
relay.func @on_device_closure(%f: !relay.fn<(tensor<4xf32>) -> tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %d = relay.on_device %f {virtual_device = 0 : i64} : (!relay.fn<(tensor<4xf32>) -> tensor<4xf32>>) -> !relay.fn<(tensor<4xf32>) -> tensor<4xf32>>
  %t = relay.on_device %x {virtual_device = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %r = relay.apply %d(%t) : (!relay.fn<(tensor<4xf32>) -> tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  relay.return %r : tensor<4xf32>
}

// -----

// Tests that an op used outside its block (by a branch of an if) ends its
// group, that each branch is fused on its own, and that the if itself is
// not fused.
// CHECK-LABEL: relay.func @branches(
// CHECK: %[[E:.*]] = relay.call @fused_exp(
// CHECK: relay.if
// CHECK: relay.call @fused_add_nn_relu(%[[E]]
// CHECK: relay.yield
// CHECK: relay.call @fused_negative(%[[E]])
relay.func @branches(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %e = relay.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %r = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %a = relay.add %e, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %b = relay.nn.relu %a : (tensor<4xf32>) -> tensor<4xf32>
    relay.yield %b : tensor<4xf32>
  } else {
    %n = relay.negative %e : (tensor<4xf32>) -> tensor<4xf32>
    relay.yield %n : tensor<4xf32>
  }
  relay.return %r : tensor<4xf32>
}

// -----

// Tests that a polymorphic function is left alone, and that a primitive
// function is not fused again.
// CHECK-LABEL: relay.func @poly[
// CHECK-NEXT: relay.add
// CHECK-LABEL: relay.func private @fused_add(
// CHECK-NEXT: relay.add
// CHECK-NEXT: relay.negative
relay.func @poly[t](%x: !relay.tvar<t>) -> !relay.tvar<t> {
  %a = relay.add %x, %x : (!relay.tvar<t>, !relay.tvar<t>) -> !relay.tvar<t>
  relay.return %a : !relay.tvar<t>
}
relay.func private @fused_add(%x: tensor<4xf32>) -> tensor<4xf32> attributes {relay.primitive} {
  %a = relay.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %n = relay.negative %a : (tensor<4xf32>) -> tensor<4xf32>
  relay.return %n : tensor<4xf32>
}
