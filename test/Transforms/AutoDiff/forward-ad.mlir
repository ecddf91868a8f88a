// RUN: relay-mlir-opt %s --split-input-file --relay-forward-ad=func=f | FileCheck %s

// Tests that @f_jvp takes the parameters then their tangents, pairs them,
// calls @f_dual and returns (value, tangent); that an operator's tangent
// comes from its rule (exp: the self-adjoint rule, dx * e; multiply: the
// bilinear one, dx*y + x*dy); and that an integer parameter keeps no
// tangent.
// CHECK: relay.func @f_jvp(%[[X:.*]]: tensor<3xf32>, %[[N:.*]]: tensor<i32>, %[[DX:.*]]: tensor<3xf32>, %{{.*}}: tensor<i32>) -> tuple<tensor<3xf32>, tensor<3xf32>>
// CHECK: %[[XD:.*]] = relay.tuple(%[[X]], %[[DX]]
// CHECK: %[[R:.*]] = relay.call @f_dual(%[[XD]], %[[N]])
// CHECK: %[[V:.*]] = relay.tuple_get %[[R]][0]
// CHECK: %[[T:.*]] = relay.tuple_get %[[R]][1]
// CHECK: relay.tuple(%[[V]], %[[T]]
// CHECK: relay.func private @f_dual(%[[P:.*]]: tuple<tensor<3xf32>, tensor<3xf32>>, %{{.*}}: tensor<i32>) -> tuple<tensor<3xf32>, tensor<3xf32>>
// CHECK: %[[PV:.*]] = relay.tuple_get %[[P]][0]
// CHECK: %[[E:.*]] = relay.exp %[[PV]]
// CHECK: %[[PT:.*]] = relay.tuple_get %[[P]][1]
// CHECK: %[[ET:.*]] = relay.multiply %[[PT]], %[[E]]
// CHECK: %[[ED:.*]] = relay.tuple(%[[E]], %[[ET]]
// CHECK: %[[M:.*]] = relay.multiply %{{.*}}, %{{.*}}
// CHECK: %[[T1:.*]] = relay.multiply %[[ET1:.*]], %{{.*}}
// CHECK: %[[T2:.*]] = relay.multiply %{{.*}}, %{{.*}}
// CHECK: %[[MT:.*]] = relay.add %[[T1]], %[[T2]]
// CHECK: relay.tuple(%[[M]], %[[MT]]
relay.func @f(%x: tensor<3xf32>, %n: tensor<i32>) -> tensor<3xf32> {
  %e = relay.exp %x : (tensor<3xf32>) -> tensor<3xf32>
  %m = relay.multiply %e, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  relay.return %m : tensor<3xf32>
}

// -----

// Tests that a constant's tangent is zeros and that an ADT with a tensor
// field gets a copy over dual values.
// CHECK: relay.data @Box_dual {
// CHECK-NEXT: relay.ctor @Box(tuple<tensor<2xf32>, tensor<2xf32>>)
// CHECK: relay.func private @f_dual(
// CHECK: %[[C:.*]] = relay.constant dense<2.000000e+00>
// CHECK: %[[Z:.*]] = relay.zeros_like %[[C]]
// CHECK: relay.tuple(%[[C]], %[[Z]]
// CHECK: relay.construct @Box_dual::@Box(
relay.data @Box {
  relay.ctor @Box(tensor<2xf32>)
}
relay.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = relay.constant dense<2.0> : tensor<2xf32>
  %m = relay.multiply %x, %c : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %b = relay.construct @Box::@Box(%m) : (tensor<2xf32>) -> !relay.adt<@Box>
  %r = relay.match %b : !relay.adt<@Box> -> tensor<2xf32> {
    case @Box::@Box(%v : tensor<2xf32>) {
      relay.yield %v : tensor<2xf32>
    }
  }
  relay.return %r : tensor<2xf32>
}
