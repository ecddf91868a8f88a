// RUN: relay-mlir-opt %s --split-input-file --relay-convert-layout="desired-layouts=nn.conv2d:NHWC" | FileCheck %s
// RUN: relay-mlir-opt %s --split-input-file --relay-convert-layout="desired-layouts=nn.conv2d:NHWC" --relay-alter-op-layout | FileCheck %s --check-prefix=BACK
// RUN: relay-mlir-opt %s --split-input-file --relay-convert-layout="desired-layouts=nn.deformable_conv2d:NHWC" | FileCheck %s --check-prefix=DEFORM
// RUN: relay-mlir-opt %s --split-input-file --relay-convert-layout="desired-layouts=nn.conv2d_transpose:NCHW" | FileCheck %s --check-prefix=TRANSPOSED
// RUN: relay-mlir-opt %s --split-input-file --relay-convert-layout="desired-layouts=nn.conv2d_transpose:NHWC:HWOI" | FileCheck %s --check-prefix=TRANSPOSED-NHWC

// Tests that two convolutions in NHWC take the ops between them along (a
// bias_add along the renamed axis, relu, pooling in NHWC, a residual add,
// a mean over the renamed axes), with transforms only at the edges: the
// input, the kernels, and none before the result (the mean's result has
// no spatial axes left).
// CHECK-LABEL: relay.func @net(
// CHECK-SAME: %[[X:.*]]: tensor<1x8x6x6xf32>, %[[W:.*]]: tensor<16x8x3x3xf32>, %[[B:.*]]: tensor<16xf32>, %[[W2:.*]]: tensor<16x16x1x1xf32>)
// CHECK-DAG: %[[W2T:.*]] = relay.layout_transform %[[W2]] {dst_layout = "HWIO", src_layout = "OIHW"}
// CHECK-DAG: %[[WT:.*]] = relay.layout_transform %[[W]] {dst_layout = "HWIO", src_layout = "OIHW"}
// CHECK-DAG: %[[XT:.*]] = relay.layout_transform %[[X]] {dst_layout = "NHWC", src_layout = "NCHW"}
// CHECK: %[[C:.*]] = relay.nn.conv2d %[[XT]], %[[WT]] {data_layout = "NHWC", kernel_layout = "HWIO", padding = array<i64: 1, 1, 1, 1>} : (tensor<1x6x6x8xf32>, tensor<3x3x8x16xf32>) -> tensor<1x6x6x16xf32>
// CHECK: %[[A:.*]] = relay.nn.bias_add %[[C]], %[[B]] {axis = 3 : i64}
// CHECK: %[[R:.*]] = relay.nn.relu %[[A]] : (tensor<1x6x6x16xf32>)
// CHECK: %[[P:.*]] = relay.nn.max_pool2d %[[R]] {layout = "NHWC", {{.*}}} : (tensor<1x6x6x16xf32>) -> tensor<1x3x3x16xf32>
// CHECK: %[[C2:.*]] = relay.nn.conv2d %[[P]], %[[W2T]] {data_layout = "NHWC", kernel_layout = "HWIO"}
// CHECK: %[[S:.*]] = relay.add %[[C2]], %[[P]] : (tensor<1x3x3x16xf32>, tensor<1x3x3x16xf32>)
// CHECK: %[[M:.*]] = relay.mean %[[S]] {axis = array<i64: 1, 2>} : (tensor<1x3x3x16xf32>) -> tensor<1x16xf32>
// CHECK-NEXT: relay.return %[[M]]
// Tests that the CPU's layouts, asked for by --relay-alter-op-layout, undo
// the conversion: every transform cancels.
// BACK-LABEL: relay.func @net(
// BACK-NOT: relay.layout_transform
// BACK: relay.nn.conv2d %x, %w {padding
// BACK-NOT: relay.layout_transform
// BACK: relay.return
relay.func @net(%x: tensor<1x8x6x6xf32>, %w: tensor<16x8x3x3xf32>, %b: tensor<16xf32>, %w2: tensor<16x16x1x1xf32>) -> tensor<1x16xf32> {
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x6x6xf32>
  %a = relay.nn.bias_add %c, %b : (tensor<1x16x6x6xf32>, tensor<16xf32>) -> tensor<1x16x6x6xf32>
  %r = relay.nn.relu %a : (tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %p = relay.nn.max_pool2d %r {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x16x6x6xf32>) -> tensor<1x16x3x3xf32>
  %c2 = relay.nn.conv2d %p, %w2 : (tensor<1x16x3x3xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x3x3xf32>
  %s = relay.add %c2, %p : (tensor<1x16x3x3xf32>, tensor<1x16x3x3xf32>) -> tensor<1x16x3x3xf32>
  %m = relay.mean %s {axis = array<i64: 2, 3>} : (tensor<1x16x3x3xf32>) -> tensor<1x16xf32>
  relay.return %m : tensor<1x16xf32>
}

// -----

// Tests that a per-channel bias of lower rank is broadcast to the full
// rank and transformed, that concatenate's axis is renamed, and that an op
// without a layout rule (reshape) gets its input back in NCHW.
// CHECK-LABEL: relay.func @edges(
// CHECK: %[[E:.*]] = relay.expand_dims %{{.*}} {axis = 0 : i64} : (tensor<4x1x1xf32>) -> tensor<1x4x1x1xf32>
// CHECK: %[[ET:.*]] = relay.layout_transform %[[E]] {dst_layout = "NHWC", src_layout = "NCHW"} : (tensor<1x4x1x1xf32>) -> tensor<1x1x1x4xf32>
// CHECK: %[[C:.*]] = relay.nn.conv2d
// CHECK: %[[A:.*]] = relay.add %[[C]], %[[ET]] : (tensor<1x5x5x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x5x5x4xf32>
// CHECK: %[[T:.*]] = relay.tuple(%[[A]], %[[A]]
// CHECK: %[[K:.*]] = relay.concatenate %[[T]] {axis = 3 : i64} {{.*}} -> tensor<1x5x5x8xf32>
// CHECK: %[[KB:.*]] = relay.layout_transform %[[K]] {dst_layout = "NCHW", src_layout = "NHWC"}
// CHECK: relay.reshape %[[KB]]
relay.func @edges(%x: tensor<1x3x5x5xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4x1x1xf32>) -> tensor<1x200xf32> {
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x5xf32>
  %a = relay.add %c, %b : (tensor<1x4x5x5xf32>, tensor<4x1x1xf32>) -> tensor<1x4x5x5xf32>
  %t = relay.tuple(%a, %a : tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>)
  %k = relay.concatenate %t {axis = 1 : i64} : (tuple<tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>>) -> tensor<1x8x5x5xf32>
  %r = relay.reshape %k {newshape = array<i64: 1, 200>} : (tensor<1x8x5x5xf32>) -> tensor<1x200xf32>
  relay.return %r : tensor<1x200xf32>
}

// -----

// Tests that nn.pad between two NHWC convolutions follows them, its
// pad_width pairs in the order of the new axes (H and W padded by 1 and 2).
// CHECK-LABEL: relay.func @pad_between(
// CHECK: %[[C:.*]] = relay.nn.conv2d
// CHECK-NOT: relay.layout_transform
// CHECK: %[[P:.*]] = relay.nn.pad %[[C]], %{{.*}} {pad_width = array<i64: 0, 0, 1, 1, 2, 2, 0, 0>} : (tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x6x8x2xf32>
// CHECK-NOT: relay.layout_transform
// CHECK: relay.nn.conv2d %[[P]]
relay.func @pad_between(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x2x6x8xf32> {
  %zero = relay.constant dense<0.0> : tensor<f32>
  %c = relay.nn.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %p = relay.nn.pad %c, %zero {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 2, 2>} : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x6x8xf32>
  %c2 = relay.nn.conv2d %p, %w : (tensor<1x2x6x8xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x6x8xf32>
  relay.return %c2 : tensor<1x2x6x8xf32>
}

// -----

// Tests that image.resize2d and nn.upsampling between NHWC convolutions
// (an FPN's or a U-Net's upsampling) follow them, resizing in NHWC.
// CHECK-LABEL: relay.func @resample_between(
// CHECK: %[[C:.*]] = relay.nn.conv2d
// CHECK-NOT: relay.layout_transform
// CHECK: %[[R:.*]] = relay.image.resize2d %[[C]] {layout = "NHWC", method = "cubic", size = array<i64: 6, 8>} : (tensor<1x4x4x2xf32>) -> tensor<1x6x8x2xf32>
// CHECK-NOT: relay.layout_transform
// CHECK: %[[U:.*]] = relay.nn.upsampling %[[R]] {layout = "NHWC", {{.*}}} : (tensor<1x6x8x2xf32>) -> tensor<1x12x16x2xf32>
// CHECK-NOT: relay.layout_transform
// CHECK: relay.nn.conv2d %[[U]]
relay.func @resample_between(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x2x12x16xf32> {
  %c = relay.nn.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r = relay.image.resize2d %c {size = array<i64: 6, 8>, method = "cubic"} : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x8xf32>
  %u = relay.nn.upsampling %r {scale_h = 2.0 : f64, scale_w = 2.0 : f64} : (tensor<1x2x6x8xf32>) -> tensor<1x2x12x16xf32>
  %c2 = relay.nn.conv2d %u, %w : (tensor<1x2x12x16xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x12x16xf32>
  relay.return %c2 : tensor<1x2x12x16xf32>
}

// -----

// Tests that take from a 1-d table without an axis (a lookup table) follows
// its indices' layout: nothing is transposed between the convolutions.
// CHECK-LABEL: relay.func @table_between(
// CHECK: %[[C:.*]] = relay.nn.conv2d
// CHECK-NOT: relay.layout_transform
// CHECK: %[[T:.*]] = relay.take %{{.*}}, %[[C]] {mode = "fast"} : (tensor<256xf32>, tensor<1x4x4x2xi32>) -> tensor<1x4x4x2xf32>
// CHECK-NOT: relay.layout_transform
// CHECK: relay.nn.conv2d %[[T]]
relay.func @table_between(%x: tensor<1x2x4x4xi32>, %w: tensor<2x2x1x1xi32>, %wf: tensor<2x2x1x1xf32>, %table: tensor<256xf32>) -> tensor<1x2x4x4xf32> {
  %c = relay.nn.conv2d %x, %w : (tensor<1x2x4x4xi32>, tensor<2x2x1x1xi32>) -> tensor<1x2x4x4xi32>
  %t = relay.take %table, %c {mode = "fast"} : (tensor<256xf32>, tensor<1x2x4x4xi32>) -> tensor<1x2x4x4xf32>
  %c2 = relay.nn.conv2d %t, %wf : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  relay.return %c2 : tensor<1x2x4x4xf32>
}

// -----

// Tests that nn.deformable_conv2d converts to NHWC with its offset (TVM's
// convert_deformable_conv2d): the data and the offset to NHWC, the weight
// to HWIO, and the result back to NCHW for the return.
// DEFORM-LABEL: relay.func @deformable(
// DEFORM-DAG: %[[XT:.*]] = relay.layout_transform %x {dst_layout = "NHWC", src_layout = "NCHW"}
// DEFORM-DAG: %[[OT:.*]] = relay.layout_transform %o {dst_layout = "NHWC", src_layout = "NCHW"}
// DEFORM-DAG: %[[WT:.*]] = relay.layout_transform %w {dst_layout = "HWIO", src_layout = "OIHW"}
// DEFORM: %[[C:.*]] = relay.nn.deformable_conv2d %[[XT]], %[[OT]], %[[WT]] {data_layout = "NHWC", kernel_layout = "HWIO", {{.*}}} : (tensor<1x5x6x4xf32>, tensor<1x5x6x18xf32>, tensor<3x3x4x3xf32>) -> tensor<1x5x6x3xf32>
// DEFORM: %[[R:.*]] = relay.layout_transform %[[C]] {dst_layout = "NCHW", src_layout = "NHWC"}
// DEFORM: relay.return %[[R]]
relay.func @deformable(%x: tensor<1x4x5x6xf32>, %o: tensor<1x18x5x6xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<1x3x5x6xf32> {
  %c = relay.nn.deformable_conv2d %x, %o, %w {padding = array<i64: 1, 1>} : (tensor<1x4x5x6xf32>, tensor<1x18x5x6xf32>, tensor<3x4x3x3xf32>) -> tensor<1x3x5x6xf32>
  relay.return %c : tensor<1x3x5x6xf32>
}

// -----

// Tests that nn.conv2d_transpose converts as TVM's
// test_conv_transpose_convert_layout expects: NHWC/HWIO asked for NCHW
// takes the default kernel layout IOHW, the relu after it follows, and
// the result goes back to NHWC for the return. Asked for NHWC with a
// kernel layout of its own, the NCHW one takes both.
// TRANSPOSED-LABEL: relay.func @transposed_nhwc(
// TRANSPOSED-DAG: %[[XT:.*]] = relay.layout_transform %x {dst_layout = "NCHW", src_layout = "NHWC"}
// TRANSPOSED-DAG: %[[WT:.*]] = relay.layout_transform %w {dst_layout = "IOHW", src_layout = "HWIO"}
// TRANSPOSED: %[[C:.*]] = relay.nn.conv2d_transpose %[[XT]], %[[WT]] {channels = 64 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32>
// TRANSPOSED: %[[R:.*]] = relay.nn.relu %[[C]]
// TRANSPOSED: %[[B:.*]] = relay.layout_transform %[[R]] {dst_layout = "NHWC", src_layout = "NCHW"}
// TRANSPOSED: relay.return %[[B]]
relay.func @transposed_nhwc(%x: tensor<1x56x56x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32> {
  %c = relay.nn.conv2d_transpose %x, %w {channels = 64 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32>
  %r = relay.nn.relu %c : (tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  relay.return %r : tensor<1x56x56x64xf32>
}

// -----

// TRANSPOSED-NHWC-LABEL: relay.func @transposed_nchw(
// TRANSPOSED-NHWC-DAG: relay.layout_transform %x {dst_layout = "NHWC", src_layout = "NCHW"}
// TRANSPOSED-NHWC-DAG: relay.layout_transform %w {dst_layout = "HWOI", src_layout = "IOHW"}
// TRANSPOSED-NHWC: relay.nn.conv2d_transpose {{.*}}data_layout = "NHWC", kernel_layout = "HWOI"{{.*}} : (tensor<1x5x6x4xf32>, tensor<3x3x2x4xf32>) -> tensor<1x11x13x2xf32>
relay.func @transposed_nchw(%x: tensor<1x4x5x6xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x2x11x13xf32> {
  %c = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>} : (tensor<1x4x5x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x11x13xf32>
  relay.return %c : tensor<1x2x11x13xf32>
}
