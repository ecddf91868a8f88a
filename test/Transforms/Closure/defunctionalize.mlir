// RUN: relay-mlir-opt %s --split-input-file --relay-defunctionalize | FileCheck %s --implicit-check-not=relay.fn --implicit-check-not=relay.apply --implicit-check-not=!relay.fn
// RUN: relay-mlir-opt %s --split-input-file --relay-defunctionalize | relay-mlir-opt --relay-infer-types > /dev/null

// Tests that a recursive local function's own calls call its lifted code
// directly, that closures stored in a tuple and a reference get their ADT
// types, and that applying one no constructor is in sight of calls the
// apply function, which matches on the constructors and runs (inlined) the
// code nothing else calls.
// CHECK: relay.data @[[FACT:Closure[0-9]+]] {
// CHECK-NEXT: relay.ctor @[[FACT_CODE:main_lifted[0-9]+]]
// CHECK-NEXT: }
// CHECK: relay.data @[[SCALE:Closure[0-9]+]] {
// CHECK-NEXT: relay.ctor @[[SCALE_CODE:main_lifted[0-9]+]](tensor<f32>)
// CHECK: relay.func @main(
// CHECK-SAME: %[[N:.*]]: tensor<i64>, %[[W:.*]]: tensor<f32>)
// CHECK: %[[F:.*]] = relay.construct @[[FACT]]::@[[FACT_CODE]]()
// CHECK: %[[S:.*]] = relay.construct @[[SCALE]]::@[[SCALE_CODE]](%[[W]])
// CHECK: %[[R:.*]] = relay.ref %[[S]] : !relay.adt<@[[SCALE]]>
// CHECK: relay.tuple(%[[S]], %[[F]] : !relay.adt<@[[SCALE]]>, !relay.adt<@[[FACT]]>)
// CHECK: relay.call @apply_[[FACT]](%{{.*}}, %[[N]])
// CHECK: relay.ref_read %[[R]] : !relay.ref<!relay.adt<@[[SCALE]]>>
// CHECK: relay.call @apply_[[SCALE]](%{{.*}}, %[[W]])
// CHECK-NOT: relay.func private @[[SCALE_CODE]](
// CHECK: relay.func private @[[FACT_CODE]](%{{.*}}: tensor<i64>) -> tensor<i64>
// CHECK: relay.call @[[FACT_CODE]](%{{.*}}) : (tensor<i64>) -> tensor<i64>
// CHECK: relay.func private @apply_[[FACT]](%[[C:.*]]: !relay.adt<@[[FACT]]>, %[[X:.*]]: tensor<i64>)
// CHECK-NEXT: relay.match %[[C]]
// CHECK-NEXT: case @[[FACT]]::@[[FACT_CODE]] {
// CHECK-NEXT: relay.call @[[FACT_CODE]](%[[X]])
// CHECK: relay.func private @apply_[[SCALE]](%{{.*}}: !relay.adt<@[[SCALE]]>, %[[V:.*]]: tensor<f32>)
// CHECK: case @[[SCALE]]::@[[SCALE_CODE]](%[[FIELD:.*]]: tensor<f32>) {
// CHECK-NEXT: relay.multiply %[[V]], %[[FIELD]]
  relay.func @main(%arg0: tensor<i64>, %arg1: tensor<f32>) -> tuple<tensor<i64>, tensor<f32>> {
    %0 = relay.fn rec(%arg2) (%arg3: tensor<i64>) -> tensor<i64> {
      %9 = relay.constant dense<2> : tensor<i64>
      %10 = relay.less %arg3, %9 : (tensor<i64>, tensor<i64>) -> tensor<i1>
      %11 = relay.if %10 : tensor<i1> -> tensor<i64> {
        %12 = relay.constant dense<1> : tensor<i64>
        relay.yield %12 : tensor<i64>
      } else {
        %12 = relay.constant dense<1> : tensor<i64>
        %13 = relay.subtract %arg3, %12 : (tensor<i64>, tensor<i64>) -> tensor<i64>
        %14 = relay.apply %arg2(%13) : (!relay.fn<(tensor<i64>) -> tensor<i64>>, tensor<i64>) -> tensor<i64>
        %15 = relay.multiply %arg3, %14 : (tensor<i64>, tensor<i64>) -> tensor<i64>
        relay.yield %15 : tensor<i64>
      }
      relay.return %11 : tensor<i64>
    }
    %1 = relay.fn (%arg2: tensor<f32>) -> tensor<f32> {
      %9 = relay.multiply %arg2, %arg1 : (tensor<f32>, tensor<f32>) -> tensor<f32>
      relay.return %9 : tensor<f32>
    }
    %2 = relay.ref %1 : !relay.fn<(tensor<f32>) -> tensor<f32>>
    %3 = relay.tuple(%1, %0 : !relay.fn<(tensor<f32>) -> tensor<f32>>, !relay.fn<(tensor<i64>) -> tensor<i64>>)
    %4 = relay.tuple_get %3[1] : tuple<!relay.fn<(tensor<f32>) -> tensor<f32>>, !relay.fn<(tensor<i64>) -> tensor<i64>>>
    %5 = relay.apply %4(%arg0) : (!relay.fn<(tensor<i64>) -> tensor<i64>>, tensor<i64>) -> tensor<i64>
    %6 = relay.ref_read %2 : !relay.ref<!relay.fn<(tensor<f32>) -> tensor<f32>>>
    %7 = relay.apply %6(%arg1) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
    %8 = relay.tuple(%5, %7 : tensor<i64>, tensor<f32>)
    relay.return %8 : tuple<tensor<i64>, tensor<f32>>
  }

// -----

// Tests that a closure made and applied in one place needs no apply
// function (nor its ADT), that an inner closure is lifted first and the
// outer one's code makes it, and that a closure passed to a global function
// is an ADT value there.
// CHECK: relay.data @[[ADDER:Closure[0-9]+]] {
// CHECK-NEXT: relay.ctor @[[INNER:main_lifted[0-9]+]](tensor<f32>)
// CHECK-NEXT: }
// CHECK-NOT: relay.data
// CHECK: relay.func @twice(%[[F:.*]]: !relay.adt<@[[ADDER]]>, %{{.*}}: tensor<f32>)
// CHECK-COUNT-2: relay.call @apply_[[ADDER]](%[[F]],
// CHECK: relay.func @main(
// CHECK-NEXT: %[[G:.*]] = relay.call @[[OUTER:main_lifted[0-9]+]](%{{.*}}) : (tensor<f32>) -> !relay.adt<@[[ADDER]]>
// CHECK-NEXT: relay.call @[[HOF:main_lifted[0-9]+]](%{{.*}}, %[[G]])
// CHECK: relay.func private @[[HOF]](
// CHECK: relay.call @twice(
// CHECK: relay.func private @[[OUTER]](%[[A:.*]]: tensor<f32>) -> !relay.adt<@[[ADDER]]>
// CHECK-NEXT: relay.construct @[[ADDER]]::@[[INNER]](%[[A]])
// CHECK-NOT: relay.func private @[[INNER]](
// CHECK: relay.func private @apply_[[ADDER]](
// CHECK: case @[[ADDER]]::@[[INNER]](
// CHECK-NEXT: relay.add
  relay.func @twice(%arg0: !relay.fn<(tensor<f32>) -> tensor<f32>>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = relay.apply %arg0(%arg1) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
    %1 = relay.apply %arg0(%0) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
    relay.return %1 : tensor<f32>
  }
  relay.func @main(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = relay.fn (%arg1: tensor<f32>) -> !relay.fn<(tensor<f32>) -> tensor<f32>> {
      %4 = relay.fn (%arg2: tensor<f32>) -> tensor<f32> {
        %5 = relay.add %arg1, %arg2 : (tensor<f32>, tensor<f32>) -> tensor<f32>
        relay.return %5 : tensor<f32>
      }
      relay.return %4 : !relay.fn<(tensor<f32>) -> tensor<f32>>
    }
    %1 = relay.fn (%arg1: !relay.fn<(tensor<f32>) -> tensor<f32>>) -> tensor<f32> {
      %4 = relay.call @twice(%arg1, %arg0) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
      relay.return %4 : tensor<f32>
    }
    %2 = relay.apply %0(%arg0) : (!relay.fn<(tensor<f32>) -> !relay.fn<(tensor<f32>) -> tensor<f32>>>, tensor<f32>) -> !relay.fn<(tensor<f32>) -> tensor<f32>>
    %3 = relay.apply %1(%2) : (!relay.fn<(!relay.fn<(tensor<f32>) -> tensor<f32>>) -> tensor<f32>>, !relay.fn<(tensor<f32>) -> tensor<f32>>) -> tensor<f32>
    relay.return %3 : tensor<f32>
  }
