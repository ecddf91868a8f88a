// A polymorphic List ADT and map (seeds/000, appendix; TVM's prelude):
//
// type List[A] { Cons(A, List[A]), Nil }
// def @map[A, B](%f: fn(A) -> B, %l: List[A]) -> List[B] {
//   match (%l) {
//     Cons(%x, %rest) => Cons(%f(%x), @map(%f, %rest)),
//     Nil => Nil,
//   }
// }
// def @main() { @map(fn (%x: int32) { %x + 1 }, Cons(1, Cons(2, Nil))) }
relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}

relay.func @map[a, b](%f: !relay.fn<(!relay.tvar<a>) -> !relay.tvar<b>>,
                      %l: !relay.adt<@List, !relay.tvar<a>>)
    -> !relay.adt<@List, !relay.tvar<b>> {
  %r = relay.match %l : !relay.adt<@List, !relay.tvar<a>> -> !relay.adt<@List, !relay.tvar<b>> {
    case @List::@Cons(%x : !relay.tvar<a>, %rest : !relay.adt<@List, !relay.tvar<a>>) {
      %y = relay.apply %f(%x) : (!relay.fn<(!relay.tvar<a>) -> !relay.tvar<b>>, !relay.tvar<a>) -> !relay.tvar<b>
      %ys = relay.call @map(%f, %rest) : (!relay.fn<(!relay.tvar<a>) -> !relay.tvar<b>>, !relay.adt<@List, !relay.tvar<a>>) -> !relay.adt<@List, !relay.tvar<b>>
      %c = relay.construct @List::@Cons(%y, %ys) : (!relay.tvar<b>, !relay.adt<@List, !relay.tvar<b>>) -> !relay.adt<@List, !relay.tvar<b>>
      relay.yield %c : !relay.adt<@List, !relay.tvar<b>>
    }
    case @List::@Nil {
      %n = relay.construct @List::@Nil() : () -> !relay.adt<@List, !relay.tvar<b>>
      relay.yield %n : !relay.adt<@List, !relay.tvar<b>>
    }
  }
  relay.return %r : !relay.adt<@List, !relay.tvar<b>>
}

relay.func @main() -> !relay.adt<@List, tensor<i32>> {
  %inc = relay.fn (%x: tensor<i32>) -> tensor<i32> {
    %one = relay.constant dense<1> : tensor<i32>
    %y = relay.add %x, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    relay.return %y : tensor<i32>
  }
  %nil = relay.construct @List::@Nil() : () -> !relay.adt<@List, tensor<i32>>
  %two = relay.constant dense<2> : tensor<i32>
  %l2 = relay.construct @List::@Cons(%two, %nil) : (tensor<i32>, !relay.adt<@List, tensor<i32>>) -> !relay.adt<@List, tensor<i32>>
  %one = relay.constant dense<1> : tensor<i32>
  %l1 = relay.construct @List::@Cons(%one, %l2) : (tensor<i32>, !relay.adt<@List, tensor<i32>>) -> !relay.adt<@List, tensor<i32>>
  %r = relay.call @map [tensor<i32>, tensor<i32>] (%inc, %l1) : (!relay.fn<(tensor<i32>) -> tensor<i32>>, !relay.adt<@List, tensor<i32>>) -> !relay.adt<@List, tensor<i32>>
  relay.return %r : !relay.adt<@List, tensor<i32>>
}
