// RUN: relay-mlir-opt %s --split-input-file --relay-to-scf | FileCheck %s
// RUN: relay-mlir-opt %s --split-input-file --relay-to-scf | relay-mlir-opt > /dev/null

// Tests that functions, calls and `if` become func and scf on flattened
// tuples, with the operators left as they are.
// CHECK-LABEL: func.func @branch(
// CHECK-SAME: %[[C:.*]]: tensor<i1>, %[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK: %[[F:.*]] = tensor.extract %[[C]][] : tensor<i1>
// CHECK: %[[R:.*]]:2 = scf.if %[[F]] -> (tensor<2xf32>, tensor<2xf32>) {
// CHECK:   %[[S:.*]] = relay.add %[[A]], %[[B]]
// CHECK:   scf.yield %[[S]], %[[B]] : tensor<2xf32>, tensor<2xf32>
// CHECK: } else {
// CHECK:   %[[P:.*]]:2 = func.call @swap(%[[A]], %[[B]]) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK:   scf.yield %[[P]]#0, %[[P]]#1
// CHECK: return %[[R]]#0, %[[R]]#1 : tensor<2xf32>, tensor<2xf32>
relay.func @branch(%c: tensor<i1>, %t: tuple<tensor<2xf32>, tensor<2xf32>>) -> tuple<tensor<2xf32>, tensor<2xf32>> {
  %r = relay.if %c : tensor<i1> -> tuple<tensor<2xf32>, tensor<2xf32>> {
    %a = relay.tuple_get %t[0] : tuple<tensor<2xf32>, tensor<2xf32>>
    %b = relay.tuple_get %t[1] : tuple<tensor<2xf32>, tensor<2xf32>>
    %s = relay.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %u = relay.tuple(%s, %b : tensor<2xf32>, tensor<2xf32>)
    relay.yield %u : tuple<tensor<2xf32>, tensor<2xf32>>
  } else {
    %p = relay.call @swap(%t) : (tuple<tensor<2xf32>, tensor<2xf32>>) -> tuple<tensor<2xf32>, tensor<2xf32>>
    relay.yield %p : tuple<tensor<2xf32>, tensor<2xf32>>
  }
  relay.return %r : tuple<tensor<2xf32>, tensor<2xf32>>
}

// CHECK-LABEL: func.func private @swap(
// CHECK-SAME: %[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>)
// CHECK: return %[[B]], %[[A]]
relay.func private @swap(%t: tuple<tensor<2xf32>, tensor<2xf32>>) -> tuple<tensor<2xf32>, tensor<2xf32>> {
  %a = relay.tuple_get %t[0] : tuple<tensor<2xf32>, tensor<2xf32>>
  %b = relay.tuple_get %t[1] : tuple<tensor<2xf32>, tensor<2xf32>>
  %u = relay.tuple(%b, %a : tensor<2xf32>, tensor<2xf32>)
  relay.return %u : tuple<tensor<2xf32>, tensor<2xf32>>
}

// -----

// Tests that a function whose self-calls are all tail calls becomes a loop:
// the self-call continues with its arguments, the other branch ends it.
// CHECK-LABEL: func.func @count(
// CHECK-SAME: %[[N:.*]]: tensor<i32>, %[[ACC:.*]]: tensor<i32>) -> tensor<i32>
// CHECK: %[[L:.*]]:3 = scf.while (%[[AN:.*]] = %[[N]], %[[AA:.*]] = %[[ACC]]) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>) {
// CHECK:   %[[R:.*]]:4 = scf.if %{{.*}} -> (i1, tensor<i32>, tensor<i32>, tensor<i32>) {
// CHECK:     %[[TRUE:.*]] = arith.constant true
// CHECK:     %[[E:.*]] = tensor.empty() : tensor<i32>
// CHECK:     scf.yield %[[TRUE]], %{{.*}}, %{{.*}}, %[[E]]
// CHECK:   } else {
// CHECK:     %[[FALSE:.*]] = arith.constant false
// CHECK:     scf.yield %[[FALSE]], %[[AN]], %[[AA]], %[[AA]]
// CHECK:   scf.condition(%[[R]]#0) %[[R]]#1, %[[R]]#2, %[[R]]#3
// CHECK: } do {
// CHECK: ^bb0(%[[X:.*]]: tensor<i32>, %[[Y:.*]]: tensor<i32>, %{{.*}}: tensor<i32>):
// CHECK:   scf.yield %[[X]], %[[Y]]
// CHECK: return %[[L]]#2 : tensor<i32>
// CHECK-NOT: call @count
relay.func @count(%n: tensor<i32>, %acc: tensor<i32>) -> tensor<i32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %more = relay.greater %n, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %more : tensor<i1> -> tensor<i32> {
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %a = relay.add %acc, %n : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %c = relay.call @count(%m, %a) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    relay.yield %c : tensor<i32>
  } else {
    relay.yield %acc : tensor<i32>
  }
  relay.return %r : tensor<i32>
}

// -----

// Tests that a self-call whose result is used after it is no tail call:
// the function stays recursive.
// CHECK-LABEL: func.func @fact(
// CHECK-NOT: scf.while
// CHECK: call @fact
relay.func @fact(%n: tensor<i32>) -> tensor<i32> {
  %one = relay.constant dense<1> : tensor<i32>
  %done = relay.less_equal %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %done : tensor<i1> -> tensor<i32> {
    relay.yield %one : tensor<i32>
  } else {
    %m = relay.subtract %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %f = relay.call @fact(%m) : (tensor<i32>) -> tensor<i32>
    %p = relay.multiply %n, %f : (tensor<i32>, tensor<i32>) -> tensor<i32>
    relay.yield %p : tensor<i32>
  }
  relay.return %r : tensor<i32>
}

// -----

// Tests that closures and ADTs are left to --relay-to-runtime: a relay.fn
// stays (its body converted), and a tuple parameter of it is taken apart
// with relay.tuple_get where converted ops read it.
// CHECK-LABEL: func.func @keeps_closures(
// CHECK: relay.fn (%[[T:.*]]: tuple<tensor<f32>, tensor<f32>>) -> tensor<f32> {
// CHECK:   %[[A:.*]] = relay.tuple_get %[[T]][0]
// CHECK:   relay.return %[[A]] : tensor<f32>
relay.func @keeps_closures() -> !relay.fn<(tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>> {
  %f = relay.fn (%t: tuple<tensor<f32>, tensor<f32>>) -> tensor<f32> {
    %a = relay.tuple_get %t[0] : tuple<tensor<f32>, tensor<f32>>
    relay.return %a : tensor<f32>
  }
  relay.return %f : !relay.fn<(tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>>
}
