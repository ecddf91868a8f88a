// RUN: relay-mlir-opt %s --split-input-file --relay-gpu-name-kernels \
// RUN:   | FileCheck %s

// Tests that each outlined kernel takes its module's name and that its
// launches follow.

// CHECK-LABEL: gpu.module @main_kernel
// CHECK: gpu.func @main_kernel(
// CHECK-LABEL: gpu.module @main_kernel_0
// CHECK: gpu.func @main_kernel_0(
// CHECK: func.func @main
// CHECK: gpu.launch_func @main_kernel::@main_kernel
// CHECK: gpu.launch_func @main_kernel_0::@main_kernel_0
// CHECK: gpu.launch_func @main_kernel_0::@main_kernel_0
module attributes {gpu.container_module} {
  gpu.module @main_kernel {
    gpu.func @main_kernel(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @main_kernel_0 {
    gpu.func @main_kernel(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @main_kernel::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @main_kernel_0::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @main_kernel_0::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
}

// -----

// Tests that a module of two kernels, and one whose name a helper function
// of it already has, keep their kernels' names.

// CHECK-LABEL: gpu.module @two
// CHECK: gpu.func @first(
// CHECK: gpu.func @second(
// CHECK-LABEL: gpu.module @taken
// CHECK: func.func @taken(
// CHECK: gpu.func @kernel(
// CHECK: gpu.launch_func @two::@first
// CHECK: gpu.launch_func @two::@second
// CHECK: gpu.launch_func @taken::@kernel
module attributes {gpu.container_module} {
  gpu.module @two {
    gpu.func @first(%a: memref<4xf32>) kernel {
      gpu.return
    }
    gpu.func @second(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @taken {
    func.func @taken() {
      return
    }
    gpu.func @kernel(%a: memref<4xf32>) kernel {
      func.call @taken() : () -> ()
      gpu.return
    }
  }
  func.func @main(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @two::@first blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @two::@second blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @taken::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
}
