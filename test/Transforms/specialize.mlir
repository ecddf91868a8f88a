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
