// RUN: relay-mlir-opt %s --split-input-file --relay-partial-eval | FileCheck %s

// Tests that a known closure is applied at compile time and a reference
// nothing unknown reaches is read and written in the simulated store: no
// closure, reference or application is left.
// CHECK-LABEL: relay.func @main(%{{.*}}: tensor<3xf32>)
// CHECK-NOT: relay.fn
// CHECK-NOT: relay.ref
// CHECK-NOT: relay.apply
// CHECK: %[[E:.*]] = relay.exp %{{.*}}
// CHECK: %[[M:.*]] = relay.multiply %[[E]], %{{.*}}
// CHECK: relay.return %[[M]]
relay.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = relay.ref %x : tensor<3xf32>
  %f = relay.fn (%a: tensor<3xf32>) -> tensor<3xf32> {
    %e = relay.exp %a : (tensor<3xf32>) -> tensor<3xf32>
    %u = relay.ref_write %r, %e : !relay.ref<tensor<3xf32>>, tensor<3xf32>
    relay.return %e : tensor<3xf32>
  }
  %y = relay.apply %f(%x) : (!relay.fn<(tensor<3xf32>) -> tensor<3xf32>>, tensor<3xf32>) -> tensor<3xf32>
  %v = relay.ref_read %r : !relay.ref<tensor<3xf32>>
  %m = relay.multiply %v, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  relay.return %m : tensor<3xf32>
}

// -----

// Tests that recursion decided by known values (a constant trip count) is
// unfolded, its counter folded by the interpreter's kernels, while the
// same function called with an unknown count stays a call.
// CHECK-LABEL: relay.func @power(
// CHECK: relay.if
// CHECK: relay.call @power(
// CHECK-LABEL: relay.func @main(
// CHECK-NOT: relay.call
// CHECK-NOT: relay.if
// CHECK-COUNT-3: relay.multiply
// CHECK-NOT: relay.multiply
// CHECK: relay.call @power(
relay.func @power(%n: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %done = relay.equal %n, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %done : tensor<i1> -> tensor<f32> {
    %one = relay.constant dense<1.0> : tensor<f32>
    relay.yield %one : tensor<f32>
  } else {
    %c1 = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %c1 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %p = relay.call @power(%m, %x) : (tensor<i32>, tensor<f32>) -> tensor<f32>
    %y = relay.multiply %p, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
    relay.yield %y : tensor<f32>
  }
  relay.return %r : tensor<f32>
}
relay.func @main(%x: tensor<f32>, %n: tensor<i32>) -> tensor<f32> {
  %three = relay.constant dense<3> : tensor<i32>
  %a = relay.call @power(%three, %x) : (tensor<i32>, tensor<f32>) -> tensor<f32>
  %b = relay.call @power(%n, %a) : (tensor<i32>, tensor<f32>) -> tensor<f32>
  relay.return %b : tensor<f32>
}

// -----

// Tests that a match on a known constructor takes its case (nested
// patterns bound to the known fields).
// CHECK: relay.func @main(%[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>)
// CHECK-NOT: relay.match
// CHECK: %[[S:.*]] = relay.subtract %[[Y]], %[[X]]
// CHECK: relay.return %[[S]]
relay.data @List[A] {
  relay.ctor @Cons(!relay.tvar<A>, !relay.adt<@List, !relay.tvar<A>>)
  relay.ctor @Nil
}
relay.func @main(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %nil = relay.construct @List::@Nil() : () -> !relay.adt<@List, tensor<f32>>
  %l1 = relay.construct @List::@Cons(%y, %nil) : (tensor<f32>, !relay.adt<@List, tensor<f32>>) -> !relay.adt<@List, tensor<f32>>
  %l2 = relay.construct @List::@Cons(%x, %l1) : (tensor<f32>, !relay.adt<@List, tensor<f32>>) -> !relay.adt<@List, tensor<f32>>
  %r = relay.match %l2 : !relay.adt<@List, tensor<f32>> -> tensor<f32> {
    case @List::@Cons(_, @List::@Nil) {
      relay.yield %x : tensor<f32>
    }
    case @List::@Cons(%a : tensor<f32>, @List::@Cons(%b : tensor<f32>, _)) {
      %s = relay.subtract %b, %a : (tensor<f32>, tensor<f32>) -> tensor<f32>
      relay.yield %s : tensor<f32>
    }
    case _ {
      relay.yield %y : tensor<f32>
    }
  }
  relay.return %r : tensor<f32>
}

// -----

// Tests that a reference live when control becomes dynamic is made a real
// cell there, holding what the store knew (the write before it), and read
// and written by residual code after.
// CHECK: relay.func @main(%[[X:.*]]: tensor<f32>, %[[C:.*]]: tensor<i1>)
// CHECK: %[[N:.*]] = relay.negative %[[X]]
// CHECK: %[[R:.*]] = relay.ref %[[N]]
// CHECK: relay.if %[[C]]
// CHECK: relay.ref_write %[[R]], %[[X]]
// CHECK: relay.ref_read %[[R]]
relay.func @main(%x: tensor<f32>, %c: tensor<i1>) -> tensor<f32> {
  %r = relay.ref %x : tensor<f32>
  %n = relay.negative %x : (tensor<f32>) -> tensor<f32>
  %u = relay.ref_write %r, %n : !relay.ref<tensor<f32>>, tensor<f32>
  %i = relay.if %c : tensor<i1> -> tuple<> {
    %w = relay.ref_write %r, %x : !relay.ref<tensor<f32>>, tensor<f32>
    relay.yield %w : tuple<>
  } else {
    %t = relay.tuple()
    relay.yield %t : tuple<>
  }
  %v = relay.ref_read %r : !relay.ref<tensor<f32>>
  relay.return %v : tensor<f32>
}

// -----

// Tests that an unknown closure's application stays, with a known closure
// argument emitted as a closure, and that x + zeros_like(y) is x.
// CHECK: relay.func @main(%[[F:.*]]: !relay.fn
// CHECK: %[[G:.*]] = relay.fn (%[[A:.*]]: tensor<f32>) -> tensor<f32> {
// CHECK-NEXT: relay.return %[[A]]
// CHECK: %[[Y:.*]] = relay.apply %[[F]](%[[G]])
// CHECK-NOT: relay.add
// CHECK: relay.return %[[Y]]
relay.func @main(%f: !relay.fn<(!relay.fn<(tensor<f32>) -> tensor<f32>>) -> tensor<f32>>) -> tensor<f32> {
  %g = relay.fn (%a: tensor<f32>) -> tensor<f32> {
    relay.return %a : tensor<f32>
  }
  %y = relay.apply %f(%g) : (!relay.fn<(!relay.fn<(tensor<f32>) -> tensor<f32>>) -> tensor<f32>>, !relay.fn<(tensor<f32>) -> tensor<f32>>) -> tensor<f32>
  %z = relay.zeros_like %y : (tensor<f32>) -> tensor<f32>
  %s = relay.add %y, %z : (tensor<f32>, tensor<f32>) -> tensor<f32>
  relay.return %s : tensor<f32>
}
