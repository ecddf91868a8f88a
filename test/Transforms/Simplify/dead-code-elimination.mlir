// RUN: relay-mlir-opt %s --split-input-file --relay-dead-code-elimination | FileCheck %s
// RUN: relay-mlir-opt %s --split-input-file --relay-dead-code-elimination="inline-once" | FileCheck %s --check-prefix=ONCE

// Tests that unused effect-free bindings go: operators, constants, tuples,
// a closure, and an `if` whose branches have no effect.
// CHECK-LABEL: relay.func @main(
// CHECK-SAME: %[[Z:.*]]: tensor<i32>
// CHECK-NEXT: relay.return %[[Z]]
relay.func @main(%z: tensor<i32>, %c: tensor<i1>) -> tensor<i32> {
  %x = relay.constant dense<1> : tensor<i32>
  %y = relay.add %x, %z : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %t = relay.tuple(%x, %y : tensor<i32>, tensor<i32>)
  %f = relay.fn (%a: tensor<i32>) -> tensor<i32> {
    relay.return %a : tensor<i32>
  }
  %i = relay.if %c : tensor<i1> -> tensor<i32> {
    relay.yield %y : tensor<i32>
  } else {
    relay.yield %x : tensor<i32>
  }
  relay.return %z : tensor<i32>
}

// -----

// Tests that reference writes, and calls of functions that write
// references, stay with what they use, while an unused read goes.
// CHECK-LABEL: relay.func @bump(
// CHECK: relay.ref_write
// CHECK-LABEL: relay.func @main(
// CHECK: %[[R:.*]] = relay.ref
// CHECK-NEXT: relay.call @bump(%[[R]])
// CHECK-NEXT: relay.call @bump(%[[R]])
// CHECK-NOT: relay.ref_read
// CHECK: relay.return
relay.func @bump(%r: !relay.ref<tensor<i32>>) -> tensor<i32> {
  %v = relay.ref_read %r : !relay.ref<tensor<i32>>
  %one = relay.constant dense<1> : tensor<i32>
  %w = relay.add %v, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %u = relay.ref_write %r, %w : !relay.ref<tensor<i32>>, tensor<i32>
  relay.return %v : tensor<i32>
}
relay.func @main() -> tensor<i32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %r = relay.ref %zero : tensor<i32>
  %a = relay.call @bump(%r) : (!relay.ref<tensor<i32>>) -> tensor<i32>
  %b = relay.call @bump(%r) : (!relay.ref<tensor<i32>>) -> tensor<i32>
  %unused = relay.ref_read %r : !relay.ref<tensor<i32>>
  relay.return %zero : tensor<i32>
}

// -----

// Tests that functions @main does not reach go, with the functions only
// they call, while what @main calls stays.
// CHECK-LABEL: relay.func @used(
// CHECK-LABEL: relay.func @main(
// CHECK-NOT: relay.func @unused
// CHECK-NOT: relay.func @only_from_unused
relay.func @only_from_unused(%x: tensor<f32>) -> tensor<f32> {
  relay.return %x : tensor<f32>
}
relay.func @unused(%x: tensor<f32>) -> tensor<f32> {
  %y = relay.call @only_from_unused(%x) : (tensor<f32>) -> tensor<f32>
  relay.return %y : tensor<f32>
}
relay.func @used(%x: tensor<f32>) -> tensor<f32> {
  relay.return %x : tensor<f32>
}
relay.func @main(%x: tensor<f32>) -> tensor<f32> {
  %y = relay.call @used(%x) : (tensor<f32>) -> tensor<f32>
  relay.return %y : tensor<f32>
}

// -----

// Tests that without @main every public function is kept (the program's
// entry is not known) and only private ones nothing reaches go.
// CHECK-LABEL: relay.func @a(
// CHECK-LABEL: relay.func @b(
// CHECK-NOT: @c
relay.func @a(%x: tensor<f32>) -> tensor<f32> {
  relay.return %x : tensor<f32>
}
relay.func @b(%x: tensor<f32>) -> tensor<f32> {
  relay.return %x : tensor<f32>
}
relay.func private @c(%x: tensor<f32>) -> tensor<f32> {
  relay.return %x : tensor<f32>
}

// -----

// Tests that with inline-once a closure applied once is inlined at its
// application, and one applied twice is not.
// CHECK-LABEL: relay.func @closures(
// CHECK: relay.fn
// ONCE-LABEL: relay.func @closures(
// ONCE-SAME: %[[X:.*]]: tensor<f32>
// ONCE-NEXT: %[[T:.*]] = relay.fn
// ONCE: relay.multiply
// ONCE: %[[D:.*]] = relay.add %[[X]], %[[X]]
// ONCE-NEXT: relay.apply %[[T]](%[[D]])
// ONCE-NEXT: relay.apply %[[T]]
// ONCE-NOT: relay.fn (
relay.func @closures(%x: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>> {
  %once = relay.fn (%y: tensor<f32>) -> tensor<f32> {
    %d = relay.add %y, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
    relay.return %d : tensor<f32>
  }
  %twice = relay.fn (%y: tensor<f32>) -> tensor<f32> {
    %m = relay.multiply %y, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
    relay.return %m : tensor<f32>
  }
  %a = relay.apply %once(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  %b = relay.apply %twice(%a) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  %c = relay.apply %twice(%b) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  %t = relay.tuple(%a, %b, %c : tensor<f32>, tensor<f32>, tensor<f32>)
  relay.return %t : tuple<tensor<f32>, tensor<f32>, tensor<f32>>
}
