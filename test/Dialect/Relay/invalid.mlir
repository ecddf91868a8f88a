// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// Tests that a function must return exactly one value.
// expected-error @+1 {{a Relay function returns exactly one value, got 2 result types}}
relay.func @two_results(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  relay.return %x : tensor<f32>
}

// -----

// Tests that relay.return matches the function's result type.
relay.func @wrong_return(%x: tensor<f32>) -> tensor<i32> {
  // expected-error @+1 {{'relay.return' op returns a value of type 'tensor<f32>' but the enclosing function returns 'tensor<i32>'}}
  relay.return %x : tensor<f32>
}

// -----

// Tests that a function body ends with relay.return.
// expected-error @+1 {{'relay.func' op function body must end with 'relay.return'}}
relay.func @no_return(%x: tensor<f32>) -> tensor<f32> {
  "test.terminator"() : () -> ()
}

// -----

// Tests that type variables must be bound.
// expected-error @+1 {{'relay.func' op uses type variable 'b', which no enclosing type parameter list binds}}
relay.func @unbound[a](%x: !relay.tvar<b>) -> !relay.tvar<a> {
  relay.return %x : !relay.tvar<b>
}

// -----

// Tests that type variables are used at their kind.
// expected-error @+1 {{'relay.func' op uses type variable 's' as a Shape, but it is declared with kind Type}}
relay.func @wrong_kind[s](%x: !relay.tensor<s, f32>) -> !relay.tensor<s, f32> {
  relay.return %x : !relay.tensor<s, f32>
}

// -----

// Tests that type parameters are unique.
// expected-error @+1 {{duplicate type parameter 'a'}}
relay.func @dup[a, a](%x: !relay.tvar<a>) -> !relay.tvar<a> {
  relay.return %x : !relay.tvar<a>
}

// -----

// Tests that a call names a defined function.
relay.func @undefined_callee(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.call' op refers to an undefined function @nowhere}}
  %0 = relay.call @nowhere(%x) : (tensor<f32>) -> tensor<f32>
  relay.return %0 : tensor<f32>
}

// -----

// Tests that a call names a relay.func, not another symbol.
relay.data @T {
  relay.ctor @C
}
relay.func @callee_not_func(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.call' op @T is a 'relay.data', not a 'relay.func'}}
  %0 = relay.call @T(%x) : (tensor<f32>) -> tensor<f32>
  relay.return %0 : tensor<f32>
}

// -----

// Tests call arity.
relay.func @f(%x: tensor<f32>) -> tensor<f32> {
  relay.return %x : tensor<f32>
}
relay.func @arity(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.call' op expects 1 arguments for @f, got 2}}
  %0 = relay.call @f(%x, %x) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  relay.return %0 : tensor<f32>
}

// -----

// Tests call argument types.
relay.func @f(%x: tensor<f32>) -> tensor<f32> {
  relay.return %x : tensor<f32>
}
relay.func @arg_type(%x: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.call' op argument #0 of type 'tensor<i32>' does not match parameter type 'tensor<f32>' of @f}}
  %0 = relay.call @f(%x) : (tensor<i32>) -> tensor<f32>
  relay.return %0 : tensor<f32>
}

// -----

// Tests call result types.
relay.func @f(%x: tensor<f32>) -> tensor<f32> {
  relay.return %x : tensor<f32>
}
relay.func @result_type(%x: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'relay.call' op result type 'tensor<2xf32>' does not match the return type 'tensor<f32>' of @f}}
  %0 = relay.call @f(%x) : (tensor<f32>) -> tensor<2xf32>
  relay.return %0 : tensor<2xf32>
}

// -----

// Tests that explicit type arguments instantiate the callee.
relay.func @id[a](%x: !relay.tvar<a>) -> !relay.tvar<a> {
  relay.return %x : !relay.tvar<a>
}
relay.func @instantiate(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.call' op argument #0 of type 'tensor<f32>' does not match parameter type 'tensor<i1>' of @id}}
  %0 = relay.call @id [tensor<i1>] (%x) : (tensor<f32>) -> tensor<f32>
  relay.return %0 : tensor<f32>
}

// -----

// Tests the number of type arguments.
relay.func @id[a](%x: !relay.tvar<a>) -> !relay.tvar<a> {
  relay.return %x : !relay.tvar<a>
}
relay.func @type_arg_count(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.call' op expects 1 type arguments for @id, got 2}}
  %0 = relay.call @id [tensor<f32>, tensor<f32>] (%x) : (tensor<f32>) -> tensor<f32>
  relay.return %0 : tensor<f32>
}

// -----

// Tests type arguments to a monomorphic function.
relay.func @f(%x: tensor<f32>) -> tensor<f32> {
  relay.return %x : tensor<f32>
}
relay.func @mono(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.call' op passes type arguments to @f, which has no type parameters}}
  %0 = relay.call @f [tensor<f32>] (%x) : (tensor<f32>) -> tensor<f32>
  relay.return %0 : tensor<f32>
}

// -----

// Tests that a type argument fits its parameter's kind.
relay.func @plus[s : Shape](%a: !relay.tensor<s, f32>) -> !relay.tensor<s, f32> {
  relay.return %a : !relay.tensor<s, f32>
}
relay.func @kind_arg(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{type argument for 's' (kind Shape) must be array<i64: ...>, got tensor<2xf32>}}
  %0 = relay.call @plus [tensor<2xf32>] (%x) : (tensor<2xf32>) -> tensor<2xf32>
  relay.return %0 : tensor<2xf32>
}

// -----

// Tests that a global reference has the function's type.
relay.func @f(%x: tensor<f32>) -> tensor<f32> {
  relay.return %x : tensor<f32>
}
relay.func @global_ref() -> tensor<f32> {
  // expected-error @+1 {{'relay.global_ref' op has type '!relay.fn<(tensor<i32>) -> tensor<f32>>' but @f has type '!relay.fn<(tensor<f32>) -> tensor<f32>>'}}
  %0 = relay.global_ref @f : !relay.fn<(tensor<i32>) -> tensor<f32>>
  %c = relay.constant dense<1.0> : tensor<f32>
  relay.return %c : tensor<f32>
}

// -----

// Tests that a global reference names a function.
relay.func @undefined_global() -> tensor<f32> {
  // expected-error @+1 {{'relay.global_ref' op refers to an undefined function @g}}
  %0 = relay.global_ref @g : !relay.fn<() -> tensor<f32>>
  %c = relay.constant dense<1.0> : tensor<f32>
  relay.return %c : tensor<f32>
}

// -----

// Tests closure application arity.
relay.func @apply_arity(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.apply' op expects 1 arguments for the closure, got 0}}
  %0 = relay.apply %f() : (!relay.fn<(tensor<f32>) -> tensor<f32>>) -> tensor<f32>
  relay.return %0 : tensor<f32>
}

// -----

// Tests that only functions are applied.
relay.func @apply_tensor(%f: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.apply' op applies a value of type 'tensor<f32>', which is not a function}}
  %0 = relay.apply %f() : (tensor<f32>) -> tensor<f32>
  relay.return %0 : tensor<f32>
}

// -----

// Tests closure application argument types.
relay.func @apply_types(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<i8>) -> tensor<f32> {
  // expected-error @+1 {{'relay.apply' op argument #0 of type 'tensor<i8>' does not match parameter type 'tensor<f32>' of the closure}}
  %0 = relay.apply %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<i8>) -> tensor<f32>
  relay.return %0 : tensor<f32>
}

// -----

// Tests that a closure body ends in relay.return with the right type.
relay.func @closure_return(%x: tensor<f32>) -> tensor<f32> {
  %f = relay.fn () -> tensor<i32> {
    // expected-error @+1 {{'relay.return' op returns a value of type 'tensor<f32>' but the enclosing function returns 'tensor<i32>'}}
    relay.return %x : tensor<f32>
  }
  relay.return %x : tensor<f32>
}

// -----

// Tests the kinds in a closure signature.
relay.func @closure_kind(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.fn' op uses type variable 'd' as a BaseType, but it is declared with kind Shape}}
  %f = relay.fn [d : Shape](%y: !relay.tensor<[2], d>) -> tensor<f32> {
    relay.return %x : tensor<f32>
  }
  relay.return %x : tensor<f32>
}

// -----

// Tests that the condition of if is a 0-d bool tensor.
relay.func @if_cond(%c: tensor<2xi1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.if' op condition must be a 0-d bool tensor (tensor<i1>), got 'tensor<2xi1>'}}
  %r = relay.if %c : tensor<2xi1> -> tensor<f32> {
    relay.yield %x : tensor<f32>
  } else {
    relay.yield %x : tensor<f32>
  }
  relay.return %r : tensor<f32>
}

// -----

// Tests that if branches yield the if's type.
relay.func @if_branch(%c: tensor<i1>, %x: tensor<f32>, %y: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.if' op else branch yields 'tensor<i32>' but the if has type 'tensor<f32>'}}
  %r = relay.if %c : tensor<i1> -> tensor<f32> {
    relay.yield %x : tensor<f32>
  } else {
    relay.yield %y : tensor<i32>
  }
  relay.return %r : tensor<f32>
}

// -----

// Tests that if branches agree even when the if's type is not known yet.
relay.func @if_branches_differ(%c: tensor<i1>, %x: tensor<f32>, %y: tensor<i32>) -> !relay.incomplete {
  // expected-error @+1 {{'relay.if' op branches yield different types: 'tensor<f32>' and 'tensor<i32>'}}
  %r = relay.if %c : tensor<i1> -> !relay.incomplete {
    relay.yield %x : tensor<f32>
  } else {
    relay.yield %y : tensor<i32>
  }
  relay.return %r : !relay.incomplete
}

// -----

// Tests that if branches end in relay.yield.
relay.func @if_terminator(%c: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.if' op then branch must end with 'relay.yield'}}
  %r = relay.if %c : tensor<i1> -> tensor<f32> {
    "test.terminator"() : () -> ()
  } else {
    relay.yield %x : tensor<f32>
  }
  relay.return %r : tensor<f32>
}

// -----

// Tests that relay.yield only ends if/match regions.
relay.func @stray_yield(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.yield' op expects parent op to be one of 'relay.if, relay.match'}}
  relay.yield %x : tensor<f32>
}

// -----

// Tests projection out of range.
relay.func @projection(%t: tuple<tensor<f32>, tensor<f32>>) -> tensor<f32> {
  // expected-error @+1 {{'relay.tuple_get' op index 2 is out of range for a tuple of 2 fields}}
  %x = relay.tuple_get %t[2] : tuple<tensor<f32>, tensor<f32>>
  relay.return %x : tensor<f32>
}

// -----

// Tests projection of a non-tuple.
relay.func @projection_of_tensor(%t: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.tuple_get' op projects a field of 'tensor<f32>', which is not a tuple}}
  %x = relay.tuple_get %t[0] : tensor<f32>
  relay.return %x : tensor<f32>
}

// -----

// Tests reading a non-reference.
relay.func @ref_read(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.ref_read' op reads a value of type 'tensor<f32>', which is not a reference}}
  %v = relay.ref_read %x : tensor<f32>
  relay.return %v : tensor<f32>
}

// -----

// Tests writing a value of the wrong type.
relay.func @ref_write(%r: !relay.ref<tensor<f32>>, %x: tensor<i32>) -> tuple<> {
  // expected-error @+1 {{'relay.ref_write' op writes a value of type 'tensor<i32>' to a reference of type '!relay.ref<tensor<f32>>'}}
  %u = relay.ref_write %r, %x : !relay.ref<tensor<f32>>, tensor<i32>
  relay.return %u : tuple<>
}

// -----

// Tests writing to a non-reference.
relay.func @ref_write_tensor(%r: tensor<f32>, %x: tensor<f32>) -> tuple<> {
  // expected-error @+1 {{'relay.ref_write' op writes to a value of type 'tensor<f32>', which is not a reference}}
  %u = relay.ref_write %r, %x : tensor<f32>, tensor<f32>
  relay.return %u : tuple<>
}

// -----

// Tests that constants are tensors.
relay.func @constant() -> tensor<f32> {
  // expected-error @+1 {{invalid kind of attribute specified}}
  %c = relay.constant 1.0 : f32
  relay.return %c : tensor<f32>
}

// -----

// Tests the Broadcast relation on operators.
relay.func @broadcast(%a: tensor<3x4xf32>, %b: tensor<5xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{add: cannot broadcast 'tensor<3x4xf32>' with 'tensor<5xf32>'}}
  %0 = relay.add %a, %b : (tensor<3x4xf32>, tensor<5xf32>) -> tensor<3x4xf32>
  relay.return %0 : tensor<3x4xf32>
}

// -----

// Tests dtype agreement in the Broadcast relation.
relay.func @dtype(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{multiply: dtype mismatch between 'tensor<4xf32>' and 'tensor<4xi32>'}}
  %0 = relay.multiply %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  relay.return %0 : tensor<4xf32>
}

// -----

// Tests that an operator's result type follows its relation.
relay.func @compare(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'relay.less' op result type 'tensor<4xf32>' but its type relation implies 'tensor<4xi1>'}}
  %0 = relay.less %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  relay.return %0 : tensor<4xf32>
}

// -----

// Tests that operators take tensors.
relay.func @not_tensor(%a: tuple<>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{add: expected a tensor for operand #0, got 'tuple<>'}}
  %0 = relay.add %a, %b : (tuple<>, tensor<4xf32>) -> tensor<4xf32>
  relay.return %0 : tensor<4xf32>
}

// -----

// Tests that a closure's body arguments follow its type (generic form).
relay.func @fn_args() -> tensor<f32> {
  // expected-error @+1 {{'relay.fn' op body must have 0 arguments to match the closure signature, got 1}}
  %f = "relay.fn"() ({
  ^bb0(%a: tensor<f32>):
    relay.return %a : tensor<f32>
  }) : () -> !relay.fn<() -> tensor<f32>>
  %c = relay.constant dense<1.0> : tensor<f32>
  relay.return %c : tensor<f32>
}

// -----

// Tests that the rec argument has the closure's type (generic form).
relay.func @fn_self() -> tensor<f32> {
  // expected-error @+1 {{'relay.fn' op the 'rec' argument must have the closure's type '!relay.fn<() -> tensor<f32>>', got 'tensor<f32>'}}
  %f = "relay.fn"() <{recursive}> ({
  ^bb0(%a: tensor<f32>):
    relay.return %a : tensor<f32>
  }) : () -> !relay.fn<() -> tensor<f32>>
  %c = relay.constant dense<1.0> : tensor<f32>
  relay.return %c : tensor<f32>
}

// -----

// Tests that a closure's parameters have its declared types (generic form).
relay.func @fn_param() -> tensor<f32> {
  // expected-error @+1 {{'relay.fn' op parameter #0 has type 'tensor<i32>' but the closure type says 'tensor<f32>'}}
  %f = "relay.fn"() ({
  ^bb0(%a: tensor<i32>):
    %c = relay.constant dense<1.0> : tensor<f32>
    relay.return %c : tensor<f32>
  }) : () -> !relay.fn<(tensor<f32>) -> tensor<f32>>
  %c = relay.constant dense<1.0> : tensor<f32>
  relay.return %c : tensor<f32>
}

// -----

// Tests that a closure body ends with relay.return.
relay.func @fn_terminator() -> tensor<f32> {
  // expected-error @+1 {{'relay.fn' op closure body must end with 'relay.return'}}
  %f = relay.fn () -> tensor<f32> {
    "test.terminator"() : () -> ()
  }
  %c = relay.constant dense<1.0> : tensor<f32>
  relay.return %c : tensor<f32>
}

// -----

// Tests that function type parameters are type variables (generic form).
// expected-error @+1 {{'relay.func' op type parameters must be !relay.tvar types, got tensor<f32>}}
"relay.func"() <{sym_name = "f", function_type = (tensor<f32>) -> tensor<f32>, type_params = [tensor<f32>]}> ({
^bb0(%x: tensor<f32>):
  relay.return %x : tensor<f32>
}) : () -> ()

// -----

// Tests BaseType type arguments.
relay.func @cast[d : BaseType](%a: !relay.tensor<[2], d>) -> !relay.tensor<[2], d> {
  relay.return %a : !relay.tensor<[2], d>
}
relay.func @base_arg(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{type argument for 'd' (kind BaseType) must be an element type, got tensor<2xf32>}}
  %0 = relay.call @cast [tensor<2xf32>] (%x) : (tensor<2xf32>) -> tensor<2xf32>
  relay.return %0 : tensor<2xf32>
}

// -----

// Tests ShapeVar type arguments, and that they instantiate the callee.
relay.func @vec[n : ShapeVar](%a: !relay.tensor<[n], f32>) -> !relay.tensor<[n], f32> {
  relay.return %a : !relay.tensor<[n], f32>
}
relay.func @dim_arg(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.call @vec [2] (%x) : (tensor<2xf32>) -> tensor<2xf32>
  // expected-error @+1 {{type argument for 'n' (kind ShapeVar) must be an integer, got f32}}
  %1 = relay.call @vec [f32] (%x) : (tensor<2xf32>) -> tensor<2xf32>
  relay.return %0 : tensor<2xf32>
}

// -----

relay.func @vec[n : ShapeVar](%a: !relay.tensor<[n], f32>) -> !relay.tensor<[n], f32> {
  relay.return %a : !relay.tensor<[n], f32>
}
relay.func @dim_arg_mismatch(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'relay.call' op argument #0 of type 'tensor<2xf32>' does not match parameter type 'tensor<3xf32>' of @vec}}
  %0 = relay.call @vec [3] (%x) : (tensor<2xf32>) -> tensor<2xf32>
  relay.return %0 : tensor<2xf32>
}

// -----

// Tests Type type arguments.
relay.func @id[a](%x: !relay.tvar<a>) -> !relay.tvar<a> {
  relay.return %x : !relay.tvar<a>
}
relay.func @type_arg(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{type argument for 'a' (kind Type) must be a type, got 3 : i64}}
  %0 = relay.call @id [3] (%x) : (tensor<f32>) -> tensor<f32>
  relay.return %0 : tensor<f32>
}

// -----

// Tests that a global reference names a relay.func.
relay.data @T {
  relay.ctor @C
}
relay.func @ref_data() -> tensor<f32> {
  // expected-error @+1 {{'relay.global_ref' op @T is a 'relay.data', not a 'relay.func'}}
  %0 = relay.global_ref @T : !relay.fn<() -> tensor<f32>>
  %c = relay.constant dense<1.0> : tensor<f32>
  relay.return %c : tensor<f32>
}
