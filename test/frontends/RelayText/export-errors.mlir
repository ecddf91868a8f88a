// RUN: relay-mlir-translate --export-relay %s -split-input-file -verify-diagnostics
// What Relay text cannot express is reported at the op.

// expected-error @+1 {{cannot export 'func.func' to Relay text (only relay.func and relay.data are Relay definitions)}}
func.func @f() {
  return
}

// -----

// expected-error @+1 {{cannot export element type 'index' to Relay text}}
relay.func @f(%x: tensor<4xf32>) -> tensor<4xindex> {
  %c = relay.constant dense<1> : tensor<4xindex>
  relay.return %c : tensor<4xindex>
}
