// RUN: relay-mlir-opt %s --relay-to-llvm="cpu=znver3 threads=1" | mlir-translate --mlir-to-llvmir | FileCheck %s

// Tests that the im2col copies of a convolution of an 8-channel image (as
// in RAFT's flow head) reach LLVM IR as loops marked
// llvm.loop.unroll.disable by --relay-limit-copy-unrolling and
// --relay-convert-cf-to-llvm, so that LLVM does not unroll the nine taps'
// copies into one block of thousands of instructions.
// CHECK: br label %{{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
// CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[DISABLE:[0-9]+]]}
// CHECK: ![[DISABLE]] = !{!"llvm.loop.unroll.disable"}
relay.func @main(%x: tensor<2x8x66x66xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<2x8x64x64xf32> {
  %y = relay.nn.conv2d %x, %w : (tensor<2x8x66x66xf32>, tensor<8x8x3x3xf32>) -> tensor<2x8x64x64xf32>
  relay.return %y : tensor<2x8x64x64xf32>
}
