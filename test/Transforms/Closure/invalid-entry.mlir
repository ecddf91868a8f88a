// RUN: relay-mlir-opt %s --split-input-file --relay-defunctionalize=entry-functions=main -verify-diagnostics
// RUN: not relay-mlir-opt %s --split-input-file --relay-to-llvm 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: relay-mlir-opt %s --split-input-file --relay-defunctionalize | FileCheck %s --check-prefix=NOENTRY

// Tests that an entry function taking a closure is an error at compile
// time, even where the module makes functions of its type (the caller,
// outside the module, cannot make one): --relay-to-llvm checks its entry
// functions (main by default); without entry functions the pass converts
// the parameter like any other.
// PIPELINE: error: relay-defunctionalize: the entry function @main takes a closure (parameter 0, '!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>'); code compiled for callers outside the module cannot receive one
// NOENTRY: relay.func @main(%{{.*}}: !relay.adt<@Closure
relay.func @id(%y: tensor<2xf32>) -> tensor<2xf32> {
  relay.return %y : tensor<2xf32>
}
// expected-error @+1 {{relay-defunctionalize: the entry function @main takes a closure (parameter 0, '!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>'); code compiled for callers outside the module cannot receive one}}
relay.func @main(%f: !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %g = relay.global_ref @id : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  %r = relay.apply %f(%x) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  %s = relay.apply %g(%r) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  relay.return %s : tensor<2xf32>
}

// -----

// Tests that a closure inside a tuple parameter is found too.
relay.func @id(%y: tensor<2xf32>) -> tensor<2xf32> {
  relay.return %y : tensor<2xf32>
}
// expected-error @+1 {{relay-defunctionalize: the entry function @main takes a closure (parameter 1, 'tuple<tensor<2xf32>, !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>>')}}
relay.func @main(%x: tensor<2xf32>, %t: tuple<tensor<2xf32>, !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>>) -> tensor<2xf32> {
  %g = relay.global_ref @id : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  %s = relay.apply %g(%x) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  relay.return %s : tensor<2xf32>
}
