// RUN: relay-mlir-opt %s --relay-infer-types -split-input-file | FileCheck %s
// Type inference over every construct of the language: the omitted types
// (!relay.incomplete) are inferred and written back.

// Operators: a weight's type inferred from conv2d's attributes, then the
// result types down a chain of operators.
// CHECK-LABEL: relay.func @conv(
// CHECK-SAME: %{{.*}}: tensor<1x3x8x8xf32>, %{{.*}}: tensor<4x3x3x3xf32>) -> tensor<1x6x6xf32>
// CHECK: relay.nn.conv2d {{.*}} -> tensor<1x4x6x6xf32>
// CHECK: relay.nn.relu {{.*}} -> tensor<1x4x6x6xf32>
// CHECK: relay.sum {{.*}} -> tensor<1x6x6xf32>
relay.func @conv(%x: tensor<1x3x8x8xf32>, %w: !relay.incomplete) -> !relay.incomplete {
  %y = relay.nn.conv2d %x, %w {channels = 4 : i64, kernel_size = array<i64: 3, 3>} : (tensor<1x3x8x8xf32>, !relay.incomplete) -> !relay.incomplete
  %z = relay.nn.relu %y : (!relay.incomplete) -> !relay.incomplete
  %s = relay.sum %z {axis = array<i64: 1>} : (!relay.incomplete) -> !relay.incomplete
  relay.return %s : !relay.incomplete
}

// -----

// Tests that a weight of a convolution on packed layouts is typed from
// channels and kernel_size in kernel_layout (OIHW4i4o: [O/4, I/4, KH, KW,
// 4, 4]), and the result is in the data's packed layout.
// CHECK-LABEL: relay.func @packed_conv(
// CHECK-SAME: %{{.*}}: tensor<1x2x6x6x4xf32>, %{{.*}}: tensor<4x2x3x3x4x4xf32>) -> tensor<1x4x6x6x4xf32>
relay.func @packed_conv(%x: tensor<1x2x6x6x4xf32>, %w: !relay.incomplete) -> !relay.incomplete {
  %y = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, data_layout = "NCHW4c", kernel_layout = "OIHW4i4o"} : (tensor<1x2x6x6x4xf32>, !relay.incomplete) -> !relay.incomplete
  relay.return %y : !relay.incomplete
}

// -----

// Generalisation: an unannotated identity becomes polymorphic, and the call
// gets its type argument inferred. Tuples and projections.
// CHECK-LABEL: relay.func @id[t0](%{{.*}}: !relay.tvar<t0>) -> !relay.tvar<t0>
// CHECK-LABEL: relay.func @main(
// CHECK: relay.call @id [tensor<2xf32>](%{{.*}}) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: relay.tuple_get %{{.*}}[1] : tuple<tensor<2xf32>, tensor<i1>>
// CHECK: relay.return %{{.*}} : tensor<i1>
relay.func @id(%x: !relay.incomplete) -> !relay.incomplete {
  relay.return %x : !relay.incomplete
}
relay.func @main(%a: tensor<2xf32>) -> !relay.incomplete {
  %b = relay.call @id(%a) : (tensor<2xf32>) -> !relay.incomplete
  %t = relay.constant dense<true> : tensor<i1>
  %c = relay.tuple(%b, %t : !relay.incomplete, tensor<i1>)
  %d = relay.tuple_get %c[1] : tuple<!relay.incomplete, tensor<i1>>
  relay.return %d : tensor<i1>
}

// -----

// The same polymorphic function used at two types.
// CHECK-LABEL: relay.func @pair(
// CHECK: relay.call @id [tensor<f32>]
// CHECK: relay.call @id [tensor<3xi8>]
// CHECK: relay.return %{{.*}} : tuple<tensor<f32>, tensor<3xi8>>
relay.func @id(%x: !relay.incomplete) -> !relay.incomplete {
  relay.return %x : !relay.incomplete
}
relay.func @pair(%a: tensor<f32>, %b: tensor<3xi8>) -> !relay.incomplete {
  %x = relay.call @id(%a) : (tensor<f32>) -> !relay.incomplete
  %y = relay.call @id(%b) : (tensor<3xi8>) -> !relay.incomplete
  %t = relay.tuple(%x, %y : !relay.incomplete, !relay.incomplete)
  relay.return %t : tuple<!relay.incomplete, !relay.incomplete>
}

// -----

// Global recursion over a polymorphic ADT: `len` is generalised over the
// list's element type; match binds the tail's type.
// CHECK-LABEL: relay.func @len[t0](%{{.*}}: !relay.adt<@List, !relay.tvar<t0>>) -> tensor<i32>
// CHECK: case @List::@Cons(_, %{{.*}}: !relay.adt<@List, !relay.tvar<t0>>)
// CHECK: relay.call @len(%{{.*}}) : (!relay.adt<@List, !relay.tvar<t0>>) -> tensor<i32>
// CHECK-LABEL: relay.func @main()
// CHECK: relay.construct @List::@Nil() : () -> !relay.adt<@List, tensor<2xf32>>
// CHECK: relay.call @len [tensor<2xf32>]
relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}
relay.func @len(%l: !relay.incomplete) -> !relay.incomplete {
  %r = relay.match %l : !relay.incomplete -> !relay.incomplete {
    case @List::@Cons(_, %rest : !relay.incomplete) {
      %n = relay.call @len(%rest) : (!relay.incomplete) -> !relay.incomplete
      %one = relay.constant dense<1> : tensor<i32>
      %s = relay.add %n, %one : (!relay.incomplete, tensor<i32>) -> !relay.incomplete
      relay.yield %s : !relay.incomplete
    }
    case @List::@Nil {
      %z = relay.constant dense<0> : tensor<i32>
      relay.yield %z : tensor<i32>
    }
  }
  relay.return %r : !relay.incomplete
}
relay.func @main() -> !relay.incomplete {
  %nil = relay.construct @List::@Nil() : () -> !relay.incomplete
  %x = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %l = relay.construct @List::@Cons(%x, %nil) : (tensor<2xf32>, !relay.incomplete) -> !relay.incomplete
  %n = relay.call @len(%l) : (!relay.incomplete) -> !relay.incomplete
  relay.return %n : !relay.incomplete
}

// -----

// Mutual recursion: @even and @odd form one component, inferred together;
// if unifies its branches.
// CHECK-LABEL: relay.func @even(%{{.*}}: tensor<i32>) -> tensor<i1>
// CHECK: relay.call @odd(%{{.*}}) : (tensor<i32>) -> tensor<i1>
// CHECK-LABEL: relay.func @odd(%{{.*}}: tensor<i32>) -> tensor<i1>
relay.func @even(%n: tensor<i32>) -> !relay.incomplete {
  %zero = relay.constant dense<0> : tensor<i32>
  %c = relay.equal %n, %zero : (tensor<i32>, tensor<i32>) -> !relay.incomplete
  %r = relay.if %c : !relay.incomplete -> !relay.incomplete {
    %t = relay.constant dense<true> : tensor<i1>
    relay.yield %t : tensor<i1>
  } else {
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : (tensor<i32>, tensor<i32>) -> !relay.incomplete
    %o = relay.call @odd(%m) : (!relay.incomplete) -> !relay.incomplete
    relay.yield %o : !relay.incomplete
  }
  relay.return %r : !relay.incomplete
}
relay.func @odd(%n: !relay.incomplete) -> !relay.incomplete {
  %zero = relay.constant dense<0> : tensor<i32>
  %c = relay.equal %n, %zero : (!relay.incomplete, tensor<i32>) -> !relay.incomplete
  %r = relay.if %c : !relay.incomplete -> !relay.incomplete {
    %f = relay.constant dense<false> : tensor<i1>
    relay.yield %f : tensor<i1>
  } else {
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : (!relay.incomplete, tensor<i32>) -> !relay.incomplete
    %o = relay.call @even(%m) : (!relay.incomplete) -> !relay.incomplete
    relay.yield %o : !relay.incomplete
  }
  relay.return %r : !relay.incomplete
}

// -----

// Closures (capturing a value), local recursion, and references.
// CHECK-LABEL: relay.func @main() -> tuple<tensor<i64>, tuple<>>
// CHECK: relay.ref_read %{{.*}} : !relay.ref<tensor<i64>>
// CHECK: relay.fn (%{{.*}}: tensor<i64>) -> tensor<i64>
// CHECK: relay.apply %{{.*}}(%{{.*}}) : (!relay.fn<(tensor<i64>) -> tensor<i64>>, tensor<i64>) -> tensor<i64>
// CHECK: relay.ref_write %{{.*}}, %{{.*}} : !relay.ref<tensor<i64>>, tensor<i64>
// CHECK: relay.fn rec(%{{.*}}) (%{{.*}}: tensor<i64>) -> tensor<i64>
// CHECK: relay.multiply {{.*}} : (tensor<i64>, tensor<i64>) -> tensor<i64>
relay.func @main() -> !relay.incomplete {
  %n = relay.constant dense<3> : tensor<i64>
  %r = relay.ref %n : tensor<i64>
  %v = relay.ref_read %r : !relay.ref<tensor<i64>>
  %inc = relay.fn (%a: !relay.incomplete) -> !relay.incomplete {
    %s = relay.add %a, %v : (!relay.incomplete, tensor<i64>) -> !relay.incomplete
    relay.return %s : !relay.incomplete
  }
  %y = relay.apply %inc(%n) : (!relay.fn<(!relay.incomplete) -> !relay.incomplete>, tensor<i64>) -> !relay.incomplete
  %w = relay.ref_write %r, %y : !relay.ref<tensor<i64>>, !relay.incomplete
  %fact = relay.fn rec(%self) (%k: tensor<i64>) -> !relay.incomplete {
    %zero = relay.constant dense<0> : tensor<i64>
    %is = relay.equal %k, %zero : (tensor<i64>, tensor<i64>) -> !relay.incomplete
    %res = relay.if %is : !relay.incomplete -> !relay.incomplete {
      %one = relay.constant dense<1> : tensor<i64>
      relay.yield %one : tensor<i64>
    } else {
      %one = relay.constant dense<1> : tensor<i64>
      %k1 = relay.subtract %k, %one : (tensor<i64>, tensor<i64>) -> !relay.incomplete
      %rec = relay.apply %self(%k1) : (!relay.fn<(tensor<i64>) -> !relay.incomplete>, !relay.incomplete) -> !relay.incomplete
      %p = relay.multiply %k, %rec : (tensor<i64>, !relay.incomplete) -> !relay.incomplete
      relay.yield %p : !relay.incomplete
    }
    relay.return %res : !relay.incomplete
  }
  %ten = relay.constant dense<10> : tensor<i64>
  %f10 = relay.apply %fact(%ten) : (!relay.fn<(tensor<i64>) -> !relay.incomplete>, tensor<i64>) -> !relay.incomplete
  %t = relay.tuple(%f10, %w : !relay.incomplete, tuple<>)
  relay.return %t : tuple<!relay.incomplete, tuple<>>
}

// -----

// Seed 003: `def @plus<s : Shape>(%t1 : Tensor[s, float32], %t2 :
// Tensor[s, float32]) { add(%t1, %t2) }` called as plus<(10, 10)>(%a, %b),
// and with the shape argument inferred.
// CHECK-LABEL: relay.func @plus[s : Shape]
// CHECK-SAME: -> !relay.tensor<s, f32>
// CHECK: relay.add {{.*}} -> !relay.tensor<s, f32>
// CHECK-LABEL: relay.func @main(
// CHECK: relay.call @plus [array<i64: 10, 10>]{{.*}} -> tensor<10x10xf32>
// CHECK: relay.call @plus [array<i64: 10, 10>]{{.*}} -> tensor<10x10xf32>
relay.func @plus[s : Shape](%t1: !relay.tensor<s, f32>, %t2: !relay.tensor<s, f32>) -> !relay.incomplete {
  %r = relay.add %t1, %t2 : (!relay.tensor<s, f32>, !relay.tensor<s, f32>) -> !relay.incomplete
  relay.return %r : !relay.incomplete
}
relay.func @main(%a: tensor<10x10xf32>, %b: tensor<10x10xf32>) -> !relay.incomplete {
  %x = relay.call @plus [array<i64: 10, 10>](%a, %b) : (tensor<10x10xf32>, tensor<10x10xf32>) -> !relay.incomplete
  %y = relay.call @plus(%x, %b) : (!relay.incomplete, tensor<10x10xf32>) -> !relay.incomplete
  relay.return %y : !relay.incomplete
}

// -----

// Seed 000, Fig. 5 (post-DCE AD of the identity): shape and dtype
// parameters flow through ones_like and a nested tuple.
// CHECK-LABEL: relay.func @grad_id[s : Shape, bt : BaseType]
// CHECK-SAME: -> tuple<!relay.tensor<s, bt>, tuple<!relay.tensor<s, bt>>>
relay.func @grad_id[s : Shape, bt : BaseType](%d: !relay.tensor<s, bt>) -> !relay.incomplete {
  %o = relay.ones_like %d : (!relay.tensor<s, bt>) -> !relay.incomplete
  %t1 = relay.tuple(%o : !relay.incomplete)
  %t2 = relay.tuple(%d, %t1 : !relay.tensor<s, bt>, tuple<!relay.incomplete>)
  relay.return %t2 : tuple<!relay.tensor<s, bt>, tuple<!relay.incomplete>>
}

// -----

// Symbolic dimensions: a ShapeVar parameter passes through relations and is
// inferred at the call.
// CHECK-LABEL: relay.func @rows[n : ShapeVar]
// CHECK-SAME: -> !relay.tensor<[n, 4], f32>
// CHECK: relay.nn.dense {{.*}} -> !relay.tensor<[n, 4], f32>
// CHECK-LABEL: relay.func @main(
// CHECK: relay.call @rows [7]{{.*}} -> tensor<7x4xf32>
relay.func @rows[n : ShapeVar](%x: !relay.tensor<[n, 3], f32>, %w: tensor<4x3xf32>) -> !relay.incomplete {
  %y = relay.nn.dense %x, %w : (!relay.tensor<[n, 3], f32>, tensor<4x3xf32>) -> !relay.incomplete
  relay.return %y : !relay.incomplete
}
relay.func @main(%x: tensor<7x3xf32>, %w: tensor<4x3xf32>) -> !relay.incomplete {
  %y = relay.call @rows(%x, %w) : (tensor<7x3xf32>, tensor<4x3xf32>) -> !relay.incomplete
  relay.return %y : !relay.incomplete
}

// -----

// Any (`?`) dimensions: the batch stays dynamic through dense and softmax.
// CHECK-LABEL: relay.func @dynamic_batch(
// CHECK-SAME: -> tensor<?x10xf32>
relay.func @dynamic_batch(%x: tensor<?x784xf32>, %w: tensor<10x784xf32>) -> !relay.incomplete {
  %y = relay.nn.dense %x, %w : (tensor<?x784xf32>, tensor<10x784xf32>) -> !relay.incomplete
  %z = relay.nn.softmax %y : (!relay.incomplete) -> !relay.incomplete
  relay.return %z : !relay.incomplete
}

// -----

// A polymorphic higher-order function: explicit type arguments, a closure
// argument whose parameter type is inferred from the instantiation.
// CHECK-LABEL: relay.func @main(
// CHECK: relay.fn (%{{.*}}: tensor<i32>) -> tensor<i32>
// CHECK: relay.call @apply_twice [tensor<i32>]
relay.func @apply_twice[a](%f: !relay.fn<(!relay.tvar<a>) -> !relay.tvar<a>>, %x: !relay.tvar<a>) -> !relay.tvar<a> {
  %y = relay.apply %f(%x) : (!relay.fn<(!relay.tvar<a>) -> !relay.tvar<a>>, !relay.tvar<a>) -> !relay.tvar<a>
  %z = relay.apply %f(%y) : (!relay.fn<(!relay.tvar<a>) -> !relay.tvar<a>>, !relay.tvar<a>) -> !relay.tvar<a>
  relay.return %z : !relay.tvar<a>
}
relay.func @main(%x: tensor<i32>) -> !relay.incomplete {
  %inc = relay.fn (%v: !relay.incomplete) -> !relay.incomplete {
    %one = relay.constant dense<1> : tensor<i32>
    %s = relay.add %v, %one : (!relay.incomplete, tensor<i32>) -> !relay.incomplete
    relay.return %s : !relay.incomplete
  }
  %r = relay.call @apply_twice(%inc, %x) : (!relay.fn<(!relay.incomplete) -> !relay.incomplete>, tensor<i32>) -> !relay.incomplete
  relay.return %r : !relay.incomplete
}

// -----

// A closure type with a `where` relation: the relation is instantiated and
// solved at the application.
// CHECK-LABEL: relay.func @use_rel(
// CHECK: relay.apply {{.*}} -> tensor<2x3xf32>
relay.func @use_rel(%f: !relay.fn<[a, b, c](!relay.tvar<a>, !relay.tvar<b>) -> !relay.tvar<c> where Broadcast(!relay.tvar<a>, !relay.tvar<b>, !relay.tvar<c>)>,
                    %x: tensor<2x1xf32>, %y: tensor<3xf32>) -> !relay.incomplete {
  %r = relay.apply %f(%x, %y) : (!relay.fn<[a, b, c](!relay.tvar<a>, !relay.tvar<b>) -> !relay.tvar<c> where Broadcast(!relay.tvar<a>, !relay.tvar<b>, !relay.tvar<c>)>, tensor<2x1xf32>, tensor<3xf32>) -> !relay.incomplete
  relay.return %r : !relay.incomplete
}

// -----

// Tuple and wildcard patterns, and match? (partial).
// CHECK-LABEL: relay.func @swap(
// CHECK-SAME: -> tuple<tensor<i8>, tensor<f32>>
relay.func @swap(%p: tuple<tensor<f32>, tensor<i8>>) -> !relay.incomplete {
  %r = relay.match %p : tuple<tensor<f32>, tensor<i8>> -> !relay.incomplete {
    case (%a : !relay.incomplete, %b : !relay.incomplete) {
      %t = relay.tuple(%b, %a : !relay.incomplete, !relay.incomplete)
      relay.yield %t : tuple<!relay.incomplete, !relay.incomplete>
    }
  }
  relay.return %r : !relay.incomplete
}

// -----

// A BaseType parameter inferred at the call; Option and a rose tree
// (Tree[A] = Rose(A, List[Tree[A]])) built and matched.
// CHECK-LABEL: relay.func @sum2[d : BaseType]
// CHECK-LABEL: relay.func @main(
// CHECK: relay.call @sum2 [i8]
// CHECK: relay.construct @Option::@Some(%{{.*}}) : (tensor<2xi8>) -> !relay.adt<@Option, tensor<2xi8>>
// CHECK: relay.construct @Tree::@Rose({{.*}}) : (tensor<2xi8>, !relay.adt<@List, !relay.adt<@Tree, tensor<2xi8>>>) -> !relay.adt<@Tree, tensor<2xi8>>
// CHECK: case @Option::@Some(%{{.*}}: tensor<2xi8>)
// CHECK: relay.return %{{.*}} : tensor<2xi8>
relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}
relay.data @Option[a] {
  relay.ctor @Some(!relay.tvar<a>)
  relay.ctor @None
}
relay.data @Tree[a] {
  relay.ctor @Rose(!relay.tvar<a>, !relay.adt<@List, !relay.adt<@Tree, !relay.tvar<a>>>)
}
relay.func @sum2[d : BaseType](%x: !relay.tensor<[2], d>) -> !relay.incomplete {
  %y = relay.add %x, %x : (!relay.tensor<[2], d>, !relay.tensor<[2], d>) -> !relay.incomplete
  relay.return %y : !relay.incomplete
}
relay.func @main(%x: tensor<2xi8>) -> !relay.incomplete {
  %s = relay.call @sum2(%x) : (tensor<2xi8>) -> !relay.incomplete
  %some = relay.construct @Option::@Some(%s) : (!relay.incomplete) -> !relay.incomplete
  %nil = relay.construct @List::@Nil() : () -> !relay.incomplete
  %leaf = relay.construct @Tree::@Rose(%s, %nil) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  %r = relay.match %some : !relay.incomplete -> !relay.incomplete {
    case @Option::@Some(%v : !relay.incomplete) {
      relay.yield %v : !relay.incomplete
    }
    case @Option::@None {
      relay.yield %x : tensor<2xi8>
    }
  }
  %t = relay.match %leaf : !relay.incomplete -> !relay.incomplete {
    case @Tree::@Rose(%v : !relay.incomplete, _) {
      %w = relay.add %v, %r : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
      relay.yield %w : !relay.incomplete
    }
  }
  relay.return %t : !relay.incomplete
}

// -----

// Tests that an if whose branches yield a size and `?` has `?` there,
// whichever branch comes first (TVM's unifier: Any absorbs a size), also
// inside tuples, and that what uses the result sees `?`: the first
// branch's sizes would be wrong when the other runs.
// CHECK-LABEL: relay.func @join(%{{.*}}: tensor<i1>, %{{.*}}: tensor<?xf32>, %{{.*}}: tensor<3x?xf32>) -> tuple<tensor<?xf32>, tensor<?xf32>, tuple<tensor<3x?xf32>, tensor<2xi32>>>
// CHECK: relay.if %{{.*}} : tensor<i1> -> tensor<?xf32>
// CHECK: relay.add %{{.*}}, %{{.*}} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
// CHECK: relay.if %{{.*}} : tensor<i1> -> tensor<?xf32>
// CHECK: relay.if %{{.*}} : tensor<i1> -> tuple<tensor<3x?xf32>, tensor<2xi32>>
relay.func @join(%c: tensor<i1>, %x: tensor<?xf32>, %y: tensor<3x?xf32>) -> !relay.incomplete {
  %a = relay.if %c : tensor<i1> -> !relay.incomplete {
    %z = relay.zeros {dtype = f32, shape = array<i64: 0>} : () -> tensor<0xf32>
    relay.yield %z : tensor<0xf32>
  } else {
    relay.yield %x : tensor<?xf32>
  }
  %s = relay.add %a, %a : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  %b = relay.if %c : tensor<i1> -> !relay.incomplete {
    relay.yield %x : tensor<?xf32>
  } else {
    %o = relay.ones {dtype = f32, shape = array<i64: 4>} : () -> tensor<4xf32>
    relay.yield %o : tensor<4xf32>
  }
  %t = relay.if %c : tensor<i1> -> !relay.incomplete {
    %w = relay.zeros {dtype = f32, shape = array<i64: 3, 5>} : () -> tensor<3x5xf32>
    %i = relay.constant dense<[1, 2]> : tensor<2xi32>
    %p = relay.tuple(%w, %i : tensor<3x5xf32>, tensor<2xi32>)
    relay.yield %p : tuple<tensor<3x5xf32>, tensor<2xi32>>
  } else {
    %i = relay.constant dense<[3, 4]> : tensor<2xi32>
    %p = relay.tuple(%y, %i : tensor<3x?xf32>, tensor<2xi32>)
    relay.yield %p : tuple<tensor<3x?xf32>, tensor<2xi32>>
  }
  %r = relay.tuple(%s, %b, %t : !relay.incomplete, !relay.incomplete, !relay.incomplete)
  relay.return %r : tuple<!relay.incomplete, !relay.incomplete, !relay.incomplete>
}

// -----

// Tests that a match whose cases yield a size and `?` has `?` there too.
// CHECK-LABEL: relay.func @join_cases(
// CHECK-SAME: -> tensor<?xf32>
// CHECK: relay.match %{{.*}} : tuple<tensor<?xf32>, tensor<i1>> -> tensor<?xf32>
relay.func @join_cases(%p: tuple<tensor<?xf32>, tensor<i1>>) -> !relay.incomplete {
  %r = relay.match %p : tuple<tensor<?xf32>, tensor<i1>> -> !relay.incomplete {
    case (_, %c : !relay.incomplete) {
      %z = relay.zeros {dtype = f32, shape = array<i64: 3>} : () -> tensor<3xf32>
      relay.yield %z : tensor<3xf32>
    }
    case (%x : !relay.incomplete, _) {
      relay.yield %x : !relay.incomplete
    }
  }
  relay.return %r : !relay.incomplete
}
