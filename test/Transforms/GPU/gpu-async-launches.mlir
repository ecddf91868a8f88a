// RUN: relay-mlir-opt %s --split-input-file --relay-gpu-async-launches \
// RUN:   | FileCheck %s

// Tests that launches separated only by views, index arithmetic and
// allocations join one chain (the first starts it, each depends on the one
// before), that a free between them (a dealloc on a stream of its own,
// waited for at once) joins the chain without its waits, and that the chain
// is waited for before the host reads a buffer.

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @chain(%a: memref<4xf32>, %b: memref<8xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    %t = gpu.alloc host_shared () : memref<4xf32>
    %v = memref.subview %b[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
    %w = memref.cast %t : memref<4xf32> to memref<4xf32>
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%w : memref<4xf32>)
    %s0 = gpu.wait async
    %s1 = gpu.dealloc async [%s0] %t : memref<4xf32>
    gpu.wait [%s1]
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    %x = memref.load %a[%c0] : memref<4xf32>
    return %x : f32
  }
}
// CHECK-LABEL: func.func @chain
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T1:.*]] = gpu.launch_func async [%[[T0]]] @k::@k
// CHECK:         gpu.alloc host_shared
// CHECK:         memref.subview
// CHECK:         %[[T2:.*]] = gpu.launch_func async [%[[T1]]] @k::@k
// CHECK-NEXT:    %[[T3:.*]] = gpu.dealloc async [%[[T2]]]
// CHECK-NEXT:    %[[T4:.*]] = gpu.launch_func async [%[[T3]]] @k::@k
// CHECK-NEXT:    gpu.wait [%[[T4]]]
// CHECK-NEXT:    memref.load
// CHECK-NOT:     gpu.wait

// -----

// Tests that control flow and the block's end wait for the chain, and
// that a loop's body chains its own launches and waits before it yields.

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @regions(%a: memref<4xf32>, %p: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    scf.if %p {
      gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    }
    scf.for %i = %c0 to %c4 step %c1 {
      gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
      gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    }
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
}
// CHECK-LABEL: func.func @regions
// CHECK:         %[[A:.*]] = gpu.launch_func async
// CHECK-NEXT:    gpu.wait [%[[A]]]
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      %[[B0:.*]] = gpu.wait async
// CHECK-NEXT:      %[[B:.*]] = gpu.launch_func async [%[[B0]]]
// CHECK-NEXT:      gpu.wait [%[[B]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      %[[C0:.*]] = gpu.wait async
// CHECK-NEXT:      %[[C1:.*]] = gpu.launch_func async [%[[C0]]]
// CHECK-NEXT:      %[[C2:.*]] = gpu.launch_func async [%[[C1]]]
// CHECK-NEXT:      gpu.wait [%[[C2]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[D0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[D:.*]] = gpu.launch_func async [%[[D0]]]
// CHECK-NEXT:    gpu.wait [%[[D]]]
// CHECK-NEXT:    return

// -----

// Tests that a copy (it reads on the host's side) and a call wait for the
// chain, and that a launch already async is left as it is.

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<4xf32>)
  func.func @copies(%a: memref<4xf32>, %h: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    %s0 = gpu.wait async
    %s1 = gpu.memcpy async [%s0] %h, %a : memref<4xf32>, memref<4xf32>
    gpu.wait [%s1]
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    func.call @use(%a) : (memref<4xf32>) -> ()
    %u0 = gpu.wait async
    %u1 = gpu.launch_func async [%u0] @k::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    gpu.wait [%u1]
    return
  }
}
// CHECK-LABEL: func.func @copies
// CHECK:         %[[A:.*]] = gpu.launch_func async
// CHECK:         gpu.wait [%[[A]]]
// CHECK:         gpu.memcpy async
// CHECK:         %[[B:.*]] = gpu.launch_func async
// CHECK-NEXT:    gpu.wait [%[[B]]]
// CHECK-NEXT:    call @use
// CHECK-NEXT:    %[[U0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[U1:.*]] = gpu.launch_func async [%[[U0]]]
// CHECK-NEXT:    gpu.wait [%[[U1]]]
// CHECK-NEXT:    return
