// RUN: relay-mlir-opt %s --split-input-file --relay-infer-types --relay-specialize | FileCheck %s
// RUN: not relay-mlir-opt %s --split-input-file --relay-specialize 2>&1 | FileCheck %s --check-prefix=NOARGS

// One copy per distinct list of type arguments; chains of polymorphic calls
// are followed; the polymorphic originals go.
// CHECK-NOT: relay.func @id[
// CHECK-NOT: relay.func @twice[
// CHECK-DAG: relay.func private @[[ID_F32:id_spec[_0-9]*]](%{{.*}}: tensor<f32>) -> tensor<f32>
// CHECK-DAG: relay.func private @[[ID_I8:id_spec[_0-9]*]](%{{.*}}: tensor<3xi8>) -> tensor<3xi8>
// CHECK-DAG: relay.func private @[[TWICE_F32:twice_spec[_0-9]*]](%{{.*}}: tensor<f32>) -> tensor<f32>
// CHECK-DAG: relay.func private @[[TWICE_I8:twice_spec[_0-9]*]](%{{.*}}: tensor<3xi8>) -> tensor<3xi8>
// CHECK: relay.func @pair(
// CHECK: relay.call @[[TWICE_F32]](%{{.*}}) : (tensor<f32>) -> tensor<f32>
// CHECK: relay.call @[[TWICE_I8]](%{{.*}}) : (tensor<3xi8>) -> tensor<3xi8>
// CHECK: relay.call @[[TWICE_F32]](%{{.*}}) : (tensor<f32>) -> tensor<f32>
relay.func @id(%x: !relay.incomplete) -> !relay.incomplete {
  relay.return %x : !relay.incomplete
}
relay.func @twice(%x: !relay.incomplete) -> !relay.incomplete {
  %y = relay.call @id(%x) : (!relay.incomplete) -> !relay.incomplete
  %z = relay.call @id(%y) : (!relay.incomplete) -> !relay.incomplete
  relay.return %z : !relay.incomplete
}
relay.func @pair(%a: tensor<f32>, %b: tensor<3xi8>) -> !relay.incomplete {
  %x = relay.call @twice(%a) : (tensor<f32>) -> !relay.incomplete
  %y = relay.call @twice(%b) : (tensor<3xi8>) -> !relay.incomplete
  %w = relay.call @twice(%a) : (tensor<f32>) -> !relay.incomplete
  %t = relay.tuple(%x, %y, %w : !relay.incomplete, !relay.incomplete, !relay.incomplete)
  relay.return %t : tuple<!relay.incomplete, !relay.incomplete, !relay.incomplete>
}

// -----

// A call without type arguments (types not inferred) is an error.
relay.func @id[a](%x: !relay.tvar<a>) -> !relay.tvar<a> {
  relay.return %x : !relay.tvar<a>
}
relay.func @main(%a: tensor<f32>) -> tensor<f32> {
  // NOARGS: error: relay-specialize: the call of polymorphic @id has no type arguments (run --relay-infer-types first)
  %b = relay.call @id(%a) : (tensor<f32>) -> tensor<f32>
  relay.return %b : tensor<f32>
}

// -----

// Tests that a polymorphic global used as a value, and a polymorphic local
// function, become the instance of the type each use expects: an argument
// of a call, an applied closure (one local function at two types).
// CHECK-LABEL: relay.func private @id_spec(%{{.*}}: tensor<f32>) -> tensor<f32>
// CHECK-LABEL: relay.func @main(
// CHECK-DAG: %[[I32:.*]] = relay.fn (%{{.*}}: tensor<i32>) -> tensor<i32> {
// CHECK-DAG: %[[F32:.*]] = relay.fn (%{{.*}}: tensor<f32>) -> tensor<f32> {
// CHECK-DAG: %[[REF:.*]] = relay.global_ref @id_spec : !relay.fn<(tensor<f32>) -> tensor<f32>>
// CHECK: relay.call @apply_f(%[[REF]], %{{.*}})
// CHECK: relay.call @apply_f(%[[F32]], %{{.*}})
// CHECK: relay.apply %[[I32]](%{{.*}}) : (!relay.fn<(tensor<i32>) -> tensor<i32>>, tensor<i32>) -> tensor<i32>
relay.func @id[A](%arg0: !relay.tvar<A>) -> !relay.tvar<A> {
  relay.return %arg0 : !relay.tvar<A>
}
relay.func @apply_f(%arg0: !relay.fn<(tensor<f32>) -> tensor<f32>>, %arg1: tensor<f32>) -> tensor<f32> {
  %0 = relay.apply %arg0(%arg1) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  relay.return %0 : tensor<f32>
}
relay.func @main(%arg0: tensor<f32>, %arg1: tensor<i32>) -> tuple<tensor<f32>, tensor<f32>, tensor<i32>> {
  %0 = relay.fn [B](%arg2: !relay.tvar<B>) -> !relay.tvar<B> {
    relay.return %arg2 : !relay.tvar<B>
  }
  %1 = relay.global_ref @id : !relay.fn<[A](!relay.tvar<A>) -> !relay.tvar<A>>
  %2 = relay.call @apply_f(%1, %arg0) : (!relay.fn<[A](!relay.tvar<A>) -> !relay.tvar<A>>, tensor<f32>) -> tensor<f32>
  %3 = relay.call @apply_f(%0, %arg0) : (!relay.fn<[B](!relay.tvar<B>) -> !relay.tvar<B>>, tensor<f32>) -> tensor<f32>
  %4 = relay.apply %0(%arg1) : (!relay.fn<[B](!relay.tvar<B>) -> !relay.tvar<B>>, tensor<i32>) -> !relay.incomplete
  %5 = relay.tuple(%2, %3, %4 : tensor<f32>, tensor<f32>, !relay.incomplete)
  relay.return %5 : tuple<tensor<f32>, tensor<f32>, !relay.incomplete>
}

// -----

// Tests that a recursive function polymorphic over a ShapeVar is
// specialised with its recursive call (typed at its own parameters, so
// without type arguments) going to the same instance.
// CHECK-LABEL: relay.func private @loop_spec(
// CHECK-SAME: %{{.*}}: tensor<i32>, %{{.*}}: tensor<5x4xf32>) -> tensor<5x4xf32>
// CHECK: relay.call @loop_spec(%{{.*}}, %{{.*}}) : (tensor<i32>, tensor<5x4xf32>) -> tensor<5x4xf32>
// CHECK-LABEL: relay.func @main(
// CHECK: relay.call @loop_spec(
relay.func @loop[n : ShapeVar](%i: tensor<i32>, %x: !relay.tensor<[n, 4], f32>) -> !relay.tensor<[n, 4], f32> {
  %three = relay.constant dense<3> : tensor<i32>
  %c = relay.less %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %c : tensor<i1> -> !relay.tensor<[n, 4], f32> {
    %one = relay.constant dense<1> : tensor<i32>
    %j = relay.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %y = relay.call @loop(%j, %x) : (tensor<i32>, !relay.tensor<[n, 4], f32>) -> !relay.tensor<[n, 4], f32>
    relay.yield %y : !relay.tensor<[n, 4], f32>
  } else {
    relay.yield %x : !relay.tensor<[n, 4], f32>
  }
  relay.return %r : !relay.tensor<[n, 4], f32>
}
relay.func @main(%x: tensor<5x4xf32>) -> tensor<5x4xf32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %y = relay.call @loop(%zero, %x) : (tensor<i32>, tensor<5x4xf32>) -> tensor<5x4xf32>
  relay.return %y : tensor<5x4xf32>
}

// -----

// Tests that a polymorphic function passing its ShapeVar on to another
// (a call type inference leaves without type arguments: they are not a
// static shape there) is specialised through both: in the copy the call's
// operands are concrete and its type arguments are inferred.
// CHECK-NOT: relay.func @inner[
// CHECK-LABEL: relay.func private @inner_spec(
// CHECK-SAME: tensor<3x2xf32>
// CHECK-LABEL: relay.func private @outer_spec(
// CHECK-SAME: tensor<3x2xf32>
// CHECK: relay.call @inner_spec(%{{.*}}) : (tensor<3x2xf32>) -> tensor<3x2xf32>
relay.func @inner[m : ShapeVar](%y: !relay.tensor<[m, 2], f32>) -> !relay.tensor<[m, 2], f32> {
  %z = relay.negative %y : (!relay.tensor<[m, 2], f32>) -> !relay.tensor<[m, 2], f32>
  relay.return %z : !relay.tensor<[m, 2], f32>
}
relay.func @outer[n : ShapeVar](%x: !relay.tensor<[n, 2], f32>) -> !relay.tensor<[n, 2], f32> {
  %y = relay.call @inner(%x) : (!relay.tensor<[n, 2], f32>) -> !relay.tensor<[n, 2], f32>
  relay.return %y : !relay.tensor<[n, 2], f32>
}
relay.func @main(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %y = relay.call @outer(%x) : (tensor<3x2xf32>) -> tensor<3x2xf32>
  relay.return %y : tensor<3x2xf32>
}
