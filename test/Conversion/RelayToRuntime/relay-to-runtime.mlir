// RUN: relay-mlir-opt %s --split-input-file --relay-to-runtime | FileCheck %s
// RUN: relay-mlir-opt %s --split-input-file --relay-to-scf --relay-to-runtime | relay-mlir-opt > /dev/null

relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}

// Tests that constructors allocate tagged objects of boxed fields and that
// a match is an scf.if chain on the tag, its case moved into its branch
// with the bound field unboxed; the ADT declaration is gone.
// CHECK-NOT: relay.data
// CHECK-LABEL: relay.func @head(
// CHECK: %[[NIL:.*]] = func.call @relay_rt_alloc(%{{.*}}, %{{.*}}) : (i64, i64) -> !llvm.ptr
// CHECK: %[[CONS:.*]] = func.call @relay_rt_alloc
// CHECK: func.call @relay_rt_box
// CHECK: func.call @relay_rt_set_field(%[[CONS]]
// CHECK: func.call @relay_rt_set_field(%[[CONS]], %{{.*}}, %[[NIL]])
// CHECK: %[[TAG:.*]] = func.call @relay_rt_tag(%[[CONS]])
// CHECK: %[[IS:.*]] = arith.cmpi eq, %[[TAG]], %c0_i64
// CHECK: %[[R:.*]] = scf.if %[[IS]] -> (tensor<f32>) {
// CHECK:   func.call @relay_rt_get_field(%[[CONS]]
// CHECK:   func.call @relay_rt_unbox
// CHECK:   %[[H:.*]] = bufferization.to_tensor
// CHECK:   scf.yield %[[H]] : tensor<f32>
// CHECK: } else {
// CHECK:   func.call @relay_rt_fail
// CHECK: relay.return %[[R]] : tensor<f32>
relay.func @head(%x: tensor<f32>) -> tensor<f32> {
  %nil = relay.construct @List::@Nil() : () -> !relay.adt<@List, tensor<f32>>
  %l = relay.construct @List::@Cons(%x, %nil) : (tensor<f32>, !relay.adt<@List, tensor<f32>>) -> !relay.adt<@List, tensor<f32>>
  %h = relay.match partial %l : !relay.adt<@List, tensor<f32>> -> tensor<f32> {
    case @List::@Cons(%v : tensor<f32>, _) {
      relay.yield %v : tensor<f32>
    }
  }
  relay.return %h : tensor<f32>
}

// -----

// Tests that a reference is a one-field cell: ref allocates it, ref_write
// sets the field, ref_read unboxes it.
// CHECK-LABEL: relay.func @cell(
// CHECK: %[[CELL:.*]] = func.call @relay_rt_alloc
// CHECK: func.call @relay_rt_set_field(%[[CELL]]
// CHECK: func.call @relay_rt_set_field(%[[CELL]]
// CHECK: func.call @relay_rt_get_field(%[[CELL]]
// CHECK: func.call @relay_rt_unbox
relay.func @cell(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  %r = relay.ref %x : tensor<2xf32>
  %u = relay.ref_write %r, %y : !relay.ref<tensor<2xf32>>, tensor<2xf32>
  %v = relay.ref_read %r : !relay.ref<tensor<2xf32>>
  relay.return %v : tensor<2xf32>
}

// -----

// Tests that a closure becomes an object of its kind and captured values,
// its body a private function taking the object, which unboxes the
// captured value; applying it switches on the kind.
// CHECK-LABEL: relay.func @scale(
// CHECK: %[[OBJ:.*]] = func.call @relay_rt_alloc(%c0_i64, %c1_i64)
// CHECK: func.call @relay_rt_set_field(%[[OBJ]]
// CHECK: %[[K:.*]] = func.call @relay_rt_tag(%[[OBJ]])
// CHECK: scf.index_switch %{{.*}} -> tensor<f32>
// CHECK: case 0 {
// CHECK:   func.call @scale_closure0(%[[OBJ]], %{{.*}}) : (!llvm.ptr, tensor<f32>) -> tensor<f32>
// CHECK: default {
// CHECK:   func.call @relay_rt_fail
// CHECK-LABEL: func.func private @scale_closure0(
// CHECK-SAME: %[[SELF:.*]]: !llvm.ptr, %[[V:.*]]: tensor<f32>) -> tensor<f32>
// CHECK: call @relay_rt_get_field(%[[SELF]]
// CHECK: %[[W:.*]] = bufferization.to_tensor
// CHECK: %[[M:.*]] = relay.multiply %[[V]], %[[W]]
// CHECK: return %[[M]] : tensor<f32>
relay.func @scale(%x: tensor<f32>, %w: tensor<f32>) -> tensor<f32> {
  %f = relay.fn (%v: tensor<f32>) -> tensor<f32> {
    %m = relay.multiply %v, %w : (tensor<f32>, tensor<f32>) -> tensor<f32>
    relay.return %m : tensor<f32>
  }
  %r = relay.apply %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  relay.return %r : tensor<f32>
}
