// RUN: relay-mlir-opt %s --inline | FileCheck %s

// Tests that upstream --inline inlines Relay calls into Relay code.

relay.func private @double(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  relay.return %0 : tensor<4xf32>
}

// CHECK-LABEL: relay.func @caller(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>
// CHECK-NOT:     relay.call
// CHECK:         %[[D:.*]] = relay.add %[[X]], %[[X]]
// CHECK:         %[[E:.*]] = relay.add %[[D]], %[[D]]
// CHECK:         relay.return %[[E]]
relay.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.call @double(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = relay.call @double(%0) : (tensor<4xf32>) -> tensor<4xf32>
  relay.return %1 : tensor<4xf32>
}

// The private callee is gone once every call is inlined.
// CHECK-NOT: relay.func private @double

// Tests that calls inside closures and branches are inlined too.
relay.func private @inc(%x: tensor<i32>) -> tensor<i32> {
  %one = relay.constant dense<1> : tensor<i32>
  %0 = relay.add %x, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
  relay.return %0 : tensor<i32>
}

// CHECK-LABEL: relay.func @nested(
// CHECK:         relay.if
// CHECK-NOT:       relay.call
// CHECK:           relay.add
// CHECK:         relay.fn
// CHECK-NOT:       relay.call
// CHECK:           relay.add
relay.func @nested(%c: tensor<i1>, %x: tensor<i32>) -> tensor<i32> {
  %r = relay.if %c : tensor<i1> -> tensor<i32> {
    %0 = relay.call @inc(%x) : (tensor<i32>) -> tensor<i32>
    relay.yield %0 : tensor<i32>
  } else {
    relay.yield %x : tensor<i32>
  }
  %f = relay.fn (%y: tensor<i32>) -> tensor<i32> {
    %1 = relay.call @inc(%y) : (tensor<i32>) -> tensor<i32>
    relay.return %1 : tensor<i32>
  }
  %z = relay.apply %f(%r) : (!relay.fn<(tensor<i32>) -> tensor<i32>>, tensor<i32>) -> tensor<i32>
  relay.return %z : tensor<i32>
}

// Tests that recursive functions are not unrolled forever and polymorphic
// functions (which need specialisation first) are left alone.
// CHECK-LABEL: relay.func @recursive(
// CHECK:         relay.call @recursive
relay.func @recursive(%x: tensor<i32>) -> tensor<i32> {
  %0 = relay.call @recursive(%x) : (tensor<i32>) -> tensor<i32>
  relay.return %0 : tensor<i32>
}

// CHECK-LABEL: relay.func private @id[a]
relay.func private @id[a](%x: !relay.tvar<a>) -> !relay.tvar<a> {
  relay.return %x : !relay.tvar<a>
}

// CHECK-LABEL: relay.func @poly_caller(
// CHECK:         relay.call @id
relay.func @poly_caller(%x: tensor<i32>) -> tensor<i32> {
  %0 = relay.call @id(%x) : (tensor<i32>) -> tensor<i32>
  relay.return %0 : tensor<i32>
}
