// Piecewise functions: abs, clip, maximum, minimum (broadcast), where.
relay.func @main(%x: tensor<3x4xf64>, %y: tensor<4xf64>, %z: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %a = relay.abs %x : (tensor<3x4xf64>) -> tensor<3x4xf64>
  %b = relay.clip %z {a_min = -0.5 : f64, a_max = 0.7 : f64} : (tensor<3x4xf64>) -> tensor<3x4xf64>
  %c = relay.maximum %a, %y : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  %d = relay.minimum %b, %y : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  %cond = relay.greater %x, %z : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xi1>
  %w = relay.where %cond, %c, %d : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %m = relay.multiply %w, %x : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  relay.return %m : tensor<3x4xf64>
}
