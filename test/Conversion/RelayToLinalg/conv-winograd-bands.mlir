// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver3 --relay-to-linalg | FileCheck %s
// Tests the bands of tile rows of a Winograd convolution on a CPU with a 512 KB
// L2 cache (a Zen 3): each band streams all of the transformed weights U
// through its products, so bands whose transformed input V stays in L2 are
// only worth it while U is small beside V.

// Tests that a 64-channel 56x56 convolution (U 36 x 64 x 64 floats, 0.6
// MB) goes in bands of about as many tile rows as keep V in L2: 4 of the
// 14 rows of 4x4 tiles would leave two rows of zero tiles (16 rows), so
// it takes the next height that divides them, 2 bands of 7 rows (V 36 x
// 64 x 7*14, 1.8 times L2; the rule was measured on a 2 MB L2, see
// dividingBandRows). The transforms' loops inside a band are marked too;
// with threads only the outermost marked loop runs in parallel
// (--relay-parallelize-loops).
// CHECK-LABEL: func.func @small_weights(
// CHECK: scf.for %{{.*}} = %c0 to %c56 step %c28 iter_args(%{{.*}}) -> (tensor<1x64x56x56xf32>)
// CHECK: tensor<36x64x98xf32>
// CHECK: scf.for %{{.*}} -> (tensor<7x4x14x4x64xf32>)
// CHECK: } {relay.independent_iterations}
// CHECK: tensor.insert_slice {{.*}} into tensor<1x64x56x56xf32>
// CHECK: } {relay.independent_iterations}
relay.func @small_weights(%x: tensor<1x64x56x56xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 64 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32>
  relay.return %r : tensor<1x64x56x56xf32>
}

// Tests that a 512-channel 28x28 convolution (U 36 x 512 x 512 floats, 38
// MB; one tile row's V is already over 512 KB) goes in one band of its 7
// tile rows (V 36 x 512 x 7*7 spills L2, which costs less than streaming U
// again) instead of seven bands of one, each streaming U again: no loop
// over bands, only the transforms' loops over channels and tile rows, each
// marked as having independent iterations.
// CHECK-LABEL: func.func @large_weights(
// CHECK-NOT: -> (tensor<1x512x28x28xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c512 step %c1 iter_args(%{{.*}}) -> (tensor<36x512x7x7xf32>)
// CHECK: } {relay.independent_iterations}
// CHECK: tensor<36x512x49xf32>
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c7{{.*}} step %c1{{.*}} iter_args(%{{.*}}) -> (tensor<7x4x7x4x512xf32>)
// CHECK-NOT: -> (tensor<1x512x28x28xf32>)
// CHECK: } {relay.independent_iterations}
// CHECK-NOT: -> (tensor<1x512x28x28xf32>)
// CHECK: return
relay.func @large_weights(%x: tensor<1x512x28x28xf32>, %w: tensor<512x512x3x3xf32>) -> tensor<1x512x28x28xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 512 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x512x28x28xf32>, tensor<512x512x3x3xf32>) -> tensor<1x512x28x28xf32>
  relay.return %r : tensor<1x512x28x28xf32>
}
