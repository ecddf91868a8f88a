// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The errors of TVM's Fourier transforms' relations (dft, stft), found by
// the op verifiers.

// Tests that dft takes floating-point parts.
relay.func @dft_dtype(%re: tensor<8xi32>) -> tensor<i1> {
  // expected-error @+1 {{dft: expected a floating-point tensor of at least one axis, got 'tensor<8xi32>'}}
  %r = relay.dft %re, %re : (tensor<8xi32>, tensor<8xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that dft's imaginary part has the real part's type.
relay.func @dft_parts(%re: tensor<3x8xf32>, %im: tensor<3x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{dft: the imaginary part must have type 'tensor<3x8xf32>', got 'tensor<3x4xf32>'}}
  %r = relay.dft %re, %im : (tensor<3x8xf32>, tensor<3x4xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that stft takes a signal or a batch of them.
relay.func @stft_rank(%x: tensor<2x3x32xf32>, %w: tensor<8xf32>) -> tensor<i1> {
  // expected-error @+1 {{stft: expected a floating-point signal [L] or batch of signals [B, L], got 'tensor<2x3x32xf32>'}}
  %r = relay.stft %x, %w {n_fft = 8 : i64, hop_length = 4 : i64, win_length = 8 : i64} : (tensor<2x3x32xf32>, tensor<8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that stft's window is 1-d.
relay.func @stft_window_rank(%x: tensor<32xf32>, %w: tensor<2x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{stft: expected a 1-d window, got 'tensor<2x8xf32>'}}
  %r = relay.stft %x, %w {n_fft = 8 : i64, hop_length = 4 : i64, win_length = 8 : i64} : (tensor<32xf32>, tensor<2x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that stft's sizes are positive.
relay.func @stft_hop(%x: tensor<32xf32>, %w: tensor<8xf32>) -> tensor<i1> {
  // expected-error @+1 {{stft: n_fft, hop_length and win_length must be positive, got 8, 0 and 8}}
  %r = relay.stft %x, %w {n_fft = 8 : i64, hop_length = 0 : i64, win_length = 8 : i64} : (tensor<32xf32>, tensor<8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that stft's win_length does not exceed n_fft.
relay.func @stft_width(%x: tensor<32xf32>, %w: tensor<16xf32>) -> tensor<i1> {
  // expected-error @+1 {{stft: win_length 12 exceeds n_fft 8 (a frame would read past the signal)}}
  %r = relay.stft %x, %w {n_fft = 8 : i64, hop_length = 4 : i64, win_length = 12 : i64} : (tensor<32xf32>, tensor<16xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that stft's window covers win_length.
relay.func @stft_window(%x: tensor<32xf32>, %w: tensor<4xf32>) -> tensor<i1> {
  // expected-error @+1 {{stft: the window 'tensor<4xf32>' is shorter than win_length 8}}
  %r = relay.stft %x, %w {n_fft = 8 : i64, hop_length = 4 : i64, win_length = 8 : i64} : (tensor<32xf32>, tensor<4xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that stft's signal holds at least one frame.
relay.func @stft_short(%x: tensor<2x6xf32>, %w: tensor<8xf32>) -> tensor<i1> {
  // expected-error @+1 {{stft: the signal of 6 samples is shorter than n_fft 8}}
  %r = relay.stft %x, %w {n_fft = 8 : i64, hop_length = 4 : i64, win_length = 8 : i64} : (tensor<2x6xf32>, tensor<8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that stft's result type is checked: [batch, n_fft / 2 + 1,
// frames, 2].
relay.func @stft_result(%x: tensor<2x32xf32>, %w: tensor<8xf32>) -> tensor<i1> {
  // expected-error @+1 {{stft}}
  %r = relay.stft %x, %w {n_fft = 8 : i64, hop_length = 4 : i64, win_length = 8 : i64} : (tensor<2x32xf32>, tensor<8xf32>) -> tensor<2x8x7x2xf32>
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}
