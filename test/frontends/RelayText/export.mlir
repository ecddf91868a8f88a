// RUN: relay-mlir-translate --export-relay %s | FileCheck %s
// RUN: relay-mlir-translate --export-relay %s | relay-mlir-translate --import-relay | relay-mlir-translate --export-relay | FileCheck %s
// Export to Relay text: definitions with every known type, operators with
// TVM's attribute syntax, pure values as graph bindings, the rest as lets,
// tensor constants in the metadata section. Re-importing and exporting
// again prints the same text.

// CHECK: #[version = "0.0.5"]
// CHECK-NEXT: type List[a] {
// CHECK-NEXT:   Cons(a, List[a]),
// CHECK-NEXT:   Nil,
// CHECK-NEXT: }
relay.data @List[a] {
  relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
  relay.ctor @Nil
}

// Parameters and pattern variables keep the names they have in the IR.
// CHECK: def @len[a](%l: List[a]) -> int32 {
// CHECK-NEXT:   let %x: int32 = match (%l) {
// CHECK-NEXT:     Cons(_, %rest: List[a]) => {
// CHECK-NEXT:       let %x1: int32 = @len(%rest);
// CHECK-NEXT:       %0 = add(%x1, 1);
// CHECK-NEXT:       %0
// CHECK-NEXT:     },
// CHECK-NEXT:     Nil => {
// CHECK-NEXT:       0
// CHECK-NEXT:     },
// CHECK-NEXT:   };
// CHECK-NEXT:   %x
// CHECK-NEXT: }
relay.func @len[a](%l: !relay.adt<@List, !relay.tvar<a>>) -> tensor<i32> {
  %r = relay.match %l : !relay.adt<@List, !relay.tvar<a>> -> tensor<i32> {
    case @List::@Cons(_, %rest : !relay.adt<@List, !relay.tvar<a>>) {
      %n = relay.call @len(%rest) : (!relay.adt<@List, !relay.tvar<a>>) -> tensor<i32>
      %one = relay.constant dense<1> : tensor<i32>
      %s = relay.add %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
      relay.yield %s : tensor<i32>
    }
    case @List::@Nil {
      %z = relay.constant dense<0> : tensor<i32>
      relay.yield %z : tensor<i32>
    }
  }
  relay.return %r : tensor<i32>
}

// CHECK: def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]) -> (Tensor[(1, 4, 8, 8), float32], int64) {
// CHECK-NEXT:   %0 = nn.conv2d(%x, %w, channels=4, kernel_size=[3, 3], padding=[1, 1]);
// CHECK-NEXT:   %1 = nn.pad(%0, 0.5f, pad_width={{\[\[}}0, 0], [0, 0], [1, 1], [1, 1]]);
// CHECK-NEXT:   %2 = strided_slice(%1, axes=[2, 3], begin=[1, 1], end=[9, 9]);
// CHECK-NEXT:   %3 = add(%2, meta[relay.Constant][0]);
// CHECK-NEXT:   let %x1: fn (int64) -> int64 = fn (%n: int64) -> int64 {
// CHECK-NEXT:     %4 = equal(%n, 0i64);
// CHECK-NEXT:     let %x2: int64 = if (%4) {
// CHECK-NEXT:       1i64
// CHECK-NEXT:     } else {
// CHECK-NEXT:       %5 = subtract(%n, 1i64);
// CHECK-NEXT:       let %x3: int64 = %x1(%5);
// CHECK-NEXT:       %6 = multiply(%n, %x3);
// CHECK-NEXT:       %6
// CHECK-NEXT:     };
// CHECK-NEXT:     %x2
// CHECK-NEXT:   };
// CHECK-NEXT:   let %x4: int64 = %x1(5i64);
// CHECK-NEXT:   %7 = (%3, %x4);
// CHECK-NEXT:   %7
// CHECK-NEXT: }
// Tests that space_to_batch_nd's paddings and batch_to_space_nd's crops
// print as TVM's (before, after) pairs.
// CHECK: def @space_batch(%x: Tensor[(2, 5, 3, 4), float32]) -> Tensor[(2, 5, 3, 4), float32] {
// CHECK-NEXT:   %0 = nn.space_to_batch_nd(%x, block_shape=[2, 3], paddings={{\[\[}}1, 0], [2, 1]]);
// CHECK-NEXT:   %1 = nn.batch_to_space_nd(%0, block_shape=[2, 3], crops={{\[\[}}1, 0], [2, 1]]);
// CHECK: #[metadata]
// CHECK: "b64ndarrays": [
// CHECK-NEXT: "P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAwAAAAIgAQAEAAAAAAAAAAEAAAAAAAAAAQAAAAAAAAAQAAAAAAAAAAAAgD8AAABAAABAQAAAgEA="
relay.func @main(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tuple<tensor<1x4x8x8xf32>, tensor<i64>> {
  %c = relay.nn.conv2d %x, %w {channels = 4 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %half = relay.constant dense<0.5> : tensor<f32>
  %p = relay.nn.pad %c, %half {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x10x10xf32>
  %s = relay.strided_slice %p {begin = array<i64: 1, 1>, end = array<i64: 9, 9>, axes = array<i64: 2, 3>} : (tensor<1x4x10x10xf32>) -> tensor<1x4x8x8xf32>
  %bias = relay.constant dense<[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]> : tensor<4x1x1xf32>
  %y = relay.add %s, %bias : (tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %fact = relay.fn rec(%self) (%n: tensor<i64>) -> tensor<i64> {
    %zero = relay.constant dense<0> : tensor<i64>
    %is = relay.equal %n, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %r = relay.if %is : tensor<i1> -> tensor<i64> {
      %one = relay.constant dense<1> : tensor<i64>
      relay.yield %one : tensor<i64>
    } else {
      %one = relay.constant dense<1> : tensor<i64>
      %m = relay.subtract %n, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
      %rec = relay.apply %self(%m) : (!relay.fn<(tensor<i64>) -> tensor<i64>>, tensor<i64>) -> tensor<i64>
      %p2 = relay.multiply %n, %rec : (tensor<i64>, tensor<i64>) -> tensor<i64>
      relay.yield %p2 : tensor<i64>
    }
    relay.return %r : tensor<i64>
  }
  %five = relay.constant dense<5> : tensor<i64>
  %f5 = relay.apply %fact(%five) : (!relay.fn<(tensor<i64>) -> tensor<i64>>, tensor<i64>) -> tensor<i64>
  %t = relay.tuple(%y, %f5 : tensor<1x4x8x8xf32>, tensor<i64>)
  relay.return %t : tuple<tensor<1x4x8x8xf32>, tensor<i64>>
}

relay.func @space_batch(%x: tensor<2x5x3x4xf32>) -> tensor<2x5x3x4xf32> {
  %b = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 3>, paddings = array<i64: 1, 0, 2, 1>} : (tensor<2x5x3x4xf32>) -> tensor<12x3x2x4xf32>
  %s = relay.nn.batch_to_space_nd %b {block_shape = array<i64: 2, 3>, crops = array<i64: 1, 0, 2, 1>} : (tensor<12x3x2x4xf32>) -> tensor<2x5x3x4xf32>
  relay.return %s : tensor<2x5x3x4xf32>
}
