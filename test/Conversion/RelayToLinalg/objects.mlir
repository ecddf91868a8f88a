// RUN: relay-mlir-opt %s --split-input-file --relay-defunctionalize --relay-set-target-cpu=cpu=znver4 --relay-to-linalg | FileCheck %s
// ADT values and references become runtime objects (!llvm.ptr), and so do
// closures, ADTs after --relay-defunctionalize.

relay.data @Option[a] {
  relay.ctor @Some(!relay.tvar<a>)
  relay.ctor @None
}

// A constructor allocates an object tagged with its position and boxes its
// fields; match tests the tag and reads the bound fields in place, and fails at run
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
// CHECK:   %[[FIELD:.*]] = func.call @relay_rt_get_field(%[[OBJ]], %c0_i64
// CHECK-NOT: relay_rt_unbox
// CHECK:   llvm.insertvalue %[[FIELD]], %{{.*}}[1]
// CHECK:   builtin.unrealized_conversion_cast {{.*}} to memref<2xf32>
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

// A closure that escapes is an object of its constructor's tag holding the
// captured values; the apply function tests the tag, reads the fields and
// runs the lifted code (inlined there: nothing else calls it).
// CHECK-LABEL: func.func @twice(
// CHECK-SAME: %[[F:.*]]: !llvm.ptr, %{{.*}}: tensor<f32>)
// CHECK: call @apply_Closure0(%[[F]],
// CHECK-LABEL: func.func @escape(
// CHECK-SAME: %[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>)
// CHECK: %[[C:.*]] = call @relay_rt_alloc(%c0_i64, %c1_i64)
// CHECK: call @relay_rt_set_field(%[[C]]
// CHECK: call @twice(%[[C]], %[[X]])
// CHECK-NOT: func.func private @escape_lifted0
// CHECK: func.func private @apply_Closure0(%[[ENV:.*]]: !llvm.ptr, %[[P:.*]]: tensor<f32>) -> tensor<f32>
// CHECK:   call @relay_rt_tag(%[[ENV]])
// CHECK:   scf.if
// CHECK:   func.call @relay_rt_get_field(%[[ENV]], %c0_i64
// CHECK:   linalg.generic
relay.func @twice(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  %a = relay.apply %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  %b = relay.apply %f(%a) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  relay.return %b : tensor<f32>
}
relay.func @escape(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %f = relay.fn (%p: tensor<f32>) -> tensor<f32> {
    %s = relay.add %p, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
    relay.return %s : tensor<f32>
  }
  %r = relay.call @twice(%f, %x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  relay.return %r : tensor<f32>
}

// -----

// A closure applied where it is made is no object: its lifted code is
// called with the captured values. One that uses a tuple from outside only
// through a projection captures that field alone.
// CHECK-LABEL: func.func @project(
// CHECK-SAME: %[[X:.*]]: tensor<f32>, %[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>, %[[C:.*]]: tensor<f32>)
// CHECK-NOT: relay_rt_alloc
// CHECK: call @project_lifted0(%[[B]], %[[X]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: func.func private @project_lifted0(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>)
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
