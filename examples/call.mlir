// A closure call (seeds/002, "Call"); evaluates to 22:
//
// let %c = 1;
// let %f = fn(%x : Tensor[(), float32], %y : Tensor[(), float32]) { %x + %y + %c };
// %f(10, 11)
//
// As in TVM, `1` is an int32 literal; the reference's sum only types with a
// float `%c`, so %c is 1f here.
relay.func @main() -> tensor<f32> {
  %c = relay.constant dense<1.0> : tensor<f32>
  %f = relay.fn (%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
    %s = relay.add %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %t = relay.add %s, %c : (tensor<f32>, tensor<f32>) -> tensor<f32>
    relay.return %t : tensor<f32>
  }
  %ten = relay.constant dense<10.0> : tensor<f32>
  %eleven = relay.constant dense<11.0> : tensor<f32>
  %r = relay.apply %f(%ten, %eleven) : (!relay.fn<(tensor<f32>, tensor<f32>) -> tensor<f32>>, tensor<f32>, tensor<f32>) -> tensor<f32>
  relay.return %r : tensor<f32>
}
