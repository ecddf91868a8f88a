// RUN: relay-mlir-opt %s | FileCheck %s
// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// RUN: relay-mlir-opt %s --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: relay-mlir-opt %s | relay-mlir-translate --export-relay | FileCheck %s --check-prefix=TEXT
// RUN: relay-mlir-opt %s -mlir-print-op-generic | relay-mlir-opt | FileCheck %s --check-prefix=GENERIC

// Tests that the parameters of functions, closures and match cases keep
// their Relay names through IR printed without debug information: a named
// parameter prints with its name as SSA name and parses back to that name
// (its NameLoc), while MLIR's own names (%arg1) stay unnamed and an
// explicit location wins. The generic form has no such names.
// CHECK-LABEL: relay.func @names(%data: tensor<2xf32>, %arg0: tensor<2xf32>, %weight: tensor<2xf32>)
// CHECK: relay.fn (%y: tensor<2xf32>) -> tensor<2xf32>
// CHECK: relay.add %y, %data
// CHECK: case @Box::@Full(%inner: tensor<2xf32>)
// LOC: relay.func @names(%data: tensor<2xf32> loc("data"(
// LOC-SAME: %arg0: tensor<2xf32> loc(
// LOC-SAME: %weight: tensor<2xf32> loc("weight"(
// TEXT: def @names(%data: Tensor[(2), float32], %x: Tensor[(2), float32], %weight: Tensor[(2), float32])
// TEXT: fn (%y: Tensor[(2), float32])
// TEXT: Full(%inner: Tensor[(2), float32])
// GENERIC: relay.func @names(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>, %arg2: tensor<2xf32>)
relay.data @Box {
  relay.ctor @Full(tensor<2xf32>)
  relay.ctor @Empty
}

relay.func @names(%data: tensor<2xf32>, %arg1: tensor<2xf32>,
                  %w: tensor<2xf32> loc("weight"("names.mlir":1:1)))
    -> tensor<2xf32> {
  %f = relay.fn (%y: tensor<2xf32>) -> tensor<2xf32> {
    %s = relay.add %y, %data : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    relay.return %s : tensor<2xf32>
  }
  %a = relay.apply %f(%arg1) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  %b = relay.construct @Box::@Full(%a) : (tensor<2xf32>) -> !relay.adt<@Box>
  %m = relay.match %b : !relay.adt<@Box> -> tensor<2xf32> {
    case @Box::@Full(%inner: tensor<2xf32>) {
      %p = relay.multiply %inner, %w : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      relay.yield %p : tensor<2xf32>
    }
    case @Box::@Empty {
      relay.yield %w : tensor<2xf32>
    }
  }
  relay.return %m : tensor<2xf32>
}
