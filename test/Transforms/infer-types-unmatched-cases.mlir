// RUN: relay-mlir-opt %s --relay-infer-types -split-input-file -verify-diagnostics
// RUN: relay-mlir-opt %s --relay-infer-types=warn-unmatched-cases=false -split-input-file | FileCheck %s --check-prefix=QUIET
// QUIET-NOT: warning
// A complete `match` whose cases miss values gets a warning listing the
// patterns of what they miss (TVM's InferType and unmatched_cases).

// Tests that a list match with one deep Cons case misses Nil and the
// one-element list.
relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}
relay.func @second(%l: !relay.adt<@List, tensor<f32>>) -> tensor<f32> {
  // expected-warning @+2 {{match expression does not handle the following cases: Nil, Cons(_, Nil)}}
  // expected-note @+1 {{a value of no case is a run-time error; add the cases, a final '_' case, or write 'match?' where that is meant}}
  %r = relay.match %l : !relay.adt<@List, tensor<f32>> -> tensor<f32> {
    case @List::@Cons(_, @List::@Cons(%x : tensor<f32>, _)) {
      relay.yield %x : tensor<f32>
    }
  }
  relay.return %r : tensor<f32>
}

// -----

// Tests that `match?` (partial) is not warned about, and that cases ending
// in a wildcard or a variable cover everything.
relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}
relay.func @partial(%l: !relay.adt<@List, tensor<f32>>) -> tensor<f32> {
  %r = relay.match partial %l : !relay.adt<@List, tensor<f32>> -> tensor<f32> {
    case @List::@Cons(%x : tensor<f32>, _) {
      relay.yield %x : tensor<f32>
    }
  }
  %s = relay.match %l : !relay.adt<@List, tensor<f32>> -> tensor<f32> {
    case @List::@Cons(_, @List::@Nil) {
      relay.yield %r : tensor<f32>
    }
    case %other : !relay.adt<@List, tensor<f32>> {
      relay.yield %r : tensor<f32>
    }
  }
  relay.return %s : tensor<f32>
}

// -----

// Tests TVM's "inf_loop_case" without its final wildcard: the cases are
// more specific in different fields, and what they miss is listed (the
// search ends although Plus nests without bound).
relay.data @Arith[a] {
  relay.ctor @Zero
  relay.ctor @Const(!relay.tvar<a>)
  relay.ctor @Plus(!relay.adt<@Arith, !relay.tvar<a>>, !relay.adt<@Arith, !relay.tvar<a>>)
}
relay.func @shallow(%a: !relay.adt<@Arith, tensor<f32>>) -> !relay.adt<@Arith, tensor<f32>> {
  // expected-warning @+2 {{match expression does not handle the following cases: Zero, Const(_), Plus(Const(_), Const(_)), Plus(Const(_), Plus(_, _)), Plus(Plus(_, _), Const(_)), Plus(Plus(_, _), Plus(_, _))}}
  // expected-note @+1 {{a value of no case}}
  %r = relay.match %a : !relay.adt<@Arith, tensor<f32>> -> !relay.adt<@Arith, tensor<f32>> {
    case @Arith::@Plus(@Arith::@Zero, %x : !relay.adt<@Arith, tensor<f32>>) {
      relay.yield %x : !relay.adt<@Arith, tensor<f32>>
    }
    case @Arith::@Plus(%x : !relay.adt<@Arith, tensor<f32>>, @Arith::@Zero) {
      relay.yield %x : !relay.adt<@Arith, tensor<f32>>
    }
  }
  relay.return %r : !relay.adt<@Arith, tensor<f32>>
}

// -----

// Tests tuple patterns: a pair of options missing (None, None).
relay.data @Option[a] {
  relay.ctor @Some(!relay.tvar<a>)
  relay.ctor @None
}
relay.func @pair(%p: tuple<!relay.adt<@Option, tensor<f32>>, !relay.adt<@Option, tensor<f32>>>) -> tensor<f32> {
  %zero = relay.constant dense<0.0> : tensor<f32>
  // expected-warning @+2 {{match expression does not handle the following cases: (None, None)}}
  // expected-note @+1 {{a value of no case}}
  %r = relay.match %p : tuple<!relay.adt<@Option, tensor<f32>>, !relay.adt<@Option, tensor<f32>>> -> tensor<f32> {
    case (@Option::@Some(%x : tensor<f32>), _) {
      relay.yield %x : tensor<f32>
    }
    case (@Option::@None, @Option::@Some(%y : tensor<f32>)) {
      relay.yield %y : tensor<f32>
    }
  }
  relay.return %r : tensor<f32>
}

// -----

// Tests that past 16 missing cases the list ends in "...": one case of
// five options misses 31 tuples.
relay.data @Option[a] {
  relay.ctor @Some(!relay.tvar<a>)
  relay.ctor @None
}
relay.func @five(%p: tuple<!relay.adt<@Option, tensor<f32>>, !relay.adt<@Option, tensor<f32>>, !relay.adt<@Option, tensor<f32>>, !relay.adt<@Option, tensor<f32>>, !relay.adt<@Option, tensor<f32>>>) -> tensor<f32> {
  // expected-warning @+2 {{(Some(_), None, None, None, None), (None, Some(_), Some(_), Some(_), Some(_)), ...}}
  // expected-note @+1 {{a value of no case}}
  %r = relay.match %p : tuple<!relay.adt<@Option, tensor<f32>>, !relay.adt<@Option, tensor<f32>>, !relay.adt<@Option, tensor<f32>>, !relay.adt<@Option, tensor<f32>>, !relay.adt<@Option, tensor<f32>>> -> tensor<f32> {
    case (@Option::@Some(%x : tensor<f32>), @Option::@Some(_), @Option::@Some(_), @Option::@Some(_), @Option::@Some(_)) {
      relay.yield %x : tensor<f32>
    }
  }
  relay.return %r : tensor<f32>
}
