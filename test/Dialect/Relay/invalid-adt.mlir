// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// Tests that ADT type parameters have kind Type.
// expected-error @+1 {{'relay.data' op type parameter 's' must have kind Type, not Shape}}
relay.data @Bad[s : Shape] {
  relay.ctor @C
}

// -----

// Tests that only constructors live in an ADT body.
relay.data @Bad {
  relay.ctor @C
  // expected-error @+1 {{'test.op' op is not allowed in a relay.data body; only 'relay.ctor' is}}
  "test.op"() : () -> ()
}

// -----

// Tests that constructor fields use bound type variables.
relay.data @Box[a] {
  // expected-error @+1 {{'relay.ctor' op uses type variable 'b', which no enclosing type parameter list binds}}
  relay.ctor @Box(!relay.tvar<b>)
}

// -----

// Tests that ADT types name declared ADTs.
relay.data @Wrap {
  // expected-error @+1 {{'relay.ctor' op uses ADT type '!relay.adt<@Missing>', but @Missing is not a relay.data}}
  relay.ctor @W(!relay.adt<@Missing>)
}

// -----

// Tests the number of ADT type arguments.
relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}
// expected-error @+1 {{'relay.func' op uses ADT type '!relay.adt<@List>' with 0 type arguments, but @List takes 1}}
relay.func @f(%l: !relay.adt<@List>) -> tensor<f32> {
  %c = relay.constant dense<1.0> : tensor<f32>
  relay.return %c : tensor<f32>
}

// -----

// Tests that constructors are applied to defined constructors.
relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}
relay.func @f() -> !relay.adt<@List, tensor<f32>> {
  // expected-error @+1 {{'relay.construct' op refers to an undefined constructor @List::@Empty (expected @Type::@Constructor)}}
  %l = relay.construct @List::@Empty() : () -> !relay.adt<@List, tensor<f32>>
  relay.return %l : !relay.adt<@List, tensor<f32>>
}

// -----

// Tests constructor arity.
relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}
relay.func @f(%x: tensor<f32>) -> !relay.adt<@List, tensor<f32>> {
  // expected-error @+1 {{'relay.construct' op constructor @List::@Cons takes 2 fields, got 1}}
  %l = relay.construct @List::@Cons(%x) : (tensor<f32>) -> !relay.adt<@List, tensor<f32>>
  relay.return %l : !relay.adt<@List, tensor<f32>>
}

// -----

// Tests constructor field types, instantiated by the result type.
relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}
relay.func @f(%x: tensor<i32>, %nil: !relay.adt<@List, tensor<f32>>) -> !relay.adt<@List, tensor<f32>> {
  // expected-error @+1 {{'relay.construct' op field #0 of @List::@Cons has type 'tensor<i32>', expected 'tensor<f32>'}}
  %l = relay.construct @List::@Cons(%x, %nil) : (tensor<i32>, !relay.adt<@List, tensor<f32>>) -> !relay.adt<@List, tensor<f32>>
  relay.return %l : !relay.adt<@List, tensor<f32>>
}

// -----

// Tests that a constructor builds its own ADT.
relay.data @A {
  relay.ctor @MkA
}
relay.data @B {
  relay.ctor @MkB
}
relay.func @f() -> !relay.adt<@B> {
  // expected-error @+1 {{'relay.construct' op constructor @A::@MkA builds a value of ADT @A, not of type '!relay.adt<@B>'}}
  %a = relay.construct @A::@MkA() : () -> !relay.adt<@B>
  relay.return %a : !relay.adt<@B>
}

// -----

// Tests that a match has cases.
relay.func @f(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.match' op needs at least one case}}
  %r = relay.match %x : tensor<f32> -> tensor<f32> {
  }
  relay.return %r : tensor<f32>
}

// -----

// Tests that pattern constructors exist.
relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}
relay.func @f(%l: !relay.adt<@List, tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.match' op refers to an undefined constructor @List::@Snoc (expected @Type::@Constructor)}}
  %r = relay.match %l : !relay.adt<@List, tensor<f32>> -> tensor<f32> {
    case @List::@Snoc {
      relay.yield %x : tensor<f32>
    }
  }
  relay.return %r : tensor<f32>
}

// -----

// Tests pattern arity.
relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}
relay.func @f(%l: !relay.adt<@List, tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.match' op constructor pattern @List::@Cons in case #0 has 1 sub-patterns, but the constructor has 2 fields}}
  %r = relay.match %l : !relay.adt<@List, tensor<f32>> -> tensor<f32> {
    case @List::@Cons(_) {
      relay.yield %x : tensor<f32>
    }
  }
  relay.return %r : tensor<f32>
}

// -----

// Tests nested pattern types.
relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}
relay.data @Option[a] {
  relay.ctor @Some(!relay.tvar<a>)
  relay.ctor @None
}
relay.func @f(%l: !relay.adt<@List, tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.match' op constructor pattern @Option::@Some builds a value of ADT @Option, not of type 'tensor<f32>'}}
  %r = relay.match %l : !relay.adt<@List, tensor<f32>> -> tensor<f32> {
    case @List::@Cons(@Option::@Some(_), _) {
      relay.yield %x : tensor<f32>
    }
  }
  relay.return %r : tensor<f32>
}

// -----

// Tests pattern variable types.
relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}
relay.func @f(%l: !relay.adt<@List, tensor<f32>>) -> tensor<i32> {
  // expected-error @+1 {{'relay.match' op variable #0 of case #0 has type 'tensor<i32>' but matches a value of type 'tensor<f32>'}}
  %r = relay.match %l : !relay.adt<@List, tensor<f32>> -> tensor<i32> {
    case @List::@Cons(%h : tensor<i32>, _) {
      relay.yield %h : tensor<i32>
    }
  }
  relay.return %r : tensor<i32>
}

// -----

// Tests tuple pattern arity.
relay.func @f(%t: tuple<tensor<f32>, tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.match' op tuple pattern with 3 fields in case #0 cannot match a value of type 'tuple<tensor<f32>, tensor<f32>>'}}
  %r = relay.match %t : tuple<tensor<f32>, tensor<f32>> -> tensor<f32> {
    case (_, _, _) {
      relay.yield %x : tensor<f32>
    }
  }
  relay.return %r : tensor<f32>
}

// -----

// Tests case result types.
relay.func @f(%t: tensor<f32>, %y: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.match' op case #1 yields 'tensor<i32>' but the match has type 'tensor<f32>'}}
  %r = relay.match %t : tensor<f32> -> tensor<f32> {
    case %v : tensor<f32> {
      relay.yield %v : tensor<f32>
    }
    case _ {
      relay.yield %y : tensor<i32>
    }
  }
  relay.return %r : tensor<f32>
}

// -----

// Tests that the pattern's variables are the region's arguments (generic
// form, which can say otherwise).
relay.func @f(%t: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.match' op case #0 binds 1 variables but its region has 0 arguments}}
  %r = "relay.match"(%t) <{patterns = [#relay.pvar]}> ({
    relay.yield %t : tensor<f32>
  }) : (tensor<f32>) -> tensor<f32>
  relay.return %r : tensor<f32>
}

// -----

// Tests that patterns are pattern attributes.
relay.func @f(%t: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.match' op case #0 has an invalid pattern 1 : i64}}
  %r = "relay.match"(%t) <{patterns = [1]}> ({
    relay.yield %t : tensor<f32>
  }) : (tensor<f32>) -> tensor<f32>
  relay.return %r : tensor<f32>
}

// -----

// Tests the pattern syntax.
relay.func @f(%t: tensor<f32>) -> tensor<f32> {
  %r = relay.match %t : tensor<f32> -> tensor<f32> {
    // expected-error @+1 {{expected a pattern: '_', '%var : type', '@Type::@Ctor(...)' or '(...)'}}
    case 3 {
      relay.yield %t : tensor<f32>
    }
  }
  relay.return %r : tensor<f32>
}

// -----

// Tests that ADT type parameters are type variables (generic form).
// expected-error @+1 {{'relay.data' op type parameters must be !relay.tvar types, got tensor<f32>}}
"relay.data"() <{sym_name = "D", type_params = [tensor<f32>]}> ({
  "relay.ctor"() <{sym_name = "C", fields = []}> : () -> ()
}) : () -> ()

// -----

// Tests that a constructor reference names an ADT's constructor, not a
// function's inside.
relay.func @f(%x: tensor<f32>) -> tensor<f32> {
  relay.return %x : tensor<f32>
}
relay.func @g(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.match' op refers to an undefined constructor @f::@Cons (expected @Type::@Constructor)}}
  %r = relay.match %x : tensor<f32> -> tensor<f32> {
    case @f::@Cons(_) {
      relay.yield %x : tensor<f32>
    }
  }
  relay.return %r : tensor<f32>
}

// -----

// Tests that matched ADT types name declared ADTs.
// expected-error @+1 {{'relay.func' op uses ADT type '!relay.adt<@Nope>', but @Nope is not a relay.data}}
relay.func @k(%x: !relay.adt<@Nope>) -> tensor<f32> {
  %c = relay.constant dense<1.0> : tensor<f32>
  relay.return %c : tensor<f32>
}

// -----

// Tests that an extern type has no constructors (generic form).
// expected-error @+1 {{'relay.data' op an extern type has no constructors, found 1}}
"relay.data"() <{sym_name = "D", external}> ({
  "relay.ctor"() <{sym_name = "C", fields = []}> : () -> ()
}) : () -> ()

// -----

// Tests that there is a pattern per case (generic form).
relay.func @f(%t: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.match' op has 2 patterns for 1 cases}}
  %r = "relay.match"(%t) <{patterns = [#relay.pwild, #relay.pwild]}> ({
    relay.yield %t : tensor<f32>
  }) : (tensor<f32>) -> tensor<f32>
  relay.return %r : tensor<f32>
}
