// RUN: relay-mlir-opt %s --split-input-file --relay-to-mixed-precision | FileCheck %s
// RUN: relay-mlir-opt %s --split-input-file --relay-to-mixed-precision=mixed-precision-type=float16 | FileCheck %s --check-prefix=F16
// RUN: relay-mlir-opt %s --relay-to-mixed-precision | relay-mlir-translate --export-relay | FileCheck %s --check-prefix=TEXT
// RUN: relay-mlir-opt %s --relay-to-mixed-precision | relay-mlir-translate --export-relay | relay-mlir-translate --import-relay | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: not relay-mlir-opt %s --relay-to-mixed-precision=mixed-precision-type=int8 2>&1 | FileCheck %s --check-prefix=BADTYPE

// Tests that an unknown type is an error naming the valid ones.
// BADTYPE: error: --relay-to-mixed-precision: unknown mixed-precision-type 'int8' (expected bfloat16 or float16)

// Tests that a dense layer takes its input cast to bfloat16 and its constant
// weights rounded to bfloat16 constants (to nearest even: 0.1 becomes
// 0.10009765625, 8.00390625 a tie that rounds to 8), summing in float32
// (out_dtype), and that its result and the ops after it stay float32.
// The f32 weights, unused after, are gone.
// CHECK-LABEL: relay.func @dense
// CHECK-NOT: tensor<1x4xf32>
// CHECK-DAG: %[[X:.*]] = relay.cast %x {dtype = bf16} : (tensor<2x4xf32>) -> tensor<2x4xbf16>
// CHECK-DAG: %[[W:.*]] = relay.constant dense<{{\[}}[1.000980e-01, 8.000000e+00, -2.500000e-01, 3.000000e+00]]> : tensor<1x4xbf16>
// CHECK: %[[D:.*]] = relay.nn.dense %[[X]], %[[W]] {out_dtype = f32} : (tensor<2x4xbf16>, tensor<1x4xbf16>) -> tensor<2x1xf32>
// CHECK: relay.nn.relu %[[D]] : (tensor<2x1xf32>) -> tensor<2x1xf32>
// F16-LABEL: relay.func @dense
// F16: relay.cast %x {dtype = f16}
// F16: relay.constant {{.*}} : tensor<1x4xf16>
// F16: relay.nn.dense {{.*}} {out_dtype = f32} : (tensor<2x4xf16>, tensor<1x4xf16>) -> tensor<2x1xf32>
// TEXT: %0 = cast(%x, dtype="bfloat16");
// TEXT: nn.dense(%0, meta[relay.Constant][0], out_dtype="float32")
// Tests that the exported text re-imports with the bfloat16 weights.
// ROUNDTRIP: relay.constant dense<{{\[}}[1.000980e-01, 8.000000e+00, -2.500000e-01, 3.000000e+00]]> : tensor<1x4xbf16>
relay.func @dense(%x: tensor<2x4xf32>) -> tensor<2x1xf32> {
  %w = relay.constant dense<[[0.1, 8.00390625, -0.25, 3.0]]> : tensor<1x4xf32>
  %d = relay.nn.dense %x, %w : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x1xf32>
  %r = relay.nn.relu %d : (tensor<2x1xf32>) -> tensor<2x1xf32>
  relay.return %r : tensor<2x1xf32>
}

// -----

// Tests that a value two products read is cast once, and that a matmul of
// two run-time operands casts both.
// CHECK-LABEL: relay.func @shared
// CHECK-COUNT-2: relay.cast
// CHECK-NOT: relay.cast
// CHECK: relay.nn.matmul {{.*}} {out_dtype = f32} : (tensor<4x4xbf16>, tensor<4x4xbf16>) -> tensor<4x4xf32>
// CHECK: relay.nn.matmul {{.*}} {out_dtype = f32} : (tensor<4x4xbf16>, tensor<4x4xbf16>) -> tensor<4x4xf32>
relay.func @shared(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m1 = relay.nn.matmul %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %m2 = relay.nn.matmul %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = relay.add %m1, %m2 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  relay.return %s : tensor<4x4xf32>
}

// -----

// Tests that an ungrouped convolution is converted and a depthwise one,
// memory-bound, keeps float32, as do products of other types.
// CHECK-LABEL: relay.func @convs
// CHECK: relay.nn.conv2d {{.*}} {out_dtype = f32{{.*}}} : (tensor<1x8x6x6xbf16>, tensor<8x8x3x3xbf16>) -> tensor<1x8x6x6xf32>
// CHECK: relay.nn.conv2d {{.*}} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x6x6xf32>
// CHECK: relay.nn.dense {{.*}} : (tensor<2x3xi8>, tensor<4x3xi8>) -> tensor<2x4xi32>
relay.func @convs(%x: tensor<1x8x6x6xf32>, %w: tensor<8x8x3x3xf32>, %dw: tensor<8x1x3x3xf32>, %i: tensor<2x3xi8>, %iw: tensor<4x3xi8>) -> tuple<tensor<1x8x6x6xf32>, tensor<2x4xi32>> {
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  %d = relay.nn.conv2d %c, %dw {padding = array<i64: 1, 1>, groups = 8} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x6x6xf32>
  %q = relay.nn.dense %i, %iw {out_dtype = i32} : (tensor<2x3xi8>, tensor<4x3xi8>) -> tensor<2x4xi32>
  %t = relay.tuple(%d, %q : tensor<1x8x6x6xf32>, tensor<2x4xi32>)
  relay.return %t : tuple<tensor<1x8x6x6xf32>, tensor<2x4xi32>>
}

// -----

// Tests that weights in a resource blob (the ONNX importer's) are rounded
// into a blob of bfloat16 (0.1 = 0x3DCCCCCD rounds up to 0x3DCD).
// CHECK-LABEL: relay.func @blob
// CHECK: relay.constant dense_resource<relay_mixed_precision> : tensor<2x2xbf16>
// CHECK: relay_mixed_precision: "0x40000000803FC03FD03FCD3D"
relay.func @blob(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = relay.constant dense_resource<w> : tensor<2x2xf32>
  %d = relay.nn.dense %x, %w : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
  relay.return %d : tensor<1x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F0000C03F0000D03FCDCCCC3D"
    }
  }
#-}
