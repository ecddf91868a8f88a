// Closures capture their environment (seeds/002, "Closures"):
//
// let %g = fn () {
//   let %x = Constant(0, (10, 10), float32);
//   fn (%y) { %y * %x }
// };
// let %f = %g();
// let %x = Constant(1, (10, 10), float32);
// %f(%x)   // evaluates to zeros: %f stored the first %x
relay.func @main() -> tensor<10x10xf32> {
  %g = relay.fn () -> !relay.fn<(tensor<10x10xf32>) -> tensor<10x10xf32>> {
    %x = relay.constant dense<0.0> : tensor<10x10xf32>
    %inner = relay.fn (%y: tensor<10x10xf32>) -> tensor<10x10xf32> {
      %p = relay.multiply %y, %x : (tensor<10x10xf32>, tensor<10x10xf32>) -> tensor<10x10xf32>
      relay.return %p : tensor<10x10xf32>
    }
    relay.return %inner : !relay.fn<(tensor<10x10xf32>) -> tensor<10x10xf32>>
  }
  %f = relay.apply %g() : (!relay.fn<() -> !relay.fn<(tensor<10x10xf32>) -> tensor<10x10xf32>>>) -> !relay.fn<(tensor<10x10xf32>) -> tensor<10x10xf32>>
  %x = relay.constant dense<1.0> : tensor<10x10xf32>
  %r = relay.apply %f(%x) : (!relay.fn<(tensor<10x10xf32>) -> tensor<10x10xf32>>, tensor<10x10xf32>) -> tensor<10x10xf32>
  relay.return %r : tensor<10x10xf32>
}
