// RUN: relay-mlir-opt %s --sccp | FileCheck %s

// Tests that upstream --sccp sees through relay.if and relay.match through
// RegionBranchOpInterface: a result every branch yields as the same constant
// becomes that constant.

// CHECK-LABEL: relay.func @if_same_constant(
// CHECK:         %[[C:.*]] = relay.constant dense<3> : tensor<i32>
// CHECK:         relay.return %[[C]] : tensor<i32>
relay.func @if_same_constant(%c: tensor<i1>) -> tensor<i32> {
  %r = relay.if %c : tensor<i1> -> tensor<i32> {
    %a = relay.constant dense<3> : tensor<i32>
    relay.yield %a : tensor<i32>
  } else {
    %b = relay.constant dense<3> : tensor<i32>
    relay.yield %b : tensor<i32>
  }
  relay.return %r : tensor<i32>
}

// CHECK-LABEL: relay.func @if_different_constants(
// CHECK:         %[[R:.*]] = relay.if
// CHECK:         relay.return %[[R]] : tensor<i32>
relay.func @if_different_constants(%c: tensor<i1>) -> tensor<i32> {
  %r = relay.if %c : tensor<i1> -> tensor<i32> {
    %a = relay.constant dense<3> : tensor<i32>
    relay.yield %a : tensor<i32>
  } else {
    %b = relay.constant dense<4> : tensor<i32>
    relay.yield %b : tensor<i32>
  }
  relay.return %r : tensor<i32>
}

relay.data @Option[a] {
  relay.ctor @Some(!relay.tvar<a>)
  relay.ctor @None
}

// CHECK-LABEL: relay.func @match_same_constant(
// CHECK:         %[[C:.*]] = relay.constant dense<7> : tensor<i32>
// CHECK:         relay.return %[[C]] : tensor<i32>
relay.func @match_same_constant(%o: !relay.adt<@Option, tensor<i32>>) -> tensor<i32> {
  %r = relay.match %o : !relay.adt<@Option, tensor<i32>> -> tensor<i32> {
    case @Option::@Some(%v : tensor<i32>) {
      %a = relay.constant dense<7> : tensor<i32>
      relay.yield %a : tensor<i32>
    }
    case @Option::@None {
      %b = relay.constant dense<7> : tensor<i32>
      relay.yield %b : tensor<i32>
    }
  }
  relay.return %r : tensor<i32>
}
