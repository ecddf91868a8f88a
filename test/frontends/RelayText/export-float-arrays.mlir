// RUN: relay-mlir-translate --export-relay %s | FileCheck %s
// RUN: relay-mlir-translate --export-relay %s | relay-mlir-translate --import-relay | relay-mlir-translate --export-relay | FileCheck %s

// Tests that an attribute holding a list of floats (image.resize2d's crop,
// roi) exports as TVM writes it and reads back to the same values.
// CHECK: image.resize2d(%x, coordinate_transformation_mode="tf_crop_and_resize", extrapolation_value=10.0f, roi=[0.25f, 0.5f, 1.0f, 1.75f], size=[3, 3])
relay.func @main(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32> {
  %r = relay.image.resize2d %x {size = array<i64: 3, 3>, coordinate_transformation_mode = "tf_crop_and_resize", roi = array<f64: 0.25, 0.5, 1.0, 1.75>, extrapolation_value = 10.0 : f64} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
  relay.return %r : tensor<1x1x3x3xf32>
}
