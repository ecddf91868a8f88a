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

// -----

// A dense_resource constant whose blob the file does not carry.
relay.func @f() -> tensor<2xf32> {
  // expected-error @+1 {{cannot export the constant: its resource blob is missing or does not hold its type's bytes}}
  %c = relay.constant dense_resource<missing> : tensor<2xf32>
  relay.return %c : tensor<2xf32>
}

// -----

// A blob of the wrong size for its type (3 floats for 2).
relay.func @f() -> tensor<2xf32> {
  // expected-error @+1 {{cannot export the constant: its resource blob is missing or does not hold its type's bytes}}
  %c = relay.constant dense_resource<short> : tensor<2xf32>
  relay.return %c : tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      short: "0x04000000000000000000803F0000803F"
    }
  }
#-}
