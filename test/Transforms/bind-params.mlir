// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t/ok %t/typo %t/shape
// RUN: /usr/bin/python3 -c "import numpy as np; np.save('%t/ok/w.npy', np.array([1, 2, 3], np.float32)); np.save('%t/typo/v.npy', np.zeros(3, np.float32)); np.save('%t/shape/w.npy', np.zeros(4, np.float32))"
// RUN: relay-mlir-translate --import-relay %S/Inputs/bind-params.rly | relay-mlir-opt --relay-bind-params=dir=%t/ok | FileCheck %s
// RUN: relay-mlir-translate --import-relay %S/Inputs/bind-params.rly | relay-mlir-opt | relay-mlir-opt --relay-bind-params=dir=%t/ok | FileCheck %s
// RUN: relay-mlir-translate --import-relay %S/Inputs/bind-params.rly | not relay-mlir-opt --relay-bind-params=dir=%t/typo 2>&1 | FileCheck %s --check-prefix=TYPO
// RUN: relay-mlir-translate --import-relay %S/Inputs/bind-params.rly | not relay-mlir-opt --relay-bind-params=dir=%t/shape 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: relay-mlir-translate --import-relay %S/Inputs/bind-params.rly | not relay-mlir-opt --relay-bind-params=dir=%t/missing 2>&1 | FileCheck %s --check-prefix=MISSING

// Tests that a parameter with a .npy of its name becomes that constant and
// leaves the signature; the others stay. The names survive IR printed
// without debug information (the second RUN line): they are the printed
// parameters' SSA names.
// CHECK: relay.func @main(%x: tensor<3xf32>) -> tensor<3xf32>
// CHECK: %[[W:.*]] = relay.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK: relay.multiply %x, %[[W]]

// Tests the errors: a file naming no parameter, of another type, a
// missing directory.
// TYPO: error: --relay-bind-params: '{{.*}}v.npy' names no parameter of @main (its parameters: x, w)
// SHAPE: error: --relay-bind-params: '{{.*}}w.npy' holds a 'tensor<4xf32>' for parameter %w of type 'tensor<3xf32>'
// MISSING: error: --relay-bind-params: '{{.*}}missing' is not a directory
