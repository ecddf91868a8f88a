// RUN: relay-mlir-opt %s --relay-decompose --split-input-file | FileCheck %s
// RUN: relay-mlir-opt %s --relay-decompose="keep-ops=relay.topk,relay.argsort" --split-input-file | FileCheck %s --check-prefix=KEEP
// RUN: relay-mlir-opt %s --relay-decompose=target=cpu --split-input-file | FileCheck %s --check-prefix=CPU
// RUN: relay-mlir-opt %s --relay-decompose="keep-ops=relay.image.resize2d" --split-input-file | FileCheck %s --check-prefix=RESIZE
// RUN: not relay-mlir-opt %s --relay-decompose=target=tpu --split-input-file 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// UNKNOWN: error: --relay-decompose: unknown lowering target 'tpu' (known: cpu, generic)

// tile interleaves unit axes, broadcasts and reshapes (keep-ops naming
// other operators changes nothing of it).
// KEEP-LABEL: relay.func @tile
// KEEP-NOT: relay.tile
// CHECK-LABEL: relay.func @tile
// CHECK-NOT: relay.tile
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 1, 3, 1, 2>}
// CHECK: relay.broadcast_to %{{.*}} {shape = array<i64: 2, 3, 3, 2>}
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 6, 6>}
relay.func @tile(%x: tensor<3x2xf32>) -> tensor<6x6xf32> {
  %r = relay.tile %x {reps = array<i64: 2, 3>} : (tensor<3x2xf32>) -> tensor<6x6xf32>
  relay.return %r : tensor<6x6xf32>
}

// -----

// collapse_sum_like sums the leading axis and the axes the target keeps as
// 1, then reshapes.
// CHECK-LABEL: relay.func @collapse
// CHECK: relay.sum %{{.*}} {axis = array<i64: 0, 2>, keepdims = true}
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 3, 1>}
relay.func @collapse(%x: tensor<2x3x4xf32>, %t: tensor<3x1xf32>) -> tensor<3x1xf32> {
  %r = relay.collapse_sum_like %x, %t : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  relay.return %r : tensor<3x1xf32>
}

// -----

// isfinite is |x| < inf (false for NaN as well).
// CHECK-LABEL: relay.func @isfinite
// CHECK: %[[INF:.*]] = relay.constant dense<0x7F800000> : tensor<f32>
// CHECK: %[[A:.*]] = relay.abs %x
// CHECK: relay.less %[[A]], %[[INF]]
relay.func @isfinite(%x: tensor<4xf32>) -> tensor<4xi1> {
  %r = relay.isfinite %x : (tensor<4xf32>) -> tensor<4xi1>
  relay.return %r : tensor<4xi1>
}

// -----

// group_norm normalises [N, G, C/G, ...] over the axes after the groups,
// then scales and shifts per channel.
// CHECK-LABEL: relay.func @group_norm
// CHECK: relay.reshape %x {newshape = array<i64: 1, 2, 3, 5>}
// CHECK: relay.mean %{{.*}} {axis = array<i64: 2, 3>, keepdims = true}
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 1, 6, 5>}
// CHECK: relay.reshape %g {newshape = array<i64: 1, 6, 1>}
// CHECK: relay.multiply
// CHECK: relay.add
// CHECK-NOT: relay.nn.group_norm
relay.func @group_norm(%x: tensor<1x6x5xf32>, %g: tensor<6xf32>, %b: tensor<6xf32>) -> tensor<1x6x5xf32> {
  %r = relay.nn.group_norm %x, %g, %b {num_groups = 2 : i64} : (tensor<1x6x5xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<1x6x5xf32>
  relay.return %r : tensor<1x6x5xf32>
}

// -----

// Tests that conv3d becomes one conv2d over the output's depth slices: the
// depth padded explicitly, one strided slice per depth tap with its depths
// moved before the channels, each group's taps stacked as its input
// channels (the weights reshaped to match; no transpose of the stacked
// taps), the output's depths moved back after the channels.
// CHECK-LABEL: relay.func @conv3d
// CHECK: relay.nn.pad %x, %{{.*}} {pad_width = array<i64: 0, 0, 0, 0, 1, 0, 0, 0, 0, 0>}
// CHECK: relay.strided_slice %[[P:.*]] {axes = array<i64: 2>, begin = array<i64: 0>, end = array<i64: 5>, strides = array<i64: 2>}
// CHECK: relay.transpose %{{.*}} {axes = array<i64: 0, 3, 1, 2, 4, 5>} : (tensor<2x2x2x3x9x8xf32>) -> tensor<2x3x2x2x9x8xf32>
// CHECK: relay.strided_slice %[[P]] {axes = array<i64: 2>, begin = array<i64: 1>, end = array<i64: 6>, strides = array<i64: 2>}
// CHECK: relay.transpose
// CHECK: relay.strided_slice %[[P]] {axes = array<i64: 2>, begin = array<i64: 2>, end = array<i64: 7>, strides = array<i64: 2>}
// CHECK: relay.transpose
// CHECK: relay.stack %{{.*}} {axis = 3 : i64} : {{.*}} -> tensor<2x3x2x3x2x9x8xf32>
// CHECK-NOT: relay.transpose %{{.*}} : (tensor<2x3x2x3x2x9x8xf32>)
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 6, 12, 9, 8>}
// CHECK: relay.transpose %w {axes = array<i64: 0, 2, 1, 3, 4>}
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 6, 6, 3, 2>}
// CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {channels = 6 : i64, dilation = array<i64: 2, 1>, groups = 2 : i64, kernel_size = array<i64: 3, 2>, padding = array<i64: 0, 1, 1, 1>, strides = array<i64: 1, 2>} : (tensor<6x12x9x8xf32>, tensor<6x6x3x2xf32>) -> tensor<6x6x6x5xf32>
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 2, 3, 6, 6, 5>}
// CHECK: relay.transpose %{{.*}} {axes = array<i64: 0, 2, 1, 3, 4>} : (tensor<2x3x6x6x5xf32>) -> tensor<2x6x3x6x5xf32>
// CHECK-NOT: relay.nn.conv3d
relay.func @conv3d(%x: tensor<2x4x6x9x8xf32>, %w: tensor<6x2x3x3x2xf32>) -> tensor<2x6x3x6x5xf32> {
  %r = relay.nn.conv3d %x, %w {strides = array<i64: 2, 1, 2>, padding = array<i64: 1, 0, 1, 0, 1, 1>, dilation = array<i64: 1, 2, 1>, groups = 2 : i64} : (tensor<2x4x6x9x8xf32>, tensor<6x2x3x3x2xf32>) -> tensor<2x6x3x6x5xf32>
  relay.return %r : tensor<2x6x3x6x5xf32>
}

// -----

// Tests that the CPU target keeps whole a 3x3x3 convolution at unit
// strides that its Winograd kernel computes (16 channels, 64 2x2 tiles a
// depth slice), which is otherwise decomposed.
// CHECK-LABEL: relay.func @conv3d_winograd
// CHECK: relay.nn.conv2d
// CHECK-NOT: relay.nn.conv3d
// CPU-LABEL: relay.func @conv3d_winograd
// CPU-NEXT: relay.nn.conv3d %x, %w {padding = array<i64: 1>}
// CPU-NOT: relay.nn.conv2d
relay.func @conv3d_winograd(%x: tensor<1x16x4x16x16xf32>, %w: tensor<16x16x3x3x3xf32>) -> tensor<1x16x4x16x16xf32> {
  %r = relay.nn.conv3d %x, %w {padding = array<i64: 1>} : (tensor<1x16x4x16x16xf32>, tensor<16x16x3x3x3xf32>) -> tensor<1x16x4x16x16xf32>
  relay.return %r : tensor<1x16x4x16x16xf32>
}

// -----

// Tests that bicubic upsampling is TVM's: image.resize2d's cubic (alpha
// -0.5) to the upsampled size, with asymmetric coordinates, or
// align_corners; NHWC through NCHW. Nearest and bilinear stay.
// RESIZE-LABEL: relay.func @upsamplings
// RESIZE: relay.image.resize2d %x {coordinate_transformation_mode = "asymmetric", method = "cubic", size = array<i64: 6, 8>} : (tensor<1x2x3x4xf32>) -> tensor<1x2x6x8xf32>
// RESIZE: relay.image.resize2d %x {coordinate_transformation_mode = "align_corners", method = "cubic", size = array<i64: 6, 8>}
// RESIZE: %[[T:.*]] = relay.transpose %y {axes = array<i64: 0, 3, 1, 2>}
// RESIZE: %[[R:.*]] = relay.image.resize2d %[[T]] {coordinate_transformation_mode = "asymmetric", method = "cubic", size = array<i64: 6, 4>} : (tensor<1x2x3x2xf32>) -> tensor<1x2x6x4xf32>
// RESIZE: relay.transpose %[[R]] {axes = array<i64: 0, 2, 3, 1>}
// RESIZE: relay.nn.upsampling %x {method = "bilinear"
// RESIZE-NOT: relay.nn.upsampling
relay.func @upsamplings(%x: tensor<1x2x3x4xf32>, %y: tensor<1x3x2x2xf32>) -> tuple<tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>, tensor<1x6x4x2xf32>, tensor<1x2x6x8xf32>> {
  %a = relay.nn.upsampling %x {method = "bicubic", scale_h = 2.0 : f64, scale_w = 2.0 : f64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x6x8xf32>
  %b = relay.nn.upsampling %x {method = "bicubic", align_corners = true, scale_h = 2.0 : f64, scale_w = 2.0 : f64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x6x8xf32>
  %c = relay.nn.upsampling %y {method = "bicubic", layout = "NHWC", scale_h = 2.0 : f64, scale_w = 2.0 : f64} : (tensor<1x3x2x2xf32>) -> tensor<1x6x4x2xf32>
  %d = relay.nn.upsampling %x {method = "bilinear", scale_h = 2.0 : f64, scale_w = 2.0 : f64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x6x8xf32>
  %t = relay.tuple(%a, %b, %c, %d : tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>, tensor<1x6x4x2xf32>, tensor<1x2x6x8xf32>)
  relay.return %t : tuple<tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>, tensor<1x6x4x2xf32>, tensor<1x2x6x8xf32>>
}

// -----

// Tests that every target keeps whole the float nearest and linear resizes
// the target-neutral conversion computes as one kernel, and decomposes the
// cubic ones, a crop's, and those into another type (out_dtype).
// CHECK-LABEL: relay.func @resizes
// CHECK-NOT: relay.image.resize
// CHECK: relay.return
// CPU-LABEL: relay.func @resizes
// CPU: relay.image.resize2d %x {size = array<i64: 6, 6>}
// CPU-NEXT: relay.image.resize1d %s {method = "nearest_neighbor"
// CPU-NOT: relay.image.resize
// CPU: relay.return
relay.func @resizes(%x: tensor<1x1x3x3xf32>, %s: tensor<1x2x5xf32>, %i: tensor<1x1x3x3xf32>) -> tuple<tensor<1x1x6x6xf32>, tensor<1x2x8xf32>, tensor<1x1x6x6xf32>, tensor<1x1x6x6xf32>, tensor<1x1x6x6xf64>> {
  %linear = relay.image.resize2d %x {size = array<i64: 6, 6>} : (tensor<1x1x3x3xf32>) -> tensor<1x1x6x6xf32>
  %nearest = relay.image.resize1d %s {size = array<i64: 8>, method = "nearest_neighbor"} : (tensor<1x2x5xf32>) -> tensor<1x2x8xf32>
  %cubic = relay.image.resize2d %x {size = array<i64: 6, 6>, method = "cubic"} : (tensor<1x1x3x3xf32>) -> tensor<1x1x6x6xf32>
  %crop = relay.image.resize2d %x {size = array<i64: 6, 6>, coordinate_transformation_mode = "tf_crop_and_resize", roi = array<f64: 0.0, 0.0, 0.5, 0.5>} : (tensor<1x1x3x3xf32>) -> tensor<1x1x6x6xf32>
  %wide = relay.image.resize2d %i {size = array<i64: 6, 6>, out_dtype = f64} : (tensor<1x1x3x3xf32>) -> tensor<1x1x6x6xf64>
  %t = relay.tuple(%linear, %nearest, %cubic, %crop, %wide : tensor<1x1x6x6xf32>, tensor<1x2x8xf32>, tensor<1x1x6x6xf32>, tensor<1x1x6x6xf32>, tensor<1x1x6x6xf64>)
  relay.return %t : tuple<tensor<1x1x6x6xf32>, tensor<1x2x8xf32>, tensor<1x1x6x6xf32>, tensor<1x1x6x6xf32>, tensor<1x1x6x6xf64>>
}

// -----

// Tests that the CPU target leaves to the decomposition the 3-d
// convolutions its Winograd kernel does not take: strided, grouped, too
// few input channels, too few tiles a slice, one depth tap.
// CPU-LABEL: relay.func @conv3d_not_winograd
// CPU-NOT: relay.nn.conv3d
// CPU: relay.return
relay.func @conv3d_not_winograd(%x: tensor<1x16x4x16x16xf32>, %w: tensor<16x16x3x3x3xf32>, %g: tensor<16x8x3x3x3xf32>, %x8: tensor<1x8x4x16x16xf32>, %w8: tensor<16x8x3x3x3xf32>, %small: tensor<1x16x4x8x8xf32>, %w1: tensor<16x16x1x3x3xf32>) -> tuple<tensor<1x16x2x8x8xf32>, tensor<1x16x4x16x16xf32>, tensor<1x16x4x16x16xf32>, tensor<1x16x4x8x8xf32>, tensor<1x16x4x16x16xf32>> {
  %strided = relay.nn.conv3d %x, %w {padding = array<i64: 1>, strides = array<i64: 2>} : (tensor<1x16x4x16x16xf32>, tensor<16x16x3x3x3xf32>) -> tensor<1x16x2x8x8xf32>
  %grouped = relay.nn.conv3d %x, %g {padding = array<i64: 1>, groups = 2 : i64} : (tensor<1x16x4x16x16xf32>, tensor<16x8x3x3x3xf32>) -> tensor<1x16x4x16x16xf32>
  %narrow = relay.nn.conv3d %x8, %w8 {padding = array<i64: 1>} : (tensor<1x8x4x16x16xf32>, tensor<16x8x3x3x3xf32>) -> tensor<1x16x4x16x16xf32>
  %few = relay.nn.conv3d %small, %w {padding = array<i64: 1>} : (tensor<1x16x4x8x8xf32>, tensor<16x16x3x3x3xf32>) -> tensor<1x16x4x8x8xf32>
  %one = relay.nn.conv3d %x, %w1 {padding = array<i64: 0, 1, 1>} : (tensor<1x16x4x16x16xf32>, tensor<16x16x1x3x3xf32>) -> tensor<1x16x4x16x16xf32>
  %t = relay.tuple(%strided, %grouped, %narrow, %few, %one : tensor<1x16x2x8x8xf32>, tensor<1x16x4x16x16xf32>, tensor<1x16x4x16x16xf32>, tensor<1x16x4x8x8xf32>, tensor<1x16x4x16x16xf32>)
  relay.return %t : tuple<tensor<1x16x2x8x8xf32>, tensor<1x16x4x16x16xf32>, tensor<1x16x4x16x16xf32>, tensor<1x16x4x8x8xf32>, tensor<1x16x4x16x16xf32>>
}

// -----

// Tests that a conv3d whose kernel has one depth tap takes no slice and no
// stack: the depths become the batch by one transpose.
// CHECK-LABEL: relay.func @conv3d_one_tap
// CHECK-NOT: relay.strided_slice
// CHECK-NOT: relay.stack
// CHECK: relay.transpose %x {axes = array<i64: 0, 2, 1, 3, 4>}
// CHECK: relay.nn.conv2d {{.*}} : (tensor<6x4x9x8xf32>, tensor<5x4x3x3xf32>) -> tensor<6x5x9x8xf32>
relay.func @conv3d_one_tap(%x: tensor<1x4x6x9x8xf32>, %w: tensor<5x4x1x3x3xf32>) -> tensor<1x5x6x9x8xf32> {
  %r = relay.nn.conv3d %x, %w {padding = array<i64: 0, 1, 1>} : (tensor<1x4x6x9x8xf32>, tensor<5x4x1x3x3xf32>) -> tensor<1x5x6x9x8xf32>
  relay.return %r : tensor<1x5x6x9x8xf32>
}

// -----

// Tests that a conv3d whose kernel is one row and column (a temporal
// convolution) is a 2-d convolution over depth and the flattened rows, the
// strided rows and columns sliced first: no transposes, no stacked taps.
// CHECK-LABEL: relay.func @conv3d_temporal
// CHECK-NOT: relay.transpose
// CHECK: relay.strided_slice %x {axes = array<i64: 3, 4>, begin = array<i64: 0, 0>, end = array<i64: 9, 7>, strides = array<i64: 2, 2>} : {{.*}} -> tensor<1x4x6x5x4xf32>
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 1, 4, 6, 20>}
// CHECK: relay.reshape %w {newshape = array<i64: 5, 4, 3, 1>}
// CHECK: relay.nn.conv2d {{.*}} {channels = 5 : i64, dilation = array<i64: 1, 1>, kernel_size = array<i64: 3, 1>, padding = array<i64: 1, 0, 1, 0>, strides = array<i64: 2, 1>} : (tensor<1x4x6x20xf32>, tensor<5x4x3x1xf32>) -> tensor<1x5x3x20xf32>
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 1, 5, 3, 5, 4>}
// CHECK-NOT: relay.transpose
relay.func @conv3d_temporal(%x: tensor<1x4x6x9x8xf32>, %w: tensor<5x4x3x1x1xf32>) -> tensor<1x5x3x5x4xf32> {
  %r = relay.nn.conv3d %x, %w {strides = array<i64: 2, 2, 2>, padding = array<i64: 1, 0, 0>} : (tensor<1x4x6x9x8xf32>, tensor<5x4x3x1x1xf32>) -> tensor<1x5x3x5x4xf32>
  relay.return %r : tensor<1x5x3x5x4xf32>
}

// -----

// Tests that avg_pool3d pools height and width (the depths folded into the
// channels), then depth (height and width folded into one axis), each with
// the window's ceil_mode and count_include_pad.
// CHECK-LABEL: relay.func @avg_pool3d
// CHECK: relay.reshape %x {newshape = array<i64: 2, 24, 9, 8>}
// CHECK: relay.nn.avg_pool2d %{{.*}} {ceil_mode = true, count_include_pad = true, dilation = array<i64: 1, 1>, padding = array<i64: 0, 1, 0, 1>, pool_size = array<i64: 2, 3>, strides = array<i64: 2, 1>}
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 2, 4, 6, 40>}
// CHECK: relay.nn.avg_pool2d %{{.*}} {ceil_mode = true, count_include_pad = true, dilation = array<i64: 1, 1>, padding = array<i64: 1, 0, 1, 0>, pool_size = array<i64: 3, 1>, strides = array<i64: 2, 1>}
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 2, 4, 4, 5, 8>}
relay.func @avg_pool3d(%x: tensor<2x4x6x9x8xf32>) -> tensor<2x4x4x5x8xf32> {
  %r = relay.nn.avg_pool3d %x {pool_size = array<i64: 3, 2, 3>, strides = array<i64: 2, 2, 1>, padding = array<i64: 1, 0, 1>, ceil_mode = true, count_include_pad = true} : (tensor<2x4x6x9x8xf32>) -> tensor<2x4x4x5x8xf32>
  relay.return %r : tensor<2x4x4x5x8xf32>
}

// -----

// Tests that adaptive_max_pool3d to one element per channel is two
// adaptive 2-d poolings.
// CHECK-LABEL: relay.func @adaptive_max_pool3d
// CHECK: relay.nn.adaptive_max_pool2d %{{.*}} {output_size = array<i64: 1, 1>} : (tensor<2x24x9x8xf32>) -> tensor<2x24x1x1xf32>
// CHECK: relay.nn.adaptive_max_pool2d %{{.*}} {output_size = array<i64: 1, 1>} : (tensor<2x4x6x1xf32>) -> tensor<2x4x1x1xf32>
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 2, 4, 1, 1, 1>}
relay.func @adaptive_max_pool3d(%x: tensor<2x4x6x9x8xf32>) -> tensor<2x4x1x1x1xf32> {
  %r = relay.nn.adaptive_max_pool3d %x {output_size = array<i64: 1>} : (tensor<2x4x6x9x8xf32>) -> tensor<2x4x1x1x1xf32>
  relay.return %r : tensor<2x4x1x1x1xf32>
}

// -----

// Without static shapes (a polymorphic function before specialisation) the
// op stays.
// CHECK-LABEL: relay.func @generic
// CHECK: relay.fast_exp
relay.func @generic[t : Type](%x: !relay.tvar<t : Type>) -> !relay.tvar<t : Type> {
  %r = relay.fast_exp %x : (!relay.tvar<t : Type>) -> !relay.tvar<t : Type>
  relay.return %r : !relay.tvar<t : Type>
}

// -----

// Tests that conv3d_transpose becomes one conv2d_transpose per depth tap of
// the kernel over every input depth slice, each tap's results spread
// `stride` apart (zeros between), shifted to the tap's depth and summed,
// the padded depths cropped, the depths moved back after the channels.
// CHECK-LABEL: relay.func @conv3d_transpose
// CHECK: %[[X:.*]] = relay.transpose %x {axes = array<i64: 0, 2, 1, 3, 4>}
// CHECK: %[[IMAGES:.*]] = relay.reshape %[[X]] {newshape = array<i64: 6, 4, 9, 8>}
// CHECK: relay.strided_slice %w {axes = array<i64: 2>, begin = array<i64: 0>, end = array<i64: 1>, strides = array<i64: 1>}
// CHECK: relay.nn.conv2d_transpose %[[IMAGES]], %{{.*}} {channels = 6 : i64, dilation = array<i64: 2, 1>, groups = 2 : i64, kernel_size = array<i64: 2, 3>, output_padding = array<i64: 0, 2>, padding = array<i64: 0, 1, 1, 0>, strides = array<i64: 1, 3>} : (tensor<6x4x9x8xf32>, tensor<4x3x2x3xf32>) -> tensor<6x6x10x25xf32>
// CHECK: relay.nn.pad %{{.*}} {pad_width = array<i64: 0, 0, 0, 0, 0, 1, 0, 0>} : (tensor<2x3x1x1500xf32>, tensor<f32>) -> tensor<2x3x2x1500xf32>
// CHECK: relay.strided_slice %{{.*}} {axes = array<i64: 1>, begin = array<i64: 0>, end = array<i64: 5>, strides = array<i64: 1>}
// CHECK: relay.nn.pad %{{.*}} {pad_width = array<i64: 0, 0, 0, 3, 0, 0>} : (tensor<2x5x1500xf32>, tensor<f32>) -> tensor<2x8x1500xf32>
// CHECK: relay.nn.conv2d_transpose
// CHECK: relay.nn.pad %{{.*}} {pad_width = array<i64: 0, 0, 1, 2, 0, 0>}
// CHECK: relay.add
// CHECK: relay.nn.conv2d_transpose
// CHECK: relay.nn.pad %{{.*}} {pad_width = array<i64: 0, 0, 2, 1, 0, 0>}
// CHECK: %[[SUM:.*]] = relay.add
// CHECK: %[[CROP:.*]] = relay.strided_slice %[[SUM]] {axes = array<i64: 1>, begin = array<i64: 1>, end = array<i64: 6>, strides = array<i64: 1>} : (tensor<2x8x1500xf32>) -> tensor<2x5x1500xf32>
// CHECK: relay.reshape %[[CROP]] {newshape = array<i64: 2, 5, 6, 10, 25>}
// CHECK: relay.transpose %{{.*}} {axes = array<i64: 0, 2, 1, 3, 4>} : (tensor<2x5x6x10x25xf32>) -> tensor<2x6x5x10x25xf32>
// CHECK-NOT: relay.nn.conv3d_transpose
relay.func @conv3d_transpose(%x: tensor<2x4x3x9x8xf32>, %w: tensor<4x3x3x2x3xf32>) -> tensor<2x6x5x10x25xf32> {
  %r = relay.nn.conv3d_transpose %x, %w {strides = array<i64: 2, 1, 3>, padding = array<i64: 1, 0, 1, 2, 1, 0>, output_padding = array<i64: 1, 0, 2>, dilation = array<i64: 1, 2, 1>, groups = 2 : i64} : (tensor<2x4x3x9x8xf32>, tensor<4x3x3x2x3xf32>) -> tensor<2x6x5x10x25xf32>
  relay.return %r : tensor<2x6x5x10x25xf32>
}

// -----

// Tests that a topk beyond 64 sorts its axis with a bitonic network: the
// axis of 100 padded to 128 (7 * 8 / 2 = 28 compare-exchange steps, each
// deciding its swaps with one logical_xor), the first 70 kept.
// CHECK-LABEL: relay.func @topk_network
// CHECK-NOT: relay.topk
// CHECK: relay.concatenate {{.*}} {axis = 1 : i64}
// CHECK-COUNT-28: relay.logical_xor
// CHECK-NOT: relay.logical_xor
// CHECK: relay.strided_slice {{.*}} {begin = array<i64: 0, 0>, end = array<i64: 2, 70>}
relay.func @topk_network(%x: tensor<2x100xf32>) -> tensor<2x70xf32> {
  %r = relay.topk %x {k = 70 : i64, ret_type = "values"} : (tensor<2x100xf32>) -> tensor<2x70xf32>
  relay.return %r : tensor<2x70xf32>
}

// -----

// Tests that a topk of up to 64 stays rounds of max and first position,
// over integer keys of the floats' bits (so NaN orders above every number,
// as in PyTorch) with the values gathered at the indices found, and that
// keep-ops leaves the operators it names whole (what relay-run
// asks for topk, argsort and sort, which the interpreter sorts) while the
// others are rewritten.
// KEEP-LABEL: relay.func @topk_rounds
// KEEP: relay.topk %x {k = 3 : i64
// KEEP-NOT: relay.max
// CHECK-LABEL: relay.func @topk_rounds
// CHECK-NOT: relay.logical_xor
// CHECK: relay.reinterpret %x {dtype = i32}
// CHECK-COUNT-3: relay.max {{.*}} -> tensor<2x1xi32>
// CHECK: relay.gather %x
relay.func @topk_rounds(%x: tensor<2x100xf32>) -> tensor<2x3xf32> {
  %r = relay.topk %x {k = 3 : i64, ret_type = "values"} : (tensor<2x100xf32>) -> tensor<2x3xf32>
  relay.return %r : tensor<2x3xf32>
}

// -----

// Tests that einsum over a shared batch label and a contracted one becomes
// one batch_matmul of [batch, left, contracted] x [batch, right,
// contracted] (the operands as they lie: no transposes, no reshapes), its
// result transposed to the equation's order.
// CHECK-LABEL: relay.func @einsum_attention
// CHECK-NOT: relay.einsum
// CHECK-NOT: relay.reshape
// CHECK: relay.nn.batch_matmul %q, %k {transpose_b = true} : (tensor<2x5x4xf32>, tensor<2x6x4xf32>) -> tensor<2x5x6xf32>
// CHECK-NEXT: relay.transpose %{{.*}} {axes = array<i64: 1, 0, 2>}
relay.func @einsum_attention(%q: tensor<2x5x4xf32>, %k: tensor<2x6x4xf32>) -> tensor<5x2x6xf32> {
  %t = relay.tuple(%q, %k : tensor<2x5x4xf32>, tensor<2x6x4xf32>)
  %r = relay.einsum %t {equation = "bqd,bkd->qbk"} : (tuple<tensor<2x5x4xf32>, tensor<2x6x4xf32>>) -> tensor<5x2x6xf32>
  relay.return %r : tensor<5x2x6xf32>
}

// -----

// Tests that meshgrid reshapes each vector along its axis and broadcasts
// it ("xy": the first two axes swapped).
// CHECK-LABEL: relay.func @meshgrid_xy
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 1, 3>}
// CHECK: relay.broadcast_to %{{.*}} {shape = array<i64: 4, 3>}
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 4, 1>}
// CHECK: relay.broadcast_to %{{.*}} {shape = array<i64: 4, 3>}
relay.func @meshgrid_xy(%a: tensor<3xf32>, %b: tensor<4xf32>) -> tuple<tensor<4x3xf32>, tensor<4x3xf32>> {
  %t = relay.tuple(%a, %b : tensor<3xf32>, tensor<4xf32>)
  %r = relay.meshgrid %t {indexing = "xy"} : (tuple<tensor<3xf32>, tensor<4xf32>>) -> tuple<tensor<4x3xf32>, tensor<4x3xf32>>
  relay.return %r : tuple<tensor<4x3xf32>, tensor<4x3xf32>>
}

// -----

// Tests that nn.deformable_conv2d samples each deformable group's image at
// its taps' positions (grid_sample's gathers, clamped to the image as its
// border padding is), zeroes the taps outside the image and multiplies
// each image's group of columns by its weights in one batched product.
// CHECK-LABEL: relay.func @deformable_conv2d
// CHECK-NOT: relay.nn.deformable_conv2d
// CHECK-NOT: relay.image.grid_sample
// CHECK: relay.take %{{.*}} {axis = 3 : i64} : (tensor<1x2x9x2x30xf32>, tensor<i64>) -> tensor<1x2x9x30xf32>
// CHECK: relay.clip %{{.*}} {a_max = 5.000000e+00 : f64, a_min = 0.000000e+00 : f64}
// CHECK: relay.gather %{{.*}} {axis = 2 : i64} : (tensor<2x2x30xf32>, tensor<2x2x270xi64>) -> tensor<2x2x270xf32>
// CHECK: relay.where %{{.*}} : (tensor<2x1x9x30xi1>, tensor<2x2x9x30xf32>, tensor<f32>) -> tensor<2x2x9x30xf32>
// CHECK: relay.nn.batch_matmul %{{.*}} : (tensor<2x3x18xf32>, tensor<2x18x30xf32>) -> tensor<2x3x30xf32>
relay.func @deformable_conv2d(%d: tensor<1x4x5x6xf32>, %o: tensor<1x36x5x6xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x5x6xf32> {
  %r = relay.nn.deformable_conv2d %d, %o, %w {padding = array<i64: 1, 1>, deformable_groups = 2 : i64, groups = 2 : i64} : (tensor<1x4x5x6xf32>, tensor<1x36x5x6xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x5x6xf32>
  relay.return %r : tensor<1x6x5x6xf32>
}

// -----

// Tests that random.uniform becomes Threefry's uint64 arithmetic on the
// key's words (threefry_generate decomposed in turn: one whole block of four
// numbers, then two of a last block): the low 32 bits of
// each number, shifted under float32's exponent of [1, 2), reinterpreted,
// minus 1, scaled into [low, high).
// CHECK-LABEL: relay.func @uniform
// CHECK-NOT: relay.random
// CHECK: relay.take %{{.*}} {axis = 0 : i64} : (tensor<10xui64>, tensor<i64>) -> tensor<ui64>
// CHECK: relay.less %{{.*}} : (tensor<ui64>, tensor<ui64>) -> tensor<i1>
// CHECK: relay.bitwise_xor %{{.*}} : (tensor<1xui64>, tensor<1xui64>) -> tensor<1xui64>
// CHECK: relay.stack %{{.*}} {axis = 1 : i64} : (tuple<tensor<1xui64>, tensor<1xui64>, tensor<1xui64>, tensor<1xui64>>) -> tensor<1x4xui64>
// CHECK: relay.strided_slice %{{.*}} : (tensor<4xui64>) -> tensor<2xui64>
// CHECK: relay.cast %{{.*}} {dtype = ui32} : (tensor<2x3xui64>) -> tensor<2x3xui32>
// CHECK: relay.reinterpret %{{.*}} {dtype = f32} : (tensor<2x3xui32>) -> tensor<2x3xf32>
// CHECK-NOT: relay.random
relay.func @uniform(%k: tensor<10xui64>, %lo: tensor<f32>, %hi: tensor<f32>) -> tuple<tensor<10xui64>, tensor<2x3xf32>> {
  %r = relay.random.uniform %k, %lo, %hi {out_shape = array<i64: 2, 3>} : (tensor<10xui64>, tensor<f32>, tensor<f32>) -> tuple<tensor<10xui64>, tensor<2x3xf32>>
  relay.return %r : tuple<tensor<10xui64>, tensor<2x3xf32>>
}

// -----

// Tests that nn.bitserial_dense becomes the nn.dense of the values its
// bits hold: the data's low data_bits bits, and the packed weight's words
// unpacked (each word's bits along the axis, first bit at the top), its
// planes weighted 2^j and summed, then 2 w - (2^bits - 1) (unipolar: a 0
// bit counts as -1), all in out_dtype.
// CHECK-LABEL: relay.func @bitserial_dense
// CHECK-NOT: relay.nn.bitserial_dense
// CHECK-DAG: %[[MASK:.*]] = relay.constant dense<3> : tensor<i16>
// CHECK-DAG: %[[PLACES:.*]] = relay.constant dense<{{\[\[\[\[}}31, 30, 29, {{.*}}, 1, 0]]]]> : tensor<1x1x1x32xui32>
// CHECK: %[[X:.*]] = relay.cast %{{.*}} {dtype = i16} : (tensor<2x32xi32>) -> tensor<2x32xi16>
// CHECK: %[[D:.*]] = relay.bitwise_and %[[X]], %[[MASK]]
// CHECK: relay.right_shift %{{.*}}, %[[PLACES]] : (tensor<4x2x1x1xui32>, tensor<1x1x1x32xui32>) -> tensor<4x2x1x32xui32>
// CHECK: %[[W:.*]] = relay.sum %{{.*}} {axis = array<i64: 1>} : (tensor<4x2x32xi16>) -> tensor<4x32xi16>
// CHECK: %[[W2:.*]] = relay.multiply %[[W]]
// CHECK: %[[WU:.*]] = relay.subtract %[[W2]], %[[MASK]]
// CHECK: relay.nn.dense %[[D]], %[[WU]] {out_dtype = i16} : (tensor<2x32xi16>, tensor<4x32xi16>) -> tensor<2x4xi16>
relay.func @bitserial_dense(%x: tensor<2x32xi32>, %w: tensor<4x2x1xui32>) -> tensor<2x4xi16> {
  %r = relay.nn.bitserial_dense %x, %w {data_bits = 2 : i64, out_dtype = i16} : (tensor<2x32xi32>, tensor<4x2x1xui32>) -> tensor<2x4xi16>
  relay.return %r : tensor<2x4xi16>
}

// -----

// Tests that nn.conv2d on packed layouts becomes layout_transforms around
// the convolution on NCHW data and OIHW weights, its result packed to
// out_layout; that a pooling's result stays in its packed `layout` (its
// out_layout is cleared); that the packing of one and the unpacking of the
// next cancel; and that these apply at run-time sizes too.
// CHECK-LABEL: relay.func @packed_layouts(
// CHECK: %[[X:.*]] = relay.layout_transform %x {dst_layout = "NCHW", src_layout = "NCHW4c"}
// CHECK: %[[W:.*]] = relay.layout_transform %w {dst_layout = "OIHW", src_layout = "OIHW4i4o"}
// CHECK: %[[C:.*]] = relay.nn.conv2d %[[X]], %[[W]] {channels = 8 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<?x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<?x8x6x6xf32>
// CHECK-NEXT: %[[P:.*]] = relay.nn.max_pool2d %[[C]] {pool_size = array<i64: 2, 2>} : (tensor<?x8x6x6xf32>) -> tensor<?x8x5x5xf32>
// CHECK: relay.layout_transform %[[P]] {dst_layout = "NCHW8c", src_layout = "NCHW"} : (tensor<?x8x5x5xf32>) -> tensor<?x1x5x5x8xf32>
relay.func @packed_layouts(%x: tensor<?x2x6x6x4xf32>, %w: tensor<2x2x3x3x4x4xf32>) -> tensor<?x1x5x5x8xf32> {
  %c = relay.nn.conv2d %x, %w {channels = 8 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW8c"} : (tensor<?x2x6x6x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<?x1x6x6x8xf32>
  %p = relay.nn.max_pool2d %c {pool_size = array<i64: 2, 2>, layout = "NCHW8c", out_layout = "NCHW8c"} : (tensor<?x1x6x6x8xf32>) -> tensor<?x1x5x5x8xf32>
  relay.return %p : tensor<?x1x5x5x8xf32>
}

// -----

// Tests that a change of layout moves past elementwise operators whose
// tensor operands all change the same way (0-d ones stay), so that the
// relu and add between two operators on packed layouts run unpacked and
// the packing cancels; an operand of another rank (bias_add's vector)
// keeps it.
// CHECK-LABEL: relay.func @sink_layout_transforms(
// CHECK: %[[C:.*]] = relay.nn.conv2d
// CHECK-NEXT: %[[R:.*]] = relay.nn.relu %[[C]] : (tensor<1x8x4x4xf32>)
// CHECK-NEXT: %[[M:.*]] = relay.multiply %[[R]], %{{.*}} : (tensor<1x8x4x4xf32>, tensor<f32>)
// CHECK-NEXT: %[[A:.*]] = relay.add %[[M]], %[[C]] : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>)
// CHECK-NEXT: %[[P:.*]] = relay.nn.global_max_pool2d %[[A]] : (tensor<1x8x4x4xf32>)
// CHECK-NEXT: %[[T:.*]] = relay.layout_transform %[[P]] {dst_layout = "NCHW4c", src_layout = "NCHW"}
// CHECK-NEXT: relay.nn.bias_add %[[T]], %{{.*}} {axis = 4 : i64}
relay.func @sink_layout_transforms(%x: tensor<1x2x4x4x4xf32>, %w: tensor<8x8x1x1xf32>, %b: tensor<4xf32>) -> tensor<1x2x1x1x4xf32> {
  %c = relay.nn.conv2d %x, %w {data_layout = "NCHW4c"} : (tensor<1x2x4x4x4xf32>, tensor<8x8x1x1xf32>) -> tensor<1x2x4x4x4xf32>
  %r = relay.nn.relu %c : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
  %two = relay.constant dense<2.0> : tensor<f32>
  %m = relay.multiply %r, %two : (tensor<1x2x4x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4x4xf32>
  %a = relay.add %m, %c : (tensor<1x2x4x4x4xf32>, tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
  %p = relay.nn.global_max_pool2d %a {layout = "NCHW4c"} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x1x1x4xf32>
  %y = relay.nn.bias_add %p, %b {axis = 4 : i64} : (tensor<1x2x1x1x4xf32>, tensor<4xf32>) -> tensor<1x2x1x1x4xf32>
  relay.return %y : tensor<1x2x1x1x4xf32>
}

// -----

// Tests that a constant operand (a bias whose packing TVM folded) moves
// back to the plain layout with the others, so that a packed convolution,
// its bias and a packed pooling run unpacked.
// CHECK-LABEL: relay.func @sink_constant(
// CHECK: %[[C:.*]] = relay.nn.conv2d
// CHECK: %[[B:.*]] = relay.layout_transform %{{.*}} {dst_layout = "NCHW", src_layout = "NCHW4c"} : (tensor<1x2x1x1x4xf32>) -> tensor<1x8x1x1xf32>
// CHECK-NEXT: %[[A:.*]] = relay.add %[[C]], %[[B]] : (tensor<1x8x4x4xf32>, tensor<1x8x1x1xf32>)
// CHECK-NEXT: relay.nn.global_max_pool2d %[[A]] : (tensor<1x8x4x4xf32>)
relay.func @sink_constant(%x: tensor<1x2x4x4x4xf32>, %w: tensor<8x8x1x1xf32>) -> tensor<1x2x1x1x4xf32> {
  %c = relay.nn.conv2d %x, %w {data_layout = "NCHW4c"} : (tensor<1x2x4x4x4xf32>, tensor<8x8x1x1xf32>) -> tensor<1x2x4x4x4xf32>
  %b = relay.constant dense<1.0> : tensor<1x2x1x1x4xf32>
  %a = relay.add %c, %b : (tensor<1x2x4x4x4xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x4x4x4xf32>
  %p = relay.nn.global_max_pool2d %a {layout = "NCHW4c"} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x1x1x4xf32>
  relay.return %p : tensor<1x2x1x1x4xf32>
}
