// RUN: relay-mlir-opt %s --split-input-file --relay-gradient="func=f mode=first-order" | FileCheck %s

// Tests that @f_grad takes @f's parameters and returns (f(x), (dx, dy)):
// the result seeded by ones, the adjoint of a value used twice summed, a
// parameter nothing reaches given zeros, and @f left as it was.
// CHECK-LABEL: relay.func @f(
// CHECK: relay.func @f_grad(%[[X:.*]]: tensor<3xf32>, %[[Y:.*]]: tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>, tensor<3xf32>>>
// CHECK-NEXT: %[[E:.*]] = relay.exp %[[X]]
// CHECK-NEXT: %[[M:.*]] = relay.multiply %[[E]], %[[E]]
// CHECK-NEXT: %[[SEED:.*]] = relay.ones_like %[[M]]
// CHECK-NEXT: %[[A:.*]] = relay.multiply %[[SEED]], %[[E]]
// CHECK-NEXT: %[[B:.*]] = relay.multiply %[[SEED]], %[[E]]
// CHECK-NEXT: %[[SUM:.*]] = relay.add %[[A]], %[[B]]
// CHECK-NEXT: %[[DX:.*]] = relay.multiply %[[SUM]], %[[E]]
// CHECK-NEXT: %[[DY:.*]] = relay.zeros_like %[[Y]]
// CHECK-NEXT: %[[GRADS:.*]] = relay.tuple(%[[DX]], %[[DY]]
// CHECK-NEXT: %[[OUT:.*]] = relay.tuple(%[[M]], %[[GRADS]]
// CHECK-NEXT: relay.return %[[OUT]]
relay.func @f(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %e = relay.exp %x : (tensor<3xf32>) -> tensor<3xf32>
  %m = relay.multiply %e, %e : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  relay.return %m : tensor<3xf32>
}

// -----

// Tests that a broadcast operand's gradient is summed back to its shape
// and a constant gets none.
// CHECK: relay.func @f_grad(%{{.*}}: tensor<2x3xf32>
// CHECK: relay.collapse_sum_like %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3xf32>
relay.func @f(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %c = relay.constant dense<2.0> : tensor<f32>
  %a = relay.add %x, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %m = relay.multiply %a, %c : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  relay.return %m : tensor<2x3xf32>
}

// -----

// Tests that relu's gradient masks by where relu's result is positive (the
// same elements as its input), so that the value before relu (a layer's
// bias add) has no use but relu and fuses with it in a training step.
// CHECK: relay.func @f_grad(%{{.*}}: tensor<4xf32>
// CHECK: %[[B:.*]] = relay.add %arg0, %arg1
// CHECK: %[[R:.*]] = relay.nn.relu %[[B]]
// CHECK-NOT: %[[B]]
// CHECK: relay.greater %[[R]], %{{.*}}
// CHECK-NOT: %[[B]]
// CHECK: relay.return
relay.func @f(%x: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %a = relay.add %x, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = relay.nn.relu %a : (tensor<4xf32>) -> tensor<4xf32>
  relay.return %r : tensor<4xf32>
}

// -----

// Tests that a tuple parameter gets a tuple gradient (zeros for its integer
// field) and a result nesting tuples is seeded with ones field by field,
// its integer field taking no seed (nothing left of one).
// CHECK: relay.func @f_grad(%[[X:.*]]: tensor<3xf32>, %[[T:.*]]: tuple<tensor<3xf32>, tensor<2xi32>>)
// CHECK: %[[E:.*]] = relay.exp %[[X]]
// CHECK: %[[T0:.*]] = relay.tuple_get %[[T]][0]
// CHECK: %[[S1:.*]] = relay.ones_like %[[E]]
// CHECK-NOT: relay.zeros_like
// CHECK: %[[S2:.*]] = relay.ones_like %[[T0]]
// CHECK: %[[DX:.*]] = relay.multiply %[[S1]], %[[E]]
// CHECK: %[[I:.*]] = relay.tuple_get %[[T]][1]
// CHECK: %[[DI:.*]] = relay.zeros_like %[[I]]
// CHECK: %[[DT:.*]] = relay.tuple(%[[S2]], %[[DI]]
// CHECK: relay.tuple(%[[DX]], %[[DT]]
relay.func @f(%x: tensor<3xf32>, %t: tuple<tensor<3xf32>, tensor<2xi32>>) -> tuple<tuple<tensor<3xf32>, tensor<2xi32>>, tensor<3xf32>> {
  %0 = relay.exp %x : (tensor<3xf32>) -> tensor<3xf32>
  %1 = relay.tuple_get %t[1] : tuple<tensor<3xf32>, tensor<2xi32>>
  %2 = relay.tuple(%0, %1 : tensor<3xf32>, tensor<2xi32>)
  %3 = relay.tuple_get %t[0] : tuple<tensor<3xf32>, tensor<2xi32>>
  %4 = relay.tuple(%2, %3 : tuple<tensor<3xf32>, tensor<2xi32>>, tensor<3xf32>)
  relay.return %4 : tuple<tuple<tensor<3xf32>, tensor<2xi32>>, tensor<3xf32>>
}
