// Tuples and projection (seeds/002, "Tuples"):
//
// fn(%a : Tensor[(10, 10), float32], %b : float32, %c : Tensor[(100, 100), float32]) {
//   let %tup = (%a, %b);
//   ((%tup.0 + %tup.1), %c)
// }
relay.func @main(%a: tensor<10x10xf32>, %b: tensor<f32>, %c: tensor<100x100xf32>)
    -> tuple<tensor<10x10xf32>, tensor<100x100xf32>> {
  %tup = relay.tuple(%a, %b : tensor<10x10xf32>, tensor<f32>)
  %t0 = relay.tuple_get %tup[0] : tuple<tensor<10x10xf32>, tensor<f32>>
  %t1 = relay.tuple_get %tup[1] : tuple<tensor<10x10xf32>, tensor<f32>>
  %sum = relay.add %t0, %t1 : (tensor<10x10xf32>, tensor<f32>) -> tensor<10x10xf32>
  %r = relay.tuple(%sum, %c : tensor<10x10xf32>, tensor<100x100xf32>)
  relay.return %r : tuple<tensor<10x10xf32>, tensor<100x100xf32>>
}
