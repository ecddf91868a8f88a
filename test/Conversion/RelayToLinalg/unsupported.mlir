// RUN: relay-mlir-opt %s --relay-to-linalg -split-input-file -verify-diagnostics
// What native code does not cover yet is reported at the op.

// A closure before --relay-defunctionalize (here a polymorphic global
// function used as a value).
relay.func @id[a](%x: !relay.tvar<a>) -> !relay.tvar<a> {
  relay.return %x : !relay.tvar<a>
}
relay.func @poly_value() -> !relay.fn<[a](!relay.tvar<a>) -> !relay.tvar<a>> {
  // expected-error @+1 {{relay-to-linalg: cannot lower 'relay.global_ref': closures are lowered as ADTs, run --relay-defunctionalize first}}
  %f = relay.global_ref @id : !relay.fn<[a](!relay.tvar<a>) -> !relay.tvar<a>>
  relay.return %f : !relay.fn<[a](!relay.tvar<a>) -> !relay.tvar<a>>
}

// -----

// expected-error @+1 {{relay-to-linalg: cannot lower @dyn yet: its signature has 'tensor<?xf32>' (native code handles tensors of static shape and tuples of them)}}
relay.func @dyn(%x: tensor<?xf32>) -> tensor<?xf32> {
  relay.return %x : tensor<?xf32>
}

// -----

relay.func @bicubic(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error @+1 {{relay-to-linalg: cannot lower 'relay.nn.upsampling' yet: its lowering does not cover these attributes or types}}
  %r = relay.nn.upsampling %x {scale_h = 2.0 : f64, scale_w = 2.0 : f64, method = "bicubic"} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  relay.return %r : tensor<1x1x4x4xf32>
}


// -----

// A 3-d convolution the target does not keep whole (strided: not the CPU's
// Winograd), before --relay-decompose.
relay.func @conv3d(%x: tensor<1x16x4x16x16xf32>, %w: tensor<16x16x3x3x3xf32>) -> tensor<1x16x2x8x8xf32> {
  // expected-error @+1 {{relay-to-linalg: cannot lower 'relay.nn.conv3d' for target 'cpu': run --relay-decompose first (a target lowers only the 3-d convolutions it keeps whole)}}
  %r = relay.nn.conv3d %x, %w {padding = array<i64: 1>, strides = array<i64: 2>} : (tensor<1x16x4x16x16xf32>, tensor<16x16x3x3x3xf32>) -> tensor<1x16x2x8x8xf32>
  relay.return %r : tensor<1x16x2x8x8xf32>
}
