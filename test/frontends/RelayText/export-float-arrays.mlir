// RUN: relay-mlir-translate --export-relay %s | FileCheck %s
// RUN: relay-mlir-translate --export-relay %s | relay-mlir-translate --import-relay | relay-mlir-translate --export-relay | FileCheck %s

// Tests that an attribute holding a list of floats (image.resize2d's crop,
// roi) exports as TVM writes it and reads back to the same values, and
// that floats without a short binary form (0.3) export in their shortest
// text, as TVM prints its float32 attributes, not in 17 digits.
// CHECK: image.resize2d(%x, coordinate_transformation_mode="tf_crop_and_resize", extrapolation_value=10.0f, roi=[0.25f, 0.5f, 1.0f, 1.75f], size=[3, 3])
// CHECK: vision.multibox_prior(%x, offsets=[0.3f, 0.7f], ratios=[1.0f, 0.1f], sizes=[0.3f, 0.00001f])
// CHECK: nn.dropout(%x, rate=0.3f)
relay.func @main(%x: tensor<1x1x4x4xf32>) -> tuple<tensor<1x1x3x3xf32>, tensor<1x48x4xf32>, tensor<1x1x4x4xf32>> {
  %r = relay.image.resize2d %x {size = array<i64: 3, 3>, coordinate_transformation_mode = "tf_crop_and_resize", roi = array<f64: 0.25, 0.5, 1.0, 1.75>, extrapolation_value = 10.0 : f64} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
  %b = relay.vision.multibox_prior %x {sizes = array<f64: 0.3, 0.00001>, ratios = array<f64: 1.0, 0.1>, offsets = array<f64: 0.3, 0.7>} : (tensor<1x1x4x4xf32>) -> tensor<1x48x4xf32>
  %d = relay.nn.dropout %x {rate = 0.3 : f64} : (tensor<1x1x4x4xf32>) -> tuple<tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>>
  %e = relay.tuple_get %d[0] : tuple<tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>>
  %t = relay.tuple(%r, %b, %e : tensor<1x1x3x3xf32>, tensor<1x48x4xf32>, tensor<1x1x4x4xf32>)
  relay.return %t : tuple<tensor<1x1x3x3xf32>, tensor<1x48x4xf32>, tensor<1x1x4x4xf32>>
}
