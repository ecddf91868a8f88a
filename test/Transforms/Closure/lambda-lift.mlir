// RUN: relay-mlir-opt %s --split-input-file --relay-lambda-lift -verify-diagnostics | FileCheck %s
// RUN: relay-mlir-opt %s --split-input-file --relay-lambda-lift -verify-diagnostics | relay-mlir-translate --export-relay --split-input-file | FileCheck %s --check-prefix=TEXT

// Tests that a closure capturing values becomes a global of them returning
// the closure (relay.closure, TVM's Closure=1), called where it was made;
// that a recursive closure capturing nothing becomes the global itself,
// its recursive calls and its applications calls of it; and that inner
// closures are lifted first (the outer closure's lifted body calls the
// inner one's global).
// CHECK-LABEL: relay.func @main(
// CHECK-SAME: %[[X:.*]]: tensor<f32>)
// CHECK-NEXT: %[[ADD_X:.*]] = relay.call @[[ADD:main_lifted[0-9]+]](%[[X]]) : (tensor<f32>) -> !relay.fn<(tensor<f32>) -> tensor<f32>>
// CHECK-NEXT: %[[OUTER:.*]] = relay.call @[[OUTER_G:main_lifted[0-9]+]](%[[ADD_X]])
// CHECK-NEXT: %[[INNER:.*]] = relay.apply %[[OUTER]](%[[X]])
// CHECK-NEXT: relay.apply %[[INNER]](%[[X]])
// CHECK: relay.call @[[FACT:main_lifted[0-9]+]](%{{.*}}) : (tensor<i64>) -> tensor<i64>
// CHECK: relay.func private @[[OUTER_G]](%[[F:.*]]: !relay.fn<(tensor<f32>) -> tensor<f32>>) -> {{.*}} attributes {relay.closure} {
// CHECK-NEXT: relay.fn (%[[A:.*]]: tensor<f32>)
// CHECK-NEXT: relay.call @[[INNER_G:main_lifted[0-9]+]](%[[F]], %[[A]])
// CHECK: relay.func private @[[INNER_G]](%{{.*}}: !relay.fn<(tensor<f32>) -> tensor<f32>>, %{{.*}}: tensor<f32>) -> !relay.fn<(tensor<f32>) -> tensor<f32>> attributes {relay.closure}
// CHECK: relay.func private @[[FACT]](%{{.*}}: tensor<i64>) -> tensor<i64> {
// CHECK: relay.call @[[FACT]](%{{.*}}) : (tensor<i64>) -> tensor<i64>
// CHECK: relay.func private @[[ADD]](%[[C:.*]]: tensor<f32>) -> !relay.fn<(tensor<f32>) -> tensor<f32>> attributes {relay.closure} {
// CHECK-NEXT: relay.fn (%[[Y:.*]]: tensor<f32>) -> tensor<f32> {
// CHECK-NEXT: relay.add %[[C]], %[[Y]]
// TEXT: def @main_lifted0(%x: float32) -> fn (float32) -> float32 {
// TEXT-NEXT: fn (%x2: float32, Closure=1) -> float32 {
  relay.func @main(%arg0: tensor<f32>) -> tuple<tensor<f32>, tensor<i64>> {
    %0 = relay.fn (%arg1: tensor<f32>) -> tensor<f32> {
      %8 = relay.add %arg0, %arg1 : (tensor<f32>, tensor<f32>) -> tensor<f32>
      relay.return %8 : tensor<f32>
    }
    %1 = relay.fn rec(%arg1) (%arg2: tensor<i64>) -> tensor<i64> {
      %8 = relay.constant dense<2> : tensor<i64>
      %9 = relay.less %arg2, %8 : (tensor<i64>, tensor<i64>) -> tensor<i1>
      %10 = relay.if %9 : tensor<i1> -> tensor<i64> {
        %11 = relay.constant dense<1> : tensor<i64>
        relay.yield %11 : tensor<i64>
      } else {
        %11 = relay.constant dense<1> : tensor<i64>
        %12 = relay.subtract %arg2, %11 : (tensor<i64>, tensor<i64>) -> tensor<i64>
        %13 = relay.apply %arg1(%12) : (!relay.fn<(tensor<i64>) -> tensor<i64>>, tensor<i64>) -> tensor<i64>
        %14 = relay.multiply %arg2, %13 : (tensor<i64>, tensor<i64>) -> tensor<i64>
        relay.yield %14 : tensor<i64>
      }
      relay.return %10 : tensor<i64>
    }
    %2 = relay.fn (%arg1: tensor<f32>) -> !relay.fn<(tensor<f32>) -> tensor<f32>> {
      %8 = relay.fn (%arg2: tensor<f32>) -> tensor<f32> {
        %9 = relay.apply %0(%arg2) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
        %10 = relay.multiply %arg1, %9 : (tensor<f32>, tensor<f32>) -> tensor<f32>
        relay.return %10 : tensor<f32>
      }
      relay.return %8 : !relay.fn<(tensor<f32>) -> tensor<f32>>
    }
    %3 = relay.apply %2(%arg0) : (!relay.fn<(tensor<f32>) -> !relay.fn<(tensor<f32>) -> tensor<f32>>>, tensor<f32>) -> !relay.fn<(tensor<f32>) -> tensor<f32>>
    %4 = relay.apply %3(%arg0) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
    %5 = relay.constant dense<5> : tensor<i64>
    %6 = relay.apply %1(%5) : (!relay.fn<(tensor<i64>) -> tensor<i64>>, tensor<i64>) -> tensor<i64>
    %7 = relay.tuple(%4, %6 : tensor<f32>, tensor<i64>)
    relay.return %7 : tuple<tensor<f32>, tensor<i64>>
  }

// -----

// Tests that a closure in a polymorphic function stays (with a remark):
// its global would need the function's type parameters.
// CHECK-LABEL: relay.func @apply_id[A](
// CHECK: relay.fn
// CHECK-NOT: relay.func private
relay.func @apply_id[A](%x: !relay.tvar<A>) -> !relay.tvar<A> {
  // expected-remark @+1 {{relay-lambda-lift: a closure in polymorphic @apply_id is not lifted (run --relay-specialize first)}}
  %f = relay.fn (%y: !relay.tvar<A>) -> !relay.tvar<A> {
    relay.return %y : !relay.tvar<A>
  }
  %r = relay.apply %f(%x) : (!relay.fn<(!relay.tvar<A>) -> !relay.tvar<A>>, !relay.tvar<A>) -> !relay.tvar<A>
  relay.return %r : !relay.tvar<A>
}
