// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-to-linalg | FileCheck %s
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
  // bias_add broadcasts the bias along axis 1 (read in place: its reshape
  // to its own shape is no op).
  // CHECK-NOT: tensor.reshape
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

// A float conv2d is a matrix product over an im2col copy of its padded
// input (one view per kernel tap inserted into its plane), k = (c, kh, kw)
// and p = (oh, ow). Stride 2 with 9 taps: the 4 stride phases of the
// padded image are copied out first and the taps are unit-stride views of
// them. For one image and one group it is a 2-d product
// out[f, p] = sum_k w[f, k] * col[k, p]; p = 16 is a whole vector, so no
// padding columns. The padded image is its four border strips filled in
// place (top, bottom, left, right) and the image inserted in the middle.
// CHECK-LABEL: func.func @conv(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x3x10x10xf32>
// CHECK: %[[TS:.*]] = tensor.extract_slice %[[E]][0, 0, 0, 0] [1, 3, 1, 10] [1, 1, 1, 1]
// CHECK: %[[TF:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[TS]] : tensor<1x3x1x10xf32>)
// CHECK: %[[T:.*]] = tensor.insert_slice %[[TF]] into %[[E]][0, 0, 0, 0] [1, 3, 1, 10]
// CHECK: tensor.extract_slice %[[T]][0, 0, 9, 0] [1, 3, 1, 10]
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 1, 0] [1, 3, 8, 1]
// CHECK: %[[RS:.*]] = tensor.extract_slice %{{.*}}[0, 0, 1, 9] [1, 3, 8, 1]
// CHECK: %[[RF:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[RS]] : tensor<1x3x8x1xf32>)
// CHECK: %[[R:.*]] = tensor.insert_slice %[[RF]]
// CHECK: %[[PAD:.*]] = tensor.insert_slice %arg0 into %[[R]][0, 0, 1, 1] [1, 3, 8, 8] [1, 1, 1, 1]
// With stride 2 each tap's window is a strided view of the padded image,
// copied into its plane of the im2col matrix (the copies read strided rows
// as vectors: one read of the span and a shuffle).
// CHECK: tensor.empty() : tensor<1x1x3x3x3x4x4xf32>
// CHECK-NOT: linalg.copy
// CHECK: tensor.extract_slice %[[PAD]][0, 0, 0, 0] [1, 3, 4, 4] [1, 1, 2, 2]
// CHECK: tensor.insert_slice %{{.*}}[0, 0, 0, 0, 0, 0, 0] [1, 1, 3, 1, 1, 4, 4] [1, 1, 1, 1, 1, 1, 1]
// CHECK: tensor.extract_slice %[[PAD]][0, 0, 0, 1] [1, 3, 4, 4] [1, 1, 2, 2]
// CHECK: tensor.extract_slice %[[PAD]][0, 0, 2, 2] [1, 3, 4, 4] [1, 1, 2, 2]
// CHECK: %[[COL:.*]] = tensor.insert_slice %{{.*}}[0, 0, 0, 2, 2, 0, 0] [1, 1, 3, 1, 1, 4, 4]
// CHECK: tensor.collapse_shape %[[COL]] {{.*}} into tensor<1x1x27x16xf32>
// CHECK: %[[W:.*]] = tensor.collapse_shape {{.*}} into tensor<4x27xf32>
// CHECK: %[[C:.*]] = tensor.collapse_shape {{.*}} into tensor<27x16xf32>
// CHECK: %[[OUT:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[W]], %[[C]] : tensor<4x27xf32>, tensor<27x16xf32>) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK: tensor.expand_shape %[[OUT]] {{.*}} into tensor<1x4x4x4xf32>
relay.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  relay.return %y : tensor<1x4x4x4xf32>
}

// Depthwise: 4 groups of one channel, summed directly over the nine taps
// (strided views of the image, a weight per channel each) in fused
// multiply-adds; a 1x1 convolution reads its input in place (no im2col
// copy).
// CHECK-LABEL: func.func @depthwise_then_pointwise(
// CHECK-COUNT-9: tensor.extract_slice %arg0[0, 0, {{[0-2]}}, {{[0-2]}}] [1, 4, 6, 6] [1, 1, 1, 1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]{{.*}} outs(%{{.*}} : tensor<1x4x6x6xf32>)
// CHECK: arith.mulf
// CHECK-COUNT-8: math.fma
// CHECK-NOT: tensor<1x4x1x3x3x6x6xf32>
// CHECK-NOT: tensor<1x1x8x1x1x6x6xf32>
// CHECK: tensor.expand_shape %{{.*}} into tensor<1x1x4x6x6xf32>
// A spatial size of 36 is padded to 48 columns, and sliced back.
// CHECK: tensor.pad %{{.*}} low[0, 0] high[0, 12]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x48xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [2, 36] [1, 1] : tensor<2x48xf32> to tensor<2x36xf32>
relay.func @depthwise_then_pointwise(%x: tensor<1x4x8x8xf32>, %w: tensor<4x1x3x3xf32>, %p: tensor<2x4x1x1xf32>) -> tensor<1x2x6x6xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  %z = relay.nn.conv2d %y, %p : (tensor<1x4x6x6xf32>, tensor<2x4x1x1xf32>) -> tensor<1x2x6x6xf32>
  relay.return %z : tensor<1x2x6x6xf32>
}

// Strides step the taps' views: strided views of the image, read directly
// (up to stride 4 a strided row is one vector read and a shuffle). Max
// pooling takes the same tap form.
// CHECK-LABEL: func.func @depthwise_strided(
// CHECK-NOT: linalg.copy
// CHECK-COUNT-9: tensor.extract_slice %arg0[0, 0, {{[0-2]}}, {{[0-2]}}] [1, 4, 3, 3] [1, 1, 2, 2] : tensor<1x4x8x8xf32> to tensor<1x4x3x3xf32>
// CHECK-NOT: tensor<1x4x1x3x3x3x3xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x3x3xf32>)
// CHECK-COUNT-4: tensor.extract_slice %{{.*}} [1, 4, 2, 2] [1, 1, 2, 2]
// CHECK: linalg.generic
// CHECK-COUNT-3: arith.maximumf
// CHECK-NOT: linalg.pooling_nchw_max
relay.func @depthwise_strided(%x: tensor<1x4x8x8xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x2x2xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32>
  %z = relay.nn.max_pool2d %y {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<1x4x3x3xf32>) -> tensor<1x4x2x2xf32>
  relay.return %z : tensor<1x4x2x2xf32>
}

// Strides above 4: with more taps (36) than stride phases (25), each phase
// used is copied out once, strided, and the taps are unit-stride views of
// their phase.
// CHECK-LABEL: func.func @conv_stride_5(
// CHECK: %[[P00:.*]] = tensor.extract_slice %arg0[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 5, 5]
// CHECK: linalg.copy ins(%[[P00]] : tensor<1x2x4x4xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 1, 1] [1, 2, 3, 3] [1, 1, 1, 1] : tensor<1x2x4x4xf32> to tensor<1x2x3x3xf32>
relay.func @conv_stride_5(%x: tensor<1x2x16x16xf32>, %w: tensor<3x2x6x6xf32>) -> tensor<1x3x3x3xf32> {
  %y = relay.nn.conv2d %x, %w {strides = array<i64: 5, 5>} : (tensor<1x2x16x16xf32>, tensor<3x2x6x6xf32>) -> tensor<1x3x3x3xf32>
  relay.return %y : tensor<1x3x3x3xf32>
}

// Integers (int8 into int32) take the im2col product of integers
// (nn-ops.mlir checks it), not the float kernels or the named convolution.
// CHECK-LABEL: func.func @conv_int8(
// CHECK-NOT: linalg.conv_2d
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.muli
relay.func @conv_int8(%x: tensor<1x3x4x4xi8>, %w: tensor<2x3x3x3xi8>) -> tensor<1x2x2x2xi32> {
  %y = relay.nn.conv2d %x, %w {out_dtype = i32} : (tensor<1x3x4x4xi8>, tensor<2x3x3x3xi8>) -> tensor<1x2x2x2xi32>
  relay.return %y : tensor<1x2x2x2xi32>
}

// Tuples flatten into the values of their fields: in signatures, results,
// projections, and the operators with tuple operands or results.
// CHECK-LABEL: func.func @tuples(
// CHECK-SAME: %[[X:.*]]: tensor<2x6xf32>, %[[Y:.*]]: tensor<3xf32>) -> (tensor<2x2xf32>, tensor<2x6xf32>, tensor<3xf32>)
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[X]][0, 0] [2, 2] [1, 1]
// CHECK: %[[S2:.*]] = tensor.extract_slice %[[X]][0, 4] [2, 2] [1, 1]
// CHECK: tensor.insert_slice %[[S2]] into %{{.*}}[0, 0] [2, 2] [1, 1]
// CHECK: tensor.insert_slice %[[S0]] into %{{.*}}[0, 2] [2, 2] [1, 1]
// CHECK: %[[C:.*]] = tensor.insert_slice %[[S0]] into %{{.*}}[0, 4] [2, 2] [1, 1]
// CHECK: return %[[S0]], %[[C]], %[[Y]]
relay.func @tuples(%p: tuple<tensor<2x6xf32>, tensor<3xf32>>) -> tuple<tensor<2x2xf32>, tuple<tensor<2x6xf32>, tensor<3xf32>>> {
  %x = relay.tuple_get %p[0] : tuple<tensor<2x6xf32>, tensor<3xf32>>
  %y = relay.tuple_get %p[1] : tuple<tensor<2x6xf32>, tensor<3xf32>>
  %s = relay.split %x {indices_or_sections = 3 : i64, axis = 1 : i64} : (tensor<2x6xf32>) -> tuple<tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>>
  %s0 = relay.tuple_get %s[0] : tuple<tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>>
  %s2 = relay.tuple_get %s[2] : tuple<tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>>
  %t = relay.tuple(%s2, %s0, %s0 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  %c = relay.concatenate %t {axis = 1 : i64} : (tuple<tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>>) -> tensor<2x6xf32>
  %inner = relay.tuple(%c, %y : tensor<2x6xf32>, tensor<3xf32>)
  %r = relay.tuple(%s0, %inner : tensor<2x2xf32>, tuple<tensor<2x6xf32>, tensor<3xf32>>)
  relay.return %r : tuple<tensor<2x2xf32>, tuple<tensor<2x6xf32>, tensor<3xf32>>>
}

// Tests that a concatenation of more than 16 inputs is a tensor.concat (a
// copy of each input once bufferized) rather than a chain of inserted
// slices, whose bufferization analysis grows faster than quadratically.
// CHECK-LABEL: func.func @concatenate_many(
// CHECK-NOT: tensor.insert_slice
// CHECK: tensor.concat dim(1)
// CHECK-SAME: -> tensor<2x17xf32>
relay.func @concatenate_many(%x: tensor<2x1xf32>) -> tensor<2x17xf32> {
  %t = relay.tuple(%x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x : tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  %c = relay.concatenate %t {axis = 1 : i64} : (tuple<tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>>) -> tensor<2x17xf32>
  relay.return %c : tensor<2x17xf32>
}

// Tests that a stack of more than 16 inputs is a tensor.concat too, each
// input given its unit axis by an expand_shape (grouped with its
// neighbour, the last axis too; a scalar's group is empty).
// CHECK-LABEL: func.func @stack_many(
// CHECK-NOT: tensor.insert_slice
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0], [1, 2]] output_shape [3, 1, 2] : tensor<3x2xf32> into tensor<3x1x2xf32>
// CHECK: tensor.concat dim(1)
// CHECK-SAME: -> tensor<3x17x2xf32>
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0], [1, 2]] output_shape [3, 2, 1] : tensor<3x2xf32> into tensor<3x2x1xf32>
// CHECK: tensor.concat dim(2)
// CHECK-SAME: -> tensor<3x2x17xf32>
// CHECK: tensor.expand_shape %arg1 [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK: tensor.concat dim(0)
// CHECK-SAME: -> tensor<17xf32>
relay.func @stack_many(%x: tensor<3x2xf32>, %s: tensor<f32>) -> tuple<tensor<3x17x2xf32>, tensor<3x2x17xf32>, tensor<17xf32>> {
  %t = relay.tuple(%x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x : tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>)
  %c = relay.stack %t {axis = 1 : i64} : (tuple<tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>>) -> tensor<3x17x2xf32>
  %i = relay.stack %t {axis = 2 : i64} : (tuple<tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>>) -> tensor<3x2x17xf32>
  %u = relay.tuple(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
  %d = relay.stack %u {axis = 0 : i64} : (tuple<tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>>) -> tensor<17xf32>
  %r = relay.tuple(%c, %i, %d : tensor<3x17x2xf32>, tensor<3x2x17xf32>, tensor<17xf32>)
  relay.return %r : tuple<tensor<3x17x2xf32>, tensor<3x2x17xf32>, tensor<17xf32>>
}

// Tests that take with batch_dims reads its indices at the output's batch
// axes and the axes after `axis`, and data at the batch axes, the clamped
// index and the rest.
// CHECK-LABEL: func.func @take_batch_dims(
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<2x5x6xi64>) outs(%{{.*}} : tensor<2x3x5x6xf32>)
// CHECK: %[[I:.*]] = arith.maxsi
// CHECK: %[[B:.*]] = linalg.index 0
// CHECK: %[[R:.*]] = linalg.index 1
// CHECK: tensor.extract %{{.*}}[%[[B]], %[[R]], %[[I]]] : tensor<2x3x4xf32>
relay.func @take_batch_dims(%x: tensor<2x3x4xf32>, %i: tensor<2x5x6xi64>) -> tensor<2x3x5x6xf32> {
  %t = relay.take %x, %i {axis = 2 : i64, batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x6xi64>) -> tensor<2x3x5x6xf32>
  relay.return %t : tensor<2x3x5x6xf32>
}

// A function whose self-calls are all tail calls becomes a loop: the
// arguments are carried, `if` branches say whether to go round again, and
// the result comes out of the loop (no recursion, constant stack).
// CHECK-LABEL: func.func @count(
// CHECK-SAME: %[[N:.*]]: tensor<i32>, %[[ACC:.*]]: tensor<i32>) -> tensor<i32>
// CHECK: %[[LOOP:.*]]:3 = scf.while (%[[A:.*]] = %[[N]], %[[B:.*]] = %[[ACC]]) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>)
// CHECK:   %[[R:.*]]:4 = scf.if
// CHECK:     %[[TRUE:.*]] = arith.constant true
// CHECK:     scf.yield %[[TRUE]]
// CHECK:   } else {
// CHECK:     %[[FALSE:.*]] = arith.constant false
// CHECK:     scf.yield %[[FALSE]], %[[A]], %[[B]], %[[B]]
// CHECK:   scf.condition(%[[R]]#0) %[[R]]#1, %[[R]]#2, %[[R]]#3
// CHECK: } do {
// CHECK: ^bb0(%[[X:.*]]: tensor<i32>, %[[Y:.*]]: tensor<i32>, %{{.*}}: tensor<i32>):
// CHECK:   scf.yield %[[X]], %[[Y]]
// CHECK: return %[[LOOP]]#2
// CHECK-NOT: call @count
relay.func @count(%n: tensor<i32>, %acc: tensor<i32>) -> tensor<i32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %more = relay.greater %n, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %more : tensor<i1> -> tensor<i32> {
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %a = relay.add %acc, %n : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %c = relay.call @count(%m, %a) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    relay.yield %c : tensor<i32>
  } else {
    relay.yield %acc : tensor<i32>
  }
  relay.return %r : tensor<i32>
}

// A one-row dense layer is a split reduction along the weights' rows:
// partial[n, j] = sum_kk x[kk*16 + j] * w[n, kk*16 + j], then the sum over j.
// CHECK-LABEL: func.func @one_row_dense(
// CHECK: %[[X:.*]] = tensor.collapse_shape %{{.*}} into tensor<4x16xf32>
// CHECK: %[[W:.*]] = tensor.expand_shape %{{.*}} output_shape [8, 4, 16] : tensor<8x64xf32> into tensor<8x4x16xf32>
// CHECK: %[[P:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[X]], %[[W]] : tensor<4x16xf32>, tensor<8x4x16xf32>) outs(%{{.*}} : tensor<8x16xf32>)
// CHECK: %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[P]] : tensor<8x16xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK: tensor.expand_shape %[[S]] {{.*}} into tensor<1x8xf32>
relay.func @one_row_dense(%x: tensor<1x64xf32>, %w: tensor<8x64xf32>) -> tensor<1x8xf32> {
  %y = relay.nn.dense %x, %w : (tensor<1x64xf32>, tensor<8x64xf32>) -> tensor<1x8xf32>
  relay.return %y : tensor<1x8xf32>
}

// Awkward product extents are padded to whole register tiles and the
// result sliced back: 23 rows (no divisor that gives a register tile of 10
// or more accumulators) to 24, 24 columns to two whole vectors (32). The
// padding is left undefined, not filled: its results are sliced off.
// CHECK-LABEL: func.func @awkward_dense(
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 0] [23, 64] [1, 1] : tensor<23x64xf32> into tensor<24x64xf32>
// CHECK: %[[PW:.*]] = tensor.insert_slice %arg1 into %{{.*}}[0, 0] [24, 64] [1, 1] : tensor<24x64xf32> into tensor<32x64xf32>
// CHECK: linalg.transpose ins(%[[PW]] : tensor<32x64xf32>) outs(%{{.*}} : tensor<64x32xf32>) permutation = [1, 0]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<24x32xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [23, 24] [1, 1] : tensor<24x32xf32> to tensor<23x24xf32>
relay.func @awkward_dense(%x: tensor<23x64xf32>, %w: tensor<24x64xf32>) -> tensor<23x24xf32> {
  %y = relay.nn.dense %x, %w : (tensor<23x64xf32>, tensor<24x64xf32>) -> tensor<23x24xf32>
  relay.return %y : tensor<23x24xf32>
}

// Tests that rows whose divisor gives register tiles of 10 accumulators (20
// rows: 5-row tiles of two zmm vectors) are not padded.
// CHECK-LABEL: func.func @rows_with_tile_divisor(
// CHECK-NOT: tensor.pad %arg0
// CHECK: linalg.generic {{.*}} ins(%arg0, %{{.*}} : tensor<20x64xf32>, tensor<64x32xf32>) outs(%{{.*}} : tensor<20x32xf32>)
relay.func @rows_with_tile_divisor(%x: tensor<20x64xf32>, %w: tensor<32x64xf32>) -> tensor<20x32xf32> {
  %y = relay.nn.dense %x, %w : (tensor<20x64xf32>, tensor<32x64xf32>) -> tensor<20x32xf32>
  relay.return %y : tensor<20x32xf32>
}

// The product's vectors run along n: a weight [n, k] (or batch_matmul's
// transposed B) is copied to [k, n] first when the product has 4 rows or
// more, so that they are contiguous loads; the copy reads it once.
// CHECK-LABEL: func.func @dense_rows(
// CHECK: %[[WT:.*]] = linalg.transpose ins(%arg1 : tensor<32x64xf32>) outs(%{{.*}} : tensor<64x32xf32>) permutation = [1, 0]
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[WT]] : tensor<8x64xf32>, tensor<64x32xf32>)
relay.func @dense_rows(%x: tensor<8x64xf32>, %w: tensor<32x64xf32>) -> tensor<8x32xf32> {
  %d = relay.nn.dense %x, %w : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
  relay.return %d : tensor<8x32xf32>
}

// CHECK-LABEL: func.func @batch_matmul_rows(
// CHECK: %[[BT:.*]] = linalg.transpose ins(%arg1 : tensor<2x16x64xf32>) outs(%{{.*}} : tensor<2x64x16xf32>) permutation = [0, 2, 1]
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[BT]] : tensor<2x8x64xf32>, tensor<2x64x16xf32>)
relay.func @batch_matmul_rows(%a: tensor<2x8x64xf32>, %b: tensor<2x16x64xf32>) -> tensor<2x8x16xf32> {
  %m = relay.nn.batch_matmul %a, %b {transpose_b = true} : (tensor<2x8x64xf32>, tensor<2x16x64xf32>) -> tensor<2x8x16xf32>
  relay.return %m : tensor<2x8x16xf32>
}

// Two rows: the weight is read as it is.
// CHECK-LABEL: func.func @dense_two_rows(
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<2x64xf32>, tensor<32x64xf32>)
relay.func @dense_two_rows(%y: tensor<2x64xf32>, %w: tensor<32x64xf32>) -> tensor<2x32xf32> {
  %e = relay.nn.dense %y, %w : (tensor<2x64xf32>, tensor<32x64xf32>) -> tensor<2x32xf32>
  relay.return %e : tensor<2x32xf32>
}

// An im2col matrix over 2 MB (144 taps x 64x64 positions, 2.4 MB) is built
// and multiplied a band of output rows at a time (16 rows: at most 1 MB),
// each band reading the 18 input rows its windows cover. The bands are
// independent (marked for --relay-parallelize-loops).
// CHECK-LABEL: func.func @conv_in_bands(
// CHECK: %[[R:.*]] = scf.for %[[ROW:.*]] = %c0 to %c64 step %c16 iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1x8x64x64xf32>)
// CHECK:   tensor.extract_slice %arg0[0, 0, %[[ROW]], 0] [1, 16, 18, 66] [1, 1, 1, 1]
// CHECK:   tensor.empty() : tensor<1x1x16x3x3x16x64xf32>
// CHECK:   linalg.generic {{.*}} outs(%{{.*}} : tensor<8x1024xf32>)
// CHECK:   %[[IN:.*]] = tensor.insert_slice %{{.*}} into %[[ACC]][0, 0, %[[ROW]], 0] [1, 8, 16, 64] [1, 1, 1, 1]
// CHECK:   scf.yield %[[IN]]
// CHECK: } {relay.independent_iterations}
// CHECK: return %[[R]]
relay.func @conv_in_bands(%x: tensor<1x16x66x66xf32>, %w: tensor<8x16x3x3xf32>) -> tensor<1x8x64x64xf32> {
  %y = relay.nn.conv2d %x, %w : (tensor<1x16x66x66xf32>, tensor<8x16x3x3xf32>) -> tensor<1x8x64x64xf32>
  relay.return %y : tensor<1x8x64x64xf32>
}

// A 1x1 convolution whose product is over 128 KB (96 channels x 56x56,
// 1.2 MB) and whose image does not stay in the L2 cache (48 channels x
// 56x56, 602 KB) goes in bands of output rows: the most rows whose product
// is whole 32-column vectors and at most 128 KB (4 rows: 96 x 224). The
// elementwise op after it can then join each band
// (--relay-fuse-elementwise).
// CHECK-LABEL: func.func @pointwise_in_bands(
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c56 step %c4 iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1x96x56x56xf32>)
// CHECK:   tensor.extract_slice %arg0[0, 0, %[[ROW]], 0] [1, 48, 4, 56] [1, 1, 1, 1]
// CHECK:   linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<96x48xf32>, tensor<48x224xf32>) outs(%{{.*}} : tensor<96x224xf32>)
// CHECK:   tensor.insert_slice %{{.*}} into %[[ACC]][0, 0, %[[ROW]], 0] [1, 96, 4, 56] [1, 1, 1, 1]
// CHECK: } {relay.independent_iterations}
relay.func @pointwise_in_bands(%x: tensor<1x48x56x56xf32>, %w: tensor<96x48x1x1xf32>) -> tensor<1x96x56x56xf32> {
  %y = relay.nn.conv2d %x, %w : (tensor<1x48x56x56xf32>, tensor<96x48x1x1xf32>) -> tensor<1x96x56x56xf32>
  relay.return %y : tensor<1x96x56x56xf32>
}

// With an image that stays in the L2 cache (24 channels x 56x56, 301 KB),
// bands of output channels instead: 8 channel planes (100 KB) each, the
// blocks a depthwise convolution of those planes takes too.
// CHECK-LABEL: func.func @pointwise_channel_bands(
// CHECK: scf.for %[[F:.*]] = %c0 to %c144 step %c8 iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1x144x56x56xf32>)
// CHECK:   tensor.extract_slice %arg1[%[[F]], 0, 0, 0] [8, 24, 1, 1] [1, 1, 1, 1]
// CHECK:   linalg.generic {{.*}} outs(%{{.*}} : tensor<8x3136xf32>)
// CHECK:   tensor.insert_slice %{{.*}} into %[[ACC]][0, %[[F]], 0, 0] [1, 8, 56, 56] [1, 1, 1, 1]
// CHECK: } {relay.independent_iterations}
relay.func @pointwise_channel_bands(%x: tensor<1x24x56x56xf32>, %w: tensor<144x24x1x1xf32>) -> tensor<1x144x56x56xf32> {
  %y = relay.nn.conv2d %x, %w : (tensor<1x24x56x56xf32>, tensor<144x24x1x1xf32>) -> tensor<1x144x56x56xf32>
  relay.return %y : tensor<1x144x56x56xf32>
}

// A small im2col matrix (27 taps x 32x32) with a product over 128 KB (40
// channels x 32x32): bands of the product's size (16 rows, 512 columns),
// each building its own slice of the im2col matrix.
// CHECK-LABEL: func.func @im2col_product_bands(
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK:   tensor.empty() : tensor<1x1x3x3x3x16x32xf32>
// CHECK:   linalg.generic {{.*}} outs(%{{.*}} : tensor<40x512xf32>)
// CHECK: } {relay.independent_iterations}
relay.func @im2col_product_bands(%x: tensor<1x3x34x34xf32>, %w: tensor<40x3x3x3xf32>) -> tensor<1x40x32x32xf32> {
  %y = relay.nn.conv2d %x, %w : (tensor<1x3x34x34xf32>, tensor<40x3x3x3xf32>) -> tensor<1x40x32x32xf32>
  relay.return %y : tensor<1x40x32x32xf32>
}

// A 1x1 convolution whose result goes, through its bias and ReLU6, only
// into a depthwise convolution that takes row bands (a 4.8 MB image) is
// one product, not banded: --relay-fuse-elementwise computes it window by
// window in the depthwise convolution's bands. With a use outside the
// chain (here a pooling) it is banded as usual.
// CHECK-LABEL: func.func @pointwise_feeds_depthwise_bands(
// CHECK-NOT: scf.for
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<96x12544xf32>)
// CHECK: scf.for {{.*}} step %c4
// CHECK: } {relay.image_windows, relay.independent_iterations, relay.row_kernel}
relay.func @pointwise_feeds_depthwise_bands(%x: tensor<1x16x112x112xf32>, %w: tensor<96x16x1x1xf32>, %b: tensor<96xf32>, %k: tensor<96x1x3x3xf32>) -> tensor<1x96x56x56xf32> {
  %e = relay.nn.conv2d %x, %w : (tensor<1x16x112x112xf32>, tensor<96x16x1x1xf32>) -> tensor<1x96x112x112xf32>
  %eb = relay.nn.bias_add %e, %b : (tensor<1x96x112x112xf32>, tensor<96xf32>) -> tensor<1x96x112x112xf32>
  %ec = relay.clip %eb {a_max = 6.000000e+00 : f64, a_min = 0.000000e+00 : f64} : (tensor<1x96x112x112xf32>) -> tensor<1x96x112x112xf32>
  %y = relay.nn.conv2d %ec, %k {groups = 96 : i64, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x96x112x112xf32>, tensor<96x1x3x3xf32>) -> tensor<1x96x56x56xf32>
  relay.return %y : tensor<1x96x56x56xf32>
}
// CHECK-LABEL: func.func @pointwise_two_users(
// CHECK: scf.for {{.*}} step %c2
// CHECK:   linalg.generic {{.*}} outs(%{{.*}} : tensor<96x224xf32>)
// CHECK: } {relay.independent_iterations}
relay.func @pointwise_two_users(%x: tensor<1x16x112x112xf32>, %w: tensor<96x16x1x1xf32>, %k: tensor<96x1x3x3xf32>) -> tensor<1x96x56x56xf32> {
  %e = relay.nn.conv2d %x, %w : (tensor<1x16x112x112xf32>, tensor<96x16x1x1xf32>) -> tensor<1x96x112x112xf32>
  %y = relay.nn.conv2d %e, %k {groups = 96 : i64, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x96x112x112xf32>, tensor<96x1x3x3xf32>) -> tensor<1x96x56x56xf32>
  %p = relay.nn.max_pool2d %e {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x96x112x112xf32>) -> tensor<1x96x56x56xf32>
  %r = relay.add %y, %p : (tensor<1x96x56x56xf32>, tensor<1x96x56x56xf32>) -> tensor<1x96x56x56xf32>
  relay.return %r : tensor<1x96x56x56xf32>
}

// The elementwise ops between may read the product more than once (a
// SiLU, x * sigmoid(x)): still one product.
// CHECK-LABEL: func.func @pointwise_silu_feeds_depthwise_bands(
// CHECK-NOT: scf.for
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<96x12544xf32>)
relay.func @pointwise_silu_feeds_depthwise_bands(%x: tensor<1x16x112x112xf32>, %w: tensor<96x16x1x1xf32>, %k: tensor<96x1x3x3xf32>) -> tensor<1x96x56x56xf32> {
  %e = relay.nn.conv2d %x, %w : (tensor<1x16x112x112xf32>, tensor<96x16x1x1xf32>) -> tensor<1x96x112x112xf32>
  %s = relay.sigmoid %e : (tensor<1x96x112x112xf32>) -> tensor<1x96x112x112xf32>
  %m = relay.multiply %e, %s : (tensor<1x96x112x112xf32>, tensor<1x96x112x112xf32>) -> tensor<1x96x112x112xf32>
  %y = relay.nn.conv2d %m, %k {groups = 96 : i64, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x96x112x112xf32>, tensor<96x1x3x3xf32>) -> tensor<1x96x56x56xf32>
  relay.return %y : tensor<1x96x56x56xf32>
}

// Tests that a 1x1 convolution whose input stays in the cache (160
// channels of 24x24, 368 KB) goes in bands of 48 output channels and the
// depthwise convolution of its 2.2 MB image in the matching channel blocks
// (the two loops merge in --relay-fuse-elementwise), not in row bands,
// whose windows compute their rows above and below again.
// CHECK-LABEL: func.func @pointwise_in_channel_bands(
// CHECK: scf.for %{{.*}} = %c0 to %c960 step %c48
// CHECK:   linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<48x160xf32>, tensor<160x576xf32>)
// CHECK: } {relay.independent_iterations}
// CHECK: scf.for %{{.*}} to %{{.*}} step %c48
// CHECK-NOT: relay.image_windows
// CHECK: } {relay.independent_iterations, relay.row_kernel}
relay.func @pointwise_in_channel_bands(%x: tensor<1x160x24x24xf32>, %w: tensor<960x160x1x1xf32>, %k: tensor<960x1x3x3xf32>) -> tensor<1x960x24x24xf32> {
  %e = relay.nn.conv2d %x, %w : (tensor<1x160x24x24xf32>, tensor<960x160x1x1xf32>) -> tensor<1x960x24x24xf32>
  %s = relay.sigmoid %e : (tensor<1x960x24x24xf32>) -> tensor<1x960x24x24xf32>
  %m = relay.multiply %e, %s : (tensor<1x960x24x24xf32>, tensor<1x960x24x24xf32>) -> tensor<1x960x24x24xf32>
  %y = relay.nn.conv2d %m, %k {groups = 960 : i64, padding = array<i64: 1, 1>} : (tensor<1x960x24x24xf32>, tensor<960x1x3x3xf32>) -> tensor<1x960x24x24xf32>
  relay.return %y : tensor<1x960x24x24xf32>
}

// A 3x3 convolution feeding such a depthwise convolution keeps its bands
// (its im2col matrix is built band by band).
// CHECK-LABEL: func.func @conv3x3_feeds_depthwise_bands(
// CHECK: scf.for
// CHECK: } {relay.independent_iterations}
// CHECK: } {relay.image_windows, relay.independent_iterations, relay.row_kernel}
relay.func @conv3x3_feeds_depthwise_bands(%x: tensor<1x3x226x226xf32>, %w: tensor<32x3x3x3xf32>, %k: tensor<32x1x3x3xf32>) -> tensor<1x32x112x112xf32> {
  %e = relay.nn.conv2d %x, %w : (tensor<1x3x226x226xf32>, tensor<32x3x3x3xf32>) -> tensor<1x32x224x224xf32>
  %y = relay.nn.conv2d %e, %k {groups = 32 : i64, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x32x224x224xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x112x112xf32>
  relay.return %y : tensor<1x32x112x112xf32>
}

// Within 128 KB (8 channels x 56x56, 100 KB) the product is one.
// CHECK-LABEL: func.func @pointwise_whole(
// CHECK-NOT: scf.for
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<8x3136xf32>)
relay.func @pointwise_whole(%x: tensor<1x24x56x56xf32>, %w: tensor<8x24x1x1xf32>) -> tensor<1x8x56x56xf32> {
  %y = relay.nn.conv2d %x, %w : (tensor<1x24x56x56xf32>, tensor<8x24x1x1xf32>) -> tensor<1x8x56x56xf32>
  relay.return %y : tensor<1x8x56x56xf32>
}

// Tests that stack along a new innermost axis is one generic that reads
// every input at each position and selects by the innermost index (inserted
// slices there would be strided in the innermost dimension, and their
// producers would write through that stride), and along an outer axis
// inserts each input as a slice.
// CHECK-LABEL: func.func @stack_innermost(
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME: ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK: linalg.index 2
// CHECK: arith.select
// CHECK: arith.select
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0] [1, 2, 4] [1, 1, 1] : tensor<2x4xf32> into tensor<3x2x4xf32>
relay.func @stack_innermost(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tuple<tensor<2x4x3xf32>, tensor<3x2x4xf32>> {
  %t = relay.tuple(%a, %b, %c : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
  %s = relay.stack %t {axis = 2 : i64} : (tuple<tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>>) -> tensor<2x4x3xf32>
  %o = relay.stack %t {axis = 0 : i64} : (tuple<tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>>) -> tensor<3x2x4xf32>
  %r = relay.tuple(%s, %o : tensor<2x4x3xf32>, tensor<3x2x4xf32>)
  relay.return %r : tuple<tensor<2x4x3xf32>, tensor<3x2x4xf32>>
}

// Tests that a stack of windows of one tensor on a grid (a weight
// gradient's im2col matrix: the 3x3 taps of an image, tap t at row t / 3
// and column t % 3) is one generic reading each window where the stack
// writes it, its result's stacked axis split into the grid's two; windows
// moving along one axis, one generic too; slices of different tensors stay
// inserted slices.
// (The windows' values: test/tools/relay-run/stacked-windows.test.)
// CHECK-LABEL: func.func @stacked_windows(
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<3x2x6x6xf32>) outs(%{{.*}} : tensor<3x3x3x2x4x4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]]
// CHECK: tensor.collapse_shape %[[G]] {{\[}}[0], [1, 2], [3], [4], [5]] : tensor<3x3x3x2x4x4xf32> into tensor<3x9x2x4x4xf32>
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<4x5x9xf32>) outs(%{{.*}} : tensor<2x1x3x5x4xf32>)
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0] [1, 2, 2] [1, 1, 1] : tensor<2x2xf32> into tensor<2x2x2xf32>
relay.func @stacked_windows(%x: tensor<3x2x6x6xf32>, %y: tensor<4x5x9xf32>, %z: tensor<4x4xf32>) -> tuple<tensor<3x9x2x4x4xf32>, tensor<2x3x5x4xf32>, tensor<2x2x2xf32>> {
  %s0 = relay.strided_slice %x {begin = array<i64: 0, 0, 0, 0>, end = array<i64: 3, 2, 4, 4>} : (tensor<3x2x6x6xf32>) -> tensor<3x2x4x4xf32>
  %s1 = relay.strided_slice %x {begin = array<i64: 0, 0, 0, 1>, end = array<i64: 3, 2, 4, 5>} : (tensor<3x2x6x6xf32>) -> tensor<3x2x4x4xf32>
  %s2 = relay.strided_slice %x {begin = array<i64: 0, 0, 0, 2>, end = array<i64: 3, 2, 4, 6>} : (tensor<3x2x6x6xf32>) -> tensor<3x2x4x4xf32>
  %s3 = relay.strided_slice %x {begin = array<i64: 0, 0, 1, 0>, end = array<i64: 3, 2, 5, 4>} : (tensor<3x2x6x6xf32>) -> tensor<3x2x4x4xf32>
  %s4 = relay.strided_slice %x {begin = array<i64: 0, 0, 1, 1>, end = array<i64: 3, 2, 5, 5>} : (tensor<3x2x6x6xf32>) -> tensor<3x2x4x4xf32>
  %s5 = relay.strided_slice %x {begin = array<i64: 0, 0, 1, 2>, end = array<i64: 3, 2, 5, 6>} : (tensor<3x2x6x6xf32>) -> tensor<3x2x4x4xf32>
  %s6 = relay.strided_slice %x {begin = array<i64: 0, 0, 2, 0>, end = array<i64: 3, 2, 6, 4>} : (tensor<3x2x6x6xf32>) -> tensor<3x2x4x4xf32>
  %s7 = relay.strided_slice %x {begin = array<i64: 0, 0, 2, 1>, end = array<i64: 3, 2, 6, 5>} : (tensor<3x2x6x6xf32>) -> tensor<3x2x4x4xf32>
  %s8 = relay.strided_slice %x {begin = array<i64: 0, 0, 2, 2>, end = array<i64: 3, 2, 6, 6>} : (tensor<3x2x6x6xf32>) -> tensor<3x2x4x4xf32>
  %t = relay.tuple(%s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7, %s8 : tensor<3x2x4x4xf32>, tensor<3x2x4x4xf32>, tensor<3x2x4x4xf32>, tensor<3x2x4x4xf32>, tensor<3x2x4x4xf32>, tensor<3x2x4x4xf32>, tensor<3x2x4x4xf32>, tensor<3x2x4x4xf32>, tensor<3x2x4x4xf32>)
  %taps = relay.stack %t {axis = 1 : i64} : (tuple<tensor<3x2x4x4xf32>, tensor<3x2x4x4xf32>, tensor<3x2x4x4xf32>, tensor<3x2x4x4xf32>, tensor<3x2x4x4xf32>, tensor<3x2x4x4xf32>, tensor<3x2x4x4xf32>, tensor<3x2x4x4xf32>, tensor<3x2x4x4xf32>>) -> tensor<3x9x2x4x4xf32>
  %r0 = relay.strided_slice %y {begin = array<i64: 1, 0, 1>, end = array<i64: 3, 5, 5>} : (tensor<4x5x9xf32>) -> tensor<2x5x4xf32>
  %r1 = relay.strided_slice %y {begin = array<i64: 1, 0, 3>, end = array<i64: 3, 5, 7>} : (tensor<4x5x9xf32>) -> tensor<2x5x4xf32>
  %r2 = relay.strided_slice %y {begin = array<i64: 1, 0, 5>, end = array<i64: 3, 5, 9>} : (tensor<4x5x9xf32>) -> tensor<2x5x4xf32>
  %u = relay.tuple(%r0, %r1, %r2 : tensor<2x5x4xf32>, tensor<2x5x4xf32>, tensor<2x5x4xf32>)
  %row = relay.stack %u {axis = 1 : i64} : (tuple<tensor<2x5x4xf32>, tensor<2x5x4xf32>, tensor<2x5x4xf32>>) -> tensor<2x3x5x4xf32>
  %z0 = relay.strided_slice %z {begin = array<i64: 0, 0>, end = array<i64: 2, 2>} : (tensor<4x4xf32>) -> tensor<2x2xf32>
  %z1 = relay.strided_slice %x {begin = array<i64: 0, 0, 0, 0>, end = array<i64: 1, 1, 2, 2>} : (tensor<3x2x6x6xf32>) -> tensor<1x1x2x2xf32>
  %z2 = relay.reshape %z1 {newshape = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>) -> tensor<2x2xf32>
  %v = relay.tuple(%z0, %z2 : tensor<2x2xf32>, tensor<2x2xf32>)
  %other = relay.stack %v {axis = 0 : i64} : (tuple<tensor<2x2xf32>, tensor<2x2xf32>>) -> tensor<2x2x2xf32>
  %r = relay.tuple(%taps, %row, %other : tensor<3x9x2x4x4xf32>, tensor<2x3x5x4xf32>, tensor<2x2x2xf32>)
  relay.return %r : tuple<tensor<3x9x2x4x4xf32>, tensor<2x3x5x4xf32>, tensor<2x2x2xf32>>
}

// Tests that a reshape grouping the dimensions of its input is a
// collapse_shape, one splitting them an expand_shape (views of strided
// buffers too once bufferized), and one that does neither a tensor.reshape.
// CHECK-LABEL: func.func @reshapes(
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1, 2], [3]] : tensor<1x7x7x96xf32> into tensor<49x96xf32>
// CHECK: tensor.expand_shape %[[ROWS]] {{\[}}[0, 1], [2]] output_shape [7, 7, 96] : tensor<49x96xf32> into tensor<7x7x96xf32>
// CHECK: tensor.reshape %{{.*}}(%{{.*}}) : (tensor<7x7x96xf32>, tensor<2xi64>) -> tensor<96x49xf32>
relay.func @reshapes(%x: tensor<1x7x7x96xf32>) -> tensor<96x49xf32> {
  %a = relay.reshape %x {newshape = array<i64: 49, 96>} : (tensor<1x7x7x96xf32>) -> tensor<49x96xf32>
  %b = relay.reshape %a {newshape = array<i64: 7, 7, 96>} : (tensor<49x96xf32>) -> tensor<7x7x96xf32>
  %c = relay.reshape %b {newshape = array<i64: 96, 49>} : (tensor<7x7x96xf32>) -> tensor<96x49xf32>
  relay.return %c : tensor<96x49xf32>
}

// Tests that full and full_like of a fill value in another dtype than the
// result's fill with the value cast as Relay's cast casts it (a gradient's
// fill value in float64 for a float32 tensor; a float into integers).
// CHECK-LABEL: func.func @fill_dtypes(
// CHECK: %[[A:.*]] = tensor.extract %arg0[] : tensor<f64>
// CHECK: %[[AT:.*]] = arith.truncf %[[A]] : f64 to f32
// CHECK: linalg.fill ins(%[[AT]] : f32) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK: %[[B:.*]] = tensor.extract %arg1[] : tensor<f32>
// CHECK: %[[BI:.*]] = arith.fptosi %[[B]] : f32 to i8
// CHECK: linalg.fill ins(%[[BI]] : i8) outs(%{{.*}} : tensor<4xi8>)
relay.func @fill_dtypes(%a: tensor<f64>, %b: tensor<f32>) -> tuple<tensor<2x3xf32>, tensor<4xi8>> {
  %f = relay.full %a {shape = array<i64: 2, 3>, dtype = f32} : (tensor<f64>) -> tensor<2x3xf32>
  %z = relay.zeros {shape = array<i64: 4>, dtype = i8} : () -> tensor<4xi8>
  %g = relay.full_like %z, %b : (tensor<4xi8>, tensor<f32>) -> tensor<4xi8>
  %r = relay.tuple(%f, %g : tensor<2x3xf32>, tensor<4xi8>)
  relay.return %r : tuple<tensor<2x3xf32>, tensor<4xi8>>
}
