// RUN: relay-mlir-opt %s --relay-flatten-constant-globals | FileCheck %s
// Constant weight globals get the flat array type of their bytes (one LLVM
// constant instead of one per row, written to the object in one go); the
// all-zero GEP taking their address goes.

// 1.0f is 0x3f800000: bytes 0, 0, 0x80, 0x3f (little-endian).
// CHECK: llvm.mlir.global private constant @weights(dense<[0, 0, -128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, -128, 64, 0, 0, -96, 64, 0, 0, -64, 64]> : tensor<24xi8>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<24 x i8>
llvm.mlir.global private constant @weights(dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x array<3 x f32>>

// A global whose address is indexed otherwise keeps its type.
// CHECK: llvm.mlir.global private constant @indexed({{.*}}) {{.*}} : !llvm.array<2 x array<2 x f32>>
llvm.mlir.global private constant @indexed(dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x f32>>

// CHECK-LABEL: llvm.func @use
// CHECK: %[[W:.*]] = llvm.mlir.addressof @weights : !llvm.ptr
// CHECK-NOT: llvm.getelementptr %[[W]]
// CHECK: llvm.return %[[W]]
llvm.func @use() -> !llvm.ptr {
  %0 = llvm.mlir.addressof @weights : !llvm.ptr
  %1 = llvm.getelementptr %0[0, 0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<3 x f32>>
  llvm.return %1 : !llvm.ptr
}

// CHECK-LABEL: llvm.func @row
// CHECK: llvm.getelementptr %{{.*}}[0, 1, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<2 x f32>>
llvm.func @row() -> !llvm.ptr {
  %0 = llvm.mlir.addressof @indexed : !llvm.ptr
  %1 = llvm.getelementptr %0[0, 1, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<2 x f32>>
  llvm.return %1 : !llvm.ptr
}

// Weights held as resource blobs keep the blob, seen as bytes.
// CHECK: llvm.mlir.global private constant @blob(dense_resource<w> : tensor<16xi8>) {{.*}} : !llvm.array<16 x i8>
llvm.mlir.global private constant @blob(dense_resource<w> : tensor<2x2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x f32>>

// A splat has no bytes at hand: it gets the flat array of its elements.
// CHECK: llvm.mlir.global private constant @splat(dense<5.000000e-01> : tensor<8xf32>) {{.*}} : !llvm.array<8 x f32>
llvm.mlir.global private constant @splat(dense<0.5> : tensor<2x4xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<4 x f32>>

// i1 elements are narrower than a byte: flat elements.
// CHECK: llvm.mlir.global private constant @mask(dense<[true, false, false, true]> : tensor<4xi1>) {{.*}} : !llvm.array<4 x i1>
llvm.mlir.global private constant @mask(dense<[[true, false], [false, true]]> : tensor<2x2xi1>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x i1>>

{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
