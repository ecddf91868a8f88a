// RUN: relay-mlir-opt %s --relay-flatten-constant-globals | FileCheck %s
// Constant weight globals get a flat array type (one LLVM constant instead
// of one per row); the all-zero GEP taking their address goes.

// CHECK: llvm.mlir.global private constant @weights(dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<6 x f32>
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
