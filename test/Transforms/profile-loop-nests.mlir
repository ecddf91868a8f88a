// RUN: relay-mlir-opt %s --split-input-file --relay-profile-loop-nests \
// RUN:   | FileCheck %s

// Tests that each call of a loop nest is bracketed by the runtime's clock
// and a record under the location of the operator it computes: an ONNX
// node's name with its place, a file's place, the first three places of a
// fused location, the nest's own name where the location is unknown; that
// calls with the same name share one string, and that calls of other
// functions are left alone.

// CHECK-DAG: llvm.mlir.global internal constant @[[$CONV:relay_profile_name_[0-9]+]]("stem/Conv (model.onnx:3:0)\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[$TEXT:relay_profile_name_[0-9]+]]("prog.rly:4:7\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[$FUSED:relay_profile_name_[0-9]+]]("prog.rly:5:3 + prog.rly:5:11 + prog.rly:5:20 + 1 more\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[$UNKNOWN:relay_profile_name_[0-9]+]]("relay_loop_nest_1\00")
// CHECK-LABEL: func.func @main
// CHECK:      %[[T0:.*]] = call @relay_rt_profile_clock() : () -> i64
// CHECK-NEXT: call @relay_loop_nest(%arg0)
// CHECK-NEXT: %[[N0:.*]] = llvm.mlir.addressof @[[$CONV]] : !llvm.ptr
// CHECK-NEXT: call @relay_rt_profile_record(%[[N0]], %[[T0]]) : (!llvm.ptr, i64) -> ()
// CHECK:      %[[T1:.*]] = call @relay_rt_profile_clock()
// CHECK-NEXT: call @relay_loop_nest(%arg1)
// CHECK-NEXT: %[[N1:.*]] = llvm.mlir.addressof @[[$CONV]]
// CHECK-NEXT: call @relay_rt_profile_record(%[[N1]], %[[T1]])
// CHECK:      call @relay_loop_nest_0(%arg0)
// CHECK-NEXT: llvm.mlir.addressof @[[$TEXT]]
// CHECK:      call @relay_loop_nest_0(%arg1)
// CHECK-NEXT: llvm.mlir.addressof @[[$FUSED]]
// CHECK:      call @relay_loop_nest_1(%arg1)
// CHECK-NEXT: llvm.mlir.addressof @[[$UNKNOWN]]
// CHECK-NEXT: call @relay_rt_profile_record
// CHECK-NEXT: call @helper(%arg0)
// CHECK-NEXT: return
// CHECK-DAG: func.func private @relay_rt_profile_clock() -> i64
// CHECK-DAG: func.func private @relay_rt_profile_record(!llvm.ptr, i64)
func.func private @relay_loop_nest(%a: memref<8xf32>) attributes {relay.loop_nest} {
  return
}
func.func private @relay_loop_nest_0(%a: memref<8xf32>) attributes {relay.loop_nest} {
  return
}
func.func private @relay_loop_nest_1(%a: memref<8xf32>) attributes {relay.loop_nest} {
  return
}
func.func private @helper(%a: memref<8xf32>) {
  return
}
func.func @main(%a: memref<8xf32>, %b: memref<8xf32>) {
  call @relay_loop_nest(%a) : (memref<8xf32>) -> () loc(#conv)
  call @relay_loop_nest(%b) : (memref<8xf32>) -> () loc(#conv)
  call @relay_loop_nest_0(%a) : (memref<8xf32>) -> () loc("prog.rly":4:7)
  call @relay_loop_nest_0(%b) : (memref<8xf32>) -> () loc(fused["prog.rly":5:3, "prog.rly":5:11, "prog.rly":5:20, "prog.rly":6:1])
  call @relay_loop_nest_1(%b) : (memref<8xf32>) -> () loc(unknown)
  call @helper(%a) : (memref<8xf32>) -> ()
  return
}
#conv = loc("stem/Conv"("/models/model.onnx":3:0))

// -----

// Tests that a module without loop nests is left as it is.

// CHECK-LABEL: func.func @plain
// CHECK-NOT: relay_rt_profile
func.func @plain(%a: memref<8xf32>) {
  return
}
