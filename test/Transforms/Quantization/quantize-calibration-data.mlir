// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t/threes %t/empty %t/wrong
// RUN: /usr/bin/python3 -c "import numpy as np; np.save('%t/threes/a.npy', np.full((4,), 3.0, np.float32)); np.save('%t/threes/b.npy', np.full((4,), -3.0, np.float32)); np.save('%t/wrong/a.npy', np.zeros((5,), np.float32))"
// RUN: relay-mlir-opt %s '--relay-quantize-calibrate=calibrate-mode=percentile calibration-data=%t/threes' | FileCheck %s
// RUN: relay-mlir-opt %s '--relay-quantize-calibrate=calibrate-mode=kl-divergence calibration-data=%t/threes' | FileCheck %s --check-prefix=KL
// RUN: not relay-mlir-opt %s '--relay-quantize-calibrate=calibrate-mode=kl-divergence' 2>&1 | FileCheck %s --check-prefix=NODATA
// RUN: not relay-mlir-opt %s '--relay-quantize-calibrate=calibrate-mode=percentile calibration-data=%t/missing' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not relay-mlir-opt %s '--relay-quantize-calibrate=calibrate-mode=percentile calibration-data=%t/empty' 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not relay-mlir-opt %s '--relay-quantize-calibrate=calibrate-mode=percentile calibration-data=%t/wrong' 2>&1 | FileCheck %s --check-prefix=WRONG

// Tests that the range of an input comes from what the program computes
// there over the samples: relu(x) of the samples +-3 is 3 or 0, whose
// 99.99th percentile is 3: the scale 3 / 128. KL divergence computes a
// threshold from their histogram (neither the placeholder scale 1 nor the
// global scale's 8 / 128).
// CHECK: %[[S:.*]] = relay.constant dense<2.343750e-02> : tensor<f32>
// CHECK: relay.annotation.simulated_quantize %{{.*}}, %[[S]]
// KL-NOT: dense<1.000000e+00> : tensor<f32>
// KL-NOT: dense<6.250000e-02> : tensor<f32>
// KL: relay.annotation.simulated_quantize

// Tests the errors of calibration data: none given, a missing or empty
// directory, a sample of another shape (named).
// NODATA: error: --relay-quantize-calibrate: calibrate-mode=kl-divergence needs calibration-data=DIR
// MISSING: error: calibration-data '{{.*}}missing' is not a directory
// EMPTY: error: calibration-data '{{.*}}empty' holds no samples (.npy files)
// WRONG: error: calibration-data '{{.*}}wrong{{/|\\}}a.npy' holds a 'tensor<5xf32>' where parameter #0 is 'tensor<4xf32>'
relay.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %lo = relay.constant dense<-127.0> : tensor<f32>
  %hi = relay.constant dense<127.0> : tensor<f32>
  %q = relay.annotation.simulated_quantize %r, %one, %lo, %hi {kind = 1 : i64} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  relay.return %q : tensor<4xf32>
}
