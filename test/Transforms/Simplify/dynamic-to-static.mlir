// RUN: relay-mlir-opt %s --split-input-file --relay-dynamic-to-static | FileCheck %s
// RUN: relay-mlir-opt %s --split-input-file --relay-dynamic-to-static="refine-signatures=true" | FileCheck %s --check-prefix=REFINE
// RUN: relay-mlir-opt %s --split-input-file --relay-fold-constant --relay-dynamic-to-static | FileCheck %s --check-prefix=FOLDED

// Tests that the dyn operators whose shape operands are constants become
// their static forms, and that what follows from their results (an add)
// is typed static again; the public function keeps its declared results
// (its callers' view) unless refine-signatures is set.
// CHECK-LABEL: relay.func @constants(
// CHECK-SAME: -> tuple<tensor<?x?xf32>, tensor<?x?xi32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<2x?xf32>, tensor<?xf32>>
// REFINE-LABEL: relay.func @constants(
// REFINE-SAME: -> tuple<tensor<3x2xf32>, tensor<2x2xi32>, tensor<4x3xf32>, tensor<1x3xf32>, tensor<2x2xf32>, tensor<4xf32>>
// CHECK-NOT: relay.dyn.
// CHECK-NOT: relay.arange
// CHECK: relay.reshape %x {newshape = array<i64: 3, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK: relay.add {{.*}} : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK: relay.full {{.*}}shape = array<i64: 2, 2>{{.*}} -> tensor<2x2xi32>
// CHECK: relay.tile %x {reps = array<i64: 2, 1>}
// CHECK: relay.strided_slice %x {begin = array<i64: 1, 0>, end = array<i64: 2, 3>, {{.*}}strides = array<i64: 1, 1>}
// CHECK: relay.topk %x {{{.*}}k = 2 : i64{{.*}}} : (tensor<2x3xf32>) -> tensor<2x2xf32>
// CHECK: relay.constant dense<[0.000000e+00, 5.000000e-01, 1.000000e+00, 1.500000e+00]> : tensor<4xf32>
relay.func @constants(%x: tensor<2x3xf32>) -> tuple<tensor<?x?xf32>, tensor<?x?xi32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<2x?xf32>, tensor<?xf32>> {
  %s = relay.constant dense<[3, 2]> : tensor<2xi64>
  %r = relay.dyn.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %r2 = relay.add %r, %r : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %v = relay.constant dense<7> : tensor<i32>
  %two = relay.constant dense<[2, 2]> : tensor<2xi64>
  %f = relay.dyn.full %v, %two : (tensor<i32>, tensor<2xi64>) -> tensor<?x?xi32>
  %reps = relay.constant dense<[2, 1]> : tensor<2xi64>
  %t = relay.dyn.tile %x, %reps : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %b = relay.constant dense<[1, 0]> : tensor<2xi64>
  %e = relay.constant dense<[2, 3]> : tensor<2xi64>
  %one = relay.constant dense<[1, 1]> : tensor<2xi64>
  %sl = relay.dyn.strided_slice %x, %b, %e, %one : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %k = relay.constant dense<2> : tensor<i64>
  %top = relay.dyn.topk %x, %k {axis = 1 : i64, ret_type = "values"} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x?xf32>
  %lo = relay.constant dense<0.0> : tensor<f32>
  %hi = relay.constant dense<2.0> : tensor<f32>
  %st = relay.constant dense<0.5> : tensor<f32>
  %a = relay.arange %lo, %hi, %st {dtype = f32} : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  %out = relay.tuple(%r2, %f, %t, %sl, %top, %a : tensor<?x?xf32>, tensor<?x?xi32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<2x?xf32>, tensor<?xf32>)
  relay.return %out : tuple<tensor<?x?xf32>, tensor<?x?xi32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<2x?xf32>, tensor<?xf32>>
}

// -----

// REFINE-LABEL: relay.func @runtime(
// Tests that shape operands computed at run time stay dynamic, and so does
// a topk longer than the static one takes (64); with --relay-fold-constant
// first, a shape computed from a static type (shape_of) is a constant and
// the reshape is made static.
// CHECK-LABEL: relay.func @runtime(
// CHECK: relay.dyn.reshape %x, %s
// CHECK: relay.dyn.topk
// CHECK: relay.dyn.reshape %x, %{{.*}}
// FOLDED-LABEL: relay.func @runtime(
// FOLDED: relay.dyn.reshape %x, %s
// FOLDED: relay.dyn.topk
// FOLDED: relay.reshape %x {newshape = array<i64: 2, 3>}
relay.func @runtime(%x: tensor<2x3xf32>, %s: tensor<2xi64>, %y: tensor<100xf32>) -> tuple<tensor<?x?xf32>, tensor<?xf32>, tensor<?x?xf32>> {
  %r = relay.dyn.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %k = relay.constant dense<80> : tensor<i64>
  %top = relay.dyn.topk %y, %k {ret_type = "values"} : (tensor<100xf32>, tensor<i64>) -> tensor<?xf32>
  %shape = relay.shape_of %x {dtype = i64} : (tensor<2x3xf32>) -> tensor<2xi64>
  %same = relay.dyn.reshape %x, %shape : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %out = relay.tuple(%r, %top, %same : tensor<?x?xf32>, tensor<?xf32>, tensor<?x?xf32>)
  relay.return %out : tuple<tensor<?x?xf32>, tensor<?xf32>, tensor<?x?xf32>>
}

// -----

// Tests that a private function's results are typed again with its callers
// (a call of it gets the static type), and that an `if` joining branches of
// different sizes keeps its `?` while its branches become static.
// CHECK-LABEL: relay.func private @callee(
// CHECK-SAME: -> tensor<3x2xf32>
// CHECK-LABEL: relay.func @caller(
// CHECK: relay.call @callee(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK: relay.if %c : tensor<i1> -> tensor<?xf32>
// CHECK: relay.reshape {{.*}} -> tensor<6xf32>
// CHECK: } else {
relay.func private @callee(%x: tensor<2x3xf32>) -> tensor<?x?xf32> {
  %s = relay.constant dense<[3, 2]> : tensor<2xi64>
  %r = relay.dyn.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  relay.return %r : tensor<?x?xf32>
}
relay.func @caller(%x: tensor<2x3xf32>, %c: tensor<i1>) -> tuple<tensor<?x?xf32>, tensor<?xf32>> {
  %r = relay.call @callee(%x) : (tensor<2x3xf32>) -> tensor<?x?xf32>
  %j = relay.if %c : tensor<i1> -> tensor<?xf32> {
    %six = relay.constant dense<[6]> : tensor<1xi64>
    %flat = relay.dyn.reshape %x, %six : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?xf32>
    relay.yield %flat : tensor<?xf32>
  } else {
    %z = relay.zeros {shape = array<i64: 4>, dtype = f32} : () -> tensor<4xf32>
    relay.yield %z : tensor<4xf32>
  }
  %out = relay.tuple(%r, %j : tensor<?x?xf32>, tensor<?xf32>)
  relay.return %out : tuple<tensor<?x?xf32>, tensor<?xf32>>
}

// -----

// Tests that an arange longer than a folded constant may be (2^22
// elements) stays to be computed when the program runs.
// CHECK-LABEL: relay.func @long_range(
// CHECK: relay.arange
relay.func @long_range() -> tensor<?xf32> {
  %lo = relay.constant dense<0.0> : tensor<f32>
  %hi = relay.constant dense<1.0e7> : tensor<f32>
  %st = relay.constant dense<1.0> : tensor<f32>
  %a = relay.arange %lo, %hi, %st {dtype = f32} : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  relay.return %a : tensor<?xf32>
}

// -----

// Tests that dyn.image.resize2d of a constant size becomes image.resize2d
// with its attributes, typed static.
// CHECK-LABEL: relay.func @resize(
// CHECK-NOT: relay.dyn.
// CHECK: relay.image.resize2d %x {coordinate_transformation_mode = "asymmetric", method = "nearest_neighbor", rounding_method = "floor", size = array<i64: 6, 4>} : (tensor<1x2x3x2xf32>) -> tensor<1x2x6x4xf32>
relay.func @resize(%x: tensor<1x2x3x2xf32>) -> tensor<1x2x?x?xf32> {
  %s = relay.constant dense<[6, 4]> : tensor<2xi64>
  %r = relay.dyn.image.resize2d %x, %s {method = "nearest_neighbor", coordinate_transformation_mode = "asymmetric", rounding_method = "floor"} : (tensor<1x2x3x2xf32>, tensor<2xi64>) -> tensor<1x2x?x?xf32>
  relay.return %r : tensor<1x2x?x?xf32>
}

// -----

// Tests that dyn.zeros, dyn.ones, dyn.broadcast_to, dyn.nn.pad,
// dyn.squeeze, dyn.expand_dims, dyn.one_hot, dyn.sparse_to_dense and the
// dyn upsamplings of constant operands become their static forms, typed
// static (refine-signatures), and that a pad of a negative (cropping) width
// stays dynamic (its error is the run's).
// REFINE-LABEL: relay.func @more(
// REFINE-SAME: -> tuple<tensor<2x3xf32>, tensor<4xi32>, tensor<2x2x3xf32>, tensor<3x6xf32>, tensor<3xf32>, tensor<2x1x1x3xf32>, tensor<3x4xf32>, tensor<3x2xf32>, tensor<1x1x4x6xf32>, tensor<1x1x4x2x2xf32>, tensor<?x?xf32>>
// REFINE-NOT: relay.dyn.zeros
// REFINE: relay.zeros {shape = array<i64: 2, 3>}
// REFINE: relay.ones {dtype = i32, shape = array<i64: 4>}
// REFINE: relay.broadcast_to %x {shape = array<i64: 2, 2, 3>}
// REFINE: relay.nn.pad %x, %{{.*}} {pad_mode = "edge", pad_width = array<i64: 0, 1, 2, 1>}
// REFINE: relay.squeeze %{{.*}} {axis = array<i64: 0>}
// REFINE: relay.expand_dims %x {axis = 1 : i64, num_newaxis = 2 : i64}
// REFINE: relay.one_hot %{{.*}} {axis = 0 : i64, depth = 3 : i64, dtype = f32}
// REFINE: relay.sparse_to_dense %{{.*}} {output_shape = array<i64: 3, 2>}
// REFINE: relay.nn.upsampling %{{.*}} {method = "bilinear", scale_h = 2.000000e+00 : f64, scale_w = 3.000000e+00 : f64}
// REFINE: relay.nn.upsampling3d %{{.*}} {scale_d = 2.000000e+00 : f64} : (tensor<1x1x2x2x2xf32>) -> tensor<1x1x4x2x2xf32>
// REFINE: relay.dyn.nn.pad %x
relay.func @more(%x: tensor<2x3xf32>, %v: tensor<1x3xf32>, %i: tensor<4xi32>) -> tuple<tensor<?x?xf32>, tensor<?xi32>, tensor<?x?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?x?x?x?xf32>, tensor<?x4xf32>, tensor<?x?xf32>, tensor<1x1x?x?xf32>, tensor<1x1x?x?x?xf32>, tensor<?x?xf32>> {
  %s23 = relay.constant dense<[2, 3]> : tensor<2xi64>
  %z = relay.dyn.zeros %s23 : (tensor<2xi64>) -> tensor<?x?xf32>
  %s4 = relay.constant dense<[4]> : tensor<1xi64>
  %o = relay.dyn.ones %s4 {dtype = i32} : (tensor<1xi64>) -> tensor<?xi32>
  %s223 = relay.constant dense<[2, 2, 3]> : tensor<3xi64>
  %b = relay.dyn.broadcast_to %x, %s223 : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  %w = relay.constant dense<[[0, 1], [2, 1]]> : tensor<2x2xi64>
  %zero = relay.constant dense<0.0> : tensor<f32>
  %p = relay.dyn.nn.pad %x, %w, %zero {pad_mode = "edge"} : (tensor<2x3xf32>, tensor<2x2xi64>, tensor<f32>) -> tensor<?x?xf32>
  %axes = relay.constant dense<[0]> : tensor<1xi64>
  %sq = relay.dyn.squeeze %v, %axes : (tensor<1x3xf32>, tensor<1xi64>) -> tensor<?xf32>
  %axis = relay.constant dense<1> : tensor<i64>
  %e = relay.dyn.expand_dims %x, %axis {num_newaxis = 2 : i64} : (tensor<2x3xf32>, tensor<i64>) -> tensor<?x?x?x?xf32>
  %on = relay.constant dense<1.0> : tensor<f32>
  %depth = relay.constant dense<3> : tensor<i32>
  %h = relay.dyn.one_hot %i, %on, %zero, %depth {axis = 0 : i64, dtype = f32} : (tensor<4xi32>, tensor<f32>, tensor<f32>, tensor<i32>) -> tensor<?x4xf32>
  %idx = relay.constant dense<[[0, 1], [2, 0]]> : tensor<2x2xi64>
  %vals = relay.constant dense<[5.0, 6.0]> : tensor<2xf32>
  %s32 = relay.constant dense<[3, 2]> : tensor<2xi64>
  %sd = relay.dyn.sparse_to_dense %idx, %vals, %zero, %s32 : (tensor<2x2xi64>, tensor<2xf32>, tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  %img = relay.constant dense<1.0> : tensor<1x1x2x2xf32>
  %two = relay.constant dense<2.0> : tensor<f32>
  %three = relay.constant dense<3> : tensor<i64>
  %u = relay.dyn.nn.upsampling %img, %two, %three {method = "bilinear"} : (tensor<1x1x2x2xf32>, tensor<f32>, tensor<i64>) -> tensor<1x1x?x?xf32>
  %vol = relay.constant dense<1.0> : tensor<1x1x2x2x2xf32>
  %u3 = relay.dyn.nn.upsampling3d %vol, %two, %on, %on : (tensor<1x1x2x2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x1x?x?x?xf32>
  %crop = relay.constant dense<[[0, -1], [0, 0]]> : tensor<2x2xi64>
  %pc = relay.dyn.nn.pad %x, %crop, %zero : (tensor<2x3xf32>, tensor<2x2xi64>, tensor<f32>) -> tensor<?x?xf32>
  %out = relay.tuple(%z, %o, %b, %p, %sq, %e, %h, %sd, %u, %u3, %pc : tensor<?x?xf32>, tensor<?xi32>, tensor<?x?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?x?x?x?xf32>, tensor<?x4xf32>, tensor<?x?xf32>, tensor<1x1x?x?xf32>, tensor<1x1x?x?x?xf32>, tensor<?x?xf32>)
  relay.return %out : tuple<tensor<?x?xf32>, tensor<?xi32>, tensor<?x?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?x?x?x?xf32>, tensor<?x4xf32>, tensor<?x?xf32>, tensor<1x1x?x?xf32>, tensor<1x1x?x?x?xf32>, tensor<?x?xf32>>
}
