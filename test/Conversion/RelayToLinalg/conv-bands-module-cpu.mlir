// RUN: relay-mlir-opt %s --relay-to-linalg | FileCheck %s

// Tests that the kernels built inside a band loop size themselves by the
// CPU the module describes, not by this machine's: a band's convolution
// is built in the body of the band's scf.for, which must be in the module
// when it is built. With a 4 MB L2 (written by hand: no x86 CPU this runs
// on has one) a 3x3 stride-2 convolution's products go in bands of 28
// rows (within 512 KB, an eighth of L2) and each band is one product; with
// the host's caches the band's own product was split again (bands of 4
// rows inside bands of 8 on a Zen 3's 512 KB L2).
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"cpu" = "znver4",
                                     "L2_cache_size_in_bytes" = 4194304 : i64>>} {
// CHECK-LABEL: func.func @strided(
// CHECK: scf.for %{{.*}} = %c0 to %c56 step %c28
// CHECK-NOT: scf.for
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<64x1568xf32>)
// CHECK-NOT: scf.for
// CHECK: return
relay.func @strided(%x: tensor<1x64x112x112xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 64 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32>
  relay.return %r : tensor<1x64x56x56xf32>
}
}
