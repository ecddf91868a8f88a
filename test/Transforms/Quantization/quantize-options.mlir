// RUN: not relay-mlir-opt %s '--relay-quantize=nbit-weight=0' 2>&1 | FileCheck %s --check-prefix=NBIT
// RUN: not relay-mlir-opt %s '--relay-quantize=calibrate-mode=entropy' 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not relay-mlir-opt %s '--relay-quantize=calibrate-mode=kl-divergence' 2>&1 | FileCheck %s --check-prefix=KL
// RUN: not relay-mlir-opt %s '--relay-quantize=dtype-input=float16' 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not relay-mlir-opt %s '--relay-quantize=dtype-input=int8 nbit-input=16' 2>&1 | FileCheck %s --check-prefix=WIDTH
// RUN: not relay-mlir-opt %s '--relay-quantize=skip-conv-layers=first' 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: not relay-mlir-opt %s '--relay-quantize=weight-scale=min' 2>&1 | FileCheck %s --check-prefix=WSCALE
// RUN: not relay-mlir-opt %s '--relay-quantize=global-scale=0' 2>&1 | FileCheck %s --check-prefix=GSCALE
// RUN: not relay-mlir-opt %s '--relay-quantize=partition-conversions=always' 2>&1 | FileCheck %s --check-prefix=PARTITION

// Tests that impossible configurations are rejected with the option's name.
// NBIT: error: --relay-quantize: nbit-weight=0 is not a bit width from 2 to 32
// MODE: error: --relay-quantize: calibrate-mode=entropy is not global-scale, kl-divergence or percentile
// KL: error: --relay-quantize-calibrate: calibrate-mode=kl-divergence needs calibration-data=DIR
// DTYPE: error: --relay-quantize: dtype-input=float16 is not int8, int16 or int32
// WIDTH: error: --relay-quantize: dtype-input=int8 cannot hold nbit-input=16 bits
// SKIP: error: --relay-quantize: skip-conv-layers: 'first' is not a convolution index (or none)
// WSCALE: error: --relay-quantize: weight-scale=min is not power2 or max
// GSCALE: error: --relay-quantize: global-scale=0 is not positive
// PARTITION: error: --relay-quantize: partition-conversions=always is not disabled, enabled or fully-integral
relay.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  relay.return %x : tensor<4xf32>
}
