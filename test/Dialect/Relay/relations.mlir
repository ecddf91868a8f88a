// RUN: relay-mlir-opt %s --relay-infer-types | FileCheck %s
// Every type relation: the result types inferred from the operands and
// attributes, with static, Any (?) and symbolic dimensions.

!inc = !relay.incomplete

// CHECK-LABEL: relay.func @broadcast[n : ShapeVar](
relay.func @broadcast[n : ShapeVar](%a: tensor<2x1x3xf32>, %b: tensor<4x1xf32>, %c: tensor<?x3xf32>,
                      %s: !relay.tensor<[n, 3], f32>, %i: tensor<3xi32>) -> tensor<i1> {
  // CHECK: relay.add {{.*}} -> tensor<2x4x3xf32>
  %0 = relay.add %a, %b : (tensor<2x1x3xf32>, tensor<4x1xf32>) -> !inc
  // CHECK: relay.multiply {{.*}} -> tensor<2x?x3xf32>
  %1 = relay.multiply %a, %c : (tensor<2x1x3xf32>, tensor<?x3xf32>) -> !inc
  // CHECK: relay.subtract {{.*}} -> !relay.tensor<[n, 3], f32>
  %2 = relay.subtract %s, %c : (!relay.tensor<[n, 3], f32>, tensor<?x3xf32>) -> !inc
  // CHECK: relay.less {{.*}} -> tensor<2x4x3xi1>
  %3 = relay.less %a, %b : (tensor<2x1x3xf32>, tensor<4x1xf32>) -> !inc
  // CHECK: relay.right_shift {{.*}} -> tensor<3xi32>
  %4 = relay.right_shift %i, %i : (tensor<3xi32>, tensor<3xi32>) -> !inc
  // CHECK: relay.greater_equal {{.*}} -> !relay.tensor<[n, 3], i1>
  %5 = relay.greater_equal %s, %s : (!relay.tensor<[n, 3], f32>, !relay.tensor<[n, 3], f32>) -> !inc
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// CHECK-LABEL: relay.func @identity_cast_init[n : ShapeVar](
relay.func @identity_cast_init[n : ShapeVar](%a: tensor<2x?xf32>, %s: !relay.tensor<[n], i8>, %v: tensor<f32>) -> tensor<i1> {
  // CHECK: relay.sigmoid {{.*}} -> tensor<2x?xf32>
  %0 = relay.sigmoid %a : (tensor<2x?xf32>) -> !inc
  // CHECK: relay.clip {{.*}} -> tensor<2x?xf32>
  %1 = relay.clip %a {a_min = 0.0 : f64, a_max = 6.0 : f64} : (tensor<2x?xf32>) -> !inc
  // CHECK: relay.nn.leaky_relu {{.*}} -> !relay.tensor<[n], i8>
  %2 = relay.nn.leaky_relu %s : (!relay.tensor<[n], i8>) -> !inc
  // CHECK: relay.cast {{.*}} -> tensor<2x?xf16>
  %3 = relay.cast %a {dtype = f16} : (tensor<2x?xf32>) -> !inc
  // CHECK: relay.zeros {{.*}} -> tensor<2x3xf32>
  %4 = relay.zeros {shape = array<i64: 2, 3>} : () -> !inc
  // CHECK: relay.ones {{.*}} -> tensor<4xi64>
  %5 = relay.ones {shape = array<i64: 4>, dtype = i64} : () -> !inc
  // CHECK: relay.full {{.*}} -> tensor<5x5xf32>
  %6 = relay.full %v {shape = array<i64: 5, 5>} : (tensor<f32>) -> !inc
  // CHECK: relay.full_like {{.*}} -> tensor<2x?xf32>
  %7 = relay.full_like %a, %v : (tensor<2x?xf32>, tensor<f32>) -> !inc
  // CHECK: relay.zeros_like {{.*}} -> !relay.tensor<[n], i8>
  %8 = relay.zeros_like %s : (!relay.tensor<[n], i8>) -> !inc
  // CHECK: relay.nn.log_softmax {{.*}} -> tensor<2x?xf32>
  %9 = relay.nn.log_softmax %a {axis = 0 : i64} : (tensor<2x?xf32>) -> !inc
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// CHECK-LABEL: relay.func @where_bias_prelu
relay.func @where_bias_prelu(%c: tensor<4x1xi1>, %x: tensor<3xf32>, %y: tensor<f32>,
                             %d: tensor<1x8x5x5xf32>, %b: !inc, %alpha: !inc) -> tensor<i1> {
  // CHECK: relay.where {{.*}} -> tensor<4x3xf32>
  %0 = relay.where %c, %x, %y : (tensor<4x1xi1>, tensor<3xf32>, tensor<f32>) -> !inc
  // The bias and slope vectors are inferred from the data.
  // CHECK: relay.nn.bias_add {{.*}} : (tensor<1x8x5x5xf32>, tensor<8xf32>) -> tensor<1x8x5x5xf32>
  %1 = relay.nn.bias_add %d, %b : (tensor<1x8x5x5xf32>, !inc) -> !inc
  // CHECK: relay.nn.prelu {{.*}} : (tensor<1x8x5x5xf32>, tensor<5xf32>) -> tensor<1x8x5x5xf32>
  %2 = relay.nn.prelu %d, %alpha {axis = 3 : i64} : (tensor<1x8x5x5xf32>, !inc) -> !inc
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// CHECK-LABEL: relay.func @reduce[n : ShapeVar](
relay.func @reduce[n : ShapeVar](%a: tensor<2x3x4xf32>, %s: !relay.tensor<[n, 4], f32>) -> tensor<i1> {
  // CHECK: relay.sum {{.*}} -> tensor<f32>
  %0 = relay.sum %a : (tensor<2x3x4xf32>) -> !inc
  // CHECK: relay.mean {{.*}} -> tensor<2x1x4xf32>
  %1 = relay.mean %a {axis = array<i64: 1>, keepdims = true} : (tensor<2x3x4xf32>) -> !inc
  // CHECK: relay.max {{.*}} -> tensor<3xf32>
  %2 = relay.max %a {axis = array<i64: 1>, exclude = true} : (tensor<2x3x4xf32>) -> !inc
  // CHECK: relay.prod {{.*}} -> tensor<3xf32>
  %3 = relay.prod %a {axis = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> !inc
  // CHECK: relay.argmax {{.*}} -> tensor<2x4xi32>
  %4 = relay.argmax %a {axis = array<i64: 1>} : (tensor<2x3x4xf32>) -> !inc
  // CHECK: relay.min {{.*}} -> !relay.tensor<[n], f32>
  %5 = relay.min %s {axis = array<i64: 1>} : (!relay.tensor<[n, 4], f32>) -> !inc
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// CHECK-LABEL: relay.func @reshape
relay.func @reshape(%a: tensor<2x3x4xf32>, %d: tensor<?x3x4xf32>, %l: tensor<6x4xf32>, %e: tensor<0x3x4xf32>) -> tensor<i1> {
  // CHECK: relay.reshape {{.*}} -> tensor<6x4xf32>
  %0 = relay.reshape %a {newshape = array<i64: -1, 4>} : (tensor<2x3x4xf32>) -> !inc
  // CHECK: relay.reshape {{.*}} -> tensor<2x12xf32>
  %1 = relay.reshape %a {newshape = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> !inc
  // CHECK: relay.reshape {{.*}} -> tensor<2x3x4xf32>
  %2 = relay.reshape %a {newshape = array<i64: -2>} : (tensor<2x3x4xf32>) -> !inc
  // CHECK: relay.reshape {{.*}} -> tensor<6x4xf32>
  %3 = relay.reshape %a {newshape = array<i64: -3, -2>} : (tensor<2x3x4xf32>) -> !inc
  // CHECK: relay.reshape {{.*}} -> tensor<2x3x2x2xf32>
  %4 = relay.reshape %a {newshape = array<i64: 0, 0, -4, 2, -1>} : (tensor<2x3x4xf32>) -> !inc
  // CHECK: relay.reshape {{.*}} -> tensor<?x12xf32>
  %5 = relay.reshape %d {newshape = array<i64: -1, 12>} : (tensor<?x3x4xf32>) -> !inc
  // With allowzero (ONNX's), a 0 is a dimension of size 0, not a copy.
  // CHECK: relay.reshape {{.*}} -> tensor<4x0x3xf32>
  %z = relay.reshape %e {allowzero = true, newshape = array<i64: 4, 0, 3>} : (tensor<0x3x4xf32>) -> !inc
  // CHECK: relay.reshape_like {{.*}} -> tensor<6x4xf32>
  %6 = relay.reshape_like %a, %l : (tensor<2x3x4xf32>, tensor<6x4xf32>) -> !inc
  // CHECK: relay.nn.batch_flatten {{.*}} -> tensor<2x12xf32>
  %7 = relay.nn.batch_flatten %a : (tensor<2x3x4xf32>) -> !inc
  // CHECK: relay.nn.batch_flatten {{.*}} -> tensor<?x12xf32>
  %8 = relay.nn.batch_flatten %d : (tensor<?x3x4xf32>) -> !inc
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// CHECK-LABEL: relay.func @axes[n : ShapeVar](
relay.func @axes[n : ShapeVar](%a: tensor<2x1x4xf32>, %s: !relay.tensor<[n, 1, 4], f32>) -> tensor<i1> {
  // CHECK: relay.transpose {{.*}} -> tensor<4x1x2xf32>
  %0 = relay.transpose %a : (tensor<2x1x4xf32>) -> !inc
  // CHECK: relay.transpose {{.*}} -> !relay.tensor<[4, n, 1], f32>
  %1 = relay.transpose %s {axes = array<i64: 2, 0, 1>} : (!relay.tensor<[n, 1, 4], f32>) -> !inc
  // CHECK: relay.squeeze {{.*}} -> tensor<2x4xf32>
  %2 = relay.squeeze %a : (tensor<2x1x4xf32>) -> !inc
  // CHECK: relay.squeeze {{.*}} -> !relay.tensor<[n, 4], f32>
  %3 = relay.squeeze %s {axis = array<i64: 1>} : (!relay.tensor<[n, 1, 4], f32>) -> !inc
  // CHECK: relay.expand_dims {{.*}} -> tensor<2x1x4x1x1xf32>
  %4 = relay.expand_dims %a {axis = -1 : i64, num_newaxis = 2 : i64} : (tensor<2x1x4xf32>) -> !inc
  // CHECK: relay.broadcast_to {{.*}} -> tensor<3x2x5x4xf32>
  %5 = relay.broadcast_to %a {shape = array<i64: 3, 2, 5, 4>} : (tensor<2x1x4xf32>) -> !inc
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// CHECK-LABEL: relay.func @join_split
relay.func @join_split(%a: tensor<2x3xf32>, %b: tensor<5x3xf32>, %d: tensor<?x3xf32>) -> tensor<i1> {
  %t0 = relay.tuple(%a, %b : tensor<2x3xf32>, tensor<5x3xf32>)
  // CHECK: relay.concatenate {{.*}} -> tensor<7x3xf32>
  %0 = relay.concatenate %t0 : (tuple<tensor<2x3xf32>, tensor<5x3xf32>>) -> !inc
  %t1 = relay.tuple(%a, %d : tensor<2x3xf32>, tensor<?x3xf32>)
  // CHECK: relay.concatenate {{.*}} -> tensor<?x3xf32>
  %1 = relay.concatenate %t1 : (tuple<tensor<2x3xf32>, tensor<?x3xf32>>) -> !inc
  %t2 = relay.tuple(%a, %a, %a : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
  // CHECK: relay.stack {{.*}} -> tensor<2x3x3xf32>
  %2 = relay.stack %t2 {axis = 1 : i64} : (tuple<tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>>) -> !inc
  // CHECK: relay.split {{.*}} -> tuple<tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>>
  %3 = relay.split %a {indices_or_sections = 3 : i64, axis = 1 : i64} : (tensor<2x3xf32>) -> !inc
  // CHECK: relay.split {{.*}} -> tuple<tensor<1x3xf32>, tensor<3x3xf32>, tensor<1x3xf32>>
  %4 = relay.split %b {indices_or_sections = array<i64: 1, 4>} : (tensor<5x3xf32>) -> !inc
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// CHECK-LABEL: relay.func @scatters
relay.func @scatters(%d: tensor<4x5xf32>, %i: tensor<2x5xi64>, %u: tensor<2x5xf32>, %t: tensor<1x3xi32>, %v: tensor<3x5xf32>, %n: tensor<?x5xf32>, %ni: tensor<?x5xi64>) -> tensor<i1> {
  // scatter_elements: the data's type; updates unknown are inferred from
  // the indices' shape.
  // CHECK: relay.scatter_elements {{.*}} -> tensor<4x5xf32>
  %0 = relay.scatter_elements %d, %i, %u {reduction = "add"} : (tensor<4x5xf32>, tensor<2x5xi64>, tensor<2x5xf32>) -> !inc
  // CHECK: relay.scatter_elements {{.*}} : (tensor<?x5xf32>, tensor<?x5xi64>, tensor<?x5xf32>) -> tensor<?x5xf32>
  %1 = relay.scatter_elements %n, %ni, %n {axis = -1 : i64} : (tensor<?x5xf32>, tensor<?x5xi64>, tensor<?x5xf32>) -> !inc
  // scatter_nd: tuples of one index (rows), updates of shape (3, 5).
  // CHECK: relay.scatter_nd {{.*}} -> tensor<4x5xf32>
  %2 = relay.scatter_nd %d, %t, %v {mode = "max"} : (tensor<4x5xf32>, tensor<1x3xi32>, tensor<3x5xf32>) -> !inc
  // Tuples of a length known at run time: the ranks say 1.
  // CHECK: relay.scatter_nd {{.*}} -> tensor<4x5xf32>
  %3 = relay.scatter_nd %d, %ni, %n : (tensor<4x5xf32>, tensor<?x5xi64>, tensor<?x5xf32>) -> !inc
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// CHECK-LABEL: relay.func @indexing
relay.func @indexing(%a: tensor<4x5x6xf32>, %i: tensor<2x3xi32>, %gi: tensor<4x2x6xi64>) -> tensor<i1> {
  // CHECK: relay.take {{.*}} -> tensor<2x3xf32>
  %0 = relay.take %a, %i : (tensor<4x5x6xf32>, tensor<2x3xi32>) -> !inc
  // CHECK: relay.take {{.*}} -> tensor<4x2x3x6xf32>
  %1 = relay.take %a, %i {axis = 1 : i64} : (tensor<4x5x6xf32>, tensor<2x3xi32>) -> !inc
  // gather: the indices' shape, the data's dtype.
  // CHECK: relay.gather {{.*}} -> tensor<4x2x6xf32>
  %g = relay.gather %a, %gi {axis = 1 : i64} : (tensor<4x5x6xf32>, tensor<4x2x6xi64>) -> !inc
  // CHECK: relay.strided_slice {{.*}} -> tensor<2x5x3xf32>
  %2 = relay.strided_slice %a {begin = array<i64: 1, 0, 0>, end = array<i64: 3, 5, 6>, strides = array<i64: 1, 1, 2>} : (tensor<4x5x6xf32>) -> !inc
  // CHECK: relay.strided_slice {{.*}} -> tensor<4x5x2xf32>
  %3 = relay.strided_slice %a {begin = array<i64: 1>, end = array<i64: 2>, axes = array<i64: 2>, slice_mode = "size"} : (tensor<4x5x6xf32>) -> !inc
  // Negative strides walk backwards; an end past the dimension is clamped.
  // CHECK: relay.strided_slice {{.*}} -> tensor<4x5x6xf32>
  %4 = relay.strided_slice %a {begin = array<i64: -1>, end = array<i64: -100>, strides = array<i64: -1>, axes = array<i64: 2>} : (tensor<4x5x6xf32>) -> !inc
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// CHECK-LABEL: relay.func @pad_layout_upsampling
relay.func @pad_layout_upsampling(%a: tensor<1x32x8x8xf32>, %v: tensor<f32>) -> tensor<i1> {
  // CHECK: relay.nn.pad {{.*}} -> tensor<1x32x10x12xf32>
  %0 = relay.nn.pad %a, %v {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 2, 2>} : (tensor<1x32x8x8xf32>, tensor<f32>) -> !inc
  // CHECK: relay.layout_transform {{.*}} -> tensor<1x8x8x32xf32>
  %1 = relay.layout_transform %a {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x32x8x8xf32>) -> !inc
  // CHECK: relay.layout_transform {{.*}} -> tensor<1x2x8x8x16xf32>
  %2 = relay.layout_transform %a {src_layout = "NCHW", dst_layout = "NCHW16c"} : (tensor<1x32x8x8xf32>) -> !inc
  // CHECK: relay.layout_transform {{.*}} -> tensor<1x32x8x8xf32>
  %3 = relay.layout_transform %2 {src_layout = "NCHW16c", dst_layout = "NCHW"} : (!inc) -> !inc
  // CHECK: relay.nn.upsampling {{.*}} -> tensor<1x32x16x24xf32>
  %4 = relay.nn.upsampling %a {scale_h = 2.0 : f64, scale_w = 3.0 : f64} : (tensor<1x32x8x8xf32>) -> !inc
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// CHECK-LABEL: relay.func @conv
relay.func @conv(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %xh: tensor<1x32x32x3xf32>,
                 %wh: tensor<3x3x3x8xf32>, %dw: !inc, %dyn: tensor<?x3x?x32xf32>,
                 %t: tensor<1x16x8x8xf32>, %wt: tensor<16x4x4x4xf32>) -> tensor<i1> {
  // CHECK: relay.nn.conv2d {{.*}} -> tensor<1x16x32x32xf32>
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> !inc
  // CHECK: relay.nn.conv2d {{.*}} -> tensor<1x16x15x15xf32>
  %1 = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> !inc
  // CHECK: relay.nn.conv2d {{.*}} -> tensor<1x16x28x28xf32>
  %2 = relay.nn.conv2d %x, %w {dilation = array<i64: 2, 2>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> !inc
  // NHWC data with an HWIO kernel.
  // CHECK: relay.nn.conv2d {{.*}} -> tensor<1x30x30x8xf32>
  %3 = relay.nn.conv2d %xh, %wh {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x32x32x3xf32>, tensor<3x3x3x8xf32>) -> !inc
  // A depthwise weight inferred from groups, channels and kernel_size.
  // CHECK: relay.nn.conv2d {{.*}} : (tensor<1x16x32x32xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x32x32xf32>
  %4 = relay.nn.conv2d %0, %dw {groups = 16 : i64, channels = 16 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (!inc, !inc) -> !inc
  // Any dimensions stay Any; out_dtype changes the dtype.
  // CHECK: relay.nn.conv2d {{.*}} -> tensor<?x16x?x30xf64>
  %5 = relay.nn.conv2d %dyn, %w {out_dtype = f64} : (tensor<?x3x?x32xf32>, tensor<16x3x3x3xf32>) -> !inc
  // CHECK: relay.nn.conv2d_transpose {{.*}} -> tensor<1x4x17x17xf32>
  %6 = relay.nn.conv2d_transpose %t, %wt {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>} : (tensor<1x16x8x8xf32>, tensor<16x4x4x4xf32>) -> !inc
  %r = relay.constant dense<true> : tensor<i1>
  relay.return %r : tensor<i1>
}

// CHECK-LABEL: relay.func @matmul
relay.func @matmul(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>, %u: !inc, %b: tensor<2x3x8xf32>,
                   %m: tensor<8x5xf32>, %bx: tensor<1x4x8xf32>, %by: tensor<6x5x8xf32>,
                   %bz: tensor<6x8x5xf32>) -> tensor<i1> {
  // CHECK: relay.nn.dense {{.*}} -> tensor<4x16xf32>
  %0 = relay.nn.dense %x, %w : (tensor<4x8xf32>, tensor<16x8xf32>) -> !inc
  // The weight's type follows from units.
  // CHECK: relay.nn.dense {{.*}} : (tensor<2x3x8xf32>, tensor<10x8xf32>) -> tensor<2x3x10xf32>
  %1 = relay.nn.dense %b, %u {units = 10 : i64} : (tensor<2x3x8xf32>, !inc) -> !inc
  // CHECK: relay.nn.matmul {{.*}} -> tensor<4x5xf32>
  %2 = relay.nn.matmul %x, %m : (tensor<4x8xf32>, tensor<8x5xf32>) -> !inc
  // CHECK: relay.nn.matmul {{.*}} -> tensor<4x16xf32>
  %3 = relay.nn.matmul %x, %w {transpose_b = true} : (tensor<4x8xf32>, tensor<16x8xf32>) -> !inc
  // CHECK: relay.nn.batch_matmul {{.*}} -> tensor<6x4x5xf32>
  %4 = relay.nn.batch_matmul %bx, %by {transpose_b = true} : (tensor<1x4x8xf32>, tensor<6x5x8xf32>) -> !inc
  // CHECK: relay.nn.batch_matmul {{.*}} -> tensor<6x4x5xf32>
  %5 = relay.nn.batch_matmul %bx, %bz {transpose_b = false} : (tensor<1x4x8xf32>, tensor<6x8x5xf32>) -> !inc
  %r = relay.constant dense<true> : tensor<i1>
  relay.return %r : tensor<i1>
}

// CHECK-LABEL: relay.func @pool_norm
relay.func @pool_norm(%x: tensor<1x16x32x32xf32>, %h: tensor<1x7x7x64xf32>, %g: !inc, %b: !inc,
                      %m: !inc, %v: tensor<16xf32>, %seq: tensor<2x5x8xf32>, %l1: !inc, %l2: !inc) -> tensor<i1> {
  // CHECK: relay.nn.max_pool2d {{.*}} -> tensor<1x16x16x16xf32>
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x16x32x32xf32>) -> !inc
  // CHECK: relay.nn.avg_pool2d {{.*}} -> tensor<1x16x17x17xf32>
  %1 = relay.nn.avg_pool2d %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = true} : (tensor<1x16x32x32xf32>) -> !inc
  // CHECK: relay.nn.global_avg_pool2d {{.*}} -> tensor<1x1x1x64xf32>
  %2 = relay.nn.global_avg_pool2d %h {layout = "NHWC"} : (tensor<1x7x7x64xf32>) -> !inc
  // CHECK: relay.nn.adaptive_avg_pool2d {{.*}} -> tensor<1x16x7x7xf32>
  %3 = relay.nn.adaptive_avg_pool2d %x {output_size = array<i64: 7>} : (tensor<1x16x32x32xf32>) -> !inc
  // CHECK: relay.nn.batch_norm {{.*}} : (tensor<1x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tuple<tensor<1x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>>
  %4 = relay.nn.batch_norm %x, %g, %b, %m, %v : (tensor<1x16x32x32xf32>, !inc, !inc, !inc, tensor<16xf32>) -> !inc
  // CHECK: relay.nn.layer_norm {{.*}} : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  %5 = relay.nn.layer_norm %seq, %l1, %l2 : (tensor<2x5x8xf32>, !inc, !inc) -> !inc
  // CHECK: relay.nn.dropout {{.*}} -> tuple<tensor<2x5x8xf32>, tensor<2x5x8xf32>>
  %6 = relay.nn.dropout %seq {rate = 0.25 : f64} : (tensor<2x5x8xf32>) -> !inc
  %r = relay.constant dense<true> : tensor<i1>
  relay.return %r : tensor<i1>
}

// Any (?) and symbolic dimensions through the remaining relations: a named
// dimension passed through keeps its name; one computed from ? or a name
// is ?.
// CHECK-LABEL: relay.func @any_and_symbolic
relay.func @any_and_symbolic[n : ShapeVar](%s: !relay.tensor<[n, 3, 8, 8], f32>, %d: tensor<?x3x8x?xf32>,
                                          %w: tensor<4x3x3x3xf32>, %v: tensor<3xf32>, %i: tensor<?xi32>,
                                          %m: !relay.tensor<[n, 4, 8], f32>, %k: tensor<1x8x2xf32>,
                                          %z: tensor<f32>) -> tensor<i1> {
  // CHECK: relay.nn.conv2d {{.*}} -> !relay.tensor<[n, 4, 6, 6], f32>
  %0 = relay.nn.conv2d %s, %w : (!relay.tensor<[n, 3, 8, 8], f32>, tensor<4x3x3x3xf32>) -> !inc
  // CHECK: relay.nn.conv2d {{.*}} -> tensor<?x4x6x?xf32>
  %1 = relay.nn.conv2d %d, %w : (tensor<?x3x8x?xf32>, tensor<4x3x3x3xf32>) -> !inc
  // CHECK: relay.nn.max_pool2d {{.*}} -> !relay.tensor<[n, 3, 4, 4], f32>
  %2 = relay.nn.max_pool2d %s {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (!relay.tensor<[n, 3, 8, 8], f32>) -> !inc
  // CHECK: relay.nn.global_avg_pool2d {{.*}} -> tensor<?x3x1x1xf32>
  %3 = relay.nn.global_avg_pool2d %d : (tensor<?x3x8x?xf32>) -> !inc
  // CHECK: relay.nn.batch_norm {{.*}} -> tuple<!relay.tensor<[n, 3, 8, 8], f32>, tensor<3xf32>, tensor<3xf32>>
  %4 = relay.nn.batch_norm %s, %v, %v, %v, %v : (!relay.tensor<[n, 3, 8, 8], f32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> !inc
  // CHECK: relay.nn.batch_flatten {{.*}} -> !relay.tensor<[n, 192], f32>
  %5 = relay.nn.batch_flatten %s : (!relay.tensor<[n, 3, 8, 8], f32>) -> !inc
  // CHECK: relay.reshape {{.*}} -> !relay.tensor<[n, 3, 64], f32>
  %6 = relay.reshape %s {newshape = array<i64: 0, 0, -1>} : (!relay.tensor<[n, 3, 8, 8], f32>) -> !inc
  // CHECK: relay.reshape {{.*}} -> tensor<?xf32>
  %7 = relay.reshape %s {newshape = array<i64: -1>} : (!relay.tensor<[n, 3, 8, 8], f32>) -> !inc
  // CHECK: relay.expand_dims {{.*}} -> !relay.tensor<[n, 1, 3, 8, 8], f32>
  %8 = relay.expand_dims %s {axis = 1 : i64} : (!relay.tensor<[n, 3, 8, 8], f32>) -> !inc
  %t = relay.tuple(%s, %s : !relay.tensor<[n, 3, 8, 8], f32>, !relay.tensor<[n, 3, 8, 8], f32>)
  // CHECK: relay.concatenate {{.*}} -> !relay.tensor<[n, 6, 8, 8], f32>
  %9 = relay.concatenate %t {axis = 1 : i64} : (tuple<!relay.tensor<[n, 3, 8, 8], f32>, !relay.tensor<[n, 3, 8, 8], f32>>) -> !inc
  // CHECK: relay.concatenate {{.*}} -> tensor<?x3x8x8xf32>
  %10 = relay.concatenate %t : (tuple<!relay.tensor<[n, 3, 8, 8], f32>, !relay.tensor<[n, 3, 8, 8], f32>>) -> !inc
  // CHECK: relay.stack {{.*}} -> !relay.tensor<[2, n, 3, 8, 8], f32>
  %11 = relay.stack %t : (tuple<!relay.tensor<[n, 3, 8, 8], f32>, !relay.tensor<[n, 3, 8, 8], f32>>) -> !inc
  // CHECK: relay.split {{.*}} -> tuple<tensor<?x3x8x?xf32>, tensor<?x3x8x?xf32>>
  %12 = relay.split %d {indices_or_sections = 2 : i64, axis = 3 : i64} : (tensor<?x3x8x?xf32>) -> !inc
  // CHECK: relay.take {{.*}} -> tensor<?x?x8x?xf32>
  %13 = relay.take %d, %i {axis = 1 : i64} : (tensor<?x3x8x?xf32>, tensor<?xi32>) -> !inc
  // CHECK: relay.strided_slice {{.*}} -> tensor<?x3x4x?xf32>
  %14 = relay.strided_slice %d {begin = array<i64: 0, 0, 2, 0>, end = array<i64: 1, 3, 6, 4>} : (tensor<?x3x8x?xf32>) -> !inc
  // CHECK: relay.nn.pad {{.*}} -> !relay.tensor<[n, 3, 10, 10], f32>
  %15 = relay.nn.pad %s, %z {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>} : (!relay.tensor<[n, 3, 8, 8], f32>, tensor<f32>) -> !inc
  // CHECK: relay.layout_transform {{.*}} -> tensor<?x8x?x3xf32>
  %16 = relay.layout_transform %d {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<?x3x8x?xf32>) -> !inc
  // CHECK: relay.nn.upsampling {{.*}} -> tensor<?x3x16x?xf32>
  %17 = relay.nn.upsampling %d {scale_h = 2.0 : f64, scale_w = 2.0 : f64} : (tensor<?x3x8x?xf32>) -> !inc
  // CHECK: relay.nn.batch_matmul {{.*}} -> !relay.tensor<[n, 4, 2], f32>
  %18 = relay.nn.batch_matmul %m, %k {transpose_b = false} : (!relay.tensor<[n, 4, 8], f32>, tensor<1x8x2xf32>) -> !inc
  // CHECK: relay.nn.softmax {{.*}} -> !relay.tensor<[n, 3, 8, 8], f32>
  %19 = relay.nn.softmax %s {axis = 1 : i64} : (!relay.tensor<[n, 3, 8, 8], f32>) -> !inc
  // CHECK: relay.cast {{.*}} -> !relay.tensor<[n, 3, 8, 8], f16>
  %20 = relay.cast %s {dtype = f16} : (!relay.tensor<[n, 3, 8, 8], f32>) -> !inc
  // CHECK: relay.where {{.*}} -> tensor<?x3x8x?xf32>
  %c = relay.constant dense<true> : tensor<i1>
  %21 = relay.where %c, %d, %z : (tensor<i1>, tensor<?x3x8x?xf32>, tensor<f32>) -> !inc
  // CHECK: relay.argmin {{.*}} -> tensor<?x8x?xi32>
  %22 = relay.argmin %d {axis = array<i64: 1>} : (tensor<?x3x8x?xf32>) -> !inc
  // CHECK: relay.nn.adaptive_avg_pool2d {{.*}} -> !relay.tensor<[n, 3, 2, 2], f32>
  %23 = relay.nn.adaptive_avg_pool2d %s {output_size = array<i64: 2, 2>} : (!relay.tensor<[n, 3, 8, 8], f32>) -> !inc
  // CHECK: relay.broadcast_to {{.*}} -> tensor<2x3xf32>
  %24 = relay.broadcast_to %v {shape = array<i64: 2, 3>} : (tensor<3xf32>) -> !inc
  relay.return %c : tensor<i1>
}
