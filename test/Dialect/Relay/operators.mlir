// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// RUN: relay-mlir-opt %s --relay-infer-types | FileCheck %s --check-prefix=INFER
// Every operator parses, prints and parses again, and its relation infers
// the result type written here.

// CHECK-LABEL: relay.func @elementwise
// INFER-LABEL: relay.func @elementwise
relay.func @elementwise(%f: tensor<2x3xf32>, %i: tensor<2x3xi32>, %b: tensor<2x3xi1>) -> tensor<i1> {
  // CHECK: relay.negative %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.negative {{.*}} -> tensor<2x3xf32>
  %negative = relay.negative %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.abs %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.abs {{.*}} -> tensor<2x3xf32>
  %abs = relay.abs %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.exp %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.exp {{.*}} -> tensor<2x3xf32>
  %exp = relay.exp %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.log %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.log {{.*}} -> tensor<2x3xf32>
  %log = relay.log %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.log2 %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.log2 {{.*}} -> tensor<2x3xf32>
  %log2 = relay.log2 %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.log10 %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.log10 {{.*}} -> tensor<2x3xf32>
  %log10 = relay.log10 %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.sqrt %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.sqrt {{.*}} -> tensor<2x3xf32>
  %sqrt = relay.sqrt %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.rsqrt %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.rsqrt {{.*}} -> tensor<2x3xf32>
  %rsqrt = relay.rsqrt %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.tanh %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.tanh {{.*}} -> tensor<2x3xf32>
  %tanh = relay.tanh %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.sigmoid %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.sigmoid {{.*}} -> tensor<2x3xf32>
  %sigmoid = relay.sigmoid %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.erf %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.erf {{.*}} -> tensor<2x3xf32>
  %erf = relay.erf %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.sin %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.sin {{.*}} -> tensor<2x3xf32>
  %sin = relay.sin %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.cos %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.cos {{.*}} -> tensor<2x3xf32>
  %cos = relay.cos %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.tan %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.tan {{.*}} -> tensor<2x3xf32>
  %tan = relay.tan %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.asin %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.asin {{.*}} -> tensor<2x3xf32>
  %asin = relay.asin %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.acos %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.acos {{.*}} -> tensor<2x3xf32>
  %acos = relay.acos %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.atan %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.atan {{.*}} -> tensor<2x3xf32>
  %atan = relay.atan %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.sinh %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.sinh {{.*}} -> tensor<2x3xf32>
  %sinh = relay.sinh %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.cosh %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.cosh {{.*}} -> tensor<2x3xf32>
  %cosh = relay.cosh %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.asinh %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.asinh {{.*}} -> tensor<2x3xf32>
  %asinh = relay.asinh %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.acosh %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.acosh {{.*}} -> tensor<2x3xf32>
  %acosh = relay.acosh %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.atanh %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.atanh {{.*}} -> tensor<2x3xf32>
  %atanh = relay.atanh %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.round %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.round {{.*}} -> tensor<2x3xf32>
  %round = relay.round %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.floor %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.floor {{.*}} -> tensor<2x3xf32>
  %floor = relay.floor %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.ceil %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.ceil {{.*}} -> tensor<2x3xf32>
  %ceil = relay.ceil %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.trunc %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.trunc {{.*}} -> tensor<2x3xf32>
  %trunc = relay.trunc %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.sign %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.sign {{.*}} -> tensor<2x3xf32>
  %sign = relay.sign %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.copy %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.copy {{.*}} -> tensor<2x3xf32>
  %copy = relay.copy %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.zeros_like %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.zeros_like {{.*}} -> tensor<2x3xf32>
  %zeros_like = relay.zeros_like %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.ones_like %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.ones_like {{.*}} -> tensor<2x3xf32>
  %ones_like = relay.ones_like %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.nn.relu %{{.*}} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.nn.relu {{.*}} -> tensor<2x3xf32>
  %nn_relu = relay.nn.relu %f : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.add %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.add {{.*}} -> tensor<2x3xf32>
  %add = relay.add %f, %f : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.subtract %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.subtract {{.*}} -> tensor<2x3xf32>
  %subtract = relay.subtract %f, %f : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.multiply %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.multiply {{.*}} -> tensor<2x3xf32>
  %multiply = relay.multiply %f, %f : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.divide %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.divide {{.*}} -> tensor<2x3xf32>
  %divide = relay.divide %f, %f : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.power %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.power {{.*}} -> tensor<2x3xf32>
  %power = relay.power %f, %f : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.mod %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.mod {{.*}} -> tensor<2x3xf32>
  %mod = relay.mod %f, %f : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.floor_divide %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.floor_divide {{.*}} -> tensor<2x3xf32>
  %floor_divide = relay.floor_divide %f, %f : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.floor_mod %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.floor_mod {{.*}} -> tensor<2x3xf32>
  %floor_mod = relay.floor_mod %f, %f : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.maximum %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.maximum {{.*}} -> tensor<2x3xf32>
  %maximum = relay.maximum %f, %f : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.minimum %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.minimum {{.*}} -> tensor<2x3xf32>
  %minimum = relay.minimum %f, %f : (tensor<2x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.bitwise_and {{.*}} -> tensor<2x3xi32>
  %bitwise_and = relay.bitwise_and %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> !relay.incomplete
  // INFER: relay.bitwise_or {{.*}} -> tensor<2x3xi32>
  %bitwise_or = relay.bitwise_or %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> !relay.incomplete
  // INFER: relay.bitwise_xor {{.*}} -> tensor<2x3xi32>
  %bitwise_xor = relay.bitwise_xor %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> !relay.incomplete
  // INFER: relay.reinterpret {{.*}} -> tensor<2x3xi32>
  %reinterpret = relay.reinterpret %f {dtype = i32} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.reinterpret {{.*}} -> tensor<2x3xf32>
  %reinterpret_back = relay.reinterpret %i {dtype = f32} : (tensor<2x3xi32>) -> !relay.incomplete
  // INFER: relay.left_shift {{.*}} -> tensor<2x3xi32>
  %left_shift = relay.left_shift %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> !relay.incomplete
  // INFER: relay.right_shift {{.*}} -> tensor<2x3xi32>
  %right_shift = relay.right_shift %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> !relay.incomplete
  // INFER: relay.bitwise_not {{.*}} -> tensor<2x3xi32>
  %bitwise_not = relay.bitwise_not %i : (tensor<2x3xi32>) -> !relay.incomplete
  // INFER: relay.logical_and {{.*}} -> tensor<2x3xi1>
  %logical_and = relay.logical_and %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> !relay.incomplete
  // INFER: relay.logical_or {{.*}} -> tensor<2x3xi1>
  %logical_or = relay.logical_or %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> !relay.incomplete
  // INFER: relay.logical_xor {{.*}} -> tensor<2x3xi1>
  %logical_xor = relay.logical_xor %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> !relay.incomplete
  // INFER: relay.logical_not {{.*}} -> tensor<2x3xi1>
  %logical_not = relay.logical_not %b : (tensor<2x3xi1>) -> !relay.incomplete
  // INFER: relay.equal {{.*}} -> tensor<2x3xi1>
  %equal = relay.equal %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> !relay.incomplete
  // INFER: relay.not_equal {{.*}} -> tensor<2x3xi1>
  %not_equal = relay.not_equal %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> !relay.incomplete
  // INFER: relay.less {{.*}} -> tensor<2x3xi1>
  %less = relay.less %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> !relay.incomplete
  // INFER: relay.less_equal {{.*}} -> tensor<2x3xi1>
  %less_equal = relay.less_equal %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> !relay.incomplete
  // INFER: relay.greater {{.*}} -> tensor<2x3xi1>
  %greater = relay.greater %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> !relay.incomplete
  // INFER: relay.greater_equal {{.*}} -> tensor<2x3xi1>
  %greater_equal = relay.greater_equal %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> !relay.incomplete
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// CHECK-LABEL: relay.func @reductions
// INFER-LABEL: relay.func @reductions
relay.func @reductions(%f: tensor<2x3xf32>, %b: tensor<2x3xi1>) -> tensor<i1> {
  // CHECK: relay.sum %{{.*}} {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.sum {{.*}} -> tensor<1x3xf32>
  %sum = relay.sum %f {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.mean %{{.*}} {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.mean {{.*}} -> tensor<1x3xf32>
  %mean = relay.mean %f {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.max %{{.*}} {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.max {{.*}} -> tensor<1x3xf32>
  %max = relay.max %f {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.min %{{.*}} {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.min {{.*}} -> tensor<1x3xf32>
  %min = relay.min %f {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> !relay.incomplete
  // CHECK: relay.prod %{{.*}} {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.prod {{.*}} -> tensor<1x3xf32>
  %prod = relay.prod %f {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.all {{.*}} -> tensor<i1>
  %all = relay.all %b : (tensor<2x3xi1>) -> !relay.incomplete
  // INFER: relay.any {{.*}} -> tensor<i1>
  %any = relay.any %b : (tensor<2x3xi1>) -> !relay.incomplete
  // INFER: relay.argmax {{.*}} -> tensor<3xi32>
  %argmax = relay.argmax %f {axis = array<i64: 0>, select_last_index = true} : (tensor<2x3xf32>) -> !relay.incomplete
  // INFER: relay.argmin {{.*}} -> tensor<3xi32>
  %argmin = relay.argmin %f {axis = array<i64: 0>, select_last_index = true} : (tensor<2x3xf32>) -> !relay.incomplete
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// The defaults of TVM's attributes are not printed.
// CHECK-LABEL: relay.func @defaults
// CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} : (
// CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {groups = 2 : i64, kernel_layout = "HWIO"} : (
// CHECK: relay.nn.global_max_pool2d %{{.*}} : (
// CHECK: relay.nn.adaptive_max_pool2d %{{.*}} {output_size = array<i64: 2, 2>} : (
relay.func @defaults(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %h: tensor<3x3x2x4xf32>) -> tensor<i1> {
  %0 = relay.nn.conv2d %x, %w {groups = 1 : i64, data_layout = "NCHW"} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = relay.nn.conv2d %x, %h {groups = 2 : i64, kernel_layout = "HWIO"} : (tensor<1x4x8x8xf32>, tensor<3x3x2x4xf32>) -> tensor<1x4x6x6xf32>
  %2 = relay.nn.global_max_pool2d %x {layout = "NCHW"} : (tensor<1x4x8x8xf32>) -> tensor<1x4x1x1xf32>
  %3 = relay.nn.adaptive_max_pool2d %x {output_size = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x2x2xf32>
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// Composite operators (rewritten by --relay-decompose) parse, print and
// infer like the others.
// CHECK-LABEL: relay.func @composite
// INFER-LABEL: relay.func @composite
relay.func @composite(%x: tensor<2x3x4xf32>, %i: tensor<2x3x4xi32>, %c: tensor<3xf32>, %v: tensor<4xf32>, %k: tensor<3x1xf32>, %w: !relay.incomplete, %on: tensor<f32>, %img: tensor<1x3x2x4xf32>, %tw: tensor<3x5x2xf32>, %len: tensor<2xi32>, %ti: tensor<2x4xi32>, %grid: tensor<1x2x6x5xf32>, %rois: tensor<4x5xf32>, %bx: tensor<2x4xf32>) -> tensor<i1> {
  // INFER: relay.isfinite {{.*}} -> tensor<2x3x4xi1>
  %0 = relay.isfinite %x : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.cast_like {{.*}} -> tensor<2x3x4xi32>
  %1 = relay.cast_like %x, %i : (tensor<2x3x4xf32>, tensor<2x3x4xi32>) -> !relay.incomplete
  // INFER: relay.broadcast_to_like {{.*}} -> tensor<2x3x4xf32>
  %2 = relay.broadcast_to_like %v, %x : (tensor<4xf32>, tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.collapse_sum_like {{.*}} -> tensor<3x1xf32>
  %3 = relay.collapse_sum_like %x, %k : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> !relay.incomplete
  // CHECK: relay.tile %{{.*}} {reps = array<i64: 2, 1, 1, 3>}
  // INFER: relay.tile {{.*}} -> tensor<2x2x3x12xf32>
  %4 = relay.tile %x {reps = array<i64: 2, 1, 1, 3>} : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.repeat {{.*}} -> tensor<2x6x4xf32>
  %5 = relay.repeat %x {repeats = 2 : i64, axis = -2 : i64} : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.reverse {{.*}} -> tensor<2x3x4xf32>
  %6 = relay.reverse %x {axis = 2 : i64} : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.trunc_divide {{.*}} -> tensor<2x3x4xi32>
  %7 = relay.trunc_divide %i, %i : (tensor<2x3x4xi32>, tensor<2x3x4xi32>) -> !relay.incomplete
  // INFER: relay.nn.l2_normalize {{.*}} -> tensor<2x3x4xf32>
  %8 = relay.nn.l2_normalize %x {eps = 1.0e-03 : f64, axis = array<i64: 1>} : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.nn.group_norm {{.*}} -> tensor<2x3x4xf32>
  %9 = relay.nn.group_norm %x, %c, %c {num_groups = 3 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> !relay.incomplete
  // INFER: relay.nn.instance_norm {{.*}} -> tensor<2x3x4xf32>
  %10 = relay.nn.instance_norm %x, %c, %c : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> !relay.incomplete
  // INFER: relay.nn.lrn {{.*}} -> tensor<2x3x4xf32>
  %11 = relay.nn.lrn %x {size = 3 : i64} : (tensor<2x3x4xf32>) -> !relay.incomplete
  // The weight's type follows from channels and kernel_size.
  // INFER: relay.nn.conv1d {{.*}} : (tensor<2x3x4xf32>, tensor<5x3x2xf32>) -> tensor<2x5x3xf32>
  %12 = relay.nn.conv1d %x, %w {channels = 5 : i64, kernel_size = array<i64: 2>, strides = array<i64: 2>, padding = array<i64: 1>} : (tensor<2x3x4xf32>, !relay.incomplete) -> !relay.incomplete
  // INFER: relay.nn.max_pool1d {{.*}} -> tensor<2x3x2xf32>
  %13 = relay.nn.max_pool1d %x {pool_size = array<i64: 2>, strides = array<i64: 2>} : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.nn.avg_pool1d {{.*}} -> tensor<2x3x5xf32>
  %14 = relay.nn.avg_pool1d %x {pool_size = array<i64: 2>, padding = array<i64: 1, 1>} : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.one_hot {{.*}} -> tensor<2x3x7x4xf32>
  %15 = relay.one_hot %i, %on, %on {depth = 7 : i64, axis = 2 : i64, dtype = f32} : (tensor<2x3x4xi32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  // INFER: relay.cumsum {{.*}} -> tensor<24xi64>
  %16 = relay.cumsum %i {dtype = i64} : (tensor<2x3x4xi32>) -> !relay.incomplete
  // INFER: relay.cumprod {{.*}} -> tensor<2x3x4xi32>
  %cp = relay.cumprod %i {axis = -1 : i64} : (tensor<2x3x4xi32>) -> !relay.incomplete
  %kk = relay.constant dense<1> : tensor<i64>
  // INFER: relay.trilu {{.*}} -> tensor<2x3x4xf32>
  %tri = relay.trilu %x, %kk {upper = false} : (tensor<2x3x4xf32>, tensor<i64>) -> !relay.incomplete
  // INFER: relay.gather_nd {{.*}} -> tensor<4x4xf32>
  %gnd = relay.gather_nd %x, %ti : (tensor<2x3x4xf32>, tensor<2x4xi32>) -> !relay.incomplete
  // INFER: relay.scatter_add {{.*}} -> tensor<2x3x4xi32>
  %sca = relay.scatter_add %i, %i, %i {axis = 2 : i64} : (tensor<2x3x4xi32>, tensor<2x3x4xi32>, tensor<2x3x4xi32>) -> !relay.incomplete
  // INFER: relay.unravel_index {{.*}} -> tensor<2x2xi32>
  %unr = relay.unravel_index %len, %len : (tensor<2xi32>, tensor<2xi32>) -> !relay.incomplete
  // INFER: relay.invert_permutation {{.*}} -> tensor<2xi32>
  %inv = relay.invert_permutation %len : (tensor<2xi32>) -> !relay.incomplete
  // INFER: relay.searchsorted {{.*}} -> tensor<2x3x4xi64>
  %ss = relay.searchsorted %v, %x {dtype = i64} : (tensor<4xf32>, tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.nn.space_to_batch_nd {{.*}} -> tensor<6x1x1x4xf32>
  %s2b = relay.nn.space_to_batch_nd %img {block_shape = array<i64: 3, 2>, paddings = array<i64: 0, 0, 0, 0>} : (tensor<1x3x2x4xf32>) -> !relay.incomplete
  // INFER: relay.nn.batch_to_space_nd {{.*}} -> tensor<1x2x2x4xf32>
  %b2s = relay.nn.batch_to_space_nd %s2b {block_shape = array<i64: 3, 2>, crops = array<i64: 1, 0, 0, 0>} : (!relay.incomplete) -> !relay.incomplete
  // INFER: relay.sparse_to_dense {{.*}} -> tensor<3x4x5x6xf32>
  %std = relay.sparse_to_dense %ti, %on, %on {output_shape = array<i64: 3, 4, 5, 6>} : (tensor<2x4xi32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  // INFER: relay.einsum {{.*}} -> tensor<4x2x3xf32>
  %eint = relay.tuple(%x, %k, %c : tensor<2x3x4xf32>, tensor<3x1xf32>, tensor<3xf32>)
  %ein = relay.einsum %eint {equation = "abc,bz,b->cab"} : (tuple<tensor<2x3x4xf32>, tensor<3x1xf32>, tensor<3xf32>>) -> !relay.incomplete
  // INFER: relay.meshgrid {{.*}} -> tuple<tensor<4x3xf32>, tensor<4x3xf32>>
  %mgt = relay.tuple(%c, %v : tensor<3xf32>, tensor<4xf32>)
  %mg = relay.meshgrid %mgt {indexing = "xy"} : (tuple<tensor<3xf32>, tensor<4xf32>>) -> !relay.incomplete
  // INFER: relay.matrix_set_diag {{.*}} -> tensor<3x5x2xf32>
  %msd = relay.matrix_set_diag %tw, %k {k1 = 1 : i64, k2 = 1 : i64} : (tensor<3x5x2xf32>, tensor<3x1xf32>) -> !relay.incomplete
  // INFER: relay.image.crop_and_resize {{.*}} -> tensor<2x7x2x4xf32>
  %car = relay.image.crop_and_resize %img, %bx, %len {crop_size = array<i64: 7, 2>, layout = "NHWC"} : (tensor<1x3x2x4xf32>, tensor<2x4xf32>, tensor<2xi32>) -> !relay.incomplete
  // INFER: relay.image.resize1d {{.*}} -> tensor<2x3x9xf32>
  %rs1 = relay.image.resize1d %x {size = array<i64: 9>} : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.image.resize3d {{.*}} -> tensor<1x3x4x5x6xf32>
  %rs3v = relay.reshape %img {newshape = array<i64: 1, 3, 1, 2, 4>} : (tensor<1x3x2x4xf32>) -> !relay.incomplete
  %rs3 = relay.image.resize3d %rs3v {size = array<i64: 4, 5, 6>, method = "nearest_neighbor"} : (!relay.incomplete) -> !relay.incomplete
  // INFER: relay.nn.dilate {{.*}} -> tensor<2x5x10xf32>
  %dil = relay.nn.dilate %x {strides = array<i64: 1, 2, 3>} : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.nn.space_to_depth {{.*}} -> tensor<1x12x1x2xf32>
  %17 = relay.nn.space_to_depth %img {block_size = 2 : i64} : (tensor<1x3x2x4xf32>) -> !relay.incomplete
  // INFER: relay.nn.depth_to_space {{.*}} -> tensor<1x3x2x4xf32>
  %18 = relay.nn.depth_to_space %17 {block_size = 2 : i64, mode = "CRD"} : (!relay.incomplete) -> !relay.incomplete
  // INFER: relay.topk {{.*}} -> tuple<tensor<2x3x2xf32>, tensor<2x3x2xi32>>
  %19 = relay.topk %x {k = 2 : i64} : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.topk {{.*}} -> tensor<2x3x4xi64>
  %20 = relay.topk %x {k = 0 : i64, ret_type = "indices", dtype = i64} : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.argsort {{.*}} -> tensor<2x3x4xi32>
  %21 = relay.argsort %x : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.sort {{.*}} -> tensor<2x3x4xf32>
  %22 = relay.sort %x {axis = 0 : i64} : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.shape_of {{.*}} -> tensor<3xi32>
  %23 = relay.shape_of %x : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.ndarray_size {{.*}} -> tensor<i64>
  %24 = relay.ndarray_size %x {dtype = i64} : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.nn.mirror_pad {{.*}} -> tensor<2x6x5xf32>
  %25 = relay.nn.mirror_pad %x {pad_width = array<i64: 0, 0, 2, 1, 1, 0>} : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.variance {{.*}} -> tensor<3xf32>
  %26 = relay.variance %x, %x {axis = array<i64: 1>, exclude = true} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.image.resize2d {{.*}} -> tensor<1x3x5x9xf32>
  %27 = relay.image.resize2d %img {size = array<i64: 5, 9>, method = "cubic"} : (tensor<1x3x2x4xf32>) -> !relay.incomplete
  // INFER: relay.image.grid_sample {{.*}} -> tensor<1x3x6x5xf32>
  %gs = relay.image.grid_sample %img, %grid {method = "bicubic", padding_mode = "reflection"} : (tensor<1x3x2x4xf32>, tensor<1x2x6x5xf32>) -> !relay.incomplete
  // INFER: relay.vision.roi_align {{.*}} -> tensor<4x3x7x5xf32>
  %roi = relay.vision.roi_align %img, %rois {pooled_size = array<i64: 7, 5>, spatial_scale = 2.500000e-01 : f64, sample_ratio = 2 : i64, aligned = true} : (tensor<1x3x2x4xf32>, tensor<4x5xf32>) -> !relay.incomplete
  // INFER: relay.nn.adaptive_avg_pool1d {{.*}} -> tensor<2x3x2xf32>
  %28 = relay.nn.adaptive_avg_pool1d %x {output_size = array<i64: 2>} : (tensor<2x3x4xf32>) -> !relay.incomplete
  // INFER: relay.nn.conv1d_transpose {{.*}} -> tensor<2x5x9xf32>
  %29 = relay.nn.conv1d_transpose %x, %tw {strides = array<i64: 2>, output_padding = array<i64: 1>} : (tensor<2x3x4xf32>, tensor<3x5x2xf32>) -> !relay.incomplete
  // INFER: relay.sequence_mask {{.*}} -> tensor<2x3x4xf32>
  %30 = relay.sequence_mask %x, %len {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2xi32>) -> !relay.incomplete
  // INFER: relay.nn.cross_entropy {{.*}} -> tensor<f32>
  %31 = relay.nn.cross_entropy %k, %k : (tensor<3x1xf32>, tensor<3x1xf32>) -> !relay.incomplete
  // INFER: relay.nn.cross_entropy_with_logits {{.*}} -> tensor<f32>
  %32 = relay.nn.cross_entropy_with_logits %k, %k : (tensor<3x1xf32>, tensor<3x1xf32>) -> !relay.incomplete
  // INFER: relay.nn.nll_loss {{.*}} -> tensor<f32>
  %33 = relay.nn.nll_loss %x, %ti, %c : (tensor<2x3x4xf32>, tensor<2x4xi32>, tensor<3xf32>) -> !relay.incomplete
  // INFER: relay.nn.nll_loss {{.*}} -> tensor<2x4xf32>
  %34 = relay.nn.nll_loss %x, %ti, %c {reduction = "none", ignore_index = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x4xi32>, tensor<3xf32>) -> !relay.incomplete
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// Tests that the 3-d convolution and poolings (NCDHW) parse and infer:
// the weight from channels and kernel_size, 1, 3 and 6 padding values,
// ceil_mode and output_size.
// CHECK-LABEL: relay.func @window3d
// INFER-LABEL: relay.func @window3d
relay.func @window3d(%v: tensor<2x4x6x9x8xf32>, %w: tensor<6x2x3x3x2xf32>, %u: !relay.incomplete) -> tensor<i1> {
  // CHECK: relay.nn.conv3d %{{.*}} {channels = 5 : i64, kernel_size = array<i64: 1, 3, 3>, padding = array<i64: 0, 1, 1>}
  // INFER: relay.nn.conv3d {{.*}} : (tensor<2x4x6x9x8xf32>, tensor<5x4x1x3x3xf32>) -> tensor<2x5x6x9x8xf32>
  %0 = relay.nn.conv3d %v, %u {channels = 5 : i64, kernel_size = array<i64: 1, 3, 3>, padding = array<i64: 0, 1, 1>} : (tensor<2x4x6x9x8xf32>, !relay.incomplete) -> !relay.incomplete
  // INFER: relay.nn.conv3d {{.*}} -> tensor<2x6x3x6x5xf32>
  %1 = relay.nn.conv3d %v, %w {strides = array<i64: 2, 1, 2>, padding = array<i64: 1, 0, 1, 0, 1, 1>, dilation = array<i64: 1, 2, 1>, groups = 2 : i64} : (tensor<2x4x6x9x8xf32>, tensor<6x2x3x3x2xf32>) -> !relay.incomplete
  // INFER: relay.nn.max_pool3d {{.*}} -> tensor<2x4x4x5x8xf32>
  %2 = relay.nn.max_pool3d %v {pool_size = array<i64: 3, 2, 3>, strides = array<i64: 2, 2, 1>, padding = array<i64: 1, 0, 1>, ceil_mode = true} : (tensor<2x4x6x9x8xf32>) -> !relay.incomplete
  // INFER: relay.nn.avg_pool3d {{.*}} -> tensor<2x4x3x4x4xf32>
  %3 = relay.nn.avg_pool3d %v {pool_size = array<i64: 2>, strides = array<i64: 2>, count_include_pad = true} : (tensor<2x4x6x9x8xf32>) -> !relay.incomplete
  // INFER: relay.nn.adaptive_avg_pool3d {{.*}} -> tensor<2x4x4x3x5xf32>
  %4 = relay.nn.adaptive_avg_pool3d %v {output_size = array<i64: 4, 3, 5>} : (tensor<2x4x6x9x8xf32>) -> !relay.incomplete
  // INFER: relay.nn.adaptive_max_pool3d {{.*}} -> tensor<2x4x1x1x1xf32>
  %5 = relay.nn.adaptive_max_pool3d %v {output_size = array<i64: 1>} : (tensor<2x4x6x9x8xf32>) -> !relay.incomplete
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// The quantized operators (scales f32, zero points i32, scalars or one per
// channel) and simulated_quantize.
// CHECK-LABEL: relay.func @quantized
// INFER-LABEL: relay.func @quantized
relay.func @quantized(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x3x3xi8>, %s: tensor<f32>, %z: tensor<i32>, %sc: tensor<3xf32>, %zc: tensor<3xi32>, %d: tensor<4x10xui8>, %dw: tensor<3x10xi8>) -> tensor<i1> {
  // CHECK: relay.qnn.quantize %{{.*}} {out_dtype = ui8} : (tensor<1x2x5x5xf32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  // INFER: relay.qnn.quantize {{.*}} -> tensor<1x2x5x5xui8>
  %0 = relay.qnn.quantize %x, %s, %z {out_dtype = ui8} : (tensor<1x2x5x5xf32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  // INFER: relay.qnn.conv2d {{.*}} -> tensor<1x3x5x5xi32>
  %1 = relay.qnn.conv2d %0, %w, %z, %zc, %s, %sc {padding = array<i64: 1, 1>} : (!relay.incomplete, tensor<3x2x3x3xi8>, tensor<i32>, tensor<3xi32>, tensor<f32>, tensor<3xf32>) -> !relay.incomplete
  // INFER: relay.qnn.requantize {{.*}} -> tensor<1x3x5x5xi8>
  %2 = relay.qnn.requantize %1, %sc, %z, %s, %z {axis = 1 : i64, rounding = "TONEAREST"} : (!relay.incomplete, tensor<3xf32>, tensor<i32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  // INFER: relay.qnn.add {{.*}} -> tensor<1x3x5x5xi8>
  %3 = relay.qnn.add %2, %2, %s, %z, %s, %z, %s, %z : (!relay.incomplete, !relay.incomplete, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  // INFER: relay.qnn.mul {{.*}} -> tensor<1x3x5x5xi8>
  %4 = relay.qnn.mul %3, %2, %s, %z, %s, %z, %s, %z : (!relay.incomplete, !relay.incomplete, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  // INFER: relay.qnn.subtract {{.*}} -> tensor<1x3x5x5xi8>
  %5 = relay.qnn.subtract %4, %3, %s, %z, %s, %z, %s, %z : (!relay.incomplete, !relay.incomplete, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  %t = relay.tuple(%5, %4 : !relay.incomplete, !relay.incomplete)
  %ts = relay.tuple(%s, %s : tensor<f32>, tensor<f32>)
  %tz = relay.tuple(%z, %z : tensor<i32>, tensor<i32>)
  // INFER: relay.qnn.concatenate {{.*}} -> tensor<1x6x5x5xi8>
  %6 = relay.qnn.concatenate %t, %ts, %tz, %s, %z {axis = 1 : i64} : (tuple<!relay.incomplete, !relay.incomplete>, tuple<tensor<f32>, tensor<f32>>, tuple<tensor<i32>, tensor<i32>>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  // INFER: relay.qnn.dequantize {{.*}} -> tensor<1x6x5x5xf32>
  %7 = relay.qnn.dequantize %6, %s, %z : (!relay.incomplete, tensor<f32>, tensor<i32>) -> !relay.incomplete
  // CHECK: relay.annotation.simulated_quantize %{{.*}} {kind = 3 : i64}
  // INFER: relay.annotation.simulated_quantize {{.*}} -> tensor<1x6x5x5xf32>
  %8 = relay.annotation.simulated_quantize %7, %s, %s, %s {kind = 3 : i64} : (!relay.incomplete, tensor<f32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  // INFER: relay.qnn.dense {{.*}} -> tensor<4x3xi32>
  %9 = relay.qnn.dense %d, %dw, %z, %zc, %s, %sc : (tensor<4x10xui8>, tensor<3x10xi8>, tensor<i32>, tensor<3xi32>, tensor<f32>, tensor<3xf32>) -> !relay.incomplete
  %b = relay.reshape %9 {newshape = array<i64: 1, 4, 3>} : (!relay.incomplete) -> !relay.incomplete
  %bi = relay.cast %b {dtype = i8} : (!relay.incomplete) -> !relay.incomplete
  // INFER: relay.qnn.batch_matmul {{.*}} -> tensor<1x4x4xi32>
  %10 = relay.qnn.batch_matmul %bi, %bi, %z, %z, %s, %s {transpose_b = true} : (!relay.incomplete, !relay.incomplete, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// Tests the image, vision and sequence operators added after TVM's
// (reverse_sequence, slice_like, upsampling3d, affine_grid, dilation2d,
// correlation, multibox_prior, fixed_point_multiply, multibox_transform_loc,
// get_valid_counts, non_max_suppression, roi_pool, proposal, dyn.zeros,
// dyn.ones, dyn.broadcast_to).
// CHECK-LABEL: relay.func @image_vision
// INFER-LABEL: relay.func @image_vision
relay.func @image_vision(%x: tensor<2x3x8x9xf32>, %l: tensor<2xi64>, %v: tensor<1x2x3x4x5xf32>, %t: tensor<2x2x3xf32>, %k: tensor<3x2x3xf32>, %i: tensor<4xi32>) -> tensor<i1> {
  // INFER: relay.reverse_sequence {{.*}} -> tensor<2x3x8x9xf32>
  %0 = relay.reverse_sequence %x, %l {seq_axis = 2 : i64} : (tensor<2x3x8x9xf32>, tensor<2xi64>) -> !relay.incomplete
  // INFER: relay.slice_like {{.*}} -> tensor<2x2x3x9xf32>
  %1 = relay.slice_like %x, %t : (tensor<2x3x8x9xf32>, tensor<2x2x3xf32>) -> !relay.incomplete
  // INFER: relay.nn.upsampling3d {{.*}} -> tensor<1x2x6x6x2xf32>
  %2 = relay.nn.upsampling3d %v {scale_d = 2.0 : f64, scale_h = 1.5 : f64, scale_w = 0.5 : f64} : (tensor<1x2x3x4x5xf32>) -> !relay.incomplete
  // INFER: relay.image.affine_grid {{.*}} -> tensor<2x2x4x6xf32>
  %3 = relay.image.affine_grid %t {target_shape = array<i64: 4, 6>} : (tensor<2x2x3xf32>) -> !relay.incomplete
  // INFER: relay.image.dilation2d {{.*}} -> tensor<2x3x5x7xf32>
  %4 = relay.image.dilation2d %x, %k {strides = array<i64: 2, 1>, padding = array<i64: 1, 0>} : (tensor<2x3x8x9xf32>, tensor<3x2x3xf32>) -> !relay.incomplete
  // INFER: relay.nn.correlation {{.*}} -> tensor<2x9x3x4xf32>
  %5 = relay.nn.correlation %x, %x {max_displacement = 2 : i64, stride1 = 2 : i64, stride2 = 2 : i64, padding = array<i64: 1, 1>} : (tensor<2x3x8x9xf32>, tensor<2x3x8x9xf32>) -> !relay.incomplete
  // INFER: relay.vision.multibox_prior {{.*}} -> tensor<1x288x4xf32>
  %6 = relay.vision.multibox_prior %x {sizes = array<f64: 0.2, 0.4>, ratios = array<f64: 1.0, 2.0, 0.5>} : (tensor<2x3x8x9xf32>) -> !relay.incomplete
  // INFER: relay.fixed_point_multiply {{.*}} -> tensor<4xi32>
  %7 = relay.fixed_point_multiply %i {multiplier = 1073741824 : i64, shift = -1 : i64} : (tensor<4xi32>) -> !relay.incomplete
  %prob = relay.reshape %6 {newshape = array<i64: 1, 4, 288>} : (!relay.incomplete) -> !relay.incomplete
  %loc = relay.reshape %6 {newshape = array<i64: 1, 1152>} : (!relay.incomplete) -> !relay.incomplete
  // INFER: relay.vision.multibox_transform_loc {{.*}} -> tuple<tensor<1x288x6xf32>, tensor<1xi32>>
  %8 = relay.vision.multibox_transform_loc %prob, %loc, %6 : (!relay.incomplete, !relay.incomplete, !relay.incomplete) -> !relay.incomplete
  %th = relay.constant dense<0.5> : tensor<f32>
  // INFER: relay.vision.get_valid_counts {{.*}} -> tuple<tensor<1xi32>, tensor<1x288x4xf32>, tensor<1x288xi32>>
  %9 = relay.vision.get_valid_counts %6, %th : (!relay.incomplete, tensor<f32>) -> !relay.incomplete
  %vc = relay.tuple_get %9[0] : !relay.incomplete
  %vb = relay.tuple_get %9[1] : !relay.incomplete
  %vi = relay.tuple_get %9[2] : !relay.incomplete
  %most = relay.constant dense<10> : tensor<i32>
  // INFER: relay.vision.non_max_suppression {{.*}} -> tuple<tensor<1x288xi32>, tensor<1x1xi32>>
  %nms = relay.vision.non_max_suppression %vb, %vc, %vi, %most, %th {coord_start = 0 : i64, score_index = 3 : i64, id_index = -1 : i64} : (!relay.incomplete, !relay.incomplete, !relay.incomplete, tensor<i32>, tensor<f32>) -> !relay.incomplete
  // INFER: relay.vision.non_max_suppression {{.*}} -> tensor<1x288x4xf32>
  %nmsRows = relay.vision.non_max_suppression %vb, %vc, %vi, %most, %th {coord_start = 0 : i64, score_index = 3 : i64, id_index = -1 : i64, return_indices = false} : (!relay.incomplete, !relay.incomplete, !relay.incomplete, tensor<i32>, tensor<f32>) -> !relay.incomplete
  %rois = relay.constant dense<1.0> : tensor<3x5xf32>
  // INFER: relay.vision.roi_pool {{.*}} -> tensor<3x3x2x2xf32>
  %10 = relay.vision.roi_pool %x, %rois {pooled_size = array<i64: 2>, spatial_scale = 0.5 : f64} : (tensor<2x3x8x9xf32>, tensor<3x5xf32>) -> !relay.incomplete
  %scores = relay.constant dense<0.5> : tensor<2x6x8x9xf32>
  %deltas = relay.constant dense<0.1> : tensor<2x12x8x9xf32>
  %info = relay.constant dense<64.0> : tensor<2x3xf32>
  // INFER: relay.vision.proposal {{.*}} -> tensor<20x5xf32>
  %proposals = relay.vision.proposal %scores, %deltas, %info {scales = array<f64: 8.0>, ratios = array<f64: 0.5, 1.0, 2.0>, rpn_post_nms_top_n = 10 : i64} : (tensor<2x6x8x9xf32>, tensor<2x12x8x9xf32>, tensor<2x3xf32>) -> !relay.incomplete
  %shape = relay.constant dense<[2, 3]> : tensor<2xi64>
  // INFER: relay.dyn.zeros {{.*}} -> tensor<?x?xf32>
  %11 = relay.dyn.zeros %shape : (tensor<2xi64>) -> !relay.incomplete
  // INFER: relay.dyn.ones {{.*}} -> tensor<?x?xi32>
  %12 = relay.dyn.ones %shape {dtype = i32} : (tensor<2xi64>) -> !relay.incomplete
  // INFER: relay.dyn.broadcast_to {{.*}} -> tensor<?x?xi32>
  %13 = relay.dyn.broadcast_to %i, %shape : (tensor<4xi32>, tensor<2xi64>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// The random operators: a key's type is inferred from its use (TVM's
// ThreefryKeyType), and each result carries the next key.
// CHECK-LABEL: relay.func @random
// INFER-LABEL: relay.func @random
relay.func @random(%k: !relay.incomplete, %probs: tensor<2x3x5xf32>) -> tensor<i1> {
  // CHECK: relay.random.threefry_split %{{.*}} : (!relay.incomplete) -> !relay.incomplete
  // INFER: relay.random.threefry_split {{.*}} : (tensor<10xui64>) -> tuple<tensor<10xui64>, tensor<10xui64>>
  %0 = relay.random.threefry_split %k : (!relay.incomplete) -> !relay.incomplete
  %left = relay.tuple_get %0[0] : !relay.incomplete
  // INFER: relay.random.threefry_generate {{.*}} -> tuple<tensor<10xui64>, tensor<3x4xui64>>
  %1 = relay.random.threefry_generate %left {out_shape = array<i64: 3, 4>} : (!relay.incomplete) -> !relay.incomplete
  %lo = relay.constant dense<0.0> : tensor<f64>
  %hi = relay.constant dense<1.0> : tensor<f64>
  // INFER: relay.random.uniform {{.*}} -> tuple<tensor<10xui64>, tensor<7xf64>>
  %2 = relay.random.uniform %left, %lo, %hi {out_shape = array<i64: 7>, out_dtype = f64} : (!relay.incomplete, tensor<f64>, tensor<f64>) -> !relay.incomplete
  %mean = relay.constant dense<0.0> : tensor<f32>
  %scale = relay.constant dense<1.0> : tensor<f32>
  // INFER: relay.random.normal {{.*}} -> tuple<tensor<10xui64>, tensor<2x2xf32>>
  %3 = relay.random.normal %left, %mean, %scale {out_shape = array<i64: 2, 2>} : (!relay.incomplete, tensor<f32>, tensor<f32>) -> !relay.incomplete
  // INFER: relay.random.multinomial {{.*}} -> tuple<tensor<10xui64>, tensor<2x3x4xi32>>
  %4 = relay.random.multinomial %left, %probs {num_samples = 4 : i64} : (!relay.incomplete, tensor<2x3x5xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// The bit-serial operators: nn.bitpack's words, and the products typed as
// the nn.dense / nn.conv2d they compute.
// CHECK-LABEL: relay.func @bitserial
// INFER-LABEL: relay.func @bitserial
relay.func @bitserial(%x: tensor<2x64xi32>, %w: tensor<5x64xi8>, %img: tensor<1x32x6x6xi16>, %f: tensor<4x32x3x3xi16>) -> tensor<i1> {
  // CHECK: relay.nn.bitpack %{{.*}} {bit_axis = 1 : i64, bits = 2 : i64, pack_type = ui8} : (tensor<2x64xi32>) -> !relay.incomplete
  // INFER: relay.nn.bitpack {{.*}} -> tensor<2x2x8xui8>
  %0 = relay.nn.bitpack %x {bits = 2 : i64, bit_axis = 1 : i64, pack_type = ui8} : (tensor<2x64xi32>) -> !relay.incomplete
  // INFER: relay.nn.bitserial_dense {{.*}} -> tensor<2x5xi16>
  %1 = relay.nn.bitserial_dense %x, %w {out_dtype = i16} : (tensor<2x64xi32>, tensor<5x64xi8>) -> !relay.incomplete
  // INFER: relay.nn.bitserial_conv2d {{.*}} -> tensor<1x4x6x6xi16>
  %2 = relay.nn.bitserial_conv2d %img, %f {padding = array<i64: 1, 1>, channels = 4 : i64, kernel_size = array<i64: 3, 3>} : (tensor<1x32x6x6xi16>, tensor<4x32x3x3xi16>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// nn.sparse_conv2d (a BSR weight of 2 block rows of 3) and
// qnn.contrib_dense_pack (Hexagon's NC32n4c weight).
// CHECK-LABEL: relay.func @sparse_conv_and_packed_qnn
// INFER-LABEL: relay.func @sparse_conv_and_packed_qnn
relay.func @sparse_conv_and_packed_qnn(%x: tensor<2x5x4x8xf32>, %v: tensor<3x3x4xf32>, %i: tensor<3xi32>, %p: tensor<3xi32>, %q: tensor<2x8xi8>, %w: tensor<1x2x32x4xi8>, %z: tensor<i32>, %s: tensor<f32>) -> tensor<i1> {
  // INFER: relay.nn.sparse_conv2d {{.*}} -> tensor<2x5x4x6xf32>
  %0 = relay.nn.sparse_conv2d %x, %v, %i, %p : (tensor<2x5x4x8xf32>, tensor<3x3x4xf32>, tensor<3xi32>, tensor<3xi32>) -> !relay.incomplete
  // INFER: relay.qnn.contrib_dense_pack {{.*}} -> tensor<2x32xi32>
  %1 = relay.qnn.contrib_dense_pack %q, %w, %z, %z, %s, %s {weight_layout = "NC32n4c"} : (tensor<2x8xi8>, tensor<1x2x32x4xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
