// RUN: relay-mlir-translate --export-relay %s | FileCheck %s
// RUN: relay-mlir-translate --export-relay %s | relay-mlir-translate --import-relay | relay-mlir-translate --export-relay | FileCheck %s

// Tests that the quantized operators export with TVM's names, simulated_quantize
// as relay.op.annotation.simulated_quantize (which imports back).
// CHECK: def @quantized(
// CHECK-NEXT: %0 = relay.op.annotation.simulated_quantize(%x, 0.100000001f, -127.0f, 127.0f, kind=1);
// CHECK-NEXT: %1 = qnn.quantize(%0, 0.100000001f, 0, out_dtype="uint8");
// CHECK-NEXT: %2 = qnn.dequantize(%1, 0.100000001f, 0);
relay.func @quantized(%x: tensor<4xf32>, %w: tensor<3x4xi8>) -> tensor<4xf32> {
  %s = relay.constant dense<0.1> : tensor<f32>
  %lo = relay.constant dense<-127.0> : tensor<f32>
  %hi = relay.constant dense<127.0> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %y = relay.annotation.simulated_quantize %x, %s, %lo, %hi {kind = 1 : i64} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %q = relay.qnn.quantize %y, %s, %z {out_dtype = ui8} : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xui8>
  %d = relay.qnn.dequantize %q, %s, %z : (tensor<4xui8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  relay.return %d : tensor<4xf32>
}
