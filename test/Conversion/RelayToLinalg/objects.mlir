// RUN: relay-mlir-opt %s --split-input-file --relay-to-linalg | FileCheck %s
// ADT values, references and closures become runtime objects (!llvm.ptr).

relay.data @Option[a] {
  relay.ctor @Some(!relay.tvar<a>)
  relay.ctor @None
}

// A constructor allocates an object tagged with its position and boxes its
// fields; match tests the tag and unboxes the bound fields, and fails at run
// time, located, when no case matches.
// CHECK-DAG: llvm.mlir.global private constant @relay_rt_message_0("{{.*}}objects.mlir:{{[0-9]+}}:{{[0-9]+}}\09no case of the match? matches the value\00")
// CHECK-DAG: func.func private @relay_rt_alloc(i64, i64) -> !llvm.ptr
// CHECK-LABEL: func.func @option(
// CHECK-SAME: %[[X:.*]]: tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[OBJ:.*]] = call @relay_rt_alloc(%c0_i64, %c1_i64)
// CHECK: %[[BUF:.*]] = bufferization.to_buffer %[[X]] read_only
// CHECK: %[[BOX:.*]] = call @relay_rt_box
// CHECK: call @relay_rt_set_field(%[[OBJ]], %c0_i64{{.*}}, %[[BOX]])
// CHECK: %[[TAG:.*]] = call @relay_rt_tag(%[[OBJ]])
// CHECK: %[[IS:.*]] = arith.cmpi eq, %[[TAG]], %c0_i64
// CHECK: scf.if %[[IS]] -> (tensor<2xf32>) {
// CHECK:   call @relay_rt_get_field(%[[OBJ]], %c0_i64
// CHECK:   memref.alloc() : memref<2xf32>
// CHECK:   call @relay_rt_unbox
// CHECK:   bufferization.to_tensor {{.*}} restrict
// CHECK: } else {
// CHECK:   llvm.mlir.addressof @relay_rt_message_0
// CHECK:   call @relay_rt_fail
relay.func @option(%x: tensor<2xf32>) -> tensor<2xf32> {
  %o = relay.construct @Option::@Some(%x) : (tensor<2xf32>) -> !relay.adt<@Option, tensor<2xf32>>
  %r = relay.match partial %o : !relay.adt<@Option, tensor<2xf32>> -> tensor<2xf32> {
    case @Option::@Some(%v : tensor<2xf32>) {
      relay.yield %v : tensor<2xf32>
    }
  }
  relay.return %r : tensor<2xf32>
}

// -----

// A closure is an object holding its kind and captured values; the body is
// lifted into a function taking the object; applying switches on the kind.
// CHECK-LABEL: func.func @apply(
// CHECK-SAME: %[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>)
// CHECK: %[[C:.*]] = call @relay_rt_alloc(%c0_i64, %c1_i64)
// CHECK: call @relay_rt_set_field(%[[C]]
// CHECK: %[[K:.*]] = call @relay_rt_tag(%[[C]])
// CHECK: %[[I:.*]] = arith.index_cast %[[K]] : i64 to index
// CHECK: scf.index_switch %[[I]] -> tensor<f32>
// CHECK: case 0 {
// CHECK:   %[[R:.*]] = func.call @apply_closure0(%[[C]], %[[X]])
// CHECK:   scf.yield %[[R]]
// CHECK: default {
// CHECK:   call @relay_rt_fail
// CHECK: func.func private @apply_closure0(%[[ENV:.*]]: !llvm.ptr, %[[P:.*]]: tensor<f32>) -> tensor<f32>
// CHECK:   call @relay_rt_get_field(%[[ENV]], %c0_i64
// CHECK:   linalg.generic
// CHECK:   return
relay.func @apply(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %f = relay.fn (%p: tensor<f32>) -> tensor<f32> {
    %s = relay.add %p, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
    relay.return %s : tensor<f32>
  }
  %r = relay.apply %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  relay.return %r : tensor<f32>
}

// -----

// A closure that uses a tuple from outside only through a projection
// captures that field alone: its object has one field, not three.
// CHECK-LABEL: func.func @project(
// CHECK: call @relay_rt_alloc(%c0_i64, %c1_i64)
// CHECK-NOT: relay_rt_alloc
// CHECK: func.func private @project_closure0(
// CHECK: call @relay_rt_get_field(%{{.*}}, %c0_i64
// CHECK-NOT: relay_rt_get_field
relay.func @project(%x: tensor<f32>, %a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>) -> tensor<f32> {
  %t = relay.tuple(%a, %b, %c : tensor<f32>, tensor<f32>, tensor<f32>)
  %f = relay.fn (%p: tensor<f32>) -> tensor<f32> {
    %y = relay.tuple_get %t[1] : tuple<tensor<f32>, tensor<f32>, tensor<f32>>
    %s = relay.add %p, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
    relay.return %s : tensor<f32>
  }
  %r = relay.apply %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  relay.return %r : tensor<f32>
}
