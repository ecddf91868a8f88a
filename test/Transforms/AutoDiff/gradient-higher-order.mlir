// RUN: relay-mlir-opt %s --split-input-file --relay-gradient=func=f | FileCheck %s

// Tests seed 000's Fig. 4: @f_ad pairs each tensor with a gradient
// reference and prepends each operator's adjoint to the backpropagator;
// @f_grad pairs the parameters, seeds the result with ones, runs the
// backpropagator and reads the parameters' gradients.
// CHECK: relay.func @f_grad(%[[X:.*]]: tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>>
// CHECK: %[[NOP:.*]] = relay.fn () -> tuple<>
// CHECK: %[[BP:.*]] = relay.ref %[[NOP]] : !relay.fn<() -> tuple<>>
// CHECK: %[[XZ:.*]] = relay.zeros_like %[[X]]
// CHECK: %[[XG:.*]] = relay.ref %[[XZ]]
// CHECK: %[[XAD:.*]] = relay.tuple(%[[X]], %[[XG]]
// CHECK: %[[R:.*]] = relay.call @f_ad(%[[BP]], %[[XAD]])
// CHECK: %[[V:.*]] = relay.tuple_get %[[R]][0]
// CHECK: %[[ONES:.*]] = relay.ones_like %[[V]]
// CHECK: %[[RG:.*]] = relay.tuple_get %[[R]][1]
// CHECK: %[[OLD:.*]] = relay.ref_read %[[RG]]
// CHECK: %[[SEEDED:.*]] = relay.add %[[OLD]], %[[ONES]]
// CHECK: relay.ref_write %[[RG]], %[[SEEDED]]
// CHECK: %[[BACK:.*]] = relay.ref_read %[[BP]]
// CHECK: relay.apply %[[BACK]]()
// CHECK: %[[XG2:.*]] = relay.tuple_get %[[XAD]][1]
// CHECK: %[[DX:.*]] = relay.ref_read %[[XG2]]
// CHECK: %[[GRADS:.*]] = relay.tuple(%[[DX]] : tensor<3xf32>)
// CHECK: relay.tuple(%[[V]], %[[GRADS]]
// CHECK: relay.func private @f_ad(%[[BPP:.*]]: !relay.ref<!relay.fn<() -> tuple<>>>, %[[XP:.*]]: tuple<tensor<3xf32>, !relay.ref<tensor<3xf32>>>) -> tuple<tensor<3xf32>, !relay.ref<tensor<3xf32>>>
// CHECK: %[[XV:.*]] = relay.tuple_get %[[XP]][0]
// CHECK: %[[E:.*]] = relay.exp %[[XV]]
// CHECK: %[[EZ:.*]] = relay.zeros_like %[[E]]
// CHECK: %[[EG:.*]] = relay.ref %[[EZ]]
// CHECK: %[[EAD:.*]] = relay.tuple(%[[E]], %[[EG]]
// CHECK: %[[PREV:.*]] = relay.ref_read %[[BPP]]
// CHECK: %[[STEP:.*]] = relay.fn () -> tuple<> {
// CHECK: %[[EG2:.*]] = relay.tuple_get %[[EAD]][1]
// CHECK: %[[G:.*]] = relay.ref_read %[[EG2]]
// CHECK: %[[D:.*]] = relay.multiply %[[G]], %[[E]]
// CHECK: %[[XG3:.*]] = relay.tuple_get %[[XP]][1]
// CHECK: %[[XOLD:.*]] = relay.ref_read %[[XG3]]
// CHECK: %[[XNEW:.*]] = relay.add %[[XOLD]], %[[D]]
// CHECK: relay.ref_write %[[XG3]], %[[XNEW]]
// CHECK: %[[TAIL:.*]] = relay.apply %[[PREV]]()
// CHECK: relay.return %[[TAIL]]
// CHECK: relay.ref_write %[[BPP]], %[[STEP]]
// CHECK: relay.return %[[EAD]]
relay.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %e = relay.exp %x : (tensor<3xf32>) -> tensor<3xf32>
  relay.return %e : tensor<3xf32>
}

// -----

// Tests that a call passes the backpropagator to the callee's AD copy, that
// `if` yields AD values while its boolean condition stays as it was, and
// that a boolean parameter's gradient is zeros.
// CHECK-LABEL: relay.func private @g_ad(%{{.*}}: !relay.ref<!relay.fn<() -> tuple<>>>, %{{.*}}: tuple<tensor<3xf32>, !relay.ref<tensor<3xf32>>>)
// CHECK-LABEL: relay.func @f_grad(
// CHECK: relay.zeros_like %{{.*}} : (tensor<i1>) -> tensor<i1>
// CHECK: relay.func private @f_ad(%[[BP:.*]]: !relay.ref<!relay.fn<() -> tuple<>>>, %[[X:.*]]: tuple<tensor<3xf32>, !relay.ref<tensor<3xf32>>>, %[[C:.*]]: tensor<i1>)
// CHECK: relay.if %[[C]] : tensor<i1> -> tuple<tensor<3xf32>, !relay.ref<tensor<3xf32>>>
// CHECK: relay.call @g_ad(%[[BP]], %[[X]])
// CHECK: relay.yield %[[X]]
relay.func private @g(%x: tensor<3xf32>) -> tensor<3xf32> {
  %e = relay.exp %x : (tensor<3xf32>) -> tensor<3xf32>
  relay.return %e : tensor<3xf32>
}
relay.func @f(%x: tensor<3xf32>, %c: tensor<i1>) -> tensor<3xf32> {
  %r = relay.if %c : tensor<i1> -> tensor<3xf32> {
    %y = relay.call @g(%x) : (tensor<3xf32>) -> tensor<3xf32>
    relay.yield %y : tensor<3xf32>
  } else {
    relay.yield %x : tensor<3xf32>
  }
  relay.return %r : tensor<3xf32>
}

// -----

// Tests that an ADT with a tensor field gets a copy over AD values (its
// patterns and constructions renamed), that a polymorphic ADT is reused at
// AD type arguments, and that a global used as a value becomes a closure
// passing the backpropagator.
// CHECK: relay.data @List[A] {
// CHECK: relay.data @Box {
// CHECK: relay.data @Box_ad {
// CHECK-NEXT: relay.ctor @Box(tuple<tensor<2xf32>, !relay.ref<tensor<2xf32>>>)
// CHECK: relay.func private @f_ad(
// CHECK: %[[FN:.*]] = relay.fn (%[[A:.*]]: tuple<tensor<2xf32>, !relay.ref<tensor<2xf32>>>) -> tuple<tensor<2xf32>, !relay.ref<tensor<2xf32>>> {
// CHECK: relay.call @neg_ad(%{{.*}}, %[[A]])
// CHECK: relay.construct @Box_ad::@Box(%{{.*}}) : (tuple<tensor<2xf32>, !relay.ref<tensor<2xf32>>>) -> !relay.adt<@Box_ad>
// CHECK: relay.construct @List::@Cons({{.*}}) : ({{.*}}) -> !relay.adt<@List, !relay.adt<@Box_ad>>
// CHECK: relay.match %{{.*}} : !relay.adt<@List, !relay.adt<@Box_ad>> -> tuple<tensor<2xf32>, !relay.ref<tensor<2xf32>>>
// CHECK: case @List::@Cons(@Box_ad::@Box(%{{.*}}: tuple<tensor<2xf32>, !relay.ref<tensor<2xf32>>>), _)
// CHECK: relay.apply %[[FN]](
relay.data @List[A] {
  relay.ctor @Cons(!relay.tvar<A>, !relay.adt<@List, !relay.tvar<A>>)
  relay.ctor @Nil
}
relay.data @Box {
  relay.ctor @Box(tensor<2xf32>)
}
relay.func private @neg(%x: tensor<2xf32>) -> tensor<2xf32> {
  %n = relay.negative %x : (tensor<2xf32>) -> tensor<2xf32>
  relay.return %n : tensor<2xf32>
}
relay.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %neg = relay.global_ref @neg : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  %b = relay.construct @Box::@Box(%x) : (tensor<2xf32>) -> !relay.adt<@Box>
  %nil = relay.construct @List::@Nil() : () -> !relay.adt<@List, !relay.adt<@Box>>
  %l = relay.construct @List::@Cons(%b, %nil) : (!relay.adt<@Box>, !relay.adt<@List, !relay.adt<@Box>>) -> !relay.adt<@List, !relay.adt<@Box>>
  %r = relay.match %l : !relay.adt<@List, !relay.adt<@Box>> -> tensor<2xf32> {
    case @List::@Cons(@Box::@Box(%v : tensor<2xf32>), _) {
      %a = relay.apply %neg(%v) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
      relay.yield %a : tensor<2xf32>
    }
    case _ {
      relay.yield %x : tensor<2xf32>
    }
  }
  relay.return %r : tensor<2xf32>
}
