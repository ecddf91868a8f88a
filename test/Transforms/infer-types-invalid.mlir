// RUN: relay-mlir-opt %s --relay-infer-types -split-input-file -verify-diagnostics
// Ill-typed programs: each error is reported at the offending op, naming
// the construct or operator and the types.

relay.func @branches(%c: tensor<i1>) -> !relay.incomplete {
  %r = relay.if %c : tensor<i1> -> !relay.incomplete {
    %a = relay.constant dense<1.0> : tensor<f32>
    relay.yield %a : tensor<f32>
  } else {
    %i = relay.constant dense<1> : tensor<i32>
    %b = relay.abs %i : (tensor<i32>) -> !relay.incomplete
    // expected-error @+1 {{relay.if: the yielded value has type 'tensor<i32>', expected 'tensor<f32>' ('i32' vs 'f32')}}
    relay.yield %b : !relay.incomplete
  }
  relay.return %r : !relay.incomplete
}

// -----

// A relation that fails once its operand types are inferred.
relay.func @late_broadcast(%a: tensor<3x4xf32>, %b: tensor<5xf32>) -> !relay.incomplete {
  %c = relay.nn.relu %b : (tensor<5xf32>) -> !relay.incomplete
  // expected-error @+1 {{add: cannot broadcast 'tensor<3x4xf32>' with 'tensor<5xf32>'}}
  %d = relay.add %a, %c : (tensor<3x4xf32>, !relay.incomplete) -> !relay.incomplete
  relay.return %d : !relay.incomplete
}

// -----

// Nothing determines %x's type.
relay.func @underdetermined(%x: !relay.incomplete) -> !relay.incomplete {
  // expected-error @+1 {{add: cannot infer the types: the operand types '!relay.tvar<$0>', '!relay.tvar<$0>' are not known well enough; annotate the inputs}}
  %y = relay.add %x, %x : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  relay.return %y : !relay.incomplete
}

// -----

// A weight of unknown type needs `units`.
relay.func @dense_weight(%x: tensor<2x8xf32>, %w: !relay.incomplete) -> !relay.incomplete {
  // expected-error @+1 {{nn.dense: cannot infer the types: the operand types 'tensor<2x8xf32>', '!relay.tvar<$0>' are not known well enough; annotate the inputs}}
  %y = relay.nn.dense %x, %w : (tensor<2x8xf32>, !relay.incomplete) -> !relay.incomplete
  relay.return %y : !relay.incomplete
}

// -----

// Tests that a weight typed from channels and kernel_size for packed
// layouts must pack to kernel_layout: 8 input channels are not blocks of 16.
relay.func @packed_conv_weight(%x: tensor<1x2x6x6x4xf32>, %w: !relay.incomplete) -> !relay.incomplete {
  // expected-error @+2 {{nn.conv2d: axis I of size 8 is not divisible by 16}}
  // expected-note @+1 {{packing the weight from OIHW to kernel_layout "OIHW16i16o"}}
  %y = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NCHW4c", kernel_layout = "OIHW16i16o"} : (tensor<1x2x6x6x4xf32>, !relay.incomplete) -> !relay.incomplete
  relay.return %y : !relay.incomplete
}

// -----

relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}
// An empty list whose element type nothing fixes.
relay.func @unknown_value() -> tensor<i32> {
  // expected-error @+1 {{cannot infer the type of the result of 'relay.construct': it stays '!relay.adt<@List, !relay.tvar<$1>>'; add a type annotation}}
  %nil = relay.construct @List::@Nil() : () -> !relay.incomplete
  %z = relay.constant dense<0> : tensor<i32>
  relay.return %z : tensor<i32>
}

// -----

relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}
// A list of i32 cannot take an f32 head.
relay.func @mixed_list() -> !relay.incomplete {
  %nil = relay.construct @List::@Nil() : () -> !relay.incomplete
  %i = relay.constant dense<1> : tensor<i32>
  %l = relay.construct @List::@Cons(%i, %nil) : (tensor<i32>, !relay.incomplete) -> !relay.incomplete
  %f = relay.constant dense<1.0> : tensor<f32>
  // expected-error @+1 {{relay.construct @List::@Cons: field #1 has type '!relay.adt<@List, tensor<i32>>', expected '!relay.adt<@List, tensor<f32>>' ('i32' vs 'f32')}}
  %m = relay.construct @List::@Cons(%f, %l) : (tensor<f32>, !relay.incomplete) -> !relay.incomplete
  relay.return %m : !relay.incomplete
}

// -----

relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}
// Matching a tensor against list patterns.
relay.func @match_tensor(%x: tensor<f32>) -> !relay.incomplete {
  %y = relay.nn.relu %x : (tensor<f32>) -> !relay.incomplete
  // expected-error @+1 {{relay.match: the value matched by pattern @List::@Nil has type 'tensor<f32>', expected '!relay.adt<@List, !relay.tvar<$2>>'}}
  %r = relay.match %y : !relay.incomplete -> tensor<f32> {
    case @List::@Nil {
      relay.yield %x : tensor<f32>
    }
  }
  relay.return %r : tensor<f32>
}

// -----

// The condition of `if` is a bool scalar.
relay.func @int_condition(%a: tensor<i32>) -> tensor<i32> {
  %c = relay.add %a, %a : (tensor<i32>, tensor<i32>) -> !relay.incomplete
  // expected-error @+1 {{relay.if: the condition (a bool scalar) has type 'tensor<i32>', expected 'tensor<i1>' ('i32' vs 'i1')}}
  %r = relay.if %c : !relay.incomplete -> tensor<i32> {
    relay.yield %a : tensor<i32>
  } else {
    relay.yield %a : tensor<i32>
  }
  relay.return %r : tensor<i32>
}

// -----

// Self-application has no finite type.
relay.func @omega() -> tensor<i32> {
  %w = relay.fn (%x: !relay.incomplete) -> !relay.incomplete {
    // expected-error @+1 {{relay.apply: the callee has type '!relay.tvar<$0>', expected '!relay.fn<(!relay.tvar<$0>) -> !relay.tvar<$3>>': the type would be infinite}}
    %r = relay.apply %x(%x) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
    relay.return %r : !relay.incomplete
  }
  %z = relay.constant dense<0> : tensor<i32>
  relay.return %z : tensor<i32>
}

// -----

// A type parameter is rigid inside its function.
relay.func @rigid[a](%x: !relay.tvar<a>, %c: tensor<i1>) -> !relay.incomplete {
  %r = relay.if %c : tensor<i1> -> !relay.incomplete {
    relay.yield %x : !relay.tvar<a>
  } else {
    %f = relay.constant dense<1.0> : tensor<f32>
    // expected-error @+1 {{relay.if: the yielded value has type 'tensor<f32>', expected '!relay.tvar<a>'}}
    relay.yield %f : tensor<f32>
  }
  relay.return %r : !relay.incomplete
}

// -----

// A closure parameter used as a function and then as a tensor.
relay.func @fn_as_tensor(%x: tensor<f32>) -> !relay.incomplete {
  %g = relay.fn (%f: !relay.incomplete) -> !relay.incomplete {
    %y = relay.apply %f(%x) : (!relay.incomplete, tensor<f32>) -> !relay.incomplete
    // expected-error @+1 {{add: expected a tensor for operand #0, got '!relay.fn<(tensor<f32>) -> !relay.tvar<$4>>'}}
    %z = relay.add %f, %x : (!relay.incomplete, tensor<f32>) -> !relay.incomplete
    relay.return %z : !relay.incomplete
  }
  relay.return %g : !relay.fn<(!relay.incomplete) -> !relay.incomplete>
}

// -----

// A tuple projection past the end, found once the tuple's type is known.
relay.func @projection(%a: tensor<f32>) -> !relay.incomplete {
  %t = relay.tuple(%a, %a : tensor<f32>, tensor<f32>)
  %get = relay.fn (%p: !relay.incomplete) -> !relay.incomplete {
    // expected-error @+1 {{relay.tuple_get: index 5 is out of range for 'tuple<tensor<f32>, tensor<f32>>'}}
    %x = relay.tuple_get %p[5] : !relay.incomplete
    relay.return %x : !relay.incomplete
  }
  %r = relay.apply %get(%t) : (!relay.fn<(!relay.incomplete) -> !relay.incomplete>, tuple<tensor<f32>, tensor<f32>>) -> !relay.incomplete
  relay.return %r : !relay.incomplete
}

// -----

relay.func @callee(%x: tensor<2xf32>) -> tensor<2xf32> {
  relay.return %x : tensor<2xf32>
}
// An argument whose inferred type differs from the parameter's.
relay.func @bad_argument(%a: tensor<3xf32>) -> !relay.incomplete {
  %b = relay.nn.relu %a : (tensor<3xf32>) -> !relay.incomplete
  // expected-error @+1 {{relay.call @callee: argument #0 has type 'tensor<3xf32>', expected 'tensor<2xf32>'}}
  %c = relay.call @callee(%b) : (!relay.incomplete) -> !relay.incomplete
  relay.return %c : !relay.incomplete
}

// -----

// Unknown relation in a `where` clause.
relay.func @unknown_relation(%f: !relay.fn<[a, b](!relay.tvar<a>) -> !relay.tvar<b> where NoSuchRel(!relay.tvar<a>, !relay.tvar<b>)>, %x: tensor<f32>) -> !relay.incomplete {
  // expected-error @+1 {{unknown type relation 'NoSuchRel'}}
  %r = relay.apply %f(%x) : (!relay.fn<[a, b](!relay.tvar<a>) -> !relay.tvar<b> where NoSuchRel(!relay.tvar<a>, !relay.tvar<b>)>, tensor<f32>) -> !relay.incomplete
  relay.return %r : !relay.incomplete
}

// -----

// Tests that a tensor type whose size in bytes overflows 64 bits (a
// dimension of 1.4e16 times two more) is an error at the parameter, not a
// negative size in the lowering.
// expected-error @+1 {{the tensor type 'tensor<14000000000000000x1000x1000xf32>' has more elements than 64-bit sizes can count (its size in bytes overflows)}}
relay.func @huge(%x: tensor<14000000000000000x1000x1000xf32>) -> tensor<14000000000000000x1000x1000xf32> {
  relay.return %x : tensor<14000000000000000x1000x1000xf32>
}

// -----

// Tests that a result whose size overflows is an error at its op.
relay.func @huge_result(%x: tensor<2x1xf32>) -> !relay.incomplete {
  // expected-error @+1 {{the tensor type 'tensor<2x4611686018427387904xf32>' has more elements than 64-bit sizes can count (its size in bytes overflows)}}
  %b = relay.broadcast_to %x {shape = array<i64: 2, 4611686018427387904>} : (tensor<2x1xf32>) -> !relay.incomplete
  relay.return %b : !relay.incomplete
}

// -----

// Tests that padding whose sum passes int64 is an error at its op (the
// size saturates), not a wrapped negative dimension.
relay.func @huge_padding(%x: tensor<4xf32>) -> !relay.incomplete {
  %z = relay.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{the tensor type 'tensor<9223372036854775807xf32>' has more elements than 64-bit sizes can count (its size in bytes overflows)}}
  %p = relay.nn.pad %x, %z {pad_width = array<i64: 5000000000000000000, 5000000000000000000>} : (tensor<4xf32>, tensor<f32>) -> !relay.incomplete
  relay.return %p : !relay.incomplete
}

// -----

// Tests that a concatenation of int8 axes summing past int64 is an error at
// its op: the saturated size counts as overflowed even where its bytes
// (one per element) would fit.
relay.func @huge_concatenation(%x: tuple<tensor<5000000000000000000xi8>, tensor<5000000000000000000xi8>>) -> !relay.incomplete {
  // expected-error @+1 {{the tensor type 'tensor<9223372036854775807xi8>' has more elements than 64-bit sizes can count (its size in bytes overflows)}}
  %c = relay.concatenate %x {axis = 0 : i64} : (tuple<tensor<5000000000000000000xi8>, tensor<5000000000000000000xi8>>) -> !relay.incomplete
  relay.return %c : !relay.incomplete
}
