// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// RUN: relay-mlir-opt %s -mlir-print-op-generic | relay-mlir-opt | FileCheck %s

// Tests that every relay op parses, prints and parses again.

// CHECK-LABEL: relay.data @List[a] {
// CHECK-NEXT:    relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
// CHECK-NEXT:    relay.ctor @Nil
// CHECK-NEXT:  }
relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}

// CHECK-LABEL: relay.data @Option[a] {
relay.data @Option[a] {
  relay.ctor @Some(!relay.tvar<a>)
  relay.ctor @None
}

// CHECK-LABEL: relay.data extern @Handle
// CHECK-NOT:   {
relay.data extern @Handle

// CHECK-LABEL: relay.data private @Nat {
// CHECK:         relay.ctor @Z
// CHECK:         relay.ctor @S(!relay.adt<@Nat>)
relay.data private @Nat {
  relay.ctor @Z
  relay.ctor @S(!relay.adt<@Nat>)
}

// CHECK-LABEL: relay.func @constants() -> tuple<tensor<i32>, tensor<2x2xf32>, tensor<i1>, tuple<>>
// CHECK:         %[[A:.*]] = relay.constant dense<7> : tensor<i32>
// CHECK:         %[[B:.*]] = relay.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK:         %[[C:.*]] = relay.constant dense<true> : tensor<i1>
// CHECK:         %[[U:.*]] = relay.tuple()
// CHECK:         %[[T:.*]] = relay.tuple(%[[A]], %[[B]], %[[C]], %[[U]] : tensor<i32>, tensor<2x2xf32>, tensor<i1>, tuple<>)
// CHECK:         relay.return %[[T]]
relay.func @constants() -> tuple<tensor<i32>, tensor<2x2xf32>, tensor<i1>, tuple<>> {
  %a = relay.constant dense<7> : tensor<i32>
  %b = relay.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %c = relay.constant dense<true> : tensor<i1>
  %u = relay.tuple()
  %t = relay.tuple(%a, %b, %c, %u : tensor<i32>, tensor<2x2xf32>, tensor<i1>, tuple<>)
  relay.return %t : tuple<tensor<i32>, tensor<2x2xf32>, tensor<i1>, tuple<>>
}

// CHECK-LABEL: relay.func @projection(%{{.*}}: tuple<tensor<f32>, tensor<?x3xf32>>) -> tensor<?x3xf32>
// CHECK:         relay.tuple_get %{{.*}}[1] : tuple<tensor<f32>, tensor<?x3xf32>>
relay.func @projection(%t: tuple<tensor<f32>, tensor<?x3xf32>>) -> tensor<?x3xf32> {
  %x = relay.tuple_get %t[1] : tuple<tensor<f32>, tensor<?x3xf32>>
  relay.return %x : tensor<?x3xf32>
}

// CHECK-LABEL: relay.func @unknown_projection(%{{.*}}: !relay.incomplete) -> !relay.incomplete
// CHECK:         relay.tuple_get %{{.*}}[3] : !relay.incomplete
relay.func @unknown_projection(%t: !relay.incomplete) -> !relay.incomplete {
  %x = relay.tuple_get %t[3] : !relay.incomplete
  relay.return %x : !relay.incomplete
}

// CHECK-LABEL: relay.func @operators
// CHECK:         relay.add %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK:         relay.subtract
// CHECK:         relay.multiply
// CHECK:         relay.divide
// CHECK:         relay.greater %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK:         relay.logical_and
relay.func @operators(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xi1> {
  %0 = relay.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = relay.subtract %0, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = relay.multiply %1, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = relay.divide %2, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %4 = relay.greater %3, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %5 = relay.less %3, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %6 = relay.logical_and %4, %5 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  relay.return %6 : tensor<2x3xi1>
}

// CHECK-LABEL: relay.func @any_dims
// CHECK:         relay.add %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
relay.func @any_dims(%a: tensor<?x4xf32>, %b: tensor<1x4xf32>) -> tensor<?x4xf32> {
  %0 = relay.add %a, %b : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  relay.return %0 : tensor<?x4xf32>
}

// CHECK-LABEL: relay.func @ackermann(%{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>) -> tensor<i32>
// CHECK:         relay.if %{{.*}} : tensor<i1> -> tensor<i32> {
// CHECK:           relay.yield
// CHECK:         } else {
// CHECK:           relay.call @ackermann(%{{.*}}, %{{.*}}) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK:           relay.yield
// CHECK:         }
relay.func @ackermann(%m: tensor<i32>, %n: tensor<i32>) -> tensor<i32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %one = relay.constant dense<1> : tensor<i32>
  %c = relay.equal %m, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %c : tensor<i1> -> tensor<i32> {
    %a = relay.add %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    relay.yield %a : tensor<i32>
  } else {
    %m1 = relay.subtract %m, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %x = relay.call @ackermann(%m1, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    relay.yield %x : tensor<i32>
  }
  relay.return %r : tensor<i32>
}

// CHECK-LABEL: relay.func @id[a](%{{.*}}: !relay.tvar<a>) -> !relay.tvar<a>
relay.func @id[a](%x: !relay.tvar<a>) -> !relay.tvar<a> {
  relay.return %x : !relay.tvar<a>
}

// CHECK-LABEL: relay.func @plus[s : Shape](%{{.*}}: !relay.tensor<s, f32>, %{{.*}}: !relay.tensor<s, f32>) -> !relay.tensor<s, f32>
relay.func @plus[s : Shape](%a: !relay.tensor<s, f32>, %b: !relay.tensor<s, f32>) -> !relay.tensor<s, f32> {
  %0 = relay.add %a, %b : (!relay.tensor<s, f32>, !relay.tensor<s, f32>) -> !relay.tensor<s, f32>
  relay.return %0 : !relay.tensor<s, f32>
}

// CHECK-LABEL: relay.func @kinds[n : ShapeVar, d : BaseType](%{{.*}}: !relay.tensor<[n, ?, 3], d>) -> !relay.tensor<[n, ?, 3], d>
relay.func @kinds[n : ShapeVar, d : BaseType](%a: !relay.tensor<[n, ?, 3], d>) -> !relay.tensor<[n, ?, 3], d> {
  relay.return %a : !relay.tensor<[n, ?, 3], d>
}

// CHECK-LABEL: relay.func @calls
// CHECK:         relay.call @id [tensor<i1>](%{{.*}}) : (tensor<i1>) -> tensor<i1>
// CHECK:         relay.call @id(%{{.*}}) : (tensor<i1>) -> tensor<i1>
// CHECK:         relay.call @plus [array<i64: 10, 10>](%{{.*}}, %{{.*}}) : (tensor<10x10xf32>, tensor<10x10xf32>) -> tensor<10x10xf32>
// CHECK:         relay.global_ref @id : !relay.fn<[a](!relay.tvar<a>) -> !relay.tvar<a>>
relay.func @calls(%b: tensor<i1>, %x: tensor<10x10xf32>) -> tensor<i1> {
  %0 = relay.call @id [tensor<i1>] (%b) : (tensor<i1>) -> tensor<i1>
  %1 = relay.call @id(%0) : (tensor<i1>) -> tensor<i1>
  %2 = relay.call @plus [array<i64: 10, 10>] (%x, %x) : (tensor<10x10xf32>, tensor<10x10xf32>) -> tensor<10x10xf32>
  %3 = relay.global_ref @id : !relay.fn<[a](!relay.tvar<a>) -> !relay.tvar<a>>
  relay.return %1 : tensor<i1>
}

// CHECK-LABEL: relay.func @closures
// CHECK:         %[[G:.*]] = relay.fn () -> !relay.fn<(tensor<10x10xf32>) -> tensor<10x10xf32>> {
// CHECK:           %[[X:.*]] = relay.constant dense<0.000000e+00> : tensor<10x10xf32>
// CHECK:           relay.fn (%[[Y:.*]]: tensor<10x10xf32>) -> tensor<10x10xf32> {
// CHECK:             relay.multiply %[[Y]], %[[X]]
// CHECK:         relay.apply %[[G]]() : (!relay.fn<() -> !relay.fn<(tensor<10x10xf32>) -> tensor<10x10xf32>>>) -> !relay.fn<(tensor<10x10xf32>) -> tensor<10x10xf32>>
relay.func @closures() -> tensor<10x10xf32> {
  %g = relay.fn () -> !relay.fn<(tensor<10x10xf32>) -> tensor<10x10xf32>> {
    %x = relay.constant dense<0.0> : tensor<10x10xf32>
    %inner = relay.fn (%y: tensor<10x10xf32>) -> tensor<10x10xf32> {
      %p = relay.multiply %y, %x : (tensor<10x10xf32>, tensor<10x10xf32>) -> tensor<10x10xf32>
      relay.return %p : tensor<10x10xf32>
    }
    relay.return %inner : !relay.fn<(tensor<10x10xf32>) -> tensor<10x10xf32>>
  }
  %f = relay.apply %g() : (!relay.fn<() -> !relay.fn<(tensor<10x10xf32>) -> tensor<10x10xf32>>>) -> !relay.fn<(tensor<10x10xf32>) -> tensor<10x10xf32>>
  %one = relay.constant dense<1.0> : tensor<10x10xf32>
  %r = relay.apply %f(%one) : (!relay.fn<(tensor<10x10xf32>) -> tensor<10x10xf32>>, tensor<10x10xf32>) -> tensor<10x10xf32>
  relay.return %r : tensor<10x10xf32>
}

// CHECK-LABEL: relay.func @local_recursion
// CHECK:         relay.fn rec(%[[SELF:.*]]) (%[[X:.*]]: tensor<i64>) -> tensor<i64> {
// CHECK:           relay.apply %[[SELF]](%{{.*}}) : (!relay.fn<(tensor<i64>) -> tensor<i64>>, tensor<i64>) -> tensor<i64>
// CHECK:         relay.fn [a](%{{.*}}: !relay.tvar<a>) -> !relay.tvar<a> where Identity(!relay.tvar<a>, !relay.tvar<a>) {
relay.func @local_recursion(%n: tensor<i64>) -> tensor<i64> {
  %fact = relay.fn rec(%self) (%x: tensor<i64>) -> tensor<i64> {
    %zero = relay.constant dense<0> : tensor<i64>
    %one = relay.constant dense<1> : tensor<i64>
    %c = relay.equal %x, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %r = relay.if %c : tensor<i1> -> tensor<i64> {
      relay.yield %one : tensor<i64>
    } else {
      %x1 = relay.subtract %x, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
      %rec = relay.apply %self(%x1) : (!relay.fn<(tensor<i64>) -> tensor<i64>>, tensor<i64>) -> tensor<i64>
      %p = relay.multiply %x, %rec : (tensor<i64>, tensor<i64>) -> tensor<i64>
      relay.yield %p : tensor<i64>
    }
    relay.return %r : tensor<i64>
  }
  %poly = relay.fn [a](%v: !relay.tvar<a>) -> !relay.tvar<a> where Identity(!relay.tvar<a>, !relay.tvar<a>) {
    relay.return %v : !relay.tvar<a>
  }
  %r = relay.apply %fact(%n) : (!relay.fn<(tensor<i64>) -> tensor<i64>>, tensor<i64>) -> tensor<i64>
  relay.return %r : tensor<i64>
}

// CHECK-LABEL: relay.func @adts
// CHECK:         %[[NIL:.*]] = relay.construct @List::@Nil() : () -> !relay.adt<@List, tensor<i32>>
// CHECK:         relay.construct @List::@Cons(%{{.*}}, %[[NIL]]) : (tensor<i32>, !relay.adt<@List, tensor<i32>>) -> !relay.adt<@List, tensor<i32>>
// CHECK:         relay.match %{{.*}} : !relay.adt<@List, tensor<i32>> -> tensor<i32> {
// CHECK-NEXT:      case @List::@Cons(%[[H:.*]]: tensor<i32>, @List::@Cons(_, _)) {
// CHECK-NEXT:        relay.yield %[[H]] : tensor<i32>
// CHECK-NEXT:      }
// CHECK-NEXT:      case @List::@Cons(_, %{{.*}}: !relay.adt<@List, tensor<i32>>) {
// CHECK:           case _ {
// CHECK:         relay.match partial %{{.*}} : !relay.adt<@Option, tuple<tensor<i32>, tensor<i1>>> -> tensor<i1> {
// CHECK-NEXT:      case @Option::@Some((_, %{{.*}}: tensor<i1>)) {
relay.func @adts(%x: tensor<i32>, %o: !relay.adt<@Option, tuple<tensor<i32>, tensor<i1>>>) -> tensor<i32> {
  %nil = relay.construct @List::@Nil() : () -> !relay.adt<@List, tensor<i32>>
  %l = relay.construct @List::@Cons(%x, %nil) : (tensor<i32>, !relay.adt<@List, tensor<i32>>) -> !relay.adt<@List, tensor<i32>>
  %r = relay.match %l : !relay.adt<@List, tensor<i32>> -> tensor<i32> {
    case @List::@Cons(%h : tensor<i32>, @List::@Cons(_, _)) {
      relay.yield %h : tensor<i32>
    }
    case @List::@Cons(_, %t : !relay.adt<@List, tensor<i32>>) {
      relay.yield %x : tensor<i32>
    }
    case _ {
      relay.yield %x : tensor<i32>
    }
  }
  %b = relay.match partial %o : !relay.adt<@Option, tuple<tensor<i32>, tensor<i1>>> -> tensor<i1> {
    case @Option::@Some((_, %flag : tensor<i1>)) {
      relay.yield %flag : tensor<i1>
    }
  }
  relay.return %r : tensor<i32>
}

// CHECK-LABEL: relay.func @references
// CHECK:         %[[R:.*]] = relay.ref %{{.*}} : tensor<f32>
// CHECK:         %[[V:.*]] = relay.ref_read %[[R]] : !relay.ref<tensor<f32>>
// CHECK:         relay.ref_write %[[R]], %[[V]] : !relay.ref<tensor<f32>>, tensor<f32>
relay.func @references(%x: tensor<f32>) -> tuple<> {
  %r = relay.ref %x : tensor<f32>
  %v = relay.ref_read %r : !relay.ref<tensor<f32>>
  %u = relay.ref_write %r, %v : !relay.ref<tensor<f32>>, tensor<f32>
  relay.return %u : tuple<>
}

// CHECK-LABEL: relay.func private @attrs(%{{.*}}: tensor<f32> {relay.name = "x"}) -> tensor<f32> attributes {relay.note = "kept"}
relay.func private @attrs(%x: tensor<f32> {relay.name = "x"}) -> tensor<f32> attributes {relay.note = "kept"} {
  relay.return %x : tensor<f32>
}
