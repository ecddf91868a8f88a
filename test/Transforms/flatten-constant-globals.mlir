// RUN: relay-mlir-opt %s --relay-flatten-constant-globals | FileCheck %s

// A constant global of nested arrays gets one flat array type and the same
// values; a dense_resource blob keeps its handle.
// CHECK: llvm.mlir.global private constant @w(dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>) {addr_space = 0 : i32} : !llvm.array<6 x f32>
llvm.mlir.global private constant @w(dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>) : !llvm.array<2 x array<3 x f32>>

// CHECK: llvm.mlir.global private constant @blob(dense_resource<weights> : tensor<4xf32>) {addr_space = 0 : i32} : !llvm.array<4 x f32>
llvm.mlir.global private constant @blob(dense_resource<weights> : tensor<2x2xf32>) : !llvm.array<2 x array<2 x f32>>

// Mutable globals and flat ones are left alone.
// CHECK: llvm.mlir.global private @mutable(dense<0.000000e+00> : tensor<2x2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x f32>>
llvm.mlir.global private @mutable(dense<0.0> : tensor<2x2xf32>) : !llvm.array<2 x array<2 x f32>>
// CHECK: llvm.mlir.global private constant @flat(dense<1.000000e+00> : tensor<3xf32>) {addr_space = 0 : i32} : !llvm.array<3 x f32>
llvm.mlir.global private constant @flat(dense<1.0> : tensor<3xf32>) : !llvm.array<3 x f32>

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
