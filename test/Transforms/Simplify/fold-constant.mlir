// RUN: relay-mlir-opt %s --split-input-file --relay-fold-constant | FileCheck %s
// RUN: relay-mlir-opt %s --split-input-file --relay-fold-constant="max-elements=4" | FileCheck %s --check-prefix=SMALL

// Tests that operators of constants are evaluated, chains of them too,
// with tuples of constants and projections out of them, while what
// depends on a parameter stays.
// CHECK-LABEL: relay.func @chain(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>
// CHECK-DAG: %[[W:.*]] = relay.constant dense<1.000000e+00> : tensor<2x3xf32>
// CHECK-DAG: %[[F:.*]] = relay.constant dense<4.000000e+00> : tensor<f32>
// CHECK: %[[M:.*]] = relay.multiply %[[X]], %[[W]]
// CHECK: relay.add %[[M]], %[[F]]
// CHECK-NOT: relay.transpose
// CHECK-NOT: relay.ones
// SMALL-LABEL: relay.func @chain(
// SMALL: relay.transpose
relay.func @chain(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %o = relay.ones {shape = array<i64: 3, 2>, dtype = f32} : () -> tensor<3x2xf32>
  %w = relay.transpose %o : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %a = relay.constant dense<2.0> : tensor<f32>
  %b = relay.constant dense<2.0> : tensor<f32>
  %c = relay.multiply %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %t = relay.tuple(%c, %a : tensor<f32>, tensor<f32>)
  %t0 = relay.tuple_get %t[0] : tuple<tensor<f32>, tensor<f32>>
  %m = relay.multiply %x, %w : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = relay.add %m, %t0 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  relay.return %r : tensor<2x3xf32>
}

// -----

// Tests that an `if` on a constant condition is its taken branch.
// CHECK-LABEL: relay.func @decided(
// CHECK-NOT: relay.if
// CHECK: relay.constant dense<3> : tensor<i32>
relay.func @decided() -> tensor<i32> {
  %one = relay.constant dense<1> : tensor<i32>
  %two = relay.constant dense<2> : tensor<i32>
  %c = relay.less %one, %two : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %c : tensor<i1> -> tensor<i32> {
    %s = relay.add %one, %two : (tensor<i32>, tensor<i32>) -> tensor<i32>
    relay.yield %s : tensor<i32>
  } else {
    relay.yield %one : tensor<i32>
  }
  relay.return %r : tensor<i32>
}

// -----

// Tests that an operator whose kernel fails (an integer division by zero)
// is left to fail when the program runs, and that references are never
// evaluated.
// CHECK-LABEL: relay.func @left(
// CHECK: relay.divide
// CHECK: relay.ref
// CHECK: relay.ref_read
// CHECK: relay.add
relay.func @left() -> tuple<tensor<i32>, tensor<i32>> {
  %one = relay.constant dense<1> : tensor<i32>
  %zero = relay.constant dense<0> : tensor<i32>
  %d = relay.divide %one, %zero : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %r = relay.ref %one : tensor<i32>
  %v = relay.ref_read %r : !relay.ref<tensor<i32>>
  %s = relay.add %v, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %t = relay.tuple(%d, %s : tensor<i32>, tensor<i32>)
  relay.return %t : tuple<tensor<i32>, tensor<i32>>
}

// -----

// Tests that an operator with a tuple result (split) folds into a tuple of
// constants.
// CHECK-LABEL: relay.func @split(
// CHECK-NOT: relay.split
// CHECK: relay.constant dense<[3.000000e+00, 4.000000e+00]> : tensor<2xf32>
relay.func @split() -> tensor<2xf32> {
  %c = relay.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %s = relay.split %c {indices_or_sections = 2 : i64} : (tensor<4xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
  %b = relay.tuple_get %s[1] : tuple<tensor<2xf32>, tensor<2xf32>>
  relay.return %b : tensor<2xf32>
}

// -----

// Tests that shape_of and ndarray_size of a parameter with a static type
// are constants (as in TVM), in the dtype asked for, while those of a
// tensor with a `?` dimension stay; a composite operator of constants
// (one_hot, no kernel of its own) folds through its decomposition.
// CHECK-LABEL: relay.func @shapes(
// CHECK-DAG: relay.constant dense<[2, 3]> : tensor<2xi32>
// CHECK-DAG: relay.constant dense<6> : tensor<i64>
// CHECK-DAG: relay.constant dense<{{\[}}[1.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00]]> : tensor<2x2xf32>
// CHECK: relay.shape_of %{{.*}} : (tensor<?x3xf32>)
// CHECK-NOT: relay.ndarray_size
// CHECK-NOT: relay.one_hot
relay.func @shapes(%x: tensor<2x3xf32>, %y: tensor<?x3xf32>) -> tuple<tensor<2xi32>, tensor<i64>, tensor<2xi32>, tensor<2x2xf32>> {
  %s = relay.shape_of %x : (tensor<2x3xf32>) -> tensor<2xi32>
  %n = relay.ndarray_size %x {dtype = i64} : (tensor<2x3xf32>) -> tensor<i64>
  %d = relay.shape_of %y : (tensor<?x3xf32>) -> tensor<2xi32>
  %i = relay.constant dense<[0, 1]> : tensor<2xi32>
  %on = relay.constant dense<1.0> : tensor<f32>
  %off = relay.constant dense<0.0> : tensor<f32>
  %h = relay.one_hot %i, %on, %off {depth = 2 : i64, axis = -1 : i64, dtype = f32} : (tensor<2xi32>, tensor<f32>, tensor<f32>) -> tensor<2x2xf32>
  %t = relay.tuple(%s, %n, %d, %h : tensor<2xi32>, tensor<i64>, tensor<2xi32>, tensor<2x2xf32>)
  relay.return %t : tuple<tensor<2xi32>, tensor<i64>, tensor<2xi32>, tensor<2x2xf32>>
}

// -----

// Tests that a fold larger than max-elements still happens where it
// stores no more than the constants it consumes (a weight's transpose, its
// product with a per-channel scale: the weights of a decomposed 3-d
// convolution), but not where the result outgrows them (a broadcast) or
// where another op still needs the constant (both would be stored).
// SMALL-LABEL: relay.func @no_growth(
// SMALL-DAG: relay.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// SMALL-DAG: relay.constant dense<{{\[}}[2.000000e+00, 4.000000e+00, 6.000000e+00], [8.000000e+00, 1.000000e+01, 1.400000e+01]]> : tensor<2x3xf32>
// SMALL-DAG: relay.broadcast_to
// SMALL-DAG: relay.transpose %[[SHARED:.*]] :
// SMALL-DAG: relay.negative %[[SHARED]] :
// SMALL-NOT: relay.multiply
relay.func @no_growth(%x: tensor<3x2xf32>) -> tuple<tensor<3x2xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>> {
  %w = relay.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %t = relay.transpose %w : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %v = relay.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]]> : tensor<2x3xf32>
  %two = relay.constant dense<2.0> : tensor<f32>
  %m = relay.multiply %v, %two : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %r = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = relay.broadcast_to %r {shape = array<i64: 4, 3>} : (tensor<3xf32>) -> tensor<4x3xf32>
  %s = relay.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 8.0]]> : tensor<2x3xf32>
  %st = relay.transpose %s : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %sn = relay.negative %s : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %o = relay.tuple(%t, %m, %b, %st, %sn : tensor<3x2xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>)
  relay.return %o : tuple<tensor<3x2xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>>
}

// -----

// Tests that operators on packed layouts fold through the interpreter's
// run of their unpacked form (its kernels take plain layouts): a max pool
// per packed channel (NCHW2c: channel 0 holds 1..4, channel 1 8..5), and a
// convolution of NCHW2c data with an OIHW weight (21 = 1 + 10 * 2, 2100 =
// 100 + 1000 * 2).
// CHECK-LABEL: relay.func @packed(
// CHECK-DAG: relay.constant dense<{{\[\[\[\[\[}}4.000000e+00, 8.000000e+00]]]]]> : tensor<1x1x1x1x2xf32>
// CHECK-DAG: relay.constant dense<{{\[\[\[\[\[}}2.100000e+01, 2.100000e+03]]]]]> : tensor<1x1x1x1x2xf32>
// CHECK-NOT: relay.nn
relay.func @packed() -> tuple<tensor<1x1x1x1x2xf32>, tensor<1x1x1x1x2xf32>> {
  %x = relay.constant dense<[[[[[1.0, 8.0], [2.0, 7.0]], [[3.0, 6.0], [4.0, 5.0]]]]]> : tensor<1x1x2x2x2xf32>
  %p = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, layout = "NCHW2c"} : (tensor<1x1x2x2x2xf32>) -> tensor<1x1x1x1x2xf32>
  %d = relay.constant dense<[[[[[1.0, 2.0]]]]]> : tensor<1x1x1x1x2xf32>
  %w = relay.constant dense<[[[[1.0]], [[10.0]]], [[[100.0]], [[1000.0]]]]> : tensor<2x2x1x1xf32>
  %c = relay.nn.conv2d %d, %w {data_layout = "NCHW2c"} : (tensor<1x1x1x1x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x1x1x1x2xf32>
  %t = relay.tuple(%p, %c : tensor<1x1x1x1x2xf32>, tensor<1x1x1x1x2xf32>)
  relay.return %t : tuple<tensor<1x1x1x1x2xf32>, tensor<1x1x1x1x2xf32>>
}

// -----

// Tests that transposes and reshapes of constants move their elements
// without evaluating them: a 3-d transpose of int16s, and reshapes of a
// blob that share it (squeeze, expand_dims); an f16 transpose of a blob.
// CHECK-LABEL: relay.func @layout_of_constants(
// CHECK-DAG: relay.constant dense<{{\[\[\[}}1, 4], [2, 5], [3, 6]], {{\[\[}}7, 10], [8, 11], [9, 12]]]> : tensor<2x3x2xi16>
// CHECK-DAG: relay.constant dense_resource<w> : tensor<1x4xi16>
// CHECK-DAG: relay.constant dense_resource<w> : tensor<4xi16>
// CHECK-DAG: relay.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf16>
// CHECK-NOT: relay.transpose
// CHECK-NOT: relay.squeeze
// CHECK-NOT: relay.expand_dims
relay.func @layout_of_constants() -> tuple<tensor<2x3x2xi16>, tensor<1x4xi16>, tensor<4xi16>, tensor<2x2xf16>> {
  %c = relay.constant dense<[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]> : tensor<2x2x3xi16>
  %t = relay.transpose %c {axes = array<i64: 0, 2, 1>} : (tensor<2x2x3xi16>) -> tensor<2x3x2xi16>
  %b = relay.constant dense_resource<w> : tensor<4x1xi16>
  %s = relay.squeeze %b : (tensor<4x1xi16>) -> tensor<4xi16>
  %e = relay.expand_dims %s {axis = 0 : i64} : (tensor<4xi16>) -> tensor<1x4xi16>
  %h = relay.constant dense_resource<h> : tensor<2x2xf16>
  %ht = relay.transpose %h : (tensor<2x2xf16>) -> tensor<2x2xf16>
  %o = relay.tuple(%t, %e, %s, %ht : tensor<2x3x2xi16>, tensor<1x4xi16>, tensor<4xi16>, tensor<2x2xf16>)
  relay.return %o : tuple<tensor<2x3x2xi16>, tensor<1x4xi16>, tensor<4xi16>, tensor<2x2xf16>>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x020000000100020003000400",
      h: "0x02000000003C004000420044"
    }
  }
#-}

// -----

// Tests that a large folded tensor (16,384 elements or more) is kept as a
// blob, and that operators read it: the transpose (4096, 2, 3) of an arange
// reshaped to (2, 3, 4096), and its first two rows.
// CHECK-LABEL: relay.func @large_transpose(
// CHECK-DAG: relay.constant dense_resource<relay_folded{{.*}}> : tensor<4096x2x3xf32>
// CHECK-DAG: relay.constant dense<{{\[\[\[}}0.000000e+00, 4.096000e+03, 8.192000e+03], [1.228800e+04, 1.638400e+04, 2.048000e+04]], {{\[\[}}1.000000e+00, 4.097000e+03, 8.193000e+03], [1.228900e+04, 1.638500e+04, 2.048100e+04]]]> : tensor<2x2x3xf32>
// CHECK-NOT: relay.transpose
relay.func @large_transpose() -> tuple<tensor<4096x2x3xf32>, tensor<2x2x3xf32>> {
  %lo = relay.constant dense<0.0> : tensor<f32>
  %hi = relay.constant dense<24576.0> : tensor<f32>
  %st = relay.constant dense<1.0> : tensor<f32>
  %a = relay.arange %lo, %hi, %st {dtype = f32} : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<24576xf32>
  %r = relay.reshape %a {newshape = array<i64: 2, 3, 4096>} : (tensor<24576xf32>) -> tensor<2x3x4096xf32>
  %t = relay.transpose %r {axes = array<i64: 2, 0, 1>} : (tensor<2x3x4096xf32>) -> tensor<4096x2x3xf32>
  %s = relay.strided_slice %t {begin = array<i64: 0, 0, 0>, end = array<i64: 2, 2, 3>} : (tensor<4096x2x3xf32>) -> tensor<2x2x3xf32>
  %o = relay.tuple(%t, %s : tensor<4096x2x3xf32>, tensor<2x2x3xf32>)
  relay.return %o : tuple<tensor<4096x2x3xf32>, tensor<2x2x3xf32>>
}

// -----

// Tests that bicubic nn.upsampling folds (the interpreter's kernel takes
// image.resize2d's cubic taps, asymmetric coordinates, alpha -0.5: the
// values the compiled decomposition gives).
// CHECK-LABEL: relay.func @bicubic_upsampling(
// CHECK: relay.constant dense<{{\[\[\[\[}}1.000000e+00, 1.500000e+00, 2.000000e+00, 2.062500e+00], [2.000000e+00, 2.750000e+00, 3.500000e+00, 3.593750e+00], [3.000000e+00, 4.000000e+00, 5.000000e+00, 5.125000e+00], [3.125000e+00, 4.156250e+00, 5.187500e+00, 5.31640625]]]]> : tensor<1x1x4x4xf32>
// CHECK-NOT: relay.nn.upsampling
relay.func @bicubic_upsampling() -> tensor<1x1x4x4xf32> {
  %c = relay.constant dense<[[[[1.0, 2.0], [3.0, 5.0]]]]> : tensor<1x1x2x2xf32>
  %u = relay.nn.upsampling %c {scale_h = 2.0 : f64, scale_w = 2.0 : f64, method = "bicubic"} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  relay.return %u : tensor<1x1x4x4xf32>
}
