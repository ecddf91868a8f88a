// RUN: not relay-mlir-opt %s --relay-to-linalg="target=tpu" 2>&1 | FileCheck %s

// Tests that an unknown lowering target is reported with the registered
// ones, and nothing is converted.
// CHECK: error: relay-to-linalg: unknown target 'tpu' (registered: cpu, generic)
relay.func @f(%x: tensor<f32>) -> tensor<f32> {
  relay.return %x : tensor<f32>
}
