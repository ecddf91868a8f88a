// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The errors of vision.proposal's relation: the shapes of its three inputs
// (A = |scales| * |ratios| anchors per cell) and its attributes.

// Tests that the class probabilities need two scores per anchor.
relay.func @proposal_scores(%p: tensor<1x4x3x3xf32>, %d: tensor<1x24x3x3xf32>, %i: tensor<1x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.proposal: expected class probabilities [B, 12, H, W] (float; two scores for each of |scales| * |ratios| anchors), got 'tensor<1x4x3x3xf32>'}}
  %r = relay.vision.proposal %p, %d, %i {scales = array<f64: 8.0, 16.0>, ratios = array<f64: 0.5, 1.0, 2.0>} : (tensor<1x4x3x3xf32>, tensor<1x24x3x3xf32>, tensor<1x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the probabilities must be float.
relay.func @proposal_int(%p: tensor<1x2x3x3xi32>, %d: tensor<1x4x3x3xi32>, %i: tensor<1x3xi32>) -> tensor<i1> {
  // expected-error @+1 {{vision.proposal: expected class probabilities [B, 2, H, W] (float; two scores for each of |scales| * |ratios| anchors), got 'tensor<1x2x3x3xi32>'}}
  %r = relay.vision.proposal %p, %d, %i {scales = array<f64: 8.0>, ratios = array<f64: 1.0>} : (tensor<1x2x3x3xi32>, tensor<1x4x3x3xi32>, tensor<1x3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the box deltas need four values per anchor on the same map.
relay.func @proposal_deltas(%p: tensor<2x2x3x4xf32>, %d: tensor<2x4x4x3xf32>, %i: tensor<2x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.proposal: expected box deltas [2, 4, 3, 4] of the probabilities' dtype, got 'tensor<2x4x4x3xf32>'}}
  %r = relay.vision.proposal %p, %d, %i {scales = array<f64: 8.0>, ratios = array<f64: 1.0>} : (tensor<2x2x3x4xf32>, tensor<2x4x4x3xf32>, tensor<2x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the box deltas must have the probabilities' dtype.
relay.func @proposal_delta_dtype(%p: tensor<1x2x3x3xf32>, %d: tensor<1x4x3x3xf64>, %i: tensor<1x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.proposal: expected box deltas [1, 4, 3, 3] of the probabilities' dtype, got 'tensor<1x4x3x3xf64>'}}
  %r = relay.vision.proposal %p, %d, %i {scales = array<f64: 8.0>, ratios = array<f64: 1.0>} : (tensor<1x2x3x3xf32>, tensor<1x4x3x3xf64>, tensor<1x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the image info is [B, 3].
relay.func @proposal_info(%p: tensor<2x2x3x3xf32>, %d: tensor<2x4x3x3xf32>, %i: tensor<2x2xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.proposal: expected image info [2, 3] (height, width, scale) of the probabilities' dtype, got 'tensor<2x2xf32>'}}
  %r = relay.vision.proposal %p, %d, %i {scales = array<f64: 8.0>, ratios = array<f64: 1.0>} : (tensor<2x2x3x3xf32>, tensor<2x4x3x3xf32>, tensor<2x2xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that scales and ratios cannot be empty.
relay.func @proposal_no_scales(%p: tensor<1x2x3x3xf32>, %d: tensor<1x4x3x3xf32>, %i: tensor<1x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.proposal: scales and ratios must each have a value}}
  %r = relay.vision.proposal %p, %d, %i {scales = array<f64>, ratios = array<f64: 1.0>} : (tensor<1x2x3x3xf32>, tensor<1x4x3x3xf32>, tensor<1x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that a ratio must be positive (the anchors divide by it).
relay.func @proposal_ratio(%p: tensor<1x2x3x3xf32>, %d: tensor<1x4x3x3xf32>, %i: tensor<1x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.proposal: scales and ratios must be positive}}
  %r = relay.vision.proposal %p, %d, %i {scales = array<f64: 8.0>, ratios = array<f64: 0.0>} : (tensor<1x2x3x3xf32>, tensor<1x4x3x3xf32>, tensor<1x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the feature stride must be positive.
relay.func @proposal_stride(%p: tensor<1x2x3x3xf32>, %d: tensor<1x4x3x3xf32>, %i: tensor<1x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.proposal: feature_stride must be positive, got 0}}
  %r = relay.vision.proposal %p, %d, %i {scales = array<f64: 8.0>, ratios = array<f64: 1.0>, feature_stride = 0 : i64} : (tensor<1x2x3x3xf32>, tensor<1x4x3x3xf32>, tensor<1x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the result needs at least one row per image.
relay.func @proposal_post(%p: tensor<1x2x3x3xf32>, %d: tensor<1x4x3x3xf32>, %i: tensor<1x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.proposal: rpn_post_nms_top_n must be positive, got 0}}
  %r = relay.vision.proposal %p, %d, %i {scales = array<f64: 8.0>, ratios = array<f64: 1.0>, rpn_post_nms_top_n = 0 : i64} : (tensor<1x2x3x3xf32>, tensor<1x4x3x3xf32>, tensor<1x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the minimum box size cannot be negative.
relay.func @proposal_min_size(%p: tensor<1x2x3x3xf32>, %d: tensor<1x4x3x3xf32>, %i: tensor<1x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.proposal: rpn_min_size must not be negative, got -2}}
  %r = relay.vision.proposal %p, %d, %i {scales = array<f64: 8.0>, ratios = array<f64: 1.0>, rpn_min_size = -2 : i64} : (tensor<1x2x3x3xf32>, tensor<1x4x3x3xf32>, tensor<1x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that a row count past 64-bit sizes is an error, not a wrapped size.
relay.func @proposal_rows_overflow(%p: tensor<4x2x3x3xf32>, %d: tensor<4x4x3x3xf32>, %i: tensor<4x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.proposal: the result's 4 * 4000000000000000000 rows (images * rpn_post_nms_top_n) overflow 64-bit sizes}}
  %r = relay.vision.proposal %p, %d, %i {scales = array<f64: 8.0>, ratios = array<f64: 1.0>, rpn_post_nms_top_n = 4000000000000000000 : i64} : (tensor<4x2x3x3xf32>, tensor<4x4x3x3xf32>, tensor<4x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}
