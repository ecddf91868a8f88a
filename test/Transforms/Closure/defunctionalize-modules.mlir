// RUN: relay-mlir-opt %s --mlir-disable-threading --pass-pipeline='builtin.module(builtin.module(relay-defunctionalize, relay-lambda-lift))' | FileCheck %s

// Tests that one pass instance run on two modules starts afresh on each:
// each gets its own @Closure0 and its lifted code, nothing of the other's.
// CHECK: module @first
// CHECK: relay.data @Closure0 {
// CHECK-NEXT: relay.ctor @main_lifted0(tensor<f32>)
// CHECK-NOT: relay.data
// CHECK: module @second
// CHECK: relay.data @Closure0 {
// CHECK-NEXT: relay.ctor @main_lifted0(tensor<i32>)
// CHECK-NOT: relay.data
module {
  module @first {
    relay.func @twice(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
      %a = relay.apply %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
      relay.return %a : tensor<f32>
    }
    relay.func @main(%x: tensor<f32>) -> tensor<f32> {
      %f = relay.fn (%y: tensor<f32>) -> tensor<f32> {
        %s = relay.add %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
        relay.return %s : tensor<f32>
      }
      %r = relay.call @twice(%f, %x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
      relay.return %r : tensor<f32>
    }
  }
  module @second {
    relay.func @twice(%f: !relay.fn<(tensor<i32>) -> tensor<i32>>, %x: tensor<i32>) -> tensor<i32> {
      %a = relay.apply %f(%x) : (!relay.fn<(tensor<i32>) -> tensor<i32>>, tensor<i32>) -> tensor<i32>
      relay.return %a : tensor<i32>
    }
    relay.func @main(%x: tensor<i32>) -> tensor<i32> {
      %f = relay.fn (%y: tensor<i32>) -> tensor<i32> {
        %s = relay.add %x, %y : (tensor<i32>, tensor<i32>) -> tensor<i32>
        relay.return %s : tensor<i32>
      }
      %r = relay.call @twice(%f, %x) : (!relay.fn<(tensor<i32>) -> tensor<i32>>, tensor<i32>) -> tensor<i32>
      relay.return %r : tensor<i32>
    }
  }
}
