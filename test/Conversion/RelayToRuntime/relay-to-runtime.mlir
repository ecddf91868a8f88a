// RUN: relay-mlir-opt %s --split-input-file --relay-to-runtime | FileCheck %s
// RUN: relay-mlir-opt %s --split-input-file --relay-to-scf --relay-to-runtime | relay-mlir-opt > /dev/null

relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}

// Tests that constructors allocate tagged objects of boxed fields and that
// a match is an scf.if chain on the tag, its case moved into its branch
// with the bound field a read-only view of its box (no copy); the ADT
// declaration is gone.
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
// CHECK:   %[[BOX:.*]] = func.call @relay_rt_get_field(%[[CONS]]
// CHECK:   llvm.insertvalue %[[BOX]], %{{.*}}[0] : !llvm.struct<(ptr, ptr, i64)>
// CHECK:   llvm.insertvalue %[[BOX]], %{{.*}}[1] : !llvm.struct<(ptr, ptr, i64)>
// CHECK:   %[[VIEW:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64)> to memref<f32>
// CHECK:   %[[H:.*]] = bufferization.to_tensor %[[VIEW]] restrict
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
// sets the field, ref_read views the boxed value.
// CHECK-LABEL: relay.func @cell(
// CHECK: %[[CELL:.*]] = func.call @relay_rt_alloc
// CHECK: func.call @relay_rt_set_field(%[[CELL]]
// CHECK: func.call @relay_rt_set_field(%[[CELL]]
// CHECK: %[[BOX:.*]] = func.call @relay_rt_get_field(%[[CELL]]
// CHECK: llvm.insertvalue %[[BOX]]
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<2xf32>
relay.func @cell(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  %r = relay.ref %x : tensor<2xf32>
  %u = relay.ref_write %r, %y : !relay.ref<tensor<2xf32>>, tensor<2xf32>
  %v = relay.ref_read %r : !relay.ref<tensor<2xf32>>
  relay.return %v : tensor<2xf32>
}
